state = {"count": 0}
log = []
def bump(n):
    state["count"] += n
    log.append(n)
for i in range(4):
    bump(i)
print(state, log)

a = {1, 2, 3, 4}
b = {3, 4, 5}
print(sorted(a | b), sorted(a & b), sorted(a - b), sorted(a ^ b))
a.add(10)
a.discard(1)
print(sorted(a), 10 in a, len(a))
seen = set()
dups = []
for x in [1, 2, 1, 3, 2]:
    if x in seen:
        dups.append(x)
    seen.add(x)
print(dups)

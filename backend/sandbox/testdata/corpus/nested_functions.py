def make_counter(start):
    box = [start]
    def inc():
        box[0] += 1
        return box[0]
    return inc
c = make_counter(10)
c()
c()
print(c())

def gen(n):
    for i in range(n):
        yield i * 2
print(list(gen(3)))

names = ["a", "b", "c"]
scores = [10, 20, 30]
for i, (n, s) in enumerate(zip(names, scores)):
    print(i, n, s)
print(dict(zip(names, scores)))
print(list(enumerate(names, start=1)))

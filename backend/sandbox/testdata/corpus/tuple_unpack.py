point = (3, 4)
x, y = point
print(x, y)
a, b = b, a = 1, 2
first, second, third = "abc"
print(first, third)
for (k, v) in [("a", 1), ("b", 2)]:
    print(k * v)

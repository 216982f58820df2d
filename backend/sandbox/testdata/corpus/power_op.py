print(2 ** 10, 2 ** 0.5, 10 ** -2)
print(-2 ** 2, (-2) ** 2, 2 ** 3 ** 2)
x = 3
print(x ** 2 + 1, [i ** 2 for i in range(5)])

a = 10
b = 3
print(f"{a=} {b=}")
print(f"{a / b=:.3f}")

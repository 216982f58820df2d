result = sorted(
    [
        ("x", 3),
        ("y", 1),
    ],
    key=lambda t: t[1],
)
print(result)
total = (1 +
         2 +
         3)
print(total)

for i, ch in enumerate("hey"):
    print(i, ch)
print(list(zip("ab", "xy")))
print(sorted("banana"), max("abc"))

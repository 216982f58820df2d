rows = [("b", 2), ("a", 2), ("c", 1)]
print(sorted(rows, key=lambda r: (-r[1], r[0])))
print(sorted(["bb", "a", "ccc"], key=len, reverse=True))

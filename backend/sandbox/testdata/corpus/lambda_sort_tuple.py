pairs = [(1, "b"), (2, "a"), (1, "a")]
pairs.sort(key=lambda p: (p[0], p[1]))
print(pairs)
print(sorted(pairs, key=lambda p: p[1]))

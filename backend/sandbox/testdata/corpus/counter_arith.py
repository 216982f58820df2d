from collections import Counter
a = Counter(["x", "y", "x"])
b = Counter({"x": 1, "z": 4})
merged = Counter()
merged.update(a)
merged.update(b)
print(sorted(merged.items()))
print(merged.most_common(1)[0])

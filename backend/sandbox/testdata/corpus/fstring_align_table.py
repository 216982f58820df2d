rows = [("alpha", 1, 0.5), ("beta", 22, 12.25), ("gamma", 333, 100.0)]
print(f"{'name':<8}|{'n':>5}|{'val':>8}")
print("-" * 23)
for name, n, val in rows:
    print(f"{name:<8}|{n:>5}|{val:>8.2f}")

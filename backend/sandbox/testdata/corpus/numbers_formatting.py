values = [0, 1.5, -2.25, 1000000, 0.000123]
for v in values:
    print(f"{v:>12} {v:>12.3f} {v:g}")

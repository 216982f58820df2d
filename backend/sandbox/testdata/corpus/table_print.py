rows = [["file", "lines", "size"], ["main.go", 120, 3.5], ["util.go", 45, 1.25]]
widths = [max(len(str(r[i])) for r in rows) for i in range(3)]
for r in rows:
    print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))

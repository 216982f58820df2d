lines = []
for i in range(3):
    lines.append("row %d: %s" % (i, "#" * (i + 1)))
out = "\n".join(lines)
print(out)
s = ""
for w in ["a", "b", "c"]:
    s += w.upper()
print(s, len(s))

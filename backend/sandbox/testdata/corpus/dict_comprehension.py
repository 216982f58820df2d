words = ["apple", "bob", "kayak", "level", "python"]
lengths = {w: len(w) for w in words}
pal = {w for w in words if w == w[::-1]}
print(lengths)
print(sorted(pal))

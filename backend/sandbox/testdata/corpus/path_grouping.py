import os
files = ["src/a.go", "src/b.go", "cmd/main.go", "README.md", "docs/x.md"]
by_ext = {}
for f in files:
    ext = os.path.splitext(f)[1] or "(none)"
    by_ext.setdefault(ext, []).append(f)
for ext in sorted(by_ext):
    print(ext, len(by_ext[ext]), by_ext[ext])
by_dir = {}
for f in files:
    d = os.path.dirname(f) or "."
    by_dir[d] = by_dir.get(d, 0) + 1
print(by_dir)

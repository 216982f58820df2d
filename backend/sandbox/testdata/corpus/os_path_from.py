from os.path import join, basename, splitext
files = ["a/b/c.txt", "d/e.py", "f"]
for f in files:
    stem, ext = splitext(basename(f))
    print(join("out", stem + (ext or ".bin")))

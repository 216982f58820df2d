s = "Hello World"
print(s.lower().count("o"), s.replace("o", "0", 1))
print(s.split(" ", 1), s.rsplit("o", 1))
print("x".join("abc"), s.casefold())
print("  pad ".lstrip() + "|", "|" + "  pad ".rstrip())
print("a.b.c".removeprefix("a."), "file.txt".removesuffix(".txt"))

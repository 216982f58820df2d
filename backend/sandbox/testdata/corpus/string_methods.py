s = "  Hello, World!  "
print(s.strip())
print(s.strip().lower())
print(s.strip().replace("World", "There"))
print(s.strip().split(", "))
print("-".join(["a", "b", "c"]))
print("abc".startswith("ab"), "abc".endswith("bc"))
print("hello world".title(), "Hello".swapcase())

for w in ["x", "abc", "hello"]:
    print(w.ljust(6) + "|" + w.rjust(6) + "|" + w.center(7, "."))
print("42".zfill(5), "-42".zfill(5))

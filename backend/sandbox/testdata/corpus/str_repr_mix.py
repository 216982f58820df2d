items = ["a", 1, None]
print(str(items), repr("x"), str(3.0), str(None))
print("%r %s" % ("q", "q"))
print("{!r} {}".format("q", "q"))

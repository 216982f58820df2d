print(max([], default=0), min([3, 1, 2]), max("hello"))
print(max(3, 7, 5), min("b", "a"))
scores = {"a": 3, "b": 9, "c": 5}
print(max(scores, key=scores.get))

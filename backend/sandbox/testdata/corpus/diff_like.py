old = ["a", "b", "c", "d"]
new = ["a", "c", "d", "e"]
removed = [x for x in old if x not in new]
added = [x for x in new if x not in old]
print("removed:", removed)
print("added:", added)
print(set(old) & set(new), sorted(set(old) | set(new)), set(old) - set(new))

import copy
a = {"x": [1, 2], "y": {"z": 3}}
b = copy.deepcopy(a)
b["x"].append(99)
print(a, b)
c = a.copy()
c["new"] = 1
print(len(a), len(c))

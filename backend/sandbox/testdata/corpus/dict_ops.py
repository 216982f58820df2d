d = {"b": 2, "a": 1}
d["c"] = 3
print(d, len(d))
print(list(d.keys()), list(d.values()))
for k, v in sorted(d.items()):
    print(k, v)
print(d.get("z"), d.get("z", 0), "a" in d)
d.update({"d": 4})
print(d.pop("a"), d)

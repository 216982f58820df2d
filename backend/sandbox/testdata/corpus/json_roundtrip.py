import json
data = {"name": "vis", "tags": ["a", "b"], "n": 3, "ok": True, "none": None}
s = json.dumps(data)
print(s)
back = json.loads(s)
print(back["tags"], back["ok"], back["none"])

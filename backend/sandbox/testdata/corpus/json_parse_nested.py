import json
raw = '{"users": [{"id": 1, "name": "a", "score": 9.5}, {"id": 2, "name": "b", "score": 7}]}'
doc = json.loads(raw)
for u in doc["users"]:
    print(u["id"], u["name"], u["score"], type(u["score"]).__name__)
print(len(doc["users"]))

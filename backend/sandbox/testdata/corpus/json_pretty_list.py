import json
records = [{"id": i, "tags": ["t%d" % i] * i} for i in range(3)]
print(json.dumps(records, indent=2))

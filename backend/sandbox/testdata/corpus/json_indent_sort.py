import json
cfg = {"z": 1, "a": {"y": [1, 2], "b": "x"}}
print(json.dumps(cfg, indent=2, sort_keys=True))
print(json.dumps([], indent=2), json.dumps({}))

import json
try:
    data = json.loads("{bad")
except ValueError as e:
    print("bad json", e)

items = [{"id": 1, "ok": False}, {"id": 2, "ok": True}, {"id": 3, "ok": True}]
first = next((it for it in items if it["ok"]), None)
print(first)
missing = next((it for it in items if it["id"] == 9), None)
print(missing)

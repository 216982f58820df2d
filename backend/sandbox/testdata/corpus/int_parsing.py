raw = ["10", " 20 ", "3.5", "x", "-7"]
ok = []
bad = []
for r in raw:
    t = r.strip()
    if t.lstrip("-").isdigit():
        ok.append(int(t))
    else:
        bad.append(r)
print(ok, bad, sum(ok))

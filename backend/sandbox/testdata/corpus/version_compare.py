def parse(v):
    return tuple(int(p) for p in v.split("."))
versions = ["1.10.0", "1.2.3", "1.2.10", "0.9"]
print(sorted(versions, key=parse))
print(max(versions, key=parse))
print(parse("2.0.1") > parse("2.0"))

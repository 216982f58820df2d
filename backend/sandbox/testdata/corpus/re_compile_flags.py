import re
pat = re.compile(r"^error: (.*)$", re.MULTILINE | re.IGNORECASE)
log = """info: start
ERROR: disk full
warn: slow
error: timeout"""
for m in pat.finditer(log):
    print(m.group(1))
print(len(pat.findall(log)))

import re
for s in ["abc123", "123abc", "abc"]:
    print(s, bool(re.match(r"[a-z]+", s)), bool(re.fullmatch(r"[a-z]+\d*", s)))

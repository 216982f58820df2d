import re
if (m := re.search(r"\d+", "abc 123")):
    print(m.group())

import re
m = re.search(r"(?P<year>\d{4})-(?P<month>\d{2})-(?P<day>\d{2})", "Released on 2024-03-15.")
if m:
    print(m.group(0), m.group("year"), m.group(2))
    print(m.groupdict())
    print(m.start(), m.end())

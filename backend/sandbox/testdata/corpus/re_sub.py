import re
s = "Hello   World,   how are   you?"
print(re.sub(r"\s+", " ", s))
print(re.sub(r"(\w+)@(\w+)", r"\2 at \1", "user@host"))
print(re.sub(r"\d", lambda m: str(int(m.group()) * 2), "a1b2c3"))
print(re.subn("o", "0", "foo boo"))

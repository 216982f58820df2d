import re
text = "Emails: a@x.com, b.c@y.org and bad@ nope"
print(re.findall(r"[\w.]+@\w+\.\w+", text))
print(re.findall(r"(\w+)@(\w+)", text))

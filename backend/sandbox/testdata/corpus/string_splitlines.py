text = """line one
line two

line four"""
lines = text.splitlines()
print(len(lines))
for i, line in enumerate(lines, 1):
    print(i, repr(line))

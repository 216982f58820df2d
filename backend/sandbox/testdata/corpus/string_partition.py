line = "key=value=more"
k, sep, v = line.partition("=")
print(k, v)
print(line.rpartition("="))
print("a,b,,c".split(","))
print("  a  b   c ".split())

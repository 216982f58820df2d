f = open("README.md")
print(f.read())

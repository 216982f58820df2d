name = "file.txt"
size = 2048
print("%s is %d bytes" % (name, size))
print("%-10s|%5.1f|%03d" % ("ab", 3.14159, 7))
print("%(a)s and %(b)s" % {"a": "x", "b": "y"})
print("100%% done")

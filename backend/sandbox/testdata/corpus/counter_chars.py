from collections import Counter
c = Counter("abracadabra")
print(c.most_common())
print(sum(c.values()), len(c))
c.update("aaz")
print(c["a"], c["z"])

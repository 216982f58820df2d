from itertools import groupby
data = sorted(["apple", "avocado", "banana", "blueberry", "cherry"], key=lambda w: w[0])
for key, group in groupby(data, key=lambda w: w[0]):
    print(key, list(group))

from collections import defaultdict
index = defaultdict(list)
for i, w in enumerate(["x", "y", "x", "z", "y", "x"]):
    index[w].append(i)
for k in sorted(index):
    print(k, index[k])

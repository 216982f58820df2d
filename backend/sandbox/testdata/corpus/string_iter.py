word = "mississippi"
counts = {}
for ch in word:
    counts[ch] = counts.get(ch, 0) + 1
print(counts)
print(sorted(set(word)))
print(list("abc"), "".join(reversed("stressed")))

from collections import Counter
text = "the cat sat on the mat the end"
counts = Counter(text.split())
for word, n in counts.most_common(3):
    print(f"{word}: {n}")
print(counts["the"], counts["missing"])

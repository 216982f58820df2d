data = [3, 1, 4, 1, 5, 9, 2, 6]
data.sort()
print(data)
data.sort(reverse=True)
print(data)
words = ["banana", "Apple", "cherry"]
words.sort(key=str.lower)
print(words)
words.reverse()
print(words)

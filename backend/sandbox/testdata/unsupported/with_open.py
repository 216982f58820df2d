with open("notes.txt") as f:
    text = f.read()
print(len(text))

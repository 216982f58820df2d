text = "the quick brown fox"
print(text.find("quick"), text.find("slow"), text.index("brown"))
print(text.count("o"), "fox" in text, text.upper())
print(text[4:9], text[-3:], text[::-1])

import string
print(string.ascii_lowercase[:5], string.digits)
print(all(c in string.ascii_letters for c in "abcXYZ"))

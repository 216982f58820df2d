print(hex(255), bin(10), oct(8))
print(chr(65), ord("a"), [ord(c) for c in "AB"])
print(int("ff", 16), int("1010", 2))

xs = list(range(10))
print(xs[2:5], xs[:3], xs[7:], xs[::2], xs[::-1][:3])
print(xs[-2:], xs[1:-1:3])
s = "abcdefgh"
print(s[2:6], s[::-2])

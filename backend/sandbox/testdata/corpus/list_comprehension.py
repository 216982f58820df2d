nums = range(10)
squares = [n * n for n in nums]
evens = [n for n in nums if n % 2 == 0]
pairs = [(a, b) for a in range(3) for b in range(a)]
print(squares)
print(evens)
print(pairs)

nums = [1, 2, 3, 4, 5]
print(sum(n * n for n in nums))
print(any(n > 4 for n in nums), all(n > 0 for n in nums))
print(", ".join(str(n) for n in nums))
print(max(len(w) for w in ["a", "bbb", "cc"]))
print(sorted((n % 3, n) for n in nums))

nums = [3, 1, 4, 1, 5]
print(" ".join(map(str, nums)))
print(",".join([str(n) for n in sorted(nums)]))
print("+".join(str(n) for n in nums), "=", sum(nums))

nums = [5, 3, 8, 1]
nums.append(7)
nums.extend([2, 9])
nums.insert(0, 10)
print(nums, len(nums))
nums.remove(8)
print(nums.pop(), nums.pop(0), nums)
print(nums.index(3), 3 in nums)

nums = [1, 2, 3, 4, 5, 6]
print(list(map(lambda x: x * 10, nums)))
print(list(filter(lambda x: x % 2, nums)))
print(list(map(str, nums)))
print(list(map(int, ["1", "2"])))

print(list(range(5)), list(range(2, 10, 3)), list(range(5, 0, -1)))
print(len(range(100)), 5 in range(10))
print(sum(range(101)))

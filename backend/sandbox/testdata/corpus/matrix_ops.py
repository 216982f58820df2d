m = [[1, 2, 3], [4, 5, 6]]
t = [list(row) for row in zip(*m)]
print(t)
print([[x * 2 for x in row] for row in m])
print(sum(sum(row) for row in m))

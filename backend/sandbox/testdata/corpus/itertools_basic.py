import itertools
print(list(itertools.chain([1, 2], [3])))
print(list(itertools.product("ab", [1, 2])))
print(list(itertools.combinations([1, 2, 3], 2)))
print(list(itertools.permutations("abc", 2))[:4])

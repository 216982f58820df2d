def first_dup(xs):
    seen = set()
    for x in xs:
        if x in seen:
            return x
        seen.add(x)
    return None
print(first_dup([3, 1, 4, 1, 5]), first_dup([1, 2]))

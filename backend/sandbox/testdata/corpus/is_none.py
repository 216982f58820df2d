def find(items, target):
    for i, it in enumerate(items):
        if it == target:
            return i
    return None
r = find([1, 2, 3], 2)
if r is not None:
    print("found at", r)
if find([1], 5) is None:
    print("not found")

def sign(x):
    return "neg" if x < 0 else "zero" if x == 0 else "pos"
print([sign(x) for x in (-2, 0, 5)])
print(min(3, 4) if True else 0)

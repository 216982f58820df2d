def check(x):
    assert x > 0, "x must be positive"
    return x * 2
print(check(3))
assert isinstance("s", str)
print("asserts passed")

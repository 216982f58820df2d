def greet(name, greeting="Hello", punct="!"):
    return f"{greeting}, {name}{punct}"
print(greet("Ann"))
print(greet("Bob", greeting="Hi"))
print(greet("Cy", punct="?", greeting="Yo"))
def total(*nums, scale=1):
    return sum(nums) * scale
print(total(1, 2, 3), total(1, 2, scale=10))

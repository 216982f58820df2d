name = "Ada"
age = 36
print(f"{name} is {age} years old")
print(f"{name!r} has {len(name)} letters")

x = 5
print(f"{{x}} is {x}")
print(f"set: {{{x}}}")

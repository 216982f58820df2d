def describe(x):
    if type(x) == int:
        return "int"
    if type(x) is str:
        return "str"
    return str(type(x))
print(describe(1), describe("s"), describe(1.5))

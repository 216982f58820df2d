values = [1, "two", 3.0, [4], {"five": 5}, None, True, (6,)]
for v in values:
    kinds = []
    if isinstance(v, bool):
        kinds.append("bool")
    if isinstance(v, (int, float)):
        kinds.append("number")
    if isinstance(v, str):
        kinds.append("str")
    if isinstance(v, (list, tuple)):
        kinds.append("seq")
    if isinstance(v, dict):
        kinds.append("dict")
    print(repr(v), kinds, type(v).__name__)

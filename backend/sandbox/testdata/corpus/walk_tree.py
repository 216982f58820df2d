tree = {"name": "root", "children": [
    {"name": "a", "children": [{"name": "a1", "children": []}]},
    {"name": "b", "children": []},
]}
def walk(node, depth=0):
    print("  " * depth + node["name"])
    for child in node["children"]:
        walk(child, depth + 1)
walk(tree)
def count(node):
    return 1 + sum(count(c) for c in node["children"])
print(count(tree))

d = {"key": "value", "n": 3}
print(f"key={d['key']} n={d['n'] * 2}")
items = ["a", "b", "c"]
print(f"items: {', '.join(items)}")
print(f'{"quoted"} and {len("x" + "yz")}')

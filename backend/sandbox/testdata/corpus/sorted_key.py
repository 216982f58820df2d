people = [
    {"name": "Alice", "age": 30},
    {"name": "Bob", "age": 25},
    {"name": "Carol", "age": 35},
]
for p in sorted(people, key=lambda p: p["age"]):
    print(p["name"], p["age"])
oldest = max(people, key=lambda p: p["age"])
print("oldest:", oldest["name"])
print(min(people, key=lambda p: p["name"])["name"])

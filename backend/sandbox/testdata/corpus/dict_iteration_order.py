inventory = {"apples": 5, "pears": 0, "kiwis": 12}
in_stock = {k: v for k, v in inventory.items() if v > 0}
print(in_stock)
print(sorted(inventory, key=inventory.get))
for name in inventory:
    print(name.upper())

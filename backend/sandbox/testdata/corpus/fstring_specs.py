price = 1234.5678
print(f"Price: {price:.2f}")
print(f"Wide: [{price:>12.1f}]")
print(f"Comma: {1234567:,}")
print(f"Pct: {0.4567:.1%}")
print(f"Hex: {255:#x} {255:08b}")

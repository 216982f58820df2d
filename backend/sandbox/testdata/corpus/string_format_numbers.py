n = 1234567.891
print(f"{n:,.2f}")
print(f"{n:e}")
print(f"{n:.3g}")
print(f"{42:+d} {-42:+d}")
print(f"{3:03d} {7:>3} {7:<3}|")
print(format(0.5, ".0%"), format(12, "b"), format(3.14159, ".3"))

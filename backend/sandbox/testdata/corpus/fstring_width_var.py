width = 10
for w in ["a", "bbb"]:
    print(f"[{w:>{width}}]")

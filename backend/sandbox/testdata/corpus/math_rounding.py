vals = [2.5, 3.5, -1.5, 1.2345, 10.0]
for v in vals:
    print(v, round(v), round(v, 2))
print(abs(-3), abs(-2.5), divmod(17, 5), pow(2, 8), pow(2, 10, 1000))

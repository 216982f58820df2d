import math
print(math.sqrt(16), math.floor(3.7), math.ceil(3.2))
print(math.pi)
print(round(math.log(100, 10), 6), math.log2(8), math.log10(1000))
print(math.gcd(12, 18), math.factorial(10))
print(math.isclose(0.1 + 0.2, 0.3), math.hypot(3, 4))

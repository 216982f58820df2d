prices = [19.99, 5.01, 3.5]
print(sum(prices))
print(round(sum(prices), 2))
print(f"{sum(prices):.2f}")
print(sum([[1], [2, 3]], []))

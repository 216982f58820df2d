from collections import defaultdict
totals = defaultdict(int)
sales = [("east", 10), ("west", 5), ("east", 7)]
for region, amount in sales:
    totals[region] += amount
print(dict(totals))

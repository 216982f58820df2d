from datetime import datetime, date
d = datetime(2024, 3, 5, 14, 7, 9)
print(d.strftime("%Y-%m-%d %H:%M:%S"), d.year, d.month)
print(d.isoformat())
print(date(2020, 1, 2).isoformat())

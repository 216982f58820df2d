text = "name,qty,price\nwidget,3,2.50\ngadget,10,0.99\n"
lines = text.strip().split("\n")
header = lines[0].split(",")
rows = [dict(zip(header, l.split(","))) for l in lines[1:]]
total = sum(int(r["qty"]) * float(r["price"]) for r in rows)
print(rows)
print(f"total = {total:.2f}")

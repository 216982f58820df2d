data = {"go": 12, "python": 30, "js": 7}
print("| lang | files |")
print("|------|------:|")
for lang, n in sorted(data.items(), key=lambda kv: kv[1], reverse=True):
    print(f"| {lang} | {n} |")
total = sum(data.values())
print(f"total: {total}, share of python: {data['python'] / total:.0%}")

log = """2024-01-01 INFO start
2024-01-01 ERROR failed to open
2024-01-02 WARN slow
2024-01-02 ERROR timeout"""
levels = {}
errors = []
for line in log.splitlines():
    date, level, msg = line.split(" ", 2)
    levels[level] = levels.get(level, 0) + 1
    if level == "ERROR":
        errors.append(f"{date}: {msg}")
print(levels)
print("\n".join(errors))

def grade(score):
    if 90 <= score <= 100:
        return "A"
    elif 80 <= score < 90:
        return "B"
    return "C"
for s in [95, 85, 50]:
    print(s, grade(s))
print(1 < 2 < 3, 3 > 2 > 5)

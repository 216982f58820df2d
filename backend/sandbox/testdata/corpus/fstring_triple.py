title = "Report"
count = 3
text = f"""== {title} ==
count: {count}
done"""
print(text)

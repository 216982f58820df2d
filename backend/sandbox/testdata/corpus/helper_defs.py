def slugify(text):
    """Turn text into a URL slug."""
    out = []
    for ch in text.lower():
        if ch.isalnum():
            out.append(ch)
        elif out and out[-1] != "-":
            out.append("-")
    return "".join(out).strip("-")

print(slugify("Hello, World! It's 2024"))
print(slugify("  many   spaces  "))

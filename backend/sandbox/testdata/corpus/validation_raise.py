def parse_port(s):
    if not s.isdigit():
        raise ValueError(f"bad port: {s!r}")
    return int(s)
print(parse_port("8080"))
print(parse_port("80a"))

def build(**opts):
    return ", ".join(f"{k}={v}" for k, v in sorted(opts.items()))
print(build(b=2, a=1))
args = {"x": 1, "y": 2}
print(build(**args))

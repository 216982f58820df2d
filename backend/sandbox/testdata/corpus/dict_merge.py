defaults = {"color": "red", "size": 10}
user = {"size": 12}
cfg = dict(defaults)
cfg.update(user)
print(cfg)
merged = {**defaults, **user, "extra": True}
print(merged)

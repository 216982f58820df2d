config = {"debug": True, "verbose": False, "level": 3}
del config["verbose"]
print(config)
xs = [1, 2, 3, 4]
del xs[0]
print(xs)

for v in [0, 1, "", "x", [], [0], {}, None, 0.0]:
    print(repr(v), bool(v), "yes" if v else "no")

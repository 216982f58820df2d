project = {
    "name": "demo",
    "files": [
        {"path": "a.py", "lines": 10},
        {"path": "b.py", "lines": 250},
        {"path": "c.md", "lines": 40},
    ],
}
py = [f for f in project["files"] if f["path"].endswith(".py")]
print(len(py), sum(f["lines"] for f in py))
big = [f["path"] for f in project["files"] if f["lines"] > 30]
print(big)

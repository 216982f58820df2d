from collections import namedtuple
Point = namedtuple("Point", ["x", "y"])
p = Point(1, 2)
print(p.x + p.y)
q = Point(x=5, y=6)
print(q.x, q.y)

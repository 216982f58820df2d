import shlex
args = ["grep", "-rn", "hello world", "it's.txt"]
print(" ".join(shlex.quote(a) for a in args))
print(shlex.split("ls -la 'my dir' \"x y\""))

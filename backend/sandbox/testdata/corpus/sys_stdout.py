import sys
sys.stdout.write("written directly\n")
print("then print", file=sys.stderr)

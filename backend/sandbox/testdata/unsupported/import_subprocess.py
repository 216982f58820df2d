import subprocess
out = subprocess.run(["ls"], capture_output=True)

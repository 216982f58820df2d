import os
p = "/home/user/project/src/main.py"
print(os.path.basename(p), os.path.dirname(p))
print(os.path.splitext(p))
print(os.path.join("src", "pkg", "mod.py"))
print(os.path.join("/abs", "/root", "x"))
print(os.path.splitext("archive.tar.gz"), os.path.splitext(".bashrc"))
print(os.path.normpath("a/./b/../c"))

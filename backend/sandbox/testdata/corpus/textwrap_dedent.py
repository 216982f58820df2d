import textwrap
block = """
    def f():
        return 1
"""
print(textwrap.dedent(block).strip())
print(textwrap.fill("The quick brown fox jumps over the lazy dog", width=15))
print(textwrap.indent("a\nb", "> "))

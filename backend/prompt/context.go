package prompt

import "strings"

// Fragment is one active extension's prompt text for the EXTENSIONS block.
type Fragment struct {
	// Name is the extension's alias or name, shown in its header.
	Name string
	// Builtin fragments are part of the core surface: rendered bare, first.
	Builtin bool
	// Text is the fragment; it is normalized, and a blank one is dropped.
	Text string
}

// DefaultShims is the SANDBOX-SHIMS text for our Starlark sandbox: what
// importing gives, what Python features are refused and what to use instead.
// The sandbox owner may pass a more precise text through StableOptions.Shims.
const DefaultShims = "`python_execution` programs are Starlark, a Python dialect run inside the host; there is no CPython and no pip.\n" +
	"Modules (our implementations, Python's behaviour for the common calls; usable with or without an import line): `json`, `re`, `math`, `time`, `datetime`, `os`, `os.path`, `collections` (`Counter`, `defaultdict`), `itertools`, `functools`, `textwrap`, `shlex`, `sys`, `string`, `random`, `hashlib`, `base64`, `copy`, `statistics`. Any other import is refused.\n" +
	"Works as in Python: f-strings (with format specs), comprehensions, `def` with defaults and keyword arguments, slicing, `print(..., sep=, end=)`, `sorted(key=)`, `enumerate`, `zip`, `any`/`all`, `min`/`max`/`sum`; strings are characters, not bytes (`len`, `s[i]`, `s[a:b]`, `for c in s`, `find`).\n" +
	"Differs from Python: `print(..., file=sys.stderr)` goes to the same output as `print`.\n" +
	"Refused, with an error that says what to write instead: `try`/`except` (check first: a failing call stops the block), `class` (use dicts and functions), `with` and `open()` (use `cat`/`write`), `subprocess`/`os.system` (use `shell`), network access.\n" +
	"Processes run only through the `shell` function; files are read and written only through the file functions, inside the workspace."

// TurnSystemContext renders the TURN-SYSTEM-CONTEXT block: an EXTENSIONS
// block holding every fragment (built-in ones first and bare, the others each
// under `;; -- EXTENSION <name> --`, otherwise in the given order), then a
// SANDBOX-SHIMS block with shims. Either inner block is left out when blank;
// "" when both are. This is one message per turn: a change of active
// extensions replaces it, never adds a second one.
func TurnSystemContext(fragments []Fragment, shims string) string {
	var builtin, others []string
	for _, f := range fragments {
		text := Normalize(f.Text)
		if text == "" {
			continue
		}
		if f.Builtin {
			builtin = append(builtin, text+"\n")
			continue
		}
		name := strings.TrimSpace(f.Name)
		if name == "" {
			name = "unknown"
		}
		others = append(others, ";; -- EXTENSION "+name+" --\n"+text+"\n")
	}
	exts := Block("extensions", strings.Join(append(builtin, others...), "\n"))
	body := joinNonBlank("\n", exts, Block("sandbox-shims", Normalize(shims)))
	return Block("turn-system-context", body)
}

package ext

// FormatResult is format_code's answer, one shape in every pack (seed 001):
// a snippet ({"code": ...}) answers whether it changed and by how many
// characters, never the text; files ({"paths": [...]} or the pack's
// defaults, rewritten in place) answer one row per file the formatter
// changed. Sizes count characters (runes), not bytes. Value is the one
// place the result's keys are spelled.
type FormatResult struct {
	Formatter string // the tool that ran: gofmt, prettier, ruff, black, cljfmt, zprint, standard-clj
	Why       string // why that tool: the project file that names it ("pyproject.toml [tool.ruff]"); "" = not said
	Snippet   bool   // a snippet was formatted (else files)

	// A snippet's result.
	Changed bool // the formatted text differs from the snippet
	Delta   int  // characters after minus characters before
	Chars   int  // characters of the formatted text

	// Files' result.
	Files   []FormatFile  // the files the formatter rewrote, in order
	Checked int           // files the formatter looked at; -1 when it does not say
	Errors  []FormatError // files it could not format (a syntax error, ...)
	Message string        // why nothing was looked at ("no python files under src")
	Error   string        // the formatter failed part-way: what it said
}

// FormatFile is one file the formatter rewrote.
type FormatFile struct {
	File  string // relative to the call's directory, slash-separated
	Delta int    // characters after minus characters before
}

// FormatError is one file the formatter could not format.
type FormatError struct {
	File    string
	Message string
}

// Value is the result as the model sees it (string keys, plain values):
//
//	snippet: {changed: bool, delta, chars, formatter, why?}
//	files:   {changed: n, files: [{file, changed: True, delta}], checked?, errors?: [{file, message}], message?, error?, formatter, why?}
//
// checked is absent when the formatter does not say how many files it
// looked at; errors, message, error and why are absent when empty.
func (r FormatResult) Value() map[string]any {
	if r.Snippet {
		out := map[string]any{"changed": r.Changed, "delta": r.Delta, "chars": r.Chars, "formatter": r.Formatter}
		if r.Why != "" {
			out["why"] = r.Why
		}
		return out
	}
	files := make([]any, len(r.Files))
	for i, f := range r.Files {
		files[i] = map[string]any{"file": f.File, "changed": true, "delta": f.Delta}
	}
	out := map[string]any{"changed": len(r.Files), "files": files, "formatter": r.Formatter}
	if r.Checked >= 0 {
		out["checked"] = r.Checked
	}
	if len(r.Errors) > 0 {
		errs := make([]any, len(r.Errors))
		for i, e := range r.Errors {
			errs[i] = map[string]any{"file": e.File, "message": e.Message}
		}
		out["errors"] = errs
	}
	if r.Message != "" {
		out["message"] = r.Message
	}
	if r.Error != "" {
		out["error"] = r.Error
	}
	if r.Why != "" {
		out["why"] = r.Why
	}
	return out
}

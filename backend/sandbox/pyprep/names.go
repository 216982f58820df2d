package pyprep

// IsIdentifier reports whether s is a Python identifier (ASCII letters,
// digits and _, not starting with a digit; any non-ASCII byte counts as a
// letter, as the tokenizer reads names).
func IsIdentifier(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentChar(s[i]) {
			return false
		}
	}
	return true
}

// ImportBinds returns the names an import statement binds ("import a.b as
// c, d" binds c and d; "from m import x as y, z" binds y and z); nil when
// stmt is not an import or does not tokenize.
func ImportBinds(stmt string) []string {
	toks, err := tokenize(stmt, 1)
	if err != nil {
		return nil
	}
	var s []token
	for _, t := range toks {
		if sig(t) && t.kind != tkNewline {
			s = append(s, t)
		}
	}
	if len(s) == 0 {
		return nil
	}
	var out []string
	if isName(s[0], "import") {
		expectName := true
		for i := 1; i < len(s); i++ {
			switch {
			case isName(s[i], "as") && i+1 < len(s):
				out[len(out)-1] = s[i+1].text
				i++
			case isOp(s[i], ","):
				expectName = true
			case s[i].kind == tkName && expectName:
				out = append(out, s[i].text)
				expectName = false
			}
		}
		return out
	}
	seenImport := false
	for i := 1; i < len(s); i++ {
		if isName(s[i], "import") {
			seenImport = true
			continue
		}
		if !seenImport || s[i].kind != tkName {
			continue
		}
		if isName(s[i], "as") && i+1 < len(s) {
			out[len(out)-1] = s[i+1].text
			i++
			continue
		}
		out = append(out, s[i].text)
	}
	return out
}

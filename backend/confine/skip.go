package confine

// Skipper is the part of testing.TB that SkipWithoutLandlock uses (this
// package does not import testing).
type Skipper interface {
	Helper()
	Skip(args ...any)
}

// SkipWithoutLandlock skips a test that needs this kernel's Landlock (and
// HelperMain in the test binary's TestMain), saying why it is missing: the
// one spelling of that check for every package's tests.
func SkipWithoutLandlock(t Skipper) {
	t.Helper()
	if s := Status(); s.ABI == 0 {
		t.Skip("no Landlock here: " + s.Why)
	}
}

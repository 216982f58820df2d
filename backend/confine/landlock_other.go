//go:build !linux

package confine

// Status: no confinement outside Linux (yet).
func Status() Info { return Info{Why: "OS confinement is implemented for Linux only"} }

// HelperMain: no helper mode here yet (Command runs argv as it is).
func HelperMain() {}

// Reap: no ledger outside Linux.
func Reap(dir string) int { return 0 }

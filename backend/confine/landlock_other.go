//go:build !linux

package confine

// Status: no confinement outside Linux (yet).
func Status() Info { return Info{Why: "OS confinement is implemented for Linux only"} }

// HelperMain: there is no helper mode here.
func HelperMain() {}

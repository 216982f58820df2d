package proc

import (
	"fmt"
	"os"
	"strings"
)

// readState returns a process's state letter from /proc (Linux).
func readState(pid int) (string, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", err
	}
	s := string(raw)
	i := strings.LastIndexByte(s, ')')
	f := strings.Fields(s[i+1:])
	return f[0], nil
}

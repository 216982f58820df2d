package backend

import (
	"os"
	"testing"

	"github.com/visdesktop/vis/backend/confine"
)

// The engine's tests run programs whose children are confined: this test
// binary is their sandbox helper too.
func TestMain(m *testing.M) {
	confine.HelperMain()
	os.Exit(m.Run())
}

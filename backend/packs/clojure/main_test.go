package clojure

import (
	"os"
	"testing"

	"github.com/visdesktop/vis/backend/packs/packtest"
)

// TestMain fails the run when a child process (a JVM) outlives the tests.
func TestMain(m *testing.M) { os.Exit(packtest.Main(m)) }

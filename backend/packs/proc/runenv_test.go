package proc

import (
	"context"
	"os"
	"testing"
	"time"
)

// TestRunEnvAddsToTheInheritedEnvironment: RunEnv's entries reach the child
// and win over an inherited variable; the rest of the environment stays.
func TestRunEnvAddsToTheInheritedEnvironment(t *testing.T) {
	t.Setenv("VIS_PROC_INHERITED", "parent")
	t.Setenv("VIS_PROC_OVERRIDDEN", "parent")
	r, err := RunEnv(context.Background(), t.TempDir(), 10*time.Second, "", []string{"VIS_PROC_OVERRIDDEN=call", "VIS_PROC_NEW=new"},
		"sh", "-c", `echo "$VIS_PROC_INHERITED $VIS_PROC_OVERRIDDEN $VIS_PROC_NEW $HOME"`)
	if err != nil {
		t.Fatal(err)
	}
	if want := "parent call new " + os.Getenv("HOME") + "\n"; r.Stdout != want {
		t.Fatalf("child saw %q, want %q", r.Stdout, want)
	}
}

//go:build linux

package confine

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The file-system rights this helper handles, by the ABI that added them.
const (
	fsV1 = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_FILE |
		unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR | unix.LANDLOCK_ACCESS_FS_MAKE_REG |
		unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_SYM
	fsV2 = fsV1 | unix.LANDLOCK_ACCESS_FS_REFER
	fsV3 = fsV2 | unix.LANDLOCK_ACCESS_FS_TRUNCATE

	readFile = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE
	readDir  = readFile | unix.LANDLOCK_ACCESS_FS_READ_DIR
	// writes: everything handled (rights a file cannot have are masked per entry)
	netTCP = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
)

// fileRights are the rights Landlock accepts on a non-directory.
const fileRights = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE

var status = sync.OnceValue(func() Info {
	v, _, errno := syscall.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		why := "the kernel has no Landlock"
		if errno == syscall.EOPNOTSUPP {
			why = "Landlock is disabled in this kernel (boot with lsm=...,landlock)"
		}
		return Info{Why: why + " (" + errno.Error() + ")"}
	}
	return Info{ABI: int(v), Network: v >= 4}
})

// Status is the confinement this system gives: none until HelperMain has
// run in this process (a binary without the helper mode would run a
// wrapped command as itself).
func Status() Info {
	if !helperInstalled.Load() {
		return Info{Why: "this program has no sandbox helper (confine.HelperMain is not called in its main)"}
	}
	return status()
}

// HelperMain runs the helper mode when this process was started as one
// (Command's wrapping) and never returns then; otherwise it returns at
// once, and from then on Command confines. Call it first in main and in
// the TestMain of a package whose tests start confined children.
func HelperMain() {
	if len(os.Args) < 4 || os.Args[1] != helperArg {
		helperInstalled.Store(true)
		return
	}
	var p Policy
	if err := json.Unmarshal([]byte(os.Args[2]), &p); err != nil || os.Args[3] != "--" || len(os.Args) < 5 {
		fmt.Fprintln(os.Stderr, "vis sandbox: malformed helper command line")
		os.Exit(126)
	}
	argv := os.Args[4:]
	if p.TempDir != "" {
		if err := os.MkdirAll(p.TempDir, 0o700); err == nil {
			os.Setenv("TMPDIR", p.TempDir)
		}
	}
	if err := restrictAndExec(p, argv); err != nil {
		fmt.Fprintf(os.Stderr, "vis sandbox: %v\n", err)
		os.Exit(126)
	}
}

func restrictAndExec(p Policy, argv []string) error {
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return err
	}
	env, _ := Hidden(os.Environ(), append(p.HideEnv, reapVar)) // an inherited token is not ours
	if p.Ledger != "" {
		if token, err := register(p.Ledger); err == nil {
			env = append(env, reapVar+"="+token)
		}
	}
	abi := status().ABI
	if abi == 0 || p.Mode == Full {
		return syscall.Exec(path, argv, env)
	}
	handled := uint64(fsV1)
	switch {
	case abi >= 3:
		handled = fsV3
	case abi == 2:
		handled = fsV2
	}
	attr := unix.LandlockRulesetAttr{Handled_access_fs: handled}
	if !p.Network && abi >= 4 {
		attr.Handled_access_net = netTCP // no rule grants any port: TCP is refused
	}
	// The kernel takes the attribute struct up to the fields this ABI has.
	size := unsafe.Sizeof(attr.Handled_access_fs)
	if abi >= 4 {
		size += unsafe.Sizeof(attr.Handled_access_net)
	}
	// Everything below runs on this thread: the domain is per thread, and
	// exec from it passes the domain on.
	runtime.LockOSThread()
	fd, _, errno := syscall.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if errno != 0 {
		return fmt.Errorf("landlock_create_ruleset: %w", errno)
	}
	rules := p.rules(handled)
	for _, r := range rules {
		if err := addRule(int(fd), r.path, r.access&handled); err != nil {
			return err
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if _, _, errno := syscall.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0); errno != 0 {
		return fmt.Errorf("landlock_restrict_self: %w", errno)
	}
	syscall.Close(int(fd))
	return syscall.Exec(path, argv, env)
}

type rule struct {
	path   string
	access uint64
}

// rules lists the paths p grants, before masking by what the ABI handles.
func (p Policy) rules(handled uint64) []rule {
	var rs []rule
	for _, r := range readRoots("/", p.Protected) {
		rs = append(rs, rule{r, readDir})
	}
	write := handled // every handled right
	var rw []string
	if p.Mode == Workspace {
		rw = append(rw, p.Workspace, p.TempDir)
		rw = append(rw, p.Writable...)
	}
	for _, d := range rw {
		if d == "" || protectedUnder(d, p.Protected) {
			continue // a writable root over a protected path would unprotect it
		}
		rs = append(rs, rule{d, write})
	}
	for _, dev := range []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/random", "/dev/urandom", "/dev/ptmx", "/dev/pts", "/dev/shm"} {
		rs = append(rs, rule{dev, write})
	}
	return rs
}

// protectedUnder: some protected path is d or inside it.
func protectedUnder(d string, protected []string) bool {
	for _, x := range protected {
		if x == d || strings.HasPrefix(x, d+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// readRoots is root minus the protected paths, as a list of paths to grant:
// root itself when no protected path lies under it, else each of its
// entries, recursively along the protected paths' ancestors only.
func readRoots(root string, protected []string) []string {
	var under []string
	for _, x := range protected {
		if x == root {
			return nil
		}
		if strings.HasPrefix(x, strings.TrimSuffix(root, "/")+"/") {
			under = append(under, x)
		}
	}
	if len(under) == 0 {
		return []string{root}
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		child := filepath.Join(root, e.Name())
		if slices.Contains(under, child) {
			continue
		}
		if e.IsDir() {
			out = append(out, readRoots(child, under)...)
		} else {
			out = append(out, child)
		}
	}
	return out
}

// addRule grants access beneath path (masked to file rights when path is
// not a directory). A path that does not exist is skipped.
func addRule(fd int, path string, access uint64) error {
	pfd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil // gone, or not ours to see: nothing to grant
	}
	defer unix.Close(pfd)
	var st unix.Stat_t
	if err := unix.Fstat(pfd, &st); err != nil {
		return nil
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		access &= fileRights
	}
	if access == 0 {
		return nil
	}
	attr := unix.LandlockPathBeneathAttr{Allowed_access: access, Parent_fd: int32(pfd)}
	if _, _, errno := syscall.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(fd), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&attr)), 0, 0, 0); errno != 0 {
		return fmt.Errorf("landlock_add_rule %s: %w", path, errno)
	}
	return nil
}

package config

import (
	"fmt"
	"time"
)

// Sandbox is the config's `sandbox` section: the time and memory limits of
// one program block and how much of its output the transcript keeps. A project file may
// set it (it redirects nothing).
type Sandbox struct {
	// WallLimitSeconds is how long one program block may run;
	// 0 = DefaultWallLimitSeconds.
	WallLimitSeconds int `yaml:"wall_limit_seconds,omitempty"`
	// MaxWallLimitSeconds is the ceiling: how long, from its start, a block
	// may run when a tool call's own timeout (run_tests' timeout_ms, shell's
	// timeout, ...) asks for more than the wall limit;
	// 0 = DefaultMaxWallLimitSeconds; never below the wall limit.
	MaxWallLimitSeconds int `yaml:"max_wall_limit_seconds,omitempty"`
	// KeepOutputBytes is how many bytes of a program's printed output the
	// transcript keeps for "open full output" (the model's copy is clipped
	// at 64 Ki chars regardless); 0 = DefaultKeepOutputBytes; never below
	// MinKeepOutputBytes.
	KeepOutputBytes int `yaml:"keep_output_bytes,omitempty"`
	// MemoryLimitMB is how many MiB one block may grow the app's heap by
	// before it is stopped ("memory limit N MB exceeded");
	// 0 = DefaultMemoryLimitMB; never below MinMemoryLimitMB.
	MemoryLimitMB int `yaml:"memory_limit_mb,omitempty"`

	from map[string]string // key (KeyWallLimit, ...) -> the file that set it last
}

// The sandbox keys as a person writes them.
const (
	KeyWallLimit    = "sandbox.wall_limit_seconds"
	KeyMaxWallLimit = "sandbox.max_wall_limit_seconds"
	KeyKeepOutput   = "sandbox.keep_output_bytes"
	KeyMemoryLimit  = "sandbox.memory_limit_mb"
)

// Defaults of the sandbox keys. Five minutes keeps a block that loops or
// waits by mistake from holding the session long. The ceiling is an hour:
// packs' own test timeouts default to ten minutes and a slow real suite
// may need several times that, so a call that says how long it needs
// should get it, while a call given an absurd timeout (or one the person
// forgot) still ends within the hour; Stop ends a block at any time.
const (
	DefaultWallLimitSeconds    = 300
	DefaultMaxWallLimitSeconds = 3600
)

// DefaultKeepOutputBytes (4 MiB) keeps a program's output whole unless it
// printed megabytes, at a size a SQLite row and the read-only view handle
// at once; MinKeepOutputBytes (256 KiB) is never less than the model's
// copy (64 Ki chars of up to 4 bytes), so the person sees at least what
// the model saw.
const (
	DefaultKeepOutputBytes = 4 << 20
	MinKeepOutputBytes     = 256 << 10
)

// DefaultMemoryLimitMB (1 GiB) is far above what a program needs (the heap
// is the process's, so other sessions' work counts too) and far below
// what takes a desktop down; MinMemoryLimitMB (64 MiB) keeps a typo from
// stopping every block.
const (
	DefaultMemoryLimitMB = 1024
	MinMemoryLimitMB     = 64
)

// MemoryLimit is the block memory limit in effect, in bytes.
func (s Sandbox) MemoryLimit() uint64 {
	return uint64(s.memoryLimitMB()) << 20
}

func (s Sandbox) memoryLimitMB() int {
	if s.MemoryLimitMB > 0 {
		return max(s.MemoryLimitMB, MinMemoryLimitMB)
	}
	return DefaultMemoryLimitMB
}

// KeepOutput is the output keep cap in effect, in bytes.
func (s Sandbox) KeepOutput() int {
	if s.KeepOutputBytes > 0 {
		return max(s.KeepOutputBytes, MinKeepOutputBytes)
	}
	return DefaultKeepOutputBytes
}

// WallLimit is the block wall limit in effect.
func (s Sandbox) WallLimit() time.Duration {
	if s.WallLimitSeconds > 0 {
		return time.Duration(s.WallLimitSeconds) * time.Second
	}
	return DefaultWallLimitSeconds * time.Second
}

// MaxWallLimit is the ceiling in effect (never below WallLimit).
func (s Sandbox) MaxWallLimit() time.Duration {
	m := time.Duration(DefaultMaxWallLimitSeconds) * time.Second
	if s.MaxWallLimitSeconds > 0 {
		m = time.Duration(s.MaxWallLimitSeconds) * time.Second
	}
	return max(m, s.WallLimit())
}

// From returns the file that set key (KeyWallLimit, KeyMaxWallLimit, KeyKeepOutput, KeyMemoryLimit)
// last; "" when no file did (the default applies).
func (s Sandbox) From(key string) string { return s.from[key] }

// Describe says what key is and where it comes from, for messages:
// "sandbox.wall_limit_seconds: 600 in /w/vis.yml",
// "sandbox.wall_limit_seconds: unset, default 300", or for a ceiling below
// the wall limit "sandbox.max_wall_limit_seconds: 60 in /h/config.yml,
// raised to the wall limit 600".
func (s Sandbox) Describe(key string) string {
	var set, def, eff int
	switch key {
	case KeyWallLimit:
		set, def, eff = s.WallLimitSeconds, DefaultWallLimitSeconds, int(s.WallLimit()/time.Second)
	case KeyMaxWallLimit:
		set, def, eff = s.MaxWallLimitSeconds, DefaultMaxWallLimitSeconds, int(s.MaxWallLimit()/time.Second)
	case KeyKeepOutput:
		set, def, eff = s.KeepOutputBytes, DefaultKeepOutputBytes, s.KeepOutput()
	case KeyMemoryLimit:
		set, def, eff = s.MemoryLimitMB, DefaultMemoryLimitMB, s.memoryLimitMB()
	default:
		return key
	}
	d := fmt.Sprintf("%s: unset, default %d", key, def)
	if f := s.From(key); f != "" && set > 0 {
		d = fmt.Sprintf("%s: %d in %s", key, set, f)
	} else {
		set = def
	}
	if eff != set && (key == KeyKeepOutput || key == KeyMemoryLimit) {
		d += fmt.Sprintf(", raised to the minimum %d", eff)
	} else if eff != set {
		d += fmt.Sprintf(", raised to the wall limit %d", eff)
	}
	return d
}

// validate drops negative values (the default applies) and reports a
// ceiling below the wall limit; it returns the warnings.
func (s *Sandbox) validate() []string {
	var w []string
	if s.WallLimitSeconds < 0 {
		w = append(w, fmt.Sprintf("%s is %d (%s); the default %d applies", KeyWallLimit, s.WallLimitSeconds, s.From(KeyWallLimit), DefaultWallLimitSeconds))
		s.WallLimitSeconds = 0
		delete(s.from, KeyWallLimit)
	}
	if s.MaxWallLimitSeconds < 0 {
		w = append(w, fmt.Sprintf("%s is %d (%s); the default %d applies", KeyMaxWallLimit, s.MaxWallLimitSeconds, s.From(KeyMaxWallLimit), DefaultMaxWallLimitSeconds))
		s.MaxWallLimitSeconds = 0
		delete(s.from, KeyMaxWallLimit)
	}
	if s.KeepOutputBytes < 0 {
		w = append(w, fmt.Sprintf("%s is %d (%s); the default %d applies", KeyKeepOutput, s.KeepOutputBytes, s.From(KeyKeepOutput), DefaultKeepOutputBytes))
		s.KeepOutputBytes = 0
		delete(s.from, KeyKeepOutput)
	}
	if s.MemoryLimitMB < 0 {
		w = append(w, fmt.Sprintf("%s is %d (%s); the default %d applies", KeyMemoryLimit, s.MemoryLimitMB, s.From(KeyMemoryLimit), DefaultMemoryLimitMB))
		s.MemoryLimitMB = 0
		delete(s.from, KeyMemoryLimit)
	}
	if s.MemoryLimitMB > 0 && s.MemoryLimitMB < MinMemoryLimitMB {
		w = append(w, fmt.Sprintf("%s (%d) is below the minimum %d; the minimum applies", KeyMemoryLimit, s.MemoryLimitMB, MinMemoryLimitMB))
	}
	if s.KeepOutputBytes > 0 && s.KeepOutputBytes < MinKeepOutputBytes {
		w = append(w, fmt.Sprintf("%s (%d) is below the minimum %d (the model's own copy); the minimum applies", KeyKeepOutput, s.KeepOutputBytes, MinKeepOutputBytes))
	}
	if wall := int(s.WallLimit() / time.Second); s.MaxWallLimitSeconds > 0 && s.MaxWallLimitSeconds < wall {
		w = append(w, fmt.Sprintf("%s (%d) is below %s (%d); the ceiling is the wall limit, so a call's own timeout cannot extend a block",
			KeyMaxWallLimit, s.MaxWallLimitSeconds, KeyWallLimit, wall))
	}
	return w
}

// sandboxOrigins records which sandbox keys file m (read from f) sets.
func sandboxOrigins(origins map[string]string, m map[string]any, f string) map[string]string {
	sb, ok := m["sandbox"].(map[string]any)
	if !ok {
		return origins
	}
	for _, k := range []string{"wall_limit_seconds", "max_wall_limit_seconds", "keep_output_bytes", "memory_limit_mb"} {
		if _, ok := sb[k]; ok {
			if origins == nil {
				origins = map[string]string{}
			}
			origins["sandbox."+k] = f
		}
	}
	return origins
}

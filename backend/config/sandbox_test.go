package config

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The sandbox limits merge like any key (the project file wins), remember
// which file set them, default when unset, and a bad value falls back with
// a warning.
func TestSandboxKeepOutput(t *testing.T) {
	tests := []struct {
		name, home string
		want       int
		describe   string
		warn       string
	}{
		{"unset", "", DefaultKeepOutputBytes, "sandbox.keep_output_bytes: unset, default 4194304", ""},
		{"set", "sandbox: {keep_output_bytes: 16777216}\n", 16 << 20, "sandbox.keep_output_bytes: 16777216 in %s", ""},
		{"below the minimum", "sandbox: {keep_output_bytes: 1000}\n", MinKeepOutputBytes,
			"sandbox.keep_output_bytes: 1000 in %s, raised to the minimum 262144", "is below the minimum 262144"},
		{"negative", "sandbox: {keep_output_bytes: -1}\n", DefaultKeepOutputBytes, "sandbox.keep_output_bytes: unset, default 4194304", "is -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			home, ws := t.TempDir(), t.TempDir()
			if tt.home != "" {
				write(t, filepath.Join(home, "config.yml"), tt.home)
			}
			c, err := Load(home, ws, env(nil))
			if err != nil {
				t.Fatal(err)
			}
			desc := tt.describe
			if strings.Contains(desc, "%s") {
				desc = fmt.Sprintf(desc, filepath.Join(home, "config.yml"))
			}
			if got := c.Sandbox.KeepOutput(); got != tt.want {
				t.Errorf("KeepOutput = %d, want %d", got, tt.want)
			}
			if got := c.Sandbox.Describe(KeyKeepOutput); got != desc {
				t.Errorf("Describe = %q, want %q", got, desc)
			}
			if tt.warn == "" && len(c.Warnings) > 0 || tt.warn != "" && (len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], tt.warn)) {
				t.Errorf("warnings = %q, want %q", c.Warnings, tt.warn)
			}
		})
	}
}

func TestSandboxLimits(t *testing.T) {
	t.Parallel()
	type got struct {
		Wall, Max         time.Duration
		WallDesc, MaxDesc string
		Warnings          int
	}
	tests := []struct {
		name, home, project string
		want                func(home, ws string) got
		warn                string
	}{
		{name: "unset: defaults", want: func(_, _ string) got {
			return got{5 * time.Minute, time.Hour, "sandbox.wall_limit_seconds: unset, default 300", "sandbox.max_wall_limit_seconds: unset, default 3600", 0}
		}},
		{name: "home sets both", home: "sandbox: {wall_limit_seconds: 900, max_wall_limit_seconds: 7200}\n", want: func(home, _ string) got {
			f := filepath.Join(home, "config.yml")
			return got{15 * time.Minute, 2 * time.Hour, "sandbox.wall_limit_seconds: 900 in " + f, "sandbox.max_wall_limit_seconds: 7200 in " + f, 0}
		}},
		{name: "the project's vis.yml wins for the key it sets", home: "sandbox: {wall_limit_seconds: 900, max_wall_limit_seconds: 7200}\n",
			project: "sandbox: {wall_limit_seconds: 60}\n", want: func(home, ws string) got {
				return got{time.Minute, 2 * time.Hour, "sandbox.wall_limit_seconds: 60 in " + filepath.Join(ws, "vis.yml"),
					"sandbox.max_wall_limit_seconds: 7200 in " + filepath.Join(home, "config.yml"), 0}
			}},
		{name: "a wall limit above the default ceiling raises the ceiling", home: "sandbox: {wall_limit_seconds: 5400}\n", want: func(home, _ string) got {
			return got{90 * time.Minute, 90 * time.Minute, "sandbox.wall_limit_seconds: 5400 in " + filepath.Join(home, "config.yml"),
				"sandbox.max_wall_limit_seconds: unset, default 3600, raised to the wall limit 5400", 0}
		}},
		{name: "a ceiling below the wall limit is the wall limit, with a warning", home: "sandbox: {wall_limit_seconds: 600, max_wall_limit_seconds: 60}\n",
			want: func(home, _ string) got {
				f := filepath.Join(home, "config.yml")
				return got{10 * time.Minute, 10 * time.Minute, "sandbox.wall_limit_seconds: 600 in " + f, "sandbox.max_wall_limit_seconds: 60 in " + f + ", raised to the wall limit 600", 1}
			}, warn: "sandbox.max_wall_limit_seconds (60) is below sandbox.wall_limit_seconds (600)"},
		{name: "a negative value falls back to the default, with a warning", home: "sandbox: {wall_limit_seconds: -5}\n", want: func(_, _ string) got {
			return got{5 * time.Minute, time.Hour, "sandbox.wall_limit_seconds: unset, default 300", "sandbox.max_wall_limit_seconds: unset, default 3600", 1}
		}, warn: "sandbox.wall_limit_seconds is -5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			home, ws := t.TempDir(), t.TempDir()
			if tt.home != "" {
				write(t, filepath.Join(home, "config.yml"), tt.home)
			}
			if tt.project != "" {
				write(t, filepath.Join(ws, "vis.yml"), tt.project)
			}
			c, err := Load(home, ws, env(nil))
			if err != nil {
				t.Fatal(err)
			}
			sb := c.Sandbox
			g := got{sb.WallLimit(), sb.MaxWallLimit(), sb.Describe(KeyWallLimit), sb.Describe(KeyMaxWallLimit), len(c.Warnings)}
			if diff := cmp.Diff(tt.want(home, ws), g); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if tt.warn != "" && (len(c.Warnings) == 0 || !strings.Contains(c.Warnings[0], tt.warn)) {
				t.Errorf("warnings = %q, want one containing %q", c.Warnings, tt.warn)
			}
		})
	}
}

// sandbox.memory_limit_mb: default, set (with its file), raised to the
// minimum, negative.
func TestSandboxMemoryLimit(t *testing.T) {
	tests := []struct {
		name, home string
		want       uint64
		describe   string
		warn       string
	}{
		{"unset", "", 1024 << 20, "sandbox.memory_limit_mb: unset, default 1024", ""},
		{"set", "sandbox: {memory_limit_mb: 2048}\n", 2048 << 20, "sandbox.memory_limit_mb: 2048 in %s", ""},
		{"below the minimum", "sandbox: {memory_limit_mb: 8}\n", 64 << 20, "sandbox.memory_limit_mb: 8 in %s, raised to the minimum 64", "is below the minimum 64"},
		{"negative", "sandbox: {memory_limit_mb: -5}\n", 1024 << 20, "sandbox.memory_limit_mb: unset, default 1024", "is -5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			home, ws := t.TempDir(), t.TempDir()
			if tt.home != "" {
				write(t, filepath.Join(home, "config.yml"), tt.home)
			}
			c, err := Load(home, ws, env(nil))
			if err != nil {
				t.Fatal(err)
			}
			desc := tt.describe
			if strings.Contains(desc, "%s") {
				desc = fmt.Sprintf(desc, filepath.Join(home, "config.yml"))
			}
			if got := c.Sandbox.MemoryLimit(); got != tt.want {
				t.Errorf("MemoryLimit = %d, want %d", got, tt.want)
			}
			if got := c.Sandbox.Describe(KeyMemoryLimit); got != desc {
				t.Errorf("Describe = %q, want %q", got, desc)
			}
			if tt.warn == "" && len(c.Warnings) > 0 || tt.warn != "" && (len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], tt.warn)) {
				t.Errorf("warnings = %q, want %q", c.Warnings, tt.warn)
			}
		})
	}
}

// The provider section's timeouts: defaults, a project file overriding the
// home's (and named), a negative value falling back with a warning.
func TestProviderTimeouts(t *testing.T) {
	t.Parallel()
	home, ws := t.TempDir(), t.TempDir()
	c, err := Load(home, ws, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Provider.IdleTimeout() != 120*time.Second || c.Provider.ConnectTimeout() != 15*time.Second {
		t.Errorf("defaults = %s, %s", c.Provider.IdleTimeout(), c.Provider.ConnectTimeout())
	}
	if got := c.Provider.Describe(KeyIdleTimeout); got != "provider.idle_timeout_seconds: unset, default 120" {
		t.Errorf("Describe = %q", got)
	}
	write(t, filepath.Join(home, "config.yml"), "provider: {idle_timeout_seconds: 600, connect_timeout_seconds: -1}\n")
	write(t, filepath.Join(ws, "vis.yml"), "provider: {idle_timeout_seconds: 30}\n")
	c, err = Load(home, ws, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Provider.IdleTimeout() != 30*time.Second || c.Provider.ConnectTimeout() != 15*time.Second {
		t.Errorf("set = %s, %s", c.Provider.IdleTimeout(), c.Provider.ConnectTimeout())
	}
	if got, want := c.Provider.Describe(KeyIdleTimeout), "provider.idle_timeout_seconds: 30 in "+filepath.Join(ws, "vis.yml"); got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "provider.connect_timeout_seconds is -1") {
		t.Errorf("warnings = %q", c.Warnings)
	}
}

package clojure

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Idle reaping (spec §4.5): a managed REPL nobody used for IdleTimeout —
// no start that reused it, no evaluation, no test run in it — is stopped,
// the way repl_stop stops it (the resource registry forgets it, so the
// window's sidebar and the next turn's `session` dict lose it). The
// per-turn liveness probe is not a use. Attachments are never reaped: they
// own no process. One goroutine per pack does it, started with the first
// managed REPL and ended by Close.

// DefaultIdleTimeout is how long a managed REPL may sit unused.
const DefaultIdleTimeout = 20 * time.Minute

// IdleEnv overrides the idle timeout in milliseconds; 0 disables reaping.
const IdleEnv = "VIS_CLJ_REPL_IDLE_MS"

// idleTimeout resolves Options.IdleTimeout: >0 as given, <0 disabled, 0
// from IdleEnv (unset or unreadable: DefaultIdleTimeout).
func idleTimeout(opts Options) time.Duration {
	if opts.IdleTimeout != 0 {
		return opts.IdleTimeout
	}
	s := strings.TrimSpace(opts.Getenv(IdleEnv))
	if s == "" {
		return DefaultIdleTimeout
	}
	ms, err := strconv.ParseInt(s, 10, 64)
	if err != nil || ms < 0 {
		return DefaultIdleTimeout
	}
	if ms == 0 {
		return -1
	}
	return time.Duration(ms) * time.Millisecond
}

// touch records a use of r.
func (r *repl) touch() { r.used.Store(time.Now().UnixNano()) }

// idleFor is how long r has gone unused at now.
func (r *repl) idleFor(now time.Time) time.Duration {
	return now.Sub(time.Unix(0, r.used.Load()))
}

// startReaper starts the pack's reaper once (no-op when reaping is off).
func (p *Pack) startReaper() {
	idle := p.idle
	if idle <= 0 {
		return
	}
	p.reaperOnce.Do(func() {
		every := idle / 4
		if every > time.Minute {
			every = time.Minute
		}
		if every < 10*time.Millisecond {
			every = 10 * time.Millisecond
		}
		go func() { // owner: the pack; ends with Close
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				select {
				case <-p.done:
					return
				case now := <-t.C:
					p.reapIdle(now, idle)
				}
			}
		}()
	})
}

// reapIdle stops every managed REPL unused for longer than idle at now and
// returns the ids it stopped.
func (p *Pack) reapIdle(now time.Time, idle time.Duration) []string {
	p.mu.Lock()
	var due []*repl
	for _, r := range p.repls {
		if r.managed && !r.stopping.Load() && r.idleFor(now) > idle {
			due = append(due, r)
		}
	}
	p.mu.Unlock()
	var ids []string
	for _, r := range due {
		appendLog(r.logPath, fmt.Sprintf("[vis] %s stopped: unused for %s (%s=%d; 0 disables)",
			now.Format(time.RFC3339), idle.Round(time.Second), IdleEnv, idle.Milliseconds()))
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		stopped := false
		if r.env.Resources != nil {
			if _, err := r.env.Resources.Stop(ctx, r.sessionID, r.id); err == nil {
				stopped = true
			}
		}
		if _, still := p.get(r.sessionID, r.id); !stopped || still {
			p.forget(r)
			r.stop(ctx)
		}
		cancel()
		ids = append(ids, r.id)
	}
	return ids
}

// appendLog adds one line to a REPL's log (best effort).
func appendLog(path, line string) {
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return
	}
	fmt.Fprintln(f, line)
	f.Close()
}

// The .nrepl-port file. nREPL's launchers write dir/.nrepl-port for
// editors once they listen. A REPL Vis started is the session's (spec
// §4.5: no .nrepl-port scanning, a stray one is deleted after boot), and
// once Vis stops it the file would point editors at a dead port. So after
// boot the file naming our port is removed, or, when the folder had one
// before our launch (someone else's server), put back as it was. A file
// naming another port is never touched.

// portFileBefore reads dir/.nrepl-port before a launch ("" when absent).
func portFileBefore(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, ".nrepl-port"))
	if err != nil {
		return ""
	}
	return string(b)
}

// removePortFile removes (or restores to prior, when not "") dir/.nrepl-port
// when it names port, and reports whether it did.
func removePortFile(dir string, port int, prior string) bool {
	path := filepath.Join(dir, ".nrepl-port")
	b, err := os.ReadFile(path)
	if err != nil || strings.TrimSpace(string(b)) != strconv.Itoa(port) {
		return false
	}
	if prior != "" && strings.TrimSpace(prior) != strconv.Itoa(port) {
		return os.WriteFile(path, []byte(prior), 0o644) == nil
	}
	return os.Remove(path) == nil
}

// restorePortFile puts back the file a folder had before our launch when
// it is gone (nREPL deletes the file on exit).
func restorePortFile(dir, prior string) {
	if prior == "" {
		return
	}
	path := filepath.Join(dir, ".nrepl-port")
	if _, err := os.Stat(path); os.IsNotExist(err) {
		_ = os.WriteFile(path, []byte(prior), 0o644)
	}
}

// portFileAfterBoot waits (briefly) for the launcher to write the port file
// after it began listening, and removes it.
func (p *Pack) portFileAfterBoot(r *repl) {
	go func() { // owner: r; ends within 10 s, or when r exits or is stopped
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		deadline := time.After(10 * time.Second)
		for {
			if removePortFile(r.dir, r.port, r.priorPortFile) {
				return
			}
			select {
			case <-t.C:
			case <-deadline:
				return
			case <-r.exited:
				return
			case <-p.done:
				return
			}
		}
	}()
}

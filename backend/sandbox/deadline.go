package sandbox

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// Limits are one block's time and memory limits (ExecWith). The host resolves them per
// block, so a changed configuration applies from the next block on.
type Limits struct {
	// Wall is the block's deadline, measured from its start;
	// 0 = Options.WallLimit.
	Wall time.Duration
	// Max is the ceiling: the latest deadline, measured from the block's
	// start, that ExtendDeadline may grant; 0 = Options.MaxWallLimit; below
	// Wall it is Wall (no extension).
	Max time.Duration
	// WallWhere and MaxWhere say where the two limits are configured (e.g.
	// "sandbox.wall_limit_seconds in ~/.vis/config.yml"). The timeout
	// error names them; "" leaves them out.
	WallWhere, MaxWhere string
	// Hint is the timeout error's hint: how to raise the limits. "" = a
	// generic hint built from the two Where fields.
	Hint string
	// KeepOutput is how many bytes of the block's printed output Result.Kept
	// keeps (the person's copy; the model's stays at Options.OutputLimit);
	// 0 = DefaultKeepOutput.
	KeepOutput int
	// Memory is how many bytes the block may grow the heap by (memory.go);
	// 0 = Options.MemoryLimit. MemoryWhere says where it is configured and
	// MemoryHint how to raise it, for the error; "" leaves them out.
	Memory                  uint64
	MemoryWhere, MemoryHint string
}

// DefaultKeepOutput is the default Limits.KeepOutput: 4 MiB, sixty-odd
// times the model's 64 Ki-char copy, so a program's output is kept whole
// unless it printed megabytes.
const DefaultKeepOutput = 4 << 20

// withDefaults fills the zero fields from the interpreter's options.
func (l Limits) withDefaults(o Options) Limits {
	if l.Wall <= 0 {
		l.Wall = o.WallLimit
	}
	if l.Max <= 0 {
		l.Max = o.MaxWallLimit
	}
	if l.Max < l.Wall {
		l.Max = l.Wall
	}
	if l.KeepOutput <= 0 {
		l.KeepOutput = DefaultKeepOutput
	}
	if l.Memory == 0 {
		l.Memory = o.MemoryLimit
	}
	if l.Memory == 0 {
		l.Memory = DefaultMemoryLimit
	}
	return l
}

// maxExtendGrace is the most ExtendDeadline adds after a call's budget, so
// a tool that stops its work at its own timeout still has time to report
// what it has before the block's deadline.
const maxExtendGrace = 30 * time.Second

// blockClock is one block's deadline, which builtins may push later up to
// the ceiling. Its timer cancels the block's ctx with errWallLimit once the
// deadline passes.
type blockClock struct {
	lim    Limits
	start  time.Time
	cancel context.CancelCauseFunc

	mu       sync.Mutex
	deadline time.Time
	timer    *time.Timer
	fired    bool   // the deadline passed and the block was cancelled
	stopped  bool   // the block ended
	calling  string // the builtin running now
	killed   string // the builtin that was running when the deadline passed
	by       string // the builtin that pushed the deadline last
}

// startClock derives the block's ctx from parent: cancelled at the
// deadline with errWallLimit, or with parent. stop releases it.
func startClock(parent context.Context, lim Limits) (ctx context.Context, c *blockClock, stop func()) {
	cctx, cancel := context.WithCancelCause(parent)
	c = &blockClock{lim: lim, start: time.Now(), cancel: cancel}
	cctx = hostfn.WithClock(cctx, c)
	c.mu.Lock()
	c.deadline = c.start.Add(lim.Wall)
	c.timer = time.AfterFunc(lim.Wall, c.tick)
	c.mu.Unlock()
	return &blockCtx{Context: cctx, clock: c}, c, func() {
		c.mu.Lock()
		c.stopped = true
		c.timer.Stop()
		c.mu.Unlock()
		cancel(context.Canceled)
	}
}

// tick runs when the timer fires: it cancels the block if the deadline has
// passed, else waits for the (extended) deadline.
func (c *blockClock) tick() {
	c.mu.Lock()
	if c.stopped {
		c.mu.Unlock()
		return
	}
	if left := time.Until(c.deadline); left > 0 {
		c.timer = time.AfterFunc(left, c.tick)
		c.mu.Unlock()
		return
	}
	c.fired, c.killed = true, c.calling
	c.mu.Unlock()
	c.cancel(errWallLimit)
}

// Extend is hostfn.Clock's: ExtendDeadline's work for this block.
func (c *blockClock) Extend(want time.Duration, now time.Time) hostfn.Grant {
	c.mu.Lock()
	defer c.mu.Unlock()
	g := hostfn.Grant{Budget: want}
	if c.fired || c.stopped {
		return g
	}
	grace := min(want, maxExtendGrace)
	ceiling := c.start.Add(c.lim.Max)
	target := now.Add(want + grace)
	if target.After(ceiling) {
		target = ceiling
		room := ceiling.Sub(now)
		budget := room - grace
		if budget < room/2 {
			budget = room / 2
		}
		g.Budget, g.Capped = max(budget, time.Millisecond), true
		g.Note = fmt.Sprintf("the timeout asked for (%s) was capped at %s: a program block may run at most %s%s, and %s of it had passed",
			want, g.Budget.Round(time.Millisecond), c.lim.Max, where(c.lim.MaxWhere), now.Sub(c.start).Round(time.Millisecond))
	}
	if target.After(c.deadline) {
		c.deadline = target
		c.by = c.calling
	}
	return g
}

func where(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

func (c *blockClock) enter(name string) {
	c.mu.Lock()
	c.calling = name
	c.mu.Unlock()
}

func (c *blockClock) leave() {
	c.mu.Lock()
	c.calling = ""
	c.mu.Unlock()
}

// timeoutError is the error of a block its deadline stopped: which limit,
// where it is configured, how to raise it.
func (c *blockClock) timeoutError() *Error {
	c.mu.Lock()
	defer c.mu.Unlock()
	total := c.deadline.Sub(c.start).Round(time.Millisecond)
	msg := fmt.Sprintf("the block ran longer than its wall limit of %s%s", c.lim.Wall, where(c.lim.WallWhere))
	if total > c.lim.Wall {
		by := "a call's own timeout"
		if c.by != "" {
			by = c.by + "'s own timeout"
		}
		msg = fmt.Sprintf("the block ran longer than %s: its wall limit of %s%s, extended for %s", total, c.lim.Wall, where(c.lim.WallWhere), by)
		if total >= c.lim.Max {
			msg += fmt.Sprintf(" up to the ceiling of %s%s", c.lim.Max, where(c.lim.MaxWhere))
		}
	}
	if c.killed != "" {
		msg += "; " + c.killed + " was still running"
	}
	hint := c.lim.Hint
	if hint == "" {
		hint = "do less per block; globals persist between blocks"
		if c.lim.Max > c.lim.Wall {
			hint = fmt.Sprintf("a slow call can pass its own timeout, which extends the block up to %s; or %s", c.lim.Max, hint)
		}
	}
	return &Error{Phase: PhaseTimeout, Message: msg, Hint: hint}
}

// blockCtx is the ctx builtins get: the block's cancellation, its clock
// (for hostfn.ExtendDeadline, as a value of the ctx), and its current
// deadline.
type blockCtx struct {
	context.Context
	clock *blockClock
}

// Deadline is the block's deadline as extended so far (or the parent's,
// when that is earlier).
func (b *blockCtx) Deadline() (time.Time, bool) {
	b.clock.mu.Lock()
	d := b.clock.deadline
	b.clock.mu.Unlock()
	if p, ok := b.Context.Deadline(); ok && p.Before(d) {
		return p, true
	}
	return d, true
}

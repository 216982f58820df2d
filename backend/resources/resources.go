// Package resources is the registry of session-owned processes (REPLs and
// attachments), implementing ext.Resources (spec §4.8).
//
// Contract:
//   - Resources are kept per session, in memory only (processes die with the
//     app). Register adds or replaces by id; replacing never stops the old
//     process (a pack re-registers the same process to refresh its info) and
//     bumps the entry's generation.
//   - List probes every entry through its Health function under a hard
//     timeout (Options.ProbeTimeout): the returned status replaces the old
//     one; a probe that does not return in time makes it "unresponsive"; a
//     panicking probe makes it "unknown". Entries whose status is "down" are
//     pruned (the process is gone); "failed" entries stay, so their log can
//     still be read, until stopped. A probe result is applied only when the
//     entry still has the generation that was probed, so a slow probe never
//     patches a replacement.
//   - Stop calls StopFn and removes the entry: "stopped" for processes we
//     manage, "detached" for attachments, "not-managed" for an id the session
//     does not have. A failing StopFn leaves the entry (status "unknown") and
//     returns the error. Restart stops, removes, then calls the resource's
//     Restart (which registers the new process); ErrCannotRestart when it has
//     none.
//   - StopSession (session closed or deleted) and StopAll (app exit) stop
//     every entry and report each result.
//   - OnChange(sessionID) is called, outside the registry's lock, after every
//     change a window would show (register, stop, status change, prune).
//   - Safe for concurrent use. Run, when started, owns a monitor goroutine
//     that re-probes every session each interval until its ctx ends.
package resources

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/ext"
)

// Statuses a resource can have.
const (
	StatusUp           = "up"
	StatusStarting     = "starting"
	StatusFailed       = "failed"
	StatusDown         = "down"
	StatusUnresponsive = "unresponsive"
	StatusUnknown      = "unknown"
)

// Stop results.
const (
	ResultStopped    = "stopped"
	ResultDetached   = "detached"
	ResultNotManaged = "not-managed"
)

// ErrNotFound means the session has no resource with that id.
var ErrNotFound = errors.New("no such resource")

// ErrCannotRestart means the resource has no Restart function.
var ErrCannotRestart = errors.New("resource cannot restart")

// Options configure a Registry.
type Options struct {
	ProbeTimeout time.Duration          // hard timeout of one Health probe; 0 = 2s
	StopTimeout  time.Duration          // bound on one StopFn when the ctx has none; 0 = 10s
	OnChange     func(sessionID string) // called after visible changes
	Now          func() time.Time       // clock for Created; nil = time.Now
	Logf         func(string, ...any)   // probe panics, stop failures; nil = dropped
}

type entry struct {
	res ext.Resource
	gen uint64
}

// Registry implements ext.Resources.
type Registry struct {
	opts Options

	mu       sync.Mutex
	sessions map[string]map[string]*entry // session -> id -> entry
	gen      uint64
}

var _ ext.Resources = (*Registry)(nil)

// New returns an empty registry.
func New(opts Options) *Registry {
	if opts.ProbeTimeout <= 0 {
		opts.ProbeTimeout = 2 * time.Second
	}
	if opts.StopTimeout <= 0 {
		opts.StopTimeout = 10 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	return &Registry{opts: opts, sessions: map[string]map[string]*entry{}}
}

func (r *Registry) changed(sessionID string) {
	if r.opts.OnChange != nil {
		r.opts.OnChange(sessionID)
	}
}

// Register adds or replaces res (keyed by res.Info.SessionID and res.Info.ID).
// A zero Created is set to now; an empty Status becomes "unknown".
func (r *Registry) Register(res ext.Resource) {
	if res.Info.ID == "" {
		r.opts.Logf("resources: register without an id ignored (%s)", res.Info.Label)
		return
	}
	if res.Info.Created == 0 {
		res.Info.Created = r.opts.Now().UnixMilli()
	}
	if res.Info.Status == "" {
		res.Info.Status = StatusUnknown
	}
	r.mu.Lock()
	m := r.sessions[res.Info.SessionID]
	if m == nil {
		m = map[string]*entry{}
		r.sessions[res.Info.SessionID] = m
	}
	r.gen++
	m[res.Info.ID] = &entry{res: res, gen: r.gen}
	r.mu.Unlock()
	r.changed(res.Info.SessionID)
}

// Lookup returns a resource of the session by id (as last known; no probe).
func (r *Registry) Lookup(sessionID, id string) (ext.Resource, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.sessions[sessionID][id]
	if !ok {
		return ext.Resource{}, false
	}
	return e.res, true
}

// Snapshot returns the session's resources as last known, without probing,
// sorted by creation then id (for a window that polls often).
func (r *Registry) Snapshot(sessionID string) []ext.ResourceInfo {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.infosLocked(sessionID)
}

func (r *Registry) infosLocked(sessionID string) []ext.ResourceInfo {
	out := make([]ext.ResourceInfo, 0, len(r.sessions[sessionID]))
	for _, e := range r.sessions[sessionID] {
		out = append(out, e.res.Info)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Created != out[j].Created {
			return out[i].Created < out[j].Created
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// Count returns how many resources the session has.
func (r *Registry) Count(sessionID string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.sessions[sessionID])
}

// Sessions returns the ids of sessions that have resources, sorted.
func (r *Registry) Sessions() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for s, m := range r.sessions {
		if len(m) > 0 {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

type probed struct {
	id     string
	gen    uint64
	status string
}

// List probes the session's resources, prunes the dead ones and returns the
// rest with fresh statuses.
func (r *Registry) List(ctx context.Context, sessionID string) []ext.ResourceInfo {
	r.refresh(ctx, sessionID)
	return r.Snapshot(sessionID)
}

// refresh probes every entry of a session concurrently and applies the
// results generation-safely. It reports whether anything changed.
func (r *Registry) refresh(ctx context.Context, sessionID string) bool {
	type job struct {
		id     string
		gen    uint64
		health func(context.Context) string
	}
	r.mu.Lock()
	var jobs []job
	for id, e := range r.sessions[sessionID] {
		if e.res.Health != nil {
			jobs = append(jobs, job{id, e.gen, e.res.Health})
		}
	}
	r.mu.Unlock()
	if len(jobs) == 0 {
		return false
	}
	results := make([]probed, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		go func() { // owner: this refresh; bounded by ProbeTimeout
			defer wg.Done()
			results[i] = probed{j.id, j.gen, r.probe(ctx, j.id, j.health)}
		}()
	}
	wg.Wait()
	return r.apply(sessionID, results)
}

// probe runs one health check under the hard timeout. A probe that ignores
// its ctx keeps running in its own goroutine until it returns; its answer
// is then dropped.
func (r *Registry) probe(ctx context.Context, id string, health func(context.Context) string) string {
	pctx, cancel := context.WithTimeout(ctx, r.opts.ProbeTimeout)
	defer cancel()
	ch := make(chan string, 1)
	go func() { // owner: probe; ends when health returns (its ctx is cancelled)
		defer func() {
			if p := recover(); p != nil {
				r.opts.Logf("resources: health probe of %s panicked: %v", id, p)
				ch <- StatusUnknown
			}
		}()
		ch <- health(pctx)
	}()
	select {
	case s := <-ch:
		if s == "" {
			s = StatusUnknown
		}
		return s
	case <-pctx.Done():
		return StatusUnresponsive
	}
}

// Apply sets statuses from probes, skipping entries replaced since, and
// prunes "down" entries.
func (r *Registry) apply(sessionID string, results []probed) bool {
	changed := false
	r.mu.Lock()
	m := r.sessions[sessionID]
	for _, p := range results {
		e, ok := m[p.id]
		if !ok || e.gen != p.gen {
			continue // stopped or replaced while probing
		}
		if p.status == StatusDown {
			delete(m, p.id)
			changed = true
			continue
		}
		if e.res.Info.Status != p.status {
			e.res.Info.Status = p.status
			changed = true
		}
	}
	r.mu.Unlock()
	if changed {
		r.changed(sessionID)
	}
	return changed
}

// SetStatus sets the status of the resource registered now under id and
// reports whether it changed anything. Packs use it for status they learn
// outside a probe (a REPL that exited).
func (r *Registry) SetStatus(sessionID, id, status string) bool {
	r.mu.Lock()
	e, ok := r.sessions[sessionID][id]
	if ok && e.res.Info.Status != status {
		e.res.Info.Status = status
	} else {
		ok = false
	}
	r.mu.Unlock()
	if ok {
		r.changed(sessionID)
	}
	return ok
}

func (r *Registry) liveIDs(sessionID string) string {
	var ids []string
	for _, in := range r.Snapshot(sessionID) {
		ids = append(ids, in.ID)
	}
	if len(ids) == 0 {
		return "this session has none"
	}
	return "live: " + strings.Join(ids, ", ")
}

// take removes an entry and returns it.
func (r *Registry) take(sessionID, id string) (*entry, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.sessions[sessionID][id]
	if ok {
		delete(r.sessions[sessionID], id)
	}
	return e, ok
}

// putBack restores an entry whose stop failed, unless it was replaced.
func (r *Registry) putBack(sessionID, id string, e *entry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.sessions[sessionID]
	if m == nil {
		m = map[string]*entry{}
		r.sessions[sessionID] = m
	}
	if _, replaced := m[id]; !replaced {
		e.res.Info.Status = StatusUnknown
		m[id] = e
	}
}

func (r *Registry) stopCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, r.opts.StopTimeout)
}

// Stop stops (or detaches) a resource by id and removes it.
func (r *Registry) Stop(ctx context.Context, sessionID, id string) (ext.StopResult, error) {
	e, ok := r.take(sessionID, id)
	if !ok {
		return ext.StopResult{Result: ResultNotManaged, ID: id,
			Message: fmt.Sprintf("no REPL or process with id %q in this session (%s)", id, r.liveIDs(sessionID))}, nil
	}
	res, err := r.stopEntry(ctx, e)
	if err != nil {
		r.putBack(sessionID, id, e)
		r.changed(sessionID)
		return res, err
	}
	r.changed(sessionID)
	return res, nil
}

func (r *Registry) stopEntry(ctx context.Context, e *entry) (ext.StopResult, error) {
	info := e.res.Info
	result := ResultStopped
	msg := "stopped " + describe(info)
	if !info.Managed {
		result = ResultDetached
		msg = "detached from " + describe(info) + " (the process keeps running)"
	}
	if e.res.StopFn != nil {
		sctx, cancel := r.stopCtx(ctx)
		err := safeStop(sctx, e.res.StopFn)
		cancel()
		if err != nil {
			r.opts.Logf("resources: stop %s: %v", info.ID, err)
			return ext.StopResult{Result: "failed", ID: info.ID, Message: "stop failed: " + err.Error()},
				fmt.Errorf("stop %s: %w", info.ID, err)
		}
	}
	return ext.StopResult{Result: result, ID: info.ID, Message: msg}, nil
}

func safeStop(ctx context.Context, f func(context.Context) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return f(ctx)
}

func describe(info ext.ResourceInfo) string {
	s := info.ID
	if info.Label != "" && info.Label != info.ID {
		s += " (" + info.Label + ")"
	}
	return s
}

// Restart stops the resource, removes it and calls its Restart function,
// which starts the process again with the same settings and registers it.
func (r *Registry) Restart(ctx context.Context, sessionID, id string) error {
	r.mu.Lock()
	e, ok := r.sessions[sessionID][id]
	r.mu.Unlock()
	if !ok {
		return fmt.Errorf("restart %s: %w", id, ErrNotFound)
	}
	if e.res.Restart == nil {
		return fmt.Errorf("restart %s: %w", id, ErrCannotRestart)
	}
	if _, err := r.Stop(ctx, sessionID, id); err != nil {
		return fmt.Errorf("restart %s: %w", id, err)
	}
	if err := e.res.Restart(ctx); err != nil {
		return fmt.Errorf("restart %s: %w", id, err)
	}
	return nil
}

// Logs returns the last n lines of a resource's log.
func (r *Registry) Logs(sessionID, id string, n int) (string, error) {
	e, ok := r.Lookup(sessionID, id)
	if !ok {
		return "", fmt.Errorf("logs of %s: %w", id, ErrNotFound)
	}
	if e.Logs == nil {
		return "", fmt.Errorf("logs of %s: this resource keeps no log", id)
	}
	s, err := e.Logs(n)
	if err != nil {
		return "", fmt.Errorf("logs of %s: %w", id, err)
	}
	return s, nil
}

// StopSession stops every resource of a session (closed or deleted) and
// reports each result; failures are reported in the results, and the
// entries are dropped either way (the session is going away).
func (r *Registry) StopSession(ctx context.Context, sessionID string) []ext.StopResult {
	r.mu.Lock()
	m := r.sessions[sessionID]
	delete(r.sessions, sessionID)
	r.mu.Unlock()
	if len(m) == 0 {
		return nil
	}
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make([]ext.StopResult, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() { // owner: StopSession; bounded by the stop timeout
			defer wg.Done()
			out[i], _ = r.stopEntry(ctx, m[id])
		}()
	}
	wg.Wait()
	r.changed(sessionID)
	return out
}

// StopAll stops every resource of every session (app exit).
func (r *Registry) StopAll(ctx context.Context) []ext.StopResult {
	r.mu.Lock()
	sessions := make([]string, 0, len(r.sessions))
	for s := range r.sessions {
		sessions = append(sessions, s)
	}
	r.mu.Unlock()
	sort.Strings(sessions)
	var out []ext.StopResult
	for _, s := range sessions {
		out = append(out, r.StopSession(ctx, s)...)
	}
	return out
}

// Run re-probes every session's resources each interval until ctx ends, so
// a process that dies shows at once (OnChange fires on a status change).
// The caller owns the goroutine that runs it.
func (r *Registry) Run(ctx context.Context, interval time.Duration) {
	if interval <= 0 {
		interval = 3 * time.Second
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			for _, s := range r.Sessions() {
				r.refresh(ctx, s)
			}
		}
	}
}

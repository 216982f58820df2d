package backend

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/visdesktop/vis/backend/attach"
	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/config"
	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/goals"
	"github.com/visdesktop/vis/backend/homedir"
	"github.com/visdesktop/vis/backend/langtools"
	"github.com/visdesktop/vis/backend/loop"
	"github.com/visdesktop/vis/backend/packs/clojure"
	"github.com/visdesktop/vis/backend/packs/python"
	"github.com/visdesktop/vis/backend/prompt"
	"github.com/visdesktop/vis/backend/provider"
	"github.com/visdesktop/vis/backend/resources"
	"github.com/visdesktop/vis/backend/sandbox"
	"github.com/visdesktop/vis/backend/secrets"
	"github.com/visdesktop/vis/backend/store"
	"github.com/visdesktop/vis/backend/tools"
	"github.com/visdesktop/vis/backend/workspace"
)

// Options configure Open.
type Options struct {
	Home   string              // VIS_HOME; state lives in Home/desktop
	Getenv func(string) string // nil = os.Getenv
	// Secrets keeps API keys; nil = the OS keyring, else a 0600 file.
	Secrets *secrets.Store
	// Sandbox, when set, is the permission mode (read-only, workspace,
	// full) of every turn this engine runs, over the config's
	// (`vis run --sandbox`); Open refuses an unknown one.
	Sandbox string
	// TrustProject trusts every workspace this engine runs for (`vis run
	// --trust-project`): its execution settings and SYSTEM.md apply.
	TrustProject bool
	// CanAsk: this front can ask the person at a program's call (the
	// window): with permissions.ask on (or Ask), a command the sandbox
	// refuses waits for the person's answer (approvals.go). Headless
	// fronts leave it off and never ask.
	CanAsk bool
	// Ask turns asking on whatever the config says (`vis-desktop --ask`).
	Ask bool
	// NoWatch: no file watcher on the workspaces (the headless CLI). The
	// watcher only tells the window at once that a file switched a
	// language pack on or off (a turn scans the packs when it starts
	// anyway); it walks the folder to set up, and a process that holds one
	// waits 5-20 ms at exit while the kernel releases it (closing an
	// inotify instance waits for an SRCU grace period).
	NoWatch bool
}

// ErrBusy is returned when a session already runs a turn.
var ErrBusy = errors.New("a turn is already running in this session")

// ErrNotFound is returned for an unknown session id.
var ErrNotFound = store.ErrNotFound

// ErrConfig wraps configuration problems (no endpoint, no model, no key, a
// malformed config file): fronts show them as "what to set", not as crashes.
var ErrConfig = errors.New("configuration")

// Engine is the one engine both fronts use. It is safe for concurrent use.
type Engine struct {
	inflight     inflight     // the running iterations' programs (inflight.go)
	modeOverride confine.Mode // Options.Sandbox
	trustProject bool         // Options.TrustProject
	canAsk, ask  bool         // Options.CanAsk, Options.Ask
	noWatch      bool         // Options.NoWatch
	approvals    approvals    // questions waiting for the person (approvals.go)
	home         string
	getenv       func(string) string
	store        *store.Store
	broker       *events.Broker
	secrets      *secrets.Store
	goals        *goals.Service

	ext       *ext.Registry
	resources *resources.Registry
	mcp       mcpSessions // the sessions' MCP servers (mcpservers.go)
	python    *python.Pack
	clojure   *clojure.Pack
	watchers  map[string]*workspace.Watcher // by workspace root, under mu
	packs     map[string][]string           // active pack names of watched workspaces, under mu

	ctx    context.Context // ends background turns on Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	sessions map[string]*sessionRT
}

// sessionRT is a session's live state in this process: its sandbox, tools,
// delta baseline and the running turn's cancel function.
type sessionRT struct {
	workspace string
	interp    *sandbox.Interp
	tools     *tools.Set
	state     loop.State
	block     string         // the frozen standing `session = {...}` block
	blockMap  map[string]any // the dict that block renders
	folds     foldBook       // fold_session's folds (fold.go)

	// ctl is the session's owner state (controller.go): the running job,
	// its stop signal, the goal ticket it started with, queued jobs waited
	// for. One job runs at a time.
	ctlMu sync.Mutex
	ctl   control

	surface *langtools.Surface // the language verbs, re-pointed at every turn's active packs

	cur    atomic.Pointer[[2]int]         // turn and iteration of the program running now
	live   atomic.Pointer[liveTail]       // the running tool's live output (livetail.go)
	policy atomic.Pointer[confine.Policy] // the confinement of this turn's processes (permissions.go)
	ask    atomic.Bool                    // this turn asks the person when the sandbox refuses a command (approvals.go)
	ticket atomic.Pointer[goals.Ticket]   // the goal as the current model request started
	usage  atomic.Pointer[liveUsage]      // the running turn's tokens so far (Status)
}

// Open opens (creating when needed) the state under opts.Home/desktop and
// marks every turn a previous process left running as interrupted.
func Open(ctx context.Context, opts Options) (*Engine, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	home := opts.Home
	if home == "" {
		h, err := homedir.Vis(getenv)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrConfig, err)
		}
		home = h
	}
	dir := filepath.Join(home, "desktop")
	if err := os.MkdirAll(filepath.Join(dir, "sandbox"), 0o700); err != nil {
		return nil, fmt.Errorf("create state dir: %w", err)
	}
	var mode confine.Mode
	if opts.Sandbox != "" {
		m, err := confine.ParseMode(opts.Sandbox)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrConfig, err)
		}
		mode = m
	}
	// What a killed or crashed earlier run left running (a shell job's
	// background process, a REPL's JVM) dies now.
	confine.Reap(filepath.Join(dir, "children"))
	st, err := store.Open(ctx, filepath.Join(dir, "vis.db"))
	if err != nil {
		return nil, err
	}
	if _, err := st.InterruptRunning(ctx); err != nil {
		st.Close()
		return nil, fmt.Errorf("mark interrupted turns: %w", err)
	}
	sec := opts.Secrets
	if sec == nil {
		sec = secrets.New(secretsFile(home))
	}
	ectx, cancel := context.WithCancel(context.Background())
	e := &Engine{modeOverride: mode, trustProject: opts.TrustProject, canAsk: opts.CanAsk, ask: opts.Ask, noWatch: opts.NoWatch, home: home, getenv: getenv, store: st, broker: events.New(), secrets: sec, ctx: ectx, cancel: cancel,
		sessions: map[string]*sessionRT{}, watchers: map[string]*workspace.Watcher{}, packs: map[string][]string{}}
	e.inflight.m = map[string]*inflightIter{}
	e.broker.OnPublish(e.inflight.observe)
	e.goals = goals.New(st, goals.Options{OnChange: e.publishGoal})
	e.ext = ext.NewRegistry()
	e.resources = resources.New(resources.Options{OnChange: func(sid string) {
		e.broker.Publish(events.Event{SessionID: sid, Data: resourcesEvent(e.resources.Snapshot(sid))})
	}})
	if err := e.registerPacks(); err != nil {
		st.Close()
		cancel()
		return nil, err
	}
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		e.resources.Run(ectx, 5*time.Second)
	}()
	// A goal whose turn died with its process pauses, as a cancelled or
	// failed turn's goal does; its clock stops there.
	ids, err := st.InterruptedGoalSessions(ctx)
	if err != nil {
		st.Close()
		return nil, err
	}
	for _, id := range ids {
		if t, err := e.goals.Capture(ctx, id); err == nil {
			_ = e.goals.FinishTurn(ctx, t, goals.TurnInterrupted)
		}
	}
	return e, nil
}

func (e *Engine) defsPath(id string) string {
	return filepath.Join(e.home, "desktop", "sandbox", id+".star")
}

func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// Home returns VIS_HOME.
func (e *Engine) Home() string { return e.home }

// Events returns the broker every engine event goes through.
func (e *Engine) Events() *events.Broker { return e.broker }

// Close cancels running turns, waits for them and closes the store.
func (e *Engine) Close() error {
	e.cancel()
	e.wg.Wait()
	e.releaseWaiters()
	stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	e.resources.StopAll(stopCtx)
	cancel()
	e.python.Close()
	e.clojure.Close()
	e.mu.Lock()
	for _, w := range e.watchers {
		w.Close()
	}
	for _, rt := range e.sessions {
		if rt.tools != nil {
			rt.tools.Close()
		}
	}
	e.sessions = map[string]*sessionRT{}
	e.mu.Unlock()
	return e.store.Close()
}

// ListSessions lists sessions, newest first; workspace "" lists all.
func (e *Engine) ListSessions(ctx context.Context, workspace string) ([]SessionInfo, error) {
	if workspace != "" {
		workspace = canonical(workspace)
	}
	ss, err := e.store.ListSessions(ctx, workspace)
	if err != nil {
		return nil, err
	}
	out := make([]SessionInfo, 0, len(ss))
	for _, s := range ss {
		out = append(out, sessionInfo(s))
	}
	e.withForks(ctx, out)
	return out, nil
}

// LatestSession returns the most recently updated session of a workspace.
func (e *Engine) LatestSession(ctx context.Context, workspace string) (SessionInfo, error) {
	s, err := e.store.LatestSession(ctx, canonical(workspace))
	if err != nil {
		return SessionInfo{}, err
	}
	return sessionInfo(s), nil
}

// CreateSession starts an empty session in workspace.
func (e *Engine) CreateSession(ctx context.Context, workspace string) (SessionInfo, error) {
	ws := canonical(workspace)
	fi, err := os.Stat(ws)
	if err != nil || !fi.IsDir() {
		return SessionInfo{}, fmt.Errorf("workspace %q is not a folder", workspace)
	}
	now := time.Now()
	s := store.Session{ID: store.NewID(), Workspace: ws, Created: now, Updated: now}
	if err := e.store.CreateSession(ctx, s); err != nil {
		return SessionInfo{}, err
	}
	e.publishSession(s.ID)
	return sessionInfo(s), nil
}

// Transcript returns a session with its turns and iterations.
func (e *Engine) Transcript(ctx context.Context, id string) (Transcript, error) {
	seq := e.broker.Seq()
	s, err := e.store.GetSession(ctx, id)
	if err != nil {
		return Transcript{}, err
	}
	turns, err := e.store.ListTurns(ctx, id)
	if err != nil {
		return Transcript{}, err
	}
	atts, err := e.store.ListAttachments(ctx, id, 0)
	if err != nil {
		return Transcript{}, err
	}
	imagesOf := map[int64][]ImageRef{}     // by turn: the person's
	iterImagesOf := map[int64][]ImageRef{} // by iteration: its tools'
	for _, a := range atts {
		ref := ImageRef{ID: a.ID, Name: a.Filename, MediaType: a.MediaType, Size: a.SizeBytes}
		switch {
		case a.Kind != "image":
		case a.IterationID != 0:
			iterImagesOf[a.IterationID] = append(iterImagesOf[a.IterationID], ref)
		case a.TurnID != 0:
			imagesOf[a.TurnID] = append(imagesOf[a.TurnID], ref)
		}
	}
	tv := make([]TurnView, 0, len(turns))
	for _, t := range turns {
		its, err := e.store.ListIterations(ctx, t.ID)
		if err != nil {
			return Transcript{}, err
		}
		v := TurnView{Position: t.Position, Channel: t.Channel, Request: t.Request, Status: t.Status, Answer: t.Answer, Error: t.Error, Usage: t.Usage, DurationMs: t.DurationMs, Started: t.Started, Iterations: []IterationView{}, Images: imagesOf[t.ID]}
		if v.Images == nil {
			v.Images = []ImageRef{}
		}
		for _, it := range its {
			v.Iterations = append(v.Iterations, IterationView{Position: it.Position, Status: it.Status, Code: it.Code, Output: it.Output, Error: it.Error, Prose: it.Prose, Reasoning: it.Reasoning, Answer: it.Answer, Model: it.Model, Usage: it.Usage, DurationMs: it.Finished.Sub(it.Started).Milliseconds(), Calls: callViews(it), Images: iterImagesOf[it.ID]})
		}
		tv = append(tv, v)
	}
	e.inflight.addTo(id, tv)
	e.addChanges(ctx, id, turns, tv)
	e.addContextFolds(ctx, id, turns, tv)
	return Transcript{Session: sessionInfo(s), Turns: tv, Seq: seq, Questions: e.Questions(id)}, nil
}

// RunTurn runs one turn and returns when it ends: Run with the request's
// session, text, images and overrides (a `!cmd` or `/command` goes the same
// way as in the window). Cancelling ctx stops the turn.
func (e *Engine) RunTurn(ctx context.Context, req SendRequest) (TurnResult, error) {
	return e.Run(ctx, req.SessionID, Input{Text: req.Text, Images: req.Images, Channel: req.Channel, Model: req.Model, BaseURL: req.BaseURL, Workspace: req.Workspace})
}

func (e *Engine) lookup(id string) *sessionRT {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sessions[id]
}

func (e *Engine) runtimeFor(s store.Session) (*sessionRT, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if rt, ok := e.sessions[s.ID]; ok {
		return rt, nil
	}
	fi, err := os.Stat(s.Workspace)
	if err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("the session's workspace %s is gone", s.Workspace)
	}
	ts, err := tools.New(s.Workspace)
	if err != nil {
		return nil, fmt.Errorf("open workspace tools: %w", err)
	}
	rt := &sessionRT{workspace: s.Workspace, tools: ts, surface: &langtools.Surface{}}
	interp, err := sandbox.New(sandbox.Options{
		DefsPath: e.defsPath(s.ID),
		Getwd:    s.Workspace,
		PathInfo: ts.PathInfo,
		Hooks: sandbox.Hooks{
			OnToolStart: func(name string, args map[string]any) {
				t, i := rt.position()
				e.broker.Publish(events.Event{SessionID: s.ID, Turn: t, Iteration: i, Data: events.ToolStart{Name: name, Args: sandbox.SummarizeArgs(args)}})
			},
			ToolCtx: e.toolCtx(s.ID, rt),
			OnToolEnd: func(name string, d time.Duration, err error) {
				rt.endLiveTail()
				end := events.ToolEnd{Name: name, DurationMs: d.Milliseconds()}
				if err != nil {
					end.Error = err.Error()
				}
				t, i := rt.position()
				e.broker.Publish(events.Event{SessionID: s.ID, Turn: t, Iteration: i, Data: end})
			},
		},
		Namespaces: e.mcpNamespaces(s.ID, rt), // mcp.<server>.<tool> (mcpservers.go)
	}, append(append(ts.Builtins(), e.goals.Builtin(s.ID, rt.requestTicket), e.foldBuiltin(s.ID, rt), e.skillBuiltin(rt)), langtools.WithTimeouts(rt.surface.Builtins())...))
	if err != nil {
		ts.Close()
		return nil, fmt.Errorf("start sandbox: %w", err)
	}
	rt.interp = interp
	e.sessions[s.ID] = rt
	go e.watch(s.Workspace)
	return rt, nil
}

func (e *Engine) resolve(workspace string, req SendRequest) (*resolvedTurn, error) {
	cfg, err := config.LoadTrusting(e.home, workspace, e.getenv, e.trustProject)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	// The window's provider keeps its key in the secrets store.
	for _, p := range cfg.Providers {
		if p.ID == config.SettingsProviderID && p.APIKey == "" {
			if key := e.keyFor(nil); key != "" {
				cfg.Providers = withKey(cfg.Providers, config.SettingsProviderID, key)
			}
		}
	}
	r, err := cfg.Resolve(e.getenv, config.Overrides{BaseURL: req.BaseURL, Model: req.Model})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	client, err := provider.New(provider.Config{BaseURL: r.BaseURL, APIKey: r.APIKey, Model: r.Model.Name, Headers: r.Headers, NoTools: !r.Model.SupportsTools(),
		CacheControl: provider.WantsCacheControl(r.BaseURL, r.Model.Name),
		IdleTimeout:  cfg.Provider.IdleTimeout(), IdleWhere: cfg.Provider.Describe(config.KeyIdleTimeout),
		ConnectTimeout: cfg.Provider.ConnectTimeout(), ConnectWhere: cfg.Provider.Describe(config.KeyConnectTimeout)})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	return &resolvedTurn{cfg: cfg, res: r, client: client}, nil
}

func withKey(ps []config.Provider, id, key string) []config.Provider {
	out := append([]config.Provider(nil), ps...)
	for i := range out {
		if out[i].ID == id && out[i].APIKey == "" {
			out[i].APIKey = key
		}
	}
	return out
}

type resolvedTurn struct {
	cfg    *config.Config
	res    config.Resolved
	client *provider.Client
}

// turnPlan is a model turn prepared to run: the configuration resolved, the
// goal captured, the packs activated, the recap, the session view, the
// stable prefix and the user message built, the images prepared. plan makes
// it; runPlan runs the loop over it. Nothing of the turn is stored before
// runPlan.
type turnPlan struct {
	id        string
	rt        *sessionRT
	req       SendRequest
	rv        *resolvedTurn
	turnStart goals.Ticket // the goal as the turn starts
	imgs      []attach.Prepared
	turn      loop.Turn
}

// plan prepares job j's model turn. A goal turn (set or resume) whose goal
// is no longer active when its turn comes (the person paused or replaced
// it while the turn waited in the queue) is not run: plan says so in a
// warning and returns nil.
func (e *Engine) plan(ctx context.Context, id string, rt *sessionRT, j *job) (*turnPlan, error) {
	req := j.req
	rv, err := e.resolve(rt.workspace, req)
	if err != nil {
		return nil, err
	}
	bg := context.WithoutCancel(ctx)
	modelText := req.Text
	switch j.kind {
	case store.QueueTurn:
		// A genuine message resumes a paused or blocked goal with budget left.
		if _, _, err := e.goals.ResumeForUserTurn(bg, id); err != nil {
			return nil, fmt.Errorf("goal: %w", err)
		}
	case store.QueueGoalSet, store.QueueGoalResume:
		if j.kind == store.QueueGoalSet && !j.goalSet {
			// It waited in the queue: its goal is set now, from its text.
			args, _ := goals.CutCommand(strings.TrimSpace(req.Text))
			c, err := goals.ParseCommand(args)
			if err == nil && c.Action == goals.ActionSet {
				_, err = e.goals.Set(bg, id, c.Objective, c.Budget)
			} else if err == nil {
				err = fmt.Errorf("%q does not set a goal", req.Text)
			}
			if err != nil {
				return nil, fmt.Errorf("goal: %w", err)
			}
		}
		g, ok, err := e.goals.Get(bg, id)
		if err != nil {
			return nil, fmt.Errorf("goal: %w", err)
		}
		if !ok || g.Status != goals.StatusActive {
			status := "gone"
			if ok {
				status = g.Status
			}
			e.broker.Publish(eventWarning(id, fmt.Sprintf("The queued goal turn (%s) did not start: the goal is %s now.", titleFrom(req.Text), status)))
			return nil, nil
		}
		if j.kind == store.QueueGoalResume {
			// The person resumed the goal: the model gets the neutral
			// continuation; the transcript shows what they did.
			modelText = req.Text + "\n\n" + goals.ResumePrompt(g)
		}
	}
	turnStart, err := e.goals.Capture(bg, id)
	if err != nil {
		return nil, fmt.Errorf("goal: %w", err)
	}
	addendum := ""
	if g, ok, err := e.goals.Get(bg, id); err == nil && ok {
		addendum = goals.SystemPrompt(g)
	}
	prev, err := e.recap(ctx, id)
	if err == nil {
		err = rt.folds.load(ctx, e.store, id)
	}
	if err != nil {
		return nil, err
	}
	var chosen string // the session's mode chosen in the window
	if s, err := e.store.GetSession(bg, id); err == nil {
		chosen = s.Mode
	}
	policy, pwarn := e.policyFor(id, rt.workspace, chosen, rv.cfg)
	rt.policy.Store(&policy)
	rt.ask.Store(e.asks(rv.cfg))
	for _, w := range pwarn {
		e.broker.Publish(events.Event{SessionID: id, Data: events.Warning{Message: w}})
	}
	active, facade := e.activate(ctx, id, rt)
	view := e.viewFunc(id, rt, rv, active)
	var sinceLast []string
	if rt.block == "" {
		static := view(0, 0, nil)
		rt.block = prompt.SessionBlock(static)
		rt.blockMap = static
		rt.state.Baseline = static
	} else {
		// The recap does not carry earlier turns' deltas: tell the model what
		// moved since it last saw the dict (a REPL started or gone, a goal).
		sinceLast = turnStartDelta(&rt.state, rt.blockMap, view(0, 0, nil))
	}
	env := prompt.Env{Workspace: rt.workspace, VisHome: e.home, UserHome: homedir.Dir(), Channel: req.Channel}
	stable, warnings := prompt.StableMessages(env, prompt.StableOptions{
		System:       prompt.SystemOptions{Addendum: addendum, ConfigText: rv.cfg.SystemPrompt.Text, ConfigReplace: rv.cfg.SystemPrompt.Replace, ProjectUntrusted: !rv.cfg.ProjectTrusted},
		Shims:        prompt.DefaultShims,
		Fragments:    append(append(fragments(active, facade), e.mcpTurn(ctx, id, rt, rv.cfg, rv.res.Model.Vision)...), e.skillsTurn(id, rt.workspace, rv.cfg.ProjectTrusted)...),
		SessionBlock: rt.block,
	})
	for _, w := range append(rv.cfg.Warnings, warnings...) {
		e.broker.Publish(events.Event{SessionID: id, Data: events.Warning{Message: w}})
	}
	imgs, skipped := e.images(rt.workspace, req, rv.res.Model.Vision)
	for _, sk := range skipped {
		e.broker.Publish(events.Event{SessionID: id, Data: events.Warning{Message: fmt.Sprintf("Image %s not attached: %s", sk.Path, strings.TrimSuffix(sk.Reason, " — image not attached"))}})
	}
	effort, nudge := "", false
	if rv.res.Reasoning != "" {
		if rv.res.Model.Reasoning {
			effort = rv.res.Reasoning
		} else {
			nudge = prompt.NeedsReasoningNudge(rv.res.Reasoning, false)
		}
	}
	// recap.Build(f) is the turn's first messages with the recap folded by
	// f (earlier programs first, whole turns last): the loop folds it when
	// the window is too small.
	wired := attach.Wire(imgs)
	recap := &loop.Recap{Build: func(f loop.RecapFold) []chat.Message {
		msgs := prompt.InitialMessages(stable, prompt.UserInput{Text: modelText, Previous: rt.folds.apply(prev), Fold: prompt.RecapFold(f), Images: wired, Skipped: skipped, SessionDelta: sinceLast})
		if nudge {
			msgs = prompt.WithReasoningNudge(msgs)
		}
		return msgs
	}}
	for _, p := range prev {
		recap.Positions = append(recap.Positions, p.Position)
	}
	if s, err := e.store.GetSession(ctx, id); err == nil && s.Title == "" {
		title := req.Text
		if args, ok := goals.CutCommand(strings.TrimSpace(req.Text)); ok && j.kind == store.QueueGoalSet {
			if c, err := goals.ParseCommand(args); err == nil && c.Objective != "" {
				title = c.Objective // a session started by a goal is named after its objective
			}
		}
		_ = e.store.RenameSession(bg, id, titleFrom(title))
	}
	return &turnPlan{id: id, rt: rt, req: req, rv: rv, turnStart: turnStart, imgs: imgs, turn: loop.Turn{
		SessionID: id, Request: req.Text, Channel: req.Channel, ModelName: rv.res.Model.Name,
		NoTools: !rv.res.Model.SupportsTools(), ReasoningEffort: effort, ContextLimit: rv.res.Model.Context,
		Messages: recap.Build(loop.RecapFold{}), Recap: recap, View: view, DeferEnd: true,
		Goal:          &goalHooks{svc: e.goals, sid: id, start: turnStart, rt: rt},
		AfterPrograms: func() (*chat.Message, []store.Image) { return e.mcpImagesMessage(id) }, // images MCP tools returned (mcpservers.go)
	}}, nil
}

// runPlan runs a planned turn. The returned end publishes the turn's end;
// the caller runs it once the session is free, so a client that reacts to
// turn-end finds it so. end is never nil.
func (e *Engine) runPlan(ctx context.Context, p *turnPlan) (TurnResult, func(), error) {
	id, rt := p.id, p.rt
	bg := context.WithoutCancel(ctx)
	// From here a goal control stops this turn at once (haltForGoal), and
	// one from another process within goalPoll (watchGoal).
	rt.ctlMu.Lock()
	rt.ctl.ticket = p.turnStart
	rt.ctlMu.Unlock()
	wctx, stopWatch := context.WithCancel(ctx)
	e.watchGoal(wctx, rt, p.turnStart)
	if err := e.goals.StartClock(bg, p.turnStart); err != nil {
		e.broker.Publish(eventWarning(id, "The goal's clock could not start: "+err.Error()))
	}
	cp := e.newTurnCheckpoint(id, rt.workspace) // taken before the first program, and at the end
	runner := &loop.Runner{Store: e.store, Broker: e.broker, Provider: p.rv.client, Exec: execAdapter{rt, blockLimits(p.rv.cfg, e.home), cp}, State: &rt.state}
	t := p.turn
	t.OnUsage = func(pos int, soFar, last chat.Usage) { rt.usage.Store(&liveUsage{turn: pos, soFar: soFar, last: last}) }
	t.OnStart = func(ctx context.Context, turnID int64) {
		cp.start(turnID)
		if _, err := attach.Save(ctx, e.store, id, turnID, p.imgs); err != nil {
			e.broker.Publish(eventWarning(id, "An image could not be saved with the turn: "+err.Error()))
		}
	}
	// The turn reads its goal at every request and block: from memory
	// while it runs, again after each write (goals.HoldReads).
	res, err := func() (loop.Result, error) {
		defer e.goals.HoldReads(id)() // released even when the turn panics
		return runner.Run(ctx, t)
	}()
	stopWatch()
	changes := cp.finish(bg)
	if ferr := e.goals.FinishTurn(bg, p.turnStart, res.Status); ferr != nil && err == nil {
		err = fmt.Errorf("goal: %w", ferr)
	}
	end := func() {
		if res.Turn != 0 {
			e.broker.Publish(withChanges(loop.EndEvent(res), changes))
		}
		e.publishSession(id)
	}
	out := TurnResult{SessionID: id, Turn: res.Turn, Status: res.Status, Answer: res.Answer, Error: res.Error, Iterations: res.Iterations, Usage: res.Usage}
	return out, end, err
}

// resourcesEvent is the resources event's payload: the REPLs in their wire
// shape (a nil list stays null).
func resourcesEvent(infos []ext.ResourceInfo) events.Resources {
	var p events.Resources
	if infos != nil {
		p.Resources = make([]events.Resource, len(infos))
		for i, r := range infos {
			p.Resources[i] = events.Resource(r)
		}
	}
	return p
}

func eventWarning(id, msg string) events.Event {
	return events.Event{Phase: events.PhaseWarning, SessionID: id, Data: events.Warning{Message: msg, Error: true}}
}

func (e *Engine) publishSession(id string) {
	e.broker.Publish(events.Event{SessionID: id, Data: events.SessionChanged{}})
}

// recap loads the previous turns for CONVERSATION-SO-FAR.
func (e *Engine) recap(ctx context.Context, id string) ([]prompt.TurnRecap, error) {
	turns, err := e.store.ListTurns(ctx, id)
	if err != nil {
		return nil, err
	}
	var out []prompt.TurnRecap
	forkedAt, forkNote := e.forkNote(ctx, id)
	for _, t := range turns {
		if t.Status == "running" {
			continue
		}
		r := prompt.TurnRecap{Position: t.Position, Request: t.Request, Answer: t.Answer, Status: t.Status}
		if t.Position == forkedAt {
			r.Answer += forkNote
		}
		its, err := e.store.ListIterations(ctx, t.ID)
		if err != nil {
			return nil, err
		}
		for _, it := range its {
			if strings.TrimSpace(it.Code) != "" {
				r.Ran, r.RanAt = append(r.Ran, it.Code), append(r.RanAt, it.Position)
			}
			if t.Channel == ChannelShell && it.Output != "" {
				// The person ran it so the model would see it: carry the output.
				r.Answer += "\nIts output:\n```\n" + clipMiddle(it.Output, shellRecapChars) + "\n```"
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// Image returns a stored image's bytes and type (for the window to show a
// sent image larger). Only images of the given session are served.
func (e *Engine) Image(ctx context.Context, sessionID string, id int64) ([]byte, string, error) {
	img, err := e.store.GetImage(ctx, id)
	if err != nil {
		return nil, "", err
	}
	if img.SessionID != sessionID {
		return nil, "", fmt.Errorf("image %d: %w", id, store.ErrNotFound)
	}
	return img.Bytes, img.MediaType, nil
}

// images gathers a message's images: those offered with it and the image
// files its text names (relative to the workspace, ~ expanded). Refused ones
// come back as skipped rows with the reason, for the manifest and the window.
func (e *Engine) images(workspace string, req SendRequest, vision bool) ([]attach.Prepared, []prompt.SkippedImage) {
	in := append([]attach.Input(nil), req.Images...)
	for _, p := range attach.PathsInText(req.Text, workspace, homedir.Dir()) {
		in = append(in, attach.Input{Path: p})
	}
	if len(in) == 0 {
		return nil, nil
	}
	opts := attach.DefaultOptions()
	opts.Vision = vision
	return attach.Prepare(in, opts)
}

// shellRecapChars bounds how much of a `!cmd` output the recap carries.
const shellRecapChars = 8000

// clipMiddle keeps the head and tail of s within n characters.
func clipMiddle(s string, n int) string {
	r := []rune(strings.TrimRight(s, "\n"))
	if len(r) <= n {
		return string(r)
	}
	return string(r[:n/2]) + fmt.Sprintf("\n… %d characters omitted …\n", len(r)-n) + string(r[len(r)-n/2:])
}

// turnStartDelta is the `session[...] = ...` lines a new turn's first
// message carries. That turn's model sees the standing block (frozen when
// the session's first turn in this process rendered it) and the recap, which
// carries no deltas: so the lines say what the static part of the dict
// (view(0, 0, nil): no turn, scope, utilization or goal_status) moved since
// the block. The running baseline then takes the new static part, keeping
// the last turn's per-iteration keys so the first tool result's delta still
// moves them.
func turnStartDelta(st *loop.State, block, now map[string]any) []string {
	lines := prompt.SessionDelta(block, now)
	next := make(map[string]any, len(now)+4)
	for k, v := range now {
		next[k] = v
	}
	for _, k := range []string{"turn", "scope", "utilization", "goal_status"} { // only in views of a running turn
		if v, ok := st.Baseline[k]; ok {
			next[k] = v
		}
	}
	st.Baseline = next
	return lines
}

// viewFunc builds the `session` dict the model sees. Static keys come first
// and form the frozen standing block; turn, scope and utilization move.
func (e *Engine) viewFunc(id string, rt *sessionRT, rv *resolvedTurn, active *ext.Active) func(turn, iter int, util map[string]any) map[string]any {
	// One key per turn (this view serves one turn): packs probe their
	// processes once per turn, the turn-start delta included.
	probeKey := fmt.Sprintf("%s/%d", id, time.Now().UnixNano())
	symbols := []any{}
	for _, b := range rt.tools.Builtins() {
		symbols = append(symbols, b.Name)
	}
	symbols = append(symbols, "update_goal", "fold_session")
	if len(facadeLanguages(rt)) > 0 {
		for _, b := range rt.surface.Builtins() {
			symbols = append(symbols, b.Name)
		}
	}
	for _, n := range []string{"doc", "apropos", "defs"} {
		symbols = append(symbols, n)
	}
	aliases := []any{}
	for _, x := range active.Extensions() {
		if x.Alias != "" {
			aliases = append(aliases, x.Alias)
		}
	}
	snapshot := []any{}
	for _, m := range active.Snapshot() {
		snapshot = append(snapshot, m)
	}
	project := map[string]any{"primary_language": nilIfEmpty(active.Env().Primary)}
	langs := []any{}
	for _, l := range active.Env().Languages {
		langs = append(langs, l.Language)
	}
	project["languages"] = langs
	shell := os.Getenv("SHELL")
	if shell == "" {
		shell = "/bin/sh"
	}
	vcs := "none"
	if fi, err := os.Stat(filepath.Join(rt.workspace, ".git")); err == nil && fi != nil {
		vcs = "git"
	}
	return func(turn, iter int, util map[string]any) map[string]any {
		v := map[string]any{
			"id":        id,
			"workspace": map[string]any{"root": rt.workspace, "vcs_kind": vcs},
			"env": map[string]any{
				"host":       map[string]any{"os": runtime.GOOS, "arch": runtime.GOARCH, "shell": shell},
				"project":    project,
				"extensions": map[string]any{"active_count": len(active.Extensions()), "aliases": aliases},
			},
			"extensions": snapshot,
			"routing":    map[string]any{"provider": rv.res.ProviderID, "model": rv.res.Model.Name},
			"resources":  resourceList(e.resources.Snapshot(id)),
			"symbols":    symbols,
		}
		if p := rt.policy.Load(); p != nil {
			v["sandbox"] = sandboxView(*p)
			v["env"].(map[string]any)["hidden"] = hiddenEnv(*p)
		}
		// Contributions (the Clojure pack's live nREPLs) are recomputed for
		// every block and delta; a pack probes its REPLs at most once per
		// turn and set of ports.
		ext.DeepMerge(v, cloneMap(active.Ctx(clojure.WithTurn(e.ctx, probeKey))))
		if turn > 0 {
			v["turn"] = turn
			v["scope"] = map[string]any{"turn": turn, "iter": iter}
		}
		if util != nil {
			v["utilization"] = util
		}
		if turn > 0 {
			if g, ok, err := e.goals.Get(context.Background(), id); err == nil && ok {
				if st, visible := goals.VisibleStatus(g); visible {
					v["goal_status"] = st
				}
			}
		}
		return v
	}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func facadeLanguages(rt *sessionRT) map[string][]string {
	if f := rt.surface.Current(); f != nil {
		return f.CapabilityData()
	}
	return nil
}

// resourceList renders the session's REPLs for the `session` dict.
func resourceList(rs []ext.ResourceInfo) []any {
	out := []any{}
	for _, r := range rs {
		m := map[string]any{"id": r.ID, "kind": r.Kind, "language": r.Language, "label": r.Label, "dir": r.Dir, "status": r.Status, "managed": r.Managed}
		if r.Port != 0 {
			m["port"] = r.Port
		}
		if r.PID != 0 {
			m["pid"] = r.PID
		}
		out = append(out, m)
	}
	return out
}

// cloneMap deep-copies a contribution so merging never shares its maps.
func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if mm, ok := v.(map[string]any); ok {
			out[k] = cloneMap(mm)
		} else {
			out[k] = v
		}
	}
	return out
}

// requestTicket is the goal as the current model request started; the
// update_goal builtin refuses work that a user change made stale.
func (rt *sessionRT) requestTicket() goals.Ticket {
	if t := rt.ticket.Load(); t != nil {
		return *t
	}
	return goals.Ticket{}
}

// goalHooks adapts the goals service to the loop.
type goalHooks struct {
	svc   *goals.Service
	sid   string
	start goals.Ticket
	rt    *sessionRT
}

func (h *goalHooks) Halt(ctx context.Context) (string, error) {
	halt, err := h.svc.HaltCheck(ctx, h.start)
	if err != nil || !halt.Halted() {
		return "", err
	}
	return halt.Message, nil
}

func (h *goalHooks) Request(ctx context.Context) {
	if t, err := h.svc.Capture(ctx, h.sid); err == nil {
		h.rt.ticket.Store(&t)
	}
}

func (h *goalHooks) Account(ctx context.Context, usage chat.Usage) {
	_ = h.svc.Account(ctx, h.rt.requestTicket(), usage) // statistics: a failed write loses no work
}

func (h *goalHooks) Continuation(ctx context.Context) string {
	c, _ := h.svc.Continuation(ctx, h.sid)
	return c
}

func (e *Engine) publishGoal(g goals.Goal) {
	e.broker.Publish(events.Event{SessionID: g.SessionID, Data: events.Goal{Goal: events.GoalState(g), Revision: g.Revision}})
	e.haltForGoal(g)
}

// execAdapter lets the loop run programs in a sandbox under the turn's
// time limits, and tells the session's tool hooks which turn and iteration
// a call belongs to.
type execAdapter struct {
	rt     *sessionRT
	limits sandbox.Limits  // from the turn's resolved config (blockLimits)
	cp     *turnCheckpoint // the turn's checkpoint, taken before its first program
}

func (a execAdapter) Exec(ctx context.Context, code string, session map[string]any) sandbox.Result {
	if scope, ok := session["scope"].(map[string]any); ok {
		t, _ := scope["turn"].(int)
		i, _ := scope["iter"].(int)
		a.rt.cur.Store(&[2]int{t, i})
	}
	a.cp.before(ctx)
	return a.rt.interp.ExecWith(ctx, code, session, a.limits)
}

// position returns the turn and iteration of the program running now.
func (rt *sessionRT) position() (int, int) {
	if p := rt.cur.Load(); p != nil {
		return p[0], p[1]
	}
	return 0, 0
}

// callViews reads an iteration's per-call records (written by the loop as a
// JSON array of events.CallRecord; older rows' errors are plain strings,
// which CallError reads as the message).
func callViews(it store.Iteration) []CallView {
	var recs []events.CallRecord
	if it.ToolCallsJSON == "" || json.Unmarshal([]byte(it.ToolCallsJSON), &recs) != nil {
		if it.Code != "" { // a person's !cmd, or an older row
			return []CallView{{Code: it.Code, Output: it.Output, Tools: []ToolView{}}}
		}
		return []CallView{}
	}
	for i := range recs {
		if recs[i].Tools == nil {
			recs[i].Tools = []ToolView{}
		}
	}
	return recs
}

func titleFrom(text string) string {
	t := strings.TrimSpace(strings.SplitN(strings.TrimSpace(text), "\n", 2)[0])
	if r := []rune(t); len(r) > 60 {
		t = string(r[:57]) + "…"
	}
	return t
}

// canonical is workspace.Canonical under a name the engine's many
// parameters called workspace do not shadow.
func canonical(dir string) string { return workspace.Canonical(dir) }

func sessionInfo(s store.Session) SessionInfo {
	return SessionInfo{ID: s.ID, Workspace: s.Workspace, Title: s.Title, Turns: s.Turns, Created: s.Created, Updated: s.Updated}
}

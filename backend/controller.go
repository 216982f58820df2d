package backend

// The turn controller: every front (the window's composer and goal panel,
// the CLI's run and goal verbs) hands a session its input through Dispatch.
// The engine classifies it once (a message for the model, a person's
// `!cmd`, a `/command`, a goal action), and the session's owner runs it now
// or queues it behind the running turn.
//
// One owner per session: sessionRT.ctl holds the running job, its stop
// signal and the goal ticket it started with. The goroutine that runs a job
// drains the session's queue after it (the queue lives in the store, so it
// survives a restart and the page only renders it). A goal control stops a
// running goal turn at once: OnChange (this process) and a poll of the
// stored goal (another process's control) cancel the turn with a
// loop.HaltCause, which ends it halted with the goal's message.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/attach"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/goals"
	"github.com/visdesktop/vis/backend/loop"
	"github.com/visdesktop/vis/backend/store"
)

// Input is what a person (or a script) hands a session.
type Input struct {
	// Text as typed: `!cmd` runs in the workspace, `/command ...` is a
	// command, anything else is a message for the model.
	Text string
	// Images offered with a message (dropped, pasted, picked, --image).
	Images []attach.Input
	// Goal is a goal action from a structured control (the window's goal
	// panel, `vis goal`); Text is then ignored. A typed `/goal ...` is
	// parsed into the same action.
	Goal *GoalInput
	// Channel is desktop (default) or cli.
	Channel string
	// Model and BaseURL override the configured ones for this input's turn.
	Model, BaseURL string
	// Workspace is the folder of a new session (Dispatch with session "").
	Workspace string
	// Wait: when another live Vis process runs the session's turns, queue
	// the input behind it (it starts once that process lets the session
	// go) instead of refusing with a *HeldElsewhereError (`vis run --wait`).
	Wait bool
}

// ErrHeldElsewhere is matched (errors.Is) by every *HeldElsewhereError.
var ErrHeldElsewhere = errors.New("the session is running in another Vis")

// HeldElsewhereError refuses an input for a session whose turns another live
// Vis process runs (it holds the session's claim in the store): one
// writer per session. The session can still be read (Transcript, Status
// says HeldBy) and its goal paused, cancelled or cleared.
type HeldElsewhereError struct {
	SessionID string
	PID       int // the process that runs it
}

func (e *HeldElsewhereError) Error() string {
	return fmt.Sprintf("session %s is running in another Vis (pid %d)", e.SessionID, e.PID)
}

// Is makes errors.Is(err, ErrHeldElsewhere) true.
func (e *HeldElsewhereError) Is(target error) bool { return target == ErrHeldElsewhere }

// conflict is the refusal of an input for session id when another process
// holds its claim (owner), else nil. Input.Wait turns it off.
func (e *Engine) conflict(ctx context.Context, id string, req SendRequest) error {
	if req.queueElsewhere || id == "" {
		return nil
	}
	other, err := e.store.ClaimedElsewhere(ctx, id)
	if err != nil {
		return err
	}
	if other == "" {
		return nil
	}
	return &HeldElsewhereError{SessionID: id, PID: store.ClaimPID(other)}
}

// GoalInput is a goal action: set (Objective, Budget), resume, pause,
// cancel, clear or show.
type GoalInput struct {
	Action    string `json:"action"`
	Objective string `json:"objective,omitempty"`
	Budget    *int64 `json:"budget,omitempty"`
}

// Kinds of Accepted.
const (
	KindTurn    = "turn"    // a model turn (a message, or a goal's turn)
	KindShell   = "shell"   // a person's `!cmd`
	KindCommand = "command" // a command that printed a result (Text)
)

// Accepted says what Dispatch did with an input.
type Accepted struct {
	SessionID string `json:"session_id"`
	Kind      string `json:"kind"`
	// Started: the input's turn or command runs now. Queued: it waits in
	// the session's queue (QueueID) behind the running turn.
	Started bool  `json:"started"`
	Queued  bool  `json:"queued"`
	QueueID int64 `json:"queue_id,omitempty"`
	// Elsewhere: it waits because another Vis process (the window, or
	// another vis command) runs the session's turn; it starts when that
	// process lets the session go.
	Elsewhere bool `json:"elsewhere,omitempty"`
	// Text is a command's printed result (/help, /goal alone, a control).
	Text string `json:"text,omitempty"`
	// Goal is the session's goal after a goal action (nil: none; status
	// cleared after clear, for clients that keep the highest revision).
	Goal *goals.Goal `json:"goal,omitempty"`

	job *job
}

// ErrNothingQueued is returned by ReleaseQueue when the queue is empty.
var ErrNothingQueued = errors.New("nothing is queued in this session")

// job is one unit of work a session's owner runs: a model turn, a person's
// `!cmd`, or a goal's turn. done closes when it ended (or left the queue).
type job struct {
	kind string // store.QueueTurn, QueueShell, QueueGoalSet, QueueGoalResume
	// goalSet: a goal-set job's goal was set when it was dispatched; one that
	// waited in the queue sets its goal (from its text) when its turn comes.
	goalSet bool
	req     SendRequest
	code    string // queueRerun: the program approved to run again (rerun.go)
	queueID int64
	done    chan struct{}
	res     TurnResult
	err     error
}

func newJob(kind string, req SendRequest) *job {
	return &job{kind: kind, req: req, done: make(chan struct{})}
}

// control is a session's owner state (sessionRT.ctl, under its mu).
type control struct {
	running *job
	cancel  context.CancelCauseFunc
	ticket  goals.Ticket // the goal as the running turn started
	polling bool         // a goroutine waits for another process to free the session
	// waiting are queued jobs of this process, by queue id: a foreground
	// caller waits on their done.
	waiting map[int64]*job
	held    []heldRevert // reverts asked for while a turn ran (checkpoints.go)
}

// errStopped is the cancel cause of Stop.
var errStopped = errors.New("stopped by the person")

// Dispatch hands a session an input and returns at once. sessionID ""
// starts a new session in in.Workspace (a goal action other than set needs
// a session). Refusals (an empty message, an unknown command, a goal rule,
// a configuration problem) are the error and change nothing.
func (e *Engine) Dispatch(ctx context.Context, sessionID string, in Input) (Accepted, error) {
	return e.dispatch(ctx, sessionID, in, false)
}

// Run dispatches in and waits for the turn it started or queued to end;
// cancelling ctx stops that turn (or takes the input out of the queue).
// An input that starts no turn returns its result at once, as a done
// TurnResult with the printed text as its answer.
func (e *Engine) Run(ctx context.Context, sessionID string, in Input) (TurnResult, error) {
	a, err := e.dispatch(ctx, sessionID, in, true)
	if err != nil {
		return TurnResult{SessionID: a.SessionID}, err
	}
	if a.job == nil {
		return TurnResult{SessionID: a.SessionID, Status: "done", Answer: a.Text}, nil
	}
	select {
	case <-a.job.done:
	case <-ctx.Done():
		e.abandon(a.SessionID, a.job)
		<-a.job.done
	}
	return a.job.res, a.job.err
}

// dispatch is Dispatch; wait marks the jobs it makes as waited for (Run),
// so their failures are returned rather than published as warnings.
func (e *Engine) dispatch(ctx context.Context, sessionID string, in Input, wait bool) (Accepted, error) {
	if in.Channel == "" {
		in.Channel = ChannelDesktop
	}
	req := SendRequest{SessionID: sessionID, Workspace: in.Workspace, Text: in.Text, Channel: in.Channel, Model: in.Model, BaseURL: in.BaseURL, Images: in.Images, wait: wait,
		queueElsewhere: in.Wait}
	if in.Goal != nil {
		return e.goalAction(ctx, req, *in.Goal, "")
	}
	if strings.TrimSpace(in.Text) == "" {
		if len(in.Images) > 0 {
			return Accepted{SessionID: sessionID}, errors.New("the message is empty: write what to do with the images")
		}
		return Accepted{SessionID: sessionID}, errors.New("the message is empty")
	}
	kind, name := classify(in.Text)
	if kind == inputCommand && !isBuiltinCommand(name) {
		// a prompt file's command is a message for the model (userprompts.go)
		text, ok, err := e.expandUserCommand(ctx, sessionID, in.Workspace, name, in.Text)
		if err != nil {
			return Accepted{SessionID: sessionID}, err
		}
		if !ok {
			return Accepted{SessionID: sessionID}, fmt.Errorf("%w %s; /help lists the commands", ErrUnknownCommand, name)
		}
		kind, req.Text = inputTurn, text
	}
	if kind != inputTurn && len(in.Images) > 0 {
		return Accepted{SessionID: sessionID}, fmt.Errorf("images go with a message to the model, not with a command; remove them or the leading %q", strings.TrimSpace(in.Text)[:1])
	}
	switch kind {
	case inputShell:
		cmd := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(in.Text), "!"))
		if cmd == "" {
			return Accepted{SessionID: sessionID}, errors.New("nothing to run: write the command after !")
		}
		req.Text = "!" + cmd
		id, rt, err := e.session(ctx, &req, false)
		if err != nil {
			return Accepted{SessionID: id}, err
		}
		return e.submit(ctx, id, rt, newJob(store.QueueShell, req))
	case inputCommand:
		switch name {
		case "/help":
			return Accepted{SessionID: sessionID, Kind: KindCommand, Text: e.helpFor(e.helpWorkspace(ctx, sessionID, in.Workspace))}, nil
		case "/goal":
			args, _ := goals.CutCommand(strings.TrimSpace(in.Text))
			cmd, err := goals.ParseCommand(args)
			if err != nil {
				return Accepted{SessionID: sessionID}, asCommandError(err)
			}
			a, err := e.goalAction(ctx, req, GoalInput{Action: cmd.Action, Objective: cmd.Objective, Budget: cmd.Budget}, in.Text)
			if err != nil {
				return a, asCommandError(err)
			}
			return a, nil
		}
		return Accepted{SessionID: sessionID}, fmt.Errorf("%w %s; /help lists the commands", ErrUnknownCommand, name)
	}
	id, rt, err := e.session(ctx, &req, true)
	if err != nil {
		return Accepted{SessionID: id}, err
	}
	return e.submit(ctx, id, rt, newJob(store.QueueTurn, req))
}

// session resolves (or, for session "", creates) the session of req and
// its runtime. model: the input runs a model turn, so a configuration
// problem is refused now, where the caller hears it, and before a new
// session is created.
func (e *Engine) session(ctx context.Context, req *SendRequest, model bool) (string, *sessionRT, error) {
	checked := false // the configuration was resolved for this workspace
	if req.SessionID == "" {
		if req.Workspace == "" {
			return "", nil, errors.New("no workspace: open a project folder first")
		}
		if model {
			if _, err := e.resolve(canonical(req.Workspace), *req); err != nil {
				return "", nil, err
			}
			checked = true
		}
		info, err := e.CreateSession(ctx, req.Workspace)
		if err != nil {
			return "", nil, err
		}
		req.SessionID = info.ID
	}
	s, err := e.store.GetSession(ctx, req.SessionID)
	if err != nil {
		return req.SessionID, nil, fmt.Errorf("session %s: %w", req.SessionID, err)
	}
	if model && !checked {
		if _, err := e.resolve(s.Workspace, *req); err != nil {
			return s.ID, nil, err
		}
	}
	rt, err := e.runtimeFor(s)
	if err != nil {
		return s.ID, nil, err
	}
	return s.ID, rt, nil
}

// goalAction applies a goal action. typed is the `/goal ...` text a person
// typed ("" for the panel and the CLI, which get the canonical text): a set
// or a resume that leaves the goal active starts the goal's turn with it as
// the request, so the objective lands in the transcript where the person
// set it. Controls stop a running goal turn through OnChange.
func (e *Engine) goalAction(ctx context.Context, req SendRequest, g GoalInput, typed string) (Accepted, error) {
	switch g.Action {
	case goals.ActionShow, goals.ActionSet, goals.ActionResume, goals.ActionPause, goals.ActionCancel, goals.ActionClear:
	default:
		return Accepted{SessionID: req.SessionID}, fmt.Errorf("unknown goal action %q (set, resume, pause, cancel, clear or show)", g.Action)
	}
	if g.Action == goals.ActionSet || g.Action == goals.ActionResume {
		// A goal turn is refused before the goal changes, not after.
		if err := e.conflict(ctx, req.SessionID, req); err != nil {
			return Accepted{SessionID: req.SessionID}, err
		}
	}
	if req.SessionID == "" && g.Action != goals.ActionSet {
		if g.Action == goals.ActionShow || g.Action == goals.ActionClear {
			return Accepted{Kind: KindCommand, Text: goals.ErrNoGoal.Message}, nil
		}
		return Accepted{}, goals.ErrNoGoal
	}
	g.Objective = strings.TrimSpace(g.Objective)
	run := g.Action == goals.ActionSet || g.Action == goals.ActionResume
	if g.Action == goals.ActionSet {
		// Refuse a bad objective or budget before creating a session.
		if _, err := goals.ParseCommand(goals.Command{Action: goals.ActionSet, Objective: g.Objective, Budget: g.Budget}.String()); err != nil {
			return Accepted{SessionID: req.SessionID}, err
		}
	}
	var rt *sessionRT
	id := req.SessionID
	if run {
		var err error
		if id, rt, err = e.session(ctx, &req, true); err != nil {
			return Accepted{SessionID: id}, err
		}
	} else if _, err := e.store.GetSession(ctx, id); err != nil {
		// A control needs no runtime: it works on a session whose folder is gone.
		return Accepted{SessionID: id}, fmt.Errorf("session %s: %w", id, err)
	}
	cmd := goals.Command{Action: g.Action, Objective: g.Objective, Budget: g.Budget}
	// The goal turn's request: what the person typed, else what they would.
	req.Text = typed
	if req.Text == "" {
		req.Text = goalText(cmd)
	}
	if g.Action == goals.ActionSet && e.busy(ctx, id) {
		// A goal set while a turn runs takes effect when its turn comes, as
		// the message it is: until then the running turn's goal is untouched,
		// and taking the input out of the queue sets nothing.
		return e.submit(ctx, id, rt, newJob(store.QueueGoalSet, req))
	}
	res, err := e.goals.Apply(ctx, id, cmd)
	if err != nil {
		var ce *goals.CommandError
		if errors.As(err, &ce) {
			err = ce.Err // the caller adds the usage line where it fits (a typed command)
		}
		return Accepted{SessionID: id}, err
	}
	a := Accepted{SessionID: id, Kind: KindCommand, Text: res.Text}
	if res.Goal.ID != "" { // a cleared goal too: clients keep the highest revision they saw
		gg := res.Goal
		a.Goal = &gg
	}
	if !res.Run {
		return a, nil
	}
	j := newJob(store.QueueGoalSet, req)
	j.goalSet = true
	if g.Action == goals.ActionResume {
		j.kind = store.QueueGoalResume
	}
	s, err := e.submit(ctx, id, rt, j)
	s.Text, s.Goal = a.Text, a.Goal
	return s, err
}

// busy reports whether the session runs a turn or has a queue: an input
// now would wait.
func (e *Engine) busy(ctx context.Context, id string) bool {
	if e.Running(id) {
		return true
	}
	qs, err := e.store.ListQueue(ctx, id)
	if err != nil || len(qs) > 0 {
		return true
	}
	other, err := e.store.ClaimedElsewhere(ctx, id)
	return err != nil || other != ""
}

// goalText is the request a goal action from the panel or the CLI puts in
// the transcript: what a person would type, `--` only where the objective
// needs it.
func goalText(c goals.Command) string {
	plain := "/goal "
	if c.Action == goals.ActionSet {
		if c.Budget != nil {
			plain += fmt.Sprintf("--budget %d ", *c.Budget)
		}
		plain += c.Objective
	} else {
		plain += "--" + c.Action
	}
	if args, ok := goals.CutCommand(plain); ok {
		if got, err := goals.ParseCommand(args); err == nil && got.String() == c.String() {
			return plain
		}
	}
	return "/goal " + c.String()
}

// submit starts j when the session is idle, else queues it. A session
// whose turns another live process runs (it holds the session's claim)
// refuses j with a *HeldElsewhereError, unless j's input asked to wait
// (Input.Wait): then j waits in the queue, and this process polls the
// claim and starts the queue once it is free.
func (e *Engine) submit(ctx context.Context, id string, rt *sessionRT, j *job) (Accepted, error) {
	kind := KindTurn
	if j.kind == store.QueueShell {
		kind = KindShell
	}
	a := Accepted{SessionID: id, Kind: kind, job: j}
	rt.ctlMu.Lock()
	defer rt.ctlMu.Unlock()
	if rt.ctl.running == nil {
		qs, err := e.store.ListQueue(ctx, id)
		if err != nil {
			return Accepted{SessionID: id}, err
		}
		if len(qs) == 0 {
			other, err := e.store.ClaimSession(ctx, id)
			if err != nil {
				return Accepted{SessionID: id}, err
			}
			if other == "" {
				e.start(rt, id, j)
				a.Started = true
				return a, nil
			}
			if !j.req.queueElsewhere {
				return Accepted{SessionID: id}, &HeldElsewhereError{SessionID: id, PID: store.ClaimPID(other)}
			}
			a.Elsewhere = true
		} else if err := e.conflict(ctx, id, j.req); err != nil {
			return Accepted{SessionID: id}, err
		} else if _, err := e.store.AdoptQueue(ctx, id); err != nil {
			// A queue left by a process that is gone (held) goes first: the
			// new input joins its end and the whole queue drains.
			return Accepted{SessionID: id}, err
		}
	}
	q, err := e.enqueue(ctx, id, rt, j)
	if err != nil {
		return Accepted{SessionID: id}, err
	}
	a.Queued, a.QueueID = true, q.ID
	if rt.ctl.running == nil {
		e.drain(rt, id)
	}
	return a, nil
}

// drain starts the session's next queued input when this process may: it
// owns the head of the queue and holds (or gets) the session's claim. When
// another live process holds the claim or the head, it polls until they
// are free. The caller holds rt.ctlMu and no job runs.
func (e *Engine) drain(rt *sessionRT, id string) {
	ctx := context.WithoutCancel(e.ctx)
	qs, err := e.store.ListQueue(ctx, id)
	if err != nil || len(qs) == 0 {
		_ = e.store.ReleaseSession(ctx, id)
		return
	}
	if e.startHead(rt, id, qs) {
		return
	}
	if head := qs[0]; head.Held {
		_ = e.store.ReleaseSession(ctx, id) // the head is another process's: let it run
		if !head.OwnerAlive {
			// Left by a process that is gone: it waits for the person
			// (Send), and everything behind it with it.
			return
		}
	}
	if rt.ctl.polling || e.ctx.Err() != nil {
		return
	}
	rt.ctl.polling = true
	e.wg.Add(1)
	go func() { // owner: the engine (e.wg); ends when the queue starts, empties or e.ctx ends
		defer e.wg.Done()
		tick := time.NewTicker(claimPoll)
		defer tick.Stop()
		for {
			select {
			case <-e.ctx.Done():
				return
			case <-tick.C:
			}
			rt.ctlMu.Lock()
			qs, err := e.store.ListQueue(ctx, id)
			own := false
			for _, q := range qs {
				own = own || !q.Held
			}
			// Stop when a job runs (it drains after itself), nothing of
			// ours waits, or our head started.
			if done := rt.ctl.running != nil || err != nil || !own || e.startHead(rt, id, qs); done {
				rt.ctl.polling = false
				rt.ctlMu.Unlock()
				return
			}
			rt.ctlMu.Unlock()
		}
	}()
}

// startHead starts the queue's head (qs, as just read) when it is this
// process's and the session's claim is, or becomes, this process's; it
// reports whether it did. The caller holds rt.ctlMu and no job runs.
func (e *Engine) startHead(rt *sessionRT, id string, qs []store.Queued) bool {
	if len(qs) == 0 || qs[0].Held {
		return false
	}
	if other, err := e.store.ClaimSession(context.WithoutCancel(e.ctx), id); err != nil || other != "" {
		return false
	}
	j := e.takeNext(id, rt)
	if j == nil {
		return false
	}
	e.start(rt, id, j)
	return true
}

// claimBeats holds the engines whose claim heartbeat runs (beatClaims).
var claimBeats sync.Map // *Engine → struct{}

// beatClaims starts, once per engine, the heartbeat that renews the
// session claims this process holds every store.ClaimRenew: the claims
// are leases (store/queue.go). Owner: the engine (e.wg); it ends with e.ctx.
func (e *Engine) beatClaims() {
	if e.ctx.Err() != nil {
		return
	}
	if _, running := claimBeats.LoadOrStore(e, struct{}{}); running {
		return
	}
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		defer claimBeats.Delete(e)
		t := time.NewTicker(store.ClaimRenew)
		defer t.Stop()
		for {
			select {
			case <-e.ctx.Done():
				return
			case <-t.C:
				_ = e.store.RenewClaims(e.ctx) // a failed renewal is tried again at the next tick
			}
		}
	}()
}

// claimPoll is how often a process whose input waits for another process's
// turn checks whether the session is free.
const claimPoll = 200 * time.Millisecond

// queuedImage is how an image offered with a queued input is kept.
type queuedImage struct {
	Path  string `json:"path,omitempty"`
	Name  string `json:"name,omitempty"`
	Bytes []byte `json:"bytes,omitempty"`
	ID    int64  `json:"id,omitempty"`
}

// encodeImages is the images_json of a queued input.
func encodeImages(in []attach.Input) (string, error) {
	imgs := make([]queuedImage, 0, len(in))
	for _, im := range in {
		imgs = append(imgs, queuedImage(im))
	}
	raw, err := json.Marshal(imgs)
	return string(raw), err
}

// decodeImages reads a queued input's images back (never nil).
func decodeImages(raw string) []attach.Input {
	var imgs []queuedImage
	_ = json.Unmarshal([]byte(raw), &imgs)
	out := make([]attach.Input, 0, len(imgs))
	for _, im := range imgs {
		out = append(out, attach.Input(im))
	}
	return out
}

// imageCount is how many images a queued input carries.
func imageCount(raw string) int {
	var imgs []json.RawMessage
	_ = json.Unmarshal([]byte(raw), &imgs)
	return len(imgs)
}

// enqueue puts j at the end of the session's queue, owned by this
// process, which drains it. The caller holds rt.ctlMu.
func (e *Engine) enqueue(ctx context.Context, id string, rt *sessionRT, j *job) (store.Queued, error) {
	raw, err := encodeImages(j.req.Images)
	if err != nil {
		return store.Queued{}, err
	}
	q, err := e.store.Enqueue(ctx, store.Queued{SessionID: id, Kind: j.kind, Text: j.req.Text, ImagesJSON: raw,
		Channel: j.req.Channel, Model: j.req.Model, BaseURL: j.req.BaseURL})
	if err != nil {
		return store.Queued{}, err
	}
	j.queueID = q.ID
	if rt.ctl.waiting == nil {
		rt.ctl.waiting = map[int64]*job{}
	}
	rt.ctl.waiting[q.ID] = j
	e.publishQueue(id)
	return q, nil
}

// jobOf turns a queued row back into a job (the one a caller waits on,
// when there is one).
func jobOf(rt *sessionRT, q store.Queued) *job {
	if j, ok := rt.ctl.waiting[q.ID]; ok {
		delete(rt.ctl.waiting, q.ID)
		j.kind, j.req.Text = q.Kind, q.Text // as edited while it waited
		return j
	}
	req := SendRequest{SessionID: q.SessionID, Text: q.Text, Channel: q.Channel, Model: q.Model, BaseURL: q.BaseURL, Images: decodeImages(q.ImagesJSON)}
	j := newJob(q.Kind, req)
	j.queueID = q.ID
	return j
}

// takeNext removes the session's next queued input this process may run
// and returns its job (nil when none). The caller holds rt.ctlMu.
func (e *Engine) takeNext(id string, rt *sessionRT) *job {
	q, ok, err := e.store.TakeNextQueued(context.WithoutCancel(e.ctx), id)
	if err != nil {
		e.broker.Publish(eventWarning(id, "The queue could not be read: "+err.Error()))
		return nil
	}
	if !ok {
		return nil
	}
	e.publishQueue(id)
	return jobOf(rt, q)
}

// start runs j as the session's turn; after it, the queue behind it drains
// (drain starts the next input). The caller holds rt.ctlMu.
func (e *Engine) start(rt *sessionRT, id string, j *job) {
	e.beatClaims()
	rctx, cancel := context.WithCancelCause(e.ctx)
	rt.ctl.running, rt.ctl.cancel, rt.ctl.ticket = j, cancel, goals.Ticket{}
	e.wg.Add(1)
	go func() { // owner: the engine (e.wg); ends with the job or e.ctx
		defer e.wg.Done()
		res, end, err := e.runJobRecovering(rctx, id, rt, j)
		cancel(nil)
		j.res, j.err = res, err
		rt.ctlMu.Lock()
		rt.ctl.running, rt.ctl.cancel, rt.ctl.ticket = nil, nil, goals.Ticket{}
		reverted := e.applyHeld(rt, id) // before the next input starts
		rt.ctlMu.Unlock()
		end()
		reverted()
		if err != nil && !j.waited() {
			// Nobody waits for this call: say it where the window looks.
			e.broker.Publish(eventWarning(id, "The turn could not run: "+err.Error()))
		}
		close(j.done)
		if e.ctx.Err() != nil {
			return
		}
		rt.ctlMu.Lock()
		if rt.ctl.running == nil { // else an input that came meanwhile started, and drains after itself
			e.drain(rt, id) // the next input, or the claim released, or a poll for another process
		}
		rt.ctlMu.Unlock()
	}()
}

// leave ends a queued job that leaves the queue without running: its
// waiter gets a cancelled result and err. The caller holds rt.ctlMu and
// has removed j from rt.ctl.waiting.
func (j *job) leave(err error) {
	j.res, j.err = TurnResult{SessionID: j.req.SessionID, Status: store.TurnCancelled}, err
	close(j.done)
}

// waited reports whether a foreground caller (Run) waits for j.
func (j *job) waited() bool { return j.req.wait }

// runJobRecovering is runJob where a panic (a bug in Vis) ends this job
// with an error instead of the process with every session in it; the
// turn's stored state is what it had persisted, and the window reloads.
func (e *Engine) runJobRecovering(ctx context.Context, id string, rt *sessionRT, j *job) (res TurnResult, end func(), err error) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "vis: panic in a turn of session %s: %v\n%s", id, r, debug.Stack())
			res, err = TurnResult{SessionID: id, Status: "error", Error: fmt.Sprint("internal error: ", r)}, fmt.Errorf("internal error (a bug in Vis): %v", r)
			end = func() { e.broker.Publish(events.Event{SessionID: id, Data: events.SessionChanged{}}) }
		}
	}()
	return e.runJob(ctx, id, rt, j)
}

// runJob runs one job to its end. end publishes the turn's end; the caller
// runs it once the session is free.
func (e *Engine) runJob(ctx context.Context, id string, rt *sessionRT, j *job) (TurnResult, func(), error) {
	if j.kind == store.QueueShell {
		sr, err := e.shell(ctx, id, rt, j.req)
		res := TurnResult{SessionID: id, Turn: sr.Turn, Status: sr.status, Answer: sr.Output, Iterations: 1}
		if err == nil && (sr.ExitCode != 0 || sr.TimedOut) && res.Status == store.TurnDone {
			res.Status, res.Error = "error", fmt.Sprintf("the command exited with code %d", sr.ExitCode)
		}
		return res, sr.end, err
	}
	if j.kind == queueRerun {
		return e.rerun(ctx, id, rt, j)
	}
	p, err := e.plan(ctx, id, rt, j)
	if err != nil || p == nil {
		return TurnResult{SessionID: id, Status: "skipped"}, func() {}, err
	}
	return e.runPlan(ctx, p)
}

// watchGoal stops the running turn when its goal is stopped from another
// process (this process's controls stop it at once, in publishGoal): the
// stored goal is read every goalPoll while a goal turn runs.
func (e *Engine) watchGoal(ctx context.Context, rt *sessionRT, t goals.Ticket) {
	if !t.Active() {
		return
	}
	e.wg.Add(1)
	go func() { // owner: the turn (ctx ends with it)
		defer e.wg.Done()
		tick := time.NewTicker(goalPoll)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			h, err := e.goals.StopCheck(ctx, t)
			if err == nil && h.Halted() {
				rt.haltRunning(t, h.Message)
				return
			}
		}
	}()
}

// goalPoll is how often a running goal turn reads its goal for stops from
// another process.
const goalPoll = 300 * time.Millisecond

// haltRunning cancels the running turn with the goal's halt message when
// it is still the turn that started with t.
func (rt *sessionRT) haltRunning(t goals.Ticket, msg string) {
	rt.ctlMu.Lock()
	defer rt.ctlMu.Unlock()
	if rt.ctl.running != nil && rt.ctl.cancel != nil && rt.ctl.ticket == t {
		rt.ctl.cancel(&loop.HaltCause{Message: msg})
	}
}

// haltForGoal stops a running goal turn of g's session at once when g (just
// written by this process) stops its goal work.
func (e *Engine) haltForGoal(g goals.Goal) {
	rt := e.lookup(g.SessionID)
	if rt == nil {
		return
	}
	rt.ctlMu.Lock()
	t := rt.ctl.ticket
	rt.ctlMu.Unlock()
	if h := goals.HaltOf(t, g); h.Halted() {
		rt.haltRunning(t, h.Message)
	}
}

// abandon stops j for a caller that no longer waits: a running j is
// cancelled, a queued one leaves the queue.
func (e *Engine) abandon(id string, j *job) {
	rt := e.lookup(id)
	if rt == nil {
		return
	}
	rt.ctlMu.Lock()
	defer rt.ctlMu.Unlock()
	if rt.ctl.running == j {
		rt.ctl.cancel(context.Canceled)
		return
	}
	if _, ok := rt.ctl.waiting[j.queueID]; ok {
		delete(rt.ctl.waiting, j.queueID)
		if err := e.store.RemoveQueued(context.WithoutCancel(e.ctx), id, j.queueID); err == nil {
			e.publishQueue(id)
		}
		j.leave(nil)
	}
}

// Running reports whether a session runs a turn (or a `!cmd`) now.
func (e *Engine) Running(id string) bool {
	rt := e.lookup(id)
	if rt == nil {
		return false
	}
	rt.ctlMu.Lock()
	defer rt.ctlMu.Unlock()
	return rt.ctl.running != nil
}

// CancelTurn stops the session's running turn (the queue stays and drains
// after it); false when none runs.
func (e *Engine) CancelTurn(id string) bool {
	rt := e.lookup(id)
	if rt == nil {
		return false
	}
	rt.ctlMu.Lock()
	defer rt.ctlMu.Unlock()
	if rt.ctl.running == nil {
		return false
	}
	rt.ctl.cancel(errStopped)
	return true
}

// QueuedInput is one input waiting in a session's queue: the queue event's
// entry, defined once in events.
type QueuedInput = events.QueuedInput

// ReturnedInput is a queued input handed back to the person (Stop): its
// text and the images that went with it.
type ReturnedInput struct {
	ID     int64          `json:"id"` // the queued input's id
	Text   string         `json:"text"`
	Images []attach.Input `json:"images"`
}

func queuedView(q store.Queued) QueuedInput {
	return QueuedInput{ID: q.ID, Kind: q.Kind, Text: q.Text, Images: imageCount(q.ImagesJSON), Held: q.Held && !q.OwnerAlive,
		Elsewhere: q.Held && q.OwnerAlive, Created: q.Created}
}

// Queue lists the session's queued inputs, oldest first.
func (e *Engine) Queue(ctx context.Context, sessionID string) ([]QueuedInput, error) {
	qs, err := e.store.ListQueue(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	// Inputs of this process that wait for another process's turn (it holds
	// the session's claim) say so too.
	waiting := false
	if len(qs) > 0 {
		other, err := e.store.ClaimedElsewhere(ctx, sessionID)
		waiting = err == nil && other != ""
	}
	out := make([]QueuedInput, 0, len(qs))
	for _, q := range qs {
		v := queuedView(q)
		v.Elsewhere = v.Elsewhere || (waiting && !q.Held)
		out = append(out, v)
	}
	return out, nil
}

func (e *Engine) publishQueue(id string) {
	q, err := e.Queue(context.WithoutCancel(e.ctx), id)
	if err != nil {
		return
	}
	e.broker.Publish(events.Event{SessionID: id, Data: events.Queue{Queue: q}})
}

// EditQueued replaces a queued input's text; blank text removes it. A
// queued input that already left the queue is ErrNotFound.
func (e *Engine) EditQueued(ctx context.Context, sessionID string, id int64, text string) error {
	if strings.TrimSpace(text) == "" {
		if err := e.store.RemoveQueued(ctx, sessionID, id); err != nil {
			return err
		}
		e.publishQueue(sessionID)
		return nil
	}
	qs, err := e.store.ListQueue(ctx, sessionID)
	if err != nil {
		return err
	}
	var cur *store.Queued
	for i := range qs {
		if qs[i].ID == id {
			cur = &qs[i]
		}
	}
	if cur == nil {
		return fmt.Errorf("queued input %d: %w", id, store.ErrNotFound)
	}
	// The edit is classified as a new input would be: a message may become a
	// `!cmd` and back, never a command, and a goal's turn is not edited.
	kind := store.QueueTurn
	switch k, _ := classify(text); {
	case cur.Kind == store.QueueGoalSet || cur.Kind == store.QueueGoalResume:
		return errors.New("a queued goal turn cannot be edited: remove it, and set the goal again")
	case k == inputCommand:
		return errors.New("a queued message cannot become a command: remove it and type the command when no turn runs")
	case k == inputShell:
		if imageCount(cur.ImagesJSON) > 0 {
			return errors.New("images go with a message to the model, not with a command; remove the leading \"!\"")
		}
		kind = store.QueueShell
	}
	if err := e.store.EditQueued(ctx, sessionID, id, text, kind); err != nil {
		return err
	}
	e.publishQueue(sessionID)
	return nil
}

// RemoveQueued takes an input out of the queue.
func (e *Engine) RemoveQueued(ctx context.Context, sessionID string, id int64) error {
	return e.EditQueued(ctx, sessionID, id, "")
}

// ReleaseQueue sends a held queue (left by a process that is gone): this
// process adopts it and, when no turn runs, starts its first input.
func (e *Engine) ReleaseQueue(ctx context.Context, sessionID string) error {
	s, err := e.store.GetSession(ctx, sessionID)
	if err != nil {
		return err
	}
	n, err := e.store.AdoptQueue(ctx, sessionID)
	if err != nil {
		return err
	}
	qs, err := e.store.ListQueue(ctx, sessionID)
	if err != nil {
		return err
	}
	if len(qs) == 0 {
		return ErrNothingQueued
	}
	rt, err := e.runtimeFor(s)
	if err != nil {
		return err
	}
	rt.ctlMu.Lock()
	defer rt.ctlMu.Unlock()
	if n > 0 {
		e.publishQueue(sessionID)
	}
	if rt.ctl.running == nil {
		e.drain(rt, sessionID)
	}
	return nil
}

// StopResult is what Stop did.
type StopResult struct {
	Cancelled bool            `json:"cancelled"` // a running turn was stopped
	Returned  []ReturnedInput `json:"returned"`  // the queue, handed back oldest first
}

// Stop stops the session's running turn and hands its queue back (the
// composer puts it into the input): nothing queued runs after it.
func (e *Engine) Stop(ctx context.Context, sessionID string) (StopResult, error) {
	res := StopResult{Returned: []ReturnedInput{}}
	rt := e.lookup(sessionID)
	if rt != nil {
		rt.ctlMu.Lock()
		defer rt.ctlMu.Unlock()
		if rt.ctl.running != nil {
			rt.ctl.cancel(errStopped)
			res.Cancelled = true
		}
	}
	qs, err := e.store.TakeQueue(ctx, sessionID)
	if err != nil {
		return res, err
	}
	for _, q := range qs {
		res.Returned = append(res.Returned, ReturnedInput{ID: q.ID, Text: q.Text, Images: decodeImages(q.ImagesJSON)})
		if rt != nil {
			if j, ok := rt.ctl.waiting[q.ID]; ok {
				delete(rt.ctl.waiting, q.ID)
				j.leave(nil)
			}
		}
	}
	if len(qs) > 0 {
		e.publishQueue(sessionID)
	}
	return res, nil
}

// releaseWaiters ends every queued job a caller still waits for and gives
// up this process's session claims (the engine closes): queued inputs stay
// in the store, held until a process sends them.
func (e *Engine) releaseWaiters() {
	e.mu.Lock()
	rts := make(map[string]*sessionRT, len(e.sessions))
	for id, rt := range e.sessions {
		rts[id] = rt
	}
	e.mu.Unlock()
	for id, rt := range rts {
		_ = e.store.ReleaseSession(context.Background(), id)
		rt.ctlMu.Lock()
		for qid, j := range rt.ctl.waiting {
			delete(rt.ctl.waiting, qid)
			j.leave(errors.New("the engine closed before this queued input ran; it stays in the session's queue"))
		}
		rt.ctlMu.Unlock()
	}
}

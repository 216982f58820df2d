// Package cli is the headless front: `vis run`, `vis sessions`, `vis show`.
// Its flags, JSON-lines output and exit codes are a contract scripts and the
// acceptance tests depend on (see README.md, "The CLI").
//
// Exit codes: 0 answered; 1 the turn ended in error (message on stderr);
// 2 usage or configuration error (stderr says what to set); 130 cancelled by
// SIGINT (the turn is recorded as cancelled; what settled is kept).
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/visdesktop/vis/backend"
	"github.com/visdesktop/vis/backend/attach"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/goals"
	"github.com/visdesktop/vis/backend/homedir"
	"github.com/visdesktop/vis/backend/store"
)

// Commands lists the first arguments that select the CLI instead of the window.
var Commands = []string{"run", "sessions", "show", "goal", "diff", "undo", "fork", "version", "-v", "-version", "--version", "help", "-h", "-help", "--help"}

// Version is set by the build.
var Version = "dev"

// Exit codes.
const (
	ExitOK        = 0
	ExitError     = 1
	ExitUsage     = 2
	ExitCancelled = 130
)

const usage = `Usage:
  vis [--ask] [DIR]        open the desktop window (on DIR); --ask: a command the sandbox refuses waits
                           for your answer at its call (Settings can turn this on for good); vis run
                           never asks
  vis run [--workspace DIR] [--session ID | --continue [--wait]] [--model M] [--base-url URL] [--image PATH]...
          [--sandbox read-only|workspace|full] [--trust-project] [--raw] [--json] PROMPT
                           run one turn headless; PROMPT "-" reads stdin; a session another Vis is
                           running is refused (exit 1) unless --wait queues the turn behind it; --sandbox sets what the
                           model's processes may do (default: permissions.mode in config.yml, else
                           workspace: writes only in the project, no ~/.ssh, no provider keys);
                           --trust-project applies the project's model settings and .vis/SYSTEM.md;
                           terminal control sequences in the answer are dropped unless --raw
  vis sessions [--workspace DIR] [--search WORDS] [--json]
                           list sessions; --search lists the turns whose request or answer match
  vis show ID [--full] [--raw] [--json]
                           print a session's transcript; --full prints clipped program outputs whole
                           (as kept, up to sandbox.keep_output_bytes) instead of the model's copy;
                           terminal control sequences are dropped unless --raw
  vis goal [--workspace DIR] [--session ID | --continue] [--json]
                           print the session's goal (default: the workspace's latest session)
  vis goal set [--budget N] [--workspace DIR] [--session ID | --continue] [--json] OBJECTIVE
                           set the goal and run its turn (a new session unless told which), like vis run
  vis goal resume|pause|cancel|clear [--workspace DIR] [--session ID | --continue] [--json]
                           resume runs the goal's turn again; the others return at once and stop
                           a goal turn running in another Vis before its next model request
` + diffUsage + forkUsage + `  vis version              print the version (also -v, --version)
  vis help                 print this text (also -h, --help)

The window needs a display (DISPLAY or WAYLAND_DISPLAY); without one, use vis run.

Environment: VIS_HOME (default ~/.vis), VIS_BASE_URL, VIS_MODEL, VIS_API_KEY
(falling back to OPENAI_BASE_URL, OPENAI_API_KEY).
`

// Env is what the CLI reads from its process.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Getwd          func() (string, error)
}

// Main runs the CLI with args (without the program name) and returns the exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return Run(ctx, args, Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: os.Getenv, Getwd: os.Getwd})
}

// Run is Main with an explicit environment (tests use it in-process).
func Run(ctx context.Context, args []string, env Env) int {
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, usage)
		return ExitUsage
	}
	switch args[0] {
	case "run":
		return cmdRun(ctx, args[1:], env)
	case "sessions":
		return cmdSessions(ctx, args[1:], env)
	case "show":
		return cmdShow(ctx, args[1:], env)
	case "goal":
		return cmdGoal(ctx, args[1:], env)
	case "diff":
		return cmdDiff(ctx, args[1:], env)
	case "undo":
		return cmdUndo(ctx, args[1:], env)
	case "fork":
		return cmdFork(ctx, args[1:], env)
	case "version", "-v", "-version", "--version":
		fmt.Fprintln(env.Stdout, "vis", Version)
		return ExitOK
	case "help", "-h", "-help", "--help":
		fmt.Fprint(env.Stdout, usage)
		return ExitOK
	}
	fmt.Fprintf(env.Stderr, "vis: unknown command %q\n%s", args[0], usage)
	return ExitUsage
}

func newFlags(name string, env Env) *flag.FlagSet {
	fs := flag.NewFlagSet("vis "+name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() { fmt.Fprint(env.Stderr, usage) }
	return fs
}

// parseInterleaved parses flags that may come before or after positionals.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// runOpts are vis run's engine-wide choices.
type runOpts struct {
	sandbox string // --sandbox
	trust   bool   // --trust-project
}

func openEngine(ctx context.Context, env Env, ro runOpts) (*backend.Engine, int) {
	home, err := homedir.Vis(env.Getenv)
	if err != nil {
		fmt.Fprintln(env.Stderr, "vis:", err)
		return nil, ExitUsage
	}
	// No file watcher: it serves the window's pack badges, and releasing it
	// cost 5-20 ms of every vis run's exit.
	opts := backend.Options{Home: home, Getenv: env.Getenv, Sandbox: ro.sandbox, TrustProject: ro.trust, NoWatch: true}
	eng, err := backend.Open(ctx, opts)
	if err != nil {
		fmt.Fprintln(env.Stderr, "vis:", err)
		if errors.Is(err, backend.ErrConfig) {
			return nil, ExitUsage
		}
		return nil, ExitError
	}
	return eng, ExitOK
}

func cmdRun(ctx context.Context, args []string, env Env) int {
	fs := newFlags("run", env)
	workspace := fs.String("workspace", "", "project folder (default: current directory)")
	session := fs.String("session", "", "continue the given session")
	cont := fs.Bool("continue", false, "continue the most recent session of the workspace")
	model := fs.String("model", "", "model name")
	baseURL := fs.String("base-url", "", "OpenAI-compatible endpoint, e.g. http://localhost:11434/v1")
	asJSON := fs.Bool("json", false, "print one JSON object per engine event, then a result object")
	sandbox := fs.String("sandbox", "", "what the model's processes may do: read-only, workspace (default: writes only in the project) or full (unconfined)")
	raw := fs.Bool("raw", false, "print the answer as the model wrote it, terminal control sequences included")
	trust := fs.Bool("trust-project", false, "apply the project's own model settings and .vis/SYSTEM.md (held back until the folder is trusted)")
	wait := fs.Bool("wait", false, "when another Vis is running the session, queue this turn behind it instead of refusing")
	var images imageFlag
	fs.Var(&images, "image", "attach an image file (repeatable)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return ExitUsage
	}
	if *session != "" && *cont {
		fmt.Fprintln(env.Stderr, "vis run: --session and --continue exclude each other")
		return ExitUsage
	}
	if len(pos) == 0 {
		fmt.Fprintln(env.Stderr, "vis run: missing PROMPT (use - to read it from stdin)")
		return ExitUsage
	}
	prompt := strings.Join(pos, " ")
	if prompt == "-" {
		b, err := io.ReadAll(env.Stdin)
		if err != nil {
			fmt.Fprintln(env.Stderr, "vis run: read stdin:", err)
			return ExitUsage
		}
		prompt = string(b)
	}
	if strings.TrimSpace(prompt) == "" {
		fmt.Fprintln(env.Stderr, "vis run: the prompt is empty")
		return ExitUsage
	}
	ws, ok := workspaceArg(env, "vis run", *workspace)
	if !ok {
		return ExitUsage
	}

	eng, code := openEngine(ctx, env, runOpts{sandbox: *sandbox, trust: *trust})
	if eng == nil {
		return code
	}
	defer eng.Close()

	sid := *session
	if *cont {
		if sid, code = latestSession(ctx, eng, env, "vis run --continue", ws); sid == "" {
			return code
		}
	}

	in := backend.Input{Workspace: ws, Text: prompt, Channel: backend.ChannelCLI, Model: *model, BaseURL: *baseURL, Images: images.inputs(), Wait: *wait}
	return foreground(ctx, eng, env, "vis run", sid, in, *asJSON, *raw)
}

// workspaceArg is the --workspace folder, else the current directory; it
// says on stderr why it is unusable (ok false).
func workspaceArg(env Env, cmd, ws string) (string, bool) {
	if ws == "" {
		var err error
		if ws, err = env.Getwd(); err != nil {
			fmt.Fprintln(env.Stderr, cmd+": current directory:", err)
			return "", false
		}
	}
	if fi, err := os.Stat(ws); err != nil || !fi.IsDir() {
		fmt.Fprintf(env.Stderr, "%s: workspace %q is not a folder\n", cmd, ws)
		return "", false
	}
	return ws, true
}

// foreground runs one input through the engine's Run and waits for the turn
// it starts (or queues) to end, printing as `vis run` does. With --json
// every event is printed, then a result object; without it the answer is
// all stdout gets, and what the window shows as a warning banner (an image
// not sent, a full context window, a config file ignored) goes to stderr as
// it happens.
func foreground(ctx context.Context, eng *backend.Engine, env Env, cmd, sid string, in backend.Input, asJSON, raw bool) int {
	var out *eventPump
	if asJSON {
		out = startJSON(eng.Events(), env.Stdout)
	}
	pump := out
	if pump == nil {
		pump = startEvents(eng.Events(), func(e events.Event) {
			if w, ok := events.As[events.Warning](e); ok && w.Message != "" {
				fmt.Fprintln(env.Stderr, "vis: warning:", w.Message)
			}
		})
	}
	res, err := eng.Run(ctx, sid, in)
	pump.stop(eng.Events().Seq())
	if err != nil {
		fmt.Fprintln(env.Stderr, cmd+":", err)
		if out != nil {
			out.write(errorEvent(err, res.SessionID))
		}
		if errors.Is(err, backend.ErrConfig) || errors.Is(err, store.ErrNotFound) {
			return ExitUsage
		}
		return ExitError // a refusal (a goal rule, an unknown command) or a failure
	}
	if out != nil {
		out.write(map[string]any{
			"event": "result", "status": res.Status, "answer": res.Answer, "session_id": res.SessionID,
			"turn": res.Turn, "iterations": res.Iterations, "error": res.Error,
			"usage": map[string]any{"input_tokens": res.Usage.InputTokens, "output_tokens": res.Usage.OutputTokens},
		})
	} else if res.Answer != "" && res.Status != "error" {
		answer := strings.TrimRight(res.Answer, "\n")
		if !raw {
			answer = termSafe(answer)
		}
		fmt.Fprintln(env.Stdout, answer)
	}
	switch res.Status {
	case "done", "halted", "skipped": // a goal's budget or a user stop ended it, as asked
		return ExitOK
	case "cancelled":
		fmt.Fprintln(env.Stderr, cmd+": cancelled; session", res.SessionID)
		return ExitCancelled
	default:
		msg := res.Error
		if msg == "" {
			msg = "the turn ended with status " + res.Status
		}
		fmt.Fprintln(env.Stderr, cmd+":", msg)
		return ExitError
	}
}

// errorEvent is the JSON line of an input the engine refused, after the
// events: {"event": "error", "code": ..., "error": the sentence}. Codes are
// the engine's (backend.ErrorCode), narrowed to the CLI's stable four:
// "conflict" (another Vis runs the session, "pid" says which; or a turn
// is running), "config", "not_found", else "refused".
func errorEvent(err error, sid string) map[string]any {
	ev := map[string]any{"event": "error", "code": "refused", "error": err.Error(), "session_id": sid}
	switch code := backend.ErrorCode(err); code {
	case backend.CodeConflict, backend.CodeConfig, backend.CodeNotFound:
		ev["code"] = code
	}
	var held *backend.HeldElsewhereError
	if errors.As(err, &held) {
		ev["pid"], ev["session_id"] = held.PID, held.SessionID
	}
	return ev
}

// eventPump hands every engine event to each while a turn runs: startJSON
// prints them as JSON lines, startEvents does what its caller says.
type eventPump struct {
	mu     sync.Mutex
	w      io.Writer
	enc    *json.Encoder
	cancel func()
	each   func(events.Event) // what to do with each event
	ch     <-chan events.Event
	done   chan struct{}
	upto   chan int64
}

func startJSON(b *events.Broker, w io.Writer) *eventPump {
	o := &eventPump{w: w, enc: json.NewEncoder(w)}
	o.enc.SetEscapeHTML(false)
	o.each = func(e events.Event) { o.write(e) }
	o.start(b)
	return o
}

// startEvents calls each for every event until stop (no output of its own).
func startEvents(b *events.Broker, each func(events.Event)) *eventPump {
	o := &eventPump{each: each}
	o.start(b)
	return o
}

func (o *eventPump) start(b *events.Broker) {
	o.ch, o.cancel = b.Subscribe(8192)
	o.done, o.upto = make(chan struct{}), make(chan int64, 1)
	go o.pump() // owner: o; ends at stop
}

func (o *eventPump) pump() {
	defer close(o.done)
	last := int64(-1)
	for {
		select {
		case e := <-o.ch:
			o.each(e)
			if last >= 0 && e.Seq >= last {
				return
			}
		case last = <-o.upto:
			if o.drained(last) {
				return
			}
		}
	}
}

func (o *eventPump) drained(last int64) bool {
	for {
		select {
		case e := <-o.ch:
			o.each(e)
			if e.Seq >= last {
				return true
			}
		default:
			return true // nothing buffered: every delivered event was printed
		}
	}
}

// stop prints what is buffered up to seq and stops.
func (o *eventPump) stop(seq int64) {
	o.upto <- seq
	<-o.done
	o.cancel()
}

func (o *eventPump) write(v any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	_ = o.enc.Encode(v)
}

func cmdSessions(ctx context.Context, args []string, env Env) int {
	fs := newFlags("sessions", env)
	asJSON := fs.Bool("json", false, "print JSON")
	workspace := fs.String("workspace", "", "only sessions of this folder")
	search := fs.String("search", "", "the turns whose request or answer match these words")
	if _, err := parseInterleaved(fs, args); err != nil {
		return ExitUsage
	}
	eng, code := openEngine(ctx, env, runOpts{})
	if eng == nil {
		return code
	}
	defer eng.Close()
	if strings.TrimSpace(*search) != "" {
		return printSearch(ctx, eng, env, *search, *workspace, *asJSON)
	}
	ss, err := eng.ListSessions(ctx, *workspace)
	if err != nil {
		fmt.Fprintln(env.Stderr, "vis sessions:", err)
		return ExitError
	}
	if *asJSON {
		if ss == nil {
			ss = []backend.SessionInfo{}
		}
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(ss)
		return ExitOK
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tWORKSPACE\tTITLE\tTURNS\tUPDATED")
	for _, s := range ss {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", s.ID, s.Workspace, s.Title, s.Turns, s.Updated.Local().Format(time.DateTime))
	}
	tw.Flush()
	return ExitOK
}

func cmdShow(ctx context.Context, args []string, env Env) int {
	fs := newFlags("show", env)
	asJSON := fs.Bool("json", false, "print JSON")
	full := fs.Bool("full", false, "print clipped program outputs whole")
	raw := fs.Bool("raw", false, "print model text as stored, terminal control sequences included")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return ExitUsage
	}
	if len(pos) != 1 {
		fmt.Fprintln(env.Stderr, "vis show: give exactly one session ID (see vis sessions)")
		return ExitUsage
	}
	eng, code := openEngine(ctx, env, runOpts{})
	if eng == nil {
		return code
	}
	defer eng.Close()
	tr, err := eng.Transcript(ctx, pos[0])
	if errors.Is(err, store.ErrNotFound) {
		fmt.Fprintf(env.Stderr, "vis show: no session %q\n", pos[0])
		return ExitUsage
	}
	if err != nil {
		fmt.Fprintln(env.Stderr, "vis show:", err)
		return ExitError
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(tr)
		return ExitOK
	}
	var w io.Writer = safeWriter{env.Stdout}
	if *raw {
		w = env.Stdout
	}
	fmt.Fprintf(w, "# %s\nsession %s · %s\n", orDash(tr.Session.Title), tr.Session.ID, tr.Session.Workspace)
	for _, t := range tr.Turns {
		fmt.Fprintf(w, "\n## turn %d · %s · %d iterations · %d in / %d out tokens · %s\n\n> %s\n",
			t.Position, t.Status, len(t.Iterations), t.Usage.InputTokens, t.Usage.OutputTokens,
			(time.Duration(t.DurationMs) * time.Millisecond).String(), strings.ReplaceAll(strings.TrimSpace(t.Request), "\n", "\n> "))
		if f := t.ContextFold; f != nil && f.Note != "" {
			fmt.Fprintf(w, "\n⋯ %s (only the request sent to the model; this transcript keeps everything)\n", f.Note)
		}
		for _, it := range t.Iterations {
			fmt.Fprintf(w, "\n### iteration %d · %s · %d in / %d out\n", it.Position, it.Status, it.Usage.InputTokens, it.Usage.OutputTokens)
			if it.Prose != "" {
				fmt.Fprintf(w, "\n%s\n", it.Prose)
			}
			if it.Code != "" {
				fmt.Fprintf(w, "\n```python\n%s\n```\n", strings.TrimRight(it.Code, "\n"))
			}
			printOutputs(ctx, w, eng, tr.Session.ID, t.Position, it, *full)
			if it.Error != "" {
				fmt.Fprintf(w, "\nerror: %s\n", it.Error)
			}
		}
		if t.Answer != "" {
			fmt.Fprintf(w, "\n**answer**\n\n%s\n", t.Answer)
		}
		if t.Error != "" {
			fmt.Fprintf(w, "\n**error**: %s\n", t.Error)
		}
	}
	return ExitOK
}

// printOutputs prints an iteration's output: the model's copy, with a
// line per clipped program saying so and how to see all of it; with full,
// each clipped program's whole kept output instead (and what the keep cap
// cut from it).
func printOutputs(ctx context.Context, w io.Writer, eng *backend.Engine, sid string, turn int, it backend.IterationView, full bool) {
	var clipped []int
	for k, c := range it.Calls {
		if c.OutputClipped {
			clipped = append(clipped, k)
		}
	}
	if !full || len(clipped) == 0 {
		if it.Output != "" {
			fmt.Fprintf(w, "\n```text\n%s\n```\n", strings.TrimRight(it.Output, "\n"))
		}
		for _, k := range clipped {
			c := it.Calls[k]
			fmt.Fprintf(w, "\n✂ program %d's output is clipped at %d of %d bytes printed (vis show --full prints the %d kept)\n",
				k+1, len(c.Output), c.OutputBytes, c.KeptBytes)
		}
		return
	}
	for k, c := range it.Calls {
		out := c.Output
		if c.OutputClipped {
			var b strings.Builder
			for off := 0; ; {
				p, err := eng.CallOutput(ctx, sid, turn, it.Position, k, off, 0)
				if err != nil {
					fmt.Fprintf(w, "\n(program %d's kept output could not be read: %v)\n", k+1, err)
					break
				}
				b.WriteString(p.Text)
				if p.Done || p.Next <= off {
					break
				}
				off = p.Next
			}
			out = b.String()
		}
		if out != "" {
			fmt.Fprintf(w, "\n```text\n%s\n```\n", strings.TrimRight(out, "\n"))
		}
		if c.OutputClipped && c.KeptBytes < c.OutputBytes {
			fmt.Fprintf(w, "\n✂ program %d printed %d bytes; only the first %d were kept (sandbox.keep_output_bytes)\n", k+1, c.OutputBytes, c.KeptBytes)
		}
	}
}

// imageFlag collects repeated --image paths, made absolute.
type imageFlag []string

func (f *imageFlag) String() string { return strings.Join(*f, ",") }

func (f *imageFlag) Set(p string) error {
	abs, err := filepath.Abs(p)
	if err != nil {
		return err
	}
	*f = append(*f, abs)
	return nil
}

func (f imageFlag) inputs() []attach.Input {
	var in []attach.Input
	for _, p := range f {
		in = append(in, attach.Input{Path: p})
	}
	return in
}

// latestSession returns the most recent session of a workspace, or "" and
// the exit code after saying why on stderr.
func latestSession(ctx context.Context, eng *backend.Engine, env Env, cmd, ws string) (string, int) {
	s, err := eng.LatestSession(ctx, ws)
	if errors.Is(err, store.ErrNotFound) {
		fmt.Fprintf(env.Stderr, "%s: no session yet in %s\n", cmd, ws)
		return "", ExitUsage
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "%s: %v\n", cmd, err)
		return "", ExitError
	}
	return s.ID, ExitOK
}

func orDash(s string) string {
	if s == "" {
		return "(untitled)"
	}
	return s
}

// cmdGoal is `vis goal [show|set|pause|resume|cancel|clear]`: the goal
// panel's twin. set and resume run the goal's turn in the foreground, like
// vis run; the controls return at once (a goal turn running in another
// process stops before its next model request).
func cmdGoal(ctx context.Context, args []string, env Env) int {
	fs := newFlags("goal", env)
	workspace := fs.String("workspace", "", "project folder (default: current directory)")
	session := fs.String("session", "", "the session")
	cont := fs.Bool("continue", false, "the workspace's most recent session (the default, but for set)")
	budget := fs.Int64("budget", 0, "set: the iteration budget (loop iterations; 0 = none)")
	model := fs.String("model", "", "set, resume: model name")
	baseURL := fs.String("base-url", "", "set, resume: OpenAI-compatible endpoint")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return ExitUsage
	}
	verb := "show"
	if len(pos) > 0 {
		verb, pos = pos[0], pos[1:]
	}
	switch verb {
	case "show", goals.ActionPause, goals.ActionResume, goals.ActionCancel, goals.ActionClear:
		if len(pos) > 0 {
			fmt.Fprintf(env.Stderr, "vis goal %s: unexpected %q\n", verb, strings.Join(pos, " "))
			return ExitUsage
		}
	case goals.ActionSet:
		if strings.TrimSpace(strings.Join(pos, " ")) == "" {
			fmt.Fprintln(env.Stderr, "vis goal set: missing OBJECTIVE")
			return ExitUsage
		}
	default:
		fmt.Fprintf(env.Stderr, "vis goal: unknown verb %q (set, pause, resume, cancel, clear, or none to show the goal)\n", verb)
		return ExitUsage
	}
	if *session != "" && *cont {
		fmt.Fprintln(env.Stderr, "vis goal: --session and --continue exclude each other")
		return ExitUsage
	}
	if *budget < 0 {
		fmt.Fprintln(env.Stderr, "vis goal set: --budget must be at least 1 (or 0 for none)")
		return ExitUsage
	}
	ws, ok := workspaceArg(env, "vis goal", *workspace)
	if !ok {
		return ExitUsage
	}
	eng, code := openEngine(ctx, env, runOpts{})
	if eng == nil {
		return code
	}
	defer eng.Close()
	sid := *session
	// Every verb but set works on the latest session by default; set starts
	// a new session unless told which.
	if sid == "" && (verb != goals.ActionSet || *cont) {
		if sid, code = latestSession(ctx, eng, env, "vis goal", ws); sid == "" {
			return code
		}
	}
	if verb == "show" {
		return showGoal(ctx, eng, env, sid, *asJSON)
	}
	g := &backend.GoalInput{Action: verb}
	if verb == goals.ActionSet {
		g.Objective = strings.Join(pos, " ")
		if *budget > 0 {
			g.Budget = budget
		}
	}
	in := backend.Input{Goal: g, Workspace: ws, Channel: backend.ChannelCLI, Model: *model, BaseURL: *baseURL}
	if verb == goals.ActionSet || verb == goals.ActionResume {
		return foreground(ctx, eng, env, "vis goal "+verb, sid, in, *asJSON, false)
	}
	a, err := eng.Dispatch(ctx, sid, in)
	if err != nil {
		fmt.Fprintf(env.Stderr, "vis goal %s: %v\n", verb, err)
		if errors.Is(err, store.ErrNotFound) {
			return ExitUsage
		}
		return ExitError
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		if a.Goal == nil {
			fmt.Fprintln(env.Stdout, "null")
			return ExitOK
		}
		_ = enc.Encode(a.Goal)
		return ExitOK
	}
	fmt.Fprintln(env.Stdout, a.Text)
	return ExitOK
}

// showGoal prints the session's goal (`vis goal`).
func showGoal(ctx context.Context, eng *backend.Engine, env Env, sid string, asJSON bool) int {
	g, err := eng.Goal(ctx, sid)
	if errors.Is(err, store.ErrNotFound) {
		fmt.Fprintf(env.Stderr, "vis goal: no session %q\n", sid)
		return ExitUsage
	}
	if err != nil {
		fmt.Fprintln(env.Stderr, "vis goal:", err)
		return ExitError
	}
	if asJSON {
		if g == nil {
			fmt.Fprintln(env.Stdout, "null")
			return ExitOK
		}
		_ = json.NewEncoder(env.Stdout).Encode(g)
		return ExitOK
	}
	if g == nil {
		fmt.Fprintln(env.Stdout, "This session has no goal. Set one with: vis goal set [--budget N] OBJECTIVE")
		return ExitOK
	}
	fmt.Fprintln(env.Stdout, goals.Render(*g))
	return ExitOK
}

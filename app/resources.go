package app

import (
	"fmt"
	"strings"

	"github.com/visdesktop/vis/backend/ext"
)

// Resource is one REPL of a session as the REPL sidebar shows it. Its JSON
// has the keys of the engine's "resources" event entries (ext.ResourceInfo),
// so the page treats an answer and an event alike.
type Resource struct {
	ID        string `json:"id"`
	SessionID string `json:"session"`
	Kind      string `json:"kind"` // repl, nrepl, ...
	Language  string `json:"language"`
	Label     string `json:"label"`
	Dir       string `json:"dir"`
	PID       int    `json:"pid"`    // 0 = none
	Port      int    `json:"port"`   // 0 = none
	Status    string `json:"status"` // up, starting, failed, down, unresponsive, unknown
	Log       string `json:"log"`
	Created   int64  `json:"created_at"` // unix ms
	Managed   bool   `json:"managed"`    // started by Vis (else attached)
	// Form and Hint explain a REPL that does not answer: the health check
	// that failed and what to do (Clojure's nREPL probe).
	Form string `json:"form,omitempty"`
	Hint string `json:"hint,omitempty"`
}

// StopResult says what stopping a REPL did: "stopped", "not-managed" or
// "detached", with a sentence for the person.
type StopResult struct {
	Result  string `json:"result"`
	ID      string `json:"id"`
	Message string `json:"message"`
}

// MaxLogLines is the most lines ResourceLogs returns.
const MaxLogLines = 2000

func toResources(in []ext.ResourceInfo) []Resource {
	out := make([]Resource, 0, len(in))
	for _, r := range in {
		form, _ := r.Detail["form"].(string)
		hint, _ := r.Detail["hint"].(string)
		out = append(out, Resource{ID: r.ID, SessionID: r.SessionID, Kind: r.Kind, Language: r.Language, Label: r.Label,
			Dir: r.Dir, PID: r.PID, Port: r.Port, Status: r.Status, Log: r.Log, Created: r.Created, Managed: r.Managed,
			Form: form, Hint: hint})
	}
	return out
}

func checkResource(what, sessionID, id string) error {
	if strings.TrimSpace(sessionID) == "" || strings.TrimSpace(id) == "" {
		return fmt.Errorf("%s: %w: need a session and a REPL id (got %q, %q)", what, ErrInput, sessionID, id)
	}
	return nil
}

// Resources lists the session's REPLs, probed now (oldest first).
func (a *App) Resources(sessionID string) ([]Resource, error) {
	if strings.TrimSpace(sessionID) == "" {
		return []Resource{}, nil
	}
	ctx, _ := a.base()
	return toResources(a.eng.Resources(ctx, sessionID)), nil
}

// StopResource stops one of the session's REPLs (an attached one is only
// detached).
func (a *App) StopResource(sessionID, id string) (StopResult, error) {
	if err := checkResource("stop REPL", sessionID, id); err != nil {
		return StopResult{}, err
	}
	ctx, _ := a.base()
	r, err := a.eng.StopResource(ctx, sessionID, id)
	if err != nil {
		return StopResult{}, fmt.Errorf("stop REPL %s: %w", id, err)
	}
	return StopResult{Result: r.Result, ID: r.ID, Message: r.Message}, nil
}

// RestartResource stops a REPL and starts it again with the same settings.
func (a *App) RestartResource(sessionID, id string) error {
	if err := checkResource("restart REPL", sessionID, id); err != nil {
		return err
	}
	ctx, _ := a.base()
	if err := a.eng.RestartResource(ctx, sessionID, id); err != nil {
		return fmt.Errorf("restart REPL %s: %w", id, err)
	}
	return nil
}

// ResourceLogs returns the last n lines of a REPL's log (n is clamped to
// 1…MaxLogLines).
func (a *App) ResourceLogs(sessionID, id string, n int) (string, error) {
	if err := checkResource("REPL log", sessionID, id); err != nil {
		return "", err
	}
	n = max(1, min(n, MaxLogLines))
	s, err := a.eng.ResourceLogs(sessionID, id, n)
	if err != nil {
		return "", fmt.Errorf("REPL log %s: %w", id, err)
	}
	return s, nil
}

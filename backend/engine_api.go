package backend

import (
	"context"
	"errors"

	"github.com/visdesktop/vis/backend/events"
)

// Options configure Open.
type Options struct {
	Home   string              // VIS_HOME; state lives in Home/desktop
	Getenv func(string) string // nil = os.Getenv
}

// Engine is the one engine both fronts use.
type Engine struct {
	broker *events.Broker
}

var errTODO = errors.New("engine: not wired yet")

// Open opens the state under opts.Home.
func Open(ctx context.Context, opts Options) (*Engine, error) {
	return &Engine{broker: events.New()}, nil
}

func (e *Engine) Close() error              { return nil }
func (e *Engine) Events() *events.Broker    { return e.broker }
func (e *Engine) CancelTurn(id string) bool { return false }
func (e *Engine) Running(id string) bool    { return false }
func (e *Engine) ListSessions(ctx context.Context, workspace string) ([]SessionInfo, error) {
	return nil, errTODO
}
func (e *Engine) LatestSession(ctx context.Context, workspace string) (SessionInfo, error) {
	return SessionInfo{}, errTODO
}
func (e *Engine) CreateSession(ctx context.Context, workspace string) (SessionInfo, error) {
	return SessionInfo{}, errTODO
}
func (e *Engine) Transcript(ctx context.Context, id string) (Transcript, error) {
	return Transcript{}, errTODO
}
func (e *Engine) RunTurn(ctx context.Context, req SendRequest) (TurnResult, error) {
	return TurnResult{}, errTODO
}
func (e *Engine) StartTurn(req SendRequest) (string, error) { return "", errTODO }

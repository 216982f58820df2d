// Package app is the desktop window's Go side and the only package bound to
// Wails. It is thin: each bound method validates its input, calls the Engine,
// maps the result to a DTO and returns (T, error); errors reach JavaScript as
// rejected promises carrying the error text (see Run's ErrorFormatter).
//
// Engine events reach the page through the bridge: one goroutine, owned by the
// App and ended by the Wails startup context, subscribes to the engine's
// broker, batches events about every 33 ms and emits each batch, sorted by
// seq, as the Wails event "vis:events". Deltas may be dropped under load (the
// broker's lossy contract); the page repairs its view by reloading the
// transcript snapshot and applying only events with a higher seq.
//
// Every input (the composer's text through Submit, the goal panel's Set and
// buttons) goes to the engine's Dispatch, which classifies it, runs it or
// queues it, and returns at once; its events drive the page. The page holds
// no turn logic: the queue is the engine's (Queue, EditQueued, RemoveQueued,
// SendQueued, and Stop, which hands it back).
//
// Frontend errors the page could not handle are appended to
// $VIS_HOME/desktop/logs/frontend.log (LogFrontendError), capped in size.
//
// Every call into the Wails runtime goes through the Emitter and Shell
// interfaces, built from the Wails startup context, so that this package's
// logic is tested without a window. API keys never reach the page: settings
// carry only whether a key is stored and a short hint.
package app

import (
	"context"

	"github.com/visdesktop/vis/backend"
	"github.com/visdesktop/vis/backend/attach"
	"github.com/visdesktop/vis/backend/config"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/goals"
)

// Engine is what the window needs from backend.Engine. *backend.Engine
// satisfies it; tests use a fake.
type Engine interface {
	Close() error
	Events() *events.Broker
	ListSessions(ctx context.Context, workspace string) ([]backend.SessionInfo, error)
	SessionExists(ctx context.Context, id string) (bool, error)
	LatestSession(ctx context.Context, workspace string) (backend.SessionInfo, error)
	CreateSession(ctx context.Context, workspace string) (backend.SessionInfo, error)
	RenameSession(ctx context.Context, id, title string) error
	DeleteSession(ctx context.Context, id string) error
	Search(ctx context.Context, query string, limit int) ([]backend.SearchHit, error)
	Transcript(ctx context.Context, sessionID string) (backend.Transcript, error)
	Dispatch(ctx context.Context, sessionID string, in backend.Input) (backend.Accepted, error)
	Stop(ctx context.Context, sessionID string) (backend.StopResult, error)
	Queue(ctx context.Context, sessionID string) ([]backend.QueuedInput, error)
	EditQueued(ctx context.Context, sessionID string, id int64, text string) error
	RemoveQueued(ctx context.Context, sessionID string, id int64) error
	ReleaseQueue(ctx context.Context, sessionID string) error
	SlashCommandsIn(workspace string) []backend.SlashCommand
	MCPServers(ctx context.Context, workspace string) (backend.MCPSettingsView, error)
	SaveMCPServer(ctx context.Context, oldName string, s backend.MCPServerEntry, workspace string) (backend.MCPSettingsView, error)
	RemoveMCPServer(ctx context.Context, name, workspace string) (backend.MCPSettingsView, error)
	TestMCPServer(ctx context.Context, s backend.MCPServerEntry, workspace string) backend.MCPTestResult
	UserFiles(workspace string) backend.UserFilesView
	Status(ctx context.Context, sessionID, workspace string) (backend.StatusView, error)
	Running(sessionID string) bool
	Prompt(ctx context.Context, sessionID string, turn, iteration int) (backend.PromptView, error)
	CallOutput(ctx context.Context, sessionID string, turn, iter, call, offset, limit int) (backend.OutputPage, error)
	TurnDiff(ctx context.Context, sessionID string, turn int, patch bool) (backend.TurnDiff, error)
	UndoTurn(ctx context.Context, sessionID string, turn int, mode backend.UndoMode) (backend.UndoView, error)
	RevertChange(ctx context.Context, sessionID string, turn int, path string, hunk int, mode backend.UndoMode) (backend.UndoView, error)
	SessionChanges(ctx context.Context, sessionID string) (backend.SessionChanges, error)
	SessionFileDiff(ctx context.Context, sessionID, path string) (backend.FileChange, error)
	Settings(ctx context.Context) (backend.SettingsView, error)
	SaveSettings(ctx context.Context, req backend.SaveSettingsRequest) (backend.SettingsView, error)
	ListModels(ctx context.Context, baseURL string, apiKey *string) ([]string, error)
	TestConnection(ctx context.Context, baseURL, model string, apiKey *string) backend.ConnectionVerdict
	DetectLocal(ctx context.Context) []config.Preset
	Image(ctx context.Context, sessionID string, id int64) ([]byte, string, error)
	CheckImages(ctx context.Context, sessionID, workspace string, in []attach.Input) ([]attach.Verdict, error)
	Goal(ctx context.Context, sessionID string) (*goals.Goal, error)
	Resources(ctx context.Context, sessionID string) []ext.ResourceInfo
	StopResource(ctx context.Context, sessionID, id string) (ext.StopResult, error)
	RestartResource(ctx context.Context, sessionID, id string) error
	ResourceLogs(sessionID, id string, n int) (string, error)
	SetSessionMode(ctx context.Context, sessionID, mode string) error
	RerunUnconfined(ctx context.Context, sessionID string, turn, iter, call int) (backend.Accepted, error)
	AnswerApproval(sessionID, id string, approve bool) error
	SetAskOnRefusal(on bool) error
	SetNotifications(turnEnd, input bool) error
	Fork(ctx context.Context, sessionID string, keep int) (backend.SessionInfo, error)
	TrustWorkspace(ctx context.Context, workspace string) error
}

var _ Engine = (*backend.Engine)(nil)

package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/visdesktop/vis/backend/chat"
)

// Turn statuses. A turn is running until FinishTurn (or InterruptRunning)
// gives it one of the others.
const (
	TurnRunning     = "running"
	TurnDone        = "done"
	TurnError       = "error"
	TurnCancelled   = "cancelled"
	TurnInterrupted = "interrupted"
	TurnHalted      = "halted"
)

// Iteration statuses.
const (
	IterationDone      = "done"
	IterationError     = "error"
	IterationCancelled = "cancelled"
)

// InterruptedError is the error InterruptRunning gives turns that a previous
// process left running.
const InterruptedError = "the app stopped before this turn finished"

// Turn is one user request and what came of it. Position counts 1..n within
// the session. Finished is zero while the turn runs.
type Turn struct {
	ID         int64
	SessionID  string
	Position   int
	Request    string
	Channel    string
	Status     string
	Answer     string
	Error      string
	Iterations int
	Usage      chat.Usage
	CostUSD    float64
	PromptJSON string // the turn's initial provider messages (JSON); see GetTurn
	Started    time.Time
	Finished   time.Time
	DurationMs int64
}

// TurnOutcome is how a turn ended.
type TurnOutcome struct {
	Status     string // done, error, cancelled, interrupted or halted
	Answer     string
	Error      string
	Iterations int
	Usage      chat.Usage
	CostUSD    float64
	DurationMs int64 // 0 = measured from the turn's start to now
}

// Iteration is one provider round trip and the program it ran. Position
// counts 1..n within the turn.
//
// The messages sent for iteration N's request are kept without repeating
// them: they are the turn's PromptJSON followed by the AppendedJSON of
// iterations 1..N-1 — unless the loop compacted the request to fit the
// context window (settled outputs replaced by stubs, the recap's oldest
// turns dropped), which breaks that prefix. Such an iteration records its
// request as sent in RequestJSON, and from then on the rule starts there:
// the request of iteration N is the newest RequestJSON at or before N (see
// RecordedRequest), else PromptJSON, followed by the AppendedJSON of every
// iteration from that one up to N-1. An iteration whose request was not
// compacted records no RequestJSON, so ordinary turns store nothing more.
type Iteration struct {
	ID            int64
	TurnID        int64
	Position      int
	Status        string // done, error or cancelled
	Code          string
	Output        string
	Error         string
	Prose         string
	Reasoning     string
	Answer        string
	Model         string
	ToolCallsJSON string // JSON, or ""
	AppendedJSON  string // messages this iteration appended after its request (JSON), or ""
	Usage         chat.Usage
	Started       time.Time
	Finished      time.Time
	LLMMs         int64
	EvalMs        int64
	// RequestJSON is this iteration's request (JSON messages) when the loop
	// compacted it, else "" (stored as NULL). Written by AddIteration; read
	// back with RecordedRequest (ListIterations leaves it empty: it can be
	// as large as the context window and only the prompt inspector needs it).
	RequestJSON string
	// Outputs are the kept outputs of the programs whose output
	// ToolCallsJSON holds clipped (see CallOutput). Written by
	// AddIteration; read back with KeptOutput, never by ListIterations.
	Outputs []CallOutput
	// Images are the images the programs' tools returned (an MCP tool's
	// screenshot), stored with the iteration like the person's images
	// (AddImage; TurnID and IterationID are set here). Written by
	// AddIteration; listed by ListAttachments with their iteration.
	Images []Image
}

// StartTurn records a new running turn at the next position of the session
// and moves the session to the top of lists. An absent session is reported
// with ErrNotFound.
func (s *Store) StartTurn(ctx context.Context, sessionID, request, channel string) (Turn, error) {
	now := s.now()
	t := Turn{SessionID: sessionID, Request: request, Channel: channel, Status: TurnRunning,
		Started: time.UnixMilli(now.UnixMilli())}
	err := s.write(ctx, func(tx *sql.Tx) error {
		if err := touch(ctx, tx, sessionID, now); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `
			INSERT INTO turns (session_id, position, request, channel, status, started_at, owner)
			VALUES (?1, (SELECT coalesce(max(position), 0) + 1 FROM turns WHERE session_id = ?1), ?2, ?3, 'running', ?4, ?5)
			RETURNING id, position`,
			sessionID, request, channel, ms(now), processOwner).Scan(&t.ID, &t.Position)
	})
	if err != nil {
		return Turn{}, fmt.Errorf("start turn in session %s: %w", sessionID, err)
	}
	return t, nil
}

// SetTurnPrompt stores the turn's initial provider messages as JSON, for the
// prompt inspector (GetTurn gives the same bytes back). A JSON array is
// kept as its messages, each stored once however many turns send it
// (prompt_blocks, migration 0013); anything else is kept whole.
func (s *Store) SetTurnPrompt(ctx context.Context, turnID int64, promptJSON string) error {
	blocks, ok := splitPrompt(promptJSON)
	err := s.write(ctx, func(tx *sql.Tx) error {
		if !ok {
			res, err := tx.ExecContext(ctx, `UPDATE turns SET prompt_json = ?, prompt_blocks = '' WHERE id = ?`, promptJSON, turnID)
			if err != nil {
				return err
			}
			return affected(res, "no such turn")
		}
		var sessionID string
		err := tx.QueryRowContext(ctx, `SELECT session_id FROM turns WHERE id = ?`, turnID).Scan(&sessionID)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("no such turn: %w", ErrNotFound)
		}
		if err != nil {
			return err
		}
		find, err := s.txStmt(ctx, tx, qFindPromptBlock)
		if err != nil {
			return err
		}
		ins, err := s.txStmt(ctx, tx, qAddPromptBlock)
		if err != nil {
			return err
		}
		ids := make([]int64, len(blocks))
		for i, b := range blocks {
			text := string(b)
			if sessionID != "" {
				text = strings.ReplaceAll(text, sessionID, "\x00")
			}
			sum := sha256.Sum256([]byte(text))
			err := find.QueryRowContext(ctx, sum[:]).Scan(&ids[i])
			if errors.Is(err, sql.ErrNoRows) {
				err = ins.QueryRowContext(ctx, sum[:], text).Scan(&ids[i])
			}
			if err != nil {
				return err
			}
		}
		list, _ := json.Marshal(promptList{Session: sessionID, Blocks: ids})
		set, err := s.txStmt(ctx, tx, qSetTurnPromptBlocks)
		if err != nil {
			return err
		}
		res, err := set.ExecContext(ctx, string(list), turnID)
		if err != nil {
			return err
		}
		return affected(res, "no such turn")
	})
	if err != nil {
		return fmt.Errorf("set prompt of turn %d: %w", turnID, err)
	}
	return nil
}

// splitPrompt cuts a JSON array into its elements' exact bytes; ok is
// false unless '[' + the elements joined by ',' + ']' is the input byte
// for byte (compact JSON, as json.Marshal writes it) and each element is
// a JSON object.
func splitPrompt(promptJSON string) (blocks []json.RawMessage, ok bool) {
	if err := json.Unmarshal([]byte(promptJSON), &blocks); err != nil || blocks == nil {
		return nil, false
	}
	n := 2
	for _, b := range blocks {
		if len(b) == 0 || b[0] != '{' {
			return nil, false
		}
		n += len(b) + 1
	}
	var sb strings.Builder
	sb.Grow(n)
	sb.WriteByte('[')
	for i, b := range blocks {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.Write(b)
	}
	sb.WriteByte(']')
	return blocks, sb.String() == promptJSON
}

// promptList is a turn's prompt_blocks: its messages' block ids in order,
// and the session id cut out of them (the session the prompt was sent in:
// a forked session's copied turns keep their parent's).
type promptList struct {
	Session string  `json:"session,omitempty"`
	Blocks  []int64 `json:"blocks"`
}

// promptFromBlocks rebuilds a turn's prompt from its prompt_blocks list;
// "" when the turn has none.
func (s *Store) promptFromBlocks(ctx context.Context, turnID int64) (string, error) {
	var raw string
	if err := s.db.QueryRowContext(ctx, `SELECT prompt_blocks FROM turns WHERE id = ?`, turnID).Scan(&raw); err != nil {
		return "", err
	}
	if raw == "" {
		return "", nil
	}
	var list promptList
	if err := json.Unmarshal([]byte(raw), &list); err != nil {
		return "", fmt.Errorf("prompt blocks of turn %d: %w", turnID, err)
	}
	ids, sessionID := list.Blocks, list.Session
	idsJSON, _ := json.Marshal(ids)
	rows, err := s.db.QueryContext(ctx, `
		SELECT b.text FROM json_each(?) j JOIN prompt_blocks b ON b.id = j.value ORDER BY j.key`, string(idsJSON))
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var sb strings.Builder
	sb.WriteByte('[')
	n := 0
	for rows.Next() {
		var text string
		if err := rows.Scan(&text); err != nil {
			return "", err
		}
		if n > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strings.ReplaceAll(text, "\x00", sessionID))
		n++
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	if n != len(ids) {
		return "", fmt.Errorf("prompt of turn %d: %d of its %d messages are missing", turnID, len(ids)-n, len(ids))
	}
	sb.WriteByte(']')
	return sb.String(), nil
}

// FinishTurn records how the turn ended and moves its session to the top of
// lists.
func (s *Store) FinishTurn(ctx context.Context, turnID int64, o TurnOutcome) error {
	switch o.Status {
	case TurnDone, TurnError, TurnCancelled, TurnInterrupted, TurnHalted:
	default:
		return fmt.Errorf("finish turn %d: invalid status %q", turnID, o.Status)
	}
	now := s.now()
	err := s.write(ctx, func(tx *sql.Tx) error {
		var sessionID string
		err := tx.QueryRowContext(ctx, `
			UPDATE turns SET status = ?, answer = ?, error = ?, iterations = ?,
				input_tokens = ?, output_tokens = ?, cached_tokens = ?, reasoning_tokens = ?,
				cost_usd = ?, finished_at = ?,
				duration_ms = CASE WHEN ? > 0 THEN ? ELSE max(0, ? - started_at) END
			WHERE id = ? RETURNING session_id`,
			o.Status, o.Answer, o.Error, o.Iterations,
			o.Usage.InputTokens, o.Usage.OutputTokens, o.Usage.CachedTokens, o.Usage.ReasoningTokens,
			o.CostUSD, ms(now), o.DurationMs, o.DurationMs, ms(now), turnID).Scan(&sessionID)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("no such turn: %w", ErrNotFound)
		}
		if err != nil {
			return err
		}
		return touch(ctx, tx, sessionID, now)
	})
	if err != nil {
		return fmt.Errorf("finish turn %d: %w", turnID, err)
	}
	return nil
}

const turnCols = `id, session_id, position, request, channel, status, answer, error, iterations,
	input_tokens, output_tokens, cached_tokens, reasoning_tokens, cost_usd, %s, started_at, finished_at, duration_ms`

func scanTurn(sc interface{ Scan(...any) error }) (Turn, error) {
	var t Turn
	var started int64
	var finished sql.NullInt64
	err := sc.Scan(&t.ID, &t.SessionID, &t.Position, &t.Request, &t.Channel, &t.Status, &t.Answer, &t.Error,
		&t.Iterations, &t.Usage.InputTokens, &t.Usage.OutputTokens, &t.Usage.CachedTokens,
		&t.Usage.ReasoningTokens, &t.CostUSD, &t.PromptJSON, &started, &finished, &t.DurationMs)
	if err != nil {
		return Turn{}, err
	}
	t.Started, t.Finished = fromMs(started), fromNullMs(finished)
	return t, nil
}

// GetTurn returns one turn, PromptJSON included.
func (s *Store) GetTurn(ctx context.Context, id int64) (Turn, error) {
	row := s.db.QueryRowContext(ctx, `SELECT `+fmt.Sprintf(turnCols, "prompt_json")+` FROM turns WHERE id = ?`, id)
	t, err := scanTurn(row)
	if errors.Is(err, sql.ErrNoRows) {
		return Turn{}, fmt.Errorf("get turn %d: %w", id, ErrNotFound)
	}
	if err == nil && t.PromptJSON == "" {
		t.PromptJSON, err = s.promptFromBlocks(ctx, id)
	}
	if err != nil {
		return Turn{}, fmt.Errorf("get turn %d: %w", id, err)
	}
	return t, nil
}

// ListTurns returns the session's turns by position. PromptJSON is left empty
// (it can be large and only the prompt inspector needs it: use GetTurn). An
// absent session yields an empty list.
func (s *Store) ListTurns(ctx context.Context, sessionID string) ([]Turn, error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT `+fmt.Sprintf(turnCols, "''")+` FROM turns WHERE session_id = ? ORDER BY position`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("list turns of %s: %w", sessionID, err)
	}
	defer rows.Close()
	out := []Turn{}
	for rows.Next() {
		t, err := scanTurn(rows)
		if err != nil {
			return nil, fmt.Errorf("list turns of %s: %w", sessionID, err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list turns of %s: %w", sessionID, err)
	}
	return out, nil
}

// AddIteration records one finished iteration of a turn and commits it, and
// returns its id. A zero Position takes the next one; a zero Finished is now
// and a zero Started is Finished. The turn's iteration count follows the
// highest position. An absent turn is reported with ErrNotFound.
func (s *Store) AddIteration(ctx context.Context, it Iteration) (int64, error) {
	switch it.Status {
	case IterationDone, IterationError, IterationCancelled:
	default:
		return 0, fmt.Errorf("add iteration to turn %d: invalid status %q", it.TurnID, it.Status)
	}
	if it.Finished.IsZero() {
		it.Finished = s.now()
	}
	if it.Started.IsZero() {
		it.Started = it.Finished
	}
	var id int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		var pos int
		ins, err := s.txStmt(ctx, tx, qAddIteration)
		if err != nil {
			return err
		}
		err = ins.QueryRowContext(ctx,
			it.TurnID, it.Position, it.Status, it.Code, it.Output, it.Error, it.Prose, it.Reasoning, it.Answer,
			it.Model, it.ToolCallsJSON, it.AppendedJSON, it.Usage.InputTokens, it.Usage.OutputTokens,
			it.Usage.CachedTokens, it.Usage.ReasoningTokens, ms(it.Started), ms(it.Finished), it.LLMMs, it.EvalMs,
			it.RequestJSON,
		).Scan(&id, &pos)
		if err != nil {
			if isForeignKey(err) {
				return fmt.Errorf("no such turn: %w", ErrNotFound)
			}
			return err
		}
		if err := addOutputs(ctx, tx, id, it.Outputs); err != nil {
			return err
		}
		for _, img := range it.Images {
			img.TurnID, img.IterationID = it.TurnID, id
			if _, err := s.addImage(ctx, tx, img); err != nil {
				return fmt.Errorf("image %q: %w", img.Name, err)
			}
		}
		count, err := s.txStmt(ctx, tx, qCountIteration)
		if err != nil {
			return err
		}
		_, err = count.ExecContext(ctx, pos, it.TurnID)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("add iteration to turn %d: %w", it.TurnID, err)
	}
	return id, nil
}

// ListIterations returns the turn's iterations by position. RequestJSON is
// left empty: use RecordedRequest.
func (s *Store) ListIterations(ctx context.Context, turnID int64) ([]Iteration, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT id, turn_id, position, status, code, output, error, prose, reasoning, answer, model,
			tool_calls_json, appended_json, input_tokens, output_tokens, cached_tokens, reasoning_tokens,
			started_at, finished_at, llm_ms, eval_ms
		FROM iterations WHERE turn_id = ? ORDER BY position`, turnID)
	if err != nil {
		return nil, fmt.Errorf("list iterations of turn %d: %w", turnID, err)
	}
	defer rows.Close()
	out := []Iteration{}
	for rows.Next() {
		var it Iteration
		var started, finished int64
		err := rows.Scan(&it.ID, &it.TurnID, &it.Position, &it.Status, &it.Code, &it.Output, &it.Error,
			&it.Prose, &it.Reasoning, &it.Answer, &it.Model, &it.ToolCallsJSON, &it.AppendedJSON,
			&it.Usage.InputTokens, &it.Usage.OutputTokens, &it.Usage.CachedTokens, &it.Usage.ReasoningTokens,
			&started, &finished, &it.LLMMs, &it.EvalMs)
		if err != nil {
			return nil, fmt.Errorf("list iterations of turn %d: %w", turnID, err)
		}
		it.Started, it.Finished = fromMs(started), fromMs(finished)
		out = append(out, it)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list iterations of turn %d: %w", turnID, err)
	}
	return out, nil
}

// RecordedRequest returns the newest request recorded (Iteration.RequestJSON)
// by an iteration of the turn at or before position iter, and that
// iteration's position; 0 and "" when none was (the request of iteration iter
// is then the turn's PromptJSON plus the AppendedJSON of the iterations
// before it). An absent turn is not an error: it has recorded nothing.
func (s *Store) RecordedRequest(ctx context.Context, turnID int64, iter int) (position int, requestJSON string, err error) {
	err = s.db.QueryRowContext(ctx, `
		SELECT position, request_json FROM iterations
		WHERE turn_id = ? AND position <= ? AND request_json IS NOT NULL
		ORDER BY position DESC LIMIT 1`, turnID, iter).Scan(&position, &requestJSON)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", nil
	}
	if err != nil {
		return 0, "", fmt.Errorf("recorded request of turn %d at iteration %d: %w", turnID, iter, err)
	}
	return position, requestJSON, nil
}

// InterruptRunning marks every turn still running (left so by a process that
// stopped mid-turn) as interrupted with InterruptedError, and returns how many
// it changed. Call it once at start-up, before any turn starts. Each such
// turn keeps its iterations; its counts and usage become their sums and it
// ends when its last iteration finished.
func (s *Store) InterruptRunning(ctx context.Context) (int, error) {
	// Only turns whose process is gone: another live process (the window
	// while the CLI starts, or the other way round) keeps its turns.
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT owner FROM turns WHERE status = 'running'`)
	if err != nil {
		return 0, fmt.Errorf("interrupt running turns: %w", err)
	}
	var dead []any
	for rows.Next() {
		var o string
		if err := rows.Scan(&o); err != nil {
			rows.Close()
			return 0, fmt.Errorf("interrupt running turns: %w", err)
		}
		if !ownerAlive(o) {
			dead = append(dead, o)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("interrupt running turns: %w", err)
	}
	if len(dead) == 0 {
		return 0, nil
	}
	var n int64
	err = s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `
			UPDATE turns SET
				status = 'interrupted',
				error = ?,
				iterations = (SELECT count(*) FROM iterations i WHERE i.turn_id = turns.id),
				input_tokens = (SELECT coalesce(sum(input_tokens), 0) FROM iterations i WHERE i.turn_id = turns.id),
				output_tokens = (SELECT coalesce(sum(output_tokens), 0) FROM iterations i WHERE i.turn_id = turns.id),
				cached_tokens = (SELECT coalesce(sum(cached_tokens), 0) FROM iterations i WHERE i.turn_id = turns.id),
				reasoning_tokens = (SELECT coalesce(sum(reasoning_tokens), 0) FROM iterations i WHERE i.turn_id = turns.id),
				finished_at = max(started_at, coalesce((SELECT max(finished_at) FROM iterations i WHERE i.turn_id = turns.id), 0)),
				duration_ms = max(started_at, coalesce((SELECT max(finished_at) FROM iterations i WHERE i.turn_id = turns.id), 0)) - started_at
			WHERE status = 'running' AND owner IN (`+placeholders(len(dead))+`)`, append([]any{InterruptedError}, dead...)...)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("interrupt running turns: %w", err)
	}
	return int(n), nil
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

package provider

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/chat"
)

// errIdle is the cancel cause when no byte arrived for IdleTimeout.
var errIdle = errors.New("idle timeout")

// attempt is one HTTP request: its ctx (cancelled by the idle watchdog),
// and what the transport saw of the response.
type attempt struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	idle   time.Duration
	timer  *time.Timer
	// body, when set, is the request body sent in place of the one
	// go-openai marshalled (wire.go).
	body []byte

	// Written by doer.Do in the calling goroutine, before the body is read.
	status  int
	header  http.Header
	started bool // a 2xx response arrived
}

type attemptKey struct{}

func (c *Client) newAttempt(parent context.Context) *attempt {
	att := &attempt{idle: c.cfg.IdleTimeout}
	ctx, cancel := context.WithCancelCause(parent)
	att.ctx = context.WithValue(ctx, attemptKey{}, att)
	att.cancel = cancel
	att.timer = time.AfterFunc(att.idle, func() { cancel(errIdle) })
	return att
}

// touch re-arms the idle watchdog; called on every body read.
func (a *attempt) touch() { a.timer.Reset(a.idle) }

func (a *attempt) end() {
	a.timer.Stop()
	a.cancel(nil)
}

func (a *attempt) ctxOrNil() context.Context {
	if a == nil {
		return context.Background()
	}
	return a.ctx
}

func (a *attempt) retryAfter() time.Duration {
	if a.header == nil || (a.status != http.StatusTooManyRequests && a.status != http.StatusServiceUnavailable) {
		return 0
	}
	return parseRetryAfter(a.header, time.Now())
}

// dialingWithin is the default transport with a dial bounded by d, one
// per distinct d for the process: a client is made per turn, and a
// transport per client would keep each turn's idle connections (two
// goroutines and a descriptor each) until they time out.
func dialingWithin(d time.Duration) *http.Transport {
	transportsMu.Lock()
	defer transportsMu.Unlock()
	if t, ok := transports[d]; ok {
		return t
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: d, KeepAlive: 30 * time.Second}).DialContext
	transports[d] = t
	return t
}

var (
	transportsMu sync.Mutex
	transports   = map[time.Duration]*http.Transport{}
)

// isConnectTimeout reports whether err is a dial that timed out (not the
// caller's cancel, not the idle watchdog).
func isConnectTimeout(err error) bool {
	var oe *net.OpError
	return errors.As(err, &oe) && oe.Op == "dial" && oe.Timeout()
}

// doer is the go-openai HTTPDoer: it adds the configured headers, records
// status and headers of the response (go-openai does not expose them, and
// Retry-After lives there), and feeds the idle watchdog.
type doer struct {
	base    *http.Client
	headers map[string]string
	cache   bool // mark prompt-cache breakpoints (cache.go)
}

func (d *doer) Do(req *http.Request) (*http.Response, error) {
	for k, v := range d.headers {
		req.Header.Set(k, v)
	}
	if att, _ := req.Context().Value(attemptKey{}).(*attempt); att != nil && att.body != nil && req.Body != nil {
		req.Body.Close()
		body := att.body
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	if d.cache {
		markCache(req)
	}
	resp, err := d.base.Do(req)
	att, _ := req.Context().Value(attemptKey{}).(*attempt)
	if att == nil || resp == nil {
		return resp, err
	}
	att.touch()
	att.status = resp.StatusCode
	att.header = resp.Header
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		att.started = true
	}
	resp.Body = &idleBody{ReadCloser: resp.Body, att: att}
	return resp, err
}

type idleBody struct {
	io.ReadCloser
	att *attempt
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.att.touch()
	}
	return n, err
}

// wireChunk is one streamed chunk as OpenAI-compatible servers send it. We
// decode it ourselves because go-openai's delta lacks "reasoning".
type wireChunk struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Content          string `json:"content"`
			ReasoningContent string `json:"reasoning_content"`
			Reasoning        string `json:"reasoning"`
			ToolCalls        []struct {
				Index    *int   `json:"index"`
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	// Error is OpenRouter's mid-stream error (with finish_reason "error").
	Error *struct {
		Code    any    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Usage *struct {
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		PromptTokensDetails *struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
		CompletionTokensDetails *struct {
			ReasoningTokens int `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
	} `json:"usage"`
}

// assembler accumulates one reply.
type assembler struct {
	content   strings.Builder // Builder.String does not copy: Total is cheap
	reasoning strings.Builder
	calls     map[int]*toolAcc
	lastIndex int
	finish    string
	model     string
	usage     chat.Usage
	hasUsage  bool
	output    bool // any reasoning, content or tool bytes arrived
}

type toolAcc struct {
	id, name string
	args     strings.Builder
}

func (a *assembler) add(ch *wireChunk, on func(Delta)) {
	if ch.Model != "" {
		a.model = ch.Model
	}
	if u := ch.Usage; u != nil {
		a.hasUsage = true
		a.usage = chat.Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens}
		if u.PromptTokensDetails != nil {
			a.usage.CachedTokens = u.PromptTokensDetails.CachedTokens
		}
		if u.CompletionTokensDetails != nil {
			a.usage.ReasoningTokens = u.CompletionTokensDetails.ReasoningTokens
		}
	}
	for i := range ch.Choices {
		choice := &ch.Choices[i]
		if choice.Index != 0 {
			continue // we never ask for n > 1
		}
		d := &choice.Delta
		r := d.ReasoningContent
		if r == "" {
			r = d.Reasoning
		}
		if r != "" {
			a.output = true
			a.reasoning.WriteString(r)
			on(Delta{Kind: DeltaReasoning, Text: r, Total: a.reasoning.String()})
		}
		if d.Content != "" {
			a.output = true
			a.content.WriteString(d.Content)
			on(Delta{Kind: DeltaContent, Text: d.Content, Total: a.content.String()})
		}
		for _, tc := range d.ToolCalls {
			idx := a.toolIndex(tc.Index, tc.ID)
			acc := a.calls[idx]
			if acc == nil {
				acc = &toolAcc{}
				if a.calls == nil {
					a.calls = map[int]*toolAcc{}
				}
				a.calls[idx] = acc
			}
			// Some servers repeat id and name on every fragment: keep the first.
			if acc.id == "" {
				acc.id = tc.ID
			}
			if acc.name == "" {
				acc.name = tc.Function.Name
			}
			acc.args.WriteString(tc.Function.Arguments)
			a.output = true
			on(Delta{Kind: DeltaTool, Text: tc.Function.Arguments, Total: acc.args.String(),
				ToolIndex: idx, ToolID: acc.id, ToolName: acc.name})
		}
		if choice.FinishReason != nil && *choice.FinishReason != "" {
			a.finish = *choice.FinishReason
		}
	}
}

// toolIndex resolves a fragment's call index. Servers that omit index get
// 0 for the first call; a fragment with a new id then starts the next call,
// one without an id continues the last.
func (a *assembler) toolIndex(index *int, id string) int {
	if index != nil {
		a.lastIndex = *index
		return *index
	}
	if len(a.calls) == 0 {
		a.lastIndex = 0
		return 0
	}
	if id != "" {
		if last := a.calls[a.lastIndex]; last != nil && last.id != "" && last.id != id {
			next := 0
			for k := range a.calls {
				next = max(next, k+1)
			}
			a.lastIndex = next
		}
	}
	return a.lastIndex
}

func (a *assembler) response() Response {
	r := Response{
		Content:      a.content.String(),
		Reasoning:    a.reasoning.String(),
		FinishReason: a.finish,
		Usage:        a.usage,
		HasUsage:     a.hasUsage,
		Model:        a.model,
	}
	idx := make([]int, 0, len(a.calls))
	for k := range a.calls {
		idx = append(idx, k)
	}
	sort.Ints(idx)
	for _, k := range idx {
		c := a.calls[k]
		r.ToolCalls = append(r.ToolCalls, chat.ToolCall{ID: c.id, Name: c.name, Arguments: c.args.String()})
	}
	return r
}

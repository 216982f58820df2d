// Package provider is the client for OpenAI-compatible chat endpoints
// (OpenAI, OpenRouter, Ollama, LM Studio, vLLM, llama.cpp...). It is the only
// package that imports go-openai.
//
// Contract:
//   - Stream sends one streaming chat completion with exactly one tool,
//     python_execution (none when Config.NoTools), and calls on for every
//     reasoning, content and tool-call fragment as it arrives, from the
//     calling goroutine. It returns the assembled Response.
//   - Retries are internal and bounded: 429 (honouring Retry-After, capped
//     by RetryMax), 5xx, 408 and connection failures are retried up to
//     MaxRetries times with exponential backoff; a stream that breaks (or a
//     call that receives nothing for IdleTimeout, before the response or
//     inside the stream) before any output is re-issued up to 2 times.
//     Request.OnRetry is called before each wait. 401/403, 404 and other
//     4xx are never retried; a refused connection, an unknown host or a
//     connection not made within ConnectTimeout only twice, quickly
//     (250 ms, 500 ms); a TLS failure never.
//   - Error.Code and Error.Sentence (explain.go) say what went wrong and
//     what to do, in one sentence without Go's error text.
//   - Every error is a *Error whose Kind tells the cases apart; its text
//     names endpoint and model, never the API key. A stream that breaks
//     after some output returns the partial Response with
//     Kind stream_broken and Partial true.
//   - Cancelling ctx stops the stream and any retry wait at once; the
//     error's Kind is cancelled and the Response holds what had arrived.
//   - A Client is safe for concurrent use by several goroutines; it starts
//     no goroutines of its own beyond the idle timer of a running call.
//
// Reasoning arrives as reasoning_content (DeepSeek, vLLM, LM Studio,
// llama.cpp) or reasoning (OpenRouter, Ollama); both are read, because the
// stream is decoded by this package (go-openai's decoder drops "reasoning").
// Reasoning is never sent back to the model.
package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/visdesktop/vis/backend/chat"
)

// ToolName is the single tool the model can call.
const ToolName = "python_execution"

// ToolDescription is the tool's description sent to the model.
const ToolDescription = "Run a program in this session's sandbox. The language is Starlark, a dialect of Python: " +
	"write ordinary Python (def, for/while, if, comprehensions, f-strings, slicing, dicts, import json/re/math), " +
	"but there is no try/except, no class and no with statement. " +
	"Only what the program print()s comes back to you, so print exactly what you need and nothing more; " +
	"batch several steps in one program, filter and chain results in code instead of making many calls. " +
	"Global variables and functions persist across calls and across turns. " +
	"Your tools are functions already defined in the sandbox: call doc() to list them with their signatures. " +
	"Raw result: the tool result is exactly the captured print output of the program, and an evaluation failure " +
	"(syntax or runtime error) is returned as a failed tool result carrying the error message."

// codeDescription describes the tool's single parameter.
const codeDescription = "The Starlark (Python dialect) program to run. Use print() for everything you want to see."

// Default tuning.
const (
	defaultMaxRetries     = 4
	defaultRetryBase      = time.Second
	defaultRetryMax       = 60 * time.Second
	defaultIdleTimeout    = 120 * time.Second
	defaultConnectTimeout = 15 * time.Second
	// maxReissues bounds re-issuing a stream that broke before any output.
	maxReissues = 2
	// refusedRetries and refusedDelay: a refused connection (or an unknown
	// host) is retried this many times, the first after refusedDelay
	// (doubling), at most RetryBase.
	refusedRetries = 2
	refusedDelay   = 250 * time.Millisecond
)

// Config says where and how to call the model.
type Config struct {
	BaseURL string // e.g. http://127.0.0.1:1234/v1 (with /v1)
	APIKey  string // may be empty for loopback endpoints
	Model   string
	Headers map[string]string
	// NoTools: the model cannot call tools; send no tools (the loop then
	// reads a fenced code block from the content).
	NoTools bool
	// MaxRetries bounds transport retries for 429/5xx/connection errors;
	// 0 = 4, negative = none.
	MaxRetries int
	RetryBase  time.Duration // first backoff; 0 = 1s
	RetryMax   time.Duration // cap of one wait, Retry-After included; 0 = 60s
	// IdleTimeout: a call that receives no byte for this long (waiting for
	// the response or inside the stream) is treated as a broken stream;
	// 0 = 120 s (the config's provider.idle_timeout_seconds). Generous
	// because local servers may process a long prompt for a minute before
	// the first token.
	IdleTimeout time.Duration
	// ConnectTimeout bounds making the connection (dial; TLS has the
	// transport's own 10 s); 0 = 15 s. It applies when HTTPClient is nil.
	ConnectTimeout time.Duration
	// IdleWhere and ConnectWhere say where the two timeouts are configured
	// (e.g. "provider.idle_timeout_seconds: unset, default 120"); the
	// timeout's sentence names them, "" leaves them out.
	IdleWhere, ConnectWhere string
	HTTPClient              *http.Client // nil = a client without overall timeout, dialing within ConnectTimeout
	// CacheControl marks prompt-cache breakpoints (cache.go); the caller
	// decides, usually with WantsCacheControl.
	CacheControl bool
}

// Request is one model call.
type Request struct {
	Messages []chat.Message
	// ReasoningEffort "", "low", "medium", "high": sent as
	// reasoning_effort only when set.
	ReasoningEffort string
	MaxTokens       int             // 0 = unset
	OnRetry         func(RetryInfo) // called before each retry wait
	// Cache, when set, keeps each message's wire JSON for the next
	// request of the same conversation (wire.go); nil marshals them all.
	Cache *MessageCache
}

// RetryInfo describes a retry about to happen.
type RetryInfo struct {
	Attempt int           // 1 for the first retry
	Delay   time.Duration // how long we wait before it
	Err     *Error        // what failed
}

// Delta is one streamed fragment.
type Delta struct {
	Kind      string // "reasoning", "content", "tool"
	Text      string // the new fragment
	Total     string // cumulative text of that kind (for "tool": cumulative arguments of that call)
	ToolIndex int
	ToolID    string
	ToolName  string
}

// Delta kinds.
const (
	DeltaReasoning = "reasoning"
	DeltaContent   = "content"
	DeltaTool      = "tool"
)

// Response is an assembled reply.
type Response struct {
	Content   string
	Reasoning string
	ToolCalls []chat.ToolCall // assembled by index, in index order
	// FinishReason as the server said: "stop", "tool_calls", "length"...
	FinishReason string
	Usage        chat.Usage
	HasUsage     bool
	Model        string // the model the server says answered
}

// Client calls one endpoint and model.
type Client struct {
	cfg Config
	oa  *openai.Client
}

// New validates cfg and returns a client.
func New(cfg Config) (*Client, error) {
	cfg.BaseURL = strings.TrimRight(strings.TrimSpace(cfg.BaseURL), "/")
	cfg.Model = strings.TrimSpace(cfg.Model)
	if cfg.BaseURL == "" {
		return nil, errors.New("provider: base URL is empty (e.g. http://127.0.0.1:1234/v1)")
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("provider: base URL %q is not an http(s) URL (e.g. http://127.0.0.1:1234/v1)", cfg.BaseURL)
	}
	if u.User != nil {
		return nil, fmt.Errorf("provider: base URL %s must not carry credentials; set the API key instead", u.Redacted())
	}
	if cfg.Model == "" {
		return nil, fmt.Errorf("provider %s: no model is set", cfg.BaseURL)
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = defaultMaxRetries
	} else if cfg.MaxRetries < 0 {
		cfg.MaxRetries = 0
	}
	if cfg.RetryBase <= 0 {
		cfg.RetryBase = defaultRetryBase
	}
	if cfg.RetryMax <= 0 {
		cfg.RetryMax = defaultRetryMax
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = defaultIdleTimeout
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = defaultConnectTimeout
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Transport: dialingWithin(cfg.ConnectTimeout)}
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = cfg.BaseURL
	oc.HTTPClient = &doer{base: sameOriginRedirects(hc), headers: cfg.Headers, cache: cfg.CacheControl}
	return &Client{cfg: cfg, oa: openai.NewClientWithConfig(oc)}, nil
}

// Endpoint returns the normalised base URL.
func (c *Client) Endpoint() string { return c.cfg.BaseURL }

// Model returns the configured model.
func (c *Client) Model() string { return c.cfg.Model }

// ListModels returns the model ids GET {base}/models lists, with the same
// retry policy as Stream.
func (c *Client) ListModels(ctx context.Context) ([]string, error) {
	var ids []string
	err := c.retry(ctx, nil, func(att *attempt) *Error {
		list, err := c.oa.ListModels(att.ctx)
		if err != nil {
			return c.classify(ctx, err, att, false)
		}
		ids = ids[:0]
		for _, m := range list.Models {
			ids = append(ids, m.ID)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// Stream sends req and streams the reply, calling on (if non-nil) for
// every fragment. See the package comment for retries and errors.
func (c *Client) Stream(ctx context.Context, req Request, on func(Delta)) (Response, error) {
	creq, body, berr := c.buildRequest(req)
	if berr != nil {
		return Response{}, berr
	}
	if on == nil {
		on = func(Delta) {}
	}
	var resp Response
	err := c.retry(ctx, req.OnRetry, func(att *attempt) *Error {
		var asm assembler
		att.body = body
		perr := c.streamOnce(ctx, att, creq, &asm, on)
		resp = asm.response()
		return perr
	})
	if err != nil {
		return resp, err
	}
	return resp, nil
}

// retry runs one attempt after another until success, a non-retryable
// error, an exhausted budget, or ctx's end.
func (c *Client) retry(ctx context.Context, onRetry func(RetryInfo), once func(*attempt) *Error) error {
	transport, reissues, n := 0, 0, 0
	for {
		att := c.newAttempt(ctx)
		perr := once(att)
		att.end()
		if perr == nil {
			return nil
		}
		if ctx.Err() != nil {
			perr.Kind, perr.Message, perr.Status = KindCancelled, "", 0
			return perr
		}
		var delay time.Duration
		switch {
		case perr.Kind == KindStreamBroken && !perr.Partial && reissues < maxReissues:
			delay = c.backoff(reissues, 0)
			reissues++
		case perr.Kind == KindNetwork && perr.Cause == CauseTimeout && !perr.connect && reissues < maxReissues:
			// Nothing arrived for the idle timeout: an overloaded server may
			// answer a fresh request; the budget is a broken stream's.
			delay = c.backoff(reissues, 0)
			reissues++
		case perr.Kind == KindNetwork && (perr.Cause == CauseRefused || perr.Cause == CauseDNS || perr.connect):
			// Nothing listens (or the name does not resolve, or the
			// connection is not made in time): a server being restarted
			// comes back within a second, a stopped one does not in 15 s.
			// A few quick attempts, then the person is told.
			if transport >= min(c.cfg.MaxRetries, refusedRetries) {
				return perr
			}
			delay = min(c.cfg.RetryBase, refusedDelay) << transport
			transport++
		case perr.retryable() && transport < c.cfg.MaxRetries:
			delay = c.backoff(transport, perr.RetryAfter)
			transport++
		default:
			return perr
		}
		n++
		if onRetry != nil {
			onRetry(RetryInfo{Attempt: n, Delay: delay, Err: perr})
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return &Error{Kind: KindCancelled, Endpoint: c.cfg.BaseURL, Model: c.cfg.Model, Err: ctx.Err()}
		case <-t.C:
		}
	}
}

// backoff is RetryBase·2^i, or the server's Retry-After when it gave one,
// capped by RetryMax either way.
func (c *Client) backoff(i int, retryAfter time.Duration) time.Duration {
	d := retryAfter
	if d <= 0 {
		d = c.cfg.RetryBase << min(i, 30)
		if d <= 0 {
			d = c.cfg.RetryMax
		}
	}
	return min(d, c.cfg.RetryMax)
}

// buildRequest maps our messages onto the go-openai request and builds
// its body (wire.go): creq goes to go-openai with its messages left
// empty, body is what is sent.
func (c *Client) buildRequest(req Request) (openai.ChatCompletionRequest, []byte, *Error) {
	if len(req.Messages) == 0 {
		return openai.ChatCompletionRequest{}, nil, c.badRequest("no messages to send")
	}
	msgs := make([][]byte, len(req.Messages))
	for i := range req.Messages {
		b, err := req.Cache.encode(i, &req.Messages[i], c)
		if err != nil {
			return openai.ChatCompletionRequest{}, nil, err
		}
		msgs[i] = b
	}
	creq := openai.ChatCompletionRequest{
		Model:           c.cfg.Model,
		Stream:          true,
		StreamOptions:   &openai.StreamOptions{IncludeUsage: true},
		ReasoningEffort: req.ReasoningEffort,
	}
	if req.MaxTokens > 0 {
		if reasoningFamily(c.cfg.Model) {
			creq.MaxCompletionTokens = req.MaxTokens // these reject max_tokens
		} else {
			creq.MaxTokens = req.MaxTokens
		}
	}
	if !c.cfg.NoTools {
		creq.Tools = []openai.Tool{{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name:        ToolName,
			Description: ToolDescription,
			Parameters:  toolParameters,
		}}}
		creq.ToolChoice = "auto"
	}
	body, err := requestBody(creq, msgs)
	if err != nil {
		return openai.ChatCompletionRequest{}, nil, c.badRequest("build the request body: %v", err)
	}
	return creq, body, nil
}

var toolParameters = json.RawMessage(`{"type":"object","properties":{"code":{"type":"string","description":` +
	mustJSON(codeDescription) + `}},"required":["code"],"additionalProperties":false}`)

func mustJSON(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// reasoningFamily: OpenAI models that take max_completion_tokens only.
func reasoningFamily(model string) bool {
	m := model
	if i := strings.LastIndex(m, "/"); i >= 0 { // openai/o3 on OpenRouter
		m = m[i+1:]
	}
	for _, p := range []string{"o1", "o3", "o4", "gpt-5", "gpt-6"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}

// streamOnce runs one HTTP request and reads its stream into asm.
func (c *Client) streamOnce(ctx context.Context, att *attempt, creq openai.ChatCompletionRequest, asm *assembler, on func(Delta)) *Error {
	stream, err := c.oa.CreateChatCompletionStream(att.ctx, creq)
	if err != nil {
		if att.status == 0 && !att.started && ctx.Err() == nil && att.ctx.Err() == nil && !isTransport(err) {
			// go-openai refused to build the request (model validation).
			return &Error{Kind: KindBadRequest, Endpoint: c.cfg.BaseURL, Model: c.cfg.Model,
				Message: redact(err.Error(), c.cfg.APIKey), Err: redacted{err, c.cfg.APIKey}}
		}
		return c.classify(ctx, err, att, false)
	}
	defer stream.Close()
	for {
		raw, err := stream.RecvRaw()
		if err != nil {
			if errors.Is(err, io.EOF) && asm.finish != "" && ctx.Err() == nil && att.ctx.Err() == nil {
				return nil
			}
			if err == io.EOF {
				err = errNoFinish
			}
			return c.classify(ctx, err, att, asm.output)
		}
		var ch wireChunk
		if err := json.Unmarshal(raw, &ch); err != nil {
			return c.classify(ctx, fmt.Errorf("decode chunk %.200q: %w", raw, err), att, asm.output)
		}
		asm.add(&ch, on)
		if ch.Error != nil {
			code := ch.Error.Code
			if f, ok := code.(float64); ok {
				code = int(f)
			}
			asm.finish = ""
			return c.classify(ctx, &openai.APIError{Code: code, Message: ch.Error.Message}, att, asm.output)
		}
	}
}

// errNoFinish: the server closed the stream cleanly but never said the
// reply was finished.
var errNoFinish = errors.New("the stream ended before the reply finished (no finish_reason)")

// isTransport reports whether err came from the HTTP round trip rather than
// from go-openai's request validation.
func isTransport(err error) bool {
	var ue *url.Error
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	return errors.As(err, &ue) || errors.As(err, &apiErr) || errors.As(err, &reqErr) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

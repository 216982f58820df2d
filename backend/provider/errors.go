package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Kind classifies a provider failure so the loop can tell what to do.
type Kind string

// Error kinds.
const (
	KindAuth            Kind = "auth"             // 401/403: wrong or missing key
	KindNotFound        Kind = "not_found"        // 404: unknown model or wrong base URL
	KindRateLimit       Kind = "rate_limit"       // 429 after retries
	KindQuota           Kind = "quota"            // 429/402 saying the account is out of quota or credit: not retried
	KindServer          Kind = "server"           // 5xx after retries
	KindNetwork         Kind = "network"          // connection failed after retries
	KindStreamBroken    Kind = "stream_broken"    // the stream ended before the reply finished
	KindBadRequest      Kind = "bad_request"      // other 4xx, or a request we cannot build
	KindContextOverflow Kind = "context_overflow" // the prompt exceeds the model's context
	KindCancelled       Kind = "cancelled"        // the caller's ctx ended
)

// Error is every failure Stream and ListModels return. Its text names the
// endpoint, the model and the server's message; it never contains the API
// key (any echo of the key by the server is redacted).
type Error struct {
	Kind    Kind
	Status  int    // HTTP status, 0 when none
	Message string // the server's (or transport's) message, key redacted
	// Endpoint is the base URL; Model the requested model.
	Endpoint, Model string
	// RetryAfter is what the server asked us to wait (429/503), if it said.
	RetryAfter time.Duration
	// Partial: the stream broke (or was cancelled) after some output; the
	// Response returned alongside holds what arrived.
	Partial bool
	// Cause: why a network failure happened (refused, dns, tls, timeout);
	// Code and Sentence tell a person what to do from it.
	Cause Cause
	Err   error // the underlying error, key redacted from its text

	// Timeout is the idle or connect timeout that ran out (Cause timeout),
	// timeoutWhere where it is configured; connect: it was the connect one.
	Timeout      time.Duration
	timeoutWhere string
	connect      bool
	modelMissing bool           // a 404 that names the model (else the URL is wrong)
	noKey        bool           // a 401/403 sent without an API key
	serverMsg    string         // the server's own message, for Sentence
	redirect     *RedirectError // the endpoint pointed to another origin
}

// Error renders e.g. `provider http://127.0.0.1:9/v1 model "m":
// authentication failed (401): <server message>`.
func (e *Error) Error() string {
	var what string
	switch e.Kind {
	case KindAuth:
		what = "authentication failed"
	case KindNotFound:
		what = "not found"
	case KindRateLimit:
		what = "rate limited"
	case KindQuota:
		what = "out of quota or credit (check the account's plan and billing)"
	case KindServer:
		what = "server error"
	case KindNetwork:
		what = "cannot reach the endpoint"
	case KindStreamBroken:
		what = "reply stream broke"
		if e.Partial {
			what += " after partial output"
		} else {
			what += " before any output"
		}
	case KindBadRequest:
		what = "request rejected"
	case KindContextOverflow:
		what = "the conversation exceeds the model's context window"
	case KindCancelled:
		what = "cancelled"
	default:
		what = "failed"
	}
	if e.Status != 0 {
		what += fmt.Sprintf(" (%d)", e.Status)
	}
	s := fmt.Sprintf("provider %s model %q: %s", e.Endpoint, e.Model, what)
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Fatal reports whether retrying the same request cannot help, so the turn
// should end: auth, not_found, bad_request, context_overflow and quota.
func (e *Error) Fatal() bool {
	switch e.Kind {
	case KindAuth, KindNotFound, KindBadRequest, KindContextOverflow, KindQuota:
		return true
	}
	return false
}

// retryable reports whether the transport retry budget applies.
func (e *Error) retryable() bool {
	switch e.Kind {
	case KindRateLimit, KindServer:
		return true
	case KindNetwork:
		// A certificate that is not trusted stays so; a timeout has its own
		// smaller budget in retry (a silent server retried on the transport
		// budget held a turn 25 minutes).
		return e.Cause != CauseTLS && e.Cause != CauseTimeout
	}
	return false
}

// redacted hides the API key in an underlying error's text.
type redacted struct {
	err error
	key string
}

func (r redacted) Error() string { return redact(r.err.Error(), r.key) }
func (r redacted) Unwrap() error { return r.err }

func redact(s, key string) string {
	if key == "" {
		return s
	}
	s = strings.ReplaceAll(s, key, "[redacted]")
	// Servers often echo a masked key: its first and last characters.
	if len(key) >= 12 {
		s = strings.ReplaceAll(s, key[:len(key)-4], "[redacted]")
	}
	return s
}

var contextOverflowRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)context[ _-]?(length|window|size)|maximum context|context_length_exceeded|too many tokens|prompt is too long|exceed_context|reduce the length|input is too long`)
})

var quotaRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)quota|billing|credits?\b|payment required|insufficient.?balance`)
})

// errorFromStatus classifies an HTTP error response.
func errorFromStatus(status int, msg string) Kind {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return KindAuth
	case status == http.StatusNotFound:
		return KindNotFound
	case (status == http.StatusTooManyRequests || status == http.StatusPaymentRequired) && quotaRE().MatchString(msg):
		return KindQuota
	case status == http.StatusTooManyRequests:
		return KindRateLimit
	case status == http.StatusRequestTimeout || status >= 500:
		return KindServer
	case (status == http.StatusBadRequest || status == http.StatusRequestEntityTooLarge ||
		status == http.StatusUnprocessableEntity) && contextOverflowRE().MatchString(msg):
		return KindContextOverflow
	default:
		return KindBadRequest
	}
}

// bodyMessage extracts a readable message from an error body that go-openai
// could not decode (Ollama's {"error":"..."}, {"detail":...}, HTML, text).
func bodyMessage(body []byte) string {
	var obj map[string]any
	if json.Unmarshal(body, &obj) == nil {
		switch v := obj["error"].(type) {
		case string:
			return v
		case map[string]any:
			if m, ok := v["message"].(string); ok {
				return m
			}
		}
		for _, k := range []string{"message", "detail"} {
			if m, ok := obj[k].(string); ok {
				return m
			}
		}
	}
	s := string(body)
	if strings.Contains(s, "<") { // HTML: keep the text
		s = regexp.MustCompile(`<[^>]*>`).ReplaceAllString(s, " ")
	}
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// classify turns any error from go-openai or the transport into *Error.
// out reports whether the attempt produced output before failing.
func (c *Client) classify(ctx context.Context, err error, att *attempt, out bool) *Error {
	e := &Error{Endpoint: c.cfg.BaseURL, Model: c.cfg.Model, Err: redacted{err, c.cfg.APIKey}, Partial: out}
	if att != nil {
		e.RetryAfter = att.retryAfter()
	}
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case ctx.Err() != nil:
		e.Kind = KindCancelled
		e.Message = ""
		return e
	case errors.As(err, &apiErr) && apiErr.HTTPStatusCode > 0:
		e.Status = apiErr.HTTPStatusCode
		e.Message = apiErr.Message
		e.Kind = errorFromStatus(e.Status, apiErr.Message+" "+fmt.Sprint(apiErr.Code))
	case errors.As(err, &reqErr):
		e.Status = reqErr.HTTPStatusCode
		e.Message = bodyMessage(reqErr.Body)
		e.Kind = errorFromStatus(e.Status, e.Message)
	case errors.As(err, &apiErr):
		// An error event inside a 200 stream (OpenRouter, vLLM do this).
		e.Message = apiErr.Message
		code, _ := apiErr.Code.(int)
		if s, ok := apiErr.Code.(string); ok {
			code, _ = strconv.Atoi(s)
		}
		switch {
		case contextOverflowRE().MatchString(apiErr.Message):
			e.Kind = KindContextOverflow
		case code >= 400 && code < 600 && !out:
			e.Status = code
			e.Kind = errorFromStatus(code, apiErr.Message)
		default:
			e.Kind = KindStreamBroken
		}
	case errors.As(err, new(*RedirectError)):
		var re *RedirectError
		errors.As(err, &re)
		e.Kind, e.redirect = KindBadRequest, re
		e.Message = re.Error()
	case att != nil && att.started:
		// The response began (HTTP 200): any failure now is a broken stream.
		e.Kind = KindStreamBroken
		e.Message = err.Error()
		if errors.Is(context.Cause(att.ctx), errIdle) {
			e.Message = fmt.Sprintf("no data for %s", att.idle)
			e.Cause, e.Timeout, e.timeoutWhere = CauseTimeout, att.idle, c.cfg.IdleWhere
		}
	default:
		e.Kind = KindNetwork
		e.Message = err.Error()
		var ne net.Error
		e.Cause = causeOf(err)
		if errors.Is(context.Cause(att.ctxOrNil()), errIdle) {
			e.Message = fmt.Sprintf("no response for %s", att.idle)
			e.Cause, e.Timeout, e.timeoutWhere = CauseTimeout, att.idle, c.cfg.IdleWhere
		} else if isConnectTimeout(err) {
			e.Message = fmt.Sprintf("no connection within %s", c.cfg.ConnectTimeout)
			e.Cause, e.Timeout, e.timeoutWhere, e.connect = CauseTimeout, c.cfg.ConnectTimeout, c.cfg.ConnectWhere, true
		} else if errors.As(err, &ne) && ne.Timeout() {
			e.Message = "timeout: " + err.Error()
		}
	}
	e.serverMsg = redact(e.Message, c.cfg.APIKey)
	if e.Kind == KindNotFound {
		e.Message, e.modelMissing = notFoundHint(e.Message, c.cfg)
	}
	if e.Kind == KindAuth && c.cfg.APIKey == "" {
		e.noKey = true
		e.Message += " (no API key is configured)"
	}
	e.Message = redact(strings.TrimSpace(e.Message), c.cfg.APIKey)
	return e
}

var modelWordRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bmodel\b`) })

// notFoundHint says whether the model or the base URL looks wrong.
// model reports the first case.
func notFoundHint(msg string, cfg Config) (hint string, model bool) {
	lower := strings.ToLower(msg)
	if (cfg.Model != "-" && strings.Contains(msg, cfg.Model)) || (modelWordRE().MatchString(msg) && !strings.Contains(lower, "invalid url")) {
		return fmt.Sprintf("unknown model %q at this endpoint: %s", cfg.Model, msg), true
	}
	hint = "no OpenAI-compatible API at this base URL"
	if !strings.HasSuffix(strings.TrimRight(cfg.BaseURL, "/"), "/v1") {
		hint += " (most servers expect it to end with /v1)"
	}
	if msg != "" {
		hint += ": " + msg
	}
	return hint, false
}

// parseRetryAfter reads Retry-After (seconds or an HTTP date) and the
// non-standard retry-after-ms some APIs send.
func parseRetryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s < 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

package provider_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/provider"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

const testKey = "sk-test-SECRET-0123456789abcdef"

func newClient(t *testing.T, url string, mod ...func(*provider.Config)) *provider.Client {
	t.Helper()
	cfg := provider.Config{BaseURL: url, APIKey: testKey, Model: "test-model",
		RetryBase: time.Millisecond, RetryMax: 20 * time.Millisecond, IdleTimeout: 20 * time.Second}
	for _, m := range mod {
		m(&cfg)
	}
	c, err := provider.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func userMsgs(text string) provider.Request {
	return provider.Request{Messages: []chat.Message{chat.System("sys"), chat.User(text)}}
}

func asError(t *testing.T, err error) *provider.Error {
	t.Helper()
	var pe *provider.Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *provider.Error", err, err)
	}
	return pe
}

// collector records deltas per kind.
type collector struct{ deltas []provider.Delta }

func (c *collector) on(d provider.Delta) { c.deltas = append(c.deltas, d) }

func (c *collector) joined(kind string, index int) (text, lastTotal string) {
	for _, d := range c.deltas {
		if d.Kind == kind && (kind != provider.DeltaTool || d.ToolIndex == index) {
			text += d.Text
			lastTotal = d.Total
		}
	}
	return text, lastTotal
}

func TestStreamAssemblesReply(t *testing.T) {
	code := "import json\nfiles = [f for f in ls('.') if f.endswith(\".go\")]\nprint(f\"{len(files)} files: {files!r}\", \"é→✓\")\n"
	codeArgs := mustArgs(t, code)
	tests := []struct {
		name  string
		reply providertest.Reply
		want  provider.Response
	}{
		{
			name:  "code fragments reassembled exactly",
			reply: providertest.Reply{Content: []string{"Let me ", "look."}, Calls: []providertest.Call{{ID: "call_a", Args: codeArgs, Fragment: 3}}},
			want: provider.Response{Content: "Let me look.", FinishReason: "tool_calls",
				ToolCalls: []chat.ToolCall{{ID: "call_a", Name: "python_execution", Arguments: codeArgs}}},
		},
		{
			name: "two parallel calls interleaved",
			reply: providertest.Reply{Interleave: true, Calls: []providertest.Call{
				{ID: "call_1", Args: `{"code":"print(1)"}`, Fragment: 2},
				{ID: "call_2", Args: `{"code":"print(read('a.txt'))"}`, Fragment: 5},
			}},
			want: provider.Response{FinishReason: "tool_calls", ToolCalls: []chat.ToolCall{
				{ID: "call_1", Name: "python_execution", Arguments: `{"code":"print(1)"}`},
				{ID: "call_2", Name: "python_execution", Arguments: `{"code":"print(read('a.txt'))"}`},
			}},
		},
		{
			name: "two calls sequential",
			reply: providertest.Reply{Calls: []providertest.Call{
				{ID: "call_1", Args: `{"code":"x = 1"}`},
				{ID: "call_2", Name: "other_tool", Args: `{}`},
			}},
			want: provider.Response{FinishReason: "tool_calls", ToolCalls: []chat.ToolCall{
				{ID: "call_1", Name: "python_execution", Arguments: `{"code":"x = 1"}`},
				{ID: "call_2", Name: "other_tool", Arguments: `{}`},
			}},
		},
		{
			name:  "call without index is call 0",
			reply: providertest.Reply{NoIndex: true, Calls: []providertest.Call{{ID: "call_x", Args: codeArgs}}},
			want: provider.Response{FinishReason: "tool_calls",
				ToolCalls: []chat.ToolCall{{ID: "call_x", Name: "python_execution", Arguments: codeArgs}}},
		},
		{
			name: "two sequential calls without index split by id",
			reply: providertest.Reply{NoIndex: true, Calls: []providertest.Call{
				{ID: "call_1", Args: `{"code":"a = 1"}`, Fragment: 4},
				{ID: "call_2", Args: `{"code":"print(a)"}`, Fragment: 4},
			}},
			want: provider.Response{FinishReason: "tool_calls", ToolCalls: []chat.ToolCall{
				{ID: "call_1", Name: "python_execution", Arguments: `{"code":"a = 1"}`},
				{ID: "call_2", Name: "python_execution", Arguments: `{"code":"print(a)"}`},
			}},
		},
		{
			name:  "reasoning_content captured",
			reply: providertest.Reply{Reasoning: []string{"The user ", "wants a greeting."}, Content: []string{"Hello!"}},
			want:  provider.Response{Reasoning: "The user wants a greeting.", Content: "Hello!", FinishReason: "stop"},
		},
		{
			name:  "OpenRouter reasoning field captured",
			reply: providertest.Reply{ReasoningField: "reasoning", Reasoning: []string{"think ", "hard"}, Code: "print(2)"},
			want: provider.Response{Reasoning: "think hard", FinishReason: "tool_calls",
				ToolCalls: []chat.ToolCall{{ID: "call_providertest000001_0", Name: "python_execution", Arguments: `{"code":"print(2)"}`}}},
		},
		{
			name:  "usage present",
			reply: providertest.Reply{Content: []string{"ok"}, Usage: &chat.Usage{InputTokens: 1200, OutputTokens: 34, CachedTokens: 1024, ReasoningTokens: 12}},
			want: provider.Response{Content: "ok", FinishReason: "stop", HasUsage: true,
				Usage: chat.Usage{InputTokens: 1200, OutputTokens: 34, CachedTokens: 1024, ReasoningTokens: 12}},
		},
		{
			name:  "usage absent",
			reply: providertest.Reply{Content: []string{"ok"}},
			want:  provider.Response{Content: "ok", FinishReason: "stop"},
		},
		{
			name:  "length finish kept",
			reply: providertest.Reply{Content: []string{"trunc"}, Finish: "length"},
			want:  provider.Response{Content: "trunc", FinishReason: "length"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(tt.reply)
			defer srv.Close()
			var col collector
			got, err := newClient(t, srv.URL).Stream(context.Background(), userMsgs("hi"), col.on)
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Model = "test-model"
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("response (-want +got):\n%s", diff)
			}
			// The deltas tell the same story as the response, fragment by fragment.
			for _, k := range []string{provider.DeltaReasoning, provider.DeltaContent} {
				text, total := col.joined(k, 0)
				want := got.Content
				if k == provider.DeltaReasoning {
					want = got.Reasoning
				}
				if text != want || total != want {
					t.Errorf("%s deltas: joined %q, last total %q, want %q", k, text, total, want)
				}
			}
			for i, tc := range got.ToolCalls {
				text, total := col.joined(provider.DeltaTool, i)
				if text != tc.Arguments || total != tc.Arguments {
					t.Errorf("tool %d deltas: joined %q, last total %q, want %q", i, text, total, tc.Arguments)
				}
			}
		})
	}
}

func mustArgs(t *testing.T, code string) string {
	t.Helper()
	b, err := json.Marshal(map[string]string{"code": code})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestToolDeltasCarryIdentityFromFirstFragment(t *testing.T) {
	srv := providertest.New(providertest.Reply{Calls: []providertest.Call{{ID: "call_q", Args: `{"code":"print(42)"}`, Fragment: 4}}})
	defer srv.Close()
	var col collector
	if _, err := newClient(t, srv.URL).Stream(context.Background(), userMsgs("x"), col.on); err != nil {
		t.Fatal(err)
	}
	if len(col.deltas) < 3 {
		t.Fatalf("want several tool deltas, got %d", len(col.deltas))
	}
	for _, d := range col.deltas {
		if d.Kind != provider.DeltaTool || d.ToolID != "call_q" || d.ToolName != provider.ToolName || d.ToolIndex != 0 {
			t.Errorf("delta %+v lacks the call's identity", d)
		}
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	future := time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)
	tests := []struct {
		name       string
		retryAfter string
		retryMax   time.Duration
		want       time.Duration
	}{
		{"seconds", "1", 5 * time.Second, time.Second},
		{"seconds capped by RetryMax", "120", 30 * time.Millisecond, 30 * time.Millisecond},
		{"HTTP date capped by RetryMax", future, 25 * time.Millisecond, 25 * time.Millisecond},
		{"absent: backoff base", "", time.Second, 7 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(
				providertest.Reply{Status: 429, RetryAfter: tt.retryAfter, Message: "Rate limit reached for requests"},
				providertest.Reply{Content: []string{"done"}},
			)
			defer srv.Close()
			c := newClient(t, srv.URL, func(c *provider.Config) { c.RetryMax = tt.retryMax; c.RetryBase = 7 * time.Millisecond })
			var infos []provider.RetryInfo
			req := userMsgs("x")
			req.OnRetry = func(ri provider.RetryInfo) { infos = append(infos, ri) }
			got, err := c.Stream(context.Background(), req, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got.Content != "done" {
				t.Errorf("content %q, want the retried reply", got.Content)
			}
			if len(infos) != 1 {
				t.Fatalf("OnRetry called %d times, want 1", len(infos))
			}
			if infos[0].Delay != tt.want || infos[0].Attempt != 1 || infos[0].Err.Kind != provider.KindRateLimit {
				t.Errorf("retry info %+v (kind %s), want delay %v, attempt 1, rate_limit", infos[0], infos[0].Err.Kind, tt.want)
			}
		})
	}
}

func TestServerErrorRetriedThenSucceeds(t *testing.T) {
	srv := providertest.New(
		providertest.Reply{Status: 500, Message: "The server had an error while processing your request."},
		providertest.Reply{Status: 503, RawBody: "<html><body><h1>503 Service Unavailable</h1></body></html>"},
		providertest.Reply{Code: "print('ok')"},
	)
	defer srv.Close()
	var infos []provider.RetryInfo
	req := userMsgs("x")
	req.OnRetry = func(ri provider.RetryInfo) { infos = append(infos, ri) }
	got, err := newClient(t, srv.URL).Stream(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.ToolCalls) != 1 || got.ToolCalls[0].Arguments != `{"code":"print('ok')"}` {
		t.Errorf("tool calls %+v", got.ToolCalls)
	}
	want := []struct {
		delay  time.Duration
		status int
		msg    string
	}{{time.Millisecond, 500, "The server had an error"}, {2 * time.Millisecond, 503, "503 Service Unavailable"}}
	if len(infos) != len(want) {
		t.Fatalf("%d retries, want %d", len(infos), len(want))
	}
	for i, w := range want {
		if infos[i].Delay != w.delay || infos[i].Err.Status != w.status || infos[i].Err.Kind != provider.KindServer ||
			!strings.Contains(infos[i].Err.Error(), w.msg) {
			t.Errorf("retry %d: %+v, %v; want delay %v status %d containing %q", i, infos[i], infos[i].Err, w.delay, w.status, w.msg)
		}
	}
}

// A refused connection is retried twice, quickly, whatever MaxRetries
// allows for other failures: a stopped server does not start in 15 s.
func TestConnectionRefusedRetriedThenNetworkError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	c := newClient(t, url, func(c *provider.Config) { c.MaxRetries = 3 })
	var delays []time.Duration
	req := userMsgs("x")
	req.OnRetry = func(ri provider.RetryInfo) { delays = append(delays, ri.Delay) }
	_, err = c.Stream(context.Background(), req, nil)
	pe := asError(t, err)
	if pe.Kind != provider.KindNetwork || pe.Fatal() {
		t.Errorf("kind %s fatal %v, want network, not fatal", pe.Kind, pe.Fatal())
	}
	if diff := cmp.Diff([]time.Duration{time.Millisecond, 2 * time.Millisecond}, delays); diff != "" {
		t.Errorf("backoff delays (-want +got):\n%s", diff)
	}
	if !strings.Contains(err.Error(), url) || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("error %q should name the endpoint and say connection refused", err)
	}
}

func TestStreamBrokenBeforeOutputIsReissued(t *testing.T) {
	srv := providertest.New(
		providertest.Reply{CutAfter: 1, Content: []string{"lost"}}, // only the role chunk arrives
		providertest.Reply{CutAfter: 1, Content: []string{"lost"}},
		providertest.Reply{Content: []string{"third time"}},
	)
	defer srv.Close()
	var infos []provider.RetryInfo
	req := userMsgs("x")
	req.OnRetry = func(ri provider.RetryInfo) { infos = append(infos, ri) }
	got, err := newClient(t, srv.URL).Stream(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Content != "third time" {
		t.Errorf("content %q", got.Content)
	}
	if len(infos) != 2 || infos[0].Err.Kind != provider.KindStreamBroken || infos[0].Err.Partial {
		t.Errorf("retries %+v, want 2 stream_broken re-issues", infos)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
}

func TestStreamBrokenBeforeOutputGivesUpAfterTwoReissues(t *testing.T) {
	srv := providertest.New(
		providertest.Reply{CutAfter: 1}, providertest.Reply{CutAfter: 1}, providertest.Reply{CutAfter: 1},
		providertest.Reply{Content: []string{"never reached"}},
	)
	defer srv.Close()
	_, err := newClient(t, srv.URL).Stream(context.Background(), userMsgs("x"), nil)
	pe := asError(t, err)
	if pe.Kind != provider.KindStreamBroken || pe.Partial {
		t.Errorf("error %v: kind %s partial %v", err, pe.Kind, pe.Partial)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests, want 3 (one + two re-issues)", n)
	}
}

func TestStreamBrokenAfterOutputReturnsPartial(t *testing.T) {
	srv := providertest.New(
		// role, reasoning, "I'll ", "read", tool header, 2 fragments: then cut.
		providertest.Reply{Reasoning: []string{"plan"}, Content: []string{"I'll ", "read", " it"},
			Calls: []providertest.Call{{ID: "call_z", Args: `{"code":"print(read('x'))"}`, Fragment: 5}}, CutAfter: 4},
		providertest.Reply{Content: []string{"must not be requested"}},
	)
	defer srv.Close()
	var col collector
	got, err := newClient(t, srv.URL).Stream(context.Background(), userMsgs("x"), col.on)
	pe := asError(t, err)
	if pe.Kind != provider.KindStreamBroken || !pe.Partial || pe.Fatal() {
		t.Fatalf("error %v: kind %s partial %v fatal %v", err, pe.Kind, pe.Partial, pe.Fatal())
	}
	want := provider.Response{Reasoning: "plan", Content: "I'll read", Model: "test-model"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("partial response (-want +got):\n%s", diff)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1: output already shown must not be re-requested", n)
	}
	if !strings.Contains(err.Error(), "after partial output") {
		t.Errorf("error text %q", err)
	}
}

func TestCutAfterWholeReplyWithoutDoneIsPartial(t *testing.T) {
	// The finish chunk never arrives (cut right before it): the reply is incomplete.
	srv := providertest.New(providertest.Reply{Calls: []providertest.Call{{ID: "c", Args: `{"code":"1"}`, Fragment: 100}}, CutAfter: 3})
	defer srv.Close()
	got, err := newClient(t, srv.URL).Stream(context.Background(), userMsgs("x"), nil)
	pe := asError(t, err)
	if pe.Kind != provider.KindStreamBroken || !pe.Partial {
		t.Fatalf("error %v", err)
	}
	if len(got.ToolCalls) != 1 || got.ToolCalls[0].Arguments != `{"code":"1"}` || got.FinishReason != "" {
		t.Errorf("partial %+v", got)
	}
}

func TestCancellationMidStream(t *testing.T) {
	srv := providertest.New(providertest.Reply{Hang: true})
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(srv.Requests()) == 0 {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(10 * time.Millisecond) // let the role chunk arrive
		cancel()
	}()
	done := make(chan error, 1)
	go func() {
		_, err := newClient(t, srv.URL).Stream(ctx, userMsgs("x"), nil)
		done <- err
	}()
	select {
	case err := <-done:
		if pe := asError(t, err); pe.Kind != provider.KindCancelled {
			t.Errorf("kind %s, want cancelled (%v)", pe.Kind, err)
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v does not wrap context.Canceled", err)
		}
	case <-time.After(10 * time.Second): // liveness guard, not a timing assertion
		t.Fatal("Stream did not return after cancellation")
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests: a cancelled call must not be retried", n)
	}
}

func TestCancellationDuringStreamKeepsWhatArrived(t *testing.T) {
	srv := providertest.New(providertest.Reply{Content: []string{"first ", "second"}, HangAfter: 2})
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	got, err := newClient(t, srv.URL).Stream(ctx, userMsgs("x"), func(d provider.Delta) { cancel() })
	if pe := asError(t, err); pe.Kind != provider.KindCancelled {
		t.Fatalf("kind %s (%v)", pe.Kind, err)
	}
	if got.Content != "first " {
		t.Errorf("content %q, want what arrived before cancel", got.Content)
	}
}

func TestCancellationDuringRetryWait(t *testing.T) {
	srv := providertest.New(providertest.Reply{Status: 429, RetryAfter: "3600"})
	defer srv.Close()
	c := newClient(t, srv.URL, func(c *provider.Config) { c.RetryMax = 2 * time.Hour })
	ctx, cancel := context.WithCancel(context.Background())
	req := userMsgs("x")
	var delay time.Duration
	req.OnRetry = func(ri provider.RetryInfo) { delay = ri.Delay; cancel() }
	_, err := c.Stream(ctx, req, nil)
	if pe := asError(t, err); pe.Kind != provider.KindCancelled {
		t.Errorf("kind %s, want cancelled", pe.Kind)
	}
	if delay != time.Hour {
		t.Errorf("delay %v, want the server's hour", delay)
	}
}

func TestIdleStreamIsBroken(t *testing.T) {
	srv := providertest.New(providertest.Reply{Hang: true}, providertest.Reply{Content: []string{"fresh"}})
	defer srv.Close()
	c := newClient(t, srv.URL, func(c *provider.Config) { c.IdleTimeout = 50 * time.Millisecond })
	var kinds []provider.Kind
	req := userMsgs("x")
	req.OnRetry = func(ri provider.RetryInfo) { kinds = append(kinds, ri.Err.Kind) }
	got, err := c.Stream(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Content != "fresh" || len(kinds) != 1 || kinds[0] != provider.KindStreamBroken {
		t.Errorf("content %q after retries %v, want one stream_broken re-issue", got.Content, kinds)
	}
}

func TestFatalErrorsNameEndpointAndModelNeverKey(t *testing.T) {
	tests := []struct {
		name     string
		reply    providertest.Reply
		noKey    bool
		kind     provider.Kind
		contains []string
	}{
		{
			name:     "401 echoing the key",
			reply:    providertest.Reply{Status: 401, Message: "Incorrect API key provided: " + testKey + ". You can find your API key at https://platform.openai.com/account/api-keys."},
			kind:     provider.KindAuth,
			contains: []string{"authentication failed (401)", "Incorrect API key provided"},
		},
		{
			name:     "401 echoing a masked key",
			reply:    providertest.Reply{Status: 401, Message: "Incorrect API key provided: " + testKey[:len(testKey)-4] + "****"},
			kind:     provider.KindAuth,
			contains: []string{"authentication failed (401)"},
		},
		{
			name:     "401 without a key configured",
			reply:    providertest.Reply{Status: 401, Message: "You didn't provide an API key."},
			noKey:    true,
			kind:     provider.KindAuth,
			contains: []string{"no API key is configured"},
		},
		{
			name:     "403",
			reply:    providertest.Reply{Status: 403, Message: "Project does not have access to model"},
			kind:     provider.KindAuth,
			contains: []string{"(403)", "does not have access"},
		},
		{
			name:     "404 unknown model (OpenAI)",
			reply:    providertest.Reply{Status: 404, Message: "The model `test-model` does not exist or you do not have access to it."},
			kind:     provider.KindNotFound,
			contains: []string{"not found (404)", `unknown model "test-model"`},
		},
		{
			name:     "404 unknown model (Ollama body)",
			reply:    providertest.Reply{Status: 404, RawBody: `{"error":"model \"test-model\" not found, try pulling it first"}`},
			kind:     provider.KindNotFound,
			contains: []string{`unknown model "test-model"`, "try pulling it first"},
		},
		{
			name:     "404 wrong base URL",
			reply:    providertest.Reply{Status: 404, RawBody: "404 page not found"},
			kind:     provider.KindNotFound,
			contains: []string{"no OpenAI-compatible API at this base URL", "404 page not found"},
		},
		{
			name:     "400 context overflow",
			reply:    providertest.Reply{Status: 400, Message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens."},
			kind:     provider.KindContextOverflow,
			contains: []string{"context window (400)", "8192"},
		},
		{
			name:     "400 llama.cpp context overflow",
			reply:    providertest.Reply{Status: 400, RawBody: `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}`},
			kind:     provider.KindContextOverflow,
			contains: []string{"available context size"},
		},
		{
			name:     "429 out of quota is not retried",
			reply:    providertest.Reply{Status: 429, Message: "You exceeded your current quota, please check your plan and billing details."},
			kind:     provider.KindQuota,
			contains: []string{"out of quota", "(429)", "exceeded your current quota"},
		},
		{
			name:     "402 no credit (OpenRouter)",
			reply:    providertest.Reply{Status: 402, Message: "Insufficient credits. Add more using https://openrouter.ai/credits"},
			kind:     provider.KindQuota,
			contains: []string{"(402)", "Insufficient credits"},
		},
		{
			name:     "400 other",
			reply:    providertest.Reply{Status: 400, Message: "Invalid value for 'tool_choice'."},
			kind:     provider.KindBadRequest,
			contains: []string{"request rejected (400)", "tool_choice"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(tt.reply, providertest.Reply{Content: []string{"must not be requested"}})
			defer srv.Close()
			c := newClient(t, srv.URL, func(c *provider.Config) {
				if tt.noKey {
					c.APIKey = ""
				}
			})
			retried := false
			req := userMsgs("x")
			req.OnRetry = func(provider.RetryInfo) { retried = true }
			_, err := c.Stream(context.Background(), req, nil)
			pe := asError(t, err)
			if pe.Kind != tt.kind || !pe.Fatal() || retried {
				t.Errorf("kind %s fatal %v retried %v, want %s, fatal, not retried", pe.Kind, pe.Fatal(), retried, tt.kind)
			}
			msg := err.Error()
			for _, s := range append([]string{srv.URL, `model "test-model"`}, tt.contains...) {
				if !strings.Contains(msg, s) {
					t.Errorf("error %q lacks %q", msg, s)
				}
			}
			for _, text := range []string{msg, pe.Message, pe.Err.Error(), errors.Unwrap(err).Error()} {
				if strings.Contains(text, testKey[:len(testKey)-4]) {
					t.Errorf("error text reveals the API key: %q", text)
				}
			}
		})
	}
}

func TestExhaustedRateLimitIsNotFatal(t *testing.T) {
	srv := providertest.New(
		providertest.Reply{Status: 429, Message: "slow down"}, providertest.Reply{Status: 429, Message: "slow down"},
		providertest.Reply{Status: 429, Message: "slow down"},
	)
	defer srv.Close()
	c := newClient(t, srv.URL, func(c *provider.Config) { c.MaxRetries = 2 })
	_, err := c.Stream(context.Background(), userMsgs("x"), nil)
	pe := asError(t, err)
	if pe.Kind != provider.KindRateLimit || pe.Fatal() || pe.Status != 429 {
		t.Errorf("error %v: kind %s fatal %v", err, pe.Kind, pe.Fatal())
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests, want 1 + MaxRetries 2", n)
	}
}

func TestRequestBody(t *testing.T) {
	toolSchema := map[string]any{
		"type": "function",
		"function": map[string]any{
			"name":        "python_execution",
			"description": provider.ToolDescription,
			"parameters": map[string]any{
				"type": "object",
				"properties": map[string]any{"code": map[string]any{
					"type": "string", "description": "The Starlark (Python dialect) program to run. Use print() for everything you want to see.",
				}},
				"required":             []any{"code"},
				"additionalProperties": false,
			},
		},
	}
	tests := []struct {
		name string
		cfg  func(*provider.Config)
		req  func(*provider.Request)
		want map[string]any // expected keys; a nil value means the key must be absent
	}{
		{
			name: "default: one tool, auto, streaming with usage",
			want: map[string]any{
				"model": "test-model", "stream": true, "stream_options": map[string]any{"include_usage": true},
				"tools": []any{toolSchema}, "tool_choice": "auto",
				"reasoning_effort": nil, "max_tokens": nil, "max_completion_tokens": nil,
			},
		},
		{
			name: "NoTools sends no tools",
			cfg:  func(c *provider.Config) { c.NoTools = true },
			want: map[string]any{"tools": nil, "tool_choice": nil, "stream": true},
		},
		{
			name: "reasoning effort and max tokens",
			req:  func(r *provider.Request) { r.ReasoningEffort = "high"; r.MaxTokens = 8192 },
			want: map[string]any{"reasoning_effort": "high", "max_tokens": float64(8192), "max_completion_tokens": nil},
		},
		{
			name: "reasoning-family model gets max_completion_tokens",
			cfg:  func(c *provider.Config) { c.Model = "openai/o3-mini" },
			req:  func(r *provider.Request) { r.MaxTokens = 4096 },
			want: map[string]any{"model": "openai/o3-mini", "max_completion_tokens": float64(4096), "max_tokens": nil},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(providertest.Reply{Content: []string{"ok"}})
			defer srv.Close()
			mods := []func(*provider.Config){}
			if tt.cfg != nil {
				mods = append(mods, tt.cfg)
			}
			req := userMsgs("x")
			if tt.req != nil {
				tt.req(&req)
			}
			if _, err := newClient(t, srv.URL, mods...).Stream(context.Background(), req, nil); err != nil {
				t.Fatal(err)
			}
			body := srv.Requests()[0].Body
			for k, want := range tt.want {
				got, present := body[k]
				if want == nil {
					if present {
						t.Errorf("%s = %v, want absent", k, got)
					}
					continue
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s (-want +got):\n%s", k, diff)
				}
			}
		})
	}
}

func TestMessageMapping(t *testing.T) {
	srv := providertest.New(providertest.Reply{Content: []string{"ok"}})
	defer srv.Close()
	msgs := []chat.Message{
		chat.System("You are Vis."),
		{Role: chat.RoleUser, Parts: []chat.Part{
			{Type: "image_url", ImageURL: "data:image/png;base64,AAAA"},
			{Type: "image_url", ImageURL: "data:image/jpeg;base64,BBBB"},
			{Type: "text", Text: "What is on these screenshots?"},
		}},
		{Role: chat.RoleAssistant, Content: "Looking.", Reasoning: "secret thoughts",
			ToolCalls: []chat.ToolCall{
				{ID: "call_1", Name: "python_execution", Arguments: `{"code":"print(1)"}`},
				{ID: "call_2", Name: "python_execution", Arguments: `{"code":"print(2)"}`},
			}},
		{Role: chat.RoleTool, ToolCallID: "call_1", Content: "1\n"},
		{Role: chat.RoleTool, ToolCallID: "call_2", Content: ""},
		{Role: chat.RoleAssistant, Content: "Both printed.", Reasoning: "more thoughts"},
		chat.User("thanks"),
	}
	if _, err := newClient(t, srv.URL).Stream(context.Background(), provider.Request{Messages: msgs}, nil); err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{
		{"role": "system", "content": "You are Vis."},
		{"role": "user", "content": []any{
			map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/png;base64,AAAA"}},
			map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/jpeg;base64,BBBB"}},
			map[string]any{"type": "text", "text": "What is on these screenshots?"},
		}},
		{"role": "assistant", "content": "Looking.", "tool_calls": []any{
			map[string]any{"id": "call_1", "type": "function", "function": map[string]any{"name": "python_execution", "arguments": `{"code":"print(1)"}`}},
			map[string]any{"id": "call_2", "type": "function", "function": map[string]any{"name": "python_execution", "arguments": `{"code":"print(2)"}`}},
		}},
		{"role": "tool", "tool_call_id": "call_1", "content": "1\n"},
		{"role": "tool", "tool_call_id": "call_2", "content": "(no output)"},
		{"role": "assistant", "content": "Both printed."},
		{"role": "user", "content": "thanks"},
	}
	if diff := cmp.Diff(want, srv.Requests()[0].Messages); diff != "" {
		t.Errorf("messages on the wire (-want +got):\n%s", diff)
	}
	if raw := string(srv.Requests()[0].Raw); strings.Contains(raw, "thoughts") {
		t.Errorf("reasoning was sent back to the model: %s", raw)
	}
}

func TestBadMessagesRejectedBeforeSending(t *testing.T) {
	srv := providertest.New()
	defer srv.Close()
	for _, msgs := range [][]chat.Message{
		nil,
		{{Role: "developer", Content: "x"}},
		{{Role: chat.RoleTool, Content: "orphan"}},
		{{Role: chat.RoleUser, Parts: []chat.Part{{Type: "audio"}}}},
	} {
		_, err := newClient(t, srv.URL).Stream(context.Background(), provider.Request{Messages: msgs}, nil)
		if pe := asError(t, err); pe.Kind != provider.KindBadRequest {
			t.Errorf("%+v: kind %s, want bad_request", msgs, pe.Kind)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent for invalid messages", n)
	}
}

func TestHeaders(t *testing.T) {
	srv := providertest.New(providertest.Reply{Content: []string{"a"}}, providertest.Reply{Content: []string{"b"}})
	defer srv.Close()
	withHeaders := newClient(t, srv.URL, func(c *provider.Config) {
		c.Headers = map[string]string{"HTTP-Referer": "https://vis.example", "X-Title": "Vis Desktop"}
	})
	noKey := newClient(t, srv.URL, func(c *provider.Config) { c.APIKey = "" })
	for _, c := range []*provider.Client{withHeaders, noKey} {
		if _, err := c.Stream(context.Background(), userMsgs("x"), nil); err != nil {
			t.Fatal(err)
		}
	}
	reqs := srv.Requests()
	if h := reqs[0].Header; h.Get("Authorization") != "Bearer "+testKey || h.Get("X-Title") != "Vis Desktop" || h.Get("HTTP-Referer") != "https://vis.example" {
		t.Errorf("headers %v", h)
	}
	if h := reqs[1].Header; h.Get("Authorization") != "" {
		t.Errorf("Authorization %q sent without a key", h.Get("Authorization"))
	}
}

func TestListModels(t *testing.T) {
	srv := providertest.New()
	defer srv.Close()
	srv.SetModels("qwen3-coder-30b", "gpt-oss-20b")
	got, err := newClient(t, srv.URL).ListModels(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"qwen3-coder-30b", "gpt-oss-20b"}, got); diff != "" {
		t.Errorf("models (-want +got):\n%s", diff)
	}
	_, err = newClient(t, strings.TrimSuffix(srv.URL, "/v1")+"/nope").ListModels(context.Background())
	if pe := asError(t, err); pe.Kind != provider.KindNotFound || !strings.Contains(err.Error(), "base URL") {
		t.Errorf("wrong base URL: %v", err)
	}
}

func TestNewValidates(t *testing.T) {
	tests := []struct {
		cfg  provider.Config
		want string
	}{
		{provider.Config{Model: "m"}, "base URL is empty"},
		{provider.Config{BaseURL: "localhost:1234/v1", Model: "m"}, "not an http(s) URL"},
		{provider.Config{BaseURL: "ftp://host/v1", Model: "m"}, "not an http(s) URL"},
		{provider.Config{BaseURL: "http://user:pw@host/v1", Model: "m"}, "must not carry credentials"},
		{provider.Config{BaseURL: "http://127.0.0.1:1234/v1", Model: "  "}, "no model is set"},
	}
	for _, tt := range tests {
		_, err := provider.New(tt.cfg)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%+v) = %v, want error containing %q", tt.cfg, err, tt.want)
		}
		if err != nil && strings.Contains(err.Error(), "pw") {
			t.Errorf("error reveals URL credentials: %v", err)
		}
	}
	if _, err := provider.New(provider.Config{BaseURL: "http://127.0.0.1:1234/v1/", Model: "m"}); err != nil {
		t.Errorf("valid config rejected: %v", err)
	}
}

func TestToolDescriptionContract(t *testing.T) {
	for _, s := range []string{"Starlark", "try/except", "class", "with", "print()", "persist", "doc()", "Raw result:"} {
		if !strings.Contains(provider.ToolDescription, s) {
			t.Errorf("ToolDescription lacks %q", s)
		}
	}
}

func TestMidStreamErrorEvents(t *testing.T) {
	tests := []struct {
		name    string
		first   providertest.Reply
		kind    provider.Kind // "" = recovered by a retry
		partial bool
		content string
		msg     string
	}{
		{
			name:    "OpenRouter error before output is retried",
			first:   providertest.Reply{StreamError: "Upstream provider overloaded", StreamErrorCode: 502},
			content: "recovered",
		},
		{
			name:    "OpenRouter error after output is a partial break",
			first:   providertest.Reply{Content: []string{"Half an ans"}, StreamError: "Upstream idle timeout", StreamErrorCode: 502},
			kind:    provider.KindStreamBroken,
			partial: true,
			content: "Half an ans",
			msg:     "Upstream idle timeout",
		},
		{
			name:  "vLLM bare error event with context overflow",
			first: providertest.Reply{BareStreamError: true, StreamError: "This model's maximum context length is 4096 tokens.", StreamErrorCode: 400},
			kind:  provider.KindContextOverflow,
			msg:   "maximum context length is 4096",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(tt.first, providertest.Reply{Content: []string{"recovered"}})
			defer srv.Close()
			got, err := newClient(t, srv.URL).Stream(context.Background(), userMsgs("x"), nil)
			if tt.kind == "" {
				if err != nil {
					t.Fatal(err)
				}
			} else {
				pe := asError(t, err)
				if pe.Kind != tt.kind || pe.Partial != tt.partial || !strings.Contains(err.Error(), tt.msg) {
					t.Errorf("error %v: kind %s partial %v, want %s partial %v containing %q", err, pe.Kind, pe.Partial, tt.kind, tt.partial, tt.msg)
				}
			}
			if got.Content != tt.content {
				t.Errorf("content %q, want %q", got.Content, tt.content)
			}
		})
	}
}

func BenchmarkStream(b *testing.B) {
	content := make([]string, 2000)
	for i := range content {
		content[i] = "word "
	}
	args := `{"code":"` + strings.Repeat("print(read('main.go'))\\n", 200) + `"}`
	srv := providertest.New()
	defer srv.Close()
	srv.SetDynamic(func(providertest.Recorded) providertest.Reply {
		return providertest.Reply{Content: content, Calls: []providertest.Call{{Args: args, Fragment: 4}}}
	})
	c, err := provider.New(provider.Config{BaseURL: srv.URL, Model: "m"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		if _, err := c.Stream(context.Background(), userMsgs("x"), func(provider.Delta) { n++ }); err != nil {
			b.Fatal(err)
		}
		if n < 3000 {
			b.Fatalf("%d deltas", n)
		}
	}
}

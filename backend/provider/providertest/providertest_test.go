package providertest

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/internal/golden"
)

func post(t *testing.T, url, body string) (*http.Response, []byte, error) {
	t.Helper()
	resp, err := http.Post(url+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

var createdRE = regexp.MustCompile(`"created":\d+`)

// TestWireFormatGolden pins the exact bytes of a stream: a reviewer compares
// testdata/*.golden with a captured OpenAI stream.
func TestWireFormatGolden(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		reply Reply
	}{
		{
			name: "full_with_usage",
			body: `{"model":"gpt-x","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`,
			reply: Reply{Reasoning: []string{"Think."}, Content: []string{"Sure, ", "running."}, Interleave: true,
				Calls: []Call{{ID: "call_A", Args: `{"code":"print(1)"}`, Fragment: 9}, {ID: "call_B", Args: `{"code":"x=2"}`}},
				Usage: &chat.Usage{InputTokens: 50, OutputTokens: 20, CachedTokens: 32, ReasoningTokens: 5}},
		},
		{
			name:  "plain_no_usage_requested",
			body:  `{"model":"local","stream":true,"messages":[{"role":"user","content":"hi"}]}`,
			reply: Reply{Content: []string{"Hello."}, Usage: &chat.Usage{InputTokens: 1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(tt.reply)
			defer s.Close()
			resp, b, err := post(t, s.URL, tt.body)
			if err != nil {
				t.Fatal(err)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
				t.Errorf("content type %q", ct)
			}
			got := createdRE.ReplaceAll(b, []byte(`"created":1700000000`))
			golden.Check(t, filepath.Join("testdata", tt.name+".golden"), got)
		})
	}
}

func TestErrorReplies(t *testing.T) {
	s := New(Reply{Status: 429, RetryAfter: "7", Message: "Rate limit reached"})
	defer s.Close()
	resp, b, err := post(t, s.URL, `{"model":"m","messages":[]}`)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "7" {
		t.Errorf("status %d retry-after %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	var body struct {
		Error struct{ Message, Type, Code string }
	}
	if err := json.Unmarshal(b, &body); err != nil || body.Error.Message != "Rate limit reached" || body.Error.Code != "rate_limit_exceeded" {
		t.Errorf("body %s (%v)", b, err)
	}
	// Script exhausted: a visible 500.
	resp, b, _ = post(t, s.URL, `{"model":"m","messages":[]}`)
	if resp.StatusCode != 500 || !strings.Contains(string(b), "providertest: no scripted reply left") {
		t.Errorf("exhausted script: %d %s", resp.StatusCode, b)
	}
}

func TestCutDropsConnection(t *testing.T) {
	s := New(Reply{Content: []string{"a", "b", "c"}, CutAfter: 2})
	defer s.Close()
	_, b, err := post(t, s.URL, `{"model":"m","messages":[]}`)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("read error %v, want unexpected EOF", err)
	}
	if n := strings.Count(string(b), "data: "); n != 2 || strings.Contains(string(b), "[DONE]") {
		t.Errorf("got %d chunks before the cut: %s", n, b)
	}
}

func TestScriptPushDynamicAndRecording(t *testing.T) {
	s := New(Reply{Content: []string{"one"}})
	defer s.Close()
	s.Push(Reply{Content: []string{"two"}})
	s.SetDynamic(func(r Recorded) Reply {
		return Reply{Content: []string{"echo:" + r.Messages[0]["content"].(string)}}
	})
	var got []string
	for _, msg := range []string{"a", "b", "c"} {
		_, b, err := post(t, s.URL, `{"model":"m","messages":[{"role":"user","content":"`+msg+`"}]}`)
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`"content":"([^"]+)"`).FindSubmatch(b)
		if m == nil {
			t.Fatalf("no content in %s", b)
		}
		got = append(got, string(m[1]))
	}
	if diff := cmp.Diff([]string{"one", "two", "echo:c"}, got); diff != "" {
		t.Errorf("replies (-want +got):\n%s", diff)
	}
	reqs := s.Requests()
	if len(reqs) != 3 || reqs[1].Messages[0]["content"] != "b" || reqs[1].Header.Get("Content-Type") != "application/json" {
		t.Errorf("recorded %+v", reqs)
	}
}

func TestLoadScript(t *testing.T) {
	path := filepath.Join(t.TempDir(), "script.json")
	script := `[
	  {"content": ["Hi"], "delay": "15ms"},
	  {"code": "print(1)", "delay": 20, "usage": {"input_tokens": 3, "output_tokens": 4}},
	  {"status": 429, "retry_after": "2", "message": "slow"},
	  {"calls": [{"id": "c1", "args": "{}", "fragment": 2}], "cut_after": 3}
	]`
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := LoadScript(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []Reply{
		{Content: []string{"Hi"}, Delay: 15 * time.Millisecond},
		{Code: "print(1)", Delay: 20 * time.Millisecond, Usage: &chat.Usage{InputTokens: 3, OutputTokens: 4}},
		{Status: 429, RetryAfter: "2", Message: "slow"},
		{Calls: []Call{{ID: "c1", Args: "{}", Fragment: 2}}, CutAfter: 3},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("script (-want +got):\n%s", diff)
	}
	if err := os.WriteFile(path, []byte(`[{"delay": "soon"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadScript(path); err == nil || !strings.Contains(err.Error(), "soon") {
		t.Errorf("bad delay: %v", err)
	}
}

func TestModelsAndUnknownPaths(t *testing.T) {
	s := New()
	defer s.Close()
	resp, err := http.Get(s.URL + "/models")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"id":"providertest-model"`) || !strings.Contains(string(b), `"object":"list"`) {
		t.Errorf("models: %s", b)
	}
	resp, err = http.Get(s.URL + "/embeddings")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("unknown path: %d", resp.StatusCode)
	}
}

func TestContextWindowRefusesWithoutConsuming(t *testing.T) {
	s := New(Reply{Content: []string{"fits"}, MaxInputChars: 40}, Reply{Content: []string{"next"}})
	defer s.Close()
	big := `{"model":"m","messages":[{"role":"user","content":"` + strings.Repeat("x", 30) + `"},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"python_execution","arguments":"` + strings.Repeat("y", 11) + `"}}]}]}`
	resp, b, err := post(t, s.URL, big)
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Error struct{ Message, Type, Code string }
	}
	if err := json.Unmarshal(b, &body); err != nil || resp.StatusCode != 400 || body.Error.Code != "context_length_exceeded" ||
		body.Error.Type != "invalid_request_error" ||
		body.Error.Message != "This model's maximum context length is 10 tokens. However, your messages resulted in 11 tokens. Please reduce the length of the messages." {
		t.Fatalf("41 chars against a 40-char window: %d %s (%v)", resp.StatusCode, b, err)
	}
	// The refused request consumed nothing: the smaller one gets "fits".
	_, b, _ = post(t, s.URL, `{"model":"m","messages":[{"role":"user","content":"`+strings.Repeat("x", 40)+`"}]}`)
	if !strings.Contains(string(b), `"content":"fits"`) {
		t.Fatalf("the reply was consumed by the refused request: %s", b)
	}
	if s.Refused() != 1 || len(s.Requests()) != 2 {
		t.Errorf("refused %d, recorded %d", s.Refused(), len(s.Requests()))
	}
	// A server-wide window refuses whatever reply is next.
	s.SetContextWindow(5)
	resp, _, _ = post(t, s.URL, `{"model":"m","messages":[{"role":"user","content":"123456"}]}`)
	if resp.StatusCode != 400 || s.Pending() != 1 {
		t.Fatalf("server window: status %d, pending %d", resp.StatusCode, s.Pending())
	}
	s.SetContextWindow(0)
	if _, b, _ = post(t, s.URL, `{"model":"m","messages":[{"role":"user","content":"123456"}]}`); !strings.Contains(string(b), `"content":"next"`) {
		t.Fatalf("after removing the window: %s", b)
	}
}

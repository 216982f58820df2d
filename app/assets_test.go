package app

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend"
	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/backend/secrets"
)

func pyCall(code string) providertest.Call {
	args, _ := json.Marshal(map[string]string{"code": code})
	return providertest.Call{Args: string(args), Fragment: 4096}
}

// A real engine, a real turn against the scripted LLM and a person's !cmd;
// then the handler serves what each program printed.
func TestOutputHandlerServesEachProgramsOutput(t *testing.T) {
	ctx := context.Background()
	llm := providertest.New(
		// Iteration 1: two programs, a long coloured output and a failure.
		providertest.Reply{Calls: []providertest.Call{
			pyCall(`for i in range(3000): print("\x1b[32mline %d\x1b[0m" % i)`),
			pyCall(`print("before"); {}["missing"]`),
		}},
		providertest.Reply{Content: []string{"Done."}},
	)
	t.Cleanup(llm.Close)
	home, ws := t.TempDir(), t.TempDir()
	vars := map[string]string{"VIS_BASE_URL": llm.URL, "VIS_MODEL": "fake-model"}
	eng, err := backend.Open(ctx, backend.Options{Home: home, Getenv: func(k string) string { return vars[k] }, Secrets: secrets.NewWith(filepath.Join(home, "secrets.json"), nil)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	res, err := eng.RunTurn(ctx, backend.SendRequest{Workspace: ws, Text: "print a lot", Channel: backend.ChannelDesktop})
	if err != nil || res.Status != "done" {
		t.Fatalf("turn: %+v, %v", res, err)
	}
	if _, err := eng.Run(ctx, res.SessionID, backend.Input{Text: "!printf 'a\\nb\\n'"}); err != nil {
		t.Fatal(err)
	}

	var long strings.Builder
	for i := range 3000 {
		long.WriteString("\x1b[32mline " + strconv.Itoa(i) + "\x1b[0m\n")
	}
	srv := httptest.NewServer(OutputHandler(eng))
	t.Cleanup(srv.Close)
	sid := res.SessionID
	tests := []struct {
		name, path string
		status     int
		body       string
	}{
		{"long output of the first program", "/vis/output/" + sid + "/1/1/0", 200, long.String()},
		{"what the failing program printed first", "/vis/output/" + sid + "/1/1/1", 200, "before\n"},
		{"a person's !cmd", "/vis/output/" + sid + "/2/1/0", 200, "a\nb\n"},
		{"the answer's iteration ran no program", "/vis/output/" + sid + "/1/2/0", 404, ""},
		{"no such call", "/vis/output/" + sid + "/1/1/2", 404, ""},
		{"no such turn", "/vis/output/" + sid + "/9/1/0", 404, ""},
		{"no such session", "/vis/output/nosuchsession/1/1/0", 404, ""},
		{"not a number", "/vis/output/" + sid + "/1/x/0", 404, ""},
		{"too short", "/vis/output/" + sid + "/1/1", 404, ""},
		{"not an output path", "/favicon.ico", 404, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := http.Get(srv.URL + tc.path)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d (%s), want %d", resp.StatusCode, body, tc.status)
			}
			if tc.status != 200 {
				return
			}
			if ct := resp.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
			if diff := cmp.Diff(tc.body, string(body)); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
		})
	}

	t.Run("other methods are refused", func(t *testing.T) {
		resp, err := http.Post(srv.URL+"/vis/output/"+sid+"/1/1/0", "text/plain", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("POST: status %d, want 405", resp.StatusCode)
		}
	})
}

type failingSource struct{}

func (failingSource) Transcript(context.Context, string) (backend.Transcript, error) {
	return backend.Transcript{}, errors.New("disk on fire")
}

func TestOutputHandlerReportsAnUnreadableTranscript(t *testing.T) {
	rec := httptest.NewRecorder()
	OutputHandler(failingSource{}).ServeHTTP(rec, httptest.NewRequest("GET", "/vis/output/s/1/1/0", nil))
	if rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), "disk on fire") {
		t.Errorf("got %d %q, want 500 with the cause", rec.Code, rec.Body.String())
	}
}

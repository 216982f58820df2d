package app

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend"
	"github.com/visdesktop/vis/backend/provider"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// decodeWire is what bridge.ts does with a rejected call's message.
func decodeWire(t *testing.T, err error) Error {
	t.Helper()
	s, ok := wireError(err).(string)
	if !ok {
		t.Fatalf("wireError(%v) is not text", err)
	}
	var e Error
	if err := json.Unmarshal([]byte(s), &e); err != nil {
		t.Fatalf("wireError(%v) = %q: not JSON: %v", err, s, err)
	}
	return e
}

// The bound methods' failures reach the page with their class's code and
// the sentence unchanged, on a real engine.
func TestBoundMethodErrorCodes(t *testing.T) {
	llm := providertest.New()
	defer llm.Close()
	home, ws := t.TempDir(), t.TempDir()
	eng := openAt(t, home, llm.URL)
	defer eng.Close()
	a := New(eng, Options{Home: home})

	calls := []struct {
		name string
		call func() error
		want string
	}{
		{"Submit with no text", func() error { _, err := a.Submit("", ws, "  "); return err }, "input"},
		{"Submit an unknown command", func() error { _, err := a.Submit("", ws, "/frobnicate"); return err }, "input"},
		{"NewSession in a missing folder", func() error { _, err := a.NewSession(filepath.Join(ws, "gone")); return err }, "input"},
		{"OpenTranscript of an unknown session", func() error { _, err := a.OpenTranscript("no-such-session"); return err }, "not_found"},
		{"CallOutput of an unknown session", func() error { _, err := a.CallOutput("no-such-session", 1, 1, 0, 0); return err }, "not_found"},
		{"RenameSession with no title", func() error { return a.RenameSession("s", " ") }, "input"},
	}
	for _, c := range calls {
		err := c.call()
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		got := decodeWire(t, err)
		if got.Code != c.want || got.Message != err.Error() {
			t.Errorf("%s: page gets %+v, want code %q and the sentence %q", c.name, got, c.want, err.Error())
		}
	}
}

// The classes a real engine cannot be made to produce cheaply (a provider
// refusing the key, another Vis holding the session, a turn running, a
// bug) keep their codes through the bound method's wrapping.
func TestBoundMethodErrorCodesThroughWrapping(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{&provider.Error{Kind: provider.KindAuth, Status: 401, Endpoint: "http://x/v1"}, "provider_auth"},
		{&backend.HeldElsewhereError{SessionID: "s1", PID: 42}, "conflict"},
		{backend.ErrBusy, "conflict"},
		{backend.ErrNotFound, "not_found"},
		{backend.ErrConfig, "config"},
		{errors.New("disk I/O error"), "internal"},
	}
	for _, c := range cases {
		eng := newFakeEngine()
		eng.err = c.err
		a := New(eng, Options{Home: t.TempDir()})
		_, err := a.Submit("s1", "", "hello")
		if err == nil {
			t.Fatalf("%v: Submit succeeded", c.err)
		}
		got := decodeWire(t, err)
		if got.Code != c.want {
			t.Errorf("%v: code %q, want %q", c.err, got.Code, c.want)
		}
		if !strings.Contains(got.Message, c.err.Error()) {
			t.Errorf("%v: message %q lost the sentence", c.err, got.Message)
		}
	}
}

package backend

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/config"
	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/backend/secrets"
)

func TestSettingsConfigureTheWindowProvider(t *testing.T) {
	t.Parallel()
	llm := providertest.New(providertest.Reply{Content: []string{"hi"}})
	defer llm.Close()
	llm.SetModels("alpha", "beta")
	home := t.TempDir()
	e, err := Open(context.Background(), Options{Home: home, Getenv: func(string) string { return "" }, Secrets: secrets.NewWith(filepath.Join(home, "secrets.json"), nil)})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	v, err := e.Settings(ctx)
	if err != nil || v.Provider != nil || v.Effective.Error == "" || len(v.Presets) != 5 {
		t.Fatalf("first start: %+v %v", v, err)
	}
	key := "sk-test-0123456789abcdef"
	verdict := e.TestConnection(ctx, llm.URL, "beta", &key)
	if !verdict.OK || len(verdict.Models) != 2 {
		t.Fatalf("verdict = %+v", verdict)
	}
	if v := e.TestConnection(ctx, llm.URL, "gamma", &key); v.OK || !strings.Contains(v.Message, "gamma") {
		t.Fatalf("missing model verdict = %+v", v)
	}
	if v := e.TestConnection(ctx, "http://127.0.0.1:1/v1", "", nil); v.OK || !strings.Contains(v.Message, "is not running (connection refused): start it") {
		t.Fatalf("dead endpoint verdict = %+v", v)
	}
	v, err = e.SaveSettings(ctx, SaveSettingsRequest{Preset: "custom", BaseURL: llm.URL, Model: "beta", APIKey: &key})
	if err != nil {
		t.Fatal(err)
	}
	if !v.Provider.HasKey || v.Provider.KeyHint != secrets.Hint(key) || v.Effective.Source != "settings" || v.Effective.Model != "beta" {
		t.Fatalf("after save: %+v / %+v", v.Provider, v.Effective)
	}
	raw, _ := json.Marshal(v)
	if strings.Contains(string(raw), key) {
		t.Fatal("the settings view carries the full key")
	}
	// A turn now uses the window's provider and sends the stored key.
	res, err := e.RunTurn(ctx, SendRequest{Workspace: t.TempDir(), Text: "hello"})
	if err != nil || res.Status != "done" {
		t.Fatalf("turn: %+v %v", res, err)
	}
	if got := llm.Requests()[0].Header.Get("Authorization"); got != "Bearer "+key {
		t.Fatalf("Authorization = %q", got)
	}
	// Saving without a key keeps it; an empty key deletes it.
	v, _ = e.SaveSettings(ctx, SaveSettingsRequest{Preset: "custom", BaseURL: llm.URL, Model: "alpha"})
	if !v.Provider.HasKey || v.Effective.Model != "alpha" {
		t.Fatalf("key lost: %+v", v.Provider)
	}
	empty := ""
	v, _ = e.SaveSettings(ctx, SaveSettingsRequest{Preset: "custom", BaseURL: llm.URL, Model: "alpha", APIKey: &empty})
	if v.Provider.HasKey {
		t.Fatal("key not deleted")
	}
	if _, err := e.SaveSettings(ctx, SaveSettingsRequest{BaseURL: "nope", Model: "m"}); err == nil {
		t.Fatal("bad URL saved")
	}
	if s, _ := config.LoadSettings(home); s.Provider.Model != "alpha" {
		t.Fatalf("a refused save changed the file: %+v", s.Provider)
	}
}

package app

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// feedServer answers every GET with body and counts the requests.
func feedServer(t *testing.T, status int, body string) (string, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &hits
}

func appWithFeed(t *testing.T, version, feed string) *App {
	t.Helper()
	home := t.TempDir()
	if feed != "" {
		if err := os.WriteFile(filepath.Join(home, "config.yml"), []byte("updates:\n  check_url: "+feed+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return New(newFakeEngine(), Options{Home: home, Version: version})
}

func TestUpdateNotice(t *testing.T) {
	newer := `{"version": "1.3.0", "url": "https://example.org/vis/1.3.0", "notes": "Split panes.\nAnd more."}`
	cases := []struct {
		name    string
		version string
		status  int
		body    string
		want    *UpdateNotice
		wantErr bool
		hits    int32
	}{
		{"a newer release", "1.2.9", 200, newer, &UpdateNotice{Version: "1.3.0", URL: "https://example.org/vis/1.3.0", Notes: "Split panes.", Current: "1.2.9"}, false, 1},
		{"the same release", "1.3.0", 200, newer, nil, false, 1},
		{"an older feed", "v2.0.0", 200, newer, nil, false, 1},
		{"a pre-release of it runs", "1.3.0-rc.2", 200, newer, &UpdateNotice{Version: "1.3.0", URL: "https://example.org/vis/1.3.0", Notes: "Split panes.", Current: "1.3.0-rc.2"}, false, 1},
		{"a development build never asks", "c04851a-dirty", 200, newer, nil, false, 0},
		{"dev", "dev", 200, newer, nil, false, 0},
		{"a link that is not the web is dropped", "1.0.0", 200, `{"version":"1.1","url":"javascript:alert(1)"}`, &UpdateNotice{Version: "1.1", Current: "1.0.0"}, false, 1},
		{"not JSON", "1.0.0", 200, `<html>captive portal</html>`, nil, true, 1},
		{"no version in it", "1.0.0", 200, `{"version":"latest"}`, nil, true, 1},
		{"a server error", "1.0.0", 503, `{}`, nil, true, 1},
		{"long notes are cut by characters", "1.0.0", 200, `{"version":"1.1","notes":"` + strings.Repeat("é", 300) + `"}`, &UpdateNotice{Version: "1.1", Current: "1.0.0", Notes: strings.Repeat("é", 199) + "…"}, false, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			feed, hits := feedServer(t, c.status, c.body)
			got, err := appWithFeed(t, c.version, feed).CheckForUpdate()
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, want error %v", err, c.wantErr)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("notice (-want +got):\n%s", diff)
			}
			if hits.Load() != c.hits {
				t.Errorf("the feed was asked %d times, want %d", hits.Load(), c.hits)
			}
		})
	}
}

// Off by default: without updates.check_url nothing is asked of anyone.
func TestUpdateCheckIsOffByDefault(t *testing.T) {
	got, err := appWithFeed(t, "1.0.0", "").CheckForUpdate()
	if got != nil || err != nil {
		t.Fatalf("CheckForUpdate without a feed = %+v, %v; want nil, nil", got, err)
	}
	if _, err := appWithFeed(t, "1.0.0", "file:///etc/passwd").CheckForUpdate(); err == nil {
		t.Fatal("a file: feed: want an error")
	}
}

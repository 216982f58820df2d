package provider_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/provider"
)

// Every failure a person meets when the model server is misconfigured or
// down, produced by real HTTP: its code and a sentence that names the
// action and carries none of Go's error text.
func TestExplainRealFailures(t *testing.T) {
	closed := func(t *testing.T) string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		url := "http://" + ln.Addr().String() + "/v1"
		ln.Close()
		return url
	}
	answering := func(status int, body string) func(t *testing.T) string {
		return func(t *testing.T) string {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(status)
				_, _ = w.Write([]byte(body))
			}))
			t.Cleanup(srv.Close)
			return srv.URL + "/v1"
		}
	}
	untrusted := func(t *testing.T) string {
		srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
		t.Cleanup(srv.Close)
		return srv.URL + "/v1"
	}
	silent := func(t *testing.T) string {
		release := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-release:
			}
		}))
		t.Cleanup(func() { close(release); srv.Close() })
		return srv.URL + "/v1"
	}
	tests := []struct {
		name   string
		server func(t *testing.T) string
		key    string
		code   string
		says   []string
	}{
		{"closed port", closed, testKey, provider.CodeServerDown, []string{"not running", "start it"}},
		{"401", answering(401, `{"error":{"message":"Invalid API key provided"}}`), testKey, provider.CodeAuth, []string{"refused the API key (401)", "check the key in Settings"}},
		{"401 without key", answering(401, `{"error":{"message":"missing key"}}`), "", provider.CodeAuth, []string{"needs an API key", "add one in Settings"}},
		{"403", answering(403, `{"error":{"message":"forbidden"}}`), testKey, provider.CodeAuth, []string{"(403)", "check the key"}},
		{"404 model", answering(404, `{"error":{"message":"model 'test-model' not found, try pulling it first"}}`), testKey, provider.CodeModelNotFound, []string{`"test-model" is not available`, "pick another model"}},
		{"404 url", answering(404, `404 page not found`), testKey, provider.CodeNoAPI, []string{"OpenAI-compatible API (404)", "check the URL"}},
		{"tls untrusted", untrusted, testKey, provider.CodeTLS, []string{"secure connection", "check the URL"}},
		{"timeout", silent, testKey, provider.CodeTimeout, []string{"sent nothing for 200ms", "retry"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := tt.server(t)
			// Only the silent server waits out the idle timeout: the others
			// get a generous one, so a slow TLS handshake on a loaded
			// machine is not taken for a timeout.
			idle := 20 * time.Second
			if tt.code == provider.CodeTimeout {
				idle = 200 * time.Millisecond
			}
			c, err := provider.New(provider.Config{BaseURL: url, APIKey: tt.key, Model: "test-model", MaxRetries: -1,
				RetryBase: time.Millisecond, IdleTimeout: idle})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Stream(context.Background(), userMsgs("x"), nil)
			code, sentence := provider.Explain(err)
			if code != tt.code {
				t.Errorf("code %q, want %q (error %v)", code, tt.code, err)
			}
			for _, w := range tt.says {
				if !strings.Contains(sentence, w) {
					t.Errorf("sentence %q does not say %q", sentence, w)
				}
			}
			checkSentence(t, sentence)
		})
	}
}

// checkSentence: one sentence, no Go error text, no key.
func checkSentence(t *testing.T, s string) {
	t.Helper()
	for _, raw := range []string{"dial tcp", "x509", "provider http", "Post \"", "context deadline", "connect:", testKey, "\n"} {
		if strings.Contains(s, raw) {
			t.Errorf("sentence %q contains %q", s, raw)
		}
	}
	if !strings.HasSuffix(s, ".") || strings.Count(s, ". ") > 0 {
		t.Errorf("sentence %q is not one sentence", s)
	}
}

// ListModels (the settings dialog's "Test connection") explains its
// failures the same way.
func TestExplainListModelsRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	c := newClient(t, url, func(c *provider.Config) { c.Model = "-"; c.MaxRetries = -1 })
	_, err = c.ListModels(context.Background())
	if code, s := provider.Explain(err); code != provider.CodeServerDown || !strings.Contains(s, ln.Addr().String()) {
		t.Errorf("Explain = %q, %q; want server_down naming the address", code, s)
	}
}

// A TLS failure is not retried: an untrusted certificate stays untrusted.
func TestTLSFailureNotRetried(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	c := newClient(t, srv.URL+"/v1", func(c *provider.Config) { c.MaxRetries = 3 })
	retries := 0
	req := userMsgs("x")
	req.OnRetry = func(provider.RetryInfo) { retries++ }
	_, err := c.Stream(context.Background(), req, nil)
	if pe := asError(t, err); pe.Cause != provider.CauseTLS || retries != 0 {
		t.Errorf("cause %q after %d retries; want tls, none", pe.Cause, retries)
	}
}

func TestExplainNonProviderError(t *testing.T) {
	if code, s := provider.Explain(context.Canceled); code != "" || s != "" {
		t.Errorf("Explain(non-provider) = %q, %q; want empty", code, s)
	}
}

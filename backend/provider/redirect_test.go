package provider_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/provider"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// An endpoint redirecting to another origin (here: the same host on
// another port) never gets the key there: the redirect is not followed and
// the turn ends with a sentence naming where it pointed, without retries.
// A redirect within the origin is still followed.
func TestRedirectToAnotherOriginKeepsTheKey(t *testing.T) {
	var leaked, reached atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		if strings.Contains(r.Header.Get("Authorization"), testKey) {
			leaked.Add(1)
		}
		w.WriteHeader(500)
	}))
	defer other.Close()
	var hits atomic.Int32
	redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer redirecting.Close()
	c := newClient(t, redirecting.URL+"/v1")
	_, err := c.Stream(context.Background(), userMsgs("x"), nil)
	code, sentence := provider.Explain(err)
	if code != provider.CodeRedirect || !strings.Contains(sentence, other.URL[len("http://"):]) || !strings.Contains(sentence, "not sent there") {
		t.Fatalf("code %q, sentence %q (error %v)", code, sentence, err)
	}
	checkSentence(t, sentence)
	if reached.Load() != 0 || leaked.Load() != 0 {
		t.Fatalf("the other origin was reached %d times, %d with the key", reached.Load(), leaked.Load())
	}
	if hits.Load() != 1 {
		t.Errorf("the redirecting endpoint was asked %d times; a redirect is not worth a retry", hits.Load())
	}

	// Same origin: followed to the real path.
	llm := providertest.New(providertest.Reply{Content: []string{"hi"}})
	defer llm.Close()
	moved := http.NewServeMux()
	moved.HandleFunc("/old/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/v1/chat/completions", http.StatusTemporaryRedirect)
	})
	moved.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		proxy := strings.TrimSuffix(llm.URL, "/v1") + r.URL.Path
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, proxy, r.Body)
		req.Header = r.Header
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			w.WriteHeader(502)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		buf := make([]byte, 32<<10)
		for {
			n, err := resp.Body.Read(buf)
			w.Write(buf[:n])
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
			if err != nil {
				return
			}
		}
	})
	same := httptest.NewServer(moved)
	defer same.Close()
	if _, err := newClient(t, same.URL+"/old/v1").Stream(context.Background(), userMsgs("x"), nil); err != nil {
		t.Fatalf("a same-origin redirect: %v", err)
	}
}

// A server that accepts the request and then says nothing is re-issued on
// the broken-stream budget (twice), never on the transport one (a turn used
// to hang 25 minutes: 5 minutes idle, 4 retries); with the 120 s default a
// silent server costs at most 6 minutes.
func TestSilentServerIsRetriedOnlyTwice(t *testing.T) {
	var hits atomic.Int32
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer func() { close(release); srv.Close() }()
	c := newClient(t, srv.URL+"/v1", func(cfg *provider.Config) { cfg.IdleTimeout = 300 * time.Millisecond; cfg.MaxRetries = 4 })
	_, err := c.Stream(context.Background(), userMsgs("x"), nil)
	if code, _ := provider.Explain(err); code != provider.CodeTimeout {
		t.Fatalf("code %q (%v)", code, err)
	}
	if n := hits.Load(); n != 3 {
		t.Fatalf("the silent server was asked %d times, want 3", n)
	}
}

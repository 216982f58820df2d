package provider_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/provider"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// fullBacklog is a loopback address whose listener never accepts and whose
// accept queue is full, so a new connection's SYN is dropped and connect
// waits: a server that cannot take a connection, deterministically and
// offline. The socket has backlog 0 (room for one pending connection);
// dialing until a dial times out fills it.
func fullBacklog(t *testing.T) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(fd, 0); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", sa.(*syscall.SockaddrInet4).Port)
	for i := 0; ; i++ {
		c, err := net.DialTimeout("tcp", addr, 300*time.Millisecond)
		if err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				return addr
			}
			t.Fatalf("filling the backlog: %v", err)
		}
		t.Cleanup(func() { c.Close() })
		if i == 16 {
			t.Fatal("the backlog never filled")
		}
	}
}

// A server that takes no connection: the connect timeout ends each attempt,
// the refused-connection policy retries it twice, then the turn gets one
// sentence naming the timeout, where it is set and what to do.
func TestConnectTimeoutIsRetriedThenExplained(t *testing.T) {
	addr := fullBacklog(t)
	var retries []string
	c := newClient(t, "http://"+addr+"/v1", func(c *provider.Config) {
		c.ConnectTimeout = 200 * time.Millisecond
		c.ConnectWhere = "provider.connect_timeout_seconds: 1 in /h/config.yml"
	})
	req := userMsgs("x")
	req.OnRetry = func(ri provider.RetryInfo) { retries = append(retries, ri.Err.Code()) }
	_, err := c.Stream(context.Background(), req, nil)
	code, sentence := provider.Explain(err)
	if code != provider.CodeConnect {
		t.Fatalf("code %q, want %q (error %v)", code, provider.CodeConnect, err)
	}
	if len(retries) != 2 || retries[0] != provider.CodeConnect || retries[1] != provider.CodeConnect {
		t.Errorf("retries %v, want two connect_timeout retries", retries)
	}
	for _, w := range []string{"within 200ms (provider.connect_timeout_seconds: 1 in /h/config.yml)", "check the URL in Settings", "then retry"} {
		if !strings.Contains(sentence, w) {
			t.Errorf("sentence %q does not say %q", sentence, w)
		}
	}
	checkSentence(t, sentence)
}

// A stream that starts and then sends nothing: each attempt ends at the idle
// timeout, is re-issued twice, and the turn gets a sentence naming the
// timeout and its key; the same for a server that never sends its headers.
func TestIdleTimeoutIsRetriedThenExplained(t *testing.T) {
	hanging := func(t *testing.T) string {
		h := providertest.Reply{Hang: true}
		srv := providertest.New(h, h, h, providertest.Reply{Content: []string{"never"}})
		t.Cleanup(srv.Close)
		return srv.URL
	}
	noHeaders := func(t *testing.T) string {
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
	for _, tt := range []struct {
		name   string
		server func(t *testing.T) string
	}{
		{"silent stream", hanging},
		{"no headers", noHeaders},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var retries []string
			c := newClient(t, tt.server(t), func(c *provider.Config) {
				c.IdleTimeout = 100 * time.Millisecond
				c.IdleWhere = "provider.idle_timeout_seconds: unset, default 120"
			})
			req := userMsgs("x")
			req.OnRetry = func(ri provider.RetryInfo) { retries = append(retries, ri.Err.Code()) }
			_, err := c.Stream(context.Background(), req, nil)
			code, sentence := provider.Explain(err)
			if code != provider.CodeTimeout {
				t.Fatalf("code %q, want %q (error %v)", code, provider.CodeTimeout, err)
			}
			if len(retries) != 2 || retries[0] != provider.CodeTimeout || retries[1] != provider.CodeTimeout {
				t.Errorf("retries %v, want two timeout re-issues", retries)
			}
			for _, w := range []string{"sent nothing for 100ms (provider.idle_timeout_seconds: unset, default 120)", "then retry", "raise provider.idle_timeout_seconds"} {
				if !strings.Contains(sentence, w) {
					t.Errorf("sentence %q does not say %q", sentence, w)
				}
			}
			checkSentence(t, sentence)
		})
	}
}

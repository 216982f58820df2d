package clojure

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/visdesktop/vis/backend/packs/clojure/nrepl"
)

// shadowPeer is a scripted nREPL server that answers as a shadow-cljs watch
// does (shadow-cljs itself cannot run here):
//   - describe reports only JVM versions;
//   - the probe form answers what builds exist, which are watched, targets;
//   - (shadow.cljs.devtools.api/nrepl-select :b) selects b in that SESSION,
//     answers [:selected :b], and fails when the session already sits in a
//     build (the form is then compiled as ClojureScript);
//   - :cljs/quit returns the session to CLJ;
//   - an eval in a selected build answers "cljs:<build>:<code>" when the
//     build has a JS runtime, else "No available JS runtime." on err;
//   - in CLJ, (+ 1 1) is "2" and anything else "clj:<code>".
type shadowPeer struct {
	t       *testing.T
	ln      net.Listener
	watched map[string]bool // build -> has a JS runtime
	all     []string        // every build in the config

	mu        sync.Mutex
	selected  map[string]string // session -> build
	nsess     int
	describes int
	healths   int
	wg        sync.WaitGroup
	conns     []net.Conn
}

func newShadowPeer(t *testing.T, watched map[string]bool, all []string) *shadowPeer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &shadowPeer{t: t, ln: ln, watched: watched, all: all, selected: map[string]string{}}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.close)
	return p
}

func (p *shadowPeer) port() int { return p.ln.Addr().(*net.TCPAddr).Port }

func (p *shadowPeer) counts() (describes, healths int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.describes, p.healths
}

func (p *shadowPeer) close() {
	p.ln.Close()
	p.mu.Lock()
	for _, c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

func (p *shadowPeer) accept() {
	defer p.wg.Done()
	for {
		nc, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		p.conns = append(p.conns, nc)
		p.mu.Unlock()
		p.wg.Add(1)
		go p.serve(nc)
	}
}

func (p *shadowPeer) serve(nc net.Conn) {
	defer p.wg.Done()
	defer nc.Close()
	br := bufio.NewReader(nc)
	var wmu sync.Mutex
	send := func(m map[string]any) {
		wmu.Lock()
		defer wmu.Unlock()
		_ = nrepl.Encode(nc, m)
	}
	for {
		v, err := nrepl.Decode(br)
		if err != nil {
			return
		}
		req, _ := v.(map[string]any)
		id, _ := req["id"].(string)
		sess, _ := req["session"].(string)
		done := func(extra map[string]any, status ...string) {
			m := map[string]any{"id": id, "session": sess, "status": append([]any{}, toAny(status)...)}
			for k, x := range extra {
				m[k] = x
			}
			send(m)
		}
		switch req["op"] {
		case "clone":
			p.mu.Lock()
			p.nsess++
			n := p.nsess
			p.mu.Unlock()
			done(map[string]any{"new-session": fmt.Sprintf("sess-%d", n)}, "done")
		case "describe":
			p.mu.Lock()
			p.describes++
			p.mu.Unlock()
			done(map[string]any{
				"ops":      map[string]any{"clone": map[string]any{}, "close": map[string]any{}, "describe": map[string]any{}, "eval": map[string]any{}, "interrupt": map[string]any{}},
				"versions": map[string]any{"clojure": map[string]any{"version-string": "1.12.0"}, "nrepl": map[string]any{"version-string": "1.3.1"}},
			}, "done")
		case "close", "interrupt":
			done(nil, "done")
		case "eval":
			code, _ := req["code"].(string)
			p.eval(send, id, sess, strings.TrimSpace(code))
		default:
			done(nil, "unknown-op", "done")
		}
	}
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func (p *shadowPeer) eval(send func(map[string]any), id, sess, code string) {
	value := func(v string) {
		send(map[string]any{"id": id, "session": sess, "value": v, "ns": "user"})
		send(map[string]any{"id": id, "session": sess, "status": []any{"done"}})
	}
	fail := func(errText, ex string) {
		send(map[string]any{"id": id, "session": sess, "err": errText})
		send(map[string]any{"id": id, "session": sess, "ex": ex, "root-ex": ex, "status": []any{"eval-error"}})
		send(map[string]any{"id": id, "session": sess, "status": []any{"done"}})
	}
	p.mu.Lock()
	build := p.selected[sess]
	p.mu.Unlock()
	switch {
	case code == ":cljs/quit":
		p.mu.Lock()
		delete(p.selected, sess)
		p.mu.Unlock()
		value(":cljs/quit")
	case strings.HasPrefix(code, "(shadow.cljs.devtools.api/nrepl-select :"):
		if build != "" {
			fail("No such namespace: shadow.cljs.devtools.api\n", "clojure.lang.ExceptionInfo")
			return
		}
		b := strings.TrimSuffix(strings.TrimPrefix(code, "(shadow.cljs.devtools.api/nrepl-select :"), ")")
		if _, ok := p.watched[b]; !ok {
			value("[:no-worker :" + b + "]")
			send(map[string]any{"id": id, "session": sess, "err": "watch for build not running\n"})
			return
		}
		p.mu.Lock()
		p.selected[sess] = b
		p.mu.Unlock()
		value("[:selected :" + b + "]")
	case build != "":
		if !p.watched[build] {
			send(map[string]any{"id": id, "session": sess, "err": "No available JS runtime.\nSee https://shadow-cljs.github.io/docs/UsersGuide.html#repl-troubleshooting\n"})
			send(map[string]any{"id": id, "session": sess, "status": []any{"done"}})
			return
		}
		value(`"cljs:` + build + `:` + code + `"`)
	case strings.Contains(code, "worker-running?"):
		b := code[strings.Index(code, " b :")+4:]
		b = b[:strings.Index(b, "]")]
		_, watched := p.watched[b]
		target := ":node-script"
		var builds []string
		for _, x := range p.all {
			builds = append(builds, ":"+x)
		}
		m := fmt.Sprintf("{:shadow true, :builds [%s], :worker %v, :target %s}", strings.Join(builds, " "), watched, target)
		value(cljString(m))
	case code == "(+ 1 1)":
		p.mu.Lock()
		p.healths++
		p.mu.Unlock()
		value("2")
	default:
		value(`"clj:` + strings.ReplaceAll(code, `"`, `\"`) + `"`)
	}
}

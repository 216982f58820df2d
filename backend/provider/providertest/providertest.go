// Package providertest is the project's only fake: a scripted
// OpenAI-compatible chat server that speaks the real streaming wire format.
//
// A Server answers POST {URL}/chat/completions with the next scripted Reply
// (FIFO), or with the dynamic function once the script is exhausted, or with
// a 500 "providertest: no scripted reply left" so a test that under-scripts
// fails visibly. GET {URL}/models lists the models. Every chat request is
// recorded (body, raw bytes, headers, messages) and available from Requests.
//
// The stream is what OpenAI sends with stream=true: `data: {json}` events
// separated by blank lines, a first delta carrying "role":"assistant", then
// reasoning_content deltas, content deltas, tool-call deltas (a header
// fragment with index, id, type and name, then argument fragments carrying
// only index and arguments), a chunk with the finish_reason, a usage chunk
// with "choices":[] when the request asked for include_usage, and
// `data: [DONE]`. Replies can also cut the connection mid-stream, hang until
// the client goes away, or answer with an HTTP error and Retry-After.
//
// A context window can be set per reply (Reply.MaxInputChars) or for the
// whole server (SetContextWindow). A request whose messages are larger gets
// OpenAI's context_length_exceeded error (HTTP 400) and consumes nothing: the
// same scripted reply answers the client's next, smaller request. Sizes are
// counted in characters of the messages' text (content, text parts and
// tool-call arguments); the error names them in tokens at 4 characters each.
//
// Concurrency: a Server is safe for concurrent use; requests are served
// concurrently and take replies from the script in arrival order. Close
// unblocks hanging replies and waits for handlers to end.
package providertest

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/visdesktop/vis/backend/chat"
)

// ToolName is the default tool-call name, the provider's single tool.
const ToolName = "python_execution"

// Reply scripts one response to a chat completion request.
type Reply struct {
	// Status 0 or 200 streams a reply; any other status answers with an
	// OpenAI-style error body {"error":{"message","type","code"}}.
	Status int `json:"status,omitempty"`
	// RetryAfter is sent as the Retry-After header of an error reply.
	RetryAfter string `json:"retry_after,omitempty"`
	// Message is the error message (default: the HTTP status text).
	Message string `json:"message,omitempty"`
	// RawBody, when set on an error reply, is sent verbatim instead of the
	// OpenAI error object (e.g. Ollama's {"error":"..."} or an HTML page).
	RawBody string `json:"raw_body,omitempty"`

	// Reasoning chunks are streamed first, as reasoning_content deltas, or
	// as "reasoning" deltas when ReasoningField is "reasoning" (OpenRouter,
	// Ollama).
	Reasoning      []string `json:"reasoning,omitempty"`
	ReasoningField string   `json:"reasoning_field,omitempty"`
	// Content chunks are streamed after the reasoning.
	Content []string `json:"content,omitempty"`
	// Calls are streamed after the content.
	Calls []Call `json:"calls,omitempty"`
	// Code is a shortcut for one python_execution call with {"code": Code},
	// appended after Calls.
	Code string `json:"code,omitempty"`
	// Interleave streams the fragments of several calls round-robin instead
	// of one call after the other.
	Interleave bool `json:"interleave,omitempty"`
	// NoIndex omits "index" from tool-call fragments, as some local servers
	// do for single calls.
	NoIndex bool `json:"no_index,omitempty"`
	// Usage is sent in a final chunk with empty choices when the request
	// asked for stream_options.include_usage.
	Usage *chat.Usage `json:"usage,omitempty"`
	// Finish is the finish_reason; default "tool_calls" when there are
	// calls, else "stop".
	Finish string `json:"finish,omitempty"`
	// Model overrides the model name reported in chunks (default: the
	// requested model).
	Model string `json:"model,omitempty"`

	// StreamError, when set, ends the stream after the content with an
	// error event carrying this message and StreamErrorCode, in
	// OpenRouter's shape (a chunk with a top-level "error" and
	// finish_reason "error"), or with BareStreamError as a bare
	// `data: {"error":{...}}` event as vLLM sends.
	StreamError     string `json:"stream_error,omitempty"`
	StreamErrorCode int    `json:"stream_error_code,omitempty"`
	BareStreamError bool   `json:"bare_stream_error,omitempty"`

	// CutAfter > 0 drops the connection after this many data chunks, with
	// no finish chunk past that point and no [DONE].
	CutAfter int `json:"cut_after,omitempty"`
	// Hang streams the role chunk, then blocks until the client goes away
	// (or the server closes).
	Hang bool `json:"hang,omitempty"`
	// HangAfter > 0 streams this many data chunks (the role chunk counts),
	// then blocks like Hang.
	HangAfter int `json:"hang_after,omitempty"`
	// Delay pauses between chunks. In a script file it is a duration string
	// ("10ms") or a number of milliseconds.
	Delay time.Duration `json:"delay,omitempty"`

	// MaxInputChars > 0 is the context window this reply needs to fit in:
	// a request whose messages hold more characters (InputChars) is
	// refused as OpenAI refuses a prompt that is too long — HTTP 400,
	// {"error":{"message":"This model's maximum context length is N
	// tokens. However, your messages resulted in M tokens. ...",
	// "type":"invalid_request_error","code":"context_length_exceeded"}},
	// N = MaxInputChars/4 and M = InputChars/4 rounded up — and the reply
	// is NOT consumed: it stays first in the script and answers the next
	// request that fits. A script can therefore read "this reply, once the
	// client has shrunk its request below the window".
	MaxInputChars int `json:"max_input_chars,omitempty"`
}

// Call is one scripted tool call.
type Call struct {
	ID   string `json:"id,omitempty"`   // default call_<n>
	Name string `json:"name,omitempty"` // default python_execution
	Args string `json:"args,omitempty"` // raw JSON arguments text
	// Fragment is the size in bytes of each argument piece (default 7).
	Fragment int `json:"fragment,omitempty"`
}

// Recorded is one chat completion request as the server received it.
type Recorded struct {
	Body     map[string]any
	Raw      []byte
	Header   http.Header
	Messages []map[string]any
	// Received is when the whole body had arrived; Answered when the reply
	// was written and flushed (zero for a refused or unanswered request,
	// and in the copy a dynamic reply or SetOnRequest sees). The gap from
	// one request's Answered to the next one's Received is the client's own
	// time between a response and its next request.
	Received, Answered time.Time `json:"-"`
}

// Server is a running fake; URL ends with /v1.
type Server struct {
	URL string

	srv  *httptest.Server
	done chan struct{}
	once sync.Once

	mu      sync.Mutex
	queue   []Reply
	dynamic func(Recorded) Reply
	reqs    []Recorded
	models  []string
	nextID  int
	window  int // SetContextWindow: 0 = none
	refused int // requests refused for exceeding a window
	onReq   func(Recorded)
}

// SetOnRequest sets a function called with every chat request as it
// arrives, before it is answered (fakellm's request log).
func (s *Server) SetOnRequest(f func(Recorded)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onReq = f
}

// New starts a server on a loopback port with the given script.
func New(replies ...Reply) *Server {
	s, err := Listen("127.0.0.1:0", replies...)
	if err != nil {
		panic(fmt.Sprintf("providertest: %v", err))
	}
	return s
}

// Listen starts a server on addr (host:port; port 0 picks one).
func Listen(addr string, replies ...Reply) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen %s: %w", addr, err)
	}
	s := &Server{
		done:   make(chan struct{}),
		queue:  append([]Reply(nil), replies...),
		models: []string{"providertest-model"},
	}
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	s.srv.Listener.Close()
	s.srv.Listener = ln
	s.srv.Start()
	s.URL = s.srv.URL + "/v1"
	return s, nil
}

// Push appends replies to the script.
func (s *Server) Push(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, replies...)
}

// SetDynamic sets the function that answers once the script is exhausted.
func (s *Server) SetDynamic(f func(r Recorded) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dynamic = f
}

// SetModels sets the ids GET /models lists (default "providertest-model").
func (s *Server) SetModels(ids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = append([]string(nil), ids...)
}

// SetContextWindow gives every chat request a context window of chars
// characters (0 removes it), whatever reply would answer it: a larger
// request is refused like Reply.MaxInputChars refuses one, and consumes no
// reply.
func (s *Server) SetContextWindow(chars int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.window = chars
}

// Refused reports how many requests were refused for exceeding a context
// window (they are recorded in Requests like every other request).
func (s *Server) Refused() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

// InputChars is the size a context window is measured against: the
// characters of every message's text content, text parts and tool-call
// arguments.
func InputChars(messages []map[string]any) int {
	n := 0
	for _, m := range messages {
		switch c := m["content"].(type) {
		case string:
			n += utf8.RuneCountInString(c)
		case []any:
			for _, p := range c {
				if pm, ok := p.(map[string]any); ok {
					if t, ok := pm["text"].(string); ok {
						n += utf8.RuneCountInString(t)
					}
				}
			}
		}
		if calls, ok := m["tool_calls"].([]any); ok {
			for _, c := range calls {
				if cm, ok := c.(map[string]any); ok {
					if f, ok := cm["function"].(map[string]any); ok {
						if a, ok := f["arguments"].(string); ok {
							n += utf8.RuneCountInString(a)
						}
					}
				}
			}
		}
	}
	return n
}

// Requests returns the chat completion requests received so far, in order.
func (s *Server) Requests() []Recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Recorded(nil), s.reqs...)
}

// Pending reports how many scripted replies have not been used yet.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// Close stops the server, unblocking hanging replies.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.done)
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimSuffix(r.URL.Path, "/")
	switch {
	case r.Method == http.MethodGet && path == "/v1/models":
		s.serveModels(w)
	case r.Method == http.MethodPost && path == "/v1/chat/completions":
		s.serveChat(w, r)
	default:
		writeError(w, Reply{Status: http.StatusNotFound,
			Message: fmt.Sprintf("Invalid URL (%s %s)", r.Method, r.URL.Path)})
	}
}

func (s *Server) serveModels(w http.ResponseWriter) {
	s.mu.Lock()
	ids := append([]string(nil), s.models...)
	s.mu.Unlock()
	type model struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Created int64  `json:"created"`
		OwnedBy string `json:"owned_by"`
	}
	list := struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{Object: "list", Data: []model{}}
	for _, id := range ids {
		list.Data = append(list.Data, model{ID: id, Object: "model", Created: 1700000000, OwnedBy: "providertest"})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(list)
}

func (s *Server) serveChat(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, Reply{Status: http.StatusBadRequest, Message: "providertest: read body: " + err.Error()})
		return
	}
	rec := Recorded{Raw: raw, Header: r.Header.Clone(), Received: time.Now()}
	if err := json.Unmarshal(raw, &rec.Body); err != nil {
		writeError(w, Reply{Status: http.StatusBadRequest, Message: "providertest: body is not JSON: " + err.Error()})
		return
	}
	if msgs, ok := rec.Body["messages"].([]any); ok {
		for _, m := range msgs {
			if mm, ok := m.(map[string]any); ok {
				rec.Messages = append(rec.Messages, mm)
			}
		}
	}

	size := InputChars(rec.Messages)
	s.mu.Lock()
	if s.onReq != nil {
		s.onReq(rec)
	}
	s.reqs = append(s.reqs, rec)
	slot := len(s.reqs) - 1
	s.nextID++
	id := s.nextID
	var reply Reply
	have := false
	if s.window > 0 && size > s.window {
		s.refused++
		s.mu.Unlock()
		writeOverflow(w, s.window, size)
		return
	}
	if len(s.queue) > 0 {
		if max := s.queue[0].MaxInputChars; max > 0 && size > max {
			s.refused++
			s.mu.Unlock()
			writeOverflow(w, max, size) // the reply stays for the next request
			return
		}
		reply, s.queue = s.queue[0], s.queue[1:]
		have = true
	}
	dyn := s.dynamic
	s.mu.Unlock()
	if !have && dyn != nil {
		reply, have = dyn(rec), true
		if reply.MaxInputChars > 0 && size > reply.MaxInputChars {
			s.mu.Lock()
			s.refused++
			s.mu.Unlock()
			writeOverflow(w, reply.MaxInputChars, size)
			return
		}
	}
	if !have {
		writeError(w, Reply{Status: http.StatusInternalServerError, Message: "providertest: no scripted reply left"})
		return
	}
	if reply.Status != 0 && reply.Status != http.StatusOK {
		writeError(w, reply)
		return
	}
	model, _ := rec.Body["model"].(string)
	if reply.Model != "" {
		model = reply.Model
	}
	includeUsage := false
	if so, ok := rec.Body["stream_options"].(map[string]any); ok {
		includeUsage, _ = so["include_usage"].(bool)
	}
	st := &streamer{
		w: w, r: r, done: s.done, reply: reply,
		id:           fmt.Sprintf("chatcmpl-providertest%06d", id),
		model:        model,
		created:      time.Now().Unix(),
		includeUsage: includeUsage,
	}
	st.run()
	s.mu.Lock()
	s.reqs[slot].Answered = time.Now()
	s.mu.Unlock()
}

// writeOverflow answers as OpenAI does when the prompt exceeds the model's
// context window (sizes in characters, reported in tokens of 4 characters).
func writeOverflow(w http.ResponseWriter, maxChars, chars int) {
	body := map[string]any{"error": map[string]any{
		"message": fmt.Sprintf("This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.",
			(maxChars+3)/4, (chars+3)/4),
		"type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded",
	}}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_ = json.NewEncoder(w).Encode(body)
}

// writeError answers with an OpenAI-style error object.
func writeError(w http.ResponseWriter, reply Reply) {
	if reply.RetryAfter != "" {
		w.Header().Set("Retry-After", reply.RetryAfter)
	}
	if reply.RawBody != "" {
		if strings.HasPrefix(strings.TrimSpace(reply.RawBody), "{") {
			w.Header().Set("Content-Type", "application/json")
		} else {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		w.WriteHeader(reply.Status)
		_, _ = io.WriteString(w, reply.RawBody)
		return
	}
	msg := reply.Message
	if msg == "" {
		msg = http.StatusText(reply.Status)
	}
	typ, code := "invalid_request_error", any(nil)
	switch {
	case reply.Status == http.StatusUnauthorized:
		code = "invalid_api_key"
	case reply.Status == http.StatusNotFound:
		code = "model_not_found"
	case reply.Status == http.StatusTooManyRequests:
		typ, code = "requests", "rate_limit_exceeded"
	case reply.Status >= 500:
		typ = "server_error"
	}
	body := map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(reply.Status)
	_ = json.NewEncoder(w).Encode(body)
}

// Wire shapes of a chunk, in OpenAI's field order.
type (
	wireChunk struct {
		ID                string       `json:"id"`
		Object            string       `json:"object"`
		Created           int64        `json:"created"`
		Model             string       `json:"model"`
		SystemFingerprint string       `json:"system_fingerprint"`
		Choices           []wireChoice `json:"choices"`
		Usage             *wireUsage   `json:"usage,omitempty"`
	}
	wireChoice struct {
		Index        int        `json:"index"`
		Delta        *wireDelta `json:"delta"`
		Logprobs     *struct{}  `json:"logprobs"`
		FinishReason *string    `json:"finish_reason"`
	}
	wireDelta struct {
		Role             string     `json:"role,omitempty"`
		Content          *string    `json:"content,omitempty"`
		ReasoningContent *string    `json:"reasoning_content,omitempty"`
		Reasoning        *string    `json:"reasoning,omitempty"`
		ToolCalls        []wireTool `json:"tool_calls,omitempty"`
	}
	wireTool struct {
		Index    *int     `json:"index,omitempty"`
		ID       string   `json:"id,omitempty"`
		Type     string   `json:"type,omitempty"`
		Function wireFunc `json:"function"`
	}
	wireFunc struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	}
	wireUsage struct {
		PromptTokens            int `json:"prompt_tokens"`
		CompletionTokens        int `json:"completion_tokens"`
		TotalTokens             int `json:"total_tokens"`
		PromptTokensDetails     any `json:"prompt_tokens_details"`
		CompletionTokensDetails any `json:"completion_tokens_details"`
	}
)

type streamer struct {
	w            http.ResponseWriter
	r            *http.Request
	done         <-chan struct{}
	reply        Reply
	id, model    string
	created      int64
	includeUsage bool
	sent         int
}

// errStop ends a stream early (cut, client gone, server closing).
type errStop struct{}

func (errStop) Error() string { return "stream stopped" }

func (st *streamer) run() {
	h := st.w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "keep-alive")
	st.w.WriteHeader(http.StatusOK)
	if err := st.body(); err != nil {
		return
	}
	if st.reply.CutAfter > 0 {
		st.cut() // the whole reply fitted: still no [DONE]
		return
	}
	_, _ = io.WriteString(st.w, "data: [DONE]\n\n")
	st.flush()
}

func (st *streamer) body() error {
	rp := st.reply
	empty := ""
	if err := st.send(&wireDelta{Role: "assistant", Content: &empty}, nil, false); err != nil {
		return err
	}
	if rp.Hang {
		select {
		case <-st.r.Context().Done():
		case <-st.done:
		}
		return errStop{}
	}
	for _, r := range rp.Reasoning {
		d := &wireDelta{ReasoningContent: &r}
		if rp.ReasoningField == "reasoning" {
			d = &wireDelta{Reasoning: &r}
		}
		if err := st.send(d, nil, false); err != nil {
			return err
		}
	}
	for _, c := range rp.Content {
		if err := st.send(&wireDelta{Content: &c}, nil, false); err != nil {
			return err
		}
	}
	if rp.StreamError != "" {
		return st.sendError()
	}
	calls := append([]Call(nil), rp.Calls...)
	if rp.Code != "" {
		args, _ := json.Marshal(map[string]string{"code": rp.Code})
		calls = append(calls, Call{Args: string(args)})
	}
	for _, frag := range st.toolFragments(calls) {
		if err := st.send(&wireDelta{ToolCalls: []wireTool{frag}}, nil, false); err != nil {
			return err
		}
	}
	finish := rp.Finish
	if finish == "" {
		finish = "stop"
		if len(calls) > 0 {
			finish = "tool_calls"
		}
	}
	if err := st.send(&wireDelta{}, &finish, false); err != nil {
		return err
	}
	if rp.Usage != nil && st.includeUsage {
		if err := st.send(nil, nil, true); err != nil {
			return err
		}
	}
	return nil
}

// toolFragments returns the tool_calls entries of every chunk, in order.
func (st *streamer) toolFragments(calls []Call) []wireTool {
	per := make([][]wireTool, len(calls))
	for i, c := range calls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("call_%s_%d", strings.TrimPrefix(st.id, "chatcmpl-"), i)
		}
		name := c.Name
		if name == "" {
			name = ToolName
		}
		var index *int
		if !st.reply.NoIndex {
			index = &i
		}
		head := wireTool{Index: index, ID: id, Type: "function", Function: wireFunc{Name: name}}
		per[i] = append(per[i], head)
		size := c.Fragment
		if size <= 0 {
			size = 7
		}
		for args := c.Args; args != ""; {
			// Real fragments are whole tokens: never split a UTF-8 sequence.
			n := min(size, len(args))
			for n < len(args) && !utf8.RuneStart(args[n]) {
				n++
			}
			per[i] = append(per[i], wireTool{Index: index, Function: wireFunc{Arguments: args[:n]}})
			args = args[n:]
		}
	}
	var out []wireTool
	if !st.reply.Interleave {
		for _, p := range per {
			out = append(out, p...)
		}
		return out
	}
	for k := 0; ; k++ {
		more := false
		for _, p := range per {
			if k < len(p) {
				out = append(out, p[k])
				more = true
			}
		}
		if !more {
			return out
		}
	}
}

// send writes one data chunk, honouring Delay and CutAfter.
func (st *streamer) send(delta *wireDelta, finish *string, usage bool) error {
	if st.reply.CutAfter > 0 && st.sent >= st.reply.CutAfter {
		st.cut()
		return errStop{}
	}
	if st.reply.HangAfter > 0 && st.sent >= st.reply.HangAfter {
		select {
		case <-st.r.Context().Done():
		case <-st.done:
		}
		return errStop{}
	}
	if st.sent > 0 && st.reply.Delay > 0 {
		t := time.NewTimer(st.reply.Delay)
		select {
		case <-t.C:
		case <-st.r.Context().Done():
			t.Stop()
			return errStop{}
		case <-st.done:
			t.Stop()
			return errStop{}
		}
	}
	c := wireChunk{ID: st.id, Object: "chat.completion.chunk", Created: st.created,
		Model: st.model, SystemFingerprint: "fp_providertest", Choices: []wireChoice{}}
	if usage {
		u := st.reply.Usage
		c.Usage = &wireUsage{
			PromptTokens:            u.InputTokens,
			CompletionTokens:        u.OutputTokens,
			TotalTokens:             u.InputTokens + u.OutputTokens,
			PromptTokensDetails:     map[string]int{"cached_tokens": u.CachedTokens},
			CompletionTokensDetails: map[string]int{"reasoning_tokens": u.ReasoningTokens},
		}
	} else {
		c.Choices = []wireChoice{{Index: 0, Delta: delta, FinishReason: finish}}
	}
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	if !usage && st.includeUsage {
		// OpenAI sends "usage":null on every chunk but the last when
		// include_usage is on.
		b = append(b[:len(b)-1], []byte(`,"usage":null}`)...)
	}
	if _, err := fmt.Fprintf(st.w, "data: %s\n\n", b); err != nil {
		return errStop{}
	}
	st.flush()
	st.sent++
	return nil
}

// sendError writes a mid-stream error event; the stream then ends with
// [DONE] as OpenRouter does.
func (st *streamer) sendError() error {
	errObj := map[string]any{"message": st.reply.StreamError, "code": st.reply.StreamErrorCode}
	var b []byte
	if st.reply.BareStreamError {
		b, _ = json.Marshal(map[string]any{"error": errObj})
	} else {
		finish := "error"
		empty := ""
		b, _ = json.Marshal(struct {
			ID      string         `json:"id"`
			Object  string         `json:"object"`
			Created int64          `json:"created"`
			Model   string         `json:"model"`
			Error   map[string]any `json:"error"`
			Choices []wireChoice   `json:"choices"`
		}{st.id, "chat.completion.chunk", st.created, st.model, errObj,
			[]wireChoice{{Delta: &wireDelta{Content: &empty}, FinishReason: &finish}}})
	}
	if _, err := fmt.Fprintf(st.w, "data: %s\n\n", b); err != nil {
		return errStop{}
	}
	st.flush()
	if st.reply.BareStreamError {
		return errStop{} // vLLM closes the stream after the error
	}
	return nil
}

func (st *streamer) flush() {
	if f, ok := st.w.(http.Flusher); ok {
		f.Flush()
	}
}

// cut drops the TCP connection mid-body, as a crashed upstream does.
func (st *streamer) cut() {
	st.flush()
	hj, ok := st.w.(http.Hijacker)
	if !ok {
		panic("providertest: response writer cannot be hijacked")
	}
	conn, _, err := hj.Hijack()
	if err == nil {
		conn.Close()
	}
}

// LoadScript reads a JSON array of Reply from path. Delay may be a duration
// string ("10ms") or a number of milliseconds.
func LoadScript(path string) ([]Reply, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load script: %w", err)
	}
	var replies []Reply
	if err := json.Unmarshal(b, &replies); err != nil {
		return nil, fmt.Errorf("load script %s: %w", path, err)
	}
	return replies, nil
}

// UnmarshalJSON accepts Delay as "10ms" or a number of milliseconds.
func (r *Reply) UnmarshalJSON(b []byte) error {
	type plain Reply
	var aux struct {
		plain
		Delay json.RawMessage `json:"delay,omitempty"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*r = Reply(aux.plain)
	r.Delay = 0
	d := strings.TrimSpace(string(aux.Delay))
	switch {
	case d == "" || d == "null":
	case strings.HasPrefix(d, `"`):
		var s string
		if err := json.Unmarshal(aux.Delay, &s); err != nil {
			return err
		}
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("delay %q: %w", s, err)
		}
		r.Delay = v
	default:
		ms, err := strconv.ParseFloat(d, 64)
		if err != nil {
			return fmt.Errorf("delay %s: want a duration string or milliseconds", d)
		}
		r.Delay = time.Duration(ms * float64(time.Millisecond))
	}
	return nil
}

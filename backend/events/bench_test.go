package events

import (
	"encoding/json"
	"testing"
)

// drained subscribes to b and drains it until the returned stop is called.
func drained(b *Broker) (stop func()) {
	ch, cancel := b.Subscribe(1024)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-ch:
			case <-done:
				return
			}
		}
	}()
	return func() { close(done); cancel() }
}

var formResult = FormResult{CallRecord: CallRecord{CallID: "call_1", Code: "print(1)", Output: "1\n", DurationMs: 3,
	Error: &CallError{Phase: "runtime", Message: "boom", Line: 1}}}

// chunks are the streamed fragments the benchmarks publish (not constants,
// which the compiler could box without allocating).
var chunks = []string{"lo", "hel"}

// BenchmarkPublishDelta: build and publish one content delta (the most
// frequent event: one per streamed chunk) to one draining subscriber.
func BenchmarkPublishDelta(b *testing.B) {
	br := New()
	defer drained(br)()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		br.Publish(Event{SessionID: "s", Turn: 1, Iteration: 2, Data: Delta{Delta: chunks[i&1], Text: chunks[(i+1)&1]}})
	}
}

// BenchmarkPublishFormResult: build and publish one form-result.
func BenchmarkPublishFormResult(b *testing.B) {
	br := New()
	defer drained(br)()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		fr := formResult
		fr.Error = &CallError{Phase: "runtime", Message: "boom", Line: 1}
		br.Publish(Event{SessionID: "s", Turn: 1, Iteration: 2, Data: fr})
	}
}

// BenchmarkMarshalDelta and BenchmarkMarshalFormResult: the flat JSON of
// one event, as the CLI's --json output and the window bridge write it.
func BenchmarkMarshalDelta(b *testing.B) {
	e := Event{Seq: 7, Phase: PhaseContent, SessionID: "s", Turn: 1, Iteration: 2, Data: Delta{Delta: "lo", Text: "hello"}}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := json.Marshal(e); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshalFormResult(b *testing.B) {
	e := Event{Seq: 7, Phase: PhaseFormResult, SessionID: "s", Turn: 1, Iteration: 2, Data: formResult}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := json.Marshal(e); err != nil {
			b.Fatal(err)
		}
	}
}

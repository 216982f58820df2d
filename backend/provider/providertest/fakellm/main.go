// Command fakellm serves a providertest script as an OpenAI-compatible
// endpoint, for UI tests and manual runs without a real model:
//
//	fakellm -script replies.json [-addr 127.0.0.1:0] [-repeat] [-requests log.jsonl]
//
// It prints "listening http://127.0.0.1:PORT/v1" on stdout once ready and
// serves until SIGINT/SIGTERM. The script is a JSON array of
// providertest.Reply; when it is exhausted the server answers 500
// "providertest: no scripted reply left", or starts over with -repeat.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "fakellm:", err)
		os.Exit(1)
	}
}

func run() error {
	script := flag.String("script", "", "JSON file with an array of replies (required)")
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	repeat := flag.Bool("repeat", false, "start the script over when it is exhausted")
	reqLog := flag.String("requests", "", "append every chat request to this file as a JSON line")
	flag.Parse()
	if *script == "" {
		flag.Usage()
		return fmt.Errorf("-script is required")
	}
	replies, err := providertest.LoadScript(*script)
	if err != nil {
		return err
	}
	srv, err := providertest.Listen(*addr, replies...)
	if err != nil {
		return err
	}
	defer srv.Close()
	if *reqLog != "" {
		f, err := os.OpenFile(*reqLog, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		n := 0
		srv.SetOnRequest(func(r providertest.Recorded) { // called under the server's lock: in order
			n++
			line, _ := json.Marshal(map[string]any{"n": n, "messages": r.Messages})
			_, _ = f.Write(append(line, '\n'))
		})
	}
	if *repeat && len(replies) > 0 {
		var mu sync.Mutex
		next := 0
		srv.SetDynamic(func(providertest.Recorded) providertest.Reply {
			mu.Lock()
			defer mu.Unlock()
			r := replies[next%len(replies)]
			next++
			return r
		})
	}
	fmt.Printf("listening %s\n", srv.URL)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	return nil
}

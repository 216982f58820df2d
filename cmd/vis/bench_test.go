package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// BenchmarkProcess times whole processes of the binaries as shipped: the
// headless build/bin/vis and the desktop build/bin/vis-desktop, as
// scripts/bench-cli.sh (make bench-cli, make bench) builds and names them in
// VIS_BENCH_BIN and VIS_BENCH_DESKTOP; without them it skips (a plain
// `go test -bench .` would otherwise spend minutes here). Each op is one
// process, timed from its start to its reaping (ms) with its CPU time
// (cpu-ms); the figures are reported with their spread over the ops:
//
//   - version: `vis version`.
//   - run/iterations=N: `vis run` of one turn against the scripted fake LLM
//     (in this process, over loopback), N-1 iterations that each print a
//     100-byte file with cat, then the answer; VIS_HOME already holds a
//     database (one untimed run first), as a user's does. exit-ms is from
//     the answer arriving on stdout to the process reaped (closing the
//     engine and the database). req-B is the last request's body, req-B/iter
//     its growth per iteration.
//   - run-fresh-home/iterations=1: the same one-turn run into an empty
//     VIS_HOME (creating the database and its schema).
//
// Peak RSS comes from /usr/bin/time -f %M in a second run of each op, not
// from this process's wait4: Go starts children with vfork, and Linux
// carries the parent's peak into the child's when it execs, so a child
// never reads below this benchmark's own peak. Without /usr/bin/time the
// peak is not reported.
func BenchmarkProcess(b *testing.B) {
	bins := []struct{ name, env string }{{"headless", "VIS_BENCH_BIN"}, {"desktop", "VIS_BENCH_DESKTOP"}}
	measured := false
	for _, bin := range bins {
		path := os.Getenv(bin.env)
		if path == "" {
			continue
		}
		measured = true
		b.Run(bin.name+"/version", func(b *testing.B) {
			benchProcess(b, path, func(b *testing.B) procSetup {
				return procSetup{args: []string{"version"}, env: benchEnv(b.TempDir())}
			})
		})
		for _, n := range []int{1, 20, 200} {
			b.Run(fmt.Sprintf("%s/run/iterations=%d", bin.name, n), func(b *testing.B) {
				benchProcess(b, path, turnSetup(path, n, true))
			})
		}
		b.Run(bin.name+"/run-fresh-home/iterations=1", func(b *testing.B) {
			benchProcess(b, path, turnSetup(path, 1, false))
		})
	}
	if !measured {
		b.Skip("set VIS_BENCH_BIN (and VIS_BENCH_DESKTOP) to the binaries to measure: scripts/bench-cli.sh does")
	}
}

// procSetup is one op's process: its arguments, environment and folder;
// llm, when set, is the fake LLM it talks to (closed after the op); answer
// is the stdout that marks the answer.
type procSetup struct {
	args   []string
	env    []string
	dir    string
	llm    *providertest.Server
	answer string
}

// turnSetup makes one n-iteration turn's process; warm runs one turn in the
// VIS_HOME first, untimed, so the database exists as a user's does.
func turnSetup(bin string, n int, warm bool) func(b *testing.B) procSetup {
	var ws, home string
	return func(b *testing.B) procSetup {
		if ws == "" || !warm {
			ws, home = b.TempDir(), b.TempDir()
			for i, size := range []int{100, 400, 1200, 3000, 800} {
				name := "notes.txt"
				if i > 0 {
					name = fmt.Sprintf("src%d.py", i)
				}
				if err := os.WriteFile(filepath.Join(ws, name), bytes.Repeat([]byte("x"), size-1), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			if warm {
				s := turnProc(b, ws, home, 1)
				c := exec.Command(bin, s.args...)
				c.Dir, c.Env = s.dir, s.env
				if out, err := c.CombinedOutput(); err != nil {
					b.Fatalf("warm-up run: %v: %s", err, out)
				}
				s.llm.Close()
			}
		}
		return turnProc(b, ws, home, n)
	}
}

func turnProc(b *testing.B, ws, home string, n int) procSetup {
	llm := providertest.New()
	calls := 0
	llm.SetDynamic(func(providertest.Recorded) providertest.Reply {
		calls++ // the server answers one request at a time here: vis sends them in turn
		if calls >= n {
			return providertest.Reply{Content: []string{"done"}}
		}
		return providertest.Reply{Code: "print(cat('notes.txt'))"}
	})
	env := append(benchEnv(home), "VIS_BASE_URL="+llm.URL, "VIS_MODEL=fake-model", "VIS_API_KEY=bench")
	return procSetup{args: []string{"run", "bench"}, env: env, dir: ws, llm: llm, answer: "done\n"}
}

func benchEnv(home string) []string {
	return []string{"VIS_HOME=" + home, "HOME=" + home, "PATH=" + os.Getenv("PATH")}
}

func benchProcess(b *testing.B, bin string, setup func(*testing.B) procSetup) {
	timeBin, _ := exec.LookPath("/usr/bin/time")
	var wall, cpu, exit, peak, reqLast, reqGrowth []float64
	for b.Loop() {
		b.StopTimer()
		s := setup(b)
		b.StartTimer()
		w, c, e := timedRun(b, bin, s)
		b.StopTimer()
		wall, cpu = append(wall, w), append(cpu, c)
		if s.llm != nil {
			exit = append(exit, e)
			reqs := s.llm.Requests()
			last := len(reqs[len(reqs)-1].Raw)
			reqLast = append(reqLast, float64(last))
			if len(reqs) > 1 {
				reqGrowth = append(reqGrowth, float64(last-len(reqs[0].Raw))/float64(len(reqs)-1))
			}
			s.llm.Close()
		}
		if timeBin != "" {
			s = setup(b)
			peak = append(peak, peakRun(b, timeBin, bin, s))
			if s.llm != nil {
				s.llm.Close()
			}
		}
		b.StartTimer()
	}
	report := func(xs []float64, unit string, spread bool) {
		if len(xs) == 0 {
			return
		}
		slices.Sort(xs)
		b.ReportMetric(xs[len(xs)/2], unit+"-med")
		if spread {
			b.ReportMetric(xs[0], unit+"-min")
			b.ReportMetric(xs[len(xs)-1], unit+"-max")
		}
	}
	report(wall, "ms", true)
	report(cpu, "cpu-ms", true)
	report(exit, "exit-ms", true)
	report(peak, "MiB", true)
	report(reqLast, "req-B", false)
	report(reqGrowth, "req-B/iter", false)
}

// timedRun runs one process and returns its wall time, its CPU time (user
// and system, the kernel's accounting: what other load on the machine
// moves least) and the time from its answer on stdout to its reaping, in
// milliseconds.
func timedRun(b *testing.B, bin string, s procSetup) (wall, cpu, exit float64) {
	c := exec.Command(bin, s.args...)
	c.Dir, c.Env = s.dir, s.env
	var errb bytes.Buffer
	c.Stderr = &errb
	out, err := c.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := c.Start(); err != nil {
		b.Fatal(err)
	}
	var got []byte
	var answered time.Time
	buf := make([]byte, 4096)
	for {
		k, err := out.Read(buf)
		got = append(got, buf[:k]...)
		if answered.IsZero() && s.answer != "" && strings.HasSuffix(string(got), s.answer) {
			answered = time.Now()
		}
		if err == io.EOF {
			break
		} else if err != nil {
			b.Fatal(err)
		}
	}
	if err := c.Wait(); err != nil {
		b.Fatalf("%s %v: %v\nstdout %q\nstderr %s", bin, s.args, err, got, errb.String())
	}
	end := time.Now()
	if s.answer != "" && answered.IsZero() {
		b.Fatalf("%s %v: no answer %q on stdout (%q)", bin, s.args, s.answer, got)
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	if !answered.IsZero() {
		exit = ms(end.Sub(answered))
	}
	return ms(end.Sub(start)), ms(c.ProcessState.UserTime() + c.ProcessState.SystemTime()), exit
}

// peakRun runs one process under /usr/bin/time and returns its peak RSS in MiB.
func peakRun(b *testing.B, timeBin, bin string, s procSetup) float64 {
	f := filepath.Join(b.TempDir(), "peak")
	c := exec.Command(timeBin, append([]string{"-f", "%M", "-o", f, bin}, s.args...)...)
	c.Dir, c.Env = s.dir, s.env
	if out, err := c.CombinedOutput(); err != nil {
		b.Fatalf("%s %v: %v: %s", bin, s.args, err, out)
	}
	raw, err := os.ReadFile(f)
	if err != nil {
		b.Fatal(err)
	}
	kib, err := strconv.ParseFloat(strings.TrimSpace(string(raw)), 64)
	if err != nil {
		b.Fatalf("/usr/bin/time printed %q", raw)
	}
	return kib / 1024
}

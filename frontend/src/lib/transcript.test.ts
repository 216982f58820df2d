import { describe, expect, it } from 'vitest'
import { applyEvents, emptyView, errorText, exitCodeOf, fromSnapshot, PendingEvents, programCount, ToolMemory } from './transcript'
import type { TranscriptView, TurnView } from './transcript'
import type { Iteration, QueuedInput, Transcript, Turn } from './types'
import type { EngineEvent, EventOf, Phase, QueuedInput as QueueEntry } from './events.gen'
import { engineEvent, parseEvents, type Fields } from './testevents'
// A real turn recorded from `vis run --json` against the scripted LLM
// (iteration 1: reasoning, prose and a program reading README.md; iteration 2:
// a program that fails; iteration 3: the answer), and `vis show --json` of
// the same session afterwards. Regenerate both with the commands in
// testdata/README.md when the engine's events change.
import recordedEvents from './testdata/turn-events.jsonl?raw'
import recordedSnapshot from './testdata/turn-snapshot.json'

const usage = { input_tokens: 0, output_tokens: 0, cached_tokens: 0, reasoning_tokens: 0 }

function turn(position: number, over: Partial<Turn> = {}): Turn {
  return {
    position,
    channel: 'desktop',
    request: `request ${position}`,
    status: 'done',
    answer: `answer ${position}`,
    error: '',
    usage,
    duration_ms: 10,
    started: '2026-01-01T00:00:00Z',
    iterations: [],
    ...over,
  }
}

function iteration(position: number, over: Partial<Iteration> = {}): Iteration {
  return { position, status: 'done', code: '', output: '', error: '', prose: '', reasoning: '', answer: '', model: 'm', usage, duration_ms: 1, calls: [], ...over }
}

function snapshot(seq: number, turns: Turn[], running = false, id = 's1'): Transcript {
  return {
    session: { id, workspace: '/w', title: 'T', turns: turns.length, created: '', updated: '' },
    turns,
    seq,
    running,
  }
}

/** An event of session s1's turn 2 (the generated types check data's keys). */
function ev<P extends Phase>(seq: number, event: P, data: Partial<Fields<P>> = {}): EventOf<P> {
  return engineEvent(event, { seq, session_id: 's1', turn: 2, ...data })
}

const events: EngineEvent[] = parseEvents(recordedEvents)
const sid = events[0].session_id
const recorded = { ...recordedSnapshot, running: false } as unknown as Transcript

/** An empty session as the window opens it before the first Send returns. */
const fresh = (): TranscriptView => fromSnapshot(snapshot(0, [], false, sid))

/** The view after the recorded events up to and including seq. */
function upTo(seq: number): TranscriptView {
  return applyEvents(fresh(), events.filter((e) => e.seq <= seq)).view
}

/** What a person sees of a turn, without bookkeeping fields. */
function visible(t: TurnView) {
  return {
    request: t.request,
    status: t.status,
    answer: t.answer,
    error: t.error,
    usage: { input: t.usage.input_tokens, output: t.usage.output_tokens },
    iterations: t.iterations.map((it) => ({
      position: it.position,
      status: it.status,
      reasoning: it.reasoning,
      text: it.text,
      error: it.error,
      programs: it.programs.map((p) => [p.code, p.output, p.error]),
    })),
  }
}

describe('fromSnapshot', () => {
  it('turns iterations into reasoning, prose and programs with their output', () => {
    const v = fromSnapshot(
      snapshot(40, [
        turn(1, {
          iterations: [
            iteration(1, { code: 'print(1)', output: '1\n', prose: 'Counting.', reasoning: 'hm' }),
            iteration(2, { status: 'error', code: 'boom()', error: 'runtime error: boom' }),
            iteration(3, { status: 'error', error: 'provider: 502 bad gateway' }),
          ],
        }),
      ]),
    )
    expect(v.sessionId).toBe('s1')
    expect(v.seq).toBe(40)
    const its = v.turns[0].iterations
    expect(its.map((it) => [it.text, it.reasoning, it.error])).toEqual([
      ['Counting.', 'hm', ''],
      ['', '', ''],
      ['', '', 'provider: 502 bad gateway'],
    ])
    expect(its.map((it) => it.programs.map((p) => [p.code, p.output, p.error]))).toEqual([
      [['print(1)', '1\n', '']],
      [['boom()', '', 'runtime error: boom']],
      [],
    ])
    expect(programCount(v.turns[0])).toBe(2)
  })

  it('reads the recorded snapshot', () => {
    const t = fromSnapshot(recorded).turns[0]
    expect(t.status).toBe('done')
    expect(t.answer).toBe('The project has **one** file.')
    expect(t.usage).toMatchObject({ input_tokens: 3000, output_tokens: 62 })
    expect(t.iterations.map((it) => it.programs.map((p) => p.code))).toEqual([["print(cat('README.md')['text'])"], ['boom()'], []])
    expect(t.iterations[0].programs[0].output).toContain('A tiny demo project.')
    expect(t.channel).toBe('cli')
  })

  it('makes one program per call, each with its own output and error', () => {
    const v = fromSnapshot(
      snapshot(3, [
        turn(1, {
          iterations: [
            iteration(1, {
              status: 'error',
              code: 'print(1)\n\nboom()',
              output: '1\n',
              error: 'runtime error: boom',
              calls: [
                { call_id: 'a', code: 'print(1)', output: '1\n', duration_ms: 4 },
                { call_id: 'b', code: 'boom()', output: '', duration_ms: 1, error: { phase: 'runtime', message: 'boom', line: 1, hint: 'define it' } },
              ],
            }),
          ],
        }),
      ]),
    )
    const it = v.turns[0].iterations[0]
    expect(it.programs.map((p) => [p.callId, p.code, p.output, p.error, p.hint, p.line, p.duration_ms])).toEqual([
      ['a', 'print(1)', '1\n', '', '', 0, 4],
      ['b', 'boom()', '', 'runtime error: boom', 'define it', 1, 1],
    ])
    // The program errors are shown with the programs, not again for the iteration.
    expect(it.error).toBe('')
  })

  it('reads tool calls a call carries', () => {
    const call = { call_id: 'a', code: 'x()', output: '', duration_ms: 3, tools: [{ name: 'grep', args: 'pattern=x', duration_ms: 4 }, { name: 'shell', error: 'exit status 1' }, null] }
    const v = fromSnapshot(snapshot(3, [turn(1, { iterations: [iteration(1, { code: 'x()', calls: [call] })] })]))
    expect(v.turns[0].iterations[0].programs[0].tools).toEqual([
      { name: 'grep', args: 'pattern=x', duration_ms: 4, error: '', running: false },
      { name: 'shell', args: '', duration_ms: 0, error: 'exit status 1', running: false },
    ])
  })

  it.each([
    ['exit 0', '`ls` exited with code 0.', '', 0, ''],
    ['non-zero exit (not an error of its own)', '`false` exited with code 1.', 'exit code 1', 1, ''],
    ['timed out', '`sleep 1e9` exited with code -1.', 'timed out after 10m0s', -1, 'timed out after 10m0s'],
  ])('reads a person\'s !cmd turn: %s', (_, answer, itErr, code, wantErr) => {
    const t = fromSnapshot(
      snapshot(3, [
        turn(1, {
          channel: 'shell',
          request: '!ls',
          answer,
          iterations: [iteration(1, { code: '!ls', output: 'a\nb\n', error: itErr, calls: [{ call_id: '', code: '!ls', output: 'a\nb\n', duration_ms: 3 }] })],
        }),
      ]),
    ).turns[0]
    expect(t.iterations[0].programs).toMatchObject([{ shell: true, exitCode: code, output: 'a\nb\n', error: wantErr }])
  })

  it('accepts a snapshot whose lists are null (Go nil slices)', () => {
    const t = snapshot(1, [turn(1)])
    ;(t.turns[0] as unknown as { iterations: null }).iterations = null
    expect(fromSnapshot(t).turns[0].iterations).toEqual([])
    ;(t as unknown as { turns: null }).turns = null
    expect(fromSnapshot(t).turns).toEqual([])
  })

  it.each([
    ['running in the engine and the store', true, 'running', true, 'running'],
    ['finished in the store, engine flag not yet dropped', true, 'done', false, 'done'],
    ['marked interrupted by another process while the engine runs it', true, 'interrupted', true, 'running'],
    ['interrupted and not running', false, 'interrupted', false, 'interrupted'],
  ])('running when %s', (_, engineRunning, stored, want, wantStatus) => {
    const v = fromSnapshot(snapshot(5, [turn(1), turn(2, { status: stored })], engineRunning))
    expect(v.running).toBe(want)
    expect(v.turns[1].status).toBe(wantStatus)
  })

  it('is not running without turns even if the engine says so (the turn row comes with turn-start)', () => {
    expect(fromSnapshot(snapshot(5, [], true)).running).toBe(false)
  })
})

describe('applyEvents with the recorded turn', () => {
  it('ends with the same view the snapshot gives on reload', () => {
    const r = applyEvents(fresh(), events)
    expect(r.reload).toBe(true)
    expect(r.view.running).toBe(false)
    expect(r.view.turns.map(visible)).toEqual(fromSnapshot(recorded).turns.map(visible))
  })

  it.each([
    [3, 'waiting for the first token', { text: '', reasoning: '', programs: [] }],
    [5, 'thinking', { text: '', reasoning: 'The user wants an overview.', programs: [] }],
    [7, 'writing prose', { text: 'Let me read the README.', programs: [] }],
    [12, 'writing a program', { programs: [{ code: "print(cat('README.m", writing: true, running: false }] }],
    [16, 'running it', { text: 'Let me read the README.', programs: [{ code: "print(cat('README.md')['text'])", writing: false, running: true, tools: [] }] }],
    [17, 'inside a tool call', { programs: [{ running: true, tools: [{ name: 'cat', args: 'path=README.md', running: true }] }] }],
    [18, 'after the tool call', { programs: [{ running: true, tools: [{ name: 'cat', running: false, duration_ms: 0, error: '' }] }] }],
    [19, 'with its output', { status: 'running', programs: [{ running: false, output: '     1│ # Demo\n     2│ A tiny demo project.\n', tools: [{ name: 'cat' }] }] }],
    [20, 'settled', { status: 'done' }],
  ])('shows iteration 1 at seq %d (%s)', (seq, _, want) => {
    const v = upTo(seq)
    expect(v.running).toBe(true)
    expect(v.turns[0].status).toBe('running')
    expect(v.turns[0].iterations[0]).toMatchObject(want)
  })

  it('shows a failed program with its error', () => {
    const it2 = upTo(28).turns[0].iterations[1]
    expect(it2.status).toBe('error')
    expect(it2.programs).toMatchObject([
      {
        code: 'boom()',
        error: "runtime error: NameError: name 'boom' is not defined (nothing in this block ran)",
        line: 1,
        hint: expect.stringContaining('check the spelling'),
      },
    ])
  })

  it('keeps the error hint the snapshot gives on reload', () => {
    const live = applyEvents(fresh(), events).view.turns[0].iterations[1].programs[0]
    const reloaded = fromSnapshot(recorded).turns[0].iterations[1].programs[0]
    expect([reloaded.error, reloaded.hint, reloaded.line]).toEqual([live.error, live.hint, live.line])
    expect(reloaded.hint).not.toBe('')
  })

  it('streams the answer, then shows it once as the answer', () => {
    const streaming = upTo(31).turns[0]
    expect(streaming.answer).toBe('')
    expect(streaming.iterations[2].text).toBe('The project has **one** file.')
    const final = upTo(32).turns[0]
    expect(final.answer).toBe('The project has **one** file.')
    expect(final.iterations[2].text).toBe('')
  })

  it('takes status, usage and duration from turn-end', () => {
    const t = upTo(33).turns[0]
    expect(t).toMatchObject({ status: 'done', duration_ms: 7, usage: { input_tokens: 3000, output_tokens: 62 } })
  })

  it('heals a dropped delta from the cumulative text', () => {
    const v = applyEvents(fresh(), events.filter((e) => e.seq !== 6 && e.seq !== 30)).view
    expect(v.turns[0].iterations[0].text).toBe('Let me read the README.')
    expect(v.turns[0].answer).toBe('The project has **one** file.')
  })

  it('shows no program twice when events are replayed over a snapshot that has them', () => {
    // The snapshot was read after iteration 1 was saved, but its seq was taken
    // before iteration 1's program events were published.
    const mid = snapshot(
      10,
      [turn(1, { request: 'What is in this project?', status: 'running', answer: '', iterations: [iteration(1, { code: "print(cat('README.md')['text'])", output: 'x', prose: 'Let me read the README.' })] })],
      true,
      sid,
    )
    const v = applyEvents(fromSnapshot(mid), events.filter((e) => e.seq <= 24)).view
    expect(v.turns[0].iterations[0].programs).toHaveLength(1)
    expect(v.turns[0].iterations[0].programs[0].output).toBe('x')
    expect(v.turns[0].iterations[1].programs).toMatchObject([{ code: 'boom(', writing: true }])
  })
})

describe('applyEvents', () => {
  const base = () => fromSnapshot(snapshot(10, [turn(1)]))

  it('ignores events at or below the snapshot seq', () => {
    const { view } = applyEvents(base(), [ev(9, 'turn-start', { request: 'old' }), ev(10, 'content', { text: 'stale', iteration: 1 })])
    expect(view.turns).toHaveLength(1)
    expect(view.seq).toBe(10)
  })

  it('ignores events of other sessions', () => {
    const { view } = applyEvents(base(), [ev(11, 'turn-start', { session_id: 's2', request: 'x' })])
    expect(view.turns).toHaveLength(1)
    expect(view.running).toBe(false)
  })

  it('applies a batch only once even when delivered twice', () => {
    const batch = [ev(11, 'turn-start', { request: 'q' }), ev(12, 'content', { delta: 'x', text: 'x', iteration: 1 })]
    const once = applyEvents(base(), batch).view
    const twice = applyEvents(once, batch).view
    expect(twice.turns[1].iterations[0].text).toBe('x')
  })

  it('creates the turn when its turn-start came before the snapshot', () => {
    const { view } = applyEvents(base(), [ev(11, 'content', { turn: 3, iteration: 1, delta: 'late', text: 'late' })])
    expect(view.turns.map((t) => t.position)).toEqual([1, 3])
    expect(view.turns[1].iterations[0].text).toBe('late')
  })

  it('keeps an iteration error on the iteration and the turn error on the turn', () => {
    const a = applyEvents(base(), [
      ev(11, 'turn-start', { request: 'q' }),
      ev(12, 'provider-call', { iteration: 1 }),
      ev(13, 'iteration-error', { iteration: 1, error: 'provider: stream cut', kind: 'stream' }),
      ev(14, 'provider-call', { iteration: 2 }),
    ]).view
    expect(a.turns[1].error).toBe('')
    expect(a.turns[1].iterations.map((it) => [it.status, it.error])).toEqual([
      ['error', 'provider: stream cut'],
      ['running', ''],
    ])
    const b = applyEvents(a, [ev(15, 'turn-end', { status: 'error', error: 'provider: 401 unauthorized' })]).view
    expect(b.turns[1]).toMatchObject({ status: 'error', error: 'provider: 401 unauthorized' })
    expect(b.turns[1].iterations[1].status).toBe('error')
  })

  it('shows a provider retry until the reply streams', () => {
    const a = applyEvents(base(), [
      ev(11, 'turn-start', { request: 'q' }),
      ev(12, 'provider-call', { iteration: 1 }),
      ev(13, 'provider-retry', { iteration: 1, attempt: 2, delay_ms: 1500, error: 'provider: 429 too many requests' }),
    ]).view
    expect(a.turns[1].iterations[0].retry).toBe('retrying (attempt 2) in 1.5 s: provider: 429 too many requests')
    const b = applyEvents(a, [ev(14, 'content', { iteration: 1, delta: 'ok', text: 'ok' })]).view
    expect(b.turns[1].iterations[0].retry).toBe('')
  })

  it('does not ask for a reload while a turn is still running', () => {
    expect(applyEvents(base(), [ev(11, 'turn-start', { request: 'q' })]).reload).toBe(false)
  })

  it('collects warnings once', () => {
    const { view } = applyEvents(base(), [
      ev(11, 'warning', { turn: undefined, message: 'config: unknown key "modle"' }),
      ev(12, 'warning', { turn: undefined, message: 'config: unknown key "modle"' }),
    ])
    expect(view.warnings).toEqual(['config: unknown key "modle"'])
    expect(view.turns).toHaveLength(1)
  })

  it('keeps a warning that arrived while the snapshot loaded (snapshots hold no warnings)', () => {
    // base() is a snapshot at seq 10: older events are in it, warnings are not.
    const { view } = applyEvents(base(), [
      ev(8, 'warning', { turn: undefined, message: 'Context window full: dropped 1 older output(s)' }),
      ev(9, 'turn-start', { turn: 2, request: 'already in the snapshot' }),
    ])
    expect(view.warnings).toEqual(['Context window full: dropped 1 older output(s)'])
    expect(view.turns).toHaveLength(1)
    expect(view.seq).toBe(10)
  })

  it('marks the turn a context fold happened in, with a banner only when not quiet', () => {
    const fold = { outputs_dropped: 0, programs_folded: 4, outputs_clipped: 0, answers_shortened: 0, turns_dropped: 0, request_tokens: 900, note: 'Earlier programs folded to fit the context: 4 turn(s) (1–4); every answer kept.' }
    const { view } = applyEvents(base(), [
      ev(11, 'turn-start', { request: 'q' }),
      ev(12, 'warning', { message: 'Context window full: folded the programs of turn(s) 1–4 from the request', context: fold, quiet: true }),
    ])
    expect(view.turns.find((t) => t.position === 2)?.context_fold?.note).toBe(fold.note)
    expect(view.warnings).toEqual([])
    const loud = applyEvents(base(), [ev(11, 'warning', { message: 'Context window full: …', context: fold })]).view
    expect(loud.warnings).toEqual(['Context window full: …'])
    expect(loud.turns.find((t) => t.position === 2)?.context_fold?.programs_folded).toBe(4)
  })

  it('puts tool calls on the program of the iteration the event names', () => {
    const v = applyEvents(base(), [
      ev(11, 'turn-start', { request: 'q' }),
      ev(12, 'provider-call', { iteration: 1 }),
      ev(13, 'form-start', { iteration: 1, call_id: 'a', code: 'x()', index: 0 }),
      ev(14, 'tool-start', { iteration: 1, name: 'grep', args: 'pattern=foo' }),
      ev(15, 'tool-end', { iteration: 1, name: 'grep', duration_ms: 12 }),
      ev(16, 'tool-start', { iteration: 1, name: 'shell', args: 'cmd=make' }),
      ev(17, 'tool-end', { iteration: 1, name: 'shell', duration_ms: 40, error: 'exit status 2' }),
      ev(18, 'tool-start', { iteration: 1, name: 'cat', args: 'path=a' }),
    ]).view
    expect(v.turns[1].iterations[0].programs[0].tools).toEqual([
      { name: 'grep', args: 'pattern=foo', duration_ms: 12, error: '', running: false },
      { name: 'shell', args: 'cmd=make', duration_ms: 40, error: 'exit status 2', running: false },
      { name: 'cat', args: 'path=a', duration_ms: 0, error: '', running: true },
    ])
    // The program's result ends a tool call whose end was lost.
    const done = applyEvents(v, [ev(19, 'form-result', { iteration: 1, call_id: 'a', code: 'x()', output: 'ok', clipped: true, duration_ms: 70 })]).view
    expect(done.turns[1].iterations[0].programs[0]).toMatchObject({ running: false, output: 'ok', clipped: true, duration_ms: 70 })
    expect(done.turns[1].iterations[0].programs[0].tools.map((t) => t.running)).toEqual([false, false, false])
  })

  it('keeps a snapshot\'s running program live: later events merge into it by call id', () => {
    // The snapshot (seq 20) was taken while turn 2's program ran; its
    // form-start (seq 15) is older than the snapshot, its tool events newer.
    const running = turn(2, {
      status: 'running',
      answer: '',
      iterations: [iteration(1, { status: 'running', calls: [{ call_id: 'c1', code: 'run_tests()', output: '', duration_ms: 0, running: true }] })],
    })
    const v0 = fromSnapshot(snapshot(20, [turn(1), running], true))
    expect(v0.turns[1].iterations[0].programs).toMatchObject([{ callId: 'c1', code: 'run_tests()', running: true }])
    // Its tool-start (seq 18) is older than the snapshot too: the tool's
    // output alone puts the running tool on the card.
    const v = applyEvents(v0, [
      ev(15, 'form-start', { iteration: 1, call_id: 'c1', code: 'run_tests()', index: 0 }),
      ev(18, 'tool-start', { iteration: 1, name: 'run_tests', args: '' }),
      ev(22, 'tool-output', { iteration: 1, name: 'run_tests', lines: ['ok 1'], tail: ['ok 1'], count: 1 }),
    ]).view
    const programs = v.turns[1].iterations[0].programs
    expect(programs).toHaveLength(1)
    expect(programs[0].tools).toMatchObject([{ name: 'run_tests', running: true, tail: ['ok 1'] }])
    const done = applyEvents(v, [ev(23, 'form-result', { iteration: 1, call_id: 'c1', code: 'run_tests()', output: 'passed', duration_ms: 5 })]).view
    expect(done.turns[1].iterations[0].programs).toMatchObject([{ callId: 'c1', running: false, output: 'passed' }])
    expect(done.turns[1].iterations[0].programs).toHaveLength(1)
  })

  it('shows a running tool\'s live lines, repairs a dropped batch and drops them when it ends', () => {
    const start = applyEvents(base(), [
      ev(11, 'turn-start', { request: 'q' }),
      ev(12, 'provider-call', { iteration: 1 }),
      ev(13, 'form-start', { iteration: 1, call_id: 'a', code: 'run_tests()', index: 0 }),
      ev(14, 'tool-start', { iteration: 1, name: 'run_tests', args: '' }),
      ev(15, 'tool-output', { iteration: 1, name: 'run_tests', lines: ['=== RUN TestA'], tail: ['=== RUN TestA'], count: 1 }),
      // 16 was dropped (lossy): 17's tail carries its lines.
      ev(17, 'tool-output', { iteration: 1, name: 'run_tests', lines: ['--- PASS: TestB'], tail: ['=== RUN TestA', '--- PASS: TestA', '--- PASS: TestB'], count: 3 }),
    ]).view
    const tool = () => start.turns[1].iterations[0].programs[0].tools[0]
    expect(tool()).toMatchObject({ running: true, tail: ['=== RUN TestA', '--- PASS: TestA', '--- PASS: TestB'], lines: 3 })
    // A late, older batch does not roll the tail back.
    const stale = applyEvents(start, [ev(18, 'tool-output', { iteration: 1, name: 'run_tests', lines: ['x'], tail: ['x'], count: 2 })]).view
    expect(stale.turns[1].iterations[0].programs[0].tools[0].lines).toBe(3)
    const end = applyEvents(stale, [ev(19, 'tool-end', { iteration: 1, name: 'run_tests', duration_ms: 900 })]).view
    expect(end.turns[1].iterations[0].programs[0].tools[0]).toEqual({ name: 'run_tests', args: '', duration_ms: 900, error: '', running: false })
  })

  it('streams a person\'s !cmd as a shell program with its exit code', () => {
    const a = applyEvents(base(), [
      ev(11, 'turn-start', { request: '!ls', channel: 'shell' }),
      ev(12, 'form-start', { iteration: 1, code: '!ls', shell: true }),
    ]).view
    expect(a.turns[1].channel).toBe('shell')
    expect(a.turns[1].iterations[0].programs).toMatchObject([{ code: '!ls', running: true, shell: true, exitCode: null }])
    const b = applyEvents(a, [ev(13, 'form-result', { iteration: 1, code: '!ls', output: 'x\n', exit_code: 2, duration_ms: 5, shell: true })]).view
    expect(b.turns[1].iterations[0].programs).toMatchObject([{ running: false, output: 'x\n', exitCode: 2, shell: true }])
    expect(b.turns[1].iterations[0].programs).toHaveLength(1)
  })

  it('changes nothing when no session is open', () => {
    const v = emptyView()
    expect(applyEvents(v, [ev(1, 'turn-start')]).view).toBe(v)
  })
})

describe('the queue', () => {
  const q = (id: number, text: string, over: Partial<QueuedInput> = {}): QueuedInput => ({
    id,
    kind: 'turn',
    text,
    images: 0,
    held: false,
    elsewhere: false,
    ...over,
  })
  /** A queue event's entry: the composer's fields and when it was queued. */
  const entry = (x: QueuedInput): QueueEntry => ({ ...x, created: '2026-01-01T00:00:00Z' })
  const queueEv = (seq: number, queue: QueuedInput[] | null, session_id = 's1') =>
    engineEvent('queue', { seq, session_id, queue: queue && queue.map(entry) })

  it('comes with the snapshot (none from an engine that sends no queue)', () => {
    const v = fromSnapshot({ ...snapshot(10, [turn(1)], true), queue: [q(4, 'next', { images: 2 }), q(5, '!ls', { kind: 'shell', held: true })] })
    expect(v.queue).toEqual([q(4, 'next', { images: 2 }), q(5, '!ls', { kind: 'shell', held: true })])
    expect(fromSnapshot(snapshot(10, [turn(1)])).queue).toEqual([])
    expect(emptyView().queue).toEqual([])
  })

  it('is replaced whole by each queue event of the session, in seq order', () => {
    const v = fromSnapshot({ ...snapshot(10, [turn(1)], true), queue: [q(4, 'a')] })
    const a = applyEvents(v, [queueEv(11, [q(4, 'a'), q(5, 'b')])])
    expect(a.view.queue.map((x) => x.text)).toEqual(['a', 'b'])
    expect(a.reload, 'a queue change needs no reload').toBe(false)
    expect(a.view.turns, 'a queue event touches no turn').toEqual(v.turns)
    const b = applyEvents(a.view, [queueEv(12, [q(5, 'b, edited')]), queueEv(12, [q(9, 'replayed')])]).view
    expect(b.queue.map((x) => x.text)).toEqual(['b, edited'])
    expect(applyEvents(b, [queueEv(13, [])]).view.queue).toEqual([])
  })

  it("ignores another session's queue and one older than the snapshot", () => {
    const v = fromSnapshot({ ...snapshot(10, [turn(1)]), queue: [q(4, 'mine')] })
    expect(applyEvents(v, [queueEv(11, [q(7, 'theirs')], 's2')]).view.queue.map((x) => x.text)).toEqual(['mine'])
    expect(applyEvents(v, [queueEv(9, [])]).view.queue.map((x) => x.text)).toEqual(['mine'])
  })

  it('is empty when the engine sends null (an empty Go slice)', () => {
    const v = fromSnapshot({ ...snapshot(10, []), queue: [q(4, 'a')] })
    expect(applyEvents(v, [queueEv(11, null)]).view.queue).toEqual([])
  })
})

describe('exitCodeOf', () => {
  it.each([
    ['`ls` exited with code 0.', 0],
    ['`x` exited with code 127.', 127],
    ['no code here', null],
  ])('%s → %s', (answer, want) => {
    expect(exitCodeOf(answer)).toBe(want)
  })
})

describe('ToolMemory', () => {
  it('puts the tool calls seen live back after the reload at turn end', () => {
    const m = new ToolMemory()
    const live = m.fill(applyEvents(fresh(), events.filter((e) => e.seq <= 33)).view)
    expect(live.turns[0].iterations[0].programs[0].tools.map((t) => t.name)).toEqual(['cat'])
    const reloaded = m.fill(fromSnapshot(recorded))
    expect(reloaded.turns[0].iterations[0].programs[0].tools).toEqual(live.turns[0].iterations[0].programs[0].tools)
    expect(reloaded.turns[0].iterations[1].programs[0].tools).toEqual([])
  })

  it('leaves a view without remembered tools as it is', () => {
    const v = fromSnapshot(recorded)
    expect(new ToolMemory().fill(v)).toBe(v)
  })

  it('does not give tools to a different program at the same place', () => {
    const m = new ToolMemory()
    m.fill(applyEvents(fresh(), events.filter((e) => e.seq <= 19)).view)
    const other = fromSnapshot(recorded)
    other.turns[0].iterations[0].programs[0] = { ...other.turns[0].iterations[0].programs[0], code: 'print(2)' }
    expect(m.fill(other).turns[0].iterations[0].programs[0].tools).toEqual([])
  })

  it('forgets the oldest beyond its cap', () => {
    const m = new ToolMemory(1)
    const v1 = m.fill(applyEvents(fresh(), events.filter((e) => e.seq <= 19)).view)
    expect(v1.turns[0].iterations[0].programs[0].tools).toHaveLength(1)
    const other = applyEvents(fromSnapshot(snapshot(0, [], false, 'other')), [
      { ...ev(1, 'turn-start', { turn: 1, request: 'q' }), session_id: 'other' },
      { ...ev(2, 'form-start', { turn: 1, iteration: 1, code: 'y()', call_id: 'c' }), session_id: 'other' },
      { ...ev(3, 'tool-start', { turn: 1, iteration: 1, name: 'ls' }), session_id: 'other' },
    ]).view
    m.fill(other)
    expect(m.fill(fromSnapshot(recorded)).turns[0].iterations[0].programs[0].tools).toEqual([])
  })
})

describe('errorText', () => {
  it.each([
    ['plain', 'plain'],
    [{ phase: 'runtime', message: 'x', line: 2, hint: 'h' }, 'runtime error: x'],
    [{ message: 'no phase' }, 'no phase'],
    [null, ''],
    [42, ''],
  ])('%j → %s', (v, want) => {
    expect(errorText(v)).toBe(want)
  })
})

describe('PendingEvents', () => {
  it('holds events during a load and hands them over once', () => {
    const p = new PendingEvents()
    expect(p.hold([ev(1, 'content')])).toBe(false)
    p.begin()
    expect(p.hold([ev(2, 'content'), ev(3, 'content')])).toBe(true)
    expect(p.end().map((e) => e.seq)).toEqual([2, 3])
    expect(p.end()).toEqual([])
  })

  it('keeps holding until the last of overlapping loads ends', () => {
    const p = new PendingEvents()
    p.begin()
    p.begin()
    p.hold([ev(5, 'content')])
    expect(p.end()).toEqual([])
    expect(p.end().map((e) => e.seq)).toEqual([5])
  })

  it('keeps only the newest events beyond its cap', () => {
    const p = new PendingEvents(2)
    p.begin()
    p.hold([ev(1, 'content'), ev(2, 'content'), ev(3, 'content')])
    expect(p.end().map((e) => e.seq)).toEqual([2, 3])
  })

  it('snapshot plus held events gives the live view', () => {
    const p = new PendingEvents()
    p.begin()
    // events published while OpenTranscript was in flight, some already in the snapshot
    p.hold([ev(9, 'turn-start', { request: 'q' }), ev(11, 'content', { iteration: 1, delta: 'new', text: 'new' })])
    const held = p.end()
    const { view } = applyEvents(fromSnapshot(snapshot(10, [turn(1), turn(2, { status: 'running', answer: '' })], true)), held)
    expect(view.running).toBe(true)
    expect(view.turns[1].status).toBe('running')
    expect(view.turns[1].iterations[0].text).toBe('new')
  })
})

describe('questions a waiting program asks ("ask" mode)', () => {
  const asked = (seq: number, id: string, over: Partial<Fields<'approval'>> = {}) =>
    engineEvent('approval', { seq, session_id: 's1', turn: 1, iteration: 1, id, state: 'asked', tool: 'shell', command: 'echo hi > /x', why: 'workspace mode: Permission denied', wait_seconds: 600, ...over })
  const running = () => fromSnapshot(snapshot(10, [turn(1, { status: 'running', answer: '' })], true))

  it('come with the snapshot of a running turn, never with a finished one', () => {
    const q = { id: 'q1', tool: 'shell', command: 'c', why: 'w', wait_seconds: 600 }
    expect(fromSnapshot({ ...snapshot(10, [turn(1, { status: 'running', answer: '' })], true), questions: [q] }).questions).toEqual([q])
    expect(fromSnapshot({ ...snapshot(10, [turn(1)]), questions: [q] }).questions).toEqual([])
    expect(emptyView().questions).toEqual([])
  })

  it('appear when asked and go when answered, once each', () => {
    let v = applyEvents(running(), [asked(11, 'q1')]).view
    expect(v.questions.map((q) => [q.id, q.command, q.why])).toEqual([['q1', 'echo hi > /x', 'workspace mode: Permission denied']])
    v = applyEvents(v, [asked(11, 'q1')]).view // a repeat (seq already seen)
    expect(v.questions).toHaveLength(1)
    v = applyEvents(v, [asked(12, 'q1', { state: 'answered', answer: 'approved' })]).view
    expect(v.questions).toEqual([])
  })

  it('end with their turn, and other sessions\' questions are not shown', () => {
    let v = applyEvents(running(), [asked(11, 'q1'), asked(12, 'q2', { session_id: 's2' })]).view
    expect(v.questions.map((q) => q.id)).toEqual(['q1'])
    v = applyEvents(v, [engineEvent('turn-end', { seq: 13, session_id: 's1', turn: 1, status: 'cancelled' })]).view
    expect(v.questions).toEqual([])
  })
})

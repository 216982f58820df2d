import { describe, expect, it } from 'vitest'
import { applyEvents, emptyView, errorText, fromSnapshot, PendingEvents, programCount } from './transcript'
import type { TranscriptView, TurnView } from './transcript'
import type { Iteration, Transcript, Turn, VisEvent } from './types'
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

function ev(seq: number, event: string, data: Partial<VisEvent> = {}): VisEvent {
  return { seq, event, session_id: 's1', turn: 2, ...data }
}

const events: VisEvent[] = recordedEvents
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as VisEvent)
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
    [16, 'running it', { text: 'Let me read the README.', programs: [{ code: "print(cat('README.md')['text'])", writing: false, running: true, tool: '' }] }],
    [17, 'inside a tool call', { programs: [{ running: true, tool: 'cat path=README.md' }] }],
    [18, 'after the tool call', { programs: [{ running: true, tool: '' }] }],
    [19, 'with its output', { status: 'running', programs: [{ running: false, output: '     1│ # Demo\n     2│ A tiny demo project.\n' }] }],
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
    expect(it2.programs).toMatchObject([{ code: 'boom()', error: "runtime error: NameError: name 'boom' is not defined (nothing in this block ran)" }])
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
    const batch = [ev(11, 'turn-start', { request: 'q' }), ev(12, 'content', { delta: 'x', iteration: 1 })]
    const once = applyEvents(base(), batch).view
    const twice = applyEvents(once, batch).view
    expect(twice.turns[1].iterations[0].text).toBe('x')
  })

  it('creates the turn when its turn-start came before the snapshot', () => {
    const { view } = applyEvents(base(), [ev(11, 'content', { turn: 3, iteration: 1, delta: 'late' })])
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

  it('changes nothing when no session is open', () => {
    const v = emptyView()
    expect(applyEvents(v, [ev(1, 'turn-start')]).view).toBe(v)
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
    p.hold([ev(9, 'turn-start', { request: 'q' }), ev(11, 'content', { iteration: 1, delta: 'new' })])
    const held = p.end()
    const { view } = applyEvents(fromSnapshot(snapshot(10, [turn(1), turn(2, { status: 'running', answer: '' })], true)), held)
    expect(view.running).toBe(true)
    expect(view.turns[1].status).toBe('running')
    expect(view.turns[1].iterations[0].text).toBe('new')
  })
})

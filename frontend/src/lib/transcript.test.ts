import { describe, expect, it } from 'vitest'
import { applyEvents, emptyView, fromSnapshot, PendingEvents } from './transcript'
import type { Transcript, Turn, VisEvent } from './types'

const usage = { input_tokens: 0, output_tokens: 0, cached_tokens: 0, reasoning_tokens: 0 }

function turn(position: number, over: Partial<Turn> = {}): Turn {
  return {
    position,
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

function snapshot(seq: number, turns: Turn[], running = false): Transcript {
  return {
    session: { id: 's1', workspace: '/w', title: 'T', turns: turns.length, created: '', updated: '' },
    turns,
    seq,
    running,
  }
}

function ev(seq: number, event: string, data: Partial<VisEvent> = {}): VisEvent {
  return { seq, event, session_id: 's1', turn: 2, ...data }
}

describe('fromSnapshot', () => {
  it('keeps turns, seq and running, and lists the programs that ran', () => {
    const v = fromSnapshot(
      snapshot(40, [turn(1, { iterations: [{ position: 1, status: 'done', code: 'print(1)', output: '1', error: '', prose: '', reasoning: '', answer: '', model: 'm', usage, duration_ms: 1 }] })], true),
    )
    expect(v.sessionId).toBe('s1')
    expect(v.seq).toBe(40)
    expect(v.running).toBe(true)
    expect(v.turns.map((t) => t.answer)).toEqual(['answer 1'])
    expect(v.turns[0].steps.map((s) => [s.code, s.output])).toEqual([['print(1)', '1']])
  })

  it('accepts a snapshot whose lists are null (Go nil slices)', () => {
    const t = snapshot(1, [])
    ;(t as unknown as { turns: null }).turns = null
    expect(fromSnapshot(t).turns).toEqual([])
  })
})

describe('applyEvents', () => {
  const base = () => fromSnapshot(snapshot(10, [turn(1)]))

  it('ignores events at or below the snapshot seq', () => {
    const { view } = applyEvents(base(), [
      ev(9, 'turn-start', { request: 'old' }),
      ev(10, 'content', { text: 'stale' }),
    ])
    expect(view.turns).toHaveLength(1)
    expect(view.seq).toBe(10)
  })

  it('ignores events of other sessions', () => {
    const { view } = applyEvents(base(), [ev(11, 'turn-start', { session_id: 's2', request: 'x' })])
    expect(view.turns).toHaveLength(1)
    expect(view.running).toBe(false)
  })

  it('adds a running turn and streams its content', () => {
    const { view } = applyEvents(base(), [
      ev(11, 'turn-start', { request: 'fix the bug' }),
      ev(12, 'provider-call'),
      ev(13, 'content', { delta: 'Hel' }),
      ev(14, 'content', { delta: 'lo' }),
    ])
    expect(view.running).toBe(true)
    expect(view.turns).toHaveLength(2)
    expect(view.turns[1]).toMatchObject({ position: 2, request: 'fix the bug', status: 'running', streaming: 'Hello' })
    expect(view.seq).toBe(14)
  })

  it('prefers the cumulative text, so a dropped delta heals', () => {
    const { view } = applyEvents(base(), [
      ev(11, 'turn-start', { request: 'q' }),
      ev(12, 'content', { delta: 'a', text: 'a' }),
      // seq 13 ("b") was dropped for a slow subscriber
      ev(14, 'content', { delta: 'c', text: 'abc' }),
    ])
    expect(view.turns[1].streaming).toBe('abc')
  })

  it('applies a batch only once even when delivered twice', () => {
    const batch = [ev(11, 'turn-start', { request: 'q' }), ev(12, 'content', { delta: 'x' })]
    const once = applyEvents(base(), batch).view
    const twice = applyEvents(once, batch).view
    expect(twice.turns[1].streaming).toBe('x')
  })

  it('creates the turn when its turn-start came before the snapshot', () => {
    const { view } = applyEvents(base(), [ev(11, 'content', { turn: 3, delta: 'late' })])
    expect(view.turns.map((t) => t.position)).toEqual([1, 3])
    expect(view.turns[1].streaming).toBe('late')
  })

  it('tracks programs from form-start to form-result, with errors', () => {
    const { view } = applyEvents(base(), [
      ev(11, 'turn-start', { request: 'q' }),
      ev(12, 'form-start', { code: 'read("a")', iteration: 1 }),
      ev(13, 'form-result', { code: 'read("a")', iteration: 1, output: 'contents' }),
      ev(14, 'form-start', { code: 'boom()', iteration: 2 }),
      ev(15, 'form-result', { code: 'boom()', iteration: 2, output: '', error: { phase: 'runtime', message: 'boom is not defined' } }),
    ])
    expect(view.turns[1].steps.map((s) => [s.code, s.output, s.error, s.running])).toEqual([
      ['read("a")', 'contents', '', false],
      ['boom()', '', 'runtime error: boom is not defined', false],
    ])
  })

  it('shows the final answer and asks for a reload when the turn ends', () => {
    const r = applyEvents(base(), [
      ev(11, 'turn-start', { request: 'q' }),
      ev(12, 'iteration-final', { done: true, final: 'All fixed.' }),
      ev(13, 'turn-end', { status: 'done', answer: 'All fixed.' }),
    ])
    expect(r.reload).toBe(true)
    expect(r.view.running).toBe(false)
    expect(r.view.turns[1]).toMatchObject({ status: 'done', answer: 'All fixed.', streaming: '' })
  })

  it('does not ask for a reload while a turn is still running', () => {
    expect(applyEvents(base(), [ev(11, 'turn-start', { request: 'q' })]).reload).toBe(false)
  })

  it('keeps the error of a failed turn', () => {
    const { view } = applyEvents(base(), [
      ev(11, 'turn-start', { request: 'q' }),
      ev(12, 'turn-end', { status: 'error', error: 'provider: 401 unauthorized' }),
    ])
    expect(view.turns[1]).toMatchObject({ status: 'error', error: 'provider: 401 unauthorized' })
  })

  it('changes nothing when no session is open', () => {
    const v = emptyView()
    expect(applyEvents(v, [ev(1, 'turn-start', { request: 'q' })]).view).toBe(v)
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
    p.hold([ev(9, 'turn-start', { request: 'q' }), ev(11, 'content', { delta: 'new' })])
    const held = p.end()
    const { view } = applyEvents(fromSnapshot(snapshot(10, [turn(1), turn(2, { status: 'running', answer: '' })], true)), held)
    expect(view.turns[1]).toMatchObject({ status: 'running', streaming: 'new' })
  })
})

// The transcript view model: a snapshot from OpenTranscript plus the live
// events that followed it. Pure functions, no Svelte and no Wails, so the
// rules are unit-tested:
//   - only events of the open session, and only with seq > the snapshot's seq
//     (and > every event applied since), change the view;
//   - a turn is a list of iterations (one provider round trip each): its
//     reasoning, its prose, the programs it ran with their output, its error;
//   - streamed content, reasoning and program previews carry the cumulative
//     text, so a dropped delta is repaired by the next one; a bare delta is
//     appended;
//   - an iteration read from the snapshot is settled: live events for it
//     (published between the snapshot's seq and its read) change nothing
//     but its status, so no program is shown twice;
//   - turn-end asks the caller to reload the snapshot, which is the truth.
// The payloads are those of backend/loop (publish calls) and
// backend/engine_impl.go (tool-start/tool-end, warning, session-changed).
import type { Iteration, Transcript, Turn, Usage, VisEvent } from './types'

/** A program the model ran (or is writing), with what it printed. */
export interface Program {
  callId: string
  code: string
  output: string
  error: string
  /** Streamed arguments seen (tool-preview) but not started yet. */
  writing: boolean
  running: boolean
  /** The tool call running inside the program right now, e.g. "cat path=README.md". */
  tool: string
}

/** One provider round trip of a turn. */
export interface IterationView {
  position: number
  status: string
  reasoning: string
  /** What the model wrote besides its programs (streamed live, then its prose). */
  text: string
  programs: Program[]
  error: string
  /** A provider retry in progress ("" when none). */
  retry: string
  usage: Usage
  duration_ms: number
  /** Read from the snapshot: live events do not add to it. */
  settled: boolean
}

export interface TurnView extends Omit<Turn, 'iterations'> {
  iterations: IterationView[]
}

export interface TranscriptView {
  sessionId: string
  title: string
  workspace: string
  seq: number
  running: boolean
  turns: TurnView[]
  /** Configuration or prompt warnings the engine reported for this session. */
  warnings: string[]
}

/** Turn statuses that mean the turn is over for good. */
const FINAL = new Set(['done', 'error', 'cancelled', 'halted'])

export function emptyView(): TranscriptView {
  return { sessionId: '', title: '', workspace: '', seq: 0, running: false, turns: [], warnings: [] }
}

function zeroUsage(): Usage {
  return { input_tokens: 0, output_tokens: 0, cached_tokens: 0, reasoning_tokens: 0 }
}

function iterationFromSnapshot(it: Iteration): IterationView {
  return {
    position: it.position,
    status: it.status,
    reasoning: it.reasoning ?? '',
    text: it.prose ?? '',
    programs: it.code
      ? [{ callId: '', code: it.code, output: it.output ?? '', error: it.error ?? '', writing: false, running: false, tool: '' }]
      : [],
    // A program's error is shown with the program.
    error: it.code ? '' : (it.error ?? ''),
    retry: '',
    usage: it.usage ?? zeroUsage(),
    duration_ms: it.duration_ms ?? 0,
    settled: true,
  }
}

/**
 * The view of a snapshot. running is the engine's word, but a turn the store
 * already finished is not running any more (the engine drops its running
 * flag just after publishing turn-end, so a reload can race it). A last turn
 * the store calls "interrupted" while the engine still runs it was marked so
 * by another process opening the same database: it is shown as running.
 */
export function fromSnapshot(t: Transcript): TranscriptView {
  const turns: TurnView[] = (t.turns ?? []).map((turn) => ({
    ...turn,
    answer: turn.answer ?? '',
    error: turn.error ?? '',
    usage: turn.usage ?? zeroUsage(),
    iterations: (turn.iterations ?? []).map(iterationFromSnapshot),
  }))
  const last = turns[turns.length - 1]
  const running = !!t.running && !!last && !FINAL.has(last.status)
  if (running && last.status === 'interrupted') {
    turns[turns.length - 1] = { ...last, status: 'running', error: '' }
  }
  return {
    sessionId: t.session.id,
    title: t.session.title,
    workspace: t.session.workspace,
    seq: t.seq,
    running,
    turns,
    warnings: [],
  }
}

function newTurn(position: number, request: string): TurnView {
  return {
    position,
    channel: 'desktop',
    request,
    status: 'running',
    answer: '',
    error: '',
    usage: zeroUsage(),
    duration_ms: 0,
    started: '',
    iterations: [],
  }
}

function newIteration(position: number): IterationView {
  return {
    position,
    status: 'running',
    reasoning: '',
    text: '',
    programs: [],
    error: '',
    retry: '',
    usage: zeroUsage(),
    duration_ms: 0,
    settled: false,
  }
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : ''
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0
}

function usageOf(v: unknown): Usage | undefined {
  if (!v || typeof v !== 'object') return undefined
  const o = v as Record<string, unknown>
  return {
    input_tokens: num(o.input_tokens),
    output_tokens: num(o.output_tokens),
    cached_tokens: num(o.cached_tokens),
    reasoning_tokens: num(o.reasoning_tokens),
  }
}

/**
 * "runtime error: NameError: ..." from a form-result error object (as the
 * store records it, so the view does not change on reload), or the string
 * itself.
 */
export function errorText(v: unknown): string {
  if (typeof v === 'string') return v
  if (v && typeof v === 'object' && 'message' in v) {
    const o = v as { phase?: unknown; message?: unknown }
    return o.phase ? `${str(o.phase)} error: ${str(o.message)}` : str(o.message)
  }
  return ''
}

/** Cumulative text when the event has it, else the old text plus the delta. */
function grow(old: string, e: VisEvent): string {
  if (typeof e.text === 'string') return e.text
  return old + str(e.delta)
}

export interface Applied {
  view: TranscriptView
  /** A turn ended: reload the snapshot (and the session list). */
  reload: boolean
}

/** Returns a copy of t with iteration pos updated by f (created when missing). */
function withIteration(t: TurnView, pos: number, f: (it: IterationView) => IterationView): TurnView {
  if (pos <= 0) return t
  const its = t.iterations.slice()
  let k = its.findIndex((it) => it.position === pos)
  if (k < 0) {
    its.push(newIteration(pos))
    its.sort((a, b) => a.position - b.position)
    k = its.findIndex((it) => it.position === pos)
  }
  its[k] = f(its[k])
  return { ...t, iterations: its }
}

/** Like withIteration, but leaves a settled iteration alone. */
function live(t: TurnView, pos: number, f: (it: IterationView) => IterationView): TurnView {
  return withIteration(t, pos, (it) => (it.settled ? it : f(it)))
}

function setProgram(it: IterationView, match: (p: Program, k: number) => boolean, p: Partial<Program>): IterationView {
  const programs = it.programs.slice()
  const k = programs.findIndex(match)
  if (k >= 0) programs[k] = { ...programs[k], ...p }
  else programs.push({ callId: '', code: '', output: '', error: '', writing: false, running: false, tool: '', ...p })
  return { ...it, programs }
}

/** Applies a batch of events to the view, returning a new view. */
export function applyEvents(view: TranscriptView, events: VisEvent[]): Applied {
  let reload = false
  let v = view
  for (const e of events) {
    if (!v.sessionId || e.session_id !== v.sessionId || e.seq <= v.seq) continue
    let turns = v.turns
    let running = v.running
    let warnings = v.warnings
    const iter = e.iteration ?? 0
    // Events without a turn (tool-start, tool-end) belong to the running turn.
    let pos = e.turn ?? 0
    if (pos <= 0 && (e.event === 'tool-start' || e.event === 'tool-end')) {
      pos = [...turns].reverse().find((t) => t.status === 'running')?.position ?? 0
    }
    let i = turns.findIndex((t) => t.position === pos)
    if (i < 0 && pos > 0) {
      turns = [...turns, newTurn(pos, str(e.request))].sort((a, b) => a.position - b.position)
      i = turns.findIndex((t) => t.position === pos)
    }
    let t: TurnView | undefined = i >= 0 ? turns[i] : undefined
    switch (e.event) {
      case 'turn-start':
        running = true
        if (t) t = { ...t, status: 'running', request: t.request || str(e.request) }
        break
      case 'provider-call':
        // Each call is one iteration; a call repeated for a retry starts over.
        if (t) t = live(t, iter, (it) => ({ ...it, status: 'running', text: '', reasoning: '', retry: '' }))
        break
      case 'provider-retry':
        if (t) {
          const secs = Math.round(num(e.delay_ms) / 100) / 10
          const note = `retrying${num(e.attempt) ? ` (attempt ${num(e.attempt)})` : ''}${secs ? ` in ${secs} s` : ''}: ${errorText(e.error)}`
          t = live(t, iter, (it) => ({ ...it, retry: note }))
        }
        break
      case 'reasoning':
        if (t) t = live(t, iter, (it) => ({ ...it, reasoning: grow(it.reasoning, e), retry: '' }))
        break
      case 'content':
        if (t) t = live(t, iter, (it) => ({ ...it, text: grow(it.text, e), retry: '' }))
        break
      case 'assistant-prose':
        if (t) t = live(t, iter, (it) => ({ ...it, text: str(e.text) }))
        break
      case 'tool-preview':
        if (t) {
          const n = num(e.index)
          t = live(t, iter, (it) => {
            // The n-th program of the iteration, while its arguments stream.
            if (it.programs.length > n && !it.programs[n].writing) return { ...it, retry: '' }
            const programs = it.programs.slice()
            const p: Program = { callId: '', code: str(e.code), output: '', error: '', writing: true, running: false, tool: '' }
            if (programs.length > n) programs[n] = p
            else programs.push(p)
            return { ...it, programs, retry: '' }
          })
        }
        break
      case 'form-start':
        if (t) {
          const callId = str(e.call_id)
          const code = str(e.code)
          const n = num(e.index)
          t = live(t, iter, (it) =>
            setProgram(it, (p, k) => (callId !== '' && p.callId === callId) || (p.writing && k === n), {
              callId,
              code,
              writing: false,
              running: true,
            }),
          )
        }
        break
      case 'form-result':
        if (t) {
          const callId = str(e.call_id)
          const code = str(e.code)
          t = live(t, iter, (it) =>
            setProgram(it, (p) => (callId !== '' ? p.callId === callId : p.running && p.code === code), {
              callId,
              code,
              output: str(e.output),
              error: errorText(e.error),
              writing: false,
              running: false,
              tool: '',
            }),
          )
        }
        break
      case 'tool-start':
      case 'tool-end':
        if (t && t.status === 'running') {
          const label = e.event === 'tool-start' ? [str(e.name), str(e.args)].filter(Boolean).join(' ') : ''
          const its = t.iterations.slice()
          const k = its.length - 1
          if (k >= 0 && !its[k].settled) {
            const programs = its[k].programs.map((p) => (p.running ? { ...p, tool: label } : p))
            its[k] = { ...its[k], programs }
            t = { ...t, iterations: its }
          }
        }
        break
      case 'iteration-final':
        if (t) {
          const final = e.done === true ? str(e.final) : ''
          t = withIteration(t, iter, (it) =>
            it.settled
              ? it
              : {
                  ...it,
                  status: it.programs.some((p) => p.error) ? 'error' : 'done',
                  retry: '',
                  // The final reply's text is the answer, shown once, below.
                  text: e.done === true ? '' : it.text,
                  programs: it.programs.filter((p) => !p.writing),
                },
          )
          if (final) t = { ...t, answer: final }
        }
        break
      case 'iteration-error':
        if (t) t = live(t, iter, (it) => ({ ...it, status: 'error', retry: '', error: errorText(e.error) }))
        break
      case 'turn-end':
        running = false
        reload = true
        if (t) {
          t = {
            ...t,
            status: str(e.status) || 'done',
            answer: str(e.answer) || t.answer,
            error: errorText(e.error),
            usage: usageOf(e.usage) ?? t.usage,
            duration_ms: num(e.duration_ms) || t.duration_ms,
            iterations: t.iterations.map((it) =>
              it.status === 'running' ? { ...it, status: str(e.status) || 'done', retry: '' } : it,
            ),
          }
        }
        break
      case 'warning':
        if (str(e.message) && !warnings.includes(str(e.message))) warnings = [...warnings, str(e.message)]
        break
    }
    if (t && i >= 0) {
      turns = turns.slice()
      turns[i] = t
    }
    v = { ...v, turns, running, warnings, seq: e.seq }
  }
  return { view: v, reload }
}

/** The number of programs a turn ran (or is running). */
export function programCount(t: TurnView): number {
  return t.iterations.reduce((n, it) => n + it.programs.filter((p) => !p.writing).length, 0)
}

/**
 * Holds events that arrive while a snapshot is loading, so none is lost
 * between the snapshot's read and its arrival: the caller applies them to the
 * fresh snapshot (applyEvents filters by session and seq).
 */
export class PendingEvents {
  private buf: VisEvent[] = []
  private loading = 0
  constructor(private readonly cap = 10000) {}

  begin(): void {
    this.loading++
  }
  /** Ends a load and returns the events held since the first begin. */
  end(): VisEvent[] {
    this.loading = Math.max(0, this.loading - 1)
    if (this.loading > 0) return []
    const out = this.buf
    this.buf = []
    return out
  }
  /** Returns true when the events were held (a load is in flight). */
  hold(events: VisEvent[]): boolean {
    if (this.loading === 0) return false
    this.buf.push(...events)
    if (this.buf.length > this.cap) this.buf.splice(0, this.buf.length - this.cap)
    return true
  }
}

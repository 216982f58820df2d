// The transcript view model: a snapshot from OpenTranscript plus the live
// events that followed it. Pure functions, no Svelte and no Wails, so the
// rules are unit-tested:
//   - only events of the open session, and only with seq > the snapshot's seq
//     (and > every event applied since), change the view;
//   - streamed content and reasoning carry the cumulative text, so a dropped
//     delta is repaired by the next one; a bare delta is appended;
//   - turn-end asks the caller to reload the snapshot, which is the truth.
import type { Iteration, Transcript, Turn, VisEvent } from './types'

/** A program the model ran in the current turn, as seen live. */
export interface Step {
  index: number
  iteration: number
  code: string
  output: string
  error: string
  running: boolean
}

export interface TurnView extends Turn {
  /** Text streamed so far in the latest iteration (prose or the answer). */
  streaming: string
  reasoning: string
  steps: Step[]
}

export interface TranscriptView {
  sessionId: string
  title: string
  workspace: string
  seq: number
  running: boolean
  turns: TurnView[]
}

export function emptyView(): TranscriptView {
  return { sessionId: '', title: '', workspace: '', seq: 0, running: false, turns: [] }
}

function stepsFrom(its: Iteration[]): Step[] {
  return its
    .filter((it) => it.code)
    .map((it, i) => ({
      index: i,
      iteration: it.position,
      code: it.code,
      output: it.output,
      error: it.error,
      running: false,
    }))
}

export function fromSnapshot(t: Transcript): TranscriptView {
  return {
    sessionId: t.session.id,
    title: t.session.title,
    workspace: t.session.workspace,
    seq: t.seq,
    running: t.running,
    turns: (t.turns ?? []).map((turn) => ({
      ...turn,
      iterations: turn.iterations ?? [],
      streaming: '',
      reasoning: '',
      steps: stepsFrom(turn.iterations ?? []),
    })),
  }
}

function newTurn(position: number, request: string): TurnView {
  return {
    position,
    request,
    status: 'running',
    answer: '',
    error: '',
    usage: { input_tokens: 0, output_tokens: 0, cached_tokens: 0, reasoning_tokens: 0 },
    duration_ms: 0,
    started: '',
    iterations: [],
    streaming: '',
    reasoning: '',
    steps: [],
  }
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : ''
}

function errorText(v: unknown): string {
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

/** Applies a batch of events to the view, returning a new view. */
export function applyEvents(view: TranscriptView, events: VisEvent[]): Applied {
  let reload = false
  let v = view
  for (const e of events) {
    if (!v.sessionId || e.session_id !== v.sessionId || e.seq <= v.seq) continue
    const turns = v.turns.slice()
    const pos = e.turn ?? 0
    let i = turns.findIndex((t) => t.position === pos)
    if (i < 0 && pos > 0) {
      turns.push(newTurn(pos, str(e.request)))
      turns.sort((a, b) => a.position - b.position)
      i = turns.findIndex((t) => t.position === pos)
    }
    const t: TurnView | undefined = i >= 0 ? { ...turns[i] } : undefined
    let running = v.running
    switch (e.event) {
      case 'turn-start':
        running = true
        if (t) {
          t.status = 'running'
          if (!t.request) t.request = str(e.request)
        }
        break
      case 'provider-call':
        if (t) t.streaming = ''
        break
      case 'reasoning':
        if (t) t.reasoning = grow(t.reasoning, e)
        break
      case 'content':
        if (t) t.streaming = grow(t.streaming, e)
        break
      case 'form-start':
        if (t) {
          t.steps = [
            ...t.steps,
            {
              index: t.steps.length,
              iteration: e.iteration ?? 0,
              code: str(e.code),
              output: '',
              error: '',
              running: true,
            },
          ]
        }
        break
      case 'form-result':
        if (t) {
          const code = str(e.code)
          const steps = t.steps.slice()
          let k = steps.findLastIndex((s) => s.running && s.code === code)
          if (k < 0) {
            steps.push({ index: steps.length, iteration: e.iteration ?? 0, code, output: '', error: '', running: false })
            k = steps.length - 1
          }
          steps[k] = { ...steps[k], output: str(e.output), error: errorText(e.error), running: false }
          t.steps = steps
        }
        break
      case 'iteration-final':
        if (t && e.done === true) t.answer = str(e.final)
        break
      case 'iteration-error':
        if (t) t.error = errorText(e.error)
        break
      case 'turn-end':
        running = false
        reload = true
        if (t) {
          t.status = str(e.status) || 'done'
          if (typeof e.answer === 'string' && e.answer) t.answer = e.answer
          t.error = errorText(e.error)
          t.streaming = ''
        }
        break
    }
    if (t && i >= 0) turns[i] = t
    v = { ...v, turns, running, seq: e.seq }
  }
  return { view: v, reload }
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

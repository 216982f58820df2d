// The transcript view model: a snapshot from OpenTranscript plus the live
// events that followed it. Pure functions, no Svelte and no Wails, so the
// rules are unit-tested:
//   - only events of the open session, and only with seq > the snapshot's seq
//     (and > every event applied since), change the view;
//   - a turn is a list of iterations (one provider round trip each): its
//     reasoning, its prose, the programs it ran with their output, its error;
//   - streamed content, reasoning and program previews carry the cumulative
//     text, so a dropped delta is repaired by the next one;
//   - an iteration read from the snapshot is settled: live events for it
//     (published between the snapshot's seq and its read) change nothing
//     but its status, so no program is shown twice;
//   - turn-end asks the caller to reload the snapshot, which is the truth;
//   - the session's queue (the engine's) comes with the snapshot and is
//     replaced whole by each `queue` event.
//   - tool calls inside a program (tool-start/tool-end) are live only: the
//     snapshot does not keep them, so ToolMemory carries them over a reload.
// The events are typed by events.gen.ts, generated from the Go payload
// structs (backend/events/payloads.go): each case reads its fields after
// narrowing on `event`, so a key renamed in Go fails the type check here.
import type { CallError, EngineEvent, EventOf, QueuedInput as QueueEntry, Usage as EventUsage } from './events.gen'
import type { Call, Iteration, QueuedInput, Question, Transcript, Turn, TurnImage, Usage } from './types'

/** One tool call a program made (cat, grep, shell, ...). */
export interface ToolRun {
  name: string
  /** Short argument summary, e.g. "path=README.md". */
  args: string
  duration_ms: number
  error: string
  running: boolean
  /** While it runs: the newest lines its children printed (a test run's progress). */
  tail?: string[]
  /** How many lines they printed so far. */
  lines?: number
}

/** A program the model ran (or is writing), with what it printed. */
export interface Program {
  callId: string
  code: string
  output: string
  /** "runtime error: NameError: ..." ("" when it worked). */
  error: string
  /** What to do about the error, and the program line it points at (0 = none). */
  hint: string
  line: number
  /** The engine cut the output it kept in the event (the full text is in the store). */
  clipped: boolean
  /** Bytes the program printed in all (0 = unknown: a record older than the count). */
  outputBytes: number
  /** Bytes of it kept apart for "open full output" when clipped (below outputBytes when the keep cap cut it too). */
  keptBytes: number
  duration_ms: number
  /** Streamed arguments seen (tool-preview) but not started yet. */
  writing: boolean
  running: boolean
  /** Tool calls in the order they started. */
  tools: ToolRun[]
  /** A person's !cmd (code is "!cmd") and its exit code once known. */
  shell: boolean
  exitCode: number | null
  /** Why the OS sandbox refused something it started ("" = it did not): the card offers to run it again without the sandbox. */
  sandboxRefused: string
  /** The person's answer when the call asked them ("ask" mode): approved, declined, unanswered; "" = not asked. */
  sandboxAsked: string
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
  /** Images its programs' tools returned, from the snapshot (shown once the turn ends). */
  images?: TurnImage[]
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
  /** The session's queue, oldest first (the engine sends it after the running turn). */
  queue: QueuedInput[]
  /** Questions a waiting program asks the person ("ask" mode: a command the sandbox refused). */
  questions: Question[]
}

/** Turn statuses that mean the turn is over for good. */
const FINAL = new Set(['done', 'error', 'cancelled', 'halted'])

export function emptyView(): TranscriptView {
  return { sessionId: '', title: '', workspace: '', seq: 0, running: false, turns: [], warnings: [], queue: [], questions: [] }
}

function zeroUsage(): Usage {
  return { input_tokens: 0, output_tokens: 0, cached_tokens: 0, reasoning_tokens: 0 }
}

/** A program with every field at its zero value, then p. */
export function program(p: Partial<Program> = {}): Program {
  return {
    callId: '',
    code: '',
    output: '',
    error: '',
    hint: '',
    line: 0,
    clipped: false,
    outputBytes: 0,
    keptBytes: 0,
    duration_ms: 0,
    writing: false,
    running: false,
    tools: [],
    shell: false,
    exitCode: null,
    sandboxRefused: '',
    sandboxAsked: '',
    ...p,
  }
}

/**
 * Tool calls a snapshot's call carries as `tools` (name, args, duration_ms,
 * error). The engine does not record them yet; when it does, they show
 * after a restart too.
 */
function toolsOf(c: Call): ToolRun[] {
  const raw = (c as Call & { tools?: unknown }).tools
  if (!Array.isArray(raw)) return []
  return raw
    .filter((x): x is Record<string, unknown> => !!x && typeof x === 'object')
    .map((x) => ({ name: str(x.name), args: str(x.args), duration_ms: num(x.duration_ms), error: errorText(x.error), running: false }))
}

function programFromCall(c: Call): Program {
  return program({
    tools: toolsOf(c),
    callId: c.call_id ?? '',
    code: c.code ?? '',
    output: c.output ?? '',
    clipped: c.output_clipped === true || legacyClipped(c),
    outputBytes: c.output_bytes ?? 0,
    keptBytes: c.kept_bytes ?? 0,
    error: errorText(c.error),
    hint: c.error?.hint ?? '',
    line: c.error?.line ?? 0,
    duration_ms: c.duration_ms ?? 0,
    sandboxRefused: c.sandbox_refused ?? '',
    sandboxAsked: c.sandbox_asked ?? '',
    running: c.running === true,
  })
}

/** The model's limit, in characters, that outputs were cut at. */
export const MODEL_OUTPUT_CHARS = 65536

/**
 * A record from before outputs were kept whole says nothing of a clip: an
 * output of exactly the model's limit was cut there (its rest is gone).
 */
function legacyClipped(c: Call): boolean {
  if (c.output_bytes !== undefined && c.output_bytes !== 0) return false
  const out = c.output ?? ''
  if (out.length < MODEL_OUTPUT_CHARS || out.length > 2 * MODEL_OUTPUT_CHARS) return false
  let n = 0
  for (const _ of out) n++
  return n === MODEL_OUTPUT_CHARS
}

/** The exit code in a !cmd turn's answer ("`ls` exited with code 2."), null when absent. */
export function exitCodeOf(answer: string): number | null {
  const m = /exited with code (-?\d+)/.exec(answer)
  return m ? Number(m[1]) : null
}

function iterationFromSnapshot(it: Iteration, turn: Turn): IterationView {
  let programs = (it.calls ?? []).map(programFromCall)
  // A snapshot from before calls were listed: one program for the iteration.
  if (!programs.length && it.code) programs = [program({ code: it.code, output: it.output ?? '', error: it.error ?? '' })]
  if (turn.channel === 'shell') {
    // A person's !cmd: one program; a non-zero exit is not an error of its own.
    const err = /^exit code -?\d+$/.test(it.error ?? '') ? '' : (it.error ?? '')
    programs = programs.map((p) => ({ ...p, shell: true, exitCode: exitCodeOf(turn.answer ?? ''), error: p.error || err }))
  }
  return {
    position: it.position,
    status: it.status,
    reasoning: it.reasoning ?? '',
    text: it.prose ?? '',
    programs,
    // A program's error is shown with the program.
    error: programs.length ? '' : (it.error ?? ''),
    retry: '',
    usage: it.usage ?? zeroUsage(),
    duration_ms: it.duration_ms ?? 0,
    // A running iteration is not settled: what its programs do next
    // (events after the snapshot) still applies, merged by call id.
    settled: it.status !== 'running',
    ...(it.images?.length ? { images: it.images } : {}),
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
    channel: turn.channel ?? '',
    iterations: (turn.iterations ?? []).map((it) => iterationFromSnapshot(it, turn)),
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
    queue: queueOf(t.queue),
    questions: running ? (t.questions ?? []).map(questionOf) : [],
  }
}

function questionOf(q: Pick<Question, keyof Question>): Question {
  return { id: q.id, tool: q.tool, command: q.command, why: q.why, wait_seconds: q.wait_seconds }
}

/**
 * A queue as the engine sends it (the snapshot's, or a `queue` event's:
 * null when empty), as the composer shows it. The keys are the generated
 * QueuedInput's, which the snapshot's entries share.
 */
export function queueOf(
  q: readonly Pick<QueueEntry, 'id' | 'kind' | 'text' | 'images' | 'held' | 'elsewhere'>[] | null | undefined,
): QueuedInput[] {
  return (q ?? []).map((x) => ({
    id: x.id,
    kind: x.kind || 'turn',
    text: x.text,
    images: x.images,
    held: x.held,
    elsewhere: x.elsewhere,
  }))
}

function newTurn(position: number, request: string, channel: string): TurnView {
  return {
    position,
    channel,
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

/** A turn-end's usage (the optional counts absent when zero) in the snapshot's shape. */
function usageOf(u: EventUsage): Usage {
  return {
    input_tokens: u.input_tokens,
    output_tokens: u.output_tokens,
    cached_tokens: u.cached_tokens ?? 0,
    reasoning_tokens: u.reasoning_tokens ?? 0,
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

/** "runtime error: NameError: ..." for a form-result's error, "" for none. */
function callErrorText(err: CallError | undefined): string {
  if (!err) return ''
  return err.phase ? `${err.phase} error: ${err.message}` : err.message
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
  else programs.push(program(p))
  return { ...it, programs }
}

/**
 * A tool-start adds a running tool call to the program running now; its
 * tool-output events show the newest lines it printed; its tool-end ends it
 * (the live lines go: the program's output and the tool's result say what
 * came of it).
 */
function toolEvent(it: IterationView, e: EventOf<'tool-start'> | EventOf<'tool-end'> | EventOf<'tool-output'>): IterationView {
  // The program running now (the last one that started).
  let k = -1
  for (let j = it.programs.length - 1; j >= 0; j--) if (it.programs[j].running) { k = j; break }
  if (k < 0) return it
  const p = it.programs[k]
  let tools = p.tools
  if (e.event === 'tool-start') {
    tools = [...tools, { name: e.name, args: e.args, duration_ms: 0, error: '', running: true }]
  } else {
    let j = -1
    for (let x = tools.length - 1; x >= 0; x--) if (tools[x].running && tools[x].name === e.name) { j = x; break }
    if (j < 0 && e.event === 'tool-output') {
      // Its tool-start came before the snapshot this view was built from
      // (a session opened while the tool runs): the output says it runs.
      tools = [...tools, { name: e.name, args: '', duration_ms: 0, error: '', running: true }]
      j = tools.length - 1
    }
    if (j < 0) return it
    tools = tools.slice()
    if (e.event === 'tool-output') {
      // Tail is cumulative: a dropped event is repaired by the next one.
      if ((tools[j].lines ?? 0) > e.count) return it
      tools[j] = { ...tools[j], tail: e.tail ?? [], lines: e.count }
    } else {
      const { tail: _tail, lines: _lines, ...done } = tools[j]
      tools[j] = { ...done, running: false, duration_ms: e.duration_ms, error: e.error ?? '' }
    }
  }
  const programs = it.programs.slice()
  programs[k] = { ...p, tools }
  return { ...it, programs }
}

/** Applies a batch of events to the view, returning a new view. */
export function applyEvents(view: TranscriptView, events: readonly EngineEvent[]): Applied {
  let reload = false
  let v = view
  for (const e of events) {
    if (!v.sessionId || e.session_id !== v.sessionId) continue
    // A snapshot (its seq) holds everything but warnings, which are never
    // stored: a warning held while the snapshot loaded still counts.
    if (e.seq <= v.seq && e.event !== 'warning') continue
    let turns = v.turns
    let running = v.running
    let warnings = v.warnings
    let queue = v.queue
    let questions = v.questions
    const iter = e.iteration ?? 0
    // Events without a turn (tool-start, tool-end, tool-output) belong to the running turn.
    let pos = e.turn ?? 0
    if (pos <= 0 && (e.event === 'tool-start' || e.event === 'tool-end' || e.event === 'tool-output')) {
      pos = [...turns].reverse().find((t) => t.status === 'running')?.position ?? 0
    }
    let i = turns.findIndex((t) => t.position === pos)
    if (i < 0 && pos > 0) {
      const start = e.event === 'turn-start' ? e : undefined
      turns = [...turns, newTurn(pos, start?.request ?? '', start?.channel || 'desktop')].sort((a, b) => a.position - b.position)
      i = turns.findIndex((t) => t.position === pos)
    }
    let t: TurnView | undefined = i >= 0 ? turns[i] : undefined
    switch (e.event) {
      case 'turn-start':
        running = true
        if (t) t = { ...t, status: 'running', request: t.request || e.request, channel: e.channel || t.channel }
        break
      case 'provider-call':
        // Each call is one iteration; a call repeated for a retry starts over.
        if (t) t = live(t, iter, (it) => ({ ...it, status: 'running', text: '', reasoning: '', retry: '' }))
        break
      case 'provider-retry':
        if (t) {
          const secs = Math.round(e.delay_ms / 100) / 10
          const note = `retrying${e.attempt ? ` (attempt ${e.attempt})` : ''}${secs ? ` in ${secs} s` : ''}: ${e.error}`
          t = live(t, iter, (it) => ({ ...it, retry: note }))
        }
        break
      case 'reasoning':
        // The cumulative text: a dropped delta is repaired by the next one.
        if (t) t = live(t, iter, (it) => ({ ...it, reasoning: e.text, retry: '' }))
        break
      case 'content':
        if (t) t = live(t, iter, (it) => ({ ...it, text: e.text, retry: '' }))
        break
      case 'assistant-prose':
        if (t) t = live(t, iter, (it) => ({ ...it, text: e.text }))
        break
      case 'tool-preview':
        if (t) {
          const n = e.index
          const code = e.code
          t = live(t, iter, (it) => {
            // The n-th program of the iteration, while its arguments stream.
            if (it.programs.length > n && !it.programs[n].writing) return { ...it, retry: '' }
            const programs = it.programs.slice()
            const p = program({ code, writing: true })
            if (programs.length > n) programs[n] = p
            else programs.push(p)
            return { ...it, programs, retry: '' }
          })
        }
        break
      case 'form-start':
        if (t) {
          const { call_id: callId, code, index: n } = e
          const shell = e.shell === true
          t = live(t, iter, (it) =>
            setProgram(it, (p, k) => (callId !== '' && p.callId === callId) || (p.writing && k === n), {
              callId,
              code,
              writing: false,
              running: true,
              shell,
            }),
          )
        }
        break
      case 'form-result':
        if (t) {
          const { call_id: callId, code } = e
          const done: Partial<Program> = {
            callId,
            code,
            output: e.output,
            error: callErrorText(e.error),
            hint: e.error?.hint ?? '',
            line: e.error?.line ?? 0,
            clipped: e.clipped || e.output_clipped === true,
            outputBytes: e.output_bytes ?? 0,
            keptBytes: e.kept_bytes ?? 0,
            duration_ms: e.duration_ms,
            writing: false,
            running: false,
            shell: e.shell === true,
            exitCode: e.exit_code ?? null,
            sandboxRefused: e.sandbox_refused ?? '',
            sandboxAsked: e.sandbox_asked ?? '',
          }
          t = live(t, iter, (it) => {
            const k = it.programs.findIndex((p) => (callId !== '' ? p.callId === callId : p.running && p.code === code))
            const tools = k >= 0 ? it.programs[k].tools.map((x) => (x.running ? { ...x, running: false } : x)) : []
            return setProgram(it, (_, j) => j === k, { ...done, tools })
          })
        }
        break
      case 'tool-start':
      case 'tool-end':
      case 'tool-output':
        if (t && t.status === 'running') {
          // The iteration named by the event, else the newest one.
          const at = iter > 0 ? iter : (t.iterations[t.iterations.length - 1]?.position ?? 0)
          t = live(t, at, (it) => toolEvent(it, e))
        }
        break
      case 'iteration-final':
        if (t) {
          const done = e.done
          const final = done ? (e.final ?? '') : ''
          t = withIteration(t, iter, (it) =>
            it.settled
              ? it
              : {
                  ...it,
                  status: it.programs.some((p) => p.error) ? 'error' : 'done',
                  retry: '',
                  // The final reply's text is the answer, shown once, below.
                  text: done ? '' : it.text,
                  programs: it.programs.filter((p) => !p.writing),
                },
          )
          if (final) t = { ...t, answer: final }
        }
        break
      case 'iteration-error':
        if (t) {
          const error = e.error
          t = live(t, iter, (it) => ({ ...it, status: 'error', retry: '', error }))
        }
        break
      case 'turn-end':
        running = false
        reload = true
        if (t) {
          const status = e.status || 'done'
          t = {
            ...t,
            status,
            answer: e.answer || t.answer,
            error: e.error,
            usage: usageOf(e.usage),
            duration_ms: e.duration_ms || t.duration_ms,
            changes: e.changes ?? t.changes,
            iterations: t.iterations.map((it) => (it.status === 'running' ? { ...it, status, retry: '' } : it)),
          }
        }
        break
      case 'queue':
        queue = queueOf(e.queue)
        break
      case 'approval':
        questions = questions.filter((q) => q.id !== e.id)
        if (e.state === 'asked') questions = [...questions, questionOf(e)]
        break
      case 'warning':
        // A context fold marks its turn (the snapshot's context_fold after a
        // reload); a quiet one (the recap folded again, as the turn before)
        // raises no banner.
        if (e.context && t) t = { ...t, context_fold: e.context }
        if (e.message && !e.quiet && !warnings.includes(e.message)) warnings = [...warnings, e.message]
        break
    }
    if (t && i >= 0) {
      turns = turns.slice()
      turns[i] = t
    }
    // A question lives no longer than its turn.
    if (!running && questions.length) questions = []
    v = { ...v, turns, running, warnings, queue, questions, seq: Math.max(v.seq, e.seq) }
  }
  return { view: v, reload }
}

const APPROVAL = /^Run again without the sandbox \(approved by the person\): program (\d+) of turn (\d+), iteration (\d+)$/

/**
 * The programs that already ran again without the sandbox: "turn:iteration:k"
 * (k 0-based) → the approval's turn, read from the engine's approval turns
 * (channel "approval", backend/rerun.go words their request).
 */
export function approvals(turns: TurnView[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const t of turns) {
    if (t.channel !== 'approval') continue
    const m = APPROVAL.exec(t.request)
    if (m) out.set(`${m[2]}:${m[3]}:${Number(m[1]) - 1}`, t.position)
  }
  return out
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
  private buf: EngineEvent[] = []
  private loading = 0
  constructor(private readonly cap = 10000) {}

  begin(): void {
    this.loading++
  }
  /** Ends a load and returns the events held since the first begin. */
  end(): EngineEvent[] {
    this.loading = Math.max(0, this.loading - 1)
    if (this.loading > 0) return []
    const out = this.buf
    this.buf = []
    return out
  }
  /** Returns true when the events were held (a load is in flight). */
  hold(events: readonly EngineEvent[]): boolean {
    if (this.loading === 0) return false
    this.buf.push(...events)
    if (this.buf.length > this.cap) this.buf.splice(0, this.buf.length - this.cap)
    return true
  }
}

/**
 * Remembers the tool calls seen live, per session, turn, iteration and
 * program, and puts them back into views read from a snapshot (which does not
 * keep them), so the cards do not vanish when a turn ends and the view
 * reloads. A program gets remembered tools only when its code is the same.
 * Bounded: the oldest entries go first. Not shared between windows or runs.
 */
export class ToolMemory {
  private seen = new Map<string, { code: string; tools: ToolRun[] }>()
  private done = new WeakMap<TurnView, TurnView>()
  constructor(private readonly cap = 50_000) {}

  /** view with remembered tool calls filled in; view itself when nothing changes. */
  fill(view: TranscriptView): TranscriptView {
    let changed = false
    const turns = view.turns.map((t) => {
      let out = this.done.get(t)
      if (!out) {
        out = this.fillTurn(view.sessionId, t)
        this.done.set(t, out)
      }
      if (out !== t) changed = true
      return out
    })
    return changed ? { ...view, turns } : view
  }

  private fillTurn(sid: string, t: TurnView): TurnView {
    let changed = false
    const iterations = t.iterations.map((it) => {
      let itChanged = false
      const programs = it.programs.map((p, k) => {
        const key = `${sid}\u0000${t.position}\u0000${it.position}\u0000${k}`
        if (p.tools.length) {
          this.seen.delete(key)
          this.seen.set(key, { code: p.code, tools: p.tools })
          if (this.seen.size > this.cap) this.seen.delete(this.seen.keys().next().value as string)
          return p
        }
        const got = this.seen.get(key)
        if (!got || p.writing || got.code !== p.code) return p
        itChanged = true
        return { ...p, tools: got.tools.map((x) => (x.running && !p.running ? { ...x, running: false } : x)) }
      })
      if (!itChanged) return it
      changed = true
      return { ...it, programs }
    })
    return changed ? { ...t, iterations } : t
  }
}

// Engine events for tests, built from the generated types (events.gen.ts,
// from the Go payload structs), so a fixture cannot drift from what the
// engine sends: every event starts from its phase's zero payload (the keys
// Go always sends, at their zero values, as a Go struct literal leaves
// them), and the fields a test sets are checked against that phase's
// interface. A key renamed in Go (and regenerated) fails `npm run check`
// here and in every fixture that sets it.
import type { EngineEvent, Envelope, EventOf, GoalState, Phase } from './events.gen'

/** The payload of phase P: its event without the envelope's keys. */
export type PayloadOf<P extends Phase> = Omit<EventOf<P>, keyof Envelope>

/** A goal with every field at its zero value. */
export const zeroGoal: GoalState = {
  id: '',
  session_id: '',
  objective: '',
  status: '',
  iteration_budget: null,
  iterations_used: 0,
  tokens_used: 0,
  time_used_ms: 0,
  version: 0,
  revision: 0,
  created_at: '',
  updated_at: '',
}

/** Each phase's payload as Go sends its zero value: the keys without omitempty. */
const ZERO: { [P in Phase]: PayloadOf<P> } = {
  'turn-start': { request: '', model: '', channel: '' },
  'provider-call': { model: '', reason: '' },
  'provider-retry': { attempt: 0, delay_ms: 0, error: '' },
  reasoning: { delta: '', text: '' },
  content: { delta: '', text: '' },
  'tool-preview': { index: 0, code: '' },
  'assistant-prose': { text: '' },
  'form-start': { call_id: '', code: '', index: 0 },
  'tool-start': { name: '', args: '' },
  'tool-end': { name: '', duration_ms: 0 },
  'tool-output': { name: '', lines: null, tail: null, count: 0 },
  'form-result': { call_id: '', code: '', output: '', duration_ms: 0, clipped: false },
  'iteration-final': { done: false },
  'iteration-error': { error: '', kind: '' },
  'turn-end': { status: '', answer: '', error: '', iterations: 0, usage: { input_tokens: 0, output_tokens: 0 }, duration_ms: 0 },
  'session-changed': {},
  warning: { message: '' },
  goal: { goal: zeroGoal, revision: 0 },
  packs: { workspace: '', packs: null },
  resources: { resources: null },
  queue: { queue: null },
  approval: { id: '', state: '', tool: '', command: '', why: '', wait_seconds: 0 },
}

/** What a test sets of an event of phase P: seq and session, and any envelope or payload key. */
export type Fields<P extends Phase> = Pick<Envelope, 'seq' | 'session_id'> &
  Partial<Pick<Envelope, 'turn' | 'iteration'>> &
  Partial<PayloadOf<P>>

/** An event of phase `event`: its zero payload, then fields. */
export function engineEvent<P extends Phase>(event: P, fields: Fields<P>): EventOf<P> {
  return { ...ZERO[event], ...fields, event } as unknown as EventOf<P>
}

/**
 * Events recorded from the engine (JSON lines, e.g. `vis run --json`). Each
 * line must be a known phase with every key its generated interface
 * requires: a recording older than a renamed key fails here, not in an
 * assertion far away.
 */
export function parseEvents(jsonl: string): EngineEvent[] {
  return jsonl
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      const e = JSON.parse(l) as Record<string, unknown>
      const phase = e.event as Phase
      if (!(phase in ZERO)) throw new Error(`line ${i + 1}: unknown phase ${String(e.event)}`)
      const missing = [...Object.keys(ZERO[phase]), 'seq', 'session_id'].filter((k) => !(k in e))
      if (missing.length) throw new Error(`line ${i + 1} (${phase}): no ${missing.join(', ')}: regenerate the recording`)
      return e as unknown as EngineEvent
    })
}

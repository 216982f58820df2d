// Plain data shapes the Go side sends (see app/dto.go). The generated
// wailsjs/go/models.ts classes have the same fields; bridge.ts maps them onto
// these interfaces so nothing else depends on generated code.

export interface Usage {
  input_tokens: number
  output_tokens: number
  cached_tokens: number
  reasoning_tokens: number
}

export interface Session {
  id: string
  workspace: string
  title: string
  turns: number
  created: string
  updated: string
}

export interface CallError {
  phase: string
  message: string
  line: number
  hint: string
}

/** One program of an iteration and what it printed. */
export interface Call {
  call_id: string
  code: string
  output: string
  error?: CallError
  duration_ms: number
}

export interface Iteration {
  position: number
  status: string
  code: string
  output: string
  error: string
  prose: string
  reasoning: string
  answer: string
  model: string
  usage: Usage
  duration_ms: number
  calls: Call[]
}

export interface Turn {
  position: number
  /** desktop, cli, or shell (a person's !cmd) */
  channel: string
  request: string
  status: string
  answer: string
  error: string
  usage: Usage
  duration_ms: number
  started: string
  iterations: Iteration[]
}

export interface Transcript {
  session: Session
  turns: Turn[]
  seq: number
  running: boolean
}

export interface Startup {
  workspace: string
  home: string
  version: string
}

/** One engine event as the bridge emits it: envelope fields plus the phase's data. */
export interface VisEvent {
  event: string
  seq: number
  session_id: string
  turn?: number
  iteration?: number
  [key: string]: unknown
}

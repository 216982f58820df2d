// Plain data shapes the bound methods return (see app/dto.go). The generated
// wailsjs/go/models.ts classes have the same fields; bridge.ts maps them onto
// these interfaces so nothing else depends on generated code. The engine's
// events are not here: their types are generated from the Go payload
// structs into events.gen.ts (EngineEvent).
import type { ImageInput } from './attach'
import type { ContextCompaction, TurnChanges } from './events.gen'

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
  /** The session this one was forked from ("" or absent: its own). */
  fork_of?: string
  /** How many of the parent's turns it started with. */
  fork_turns?: number
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
  /** output is cut at the model's limit; kept_bytes of output_bytes are kept (bridge.callOutput). */
  output_clipped?: boolean
  output_bytes?: number
  kept_bytes?: number
  error?: CallError
  duration_ms: number
  /** Why the OS sandbox refused something this program started ("" or absent: it did not). */
  sandbox_refused?: string
  sandbox_asked?: string
  /** The program has not finished: a snapshot taken while its iteration runs. */
  running?: boolean
}

/** A page of a program's kept output (app.OutputPage): text starts at byte offset. */
export interface OutputPage {
  text: string
  offset: number
  /** Where the next page starts. */
  next: number
  kept_bytes: number
  total_bytes: number
  done: boolean
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
  /** Images its programs' tools returned (an MCP tool's screenshot); bytes at /vis/image/<session>/<id>. */
  images?: TurnImage[]
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
  /** Images sent with the request; bytes at /vis/image/<session>/<id>. */
  images?: TurnImage[]
  /** What the turn changed in the workspace's files (its checkpoint); absent when it ran no program. */
  changes?: TurnChanges
  /** What gave way in the turn's request to fit the model's context window (its marker); absent when it fitted. */
  context_fold?: ContextCompaction
}

export interface TurnImage {
  id: number
  name: string
  media_type: string
  size: number
}

export interface Transcript {
  session: Session
  turns: Turn[]
  seq: number
  running: boolean
  /** The session's queue when the snapshot was read (absent from an older engine). */
  queue?: QueuedInput[]
  /** Questions a waiting program asks the person (app.Question; "ask" mode). */
  questions?: Question[]
}

/**
 * A program waits at a call whose command the OS sandbox refused, asking
 * whether to run it once more without the sandbox (app.Question, and the
 * `approval` event's "asked" form). Answered with api.answerApproval.
 */
export interface Question {
  id: string
  tool: string
  command: string
  why: string
  wait_seconds: number
}

/**
 * One input waiting in a session's queue (app.QueuedInput), as the composer
 * shows it: from the snapshot or Queue, and from a `queue` event's entries
 * (events.gen.ts, read by transcript.queueOf). The queue is the engine's: it
 * sends the inputs one by one after the running turn, also while the window
 * shows another session or is closed.
 */
export interface QueuedInput {
  id: number
  /** turn (a message), shell (a !cmd), goal-set (a goal's first turn), goal-resume */
  kind: 'turn' | 'shell' | 'goal-set' | 'goal-resume' | string
  text: string
  /** How many images go with it. */
  images: number
  /** Left by a Vis that quit: nothing sends it until the person presses Send (SendQueued). */
  held: boolean
  /** Another Vis window or process runs this session's turn and sends it. */
  elsewhere: boolean
}

/**
 * A queued input handed back by Stop (app.ReturnedInput): its queue id, text
 * and images, for the composer. Pasted images come back as data: URLs with
 * their media type, dropped files by their path.
 */
export interface ReturnedInput {
  id: number
  text: string
  images: ImageInput[]
}

/** What Stop did (app.Stopped): a running turn stopped, and the queue handed back oldest first. */
export interface Stopped {
  cancelled: boolean
  returned: ReturnedInput[]
}

export interface Startup {
  workspace: string
  /** Recently opened folders, newest first. */
  recent: string[]
  home: string
  version: string
  /** The panes open at the last quit; absent on a first start. */
  layout?: Layout
}

/** A newer release than the running one (app.UpdateNotice). */
export interface UpdateNotice {
  version: string
  /** Where to get it; "" when the feed named no http(s) address. */
  url: string
  notes: string
  current: string
}

/** The window's panes side by side (app.Layout), remembered between launches. */
export interface Layout {
  /** Left to right; a pane without a session shows a new session's composer in its folder. */
  panes: PaneState[]
  /** The pane the header, the sidebar and a clicked notification act on. */
  active: number
}

/** One pane of the layout (app.Pane). */
export interface PaneState {
  session_id: string
  workspace: string
}

/** What the window keeps of a pane: its layout entry and what the header and Settings show of it. */
export interface PaneInfo extends PaneState {
  title: string
  status: Status | null
  /** The prompt inspector has something to show. */
  canInspect: boolean
}

// ---- window chrome (sidebar, composer, footer, settings, inspector) ----

/** One turn whose request or answer matched a search; matches in «». */
export interface SearchHit {
  session_id: string
  workspace: string
  title: string
  turn: number
  snippet: string
}

/**
 * What the engine did with an input (the composer's text, the goal panel's
 * Set and buttons): a model turn (a goal's too), a person's !cmd, or a
 * /command that only printed text.
 */
export interface SubmitResult {
  kind: 'turn' | 'shell' | 'command' | string
  session_id: string
  /** A command's printed result. */
  text: string
  /** It runs now. */
  started: boolean
  /** It waits in the session's queue behind the running turn. */
  queued: boolean
  /** The session's goal after a goal action (status cleared after clear); null otherwise. */
  goal?: GoalView | null
}

export interface SlashCommand {
  /** With the slash: "/goal". */
  name: string
  usage: string
  summary: string
  /** A person's prompt file: home or project, and the file; absent for the built-ins. */
  source?: string
  path?: string
}

export interface Goal {
  objective: string
  status: string
  /** 0 = no goal-specific limit. */
  iteration_budget: number
  iterations_used: number
  tokens_used: number
  /** Active wall time so far. */
  time_used_ms?: number
  id?: string
  /** Grows by one on every write; the highest seen wins. */
  revision?: number
}

/**
 * One REPL of a session as Resources answers (app.Resource); repls.fromEvent
 * reads a `resources` event's entries (events.gen.ts) into this shape.
 */
export interface Resource {
  id: string
  session: string
  kind: string
  language: string
  label: string
  dir: string
  /** 0 = none */
  pid: number
  /** 0 = none */
  port: number
  /** up, starting, failed, down, unresponsive, unknown */
  status: string
  log: string
  /** unix ms */
  created_at: number
  managed: boolean
  /** A REPL that does not answer: the health check that failed, and what to do. */
  form?: string
  hint?: string
}

/** What stopping a REPL did. */
export interface StopResult {
  result: string
  id: string
  message: string
}

/**
 * A session's goal as the goal panel shows it (app.GoalView); goal.fromEvent
 * reads a `goal` event's GoalState (events.gen.ts) into this shape.
 */
export interface GoalView {
  id: string
  session_id: string
  objective: string
  /** active, paused, blocked, complete, cancelled, budget_limited, cleared */
  status: string
  /** null = no budget of its own. */
  iteration_budget: number | null
  iterations_used: number
  tokens_used: number
  time_used_ms: number
  version: number
  revision: number
  created_at: string
  updated_at: string
}

/** The footer's figures (app.Status). */
export interface Status {
  /** The provider's id: "app" (the window's settings), "env", "flag" or a config.yml id. */
  provider: string
  /** How a person knows it: the settings' preset ("OpenAI"), else the base URL's host. */
  provider_name: string
  model: string
  base_url: string
  config_error: string
  usage: Usage
  /** null when the model has no price. */
  cost_usd: number | null
  context_used: number
  context_limit: number
  packs: string[]
  repls: number
  goal: Goal | null
  running: boolean
  /** The permission mode of the session's next turn: read-only, workspace or full. */
  sandbox?: string
  /** Who chose it: flag (vis --sandbox), session (the window) or config. */
  sandbox_source?: string
  /** The workspace's project settings held back until the folder is trusted. */
  project_held?: string[]
  /** The pid of another Vis running this session's turns (read-only here); 0 = none. */
  held_by?: number
}

export interface PromptBlock {
  tag: string
  text: string
  chars: number
  tokens: number
}

export interface PromptMessage {
  role: string
  blocks: PromptBlock[]
  chars: number
  tokens: number
}

/** Exactly what was sent for one iteration (the prompt inspector). */
export interface PromptView {
  turn: number
  iteration: number
  messages: PromptMessage[]
  chars: number
  tokens: number
  /** The iteration whose request was rebuilt to fit the context window; 0 = none. */
  rebuilt_at?: number
}

export interface ModelInfo {
  name: string
  tools: boolean
  reasoning: boolean
  vision: boolean
  context: number
}

/** The window's provider; the key itself never reaches the page. */
export interface ProviderSettings {
  preset: string
  base_url: string
  model: string
  reasoning: string
  models: ModelInfo[]
  has_key: boolean
  key_hint: string
  key_store: string
}

export interface Preset {
  id: string
  label: string
  base_url: string
  needs_key: boolean
  key_url: string
  local_port: number
}

export interface Effective {
  source: string
  base_url: string
  model: string
  /** Why no turn can run yet ("" = fine). */
  error: string
}

export interface Settings {
  provider: ProviderSettings | null
  presets: Preset[]
  effective: Effective
  config_file: string
  /** A command the sandbox refuses waits for the person at its call (permissions.ask). */
  ask_on_refusal?: boolean
  /** The window was started with --ask: asking is on whatever is saved. */
  ask_forced?: boolean
  /** Desktop notifications while the window is not focused: a turn ended; a program waits for the person. */
  notify_turn_end?: boolean
  notify_input?: boolean
}

export interface SettingsInput {
  preset: string
  base_url: string
  model: string
  reasoning: string
  models: ModelInfo[]
  api_key: string
  /** keep (also ""), set or delete */
  key_action: 'keep' | 'set' | 'delete'
}

export interface Verdict {
  ok: boolean
  message: string
  models: string[]
}

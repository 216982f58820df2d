// The only module that touches wailsjs/: the generated Go bindings and the
// Wails runtime. Everything else imports from here, so tests and a plain
// browser (vite dev) never load Wails code paths by accident.
import * as Go from '../../wailsjs/go/app/App'
import { app as models } from '../../wailsjs/go/models'
import { BrowserOpenURL, EventsOn } from '../../wailsjs/runtime/runtime'
import type {
  GoalView,
  Resource,
  StopResult,
  Preset,
  PromptView,
  QueuedInput,
  OutputPage,
  SearchHit,
  Session,
  Settings,
  SettingsInput,
  SlashCommand,
  Layout,
  Startup,
  UpdateNotice,
  Status,
  Stopped,
  SubmitResult,
  Transcript,
  Verdict,
} from './types'
import type { EngineEvent } from './events.gen'
import { BridgeError, parseError } from './errorText'
import type { MCPServer, MCPSettings, MCPTestResult, UserFiles } from './extensions'
import type { ImageInput, ImageVerdict } from './attach'
import type { FileChange, RevertOutcome, SessionChanges, TurnDiff, UndoOutcome } from './changes'

/** The Wails event carrying batches of engine events (app.EventsName). */
export const EVENTS = 'vis:events'
/** Emitted with the absolute paths of files dropped on the window and the point (app.DropName, app.Drop). */
export const DROP = 'vis:drop'
/** Emitted when a second launch hands over a folder (app.WorkspaceName). */
export const WORKSPACE = 'vis:workspace'
/** A desktop notification about a session was clicked: open it (app.OpenSessionName). */
export const OPEN_SESSION = 'vis:open-session'

declare global {
  interface Window {
    go?: unknown
    runtime?: unknown
  }
}

/** True inside the Vis window (the Go bindings are injected). */
export function inWindow(): boolean {
  return typeof window !== 'undefined' && !!window.go && !!window.runtime
}

/**
 * Every bound call goes through here: a rejection becomes a BridgeError with
 * the Go side's code and sentence (errorText.ts), so callers decide by
 * errorCode(e) and show errorMessage(e).
 */
function call<T>(f: () => Promise<T>): Promise<T> {
  if (!inWindow()) return Promise.reject(new BridgeError({ code: 'internal', message: 'not running inside the Vis window' }))
  return f().catch((e: unknown) => {
    throw new BridgeError(parseError(e))
  })
}

export const api = {
  startup: (): Promise<Startup> => call(() => Go.Startup()),
  listSessions: (workspace: string): Promise<Session[]> => call(() => Go.ListSessions(workspace)),
  newSession: (workspace: string): Promise<Session> => call(() => Go.NewSession(workspace)),
  openTranscript: (sessionId: string): Promise<Transcript> => call(() => Go.OpenTranscript(sessionId)),
  running: (sessionId: string): Promise<boolean> => call(() => Go.Running(sessionId)),
  pickWorkspace: (): Promise<string> => call(() => Go.PickWorkspace()),
  setWorkspace: (dir: string): Promise<string> => call(() => Go.SetWorkspace(dir)),
  /** A newer release, when config.yml's updates.check_url names one (app.CheckForUpdate); null otherwise. */
  checkForUpdate: (): Promise<UpdateNotice | null> => call(() => Go.CheckForUpdate()) as Promise<UpdateNotice | null>,
  /** Opens an http(s) address in the person's browser. */
  openURL: (url: string): void => {
    if (/^https?:\/\//.test(url)) BrowserOpenURL(url)
  },
  /** Remembers the window's panes for the next launch (app.SaveLayout). */
  saveLayout: (l: Layout): Promise<void> => call(() => Go.SaveLayout(l as never)),
  recentFolders: (): Promise<string[]> => call(() => Go.RecentFolders()),
  /**
   * Hands the engine an input: it runs it now, queues it behind the running
   * turn, or (a /command that only prints) answers with its text. sessionId
   * "" creates a session in workspace. A refusal rejects with the engine's
   * sentence.
   */
  submit: (sessionId: string, workspace: string, text: string): Promise<SubmitResult> =>
    call(() => Go.Submit(sessionId, workspace, text) as Promise<SubmitResult>),
  /** Submit with images attached (dropped paths, pasted or picked data: URLs). */
  submitWithImages: (sessionId: string, workspace: string, text: string, images: ImageInput[]): Promise<SubmitResult> =>
    call(
      () =>
        Go.SubmitWithImages(sessionId, workspace, text, images.map((i) => models.ImageInput.createFrom(i))) as Promise<SubmitResult>,
    ),
  /** What Send will do with each image (refused and why, sent, or named only), in order. */
  checkImages: (sessionId: string, workspace: string, images: ImageInput[]): Promise<ImageVerdict[]> =>
    call(() => Go.CheckImages(sessionId, workspace, images.map((i) => models.ImageInput.createFrom(i)))),
  /** The system clipboard's image as a dropped file ({path}); empty when it holds none. */
  pasteImage: (): Promise<ImageInput> => call(() => Go.PasteImage()),
  /** Stops the running turn (a !cmd too) and hands back the session's whole queue, oldest first. */
  stop: (sessionId: string): Promise<Stopped> => call(() => Go.Stop(sessionId)),
  /** The session's queue, oldest first. */
  queue: (sessionId: string): Promise<QueuedInput[]> => call(() => Go.Queue(sessionId)),
  /** Replaces a queued input's text; blank text removes it. */
  editQueued: (sessionId: string, id: number, text: string): Promise<void> => call(() => Go.EditQueued(sessionId, id, text)),
  removeQueued: (sessionId: string, id: number): Promise<void> => call(() => Go.RemoveQueued(sessionId, id)),
  /** Sends a held queue (left by a Vis that quit). */
  sendQueued: (sessionId: string): Promise<void> => call(() => Go.SendQueued(sessionId)),
  /** The / menu of a pane's folder: the built-ins, then the person's prompt files there ("" = the window's folder). */
  slashCommands: (workspace: string): Promise<SlashCommand[]> => call(() => Go.SlashCommands(workspace)),
  /** Settings' MCP servers, prompt files and skills (app/extensions.go), in the window's workspace. */
  mcpServers: (): Promise<MCPSettings> => call(() => Go.MCPServers() as Promise<MCPSettings>),
  saveMCPServer: (oldName: string, s: MCPServer): Promise<MCPSettings> => call(() => Go.SaveMCPServer(oldName, s as never) as Promise<MCPSettings>),
  removeMCPServer: (name: string): Promise<MCPSettings> => call(() => Go.RemoveMCPServer(name) as Promise<MCPSettings>),
  testMCPServer: (s: MCPServer): Promise<MCPTestResult> => call(() => Go.TestMCPServer(s as never) as Promise<MCPTestResult>),
  userFiles: (): Promise<UserFiles> => call(() => Go.UserFiles() as Promise<UserFiles>),
  status: (sessionId: string, workspace: string): Promise<Status> =>
    call(() => Go.Status(sessionId, workspace) as Promise<Status>),
  renameSession: (sessionId: string, title: string): Promise<void> => call(() => Go.RenameSession(sessionId, title)),
  deleteSession: (sessionId: string): Promise<void> => call(() => Go.DeleteSession(sessionId)),
  search: (query: string): Promise<SearchHit[]> => call(() => Go.Search(query)),
  prompt: (sessionId: string, turn: number, iteration: number): Promise<PromptView> =>
    call(() => Go.Prompt(sessionId, turn, iteration)),
  /** What turn (0: the latest with changes) changed in the workspace's files, with each file's diff. */
  turnDiff: (sessionId: string, turn: number): Promise<TurnDiff> => call(() => Go.TurnDiff(sessionId, turn) as Promise<TurnDiff>),
  /** Undoes turn's file changes; conflicts (nothing undone) unless mode is rest or overwrite. */
  undoTurn: (sessionId: string, turn: number, mode: '' | 'rest' | 'overwrite'): Promise<UndoOutcome> =>
    call(() => Go.UndoTurn(sessionId, turn, mode) as Promise<UndoOutcome>),
  /** One file (hunk -1) or one hunk (0-based) of turn's changes back as before it; held while a turn runs; conflicts unless mode is overwrite. */
  revertChange: (sessionId: string, turn: number, path: string, hunk: number, mode: '' | 'overwrite'): Promise<RevertOutcome> =>
    call(() => Go.RevertChange(sessionId, turn, path, hunk, mode) as Promise<RevertOutcome>),
  /** Every file the session's turns changed: the turns that changed each, its net change. */
  sessionChanges: (sessionId: string): Promise<SessionChanges> => call(() => Go.SessionChanges(sessionId) as Promise<SessionChanges>),
  /** One file's net diff over the session, with its patch. */
  sessionFileDiff: (sessionId: string, path: string): Promise<FileChange> => call(() => Go.SessionFileDiff(sessionId, path) as Promise<FileChange>),
  /** A page of program call's whole kept output (0-based call), from byte offset. */
  callOutput: (sessionId: string, turn: number, iteration: number, k: number, offset: number): Promise<OutputPage> =>
    call(() => Go.CallOutput(sessionId, turn, iteration, k, offset)),
  settings: (): Promise<Settings> => call(() => Go.Settings() as Promise<Settings>),
  saveSettings: (input: SettingsInput): Promise<Settings> =>
    call(() => Go.SaveSettings(models.SettingsInput.createFrom(input)) as Promise<Settings>),
  /** apiKey "" = the stored key. */
  listModels: (baseUrl: string, apiKey: string): Promise<string[]> => call(() => Go.ListModels(baseUrl, apiKey)),
  /** apiKey "" = the stored key. */
  testConnection: (baseUrl: string, model: string, apiKey: string): Promise<Verdict> =>
    call(() => Go.TestConnection(baseUrl, model, apiKey)),
  detectLocal: (): Promise<Preset[]> => call(() => Go.DetectLocal()),
  /** null when the session has no goal (or it was cleared). */
  goal: (sessionId: string): Promise<GoalView | null> =>
    call(() => Go.Goal(sessionId) as Promise<GoalView | null>),
  /**
   * Sets (or replaces) the goal the way a typed /goal does: the objective
   * enters the transcript and the goal's turn starts (or queues). budget 0 =
   * none; sessionId "" creates a session in workspace. result.goal is the goal.
   */
  setGoal: (sessionId: string, workspace: string, objective: string, budget: number): Promise<SubmitResult> =>
    call(() => Go.SetGoal(sessionId, workspace, objective, budget) as Promise<SubmitResult>),
  /**
   * action: pause, resume, cancel or clear; result.goal is the goal afterwards.
   * A refusal rejects with the engine's sentence.
   */
  goalControl: (sessionId: string, action: string): Promise<SubmitResult> =>
    call(() => Go.GoalControl(sessionId, action) as Promise<SubmitResult>),
  resources: (sessionId: string): Promise<Resource[]> => call(() => Go.Resources(sessionId) as Promise<Resource[]>),
  stopResource: (sessionId: string, id: string): Promise<StopResult> => call(() => Go.StopResource(sessionId, id)),
  restartResource: (sessionId: string, id: string): Promise<void> => call(() => Go.RestartResource(sessionId, id)),
  /** The last n lines of a REPL's log. */
  resourceLogs: (sessionId: string, id: string, n: number): Promise<string> =>
    call(() => Go.ResourceLogs(sessionId, id, n)),
  /** Remembers the session's permission mode (read-only, workspace, full); its next turn runs in it. */
  setSessionMode: (sessionId: string, mode: string): Promise<void> => call(() => Go.SetSessionMode(sessionId, mode)),
  /** The person's approval: program k of an iteration, refused by the sandbox, runs again once with full access. */
  rerunUnconfined: (sessionId: string, turn: number, iteration: number, k: number): Promise<SubmitResult> =>
    call(() => Go.RerunUnconfined(sessionId, turn, iteration, k) as Promise<SubmitResult>),
  /** Answers a program waiting at a call the sandbox refused: approve runs that command once without the sandbox. */
  answerApproval: (sessionId: string, id: string, approve: boolean): Promise<void> =>
    call(() => Go.AnswerApproval(sessionId, id, approve)),
  /** Saves whether a command the sandbox refuses waits for the person's answer at its call. */
  setAskOnRefusal: (on: boolean): Promise<void> => call(() => Go.SetAskOnRefusal(on)),
  /** Whether the window has the keyboard focus: desktop notifications are sent only while it has not. */
  windowFocused: (focused: boolean): Promise<void> => call(() => Go.WindowFocused(focused)),
  /** Saves which desktop notifications to send while the window is not focused. */
  setNotifications: (turnEnd: boolean, input: boolean): Promise<void> => call(() => Go.SetNotifications(turnEnd, input)),
  /** A new session holding copies of the first keep turns of a session (the original unchanged). */
  forkSession: (sessionId: string, keep: number): Promise<Session> => call(() => Go.ForkSession(sessionId, keep) as Promise<Session>),
  /** Trusts the folder: its held-back project settings apply from the next turn. */
  trustWorkspace: (workspace: string): Promise<void> => call(() => Go.TrustWorkspace(workspace)),
  logFrontendError: (message: string, stack: string): Promise<void> =>
    call(() => Go.LogFrontendError(message, stack)),
}

/** The type of api, for components that take it as a prop (tests pass fakes). */
export type Api = typeof api

/**
 * Subscribes to engine event batches (seq ascending); returns the
 * unsubscribe function. The events are typed by events.gen.ts, generated
 * from the Go payload structs the bridge marshals.
 */
export function onEvents(cb: (batch: EngineEvent[]) => void): () => void {
  if (!inWindow()) return () => {}
  return EventsOn(EVENTS, (batch: EngineEvent[]) => cb(Array.isArray(batch) ? batch : []))
}

/** Files dropped on the window: their absolute paths and where (CSS pixels in the page). */
export interface Dropped {
  paths: string[]
  x: number
  y: number
}

/** Reads app.Drop; a missing point is -1, -1 (the active pane takes the files). */
export function droppedOf(data: unknown): Dropped {
  const d = (data ?? {}) as Partial<Dropped>
  return {
    paths: Array.isArray(d.paths) ? d.paths.map(String) : [],
    x: typeof d.x === 'number' ? d.x : -1,
    y: typeof d.y === 'number' ? d.y : -1,
  }
}

/** Subscribes to files dropped on the window. */
export function onDrop(cb: (d: Dropped) => void): () => void {
  if (!inWindow()) return () => {}
  return EventsOn(DROP, (data: unknown) => cb(droppedOf(data)))
}

/** Subscribes to "open this session" (a clicked desktop notification). */
export function onOpenSession(cb: (sessionId: string) => void): () => void {
  if (!inWindow()) return () => {}
  return EventsOn(OPEN_SESSION, (id: string) => cb(String(id)))
}

/** Subscribes to workspace hand-overs from a second launch. */
export function onWorkspace(cb: (dir: string) => void): () => void {
  if (!inWindow()) return () => {}
  return EventsOn(WORKSPACE, (dir: string) => cb(String(dir)))
}

export { BridgeError, errorCode, errorMessage, type ErrorCode } from './errorText'


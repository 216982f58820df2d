// The only module that touches wailsjs/: the generated Go bindings and the
// Wails runtime. Everything else imports from here, so tests and a plain
// browser (vite dev) never load Wails code paths by accident.
import * as Go from '../../wailsjs/go/app/App'
import { EventsOn } from '../../wailsjs/runtime/runtime'
import type { Session, Startup, Transcript, VisEvent } from './types'

/** The Wails event carrying batches of engine events (app.EventsName). */
export const EVENTS = 'vis:events'
/** Emitted when a second launch hands over a folder (app.WorkspaceName). */
export const WORKSPACE = 'vis:workspace'

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

function call<T>(f: () => Promise<T>): Promise<T> {
  if (!inWindow()) return Promise.reject(new Error('not running inside the Vis window'))
  return f()
}

export const api = {
  startup: (): Promise<Startup> => call(() => Go.Startup()),
  listSessions: (workspace: string): Promise<Session[]> => call(() => Go.ListSessions(workspace)),
  newSession: (workspace: string): Promise<Session> => call(() => Go.NewSession(workspace)),
  openTranscript: (sessionId: string): Promise<Transcript> => call(() => Go.OpenTranscript(sessionId)),
  send: (sessionId: string, workspace: string, text: string): Promise<string> =>
    call(() => Go.Send(sessionId, workspace, text)),
  cancel: (sessionId: string): Promise<boolean> => call(() => Go.Cancel(sessionId)),
  running: (sessionId: string): Promise<boolean> => call(() => Go.Running(sessionId)),
  pickWorkspace: (): Promise<string> => call(() => Go.PickWorkspace()),
  setWorkspace: (dir: string): Promise<string> => call(() => Go.SetWorkspace(dir)),
}

/** Subscribes to engine event batches; returns the unsubscribe function. */
export function onEvents(cb: (batch: VisEvent[]) => void): () => void {
  if (!inWindow()) return () => {}
  return EventsOn(EVENTS, (batch: VisEvent[]) => cb(Array.isArray(batch) ? batch : []))
}

/** Subscribes to workspace hand-overs from a second launch. */
export function onWorkspace(cb: (dir: string) => void): () => void {
  if (!inWindow()) return () => {}
  return EventsOn(WORKSPACE, (dir: string) => cb(String(dir)))
}

/** The text of an error from a bound call (the Go ErrorFormatter sends a string). */
export function errorMessage(e: unknown): string {
  if (typeof e === 'string') return e
  if (e instanceof Error) return e.message
  return String(e)
}

// Each session's state as the sidebar shows it, a dot beside its title:
// running (a turn runs), waiting (a program waits for the person's answer),
// failed (its last turn failed and the person has not looked since), unread
// (its last turn finished while the person was elsewhere). Followed from
// the engine's events for every session, not only the open one; opening a
// session (or having it open in the focused window when its turn ends)
// reads it.
import type { EngineEvent } from './events.gen'

export type SessionState = 'running' | 'waiting' | 'failed' | 'unread'

/** What each state means, for the dot's tooltip. */
export const STATE_TITLE: Record<SessionState, string> = {
  running: 'A turn is running',
  waiting: 'Waiting for your answer',
  failed: 'Its last turn failed',
  unread: 'Finished while you were away',
}

/**
 * The states after a batch of events. seen(id) says whether the person
 * sees session id now (it is open and the window is focused): a turn that
 * ends there leaves no dot.
 */
export function nextStates(
  states: Readonly<Record<string, SessionState>>,
  batch: readonly EngineEvent[],
  seen: (sessionId: string) => boolean,
): Record<string, SessionState> {
  let out: Record<string, SessionState> | null = null
  const set = (id: string, s: SessionState | null) => {
    if ((states[id] ?? null) === s && !out) return
    out ??= { ...states }
    if (s) out[id] = s
    else delete out[id]
  }
  for (const e of batch) {
    const id = e.session_id
    if (!id) continue
    switch (e.event) {
      case 'turn-start':
        set(id, 'running')
        break
      case 'approval':
        set(id, e.state === 'asked' ? 'waiting' : 'running')
        break
      case 'turn-end':
        if (e.status === 'cancelled' || seen(id)) set(id, null)
        else set(id, e.status === 'error' ? 'failed' : 'unread')
        break
    }
  }
  return out ?? (states as Record<string, SessionState>)
}

/** The states once the person opened session id: its unread or failed mark is read. */
export function markSeen(states: Readonly<Record<string, SessionState>>, id: string): Record<string, SessionState> {
  const s = states[id]
  if (s !== 'unread' && s !== 'failed') return states as Record<string, SessionState>
  const out = { ...states }
  delete out[id]
  return out
}

// The REPL sidebar's helpers: the `resources` event's list, status colours
// and uptime labels.
import type { EngineEvent } from './events.gen'
import type { Resource } from './types'

/**
 * The list a `resources` event carries for its session (null: none left) in
 * the shape Resources answers with, or null when it is not one. The event
 * carries the engine's entries, whose form and hint sit in `detail`.
 */
export function fromEvent(e: EngineEvent): Resource[] | null {
  if (e.event !== 'resources') return null
  return (e.resources ?? []).map((r) => {
    const out: Resource = {
      id: r.id,
      session: r.session,
      kind: r.kind,
      language: r.language,
      label: r.label,
      dir: r.dir,
      pid: r.pid ?? 0,
      port: r.port ?? 0,
      status: r.status,
      log: r.log ?? '',
      created_at: r.created_at,
      managed: r.managed,
    }
    const { form, hint } = r.detail ?? {}
    if (typeof form === 'string' && form) out.form = form
    if (typeof hint === 'string' && hint) out.hint = hint
    return out
  })
}

/** A REPL that is gone or not answering: drawn red, with its last log lines. */
export function dead(status: string): boolean {
  return status === 'failed' || status === 'down' || status === 'unresponsive'
}

/** "up 5s", "up 3m", "up 2h 5m" from created_at (unix ms) to now. */
export function uptime(createdMs: number, nowMs: number): string {
  if (!createdMs) return ''
  const s = Math.max(0, Math.floor((nowMs - createdMs) / 1000))
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m}m`
  return `${Math.floor(m / 60)}h ${m % 60}m`
}

/** The folder's last part ("/a/b/proj" → "proj"). */
export function folder(dir: string): string {
  const parts = dir.split(/[\\/]/).filter(Boolean)
  return parts[parts.length - 1] ?? dir
}

/**
 * What the sidebar says under a REPL that is not up: the pack's own hint
 * (with the check that failed, when the hint does not name it), else a
 * sentence for the status. "" for a REPL that is fine.
 */
export function hintFor(r: Resource): { form: string; text: string } {
  if (!dead(r.status)) return { form: '', text: '' }
  if (r.hint) return { form: r.form && !r.hint.includes(r.form) ? r.form : '', text: r.hint }
  switch (r.status) {
    case 'unresponsive':
      return { form: '', text: 'It did not answer a health check (a long or stuck evaluation?). Restart it, or Stop it and start a new one.' }
    case 'failed':
      return { form: '', text: r.managed ? 'Its process exited: its last log lines are below. Restart starts it again.' : 'It does not answer on its port.' }
    default:
      return { form: '', text: 'It has stopped.' }
  }
}

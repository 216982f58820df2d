// The composer's queue: messages written while a turn runs. They are sent one
// by one, oldest first, after the turn ends; Stop (or a failed send) returns
// them to the composer joined with the draft, so nothing written is lost.
// Pure functions over immutable arrays, so Svelte state stays simple.
// Messages brought back by a reload are marked restored: they wait for the
// person (Send) or for the end of a turn that was running across the reload.
import type { Attachment } from './attach'

export interface Queued {
  id: number
  text: string
  /** Images attached when the message was queued; they go with it. */
  images?: Attachment[]
  /** Brought back by a reload (text only); not sent until released. */
  restored?: boolean
}

let nextId = 1

/** q with text (and its images) appended (blank text changes nothing). */
export function enqueue(q: readonly Queued[], text: string, images: Attachment[] = []): Queued[] {
  if (!text.trim()) return [...q]
  return [...q, images.length ? { id: nextId++, text, images } : { id: nextId++, text }]
}

/** Queued messages brought back by a reload, marked restored (blank texts left out). */
export function restore(texts: readonly string[]): Queued[] {
  return texts.filter((t) => t.trim()).map((text) => ({ id: nextId++, text, restored: true }))
}

/** q with no message marked restored: they are sent as the queue drains. */
export function release(q: readonly Queued[]): Queued[] {
  return q.some((m) => m.restored) ? q.map(({ restored: _, ...m }) => m) : [...q]
}

/** True when the queue's next message waits for the person (restored by a reload). */
export function held(q: readonly Queued[]): boolean {
  return !!q[0]?.restored
}

/** The images of the queued messages, oldest first (they come back with the text). */
export function imagesBack(q: readonly Queued[], pending: readonly Attachment[]): Attachment[] {
  return [...q.flatMap((m) => m.images ?? []), ...pending]
}

/** q with the message id's text replaced; blank text removes it. */
export function edit(q: readonly Queued[], id: number, text: string): Queued[] {
  if (!text.trim()) return remove(q, id)
  return q.map((m) => (m.id === id ? { ...m, text } : m))
}

export function remove(q: readonly Queued[], id: number): Queued[] {
  return q.filter((m) => m.id !== id)
}

/**
 * The composer's text after the queue comes back: the queued messages,
 * oldest first, then the draft, separated by blank lines (blank parts left
 * out).
 */
export function joinBack(q: readonly Queued[], draft: string): string {
  return [...q.map((m) => m.text), draft]
    .map((t) => t.replace(/\s+$/, ''))
    .filter((t) => t.trim() !== '')
    .join('\n\n')
}

// The composer's queue: messages written while a turn runs. They are sent one
// by one, oldest first, after the turn ends; Stop (or a failed send) returns
// them to the composer joined with the draft, so nothing written is lost.
// Pure functions over immutable arrays, so Svelte state stays simple.

export interface Queued {
  id: number
  text: string
}

let nextId = 1

/** q with text appended (blank text changes nothing). */
export function enqueue(q: readonly Queued[], text: string): Queued[] {
  if (!text.trim()) return [...q]
  return [...q, { id: nextId++, text }]
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

// Small display helpers.

/** "just now", "5 min ago", "3 h ago", "2 d ago" or a date, for an RFC 3339 time. */
export function ago(iso: string, now: Date = new Date()): string {
  if (!iso) return ''
  const t = new Date(iso)
  if (Number.isNaN(t.getTime())) return ''
  const s = Math.max(0, (now.getTime() - t.getTime()) / 1000)
  if (s < 60) return 'just now'
  if (s < 3600) return `${Math.floor(s / 60)} min ago`
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`
  if (s < 7 * 86400) return `${Math.floor(s / 86400)} d ago`
  return t.toISOString().slice(0, 10)
}

/** "850 ms", "12.3 s", "4 min 5 s". */
export function duration(ms: number): string {
  if (!ms || ms < 0) return ''
  if (ms < 1000) return `${ms} ms`
  if (ms < 60000) return `${(ms / 1000).toFixed(1)} s`
  const m = Math.floor(ms / 60000)
  return `${m} min ${Math.round((ms % 60000) / 1000)} s`
}

/** "1 program", "2 programs". */
export function plural(n: number, word: string): string {
  return `${n} ${n === 1 ? word : word + 's'}`
}

/** "2,050 in · 71 out tokens", with cached and reasoning counts when known; "" for none. */
export function tokens(u: { input_tokens: number; output_tokens: number; cached_tokens?: number; reasoning_tokens?: number } | undefined): string {
  if (!u || (!u.input_tokens && !u.output_tokens)) return ''
  const n = (x: number) => x.toLocaleString('en-US')
  const parts = [`${n(u.input_tokens)} in`]
  if (u.cached_tokens) parts.push(`${n(u.cached_tokens)} cached`)
  parts.push(`${n(u.output_tokens)} out`)
  if (u.reasoning_tokens) parts.push(`${n(u.reasoning_tokens)} reasoning`)
  return parts.join(' · ') + ' tokens'
}

/** "512 B", "4.0 KB", "1.3 MB". */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`
  return `${(n / 1024 / 1024).toFixed(1)} MB`
}

/** Outputs longer than this many lines or characters are folded. */
export const FOLD_LINES = 40
export const FOLD_CHARS = 4096

export interface Folded {
  /** What to show while folded (all of text when nothing is hidden). */
  head: string
  /** Lines and characters left out of head (0 when not folded). */
  hiddenLines: number
  hiddenChars: number
}

/**
 * The start of text for a folded view: at most maxLines lines and about
 * maxChars characters, cut at a line end when one is near. Text within both
 * limits is not folded.
 */
export function fold(text: string, maxLines = FOLD_LINES, maxChars = FOLD_CHARS): Folded {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n')
  if (lines.length <= maxLines && text.length <= maxChars) return { head: text, hiddenLines: 0, hiddenChars: 0 }
  let head = lines.slice(0, maxLines).join('\n')
  if (head.length > maxChars) {
    const nl = head.lastIndexOf('\n', maxChars)
    head = head.slice(0, nl > maxChars / 2 ? nl : maxChars)
  }
  const shownLines = head.split('\n').length
  return { head, hiddenLines: Math.max(0, lines.length - shownLines), hiddenChars: text.length - head.length }
}

// A turn's checkpoint (issue 18): what it changed in the workspace's files
// ("N files changed +A −D"), its diff per file, and undoing it. The shapes
// are backend.TurnDiff / app.UndoOutcome's JSON.
import type { TurnChanges } from './events.gen'

export interface FileChange {
  path: string
  old_path?: string
  /** added, deleted, modified, renamed, binary or too-large */
  status: string
  binary?: boolean
  too_large?: boolean
  added: number
  deleted: number
  old_mode?: string
  new_mode?: string
  size?: number
  patch?: string
  patch_clipped?: boolean
}

export interface TurnDiff {
  session_id: string
  turn: number
  files: FileChange[]
  added: number
  deleted: number
  undo_of?: number
  undone_by?: number
}

export interface UndoView {
  session_id: string
  turn: number
  undo_turn: number
  restored: string[]
  removed: string[]
  skipped?: string[]
  not_restored?: string[]
}

/** Either undo (done) or conflicts (nothing undone: ask the person). */
export interface UndoOutcome {
  undo: UndoView | null
  conflicts: string[]
}

/** A revert of one file or hunk: done (revert.undo_turn), held until the running turn ends (revert.held), or conflicts. */
export interface RevertOutcome {
  revert: (UndoView & { held?: boolean }) | null
  conflicts: string[]
}

/** What the turn card's changes view calls. mode: "" (refuse on conflicts), "rest" or "overwrite". */
export interface ChangesApi {
  turnDiff: (sessionId: string, turn: number) => Promise<TurnDiff>
  undoTurn: (sessionId: string, turn: number, mode: '' | 'rest' | 'overwrite') => Promise<UndoOutcome>
  /** One file (hunk -1) or one hunk (0-based) of the turn's changes back as before it. */
  revertChange?: (sessionId: string, turn: number, path: string, hunk: number, mode: '' | 'overwrite') => Promise<RevertOutcome>
  /** Sends text to the session as the person's next message (the composer's Submit). */
  send?: (sessionId: string, text: string) => Promise<unknown>
}

/** "3 files changed +12 −4" */
export function figures(c: Pick<TurnChanges, 'files' | 'added' | 'deleted'>): string {
  return `${c.files} ${c.files === 1 ? 'file' : 'files'} changed +${c.added} −${c.deleted}`
}

export type LineKind = 'add' | 'del' | 'hunk' | 'meta' | 'ctx'

/** A unified diff's lines with their kind, for colouring. */
export function patchLines(patch: string): { kind: LineKind; text: string }[] {
  const lines = patch.endsWith('\n') ? patch.slice(0, -1).split('\n') : patch.split('\n')
  let inHunk = false
  return lines.map((text) => {
    if (text.startsWith('@@')) {
      inHunk = true
      return { kind: 'hunk', text }
    }
    if (!inHunk) return { kind: 'meta', text }
    if (text.startsWith('+')) return { kind: 'add', text }
    if (text.startsWith('-')) return { kind: 'del', text }
    if (text.startsWith('diff --git')) {
      inHunk = false
      return { kind: 'meta', text }
    }
    return { kind: 'ctx', text }
  })
}

/** One line per file for the list: status word, name (old → new for a rename), figures. */
export function fileLabel(f: FileChange): string {
  const name = f.old_path ? `${f.old_path} → ${f.path}` : f.path
  let fig = `+${f.added} −${f.deleted}`
  if (f.too_large) fig = 'too large to keep'
  else if (f.binary) fig = 'binary'
  const mode = f.old_mode || f.new_mode ? ` · mode ${f.old_mode || '–'} → ${f.new_mode || '–'}` : ''
  return `${f.status} ${name} ${fig}${mode}`
}

/** A line of a hunk with its line numbers before (old) and after (new) the turn. */
export interface DiffLine {
  kind: LineKind
  text: string
  old?: number
  new?: number
}

/** One hunk of a file's patch: index is its 0-based place (RevertChange's hunk). */
export interface Hunk {
  index: number
  header: string
  lines: DiffLine[]
}

/** A file's patch as its header lines and its hunks, each line numbered. */
export function patchHunks(patch: string): { meta: string[]; hunks: Hunk[] } {
  const lines = patch.endsWith('\n') ? patch.slice(0, -1).split('\n') : patch.split('\n')
  const meta: string[] = []
  const hunks: Hunk[] = []
  let cur: Hunk | null = null
  let o = 0
  let n = 0
  for (const text of lines) {
    const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text)
    if (m) {
      cur = { index: hunks.length, header: text, lines: [] }
      hunks.push(cur)
      o = Number(m[1])
      n = Number(m[2])
      continue
    }
    if (!cur) {
      if (text !== '' || meta.length) meta.push(text)
      continue
    }
    if (text.startsWith('+')) cur.lines.push({ kind: 'add', text, new: n++ })
    else if (text.startsWith('-')) cur.lines.push({ kind: 'del', text, old: o++ })
    else if (text.startsWith('\\')) cur.lines.push({ kind: 'meta', text })
    else cur.lines.push({ kind: 'ctx', text, old: o++, new: n++ })
  }
  return { meta, hunks }
}

/** Whether one hunk of the file can be reverted alone (a modified text file's patch, whole). */
export function hunksRevertable(f: FileChange): boolean {
  return f.status === 'modified' && !f.binary && !f.too_large && !f.old_path && !f.patch_clipped && !!f.patch?.includes('\n@@')
}

/** A person's comment on a line of a turn's diff. side: the line as after the turn (new) or before it (old, a deleted line). */
export interface DiffComment {
  path: string
  line: number
  side: 'new' | 'old'
  code: string
  text: string
}

/** The comment's place: "path:line", a deleted line's marked as before the turn. */
export function lineRef(c: Pick<DiffComment, 'path' | 'line' | 'side'>): string {
  return c.side === 'old' ? `${c.path}:${c.line} (a deleted line, as before the turn)` : `${c.path}:${c.line}`
}

/** The message "Send N comments" sends to the model: each comment with its path:line and the line it is on. */
export function commentsMessage(turn: number, cs: DiffComment[]): string {
  const out = [`Review comments on the changes of turn ${turn}:`]
  for (const c of cs) {
    const code = c.code.slice(1).trim()
    out.push('', `${lineRef(c)}${code ? ` — \`${code.replaceAll('`', "'")}\`` : ''}`, c.text.trim())
  }
  return out.join('\n')
}

/** "Send 1 comment", "Send 3 comments" */
export function sendLabel(n: number): string {
  return `Send ${n} ${n === 1 ? 'comment' : 'comments'}`
}

// Comments not sent yet, by session and turn, so a card scrolled away and
// back (or a diff closed and opened) keeps them.
const drafts = new Map<string, DiffComment[]>()

export function draftComments(sessionId: string, turn: number): DiffComment[] {
  return drafts.get(`${sessionId}#${turn}`) ?? []
}

export function keepComments(sessionId: string, turn: number, cs: DiffComment[]): void {
  if (cs.length) drafts.set(`${sessionId}#${turn}`, cs)
  else drafts.delete(`${sessionId}#${turn}`)
}

/** One file a session's turns touched (backend.SessionFile): its turns and net change. */
export interface SessionFile {
  path: string
  old_path?: string
  /** the net change: added, deleted, modified, renamed, binary, too-large, or unchanged */
  status: string
  turns: number[]
  added: number
  deleted: number
  binary?: boolean
}

/** Every file a session touched (backend.SessionChanges); net from before turn from to after turn to. */
export interface SessionChanges {
  session_id: string
  files: SessionFile[]
  added: number
  deleted: number
  from: number
  to: number
}

/** What the session's Changes view calls. */
export interface SessionChangesApi {
  sessionChanges: (sessionId: string) => Promise<SessionChanges>
  sessionFileDiff: (sessionId: string, path: string) => Promise<FileChange>
}

/** "turn 3", "turns 1, 2 and 5" */
export function turnsLabel(ts: number[]): string {
  if (ts.length === 1) return `turn ${ts[0]}`
  return `turns ${ts.slice(0, -1).join(', ')} and ${ts[ts.length - 1]}`
}

/** A session file's row: net figures, or what makes it special. */
export function netLabel(f: SessionFile): string {
  if (f.status === 'unchanged') return 'no net change'
  if (f.status === 'too-large') return 'too large to keep'
  if (f.binary) return 'binary'
  return `+${f.added} −${f.deleted}`
}

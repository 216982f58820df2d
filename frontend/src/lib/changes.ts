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

/** What the turn card's changes view calls. mode: "" (refuse on conflicts), "rest" or "overwrite". */
export interface ChangesApi {
  turnDiff: (sessionId: string, turn: number) => Promise<TurnDiff>
  undoTurn: (sessionId: string, turn: number, mode: '' | 'rest' | 'overwrite') => Promise<UndoOutcome>
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

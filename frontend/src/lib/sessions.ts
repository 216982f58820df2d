// The sidebar's grouping: sessions by workspace, newest first, the open
// workspace's group first; and search snippets split at their « » marks.
import type { Session } from './types'

export interface Group {
  workspace: string
  sessions: Session[]
}

function time(s: Session): number {
  const t = Date.parse(s.updated || s.created || '')
  return Number.isNaN(t) ? 0 : t
}

/** Groups by workspace; sessions newest first; groups by their newest session, current first. */
export function groupSessions(sessions: readonly Session[], current: string): Group[] {
  const by = new Map<string, Session[]>()
  for (const s of sessions) {
    const list = by.get(s.workspace) ?? []
    list.push(s)
    by.set(s.workspace, list)
  }
  const groups = [...by.entries()].map(([workspace, list]) => ({
    workspace,
    sessions: [...list].sort((a, b) => time(b) - time(a)),
  }))
  groups.sort((a, b) => {
    if (a.workspace === current) return -1
    if (b.workspace === current) return 1
    return time(b.sessions[0]) - time(a.sessions[0])
  })
  return groups
}

/** The last path element of a folder ("/home/me/proj" → "proj"). */
export function baseName(dir: string): string {
  const parts = dir.replace(/[\\/]+$/, '').split(/[\\/]/)
  return parts[parts.length - 1] || dir
}

export interface Piece {
  text: string
  match: boolean
}

/**
 * A Markdown excerpt as the text a person reads: no code fences or
 * backticks, no emphasis stars, heading, list or quote markers, links as
 * their text, all on one line. Snake_case and the search's «» marks stay.
 */
export function plainText(md: string): string {
  return md
    .replace(/```[^\n]*/g, ' ') // fences, with their language
    .replace(/`+/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/^[ \t]*(#{1,6}|>+|[-*+]|\d+[.)])[ \t]+/gm, '') // headings, quotes, list markers
    .replace(/\*{1,3}|(?<![\p{L}\p{N}])_{1,3}|_{1,3}(?![\p{L}\p{N}])/gu, '') // emphasis, not snake_case
    .replace(/\s+/g, ' ')
    .trim()
}

/** "the «tests» pass" → [the ][tests*][ pass]; the text is plain (plainText), not Markdown. */
export function snippetPieces(snippet: string): Piece[] {
  snippet = plainText(snippet)
  const out: Piece[] = []
  const re = /«([^»]*)»/g
  let last = 0
  for (let m = re.exec(snippet); m; m = re.exec(snippet)) {
    if (m.index > last) out.push({ text: snippet.slice(last, m.index), match: false })
    out.push({ text: m[1], match: true })
    last = m.index + m[0].length
  }
  if (last < snippet.length) out.push({ text: snippet.slice(last), match: false })
  return out
}

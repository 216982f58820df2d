// What the composer's text is (the engine decides the same way, see
// backend/commands.go classify) and the slash-command menu's filtering.
import type { SlashCommand } from './types'

export type InputKind = 'turn' | 'shell' | 'command'

const commandRe = /^\/[A-Za-z][A-Za-z0-9_-]*(\s|$)/

/** `!cmd` runs in the shell, `/word ...` is a command (a path like /etc/hosts is not), the rest goes to the model. */
export function classify(text: string): InputKind {
  const t = text.trim()
  if (t.startsWith('!')) return 'shell'
  if (commandRe.test(t)) return 'command'
  return 'turn'
}

/**
 * The command name being typed ("/go" → "/go", "/" → "/"), or null when the
 * menu should be closed (no leading slash, or arguments started).
 */
export function slashQuery(text: string): string | null {
  return /^\/[A-Za-z0-9_-]*$/.test(text) ? text : null
}

/** Commands whose name starts with query, then those containing it; case-insensitive. */
export function filterCommands(cmds: readonly SlashCommand[], query: string): SlashCommand[] {
  const q = query.toLowerCase()
  const starts = cmds.filter((c) => c.name.toLowerCase().startsWith(q))
  const bare = q.replace(/^\//, '')
  const contains = bare
    ? cmds.filter((c) => !starts.includes(c) && c.name.toLowerCase().includes(bare))
    : []
  return [...starts, ...contains]
}

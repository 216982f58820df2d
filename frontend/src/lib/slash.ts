// The slash-command menu's filtering. What the composer's text is (a
// message, `!cmd`, `/command`) is the engine's decision alone
// (backend/controller.go classify): the page sends every input as typed.
import type { SlashCommand } from './types'

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

// Settings' MCP servers, prompt files and skills (issue 19): the shapes the
// Go side sends (backend/mcpsettings.go), the calls the dialog needs, and
// the editor's draft of one server (arguments one per line, env and
// headers as KEY=VALUE / Name: value lines) with its conversion both ways.
// A pasted {"mcpServers": {...}} (the shape other tools write) becomes
// servers to save.

export interface MCPServer {
  name: string
  command?: string
  args?: string[]
  env?: Record<string, string>
  cwd?: string
  url?: string
  headers?: Record<string, string>
  disabled?: boolean
  /** The file that configures it. */
  from?: string
  /** In the window's own file ($VIS_HOME/mcp.json): can be edited here. */
  editable?: boolean
  /** A config file's server of the same name is used instead. */
  shadowed?: boolean
}

export interface MCPSettings {
  file: string
  servers: MCPServer[]
  error?: string
}

export interface MCPTestResult {
  ok: boolean
  message: string
  tools: { name: string; description?: string }[]
  log?: string
}

export interface UserFile {
  name: string
  description: string
  usage?: string
  source: string
  path: string
  shadowed?: boolean
}

export interface UserFiles {
  prompts: UserFile[]
  skills: UserFile[]
  prompt_dirs: string[]
  skill_dirs: string[]
  project_held?: boolean
  warnings?: string[]
}

/** The calls Settings makes for these lists (app/extensions.go). */
export interface ExtensionsApi {
  mcpServers: () => Promise<MCPSettings>
  /** oldName "" adds a server. */
  saveMCPServer: (oldName: string, s: MCPServer) => Promise<MCPSettings>
  removeMCPServer: (name: string) => Promise<MCPSettings>
  testMCPServer: (s: MCPServer) => Promise<MCPTestResult>
  userFiles: () => Promise<UserFiles>
}

export interface ServerDraft {
  /** The saved name being edited ("" = a new server). */
  oldName: string
  name: string
  transport: 'stdio' | 'http'
  command: string
  args: string
  env: string
  cwd: string
  url: string
  headers: string
  disabled: boolean
}

export function emptyDraft(): ServerDraft {
  return { oldName: '', name: '', transport: 'stdio', command: '', args: '', env: '', cwd: '', url: '', headers: '', disabled: false }
}

const pairs = (m: Record<string, string> | undefined, sep: string) =>
  Object.entries(m ?? {})
    .map(([k, v]) => `${k}${sep}${v}`)
    .join('\n')

export function draftOf(s: MCPServer): ServerDraft {
  return {
    oldName: s.name,
    name: s.name,
    transport: s.url ? 'http' : 'stdio',
    command: s.command ?? '',
    args: (s.args ?? []).join('\n'),
    env: pairs(s.env, '='),
    cwd: s.cwd ?? '',
    url: s.url ?? '',
    headers: pairs(s.headers, ': '),
    disabled: !!s.disabled,
  }
}

/** KEY=VALUE (sep "=") or Name: value (sep ":") lines; a line without sep is an error. */
export function parsePairs(text: string, sep: '=' | ':', what: string): Record<string, string> | string {
  const out: Record<string, string> = {}
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (!line) continue
    const i = line.indexOf(sep)
    if (i <= 0) return `${what}: “${line}” is not ${sep === '=' ? 'NAME=value' : 'Name: value'}`
    out[line.slice(0, i).trim()] = line.slice(i + 1).trim()
  }
  return out
}

/** The server a draft describes, or the sentence saying what is wrong. */
export function serverOf(d: ServerDraft): MCPServer | string {
  const name = d.name.trim()
  if (!name) return 'Give the server a name.'
  if (/[\s./\\]/.test(name)) return 'A name has no spaces, dots or slashes.'
  if (d.transport === 'stdio') {
    if (!d.command.trim()) return 'Enter the command that starts the server.'
    const env = parsePairs(d.env, '=', 'Environment')
    if (typeof env === 'string') return env
    const s: MCPServer = { name, command: d.command.trim(), disabled: d.disabled || undefined }
    const args = d.args
      .split('\n')
      .map((a) => a.trim())
      .filter((a) => a !== '')
    if (args.length) s.args = args
    if (Object.keys(env).length) s.env = env
    if (d.cwd.trim()) s.cwd = d.cwd.trim()
    return s
  }
  if (!/^https?:\/\//.test(d.url.trim())) return 'Enter the server’s http(s) URL.'
  const headers = parsePairs(d.headers, ':', 'Headers')
  if (typeof headers === 'string') return headers
  const s: MCPServer = { name, url: d.url.trim(), disabled: d.disabled || undefined }
  if (Object.keys(headers).length) s.headers = headers
  return s
}

/**
 * Servers from a pasted configuration: {"mcpServers": {name: {...}}} (or
 * mcp_servers, or the inner object alone), or the sentence saying why not.
 */
export function parsePasted(text: string): MCPServer[] | string {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (e) {
    return `Not JSON: ${(e as Error).message}`
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return 'Expected {"mcpServers": {"name": {"command": …}}}'
  const d = doc as Record<string, unknown>
  const inner = (d.mcpServers ?? d.mcp_servers ?? d) as Record<string, unknown>
  const out: MCPServer[] = []
  for (const [name, v] of Object.entries(inner)) {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return `Server “${name}” is not an object`
    const x = v as Record<string, unknown>
    if (typeof x.command !== 'string' && typeof x.url !== 'string') return `Server “${name}” has neither command nor url`
    const strMap = (m: unknown) =>
      m && typeof m === 'object' ? Object.fromEntries(Object.entries(m as object).map(([k, val]) => [k, String(val)])) : undefined
    out.push({
      name,
      command: typeof x.command === 'string' ? x.command : undefined,
      args: Array.isArray(x.args) ? x.args.map(String) : undefined,
      env: strMap(x.env),
      cwd: typeof x.cwd === 'string' ? x.cwd : undefined,
      url: typeof x.url === 'string' ? x.url : undefined,
      headers: strMap(x.headers),
      disabled: x.disabled === true || undefined,
    })
  }
  if (!out.length) return 'No servers in it.'
  return out
}

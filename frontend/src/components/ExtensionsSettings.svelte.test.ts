import { afterEach, describe, expect, it } from 'vitest'
import SettingsDialog from './SettingsDialog.svelte'
import { all, cleanup, click, one, render, settle, type } from './testkit'
import type { Settings } from '../lib/types'
import { draftOf, parsePasted, serverOf, type MCPServer, type MCPSettings, type UserFiles } from '../lib/extensions'

afterEach(cleanup)

const settings: Settings = {
  provider: null,
  presets: [{ id: 'custom', label: 'Custom', base_url: '', needs_key: false, key_url: '', local_port: 0 }],
  effective: { source: 'env', base_url: 'http://x/v1', model: 'm', error: '' },
  config_file: '/home/me/.vis/config.yml',
}

const files: UserFiles = {
  prompts: [
    { name: '/review', description: 'Review files for bugs', usage: '/review <file>', source: 'home', path: '/home/me/.vis/prompts/review.md' },
    { name: '/help', description: 'mine', source: 'project', path: '/w/.vis/prompts/help.md', shadowed: true },
  ],
  skills: [{ name: 'pdf', description: 'Fill PDF forms', source: 'home', path: '/home/me/.vis/skills/pdf' }],
  prompt_dirs: ['/home/me/.vis/prompts', '/w/.vis/prompts'],
  skill_dirs: ['/home/me/.vis/skills', '/w/.vis/skills'],
  project_held: true,
}

function setup(initial: MCPServer[]) {
  const log: string[] = []
  let servers = [...initial]
  const view = (): MCPSettings => ({ file: '/home/me/.vis/mcp.json', servers: servers.map((s) => ({ ...s })) })
  const api = {
    settings: async () => settings,
    saveSettings: async () => settings,
    listModels: async () => [],
    testConnection: async () => ({ ok: true, message: '', models: [] }),
    detectLocal: async () => [],
    mcpServers: async () => view(),
    saveMCPServer: async (oldName: string, s: MCPServer) => {
      log.push(`save ${oldName || '-'} ${JSON.stringify(s)}`)
      if (s.name === 'taken') throw new Error('save MCP server: MCP server "taken": a server of that name exists; choose another name')
      servers = servers.filter((x) => x.name !== oldName && x.name !== s.name)
      servers.push({ ...s, editable: true, from: '/home/me/.vis/mcp.json' })
      servers.sort((a, b) => a.name.localeCompare(b.name))
      return view()
    },
    removeMCPServer: async (name: string) => {
      log.push(`remove ${name}`)
      servers = servers.filter((x) => x.name !== name)
      return view()
    },
    testMCPServer: async (s: MCPServer) => {
      log.push(`test ${s.name}`)
      return s.command === 'broken'
        ? { ok: false, message: 'MCP server did not start: exit status 1', tools: [], log: 'no such module' }
        : { ok: true, message: 'Connected: 2 tools', tools: [{ name: 'search', description: 'Search issues' }, { name: 'create' }] }
    },
    userFiles: async () => files,
  }
  const el = render(SettingsDialog, { api, onclose: () => {}, onsaved: () => {} })
  return { el, log }
}

const rows = (el: HTMLElement) => all(el, 'mcp-server').map((r) => r.textContent!.replace(/\s+/g, ' ').trim())

describe('Settings: MCP servers, prompts and skills', () => {
  it('lists the servers (the window’s editable, others read-only with their file), prompts and skills', async () => {
    const { el } = setup([
      { name: 'gh', command: 'npx', args: ['-y', 'gh-mcp'], editable: true, from: '/home/me/.vis/mcp.json' },
      { name: 'yml', url: 'http://h/mcp', editable: false, from: '/home/me/.vis/config.yml' },
    ])
    await settle()
    expect(rows(el)).toEqual([
      'gh stdio Edit Remove npx -y gh-mcp',
      'yml http read-only http://h/mcp from /home/me/.vis/config.yml',
    ])
    expect(one(el, 'settings-mcp')!.textContent).toContain('/home/me/.vis/mcp.json')
    const prompts = all(el, 'user-prompt').map((r) => r.textContent!.replace(/\s+/g, ' ').trim())
    expect(prompts).toEqual([
      '/review <file> home Review files for bugs /home/me/.vis/prompts/review.md',
      '/help project built-in wins mine /w/.vis/prompts/help.md',
    ])
    expect(all(el, 'user-skill')[0].textContent).toContain('Fill PDF forms')
    expect(one(el, 'user-files-held')!.textContent).toContain('once the folder is trusted')
  })

  it('adds a stdio server: test connection shows its tools, save writes it', async () => {
    const { el, log } = setup([])
    await settle()
    expect(one(el, 'mcp-none')).not.toBeNull()
    click(one(el, 'mcp-add'))
    type(one(el, 'mcp-name'), 'github')
    click(one(el, 'mcp-save'))
    expect(one(el, 'mcp-error')!.textContent).toBe('Enter the command that starts the server.')
    type(one(el, 'mcp-command'), 'npx')
    type(one(el, 'mcp-args'), '-y\n@mcp/github\n')
    type(one(el, 'mcp-env'), 'GITHUB_TOKEN=${GH_TOKEN}')
    click(one(el, 'mcp-test'))
    await settle()
    const v = one(el, 'mcp-verdict')!
    expect(v.dataset.ok).toBe('true')
    expect(v.textContent).toContain('Connected: 2 tools')
    expect(all(el, 'mcp-tools')[0].textContent).toContain('search — Search issues')
    click(one(el, 'mcp-save'))
    await settle()
    expect(log).toEqual([
      'test github',
      'save - {"name":"github","command":"npx","args":["-y","@mcp/github"],"env":{"GITHUB_TOKEN":"${GH_TOKEN}"}}',
    ])
    expect(one(el, 'mcp-editor')).toBeNull()
    expect(rows(el)).toEqual(['github stdio Edit Remove npx -y @mcp/github'])
  })

  it('a failing test shows the reason and the server’s stderr; edit renames; remove deletes', async () => {
    const { el, log } = setup([{ name: 'a', command: 'broken', editable: true, from: '/home/me/.vis/mcp.json' }])
    await settle()
    click(one(el, 'mcp-edit'))
    expect(one<HTMLInputElement>(el, 'mcp-command')!.value).toBe('broken')
    click(one(el, 'mcp-test'))
    await settle()
    expect(one(el, 'mcp-verdict')!.dataset.ok).toBe('false')
    expect(one(el, 'mcp-verdict')!.textContent).toContain('no such module')
    type(one(el, 'mcp-name'), 'b')
    click(one(el, 'mcp-http'))
    type(one(el, 'mcp-url'), 'https://h/mcp')
    type(one(el, 'mcp-headers'), 'Authorization: Bearer ${T}')
    click(one(el, 'mcp-save'))
    await settle()
    expect(log.at(-1)).toBe('save a {"name":"b","url":"https://h/mcp","headers":{"Authorization":"Bearer ${T}"}}')
    expect(rows(el)).toEqual(['b http Edit Remove https://h/mcp'])
    click(one(el, 'mcp-remove'))
    await settle()
    expect(log.at(-1)).toBe('remove b')
    expect(rows(el)).toEqual([])
  })

  it('a refused save keeps the form and says why', async () => {
    const { el } = setup([])
    await settle()
    click(one(el, 'mcp-add'))
    type(one(el, 'mcp-name'), 'taken')
    type(one(el, 'mcp-command'), 'x')
    click(one(el, 'mcp-save'))
    await settle()
    expect(one(el, 'mcp-editor')).not.toBeNull()
    expect(one(el, 'mcp-error')!.textContent).toContain('a server of that name exists')
  })

  it('a pasted {"mcpServers": …} adds each server', async () => {
    const { el, log } = setup([])
    await settle()
    click(one(el, 'mcp-paste'))
    type(one(el, 'mcp-pasted'), 'not json')
    click(one(el, 'mcp-paste-add'))
    expect(one(el, 'mcp-error')!.textContent).toContain('Not JSON')
    type(one(el, 'mcp-pasted'), '{"mcpServers": {"fs": {"command": "npx", "args": ["fs-mcp", "/tmp"]}, "web": {"type": "http", "url": "https://w/mcp"}}}')
    click(one(el, 'mcp-paste-add'))
    await settle()
    expect(log).toEqual([
      'save - {"name":"fs","command":"npx","args":["fs-mcp","/tmp"]}',
      'save - {"name":"web","url":"https://w/mcp"}',
    ])
    expect(rows(el).map((r) => r.split(' ')[0])).toEqual(['fs', 'web'])
  })
})

describe('extensions drafts', () => {
  it('round-trips a server through the editor draft', () => {
    const s: MCPServer = { name: 'x', command: 'c', args: ['a b', 'c'], env: { A: '1', B: 'x=y' }, cwd: '/d' }
    expect(serverOf(draftOf(s))).toEqual(s)
    const h: MCPServer = { name: 'h', url: 'http://h', headers: { 'X-Key': 'v: w' }, disabled: true }
    expect(serverOf(draftOf(h))).toEqual(h)
  })
  it('refuses what the engine would', () => {
    const d = draftOf({ name: 'a b', command: 'c' })
    expect(serverOf(d)).toBe('A name has no spaces, dots or slashes.')
    expect(serverOf({ ...draftOf({ name: 'a', command: 'c' }), env: 'NOEQUALS' })).toContain('is not NAME=value')
    expect(serverOf({ ...draftOf({ name: 'a', url: 'ftp://x' }) })).toBe('Enter the server’s http(s) URL.')
    expect(parsePasted('[]')).toContain('Expected')
    expect(parsePasted('{"mcpServers": {"a": {"x": 1}}}')).toBe('Server “a” has neither command nor url')
  })
})

import { describe, expect, it } from 'vitest'
import { filterCommands, slashQuery } from './slash'
import { compact, contextPercent, costLabel, goalLabel, tokensLabel } from './status'
import { applyPreset, draftFrom, presetForUrl, setFlags, flagsOf, toInput, withModel } from './settings'
import { groupSessions, snippetPieces, baseName, plainText } from './sessions'
import { benign, catchUncaught, describe as describeError, fromWailsScript, type Reported } from './errors'
import type { Preset, Session, Settings, Status } from './types'

describe('slash', () => {
  const cmds = [
    { name: '/goal', usage: 'Use /goal <objective>', summary: 'goal' },
    { name: '/help', usage: '/help', summary: 'help' },
    { name: '/togo', usage: '/togo', summary: 'x' },
  ]
  it('opens the menu only while a command name is typed', () => {
    expect(slashQuery('/')).toBe('/')
    expect(slashQuery('/go')).toBe('/go')
    expect(slashQuery('/goal ')).toBeNull()
    expect(slashQuery('hello /go')).toBeNull()
    expect(slashQuery('')).toBeNull()
  })
  it('filters by prefix first, then by substring', () => {
    expect(filterCommands(cmds, '/').map((c) => c.name)).toEqual(['/goal', '/help', '/togo'])
    expect(filterCommands(cmds, '/GO').map((c) => c.name)).toEqual(['/goal', '/togo'])
    expect(filterCommands(cmds, '/x')).toEqual([])
  })
})

describe('status labels', () => {
  it('formats tokens, cost, context and goal', () => {
    expect(compact(950)).toBe('950')
    expect(compact(1200)).toBe('1.2k')
    expect(compact(12345)).toBe('12k')
    expect(compact(2_500_000)).toBe('2.5M')
    expect(tokensLabel({ input_tokens: 1000, output_tokens: 234, cached_tokens: 0, reasoning_tokens: 0 })).toBe('1.2k tokens')
    expect(costLabel(null)).toBeNull()
    expect(costLabel(0.0123)).toBe('$0.01')
    expect(costLabel(0.004)).toBe('$0.0040')
    expect(costLabel(0)).toBe('$0.00')
    expect(contextPercent(50_000, 200_000)).toBe(25)
    expect(contextPercent(300_000, 200_000)).toBe(100)
    expect(contextPercent(10, 0)).toBe(0)
    const s = { goal: { objective: 'x', status: 'paused', iteration_budget: 20, iterations_used: 3, tokens_used: 0 } } as Status
    expect(goalLabel(s)).toBe('paused 3/20')
    expect(goalLabel({ ...s, goal: null })).toBe('')
  })
})

const presets: Preset[] = [
  { id: 'openai', label: 'OpenAI', base_url: 'https://api.openai.com/v1', needs_key: true, key_url: 'k', local_port: 0 },
  { id: 'ollama', label: 'Ollama', base_url: 'http://localhost:11434/v1', needs_key: false, key_url: '', local_port: 11434 },
  { id: 'custom', label: 'Custom', base_url: '', needs_key: false, key_url: '', local_port: 0 },
]

describe('settings draft', () => {
  const empty: Settings = { provider: null, presets, effective: { source: '', base_url: '', model: '', error: 'no provider' }, config_file: '' }
  it('starts from the first preset when nothing is configured, or from what is in effect', () => {
    expect(draftFrom(empty)).toMatchObject({ preset: 'openai', baseUrl: 'https://api.openai.com/v1', model: '' })
    const env = { ...empty, effective: { source: 'env', base_url: 'http://localhost:11434/v1/', model: 'llama', error: '' } }
    expect(draftFrom(env)).toMatchObject({ preset: 'ollama', model: 'llama' })
    expect(presetForUrl(presets, 'http://x/v1')).toBe('custom')
  })
  it('fills the base URL from a preset; custom keeps the typed one', () => {
    let d = draftFrom(empty)
    d = applyPreset(d, presets[1])
    expect(d.baseUrl).toBe('http://localhost:11434/v1')
    d = applyPreset({ ...d, baseUrl: 'http://mine/v1' }, presets[2])
    expect(d).toMatchObject({ preset: 'custom', baseUrl: 'http://mine/v1' })
  })
  it('sends the key only when typed and deletes it only when asked', () => {
    const d = draftFrom(empty)
    expect(toInput(d)).toMatchObject({ api_key: '', key_action: 'keep' })
    expect(toInput({ ...d, key: ' sk-1 ' })).toMatchObject({ api_key: 'sk-1', key_action: 'set' })
    expect(toInput({ ...d, removeKey: true })).toMatchObject({ key_action: 'delete' })
  })
  it('keeps per-model flags, tool calls on by default', () => {
    let d = draftFrom(empty)
    expect(flagsOf(d, 'm')).toEqual({ name: 'm', tools: true, reasoning: false, vision: false, context: 0 })
    d = setFlags(d, { ...flagsOf(d, 'm'), vision: true })
    d = setFlags(d, { ...flagsOf(d, 'm'), tools: false })
    expect(d.models).toEqual([{ name: 'm', tools: false, reasoning: false, vision: true, context: 0 }])
  })
  it('switches only the model from the footer, and only for saved settings', () => {
    expect(withModel(empty, 'x')).toBeNull()
    const saved: Settings = {
      ...empty,
      provider: { preset: 'ollama', base_url: 'http://localhost:11434/v1', model: 'a', reasoning: 'low', models: [], has_key: true, key_hint: 'sk…', key_store: 'file' },
    }
    expect(withModel(saved, 'b')).toEqual({ preset: 'ollama', base_url: 'http://localhost:11434/v1', model: 'b', reasoning: 'low', models: [], api_key: '', key_action: 'keep' })
  })
})

describe('sessions', () => {
  const s = (id: string, workspace: string, updated: string): Session => ({ id, workspace, title: id, turns: 1, created: updated, updated })
  it('groups by workspace, newest first, the open workspace first', () => {
    const groups = groupSessions(
      [s('a', '/w1', '2026-01-01T00:00:00Z'), s('b', '/w2', '2026-01-03T00:00:00Z'), s('c', '/w1', '2026-01-02T00:00:00Z'), s('d', '/w3', '2026-01-04T00:00:00Z')],
      '/w1',
    )
    expect(groups.map((g) => [g.workspace, g.sessions.map((x) => x.id)])).toEqual([
      ['/w1', ['c', 'a']],
      ['/w3', ['d']],
      ['/w2', ['b']],
    ])
    expect(baseName('/home/me/proj/')).toBe('proj')
  })
  it('shows snippets as plain text: no Markdown marks, the match still marked', () => {
    const md = '## Fix\n\n- run **`go «test»`** in [the repo](https://x)\n```go\nfunc my_func() {}\n```\n> _done_'
    const pieces = snippetPieces(md)
    expect(pieces.map((p) => p.text).join('')).toBe('Fix run go test in the repo func my_func() {} done')
    expect(pieces.filter((p) => p.match).map((p) => p.text)).toEqual(['test'])
    expect(plainText('a *b* and __c__ with snake_case_name')).toBe('a b and c with snake_case_name')
  })
  it('splits snippets at their match marks', () => {
    expect(snippetPieces('the «tests» now «pass»!')).toEqual([
      { text: 'the ', match: false },
      { text: 'tests', match: true },
      { text: ' now ', match: false },
      { text: 'pass', match: true },
      { text: '!', match: false },
    ])
  })
})

describe('errors', () => {
  it('describes errors, strings and other values', () => {
    const e = new TypeError('x is undefined')
    expect(describeError(e).message).toBe('TypeError: x is undefined')
    expect(describeError(e).stack).toContain('x is undefined')
    expect(describeError('boom')).toEqual({ message: 'boom', stack: '' })
    expect(describeError({ code: 1 })).toEqual({ message: '{"code":1}', stack: '' })
  })
  it('reports uncaught errors and unhandled rejections until stopped', () => {
    const got: Reported[] = []
    const stop = catchUncaught(window, (r) => got.push(r))
    window.dispatchEvent(new ErrorEvent('error', { error: new RangeError('bad index'), message: 'bad index' }))
    window.dispatchEvent(new ErrorEvent('error', { message: 'Script error.', filename: 'http://x/app.js', lineno: 3, colno: 9 }))
    const rejection = new Event('unhandledrejection') as Event & { reason: unknown }
    rejection.reason = 'no session'
    window.dispatchEvent(rejection)
    stop()
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('after stop') }))
    expect(got.map((r) => r.message)).toEqual(['RangeError: bad index', 'Script error.', 'Unhandled rejection: no session'])
    expect(got[1].stack).toBe('at http://x/app.js:3:9')
  })
  it('drops the benign ResizeObserver loop notice and still reports real errors', () => {
    const got: Reported[] = []
    const stop = catchUncaught(window, (r) => got.push(r))
    // Chromium and WebKit send it as an ErrorEvent with a message and no error object.
    window.dispatchEvent(new ErrorEvent('error', { message: 'ResizeObserver loop completed with undelivered notifications.' }))
    window.dispatchEvent(new ErrorEvent('error', { message: 'ResizeObserver loop limit exceeded' }))
    window.dispatchEvent(new ErrorEvent('error', { error: new TypeError('ResizeObserver is broken here') }))
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('real failure') }))
    stop()
    expect(got.map((r) => r.message)).toEqual(['TypeError: ResizeObserver is broken here', 'Error: real failure'])
    expect(benign({ message: 'ResizeObserver loop completed with undelivered notifications.', stack: '' })).toBe(true)
  })
  it('tells errors of Wails\' own scripts apart', () => {
    expect(fromWailsScript({ message: 'x', stack: 'at http://127.0.0.1:5/wails/ipc.js:12:3' })).toBe(true)
    expect(fromWailsScript({ message: 'x', stack: 'at http://127.0.0.1:5/assets/index-abc.js:1:2' })).toBe(false)
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { flushSync } from 'svelte'
import SettingsDialog from './SettingsDialog.svelte'
import { cleanup, click, one, render, settle, type } from './testkit'
import type { Preset, Settings, SettingsInput } from '../lib/types'

afterEach(cleanup)

const presets: Preset[] = [
  { id: 'openai', label: 'OpenAI', base_url: 'https://api.openai.com/v1', needs_key: true, key_url: 'https://platform.openai.com/api-keys', local_port: 0 },
  { id: 'openrouter', label: 'OpenRouter', base_url: 'https://openrouter.ai/api/v1', needs_key: true, key_url: '', local_port: 0 },
  { id: 'ollama', label: 'Ollama', base_url: 'http://localhost:11434/v1', needs_key: false, key_url: '', local_port: 11434 },
  { id: 'lmstudio', label: 'LM Studio', base_url: 'http://localhost:1234/v1', needs_key: false, key_url: '', local_port: 1234 },
  { id: 'custom', label: 'Custom', base_url: '', needs_key: false, key_url: '', local_port: 0 },
]

const nothing: Settings = {
  provider: null,
  presets,
  effective: { source: '', base_url: '', model: '', error: 'no provider configured: set one in the settings' },
  config_file: '/home/me/.vis/config.yml',
}

const saved: Settings = {
  provider: {
    preset: 'openai',
    base_url: 'https://api.openai.com/v1',
    model: 'gpt-x',
    reasoning: 'medium',
    models: [{ name: 'gpt-x', tools: true, reasoning: false, vision: true, context: 0 }],
    has_key: true,
    key_hint: 'sk-…cdef',
    key_store: 'keyring',
  },
  presets,
  effective: { source: 'settings', base_url: 'https://api.openai.com/v1', model: 'gpt-x', error: '' },
  config_file: '/home/me/.vis/config.yml',
}

function setup(initial: Settings, detected: Preset[] = [], listed: string[] = ['llama3', 'qwen']) {
  const log: string[] = []
  const savedInputs: SettingsInput[] = []
  let closed = 0
  const api = {
    settings: async () => initial,
    saveSettings: async (input: SettingsInput) => {
      savedInputs.push(input)
      return saved
    },
    listModels: async (base: string, key: string) => {
      log.push(`list ${base} key=${key}`)
      return listed
    },
    testConnection: async (base: string, model: string, key: string) => {
      log.push(`test ${base} ${model} key=${key}`)
      return base.includes('11434')
        ? { ok: true, message: 'Connected: llama3 answers.', models: ['llama3', 'qwen'] }
        : { ok: false, message: 'The key was refused (401): check it.', models: [] }
    },
    detectLocal: async () => detected,
  }
  const el = render(SettingsDialog, { api, onclose: () => closed++, onsaved: () => log.push('saved') })
  return { el, log, savedInputs, closed: () => closed }
}

const input = (el: HTMLElement, id: string) => one<HTMLInputElement>(el, id)!

describe('SettingsDialog', () => {
  it('on first start explains what to enter and offers a detected local server', async () => {
    const { el, log } = setup(nothing, [presets[2]])
    await settle()
    const intro = one(el, 'settings-first-start')!
    expect(intro.textContent).toContain('OpenAI-compatible')
    expect(intro.textContent).toContain('no provider configured')
    const offer = one(el, 'settings-detected')!
    expect(offer.textContent).toContain('Ollama, running at http://localhost:11434/v1')
    click(offer)
    await settle()
    expect(input(el, 'settings-base-url').value).toBe('http://localhost:11434/v1')
    expect(log).toEqual(['list http://localhost:11434/v1 key='])
    expect(input(el, 'settings-model').value).toBe('llama3')
  })

  it('a preset fills the base URL; custom keeps the typed one', async () => {
    const { el } = setup(nothing)
    await settle()
    const sel = one<HTMLSelectElement>(el, 'settings-preset')!
    for (const [id, url] of [
      ['lmstudio', 'http://localhost:1234/v1'],
      ['openrouter', 'https://openrouter.ai/api/v1'],
    ]) {
      sel.value = id
      sel.dispatchEvent(new Event('change', { bubbles: true }))
      flushSync()
      expect(input(el, 'settings-base-url').value).toBe(url)
    }
    type(input(el, 'settings-base-url'), 'http://gpu-box:8000/v1')
    sel.value = 'custom'
    sel.dispatchEvent(new Event('change', { bubbles: true }))
    flushSync()
    expect(input(el, 'settings-base-url').value).toBe('http://gpu-box:8000/v1')
  })

  it('Custom starts with an empty URL after a preset, but keeps a URL the person typed', async () => {
    const { el } = setup(nothing)
    await settle()
    const sel = one<HTMLSelectElement>(el, 'settings-preset')!
    const choose = (id: string) => {
      sel.value = id
      sel.dispatchEvent(new Event('change', { bubbles: true }))
      flushSync()
    }
    expect(input(el, 'settings-base-url').value).toBe('https://api.openai.com/v1')
    choose('custom')
    expect(input(el, 'settings-base-url').value).toBe('')
    expect(input(el, 'settings-base-url').placeholder).toContain('/v1')
  })

  it('with one listed model, it becomes the choice; choosing from the list fills the Model field', async () => {
    const { el } = setup(nothing, [], ['only-model'])
    await settle()
    type(input(el, 'settings-base-url'), 'http://gpu-box:8000/v1')
    click(one(el, 'settings-load-models'))
    await settle()
    expect(input(el, 'settings-model').value).toBe('only-model')
    // Cleared, then chosen from the list: a click works with a single option.
    type(input(el, 'settings-model'), '')
    const opts = el.querySelectorAll<HTMLButtonElement>('[data-testid="settings-model-option"]')
    expect(opts.length).toBe(1)
    click(opts[0])
    flushSync()
    expect(input(el, 'settings-model').value).toBe('only-model')
    expect(opts[0].getAttribute('aria-selected')).toBe('true')
  })

  it('choosing one of several listed models fills the field (and none is forced)', async () => {
    const { el } = setup(saved)
    await settle()
    type(input(el, 'settings-model'), '')
    click(one(el, 'settings-load-models'))
    await settle()
    expect(input(el, 'settings-model').value).toBe('')
    const opts = el.querySelectorAll<HTMLButtonElement>('[data-testid="settings-model-option"]')
    click(opts[1])
    flushSync()
    expect(input(el, 'settings-model').value).toBe('qwen')
  })

  it('shows the verdict of a connection test', async () => {
    const { el, log } = setup(saved)
    await settle()
    click(one(el, 'settings-test'))
    await settle()
    const v = one(el, 'settings-verdict')!
    expect(v.textContent).toContain('The key was refused (401): check it.')
    expect(v.dataset.ok).toBe('false')
    expect(log).toEqual(['test https://api.openai.com/v1 gpt-x key='])
  })

  it('never shows the key: a password field, empty, with the stored hint; a typed key is sent once', async () => {
    const { el, savedInputs, log } = setup(saved)
    await settle()
    const key = input(el, 'settings-key')
    expect(key.type).toBe('password')
    expect(key.value).toBe('')
    expect(key.placeholder).toContain('sk-…cdef')
    expect(el.textContent).toContain('OS keyring')
    // Saving without typing keeps the stored key.
    click(one(el, 'settings-save'))
    await settle()
    expect(savedInputs[0]).toMatchObject({ preset: 'openai', model: 'gpt-x', reasoning: 'medium', api_key: '', key_action: 'keep' })
    expect(log).toContain('saved')
  })

  it('a typed key is saved with action set, and per-model flags go along', async () => {
    const { el, savedInputs, closed } = setup(saved)
    await settle()
    type(input(el, 'settings-key'), 'sk-new-secret')
    const vision = input(el, 'settings-vision')
    expect(vision.checked).toBe(true)
    const tools = input(el, 'settings-tools')
    tools.checked = false
    tools.dispatchEvent(new Event('change', { bubbles: true }))
    flushSync()
    click(one(el, 'settings-save'))
    await settle()
    expect(savedInputs[0]).toMatchObject({
      api_key: 'sk-new-secret',
      key_action: 'set',
      models: [{ name: 'gpt-x', tools: false, reasoning: false, vision: true, context: 0 }],
    })
    expect(closed()).toBe(1)
  })
})

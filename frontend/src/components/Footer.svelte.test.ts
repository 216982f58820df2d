import { afterEach, describe, expect, it } from 'vitest'
import Footer from './Footer.svelte'
import { all, cleanup, click, one, press, render, settle } from './testkit'
import type { Status } from '../lib/types'

afterEach(cleanup)

const base: Status = {
  provider: 'settings',
  provider_name: '',
  model: 'gpt-x',
  base_url: 'http://x/v1',
  config_error: '',
  usage: { input_tokens: 12000, output_tokens: 345, cached_tokens: 0, reasoning_tokens: 0 },
  cost_usd: 0.0421,
  context_used: 32000,
  context_limit: 128000,
  packs: [],
  repls: 0,
  goal: { objective: 'ship it', status: 'active', iteration_budget: 20, iterations_used: 3, tokens_used: 100 },
  running: false,
}

function setup(status: Status | null, canSwitch = true) {
  const calls: string[] = []
  const props = $state({
    status,
    canSwitch,
    replsOpen: false,
    listModels: async () => ['gpt-x', 'gpt-y'],
    onswitch: async (m: string) => {
      calls.push('switch ' + m)
    },
    onsettings: () => calls.push('settings'),
    onrepls: () => calls.push('repls'),
    ongoal: () => calls.push('goal'),
  })
  return { el: render(Footer, props), calls, props }
}

const text = (el: HTMLElement, id: string) => one(el, id)?.textContent?.replace(/\s+/g, ' ').trim()

describe('Footer', () => {
  it('names the provider by its own name, never "app"', () => {
    const { el } = setup({ ...base, provider: 'app', provider_name: 'Ollama' })
    expect(text(el, 'footer-provider')).toBe('Ollama')
    expect(text(el, 'footer-model')).not.toContain('app')
  })

  it('follows a running turn: tokens and cost change as each status arrives', async () => {
    const running = { ...base, running: true, usage: { input_tokens: 0, output_tokens: 0, cached_tokens: 0, reasoning_tokens: 0 }, cost_usd: 0 }
    const { el, props } = setup(running)
    expect(text(el, 'footer-tokens')).toBe('0 tokens')
    props.status = { ...running, usage: { input_tokens: 1500, output_tokens: 150, cached_tokens: 0, reasoning_tokens: 0 }, cost_usd: 0.0045 }
    await settle()
    expect(text(el, 'footer-tokens')).toBe('1.6k tokens')
    expect(text(el, 'footer-cost')).toBe('$0.0045')
    props.status = { ...running, usage: { input_tokens: 4000, output_tokens: 300, cached_tokens: 0, reasoning_tokens: 0 }, cost_usd: 0.011 }
    await settle()
    expect(text(el, 'footer-tokens')).toBe('4.3k tokens')
    expect(text(el, 'footer-cost')).toBe('$0.01')
  })

  it('says a spent budget in the goal panel\'s words', () => {
    const { el } = setup({ ...base, goal: { objective: 'x', status: 'budget_limited', iteration_budget: 20, iterations_used: 20, tokens_used: 0 } })
    expect(text(el, 'footer-goal')).toBe('goal: budget spent 20/20')
  })

  it('shows the badges of a status', () => {
    const { el } = setup(base)
    expect(text(el, 'footer-model')).toBe('settings gpt-x ▾')
    expect(text(el, 'footer-tokens')).toBe('12k tokens')
    expect(text(el, 'footer-cost')).toBe('$0.04')
    expect(text(el, 'footer-context')).toBe('25% of 128k')
    expect(text(el, 'footer-packs')).toBe('no packs')
    expect(text(el, 'footer-repls')).toBe('REPLs 0')
    expect(text(el, 'footer-goal')).toBe('goal: active 3/20')
    expect(one(el, 'footer-goal')!.dataset.status).toBe('active')
  })

  it('hides the cost when the provider reports no price, and shows packs and no goal', () => {
    const { el } = setup({ ...base, cost_usd: null, goal: null, packs: ['clojure', 'python'], repls: 2 })
    expect(one(el, 'footer-cost')).toBeNull()
    expect(text(el, 'footer-packs')).toBe('clojure · python')
    expect(text(el, 'footer-repls')).toBe('REPLs 2')
    expect(text(el, 'footer-goal')).toBe('no goal')
  })

  it('switches the model from the endpoint list', async () => {
    const { el, calls } = setup(base)
    click(one(el, 'footer-model'))
    await settle()
    const opts = all(el, 'model-option')
    expect(opts.map((o) => o.textContent)).toEqual(['gpt-x', 'gpt-y'])
    click(opts[1])
    await settle()
    expect(calls).toEqual(['switch gpt-y'])
    expect(one(el, 'model-menu')).toBeNull()
    // Esc closes the menu without switching.
    click(one(el, 'footer-model'))
    await settle()
    expect(one(el, 'model-menu')).not.toBeNull()
    press(document.body, 'Escape')
    expect(one(el, 'model-menu')).toBeNull()
    expect(calls).toEqual(['switch gpt-y'])
  })

  it('without saved settings, or with nothing configured, the model badge leads to settings', () => {
    const { el, calls } = setup({ ...base, config_error: 'no provider configured' }, false)
    expect(text(el, 'footer-model')).toBe('No model configured ▾')
    click(one(el, 'footer-model'))
    expect(one(el, 'model-menu')!.textContent).toContain('no provider configured')
    click(one(el, 'model-menu')!.querySelector('button'))
    expect(calls).toEqual(['settings'])
  })

  it('a model set by the environment is switched in the settings', () => {
    const { el } = setup({ ...base, provider: 'env' }, false)
    click(one(el, 'footer-model'))
    expect(one(el, 'model-menu')!.textContent).toContain('This model is set by the environment (VIS_BASE_URL, VIS_MODEL)')
    expect(all(el, 'model-option')).toHaveLength(0)
  })

  it('the REPL badge toggles the panel', () => {
    const { el, calls } = setup(base)
    click(one(el, 'footer-repls'))
    expect(calls).toEqual(['repls'])
  })

  it('opens the goal form from the goal badge, with or without a goal', () => {
    const { el, calls } = setup({ ...base, goal: null })
    click(one(el, 'footer-goal'))
    expect(calls).toEqual(['goal'])
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { flushSync } from 'svelte'
import Composer from './Composer.svelte'
import { all, cleanup, click, one, press, render, settle, type } from './testkit'
import type { SlashCommand } from '../lib/types'

afterEach(cleanup)

const commands: SlashCommand[] = [
  { name: '/goal', usage: 'Use /goal [--budget N] <objective>', summary: 'Set or show the goal.' },
  { name: '/help', usage: '/help', summary: 'List the commands.' },
]

function setup(running = false, accept = true) {
  const sent: string[] = []
  let stops = 0
  const props = $state({
    running,
    disabled: false,
    placeholder: 'Ask',
    commands,
    onsend: async (t: string) => {
      sent.push(t)
      return accept
    },
    onstop: () => {
      stops++
    },
  })
  const el = render(Composer, props)
  const input = one<HTMLTextAreaElement>(el, 'composer-input')!
  return { el, input, props, sent, stops: () => stops }
}

const queued = (el: HTMLElement) => all(el, 'queue-item').map((q) => q.textContent!.replace(/Edit|×/g, '').trim())

describe('Composer', () => {
  it('sends on Enter and clears; Shift+Enter does not send', async () => {
    const { input, sent } = setup()
    type(input, 'first line')
    const e = press(input, 'Enter', { shiftKey: true })
    expect(e.defaultPrevented).toBe(false)
    expect(sent).toEqual([])
    press(input, 'Enter')
    await settle()
    expect(sent).toEqual(['first line'])
    expect(input.value).toBe('')
  })

  it('keeps the text when the send is refused', async () => {
    const { input, sent } = setup(false, false)
    type(input, 'keep me')
    press(input, 'Enter')
    await settle()
    expect(sent).toEqual(['keep me'])
    expect(input.value).toBe('keep me')
  })

  it('queues while a turn runs; queued messages can be edited and removed', () => {
    const { el, input, sent } = setup(true)
    for (const t of ['one', 'two', 'three']) {
      type(input, t)
      press(input, 'Enter')
    }
    expect(sent).toEqual([])
    expect(queued(el)).toEqual(['one', 'two', 'three'])
    expect(one(el, 'composer-send')!.textContent!.trim()).toBe('Queue')

    click(all(el, 'queue-edit')[0])
    const edit = el.querySelector<HTMLTextAreaElement>('[data-testid="queue-item"] textarea')!
    type(edit, 'one, edited')
    press(edit, 'Enter')
    click(all(el, 'queue-remove')[1])
    expect(queued(el)).toEqual(['one, edited', 'three'])
  })

  it('sends queued messages one by one, each after the previous turn ends', async () => {
    const { input, props, sent } = setup(true)
    for (const t of ['a', 'b']) {
      type(input, t)
      press(input, 'Enter')
    }
    // The window reports the accepted message as running right away.
    props.onsend = async (t: string) => {
      sent.push(t)
      props.running = true
      return true
    }
    props.running = false
    flushSync()
    await settle()
    expect(sent).toEqual(['a'])
    props.running = false
    flushSync()
    await settle()
    expect(sent).toEqual(['a', 'b'])
  })

  it('Stop cancels and returns the queued messages to the input, joined with the draft', () => {
    const { el, input, sent, stops } = setup(true)
    for (const t of ['first', 'second']) {
      type(input, t)
      press(input, 'Enter')
    }
    type(input, 'draft')
    click(one(el, 'composer-stop'))
    expect(stops()).toBe(1)
    expect(input.value).toBe('first\n\nsecond\n\ndraft')
    expect(all(el, 'queue-item')).toHaveLength(0)
    expect(sent).toEqual([])
  })

  it('Esc cancels a running turn and also returns the queue', () => {
    const { input, stops } = setup(true)
    type(input, 'later')
    press(input, 'Enter')
    press(input, 'Escape')
    expect(stops()).toBe(1)
    expect(input.value).toBe('later')
  })

  it('shows slash commands with their usage, filtered as typed, and completes with Tab', () => {
    const { el, input, sent } = setup()
    type(input, '/')
    expect(one(el, 'slash-menu')).not.toBeNull()
    const items = all(el, 'slash-item')
    expect(items.map((i) => i.querySelector('.name')!.textContent)).toEqual(['/goal', '/help'])
    expect(items[0].textContent).toContain('Use /goal [--budget N] <objective>')
    type(input, '/he')
    expect(all(el, 'slash-item').map((i) => i.querySelector('.name')!.textContent)).toEqual(['/help'])
    type(input, '/g')
    press(input, 'Tab')
    expect(input.value).toBe('/goal ')
    expect(one(el, 'slash-menu')).toBeNull()
    type(input, '/nothing')
    expect(one(el, 'slash-menu')).toBeNull()
    expect(sent).toEqual([])
  })

  it('Enter on a fully typed command sends it; on a prefix it completes', async () => {
    const { input, sent } = setup()
    type(input, '/he')
    press(input, 'Enter')
    expect(input.value).toBe('/help ')
    expect(sent).toEqual([])
    type(input, '/help')
    press(input, 'Enter')
    await settle()
    expect(sent).toEqual(['/help'])
  })

  it('marks !cmd as a shell command and sends it as typed', async () => {
    const { el, input, sent } = setup()
    type(input, '!ls -la')
    expect(el.querySelector('.hint')!.textContent).toContain('runs this command in the workspace, without the model')
    expect(el.querySelector('.box')!.classList.contains('shell')).toBe(true)
    press(input, 'Enter')
    await settle()
    expect(sent).toEqual(['!ls -la'])
  })
})

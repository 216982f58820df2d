import { afterEach, describe, expect, it } from 'vitest'
import { flushSync } from 'svelte'
import Composer from './Composer.svelte'
import { all, cleanup, click, one, press, render, settle, type } from './testkit'
import type { SlashCommand } from '../lib/types'
import { DraftStore, emptyDraft, type KeyValue } from '../lib/drafts'
import { enqueue } from '../lib/queue'

class MemoryStorage implements KeyValue {
  data = new Map<string, string>()
  getItem(k: string) {
    return this.data.get(k) ?? null
  }
  setItem(k: string, v: string) {
    this.data.set(k, v)
  }
  removeItem(k: string) {
    this.data.delete(k)
  }
}

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

describe('Composer per session', () => {
  function perSession(running = false, storage: KeyValue | null = null) {
    const sent: { key: string; text: string }[] = []
    const drafts = new DraftStore(storage)
    let accept = true
    const props = $state({
      running,
      disabled: false,
      placeholder: 'Ask',
      commands,
      draftKey: 'a',
      drafts,
      // The window counts an accepted message's session as running at once.
      onsend: async (t: string) => {
        sent.push({ key: props.draftKey, text: t })
        if (accept) props.running = true
        return accept
      },
      onstop: () => {},
    })
    const el = render(Composer, props)
    const input = one<HTMLTextAreaElement>(el, 'composer-input')!
    const open = async (key: string, run: boolean) => {
      props.draftKey = key
      props.running = run
      flushSync()
      await settle()
    }
    return { el, input, props, sent, drafts, open, refuse: () => (accept = false) }
  }

  it('keeps draft and queue with their session; a queue never drains into the session opened next', async () => {
    const { el, input, sent, open } = perSession(true)
    type(input, 'queued in A')
    press(input, 'Enter')
    type(input, 'draft in A')
    // B is idle: A's queue must neither show nor be sent there.
    await open('new:/w', false)
    expect(queued(el)).toEqual([])
    expect(input.value).toBe('')
    expect(sent).toEqual([])
    type(input, 'draft in B')
    await open('a', true)
    expect(queued(el)).toEqual(['queued in A'])
    expect(input.value).toBe('draft in A')
    await open('new:/w', false)
    expect(input.value).toBe('draft in B')
    expect(sent).toEqual([])
  })

  it('the window can send a background session queue from the store, oldest first', async () => {
    const { input, drafts, open, sent } = perSession(true)
    for (const t of ['one', 'two']) {
      type(input, t)
      press(input, 'Enter')
    }
    await open('b', false)
    expect(drafts.shift('a')!.text).toBe('one')
    await open('a', true)
    expect(sent).toEqual([])
    expect(drafts.get('a').queue.map((m) => m.text)).toEqual(['two'])
  })

  it('a send refused after the person left puts the text back into that session, not the shown one', async () => {
    const sent: string[] = []
    const drafts = new DraftStore(null)
    let answer: (ok: boolean) => void = () => {}
    const props = $state({
      running: false,
      disabled: false,
      placeholder: 'Ask',
      commands,
      draftKey: 'a',
      drafts,
      onsend: (t: string) => {
        sent.push(t)
        return new Promise<boolean>((r) => (answer = r))
      },
      onstop: () => {},
    })
    const el = render(Composer, props)
    const input = one<HTMLTextAreaElement>(el, 'composer-input')!
    type(input, 'goes to A')
    press(input, 'Enter')
    props.draftKey = 'b'
    flushSync()
    type(input, 'typing in B')
    answer(false)
    await settle()
    expect(sent).toEqual(['goes to A'])
    expect(input.value).toBe('typing in B')
    expect(drafts.get('a').text).toBe('goes to A')
  })

  it('restored messages wait while idle; Send with an empty input sends them one per turn, and says so', async () => {
    const st = new MemoryStorage()
    const before = new DraftStore(st)
    before.put('a', { ...emptyDraft(), text: 'half written', queue: enqueue(enqueue([], 'first'), 'second'), lostImages: 1 })
    before.flush()
    const { el, input, props, sent } = perSession(false, st)
    await settle()
    expect(queued(el)).toEqual(['restored first', 'restored second'])
    expect(input.value).toBe('half written')
    expect(sent, 'restored messages are not sent by themselves').toEqual([])
    expect(one(el, 'draft-images-lost')!.textContent).toContain('1 image of this draft was not kept')
    // Enter with text queues it behind them and releases the queue.
    press(input, 'Enter')
    await settle()
    expect(sent.map((s) => s.text)).toEqual(['first'])
    expect(queued(el)).toEqual(['second', 'half written'])
    props.running = false
    flushSync()
    await settle()
    expect(sent.map((s) => s.text)).toEqual(['first', 'second'])
    props.running = false
    flushSync()
    await settle()
    expect(sent.map((s) => s.text)).toEqual(['first', 'second', 'half written'])
    expect(sent.every((s) => s.key === 'a')).toBe(true)
  })

  it('Send queued with an empty input releases the restored queue', async () => {
    const st = new MemoryStorage()
    const before = new DraftStore(st)
    before.put('a', { ...emptyDraft(), queue: enqueue([], 'only') })
    before.flush()
    const { el, sent } = perSession(false, st)
    const button = one<HTMLButtonElement>(el, 'composer-send')!
    expect(button.disabled).toBe(false)
    expect(button.textContent!.trim()).toBe('Send queued')
    click(button)
    await settle()
    expect(sent.map((s) => s.text)).toEqual(['only'])
  })

  it('restored messages are sent when a turn that ran across the reload ends', async () => {
    const st = new MemoryStorage()
    const before = new DraftStore(st)
    before.put('a', { ...emptyDraft(), queue: enqueue([], 'after the turn') })
    before.flush()
    const { el, props, sent } = perSession(true, st)
    expect(el.querySelector('.queue-title')!.textContent).toContain('sent one by one when the turn ends')
    props.running = false
    flushSync()
    await settle()
    expect(sent.map((s) => s.text)).toEqual(['after the turn'])
  })
})

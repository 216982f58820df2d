import { afterEach, describe, expect, it } from 'vitest'
import { flushSync } from 'svelte'
import Composer from './Composer.svelte'
import { all, cleanup, click, one, press, render, settle, type } from './testkit'
import type { QueuedInput, ReturnedInput, SlashCommand } from '../lib/types'
import { DraftStore } from '../lib/drafts'
import type { ImageInput } from '../lib/attach'

afterEach(cleanup)

const commands: SlashCommand[] = [
  { name: '/goal', usage: 'Use /goal [--budget N] <objective>', summary: 'Set or show the goal.' },
  { name: '/help', usage: '/help', summary: 'List the commands.' },
]

const q = (id: number, text: string, over: Partial<QueuedInput> = {}): QueuedInput => ({
  id,
  kind: 'turn',
  text,
  images: 0,
  held: false,
  elsewhere: false,
  ...over,
})

/** The calls the composer made, in order, as short strings. */
type Calls = string[]

function setup(o: { running?: boolean; accept?: boolean; queue?: QueuedInput[]; returned?: ReturnedInput[]; editFails?: string } = {}) {
  const calls: Calls = []
  const sent: string[] = []
  const drafts = new DraftStore(null)
  const props = $state({
    running: o.running ?? false,
    disabled: false,
    placeholder: 'Ask',
    commands,
    queue: o.queue ?? [],
    draftKey: 'a',
    drafts,
    onsend: async (t: string, _i: ImageInput[], key: string) => {
      sent.push(t)
      calls.push(`send ${key} ${t}`)
      return o.accept ?? true
    },
    onstop: async () => {
      calls.push('stop')
      return o.returned ?? []
    },
    onedit: async (key: string, id: number, text: string) => {
      calls.push(`edit ${key} ${id} ${text}`)
      if (o.editFails) throw new Error(o.editFails)
    },
    onremove: async (key: string, id: number) => {
      calls.push(`remove ${key} ${id}`)
    },
    onsendqueued: async (key: string) => {
      calls.push(`sendqueued ${key}`)
    },
  })
  const el = render(Composer, props)
  const input = one<HTMLTextAreaElement>(el, 'composer-input')!
  return { el, input, props, sent, calls, drafts }
}

const queued = (el: HTMLElement) => all(el, 'queue-item').map((x) => x.querySelector('.qtext')!.textContent)
const sendLabel = (el: HTMLElement) => one(el, 'composer-send')!.textContent!.trim()

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

  it('keeps the text when the engine refuses it, with what was typed meanwhile after it', async () => {
    const { input, sent } = setup({ accept: false })
    type(input, 'keep me')
    press(input, 'Enter')
    type(input, 'typed meanwhile')
    await settle()
    expect(sent).toEqual(['keep me'])
    expect(input.value).toBe('keep me\n\ntyped meanwhile')
  })

  it('while a turn runs, Enter still hands the text to the engine (which queues it); the button says Queue', async () => {
    const { el, input, calls } = setup({ running: true })
    expect(sendLabel(el)).toBe('Queue')
    type(input, 'later')
    press(input, 'Enter')
    await settle()
    expect(calls).toEqual(['send a later'])
    expect(input.value).toBe('')
    expect(all(el, 'queue-item'), 'the page keeps no queue of its own').toHaveLength(0)
  })

  it('sends one at a time, in the order they were made', async () => {
    const answers: ((ok: boolean) => void)[] = []
    const sent: string[] = []
    const props = $state({
      running: false,
      disabled: false,
      placeholder: 'Ask',
      commands,
      onsend: (t: string) => {
        sent.push(t)
        return new Promise<boolean>((r) => answers.push(r))
      },
      onstop: () => {},
    })
    const el = render(Composer, props)
    const input = one<HTMLTextAreaElement>(el, 'composer-input')!
    for (const t of ['one', 'two']) {
      type(input, t)
      press(input, 'Enter')
    }
    await settle()
    expect(sent, 'the second waits for the answer to the first').toEqual(['one'])
    answers[0](true)
    await settle()
    expect(sent).toEqual(['one', 'two'])
    answers[1](true)
    await settle()
    expect(input.value).toBe('')
  })

  it("shows the engine's queue; Edit and Remove go to the engine", async () => {
    const { el, input, props, calls } = setup({
      running: true,
      queue: [q(1, 'one'), q(2, 'two', { images: 2 }), q(3, '/goal ship it', { kind: 'goal-set' })],
    })
    expect(one(el, 'queue')!.querySelector('.queue-title')!.textContent).toContain('Queued · 3')
    expect(one(el, 'queue')!.textContent).toContain('sent one by one when the turn ends')
    expect(queued(el)).toEqual(['one', 'two', '/goal ship it'])
    expect(all(el, 'queue-item')[1].textContent).toContain('+2 images')
    // A goal's queued turn is not edited here (the goal is set already); it can be removed.
    expect(all(el, 'queue-item')[2].querySelector('[data-testid="queue-edit"]')).toBeNull()

    click(all(el, 'queue-edit')[0])
    const edit = el.querySelector<HTMLTextAreaElement>('[data-testid="queue-item"] textarea')!
    expect(edit.value).toBe('one')
    type(edit, 'one, edited')
    press(edit, 'Enter')
    await settle()
    click(all(el, 'queue-remove')[1])
    await settle()
    expect(calls).toEqual(['edit a 1 one, edited', 'remove a 2'])
    // The list is the engine's: it changes when the queue event says so.
    expect(queued(el)).toEqual(['one', 'two', '/goal ship it'])
    props.queue = [q(1, 'one, edited'), q(3, '/goal ship it', { kind: 'goal-set' })]
    flushSync()
    expect(queued(el)).toEqual(['one, edited', '/goal ship it'])
    expect(input.value).toBe('')
  })

  it('an edit of a message the engine sent meanwhile comes to the input', async () => {
    const { el, input, props, calls } = setup({ running: true, queue: [q(1, 'one'), q(2, 'two')] })
    click(all(el, 'queue-edit')[0])
    type(el.querySelector<HTMLTextAreaElement>('[data-testid="queue-item"] textarea')!, 'one, better')
    props.queue = [q(2, 'two')]
    flushSync()
    await settle()
    expect(input.value).toBe('one, better')
    expect(one(el, 'queue-note')!.textContent).toContain('sent before the edit was saved')
    expect(calls).toEqual([])
  })

  it("a refused edit puts the edited text into the input and says the engine's sentence", async () => {
    const { el, input } = setup({ running: true, queue: [q(1, 'one')], editFails: 'that message is no longer queued' })
    click(all(el, 'queue-edit')[0])
    const edit = el.querySelector<HTMLTextAreaElement>('[data-testid="queue-item"] textarea')!
    type(edit, 'one, better')
    click(edit.parentElement!.querySelector('button'))
    await settle()
    expect(input.value).toBe('one, better')
    expect(one(el, 'queue-note')!.textContent).toContain('that message is no longer queued')
  })

  it('a held queue waits for Send: an empty Send sends it (SendQueued), nothing else', async () => {
    const { el, input, calls } = setup({ queue: [q(1, 'first', { held: true }), q(2, 'second', { held: true })] })
    expect(one(el, 'queue-held')!.textContent).toBe('restored after a restart · press Send to send them, one by one')
    expect(all(el, 'queue-restored')).toHaveLength(2)
    const button = one<HTMLButtonElement>(el, 'composer-send')!
    expect(button.disabled).toBe(false)
    expect(sendLabel(el)).toBe('Send queued')
    click(button)
    await settle()
    expect(calls).toEqual(['sendqueued a'])
    // With text, Send sends the text (the engine puts it behind the held queue and sends all).
    type(input, 'more')
    expect(sendLabel(el)).toBe('Send')
    press(input, 'Enter')
    await settle()
    expect(calls).toEqual(['sendqueued a', 'send a more'])
  })

  it('an empty Send without a held queue does nothing', async () => {
    const { el, input, calls } = setup({ running: true, queue: [q(1, 'x')] })
    expect(one<HTMLButtonElement>(el, 'composer-send')!.disabled).toBe(true)
    press(input, 'Enter')
    await settle()
    expect(calls).toEqual([])
  })

  it('says when another Vis sends the queue', () => {
    const { el } = setup({ queue: [q(1, 'theirs', { elsewhere: true })] })
    expect(one(el, 'queue-elsewhere')!.textContent).toBe('another Vis')
    expect(one(el, 'queue')!.textContent).toContain('another Vis window or process runs this session')
    expect(one(el, 'queue-held')).toBeNull()
  })

  it('Stop stops and puts the returned queue into the input, joined with the draft', async () => {
    const { el, input, calls } = setup({
      running: true,
      queue: [q(1, 'first'), q(2, 'second')],
      returned: [
        { id: 1, text: 'first', images: [] },
        { id: 2, text: 'second', images: [] },
      ],
    })
    type(input, 'draft')
    click(one(el, 'composer-stop'))
    await settle()
    expect(calls).toEqual(['stop'])
    expect(input.value).toBe('first\n\nsecond\n\ndraft')
  })

  it('Stop brings an edit in progress back as edited, by its queue id, without saving it first', async () => {
    const { el, input, calls } = setup({
      running: true,
      queue: [q(1, 'first'), q(2, 'second')],
      returned: [
        { id: 1, text: 'first', images: [] },
        { id: 2, text: 'second', images: [] },
      ],
    })
    click(all(el, 'queue-edit')[1])
    type(el.querySelector<HTMLTextAreaElement>('[data-testid="queue-item"] textarea')!, 'second, edited')
    click(one(el, 'composer-stop'))
    await settle()
    expect(calls).toEqual(['stop'])
    expect(input.value).toBe('first\n\nsecond, edited')
    expect(el.querySelector('[data-testid="queue-item"] textarea'), 'the edit is over').toBeNull()
  })

  it('Stop: an input edited to nothing stays removed; one the engine sent meanwhile comes back as edited', async () => {
    const blank = setup({ running: true, queue: [q(1, 'first'), q(2, 'second')], returned: [{ id: 1, text: 'first', images: [] }, { id: 2, text: 'second', images: [] }] })
    click(all(blank.el, 'queue-edit')[0])
    type(blank.el.querySelector<HTMLTextAreaElement>('[data-testid="queue-item"] textarea')!, '  ')
    click(one(blank.el, 'composer-stop'))
    await settle()
    expect(blank.input.value).toBe('second')
    cleanup()

    const sent = setup({ running: true, queue: [q(1, 'first'), q(2, 'second')], returned: [{ id: 2, text: 'second', images: [] }] })
    click(all(sent.el, 'queue-edit')[0])
    type(sent.el.querySelector<HTMLTextAreaElement>('[data-testid="queue-item"] textarea')!, 'first, edited')
    click(one(sent.el, 'composer-stop'))
    await settle()
    expect(sent.calls).toEqual(['stop'])
    expect(sent.input.value).toBe('first, edited\n\nsecond')
  })

  it('a Stop that fails leaves the edit in progress open', async () => {
    const { el, input, props } = setup({ running: true, queue: [q(1, 'first')] })
    props.onstop = async () => {
      throw new Error('engine gone')
    }
    click(all(el, 'queue-edit')[0])
    type(el.querySelector<HTMLTextAreaElement>('[data-testid="queue-item"] textarea')!, 'first, edited')
    click(one(el, 'composer-stop'))
    await settle()
    expect(el.querySelector<HTMLTextAreaElement>('[data-testid="queue-item"] textarea')!.value).toBe('first, edited')
    expect(input.value).toBe('')
  })

  it('Esc stops a running turn and also brings the queue back', async () => {
    const { input, calls } = setup({ running: true, returned: [{ id: 3, text: 'later', images: [] }] })
    press(input, 'Escape')
    await settle()
    expect(calls).toEqual(['stop'])
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
  it('keeps each draft with its session; the queue shown is the open session one', async () => {
    const { el, input, props, calls } = setup({ running: true, queue: [q(1, 'queued in A')] })
    type(input, 'draft in A')
    props.draftKey = 'new:/w'
    props.queue = []
    props.running = false
    flushSync()
    await settle()
    expect(queued(el)).toEqual([])
    expect(input.value).toBe('')
    type(input, 'draft in B')
    props.draftKey = 'a'
    props.queue = [q(1, 'queued in A')]
    flushSync()
    expect(queued(el)).toEqual(['queued in A'])
    expect(input.value).toBe('draft in A')
    props.draftKey = 'new:/w'
    props.queue = []
    flushSync()
    expect(input.value).toBe('draft in B')
    expect(calls).toEqual([])
  })

  it('each send names the draft key it was written in', async () => {
    const { input, props, calls } = setup()
    props.draftKey = 'new:/w'
    flushSync()
    type(input, 'first in a new session')
    press(input, 'Enter')
    await settle()
    props.draftKey = 'b'
    flushSync()
    type(input, 'in b')
    press(input, 'Enter')
    await settle()
    expect(calls).toEqual(['send new:/w first in a new session', 'send b in b'])
  })

  it('an edit in progress is saved into its own session when another one opens', async () => {
    const { el, input, props, calls } = setup({ running: true, queue: [q(7, 'queued in A')] })
    click(all(el, 'queue-edit')[0])
    type(el.querySelector<HTMLTextAreaElement>('[data-testid="queue-item"] textarea')!, 'queued in A, edited')
    props.draftKey = 'b'
    props.queue = []
    flushSync()
    await settle()
    expect(calls).toEqual(['edit a 7 queued in A, edited'])
    expect(input.value, "B's input gets nothing of A's").toBe('')
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

  it("the queue Stop hands back goes into the stopped session's draft, even after a switch", async () => {
    let give: (r: ReturnedInput[]) => void = () => {}
    const drafts = new DraftStore(null)
    const props = $state({
      running: true,
      disabled: false,
      placeholder: 'Ask',
      commands,
      draftKey: 'a',
      drafts,
      onsend: async () => true,
      onstop: () => new Promise<ReturnedInput[]>((r) => (give = r)),
    })
    const el = render(Composer, props)
    const input = one<HTMLTextAreaElement>(el, 'composer-input')!
    click(one(el, 'composer-stop'))
    props.draftKey = 'b'
    props.running = false
    flushSync()
    give([{ id: 7, text: 'queued in A', images: [] }])
    await settle()
    expect(input.value).toBe('')
    expect(drafts.get('a').text).toBe('queued in A')
  })
})

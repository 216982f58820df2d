// The transcript pane fed the recorded event stream of a real turn, as the
// window feeds it (snapshot, then event batches, then the reload at turn
// end), and a 2,000-iteration session for windowed rendering.
import { afterEach, describe, expect, it } from 'vitest'
import { flushSync, mount, unmount } from 'svelte'
import TranscriptPane from './TranscriptPane.svelte'
import { applyEvents, fromSnapshot } from '../lib/transcript'
import type { TranscriptView } from '../lib/transcript'
import type { Iteration, Transcript, Turn } from '../lib/types'
import type { EngineEvent } from '../lib/events.gen'
import { engineEvent, parseEvents } from '../lib/testevents'
import recordedEvents from '../lib/testdata/turn-events.jsonl?raw'
import recordedSnapshot from '../lib/testdata/turn-snapshot.json'

const events: EngineEvent[] = parseEvents(recordedEvents)
const recorded = { ...recordedSnapshot, running: false } as unknown as Transcript

let app: ReturnType<typeof mount> | undefined
afterEach(() => {
  if (app) unmount(app)
  app = undefined
  document.body.innerHTML = ''
})

const props = $state<{
  view: TranscriptView
  workspace: string
  onpick: () => void
  focus: { sessionId: string; turn: number; nonce: number } | null
  onretry?: (request: string) => void
}>({ view: fromSnapshot(recorded), workspace: '/w', onpick: () => {}, focus: null, onretry: undefined })
afterEach(() => {
  props.focus = null
  props.onretry = undefined
})
const frame = () => new Promise((r) => setTimeout(r, 50))

function render(view: TranscriptView): HTMLElement {
  props.view = view
  const target = document.createElement('div')
  document.body.appendChild(target)
  app = mount(TranscriptPane, { target, props })
  flushSync()
  return target
}

function show(view: TranscriptView) {
  props.view = view
  flushSync()
}

const one = (el: ParentNode, id: string) => el.querySelector(`[data-testid="${id}"]`) as HTMLElement | null
const all = (el: ParentNode, id: string) => [...el.querySelectorAll(`[data-testid="${id}"]`)] as HTMLElement[]

describe('TranscriptPane with the recorded turn, streamed', () => {
  it('shows each part as its event arrives and keeps the tool card after the reload', () => {
    let view = fromSnapshot({ ...recorded, turns: [], seq: 0 })
    const el = render(view)
    const upTo = (seq: number) => {
      view = applyEvents(view, events.filter((e) => e.seq > view.seq && e.seq <= seq)).view
      show(view)
    }
    upTo(3)
    expect(one(el, 'turn')!.dataset.status).toBe('running')
    expect(one(el, 'turn-request')!.textContent).toContain('What is in this project?')
    expect(one(el, 'turn-stats')!.textContent).toContain('waiting for the model…')
    upTo(5)
    expect(one(el, 'reasoning')!.hasAttribute('open')).toBe(false)
    upTo(7)
    expect(one(el, 'prose')!.textContent!.trim()).toBe('Let me read the README.')
    upTo(12)
    expect(one(el, 'program')!.textContent).toBe("print(cat('README.m")
    upTo(17)
    expect(one(el, 'tool-card')!.dataset.tool).toBe('cat')
    expect(one(el, 'tool-card')!.textContent).toContain('running…')
    upTo(19)
    expect(one(el, 'tool-card')!.textContent).not.toContain('running…')
    expect(one(el, 'program-output')!.textContent).toContain('A tiny demo project.')
    upTo(27)
    expect(one(el, 'error-card')!.textContent).toContain("NameError: name 'boom' is not defined")
    expect(one(el, 'error-card')!.textContent).toContain('hint:')
    upTo(31)
    expect(one(el, 'turn-answer')).toBeNull()
    expect(all(el, 'prose').pop()!.textContent!.trim()).toBe('The project has one file.')
    upTo(33)
    expect(one(el, 'turn-answer')!.innerHTML).toContain('<strong>one</strong>')
    expect(one(el, 'turn')!.dataset.status).toBe('done')
    // The window reloads the snapshot at turn end; it has no tool calls.
    show(fromSnapshot(recorded))
    expect(all(el, 'tool-card').map((c) => c.dataset.tool)).toEqual(['cat'])
    expect(all(el, 'iteration')).toHaveLength(3)
  })
})

describe('TranscriptPane with a long session', () => {
  const usage = { input_tokens: 10, output_tokens: 2, cached_tokens: 0, reasoning_tokens: 0 }
  function iteration(position: number): Iteration {
    return {
      position,
      status: 'done',
      code: `print(${position})`,
      output: `${position}\n`,
      error: '',
      prose: '',
      reasoning: 'thinking',
      answer: '',
      model: 'm',
      usage,
      duration_ms: 3,
      calls: [{ call_id: `c${position}`, code: `print(${position})`, output: `${position}\n`, duration_ms: 1 }],
    }
  }
  function turn(position: number, iterations: number): Turn {
    return {
      position,
      channel: 'desktop',
      request: `request ${position}`,
      status: 'done',
      answer: `answer ${position}`,
      error: '',
      usage,
      duration_ms: 100,
      started: '',
      iterations: Array.from({ length: iterations }, (_, k) => iteration(k + 1)),
    }
  }
  // 20 turns of 100 iterations: 2,000 iterations.
  const big = (): TranscriptView =>
    fromSnapshot({
      session: { id: 'big', workspace: '/w', title: 'Big', turns: 20, created: '', updated: '' },
      turns: Array.from({ length: 20 }, (_, k) => turn(k + 1, 100)),
      seq: 1,
      running: false,
    })
  const shownIterations = (el: HTMLElement) =>
    all(el, 'iteration').map((e) => `${e.closest('[data-testid="turn"]')!.getAttribute('data-turn')}/${e.dataset.iteration}`)

  it('renders a bounded number of iterations, starting at the end', () => {
    const el = render(big())
    const shown = shownIterations(el)
    expect(big().turns.reduce((n, t) => n + t.iterations.length, 0)).toBe(2000)
    expect(shown.length).toBeGreaterThan(0)
    expect(shown.length).toBeLessThanOrEqual(40)
    expect(shown).toContain('20/100')
    expect(all(el, 'turn-answer').map((a) => a.textContent!.trim())).toContain('answer 20')
    expect(one(el, 'jump-latest')).toBeNull()
  })

  it('renders the start when scrolled to the top, and jumps back to the latest', () => {
    const el = render(big())
    const scroller = one(el, 'transcript')!
    Object.defineProperty(scroller, 'clientHeight', { configurable: true, value: 800 })
    Object.defineProperty(scroller, 'scrollHeight', { configurable: true, value: 400_000 })
    scroller.dispatchEvent(new KeyboardEvent('keydown', { key: 'Home', bubbles: true }))
    scroller.scrollTop = 0
    scroller.dispatchEvent(new Event('scroll'))
    flushSync()
    const shown = shownIterations(el)
    expect(shown).toContain('1/1')
    expect(shown).not.toContain('20/100')
    expect(shown.length).toBeLessThanOrEqual(40)
    expect(one(el, 'turn-request')!.textContent).toBe('request 1')
    const jump = one(el, 'jump-latest')!
    jump.click()
    flushSync()
    expect(shownIterations(el)).toContain('20/100')
    expect(one(el, 'jump-latest')).toBeNull()
  })

  it('keeps following when a new turn streams in at the end', () => {
    let view = big()
    const el = render(view)
    view = applyEvents(view, [
      engineEvent('turn-start', { seq: 2, session_id: 'big', turn: 21, request: 'one more' }),
      engineEvent('provider-call', { seq: 3, session_id: 'big', turn: 21, iteration: 1 }),
      engineEvent('content', { seq: 4, session_id: 'big', turn: 21, iteration: 1, delta: 'now', text: 'streaming now' }),
    ]).view
    show(view)
    expect(all(el, 'prose').pop()!.textContent!.trim()).toBe('streaming now')
    expect(shownIterations(el)).toContain('21/1')
  })

  it('scrolls to a focused turn (a search hit) and marks it, instead of staying at the bottom', async () => {
    const el = render(big())
    expect(shownIterations(el)).not.toContain('3/1')
    props.focus = { sessionId: 'big', turn: 3, nonce: 1 }
    flushSync()
    await frame()
    flushSync()
    expect(all(el, 'turn-request').map((r) => r.textContent)).toContain('request 3')
    expect(shownIterations(el)).toContain('3/1')
    expect(shownIterations(el)).not.toContain('20/100')
    expect(el.querySelector('[data-testid="turn"][data-focused]')?.getAttribute('data-turn')).toBe('3')
    expect(one(el, 'jump-latest')).not.toBeNull()
  })
})

describe('TranscriptPane with a failed turn', () => {
  const failed = (): TranscriptView =>
    fromSnapshot({
      session: { id: 's', workspace: '/w', title: 'S', turns: 2, created: '', updated: '' },
      turns: [1, 2].map((position) => ({
        position,
        channel: 'desktop',
        request: `request ${position}`,
        status: 'error',
        answer: '',
        error: 'The model server at 127.0.0.1:9 is not running (connection refused): start it, or check the URL in Settings, then retry.',
        usage: { input_tokens: 0, output_tokens: 0, cached_tokens: 0, reasoning_tokens: 0 },
        duration_ms: 10,
        started: '',
        iterations: [],
      })),
      seq: 1,
      running: false,
    })

  it('offers Retry on the last failed turn, which sends its request again', () => {
    const sent: string[] = []
    props.onretry = (r) => sent.push(r)
    const el = render(failed())
    const cards = all(el, 'error-card')
    expect(cards).toHaveLength(2)
    expect(cards[1].textContent).toContain('start it, or check the URL')
    expect(cards[1].textContent).not.toMatch(/dial tcp|provider http/)
    const retries = all(el, 'turn-retry')
    expect(retries).toHaveLength(1)
    retries[0].click()
    expect(sent).toEqual(['request 2'])
  })

  it('keeps the Changes view open while events remake the view, and closes it for another session', () => {
    const snap = {
      ...recorded,
      turns: recorded.turns.map((t, i) => (i === 0 ? { ...t, changes: { files: 1, added: 1, deleted: 0 } } : t)),
    } as unknown as Transcript
    const el = render(fromSnapshot(snap))
    const button = one(el, 'session-changes-button')!
    button.click()
    flushSync()
    expect(button.getAttribute('aria-expanded')).toBe('true')
    show(fromSnapshot(snap)) // what every event batch and the reload at turn end do
    expect(one(el, 'session-changes-button')!.getAttribute('aria-expanded')).toBe('true')
    show(fromSnapshot({ ...snap, session: { ...snap.session, id: 'another' } } as unknown as Transcript))
    expect(one(el, 'session-changes-button')!.getAttribute('aria-expanded')).toBe('false')
  })

  it('offers no Retry without a handler', () => {
    const el = render(failed())
    expect(all(el, 'turn-retry')).toHaveLength(0)
  })
})

import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushSync, mount, unmount } from 'svelte'
import TurnCard from './TurnCard.svelte'
import { fromSnapshot, program } from '../lib/transcript'
import type { IterationView, Program, TurnView } from '../lib/transcript'
import type { Transcript } from '../lib/types'
import recordedSnapshot from '../lib/testdata/turn-snapshot.json'

let app: ReturnType<typeof mount> | undefined
afterEach(() => {
  if (app) unmount(app)
  app = undefined
  document.body.innerHTML = ''
  vi.unstubAllGlobals()
})

function render(turn: TurnView, more: Record<string, unknown> = {}): HTMLElement {
  const target = document.createElement('div')
  document.body.appendChild(target)
  app = mount(TurnCard, { target, props: { turn, ...more } })
  flushSync()
  return target
}

const $ = (el: ParentNode, id: string) => el.querySelector(`[data-testid="${id}"]`) as HTMLElement | null
const $$ = (el: ParentNode, id: string) => [...el.querySelectorAll(`[data-testid="${id}"]`)] as HTMLElement[]
const text = (el: Element | null | undefined) => el?.textContent?.replace(/\s+/g, ' ').trim()

const recorded = fromSnapshot({ ...recordedSnapshot, running: false } as unknown as Transcript).turns[0]

/** recorded with one iteration holding the given programs, still running unless said. */
function withPrograms(programs: Program[], over: Partial<IterationView> = {}, turn: Partial<TurnView> = {}): TurnView {
  return {
    ...recorded,
    status: 'done',
    answer: '',
    ...turn,
    iterations: [{ ...recorded.iterations[0], reasoning: '', text: '', status: 'done', programs, ...over }],
  }
}

describe('TurnCard', () => {
  it('shows the request, each iteration, the answer and the status line', () => {
    const el = render(recorded)
    const turn = $(el, 'turn')!
    expect(turn.dataset.status).toBe('done')
    expect(turn.dataset.turn).toBe('1')
    expect(text($(el, 'turn-request'))).toBe('What is in this project?')
    expect($$(el, 'iteration').map((e) => e.dataset.iteration)).toEqual(['1', '2', '3'])
    expect($$(el, 'program').map((p) => p.textContent)).toEqual(["print(cat('README.md')['text'])", 'boom()'])
    expect(text($(el, 'program-output'))).toContain('A tiny demo project.')
    expect(text($(el, 'prose'))).toBe('Let me read the README.')
    expect(text($(el, 'turn-stats'))).toBe('done 7 ms 3 iterations 2 programs 3,000 in · 62 out tokens')
  })

  it('marks a turn whose request was folded to fit the context window', () => {
    const note = 'Earlier programs folded to fit the context: 4 turn(s) (1–4); every answer kept.'
    const fold = { outputs_dropped: 0, programs_folded: 4, outputs_clipped: 0, answers_shortened: 0, turns_dropped: 0, request_tokens: 900, note }
    expect(text($(render({ ...recorded, context_fold: fold }), 'context-fold'))).toBe('⋯ ' + note)
  })

  it('has no fold marker when the request fitted', () => {
    expect($(render(recorded), 'context-fold')).toBeNull()
  })

  it('keeps the reasoning collapsed, also while it streams', () => {
    const el = render(recorded)
    const r = $(el, 'reasoning')!
    expect(r.tagName).toBe('DETAILS')
    expect(r.hasAttribute('open')).toBe(false)
    expect(r.textContent).toContain('The user wants an overview.')
    const live = render({ ...recorded, status: 'running', iterations: [{ ...recorded.iterations[0], status: 'running', text: '', programs: [] }] })
    expect($$(live, 'reasoning').every((d) => !d.hasAttribute('open'))).toBe(true)
    expect(live.querySelector('summary')?.textContent).toBe('Thinking…')
  })

  it('highlights programs as Python', () => {
    const el = render(withPrograms([program({ code: 'def f(x):\n    return "hi"  # note', output: '' })]))
    const code = $(el, 'program')!
    expect(code.querySelector('.hljs-keyword')?.textContent).toBe('def')
    expect(code.querySelector('.hljs-string')?.textContent).toBe('"hi"')
    expect(code.querySelector('.hljs-comment')?.textContent).toBe('# note')
    expect(code.textContent).toBe('def f(x):\n    return "hi"  # note')
  })

  it('renders ANSI colours in output and escapes the rest', () => {
    const el = render(withPrograms([program({ code: 'shell("x")', output: '\x1b[31mred\x1b[0m <b>not bold</b>\n' })]))
    const out = $(el, 'program-output')!
    expect(out.querySelector('.ansi-red-fg')?.textContent).toBe('red')
    expect(out.querySelector('b')).toBeNull()
    expect(out.textContent).toContain('<b>not bold</b>')
    expect(out.textContent).not.toContain('\x1b')
  })

  it('folds a long output and shows all of it on request', () => {
    const long = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n')
    const el = render(withPrograms([program({ code: 'print(x)', output: long })]))
    const out = $(el, 'program-output')!
    expect(out.querySelector('pre')!.textContent!.split('\n')).toHaveLength(40)
    expect(out.textContent).not.toContain('line 41')
    const more = $(el, 'show-all')!
    expect(text(more)).toBe('show all · 60 more lines')
    more.click()
    flushSync()
    expect(out.querySelector('pre')!.textContent).toBe(long)
    expect($(el, 'show-all')).toBeNull()
  })

  it('does not fold a short output', () => {
    const el = render(withPrograms([program({ code: 'print(1)', output: '1\n' })]))
    expect($(el, 'show-all')).toBeNull()
  })

  it('fetches a clipped output in full from the asset server', async () => {
    const full = 'head\n' + 'x\n'.repeat(5000)
    const fetch = vi.fn(async (url: string) => new Response(url.startsWith('/vis/output/') ? full : '', { status: 200 }))
    vi.stubGlobal('fetch', fetch)
    const el = render(withPrograms([program({ code: 'print(big)', output: 'head\n' + 'x\n'.repeat(100), clipped: true })]), { sessionId: 's 1' })
    $(el, 'show-all')!.click()
    await vi.waitFor(() => expect($(el, 'program-output')!.querySelector('pre')!.textContent).toBe(full))
    expect(fetch).toHaveBeenCalledWith('/vis/output/s%201/1/1/0')
  })

  it('shows the text at hand when fetching the full output fails', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('gone', { status: 404 })))
    const shown = 'y\n'.repeat(100)
    const el = render(withPrograms([program({ code: 'print(big)', output: shown, clipped: true })]), { sessionId: 's1' })
    $(el, 'show-all')!.click()
    await vi.waitFor(() => expect($(el, 'program-output')!.querySelector('pre')!.textContent).toBe(shown))
  })

  it('shows a program error in red with its line and hint', () => {
    const el = render(recorded)
    const card = $(el, 'error-card')!
    expect(card.closest('[data-testid="iteration"]')?.getAttribute('data-iteration')).toBe('2')
    expect(text(card)).toBe(
      "runtime error: NameError: name 'boom' is not defined (nothing in this block ran) (line 1) hint: check the spelling; names from earlier blocks persist, defs() lists your helpers and apropos(text) finds tools",
    )
    expect(card.querySelector('.hint')?.textContent).toContain('check the spelling')
  })

  it('shows a card per tool call with its arguments, duration and error', () => {
    const tools = [
      { name: 'grep', args: 'pattern=TODO', duration_ms: 12, error: '', running: false },
      { name: 'shell', args: 'cmd=make', duration_ms: 2500, error: 'exit status 2', running: false },
      { name: 'cat', args: 'path=a.go', duration_ms: 0, error: '', running: true },
    ]
    const el = render(withPrograms([program({ code: 'x()', running: true, tools })], { status: 'running' }, { status: 'running' }))
    const cards = $$(el, 'tool-card')
    expect(cards.map((c) => c.dataset.tool)).toEqual(['grep', 'shell', 'cat'])
    expect(cards.map((c) => text(c))).toEqual(['✓ grep pattern=TODO 12 ms', '✗ shell cmd=make 2.5 s exit status 2', '◌ cat path=a.go running…'])
  })

  it('renders the answer as Markdown with raw HTML as text', () => {
    const answer = 'Done: **two** files.\n\n<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n```python\nprint("hi")\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |'
    const el = render({ ...recorded, answer })
    const a = $(el, 'turn-answer')!
    expect(a.querySelector('strong')?.textContent).toBe('two')
    expect(a.querySelector('script, img')).toBeNull()
    expect(a.textContent).toContain('<script>alert(1)</script>')
    expect(a.textContent).toContain('<img src=x onerror="alert(2)">')
    expect(a.querySelector('pre .hljs-built_in')?.textContent).toBe('print')
    expect(a.querySelectorAll('td')).toHaveLength(2)
  })

  it('shows a person\'s !cmd as a shell block with output and exit code', () => {
    const p = program({ code: '!ls -1', output: 'a.txt\n\x1b[34mdir\x1b[0m\n', shell: true, exitCode: 2 })
    const el = render({ ...withPrograms([p]), channel: 'shell', request: '!ls -1', answer: '`ls -1` exited with code 2.' })
    expect(text($(el, 'turn-request'))).toBe('$ ls -1')
    expect($(el, 'shell-output')!.querySelector('pre')!.textContent).toBe('a.txt\ndir\n')
    expect($(el, 'shell-output')!.querySelector('.ansi-blue-fg')?.textContent).toBe('dir')
    expect(text(el.querySelector('.exit'))).toBe('exit 2')
    expect($(el, 'program')).toBeNull()
    expect($(el, 'iteration')).toBeNull()
    expect($(el, 'turn-answer')).toBeNull()
  })

  it('shows a provider error once, as the turn error', () => {
    const msg = 'provider: cannot reach the endpoint'
    const el = render({
      ...recorded,
      status: 'error',
      answer: '',
      error: msg,
      // The stream broke after some thinking.
      iterations: [{ ...recorded.iterations[0], programs: [], text: '', status: 'error', error: msg }],
    })
    expect(el.textContent?.split(msg).length).toBe(2)
    expect(text($(el, 'error-card'))).toBe(msg)
    expect($(el, 'turn')!.dataset.status).toBe('error')
  })

  it('shows an iteration error of its own on the iteration', () => {
    const el = render({ ...recorded, iterations: [{ ...recorded.iterations[0], status: 'error', error: 'provider: stream cut' }] })
    expect($(el, 'error-card')!.closest('[data-testid="iteration"]')).not.toBeNull()
  })

  it('does not repeat "cancelled" under a cancelled iteration', () => {
    const el = render({
      ...recorded,
      status: 'cancelled',
      answer: '',
      iterations: [{ ...recorded.iterations[0], programs: [], status: 'cancelled', error: 'cancelled' }],
    })
    expect($(el, 'error-card')).toBeNull()
    expect(el.querySelector('.status .chip')?.textContent).toBe('cancelled')
  })

  it('marks a program being written and the turn at work', () => {
    const el = render(withPrograms([program({ code: 'print(', writing: true })], { status: 'running', settled: false }, { status: 'running' }))
    expect(el.querySelector('.program .chip')?.textContent).toBe('writing')
    expect(el.querySelector('.none')).toBeNull()
    expect(el.querySelector('.status .chip')?.textContent).toBe('working…')
    expect(text($(el, 'turn-stats'))).not.toContain('program')
  })

  it('renders only the parts it is given', () => {
    const el = render(recorded, { from: 2, to: 3 })
    expect($(el, 'turn-request')).toBeNull()
    expect($$(el, 'iteration').map((e) => e.dataset.iteration)).toEqual(['2'])
    expect($(el, 'turn-stats')).toBeNull()
    const end = render(recorded, { from: 4, to: 5 })
    expect($$(end, 'iteration')).toHaveLength(0)
    expect($(end, 'turn-stats')).not.toBeNull()
  })

  it('offers the prompt inspector per iteration when asked', () => {
    const seen: number[][] = []
    const el = render(recorded, { oninspect: (t: number, i: number) => seen.push([t, i]) })
    const buttons = $$(el, 'inspector-open')
    expect(buttons).toHaveLength(3)
    buttons[1].click()
    expect(seen).toEqual([[1, 2]])
    expect($$(render(recorded), 'inspector-open')).toHaveLength(0)
  })
})

describe('Edit and Fork here on a message', () => {
  it('fork the session from this turn, each once at a time, and say why one failed', async () => {
    const calls: [number, boolean][] = []
    let fail = false
    const el = render({ ...recorded, status: 'done' }, {
      onfork: async (turn: number, edit: boolean) => {
        calls.push([turn, edit])
        if (fail) throw new Error('a turn among them is still running')
      },
    })
    $(el, 'turn-edit')!.click()
    $(el, 'turn-fork')!.click() // ignored: the edit's fork is on its way
    await new Promise((r) => setTimeout(r, 0))
    flushSync()
    $(el, 'turn-fork')!.click()
    await new Promise((r) => setTimeout(r, 0))
    flushSync()
    expect(calls).toEqual([
      [recorded.position, true],
      [recorded.position, false],
    ])
    fail = true
    $(el, 'turn-fork')!.click()
    await new Promise((r) => setTimeout(r, 0))
    flushSync()
    expect(text(el.querySelector('.fork-error'))).toBe('a turn among them is still running')
  })

  it('are not offered on a running turn, or without a handler', () => {
    expect($(render({ ...recorded, status: 'running' }, { onfork: async () => {} }), 'turn-edit')).toBeNull()
    unmount(app!)
    app = undefined
    expect($(render({ ...recorded, status: 'done' }), 'turn-fork')).toBeNull()
  })
})

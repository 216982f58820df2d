import { afterEach, describe, expect, it } from 'vitest'
import { flushSync, mount, unmount } from 'svelte'
import TurnCard from './TurnCard.svelte'
import { fromSnapshot } from '../lib/transcript'
import type { TurnView } from '../lib/transcript'
import type { Transcript } from '../lib/types'
import recordedSnapshot from '../lib/testdata/turn-snapshot.json'

let app: ReturnType<typeof mount> | undefined
afterEach(() => {
  if (app) unmount(app)
  app = undefined
  document.body.innerHTML = ''
})

function render(turn: TurnView): HTMLElement {
  const target = document.createElement('div')
  document.body.appendChild(target)
  app = mount(TurnCard, { target, props: { turn } })
  flushSync()
  return target
}

const recorded = fromSnapshot({ ...recordedSnapshot, running: false } as unknown as Transcript).turns[0]

describe('TurnCard', () => {
  it('shows the request, each program with its output or error, the answer and the status line', () => {
    const el = render(recorded)
    expect(el.querySelector('.request')?.textContent).toBe('What is in this project?')
    const programs = [...el.querySelectorAll('.program')]
    expect(programs.map((p) => p.querySelector('.code')?.textContent)).toEqual(["print(cat('README.md')['text'])", 'boom()'])
    expect(programs[0].querySelector('.output')?.textContent).toContain('A tiny demo project.')
    expect(programs[1].querySelector('.err')?.textContent).toContain("NameError: name 'boom' is not defined")
    expect(programs.map((p) => p.querySelector('.chip')?.textContent)).toEqual(['ran', 'failed'])
    expect(el.querySelector('.prose')?.textContent).toBe('Let me read the README.')
    expect(el.querySelector('.answer')?.textContent).toBe('The project has **one** file.')
    expect(el.querySelector('.status')?.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'done 7 ms 3 iterations 2 programs 3,000 in · 62 out tokens',
    )
    expect(el.querySelector('.reasoning')?.hasAttribute('open')).toBe(false)
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
    expect(el.querySelector('.error')?.textContent).toBe(msg)
  })

  it('does not repeat "cancelled" under a cancelled iteration', () => {
    const el = render({
      ...recorded,
      status: 'cancelled',
      answer: '',
      iterations: [{ ...recorded.iterations[0], programs: [], status: 'cancelled', error: 'cancelled' }],
    })
    expect(el.querySelector('.iteration-error')).toBeNull()
    expect(el.querySelector('.status .chip')?.textContent).toBe('cancelled')
  })

  it('opens the thinking of the iteration in progress and marks a program being written', () => {
    const el = render({
      ...recorded,
      status: 'running',
      answer: '',
      iterations: [
        {
          ...recorded.iterations[0],
          status: 'running',
          settled: false,
          programs: [{ callId: '', code: 'print(', output: '', error: '', writing: true, running: false, tool: '' }],
        },
      ],
    })
    expect(el.querySelector('.reasoning')?.hasAttribute('open')).toBe(true)
    expect(el.querySelector('.program .chip')?.textContent).toBe('writing')
    expect(el.querySelector('.none')).toBeNull()
    expect(el.querySelector('.status .chip')?.textContent).toBe('working…')
    expect(el.querySelector('.status')?.textContent).not.toContain('program')
  })
})

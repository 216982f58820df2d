import { afterEach, describe, expect, it } from 'vitest'
import Inspector from './Inspector.svelte'
import { all, cleanup, click, one, press, render, settle } from './testkit'
import type { PromptView } from '../lib/types'

afterEach(cleanup)

const view: PromptView = {
  turn: 2,
  iteration: 1,
  chars: 4120,
  tokens: 1030,
  messages: [
    {
      role: 'system',
      chars: 4000,
      tokens: 1000,
      blocks: [
        { tag: 'SYSTEM-PROMPT', text: 'You are Vis.', chars: 3900, tokens: 975 },
        { tag: 'PROJECT-INSTRUCTIONS', text: 'Run make test.', chars: 100, tokens: 25 },
      ],
    },
    { role: 'user', chars: 120, tokens: 30, blocks: [{ tag: 'CURRENT-USER-MESSAGE', text: 'fix the build', chars: 120, tokens: 30 }] },
  ],
}

describe('Inspector', () => {
  it('shows each message block by block, collapsed, with sizes; moves between iterations; closes', async () => {
    const loads: string[] = []
    const moves: string[] = []
    let closed = 0
    const props = $state({
      sessionId: 's1',
      at: { turn: 2, iteration: 1 },
      positions: [
        { turn: 1, iteration: 1 },
        { turn: 2, iteration: 1 },
      ],
      load: async (id: string, t: number, i: number) => {
        loads.push(`${id} ${t}.${i}`)
        return view
      },
      onmove: (p: { turn: number; iteration: number }) => moves.push(`${p.turn}.${p.iteration}`),
      onclose: () => closed++,
    })
    const el = render(Inspector, props)
    await settle()
    expect(loads).toEqual(['s1 2.1'])
    const blocks = all<HTMLDetailsElement>(el, 'inspector-block')
    expect(blocks.map((b) => b.dataset.tag)).toEqual(['SYSTEM-PROMPT', 'PROJECT-INSTRUCTIONS', 'CURRENT-USER-MESSAGE'])
    expect(blocks.every((b) => !b.open)).toBe(true)
    expect(blocks[0].querySelector('summary')!.textContent).toContain('3,900 chars · ~975 tokens')
    expect(blocks[2].querySelector('pre')!.textContent).toBe('fix the build')
    expect(one(el, 'inspector')!.textContent).toContain('2 messages · 4,120 characters · ~1,030 tokens')

    click(el.querySelector('button[title="Previous iteration"]'))
    expect(moves).toEqual(['1.1'])
    expect(el.querySelector<HTMLButtonElement>('button[title="Next iteration"]')!.disabled).toBe(true)
    props.at = { turn: 1, iteration: 1 }
    await settle()
    expect(loads).toEqual(['s1 2.1', 's1 1.1'])

    press(one(el, 'inspector'), 'Escape')
    click(one(el, 'inspector-close'))
    expect(closed).toBe(2)
  })

  it('says when a request was rebuilt to fit the context window', async () => {
    const render1 = async (v: PromptView) => {
      const el = render(Inspector, {
        sessionId: 's1', at: { turn: 1, iteration: v.iteration }, positions: [{ turn: 1, iteration: v.iteration }],
        load: async () => v, onmove: () => {}, onclose: () => {},
      })
      await settle()
      return el
    }
    expect(one(await render1(view), 'inspector-rebuilt')).toBeNull()
    expect(one(await render1({ ...view, iteration: 4, rebuilt_at: 4 }), 'inspector-rebuilt')!.textContent!.replace(/\s+/g, ' ')).toContain('This request was rebuilt to fit')
    expect(one(await render1({ ...view, iteration: 5, rebuilt_at: 4 }), 'inspector-rebuilt')!.textContent!.replace(/\s+/g, ' ')).toContain('descends from the request of iteration 4')
  })

  it('says why when the prompt cannot be loaded', async () => {
    const el = render(Inspector, {
      sessionId: 's1',
      at: { turn: 1, iteration: 1 },
      positions: [],
      load: async () => {
        throw 'prompt: turn 1 has no iteration 1'
      },
      onmove: () => {},
      onclose: () => {},
    })
    await settle()
    expect(el.querySelector('[role="alert"]')!.textContent).toContain('turn 1 has no iteration 1')
  })
})

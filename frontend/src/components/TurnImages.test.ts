import { afterEach, describe, expect, it } from 'vitest'
import TurnCard from './TurnCard.svelte'
import { all, cleanup, click, one, press, render } from './testkit'
import { fromSnapshot } from '../lib/transcript'
import type { Transcript } from '../lib/types'

afterEach(cleanup)

const snap = {
  session: { id: 's 1', workspace: '/w', title: 't', turns: 1, created: '', updated: '' },
  seq: 1,
  running: false,
  turns: [
    {
      position: 1, channel: 'desktop', request: 'what are these?', status: 'done', answer: 'Two squares.', error: '',
      usage: { input_tokens: 0, output_tokens: 0, cached_tokens: 0, reasoning_tokens: 0 },
      duration_ms: 0, started: '', iterations: [],
      images: [
        { id: 7, name: 'pasted image 1.png', media_type: 'image/png', size: 2048 },
        { id: 9, name: 'blue.jpg', media_type: 'image/jpeg', size: 4096 },
      ],
    },
  ],
} as unknown as Transcript

describe('TurnCard images', () => {
  it('shows the sent images under the request, served by the window, and opens one larger on click', () => {
    const turn = fromSnapshot(snap).turns[0]
    const el = render(TurnCard, { turn, sessionId: 's 1' })
    const thumbs = all(el, 'turn-image')
    expect(thumbs.map((t) => t.querySelector('img')!.getAttribute('src'))).toEqual(['/vis/image/s%201/7', '/vis/image/s%201/9'])
    expect(one(document.body, 'image-lightbox')).toBeNull()

    click(thumbs[1])
    const box = one(document.body, 'image-lightbox')!
    expect(box.querySelector('img')!.getAttribute('src')).toBe('/vis/image/s%201/9')
    expect(box.textContent).toContain('blue.jpg')
    press(document.body, 'ArrowRight')
    expect(one(document.body, 'image-lightbox')!.querySelector('img')!.getAttribute('src')).toBe('/vis/image/s%201/7')
    press(document.body, 'Escape')
    expect(one(document.body, 'image-lightbox')).toBeNull()

    click(thumbs[0])
    click(one(document.body, 'image-lightbox'))
    expect(one(document.body, 'image-lightbox')).toBeNull()
  })

  it("shows the images a program's tools returned under that iteration, in the same viewer after the request's", () => {
    const it1 = {
      position: 1, status: 'done', code: 'mcp.browser.screenshot()', output: '', error: '', prose: '', reasoning: '', answer: '', model: 'm',
      usage: { input_tokens: 0, output_tokens: 0, cached_tokens: 0, reasoning_tokens: 0 }, duration_ms: 5,
      calls: [{ call_id: 'c1', code: 'mcp.browser.screenshot()', output: '', duration_ms: 5 }],
      images: [{ id: 11, name: 'image 1 of this turn, from mcp.browser.screenshot', media_type: 'image/png', size: 1024 }],
    }
    const it2 = { ...it1, position: 2, code: '', calls: [], images: undefined, answer: 'Two squares.' }
    const turn = fromSnapshot({ ...snap, turns: [{ ...snap.turns[0], iterations: [it1, it2] }] } as unknown as Transcript).turns[0]
    const el = render(TurnCard, { turn, sessionId: 's 1' })
    const tools = all(el, 'tool-image')
    expect(tools.map((t) => t.querySelector('img')!.getAttribute('src'))).toEqual(['/vis/image/s%201/11'])
    expect(all(el, 'tool-images')).toHaveLength(1)
    expect(all(el, 'turn-image')).toHaveLength(2)
    click(tools[0])
    const box = one(document.body, 'image-lightbox')!
    expect(box.querySelector('img')!.getAttribute('src')).toBe('/vis/image/s%201/11')
    expect(box.textContent).toContain('from mcp.browser.screenshot')
    press(document.body, 'ArrowRight') // wraps to the request's first image
    expect(one(document.body, 'image-lightbox')!.querySelector('img')!.getAttribute('src')).toBe('/vis/image/s%201/7')
    press(document.body, 'Escape')
  })

  it('a turn without images (or an older snapshot without the field) shows none', () => {
    const turn = fromSnapshot({ ...snap, turns: [{ ...snap.turns[0], images: undefined }] } as unknown as Transcript).turns[0]
    const el = render(TurnCard, { turn, sessionId: 's1' })
    expect(all(el, 'turn-image')).toHaveLength(0)
  })
})

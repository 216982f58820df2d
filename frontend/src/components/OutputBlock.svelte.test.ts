import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushSync, tick } from 'svelte'
import OutputBlock from './OutputBlock.svelte'
import { cleanup, one, render } from './testkit'
import { clipMarker, locatorOf, type OutputLocator } from '../lib/fulloutput'
import { fromSnapshot } from '../lib/transcript'
import { BridgeError } from '../lib/errorText'
import type { OutputPage, Transcript } from '../lib/types'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const url = '/vis/output/s%201/2/3/1'
const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}\n`).join('')

/** A loader serving text in pages of size bytes (ASCII), recording what it was asked. */
function pages(text: string, size: number, total = text.length) {
  const asked: [OutputLocator, number][] = []
  const load = async (at: OutputLocator, offset: number): Promise<OutputPage> => {
    asked.push([at, offset])
    const next = Math.min(offset + size, text.length)
    return { text: text.slice(offset, next), offset, next, kept_bytes: text.length, total_bytes: total, done: next >= text.length }
  }
  return { asked, load }
}

async function settle() {
  for (let i = 0; i < 20; i++) await tick()
  flushSync()
}

describe('OutputBlock', () => {
  it('says nothing of a clip when the output is whole', () => {
    const el = render(OutputBlock, { text: lines(1, 3), url, totalBytes: 21 })
    expect(one(el, 'output-clipped')).toBeNull()
    expect(one(el, 'open-full-output')).toBeNull()
  })

  it('marks a clipped output with its sizes and opens the whole kept output, page by page', async () => {
    const all = lines(1, 5000)
    const shown = lines(1, 50)
    const { asked, load } = pages(all, 16384)
    const el = render(OutputBlock, { text: shown, url, clipped: true, totalBytes: all.length, keptBytes: all.length, load })
    const marker = one(el, 'output-clipped')
    expect(marker?.textContent).toContain(`clipped at 391 B of 47.7 KB`)
    expect(all.length).toBe(48893)
    // Folded, "show all" would promise too much: it shows up to the clip.
    expect(one(el, 'show-all')?.textContent).toBe('show 10 more lines, up to the clip')
    // The marker shows while folded and after "show all" alike ("show all"
    // fetches the record's copy from the asset server).
    vi.stubGlobal('fetch', async () => new Response(shown))
    one(el, 'show-all')?.click()
    await settle()
    expect(one(el, 'output-clipped')).not.toBeNull()

    one(el, 'open-full-output')?.click()
    await settle()
    const view = one(document.body, 'full-output')
    expect(view).not.toBeNull()
    const text = one(document.body, 'full-output-text')?.textContent ?? ''
    expect(text).toBe(all)
    expect(text.trimEnd().split('\n').at(-1)).toBe('line 5000')
    expect(asked.map(([, off]) => off)).toEqual([0, 16384, 32768])
    expect(asked[0][0]).toEqual({ sessionId: 's 1', turn: 2, iteration: 3, call: 1 })
    expect(one(document.body, 'full-output-size')?.textContent).toContain('5,000 lines')
    expect(one(document.body, 'full-output-cut')).toBeNull()

    one(document.body, 'full-output-close')?.click()
    flushSync()
    expect(one(document.body, 'full-output')).toBeNull()
  })

  it('waits for the output to be saved while its iteration still runs', async () => {
    const all = lines(1, 20)
    let saved = false
    const load = async (_: OutputLocator, offset: number): Promise<OutputPage> => {
      // What the bridge makes of the engine's answer before the iteration is saved (app.Error, code not_found).
      if (!saved) throw new BridgeError({ code: 'not_found', message: 'output: output of s t2/i3 call 1: not found' })
      return { text: all.slice(offset), offset, next: all.length, kept_bytes: all.length, total_bytes: all.length, done: true }
    }
    vi.useFakeTimers()
    try {
      const el = render(OutputBlock, { text: all.slice(0, 10), url, clipped: true, totalBytes: all.length, keptBytes: all.length, load })
      one(el, 'open-full-output')?.click()
      await settle()
      expect(one(document.body, 'full-output-waiting')).not.toBeNull()
      expect(one(document.body, 'full-output-text')?.textContent).toBe('')
      saved = true
      await vi.advanceTimersByTimeAsync(1000)
      await settle()
      expect(one(document.body, 'full-output-waiting')).toBeNull()
      expect(one(document.body, 'full-output-text')?.textContent).toBe(all)
    } finally {
      vi.useRealTimers()
    }
  })

  it('says so when even the kept copy was cut', async () => {
    const kept = lines(1, 100)
    const { load } = pages(kept, 1 << 20, 9_000_000)
    const el = render(OutputBlock, { text: kept.slice(0, 50), url, clipped: true, totalBytes: 9_000_000, keptBytes: kept.length, load })
    expect(one(el, 'output-clipped')?.textContent).toContain(`kept 792 B (792 of 9,000,000 bytes, sandbox.keep_output_bytes)`)
    one(el, 'open-full-output')?.click()
    await settle()
    expect(one(document.body, 'full-output-cut')?.textContent).toContain('Only the first 792 of 9,000,000 bytes were kept')
  })

  it('closes on Escape after a click into its text moved the focus out of the panel', async () => {
    const kept = lines(1, 100)
    const { load } = pages(kept, 1 << 20)
    const el = render(OutputBlock, { text: kept.slice(0, 50), url, clipped: true, totalBytes: kept.length, keptBytes: kept.length, load })
    one(el, 'open-full-output')?.click()
    await settle()
    expect(one(document.body, 'full-output')).not.toBeNull()
    ;(document.activeElement as HTMLElement | null)?.blur() // the text takes no focus: the body has it
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    await settle()
    expect(one(document.body, 'full-output')).toBeNull()
  })

  it('marks an older record cut at the model limit, with nothing more to open', () => {
    const snap = {
      session: { id: 's', workspace: '/w', title: '', turns: 1, created: '', updated: '' },
      seq: 1,
      running: false,
      turns: [{ position: 1, channel: 'desktop', request: 'r', status: 'done', usage: {}, duration_ms: 0, started: '', images: [],
        iterations: [{ position: 1, status: 'done', usage: {}, duration_ms: 0, calls: [{ call_id: 'a', code: 'x', output: 'y'.repeat(65536), duration_ms: 1 }] }] }],
    } as unknown as Transcript
    const p = fromSnapshot(snap).turns[0].iterations[0].programs[0]
    expect(p.clipped).toBe(true)
    const el = render(OutputBlock, { text: p.output, url, clipped: p.clipped, totalBytes: p.outputBytes, keptBytes: p.keptBytes })
    expect(one(el, 'output-clipped')?.textContent).toContain('the rest was not kept')
    expect(one(el, 'open-full-output')).toBeNull()
  })
})

describe('fulloutput', () => {
  it('reads locators from output URLs', () => {
    expect(locatorOf('')).toBeNull()
    expect(locatorOf('/vis/image/s/1')).toBeNull()
    expect(locatorOf('/vis/output/abc/1/2/0')).toEqual({ sessionId: 'abc', turn: 1, iteration: 2, call: 0 })
  })
  it('words the marker', () => {
    expect(clipMarker(65536, 200000, 200000)).toBe('clipped at 64.0 KB of 195.3 KB')
  })
})

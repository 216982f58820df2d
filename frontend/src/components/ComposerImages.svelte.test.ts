import { afterEach, describe, expect, it } from 'vitest'
import { flushSync } from 'svelte'
import Composer from './Composer.svelte'
import { all, cleanup, click, one, press, render, settle, type } from './testkit'
import type { ImageInput } from '../lib/attach'
import type { ReturnedInput } from '../lib/types'

afterEach(cleanup)

// A 1×1 PNG.
const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
)
const pngFile = (name = 'image.png') => new File([PNG], name, { type: 'image/png' })

function setup(running = false, accept = true, returned: ReturnedInput[] = []) {
  const sent: { text: string; images: ImageInput[] }[] = []
  let drop: ((paths: string[]) => void) | null = null
  const props = $state({
    running,
    disabled: false,
    placeholder: 'Ask',
    commands: [],
    onsend: async (text: string, images: ImageInput[]) => {
      sent.push({ text, images })
      return accept
    },
    onstop: async () => returned,
    subscribeDrop: (cb: (paths: string[]) => void) => {
      drop = cb
      return () => (drop = null)
    },
  })
  const el = render(Composer, props)
  const input = one<HTMLTextAreaElement>(el, 'composer-input')!
  return { el, input, props, sent, drop: (paths: string[]) => {
      drop!(paths)
      flushSync()
    },
  }
}

/** Pastes files (and optionally text) into el the way the clipboard does. */
function paste(el: HTMLElement, files: File[], text = ''): Event {
  const e = new Event('paste', { bubbles: true, cancelable: true })
  const items = [
    ...files.map((f) => ({ kind: 'file', type: f.type, getAsFile: () => f })),
    ...(text ? [{ kind: 'string', type: 'text/plain', getAsFile: () => null }] : []),
  ]
  Object.defineProperty(e, 'clipboardData', {
    value: { items, types: [...(files.length ? ['Files'] : []), ...(text ? ['text/plain'] : [])] },
  })
  el.dispatchEvent(e)
  return e
}

function pick(el: HTMLElement, files: File[]) {
  const input = one<HTMLInputElement>(el, 'attach-input')!
  Object.defineProperty(input, 'files', { value: files, configurable: true })
  input.dispatchEvent(new Event('change', { bubbles: true }))
}

const names = (el: HTMLElement) => all(el, 'attach-thumb').map((t) => t.querySelector('.tname')!.textContent)

describe('Composer images', () => {
  it('a pasted image shows as a thumbnail of itself and goes with the message', async () => {
    const { el, input, sent } = setup()
    const e = paste(input, [pngFile()])
    await settle()
    expect(e.defaultPrevented).toBe(true)
    expect(names(el)).toEqual(['pasted image 1.png'])
    const img = all(el, 'attach-thumb')[0].querySelector('img')!
    expect(img.getAttribute('src')).toMatch(/^data:image\/png;base64,iVBORw0KGgo/)

    type(input, 'what is this?')
    press(input, 'Enter')
    await settle()
    expect(sent).toHaveLength(1)
    expect(sent[0].text).toBe('what is this?')
    expect(sent[0].images).toEqual([{ path: '', name: 'pasted image 1.png', data_base64: img.getAttribute('src') }])
    expect(all(el, 'attach-thumb')).toHaveLength(0) // sent: gone from the composer
  })

  it('a paste of text keeps its text; a paste without images changes nothing', async () => {
    const { el, input } = setup()
    expect(paste(input, [], 'hello').defaultPrevented).toBe(false)
    expect(paste(input, [pngFile()], 'alt text').defaultPrevented).toBe(false)
    await settle()
    expect(names(el)).toEqual(['pasted image 1.png'])
  })

  it('picked files show with their names; each can be removed before sending', async () => {
    const { el, input, sent } = setup()
    pick(el, [pngFile('a.png'), pngFile('b.png')])
    await settle()
    expect(names(el)).toEqual(['a.png', 'b.png'])
    expect(one<HTMLInputElement>(el, 'attach-input')!.accept).toBe('image/*')
    click(all(el, 'attach-thumb')[0].querySelector('[data-testid="attach-remove"]'))
    expect(names(el)).toEqual(['b.png'])
    type(input, 'only b')
    click(one(el, 'composer-send'))
    await settle()
    expect(sent.map((s) => s.images.map((i) => i.name))).toEqual([['b.png']])
  })

  it('files dropped on the window show as name chips and are sent by path', async () => {
    const { el, input, sent, drop } = setup()
    drop(['/home/me/shots/screen one.png', '/tmp/b.jpg'])
    expect(names(el)).toEqual(['screen one.png', 'b.jpg'])
    expect(all(el, 'attach-thumb').map((t) => t.dataset.kind)).toEqual(['path', 'path'])
    type(input, 'compare')
    press(input, 'Enter')
    await settle()
    expect(sent[0].images).toEqual([
      { path: '/home/me/shots/screen one.png', name: 'screen one.png', data_base64: '' },
      { path: '/tmp/b.jpg', name: 'b.jpg', data_base64: '' },
    ])
  })

  it("a dropped file previews from the window's asset server, and falls back to the icon when that fails", async () => {
    const { el, drop } = setup()
    drop(['/home/me/shots/screen one.png', '/tmp/notes.txt'])
    await settle()
    const imgs = all<HTMLImageElement>(el, 'attach-thumb').map((t) => t.querySelector('img'))
    expect(imgs.map((i) => i?.getAttribute('src'))).toEqual([
      '/vis/dropped?path=%2Fhome%2Fme%2Fshots%2Fscreen%20one.png',
      '/vis/dropped?path=%2Ftmp%2Fnotes.txt',
    ])
    imgs[1]!.dispatchEvent(new Event('error'))
    await settle()
    const thumbs = all(el, 'attach-thumb')
    expect(thumbs[0].querySelector('img')).not.toBeNull()
    expect(thumbs[1].querySelector('img')).toBeNull()
    expect(thumbs[1].querySelector('svg')).not.toBeNull()
  })

  it('a refused send keeps the images; Stop brings back the images of the queue it returns', async () => {
    const refused = setup(false, false)
    refused.drop(['/x/a.png'])
    type(refused.input, 'try')
    press(refused.input, 'Enter')
    await settle()
    expect(names(refused.el)).toEqual(['a.png'])
    expect(refused.input.value).toBe('try')
    cleanup()

    // While a turn runs the text and its images go to the engine, which queues them.
    // Pasted images come back as data: URLs with their media type (app.ReturnedInput).
    const url = `data:image/png;base64,${btoa(String.fromCharCode(...PNG))}`
    const { el, input, drop, sent } = setup(true, true, [
      { id: 1, text: 'later', images: [{ path: '/x/q.png', name: 'q.png', data_base64: '' }] },
      { id: 2, text: 'and this', images: [{ path: '', name: 'pasted image 1.png', data_base64: url }] },
    ])
    drop(['/x/q.png'])
    type(input, 'later')
    press(input, 'Enter')
    await settle()
    expect(sent.map((s) => s.images.map((i) => i.name))).toEqual([['q.png']])
    expect(names(el)).toEqual([])
    drop(['/x/draft.png'])
    click(one(el, 'composer-stop'))
    await settle()
    expect(input.value).toBe('later\n\nand this')
    expect(names(el)).toEqual(['q.png', 'pasted image 1.png', 'draft.png'])
    const thumbs = all(el, 'attach-thumb')
    expect(thumbs.map((t) => t.dataset.kind)).toEqual(['path', 'data', 'path'])
    expect(thumbs[1].querySelector('img')!.getAttribute('src')).toBe(url)
  })

  it('an image too big for intake is refused in the page with the reason', async () => {
    const { el } = setup()
    const big = pngFile('huge.png')
    Object.defineProperty(big, 'size', { value: 30 << 20 })
    pick(el, [big])
    await settle()
    expect(names(el)).toEqual([])
    expect(el.textContent).toContain('Image huge.png not attached: it is 30.0 MiB; images over 25.0 MiB are refused')
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { flushSync } from 'svelte'
import Composer from './Composer.svelte'
import { all, cleanup, click, one, press, render, settle, type } from './testkit'
import { NAMED_NOT_SENT, type ImageInput, type ImageVerdict } from '../lib/attach'
import type { ReturnedInput } from '../lib/types'

afterEach(cleanup)

// A 1×1 PNG.
const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
)
const pngFile = (name = 'image.png') => new File([PNG], name, { type: 'image/png' })

interface Extra {
  /** Answers CheckImages (default: every image attached and sent). */
  oncheck?: (key: string, images: ImageInput[]) => Promise<ImageVerdict[]>
  /** Answers PasteImage (default: no image). */
  pasteimage?: () => Promise<ImageInput>
}

function setup(running = false, accept = true, returned: ReturnedInput[] = [], extra: Extra = {}) {
  const sent: { text: string; images: ImageInput[] }[] = []
  const checked: string[][] = []
  let drop: ((paths: string[]) => void) | null = null
  const props = $state({
    oncheck: async (key: string, images: ImageInput[]) => {
      checked.push(images.map((i) => i.path || i.name))
      return extra.oncheck ? extra.oncheck(key, images) : images.map(() => ({ reason: '', sent: true }))
    },
    pasteimage: extra.pasteimage ?? (async () => ({ path: '', name: '', data_base64: '' })),
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
  return { el, input, props, sent, checked, drop: (paths: string[]) => {
      drop!(paths)
      flushSync()
    },
  }
}

/**
 * Pastes files (and optionally text) into el the way the clipboard does;
 * extraTypes are types with no item (what WebKitGTK shows for an image it
 * does not hand over).
 */
function paste(el: HTMLElement, files: File[], text = '', extraTypes: string[] = []): Event {
  const e = new Event('paste', { bubbles: true, cancelable: true })
  const items = [
    ...files.map((f) => ({ kind: 'file', type: f.type, getAsFile: () => f })),
    ...(text ? [{ kind: 'string', type: 'text/plain', getAsFile: () => null }] : []),
  ]
  Object.defineProperty(e, 'clipboardData', {
    value: { items, types: [...(files.length ? ['Files'] : []), ...(text ? ['text/plain'] : []), ...extraTypes] },
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

  it('an image too big to read shows its reason on its chip, with no picture, and is not sent', async () => {
    const { el, input, sent } = setup()
    const big = pngFile('huge.png')
    Object.defineProperty(big, 'size', { value: 30 << 20 })
    pick(el, [big, pngFile('ok.png')])
    await settle()
    expect(names(el)).toEqual(['huge.png', 'ok.png'])
    const [chip] = all(el, 'attach-thumb')
    expect(chip.dataset.state).toBe('refused')
    expect(chip.querySelector('img')).toBeNull()
    expect(one(chip, 'attach-reason')!.textContent).toBe('it is 30.0 MiB; images over 25.0 MiB are refused')
    type(input, 'look')
    press(input, 'Enter')
    await settle()
    expect(sent[0].images.map((i) => i.name)).toEqual(['ok.png'])
  })

  it("each image shows the engine's verdict on its chip as soon as it is added: a reason and no picture, or a picture", async () => {
    // The engine's answers: a text file is not an image; a second copy is a duplicate.
    const oncheck = async (_key: string, images: ImageInput[]): Promise<ImageVerdict[]> =>
      images.map((i, n) =>
        i.path.endsWith('.txt')
          ? { reason: 'not an image', sent: false }
          : images.findIndex((j) => j.path === i.path) < n
            ? { reason: 'the same image as image 1 — attached once', sent: false }
            : { reason: '', sent: true },
      )
    const { el, checked, drop } = setup(false, true, [], { oncheck })
    drop(['/tmp/notes.txt', '/tmp/shot.png'])
    await settle()
    let chips = all(el, 'attach-thumb')
    expect(chips.map((c) => c.dataset.state)).toEqual(['refused', 'sent'])
    expect(one(chips[0], 'attach-reason')!.textContent).toBe('not an image')
    expect(chips[0].querySelector('img'), 'no picture for a refused file').toBeNull()
    expect(chips[0].getAttribute('title')).toBe('/tmp/notes.txt — not an image')
    expect(chips[1].querySelector('img')!.getAttribute('src')).toBe('/vis/dropped?path=%2Ftmp%2Fshot.png')
    expect(one(chips[1], 'attach-reason')).toBeNull()

    // Picked and pasted images are checked the same way, with the others.
    drop(['/tmp/shot.png'])
    await settle()
    chips = all(el, 'attach-thumb')
    expect(chips.map((c) => c.dataset.state)).toEqual(['refused', 'sent', 'refused'])
    expect(one(chips[2], 'attach-reason')!.textContent).toBe('the same image as image 1 — attached once')
    // Removing the first copy makes the second the one attached.
    click(chips[1].querySelector('[data-testid="attach-remove"]'))
    await settle()
    chips = all(el, 'attach-thumb')
    expect(chips.map((c) => c.dataset.state)).toEqual(['refused', 'sent'])
    expect(checked.at(-1)).toEqual(['/tmp/notes.txt', '/tmp/shot.png'])
  })

  it('with a model that has no vision, an image says it will be named, not sent, before Send', async () => {
    const oncheck = async (_key: string, images: ImageInput[]) => images.map(() => ({ reason: '', sent: false }))
    const { el } = setup(false, true, [], { oncheck })
    pick(el, [pngFile('a.png')])
    await settle()
    const [chip] = all(el, 'attach-thumb')
    expect(chip.dataset.state).toBe('named')
    expect(one(chip, 'attach-reason')!.textContent).toBe(NAMED_NOT_SENT)
    expect(chip.querySelector('img'), 'still an image: its picture shows').not.toBeNull()
  })

  it("a paste without an image file asks Go for the clipboard's image, which comes as a dropped file", async () => {
    let asked = 0
    const pasteimage = async () => {
      asked++
      return { path: '/home/me/.vis/desktop/pasted/ab12.png', name: '', data_base64: '' }
    }
    const { el, input, sent } = setup(false, true, [], { pasteimage })
    // WebKitGTK: an image type and no file item.
    const e = paste(input, [], '', ['image/png'])
    await settle()
    expect(e.defaultPrevented).toBe(true)
    expect(asked).toBe(1)
    expect(names(el)).toEqual(['pasted image 1.png'])
    const [chip] = all(el, 'attach-thumb')
    expect(chip.dataset.kind).toBe('path')
    expect(chip.querySelector('img')!.getAttribute('src')).toBe('/vis/dropped?path=%2Fhome%2Fme%2F.vis%2Fdesktop%2Fpasted%2Fab12.png')
    // A paste with no types at all asks too; a text paste does not.
    paste(input, [])
    expect(paste(input, [], 'hello').defaultPrevented).toBe(false)
    await settle()
    expect(asked).toBe(2)
    type(input, 'see')
    press(input, 'Enter')
    await settle()
    expect(sent[0].images[0]).toEqual({ path: '/home/me/.vis/desktop/pasted/ab12.png', name: 'pasted image 1.png', data_base64: '' })
  })

  it('a paste when the clipboard holds no image adds nothing; a failed read says why', async () => {
    const empty = setup()
    paste(empty.input, [])
    await settle()
    expect(names(empty.el)).toEqual([])
    cleanup()
    const { el, input } = setup(false, true, [], {
      pasteimage: async () => {
        throw new Error('paste: the clipboard\'s image could not be read: the program that copied it did not hand it over')
      },
    })
    paste(input, [])
    await settle()
    expect(names(el)).toEqual([])
    expect(el.textContent).toContain('the program that copied it did not hand it over')
  })
})

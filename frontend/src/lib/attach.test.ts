import { describe, expect, it } from 'vitest'
import { applyVerdicts, carriesFiles, fromInput, fromPath, mayHoldImage } from './attach'

/** A stand-in DataTransfer: only `types` matters here. */
const drag = (...types: string[]) => ({ types }) as unknown as DataTransfer

describe('carriesFiles', () => {
  it('is true for a file manager drag (files or file URIs)', () => {
    expect(carriesFiles(drag('Files'))).toBe(true)
    expect(carriesFiles(drag('text/uri-list', 'text/plain'))).toBe(true)
  })
  it('is false for text dragged inside the page, and for no data', () => {
    expect(carriesFiles(drag('text/plain', 'text/html'))).toBe(false)
    expect(carriesFiles(null)).toBe(false)
  })
})

describe('fromInput', () => {
  it('a returned dropped file comes back by its path', () => {
    const a = fromInput({ path: '/home/me/shot.png', name: '', data_base64: '' })
    expect(a).toMatchObject({ path: '/home/me/shot.png', name: 'shot.png', dataUrl: '' })
  })
  it('returned bytes come back as the data: URL the engine sends, so the thumbnail shows', () => {
    const url = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUg=='
    expect(fromInput({ path: '', name: 'pasted image 1.png', data_base64: url })).toMatchObject({ path: '', name: 'pasted image 1.png', dataUrl: url })
    expect(fromInput({ path: '', name: '', data_base64: 'data:image/gif;base64,R0lGOD' })).toMatchObject({ name: 'image', dataUrl: 'data:image/gif;base64,R0lGOD' })
  })
})

describe('mayHoldImage', () => {
  it('is true for a paste with an image type or with no text (WebKitGTK hands no file)', () => {
    expect(mayHoldImage(drag('image/png'))).toBe(true)
    expect(mayHoldImage(drag())).toBe(true)
    expect(mayHoldImage(drag('text/plain', 'image/png'))).toBe(true)
    expect(mayHoldImage(null)).toBe(true)
  })
  it('is false for a text paste', () => {
    expect(mayHoldImage(drag('text/plain', 'text/html'))).toBe(false)
  })
})

describe('applyVerdicts', () => {
  it('puts each verdict on the attachment it was asked for, by id, and clears an old reason', () => {
    const [a, b, c] = [fromPath('/x/a.png'), { ...fromPath('/x/b.txt'), reason: 'old' }, fromPath('/x/c.png')]
    const got = applyVerdicts([a, b, c], [b, c], [{ reason: '', sent: false }, { reason: 'not an image', sent: false }])
    expect(got.map((x) => [x.reason, x.sent])).toEqual([
      [undefined, undefined],
      [undefined, false],
      ['not an image', undefined],
    ])
  })
})

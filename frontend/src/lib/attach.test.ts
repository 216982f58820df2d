import { describe, expect, it } from 'vitest'
import { carriesFiles, fromInput } from './attach'

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

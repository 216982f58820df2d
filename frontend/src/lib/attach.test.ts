import { describe, expect, it } from 'vitest'
import { carriesFiles } from './attach'

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

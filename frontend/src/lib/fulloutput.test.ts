import { describe, expect, it } from 'vitest'
import { BridgeError } from './errorText'
import { loadOutput, notSavedYet, type OutputLocator } from './fulloutput'
import type { OutputPage } from './types'

const at: OutputLocator = { sessionId: 's', turn: 1, iteration: 1, call: 0 }

describe('notSavedYet', () => {
  it('waits on the not_found code, whatever the sentence says', () => {
    expect(notSavedYet(new BridgeError({ code: 'not_found', message: 'output: no such program output' }))).toBe(true)
    expect(notSavedYet(new Error(JSON.stringify({ code: 'not_found', message: 'x' })))).toBe(true)
  })
  it('does not wait on other codes, nor on text that merely says "not found"', () => {
    expect(notSavedYet(new BridgeError({ code: 'internal', message: 'output: not found' }))).toBe(false)
    expect(notSavedYet(new BridgeError({ code: 'input', message: 'output: invalid request: not found' }))).toBe(false)
    expect(notSavedYet(new Error('output: not found'))).toBe(false)
  })
})

describe('loadOutput', () => {
  it('hands over the pages in order and rejects with the loader\'s coded error', async () => {
    const pages: OutputPage[] = []
    const load = async (_: OutputLocator, offset: number): Promise<OutputPage> =>
      ({ text: `p${offset}`, offset, next: offset + 2, done: offset >= 2, kept_bytes: 4, total_bytes: 4 }) as OutputPage
    await loadOutput(load, at, (p) => pages.push(p))
    expect(pages.map((p) => p.text)).toEqual(['p0', 'p2'])

    const failing = async (): Promise<OutputPage> => {
      throw new BridgeError({ code: 'not_found', message: 'output: not saved yet' })
    }
    await expect(loadOutput(failing, at, () => {})).rejects.toSatisfy(notSavedYet)
  })
})

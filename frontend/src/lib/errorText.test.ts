import { describe, expect, it } from 'vitest'
import { BridgeError, errorCode, errorMessage, parseError } from './errorText'

describe('parseError', () => {
  it('reads the JSON text a bound call is rejected with', () => {
    const sent = new Error(JSON.stringify({ code: 'not_found', message: 'output: not found' }))
    expect(parseError(sent)).toEqual({ code: 'not_found', message: 'output: not found' })
    expect(errorMessage(sent)).toBe('output: not found')
    expect(errorCode(sent)).toBe('not_found')
  })

  it('keeps a provider code whole', () => {
    const sent = JSON.stringify({ code: 'provider_auth', message: 'provider http://x/v1: authentication failed (401)' })
    expect(parseError(sent)).toEqual({ code: 'provider_auth', message: 'provider http://x/v1: authentication failed (401)' })
  })

  it('reads a BridgeError as it was made', () => {
    const e = new BridgeError({ code: 'conflict', message: 'session s is running in another Vis (pid 7)' })
    expect(e).toBeInstanceOf(Error)
    expect(e.message).toBe('session s is running in another Vis (pid 7)')
    expect(parseError(e)).toEqual({ code: 'conflict', message: e.message })
  })

  it('takes plain text as an internal error, never guessing a code from the words', () => {
    expect(parseError(new Error('output: not found'))).toEqual({ code: 'internal', message: 'output: not found' })
    expect(parseError('not running inside the Vis window')).toEqual({ code: 'internal', message: 'not running inside the Vis window' })
    expect(parseError('{not json')).toEqual({ code: 'internal', message: '{not json' })
    expect(parseError(JSON.stringify({ message: 'no code' }))).toEqual({ code: 'internal', message: '{"message":"no code"}' })
    expect(parseError(42)).toEqual({ code: 'internal', message: '42' })
  })
})

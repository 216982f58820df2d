import { afterEach, describe, expect, it } from 'vitest'
import { api, BridgeError, errorCode, errorMessage } from './bridge'

// The Wails runtime as the window injects it: the bound methods under
// window.go.app.App, each a function returning a promise.
function inject(methods: Record<string, (...a: unknown[]) => Promise<unknown>>) {
  ;(window as unknown as { go: unknown }).go = { app: { App: methods } }
  ;(window as unknown as { runtime: unknown }).runtime = {}
}

afterEach(() => {
  delete (window as unknown as { go?: unknown }).go
  delete (window as unknown as { runtime?: unknown }).runtime
})

describe('bound calls', () => {
  it('turn the Go side\'s {code, message} rejection into a BridgeError', async () => {
    inject({
      OpenTranscript: () => Promise.reject(new Error(JSON.stringify({ code: 'not_found', message: 'open transcript: not found' }))),
    })
    const e: unknown = await api.openTranscript('gone').then(
      () => null,
      (err: unknown) => err,
    )
    expect(e).toBeInstanceOf(BridgeError)
    expect(errorCode(e)).toBe('not_found')
    expect(errorMessage(e)).toBe('open transcript: not found')
  })

  it('pass a provider failure\'s code through whole', async () => {
    inject({
      Submit: () => Promise.reject(new Error(JSON.stringify({ code: 'provider_auth', message: 'submit: provider http://x/v1: authentication failed (401)' }))),
    })
    await expect(api.submit('s', '', 'hi')).rejects.toMatchObject({ code: 'provider_auth', message: 'submit: provider http://x/v1: authentication failed (401)' })
  })

  it('resolve as before when the call succeeds', async () => {
    inject({ Running: () => Promise.resolve(true) })
    await expect(api.running('s')).resolves.toBe(true)
  })

  it('outside the window, reject with an internal BridgeError', async () => {
    await expect(api.running('s')).rejects.toMatchObject({ code: 'internal', message: 'not running inside the Vis window' })
  })
})

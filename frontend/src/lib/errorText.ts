// A bound call's failure as the page receives it. The Go side (app.Error,
// Run's ErrorFormatter) rejects the call with an Error whose message is
// {"code": ..., "message": ...} as JSON text; bridge.ts turns it into a
// BridgeError. The page decides by the code, never by the sentence: the
// sentence is only shown.

/**
 * The codes of app.Error (backend.ErrorCode): the request was wrong
 * (input), refused by the rules (refused), names nothing there (not_found),
 * raced a change (conflict), the configuration is missing or wrong
 * (config), anything else (internal); and provider_<code> for the model
 * server's failures (provider_auth, provider_server_down, ...).
 */
export type ErrorCode = 'input' | 'refused' | 'not_found' | 'conflict' | 'config' | 'internal' | `provider_${string}`

/** A failure's code and the sentence a person reads. */
export interface CodedError {
  code: ErrorCode
  message: string
}

/** What a bound call rejects with once bridge.ts has read it. */
export class BridgeError extends Error {
  readonly code: ErrorCode
  constructor(e: CodedError) {
    super(e.message)
    this.name = 'BridgeError'
    this.code = e.code
  }
}

function isCoded(v: unknown): v is CodedError {
  return typeof v === 'object' && v !== null && typeof (v as CodedError).code === 'string' && typeof (v as CodedError).message === 'string'
}

/**
 * The code and sentence of anything a bound call rejected with: a
 * BridgeError, the JSON text the Go side sends, or (an older binary, a
 * failure before the call left the page) plain text, which is internal.
 */
export function parseError(e: unknown): CodedError {
  if (e instanceof BridgeError) return { code: e.code, message: e.message }
  const text = typeof e === 'string' ? e : e instanceof Error ? e.message : String(e)
  if (text.startsWith('{')) {
    try {
      const v: unknown = JSON.parse(text)
      if (isCoded(v)) return { code: v.code, message: v.message }
    } catch {
      // not JSON: plain text below
    }
  }
  return { code: 'internal', message: text }
}

/** The sentence of an error from a bound call, to show. */
export function errorMessage(e: unknown): string {
  return parseError(e).message
}

/** The code of an error from a bound call, to decide by. */
export function errorCode(e: unknown): ErrorCode {
  return parseError(e).code
}

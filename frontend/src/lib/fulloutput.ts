// A program's whole output, beyond the model's clipped copy the transcript
// holds: where it is (the same session/turn/iteration/call as its asset
// URL), the marker that says what a cap left out, and its pages.
import { api, errorCode } from './bridge'
import { bytes } from './format'
import type { OutputPage } from './types'

export interface OutputLocator {
  sessionId: string
  turn: number
  iteration: number
  /** 0-based place among the iteration's programs. */
  call: number
}

/** The program an output URL (/vis/output/<session>/<turn>/<iteration>/<call>) names; null for "" or another URL. */
export function locatorOf(url: string): OutputLocator | null {
  const m = /^\/vis\/output\/([^/]+)\/(\d+)\/(\d+)\/(\d+)$/.exec(url)
  if (!m) return null
  return { sessionId: decodeURIComponent(m[1]), turn: Number(m[2]), iteration: Number(m[3]), call: Number(m[4]) }
}

/** UTF-8 bytes of s. */
export function utf8Bytes(s: string): number {
  return new TextEncoder().encode(s).length
}

/**
 * What the marker under a clipped output says: how much of it is shown, and
 * when even the kept copy was cut, how much of it was kept. total 0 = a
 * record from before the sizes were counted (its rest was not kept).
 */
export function clipMarker(shown: number, total: number, kept: number): string {
  if (total <= 0) return `clipped at ${bytes(shown)} · the rest was not kept (recorded before full outputs were)`
  let s = `clipped at ${bytes(shown)} of ${bytes(total)}`
  if (kept > 0 && kept < total) s += ` · kept ${bytes(kept)} (${kept.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} bytes, sandbox.keep_output_bytes)`
  return s
}

/** Fetches the page of the output at byte offset. */
export type PageLoader = (at: OutputLocator, offset: number) => Promise<OutputPage>

/** The window's loader: the bound CallOutput method. */
export const boundLoader: PageLoader = (at, offset) => api.callOutput(at.sessionId, at.turn, at.iteration, at.call, offset)

/**
 * An output asked for while its iteration's other programs still run is not
 * saved yet: the engine answers not_found, and the view asks again. Decided
 * by the error's code, never by its sentence.
 */
export function notSavedYet(e: unknown): boolean {
  return errorCode(e) === 'not_found'
}

/** Loads every page of the output in order, handing each to onpage; stops when signal aborts. */
export async function loadOutput(load: PageLoader, at: OutputLocator, onpage: (p: OutputPage) => void, signal?: AbortSignal): Promise<void> {
  let offset = 0
  for (;;) {
    const p = await load(at, offset)
    if (signal?.aborted) return
    onpage(p)
    if (p.done || p.next <= offset) return
    offset = p.next
  }
}

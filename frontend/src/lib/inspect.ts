// Opening the prompt inspector. The transcript's per-iteration button
// (data-testid inspector-open) dispatches a DOM CustomEvent named
// INSPECT_EVENT with detail {turn, iteration}; the window listens for it.
import type { TranscriptView } from './transcript'

export interface Position {
  turn: number
  iteration: number
}

export const INSPECT_EVENT = 'vis:inspect'

/** Asks the window to open the inspector at p (from any element). */
export function requestInspect(from: EventTarget, p: Position) {
  from.dispatchEvent(new CustomEvent(INSPECT_EVENT, { detail: p, bubbles: true }))
}

/** The position in an inspect event, or null when it carries none. */
export function positionOf(e: Event): Position | null {
  const d = (e as CustomEvent).detail as Partial<Position> | null | undefined
  const turn = Number(d?.turn)
  const iteration = Number(d?.iteration)
  if (!Number.isInteger(turn) || !Number.isInteger(iteration) || turn < 1 || iteration < 1) return null
  return { turn, iteration }
}

/** Every iteration of the view, in order; a person's !cmd turns have no prompt. */
export function positionsOf(view: TranscriptView): Position[] {
  return view.turns
    .filter((t) => t.channel !== 'shell')
    .flatMap((t) => t.iterations.map((it) => ({ turn: t.position, iteration: it.position })))
}

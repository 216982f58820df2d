// The window's panes (App.svelte): how many fit side by side, which pane a
// point falls in (a drop carries only its coordinates).
import type { PaneState } from './types'

/** app.MaxPanes: the most sessions shown side by side. */
export const MAX_PANES = 3

/** A pane of the window: a key for its lifetime and what it opened with. */
export interface PaneSlot {
  key: number
  initial: PaneState
}

/** The key of the pane at (x, y) in doc (each pane's wrapper carries data-pane-key); undefined outside every pane. */
export function paneAt(doc: Pick<Document, 'elementFromPoint'>, x: number, y: number): number | undefined {
  if (x < 0 || y < 0) return undefined
  const el = doc.elementFromPoint(x, y)?.closest('[data-pane-key]') as HTMLElement | null | undefined
  const key = Number(el?.dataset.paneKey)
  return el && Number.isInteger(key) ? key : undefined
}

// Windowed rendering of a transcript: the turns are cut into rows (a turn's
// request, each of its iterations, its end: answer, errors and stats; a
// person's !cmd turn is a request row and an end row), each row has a height
// (measured once rendered, estimated before), and only the rows that meet the
// viewport (plus an overscan margin) are put in the DOM, between two spacers
// that stand for the rest. Pure functions over plain data; the pane owns the
// measuring and the scrolling.
import type { TurnView } from './transcript'

export type RowKind = 'request' | 'iteration' | 'end'

export interface Row {
  /** Stable across updates: "<turn>:r", "<turn>:i<iteration>", "<turn>:e". */
  key: string
  /** Index of the turn in the view's turns. */
  turn: number
  /** The row's part of its turn: 0 the request, k the k-th iteration (1-based), iterations+1 the end. */
  part: number
  kind: RowKind
}

/** Estimated heights (px) of rows not measured yet. */
export const ESTIMATE: Record<RowKind, number> = { request: 64, iteration: 140, end: 72 }

/** The rows of turns, in order. */
export function rowsOf(turns: TurnView[]): Row[] {
  const rows: Row[] = []
  turns.forEach((t, i) => {
    rows.push({ key: `${t.position}:r`, turn: i, part: 0, kind: 'request' })
    if (t.channel !== 'shell') {
      t.iterations.forEach((it, k) => rows.push({ key: `${t.position}:i${it.position}`, turn: i, part: k + 1, kind: 'iteration' }))
    }
    rows.push({ key: `${t.position}:e`, turn: i, part: t.iterations.length + 1, kind: 'end' })
  })
  return rows
}

export interface Layout {
  /** offsets[i] is the top of row i; offsets[rows.length] is the total height. */
  offsets: Float64Array
  total: number
}

/** Row tops from measured heights (by key), estimates where unmeasured. */
export function layout(rows: Row[], heights: ReadonlyMap<string, number>): Layout {
  const offsets = new Float64Array(rows.length + 1)
  let y = 0
  for (let i = 0; i < rows.length; i++) {
    offsets[i] = y
    y += heights.get(rows[i].key) ?? ESTIMATE[rows[i].kind]
  }
  offsets[rows.length] = y
  return { offsets, total: y }
}

/** The index of the row that contains y (the last row for y past the end; 0 for none). */
export function rowAt(l: Layout, y: number): number {
  const n = l.offsets.length - 1
  if (n <= 0) return 0
  let lo = 0
  let hi = n - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (l.offsets[mid] <= y) lo = mid
    else hi = mid - 1
  }
  return lo
}

/**
 * The rows [start, end) to render for a viewport of height at scroll offset
 * top, with overscan px more on each side. At least one row when there are any.
 */
export function visibleRange(l: Layout, top: number, height: number, overscan: number): [number, number] {
  const n = l.offsets.length - 1
  if (n <= 0) return [0, 0]
  const start = rowAt(l, Math.max(0, top - overscan))
  let end = rowAt(l, top + height + overscan) + 1
  if (end > n) end = n
  return [start, Math.max(end, start + 1)]
}

/** Groups of consecutive rows of one turn, for rendering each turn once. */
export interface TurnSlice {
  turn: number
  /** Parts [from, to) of the turn to render. */
  from: number
  to: number
}

/** The turn slices of rows[start, end). */
export function slices(rows: Row[], start: number, end: number): TurnSlice[] {
  const out: TurnSlice[] = []
  for (let i = start; i < end; i++) {
    const r = rows[i]
    const last = out[out.length - 1]
    if (last && last.turn === r.turn) last.to = r.part + 1
    else out.push({ turn: r.turn, from: r.part, to: r.part + 1 })
  }
  return out
}

import { describe, expect, it } from 'vitest'
import { ESTIMATE, layout, rowAt, rowsOf, slices, visibleRange } from './virtual'
import type { TurnView } from './transcript'

function turn(position: number, iterations: number, channel = 'desktop'): TurnView {
  const usage = { input_tokens: 0, output_tokens: 0, cached_tokens: 0, reasoning_tokens: 0 }
  return {
    position,
    channel,
    request: 'q',
    status: 'done',
    answer: '',
    error: '',
    usage,
    duration_ms: 0,
    started: '',
    iterations: Array.from({ length: iterations }, (_, k) => ({
      position: k + 1,
      status: 'done',
      reasoning: '',
      text: '',
      programs: [],
      error: '',
      retry: '',
      usage,
      duration_ms: 0,
      settled: true,
    })),
  }
}

describe('rowsOf', () => {
  it('cuts each turn into its request, iterations and end; a !cmd turn into request and end', () => {
    const rows = rowsOf([turn(1, 2), turn(2, 1, 'shell')])
    expect(rows.map((r) => [r.key, r.turn, r.part, r.kind])).toEqual([
      ['1:r', 0, 0, 'request'],
      ['1:i1', 0, 1, 'iteration'],
      ['1:i2', 0, 2, 'iteration'],
      ['1:e', 0, 3, 'end'],
      ['2:r', 1, 0, 'request'],
      ['2:e', 1, 2, 'end'],
    ])
  })
})

describe('layout and visibleRange', () => {
  const rows = rowsOf([turn(1, 3)]) // r, i1, i2, i3, e
  const heights = new Map([
    ['1:r', 50],
    ['1:i1', 100],
    ['1:i2', 300],
  ])
  const l = layout(rows, heights)

  it('places rows by measured heights, estimates where unmeasured', () => {
    expect([...l.offsets]).toEqual([0, 50, 150, 450, 450 + ESTIMATE.iteration, 450 + ESTIMATE.iteration + ESTIMATE.end])
    expect(l.total).toBe(450 + ESTIMATE.iteration + ESTIMATE.end)
  })

  it.each([
    [0, 0],
    [49, 0],
    [50, 1],
    [449, 2],
    [100000, 4],
  ])('rowAt(%d) = %d', (y, want) => {
    expect(rowAt(l, y)).toBe(want)
  })

  it.each([
    ['top', 0, 100, 0, [0, 2]],
    ['middle', 200, 100, 0, [2, 3]],
    ['middle with overscan', 200, 100, 60, [1, 3]],
    ['middle with more overscan', 200, 100, 260, [0, 4]],
    ['past the end', 5000, 100, 0, [4, 5]],
  ])('renders only what meets the viewport: %s', (_, top, height, overscan, want) => {
    expect(visibleRange(l, top as number, height as number, overscan as number)).toEqual(want)
  })

  it('renders nothing without rows', () => {
    expect(visibleRange(layout([], new Map()), 0, 800, 600)).toEqual([0, 0])
  })
})

describe('slices', () => {
  it('groups consecutive rows by turn', () => {
    const rows = rowsOf([turn(1, 2), turn(2, 3)]) // 0..3 turn 1, 4..8 turn 2
    expect(slices(rows, 2, 6)).toEqual([
      { turn: 0, from: 2, to: 4 },
      { turn: 1, from: 0, to: 2 },
    ])
  })
})

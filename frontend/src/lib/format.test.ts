import { describe, expect, it } from 'vitest'
import { ago, duration, plural, tokens } from './format'

describe('ago', () => {
  const now = new Date('2026-03-10T12:00:00Z')
  it.each([
    ['', ''],
    ['not a date', ''],
    ['2026-03-10T11:59:30Z', 'just now'],
    ['2026-03-10T11:55:00Z', '5 min ago'],
    ['2026-03-10T09:00:00Z', '3 h ago'],
    ['2026-03-08T12:00:00Z', '2 d ago'],
    ['2026-01-02T12:00:00Z', '2026-01-02'],
  ])('%s → %s', (iso, want) => {
    expect(ago(iso, now)).toBe(want)
  })
})

describe('duration', () => {
  it.each([
    [0, ''],
    [850, '850 ms'],
    [12345, '12.3 s'],
    [245000, '4 min 5 s'],
  ])('%d → %s', (ms, want) => {
    expect(duration(ms)).toBe(want)
  })
})

describe('plural', () => {
  it.each([
    [0, 'program', '0 programs'],
    [1, 'program', '1 program'],
    [2, 'iteration', '2 iterations'],
  ])('%d %s → %s', (n, word, want) => {
    expect(plural(n, word)).toBe(want)
  })
})

describe('tokens', () => {
  it.each([
    [undefined, ''],
    [{ input_tokens: 0, output_tokens: 0 }, ''],
    [{ input_tokens: 2050, output_tokens: 71 }, '2,050 in · 71 out tokens'],
    [{ input_tokens: 12000, output_tokens: 5, cached_tokens: 8000, reasoning_tokens: 3 }, '12,000 in · 8,000 cached · 5 out · 3 reasoning tokens'],
  ])('%j → %s', (u, want) => {
    expect(tokens(u)).toBe(want)
  })
})

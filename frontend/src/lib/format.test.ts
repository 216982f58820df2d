import { describe, expect, it } from 'vitest'
import { ago, bytes, duration, fold, plural, tokens } from './format'

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

describe('bytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [4096, '4.0 KB'],
    [1.5 * 1024 * 1024, '1.5 MB'],
  ])('%d → %s', (n, want) => {
    expect(bytes(n)).toBe(want)
  })
})

describe('fold', () => {
  const lines = (n: number, width = 5) => Array.from({ length: n }, (_, i) => String(i + 1).padStart(width, '0')).join('\n') + '\n'

  it('leaves output within 40 lines and 4 KB alone', () => {
    const text = lines(40)
    expect(fold(text)).toEqual({ head: text, hiddenLines: 0, hiddenChars: 0 })
  })

  it('shows the first 40 of many short lines', () => {
    const f = fold(lines(100))
    expect(f.head.split('\n')).toHaveLength(40)
    expect(f.head.endsWith('00040')).toBe(true)
    expect(f.hiddenLines).toBe(60)
  })

  it('cuts few long lines at a line end near 4 KB', () => {
    const text = lines(20, 299) // 20 lines of 300 characters: 6 KB
    const f = fold(text)
    expect(f.head.length).toBeLessThanOrEqual(4096)
    expect(f.head.length).toBeGreaterThan(2048)
    expect(f.head.split('\n').every((l) => l.length === 299)).toBe(true)
    expect(f.hiddenLines).toBe(20 - f.head.split('\n').length)
    expect(f.hiddenChars).toBe(text.length - f.head.length)
  })

  it('cuts one huge line at 4 KB', () => {
    const f = fold('x'.repeat(10000))
    expect(f.head).toHaveLength(4096)
    expect(f).toMatchObject({ hiddenLines: 0, hiddenChars: 10000 - 4096 })
  })
})

// Labels for the footer's badges, from app.Status.
import { statusLabel } from './goal'
import type { Status, Usage } from './types'

/** 950 → "950", 12_345 → "12.3k", 2_500_000 → "2.5M". */
export function compact(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '0'
  if (n < 1000) return String(Math.round(n))
  if (n < 1e6) return `${(n / 1000).toFixed(n < 1e4 ? 1 : 0).replace(/\.0$/, '')}k`
  return `${(n / 1e6).toFixed(1).replace(/\.0$/, '')}M`
}

/** "12.3k tokens" for a session's input + output tokens. */
export function tokensLabel(u: Usage | undefined): string {
  const n = (u?.input_tokens ?? 0) + (u?.output_tokens ?? 0)
  return `${compact(n)} tokens`
}

/** "$0.0123" / "$1.25", or null when the provider reports no price. */
export function costLabel(c: number | null | undefined): string | null {
  if (c === null || c === undefined || !Number.isFinite(c)) return null
  if (c > 0 && c < 0.01) return `$${c.toFixed(4)}`
  return `$${c.toFixed(2)}`
}

/** Context use in percent, 0–100 (0 when the limit is unknown). */
export function contextPercent(used: number, limit: number): number {
  if (!limit || limit <= 0 || !used || used < 0) return 0
  return Math.min(100, Math.round((used / limit) * 100))
}

/** "active", "paused 3/20", "budget spent 20/20" ... for the goal badge (the panel's words); "" when no goal. */
export function goalLabel(s: Status | null): string {
  const g = s?.goal
  if (!g || !g.status) return ''
  const budget = g.iteration_budget > 0 ? ` ${g.iterations_used}/${g.iteration_budget}` : ''
  return `${statusLabel(g.status)}${budget}`
}

/** The provider as a person knows it: its name, else its id ("app" never shows when a name is known). */
export function providerLabel(s: Status | null): string {
  return s?.provider_name || s?.provider || ''
}

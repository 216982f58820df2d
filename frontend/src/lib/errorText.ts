/** The text of an error from a bound call (the Go ErrorFormatter sends a string). */
export function errorMessage(e: unknown): string {
  if (typeof e === 'string') return e
  if (e instanceof Error) return e.message
  return String(e)
}

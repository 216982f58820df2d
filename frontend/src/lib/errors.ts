// Uncaught frontend errors: shown in the window (never a blank page) and
// logged through the Go side to $VIS_HOME/desktop/logs/frontend.log.

export interface Reported {
  message: string
  stack: string
}

/** The message and stack of anything thrown or rejected. */
export function describe(reason: unknown): Reported {
  if (reason instanceof Error) return { message: `${reason.name}: ${reason.message}`, stack: reason.stack ?? '' }
  if (typeof reason === 'string') return { message: reason, stack: '' }
  try {
    return { message: JSON.stringify(reason) ?? String(reason), stack: '' }
  } catch {
    return { message: String(reason), stack: '' }
  }
}

/**
 * Errors thrown by Wails' own scripts when the page is served to a plain
 * browser (the dev server used by the end-to-end tests): its IPC script hooks
 * WebKit-only objects. They are not the page's errors and change nothing a
 * person sees; they are logged but not shown.
 */
export function fromWailsScript(r: Reported): boolean {
  return /\/wails\/(ipc|runtime)\.js/.test(r.stack)
}

/**
 * The browser's notice that a ResizeObserver callback changed a size it
 * observes within the same frame ("ResizeObserver loop completed with
 * undelivered notifications" / "ResizeObserver loop limit exceeded"): the
 * next frame delivers the rest, nothing failed, and it is no error of the
 * page's. Logged nowhere, shown never.
 */
export function benign(r: Reported): boolean {
  return /^(Error: )?ResizeObserver loop (completed with undelivered notifications|limit exceeded)/.test(r.message)
}

/**
 * Calls report for every uncaught error and unhandled rejection of target
 * (the window), except the benign ResizeObserver notice. Returns the
 * function that stops listening.
 */
export function catchUncaught(target: Window, report: (r: Reported) => void): () => void {
  const onError = (e: ErrorEvent) => {
    const r = e.error !== undefined && e.error !== null ? describe(e.error) : { message: e.message || 'Unknown error', stack: '' }
    if (!r.stack && e.filename) r.stack = `at ${e.filename}:${e.lineno}:${e.colno}`
    if (benign(r)) return
    report(r)
  }
  const onRejection = (e: PromiseRejectionEvent) => {
    const r = describe(e.reason)
    report({ ...r, message: `Unhandled rejection: ${r.message}` })
  }
  target.addEventListener('error', onError)
  target.addEventListener('unhandledrejection', onRejection)
  return () => {
    target.removeEventListener('error', onError)
    target.removeEventListener('unhandledrejection', onRejection)
  }
}

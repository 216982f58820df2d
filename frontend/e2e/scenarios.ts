// The end-to-end scenarios and which of them `make test` runs.
//
// Each scenario drives the real page in Chromium against the dev-tagged
// binary and the scripted LLM (see harness.ts). A scenario needs parts of the
// window that were built at different times; `run: true` puts it in
// `make test`. A scenario with `run: false` is NOT skipped silently: the
// harness lists it as NOT RUN with `needs` as the reason, in the vitest
// output and in the summary scripts/e2e.sh prints.
//
// To enable one: set `run: true` once `E2E_SCENARIOS=name scripts/e2e.sh`
// passes. E2E_SCENARIOS=all runs every scenario whatever `run` says.
export interface ScenarioInfo {
  /** The UI parts (data-testid contract) the scenario exercises. */
  needs: string
  /** In `make test`. */
  run: boolean
}

export const SCENARIOS: Record<string, ScenarioInfo> = {
  'send-and-stream': {
    needs:
      'header (workspace-path), composer (composer-input), transcript (turn[data-status], turn-request, iteration, program, program-output, turn-answer Markdown, turn-stats)',
    run: true,
  },
  'cancel-long-turn': {
    needs: 'composer (composer-input, composer-send, composer-stop), transcript (turn[data-status=cancelled], turn-answer)',
    run: true,
  },
  'queue-then-run': {
    needs: 'composer queue (queue-item while a turn runs), transcript (turn-request, turn[data-status])',
    run: true,
  },
  'queue-stop-returns': {
    needs: 'composer queue (queue-item), composer-stop returning queued text to composer-input, transcript (turn[data-status=cancelled])',
    run: true,
  },
  'queue-per-session': {
    needs:
      'composer queue per session (queue-item, composer-input kept per session, "restored" marker after a reload), sidebar (session-item turn counts, session-new), transcript (turn-request, turn[data-status])',
    run: true,
  },
  'sessions-reload-switch-search': {
    needs:
      'sidebar (session-item[data-session-id][aria-current], session-new, session-search, search-hit), transcript (turn-request, turn-answer)',
    run: true,
  },
  settings: {
    needs:
      'settings (settings-open, settings-dialog, settings-preset, settings-base-url, settings-model, settings-key, settings-test, settings-verdict, settings-save), transcript (turn-answer)',
    run: true,
  },
  images: {
    needs:
      'composer images (attach-pick, attach-input, attach-thumb, attach-remove), transcript (turn-image, image-lightbox), inspector (inspector-block[data-tag=IMAGE])',
    run: true,
  },
  'image-reasons': {
    needs: 'composer images (attach-input, attach-thumb[data-state], attach-reason) checked by the engine (CheckImages) before Send',
    run: true,
  },
  inspector: {
    needs: 'inspector (inspector-open per iteration, inspector, inspector-block[data-tag], inspector-close), transcript (iteration)',
    run: true,
  },
  goal: {
    needs:
      'goal panel (goal-panel, goal-status[data-status], goal-pause, goal-resume, goal-cancel, goal-clear, goal-objective-input, goal-budget-input, goal-set, goal-error), footer-goal, composer (/goal), transcript (turn[data-status=halted])',
    run: true,
  },
  'context-full': {
    needs:
      'transcript (turn[data-status], turn-answer, program-output), warning-banner, inspector (inspector-open, inspector, inspector-block, inspector-rebuilt, inspector-close)',
    run: true,
  },
  repl: {
    needs:
      'transcript (program-output), footer (footer-repls, footer-packs), REPL sidebar (repl-panel, repl-row[data-status], repl-logs, repl-log-view, repl-stop)',
    run: true,
  },
  'packs-badge': {
    needs: 'footer (footer-packs) following the packs event, transcript (error-card, turn[data-status])',
    run: true,
  },
  clojure: {
    needs:
      'Debian clojure + libnrepl-clojure (scripts/deps.sh test), transcript (program-output, turn-answer), footer (footer-repls, footer-packs), REPL sidebar (repl-panel, repl-row[data-status], repl-logs, repl-log-view)',
    run: true,
  },
  'live-figures': {
    needs:
      'footer (footer-tokens while a turn runs, footer-provider), program output (show-all), window resizes without app-error, composer-stop, command-result (/help as Markdown)',
    run: true,
  },
  'provider-errors': {
    needs: 'transcript (turn[data-status=error], error-card with the provider sentence, turn-retry), turn-request',
    run: true,
  },
  'search-lands-on-hit': {
    needs: 'sidebar search (session-search, search-hit .snippet mark), transcript (turn[data-turn][data-focused], turn-answer, jump-latest)',
    run: true,
  },
  'live-tool-output': {
    needs: 'transcript tool cards (tool-card[data-tool], tool-live while the tool runs), program-output',
    run: true,
  },
  'settings-one-model': {
    needs:
      'settings (settings-preset, settings-base-url, settings-test, settings-verdict, settings-load-models, settings-model, settings-model-option, settings-save), footer-provider',
    run: true,
  },
  'full-output': {
    needs:
      'program output (output-clipped marker, show-all, open-full-output), the full output view (full-output, full-output-text, full-output-size, full-output-close), the fake LLM request log',
    run: true,
  },
  fork: {
    needs: 'turn-edit and turn-fork on a settled message, session-item[aria-current] with data-session-id, composer-input holding the edited text, the fake LLM request log',
    run: true,
  },
  'sandbox-rerun': {
    needs:
      'program card (sandbox-refused, sandbox-rerun, sandbox-asked) for a shell write the OS sandbox refused, the approval turn (turn-request, program-output), settings-ask-on-refusal, the question card (sandbox-question, sandbox-question-command, sandbox-approve), footer-mode[data-mode]; needs Landlock',
    run: true,
  },
  'undo-turn': {
    needs:
      'turn card checkpoint (turn-changes, turn-diff-file[data-path][data-status] with .line.add, turn-undo, turn-undo-conflict-file, turn-undo-rest, turn-undone-by), the undo as a turn (turn-request "Undo turn 1")',
    run: true,
  },
  'user-extensions': {
    needs:
      'composer (slash-menu, slash-item) listing $VIS_HOME/prompts, transcript (turn-request showing the expanded prompt), settings (settings-mcp: mcp-add, mcp-name, mcp-command, mcp-test, mcp-verdict[data-ok], mcp-save, mcp-server[data-name], mcp-remove; user-prompt, user-skill), the test MCP server (E2E_MCPSERVER) returning an image: tool-image under its iteration, image-lightbox',
    run: true,
  },
  'review-in-place': {
    needs:
      'the turn diff’s turn-diff-revert-hunk, numbered turn-diff-line[data-line][data-side] opening turn-diff-comment-text / turn-diff-comment-add, turn-diff-send-comments (the composer’s Submit), the revert as a turn (turn-request), the fake LLM request log, the session’s Changes view (session-changes-button, session-changes-file[data-path][data-status] with -turns, -net, -open, -diff, -close; session-changes-turn showing its turn: turn[data-focused])',
    run: true,
  },
  'split-panes': {
    needs:
      'header (pane-split), panes (session-pane[data-session-id], pane-bar, pane-close) each with its own composer and transcript, sidebar (session-beside), the layout saved and restored (app.SaveLayout, Startup.layout)',
    run: true,
  },
}

/** The scenarios to run: E2E_SCENARIOS (comma list, or "all"), else those with run: true. */
export function selected(): Set<string> {
  const env = (process.env.E2E_SCENARIOS ?? '').trim()
  if (env === 'all') return new Set(Object.keys(SCENARIOS))
  if (env) {
    const names = env.split(',').map((s) => s.trim()).filter(Boolean)
    for (const n of names) if (!SCENARIOS[n]) throw new Error(`E2E_SCENARIOS: unknown scenario ${n}`)
    return new Set(names)
  }
  return new Set(Object.keys(SCENARIOS).filter((n) => SCENARIOS[n].run))
}

package langtools

// Model-facing pages of the eight verbs (seed 001 wording, adapted to the
// packs this build has). The first line is the apropos summary; doc(name)
// shows the signature line and all of it, then the options of every pack
// (verbDoc, generated from the declarations the facade validates with).

const docFormat = `Format through a pack: format_code(language, arg); omit language only for paths-based inference.
Source/{"code": ...} returns changed + delta (characters after minus before), never text.
{"paths": [...]} (always a list) recursively formats files/dirs in place and returns per-file
changes, never text. Nonblank code and nonblank path/paths targets are mutually exclusive;
conflicting selectors are rejected before any files change. Blank target selectors are ignored
for explicit snippets. Omit code/paths for the pack's default source paths, recursively. cwd
chooses the project directory (default the workspace root); env and args reach the formatter.
Keyword form works too: format_code(paths=["src"]), format_code("python", code="x=1").
Returns the same shape in every pack: {changed: bool, delta, chars, formatter} for code;
{changed: n, files: [{file, changed, delta}], checked, formatter} for paths (checked absent
when the formatter does not say; errors/message/error only when there are some).`

const docLint = `Lint through a pack: lint_code(language, arg); omit language only for file/workspace inference.
Source/{"code": ...} lints a snippet; {"paths": [...]} (always a list) lints disk. Omit code/paths
for defaults; env and args reach the linter. Returns findings (file, row, col, level, type,
message, provider) and severity counts.`

const docTest = `Run tests through a pack: run_tests(language, arg). NOTHING is required: omit arg to run every test.
language is inferred from the paths and the workspace. arg is a path string or a map: paths
(files, directories, or <path>::<test-name> node ids — the selector every language shares;
::<test-name> alone finds that test wherever it lives) selects. cwd chooses the project
directory and defaults to the WORKSPACE ROOT, which is where a relative paths entry resolves.
timeout_ms bounds the run and lets this program run that long, up to the configured ceiling
(a timeout_ms above it is cut, and the result's timeout_note says so). A run killed at its timeout
returns timed_out: True with the tests that had finished (counts and rows so far; a row whose
message the runner had not printed yet says so). List selectors stay lists, even one.
Examples: run_tests(), run_tests("tests/test_api.py"), run_tests("go", {"paths": ["./pkg/...::TestParse"]}),
run_tests(paths=["::test_login"]).
Returns {is_pass, total, pass, fail, errored, skipped, failures: [{test, type, message, file}],
target, ms, output, timed_out, runner}; a count the runner did not report is absent, never 0.`

const docEval = `Eval in an already-running project REPL: repl_eval(language, {code, cwd, id, timeout_ms}).
code is the one REQUIRED key; language may lead the call. Nothing else is required: cwd chooses
the project directory (default the workspace root), id/repl_id picks one of several REPLs, and
timeout_ms is this eval's budget (on overrun the evaluation is interrupted, the REPL stays; a long one
extends this program's time limit up to the configured ceiling, timeout_note says when it was cut).
Globals persist between calls; the last expression's value comes back.
Start a REPL first with repl_start(language). Examples: repl_eval("python", {"code": "sum(range(10))"}),
repl_eval(code="x = 1", id="pyrepl:~/proj").
Returns {ok, value, data, out, err, type, exc, ms, timed_out, repl}.`

const docStart = `Start a language REPL resource: repl_start(language, {cwd, id, env}).
NOTHING is required: language is inferred, while cwd chooses the project directory and defaults
to the WORKSPACE ROOT. id LABELS a second REPL in one project, and env (a dict of strings)
belongs to THIS REPL. A live REPL for the same project is reused (already-running). Attaching to
a process already running is repl_connect. There is no restart: repl_stop, then repl_start.
Returns {result: started|already-running|starting|failed|no-launcher, id, cwd, status, pid, cmd, log, message}.`

const docStatus = `Report REPL state: repl_status(language, {cwd}) — the pack's answer for that project PLUS
resources, every live REPL of this session whatever directory it runs in. Nothing is required;
the project directory defaults to the workspace root. A REPL id (repl_status("pyrepl:~/proj"))
answers for that one REPL alone: {id, status, resources}.`

const docStop = `Stop a REPL: repl_stop(id) with the exact id repl_start/repl_status answered with.
NOTHING is required: language is inferred and the project directory defaults to the WORKSPACE
ROOT, so a bare repl_stop() ends the inferred pack's REPL there, which is rarely the one you
meant. Returns {result: stopped|not-managed|detached, id, message}.`

const docConnect = `Attach to an external running REPL: repl_connect(language, {port|build, host?, cwd?}).
CLOJURE only — Vis owns the python and JavaScript runtimes and those packs refuse to attach.
port is REQUIRED unless build names a shadow-cljs build. host defaults to localhost, and cwd
chooses the project directory. Registers the attachment for eval, tests and context but never
owns or kills its process; stop only detaches.`

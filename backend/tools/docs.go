package tools

// The contracts the model reads with doc(name). First line: signature and
// one-line summary.

const docLs = `ls(path=".", depth=1) -> dict: list a directory of the workspace, skipping .gitignore'd entries.

Returns {"path": str, "entries": [{"name": str, "type": "file"|"dir"|"symlink", "size": int}], "truncated": bool}
plus "note": str when something was capped or unusual.
- path: relative to the workspace root (an absolute path inside the workspace also works). A file gives one entry.
- depth: 1 = direct children, 2 = also grandchildren, ... (capped at 10). With depth > 1, names are relative to path ("pkg/util.go"); a directory comes before its contents, names in byte order.
- Entries ignored by .gitignore and .git itself are left out; naming an ignored directory (ls("node_modules")) lists it anyway.
- At most 500 entries: then truncated is True; ls a subdirectory or use glob() to narrow.
Fails: path does not exist, or leads outside the workspace (.. or a symlink pointing out).
Example: for e in ls("src", depth=2)["entries"]: print(e["type"], e["name"])`

const docCat = `cat(path, start=1, end=None) -> dict: read numbered lines start..end (inclusive) of a text file.

Returns {"path": str, "start": int, "end": int, "total_lines": int, "remaining": int, "text": str}
plus "note": str when lines remain after end (it says how to continue) or the file is empty.
print(cat(...)) prints the text, then the note if there is one; the fields are the dict's.
- text holds one line per file line, formatted "%*d|%s": the line number (right-aligned to the width of the last one shown), "|", then the line exactly as in the file: "7|func main() {". The prefix is not part of the file: never copy it into patch(old=...).
- end=None reads to the end of the file, but one call shows at most 2000 lines; "remaining" counts the lines after end. Continue with cat(path, start=end+1).
- Lines longer than 2000 bytes are shown truncated with a marker.
- Remembers the file's content, so patch(path, start=, end=) may then edit by these line numbers.
Fails: missing file, a directory, a binary file (contains NUL bytes: use shell("file path")), a file over 10 MiB (use grep or shell("sed -n '1,100p' path")), start < 1, start past the last line, end < start.
Example: print(cat("src/main.go", 40, 80)); n = cat("go.mod")["total_lines"]`

const docGrep = `grep(pattern, path=".", glob=None, ignore_case=False, max_results=200) -> dict: search text files for a regular expression, line by line.

Returns {"matches": [{"path": str, "line": int, "text": str}], "count": int, "truncated": bool}
plus "skipped_large": [str] when files over 2 MiB were skipped.
- pattern: a Go RE2 regular expression matched against each line (no lookarounds or backreferences; escape literal ( ) [ ] . * + ? with a backslash, or use re.escape(text)).
- path: a directory (searched recursively) or one file, relative to the workspace root.
- glob: only search files matching it. Without "/" it matches the file name at any depth ("*.go"); with "/" the path from the workspace root ("src/**/*.ts").
- Files ignored by .gitignore, binary files (NUL bytes), symlinks and files over 2 MiB are skipped. Results come in path order, then line order.
- Matching lines are cut at 300 bytes. At most max_results (1..2000) matches: truncated is True when there were more; narrow the pattern, path or glob.
Fails: empty or invalid pattern (the message gives the regex error), bad glob, path missing or outside the workspace.
Example: for m in grep(r"func \w+Handler", glob="*.go")["matches"]: print(m["path"], m["line"], m["text"])`

const docGlob = `glob(pattern) -> list[str]: workspace paths (files and directories) matching a pattern, sorted, .gitignore respected.

- "*" and "?" match within one path segment, "[abc]" / "[!abc]" / "[a-z]" are character classes, a whole segment "**" matches any number of directories.
- Names starting with "." match too (unlike a shell): "*" includes ".gitignore".
- Patterns are relative to the workspace root and anchored there: "*.go" lists only top-level .go files; "**/*.go" lists them at any depth; "src/**" everything under src.
Returns a list of paths relative to the workspace root, with "/" separators; an empty list means nothing matched.
Fails: an invalid pattern, a pattern leading outside the workspace, more than 10000 matches (narrow it).
Example: tests = glob("**/*_test.go"); print(len(tests), tests[:5])`

const docWrite = `write(path, content) -> dict: create or overwrite a whole file with content, atomically.

Returns {"path": str, "bytes": int, "lines": int, "created": bool} (created is False when an existing file was replaced).
- Parent directories are created as needed. The file is written to a temporary file and renamed into place, so it is never seen half-written; an existing file keeps its permissions.
- Content is written exactly as given: end it with "\n" if the file should end with a newline.
- For a small change to an existing file prefer patch(); write replaces everything.
- Afterwards patch(path, start=, end=) may use line numbers of the content you wrote.
Fails: path outside the workspace, path is a directory or a symlink, disk errors.
Example: write("docs/notes.md", "# Notes\n\nFirst line.\n")`

const docPatch = `patch(path, old=None, new=None, start=None, end=None) -> dict: edit an existing text file, by unique snippet or by line range.

Two modes (new is required in both; new="" deletes):
1. patch(path, old="exact text", new="replacement"): old must occur exactly once in the file, byte for byte (indentation included, without cat's "12|" line-number prefixes). It may span several lines or part of a line.
2. patch(path, start=10, end=12, new="text"): replaces lines 10..12 (inclusive, numbered as cat shows them) with the lines of new. end=None means end=start. Insert before line N with start=N, end=N-1 (N = total_lines+1 appends).
   A line-range edit needs the file read with cat (or written with write/patch) in this session and unchanged since: otherwise it fails as STALE, because the line numbers may be wrong.
Returns {"path": str, "start": int, "end": int, "total_lines": int, "diff": str, "text": str}:
start..end are the lines the new text occupies now (end = start-1 when lines were only removed), diff is a unified diff of the change, text shows the patched region with fresh line numbers (cat format) so you can keep editing by line range without re-reading.
Fails:
- old not found: the message shows the nearest similar lines (or says the text matches only with different whitespace); copy the exact text from there.
- old found several times: the message lists the starting line of each occurrence; add surrounding lines to old, or use start/end.
- STALE: the file changed since you read it, or you never read it: cat it again and use the new line numbers (or use old=).
- missing file (create it with write), binary file, start/end out of range, both old and start given, no change.
Example: patch("app.py", old="    return a+b\n", new="    return a + b\n")`

const docShell = `shell(cmd, timeout=120) -> dict: run a bash command line in the workspace root and wait for it.

Returns {"exit_code": int, "output": str, "timed_out": bool, "duration_ms": int}.
- Runs bash -c cmd with stdin from /dev/null (nothing can prompt you) and the workspace root as the working directory; stdout and stderr are interleaved in output.
- A non-zero exit_code is a normal result, not an error: check it. A command killed by a signal reports 128+signal.
- timeout is in seconds (max 1800). On timeout (or cancellation) the command and all processes it started get SIGTERM, then SIGKILL; timed_out is True and output ends with a note.
- When the command exits, anything it left running in the background is killed: shell cannot start long-lived servers.
- Output over 64 KiB keeps the first and last 32 KiB with "[N bytes omitted]" between; filter noisy commands (| tail -50, grep) instead.
- PAGER and GIT_PAGER are "cat"; git never prompts for credentials.
- When the OS sandbox likely refused the command (a file outside what session["sandbox"] allows), the dict also has "sandbox_refused": "<mode> mode: <the refused line>". Do not retry it another way: say what you needed and why; the person can approve running the program again without the sandbox.
Fails: empty cmd, timeout <= 0 or > 1800.
Example: r = shell("go test ./... 2>&1 | tail -30"); print(r["exit_code"], r["output"])`

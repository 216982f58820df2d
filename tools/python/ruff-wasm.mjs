#!/usr/bin/env node
// ruff-wasm.mjs: the subset of ruff's command line the Python pack uses, run on
// ruff's own formatter and linter compiled to WebAssembly
// (@astral-sh/ruff-wasm-nodejs), for machines without a ruff binary.
//
//   node ruff-wasm.mjs format [--line-length N] [--config F] [--stdin-filename X] (FILE... | -)
//   node ruff-wasm.mjs check --output-format json [--exit-zero] [--no-cache]
//        [--select A,B] [--ignore C] [--line-length N] [--config F] [--stdin-filename X] (FILE... | -)
//   node ruff-wasm.mjs --version
//
// Configuration is found as ruff finds it: --config, else the nearest
// ruff.toml, .ruff.toml or pyproject.toml with [tool.ruff] from the current
// directory up. format rewrites files in place (stdin: prints the result);
// check prints ruff's JSON rows (code, message, filename, location). Exit
// codes follow ruff: 0 clean, 1 findings (unless --exit-zero), 2 error.
import fs from 'node:fs';
import path from 'node:path';
import { Workspace, PositionEncoding } from '@astral-sh/ruff-wasm-nodejs';
import { parse } from 'smol-toml';

function die(msg) {
  process.stderr.write(`ruff-wasm: ${msg}\n`);
  process.exit(2);
}

const argv = process.argv.slice(2);
if (argv[0] === '--version') {
  process.stdout.write(`ruff ${Workspace.version()} (wasm)\n`);
  process.exit(0);
}
const cmd = argv.shift();
if (cmd !== 'format' && cmd !== 'check') die(`unsupported command ${cmd}: only format and check`);
const opt = { files: [] };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const val = () => {
    if (i + 1 >= argv.length) die(`${a} needs a value`);
    return argv[++i];
  };
  switch (a) {
    case '--line-length': opt.lineLength = Number(val()); break;
    case '--config': opt.config = val(); break;
    case '--stdin-filename': opt.stdinName = val(); break;
    case '--select': opt.select = val().split(','); break;
    case '--ignore': opt.ignore = val().split(','); break;
    case '--output-format': if (val() !== 'json') die('only --output-format json'); break;
    case '--exit-zero': opt.exitZero = true; break;
    case '--no-cache': case '--quiet': case '-q': break;
    default:
      if (a.startsWith('-') && a !== '-') die(`unsupported option ${a}`);
      opt.files.push(a);
  }
}

function readConfig() {
  const load = (f) => {
    try {
      return parse(fs.readFileSync(f, 'utf8'));
    } catch (e) {
      die(`${f}: ${e.message}`);
    }
  };
  if (opt.config) {
    const t = load(opt.config);
    return path.basename(opt.config) === 'pyproject.toml' ? (t.tool?.ruff ?? {}) : t;
  }
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    for (const name of ['.ruff.toml', 'ruff.toml']) {
      const f = path.join(dir, name);
      if (fs.existsSync(f)) return load(f);
    }
    const py = path.join(dir, 'pyproject.toml');
    if (fs.existsSync(py)) {
      const t = load(py);
      if (t.tool?.ruff) return t.tool.ruff;
    }
    if (path.dirname(dir) === dir) return {};
  }
}

const settings = readConfig();
// Keys the wasm build does not take (file discovery and caching are ours).
for (const k of ['extend', 'cache-dir', 'exclude', 'extend-exclude', 'include', 'extend-include', 'force-exclude', 'respect-gitignore', 'src', 'namespace-packages', 'required-version', 'show-fixes', 'output-format', 'fix', 'unsafe-fixes']) delete settings[k];
if (opt.lineLength) settings['line-length'] = opt.lineLength;
if (opt.select || opt.ignore) {
  settings.lint = { ...(settings.lint ?? {}) };
  if (opt.select) settings.lint.select = opt.select;
  if (opt.ignore) settings.lint.ignore = [...(settings.lint.ignore ?? []), ...opt.ignore];
}
let ws;
try {
  ws = new Workspace(settings, PositionEncoding.Utf16);
} catch (e) {
  die(`invalid configuration: ${e.message ?? e}`);
}

const stdin = opt.files.length === 1 && opt.files[0] === '-';
const inputs = stdin ? [{ name: opt.stdinName ?? '-', text: fs.readFileSync(0, 'utf8') }]
  : opt.files.map((f) => ({ name: f, text: fs.readFileSync(f, 'utf8') }));

if (cmd === 'format') {
  let failed = false;
  for (const { name, text } of inputs) {
    let out;
    try {
      out = ws.format(text);
    } catch (e) {
      process.stderr.write(`error: Failed to format ${name}: ${e.message ?? e}\n`);
      failed = true;
      continue;
    }
    if (stdin) process.stdout.write(out);
    else if (out !== text) fs.writeFileSync(name, out);
  }
  process.exit(failed ? 2 : 0);
}

const rows = [];
for (const { name, text } of inputs) {
  for (const d of ws.check(text)) {
    rows.push({
      code: d.code, message: d.message, filename: path.resolve(name),
      location: d.start_location, end_location: d.end_location,
    });
  }
}
process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
process.exit(rows.length && !opt.exitZero ? 1 : 0);

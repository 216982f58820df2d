// Vis JavaScript REPL server (node or bun), on the line protocol of
// backend/packs/linerepl. One JSON request per stdin line, one JSON
// response per stdout line:
//   {"id": n, "code": "...", "timeout_ms": n} -> {id, ok, out, err, value, data, type, exc, timed_out}
//   {"id": n, "op": "ping"}                   -> {id, ok: true, pong: true}
// In data, a BigInt is written as a bare JSON integer (exact; Vis reads an
// integer literal as an integer), a number as JSON writes it.
// Top-level const/let/var/function/class/import are rewritten into global
// assignments so bindings persist across evaluations; the snippet runs as
// the body of an async function, so top-level await works; the value of a
// final expression statement comes back. Everything the program prints, at
// any time, is captured and returned with the next response. An evaluation
// that outlives timeout_ms is abandoned (it keeps running in the background
// if it ever resumes) and reported timed_out; a synchronous busy loop is
// interrupted by SIGINT (node's breakOnSigint).
// A request whose code starts with "\u0000vis:ts\u0000" (or vis:tsx) is
// TypeScript: its types are removed before the above, by the first of bun's
// transpiler, node's module.stripTypeScriptTypes (Node >= 22.13 / 23.2),
// the project's tsx (its esbuild), ts-node or typescript (transpileModule);
// with none of them code that parses as JavaScript runs as it is, and other
// code's answer names the Node version and what to install.
"use strict";
const vm = require("vm");
const util = require("util");
const readline = require("readline");
const fs = require("fs");
const path = require("path");
const Module = require("module");

const AsyncFunction = (async () => {}).constructor;
// BIG marks a BigInt's digits in data until reply() writes them bare; the
// random part keeps a program's own string from ever matching.
const BIG = "@vis-bigint-" + require("crypto").randomBytes(8).toString("hex") + ":";
const BIG_RE = new RegExp('"' + BIG + '(-?[0-9]+)"', "g");
const CAP = 200000;
const rawWrite = process.stdout.write.bind(process.stdout);
const outBuf = [];
const errBuf = [];
let outLen = 0;
let errLen = 0;
function capture(isErr, chunk) {
  const s = typeof chunk === "string" ? chunk : Buffer.isBuffer(chunk) ? chunk.toString("utf8") : String(chunk);
  if (isErr) {
    if (errLen < CAP) { errBuf.push(s); errLen += s.length; }
  } else if (outLen < CAP) { outBuf.push(s); outLen += s.length; }
}
function hijack(stream, isErr) {
  stream.write = (chunk, enc, cb) => {
    capture(isErr, chunk);
    const done = typeof enc === "function" ? enc : cb;
    if (typeof done === "function") done();
    return true;
  };
}
hijack(process.stdout, false);
hijack(process.stderr, true);
const fmt = (args) => util.format(...args) + "\n";
for (const m of ["log", "info", "debug"]) console[m] = (...a) => capture(false, fmt(a));
for (const m of ["warn", "error", "trace"]) console[m] = (...a) => capture(true, fmt(a));
function drain(isErr) {
  const buf = isErr ? errBuf : outBuf;
  const s = buf.join("").slice(0, CAP);
  buf.length = 0;
  if (isErr) errLen = 0; else outLen = 0;
  return s;
}
process.removeAllListeners("warning"); // experimental-API notices are not the program's output
process.on("warning", (w) => { if (w && w.name !== "ExperimentalWarning") capture(true, String(w.stack || w) + "\n"); });
process.on("SIGINT", () => {}); // a late interrupt must not kill the REPL
process.on("uncaughtException", (e) => capture(true, "Uncaught " + ((e && e.stack) || String(e)) + "\n"));
process.on("unhandledRejection", (e) => capture(true, "Unhandled rejection " + ((e && e.stack) || String(e)) + "\n"));

// ── values ──────────────────────────────────────────────────────────────
function repr(v) {
  try { return util.inspect(v, { depth: 4, maxArrayLength: 100, breakLength: 100 }).slice(0, 8000); }
  catch (e) { return "<uninspectable: " + String(e).slice(0, 200) + ">"; }
}
function typeName(v) {
  if (v === null) return "null";
  if (typeof v !== "object") return typeof v;
  return (v.constructor && v.constructor.name) || "Object";
}
function safe(v, depth) {
  if (depth > 6) return repr(v);
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case "boolean": case "string": return v;
    case "number": return Number.isFinite(v) ? v : String(v);
    case "bigint": return BIG + v.toString();
    case "function": case "symbol": return { __type__: typeName(v), __repr__: repr(v), __opaque__: true };
  }
  if (Array.isArray(v)) return v.slice(0, 1000).map((x) => safe(x, depth + 1));
  if (v instanceof Date) return { __type__: "Date", iso: isNaN(v) ? null : v.toISOString() };
  if (v instanceof Error) return { __type__: typeName(v), message: String(v.message), stack: String(v.stack || "").slice(0, 4000) };
  if (v instanceof Map) return { __type__: "Map", entries: [...v.entries()].slice(0, 1000).map(([k, x]) => [safe(k, depth + 1), safe(x, depth + 1)]) };
  if (v instanceof Set) return { __type__: "Set", values: [...v].slice(0, 1000).map((x) => safe(x, depth + 1)) };
  if (v instanceof Promise || ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return { __type__: typeName(v), __repr__: repr(v), __opaque__: true };
  const proto = Object.getPrototypeOf(v);
  const out = proto === Object.prototype || proto === null ? {} : { __type__: typeName(v) };
  for (const k of Object.keys(v).slice(0, 1000)) {
    try { out[k] = safe(v[k], depth + 1); } catch (e) { out[k] = "<threw: " + String(e).slice(0, 120) + ">"; }
  }
  return out;
}

// ── splitting a snippet into top-level statements ───────────────────────
const REGEX_AFTER_WORD = new Set(["return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield", "await", "instanceof"]);
function compiles(body) {
  try { new AsyncFunction(body); return true; } catch (_e) { return false; }
}
// continues reports whether text (the rest after a newline) continues the
// statement before it, the way JavaScript's semicolon insertion reads it.
function continues(rest) {
  const t = rest.replace(/^\s+/, "");
  if (t === "") return false;
  if (/^(\+\+|--)/.test(t)) return false;
  if (/^![^=]/.test(t)) return false;
  if (/^[([.,?:+\-*/%&|^<>=!`]/.test(t)) return true;
  return /^(else|catch|finally|in|instanceof|of)\b/.test(t);
}
function splitTop(src) {
  const stmts = [];
  const n = src.length;
  let start = 0, depth = 0, i = 0;
  const tmpl = []; // depths at which a template's ${ opened
  let inTmpl = false;
  let last = ""; // last significant token kind: "" | "op" | "val" | "word:<w>"
  const cut = (end) => {
    const s = src.slice(start, end);
    if (s.trim()) stmts.push(s);
    start = end;
  };
  const regexOK = () => last === "" || last === "op" || (last.startsWith("word:") && REGEX_AFTER_WORD.has(last.slice(5)));
  while (i < n) {
    const c = src[i], d = src[i + 1];
    if (inTmpl) {
      if (c === "\\") i += 2;
      else if (c === "`") { inTmpl = false; last = "val"; i++; }
      else if (c === "$" && d === "{") { tmpl.push(depth); depth++; inTmpl = false; last = "op"; i += 2; }
      else i++;
      continue;
    }
    if (c === "/" && d === "/") { const j = src.indexOf("\n", i); i = j < 0 ? n : j; continue; }
    if (c === "/" && d === "*") { const j = src.indexOf("*/", i + 2); i = j < 0 ? n : j + 2; continue; }
    if (c === '"' || c === "'") {
      i++;
      while (i < n && src[i] !== c && src[i] !== "\n") i += src[i] === "\\" ? 2 : 1;
      i++; last = "val"; continue;
    }
    if (c === "`") { inTmpl = true; i++; continue; }
    if (c === "/" && regexOK()) {
      i++;
      let cls = false;
      while (i < n && src[i] !== "\n") {
        if (src[i] === "\\") { i += 2; continue; }
        if (src[i] === "[") cls = true;
        else if (src[i] === "]") cls = false;
        else if (src[i] === "/" && !cls) break;
        i++;
      }
      i++;
      while (i < n && /[a-z]/i.test(src[i])) i++;
      last = "val"; continue;
    }
    if (/[A-Za-z_$0-9]/.test(c)) {
      let j = i;
      while (j < n && /[A-Za-z_$0-9]/.test(src[j])) j++;
      last = "word:" + src.slice(i, j);
      i = j; continue;
    }
    if (c === "(" || c === "[" || c === "{") { depth++; last = "op"; i++; continue; }
    if (c === ")" || c === "]") { depth--; last = "val"; i++; continue; }
    if (c === "}") {
      depth--;
      if (tmpl.length && depth === tmpl[tmpl.length - 1]) { tmpl.pop(); inTmpl = true; i++; continue; }
      last = "op"; i++; continue;
    }
    if (c === ";" && depth === 0) { i++; cut(i); last = ""; continue; }
    if (c === "\n" && depth === 0) {
      const cur = src.slice(start, i);
      if (cur.trim() && !continues(src.slice(i)) && compiles(rewrite(cur).code)) { cut(i); last = ""; }
      i++; continue;
    }
    if (!/\s/.test(c)) last = "op";
    i++;
  }
  cut(n);
  return stmts;
}

// ── rewriting declarations into global assignments ──────────────────────
function stripLead(s) {
  let t = s;
  for (;;) {
    const m = t.match(/^\s*(\/\/[^\n]*(\n|$)|\/\*[\s\S]*?\*\/)/);
    if (!m) return t.replace(/^\s+/, "");
    t = t.slice(m[0].length);
  }
}
function hasInitializer(s) {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
    else if (c === "=" && depth === 0 && s[i + 1] !== "=" && s[i + 1] !== ">" && !"=!<>".includes(s[i - 1])) return true;
  }
  return false;
}
function rewriteImport(body) {
  let m = body.match(/^import\s*["'](.+?)["']\s*;?\s*$/s);
  if (m) return "await import(" + JSON.stringify(m[1]) + ");";
  m = body.match(/^import\s+(.+?)\s+from\s*["'](.+?)["']\s*;?\s*$/s);
  if (!m) return body;
  const mod = "await import(" + JSON.stringify(m[2]) + ")";
  let clause = m[1].trim();
  const out = [];
  const dm = clause.match(/^([A-Za-z_$][\w$]*)\s*(,\s*)?/);
  if (dm && !clause.startsWith("{") && !clause.startsWith("*")) {
    out.push(dm[1] + " = ((m) => (m && m.default !== undefined ? m.default : m))(" + mod + ")");
    clause = clause.slice(dm[0].length).trim();
  }
  const ns = clause.match(/^\*\s*as\s+([A-Za-z_$][\w$]*)/);
  if (ns) out.push(ns[1] + " = " + mod);
  else if (clause.startsWith("{")) {
    const binds = clause.slice(1, clause.lastIndexOf("}")).split(",").map((x) => x.trim()).filter(Boolean)
      .map((x) => { const a = x.match(/^([\w$]+)\s+as\s+([\w$]+)$/); return a ? a[1] + ": " + a[2] : x; });
    // A CommonJS module whose exports Node cannot list statically (tsx's
    // TypeScript compiled to CommonJS, among others) has only a default
    // export: named bindings then read its module.exports, as bundlers do.
    if (binds.length) out.push("({ " + binds.join(", ") + " } = ((m) => (m && m.default != null && typeof m.default === \"object\" || typeof (m && m.default) === \"function\" ? new Proxy(m, { get: (t, k) => (k in t ? t[k] : t.default[k]) }) : m))(" + mod + "))");
  }
  return out.length ? out.join(";\n") + ";" : body;
}
// rewrite returns {code, kind}: kind "decl" (no value), "fn" (hoisted) or "stmt".
function rewrite(stmt) {
  let body = stripLead(stmt);
  if (body.startsWith("export default ")) body = "__default = " + body.slice(15);
  else if (body.startsWith("export ")) body = body.slice(7);
  if (/^import\s*[\w{*"'$]/.test(body)) return { code: rewriteImport(body), kind: "decl" };
  let m = body.match(/^(const|let|var)\s+/);
  if (m) {
    const rest = body.slice(m[0].length).replace(/;\s*$/, "");
    if (!hasInitializer(rest)) {
      return { code: rest.split(",").map((x) => x.trim()).filter(Boolean).map((x) => x + " = undefined").join(", ") + ";", kind: "decl" };
    }
    const c = rest.trimStart()[0];
    return { code: c === "{" || c === "[" ? "(" + rest + ");" : rest + ";", kind: "decl" };
  }
  if ((m = body.match(/^(async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/))) return { code: m[2] + " = " + body.replace(/;\s*$/, "") + ";", kind: "fn" };
  if ((m = body.match(/^class\s+([A-Za-z_$][\w$]*)/))) return { code: m[1] + " = " + body.replace(/;\s*$/, "") + ";", kind: "decl" };
  return { code: body, kind: "stmt" };
}

function compile(code) {
  const parts = splitTop(String(code)).map(rewrite);
  const fns = parts.filter((p) => p.kind === "fn").map((p) => p.code);
  const rest = parts.filter((p) => p.kind !== "fn");
  let hasValue = false;
  if (rest.length && rest[rest.length - 1].kind === "stmt") {
    const lastExpr = rest[rest.length - 1].code.replace(/;\s*$/, "");
    if (lastExpr.trim() && compiles("return (" + lastExpr + "\n)")) {
      rest[rest.length - 1] = { code: "return (" + lastExpr + "\n);", kind: "stmt" };
      hasValue = true;
    }
  }
  const body = fns.concat(rest.map((p) => p.code)).join("\n;\n");
  return { src: "(async () => {\n" + body + "\n})()", hasValue };
}

// ── TypeScript ──────────────────────────────────────────────────────────
const TS_RE = /^\u0000vis:(tsx?)\u0000/;
// findUp is the first dir/rel from the REPL's directory up to the root.
function findUp(rel) {
  for (let d = process.cwd(); ; d = path.dirname(d)) {
    const p = path.join(d, rel);
    if (fs.existsSync(p)) return p;
    if (path.dirname(d) === d) return null;
  }
}
let tsFound = null; // the transpiler once found; absence is probed again (the project may install one)
let tsxHooked = false;
let tsxReady = null; // tsx's ESM hooks registering (awaited before the code runs)
// tsxHooks registers the project's tsx as Node's module hooks (require and
// import), so TypeScript code can load the project's own .ts modules, as
// written in its sources (extensionless "./src/x" included). Without hooks
// (no tsx, or a Node without module.register) such imports fail as Node
// says, and the REPL's own code still runs.
function tsxHooks() {
  if (tsxHooked || typeof Bun !== "undefined") return;
  const tsx = findUp(path.join("node_modules", "tsx", "package.json"));
  if (!tsx) return;
  tsxHooked = true;
  const req = Module.createRequire(tsx);
  // An older tsx or Node: loading .ts fails as Node reports it.
  try { req("tsx/cjs/api").register(); } catch (_e) { /* see above */ }
  try {
    // tsx's CommonJS build of the ESM API cannot register from here; its ESM build can.
    const esm = require("url").pathToFileURL(req.resolve("tsx/esm/api").replace(/\.cjs$/, ".mjs")).href;
    tsxReady = import(esm).then((api) => api.register()).catch(() => {});
  } catch (_e) { /* see above */ }
}
function transpiler() {
  tsxHooks();
  if (tsFound) return tsFound;
  if (typeof Bun !== "undefined" && Bun.Transpiler) {
    return (tsFound = { name: "bun", run: (code, loader) => new Bun.Transpiler({ loader }).transformSync(code) });
  }
  if (typeof Module.stripTypeScriptTypes === "function") {
    return (tsFound = {
      name: "node " + process.version,
      run: (code) => {
        try { return Module.stripTypeScriptTypes(code, { mode: "strip" }); } catch (e) {
          if (e && e.code === "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX") return Module.stripTypeScriptTypes(code, { mode: "transform" }); // enums, namespaces
          throw e;
        }
      },
    });
  }
  const tsx = findUp(path.join("node_modules", "tsx", "package.json"));
  if (tsx) {
    const esbuild = Module.createRequire(tsx)("esbuild");
    return (tsFound = {
      name: "tsx (esbuild " + esbuild.version + ")",
      run: (code, loader) => {
        try {
          return esbuild.transformSync(code, { loader, target: "esnext", tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } } }).code;
        } catch (e) {
          if (!e || !Array.isArray(e.errors) || !e.errors.length) throw e;
          throw new SyntaxError(e.errors.map((x) => (x.location ? "line " + x.location.line + ":" + (x.location.column + 1) + ": " : "") + x.text).join("\n"));
        }
      },
    });
  }
  const tsnode = findUp(path.join("node_modules", "ts-node", "package.json"));
  const tspkg = tsnode ? null : findUp(path.join("node_modules", "typescript", "package.json"));
  if (tsnode || tspkg) {
    const ts = tsnode ? Module.createRequire(tsnode)("typescript") : require(path.dirname(tspkg));
    return (tsFound = {
      name: (tsnode ? "ts-node (typescript " : "typescript (") + ts.version + ")",
      run: (code, loader) => {
        const out = ts.transpileModule(code, {
          fileName: "repl." + loader, reportDiagnostics: true,
          compilerOptions: { target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true, jsx: ts.JsxEmit.React },
        });
        const diag = (out.diagnostics || []).find((d) => d.category === ts.DiagnosticCategory.Error);
        if (diag) {
          const at = diag.file && diag.start !== undefined ? diag.file.getLineAndCharacterOfPosition(diag.start) : null;
          throw new SyntaxError((at ? "line " + (at.line + 1) + ":" + (at.character + 1) + ": " : "") + ts.flattenDiagnosticMessageText(diag.messageText, "\n"));
        }
        return out.outputText;
      },
    });
  }
  throw new Error("TypeScript cannot run here: node " + process.version + " cannot strip types (module.stripTypeScriptTypes needs Node 22.13+ or 23.2+)"
    + " and the project has no tsx, ts-node or typescript in node_modules. Install one in the project (npm i -D tsx) or use Node 22.13 or newer;"
    + " plain JavaScript runs with repl_eval(\"javascript\", ...).");
}
// source is a request's code as JavaScript.
function source(code) {
  const m = TS_RE.exec(code);
  if (!m) return code;
  const body = code.slice(m[0].length);
  let t;
  try { t = transpiler(); } catch (e) {
    if (parses(body)) return body; // TypeScript without type syntax is JavaScript
    throw e;
  }
  return t.run(body, m[1]);
}
// parses reports whether every top-level statement of js is JavaScript as
// written (before the rewrite, which could read "const n: T = 1" as a label).
function parses(js) {
  try {
    return splitTop(js).every((st) => {
      const body = stripLead(st);
      return /^import\s*[\w{*"'$]/.test(body) ? compiles(rewrite(st).code) : compiles(body.replace(/^export\s+(default\s+)?/, ""));
    });
  } catch (_e) { return false; }
}

const scriptOpts = { filename: "repl", breakOnSigint: true };
if (vm.constants && vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER) scriptOpts.importModuleDynamically = vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER;

async function run(code, timeoutMs) {
  let ok = true, exc = null, value, hasValue = false, timedOut = false;
  try {
    const js = source(code);
    if (tsxReady) await tsxReady;
    const c = compile(js);
    hasValue = c.hasValue;
    const p = vm.runInThisContext(c.src, scriptOpts);
    let timer;
    const limit = new Promise((resolve) => { timer = setTimeout(() => resolve(LIMIT), timeoutMs > 0 ? timeoutMs : 30000); });
    value = await Promise.race([p, limit]);
    clearTimeout(timer);
    if (value === LIMIT) {
      timedOut = true;
      ok = false;
      value = undefined;
      exc = "timed out after " + timeoutMs + " ms; the evaluation was abandoned (REPL state kept)";
      p.catch(() => {});
    }
  } catch (e) {
    ok = false;
    exc = cleanStack(e && e.stack ? String(e.stack) : String(e));
    if (/interrupted by .?SIGINT/.test(exc)) { timedOut = true; exc = "timed out: the evaluation was interrupted (REPL state kept)"; }
  }
  const has = ok && hasValue && value !== undefined;
  if (has) globalThis._ = value;
  let data = null;
  if (has) { try { data = safe(value, 0); } catch (_e) { data = null; } }
  return { ok, out: drain(false), err: drain(true), value: has ? repr(value) : null, data, type: has ? typeName(value) : null, exc, timed_out: timedOut };
}
const LIMIT = Symbol("limit");
// cleanStack drops the server's own frames from a stack trace.
function cleanStack(s) {
  const lines = s.split("\n");
  const i = lines.findIndex((l) => /^\s+at /.test(l) && /node:vm|sigintHandlersWrap|\[eval\]|repl_server/.test(l));
  return (i < 0 ? lines : lines.slice(0, i)).join("\n");
}

function reply(obj) {
  let line;
  try { line = JSON.stringify(obj); } catch (e) { line = JSON.stringify({ id: obj.id, ok: false, exc: "unserializable response: " + String(e) }); }
  rawWrite(line.replace(BIG_RE, "$1") + "\n");
}

const queue = [];
let busy = false;
async function pump() {
  if (busy) return;
  busy = true;
  while (queue.length) {
    const line = queue.shift();
    let req;
    try { req = JSON.parse(line); } catch (_e) { reply({ ok: false, exc: "bad request: not JSON" }); continue; }
    if (req && req.op === "ping") { reply({ id: req.id, ok: true, pong: true }); continue; }
    const res = await run((req && req.code) || "", Number(req && req.timeout_ms) || 30000);
    res.id = req.id;
    reply(res);
  }
  busy = false;
  if (closed) process.exit(0);
}
let closed = false;
const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", (line) => { if (line.trim()) { queue.push(line); pump(); } });
rl.on("close", () => { closed = true; if (!busy) process.exit(0); });

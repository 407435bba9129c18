// The oracle of tests/yaml_differential.rs: how opencode 1.18.34 reads a Markdown agent file.
//
// Input (stdin): JSON lines `{"id": string, "text": string}`.
// Output (stdout): one JSON line per input line, in order:
//   {"id", "outcome", "data", "content", "matter", "yaml"}
// - outcome: "none" (no frontmatter), "empty" (gray-matter found an empty or comment-only
//   frontmatter and did not call js-yaml), "parsed", "rescued" (the first parse threw, the
//   sanitizer's rewrite parsed), "bare" (the first parse threw, the sanitizer changed nothing and
//   gray-matter's cache handed back data {} and the whole file as content), "skipped" (the second
//   parse threw: opencode skips the file).
// - data, content: what opencode's loader receives (data null when skipped).
// - matter: the frontmatter text gray-matter hands to its YAML engine, or null when it would not
//   call js-yaml (no frontmatter, or a language line that names another engine).
// - yaml: js-yaml 3 `safeLoad(matter)` on its own: {"ok": value} or {"error": message}; null
//   when matter is null.
// - sanitized: when the first parse threw and the sanitizer changed the text, the same two
//   fields for the sanitized text: {"matter", "yaml"}.
// Values are plain JSON except: a Date is {"$date": ISO string or "Invalid Date"}, a Buffer
// (`!!binary`) is {"$binary": base64}, a reference to an enclosing collection (a recursive alias)
// is {"$cycle": true}; NaN and infinities become null (as JSON.stringify does).
//
// The logic is opencode's own (extracted from the 1.18.34 binary):
//   function parse(q){ try { return matter(q) } catch { return matter(sanitize(q)) } }
// with gray-matter's default export called without options, so its cache is used. The cache is
// cleared before each case so that cases do not leak into each other.

import { createRequire } from "node:module";
import { createInterface } from "node:readline";

const require = createRequire(import.meta.url);
const matter = require("gray-matter");
const yaml = require("js-yaml");

// opencode 1.18.34, verbatim apart from formatting.
function sanitize(q) {
  let J = q.match(/^---\r?\n([\s\S]*?)\r?\n---/);
  if (!J) return q;
  let Z = J[1],
    V = Z.split(/\r?\n/).flatMap(($) => {
      if ($.trim().startsWith("#") || $.trim() === "" || /^\s+/.test($)) return [$];
      let Y = $.match(/^([a-zA-Z_][a-zA-Z0-9_]*)\s*:\s*(.*)$/);
      if (!Y) return [$];
      let z = Y[2].trim();
      if (z === "" || z === ">" || z === "|" || z.startsWith('"') || z.startsWith("'")) return [$];
      if (!z.includes(":")) return [$];
      return [`${Y[1]}: |-`, `  ${z}`];
    });
  return q.replace(Z, () => V.join(`\n`));
}

function stripBom(s) {
  return s.charAt(0) === "\ufeff" ? s.slice(1) : s;
}

// gray-matter 4.0.3's parseMatter up to the engine call: the frontmatter text and its language.
function extract(input) {
  let str = stripBom(input);
  if (input === "" || !str.startsWith("---") || str.charAt(3) === "-") return null;
  str = str.slice(3);
  const len = str.length;
  const raw = str.slice(0, str.search(/\r?\n/));
  const language = raw ? raw.trim() : "";
  if (language) str = str.slice(raw.length);
  let close = str.indexOf("\n---");
  if (close === -1) close = len;
  return { language, matter: str.slice(0, close) };
}

function plain(v, depth = 0, path = []) {
  if (depth > 200) throw new RangeError("too deep to convert");
  // js-yaml registers a collection's anchor before reading it, so `&a [*a]` is a cycle.
  if (v !== null && typeof v === "object" && path.includes(v)) return { $cycle: true };
  if (v === null || v === undefined) return null;
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  // A lone surrogate (`"\uD800"`) cannot go into JSON that Rust reads: U+FFFD instead.
  if (typeof v === "string") return v.toWellFormed();
  if (typeof v === "boolean") return v;
  if (v instanceof Date) return { $date: isNaN(v.getTime()) ? "Invalid Date" : v.toISOString() };
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return { $binary: Buffer.from(v).toString("base64") };
  if (Array.isArray(v)) return v.map((x) => plain(x, depth + 1, [...path, v]));
  if (typeof v === "object") {
    const out = {};
    for (const k of Object.keys(v)) {
      // defineProperty: a `__proto__` key must stay an own key.
      Object.defineProperty(out, k.toWellFormed(), { value: plain(v[k], depth + 1, [...path, v]), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return String(v);
}

function message(e) {
  return e && e.message ? String(e.message).split("\n")[0] : String(e);
}

function opencode(text) {
  matter.clearCache();
  const ex = extract(text);
  try {
    const file = matter(text);
    let outcome = "parsed";
    if (!ex) outcome = "none";
    else if (file.isEmpty) outcome = "empty";
    return { outcome, data: file.data, content: file.content };
  } catch (first) {
    const again = sanitize(text);
    try {
      const file = matter(again);
      // The same (BOM-stripped) string hits gray-matter's cache: the file object of the failed
      // call, with data {} and the whole input as content.
      const outcome = stripBom(again) === stripBom(text) ? "bare" : "rescued";
      return { outcome, data: file.data, content: file.content, error: message(first) };
    } catch (second) {
      return { outcome: "skipped", data: null, content: null, error: message(second) };
    }
  }
}

function yamlOnly(text) {
  const ex = extract(text);
  if (!ex) return { matter: null, yaml: null };
  const lang = ex.language.toLowerCase();
  if (lang !== "" && lang !== "yaml" && lang !== "yml") return { matter: null, yaml: null };
  try {
    return { matter: plain(ex.matter), yaml: { ok: plain(yaml.safeLoad(ex.matter)) } };
  } catch (e) {
    return { matter: plain(ex.matter), yaml: { error: plain(message(e)) } };
  }
}

function run(line) {
  const { id, text } = JSON.parse(line);
  let out;
  try {
    const r = opencode(text);
    out = { id, outcome: r.outcome, data: plain(r.data), content: plain(r.content) };
    if (r.error) out.error = plain(r.error);
  } catch (e) {
    out = { id, outcome: "crash", error: message(e) };
  }
  try {
    Object.assign(out, yamlOnly(text));
    const again = sanitize(text);
    if (out.outcome !== "parsed" && out.outcome !== "none" && out.outcome !== "empty" && again !== text) {
      out.sanitized = yamlOnly(again);
    }
  } catch (e) {
    out.matter = null;
    out.yaml = { error: "oracle: " + message(e) };
  }
  return JSON.stringify(out);
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
for await (const line of rl) {
  if (line.trim() === "") continue;
  process.stdout.write(run(line) + "\n");
}

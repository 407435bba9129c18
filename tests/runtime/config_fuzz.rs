//! A differential fuzzer of `opencode.json`: generated configurations, each judged by the released
//! opencode 1.18.34 and by agent-lsp, case by case.
//!
//! **The generator** reads the JSON Schema of the release's config
//! (`../shared/spec/opencode-config.schema.json`) at run time and, from a seed, writes valid
//! configurations (random subsets of properties, required keys present, `anyOf` branches, enums,
//! integer bounds, records of 0–3 keys, arrays, tuples, `provider/model` strings) and
//! configurations with exactly one mutation each: a wrong type, a number out of range, an unknown
//! key (often a near-miss of a real one), a bad enum value, a missing required key, or a key of
//! another branch of a union. Case `i` of seed `s` is the same whatever the number of cases; the
//! target section of case `i` goes round the top-level keys of the schema (plus `<top>`, unknown
//! top-level keys). Each case is written pretty-printed, one key per line.
//!
//! **The runner** starts `opencode serve --pure` (127.0.0.1, an empty home; a fresh server per
//! batch of cases) and asks `GET /config?directory=D` for a copy of each case, each in its own git
//! repository (opencode writes a `$schema` line into a config it reads). When the config decodes
//! and defines or changes agents (or skills), it also asks `GET /agent`: opencode decodes some
//! configs whose agents it then cannot build (an agent `name` that is not a string, a
//! `skills.urls` entry that is not a URL), and nothing starts then either. agent-lsp analyses the
//! originals through the library's `Workspace`.
//!
//! **The verdict**, case by case (what the analysis must meet):
//!
//! - (a) opencode refuses the config ⇔ agent-lsp reports a `refuses-to-start` diagnostic in it;
//! - (b) when refused with issues: the first issue's path, cut to the deepest node of the input on
//!   it (for a missing key, its object): a `refuses-to-start` diagnostic lies within that node's
//!   entry (its key through the end of its value) or starts on its key's line;
//! - (c) when accepted: every key of the input absent from the decoded config (walked together,
//!   arrays element by element, or by equal elements when opencode removed some) was dropped, and
//!   agent-lsp reports a warning or an error within its entry; the subtrees opencode transforms
//!   rather than drops (`agent`, `mode`, `agents`, `permission`, `tools`, and the inside of any
//!   top-level key not in the schema) are not walked;
//! - (d) when accepted: no `unknown-key` diagnostic on a key opencode kept (outside those subtrees).
//!
//! The test prints a table per section and kind, the disagreements grouped by kind and path shape,
//! the first ones in full, and fails on any that `ALLOWED` does not list.
//!
//! Sizes: `CONFIG_FUZZ_CASES` (default 300), `CONFIG_FUZZ_SEED` (default 1), `CONFIG_FUZZ_JOBS`
//! (concurrent requests to opencode, default 2), `CONFIG_FUZZ_BATCH` (cases per opencode server,
//! default 500). `CONFIG_FUZZ_ONLY=3,17` runs just those cases of the seed; `CONFIG_FUZZ_SHOW=N`
//! prints N disagreeing cases in full (default 30). `scripts/config-fuzz.sh [CASES] [SEED]` runs a
//! larger batch.
//!
//! **Recorded verdicts.** The default run (seed 1, 300 cases: CI's) records opencode's answers in
//! `tests/verdicts/opencode-config.jsonl` (header `seed`; per case: `id`, the case number; `h`,
//! the hash of the case's text; and what the verdict reads of the answer, see `Answer::record`:
//! the stage and error of a refusal with its issues, or the decoded config cut to the input's
//! keys). The live test judges every case from its record, so the record holds all the verdict
//! needs; with `RECORD_VERDICTS=1` it writes the file, else it fails when opencode's answers
//! differ from it. The replay, `config_fuzz_agrees_with_the_recorded_opencode_verdicts` (plain
//! `cargo test`, no opencode), generates each recorded case again from the seed and its number,
//! requires it to hash as recorded, has agent-lsp analyse it as the live test does, and judges it
//! against the record with the same `judge` and `ALLOWED`. Other sizes and seeds
//! (`scripts/config-fuzz.sh`) neither write nor compare the recording.
//!
//! `CONFIG_FUZZ_RECORD=<file>` (for looking at a run, not replayed) writes one JSON line per case, in case order, with sorted keys and no
//! temporary path: `seed`, `case`, `kind`, `section`, `site` and `mutation` (what the generator
//! did), `config` (the input; its text is `serde_json::to_string_pretty` of it plus a newline),
//! `refused`, `stage` (`config` or `agents` when refused), `error` (the error's name), `issues`
//! (`path` and `message` of each, as opencode gives them), `data` (an error's data when it has no
//! issues) and `output` (the decoded config, when it decoded).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use agent_lsp::analysis::{Effect, Severity};
use agent_lsp::workspace::{Options, Workspace};
use serde_json::{Map, Value, json};

use crate::oracle::{Home, Server};
use crate::verdict_support::{Recording, hash, require_same_input};

/// Disagreements that are the runtime's own inconsistency: (kind, shape prefix, reason). Empty:
/// every disagreement so far is agent-lsp's to fix.
const ALLOWED: &[(&str, &str, &str)] = &[];

/// Top-level keys whose value opencode transforms (lowers agents, turns `tools` into permission
/// rules) rather than drops: (c) and (d) do not walk them.
const TRANSFORMED: &[&str] = &["agent", "mode", "agents", "permission", "tools"];

/// The pseudo-section of unknown top-level keys.
const TOP: &str = "<top>";

// ---------------------------------------------------------------------------------------------
// A small deterministic PRNG (splitmix64)

#[derive(Clone)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// In `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }

    fn shuffle<T>(&mut self, xs: &mut [T]) {
        for i in (1..xs.len()).rev() {
            xs.swap(i, self.below(i + 1));
        }
    }
}

/// The generator of case `index`: independent of how many cases run.
fn case_rng(seed: u64, index: usize) -> Rng {
    let mut r = Rng(seed ^ (index as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03));
    r.next();
    r
}

// ---------------------------------------------------------------------------------------------
// Paths in a JSON value

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Seg {
    Key(String),
    Index(usize),
}

fn show(path: &[Seg]) -> String {
    if path.is_empty() {
        return "(root)".into();
    }
    path.iter()
        .map(|s| match s {
            Seg::Key(k) => k.clone(),
            Seg::Index(i) => i.to_string(),
        })
        .collect::<Vec<_>>()
        .join(".")
}

fn at<'v>(v: &'v Value, path: &[Seg]) -> Option<&'v Value> {
    path.iter().try_fold(v, |v, s| match s {
        Seg::Key(k) => v.as_object()?.get(k),
        Seg::Index(i) => v.as_array()?.get(*i),
    })
}

fn at_mut<'v>(v: &'v mut Value, path: &[Seg]) -> Option<&'v mut Value> {
    path.iter().try_fold(v, |v, s| match s {
        Seg::Key(k) => v.as_object_mut()?.get_mut(k),
        Seg::Index(i) => v.as_array_mut()?.get_mut(*i),
    })
}

fn section_of(path: &[Seg], schema: &Schema) -> String {
    match path.first() {
        Some(Seg::Key(k)) if schema.root_props().contains_key(k) => k.clone(),
        Some(_) => TOP.into(),
        None => "(root)".into(),
    }
}

// ---------------------------------------------------------------------------------------------
// The schema

struct Schema {
    doc: Value,
}

enum Extra<'a> {
    /// `additionalProperties: false`: a plain struct (opencode drops unknown keys).
    Closed,
    /// No `additionalProperties`: any key with any value (a struct with rest, or a bare object).
    Open,
    /// `additionalProperties: <schema>`: a record.
    Record(&'a Value),
}

fn extra(b: &Value) -> Extra<'_> {
    match b.get("additionalProperties") {
        None | Some(Value::Bool(true)) => Extra::Open,
        Some(Value::Bool(false)) => Extra::Closed,
        Some(s) => Extra::Record(s),
    }
}

fn props(b: &Value) -> Vec<(&String, &Value)> {
    b.get("properties")
        .and_then(Value::as_object)
        .map(|m| m.iter().collect())
        .unwrap_or_default()
}

fn required(b: &Value) -> Vec<&str> {
    b.get("required")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn ty(b: &Value) -> Option<&str> {
    b.get("type").and_then(Value::as_str)
}

fn is_object(b: &Value) -> bool {
    ty(b) == Some("object")
}

fn is_integer(v: &Value) -> bool {
    v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0)
}

fn is_hex_color(s: &str) -> bool {
    s.len() == 7 && s.starts_with('#') && s[1..].chars().all(|c| c.is_ascii_hexdigit())
}

impl Schema {
    fn load() -> Schema {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/spec/opencode-config.schema.json");
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
        Schema {
            doc: serde_json::from_str(&text).expect("the config schema is JSON"),
        }
    }

    fn root(&self) -> &Value {
        self.deref(&self.doc)
    }

    fn root_props(&self) -> &Map<String, Value> {
        self.root()["properties"].as_object().expect("Config has properties")
    }

    /// Follow `#/$defs/...` references (a models.dev reference stays: it is a model string).
    fn deref<'a>(&'a self, mut s: &'a Value) -> &'a Value {
        while let Some(name) = s
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/$defs/"))
        {
            s = &self.doc["$defs"][name];
        }
        s
    }

    fn is_model(s: &Value) -> bool {
        s.get("$ref")
            .and_then(Value::as_str)
            .is_some_and(|r| r.contains("models.dev"))
    }

    /// The alternatives of a schema, nested `anyOf`s flattened.
    fn branches<'a>(&'a self, s: &'a Value) -> Vec<&'a Value> {
        let s = self.deref(s);
        match s.get("anyOf").and_then(Value::as_array) {
            Some(alts) => alts.iter().flat_map(|a| self.branches(a)).collect(),
            None => vec![s],
        }
    }

    /// Whether `v` satisfies `s` (JSON Schema semantics for the keywords this schema uses).
    fn valid(&self, s: &Value, v: &Value) -> bool {
        let s = self.deref(s);
        if Schema::is_model(s) {
            return v.is_string();
        }
        if let Some(alts) = s.get("anyOf").and_then(Value::as_array) {
            return alts.iter().any(|a| self.valid(a, v));
        }
        if let Some(e) = s.get("enum").and_then(Value::as_array)
            && !e.contains(v)
        {
            return false;
        }
        let bounds = |x: f64| {
            s.get("minimum").and_then(Value::as_f64).is_none_or(|m| x >= m)
                && s.get("exclusiveMinimum").and_then(Value::as_f64).is_none_or(|m| x > m)
                && s.get("maximum").and_then(Value::as_f64).is_none_or(|m| x <= m)
        };
        match ty(s) {
            Some("string") => v
                .as_str()
                .is_some_and(|t| s.get("pattern").is_none() || is_hex_color(t)),
            Some("boolean") => v.is_boolean(),
            Some("integer") => is_integer(v) && v.as_f64().is_some_and(bounds),
            Some("number") => v.as_f64().is_some_and(bounds),
            Some("array") => {
                let Some(a) = v.as_array() else { return false };
                let n = a.len() as u64;
                if s.get("minItems").and_then(Value::as_u64).is_some_and(|m| n < m)
                    || s.get("maxItems").and_then(Value::as_u64).is_some_and(|m| n > m)
                {
                    return false;
                }
                let prefix = s.get("prefixItems").and_then(Value::as_array);
                a.iter().enumerate().all(
                    |(i, x)| match prefix.and_then(|p| p.get(i)).or_else(|| s.get("items")) {
                        Some(item) => self.valid(item, x),
                        None => true,
                    },
                )
            }
            Some("object") => {
                let Some(o) = v.as_object() else { return false };
                required(s).iter().all(|r| o.contains_key(*r))
                    && o.iter().all(|(k, x)| match s.get("properties").and_then(|p| p.get(k)) {
                        Some(ps) => self.valid(ps, x),
                        None => match extra(s) {
                            Extra::Closed => false,
                            Extra::Open => true,
                            Extra::Record(rs) => self.valid(rs, x),
                        },
                    })
            }
            _ => true,
        }
    }

    /// Every property name of every object of the schema, with its (first) schema.
    fn all_props(&self) -> BTreeMap<String, &Value> {
        let mut out = BTreeMap::new();
        fn walk<'a>(v: &'a Value, out: &mut BTreeMap<String, &'a Value>) {
            match v {
                Value::Object(m) => {
                    if let Some(Value::Object(p)) = m.get("properties") {
                        for (k, s) in p {
                            out.entry(k.clone()).or_insert(s);
                        }
                    }
                    m.values().for_each(|x| walk(x, out));
                }
                Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
                _ => {}
            }
        }
        walk(&self.doc, &mut out);
        out
    }

    /// Every string of every enum of the schema.
    fn all_enum_strings(&self) -> Vec<String> {
        let mut out = BTreeSet::new();
        fn walk(v: &Value, out: &mut BTreeSet<String>) {
            match v {
                Value::Object(m) => {
                    if let Some(Value::Array(e)) = m.get("enum") {
                        out.extend(e.iter().filter_map(Value::as_str).map(str::to_string));
                    }
                    m.values().for_each(|x| walk(x, out));
                }
                Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
                _ => {}
            }
        }
        walk(&self.doc, &mut out);
        out.into_iter().collect()
    }

    /// How much there is inside a schema: properties, branches, records and tuple items.
    fn complexity(&self, s: &Value, depth: usize) -> usize {
        let s = self.deref(s);
        if depth > 8 {
            return 0;
        }
        let mut n = 0;
        if let Some(alts) = s.get("anyOf").and_then(Value::as_array) {
            n += alts.iter().map(|a| 1 + self.complexity(a, depth + 1)).sum::<usize>();
        }
        n += props(s)
            .iter()
            .map(|(_, p)| 1 + self.complexity(p, depth + 1))
            .sum::<usize>();
        if let Extra::Record(r) = extra(s) {
            n += 1 + self.complexity(r, depth + 1);
        }
        if let Some(item) = s.get("items") {
            n += self.complexity(item, depth + 1);
        }
        if let Some(p) = s.get("prefixItems").and_then(Value::as_array) {
            n += p.iter().map(|x| 1 + self.complexity(x, depth + 1)).sum::<usize>();
        }
        n
    }

    /// A path with its record keys written `*`, array indices `#`, and keys the schema does not
    /// know `<unknown>` (for grouping disagreements).
    fn shape(&self, path: &[Seg]) -> String {
        let mut cur: Vec<&Value> = vec![self.root()];
        let mut parts: Vec<String> = Vec::new();
        for seg in path {
            let bs: Vec<&Value> = cur.iter().flat_map(|s| self.branches(s)).collect();
            let mut next = Vec::new();
            match seg {
                Seg::Index(i) => {
                    parts.push("#".into());
                    for b in bs.iter().filter(|b| ty(b) == Some("array")) {
                        let item = b.get("prefixItems").and_then(|p| p.get(*i)).or_else(|| b.get("items"));
                        next.extend(item);
                    }
                }
                Seg::Key(k) => {
                    let objects: Vec<&Value> = bs.into_iter().filter(|b| is_object(b)).collect();
                    let named: Vec<&Value> = objects.iter().filter_map(|b| b["properties"].get(k)).collect();
                    if !named.is_empty() {
                        parts.push(k.clone());
                        next = named;
                    } else if let Some(rs) = objects.iter().find_map(|b| match extra(b) {
                        Extra::Record(rs) => Some(rs),
                        _ => None,
                    }) {
                        parts.push("*".into());
                        next.push(rs);
                    } else if objects
                        .iter()
                        .any(|b| props(b).is_empty() && matches!(extra(b), Extra::Open))
                    {
                        parts.push("*".into());
                    } else if cur.is_empty() {
                        parts.push("…".into());
                    } else {
                        parts.push("<unknown>".into());
                    }
                }
            }
            cur = next;
        }
        if parts.is_empty() {
            "(root)".into()
        } else {
            parts.join(".")
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The generator

const WORDS: &[&str] = &[
    "alpha", "beta", "gamma", "delta", "main", "docs", "review", "local", "x1", "y2",
];
const RECORD_KEYS: &[&str] = &[
    "alpha",
    "beta",
    "gamma",
    "typescript",
    "rust",
    "gopls",
    "prettier",
    "anthropic",
    "openai",
    "review",
    "docs",
    "my-tool",
];
const EXTRA_KEYS: &[&str] = &[
    "args",
    "version",
    "priority",
    "extra",
    "note",
    "foo",
    "name",
    "enable",
    "timeoutMs",
    "comment",
];

/// Where a value was generated, and from which schema (before and after choosing a branch).
struct Site<'s> {
    path: Vec<Seg>,
    full: &'s Value,
    branch: &'s Value,
}

struct Gen<'s> {
    schema: &'s Schema,
    rng: Rng,
    sites: Vec<Site<'s>>,
}

impl<'s> Gen<'s> {
    fn word(&mut self) -> String {
        (*self.rng.pick(WORDS)).to_string()
    }

    fn scalar(&mut self) -> Value {
        match self.rng.below(4) {
            0 => json!(self.word()),
            1 => json!(self.rng.below(100)),
            2 => json!(self.rng.chance(50)),
            _ => json!(0.5),
        }
    }

    fn model(&mut self) -> String {
        let p = self.rng.pick(&["anthropic", "openai", "p1"]);
        let m = self.rng.pick(&["claude-x", "gpt-y", "m1"]);
        format!("{p}/{m}")
    }

    /// A string for a key (an array's items take the array's key): URLs where URLs go. Skill
    /// URLs are fetched when opencode builds the agents, so they point at no file (no network),
    /// and one in five is a bare word (which opencode cannot build the agents with).
    fn string_for(&mut self, key: Option<&str>) -> String {
        match key {
            Some("urls") if self.rng.chance(80) => format!("file:///nonexistent/{}", self.word()),
            Some(k) if k != "urls" && (k.to_ascii_lowercase().contains("url") || k == "redirectUri") => {
                format!("https://example.invalid/{}", self.word())
            }
            _ => self.word(),
        }
    }

    fn integer(&mut self, b: &Value) -> Value {
        let lo = match (b.get("exclusiveMinimum"), b.get("minimum")) {
            (Some(x), _) => x.as_i64().unwrap_or(0) + 1,
            (None, Some(x)) => x.as_i64().unwrap_or(0),
            _ => 0,
        };
        let hi = b.get("maximum").and_then(Value::as_i64).unwrap_or(lo + 10_000);
        match self.rng.below(10) {
            0..=2 => json!(lo),
            3 => json!(hi),
            _ => json!(lo + self.rng.below((hi - lo).min(5000) as usize + 1) as i64),
        }
    }

    /// A value of `s`, recording the site.
    fn value(&mut self, s: &'s Value, path: &mut Vec<Seg>) -> Value {
        let bs = self.schema.branches(s);
        let b = *self.rng.pick(&bs);
        self.sites.push(Site {
            path: path.clone(),
            full: s,
            branch: b,
        });
        self.leaf(b, path)
    }

    fn leaf(&mut self, b: &'s Value, path: &mut Vec<Seg>) -> Value {
        if Schema::is_model(b) {
            return json!(self.model());
        }
        if let Some(e) = b.get("enum").and_then(Value::as_array) {
            return self.rng.pick(e).clone();
        }
        let key = path.iter().rev().find_map(|s| match s {
            Seg::Key(k) => Some(k.clone()),
            Seg::Index(_) => None,
        });
        match ty(b) {
            Some("string") if b.get("pattern").is_some() => {
                let n = self.rng.next() & 0xFF_FFFF;
                if self.rng.chance(50) {
                    json!(format!("#{n:06X}"))
                } else {
                    json!(format!("#{n:06x}"))
                }
            }
            Some("string") => json!(self.string_for(key.as_deref())),
            Some("integer") => self.integer(b),
            Some("number") => json!(*self.rng.pick(&[0.0, 0.2, 0.5, 1.0, 1.5])),
            Some("boolean") => json!(self.rng.chance(50)),
            Some("array") => {
                if let Some(p) = b.get("prefixItems").and_then(Value::as_array) {
                    let mut out = Vec::new();
                    for (i, ps) in p.iter().enumerate() {
                        path.push(Seg::Index(i));
                        out.push(self.value(ps, path));
                        path.pop();
                    }
                    Value::Array(out)
                } else {
                    let n = *self.rng.pick(&[0, 1, 1, 2, 2, 3]);
                    let item = &b["items"];
                    let mut out = Vec::new();
                    for i in 0..n {
                        path.push(Seg::Index(i));
                        out.push(if item.is_null() {
                            self.scalar()
                        } else {
                            self.value(item, path)
                        });
                        path.pop();
                    }
                    Value::Array(out)
                }
            }
            Some("object") => self.object(b, path),
            _ => self.scalar(),
        }
    }

    fn object(&mut self, b: &'s Value, path: &mut Vec<Seg>) -> Value {
        let mut m = Map::new();
        let req = required(b);
        let ps = props(b);
        for (k, s) in &ps {
            if req.contains(&k.as_str()) || self.rng.chance(45) {
                path.push(Seg::Key((*k).clone()));
                let v = self.value(s, path);
                path.pop();
                m.insert((*k).clone(), v);
            }
        }
        match extra(b) {
            Extra::Record(rs) => {
                let n = if ps.is_empty() {
                    *self.rng.pick(&[0, 1, 1, 2, 2, 3])
                } else {
                    self.rng.below(3)
                };
                for _ in 0..n {
                    let k = (*self.rng.pick(RECORD_KEYS)).to_string();
                    if m.contains_key(&k) || b["properties"].get(&k).is_some() {
                        continue;
                    }
                    path.push(Seg::Key(k.clone()));
                    let v = self.value(rs, path);
                    path.pop();
                    m.insert(k, v);
                }
            }
            Extra::Open if ps.is_empty() => {
                for _ in 0..self.rng.below(3) {
                    let k = self.word();
                    let v = self.scalar();
                    m.insert(k, v);
                }
            }
            // A struct with rest (an agent): now and then a key of its own.
            Extra::Open => {
                if self.rng.chance(15) {
                    let k = (*self.rng.pick(EXTRA_KEYS)).to_string();
                    if b["properties"].get(&k).is_none() {
                        let v = self.scalar();
                        m.insert(k, v);
                    }
                }
            }
            Extra::Closed => {}
        }
        Value::Object(m)
    }

    /// A whole config: the target section, and now and then another one.
    fn config(&mut self, section: &str) -> Value {
        let root = self.schema.root();
        self.sites.push(Site {
            path: vec![],
            full: root,
            branch: root,
        });
        let mut m = Map::new();
        for (k, s) in props(root) {
            if k == section || (k != "$schema" && self.rng.chance(5)) {
                let mut path = vec![Seg::Key(k.clone())];
                let v = self.value(s, &mut path);
                m.insert(k.clone(), v);
            }
        }
        Value::Object(m)
    }

    /// A value of `s` whose sites are not kept (the value of an inserted key).
    fn throwaway(&mut self, s: &'s Value) -> Value {
        let n = self.sites.len();
        let v = self.value(s, &mut vec![]);
        self.sites.truncate(n);
        v
    }
}

/// A near-miss of a word: a letter dropped, two swapped or doubled, a vowel changed, a plural
/// toggled, another case convention.
fn typo(rng: &mut Rng, w: &str) -> String {
    let c: Vec<char> = w.chars().collect();
    for _ in 0..20 {
        let out: String = match rng.below(7) {
            0 if c.len() > 3 => {
                let i = 1 + rng.below(c.len() - 1);
                c.iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, ch)| ch)
                    .collect()
            }
            1 if c.len() > 2 => {
                let i = rng.below(c.len() - 1);
                let mut d = c.clone();
                d.swap(i, i + 1);
                d.into_iter().collect()
            }
            2 => {
                let i = rng.below(c.len());
                let mut d = c.clone();
                d.insert(i, c[i]);
                d.into_iter().collect()
            }
            3 => match w.strip_suffix('s') {
                Some(s) => s.to_string(),
                None => format!("{w}s"),
            },
            4 if w.contains('_') => {
                let mut parts = w.split('_');
                let first = parts.next().unwrap_or_default().to_string();
                first
                    + &parts
                        .map(|p| {
                            let mut ch = p.chars();
                            ch.next()
                                .map(|f| f.to_uppercase().collect::<String>() + ch.as_str())
                                .unwrap_or_default()
                        })
                        .collect::<String>()
            }
            4 if w.chars().any(|ch| ch.is_ascii_uppercase()) => w
                .chars()
                .flat_map(|ch| {
                    if ch.is_ascii_uppercase() {
                        vec!['_', ch.to_ascii_lowercase()]
                    } else {
                        vec![ch]
                    }
                })
                .collect(),
            5 => {
                let mut ch = w.chars();
                ch.next()
                    .map(|f| f.to_uppercase().collect::<String>() + ch.as_str())
                    .unwrap_or_default()
            }
            6 => {
                let vowels: Vec<usize> = (0..c.len()).filter(|&i| "aeiou".contains(c[i])).collect();
                if vowels.is_empty() {
                    continue;
                }
                let i = *rng.pick(&vowels);
                let mut d = c.clone();
                d[i] = *rng.pick(&['a', 'e', 'i', 'o', 'u']);
                d.into_iter().collect()
            }
            _ => continue,
        };
        if out != w && !out.is_empty() {
            return out;
        }
    }
    format!("{w}x")
}

/// Names close enough to be mistaken for each other (`env` for `environment`).
fn similar(a: &str, b: &str) -> bool {
    a != b
        && ((a.len().min(b.len()) >= 3 && (a.starts_with(b) || b.starts_with(a)))
            || (a.len().min(b.len()) >= 4 && strsim::levenshtein(a, b) <= 2))
}

// ---------------------------------------------------------------------------------------------
// Cases

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Valid,
    WrongType,
    OutOfRange,
    UnknownKey,
    BadEnum,
    MissingRequired,
    WrongBranch,
}

impl Kind {
    const ALL: [Kind; 7] = [
        Kind::Valid,
        Kind::WrongType,
        Kind::OutOfRange,
        Kind::UnknownKey,
        Kind::BadEnum,
        Kind::MissingRequired,
        Kind::WrongBranch,
    ];

    fn name(self) -> &'static str {
        match self {
            Kind::Valid => "valid",
            Kind::WrongType => "wrong-type",
            Kind::OutOfRange => "out-of-range",
            Kind::UnknownKey => "unknown-key",
            Kind::BadEnum => "bad-enum",
            Kind::MissingRequired => "missing-required",
            Kind::WrongBranch => "wrong-branch",
        }
    }
}

struct Case {
    index: usize,
    kind: Kind,
    section: String,
    /// Where the mutation is, and what it did.
    site: String,
    detail: String,
    value: Value,
    text: String,
    locs: BTreeMap<Vec<Seg>, Loc>,
}

struct Tools<'s> {
    schema: &'s Schema,
    all_props: BTreeMap<String, &'s Value>,
    enum_strings: Vec<String>,
    /// The target section of case `i` is `order[i % order.len()]`.
    order: Vec<String>,
}

impl<'s> Tools<'s> {
    fn new(schema: &'s Schema, seed: u64) -> Tools<'s> {
        // A section with more inside comes round more often: 1 to 4 slots per round.
        let mut order: Vec<String> = Vec::new();
        for (k, s) in schema.root_props() {
            let slots = match schema.complexity(s, 0) {
                0 => 1,
                1..=5 => 2,
                6..=20 => 3,
                _ => 4,
            };
            order.extend(std::iter::repeat_n(k.clone(), slots));
        }
        order.extend([TOP.to_string(), TOP.to_string()]);
        Rng(seed).shuffle(&mut order);
        Tools {
            schema,
            all_props: schema.all_props(),
            enum_strings: schema.all_enum_strings(),
            order,
        }
    }

    fn case(&self, seed: u64, index: usize) -> Case {
        let mut rng = case_rng(seed, index);
        let section = self.order[index % self.order.len()].clone();
        let weights = [
            (Kind::Valid, 12),
            (Kind::WrongType, 20),
            (Kind::OutOfRange, 8),
            (Kind::UnknownKey, 24),
            (Kind::BadEnum, 12),
            (Kind::MissingRequired, 12),
            (Kind::WrongBranch, 12),
        ];
        let mut roll = rng.below(100);
        let wanted = weights
            .iter()
            .find(|(_, w)| {
                let hit = roll < *w;
                roll = roll.saturating_sub(*w);
                hit
            })
            .map_or(Kind::Valid, |(k, _)| *k);
        // When the section has no site for it, another kind, in random order.
        let mut others: Vec<Kind> = Kind::ALL
            .into_iter()
            .filter(|k| *k != wanted && *k != Kind::Valid)
            .collect();
        rng.shuffle(&mut others);
        let mut kinds = vec![wanted];
        kinds.extend(others);
        let mut g = Gen {
            schema: self.schema,
            rng,
            sites: Vec::new(),
        };
        for kind in kinds {
            for _ in 0..12 {
                g.sites.clear();
                let mut value = g.config(if section == TOP { "" } else { &section });
                if kind == Kind::Valid {
                    return finish(index, kind, &section, String::new(), String::new(), value);
                }
                let sites = std::mem::take(&mut g.sites);
                let mine: Vec<&Site> = sites
                    .iter()
                    .filter(|s| match s.path.first() {
                        Some(Seg::Key(k)) => *k == section,
                        _ => section == TOP,
                    })
                    .collect();
                if let Some((path, detail)) = self.mutate(&mut g, kind, &mine, &mut value) {
                    return finish(index, kind, &section, path, detail, value);
                }
            }
        }
        g.sites.clear();
        let value = g.config(if section == TOP { "" } else { &section });
        finish(index, Kind::Valid, &section, String::new(), String::new(), value)
    }

    /// Apply one mutation of `kind` at one of `sites` (tried in random order): the path and what
    /// was done, or `None` when no site allows it.
    fn mutate(&self, g: &mut Gen<'s>, kind: Kind, sites: &[&Site<'s>], value: &mut Value) -> Option<(String, String)> {
        let mut order: Vec<usize> = (0..sites.len()).collect();
        g.rng.shuffle(&mut order);
        for i in order {
            let site = sites[i];
            let done = match kind {
                Kind::Valid => None,
                Kind::WrongType => self.wrong_type(g, site, value),
                Kind::OutOfRange => self.out_of_range(g, site, value),
                Kind::UnknownKey => self.unknown_key(g, site, value),
                Kind::BadEnum => self.bad_enum(g, site, value),
                Kind::MissingRequired => self.missing_required(g, site, value),
                Kind::WrongBranch => self.wrong_branch(g, site, value),
            };
            if let Some(detail) = done {
                return Some((show(&site.path), detail));
            }
        }
        None
    }

    fn replace(&self, g: &mut Gen<'s>, site: &Site<'s>, value: &mut Value, cands: Vec<Value>) -> Option<String> {
        let cands: Vec<Value> = cands.into_iter().filter(|c| !self.schema.valid(site.full, c)).collect();
        if cands.is_empty() || site.path.is_empty() {
            return None;
        }
        let new = g.rng.pick(&cands).clone();
        let slot = at_mut(value, &site.path)?;
        let detail = format!("{} -> {}", compact(slot, 40), compact(&new, 40));
        *slot = new;
        Some(detail)
    }

    /// A value of a JSON type no branch of the site takes (an object with a stray key where an
    /// object goes is an unknown key, not a wrong type).
    fn wrong_type(&self, g: &mut Gen<'s>, site: &Site<'s>, value: &mut Value) -> Option<String> {
        let types: Vec<&str> = self
            .schema
            .branches(site.full)
            .into_iter()
            .filter_map(|b| if Schema::is_model(b) { Some("string") } else { ty(b) })
            .collect();
        let json_type = |v: &Value| match v {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.is_f64() => "number",
            Value::Number(_) => "integer",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        };
        let cands = [
            json!("alpha"),
            json!(7),
            json!(2.5),
            json!(true),
            json!(["alpha"]),
            json!({"alpha": "beta"}),
            Value::Null,
        ]
        .into_iter()
        .filter(|c| {
            // An integer is a number too.
            let t = json_type(c);
            let taken = types.contains(&t) || (t == "integer" && types.contains(&"number"));
            !taken
        })
        .collect();
        self.replace(g, site, value, cands)
    }

    fn out_of_range(&self, g: &mut Gen<'s>, site: &Site<'s>, value: &mut Value) -> Option<String> {
        let b = site.branch;
        if !matches!(ty(b), Some("integer" | "number")) {
            return None;
        }
        let mut cands = Vec::new();
        if let Some(m) = b.get("exclusiveMinimum").and_then(Value::as_i64) {
            cands.extend([json!(m), json!(m - 1)]);
        }
        if let Some(m) = b.get("minimum").and_then(Value::as_i64) {
            cands.push(json!(m - 1));
        }
        if let Some(m) = b.get("maximum").and_then(Value::as_i64) {
            cands.push(json!(m + 1));
        }
        if ty(b) == Some("integer") {
            cands.push(json!(1.5));
        }
        self.replace(g, site, value, cands)
    }

    fn unknown_key(&self, g: &mut Gen<'s>, site: &Site<'s>, value: &mut Value) -> Option<String> {
        let b = site.branch;
        let ps = props(b);
        if !is_object(b) || ps.is_empty() || matches!(extra(b), Extra::Record(_)) {
            return None;
        }
        let names: Vec<&str> = ps.iter().map(|(k, _)| k.as_str()).collect();
        let present: Vec<String> = at(value, &site.path)?.as_object()?.keys().cloned().collect();
        for _ in 0..8 {
            let (key, schema): (String, Option<&'s Value>) = match g.rng.below(3) {
                0 => {
                    let (k, s) = *g.rng.pick(&ps);
                    (typo(&mut g.rng, k), Some(s))
                }
                1 => {
                    let near: Vec<(&String, &&Value)> = self
                        .all_props
                        .iter()
                        .filter(|(n, _)| !names.contains(&n.as_str()) && names.iter().any(|m| similar(n, m)))
                        .collect();
                    if near.is_empty() {
                        continue;
                    }
                    let (k, s) = *g.rng.pick(&near);
                    (k.clone(), Some(*s))
                }
                _ => ((*g.rng.pick(EXTRA_KEYS)).to_string(), None),
            };
            if names.contains(&key.as_str()) || present.contains(&key) || key.starts_with('$') {
                continue;
            }
            let v = match schema {
                Some(s) => g.throwaway(s),
                None => g.scalar(),
            };
            let detail = format!("+{key}: {}", compact(&v, 40));
            at_mut(value, &site.path)?.as_object_mut()?.insert(key, v);
            return Some(detail);
        }
        None
    }

    fn bad_enum(&self, g: &mut Gen<'s>, site: &Site<'s>, value: &mut Value) -> Option<String> {
        let enums: Vec<&Value> = self
            .schema
            .branches(site.full)
            .into_iter()
            .filter_map(|b| b.get("enum").and_then(Value::as_array))
            .flatten()
            .collect();
        if enums.is_empty() {
            return None;
        }
        let mut near = Vec::new();
        for e in &enums {
            match e {
                Value::String(s) => {
                    near.push(json!(typo(&mut g.rng, s)));
                    near.push(json!(s.to_uppercase()));
                }
                Value::Bool(b) => near.push(json!(!b)),
                _ => {}
            }
        }
        let cands = match g.rng.below(100) {
            0..=59 => near,
            60..=84 => self.enum_strings.iter().map(|s| json!(s)).collect(),
            _ => vec![json!(g.word())],
        };
        self.replace(g, site, value, cands)
    }

    fn missing_required(&self, g: &mut Gen<'s>, site: &Site<'s>, value: &mut Value) -> Option<String> {
        let req = required(site.branch);
        let obj = at_mut(value, &site.path)?.as_object_mut()?;
        let present: Vec<&str> = req.into_iter().filter(|r| obj.contains_key(*r)).collect();
        if present.is_empty() {
            return None;
        }
        let k = *g.rng.pick(&present);
        obj.remove(k);
        Some(format!("-{k}"))
    }

    fn wrong_branch(&self, g: &mut Gen<'s>, site: &Site<'s>, value: &mut Value) -> Option<String> {
        let bs = self.schema.branches(site.full);
        if bs.len() < 2 || site.path.is_empty() {
            return None;
        }
        // A tuple of the wrong shape.
        if bs.iter().any(|b| b.get("prefixItems").is_some()) {
            let w = g.word();
            let cands = vec![
                json!([w]),
                json!([w, {}, 3]),
                json!([{"x": 1}, w]),
                json!([w, w]),
                json!([]),
            ];
            return self.replace(g, site, value, cands);
        }
        let b = site.branch;
        let objects: Vec<&Value> = bs
            .iter()
            .copied()
            .filter(|o| is_object(o) && !std::ptr::eq(*o, b))
            .collect();
        if !is_object(b) || objects.is_empty() {
            return None;
        }
        let discriminator = |o: &Value, k: &str| {
            self.schema
                .deref(&o["properties"][k])
                .get("enum")
                .and_then(Value::as_array)
                .is_some_and(|e| e.len() == 1)
        };
        let other = *g.rng.pick(&objects);
        let mine: Vec<&str> = props(b).iter().map(|(k, _)| k.as_str()).collect();
        let mut add: Vec<&str> = required(other)
            .into_iter()
            .filter(|k| !mine.contains(k) && !discriminator(other, k))
            .collect();
        if add.is_empty() {
            add = props(other)
                .iter()
                .map(|(k, _)| k.as_str())
                .filter(|k| !mine.contains(k) && !discriminator(other, k))
                .collect();
        }
        if add.is_empty() {
            return None;
        }
        let new_key = *g.rng.pick(&add);
        let new_value = g.throwaway(&other["properties"][new_key]);
        let obj = at_mut(value, &site.path)?.as_object_mut()?;
        let removable: Vec<&str> = required(b)
            .into_iter()
            .filter(|k| obj.contains_key(*k) && !discriminator(b, k))
            .collect();
        let mut detail = String::new();
        if !removable.is_empty() {
            let k = *g.rng.pick(&removable);
            obj.remove(k);
            detail.push_str(&format!("-{k} "));
        }
        detail.push_str(&format!("+{new_key}: {}", compact(&new_value, 40)));
        obj.insert(new_key.to_string(), new_value);
        Some(detail)
    }
}

fn finish(index: usize, kind: Kind, section: &str, site: String, detail: String, value: Value) -> Case {
    let (text, locs) = print(&value);
    assert_eq!(
        text,
        serde_json::to_string_pretty(&value).unwrap() + "\n",
        "the printer"
    );
    Case {
        index,
        kind,
        section: section.to_string(),
        site,
        detail,
        value,
        text,
        locs,
    }
}

fn compact(v: &Value, max: usize) -> String {
    let s = v.to_string();
    if s.chars().count() <= max {
        s
    } else {
        s.chars().take(max).collect::<String>() + "…"
    }
}

// ---------------------------------------------------------------------------------------------
// Printing with positions

/// Where a node is in the text: its key (none for an array element or the root) and its entry,
/// from the key (or the value) through the end of the value.
#[derive(Clone, Copy, Debug)]
struct Loc {
    key: Option<(u32, u32)>,
    entry: (u32, u32),
}

/// `serde_json::to_string_pretty` plus a final newline, and where every node is.
fn print(v: &Value) -> (String, BTreeMap<Vec<Seg>, Loc>) {
    struct P {
        out: String,
        locs: BTreeMap<Vec<Seg>, Loc>,
    }
    impl P {
        fn pad(&mut self, n: usize) {
            self.out.push_str(&"  ".repeat(n));
        }
        fn node(&mut self, v: &Value, indent: usize, path: &mut Vec<Seg>, key: Option<(u32, u32)>) {
            let start = key.map_or(self.out.len() as u32, |k| k.0);
            match v {
                Value::Object(m) if !m.is_empty() => {
                    self.out.push_str("{\n");
                    for (i, (k, x)) in m.iter().enumerate() {
                        self.pad(indent + 1);
                        let ks = self.out.len() as u32;
                        self.out.push_str(&Value::String(k.clone()).to_string());
                        let ke = self.out.len() as u32;
                        self.out.push_str(": ");
                        path.push(Seg::Key(k.clone()));
                        self.node(x, indent + 1, path, Some((ks, ke)));
                        path.pop();
                        if i + 1 < m.len() {
                            self.out.push(',');
                        }
                        self.out.push('\n');
                    }
                    self.pad(indent);
                    self.out.push('}');
                }
                Value::Array(a) if !a.is_empty() => {
                    self.out.push_str("[\n");
                    for (i, x) in a.iter().enumerate() {
                        self.pad(indent + 1);
                        path.push(Seg::Index(i));
                        self.node(x, indent + 1, path, None);
                        path.pop();
                        if i + 1 < a.len() {
                            self.out.push(',');
                        }
                        self.out.push('\n');
                    }
                    self.pad(indent);
                    self.out.push(']');
                }
                other => self.out.push_str(&other.to_string()),
            }
            self.locs.insert(
                path.clone(),
                Loc {
                    key,
                    entry: (start, self.out.len() as u32),
                },
            );
        }
    }
    let mut p = P {
        out: String::new(),
        locs: BTreeMap::new(),
    };
    p.node(v, 0, &mut Vec::new(), None);
    p.out.push('\n');
    (p.out, p.locs)
}

/// The 1-based line of a byte offset.
fn line_of(text: &str, offset: u32) -> usize {
    1 + text.as_bytes()[..(offset as usize).min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

// ---------------------------------------------------------------------------------------------
// The two sides' answers

/// What opencode said about one case: `GET /config`, and when it decoded the config, `GET /agent`
/// (it decodes some configs whose agents it then cannot build, an agent's `name` that is not a
/// string: nothing starts then either).
struct Answer {
    status: u16,
    body: Value,
    /// `GET /agent`'s error, when the config was decoded but the agents were not built.
    agents_error: Option<Value>,
}

impl Answer {
    fn refused(&self) -> bool {
        self.status != 200 || self.agents_error.is_some()
    }

    /// Where it refused: decoding the config, or building the agents.
    fn stage(&self) -> Option<&'static str> {
        if self.status != 200 {
            Some("config")
        } else {
            self.agents_error.as_ref().map(|_| "agents")
        }
    }

    fn error(&self) -> Option<&Value> {
        if self.status != 200 {
            Some(&self.body)
        } else {
            self.agents_error.as_ref()
        }
    }

    fn error_name(&self) -> Option<&str> {
        self.error().map(|e| e["name"].as_str().unwrap_or("error"))
    }

    /// The issues of a config it did not decode: (path as given, message).
    fn issues(&self) -> Vec<(Vec<Value>, String)> {
        if self.status == 200 {
            return Vec::new();
        }
        self.body["data"]["issues"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|i| {
                (
                    i["path"].as_array().cloned().unwrap_or_default(),
                    i["message"].as_str().unwrap_or_default().to_string(),
                )
            })
            .collect()
    }

    /// The decoded config (also when the agents then failed).
    fn decoded(&self) -> Option<&Value> {
        (self.status == 200).then_some(&self.body)
    }

    /// The decoded config of a case it accepted.
    fn output(&self) -> Option<&Value> {
        (!self.refused()).then_some(&self.body)
    }

    /// One line: the error and its issues, or the decoded config.
    fn describe(&self) -> String {
        match (self.output(), self.error()) {
            (Some(out), _) => format!("accepted: {}", compact(out, 700)),
            (None, error) => {
                let issues: Vec<String> = self
                    .issues()
                    .iter()
                    .map(|(p, m)| format!("[{}] {}", issue_path_text(p), m))
                    .collect();
                let more = if issues.is_empty() {
                    compact(&error.map_or(Value::Null, |e| e["data"].clone()), 300)
                } else {
                    issues.join("; ")
                };
                let stage = if self.stage() == Some("agents") {
                    " (the config decodes; GET /agent fails)"
                } else {
                    ""
                };
                format!("refused{stage}: {} {more}", self.error_name().unwrap_or_default())
            }
        }
    }
}

impl Answer {
    /// The answer as recorded (`tests/verdicts/opencode-config.jsonl`), what the verdict reads of
    /// it and no more: when it refused, `refused` (the stage: `config` or `agents`), `error` (the
    /// error's name) and `issues` (`[path, message]` each) or, with no issues, `data` (the error's
    /// data but its `path` and `ref`, a random reference to the server's log); when it accepted,
    /// `output`, the decoded config cut to the keys of the input (see [`as_far_as_read`]). The
    /// case's directory is written `<dir>`, the run's temporary directory `<tmp>`.
    fn record(&self, input: &Value, norm: &crate::Norm) -> Value {
        let mut out = Map::new();
        if let Some(stage) = self.stage() {
            out.insert("refused".into(), json!(stage));
            out.insert("error".into(), json!(self.error_name()));
            let issues = self.issues();
            if issues.is_empty() {
                let mut data = self.error().map_or(Value::Null, |e| e["data"].clone());
                if let Some(m) = data.as_object_mut() {
                    // Where the config is, and the server's random reference to its log.
                    m.remove("path");
                    m.remove("ref");
                }
                out.insert("data".into(), data);
            } else {
                let issues: Vec<Value> = issues.into_iter().map(|(p, m)| json!([p, m])).collect();
                out.insert("issues".into(), json!(issues));
            }
        } else {
            out.insert("output".into(), as_far_as_read(input, &self.body));
        }
        norm.record(&Value::Object(out))
    }

    /// The answer a record stands for (the verdict reads of it what it would of the answer).
    fn from_record(r: &Value) -> Answer {
        let error = |r: &Value| {
            let mut data = r.get("data").cloned().unwrap_or_else(|| json!({}));
            if let Some(issues) = r.get("issues").and_then(Value::as_array) {
                data["issues"] = issues.iter().map(|i| json!({"path": i[0], "message": i[1]})).collect();
            }
            json!({"name": r["error"], "data": data})
        };
        match r.get("refused").and_then(Value::as_str) {
            None => Answer {
                status: 200,
                body: r["output"].clone(),
                agents_error: None,
            },
            Some("agents") => Answer {
                status: 200,
                body: json!({}),
                agents_error: Some(error(r)),
            },
            Some(_) => Answer {
                status: 400,
                body: error(r),
                agents_error: None,
            },
        }
    }
}

/// The decoded config `output` as far as the verdict reads it: the keys of `input` (each
/// object cut to the keys the input has there, arrays of the input's length element by element,
/// other arrays whole), the transformed sections left out.
fn as_far_as_read(input: &Value, output: &Value) -> Value {
    fn cut(input: &Value, output: &Value) -> Value {
        match (input, output) {
            (Value::Object(a), Value::Object(b)) => Value::Object(
                b.iter()
                    .filter_map(|(k, y)| a.get(k).map(|x| (k.clone(), cut(x, y))))
                    .collect(),
            ),
            (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
                Value::Array(a.iter().zip(b).map(|(x, y)| cut(x, y)).collect())
            }
            _ => output.clone(),
        }
    }
    match (input, output) {
        (Value::Object(a), Value::Object(b)) => Value::Object(
            b.iter()
                .filter(|(k, _)| !TRANSFORMED.contains(&k.as_str()))
                .filter_map(|(k, y)| a.get(k).map(|x| (k.clone(), cut(x, y))))
                .collect(),
        ),
        _ => output.clone(),
    }
}

fn issue_path_text(p: &[Value]) -> String {
    p.iter()
        .map(|s| s.as_str().map_or_else(|| s.to_string(), str::to_string))
        .collect::<Vec<_>>()
        .join(".")
}

/// One agent-lsp diagnostic in the case's `opencode.json`.
struct Diag {
    code: &'static str,
    severity: Severity,
    effect: Effect,
    start: u32,
    end: u32,
    message: String,
}

fn our_diagnostics(dir: &Path, opts: &Options) -> Vec<Diag> {
    let ws = Workspace::load(&[dir.to_path_buf()], opts).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    ws.diagnostics()
        .into_iter()
        .filter(|(id, _)| ws.files[*id].path.file_name().is_some_and(|n| n == "opencode.json"))
        .map(|(_, d)| Diag {
            code: d.code.as_str(),
            severity: d.severity,
            effect: d.effect,
            start: d.span.start,
            end: d.span.end,
            message: d.message,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The verdict

struct Finding {
    kind: &'static str,
    /// The section of the path the finding is about.
    section: String,
    /// The path with record keys as `*` (for grouping), and for a refusal the message's class.
    shape: String,
    detail: String,
}

/// The input's path along an issue's path, as far as the input goes.
fn deepest(value: &Value, issue: &[Value]) -> Vec<Seg> {
    let mut out = Vec::new();
    let mut cur = value;
    for s in issue {
        let next = match cur {
            Value::Object(m) => {
                let k = s.as_str().map_or_else(|| s.to_string(), str::to_string);
                m.get(&k).map(|v| (Seg::Key(k), v))
            }
            Value::Array(a) => {
                let i = s.as_u64().or_else(|| s.as_str().and_then(|t| t.parse().ok()));
                i.and_then(|i| a.get(i as usize).map(|v| (Seg::Index(i as usize), v)))
            }
            _ => None,
        };
        match next {
            Some((seg, v)) => {
                out.push(seg);
                cur = v;
            }
            None => break,
        }
    }
    out
}

/// The path a diagnostic is about: the key it starts on, else the innermost node around it.
fn path_at(locs: &BTreeMap<Vec<Seg>, Loc>, offset: u32) -> Vec<Seg> {
    if let Some((p, _)) = locs
        .iter()
        .find(|(_, l)| l.key.is_some_and(|(s, e)| s <= offset && offset < e))
    {
        return p.clone();
    }
    locs.iter()
        .filter(|(_, l)| l.entry.0 <= offset && offset < l.entry.1)
        .max_by_key(|(p, _)| p.len())
        .map(|(p, _)| p.clone())
        .unwrap_or_default()
}

/// The message without the value it quotes (for grouping).
fn message_class(m: &str) -> String {
    let m = m.lines().next().unwrap_or(m);
    let m = m.split(", got ").next().unwrap_or(m).trim_end_matches(" | undefined");
    if m.chars().count() <= 70 {
        m.to_string()
    } else {
        m.chars().take(70).collect::<String>() + "…"
    }
}

/// Keys of the input absent from the output (the topmost of each dropped subtree), outside the
/// transformed sections; a top-level key outside the schema counts when it is absent.
fn dropped_keys(schema: &Schema, input: &Value, output: &Value) -> Vec<Vec<Seg>> {
    fn walk(input: &Value, output: &Value, path: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>) {
        match (input, output) {
            (Value::Object(a), Value::Object(b)) => {
                for (k, x) in a {
                    path.push(Seg::Key(k.clone()));
                    match b.get(k) {
                        None => out.push(path.clone()),
                        Some(y) => walk(x, y, path, out),
                    }
                    path.pop();
                }
            }
            (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
                for (i, (x, y)) in a.iter().zip(b).enumerate() {
                    path.push(Seg::Index(i));
                    walk(x, y, path, out);
                    path.pop();
                }
            }
            // Elements were removed (opencode keeps the last `plugin` entry of a name): matched
            // from the end, an element with no equal one left in the output was dropped.
            (Value::Array(a), Value::Array(b)) => {
                let mut used = vec![false; b.len()];
                for (i, x) in a.iter().enumerate().rev() {
                    match (0..b.len()).rev().find(|&j| !used[j] && super::num_eq(x, &b[j])) {
                        Some(j) => used[j] = true,
                        None => {
                            path.push(Seg::Index(i));
                            out.push(path.clone());
                            path.pop();
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    let (Some(a), Some(b)) = (input.as_object(), output.as_object()) else {
        return out;
    };
    for (k, x) in a {
        if TRANSFORMED.contains(&k.as_str()) {
            continue;
        }
        let mut path = vec![Seg::Key(k.clone())];
        match b.get(k) {
            None => out.push(path),
            Some(_) if !schema.root_props().contains_key(k) => {}
            Some(y) => walk(x, y, &mut path, &mut out),
        }
    }
    out
}

/// Whether a path is inside a subtree that (c) and (d) leave alone.
fn excluded(schema: &Schema, path: &[Seg]) -> bool {
    match path.first() {
        Some(Seg::Key(k)) => {
            TRANSFORMED.contains(&k.as_str()) || (!schema.root_props().contains_key(k) && path.len() > 1)
        }
        _ => true,
    }
}

fn judge(schema: &Schema, case: &Case, ans: &Answer, diags: &[Diag]) -> Vec<Finding> {
    let mut out = Vec::new();
    let refusing: Vec<&Diag> = diags.iter().filter(|d| d.effect == Effect::RefusesToStart).collect();
    let line = |o: u32| line_of(&case.text, o);
    if ans.refused() {
        let issues = ans.issues();
        let first = issues.first();
        let path = first.map(|(p, _)| deepest(&case.value, p)).unwrap_or_default();
        // A refusal without issues: the agents could not be built (`GET /agent`), or an error
        // other than a schema's.
        let class = first.map_or_else(
            || {
                let error = ans.error();
                let message = error.and_then(|e| e["data"]["message"].as_str());
                format!(
                    "{} {}",
                    ans.error_name().unwrap_or_default(),
                    message.map(message_class).unwrap_or_default()
                )
            },
            |(_, m)| message_class(m),
        );
        let issue = first.map_or_else(|| ans.describe(), |(p, m)| format!("[{}] {m}", issue_path_text(p)));
        if refusing.is_empty() {
            out.push(Finding {
                kind: "missed-refusal",
                section: if first.is_some() || ans.stage() != Some("agents") {
                    section_of(&path, schema)
                } else {
                    "(agents)".into()
                },
                shape: format!(
                    "{}: {class}",
                    first.map_or_else(
                        || format!("({})", ans.stage().unwrap_or_default()),
                        |(p, _)| schema.shape(&issue_segs(p))
                    )
                ),
                detail: format!("opencode refuses: {issue}"),
            });
        } else if first.is_some() {
            let loc = case.locs[&path];
            let key_line = line(loc.key.map_or(loc.entry.0, |k| k.0));
            let hit = refusing
                .iter()
                .any(|d| (d.start >= loc.entry.0 && d.end <= loc.entry.1) || line(d.start) == key_line);
            if !hit {
                let ours: Vec<String> = refusing
                    .iter()
                    .map(|d| format!("{} line {}", d.code, line(d.start)))
                    .collect();
                out.push(Finding {
                    kind: "refusal-elsewhere",
                    section: section_of(&path, schema),
                    shape: format!("{}: {class}", schema.shape(&path)),
                    detail: format!(
                        "opencode refuses at {} (line {key_line}): {issue}; agent-lsp's refusals: {}",
                        show(&path),
                        ours.join(", ")
                    ),
                });
            }
        }
        return out;
    }
    let output = ans.output().expect("accepted");
    for d in &refusing {
        let p = path_at(&case.locs, d.start);
        out.push(Finding {
            kind: "false-refusal",
            section: section_of(&p, schema),
            shape: format!("{}: {}", schema.shape(&p), d.code),
            detail: format!(
                "opencode accepts; agent-lsp: {} line {}: {}",
                d.code,
                line(d.start),
                d.message
            ),
        });
    }
    for p in dropped_keys(schema, &case.value, output) {
        let loc = case.locs[&p];
        let hit = diags.iter().any(|d| {
            matches!(d.severity, Severity::Error | Severity::Warning) && d.start >= loc.entry.0 && d.end <= loc.entry.1
        });
        if !hit {
            out.push(Finding {
                kind: "missed-drop",
                section: section_of(&p, schema),
                shape: schema.shape(&p),
                detail: format!(
                    "opencode drops {} (line {}); agent-lsp reports nothing on it",
                    show(&p),
                    line(loc.entry.0)
                ),
            });
        }
    }
    for d in diags.iter().filter(|d| d.code == "unknown-key") {
        let p = path_at(&case.locs, d.start);
        if excluded(schema, &p) || at(output, &p).is_none() {
            continue;
        }
        out.push(Finding {
            kind: "false-unknown-key",
            section: section_of(&p, schema),
            shape: schema.shape(&p),
            detail: format!(
                "opencode keeps {}; agent-lsp line {}: {}",
                show(&p),
                line(d.start),
                d.message
            ),
        });
    }
    out
}

/// An issue path as segments (array indices are strings in opencode's answer; `shape` reads a
/// digit string as an index).
fn issue_segs(p: &[Value]) -> Vec<Seg> {
    p.iter()
        .map(|s| match (s.as_u64(), s.as_str()) {
            (Some(i), _) => Seg::Index(i as usize),
            (_, Some(t)) if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => Seg::Index(t.parse().unwrap()),
            (_, Some(t)) => Seg::Key(t.to_string()),
            _ => Seg::Key(s.to_string()),
        })
        .collect()
}

fn allowed(f: &Finding) -> Option<usize> {
    ALLOWED
        .iter()
        .position(|(kind, shape, _)| *kind == f.kind && f.shape.starts_with(shape))
}

// ---------------------------------------------------------------------------------------------
// The run

fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) if !v.trim().is_empty() => v.trim().parse().unwrap_or_else(|_| panic!("{name}={v}: not a number")),
        _ => default,
    }
}

/// The server's resident memory, from /proc (Linux), in MB.
fn rss_mb(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(kb / 1024)
}

/// Opencode's answer for one case. (No `POST /instance/dispose` after it: measured, that makes
/// the server grow faster and answer slower than keeping the instances.)
fn ask(server: &Server, dir: &Path, input: &Value) -> Answer {
    let (status, body) = server.ask("/config", dir);
    // What fails once the config is decoded is building the agents: their own fields, the
    // permissions merged into them, the skills they may load (`skills.urls` are fetched then).
    // The built-in agents alone always build.
    let agents = ["agent", "mode", "agents", "permission", "tools", "skills"]
        .iter()
        .any(|k| input.get(k).is_some());
    let agents_error = (status == 200 && agents)
        .then(|| server.ask("/agent", dir))
        .and_then(|(s, b)| (s != 200).then_some(b));
    Answer {
        status,
        body,
        agents_error,
    }
}

/// The record line of a case: the case and opencode's answer, compact and free of temporary paths.
fn record_line(case: &Case, seed: u64, ans: &Answer, dir: &Path) -> String {
    let issues: Vec<Value> = ans
        .issues()
        .into_iter()
        .map(|(p, m)| json!({"path": p, "message": m}))
        .collect();
    let mut line = json!({
        "seed": seed,
        "case": case.index,
        "kind": case.kind.name(),
        "section": case.section,
        "site": case.site,
        "mutation": case.detail,
        "config": case.value,
        "refused": ans.refused(),
        "stage": ans.stage(),
        "error": ans.error_name(),
        "issues": issues,
        "output": ans.decoded(),
    });
    if let Some(error) = ans.error().filter(|_| ans.issues().is_empty()) {
        let mut data = error["data"].clone();
        if let Some(m) = data.as_object_mut() {
            m.remove("path");
        }
        line["data"] = data;
    }
    line.to_string().replace(&*dir.to_string_lossy(), "<dir>")
}

/// The recording of the default run (seed 1, 300 cases).
const RECORDING: &str = "opencode-config";
const RECORDED_SEED: u64 = 1;
const RECORDED_CASES: usize = 300;

/// The home both sides run in (with the global layer opencode would create) and the repository
/// agent-lsp reads each case in (the least `git` recognises: HEAD, objects/, refs/; removing
/// thousands of files costs seconds on a slow disk).
fn lay_out(tmp: &Path) -> (Home, PathBuf) {
    let home = Home::new(&tmp.join("home"), None);
    super::write(
        &home.xdg_config,
        "opencode/opencode.jsonc",
        br#"{"$schema": "https://opencode.ai/config.json"}"#,
    );
    let lsp_dir = tmp.join("lsp");
    repository(&lsp_dir);
    let top = std::process::Command::new("git")
        .arg("-C")
        .arg(&lsp_dir)
        .args(["rev-parse", "--show-toplevel"])
        .output()
        .expect("run git");
    assert_eq!(
        String::from_utf8_lossy(&top.stdout).trim(),
        lsp_dir.to_string_lossy(),
        "git does not see a repository"
    );
    (home, lsp_dir)
}

fn repository(d: &Path) {
    fs::create_dir_all(d.join(".git/objects")).unwrap();
    fs::create_dir_all(d.join(".git/refs")).unwrap();
    fs::write(d.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
}

/// agent-lsp's diagnostics of each case, read in `lsp_dir` (the file rewritten case after case).
fn our_side(cases: &[Case], lsp_dir: &Path, home: &Home) -> Vec<Vec<Diag>> {
    let opts = super::options(home);
    cases
        .iter()
        .map(|c| {
            fs::write(lsp_dir.join("opencode.json"), &c.text).unwrap();
            our_diagnostics(lsp_dir, &opts)
        })
        .collect()
}

/// Judge every case, print the report, and fail on any disagreement not allowed or on
/// `recording` (the differences between opencode's answers and the recording).
fn conclude(
    schema: &Schema,
    tools: &Tools,
    seed: u64,
    cases: &[Case],
    answers: &[Answer],
    ours: &[Vec<Diag>],
    recording: &[String],
) {
    let findings: Vec<Vec<Finding>> = cases
        .iter()
        .zip(answers)
        .zip(ours)
        .map(|((c, a), d)| judge(schema, c, a, d))
        .collect();
    report(tools, seed, cases, answers, ours, &findings);
    let n = cases.len();
    let open: usize = findings.iter().flatten().filter(|f| allowed(f).is_none()).count();
    assert!(
        open == 0,
        "{open} disagreement(s) with opencode (seed {seed}, {n} cases); see the report above"
    );
    assert!(recording.is_empty(), "{}", recording.join("\n"));
}

#[test]
#[ignore = "needs the opencode runtime: tests/runtime/run.sh installs it and sets OPENCODE_BIN"]
fn config_fuzz_agrees_with_opencode() {
    let bin = super::opencode_bin();
    let n = env_number("CONFIG_FUZZ_CASES", RECORDED_CASES as u64) as usize;
    let seed = env_number("CONFIG_FUZZ_SEED", RECORDED_SEED);
    let jobs = env_number("CONFIG_FUZZ_JOBS", 2).max(1) as usize;
    let batch = env_number("CONFIG_FUZZ_BATCH", 500).max(1) as usize;
    let started = Instant::now();

    // Generate.
    let schema = Schema::load();
    let tools = Tools::new(&schema, seed);
    // `CONFIG_FUZZ_ONLY=3,17`: just these cases of the seed (to look at a disagreement again).
    let only: Option<Vec<usize>> = std::env::var("CONFIG_FUZZ_ONLY").ok().map(|v| {
        v.split(',')
            .map(|i| {
                i.trim()
                    .parse()
                    .unwrap_or_else(|_| panic!("CONFIG_FUZZ_ONLY={v}: not case numbers"))
            })
            .collect()
    });
    let cases: Vec<Case> = match &only {
        Some(list) => list.iter().map(|&i| tools.case(seed, i)).collect(),
        None => (0..n).map(|i| tools.case(seed, i)).collect(),
    };
    let n = cases.len();
    let t_generate = started.elapsed();

    // Lay out: per case a git repository with a copy for opencode (it writes `$schema` into a
    // config it reads, and keeps an instance per directory); agent-lsp reads the originals in one
    // repository, the file rewritten case after case.
    let tmp_dir = tempfile::tempdir().unwrap();
    let tmp = fs::canonicalize(tmp_dir.path()).unwrap();
    let (home, lsp_dir) = lay_out(&tmp);
    let oc_dirs: Vec<PathBuf> = cases
        .iter()
        .map(|c| {
            let d = tmp.join("oc").join(format!("{:05}", c.index));
            repository(&d);
            fs::write(d.join("opencode.json"), &c.text).unwrap();
            d
        })
        .collect();
    let t_layout = started.elapsed();

    // Ask both sides: opencode from `jobs` threads, one server per batch of cases (a server grows
    // with every directory it has seen: about 0.5 MB each, more once it built their agents);
    // agent-lsp on a thread of its own meanwhile.
    let answers: Vec<Mutex<Option<Answer>>> = (0..n).map(|_| Mutex::new(None)).collect();
    let (ours, t_ours, t_runtime, rss) = std::thread::scope(|scope| {
        let ours = scope.spawn(|| {
            let started = Instant::now();
            (our_side(&cases, &lsp_dir, &home), started.elapsed())
        });
        let runtime_started = Instant::now();
        let mut rss = None;
        for first in (0..n).step_by(batch) {
            let end = (first + batch).min(n);
            let server = Server::start(&bin, &home, &tmp).unwrap_or_else(|e| panic!("opencode serve: {e}"));
            let next = AtomicUsize::new(first);
            std::thread::scope(|workers| {
                for _ in 0..jobs {
                    workers.spawn(|| {
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= end {
                                break;
                            }
                            *answers[i].lock().unwrap() = Some(ask(&server, &oc_dirs[i], &cases[i].value));
                        }
                    });
                }
            });
            rss = rss.max(rss_mb(server.pid()));
        }
        let t_runtime = runtime_started.elapsed();
        let (ours, t_ours) = ours.join().expect("agent-lsp's side panicked");
        (ours, t_ours, t_runtime, rss)
    });
    let answers: Vec<Answer> = answers
        .into_iter()
        .map(|a| a.into_inner().unwrap().expect("answered"))
        .collect();

    // Record.
    if let Some(path) = std::env::var_os("CONFIG_FUZZ_RECORD") {
        let mut text = String::new();
        for ((c, a), oc) in cases.iter().zip(&answers).zip(&oc_dirs) {
            text.push_str(&record_line(c, seed, a, oc));
            text.push('\n');
        }
        fs::write(&path, text).unwrap_or_else(|e| panic!("write {}: {e}", PathBuf::from(&path).display()));
    }
    // The recorded verdicts: the cases are judged from their records, as the replay judges them.
    let mut recording = Recording::new(RECORDING, crate::JUDGE, crate::REGENERATE);
    recording.header["seed"] = json!(seed);
    for ((c, a), oc) in cases.iter().zip(&answers).zip(&oc_dirs) {
        let norm = crate::Norm::new(&tmp).with("<dir>", oc);
        recording.push(
            &c.index.to_string(),
            &hash(c.text.as_bytes()),
            a.record(&c.value, &norm),
        );
    }
    let answers: Vec<Answer> = recording.cases.iter().map(Answer::from_record).collect();
    let recorded = if seed == RECORDED_SEED && n == RECORDED_CASES && only.is_none() {
        recording.write_or_compare()
    } else {
        eprintln!(
            "(not the recorded run, seed {RECORDED_SEED} with {RECORDED_CASES} cases: {} left as it is)",
            Recording::path_of(RECORDING).display()
        );
        Vec::new()
    };

    let removing = Instant::now();
    drop(tmp_dir);
    eprintln!(
        "\ntimings: generate {:.1} s, lay out {:.1} s, opencode ({jobs} jobs) {:.1} s, agent-lsp {:.1} s (alongside), \
         clean up {:.1} s, total {:.1} s; opencode serve's memory at most: {} MB",
        t_generate.as_secs_f64(),
        (t_layout - t_generate).as_secs_f64(),
        t_runtime.as_secs_f64(),
        t_ours.as_secs_f64(),
        removing.elapsed().as_secs_f64(),
        started.elapsed().as_secs_f64(),
        rss.map_or("?".into(), |m| m.to_string())
    );
    conclude(&schema, &tools, seed, &cases, &answers, &ours, &recorded);
}

/// The replay of `config_fuzz_agrees_with_opencode`: each case of
/// `tests/verdicts/opencode-config.jsonl` generated again from its seed and number (it must hash
/// as recorded), analysed by agent-lsp as the live test does, and judged against the recorded
/// answer.
#[test]
fn config_fuzz_agrees_with_the_recorded_opencode_verdicts() {
    let started = Instant::now();
    let recording = Recording::load(RECORDING);
    let seed = recording.header["seed"].as_u64().expect("the recording's seed");
    let schema = Schema::load();
    let tools = Tools::new(&schema, seed);
    let cases: Vec<Case> = recording
        .cases
        .iter()
        .map(|line| {
            let index: usize = line["id"].as_str().and_then(|i| i.parse().ok()).expect("a case number");
            let case = tools.case(seed, index);
            require_same_input(&recording, line, &hash(case.text.as_bytes()));
            case
        })
        .collect();
    let answers: Vec<Answer> = recording.cases.iter().map(Answer::from_record).collect();
    let tmp_dir = tempfile::tempdir().unwrap();
    let tmp = fs::canonicalize(tmp_dir.path()).unwrap();
    let (home, lsp_dir) = lay_out(&tmp);
    let ours = our_side(&cases, &lsp_dir, &home);
    eprintln!(
        "replayed {} cases in {:.1} s",
        cases.len(),
        started.elapsed().as_secs_f64()
    );
    conclude(&schema, &tools, seed, &cases, &answers, &ours, &[]);
}

fn report(tools: &Tools, seed: u64, cases: &[Case], answers: &[Answer], ours: &[Vec<Diag>], findings: &[Vec<Finding>]) {
    let n = cases.len();
    let refused = answers.iter().filter(|a| a.refused()).count();
    let agreeing = findings
        .iter()
        .filter(|f| f.iter().all(|x| allowed(x).is_some()))
        .count();
    let mut out = String::new();
    let _ = writeln!(out, "\nconfig fuzz: seed {seed}, {n} cases");
    let _ = writeln!(
        out,
        "opencode: {refused} refused, {} accepted; cases agreeing: {agreeing}/{n}",
        n - refused
    );

    // Coverage: target section × kind.
    let _ = write!(out, "\n{:<22}", "section");
    for k in Kind::ALL {
        let _ = write!(out, " {:>8}", &k.name()[..k.name().len().min(8)]);
    }
    let _ = writeln!(out, " {:>6} {:>7} {:>6}", "total", "refused", "agree");
    for section in &tools.order_sorted() {
        let mine: Vec<usize> = (0..n).filter(|&i| cases[i].section == *section).collect();
        let _ = write!(out, "{section:<22}");
        for k in Kind::ALL {
            let c = mine.iter().filter(|&&i| cases[i].kind == k).count();
            let _ = write!(out, " {c:>8}");
        }
        let r = mine.iter().filter(|&&i| answers[i].refused()).count();
        let a = mine
            .iter()
            .filter(|&&i| findings[i].iter().all(|x| allowed(x).is_some()))
            .count();
        let _ = writeln!(out, " {:>6} {r:>7} {a:>6}", mine.len());
    }

    // Disagreements by kind, by section, and grouped by shape.
    let all: Vec<(usize, &Finding)> = findings
        .iter()
        .enumerate()
        .flat_map(|(i, fs)| fs.iter().map(move |f| (i, f)))
        .collect();
    let mut by_kind: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_section: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    let mut groups: BTreeMap<(&str, &str), (usize, usize)> = BTreeMap::new();
    for (i, f) in &all {
        *by_kind.entry(f.kind).or_default() += 1;
        *by_section.entry((f.section.as_str(), f.kind)).or_default() += 1;
        groups
            .entry((f.kind, f.shape.as_str()))
            .or_insert((0, cases[*i].index))
            .0 += 1;
    }
    let _ = writeln!(out, "\ndisagreements: {} in {} cases", all.len(), n - agreeing);
    for (k, c) in &by_kind {
        let _ = writeln!(out, "  {k:<20} {c:>5}");
    }
    let _ = writeln!(out, "\nby section:");
    let sections: BTreeSet<&str> = by_section.keys().map(|(s, _)| *s).collect();
    for s in sections {
        let parts: Vec<String> = by_section
            .iter()
            .filter(|((t, _), _)| *t == s)
            .map(|((_, k), c)| format!("{k} {c}"))
            .collect();
        let _ = writeln!(out, "  {s:<22} {}", parts.join(", "));
    }
    let _ = writeln!(out, "\ngroups (kind, shape: count, first case):");
    for ((k, shape), (c, i)) in &groups {
        let _ = writeln!(out, "  {k:<18} {shape}: {c} (case {i})");
    }
    let allowed_hits: Vec<&(usize, &Finding)> = all.iter().filter(|(_, f)| allowed(f).is_some()).collect();
    if !allowed_hits.is_empty() {
        let _ = writeln!(out, "\nallowed: {}", allowed_hits.len());
        for (i, f) in allowed_hits {
            let reason = ALLOWED[allowed(f).unwrap()].2;
            let _ = writeln!(out, "  case {}: {} {}: {reason}", cases[*i].index, f.kind, f.shape);
        }
    }

    // The first disagreements in full.
    let limit = env_number("CONFIG_FUZZ_SHOW", 30) as usize;
    let mut shown = 0;
    for (i, fs) in findings.iter().enumerate() {
        let open: Vec<&Finding> = fs.iter().filter(|f| allowed(f).is_none()).collect();
        if open.is_empty() {
            continue;
        }
        if shown == limit {
            let _ = writeln!(out, "\n(more disagreements not shown; CONFIG_FUZZ_SHOW=N shows N)");
            break;
        }
        shown += 1;
        let c = &cases[i];
        let _ = writeln!(
            out,
            "\n--- case {} (seed {seed}): {} in {}{}{}",
            c.index,
            c.kind.name(),
            c.section,
            if c.site.is_empty() {
                String::new()
            } else {
                format!(" at {}", c.site)
            },
            if c.detail.is_empty() {
                String::new()
            } else {
                format!(": {}", c.detail)
            }
        );
        for f in &open {
            let _ = writeln!(out, "  {} [{}] {}", f.kind, f.shape, f.detail);
        }
        for (ln, l) in c.text.lines().enumerate() {
            let _ = writeln!(out, "  {:>3} | {l}", ln + 1);
        }
        let _ = writeln!(out, "  opencode: {}", answers[i].describe());
        if ours[i].is_empty() {
            let _ = writeln!(out, "  agent-lsp: (nothing)");
        }
        for d in &ours[i] {
            let _ = writeln!(
                out,
                "  agent-lsp: {} {} {} line {}: {}",
                d.code,
                d.severity.as_str(),
                d.effect.as_str(),
                line_of(&c.text, d.start),
                d.message
            );
        }
    }
    eprint!("{out}");
}

impl Tools<'_> {
    fn order_sorted(&self) -> Vec<String> {
        let mut o = self.order.clone();
        o.sort();
        o.dedup();
        o
    }
}

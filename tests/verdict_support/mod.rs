//! Recorded verdicts: what a reference implementation (js-yaml + gray-matter, opencode 1.18.34,
//! Claude Code 2.1.332) answered for a case, kept in `tests/verdicts/` so that `cargo test`
//! holds agent-lsp to it without the runtime.
//!
//! A recording is a JSON Lines file: a header line (`{"verdicts": NAME, "judge": "...",
//! "regenerate": "command"}`) and one line per case, each with `id` (the case's name), `h` (the
//! hash of its input, see [`hash`]) and the judge's answer in fields the harness chooses. Lines
//! are in case order and written with sorted keys, so that recording twice with nothing changed
//! writes the same bytes, and a change of verdict is a readable diff.
//!
//! The live harnesses (`tests/*/run.sh`, the CI steps that run the real judge) compare the judge's
//! answers with the recording and fail when they differ: the recording is then stale. With
//! `RECORD_VERDICTS=1` they write it instead (`scripts/record-verdicts.sh` does that for all).
//! The replay tests (plain `cargo test`) read the recording, rebuild each case, check that its
//! input still hashes to `h` (else the generator changed and the recording must be redone), and
//! require agent-lsp's answer to match the recorded one.
#![allow(dead_code)] // each test binary uses its own part

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// The folder of the recordings.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/verdicts")
}

/// FNV-1a, 64 bits, as 16 hex digits: the identity of a case's input (stable across platforms and
/// Rust versions, unlike `DefaultHasher`).
pub fn hash(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The hash of several named inputs (a workspace: each file's path and contents), in name order.
pub fn hash_files<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> String {
    let sorted: BTreeMap<&str, &[u8]> = files.into_iter().collect();
    let mut all = Vec::new();
    for (name, bytes) in sorted {
        all.extend_from_slice(name.as_bytes());
        all.push(0);
        all.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        all.extend_from_slice(bytes);
    }
    hash(&all)
}

/// Whether the live harness writes the recording instead of comparing with it.
pub fn recording() -> bool {
    std::env::var_os("RECORD_VERDICTS").is_some_and(|v| v != "0" && !v.is_empty())
}

/// `judge(i, item)` for every item, `JUDGE_JOBS` at a time (default: twice the cores, since a
/// judge's run mostly waits for its process to start and answer), the answers in item order. Each
/// call must work in folders of its own (a case's project and home).
pub fn judge_each<T: Sync, R: Send>(items: &[T], judge: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let jobs = std::env::var("JUDGE_JOBS")
        .ok()
        .and_then(|j| j.parse::<usize>().ok())
        .filter(|&j| j > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get() * 2));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let answers: Vec<std::sync::Mutex<Option<R>>> = items.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..jobs.min(items.len()) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let answer = judge(i, item);
                    *answers[i].lock().unwrap() = Some(answer);
                }
            });
        }
    });
    answers
        .into_iter()
        .map(|a| a.into_inner().unwrap().expect("every item judged"))
        .collect()
}

/// One recording: its header and its cases by id, in file order.
#[derive(Debug, Clone)]
pub struct Recording {
    pub name: String,
    pub header: Value,
    pub cases: Vec<Value>,
}

impl Recording {
    /// A new recording (to be filled and written by a live harness).
    pub fn new(name: &str, judge: &str, regenerate: &str) -> Recording {
        Recording {
            name: name.to_string(),
            header: json!({"verdicts": name, "judge": judge, "regenerate": regenerate}),
            cases: Vec::new(),
        }
    }

    pub fn path_of(name: &str) -> PathBuf {
        dir().join(format!("{name}.jsonl"))
    }

    /// Reads `tests/verdicts/NAME.jsonl`; panics with the file and line when it is unreadable.
    pub fn load(name: &str) -> Recording {
        let path = Self::path_of(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "read the recording {}: {e} (scripts/record-verdicts.sh writes it)",
                path.display()
            )
        });
        let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
        let parse = |(i, l): (usize, &str)| -> Value {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("{}:{}: not JSON: {e}", path.display(), i + 1))
        };
        let header = parse(lines.next().unwrap_or_else(|| panic!("{} is empty", path.display())));
        assert_eq!(
            header["verdicts"],
            json!(name),
            "{}: the header names another recording",
            path.display()
        );
        let cases: Vec<Value> = lines.map(parse).collect();
        assert!(!cases.is_empty(), "{}: no case recorded", path.display());
        Recording {
            name: name.to_string(),
            header,
            cases,
        }
    }

    /// Adds a case: `answer` must be an object; `id` and `h` are added to it.
    pub fn push(&mut self, id: &str, h: &str, answer: Value) {
        let mut obj = match answer {
            Value::Object(m) => m,
            other => panic!("a recorded answer is an object, not {other}"),
        };
        obj.insert("id".into(), json!(id));
        obj.insert("h".into(), json!(h));
        self.cases.push(Value::Object(obj));
    }

    /// The recording's text: header, then one line per case (serde_json writes map keys sorted).
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.header);
        for c in &self.cases {
            let _ = writeln!(out, "{c}");
        }
        out
    }

    pub fn write(&self) {
        let path = Self::path_of(&self.name);
        std::fs::create_dir_all(dir()).expect("create tests/verdicts");
        std::fs::write(&path, self.text()).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        eprintln!("recorded {} cases in {}", self.cases.len(), path.display());
    }

    /// The recorded case with this id.
    pub fn get(&self, id: &str) -> Option<&Value> {
        self.cases.iter().find(|c| c["id"] == json!(id))
    }

    /// The cases by id (for lookups in large recordings).
    pub fn by_id(&self) -> BTreeMap<String, &Value> {
        self.cases
            .iter()
            .map(|c| (c["id"].as_str().unwrap_or_default().to_string(), c))
            .collect()
    }

    /// For a live harness: write this recording when `RECORD_VERDICTS` is set, else require the
    /// committed one to hold the same cases and answers (the judge still says what was recorded).
    /// Returns the differences found (empty when recording or when all agree); the caller fails
    /// on them with its own report.
    pub fn write_or_compare(&self) -> Vec<String> {
        if recording() {
            self.write();
            return Vec::new();
        }
        let path = Self::path_of(&self.name);
        if !path.is_file() {
            return vec![format!(
                "{} does not exist: run with RECORD_VERDICTS=1 (scripts/record-verdicts.sh)",
                path.display()
            )];
        }
        stale(&Recording::load(&self.name), self)
    }
}

/// The differences between a committed recording and what the judge answers now, one line each
/// (at most 20 listed, then a count).
pub fn stale(old: &Recording, new: &Recording) -> Vec<String> {
    let old_by = old.by_id();
    let new_by = new.by_id();
    let mut out = Vec::new();
    for (id, n) in &new_by {
        match old_by.get(id) {
            None => out.push(format!("{id}: not in the recording")),
            Some(o) if o != n => out.push(format!("{id}: recorded {o}\n    now {n}")),
            Some(_) => {}
        }
    }
    for id in old_by.keys() {
        if !new_by.contains_key(id) {
            out.push(format!("{id}: recorded but no longer a case"));
        }
    }
    if !out.is_empty() {
        let n = out.len();
        out.truncate(20);
        if n > 20 {
            out.push(format!("... and {} more", n - 20));
        }
        out.insert(
            0,
            format!(
                "{}: the judge's answers differ from the recording {} ({n} cases); if the change is intended, rerun with RECORD_VERDICTS=1 (scripts/record-verdicts.sh)",
                new.name,
                Recording::path_of(&new.name).display()
            ),
        );
    }
    out
}

/// For a replay test: the case's input must hash as recorded (else the generator or the input
/// files changed since the recording).
pub fn require_same_input(rec: &Recording, case: &Value, h: &str) {
    let recorded = case["h"].as_str().unwrap_or_default();
    assert_eq!(
        recorded,
        h,
        "{}: case {} is not the input that was recorded (the generator or its files changed): rerun scripts/record-verdicts.sh",
        Recording::path_of(&rec.name).display(),
        case["id"]
    );
}

/// A replay test's reading of a recording: the recorded answer of each case it lays out (whose
/// input must hash as recorded), and at the end the recorded cases it no longer lays out. Its
/// messages name the recording and the command in its header that redoes it.
pub struct Replay {
    pub recording: Recording,
    asked: BTreeSet<String>,
}

impl Replay {
    pub fn load(name: &str) -> Replay {
        Replay {
            recording: Recording::load(name),
            asked: BTreeSet::new(),
        }
    }

    fn redo(&self) -> String {
        let path = Recording::path_of(&self.recording.name);
        let command = self.recording.header["regenerate"]
            .as_str()
            .unwrap_or("scripts/record-verdicts.sh");
        format!("{} (rerun {command})", path.display())
    }

    /// The recorded answer of case `id`, whose input hashes to `h` (a different input panics:
    /// the recording is stale); `None` when no case `id` was recorded.
    pub fn answer(&mut self, id: &str, h: &str) -> Option<&Value> {
        let line = self.recording.get(id)?;
        require_same_input(&self.recording, line, h);
        self.asked.insert(id.to_string());
        Some(line)
    }

    /// [`Replay::answer`] for a case that must have been recorded.
    pub fn expect(&mut self, id: &str, h: &str) -> &Value {
        let redo = self.redo();
        self.answer(id, h)
            .unwrap_or_else(|| panic!("case {id} is not recorded in {redo}"))
    }

    /// The message for a case laid out but not recorded (for a harness that collects failures).
    pub fn not_recorded(&self, id: &str) -> String {
        format!("case {id} is not recorded in {}", self.redo())
    }

    /// One line per recorded case that no [`Replay::answer`] asked for.
    pub fn unasked(&self) -> Vec<String> {
        self.recording
            .cases
            .iter()
            .filter_map(|c| c["id"].as_str())
            .filter(|id| !self.asked.contains(*id))
            .map(|id| format!("{id}: recorded, but no longer a case, in {}", self.redo()))
            .collect()
    }

    /// Panics when a recorded case was not asked for.
    pub fn finish(&self) {
        let left = self.unasked();
        assert!(left.is_empty(), "{}", left.join("\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_1a_64_reference_values() {
        // The published FNV-1a 64 test vectors.
        assert_eq!(hash(b""), "cbf29ce484222325");
        assert_eq!(hash(b"a"), "af63dc4c8601ec8c");
        assert_eq!(hash(b"foobar"), "85944171f73967e8");
    }

    #[test]
    fn a_replay_checks_each_input_and_names_the_cases_left_over() {
        let mut rec = Recording::new("example", "a judge", "RECORD_VERDICTS=1 run.sh");
        rec.push("a", &hash(b"A"), json!({"v": 1}));
        rec.push("b", &hash(b"B"), json!({"v": 2}));
        let mut replay = Replay {
            recording: rec,
            asked: BTreeSet::new(),
        };
        assert_eq!(replay.answer("a", &hash(b"A")).map(|v| v["v"].clone()), Some(json!(1)));
        assert!(replay.answer("c", &hash(b"C")).is_none());
        let left = replay.unasked();
        assert_eq!(left.len(), 1);
        assert!(
            left[0].starts_with("b: recorded, but no longer a case") && left[0].contains("RECORD_VERDICTS=1 run.sh")
        );
        assert!(replay.not_recorded("c").contains("case c is not recorded"));
        // A changed input is a stale recording.
        let stale = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            replay.answer("b", &hash(b"changed"));
        }));
        assert!(stale.is_err());
    }

    #[test]
    fn files_hash_by_name_not_order_and_see_boundaries() {
        let a = hash_files([("a", b"x".as_slice()), ("b", b"y".as_slice())]);
        assert_eq!(a, hash_files([("b", b"y".as_slice()), ("a", b"x".as_slice())]));
        assert_ne!(a, hash_files([("a", b"xy".as_slice()), ("b", b"".as_slice())]));
    }
}

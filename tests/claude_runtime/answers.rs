//! Claude Code's answers in the form the comparisons use them, and their recorded form.
//!
//! A live run turns what Claude Code printed (`oracle::Load`, `claude mcp list`) into these
//! answers and records them (`tests/verdicts/claude-*.jsonl`); a replay reads them back. The
//! comparison code only ever sees these answers, so live and replay compare the same way.
//!
//! Paths are recorded relative to the workspace (`.claude/agents/a.md`), the home
//! (`~/.claude/agents/a.md`) or, for anything else, the run's temporary folder (`$TMP/...`), so
//! that a recording holds no temporary path and a replay resolves it in its own layout.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::canon;
use super::oracle::{self, Agent, Cmd, UnknownKeys};

/// The folders a recorded path is relative to.
pub struct Places {
    pub root: PathBuf,
    pub home: PathBuf,
    pub tmp: PathBuf,
}

impl Places {
    pub fn new(root: &Path, home: &Path, tmp: &Path) -> Places {
        Places {
            root: canon(root),
            home: canon(home),
            tmp: canon(tmp),
        }
    }

    /// `p` as recorded: relative to the workspace, `~/...` in the home, `$TMP/...` elsewhere in
    /// the run's temporary folder (else as it is).
    pub fn rel(&self, p: &Path) -> String {
        let p = canon(p);
        let s = |r: &Path| r.to_string_lossy().into_owned();
        if let Ok(r) = p.strip_prefix(&self.root) {
            s(r)
        } else if let Ok(r) = p.strip_prefix(&self.home) {
            format!("~/{}", s(r))
        } else if let Ok(r) = p.strip_prefix(&self.tmp) {
            format!("$TMP/{}", s(r))
        } else {
            s(&p)
        }
    }

    /// A recorded path in this layout.
    pub fn abs(&self, rel: &str) -> PathBuf {
        if let Some(r) = rel.strip_prefix("~/") {
            self.home.join(r)
        } else if let Some(r) = rel.strip_prefix("$TMP/") {
            self.tmp.join(r)
        } else {
            self.root.join(rel)
        }
    }

    /// A message with the folders' paths written `.`, `~` and `$TMP` (messages are only shown).
    pub fn text(&self, s: &str) -> String {
        let mut out = s.to_string();
        for (dir, name) in [(&self.root, "."), (&self.home, "~"), (&self.tmp, "$TMP")] {
            out = out.replace(&*dir.to_string_lossy(), name);
        }
        out
    }
}

// ---------------------------------------------------------------------------------------------
// Agents, commands and agent files: one start of Claude Code in a directory

/// What one start of Claude Code loaded, as `compare_case` uses it.
#[derive(Debug, Default)]
pub struct Answer {
    /// The agents it loaded, built-ins left out, by name (a stable sort of its list).
    pub agents: Vec<Agent>,
    /// The commands and skills it listed (built-in and bundled ones left out), by name.
    pub commands: Vec<Cmd>,
    /// `Duplicate agent name` lines: the name and the active file.
    pub duplicates: BTreeMap<String, PathBuf>,
    /// What its debug file says about files (read for the first start of a workspace only).
    pub files: Option<FileLog>,
}

/// The debug file's lines about files: see `oracle::Log`.
#[derive(Debug, Default)]
pub struct FileLog {
    pub unknown_keys: BTreeMap<PathBuf, UnknownKeys>,
    pub parse_failures: BTreeSet<PathBuf>,
    pub skipped: BTreeMap<PathBuf, String>,
    pub too_big: BTreeSet<PathBuf>,
}

impl Answer {
    /// From a live start: `builtin` are the agents of an empty project; `files` whether the
    /// debug file's lines about files are wanted.
    pub fn from_load(load: &oracle::Load, builtin: &[Agent], files: bool) -> Answer {
        let mut agents: Vec<Agent> = load.agents.iter().filter(|a| !builtin.contains(a)).cloned().collect();
        agents.sort_by(|a, b| a.name.cmp(&b.name));
        let mut commands = load.commands.clone();
        commands.sort_by(|a, b| a.name.cmp(&b.name));
        fn canon_keys<V>(m: BTreeMap<PathBuf, V>) -> BTreeMap<PathBuf, V> {
            m.into_iter().map(|(p, v)| (canon(&p), v)).collect()
        }
        let canon_set = |s: BTreeSet<PathBuf>| s.iter().map(|p| canon(p)).collect();
        Answer {
            agents,
            commands,
            duplicates: load.log.duplicates().into_iter().map(|(n, p)| (n, canon(&p))).collect(),
            files: files.then(|| FileLog {
                unknown_keys: canon_keys(load.log.unknown_keys()),
                parse_failures: canon_set(load.log.parse_failures()),
                skipped: canon_keys(load.log.skipped()),
                too_big: canon_set(load.log.too_big()),
            }),
        }
    }

    /// The recorded form: only what is there (no empty lists, no unset model or hint).
    pub fn to_json(&self, at: &Places) -> Value {
        let mut m = Map::new();
        let agents: Vec<Value> = self
            .agents
            .iter()
            .map(|a| {
                let mut o = json!({"name": a.name, "description": a.description});
                if let Some(model) = &a.model {
                    o["model"] = json!(model);
                }
                o
            })
            .collect();
        m.insert("agents".into(), json!(agents));
        if !self.commands.is_empty() {
            let commands: Vec<Value> = self
                .commands
                .iter()
                .map(|c| {
                    let mut o = json!({"name": c.name, "description": c.description});
                    if !c.argument_hint.is_empty() {
                        o["hint"] = json!(c.argument_hint);
                    }
                    if !c.aliases.is_empty() {
                        o["aliases"] = json!(c.aliases);
                    }
                    o
                })
                .collect();
            m.insert("commands".into(), json!(commands));
        }
        if !self.duplicates.is_empty() {
            let d: Map<String, Value> = self
                .duplicates
                .iter()
                .map(|(n, p)| (n.clone(), json!(at.rel(p))))
                .collect();
            m.insert("active".into(), Value::Object(d));
        }
        if let Some(f) = &self.files {
            let mut o = Map::new();
            let keys: Map<String, Value> = f
                .unknown_keys
                .iter()
                .map(|(p, k)| {
                    let mut v = json!({"keys": k.keys});
                    if k.more > 0 {
                        v["more"] = json!(k.more);
                    }
                    (at.rel(p), v)
                })
                .collect();
            let set = |s: &BTreeSet<PathBuf>| -> Vec<String> {
                let mut v: Vec<String> = s.iter().map(|p| at.rel(p)).collect();
                v.sort();
                v
            };
            let skipped: Map<String, Value> = f
                .skipped
                .iter()
                .map(|(p, why)| (at.rel(p), json!(at.text(why))))
                .collect();
            for (k, v) in [
                ("unknown_keys", Value::Object(keys)),
                ("parse_failures", json!(set(&f.parse_failures))),
                ("skipped", Value::Object(skipped)),
                ("too_big", json!(set(&f.too_big))),
            ] {
                let empty = v.as_object().is_some_and(Map::is_empty) || v.as_array().is_some_and(Vec::is_empty);
                if !empty {
                    o.insert(k.into(), v);
                }
            }
            m.insert("files".into(), Value::Object(o));
        }
        Value::Object(m)
    }

    /// A recorded answer in this layout.
    pub fn from_json(v: &Value, at: &Places) -> Answer {
        let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
        let list = |v: &Value| v.as_array().cloned().unwrap_or_default();
        let map = |v: &Value| v.as_object().cloned().unwrap_or_default();
        let agents = list(&v["agents"]).iter().map(Agent::from_json).collect();
        let commands = list(&v["commands"])
            .iter()
            .map(|c| Cmd {
                name: text(&c["name"]),
                description: text(&c["description"]),
                argument_hint: text(&c["hint"]),
                aliases: list(&c["aliases"]).iter().map(text).collect(),
            })
            .collect();
        let duplicates = map(&v["active"])
            .iter()
            .map(|(n, p)| (n.clone(), at.abs(&text(p))))
            .collect();
        let files = v.get("files").map(|f| FileLog {
            unknown_keys: map(&f["unknown_keys"])
                .iter()
                .map(|(p, k)| {
                    let keys = UnknownKeys {
                        keys: list(&k["keys"]).iter().map(text).collect(),
                        more: k["more"].as_u64().unwrap_or(0) as usize,
                    };
                    (at.abs(p), keys)
                })
                .collect(),
            parse_failures: list(&f["parse_failures"]).iter().map(|p| at.abs(&text(p))).collect(),
            skipped: map(&f["skipped"]).iter().map(|(p, w)| (at.abs(p), text(w))).collect(),
            too_big: list(&f["too_big"]).iter().map(|p| at.abs(&text(p))).collect(),
        });
        Answer {
            agents,
            commands,
            duplicates,
            files,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_survives_its_recording() {
        let tmp = tempfile::tempdir().unwrap();
        let t = canon(tmp.path());
        for d in ["repo", "home"] {
            std::fs::create_dir_all(t.join(d)).unwrap();
        }
        let at = Places::new(&t.join("repo"), &t.join("home"), &t);
        assert_eq!(at.rel(&t.join("repo/.claude/agents/a.md")), ".claude/agents/a.md");
        assert_eq!(at.rel(&t.join("home/.claude/agents/a.md")), "~/.claude/agents/a.md");
        assert_eq!(at.rel(&t.join("other/x")), "$TMP/other/x");
        for r in [".claude/agents/a.md", "~/.claude/agents/a.md", "$TMP/other/x"] {
            assert_eq!(at.rel(&at.abs(r)), r);
        }
        let answer = Answer {
            agents: vec![Agent {
                name: "a".into(),
                description: "d".into(),
                model: Some("opus".into()),
            }],
            commands: vec![Cmd {
                name: "c".into(),
                description: "c (project)".into(),
                argument_hint: "<x>".into(),
                aliases: vec!["k".into()],
            }],
            duplicates: [("a".to_string(), t.join("repo/b.md"))].into(),
            files: Some(FileLog {
                unknown_keys: [(
                    t.join("home/u.md"),
                    UnknownKeys {
                        keys: vec!["foo".into()],
                        more: 2,
                    },
                )]
                .into(),
                parse_failures: [t.join("repo/f.md")].into(),
                skipped: [(t.join("repo/s.md"), "why".to_string())].into(),
                too_big: [t.join("repo/z.md")].into(),
            }),
        };
        let v = answer.to_json(&at);
        let back = Answer::from_json(&v, &at);
        assert_eq!(back.to_json(&at), v);
        assert_eq!(back.agents, answer.agents);
        assert_eq!(back.commands, answer.commands);
        assert_eq!(back.duplicates, answer.duplicates);
        let (a, b) = (back.files.unwrap(), answer.files.unwrap());
        assert_eq!(a.unknown_keys, b.unknown_keys);
        assert_eq!(a.skipped, b.skipped);
        assert_eq!((a.parse_failures, a.too_big), (b.parse_failures, b.too_big));
        // Nothing of the temporary folder is recorded.
        assert!(!v.to_string().contains(&*t.to_string_lossy()), "{v}");
    }
}

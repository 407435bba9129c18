//! Policy counterexamples against the runtime: for `read` rulesets of the `build` agent, every
//! input the policy solver names (the shortest input each rule decides) is given to opencode's
//! own `read` tool (`opencode debug agent build --tool read`), and opencode must deny it exactly
//! when the solver says the rule deciding it denies. (`debug agent` approves an `ask` by itself,
//! so the runtime tells deny from the rest: allow and ask both read the file.)
//!
//! opencode's verdict on each input is recorded in `tests/verdicts/opencode-policy.jsonl`
//! (`denied`, `read` or `?`, by case number and input), and the replay (`Source::Replay`, plain
//! `cargo test`) holds the solver's inputs and actions to it with the same code.

use std::fs;
use std::path::Path;
use std::process::Command;

use agent_lsp::analysis::policy::judge::Verdict;
use agent_lsp::analysis::policy::solve::Action;
use agent_lsp::workspace::{Options, Workspace};

use serde_json::json;

use super::Source;
use super::oracle::Home;
use super::verdict_support::{Recording, hash};

const RECORDING: &str = "opencode-policy";
const JUDGE: &str = "opencode 1.18.34 (opencode-linux-x64 from npm), opencode debug agent build --pure --tool read";

/// (the `read` rules of `build`, the policy's patterns, its limit).
const CASES: &[(&str, &str, &str)] = &[
    (
        r#"{"*": "allow", "*.env": "deny", "*.env.local": "ask"}"#,
        r#"["*.env*"]"#,
        "deny",
    ),
    (r#"{"*.env": "deny", "*": "allow"}"#, r#"["*.env"]"#, "deny"),
    (
        r#"{"*": "deny", "src/*": "allow", "src/secret/*": "deny", "src/secret/ok?.txt": "allow"}"#,
        r#"["src/*"]"#,
        "deny",
    ),
    (r#"{"*": "allow", "config/*.json": "deny"}"#, r#"["config/*"]"#, "ask"),
    (
        r#"{"*": "deny", "docs/*": "allow", "docs/*.md": "ask", "docs/private/*": "deny", "docs/private/READ?E.md": "allow"}"#,
        r#"["docs/*"]"#,
        "ask",
    ),
];

struct Probe {
    case: usize,
    input: String,
    action: Action,
}

impl Probe {
    /// Its name in the recording.
    fn id(&self) -> String {
        format!("{} {}", self.case, self.input)
    }

    /// The hash of its input: the case's rules, patterns and limit, and the input.
    fn hash(&self) -> String {
        let (rules, inputs, limit) = CASES[self.case];
        hash(format!("{rules}\n{inputs}\n{limit}\n{}", self.input).as_bytes())
    }

    /// The disagreement, if any, when opencode's verdict is `theirs` (`denied`, `read` or `?`).
    fn judge(&self, theirs: &str) -> Option<String> {
        let line = format!(
            "case {} input {:?}: agent-lsp {} , opencode {}",
            self.case,
            self.input,
            self.action.as_str(),
            if theirs == "read" { "read it" } else { theirs }
        );
        println!("{line}");
        let denied = theirs == "denied";
        (denied != (self.action == Action::Deny) || (!denied && theirs != "read")).then_some(line)
    }
}

/// Judge every probe: opencode's side from `source`. Returns the disagreements and (live) the
/// recording of opencode's verdicts.
pub fn run(source: Source, tmp: &Path) -> (Vec<String>, Recording) {
    let mut probes = Vec::new();
    let mut dirs = Vec::new();
    for (i, (rules, inputs, limit)) in CASES.iter().enumerate() {
        let dir = tmp.join(format!("policy-{i}"));
        fs::create_dir_all(&dir).unwrap();
        assert!(
            Command::new("git")
                .args(["init", "-q"])
                .current_dir(&dir)
                .status()
                .unwrap()
                .success()
        );
        fs::write(
            dir.join("opencode.json"),
            format!(r#"{{"agent": {{"build": {{"permission": {{"read": {rules}}}}}}}}}"#),
        )
        .unwrap();
        fs::write(
            dir.join("agent-lsp.toml"),
            format!("[[policy]]\nid = \"p\"\npermission = \"read\"\ninputs = {inputs}\nat-most = \"{limit}\"\nagents = [\"build\"]\n"),
        )
        .unwrap();
        let ws = Workspace::load(std::slice::from_ref(&dir), &Options::isolated()).unwrap();
        let (pid, pdir) = ws.policy_files().into_iter().next().expect("the project file");
        let judged = ws.judge_policies(pid, &pdir);
        assert_eq!(judged.len(), 1, "case {i}: {judged:?}");
        let outcomes = match &*judged[0].verdict {
            Verdict::Holds { deciders } => deciders.clone(),
            Verdict::Violated { worst, others } => {
                std::iter::once(worst.clone()).chain(others.iter().cloned()).collect()
            }
            Verdict::NotProved => panic!("case {i}: not proved"),
        };
        assert!(!outcomes.is_empty(), "case {i}: {outcomes:?}");
        for o in outcomes {
            // The read tool needs a file: a witness naming a directory or nothing is skipped.
            if o.witness.is_empty() || o.witness.ends_with('/') {
                continue;
            }
            let path = dir.join(&o.witness);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, "probe\n").unwrap();
            probes.push(Probe {
                case: i,
                input: o.witness.clone(),
                action: o.action,
            });
        }
        dirs.push(dir);
    }
    assert!(probes.len() >= 8, "{} probes", probes.len());
    let mut recording = Recording::new(RECORDING, JUDGE, super::REGENERATE);
    let mut failures = Vec::new();
    let bin = match source {
        Source::Live(bin) => bin,
        Source::Replay(recorded) => {
            let mut recorded = recorded.borrow_mut();
            for p in &probes {
                let Some(line) = recorded.answer(&p.id(), &p.hash()) else {
                    failures.push(format!(
                        "input {:?} the solver names: {}",
                        p.input,
                        recorded.not_recorded(&p.id())
                    ));
                    continue;
                };
                failures.extend(p.judge(line["opencode"].as_str().unwrap_or_default()));
            }
            failures.extend(recorded.unasked());
            return (failures, recording);
        }
    };
    // One home per concurrent run: two runtimes sharing one home contend for its database
    // ("database is locked").
    let homes = [0, 1].map(|slot| Home::new(&tmp.join(format!("policy-home-{slot}")), None));
    // Two at a time: each run starts the runtime (about 5 s).
    for pair in probes.chunks(2) {
        let handles: Vec<_> = pair
            .iter()
            .zip(&homes)
            .map(|(p, home)| {
                let dir = dirs[p.case].clone();
                let mut c = home.command(bin);
                let params = serde_json::json!({"filePath": dir.join(&p.input)}).to_string();
                c.args([
                    "debug", "agent", "build", "--pure", "--tool", "read", "--params", &params,
                ])
                .current_dir(&dir);
                std::thread::spawn(move || c.output().expect("run opencode"))
            })
            .collect();
        for (p, h) in pair.iter().zip(handles) {
            let out = h.join().unwrap();
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            let denied = text.contains("prevents you from using this specific tool call");
            let read = text.contains("\"tool\": \"read\"") && text.contains("probe");
            let theirs = if denied {
                "denied"
            } else if read {
                "read"
            } else {
                "?"
            };
            recording.push(&p.id(), &p.hash(), json!({ "opencode": theirs }));
            if let Some(line) = p.judge(theirs) {
                failures.push(format!("{line}\n{}", text.chars().take(600).collect::<String>()));
            }
        }
    }
    (failures, recording)
}

//! Gemini CLI is the judge: agent-lsp against the released Gemini CLI 0.61.0 (npm
//! `@google/gemini-cli`), run offline.
//!
//! Each case is a project (a `.git` folder marks its root) with a `.gemini/settings.json` and
//! the other files it needs. `judge.py` runs `gemini -p hi` in it, in an empty home, trusted
//! (`GEMINI_CLI_TRUST_WORKSPACE=true`), with `--allowed-mcp-server-names none` (no MCP server of a
//! case is started), against a stand-in for the Gemini API on 127.0.0.1 (`mock_api.py`), inside
//! a network namespace with no route out where the machine allows one (`unshare -rn`). What
//! Gemini CLI prints is the verdict:
//!
//! - "Error in .../settings.json: ... Please fix the configuration file(s) and try again": it
//!   does not start. agent-lsp must have an error with the effect `refuses-to-start` in the file,
//!   and otherwise none;
//! - "Invalid configuration in .../settings.json: Error in: general.vimMode ..." (five at most,
//!   then "...and N more errors."): the settings it warns about. agent-lsp's findings that say
//!   Gemini CLI warns must name the same settings (a union Gemini CLI calls "Invalid input" is
//!   matched by a finding on a value inside it), and no other;
//! - a generated file of valid values gets no finding at all.
//!
//! Recorded: the live test writes what Gemini CLI said per case to
//! `tests/verdicts/gemini.jsonl` with `RECORD_VERDICTS=1` (`tests/gemini_runtime/run.sh`), and
//! otherwise fails when it differs; `agent_lsp_agrees_with_recorded_gemini` (plain `cargo test`)
//! lays the cases out again, requires each to hash as recorded, and compares agent-lsp with the
//! recorded answers. The test also holds `src/analysis/gemini/settings_schema.rs` and
//! `tool_names.rs` to what `generate.mjs` generates from the installed release.

#[path = "../verdict_support/mod.rs"]
mod verdict_support;

mod cases;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use verdict_support::{Recording, Replay};

use cases::{Case, SETTINGS_FILE};

const REC: &str = "gemini";
const JUDGE: &str = "Gemini CLI 0.61.0 (@google/gemini-cli), offline against a stand-in API on 127.0.0.1";
const REGENERATE: &str = "RECORD_VERDICTS=1 tests/gemini_runtime/run.sh";

fn here() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gemini_runtime")
}

fn agent_lsp() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_agent-lsp"))
}

fn lay_out(root: &Path, cases: &[Case]) {
    for c in cases {
        let dir = case_dir(root, c);
        fs::create_dir_all(dir.join(".git")).unwrap();
        fs::write(dir.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        for (rel, text) in &c.files {
            let p = dir.join(rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(&p, text).unwrap();
        }
    }
}

fn case_dir(root: &Path, c: &Case) -> PathBuf {
    root.join(c.id.replace(':', "+"))
}

/// One finding of agent-lsp: (file relative to the case, severity, effect, message).
type Finding = (String, String, String, String);

fn agent_lsp_findings(root: &Path, cases: &[Case]) -> BTreeMap<String, Vec<Finding>> {
    let home = root.join("_home");
    fs::create_dir_all(&home).unwrap();
    let out = Command::new(agent_lsp())
        .args(["check", "--no-global", "--format", "json"])
        .arg(root)
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env_remove("GEMINI_CLI_HOME")
        .output()
        .expect("run agent-lsp");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "agent-lsp check --format json: {e}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let by_dir: BTreeMap<String, String> = cases.iter().map(|c| (c.id.replace(':', "+"), c.id.clone())).collect();
    let mut found: BTreeMap<String, Vec<Finding>> = cases.iter().map(|c| (c.id.clone(), Vec::new())).collect();
    let root = root.canonicalize().unwrap_or(root.to_path_buf());
    for d in report["diagnostics"].as_array().into_iter().flatten() {
        let path = PathBuf::from(d["path"].as_str().unwrap_or_default());
        let path = path.canonicalize().unwrap_or(path);
        let Ok(rel) = path.strip_prefix(&root) else { continue };
        let mut parts = rel.components();
        let Some(dir) = parts.next() else { continue };
        let Some(id) = by_dir.get(&dir.as_os_str().to_string_lossy().to_string()) else {
            continue;
        };
        let s = |k: &str| d[k].as_str().unwrap_or_default().to_string();
        found.get_mut(id).unwrap().push((
            parts.as_path().to_string_lossy().to_string(),
            s("severity"),
            s("effect"),
            s("message"),
        ));
    }
    found
}

/// The setting a finding of agent-lsp says Gemini CLI warns about, as Gemini CLI names it.
fn warned_setting(message: &str) -> Option<String> {
    if !message.contains("Gemini CLI warns at every start") {
        return None;
    }
    let ticks: Vec<&str> = message.split('`').skip(1).step_by(2).collect();
    let first = *ticks.first()?;
    let after = &message[message.find(&format!("`{first}`"))? + first.len() + 2..];
    if after.starts_with(" has no `") {
        return Some(format!("{first}.{}", ticks.get(1)?));
    }
    if after.starts_with(" is not a field of ") {
        let at = after.find("(`")?;
        return after[at + 2..].split('`').next().map(str::to_string);
    }
    Some(first.to_string())
}

/// The settings agent-lsp's findings `mine` say Gemini CLI warns about against those it warns
/// about (`warnings`, and `more` it does not show): the disagreements.
fn compare_warnings(mine: &[&Finding], warnings: &Value, more: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let ours: BTreeSet<String> = mine.iter().filter_map(|f| warned_setting(&f.3)).collect();
    let warnings = warnings.as_array().cloned().unwrap_or_default();
    let more = more.as_u64().unwrap_or(0) as usize;
    let mut matched = BTreeSet::new();
    for w in &warnings {
        let path = w["path"].as_str().unwrap_or_default();
        let union = w["message"].as_str().unwrap_or_default() == "Invalid input";
        let hit: Vec<&String> = ours
            .iter()
            .filter(|o| {
                *o == path || (union && (o.starts_with(&format!("{path}.")) || o.starts_with(&format!("{path}["))))
            })
            .collect();
        if hit.is_empty() {
            out.push(format!(
                "Gemini CLI warns about `{path}` ({}), agent-lsp does not",
                w["message"].as_str().unwrap_or_default()
            ));
        }
        matched.extend(hit.into_iter().cloned());
    }
    let unmatched: Vec<&String> = ours.iter().filter(|o| !matched.contains(*o)).collect();
    if unmatched.len() != more {
        out.push(format!(
            "agent-lsp says Gemini CLI warns about {unmatched:?} too; Gemini CLI shows {} warnings and {more} more",
            warnings.len()
        ));
    }
    out
}

/// Whether agent-lsp agrees with Gemini CLI's `answer` on `case`; the disagreements.
fn compare(case: &Case, answer: &Value, found: &[Finding]) -> Vec<String> {
    let mut out = Vec::new();
    let mine: Vec<&Finding> = found.iter().filter(|f| f.0 == SETTINGS_FILE).collect();
    let refusing = mine.iter().any(|f| f.1 == "error" && f.2 == "refuses-to-start");
    if let Some(r) = answer.get("refused") {
        if !refusing {
            out.push(format!(
                "Gemini CLI does not start ({r}), agent-lsp has no refusing error"
            ));
        }
        return out;
    }
    if refusing {
        out.push("Gemini CLI starts, agent-lsp says it does not".into());
    }
    out.extend(compare_warnings(&mine, &answer["warnings"], &answer["more"]));
    if let Some(user) = answer.get("user_warnings") {
        let theirs: Vec<&Finding> = found.iter().filter(|f| f.0 == cases::USER_SETTINGS_FILE).collect();
        out.extend(
            compare_warnings(&theirs, user, &answer["user_more"])
                .into_iter()
                .map(|d| format!("the user's settings: {d}")),
        );
        if case.id.ends_with(":valid") && !theirs.is_empty() {
            out.push(format!("valid user settings, agent-lsp reports {theirs:?}"));
        }
    }
    if let Some(failed) = answer.get("import_failed").and_then(Value::as_object) {
        // Each context file agent-lsp warns about: the imports it names as failing.
        let mut ours: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        // (Of the context files Gemini CLI read in this run, started at the case's root.)
        let read: Vec<&str> = answer["context_files"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        for f in found.iter().filter(|f| {
            f.0.ends_with("GEMINI.md") && f.2 == "value-ignored" && read.contains(&format!("<case>/{}", f.0).as_str())
        }) {
            if let Some(at) = f.3.find("Import failed: ") {
                let after = &f.3[at + "Import failed: ".len()..];
                if let Some(end) = after.find(" - ") {
                    ours.entry(format!("<case>/{}", f.0))
                        .or_default()
                        .insert(after[..end].to_string());
                }
            }
        }
        let theirs: BTreeMap<String, BTreeSet<String>> = failed
            .iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    v.as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .map(String::from)
                        .collect(),
                )
            })
            .collect();
        // Gemini CLI marks an import of an imported file inside the importing GEMINI.md's
        // text; agent-lsp says it on the imported file, when that is a context file.
        if theirs != ours {
            out.push(format!(
                "Gemini CLI marks the imports {theirs:?} as failed, agent-lsp {ours:?}"
            ));
        }
    }
    if let Some(used) = answer.get("command_used").and_then(Value::as_bool) {
        let errors: Vec<&String> = found
            .iter()
            .filter(|f| f.0.starts_with(cases::COMMANDS_DIR) && f.1 == "error")
            .map(|f| &f.3)
            .collect();
        if used && !errors.is_empty() {
            out.push(format!(
                "Gemini CLI runs the command, agent-lsp says it skips it: {errors:?}"
            ));
        }
        if !used && errors.is_empty() {
            out.push(format!(
                "Gemini CLI does not run the command (skipped: {}), agent-lsp has no error",
                answer["command_skipped"]
            ));
        }
    }
    if let Some(loaded) = answer.get("agents").and_then(Value::as_object) {
        out.extend(compare_agents(case, answer, loaded, found));
    }
    if let Some(skipped) = answer.get("extensions_skipped").and_then(Value::as_object) {
        out.extend(compare_extensions(case, answer, skipped, found));
    }
    if let Some(offered) = answer.get("skills").and_then(Value::as_object) {
        // A skill file agent-lsp says Gemini CLI skips has an error naming it; every other one
        // at Gemini CLI's places (`SKILL.md` one folder below) is offered.
        for (rel, _) in &case.files {
            let Some(under) = cases::SKILL_HOMES.iter().find_map(|h| rel.strip_prefix(h)) else {
                continue;
            };
            // `SKILL.md` right in the skills folder, or one folder below.
            let at_its_place = under == "SKILL.md" || (under.matches('/').count() == 1 && under.ends_with("/SKILL.md"));
            let skipped = found
                .iter()
                .any(|f| f.0 == *rel && f.1 == "error" && f.3.contains("Gemini CLI"));
            let ours = at_its_place && !skipped;
            if ours != offered.contains_key(rel.as_str()) {
                out.push(format!(
                    "Gemini CLI {} the skill {rel}, agent-lsp says it {}",
                    if ours { "does not offer" } else { "offers" },
                    if ours { "loads it" } else { "does not" },
                ));
            }
        }
    }
    if case.id.starts_with("gen:valid:") && !mine.is_empty() {
        out.push(format!(
            "a file of valid values, agent-lsp reports {:?}",
            mine.iter().map(|f| &f.3).collect::<Vec<_>>()
        ));
    }
    out
}

/// The agents: a file Gemini CLI refuses has an agent-lsp error and one it reads has none; the
/// agents it tells the model of are those of the files agent-lsp says it loads, with their
/// descriptions.
fn compare_agents(
    case: &Case,
    answer: &Value,
    loaded: &serde_json::Map<String, Value>,
    found: &[Finding],
) -> Vec<String> {
    let mut out = Vec::new();
    let refused = answer["agent_errors"].as_object().cloned().unwrap_or_default();
    let mut ours = BTreeMap::new();
    for (rel, text) in &case.files {
        let Some(file) = rel.strip_prefix(cases::AGENTS_DIR) else {
            continue;
        };
        let read = file.ends_with(".md") && !file.starts_with('_') && !file.contains('/');
        let errors: Vec<&String> = found
            .iter()
            .filter(|f| f.0 == *rel && f.1 == "error")
            .map(|f| &f.3)
            .collect();
        // A file Gemini CLI reads but ignores, its name being taken: said as a duplicate.
        let ignored = cases::name_of(text).is_some_and(|n| {
            answer["agent_duplicates"]
                .as_array()
                .is_some_and(|d| d.iter().any(|x| x.as_str() == Some(n.as_str())))
        });
        let duplicate_said = errors.iter().any(|e| e.contains("Duplicate agent name"));
        if ignored != duplicate_said {
            out.push(format!(
                "Gemini CLI {} {rel} as a duplicate name, agent-lsp {}",
                if ignored { "ignores" } else { "does not ignore" },
                if duplicate_said {
                    "says it does"
                } else {
                    "does not say so"
                }
            ));
        }
        let errors: Vec<&String> = errors
            .into_iter()
            .filter(|e| !e.contains("Duplicate agent name"))
            .collect();
        match (refused.get(rel.as_str()), errors.is_empty()) {
            (Some(said), true) => out.push(format!(
                "Gemini CLI refuses {rel} ({said}), agent-lsp has no error there"
            )),
            (None, false) if read => out.push(format!(
                "Gemini CLI reads {rel}, agent-lsp says it does not: {errors:?}"
            )),
            _ => {}
        }
        if read
            && errors.is_empty()
            && !duplicate_said
            && let Some(name) = cases::name_of(text)
        {
            ours.entry(name).or_insert_with(|| rel.clone());
        }
    }
    let theirs: BTreeSet<&String> = loaded.keys().collect();
    let ours_names: BTreeSet<&String> = ours.keys().collect();
    if theirs != ours_names {
        out.push(format!(
            "Gemini CLI gives the model the agents {theirs:?}, agent-lsp says {ours_names:?} load"
        ));
    }
    out
}

/// The extensions: one Gemini CLI skips has an agent-lsp error on its manifest and one it loads
/// has none; of a loaded one, the context paths it calls invalid are those agent-lsp says it
/// leaves out so, and the context files it loads are the ones the manifest names (`GEMINI.md`
/// by default) but those agent-lsp says it leaves out.
fn compare_extensions(
    case: &Case,
    answer: &Value,
    skipped: &serde_json::Map<String, Value>,
    found: &[Finding],
) -> Vec<String> {
    let mut out = Vec::new();
    let loaded: BTreeSet<String> = answer["extension_context"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(String::from)
        .collect();
    let invalid: BTreeSet<String> = answer["extension_invalid_context"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(String::from)
        .collect();
    let mut ours_invalid = BTreeSet::new();
    let mut ours_loaded = BTreeSet::new();
    for dir in case.extensions() {
        let manifest = format!("{dir}/gemini-extension.json");
        let mine: Vec<&Finding> = found.iter().filter(|f| f.0 == manifest).collect();
        let errors: Vec<&String> = mine.iter().filter(|f| f.1 == "error").map(|f| &f.3).collect();
        match (skipped.get(&dir), errors.is_empty()) {
            (Some(why), true) => out.push(format!("Gemini CLI skips {dir} ({why}), agent-lsp has no error")),
            (None, false) => out.push(format!(
                "Gemini CLI loads {dir}, agent-lsp says it skips it: {errors:?}"
            )),
            _ => {}
        }
        if !errors.is_empty() {
            continue;
        }
        // The context files the manifest names, as the judge reads it.
        let text = case
            .files
            .iter()
            .find(|(r, _)| *r == manifest)
            .map(|(_, t)| t.as_str())
            .unwrap_or("{}");
        let json: Value = serde_json::from_str(text).unwrap_or(Value::Null);
        let named: Vec<String> = match &json["contextFileName"] {
            Value::String(s) if !s.is_empty() => vec![s.clone()],
            Value::Array(items) => items.iter().filter_map(Value::as_str).map(String::from).collect(),
            _ => vec!["GEMINI.md".to_string()],
        };
        let default = !matches!(&json["contextFileName"], Value::String(s) if !s.is_empty())
            && !json["contextFileName"].is_array();
        for name in named {
            let said = |what: &str| mine.iter().any(|f| f.3.contains(what) && f.3.contains(&name));
            if said("Invalid contextFileName") {
                ours_invalid.insert(name.clone());
                continue;
            }
            let file = format!("{dir}/{}", name.trim_start_matches("./"));
            let exists = case.files.iter().any(|(r, _)| *r == file);
            if said("leaves this context file out") || (default && !exists) {
                continue;
            }
            ours_loaded.insert(file);
        }
    }
    if invalid != ours_invalid {
        out.push(format!(
            "Gemini CLI calls the context paths {invalid:?} invalid, agent-lsp {ours_invalid:?}"
        ));
    }
    if loaded != ours_loaded {
        out.push(format!(
            "Gemini CLI loads the extension context files {loaded:?}, agent-lsp says {ours_loaded:?}"
        ));
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The judge

/// Parse what Gemini CLI printed into the answer recorded for a case.
fn answer_of(result: &Value, dir: &Path) -> Value {
    // The run's home (a temporary folder per worker) and the case's folder, by name.
    let home = result["home"].as_str().filter(|h| !h.is_empty()).map(str::to_string);
    let strip = |s: &str| {
        let mut s = s.replace(&dir.display().to_string(), "<case>");
        if let Some(h) = &home {
            s = s.replace(h.as_str(), "<home>");
        }
        // Colors, when a terminal library adds them anyway.
        let mut clean = String::new();
        let mut chars = s.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\u{1b}' {
                for d in chars.by_ref() {
                    if d.is_ascii_alphabetic() {
                        break;
                    }
                }
            } else {
                clean.push(c);
            }
        }
        clean
    };
    let stderr = strip(result["stderr"].as_str().unwrap_or_default());
    let stdout = strip(result["stdout"].as_str().unwrap_or_default());
    let all = format!("{stderr}\n{stdout}");
    if all.contains("Please fix the configuration file(s) and try again") {
        let line = all
            .lines()
            .find(|l| l.starts_with("Error in <case>"))
            .unwrap_or_default()
            .trim()
            .to_string();
        return json!({ "refused": line });
    }
    let (warnings, more) = warnings_about(&all, "<case>/.gemini/settings.json");
    let mut answer = json!({ "warnings": warnings, "more": more });
    if dir.join(cases::USER_SETTINGS_FILE).exists() {
        let (warnings, more) = warnings_about(&all, "<home>/.gemini/settings.json");
        answer["user_warnings"] = json!(warnings);
        answer["user_more"] = json!(more);
    }
    if dir.join("GEMINI.md").exists() {
        // The imports the context Gemini CLI sends marks as failed, by the file importing them.
        let context: String = result["requests"]
            .as_array()
            .and_then(|r| r.iter().find(|r| r["body"]["contents"].is_array()))
            .map(|r| r["body"]["contents"].to_string())
            .unwrap_or_default();
        let context: String = serde_json::from_str::<Value>(&context)
            .ok()
            .map(|v| {
                let mut s = String::new();
                collect_text(&v, &mut s);
                s
            })
            .unwrap_or_default();
        let mut failed: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut loaded = Vec::new();
        let mut current = String::new();
        for l in context.lines() {
            if let Some(f) = l
                .strip_prefix("--- Context from: ")
                .and_then(|r| r.strip_suffix(" ---"))
            {
                current = strip(f);
                loaded.push(current.clone());
            }
            let mut rest = l;
            while let Some(at) = rest.find("<!-- Import failed: ") {
                let after = &rest[at + "<!-- Import failed: ".len()..];
                if let Some(end) = after.find(" - ") {
                    failed
                        .entry(current.clone())
                        .or_default()
                        .insert(after[..end].to_string());
                }
                rest = after;
            }
        }
        answer["import_failed"] = json!(failed);
        answer["context_files"] = json!(loaded);
    }
    if dir.join(".gemini/commands").exists() {
        // What reached the model as the user's words: the command's prompt, or the typed text.
        let sent = result["requests"]
            .as_array()
            .and_then(|r| r.iter().find(|r| r["body"]["contents"].is_array()))
            .and_then(|r| r["body"]["contents"].as_array()?.last().cloned())
            .map(|c| {
                c["parts"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|p| p["text"].as_str())
                    .filter(|t| !t.starts_with("<session_context>"))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default();
        answer["command_used"] = json!(sent.contains("COMMAND-PROMPT-MARKER"));
        answer["command_skipped"] =
            json!(all.contains("Skipping invalid command file") || all.contains("Failed to parse TOML file"));
    }
    if dir.join(cases::EXTENSIONS_DIR).exists() {
        // The installed copy of `extensions/<x>` is `~/.gemini/extensions/<x>`.
        let ext_path = |p: &str| {
            p.split_once("/.gemini/extensions/")
                .map(|(_, rest)| format!("{}{rest}", cases::EXTENSIONS_DIR))
        };
        let skipped: BTreeMap<String, String> = all
            .lines()
            .filter_map(|l| l.strip_prefix("Warning: Skipping extension in "))
            .filter_map(|rest| {
                let (path, why) = rest.split_once(": ")?;
                Some((ext_path(path)?, why.rsplit(": ").next().unwrap_or(why).to_string()))
            })
            .collect();
        let invalid: BTreeSet<String> = all
            .lines()
            .filter_map(|l| l.strip_prefix("[ExtensionManager] Invalid contextFileName: \""))
            .filter_map(|rest| rest.split_once("\" in extension").map(|(name, _)| name.to_string()))
            .collect();
        let mut loaded = BTreeSet::new();
        for r in result["requests"].as_array().into_iter().flatten() {
            let mut text = String::new();
            collect_text(&r["body"]["contents"], &mut text);
            for l in text.lines() {
                if let Some(f) = l
                    .strip_prefix("--- Context from: ")
                    .and_then(|r| r.strip_suffix(" ---"))
                    && let Some(rel) = ext_path(f)
                {
                    loaded.insert(rel);
                }
            }
            if !loaded.is_empty() {
                break;
            }
        }
        answer["extensions_skipped"] = json!(skipped);
        answer["extension_invalid_context"] = json!(invalid);
        answer["extension_context"] = json!(loaded);
    }
    if cases::SKILL_HOMES.iter().any(|h| dir.join(h).exists()) {
        answer["skills"] = json!(skills_offered(result, dir));
    }
    let agents_dir = dir.join(".gemini/agents");
    if agents_dir.exists() {
        answer["agent_errors"] = json!(agent_errors(&all));
        // "Duplicate agent name 'x' detected. The later definition will be ignored."
        let duplicates: BTreeSet<String> = all
            .lines()
            .filter_map(|l| l.strip_prefix("Duplicate agent name '"))
            .filter_map(|r| r.split_once('\'').map(|(n, _)| n.to_string()))
            .collect();
        answer["agent_duplicates"] = json!(duplicates);
        answer["agents"] = json!(subagents(result));
    }
    answer
}

/// The settings Gemini CLI warns about in `file` ("Invalid configuration in <file>:", then
/// "Error in: <setting>" and its message, five at most, then "...and N more errors."), and N.
fn warnings_about(all: &str, file: &str) -> (Vec<Value>, u64) {
    let mut warnings = Vec::new();
    let mut more = 0;
    let mut in_block = false;
    let mut lines = all.lines().peekable();
    while let Some(l) = lines.next() {
        if l.starts_with(&format!("Invalid configuration in {file}")) {
            in_block = true;
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(path) = l.strip_prefix("Error in: ") {
            let message = lines.next().unwrap_or_default().trim().to_string();
            warnings.push(json!({ "path": path.trim(), "message": message }));
        } else if let Some(n) = l.strip_prefix("...and ").and_then(|r| r.split(' ').next()) {
            more = n.parse().unwrap_or(0);
        } else if l.starts_with("Please fix the configuration.") {
            in_block = false;
        }
    }
    (warnings, more)
}

/// The agent files Gemini CLI refuses ("Agent loading error: Failed to load agent from
/// <case>/.gemini/agents/a.md: ..."), each with what it says (its first line, then the issues
/// listed after it).
fn agent_errors(all: &str) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut lines = all.lines().peekable();
    while let Some(l) = lines.next() {
        let Some(rest) = l.strip_prefix("Agent loading error: Failed to load agent from <case>/") else {
            continue;
        };
        let Some((file, first)) = rest.split_once(": ") else {
            continue;
        };
        let said = out.entry(file.to_string()).or_default();
        said.push(first.trim().to_string());
        // Its zod issues, one a line, up to the next message.
        const OTHER: &[&str] = &[
            "Agent loading error",
            "Ripgrep",
            "[",
            "Warning",
            "Invalid configuration",
            "Error",
            "Loaded",
        ];
        while let Some(next) = lines.peek() {
            if next.trim().is_empty() || OTHER.iter().any(|p| next.starts_with(p)) {
                break;
            }
            said.push(next.trim().to_string());
            lines.next();
        }
    }
    out
}

/// The skills of the case Gemini CLI offers the model (`<available_skills>`): file (relative to
/// the case) to name; its built-in ones left out.
fn skills_offered(result: &Value, dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let prefix = format!("{}/", dir.display());
    for r in result["requests"].as_array().into_iter().flatten() {
        let Some(system) = r["body"]["systemInstruction"]["parts"][0]["text"].as_str() else {
            continue;
        };
        for block in system.split("<skill>").skip(1) {
            let field = |tag: &str| {
                let open = format!("<{tag}>");
                let at = block.find(&open)? + open.len();
                let end = block[at..].find(&format!("</{tag}>"))?;
                Some(block[at..at + end].to_string())
            };
            if let (Some(name), Some(location)) = (field("name"), field("location"))
                && let Some(rel) = location.strip_prefix(&prefix)
            {
                out.insert(rel.to_string(), name);
            }
        }
        break;
    }
    out
}

fn collect_text(v: &Value, out: &mut String) {
    match v {
        Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Value::Array(a) => a.iter().for_each(|x| collect_text(x, out)),
        Value::Object(o) => o.values().for_each(|x| collect_text(x, out)),
        _ => {}
    }
}

/// The subagents the model is told of ("The following sub-agents are available:", each line
/// `- name -> description`), Gemini CLI's own left out.
fn subagents(result: &Value) -> BTreeMap<String, String> {
    const BUILT_IN: &[&str] = &["codebase_investigator", "cli_help", "generalist"];
    let mut out = BTreeMap::new();
    for r in result["requests"].as_array().into_iter().flatten() {
        let Some(system) = r["body"]["systemInstruction"]["parts"][0]["text"].as_str() else {
            continue;
        };
        let Some(at) = system.find("The following sub-agents are available:") else {
            continue;
        };
        let list = system[at..].lines().skip(1).skip_while(|l| l.trim().is_empty());
        for l in list.take_while(|l| l.starts_with("- ")) {
            if let Some((name, description)) = l[2..].split_once(" -> ")
                && !BUILT_IN.contains(&name)
            {
                out.insert(name.to_string(), description.to_string());
            }
        }
        break;
    }
    out
}

fn unshare_works() -> bool {
    Command::new("unshare")
        .args(["-rn", "true"])
        .status()
        .is_ok_and(|s| s.success())
}

/// Run Gemini CLI on every case; its answers by case id.
fn judge_all(root: &Path, cases: &[Case]) -> BTreeMap<String, Value> {
    let node = std::env::var("GEMINI_NODE").unwrap_or_else(|_| "node".into());
    let gemini = here().join("node_modules/@google/gemini-cli/bundle/gemini.js");
    assert!(
        gemini.exists(),
        "{} is missing: run tests/gemini_runtime/run.sh",
        gemini.display()
    );
    let results = root.join("_results");
    fs::create_dir_all(&results).unwrap();
    let list: Vec<Value> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let dir = case_dir(root, c).canonicalize().unwrap();
            json!({"dir": dir, "start": dir, "out": results.join(format!("{i}.json")), "prompt": c.prompt.clone().unwrap_or_else(|| "hi".into()), "extensions": c.extensions()})
        })
        .collect();
    let list_file = root.join("_cases.json");
    fs::write(&list_file, serde_json::to_string(&list).unwrap()).unwrap();
    let netns = unshare_works();
    if !netns {
        eprintln!(
            "gemini_runtime: no network namespace here (unshare -rn); the stand-in API on 127.0.0.1 is all Gemini CLI is pointed at"
        );
    }
    let jobs = std::env::var("GEMINI_JOBS").unwrap_or_else(|_| "2".into());
    let mut cmd = if netns {
        let mut c = Command::new("unshare");
        c.args(["-rn", "python3"]);
        c
    } else {
        Command::new("python3")
    };
    cmd.arg(here().join("judge.py"))
        .args(["--node", &node, "--gemini"])
        .arg(&gemini)
        .arg("--cases")
        .arg(&list_file)
        .args(["--jobs", &jobs]);
    if netns {
        cmd.arg("--netns");
    }
    let status = cmd.status().expect("run judge.py");
    assert!(status.success(), "judge.py failed: {status}");
    cases
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let text = fs::read_to_string(results.join(format!("{i}.json"))).expect("a result per case");
            let result: Value = serde_json::from_str(&text).unwrap();
            let dir = case_dir(root, c).canonicalize().unwrap();
            (c.id.clone(), answer_of(&result, &dir))
        })
        .collect()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agent-lsp-gemini-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn report(failures: &[String], agreed: usize, total: usize) {
    eprintln!("gemini_runtime: {agreed} of {total} cases agree");
    if !failures.is_empty() {
        panic!(
            "{} disagreements with Gemini CLI:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
}

#[test]
#[ignore = "needs Gemini CLI: tests/gemini_runtime/run.sh"]
fn agent_lsp_agrees_with_gemini() {
    // The schema and tool names agent-lsp holds are the ones the installed release generates.
    let generated = Command::new(std::env::var("GEMINI_NODE").unwrap_or_else(|_| "node".into()))
        .arg(here().join("generate.mjs"))
        .arg("--check")
        .env("HOME", tmp("generate-home"))
        .output()
        .expect("run generate.mjs --check");
    assert!(
        generated.status.success(),
        "{}",
        String::from_utf8_lossy(&generated.stderr)
            .lines()
            .filter(|l| l.contains(".rs is not what"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    // `GEMINI_CASES=<prefix>` runs the cases of that prefix only (nothing is recorded then).
    let only = std::env::var("GEMINI_CASES").ok().filter(|p| !p.is_empty());
    let mut cases = cases::all();
    cases.retain(|c| only.as_ref().is_none_or(|p| c.id.starts_with(p.as_str())));
    let root = tmp("live");
    lay_out(&root, &cases);
    let found = agent_lsp_findings(&root, &cases);
    let answers = judge_all(&root, &cases);
    let mut rec = Recording::new(REC, JUDGE, REGENERATE);
    let mut failures = Vec::new();
    let mut agreed = 0;
    for c in &cases {
        let answer = &answers[&c.id];
        if std::env::var_os("GEMINI_SHOW").is_some() {
            eprintln!("{}: {answer}\n  agent-lsp: {:?}", c.id, found[&c.id]);
        }
        let bad = compare(c, answer, &found[&c.id]);
        if bad.is_empty() {
            agreed += 1;
        }
        failures.extend(bad.into_iter().map(|b| format!("{}: {b}", c.id)));
        rec.push(&c.id, &c.hash(), answer.clone());
    }
    if only.is_none() {
        failures.extend(rec.write_or_compare());
    }
    let _ = fs::remove_dir_all(&root);
    report(&failures, agreed, cases.len());
}

#[test]
fn agent_lsp_agrees_with_recorded_gemini() {
    let mut replay = Replay::load(REC);
    let cases = cases::all();
    let root = tmp("replay");
    lay_out(&root, &cases);
    let found = agent_lsp_findings(&root, &cases);
    let mut failures = Vec::new();
    let mut agreed = 0;
    for c in &cases {
        let answer = replay.expect(&c.id, &c.hash()).clone();
        let bad = compare(c, &answer, &found[&c.id]);
        if bad.is_empty() {
            agreed += 1;
        }
        failures.extend(bad.into_iter().map(|b| format!("{}: {b}", c.id)));
    }
    failures.extend(replay.unasked());
    let _ = fs::remove_dir_all(&root);
    report(&failures, agreed, cases.len());
}

#[test]
fn the_setting_a_finding_names() {
    assert_eq!(
        warned_setting(
            "`general.vimMode` must be a boolean (true or false), not a string (\"yes\"): Gemini CLI warns at every start (...)"
        ),
        Some("general.vimMode".into())
    );
    assert_eq!(
        warned_setting(
            "`advanced.bugCommand` has no `urlTemplate`, which a bug report command needs: Gemini CLI warns at every start (...)"
        ),
        Some("advanced.bugCommand.urlTemplate".into())
    );
    assert_eq!(
        warned_setting(
            "`comand` is not a field of an MCP server (`mcpServers.docs`): Gemini CLI warns at every start (\"Unrecognized key(s) in object: 'comand'\") and does not read it."
        ),
        Some("mcpServers.docs".into())
    );
    assert_eq!(
        warned_setting("Gemini CLI has no setting `vimMod` in `general` and ignores it without a word."),
        None
    );
}

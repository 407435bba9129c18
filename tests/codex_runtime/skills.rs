//! Skills: projects whose `.agents/skills/` and `.codex/skills/` hold `SKILL.md` files Codex
//! loads or skips. Codex's answer is the list `prompt-input` offers the model ("### Available
//! skills", each `- name: description (file: rN/<path>)` under "### Skill roots", `rN` = a
//! folder), its own skills aside. agent-lsp's answer is its findings: Codex skips a skill where
//! agent-lsp has an error that says Codex skips it, and loads the others, named by their `name`
//! or, without one, by their folder.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use super::cases::Case;
use super::docs::Finding;

fn skill(rel: &str, text: &str) -> (String, String) {
    (rel.to_string(), text.to_string())
}

/// The cases.
pub fn cases() -> Vec<Case> {
    vec![
        Case::new(
            "skill:the-agents-folder",
            vec![
                skill(
                    ".agents/skills/alpha/SKILL.md",
                    "---\nname: alpha\ndescription: Alpha skill.\n---\nBody.\n",
                ),
                skill(
                    ".agents/skills/noname/SKILL.md",
                    "---\ndescription: No name here.\n---\nBody.\n",
                ),
                skill(".agents/skills/nodesc/SKILL.md", "---\nname: nodesc\n---\nBody.\n"),
                skill(
                    ".agents/skills/broken/SKILL.md",
                    "---\nname: broken\ndescription: Use when: a: b\n---\nBody.\n",
                ),
                skill(
                    ".agents/skills/extra/SKILL.md",
                    "---\nname: extra\ndescription: Extra keys.\nversion: 2\nallowed-tools: Bash\n---\nBody.\n",
                ),
                skill(
                    ".agents/skills/group/deep/SKILL.md",
                    "---\nname: deep\ndescription: Nested.\n---\nBody.\n",
                ),
                skill(
                    ".agents/skills/folder1/SKILL.md",
                    "---\nname: other-name\ndescription: Not the folder's name.\n---\nBody.\n",
                ),
                skill(".agents/skills/nofm/SKILL.md", "Just a body.\n"),
                skill(
                    ".agents/skills/longname/SKILL.md",
                    &format!("---\nname: {}\ndescription: Long name.\n---\nBody.\n", "x".repeat(65)),
                ),
                skill(
                    ".agents/skills/maxname/SKILL.md",
                    &format!(
                        "---\nname: {}\ndescription: Longest name.\n---\nBody.\n",
                        "y".repeat(64)
                    ),
                ),
                skill(
                    ".agents/skills/upper/SKILL.md",
                    "---\nname: Upper_Case\ndescription: Upper.\n---\nBody.\n",
                ),
                skill(
                    ".agents/skills/numdesc/SKILL.md",
                    "---\nname: numdesc\ndescription: 42\n---\nBody.\n",
                ),
            ],
        ),
        Case::new(
            "skill:the-codex-folder",
            vec![
                skill(
                    ".codex/skills/beta/SKILL.md",
                    "---\nname: beta\ndescription: Beta skill.\n---\nBody.\n",
                ),
                skill(
                    ".codex/skills/a/b/SKILL.md",
                    "---\ndescription: Two levels down.\n---\nBody.\n",
                ),
                skill(".codex/skills/bare/SKILL.md", "---\nname: bare\n---\nNo description.\n"),
                skill(
                    ".codex/skills/dup1/SKILL.md",
                    "---\nname: dup\ndescription: First.\n---\nBody.\n",
                ),
                skill(
                    ".codex/skills/dup2/SKILL.md",
                    "---\nname: dup\ndescription: Second.\n---\nBody.\n",
                ),
            ],
        ),
    ]
}

/// Whether `case` is one of these.
pub fn is_skill_case(case: &Case) -> bool {
    case.id.starts_with("skill:")
}

/// The skills `prompt-input` offers from the case's project `dir`: its path relative to the
/// project, with the name listed.
pub fn offered(stdout: &str, dir: &Path) -> BTreeMap<String, String> {
    let Ok(items) = serde_json::from_str::<Value>(stdout.trim_start_matches(|c| c != '[')) else {
        return BTreeMap::new();
    };
    let mut stack = vec![&items];
    let mut out = BTreeMap::new();
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) if s.contains("### Available skills") => {
                // `- `rN` = `/abs/root``
                let roots: BTreeMap<String, String> = s
                    .lines()
                    .filter_map(|l| {
                        let rest = l.strip_prefix("- `")?;
                        let (id, path) = rest.split_once("` = `")?;
                        Some((id.to_string(), path.trim_end_matches('`').to_string()))
                    })
                    .collect();
                for l in s.lines() {
                    let Some(rest) = l.strip_prefix("- ") else { continue };
                    let Some((name, tail)) = rest.split_once(": ") else {
                        continue;
                    };
                    let Some(file) = tail.rsplit_once("(file: ").map(|(_, f)| f.trim_end_matches(')')) else {
                        continue;
                    };
                    let Some((root, rel)) = file.split_once('/') else {
                        continue;
                    };
                    let Some(abs) = roots.get(root) else { continue };
                    let path = Path::new(abs).join(rel);
                    if let Ok(rel) = path.strip_prefix(dir) {
                        out.insert(rel.to_string_lossy().into_owned(), name.to_string());
                    }
                }
            }
            Value::Array(a) => stack.extend(a),
            Value::Object(o) => stack.extend(o.values()),
            _ => {}
        }
    }
    out
}

/// The name a skill is offered under: its `name`, or its folder's.
fn expected_name(rel: &str, text: &str) -> String {
    text.lines()
        .take_while(|l| !l.is_empty())
        .skip(1)
        .take_while(|l| *l != "---")
        .find_map(|l| l.strip_prefix("name: ").map(str::to_string))
        .unwrap_or_else(|| rel.rsplit('/').nth(1).unwrap_or_default().to_string())
}

/// Where agent-lsp and Codex differ on which skills of `case` Codex offers, and by which name.
pub fn compare(case: &Case, answer: &Value, found: &[Finding]) -> Vec<String> {
    let Some(theirs) = answer.get("skills").and_then(Value::as_object) else {
        return vec!["no recorded answer on the skills".into()];
    };
    let mut out = Vec::new();
    let theirs: BTreeMap<&str, &str> = theirs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str().unwrap_or_default()))
        .collect();
    let mut ours = BTreeSet::new();
    for (rel, text) in case.files.iter().filter(|(r, _)| r.ends_with("SKILL.md")) {
        let skipped = found
            .iter()
            .any(|f| &f.0 == rel && f.3 == "error" && f.4 == "file-ignored" && f.5.contains("Codex"));
        if skipped {
            continue;
        }
        ours.insert(rel.as_str());
        if let Some(name) = theirs.get(rel.as_str())
            && *name != expected_name(rel, text)
        {
            out.push(format!(
                "{rel}: Codex offers it as `{name}`, not `{}`",
                expected_name(rel, text)
            ));
        }
    }
    let theirs: BTreeSet<&str> = theirs.keys().copied().collect();
    if theirs != ours {
        out.push(format!(
            "Codex offers the skills {theirs:?}, agent-lsp says {ours:?} load"
        ));
    }
    out
}

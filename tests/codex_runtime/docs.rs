//! The instruction chain: projects whose `AGENTS.md`, `AGENTS.override.md` and fallback files
//! Codex reads from the git root down to the folder it starts in, under one budget
//! (`project_doc_max_bytes`). Codex's answer is what reaches the model: `prompt-input` prints
//! it as one block (`# AGENTS.md instructions for <dir>`, then the files joined by blank lines
//! between `<INSTRUCTIONS>` tags), and each file of a case begins with a marker (`<<path>>`), so
//! the part of each file the model gets is measured in bytes. agent-lsp's answer is its
//! findings: `truncated-instructions` says how many bytes Codex keeps ("the first N of") or that
//! it leaves the file out, `shadowed-file` that another file of the folder takes its place.

use std::collections::BTreeMap;

use serde_json::Value;

use super::cases::Case;

/// A file of `len` bytes that begins with its marker.
fn filler(rel: &str, len: usize) -> String {
    let mut s = marker(rel);
    let line = format!("Guidance for {rel}.\n");
    while s.len() + line.len() <= len {
        s.push_str(&line);
    }
    while s.len() < len {
        s.push('x');
    }
    s
}

fn marker(rel: &str) -> String {
    format!("<<{rel}>>\n")
}

fn text(rel: &str, body: &str) -> (String, String) {
    (rel.to_string(), format!("{}{body}", marker(rel)))
}

fn sized(rel: &str, len: usize) -> (String, String) {
    (rel.to_string(), filler(rel, len))
}

/// A configuration that says Codex is used here (and sets what `settings` gives).
fn config(settings: &str) -> (String, String) {
    (
        ".codex/config.toml".to_string(),
        format!("# Codex reads this project.\n{settings}"),
    )
}

fn case(id: &str, start: &str, files: Vec<(String, String)>) -> Case {
    let mut c = Case::new(id, files);
    c.start = start.to_string();
    c
}

/// The cases, each started where it says.
pub fn cases() -> Vec<Case> {
    let mut no_git = case(
        "doc:no-git-reads-the-start-folder-only",
        "sub",
        vec![config(""), sized("AGENTS.md", 32000), sized("sub/AGENTS.md", 2000)],
    );
    no_git.git = false;
    vec![
        // The measure: 552 bytes of the sub-folder's file are left.
        case(
            "doc:the-budget-cuts-the-most-specific-file",
            "sub",
            vec![config(""), sized("AGENTS.md", 32216), sized("sub/AGENTS.md", 1415)],
        ),
        case(
            "doc:one-file-over-the-budget",
            "",
            vec![config(""), sized("AGENTS.md", 40000)],
        ),
        case(
            "doc:a-file-after-the-cut-is-left-out",
            "a/b",
            vec![
                config(""),
                sized("AGENTS.md", 33000),
                sized("a/AGENTS.md", 300),
                sized("a/b/AGENTS.md", 100),
            ],
        ),
        case(
            "doc:three-levels-share-the-budget",
            "a/b",
            vec![
                config(""),
                sized("AGENTS.md", 20000),
                sized("a/AGENTS.md", 10000),
                sized("a/b/AGENTS.md", 5000),
            ],
        ),
        case(
            "doc:a-session-started-above-reads-less",
            "a",
            vec![
                config(""),
                sized("AGENTS.md", 20000),
                sized("a/AGENTS.md", 10000),
                sized("a/b/AGENTS.md", 5000),
            ],
        ),
        case(
            "doc:the-override-takes-the-place-of-agents-md",
            "sub",
            vec![
                config(""),
                text("AGENTS.override.md", "Local rules.\n"),
                text("AGENTS.md", "Shared rules.\n"),
                text("sub/AGENTS.md", "Sub rules.\n"),
            ],
        ),
        case(
            "doc:a-blank-override-hides-the-folder",
            "sub",
            vec![
                config(""),
                text("AGENTS.md", "Shared rules.\n"),
                ("sub/AGENTS.override.md".into(), " \n\n".into()),
                text("sub/AGENTS.md", "Sub rules.\n"),
            ],
        ),
        case(
            "doc:a-blank-file-costs-nothing",
            "sub",
            vec![
                config("project_doc_max_bytes = 40\n"),
                ("AGENTS.md".into(), format!("{}\n", " ".repeat(30))),
                sized("sub/AGENTS.md", 40),
            ],
        ),
        case(
            "doc:the-project-sets-the-budget",
            "sub",
            vec![
                config("project_doc_max_bytes = 100\n"),
                sized("AGENTS.md", 80),
                sized("sub/AGENTS.md", 50),
            ],
        ),
        case(
            "doc:a-cut-inside-a-character",
            "sub",
            vec![
                config("project_doc_max_bytes = 46\n"),
                text("AGENTS.md", "AAAA\n"),
                text("sub/AGENTS.md", "BBBBBBBB\u{e9}BBBBB\n"),
            ],
        ),
        case(
            "doc:fallback-names-after-agents-md",
            "sub",
            vec![
                config("project_doc_fallback_filenames = [\"CLAUDE.md\", \"NOTES.md\"]\n"),
                text("CLAUDE.md", "Read as the fallback.\n"),
                text("sub/AGENTS.md", "Sub rules.\n"),
                text("sub/NOTES.md", "Not read: AGENTS.md comes first.\n"),
            ],
        ),
        case(
            "doc:fallback-files-count-in-the-budget",
            "sub",
            vec![
                config("project_doc_max_bytes = 80\nproject_doc_fallback_filenames = [\"CLAUDE.md\"]\n"),
                sized("CLAUDE.md", 50),
                sized("sub/AGENTS.md", 40),
            ],
        ),
        no_git,
    ]
}

/// The instruction files of `case` Codex may read: `AGENTS.override.md`, `AGENTS.md` and the
/// fallback names its configuration gives, with their folder, in Codex's order per folder.
pub fn doc_files(case: &Case) -> Vec<(String, String)> {
    let names = names(case);
    let mut out: Vec<(usize, String, String)> = case
        .files
        .iter()
        .filter(|(rel, _)| !rel.starts_with(".codex/"))
        .filter_map(|(rel, _)| {
            let (dir, name) = split(rel);
            let rank = names.iter().position(|n| *n == name)?;
            Some((rank, dir.to_string(), rel.clone()))
        })
        .collect();
    out.sort_by(|a, b| (a.1.len(), &a.1, a.0).cmp(&(b.1.len(), &b.1, b.0)));
    out.into_iter().map(|(_, dir, rel)| (dir, rel)).collect()
}

fn names(case: &Case) -> Vec<String> {
    let mut names = vec!["AGENTS.override.md".to_string(), "AGENTS.md".to_string()];
    let config = case.text(".codex/config.toml").unwrap_or_default();
    if let Some(list) = config
        .lines()
        .find_map(|l| l.strip_prefix("project_doc_fallback_filenames = "))
    {
        names.extend(
            list.trim_matches(['[', ']'])
                .split(',')
                .map(|n| n.trim().trim_matches('"').to_string()),
        );
    }
    names
}

fn split(rel: &str) -> (&str, &str) {
    rel.rsplit_once('/').unwrap_or(("", rel))
}

/// Whether `case` is one of these.
pub fn is_doc_case(case: &Case) -> bool {
    case.id.starts_with("doc:")
}

/// What reached the model of each instruction file, in bytes, from `prompt-input`'s output.
pub fn received(stdout: &str, case: &Case) -> BTreeMap<String, usize> {
    let body = block(stdout).unwrap_or_default();
    doc_files(case)
        .into_iter()
        .map(|(_, rel)| {
            let got = body.find(&marker(&rel)).map_or(0, |at| {
                let rest = &body[at..];
                rest.find("\n\n<<").unwrap_or(rest.len())
            });
            (rel, got)
        })
        .collect()
}

/// The text between the `<INSTRUCTIONS>` tags of the project's instruction block.
fn block(stdout: &str) -> Option<String> {
    let items: Value = serde_json::from_str(stdout.trim_start_matches(|c| c != '[')).ok()?;
    let mut stack = vec![&items];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) if s.starts_with("# AGENTS.md instructions for") => {
                let start = s.find("<INSTRUCTIONS>\n")? + "<INSTRUCTIONS>\n".len();
                let end = s.rfind("\n</INSTRUCTIONS>")?;
                return s.get(start..end).map(str::to_string);
            }
            Value::Array(a) => stack.extend(a),
            Value::Object(o) => stack.extend(o.values()),
            _ => {}
        }
    }
    None
}

/// A finding of agent-lsp on a file: (file, line, code, severity, effect, message).
pub type Finding = (String, usize, String, String, String, String);

/// Where agent-lsp and Codex differ on what reaches the model of each file of `case`, and
/// where agent-lsp's findings on the override are not what its place says.
pub fn compare(case: &Case, answer: &Value, found: &[Finding]) -> Vec<String> {
    let mut out = Vec::new();
    let Some(theirs) = answer.get("docs").and_then(Value::as_object) else {
        return vec!["no recorded answer on the instruction files".into()];
    };
    let start = case.start.as_str();
    let on_chain = |dir: &str| {
        if case.git {
            dir.is_empty() || start == dir || start.starts_with(&format!("{dir}/"))
        } else {
            dir == start
        }
    };
    let files = doc_files(case);
    for (dir, rel) in &files {
        let text = case.text(rel).unwrap_or_default();
        let mine: Vec<&Finding> = found.iter().filter(|f| &f.0 == rel).collect();
        let first = files.iter().find(|(d, _)| d == dir).map(|(_, r)| r.as_str());
        let hidden_by = first.filter(|f| *f != rel);
        // What the findings say of the override's place.
        let shadowed = mine.iter().any(|f| f.2 == "shadowed-file");
        let blank = text.trim().is_empty();
        let override_first = first.is_some_and(|f| f.ends_with("AGENTS.override.md"));
        let first_blank = first.and_then(|f| case.text(f)).is_some_and(|t| t.trim().is_empty());
        let should_shadow = (rel.ends_with("/AGENTS.md") || rel == "AGENTS.md")
            && hidden_by.is_some()
            && override_first
            && !first_blank
            || rel.ends_with("AGENTS.override.md") && blank && files.iter().filter(|(d, _)| d == dir).count() > 1;
        if shadowed != should_shadow {
            out.push(format!(
                "{rel}: agent-lsp {} `shadowed-file`, the file's place calls for {}",
                if shadowed { "says" } else { "does not say" },
                if should_shadow { "it" } else { "none" }
            ));
        }
        let cut = mine.iter().find(|f| f.2 == "truncated-instructions");
        let bytes = match cut {
            Some(f) if f.5.contains("leaves this file out") => Some(0),
            Some(f) => {
                f.5.split("the first ")
                    .nth(1)
                    .and_then(|r| r.split(' ').next())
                    .and_then(|n| n.parse::<usize>().ok())
            }
            None if hidden_by.is_some() || blank || !on_chain(dir) => Some(0),
            None => Some(text.len()),
        };
        // What the model gets of the first `bytes` bytes: a character cut in two is one U+FFFD.
        let ours = bytes.map(|n| String::from_utf8_lossy(&text.as_bytes()[..n.min(text.len())]).len());
        let theirs = theirs.get(rel).and_then(Value::as_u64).map(|n| n as usize);
        if !on_chain(dir) && cut.is_some() {
            // A finding for a session started in the file's own folder: not this case's.
            continue;
        }
        if ours != theirs {
            out.push(format!(
                "{rel}: Codex gives the model {theirs:?} bytes of it, agent-lsp's findings say {ours:?}"
            ));
        }
    }
    out
}

//! The book (`book/`, mdBook) stays whole and true:
//!
//! - every rule has its page, `book/src/rules/CODE.md`, exactly as the catalog generates it
//!   (`agent-lsp rules CODE --format markdown`), and the rules' index page likewise;
//!   `UPDATE_BOOK=1 cargo test --test book` rewrites them;
//! - `SUMMARY.md` lists every page, and every page it lists exists;
//! - every relative link of the book's pages and of `README.md` resolves: the file exists, and
//!   an anchor (`page.md#anchor`, `#anchor`) names a heading of that page, with the ids mdBook
//!   gives headings;
//! - the URL diagnostics give for a rule (`Code::doc_url`) names the rule's page.
//!
//! The book's transcripts and commands are checked with the README's, by `tests/readme.rs`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use agent_lsp::analysis::{Code, RULES};
use agent_lsp::cli::rule_doc::{rule_page, rules_index};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn book() -> PathBuf {
    root().join("book/src")
}

/// Every Markdown file under `dir`, sorted.
fn markdown_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Compare a generated page with the file; with `UPDATE_BOOK=1`, write it instead.
fn generated(path: &Path, want: &str, failures: &mut Vec<String>) {
    let have = std::fs::read_to_string(path).ok();
    if have.as_deref() == Some(want) {
        return;
    }
    if std::env::var_os("UPDATE_BOOK").is_some() {
        std::fs::write(path, want).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    failures.push(match have {
        None => format!("{} is missing", path.display()),
        Some(_) => format!("{} is not what the catalog generates", path.display()),
    });
}

#[test]
fn every_rule_has_its_generated_page() {
    let mut failures = Vec::new();
    let dir = book().join("rules");
    for r in RULES {
        generated(&dir.join(format!("{}.md", r.name)), &rule_page(r.code), &mut failures);
    }
    generated(&dir.join("index.md"), &rules_index(), &mut failures);
    // No page for a rule that is gone.
    let expected: BTreeSet<String> = RULES
        .iter()
        .map(|r| format!("{}.md", r.name))
        .chain(["index.md".to_string()])
        .collect();
    for path in markdown_files(&dir) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !expected.contains(&name) {
            failures.push(format!("{} is the page of no rule", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n(UPDATE_BOOK=1 cargo test --test book rewrites the generated pages)",
        failures.join("\n")
    );
}

/// The rules' table on the index page, read back: code, dialects, severity, effect and summary
/// of every rule, in catalog order.
#[test]
fn the_rules_table_matches_the_catalog() {
    let index = read(&book().join("rules/index.md"));
    let rows: Vec<[String; 5]> = index
        .lines()
        .filter(|l| l.starts_with("| [`"))
        .map(|l| {
            let cells: Vec<&str> = l.trim().trim_matches('|').split(" | ").map(str::trim).collect();
            assert_eq!(cells.len(), 5, "a row has five cells: {l}");
            let code = cells[0]
                .strip_prefix("[`")
                .and_then(|c| c.split_once("`]("))
                .unwrap_or_else(|| panic!("a linked code: {l}"));
            assert_eq!(code.1, format!("{}.md)", code.0), "the link names the rule's page: {l}");
            [
                code.0.to_string(),
                cells[1].to_string(),
                cells[2].to_string(),
                cells[3].trim_matches('`').to_string(),
                // Markdown's escapes of the generator, undone.
                cells[4].replace("&lt;", "<").replace("\\*", "*"),
            ]
        })
        .collect();
    let expected: Vec<[String; 5]> = RULES
        .iter()
        .map(|r| {
            let dialects: Vec<&str> = r.code.dialects().iter().map(|d| d.as_str()).collect();
            [
                r.name.to_string(),
                dialects.join(", "),
                // The default, then the other severities the rule can have.
                r.severities()
                    .iter()
                    .map(|(s, _)| s.as_str())
                    .collect::<Vec<_>>()
                    .join("/"),
                r.effect.as_str().to_string(),
                r.summary.to_string(),
            ]
        })
        .collect();
    assert_eq!(rows, expected);
}

/// The page paths `SUMMARY.md` links to, relative to `book/src`.
fn summary_pages() -> Vec<String> {
    let summary = read(&book().join("SUMMARY.md"));
    links(&summary).into_iter().map(|l| l.target).collect()
}

#[test]
fn summary_lists_every_page_and_every_rule() {
    let listed = summary_pages();
    let mut failures = Vec::new();
    let mut seen = BTreeSet::new();
    for page in &listed {
        if !book().join(page).is_file() {
            failures.push(format!("SUMMARY.md lists {page}, which does not exist"));
        }
        if !seen.insert(page.clone()) {
            failures.push(format!("SUMMARY.md lists {page} twice"));
        }
    }
    for path in markdown_files(&book()) {
        let rel = path.strip_prefix(book()).unwrap().to_string_lossy().replace('\\', "/");
        if rel != "SUMMARY.md" && !seen.contains(&rel) {
            failures.push(format!("SUMMARY.md does not list {rel}"));
        }
    }
    for r in RULES {
        if !seen.contains(&format!("rules/{}.md", r.name)) {
            failures.push(format!("SUMMARY.md does not list the page of `{}`", r.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A link of a Markdown text: its target and the line it is on.
#[derive(Debug, PartialEq)]
struct Link {
    target: String,
    line: usize,
}

/// The inline links `[text](target)` and images of a Markdown text, outside code blocks and
/// code spans.
fn links(md: &str) -> Vec<Link> {
    let mut out = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    for (n, line) in md.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker = trimmed.chars().next().filter(|c| *c == '`' || *c == '~');
        if let Some(c) = marker {
            let run = trimmed.chars().take_while(|x| *x == c).count();
            if run >= 3 {
                match fence {
                    None => fence = Some((c, run)),
                    Some((open, len)) if open == c && run >= len && trimmed[run..].trim().is_empty() => fence = None,
                    Some(_) => {}
                }
                continue;
            }
        }
        if fence.is_some() {
            continue;
        }
        // Outside code spans only.
        let mut prose = String::new();
        for (k, part) in line.split('`').enumerate() {
            if k % 2 == 0 {
                prose.push_str(part);
            }
            prose.push(' ');
        }
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].trim();
            // `[text](target "title")`: the target is the first word.
            let target = target.split_whitespace().next().unwrap_or("");
            out.push(Link {
                target: target.to_string(),
                line: n + 1,
            });
            rest = &after[end..];
        }
    }
    out
}

/// The ids mdBook gives the headings of a page: the heading's text (code spans and emphasis
/// as their text) trimmed, lower-cased, whitespace to `-`, every character other than
/// alphanumerics, `-` and `_` dropped; a repeated id gets `-1`, `-2`, ...
fn heading_ids(md: &str) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    let mut in_block = false;
    for line in md.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            continue;
        }
        let hashes = line.chars().take_while(|c| *c == '#').count();
        if hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let text: String = line[hashes..].chars().filter(|c| !matches!(c, '`' | '*')).collect();
        let id = heading_id(&text);
        let mut unique = id.clone();
        let mut k = 1;
        while !ids.insert(unique.clone()) {
            unique = format!("{id}-{k}");
            k += 1;
        }
    }
    ids
}

fn heading_id(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c)
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

#[test]
fn heading_ids_are_mdbooks() {
    assert_eq!(heading_id(" --matrix and --graph"), "--matrix-and---graph");
    assert_eq!(
        heading_id("The project file: agent-lsp.toml"),
        "the-project-file-agent-lsptoml"
    );
    assert_eq!(heading_id("What the runtime does"), "what-the-runtime-does");
    let ids = heading_ids("# `unknown-key`\n\n## Example\n\n```\n# not a heading\n```\n\n## Example\n");
    assert_eq!(
        ids,
        ["example", "example-1", "unknown-key"]
            .map(String::from)
            .into_iter()
            .collect()
    );
}

#[test]
fn links_skip_code() {
    let md = "See [a](a.md#x) and `[b](b.md)`.\n\n```md\n[c](c.md)\n```\n![img](i.png \"t\")\n";
    let got: Vec<String> = links(md).into_iter().map(|l| l.target).collect();
    assert_eq!(got, ["a.md#x", "i.png"]);
}

/// Every relative link of the book's pages and the README resolves, anchors included.
#[test]
fn every_relative_link_resolves() {
    let mut files = markdown_files(&book());
    files.push(root().join("README.md"));
    let mut failures = Vec::new();
    let mut checked = 0;
    for file in &files {
        let text = read(file);
        let rel = file.strip_prefix(root()).unwrap().display().to_string();
        for link in links(&text) {
            let t = link.target.as_str();
            if t.is_empty() || t.contains("://") || t.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, anchor) = match t.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (t, None),
            };
            let target = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            let at = format!("{rel}:{}: ({t})", link.line);
            if !target.exists() {
                failures.push(format!("{at}: {} does not exist", target.display()));
                continue;
            }
            if let Some(anchor) = anchor {
                if target.extension().is_none_or(|e| e != "md") {
                    failures.push(format!("{at}: an anchor into a file that is no Markdown page"));
                } else if !heading_ids(&read(&target)).contains(anchor) {
                    failures.push(format!(
                        "{at}: no heading of {} has the id `{anchor}`",
                        target.display()
                    ));
                }
            }
        }
    }
    assert!(checked >= 50, "only {checked} relative links checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The page diagnostics link to (LSP `codeDescription.href`, SARIF `helpUri`) is the rule's
/// page in the repository.
#[test]
fn rule_urls_name_the_rules_pages() {
    for r in RULES {
        let url = r.code.doc_url();
        let page = url
            .strip_prefix(concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/"))
            .unwrap_or_else(|| panic!("{url} is a file of the repository's main branch"));
        assert_eq!(page, format!("book/src/rules/{}.md", r.name));
        assert!(root().join(page).is_file(), "{url}: no such page");
    }
    assert_eq!(
        Code::UnknownKey.doc_url(),
        "https://github.com/agent-lsp/agent-lsp/blob/main/book/src/rules/unknown-key.md"
    );
}

/// `agent-lsp rules CODE --format markdown` prints the rule's page, and without CODE the index.
#[test]
fn the_command_line_prints_the_pages() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_agent-lsp"))
            .args(args)
            .output()
            .expect("run agent-lsp");
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(
        run(&["rules", "shadowed-rule", "--format", "markdown"]),
        read(&book().join("rules/shadowed-rule.md"))
    );
    assert_eq!(
        run(&["rules", "--format", "markdown"]),
        read(&book().join("rules/index.md"))
    );
}

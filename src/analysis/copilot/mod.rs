//! The GitHub Copilot dialect: custom agents (`.github/agents/*.agent.md`, the legacy
//! `.github/chatmodes/*.chatmode.md`), prompt files (`.github/prompts/*.prompt.md`), instructions
//! (`.github/instructions/**/*.instructions.md`, `.github/copilot-instructions.md`) and the MCP
//! servers of `.vscode/mcp.json`, as VS Code and GitHub.com's coding agent read them.
//! Facts: [`schema`]; the judge is VS Code's own prompt-file validator (`tests/copilot_vscode/`).
//!
//! - [`schema`]: the keys of each kind of file, the hosts that read them, tool sets, agents.
//! - [`header`]: one file's frontmatter, key by key.
//! - [`mcp`]: `.vscode/mcp.json`, its servers.
//! - [`glob`]: `applyTo` patterns as VS Code matches them.
//! - [`project`]: the checks across files (handoffs, `agent`, `agents`, MCP servers, duplicates).
//! - [`card`]: the effective agent, prompt or instructions for hover and `explain`.
//! - [`complete`]: completion of keys and values.
//! - [`policy`]: an agent's tool sets for team policies and "who may" (decided only where it lacks them).

pub mod agents;
pub mod card;
pub mod complete;
mod decl;
mod own;
pub mod dialect;
pub mod discover;
pub mod disk;
pub mod explain;
pub mod glob;
pub mod header;
pub mod mcp;
pub mod policy;
pub mod project;
pub mod schema;
mod vsyaml;

use super::diagnostic::{Diagnostic, Effect, Severity};
use super::rules::Code;
use super::syntax::{Parsed, frontmatter};
use super::text::Span;
use schema::Kind;

/// What a GitHub Copilot file declares (its `Facts` for the registration list).
pub type Facts = CopilotFile;

pub use decl::{AgentForm, CopilotFile, FileKind, Handoff, Named};

/// Analyse one file: its diagnostics, its tree and what it declares.
pub fn analyze(kind: &FileKind, text: &str) -> (Vec<Diagnostic>, Parsed, CopilotFile) {
    let mut out = Vec::new();
    let (parsed, file) = match kind {
        FileKind::Mcp => mcp::analyze(text, &mut out),
        _ => markdown(kind, text, &mut out),
    };
    // Copilot refuses no configuration: a header it cannot read loses the file (GitHub.com), a
    // wrong value is ignored.
    for d in &mut out {
        if d.effect == Effect::RefusesToStart {
            d.effect = if d.code == Code::SyntaxError {
                Effect::FileIgnored
            } else {
                Effect::ValueIgnored
            };
        }
    }
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, parsed, file)
}

fn markdown(kind: &FileKind, text: &str, out: &mut Vec<Diagnostic>) -> (Parsed, CopilotFile) {
    let split = frontmatter::split(text);
    let mut file = CopilotFile {
        anchor: super::text::first_line(text),
        body: split.body,
        ..CopilotFile::default()
    };
    if let FileKind::Agent {
        form: AgentForm::ChatMode,
        name,
    } = kind
    {
        out.push(
            Diagnostic::new(
                Code::DeprecatedFile,
                file.anchor,
                format!(
                    "chat modes are custom agents now: VS Code reads this file as the agent `{name}` and GitHub.com does not read it; rename it to `.github/agents/{name}.agent.md`"
                ),
            )
            .with_effect(Effect::Works),
        );
    }
    let Some(header_kind) = kind.header() else {
        return (Parsed::default(), file);
    };
    let Some(fm) = split.frontmatter else {
        if let Some(open) = split.misplaced_open.or_else(|| fenced_open(text)) {
            out.push(Diagnostic::new(
                Code::MisplacedFrontmatter,
                open,
                "a frontmatter must start on the file's first line: Copilot reads this one as part of the prompt",
            ));
        }
        if header_kind == Kind::Agent && *kind != FileKind::RepoInstructions {
            out.push(
                Diagnostic::new(
                    Code::MissingField,
                    file.anchor,
                    "GitHub.com's coding agent needs a `description` in a frontmatter; VS Code takes the agent without one",
                )
                .with_severity(Severity::Warning)
                .with_effect(Effect::Works),
            );
        }
        return (Parsed::default(), file);
    };
    file.anchor = fm.open;
    file.yaml = Some(fm.yaml);
    file.close = fm.close;
    if fm.close.is_none() {
        out.push(Diagnostic::new(
            Code::SyntaxError,
            fm.open,
            "this frontmatter is never closed: Copilot reads no header and takes the whole file as the prompt",
        ));
        return (Parsed::default(), file);
    }
    // Read as VS Code reads it (see `vsyaml`): a YAML parser's reading but for a plain value
    // holding `: ` and text after a quoted value, which GitHub.com's coding agent cannot read.
    let (parsed, quirks) = vsyaml::read(fm.yaml.text(text), fm.yaml.start as usize);
    header::check(kind, header_kind, &parsed, fm.open, text, &mut file, out);
    vsyaml::report(kind, &file, &quirks, text, out);
    if header_kind != Kind::Instructions {
        header::body_refs(text, &file, out);
    }
    (parsed, file)
}

/// A frontmatter wrapped in a Markdown code fence (a file that starts with ```` ```chatagent ````
/// and has its `---` on the next line): Copilot reads no header.
fn fenced_open(text: &str) -> Option<Span> {
    let t = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first_end = t.find('\n')?;
    if !t[..first_end].trim_start().starts_with("```") {
        return None;
    }
    let second = &t[first_end + 1..];
    let second = second.strip_prefix('\r').unwrap_or(second);
    second.starts_with("---").then(|| {
        let start = text.len() - second.len();
        Span::new(start, start + 3)
    })
}

#[cfg(test)]
mod tests;

//! Which files GitHub Copilot (VS Code) reads, and as what: its agents, prompts and instructions
//! under `.github/`, and `.vscode/mcp.json`. Pure path logic.

use std::path::{Path, PathBuf};

use super::FileKind;
use crate::analysis::discovery::{Claim, Pile, Stage};
use crate::analysis::host::Role;

/// What a file is to GitHub Copilot, with the workspace folder it belongs to (the one holding
/// `.github/` or `.vscode/`): `.github/agents/*.md` (custom agents: `.agent.md`, a plain `.md`,
/// a `.chatmode.md`), `.github/chatmodes/*.chatmode.md`, `.github/prompts/*.prompt.md`,
/// `.github/instructions/**/*.instructions.md`, `.github/copilot-instructions.md` and
/// `.vscode/mcp.json`.
pub fn copilot_kind(path: &Path) -> Option<(FileKind, PathBuf)> {
    use super::{AgentForm, FileKind as K};
    let name = path.file_name()?.to_str()?;
    let parent = path.parent()?;
    let parent_name = parent.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let at = |dot: &Path| dot.parent().map(Path::to_path_buf);
    if parent_name == ".vscode" && name == "mcp.json" {
        return Some((K::Mcp, at(parent)?));
    }
    if parent_name == ".github" && name == "copilot-instructions.md" {
        return Some((K::RepoInstructions, at(parent)?));
    }
    let grand = parent.parent()?;
    let in_github = |dir: &Path| dir.file_name().is_some_and(|n| n == ".github");
    if in_github(grand) {
        let stem = |suffix: &str| name.strip_suffix(suffix).filter(|s| !s.is_empty()).map(str::to_string);
        match parent_name {
            "agents" => {
                let (name, form) = if let Some(n) = stem(".agent.md") {
                    (n, AgentForm::AgentMd)
                } else if let Some(n) = stem(".chatmode.md") {
                    (n, AgentForm::ChatMode)
                } else if name.eq_ignore_ascii_case("README.md") {
                    // VS Code leaves a folder's README out of its agents.
                    return None;
                } else {
                    (stem(".md")?, AgentForm::PlainMd)
                };
                return Some((K::Agent { name, form }, at(grand)?));
            }
            "chatmodes" => {
                let name = stem(".chatmode.md")?;
                return Some((
                    K::Agent {
                        name,
                        form: AgentForm::ChatMode,
                    },
                    at(grand)?,
                ));
            }
            "prompts" => {
                return Some((
                    K::Prompt {
                        name: stem(".prompt.md")?,
                    },
                    at(grand)?,
                ));
            }
            _ => {}
        }
    }
    // Instructions: at any depth of `.github/instructions/`.
    let stem = name.strip_suffix(".instructions.md").filter(|s| !s.is_empty())?;
    for anc in path.ancestors().skip(1).take(16) {
        if anc.file_name().is_some_and(|n| n == "instructions") && anc.parent().is_some_and(in_github) {
            return Some((K::Instructions { name: stem.to_string() }, at(anc.parent()?)?));
        }
    }
    None
}

/// A `README.md` of `.github/agents/`, which Copilot leaves out of its agents: not read (as a
/// Copilot file, so that a file given by path says so instead of being taken for another
/// runtime's agent).
pub fn copilot_not_read(path: &Path) -> Option<crate::analysis::FileKind> {
    let name = path.file_name()?.to_str()?;
    let parent = path.parent()?;
    let in_agents = parent.file_name().is_some_and(|n| n == "agents")
        && parent
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == ".github");
    (in_agents && name.eq_ignore_ascii_case("README.md")).then(|| {
        crate::analysis::FileKind::from(FileKind::Agent {
            name: "README".into(),
            form: super::AgentForm::PlainMd,
        })
    })
}

/// What a path is to Copilot (its own files only).
pub fn kind_of(path: &Path, stage: Stage) -> Claim {
    if stage != Stage::Own {
        return None;
    }
    if let Some((kind, dir)) = copilot_kind(path) {
        return Some(Some((kind.into(), Role::Dialect { dir, layer: 0 })));
    }
    copilot_not_read(path).map(|kind| Some((kind, Role::NotRead)))
}

/// Whether the walk keeps a file for Copilot: `.vscode/mcp.json` (a config), its Markdown files.
pub fn walk_keeps(path: &Path) -> Option<Pile> {
    let (kind, _) = copilot_kind(path)?;
    Some(if kind.is_json() { Pile::Config } else { Pile::Document })
}

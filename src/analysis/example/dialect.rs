//! Example behind the one dialect interface ([`DialectSpec`]): what the workspace and the front
//! ends ask of it.

use std::path::{Path, PathBuf};

use crate::analysis::discovery::{Claim, Disk, Pile, Stage};
use crate::analysis::host::Role;
use crate::analysis::spec::{At, DialectSpec};

/// Example's implementation of the dialect interface.
pub struct Spec;

impl DialectSpec for Spec {
    fn identity(&self) -> crate::analysis::spec::Identity {
        crate::analysis::spec::Identity {
            name: "example",
            product: "Example",
            aliases: &[],
            checked_against: None,
        }
    }

    fn list_rank(&self) -> u8 {
        9
    }

    fn rules(&self) -> &'static [crate::analysis::Code] {
        super::RULES
    }

    fn analyze(&self, kind: &crate::analysis::FileKind, text: &str) -> Option<crate::analysis::FileAnalysis> {
        let (diagnostics, parsed, facts) = super::analyze(kind.own()?, text);
        Some(crate::analysis::FileAnalysis::of(parsed, diagnostics, facts))
    }

    fn walk_keeps(&self, path: &Path, _depth: usize, _disk: &dyn Disk) -> Option<Pile> {
        agent(path).map(|_| Pile::Document)
    }

    fn kind_of(&self, path: &Path, _at: &At, stage: Stage) -> Claim {
        if stage != Stage::Own {
            return None;
        }
        let (kind, dir) = agent(path)?;
        Some(Some((kind, Role::Dialect { dir, layer: 0 })))
    }
}

/// What a file is to the Example dialect: `.example/agents/<name>.md`, with the project holding
/// `.example/`.
fn agent(path: &Path) -> Option<(crate::analysis::FileKind, PathBuf)> {
    let name = path.file_name()?.to_string_lossy().strip_suffix(".md")?.to_string();
    let agents = path.parent().filter(|p| p.file_name().is_some_and(|n| n == "agents"))?;
    let dot = agents
        .parent()
        .filter(|p| p.file_name().is_some_and(|n| n == ".example"))?;
    let kind = super::FileKind::Agent { name };
    Some((kind.into(), dot.parent()?.to_path_buf()))
}

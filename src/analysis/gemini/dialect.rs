//! Gemini CLI behind the one dialect interface ([`DialectSpec`]): which files it reads, and
//! what the workspace and the front ends ask of it.
//!
//! Files: the user's `~/.gemini/settings.json` (`$GEMINI_CLI_HOME/.gemini/` when that is set)
//! and a project's `.gemini/settings.json` (applied only when the folder is trusted; agent-lsp
//! checks it wherever it is, since trust is the user's setting, not the file's).

use std::path::{Path, PathBuf};

use crate::analysis::discovery::{Claim, Disk, Pile, Stage};
use crate::analysis::host::{Options, Role};
use crate::analysis::spec::{At, DialectSpec};

/// The user option holding Gemini CLI's folder (`~/.gemini`, or `$GEMINI_CLI_HOME/.gemini`).
pub const HOME: &str = "gemini.home";

/// Gemini CLI's implementation of the dialect interface.
pub struct Spec;

impl DialectSpec for Spec {
    fn identity(&self) -> crate::analysis::spec::Identity {
        crate::analysis::spec::Identity {
            name: "gemini",
            product: "Gemini CLI",
            aliases: &["gemini-cli", "google-gemini"],
            checked_against: Some("0.61.0"),
        }
    }

    fn comments(&self, _kind: &crate::analysis::FileKind) -> crate::analysis::suppress::Comments {
        crate::analysis::suppress::Comments::Jsonc
    }

    fn list_rank(&self) -> u8 {
        5
    }

    fn rules(&self) -> &'static [crate::analysis::Code] {
        super::RULES
    }

    fn shares_every_dialect_rules(&self) -> bool {
        false
    }

    fn analyze(&self, kind: &crate::analysis::FileKind, text: &str) -> Option<crate::analysis::FileAnalysis> {
        let (diagnostics, parsed, facts) = super::analyze(kind.own()?, text);
        Some(crate::analysis::FileAnalysis::of(parsed, diagnostics, facts))
    }

    fn complete(
        &self,
        kind: &crate::analysis::FileKind,
        text: &str,
        offset: usize,
        _host: &dyn crate::analysis::host::Host,
        _id: Option<usize>,
    ) -> Option<Vec<crate::analysis::complete::Item>> {
        let _: &super::FileKind = kind.own()?;
        Some(super::editor::complete(text, offset))
    }

    fn hover(
        &self,
        host: &dyn crate::analysis::host::Host,
        id: usize,
        offset: usize,
        _where_is: crate::analysis::provenance::WhereIs,
    ) -> Option<Option<crate::analysis::spec::Hover>> {
        let f = host.file(id)?;
        let _: &super::FileKind = f.kind.own()?;
        Some(
            super::editor::hover(&f.analysis.parsed, offset)
                .map(|(text, span)| crate::analysis::spec::Hover::new(text, span)),
        )
    }

    fn config_folders(&self) -> &'static [&'static str] {
        &[".gemini"]
    }

    fn walk_keeps(&self, path: &Path, _depth: usize, _disk: &dyn Disk) -> Option<Pile> {
        kind_at(path, None)?;
        Some(Pile::Config)
    }

    fn kind_of(&self, path: &Path, at: &At, stage: Stage) -> Claim {
        if stage != Stage::Own {
            return None;
        }
        let (kind, role) = kind_at(path, at.host.options().user(HOME))?;
        Some(Some((kind.into(), role)))
    }

    fn kind_alone(&self, path: &Path, _at: &At, stage: Stage) -> Claim {
        if stage != Stage::Own {
            return None;
        }
        let (kind, role) = kind_at(path, None)?;
        Some(Some((kind.into(), role)))
    }

    fn watched(&self) -> &'static [&'static str] {
        &["**/.gemini/settings.json"]
    }

    fn user_options(&self, env: &dyn Fn(&str) -> Option<PathBuf>, _global_dir: Option<&Path>, o: &mut Options) {
        let home = env("GEMINI_CLI_HOME").or_else(|| o.home.clone());
        o.set_user(HOME, home.map(|h| h.join(".gemini")));
    }

    fn user_folders(&self, o: &Options) -> Vec<PathBuf> {
        o.user(HOME).map(Path::to_path_buf).into_iter().collect()
    }
}

/// What a path is to Gemini CLI, with its role: `home` is the user's `.gemini` folder.
fn kind_at(path: &Path, home: Option<&Path>) -> Option<(super::FileKind, Role)> {
    if path.file_name()? != "settings.json" {
        return None;
    }
    let dir = path.parent()?;
    if home == Some(dir) {
        return Some((
            super::FileKind::Settings { project: false },
            Role::Dialect {
                dir: dir.to_path_buf(),
                layer: 0,
            },
        ));
    }
    if dir.file_name()? != ".gemini" {
        return None;
    }
    Some((
        super::FileKind::Settings { project: true },
        Role::Dialect {
            dir: dir.parent()?.to_path_buf(),
            layer: 1,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gemini_files_are_known_by_their_place() {
        let p = |s: &str| PathBuf::from(s);
        let home = p("/home/u/.gemini");
        let kind = |s: &str| kind_at(&p(s), Some(&home)).map(|(k, _)| k);
        assert_eq!(
            kind("/w/.gemini/settings.json"),
            Some(super::super::FileKind::Settings { project: true })
        );
        assert_eq!(
            kind("/home/u/.gemini/settings.json"),
            Some(super::super::FileKind::Settings { project: false })
        );
        assert_eq!(kind("/w/gemini/settings.json"), None);
        assert_eq!(kind("/w/.gemini/settings.jsonc"), None);
        assert_eq!(kind("/w/.gemini/sub/settings.json"), None);
        let (_, role) = kind_at(&p("/w/.gemini/settings.json"), Some(&home)).unwrap();
        assert_eq!(role, Role::Dialect { dir: p("/w"), layer: 1 });
    }
}

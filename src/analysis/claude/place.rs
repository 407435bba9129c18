//! Where a Claude Code file sits: its [`Role::Dialect`] layer, which says what its folder is to
//! it.

use std::path::{Path, PathBuf};

use crate::analysis::Dialect;
use crate::analysis::host::{HostFile, Role};

/// What a Claude Code file's folder is to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// An agent file; the folder owns its `.claude/agents/` (the project, or the home folder for
    /// the user's agents) or is its plugin's root.
    Agent,
    /// `.claude/settings.json` or `settings.local.json` (or the user's); the folder holds the
    /// `.claude/`.
    Settings,
    /// A plugin's manifest, hooks file or server file, or a marketplace's manifest; the folder
    /// is the plugin's (the marketplace's) root.
    Plugin,
    /// A memory file (`CLAUDE.md`, a rule, ...); the folder it belongs to (the one holding it or
    /// its `.claude/`; the home folder for the user's).
    Memory,
    /// `.mcp.json`; the folder holds it.
    Mcp,
    /// An output style; the folder holds its `.claude/` (the project, the home folder) or is
    /// its plugin's root.
    OutputStyle,
}

impl Place {
    const ALL: [Place; 6] = [
        Place::Agent,
        Place::Settings,
        Place::Plugin,
        Place::Memory,
        Place::Mcp,
        Place::OutputStyle,
    ];

    /// The role of a Claude Code file in folder `dir`.
    pub fn role(self, dir: PathBuf) -> Role {
        Role::Dialect { dir, layer: self as u8 }
    }

    /// The place a role gives a file known to be Claude Code's, with its folder.
    pub fn of(role: &Role) -> Option<(&Path, Place)> {
        let (dir, layer) = role.dialect()?;
        Some((dir, *Place::ALL.get(usize::from(layer))?))
    }
}

/// The place of a Claude Code file (`None` for another runtime's file, or a shared kind).
pub fn place<'a>(f: &HostFile<'a>) -> Option<(&'a Path, Place)> {
    if f.kind.dialect() != Dialect::Claude {
        return None;
    }
    Place::of(f.role)
}

/// The folder of a Claude Code file at `place`.
pub fn dir_at<'a>(f: &HostFile<'a>, at: Place) -> Option<&'a Path> {
    place(f).and_then(|(dir, p)| (p == at).then_some(dir))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_round_trips_through_its_role() {
        let dir = PathBuf::from("/p");
        for p in Place::ALL {
            assert_eq!(Place::of(&p.role(dir.clone())), Some((dir.as_path(), p)));
        }
        assert_eq!(Place::of(&Role::Dialect { dir, layer: 6 }), None);
        assert_eq!(Place::of(&Role::NotRead), None);
    }
}

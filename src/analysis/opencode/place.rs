//! Where an opencode file sits: its [`Role::Dialect`] layer, its place in opencode's merge order.

use std::path::{Path, PathBuf};

use crate::analysis::host::{HostFile, Role};

/// What an opencode file is in the merge order, and what its folder is to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A config read before project configs: the global folder's `config.json`,
    /// `opencode.json`, `opencode.jsonc` (orders 0 to 2) and `$OPENCODE_CONFIG` (order 3); the
    /// folder holds it.
    User(u8),
    /// `opencode.json(c)` of a project folder.
    Project,
    /// `opencode.json(c)` inside a config folder (`.opencode/`, `~/.opencode`,
    /// `$OPENCODE_CONFIG_DIR`).
    Dir,
    /// A Markdown agent of a config folder.
    Markdown,
    /// `tui.json(c)`, the settings of the terminal interface; the folder holds it. Read on its
    /// own: no view merges it.
    Tui,
    /// A custom theme of the terminal interface (`themes/*.json`); the folder is the config
    /// folder holding `themes/`.
    Theme,
}

/// The layers after the four user configs.
const PROJECT: u8 = 4;

impl Place {
    /// The role of an opencode file in folder `dir`.
    pub fn role(self, dir: PathBuf) -> Role {
        let layer = match self {
            Place::User(order) => order.min(PROJECT - 1),
            Place::Project => PROJECT,
            Place::Dir => PROJECT + 1,
            Place::Markdown => PROJECT + 2,
            Place::Tui => PROJECT + 3,
            Place::Theme => PROJECT + 4,
        };
        Role::Dialect { dir, layer }
    }

    /// The place a role gives a file known to be opencode's, with its folder.
    pub fn of(role: &Role) -> Option<(&Path, Place)> {
        let (dir, layer) = role.dialect()?;
        let place = match layer {
            0..PROJECT => Place::User(layer),
            PROJECT => Place::Project,
            5 => Place::Dir,
            6 => Place::Markdown,
            7 => Place::Tui,
            8 => Place::Theme,
            _ => return None,
        };
        Some((dir, place))
    }
}

/// The place of an opencode file (`None` for another runtime's file, or a shared kind).
pub fn place<'a>(f: &HostFile<'a>) -> Option<(&'a Path, Place)> {
    f.kind.opencode()?;
    Place::of(f.role)
}

/// The folder of an opencode file at `place`.
pub fn dir_at<'a>(f: &HostFile<'a>, at: Place) -> Option<&'a Path> {
    place(f).and_then(|(dir, p)| (p == at).then_some(dir))
}

/// The config folder of a config inside one or of a Markdown agent.
pub fn config_dir<'a>(f: &HostFile<'a>) -> Option<&'a Path> {
    match place(f)? {
        (dir, Place::Dir | Place::Markdown) => Some(dir),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each place survives the trip through a role; a user config's order past the last one
    /// stays a user config (the last), never another place.
    #[test]
    fn a_place_round_trips_through_its_role() {
        let dir = PathBuf::from("/p");
        for p in [
            Place::User(0),
            Place::User(1),
            Place::User(2),
            Place::User(3),
            Place::Project,
            Place::Dir,
            Place::Markdown,
            Place::Tui,
            Place::Theme,
        ] {
            assert_eq!(Place::of(&p.role(dir.clone())), Some((dir.as_path(), p)));
        }
        assert_eq!(
            Place::of(&Place::User(9).role(dir.clone())),
            Some((dir.as_path(), Place::User(3)))
        );
        assert_eq!(Place::of(&Role::Dialect { dir, layer: 9 }), None);
        assert_eq!(Place::of(&Role::NotRead), None);
    }
}

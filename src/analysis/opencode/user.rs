//! The user's own folders and files opencode reads, as [`Options`] holds them (under the names
//! below), and a view of them by name.

use std::path::Path;

use crate::analysis::host::Options;

/// The global config directory (`$XDG_CONFIG_HOME/opencode` or `~/.config/opencode`, or the
/// folder `--global-dir` names).
pub const GLOBAL_DIR: &str = "opencode.global_dir";
/// `~/.opencode`.
pub const HOME_DOT_OPENCODE: &str = "opencode.home_dot_opencode";
/// `$OPENCODE_CONFIG`: one extra config file.
pub const CONFIG_FILE: &str = "opencode.config_file";
/// `$OPENCODE_CONFIG_DIR`: one extra config directory.
pub const CONFIG_DIR: &str = "opencode.config_dir";
/// `$OPENCODE_TUI_CONFIG`: one extra `tui.json` for the terminal interface.
pub const TUI_CONFIG: &str = "opencode.tui_config";

/// The user's folders and files opencode reads, by name.
#[derive(Clone, Copy, Debug, Default)]
pub struct User<'a> {
    /// The home directory.
    pub home: Option<&'a Path>,
    pub global_dir: Option<&'a Path>,
    pub home_dot_opencode: Option<&'a Path>,
    pub config_file: Option<&'a Path>,
    pub config_dir: Option<&'a Path>,
    pub tui_config: Option<&'a Path>,
}

/// opencode's part of the options.
pub fn of(o: &Options) -> User<'_> {
    User {
        home: o.home.as_deref(),
        global_dir: o.user(GLOBAL_DIR),
        home_dot_opencode: o.user(HOME_DOT_OPENCODE),
        config_file: o.user(CONFIG_FILE),
        config_dir: o.user(CONFIG_DIR),
        tui_config: o.user(TUI_CONFIG),
    }
}

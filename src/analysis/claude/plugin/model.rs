//! What a manifest is and what it declares: the manifest kinds and the component paths and
//! layout the workspace reads on disk.

use crate::analysis::text::Span;

/// Which manifest a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Manifest {
    /// `.claude-plugin/plugin.json`: one plugin.
    Plugin,
    /// `.claude-plugin/marketplace.json`: a catalog of plugins.
    Marketplace,
}

impl Manifest {
    /// The manifest at `path`, from its name and folder (`.claude-plugin/`).
    pub fn of_path(path: &std::path::Path) -> Option<Manifest> {
        if path.parent()?.file_name()? != ".claude-plugin" {
            return None;
        }
        match path.file_name()?.to_str()? {
            "plugin.json" => Some(Manifest::Plugin),
            "marketplace.json" => Some(Manifest::Marketplace),
            _ => None,
        }
    }

    pub fn file_name(self) -> &'static str {
        match self {
            Manifest::Plugin => "plugin.json",
            Manifest::Marketplace => "marketplace.json",
        }
    }
}

/// What a path in a manifest must be on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    File,
    Dir,
    /// A file or a directory (`commands`).
    Any,
}

/// A component path a `plugin.json` declares, to be checked on disk by the caller.
#[derive(Clone, Debug, PartialEq)]
pub struct DeclaredPath {
    /// The field (`agents`, `skills`, `hooks`, ...).
    pub field: &'static str,
    /// As written (`./agents/x.md`).
    pub path: String,
    pub span: Span,
    pub want: Want,
}

/// A command a plugin declares by path or by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandSource {
    /// A `.md` file or a folder of them, relative to the plugin root, without `./`.
    Path(String),
    /// `"commands": {"name": {"source": "./x.md"}}`: the file, named `name`.
    Named { name: String, source: String },
}

/// Where a plugin's components are, as the manifest says (paths without the leading `./`).
/// `None` or empty: the default folder only.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// `agents`: the agent files, instead of `agents/`.
    pub agents: Option<Vec<String>>,
    /// `commands`: instead of `commands/`.
    pub commands: Option<Vec<CommandSource>>,
    /// `skills`: folders read besides `skills/` (a skill folder itself, or a folder of them).
    pub skills: Vec<String>,
    /// `outputStyles`: the folders and `.md` files read instead of `output-styles/`.
    pub output_styles: Vec<String>,
    /// `mcpServers` and `lspServers`: the files named (read besides `.mcp.json` and `.lsp.json`).
    pub mcp_files: Vec<String>,
    pub lsp_files: Vec<String>,
    /// `monitors` (or `experimental.monitors`) is set: `monitors/monitors.json` is not read;
    /// `Some(path)` when it names a file.
    pub monitors: Option<Option<String>>,
}

/// What a manifest declares.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ManifestFile {
    /// `name`, when a string.
    pub name: Option<String>,
    /// Component paths to check on disk (`plugin.json` only).
    pub paths: Vec<DeclaredPath>,
    /// Where the plugin's components are (`plugin.json` only).
    pub layout: Layout,
    /// `marketplace.json`: each plugin entry's name and local `source` (relative to the
    /// marketplace root, `metadata.pluginRoot` applied, without `./`), with the span of the
    /// source.
    pub entries: Vec<(String, Option<(String, Span)>)>,
}

//! Claude Code plugins (release 2.1.332): the manifests `.claude-plugin/plugin.json` and
//! `.claude-plugin/marketplace.json`, and how a plugin's commands and skills are listed.
//!
//! `claude plugin validate --json` is the judge of the manifests: what it reports as an error or
//! a warning is reported here with the same severity, on the exact key or value. The messages
//! say what Claude Code does, found by running it (`claude-code.md` §8):
//!
//! - `plugin.json` is read as strict JSON (no comments, no trailing commas); a manifest that does
//!   not parse, or breaks the loader's schema (the plugin `name`, `version`, the component paths,
//!   `hooks`, `mcpServers`, ...), stops the whole plugin from loading. The descriptive fields
//!   (`description`, `author`, `homepage`, `repository`, `license`, `keywords`, `displayName`)
//!   are checked by the validator only: the loader takes the plugin with a wrong one.
//! - Component paths start with `./` (relative to the plugin root); `agents` lists `.md` files,
//!   `skills` directories, `hooks` a `.json` file. Setting `agents` or `commands` replaces the
//!   default `agents/` or `commands/` folder; `skills` adds to `skills/`. A path that does not
//!   exist or leaves the plugin is skipped at load (the rest loads); the validator rejects it.
//!   Existence is checked by the workspace (it reads the disk): [`ManifestFile::paths`].
//! - Unknown fields are ignored at load (a warning, with a "did you mean"); the marketplace's
//!   fields (`category`, `tags`, `source`, `strict`, `id`) are ignored in `plugin.json`.
//! - `marketplace.json`: a schema error at the top level stops `claude plugin marketplace add`;
//!   one in a plugin entry stops that plugin's install.
//!
//! Not checked (the validator's directory findings, which are no load problem): README, LICENSE,
//! icon files; nor the `version` of a marketplace entry against its `plugin.json` (another file).

use super::super::diagnostic::{Diagnostic, Effect, Location, Severity};
use super::super::rules::Code;
use super::super::suggest;
use super::super::syntax::{Map, Node, Parsed, Value, jsonc, path_at};
use super::super::text::Span;
use crate::analysis::complete::{Item, ItemKind, item, json_context};
// The sibling dialect modules, as `super::agent` and `super::read` in the submodules.
use super::{agent, read};

mod check;
mod components;
mod editor;
mod listed;
mod marketplace;

use check::*;
use components::*;
use marketplace::*;

pub use check::is_kebab;
pub use editor::{complete, hover};
pub(crate) use listed::js_string;
pub use listed::{Listed, listed};

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

/// How the loader treats a field's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The plugin's (or marketplace's) name.
    Name,
    /// A string the loader needs (`version`).
    Str,
    /// A descriptive string: checked by the validator only.
    Text,
    /// A descriptive URL.
    Url,
    /// `{name, email, url}`, descriptive.
    Person,
    /// A list of strings, descriptive.
    Words,
    /// A list of strings the loader reads (`tags` of a marketplace entry).
    StrList,
    Bool,
    /// An object of anything (`settings`).
    Record,
    /// `dependencies`: plugin names or `{name, ...}` objects.
    Dependencies,
    /// `engines`: `{"claude-code": ">=2.1.0"}`.
    Engines,
    /// `experimental`: `{monitors, themes}`.
    Experimental,
    /// `userConfig`: options the user is asked for.
    UserConfig,
    /// `channels`: `[{server, ...}]`.
    Channels,
    /// `agents`: `.md` file paths.
    Agents,
    /// `commands`: paths or an object of named commands.
    Commands,
    /// `skills`: directory paths.
    Skills,
    /// `hooks`: a `.json` path, an inline hooks object, or a list of those.
    Hooks,
    /// `mcpServers`: a path, an object of servers, or a list of those.
    McpServers,
    /// `lspServers`: a path, an object of servers, or a list of those.
    LspServers,
    /// `outputStyles`, `workflows`, `themes`, `monitors`: paths.
    Paths,
    /// A marketplace entry's `source`.
    Source,
    /// `icon` and the like: not checked.
    Any,
}

pub struct Field {
    pub name: &'static str,
    pub shape: Shape,
    pub doc: &'static str,
}

macro_rules! fields {
    ($vis:vis $id:ident: $($name:literal => $shape:ident, $doc:literal;)*) => {
        $vis static $id: &[Field] = &[$(Field { name: $name, shape: Shape::$shape, doc: $doc }),*];
    };
}

fields! { pub PLUGIN_FIELDS:
    "name" => Name, "The plugin's name (required): kebab-case, e.g. `my-plugin`. Its commands, agents and skills are namespaced with it (`/my-plugin:review`).";
    "version" => Str, "The plugin's version, a string (semver, e.g. `1.2.0`).";
    "description" => Text, "What the plugin does, shown when browsing plugins.";
    "author" => Person, "`{\"name\": ..., \"email\": ..., \"url\": ...}`; `name` is required.";
    "homepage" => Url, "Documentation URL.";
    "repository" => Text, "Source repository URL (a string).";
    "license" => Text, "SPDX license id, e.g. `MIT`.";
    "keywords" => Words, "Search keywords (a list of strings).";
    "displayName" => Text, "The name shown in the UI, if other than `name`.";
    "$schema" => Text, "The JSON schema of the file (ignored by Claude Code).";
    "icon" => Any, "The plugin's icon: a path to a square PNG in the plugin.";
    "defaultEnabled" => Bool, "`false`: installed disabled.";
    "dependencies" => Dependencies, "Other plugins this one needs: names or `{\"name\": ...}` objects.";
    "engines" => Engines, "`{\"claude-code\": \">=2.1.0\"}`: the Claude Code versions the plugin works with.";
    "commands" => Commands, "Command files or folders (`./` paths), or an object of named commands (`{\"name\": {\"source\": \"./x.md\"}}` or `{\"content\": ...}`). Replaces the default `commands/` folder.";
    "agents" => Agents, "Agent files (`./` paths ending in `.md`), a string or a list. Replaces the default `agents/` folder.";
    "skills" => Skills, "Skill folders (`./` paths): a folder holding `SKILL.md`, or a folder of such folders. Read besides the default `skills/` folder.";
    "hooks" => Hooks, "A hooks file (`./hooks/hooks.json`), an inline hooks object (`{\"PreToolUse\": [...]}`), or a list of those.";
    "mcpServers" => McpServers, "MCP servers: a `./` path to a JSON file, an object of servers (`{\"name\": {\"command\": ...}}`), or a list of those.";
    "lspServers" => LspServers, "Language servers: a `./` path, or an object of servers with `command` and `extensionToLanguage`.";
    "outputStyles" => Paths, "Output style files or folders (`./` paths).";
    "workflows" => Paths, "Workflow files or folders (`./` paths).";
    "themes" => Paths, "Experimental: declare under `experimental.themes`.";
    "monitors" => Paths, "Experimental: declare under `experimental.monitors`.";
    "experimental" => Experimental, "Experimental components: `{\"monitors\": ..., \"themes\": ...}`.";
    "settings" => Record, "Settings the plugin contributes (an object).";
    "userConfig" => UserConfig, "Options asked of the user at install: `{\"key\": {\"type\": \"string\", \"title\": ..., \"description\": ...}}`.";
    "channels" => Channels, "Message channels: `[{\"server\": ...}]`.";
}

fields! { pub MARKETPLACE_FIELDS:
    "name" => Name, "The marketplace's name (required): users install `plugin@name`.";
    "owner" => Person, "Who maintains the marketplace (required): `{\"name\": ..., \"email\": ...}`.";
    "plugins" => Any, "The plugins (required): a list of entries with `name` and `source`.";
    "metadata" => Any, "`{\"description\", \"version\", \"pluginRoot\"}`: `pluginRoot` is prepended to relative sources.";
    "description" => Text, "What the marketplace offers.";
    "version" => Text, "The marketplace's version.";
    "$schema" => Text, "The JSON schema of the file (ignored by Claude Code).";
}

fields! { pub ENTRY_FIELDS:
    "name" => Name, "The plugin's name in this marketplace (required): users install `name@marketplace`.";
    "source" => Source, "Where the plugin is (required): a `./` path from the marketplace root, or `{\"source\": \"github\", \"repo\": \"owner/repo\"}`, `{\"source\": \"url\", \"url\": ...}`, `{\"source\": \"git-subdir\", \"url\": ..., \"path\": ...}`, `{\"source\": \"npm\", \"package\": ...}`.";
    "description" => Text, "What the plugin does.";
    "version" => Text, "The plugin's version (its `plugin.json` wins at install).";
    "strict" => Bool, "`false`: this entry is the whole manifest (the plugin needs no `plugin.json`).";
    "category" => Text, "The category the plugin is listed under.";
    "tags" => Words, "Tags for search (a list of strings).";
    "keywords" => Words, "Search keywords (a list of strings).";
    "author" => Person, "`{\"name\": ..., \"email\": ..., \"url\": ...}`.";
    "homepage" => Url, "Documentation URL.";
    "repository" => Text, "Source repository URL.";
    "license" => Text, "SPDX license id.";
    "displayName" => Text, "The name shown in the UI.";
    "defaultEnabled" => Bool, "`false`: installed disabled.";
    "dependencies" => Dependencies, "Other plugins this one needs.";
    "commands" => Commands, "As in `plugin.json`: command paths, replacing `commands/`.";
    "agents" => Agents, "As in `plugin.json`: agent files, replacing `agents/`.";
    "skills" => Skills, "As in `plugin.json`: skill folders, besides `skills/`.";
    "hooks" => Hooks, "As in `plugin.json`.";
    "mcpServers" => McpServers, "As in `plugin.json`.";
    "lspServers" => LspServers, "As in `plugin.json`.";
    "outputStyles" => Paths, "As in `plugin.json`.";
}

/// Fields of a marketplace entry that do not belong in `plugin.json` (ignored there).
const MARKETPLACE_ONLY: &[&str] = &["category", "tags", "source", "strict", "id"];

/// Fields often copied from an npm `package.json` (ignored by Claude Code).
const NPM_FIELDS: &[&str] = &[
    "main",
    "bin",
    "scripts",
    "files",
    "type",
    "private",
    "contributors",
    "devDependencies",
    "peerDependencies",
    "publishConfig",
    "exports",
    "module",
    "types",
];

const SOURCE_KINDS: &[(&str, &[&str])] = &[
    ("github", &["repo"]),
    ("url", &["url"]),
    ("git-subdir", &["url", "path"]),
    ("npm", &["package"]),
];

const USER_CONFIG_TYPES: &[&str] = &["string", "number", "boolean", "directory", "file"];

/// Which file, and where in it: the plugin's own manifest, or an entry of a marketplace.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    Plugin,
    Marketplace,
    Entry,
}

/// How bad a problem is, as Claude Code treats it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fate {
    /// The loader's schema: the plugin (marketplace, entry) is refused.
    Refused,
    /// Checked by the validator only; Claude Code still loads it.
    Validator,
}

struct Cx {
    out: Vec<Diagnostic>,
    file: ManifestFile,
    /// A marketplace's `metadata.pluginRoot`: plugin sources without `./` are read below it.
    plugin_root: Option<String>,
    /// The file breaks the schema (or is no JSON): the validator then leaves out its advice on
    /// missing descriptive fields.
    schema_error: bool,
}

impl Cx {
    fn error(&mut self, code: Code, span: Span, what: String, scope: Scope, fate: Fate) {
        self.schema_error = true;
        let (tail, effect) = match (scope, fate) {
            (Scope::Plugin, Fate::Refused) => ("Claude Code does not load the plugin", Effect::FileIgnored),
            (Scope::Marketplace, Fate::Refused) => ("Claude Code cannot add the marketplace", Effect::FileIgnored),
            (Scope::Entry, _) => (
                "the marketplace loads, but Claude Code cannot install this plugin",
                Effect::FailsWhenUsed,
            ),
            (_, Fate::Validator) => (
                "`claude plugin validate` rejects it, though Claude Code loads the plugin",
                Effect::Works,
            ),
        };
        self.out.push(
            Diagnostic::new(code, span, format!("{what}: {tail}"))
                .with_severity(Severity::Error)
                .with_effect(effect),
        );
    }

    fn warn(&mut self, code: Code, span: Span, message: String, effect: Effect) -> &mut Diagnostic {
        self.out.push(
            Diagnostic::new(code, span, message)
                .with_severity(Severity::Warning)
                .with_effect(effect),
        );
        self.out.last_mut().expect("just pushed")
    }
}

/// The opening brace of an object (where a missing key is reported).
fn brace(node: &Node) -> Span {
    Span::new(node.span.start as usize, node.span.start as usize + 1)
}

/// Analyse a manifest on its own: diagnostics, the parsed tree and what it declares.
pub fn analyze(kind: Manifest, text: &str) -> (Vec<Diagnostic>, Parsed, ManifestFile) {
    let parsed = jsonc::parse(text);
    let mut cx = Cx {
        out: Vec::new(),
        file: ManifestFile::default(),
        plugin_root: None,
        schema_error: false,
    };
    let scope = match kind {
        Manifest::Plugin => Scope::Plugin,
        Manifest::Marketplace => Scope::Marketplace,
    };
    let unparsed = |what: &str| match kind {
        Manifest::Plugin => format!("{what}: Claude Code cannot parse the manifest and does not load the plugin"),
        Manifest::Marketplace => format!("{what}: Claude Code cannot parse the file and cannot add the marketplace"),
    };
    for e in &parsed.errors {
        cx.out.push(
            Diagnostic::new(Code::SyntaxError, e.span, unparsed(&e.message))
                .with_severity(Severity::Error)
                .with_effect(Effect::FileIgnored),
        );
    }
    for (span, what) in strict_json(text) {
        cx.out.push(
            Diagnostic::new(
                Code::SyntaxError,
                span,
                unparsed(&format!("{what} (the file is read as strict JSON)")),
            )
            .with_severity(Severity::Error)
            .with_effect(Effect::FileIgnored),
        );
    }
    cx.schema_error = !cx.out.is_empty();
    for d in &parsed.duplicates {
        cx.warn(
            Code::DuplicateKey,
            d.duplicate,
            format!("`{}` is set twice; Claude Code uses the last one", d.name),
            Effect::ValueIgnored,
        );
        let last = cx.out.len() - 1;
        cx.out[last] = cx.out[last]
            .clone()
            .with_related(Location::Here(d.first), "first set here");
    }
    if let Some(root) = &parsed.root {
        match &root.value {
            Value::Map(map) => match kind {
                Manifest::Plugin => plugin(&mut cx, root, map),
                Manifest::Marketplace => marketplace(&mut cx, root, map),
            },
            Value::Unknown => {}
            _ => cx.error(
                Code::InvalidType,
                root.span,
                format!("the manifest must be a JSON object, not {}", root.type_name()),
                scope,
                Fate::Refused,
            ),
        }
    }
    let mut out = cx.out;
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, parsed, cx.file)
}

/// What makes the text invalid as strict JSON although the recovering parser reads it: comments
/// and trailing commas, with what each is.
fn strict_json(text: &str) -> Vec<(Span, &'static str)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    // The last comma outside strings and comments, while only blanks and comments follow it.
    let mut comma: Option<usize> = None;
    while i < b.len() {
        match b[i] {
            b'"' => {
                comma = None;
                i += 1;
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = text[i..].find('\n').map_or(b.len(), |e| i + e);
                out.push((Span::new(i, end), "a comment"));
                i = end;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
                out.push((Span::new(i, end), "a comment"));
                i = end;
                continue;
            }
            b',' => comma = Some(i),
            b'}' | b']' => {
                if let Some(c) = comma.take() {
                    out.push((Span::new(c, c + 1), "a trailing comma"));
                }
            }
            b' ' | b'\t' | b'\r' | b'\n' => {}
            _ => comma = None,
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests;

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

fn plugin(cx: &mut Cx, root: &Node, map: &Map) {
    let scope = Scope::Plugin;
    match map.value("name") {
        None => cx.error(
            Code::MissingField,
            brace(root),
            "`name` is missing (the plugin's name is required)".into(),
            scope,
            Fate::Refused,
        ),
        Some(v) => plugin_name(cx, v, scope),
    }
    fields(cx, map, PLUGIN_FIELDS, scope);
    // The validator's advice, given once the file passes its schema.
    for (key, what) in [
        ("version", "No version specified (e.g. `\"1.0.0\"`)"),
        ("description", "No description: it tells users what the plugin does"),
        ("author", "No author (`{\"name\": ...}`), for attribution"),
    ] {
        if !map.contains(key) && !cx.schema_error {
            cx.warn(
                Code::MissingField,
                brace(root),
                format!("`{key}` is missing. {what}; `claude plugin validate` warns, Claude Code loads the plugin"),
                Effect::Works,
            );
        }
    }
}

fn plugin_name(cx: &mut Cx, v: &Node, scope: Scope) {
    let Value::Str(s) = &v.value else {
        if !v.is_unknown() {
            cx.error(
                Code::InvalidType,
                v.span,
                format!("`name` must be a string, not {}", v.type_name()),
                scope,
                Fate::Refused,
            );
        }
        return;
    };
    cx.file.name = Some(s.clone());
    if s.is_empty() {
        cx.error(
            Code::InvalidValue,
            v.span,
            "the plugin's `name` is empty".into(),
            scope,
            Fate::Refused,
        );
        return;
    }
    if s.chars().any(is_control) {
        cx.error(
            Code::InvalidValue,
            v.span,
            "the plugin's `name` contains a control or bidirectional-formatting character".into(),
            scope,
            Fate::Refused,
        );
        return;
    }
    if s.contains(' ') {
        cx.error(
            Code::InvalidValue,
            v.span,
            format!("the plugin's `name` `{s}` contains a space (use kebab-case, e.g. `my-plugin`)"),
            scope,
            Fate::Refused,
        );
        return;
    }
    match reserved(s) {
        Some(true) => cx.out.push(
            Diagnostic::new(
                Code::InvalidName,
                v.span,
                format!(
                    "the plugin name `{s}` is reserved for Anthropic's own plugins (no third-party name starts with `claude-`, `anthropic-` or `cc-plugin-`, is `claude`, `claude-code`, `anthropic`, or puts `official` beside `claude` or `anthropic`): `claude plugin validate` rejects it"
                ),
            )
            .with_severity(Severity::Error)
            .with_effect(Effect::Works),
        ),
        Some(false) => {
            cx.warn(
                Code::InvalidName,
                v.span,
                format!(
                    "the plugin name `{s}` reads as one of Anthropic's own (it holds the word `claude` or `anthropic`): name it for what it does; `claude plugin validate` warns"
                ),
                Effect::Works,
            );
        }
        None => {}
    }
    if scope == Scope::Entry {
        if !is_id(s) {
            // Checked after the schema: the advice on missing fields still comes.
            let schema_error = cx.schema_error;
            cx.error(
                Code::InvalidName,
                v.span,
                format!(
                    "`{s}` cannot be part of a plugin id (`plugin@marketplace`: letters, digits, `.`, `_` and `-`, starting with a letter or digit)"
                ),
                scope,
                Fate::Refused,
            );
            cx.schema_error = schema_error;
        }
        return;
    }
    if is_kebab(s) {
        return;
    }
    let fate = if s.chars().any(|c| matches!(c, ':' | '/' | '\\' | '@') || is_blank(c)) {
        "Claude Code refuses a plugin with this name when it is loaded by path (`--plugin-dir`) and cannot install it from a marketplace that lists it under this name"
    } else if !is_id(s) {
        "Claude Code loads it by path, but cannot install it from a marketplace that lists it under this name"
    } else {
        "Claude Code accepts it, but the Claude.ai marketplace sync requires kebab-case"
    };
    let effect = if fate.starts_with("Claude Code refuses") {
        Effect::FileIgnored
    } else {
        Effect::Works
    };
    let kebab = to_kebab(s);
    let d = cx.warn(
        Code::InvalidName,
        v.span,
        format!("the plugin name `{s}` is not kebab-case (lowercase letters, digits and single hyphens): {fate}"),
        effect,
    );
    if !kebab.is_empty() && v.span.len() == s.len() + 2 {
        *d = d.clone().with_suggestion(v.span, format!("\"{kebab}\""));
    }
}

/// Whether a plugin name passes as one of Anthropic's own: `Some(true)` reserved (the validator
/// rejects it), `Some(false)` it holds the word (a warning), `None` neither. Case and the
/// separators `_`, `.` and spaces do not matter.
fn reserved(name: &str) -> Option<bool> {
    let lower: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let words: Vec<&str> = lower.split('-').filter(|w| !w.is_empty()).collect();
    let joined = words.join("-");
    let brand = |w: &str| matches!(w, "claude" | "anthropic" | "anthropics");
    let reserved = ["claude-", "anthropic-", "anthropics-", "cc-plugin-"]
        .iter()
        .any(|p| joined.starts_with(p))
        || ["claude", "anthropic", "anthropics", "claude-code", "claude-mods"].contains(&joined.as_str())
        || ["claudecode", "claudemods"].contains(&words.concat().as_str())
        || words
            .windows(2)
            .any(|w| (w[0] == "official" && brand(w[1])) || (brand(w[0]) && w[1] == "official"));
    if reserved {
        Some(true)
    } else if words.iter().any(|w| brand(w)) {
        Some(false)
    } else {
        None
    }
}

fn is_control(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn is_blank(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{200b}'..='\u{200d}' | '\u{feff}')
}

/// `my-plugin`: lowercase letters and digits in groups joined by single hyphens.
pub fn is_kebab(s: &str) -> bool {
    !s.is_empty()
        && s.split('-')
            .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()))
}

/// One part of a plugin id: letters, digits, `.`, `_`, `-`, starting with a letter or digit.
fn is_id(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

fn to_kebab(s: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in s.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
            prev_lower = true;
        } else {
            if !out.ends_with('-') && !out.is_empty() {
                out.push('-');
            }
            prev_lower = false;
        }
    }
    out.trim_end_matches('-').to_string()
}

/// The fields of one object against a field table: unknown fields, then each known one.
fn fields(cx: &mut Cx, map: &Map, table: &'static [Field], scope: Scope) {
    for e in map.entries.iter() {
        let key = e.key.name.as_str();
        let v = &e.value;
        let Some(field) = table.iter().find(|f| f.name == key) else {
            unknown(cx, key, e.key.span, table, scope);
            continue;
        };
        if scope == Scope::Plugin && matches!(key, "themes" | "monitors") {
            cx.warn(
                Code::DeprecatedField,
                e.key.span,
                format!(
                    "`{key}` is experimental: declare it under `experimental.{key}`; Claude Code still reads it at the top level, but a future release will not"
                ),
                Effect::Works,
            );
        }
        if key == "name" && scope != Scope::Plugin {
            continue; // checked with the entry or marketplace
        }
        value(cx, field.name, v, field.shape, scope);
    }
}

fn unknown(cx: &mut Cx, key: &str, span: Span, table: &'static [Field], scope: Scope) {
    let ignored = match scope {
        Scope::Entry => "Claude Code ignores it in a marketplace entry",
        _ => "Claude Code ignores it at load time",
    };
    if scope == Scope::Plugin && MARKETPLACE_ONLY.contains(&key) {
        cx.warn(
            Code::UnknownKey,
            span,
            format!("`{key}` belongs in the plugin's entry in `marketplace.json`, not in `plugin.json`: {ignored}"),
            Effect::ValueIgnored,
        );
        return;
    }
    if scope == Scope::Plugin && key == "capabilities" {
        cx.warn(
            Code::DeprecatedField,
            span,
            "`capabilities` is no longer read (what a hooks module uses is read from its source): delete it".into(),
            Effect::ValueIgnored,
        );
        return;
    }
    let near = suggest::closest(key, table.iter().map(|f| f.name));
    let npm = if NPM_FIELDS.contains(&key) {
        " (an npm `package.json` field)"
    } else {
        ""
    };
    let d = cx.warn(
        Code::UnknownKey,
        span,
        format!("unknown field `{key}`{npm}: {ignored}.{}", suggest::did_you_mean(near)),
        Effect::ValueIgnored,
    );
    if let Some(n) = near {
        *d = d.clone().with_suggestion(span, format!("\"{n}\""));
    }
}

/// The fate of a type error in a field of this shape: descriptive fields are the validator's
/// alone in a plugin's own manifest; everything else is the loader's schema.
fn fate_of(shape: Shape, scope: Scope) -> Fate {
    match (scope, shape) {
        (Scope::Plugin, Shape::Text | Shape::Url | Shape::Person | Shape::Words) => Fate::Validator,
        _ => Fate::Refused,
    }
}

fn value(cx: &mut Cx, key: &'static str, v: &Node, shape: Shape, scope: Scope) {
    if v.is_unknown() {
        return;
    }
    let fate = fate_of(shape, scope);
    let type_error = |cx: &mut Cx, want: &str| {
        cx.error(
            Code::InvalidType,
            v.span,
            format!("`{key}` must be {want}, not {}", v.type_name()),
            scope,
            fate,
        )
    };
    match shape {
        Shape::Name => {}
        Shape::Str | Shape::Text => {
            if !matches!(v.value, Value::Str(_)) {
                type_error(cx, "a string");
            }
        }
        Shape::Url => match &v.value {
            Value::Str(s) if !is_url(s) => cx.error(
                Code::InvalidValue,
                v.span,
                format!("`{key}` is not a URL (`https://...`)"),
                scope,
                fate,
            ),
            Value::Str(_) => {}
            _ => type_error(cx, "a URL string"),
        },
        Shape::Person => person(cx, key, v, scope, fate),
        Shape::Words | Shape::StrList => match &v.value {
            Value::Seq(items) => {
                for item in items
                    .iter()
                    .filter(|i| !matches!(i.value, Value::Str(_) | Value::Unknown))
                {
                    cx.error(
                        Code::InvalidType,
                        item.span,
                        format!("the items of `{key}` must be strings, not {}", item.type_name()),
                        scope,
                        fate,
                    );
                }
            }
            _ => type_error(cx, "a list of strings"),
        },
        Shape::Bool => {
            if !matches!(v.value, Value::Bool(_)) {
                type_error(cx, "`true` or `false`");
            }
        }
        Shape::Record => {
            if !matches!(v.value, Value::Map(_)) {
                type_error(cx, "an object");
            }
        }
        Shape::Dependencies => match &v.value {
            Value::Seq(items) => {
                for item in items.iter() {
                    let ok = match &item.value {
                        Value::Str(_) | Value::Unknown => true,
                        Value::Map(m) => m.value("name").is_some_and(|n| matches!(n.value, Value::Str(_))),
                        _ => false,
                    };
                    if !ok {
                        cx.error(
                            Code::InvalidType,
                            item.span,
                            "a dependency must be a plugin name or an object with a `name`".into(),
                            scope,
                            fate,
                        );
                    }
                }
            }
            _ => type_error(cx, "a list"),
        },
        Shape::Engines => match &v.value {
            Value::Map(m) => {
                if let Some(r) = m.value("claude-code")
                    && !r.is_unknown()
                    && !r.as_str().is_some_and(is_version_range)
                {
                    cx.error(
                        Code::InvalidValue,
                        r.span,
                        format!(
                            "`engines.claude-code` must be a version range such as `\">=2.1.0\"`, not {}; Claude Code ignores it",
                            r.display()
                        ),
                        Scope::Plugin,
                        Fate::Validator,
                    );
                }
            }
            _ => {
                cx.warn(
                    Code::InvalidType,
                    v.span,
                    format!(
                        "`engines` must be an object such as `{{\"claude-code\": \">=2.1.0\"}}`, not {}: Claude Code ignores it",
                        v.type_name()
                    ),
                    Effect::ValueIgnored,
                );
            }
        },
        Shape::Experimental => match &v.value {
            Value::Map(m) => {
                for e in m.entries.iter() {
                    match e.key.name.as_str() {
                        "monitors" => value(cx, "monitors", &e.value, Shape::Paths, scope),
                        "themes" => value(cx, "themes", &e.value, Shape::Paths, scope),
                        other => {
                            let near = suggest::closest(other, ["monitors", "themes"]);
                            cx.warn(
                                Code::UnknownKey,
                                e.key.span,
                                format!(
                                    "unknown experimental component `{other}`: Claude Code ignores it.{}",
                                    suggest::did_you_mean(near)
                                ),
                                Effect::ValueIgnored,
                            );
                        }
                    }
                }
            }
            _ => {
                cx.warn(
                    Code::InvalidType,
                    v.span,
                    format!(
                        "`experimental` must be an object of component declarations, not {}: Claude Code ignores it",
                        v.type_name()
                    ),
                    Effect::ValueIgnored,
                );
            }
        },
        Shape::UserConfig => user_config(cx, v, scope),
        Shape::Channels => match &v.value {
            Value::Seq(items) => {
                for item in items.iter() {
                    match &item.value {
                        Value::Map(m) => {
                            if !m.value("server").is_some_and(|s| matches!(s.value, Value::Str(_))) {
                                cx.error(
                                    Code::MissingField,
                                    brace(item),
                                    "a channel needs a string `server`".into(),
                                    scope,
                                    fate,
                                );
                            }
                        }
                        Value::Unknown => {}
                        _ => cx.error(
                            Code::InvalidType,
                            item.span,
                            format!("a channel must be an object with `server`, not {}", item.type_name()),
                            scope,
                            fate,
                        ),
                    }
                }
            }
            _ => type_error(cx, "a list"),
        },
        Shape::Agents => {
            let ok = paths(cx, key, v, scope, PathRule::AGENTS);
            if ok && scope == Scope::Plugin {
                cx.file.layout.agents = Some(strings(v).into_iter().map(|s| strip_dot(&s)).collect());
            }
        }
        Shape::Skills => {
            let ok = paths(cx, key, v, scope, PathRule::SKILLS);
            if ok && scope == Scope::Plugin {
                cx.file.layout.skills = strings(v).into_iter().map(|s| strip_dot(&s)).collect();
            }
        }
        Shape::Commands => commands(cx, v, scope),
        Shape::Hooks => inline_or_paths(cx, key, v, scope, PathRule::HOOKS),
        Shape::McpServers | Shape::LspServers => inline_or_paths(cx, key, v, scope, PathRule::ANY_FILE),
        Shape::Paths => {
            paths(cx, key, v, scope, PathRule::ANY);
        }
        Shape::Source => source(cx, v),
        Shape::Any => {}
    }
}

fn person(cx: &mut Cx, key: &'static str, v: &Node, scope: Scope, fate: Fate) {
    match &v.value {
        Value::Map(m) => match m.value("name") {
            None => cx.error(
                Code::MissingField,
                brace(v),
                format!("`{key}.name` is missing"),
                scope,
                fate,
            ),
            Some(n) if !matches!(n.value, Value::Str(_) | Value::Unknown) => cx.error(
                Code::InvalidType,
                n.span,
                format!("`{key}.name` must be a string, not {}", n.type_name()),
                scope,
                fate,
            ),
            Some(_) => {}
        },
        _ => cx.error(
            Code::InvalidType,
            v.span,
            format!(
                "`{key}` must be an object such as `{{\"name\": \"...\", \"email\": \"...\"}}`, not {}",
                v.type_name()
            ),
            scope,
            fate,
        ),
    }
}

fn user_config(cx: &mut Cx, v: &Node, scope: Scope) {
    let Value::Map(m) = &v.value else {
        cx.error(
            Code::InvalidType,
            v.span,
            format!("`userConfig` must be an object of options, not {}", v.type_name()),
            scope,
            Fate::Refused,
        );
        return;
    };
    for e in m.entries.iter() {
        let name = &e.key.name;
        let Value::Map(opt) = &e.value.value else {
            if !e.value.is_unknown() {
                cx.error(
                    Code::InvalidType,
                    e.value.span,
                    format!("the option `{name}` must be an object, not {}", e.value.type_name()),
                    scope,
                    Fate::Refused,
                );
            }
            continue;
        };
        match opt.value("type") {
            Some(t) if t.as_str().is_some_and(|s| USER_CONFIG_TYPES.contains(&s)) || t.is_unknown() => {}
            Some(t) => cx.error(
                Code::InvalidValue,
                t.span,
                format!(
                    "the `type` of option `{name}` must be one of {}, not {}",
                    list(USER_CONFIG_TYPES),
                    t.display()
                ),
                scope,
                Fate::Refused,
            ),
            None => {}
        }
        for req in ["title", "description"] {
            match opt.value(req) {
                None => cx.error(
                    Code::MissingField,
                    brace(&e.value),
                    format!("the option `{name}` has no `{req}`"),
                    scope,
                    Fate::Refused,
                ),
                Some(s) if !matches!(s.value, Value::Str(_) | Value::Unknown) => cx.error(
                    Code::InvalidType,
                    s.span,
                    format!("the `{req}` of option `{name}` must be a string, not {}", s.type_name()),
                    scope,
                    Fate::Refused,
                ),
                Some(_) => {}
            }
        }
    }
}

/// What a path field accepts.
#[derive(Clone, Copy)]
struct PathRule {
    /// The extension every path must end with.
    ext: Option<&'static str>,
    want: Want,
    /// A list of paths is accepted (not only one string).
    list: bool,
}

impl PathRule {
    const AGENTS: PathRule = PathRule {
        ext: Some(".md"),
        want: Want::File,
        list: true,
    };
    const SKILLS: PathRule = PathRule {
        ext: None,
        want: Want::Dir,
        list: true,
    };
    const HOOKS: PathRule = PathRule {
        ext: Some(".json"),
        want: Want::File,
        list: true,
    };
    const ANY_FILE: PathRule = PathRule {
        ext: None,
        want: Want::File,
        list: true,
    };
    const ANY: PathRule = PathRule {
        ext: None,
        want: Want::Any,
        list: true,
    };
}

/// The strings of a string or list value.
fn strings(v: &Node) -> Vec<String> {
    match &v.value {
        Value::Str(s) => vec![s.clone()],
        Value::Seq(items) => items.iter().filter_map(|i| i.as_str().map(str::to_string)).collect(),
        _ => Vec::new(),
    }
}

fn strip_dot(s: &str) -> String {
    s.strip_prefix("./").unwrap_or(s).trim_end_matches('/').to_string()
}

/// A path field: one string or a list of strings. Returns whether its shape is valid (every
/// entry a `./` string with the right extension), which is when Claude Code reads it.
fn paths(cx: &mut Cx, key: &'static str, v: &Node, scope: Scope, rule: PathRule) -> bool {
    match &v.value {
        Value::Str(_) => path(cx, key, v, scope, rule),
        Value::Seq(items) if rule.list => {
            let mut ok = true;
            for item in items.iter() {
                ok &= match &item.value {
                    Value::Str(_) => path(cx, key, item, scope, rule),
                    Value::Unknown => false,
                    _ => {
                        cx.error(
                            Code::InvalidType,
                            item.span,
                            format!("the paths of `{key}` must be strings, not {}", item.type_name()),
                            scope,
                            Fate::Refused,
                        );
                        false
                    }
                };
            }
            ok
        }
        Value::Unknown => false,
        _ => {
            cx.error(
                Code::InvalidType,
                v.span,
                format!("`{key}` must be a `./` path or a list of them, not {}", v.type_name()),
                scope,
                Fate::Refused,
            );
            false
        }
    }
}

/// One path string: `./`, the extension, no `..`; recorded for the check on disk.
fn path(cx: &mut Cx, key: &'static str, node: &Node, scope: Scope, rule: PathRule) -> bool {
    let Some(p) = node.as_str() else { return false };
    if !p.starts_with("./") {
        cx.error(
            Code::InvalidValue,
            node.span,
            format!("`{p}` must start with `./` (paths are relative to the plugin root)"),
            scope,
            Fate::Refused,
        );
        return false;
    }
    if let Some(ext) = rule.ext
        && !p.ends_with(ext)
    {
        let hint = if key == "agents" {
            " (`agents` lists agent files, not a folder: list each file, or leave `agents` out to read `agents/`)"
        } else {
            ""
        };
        cx.error(
            Code::InvalidValue,
            node.span,
            format!("`{p}` must end with `{ext}`{hint}"),
            scope,
            Fate::Refused,
        );
        return false;
    }
    if p.split(['/', '\\']).any(|seg| seg == "..") {
        let d = Diagnostic::new(
            Code::InvalidValue,
            node.span,
            format!(
                "`{p}` contains `..`: `claude plugin validate` rejects it, and Claude Code skips a path that leaves the plugin's folder"
            ),
        )
        .with_severity(Severity::Error)
        .with_effect(Effect::ValueIgnored);
        cx.out.push(d);
        return true;
    }
    if scope == Scope::Plugin {
        cx.file.paths.push(DeclaredPath {
            field: key,
            path: p.to_string(),
            span: node.span,
            want: rule.want,
        });
    }
    true
}

/// `hooks`, `mcpServers`, `lspServers`: a path, an inline object, or a list of those.
fn inline_or_paths(cx: &mut Cx, key: &'static str, v: &Node, scope: Scope, rule: PathRule) {
    match &v.value {
        Value::Str(_) => {
            path(cx, key, v, scope, rule);
        }
        Value::Map(m) => inline(cx, key, m, scope),
        Value::Seq(items) => {
            for item in items.iter() {
                match &item.value {
                    Value::Str(_) => {
                        path(cx, key, item, scope, rule);
                    }
                    Value::Map(m) => inline(cx, key, m, scope),
                    Value::Unknown => {}
                    _ => cx.error(
                        Code::InvalidType,
                        item.span,
                        format!(
                            "the items of `{key}` must be paths or objects, not {}",
                            item.type_name()
                        ),
                        scope,
                        Fate::Refused,
                    ),
                }
            }
        }
        Value::Unknown => {}
        _ => cx.error(
            Code::InvalidType,
            v.span,
            format!(
                "`{key}` must be a `./` path, an object or a list of those, not {}",
                v.type_name()
            ),
            scope,
            Fate::Refused,
        ),
    }
}

fn inline(cx: &mut Cx, key: &'static str, m: &Map, scope: Scope) {
    match key {
        "hooks" => {
            for e in m.entries.iter() {
                let event = e.key.name.as_str();
                if !super::agent::HOOK_EVENTS.contains(&event) {
                    let near = suggest::closest(event, super::agent::HOOK_EVENTS.iter().copied());
                    cx.warn(
                        Code::UnknownKey,
                        e.key.span,
                        format!(
                            "`{event}` is no hook event: Claude Code ignores its hooks.{}",
                            suggest::did_you_mean(near)
                        ),
                        Effect::ValueIgnored,
                    );
                    continue;
                }
                // A broken PreToolUse/PermissionRequest hook may be what guards the permissions
                // beside it: the plugin is refused. Any other broken entry is skipped.
                let guard = matches!(event, "PreToolUse" | "PermissionRequest");
                let problem = |cx: &mut Cx, code: Code, span: Span, what: String| {
                    if guard {
                        cx.error(code, span, what, scope, Fate::Refused);
                    } else {
                        cx.warn(
                            code,
                            span,
                            format!("{what}: Claude Code ignores this `{event}` entry"),
                            Effect::ValueIgnored,
                        );
                    }
                };
                let Value::Seq(matchers) = &e.value.value else {
                    if !e.value.is_unknown() {
                        problem(
                            cx,
                            Code::InvalidType,
                            e.value.span,
                            format!("`{event}` must be a list of matchers, not {}", e.value.type_name()),
                        );
                    }
                    continue;
                };
                for m in matchers.iter() {
                    let Value::Map(matcher) = &m.value else {
                        if !m.is_unknown() {
                            problem(
                                cx,
                                Code::InvalidType,
                                m.span,
                                format!("a matcher of `{event}` must be an object, not {}", m.type_name()),
                            );
                        }
                        continue;
                    };
                    let Some(hooks) = matcher.value("hooks") else { continue };
                    let Value::Seq(items) = &hooks.value else {
                        if !hooks.is_unknown() {
                            problem(
                                cx,
                                Code::InvalidType,
                                hooks.span,
                                format!(
                                    "`hooks` of a matcher must be a list of hooks, not {}",
                                    hooks.type_name()
                                ),
                            );
                        }
                        continue;
                    };
                    for h in items.iter() {
                        if let Some(t) = h.as_map().and_then(|m| m.value("type"))
                            && let Some(s) = t.as_str()
                            && !super::agent::HOOK_TYPES.contains(&s)
                        {
                            problem(
                                cx,
                                Code::InvalidValue,
                                t.span,
                                format!("`{s}` is no hook type (one of {})", list(super::agent::HOOK_TYPES)),
                            );
                        }
                    }
                }
            }
        }
        _ => {
            // An object of servers: each an object; MCP servers need `command` or `url`,
            // language servers `command` and `extensionToLanguage`.
            for e in m.entries.iter() {
                let name = &e.key.name;
                let Value::Map(server) = &e.value.value else {
                    if !e.value.is_unknown() {
                        cx.error(
                            Code::InvalidType,
                            e.value.span,
                            format!("the server `{name}` must be an object, not {}", e.value.type_name()),
                            scope,
                            Fate::Refused,
                        );
                    }
                    continue;
                };
                let has = |k: &str| server.value(k).is_some_and(|n| matches!(n.value, Value::Str(_)));
                let missing = if key == "mcpServers" {
                    (!has("command") && !has("url")).then_some("a `command` (or a `url`)")
                } else if !has("command") {
                    Some("a `command`")
                } else if !server.contains("extensionToLanguage") {
                    Some("an `extensionToLanguage` map")
                } else {
                    None
                };
                if let Some(what) = missing {
                    cx.error(
                        Code::MissingField,
                        e.key.span,
                        format!("the server `{name}` of `{key}` needs {what}"),
                        scope,
                        Fate::Refused,
                    );
                }
            }
        }
    }
}

/// `commands`: a path, a list of paths, or an object of named commands.
fn commands(cx: &mut Cx, v: &Node, scope: Scope) {
    match &v.value {
        Value::Map(m) => {
            let mut named = Vec::new();
            let mut ok = true;
            for e in m.entries.iter() {
                let name = &e.key.name;
                let Value::Map(c) = &e.value.value else {
                    if !e.value.is_unknown() {
                        cx.error(
                            Code::InvalidType,
                            e.value.span,
                            format!("the command `{name}` must be an object, not {}", e.value.type_name()),
                            scope,
                            Fate::Refused,
                        );
                    }
                    ok = false;
                    continue;
                };
                match (c.value("source"), c.contains("content")) {
                    (Some(s), false) => {
                        if matches!(s.value, Value::Str(_)) && path(cx, "commands", s, scope, PathRule::ANY) {
                            named.push(CommandSource::Named {
                                name: name.clone(),
                                source: strip_dot(s.as_str().unwrap_or_default()),
                            });
                        } else if !matches!(s.value, Value::Str(_)) {
                            cx.error(
                                Code::InvalidType,
                                s.span,
                                format!(
                                    "the `source` of command `{name}` must be a `./` path, not {}",
                                    s.type_name()
                                ),
                                scope,
                                Fate::Refused,
                            );
                            ok = false;
                        }
                    }
                    (None, true) => {}
                    _ => {
                        cx.error(
                            Code::InvalidValue,
                            e.key.span,
                            format!(
                                "the command `{name}` must have either `source` (a file) or `content` (inline Markdown), not both or neither"
                            ),
                            scope,
                            Fate::Refused,
                        );
                        ok = false;
                    }
                }
            }
            if ok && scope == Scope::Plugin {
                cx.file.layout.commands = Some(named);
            }
        }
        _ => {
            if paths(cx, "commands", v, scope, PathRule::ANY) && scope == Scope::Plugin {
                cx.file.layout.commands = Some(
                    strings(v)
                        .into_iter()
                        .map(|s| CommandSource::Path(strip_dot(&s)))
                        .collect(),
                );
            }
        }
    }
}

/// A marketplace entry's `source`.
fn source(cx: &mut Cx, v: &Node) {
    let scope = Scope::Entry;
    match &v.value {
        Value::Str(s) => {
            if !s.starts_with("./") && cx.plugin_root.is_none() {
                cx.error(
                    Code::InvalidValue,
                    v.span,
                    format!("the source `{s}` must start with `./` (relative to the marketplace root)"),
                    scope,
                    Fate::Refused,
                );
            } else if s.split(['/', '\\']).any(|seg| seg == "..") {
                cx.error(
                    Code::InvalidValue,
                    v.span,
                    format!(
                        "the source `{s}` contains `..`: sources are relative to the marketplace root (the folder holding `.claude-plugin/`), not to `marketplace.json`"
                    ),
                    scope,
                    Fate::Refused,
                );
            }
        }
        Value::Map(m) => {
            let kind = m.value("source");
            match kind.and_then(Node::as_str) {
                Some(k) if SOURCE_KINDS.iter().any(|(n, _)| *n == k) => {
                    let (_, needs) = SOURCE_KINDS.iter().find(|(n, _)| *n == k).expect("found");
                    for need in *needs {
                        if !m.value(need).is_some_and(|n| matches!(n.value, Value::Str(_))) {
                            cx.error(
                                Code::MissingField,
                                brace(v),
                                format!("a `{k}` source needs a string `{need}`"),
                                scope,
                                Fate::Refused,
                            );
                        }
                    }
                    if let Some(sha) = m.value("sha")
                        && !sha.as_str().is_some_and(|s| {
                            s.len() == 40 && s.chars().all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
                        })
                    {
                        cx.error(
                            Code::InvalidValue,
                            sha.span,
                            "`sha` must be a full 40-character lowercase git commit SHA".into(),
                            scope,
                            Fate::Refused,
                        );
                    }
                }
                Some(k) => {
                    let kinds: Vec<&str> = SOURCE_KINDS.iter().map(|(n, _)| *n).collect();
                    let near = suggest::closest(k, kinds.iter().copied());
                    cx.error(
                        Code::InvalidValue,
                        kind.map_or(v.span, |n| n.span),
                        format!(
                            "`{k}` is no source type (one of {}).{}",
                            list(&kinds),
                            suggest::did_you_mean(near)
                        ),
                        scope,
                        Fate::Refused,
                    );
                }
                None => cx.error(
                    Code::MissingField,
                    kind.map_or(brace(v), |n| n.span),
                    "a source object needs `source`: `github`, `url`, `git-subdir` or `npm`".into(),
                    scope,
                    Fate::Refused,
                ),
            }
        }
        Value::Unknown => {}
        _ => cx.error(
            Code::InvalidType,
            v.span,
            format!("`source` must be a `./` path or a source object, not {}", v.type_name()),
            scope,
            Fate::Refused,
        ),
    }
}

fn marketplace(cx: &mut Cx, root: &Node, map: &Map) {
    let scope = Scope::Marketplace;
    cx.plugin_root = map
        .value("metadata")
        .and_then(Node::as_map)
        .and_then(|m| m.value("pluginRoot"))
        .and_then(Node::as_str)
        .map(strip_dot);
    match map.value("name") {
        None => cx.error(
            Code::MissingField,
            brace(root),
            "`name` is missing (the marketplace's name is required)".into(),
            scope,
            Fate::Refused,
        ),
        Some(v) => match &v.value {
            Value::Str(s) => {
                cx.file.name = Some(s.clone());
                if s.contains(' ') {
                    cx.error(
                        Code::InvalidValue,
                        v.span,
                        format!("the marketplace name `{s}` contains a space (use kebab-case)"),
                        scope,
                        Fate::Refused,
                    );
                } else if !is_id(s) {
                    // Checked after the schema: the advice on missing fields still comes.
                    let schema_error = cx.schema_error;
                    cx.error(
                        Code::InvalidName,
                        v.span,
                        format!(
                            "`{s}` cannot be part of a plugin id (`plugin@marketplace`: letters, digits, `.`, `_` and `-`, starting with a letter or digit)"
                        ),
                        scope,
                        Fate::Refused,
                    );
                    cx.schema_error = schema_error;
                }
            }
            Value::Unknown => {}
            _ => cx.error(
                Code::InvalidType,
                v.span,
                format!("`name` must be a string, not {}", v.type_name()),
                scope,
                Fate::Refused,
            ),
        },
    }
    match map.value("owner") {
        None => cx.error(
            Code::MissingField,
            brace(root),
            "`owner` is missing (`{\"name\": ...}`, required)".into(),
            scope,
            Fate::Refused,
        ),
        Some(v) => person(cx, "owner", v, scope, Fate::Refused),
    }
    match map.value("plugins") {
        None => cx.error(
            Code::MissingField,
            brace(root),
            "`plugins` is missing (the list of plugins, required)".into(),
            scope,
            Fate::Refused,
        ),
        Some(v) => match &v.value {
            Value::Seq(items) => {
                if items.is_empty() {
                    cx.warn(
                        Code::MissingField,
                        v.span,
                        "`plugins` is empty: the marketplace offers no plugin".into(),
                        Effect::Works,
                    );
                }
                for item in items.iter() {
                    entry(cx, item);
                }
                duplicates(cx, items);
            }
            Value::Unknown => {}
            _ => cx.error(
                Code::InvalidType,
                v.span,
                format!("`plugins` must be a list of plugin entries, not {}", v.type_name()),
                scope,
                Fate::Refused,
            ),
        },
    }
    if let Some(meta) = map.value("metadata") {
        match &meta.value {
            Value::Map(m) => {
                for e in m.entries.iter() {
                    let key = e.key.name.as_str();
                    if ["description", "version", "pluginRoot"].contains(&key) {
                        if !matches!(e.value.value, Value::Str(_) | Value::Unknown) {
                            cx.error(
                                Code::InvalidType,
                                e.value.span,
                                format!("`metadata.{key}` must be a string, not {}", e.value.type_name()),
                                scope,
                                Fate::Refused,
                            );
                        }
                    } else {
                        let near = suggest::closest(key, ["description", "version", "pluginRoot"]);
                        cx.warn(
                            Code::UnknownKey,
                            e.key.span,
                            format!(
                                "unknown field `metadata.{key}`: Claude Code ignores it.{}",
                                suggest::did_you_mean(near)
                            ),
                            Effect::ValueIgnored,
                        );
                    }
                }
            }
            Value::Unknown => {}
            _ => cx.error(
                Code::InvalidType,
                meta.span,
                format!("`metadata` must be an object, not {}", meta.type_name()),
                scope,
                Fate::Refused,
            ),
        }
    }
    for e in map.entries.iter() {
        let key = e.key.name.as_str();
        match MARKETPLACE_FIELDS.iter().find(|f| f.name == key) {
            None => unknown(cx, key, e.key.span, MARKETPLACE_FIELDS, scope),
            Some(f) if f.shape == Shape::Text => value(cx, f.name, &e.value, Shape::Text, scope),
            Some(_) => {}
        }
    }
    let described = map.contains("description")
        || map
            .value("metadata")
            .and_then(Node::as_map)
            .is_some_and(|m| m.contains("description"));
    if !described && !cx.schema_error {
        cx.warn(
            Code::MissingField,
            brace(root),
            "`description` is missing. No description: it tells users what the marketplace offers; `claude plugin validate` warns".into(),
            Effect::Works,
        );
    }
}

/// One plugin entry of a marketplace.
fn entry(cx: &mut Cx, item: &Node) {
    let scope = Scope::Entry;
    let Value::Map(m) = &item.value else {
        if !item.is_unknown() {
            cx.error(
                Code::InvalidType,
                item.span,
                format!(
                    "a plugin entry must be an object with `name` and `source`, not {}",
                    item.type_name()
                ),
                scope,
                Fate::Refused,
            );
        }
        return;
    };
    let mut name = None;
    match m.value("name") {
        None => cx.error(
            Code::MissingField,
            brace(item),
            "`name` is missing from this plugin entry".into(),
            scope,
            Fate::Refused,
        ),
        Some(v) => match &v.value {
            Value::Str(s) => {
                name = Some(s.clone());
                plugin_name(cx, v, scope);
            }
            Value::Unknown => {}
            _ => cx.error(
                Code::InvalidType,
                v.span,
                format!("`name` must be a string, not {}", v.type_name()),
                scope,
                Fate::Refused,
            ),
        },
    }
    if m.value("source").is_none() {
        cx.error(
            Code::MissingField,
            brace(item),
            "`source` is missing from this plugin entry (a `./` path or a source object)".into(),
            scope,
            Fate::Refused,
        );
    }
    fields(cx, m, ENTRY_FIELDS, scope);
    let local = m.value("source").and_then(|s| {
        let p = s.as_str()?;
        match (p.strip_prefix("./"), &cx.plugin_root) {
            (Some(_), _) => Some((strip_dot(p), s.span)),
            (None, Some(root)) if !root.is_empty() => Some((format!("{root}/{}", strip_dot(p)), s.span)),
            (None, Some(_)) => Some((strip_dot(p), s.span)),
            (None, None) => None,
        }
    });
    if let Some(n) = name {
        cx.file.entries.push((n, local));
    }
}

/// Plugin entries sharing a name: each is reported.
fn duplicates(cx: &mut Cx, items: &[Node]) {
    let names: Vec<(&str, Span)> = items
        .iter()
        .filter_map(|i| {
            let n = i.as_map()?.value("name")?;
            Some((n.as_str()?, n.span))
        })
        .collect();
    for (i, (n, span)) in names.iter().enumerate() {
        let others: Vec<Span> = names
            .iter()
            .enumerate()
            .filter(|(j, (m, _))| *j != i && m == n)
            .map(|(_, (_, s))| *s)
            .collect();
        if others.is_empty() {
            continue;
        }
        let mut d = Diagnostic::new(
            Code::InvalidValue,
            *span,
            format!(
                "the plugin name `{n}` appears {} times in this marketplace: `claude plugin validate` rejects it, and `{n}@...` installs only one of them",
                others.len() + 1
            ),
        )
        .with_severity(Severity::Error)
        .with_effect(Effect::ValueIgnored);
        for o in others {
            d = d.with_related(Location::Here(o), "also named here");
        }
        cx.out.push(d);
    }
}

/// A URL as `new URL(...)` takes it: a scheme, `:`, then something.
fn is_url(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    scheme.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && !rest.is_empty()
        && !s.contains(char::is_whitespace)
}

/// A semver range (`>=2.1.0`, `^2.1`, `2.x`, `>=2.0.0 <3`, `*`).
fn is_version_range(s: &str) -> bool {
    let s = s.trim();
    !s.is_empty()
        && s.split("||").all(|alt| {
            alt.split_whitespace().all(|part| {
                let v = part.trim_start_matches(['>', '<', '=', '^', '~', 'v']);
                v == "*"
                    || (!v.is_empty()
                        && v.split('.').take(3).all(|n| {
                            n.chars()
                                .next()
                                .is_some_and(|c| c.is_ascii_digit() || matches!(c, 'x' | 'X' | '*'))
                        }))
            })
        })
}

fn list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("`{s}`")).collect();
    quoted.join(", ")
}

// ---------------------------------------------------------------------------------------------
// Commands and skills as a plugin lists them
// ---------------------------------------------------------------------------------------------

/// A command or skill as Claude Code lists it (`/plugin:name`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    pub name: String,
    pub description: String,
    pub argument_hint: String,
}

/// What Claude Code lists for a plugin command or skill file: `path_name` is the name its path
/// gives (`plugin:sub:file`, `plugin:folder`); a frontmatter `name` replaces its last segment.
/// The description is the frontmatter's (collapsed to one line), else the body's first line
/// (headings unmarked, HTML-escaped, at most 100 characters), else `Plugin command` or `Plugin
/// skill`.
pub fn listed(path_name: &str, skill: bool, text: &str) -> Listed {
    let reading = super::read::read(text);
    let map = match reading.outcome {
        super::read::Outcome::FirstPass | super::read::Outcome::Retry => {
            reading.parsed.root.as_ref().and_then(Node::as_map)
        }
        _ => None,
    };
    let get = |k: &str| {
        map.and_then(|m| m.value(k))
            .and_then(js_string)
            .filter(|s| !s.is_empty())
    };
    let name = match get("name") {
        Some(n) => match path_name.rsplit_once(':') {
            Some((ns, _)) => format!("{ns}:{n}"),
            None => n,
        },
        None => path_name.to_string(),
    };
    // A list or an object is no description: the body's line is used.
    let description = map
        .and_then(|m| m.value("description"))
        .filter(|n| {
            matches!(
                n.value,
                Value::Str(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_)
            )
        })
        .and_then(js_string)
        .map(|d| d.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| {
            let body = match &reading.block {
                Some(b) if reading.outcome != super::read::Outcome::NoFrontmatter => b.body.text(text),
                _ => text.strip_prefix('\u{feff}').unwrap_or(text),
            };
            first_line(body).unwrap_or_else(|| if skill { "Plugin skill" } else { "Plugin command" }.into())
        });
    Listed {
        name,
        description,
        argument_hint: get("argument-hint").unwrap_or_default(),
    }
}

/// A YAML value as JavaScript's `String(value)` writes it (lists joined with `,`); `None` for
/// null.
pub(crate) fn js_string(n: &Node) -> Option<String> {
    Some(match &n.value {
        Value::Str(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", *f as i64),
        Value::Float(f) => f.to_string(),
        Value::Seq(items) => items
            .iter()
            .map(|i| js_string(i).unwrap_or_default())
            .collect::<Vec<_>>()
            .join(","),
        Value::Map(_) => "[object Object]".into(),
        Value::Timestamp(t) => t.clone(),
        Value::Null | Value::Unknown => return None,
    })
}

/// The body's first non-blank line, as the listing shows it.
fn first_line(body: &str) -> Option<String> {
    let line = body.lines().map(str::trim).find(|l| !l.is_empty())?;
    let unmarked = match line.trim_start_matches('#') {
        rest if rest.len() < line.len() && rest.starts_with([' ', '\t']) => rest.trim(),
        _ => line,
    };
    let escaped = unmarked.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    Some(if escaped.chars().count() > 100 {
        escaped.chars().take(97).collect::<String>() + "..."
    } else {
        escaped
    })
}

// ---------------------------------------------------------------------------------------------
// Editor support
// ---------------------------------------------------------------------------------------------

/// The field table of the object at `path` (keys from the root), if it is a known one.
fn table_at(kind: Manifest, path: &[String]) -> Option<&'static [Field]> {
    match (kind, path) {
        (Manifest::Plugin, []) => Some(PLUGIN_FIELDS),
        (Manifest::Marketplace, []) => Some(MARKETPLACE_FIELDS),
        (Manifest::Marketplace, [p]) if p == "plugins" => Some(ENTRY_FIELDS),
        _ => None,
    }
}

/// Completion in a manifest: field names (without those present) and values of enum-like fields.
pub fn complete(kind: Manifest, text: &str, offset: usize) -> Vec<Item> {
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let Some(ctx) = json_context(text, offset) else {
        return Vec::new();
    };
    let quote = |s: &str| format!("\"{s}\"");
    let mut items: Vec<Item> = match &ctx.value_of {
        None => {
            let table: &[Field] = match (kind, ctx.path.as_slice()) {
                (_, [p]) if p == "author" || p == "owner" => &[],
                (Manifest::Marketplace, [p]) if p == "metadata" => &[],
                (Manifest::Plugin, [p]) if p == "experimental" => &[],
                _ => table_at(kind, &ctx.path).unwrap_or(&[]),
            };
            let mut out: Vec<Item> = table
                .iter()
                .filter(|f| !ctx.present.iter().any(|p| p == f.name))
                .map(|f| {
                    let rank = match f.name {
                        "name" | "version" | "description" | "author" | "source" | "owner" | "plugins" => 0,
                        _ => 1,
                    };
                    item(
                        f.name,
                        ItemKind::Key,
                        "Claude Code manifest field",
                        Some(f.doc.into()),
                        rank,
                    )
                })
                .collect();
            let extra: &[(&str, &str)] = match (kind, ctx.path.as_slice()) {
                (_, [p]) if p == "author" || p == "owner" => &[
                    ("name", "Name (required)."),
                    ("email", "E-mail address."),
                    ("url", "Web page."),
                ],
                (Manifest::Marketplace, [p]) if p == "metadata" => &[
                    ("description", "What the marketplace offers."),
                    ("version", "The marketplace's version."),
                    ("pluginRoot", "Prepended to relative plugin sources."),
                ],
                (Manifest::Plugin, [p]) if p == "experimental" => &[
                    ("monitors", "Monitor files or folders (`./` paths)."),
                    ("themes", "Theme files or folders (`./` paths)."),
                ],
                _ => &[],
            };
            out.extend(
                extra
                    .iter()
                    .filter(|(k, _)| !ctx.present.iter().any(|p| p == k))
                    .map(|(k, d)| item(k, ItemKind::Key, "Claude Code manifest field", Some((*d).into()), 0)),
            );
            for it in &mut out {
                it.insert = format!("{}: ", quote(&it.label));
            }
            out
        }
        Some(key) => {
            let values: Vec<(&str, &str)> = match (kind, ctx.path.as_slice(), key.as_str()) {
                (_, _, "defaultEnabled" | "strict") => vec![("true", ""), ("false", "")],
                (_, [p], "source") if p == "plugins" => SOURCE_KINDS
                    .iter()
                    .map(|(k, _)| (*k, "source type"))
                    .chain([("./plugins/", "a folder of this repository")])
                    .collect(),
                (_, [p, ..], "source") if p == "plugins" => {
                    SOURCE_KINDS.iter().map(|(k, _)| (*k, "source type")).collect()
                }
                (Manifest::Plugin, [], "agents") => vec![("./agents/", "an agent file (`.md`)")],
                (Manifest::Plugin, [], "commands") => vec![("./commands/", "a command folder or file")],
                (Manifest::Plugin, [], "skills") => vec![("./skills/", "a folder of skill folders")],
                (Manifest::Plugin, [], "hooks") => vec![("./hooks/hooks.json", "a hooks file")],
                (Manifest::Plugin, [], "mcpServers") => vec![("./.mcp.json", "an MCP servers file")],
                (Manifest::Plugin, [], "license") => {
                    vec![
                        ("MIT", ""),
                        ("Apache-2.0", ""),
                        ("BSD-3-Clause", ""),
                        ("GPL-3.0-only", ""),
                    ]
                }
                (Manifest::Plugin, [p], "type") if p == "userConfig" => {
                    USER_CONFIG_TYPES.iter().map(|t| (*t, "option type")).collect()
                }
                _ => Vec::new(),
            };
            values
                .into_iter()
                .map(|(v, d)| {
                    let mut it = item(v, ItemKind::Value, d, None, 0);
                    it.insert = if matches!(v, "true" | "false") {
                        v.to_string()
                    } else {
                        quote(v)
                    };
                    it
                })
                .collect()
        }
    };
    for it in &mut items {
        it.replace = ctx.replace;
    }
    items.sort_by(|a, b| (a.rank, &a.label).cmp(&(b.rank, &b.label)));
    items
}

/// Hover on a field name of a manifest: its documentation, and the span of the key.
pub fn hover(kind: Manifest, parsed: &Parsed, offset: usize) -> Option<(String, Span)> {
    let root = parsed.root.as_ref()?;
    let steps = path_at(root, offset);
    let first = steps.first()?;
    let (table, what, step) = match kind {
        Manifest::Plugin if steps.len() == 1 && first.on_key => (PLUGIN_FIELDS, "`plugin.json` field", first),
        Manifest::Marketplace if steps.len() == 1 && first.on_key => {
            (MARKETPLACE_FIELDS, "`marketplace.json` field", first)
        }
        Manifest::Marketplace if first.key.name == "plugins" && !first.on_key => {
            // A plugin entry (an item of the list): its own fields.
            let Value::Seq(items) = &first.value.value else {
                return None;
            };
            let item = items.iter().find(|i| i.span.contains(offset))?;
            let inner = path_at(item, offset);
            let key = inner.first().filter(|s| inner.len() == 1 && s.on_key)?;
            let f = ENTRY_FIELDS.iter().find(|f| f.name == key.key.name)?;
            return Some((
                format!("**`{}`** (marketplace plugin entry field)\n\n{}\n", f.name, f.doc),
                key.key.span,
            ));
        }
        _ => return None,
    };
    let f = table.iter().find(|f| f.name == step.key.name)?;
    Some((format!("**`{}`** ({what})\n\n{}\n", f.name, f.doc), step.key.span))
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{Expect, expect};

    /// Each diagnostic as `severity code effect [text]: message`.
    fn run(kind: Manifest, text: &str) -> String {
        let (d, _, _) = analyze(kind, text);
        d.iter()
            .map(|d| {
                format!(
                    "{} {} {} [{}]: {}\n",
                    d.severity.as_str(),
                    d.code.as_str(),
                    d.effect.as_str(),
                    d.span.text(text),
                    d.message
                )
            })
            .collect()
    }

    fn check(kind: Manifest, text: &str, want: Expect) {
        want.assert_eq(&run(kind, text));
    }

    const OK: &str = r#""version": "1.0.0", "description": "d", "author": {"name": "a"}"#;

    fn plugin(extra: &str) -> String {
        format!(
            "{{\"name\": \"p\", {OK}{}{extra}}}",
            if extra.is_empty() { "" } else { ", " }
        )
    }

    #[test]
    fn a_complete_manifest_is_clean() {
        check(Manifest::Plugin, &plugin(""), expect![""]);
        check(
            Manifest::Plugin,
            &plugin(
                r#""homepage": "https://x.dev", "repository": "https://github.com/a/b", "license": "MIT", "keywords": ["a"], "agents": ["./agents/a.md"], "commands": "./cmds", "skills": "./extra", "hooks": "./hooks/hooks.json", "mcpServers": {"s": {"command": "node"}}, "lspServers": {"go": {"command": "gopls", "extensionToLanguage": {".go": "go"}}}, "engines": {"claude-code": ">=2.1.0"}, "$schema": "x""#,
            ),
            expect![""],
        );
    }

    #[test]
    fn the_name_as_the_validator_and_loader_judge_it() {
        check(
            Manifest::Plugin,
            &format!("{{{OK}}}"),
            expect![[r#"
                error missing-field file-ignored [{]: `name` is missing (the plugin's name is required): Claude Code does not load the plugin
            "#]],
        );
        check(
            Manifest::Plugin,
            &format!("{{\"name\": 5, {OK}}}"),
            expect![[r#"
                error invalid-type file-ignored [5]: `name` must be a string, not a number: Claude Code does not load the plugin
            "#]],
        );
        check(
            Manifest::Plugin,
            &format!("{{\"name\": \"my plugin\", {OK}}}"),
            expect![[r#"
                error invalid-value file-ignored ["my plugin"]: the plugin's `name` `my plugin` contains a space (use kebab-case, e.g. `my-plugin`): Claude Code does not load the plugin
            "#]],
        );
        check(
            Manifest::Plugin,
            &format!("{{\"name\": \"MyPlugin\", {OK}}}"),
            expect![[r#"
                warning invalid-name works-but-risky ["MyPlugin"]: the plugin name `MyPlugin` is not kebab-case (lowercase letters, digits and single hyphens): Claude Code accepts it, but the Claude.ai marketplace sync requires kebab-case
            "#]],
        );
        check(
            Manifest::Plugin,
            &format!("{{\"name\": \"a:b\", {OK}}}"),
            expect![[r#"
                warning invalid-name file-ignored ["a:b"]: the plugin name `a:b` is not kebab-case (lowercase letters, digits and single hyphens): Claude Code refuses a plugin with this name when it is loaded by path (`--plugin-dir`) and cannot install it from a marketplace that lists it under this name
            "#]],
        );
        check(
            Manifest::Plugin,
            &format!("{{\"name\": \"-ab\", {OK}}}"),
            expect![[r#"
                warning invalid-name works-but-risky ["-ab"]: the plugin name `-ab` is not kebab-case (lowercase letters, digits and single hyphens): Claude Code loads it by path, but cannot install it from a marketplace that lists it under this name
            "#]],
        );
        // Names that pass as Anthropic's own: reserved (an error of the validator only; the
        // plugin loads), or holding the word (a warning).
        for (name, want) in [
            ("claude-tools", Some(true)),
            ("Claude_Code", Some(true)),
            ("claudecode", Some(true)),
            ("my-official-claude", Some(true)),
            ("cc-plugin-x", Some(true)),
            ("anthropics", Some(true)),
            ("my-claude", Some(false)),
            ("official-x-anthropic", Some(false)),
            ("claudeish", None),
            ("xclaude", None),
        ] {
            assert_eq!(reserved(name), want, "{name}");
        }
        check(
            Manifest::Plugin,
            &format!("{{\"name\": \"claude-tools\", {OK}}}"),
            expect![[r#"
                error invalid-name works-but-risky ["claude-tools"]: the plugin name `claude-tools` is reserved for Anthropic's own plugins (no third-party name starts with `claude-`, `anthropic-` or `cc-plugin-`, is `claude`, `claude-code`, `anthropic`, or puts `official` beside `claude` or `anthropic`): `claude plugin validate` rejects it
            "#]],
        );
        check(
            Manifest::Plugin,
            &format!("{{\"name\": \"my-claude\", {OK}}}"),
            expect![[r#"
                warning invalid-name works-but-risky ["my-claude"]: the plugin name `my-claude` reads as one of Anthropic's own (it holds the word `claude` or `anthropic`): name it for what it does; `claude plugin validate` warns
            "#]],
        );
        let (d, _, _) = analyze(Manifest::Plugin, &format!("{{\"name\": \"MyPlugin\", {OK}}}"));
        assert_eq!(d[0].suggestion().map(|e| e.text.as_str()), Some("\"my-plugin\""));
        for ok in ["a", "my-plugin", "1ab", "a1-b2"] {
            check(Manifest::Plugin, &format!("{{\"name\": \"{ok}\", {OK}}}"), expect![""]);
        }
    }

    #[test]
    fn missing_metadata_is_a_warning_on_the_brace() {
        check(
            Manifest::Plugin,
            r#"{"name": "p"}"#,
            expect![[r#"
                warning missing-field works-but-risky [{]: `version` is missing. No version specified (e.g. `"1.0.0"`); `claude plugin validate` warns, Claude Code loads the plugin
                warning missing-field works-but-risky [{]: `description` is missing. No description: it tells users what the plugin does; `claude plugin validate` warns, Claude Code loads the plugin
                warning missing-field works-but-risky [{]: `author` is missing. No author (`{"name": ...}`), for attribution; `claude plugin validate` warns, Claude Code loads the plugin
            "#]],
        );
    }

    #[test]
    fn the_advice_waits_for_the_schema() {
        // Like the validator: no advice on missing fields while the file breaks the schema.
        check(
            Manifest::Plugin,
            r#"{"name": 5}"#,
            expect![[r#"
                error invalid-type file-ignored [5]: `name` must be a string, not a number: Claude Code does not load the plugin
            "#]],
        );
        check(
            Manifest::Marketplace,
            r#"{"name": "m", "owner": {"name": "o"}, "plugins": [{"name": "a", "source": "./a", "author": "x"}]}"#,
            expect![[r#"
                error invalid-type fails-when-used ["x"]: `author` must be an object such as `{"name": "...", "email": "..."}`, not a string: the marketplace loads, but Claude Code cannot install this plugin
            "#]],
        );
    }

    #[test]
    fn descriptive_fields_are_the_validators_alone() {
        check(
            Manifest::Plugin,
            r#"{"name": "p", "version": "1.0.0", "description": 5, "author": "Me", "homepage": "x.y", "repository": {"url": "x"}, "keywords": "a", "license": 1}"#,
            expect![[r#"
                error invalid-type works-but-risky [5]: `description` must be a string, not a number: `claude plugin validate` rejects it, though Claude Code loads the plugin
                error invalid-type works-but-risky ["Me"]: `author` must be an object such as `{"name": "...", "email": "..."}`, not a string: `claude plugin validate` rejects it, though Claude Code loads the plugin
                error invalid-value works-but-risky ["x.y"]: `homepage` is not a URL (`https://...`): `claude plugin validate` rejects it, though Claude Code loads the plugin
                error invalid-type works-but-risky [{"url": "x"}]: `repository` must be a string, not an object: `claude plugin validate` rejects it, though Claude Code loads the plugin
                error invalid-type works-but-risky ["a"]: `keywords` must be a list of strings, not a string: `claude plugin validate` rejects it, though Claude Code loads the plugin
                error invalid-type works-but-risky [1]: `license` must be a string, not a number: `claude plugin validate` rejects it, though Claude Code loads the plugin
            "#]],
        );
        check(
            Manifest::Plugin,
            &plugin(r#""author": {"email": "x"}"#).replace(r#""author": {"name": "a"}, "#, ""),
            expect![[r#"
                error missing-field works-but-risky [{]: `author.name` is missing: `claude plugin validate` rejects it, though Claude Code loads the plugin
            "#]],
        );
        check(
            Manifest::Plugin,
            &plugin(r#""version": 1"#).replace(r#""version": "1.0.0", "#, ""),
            expect![[r#"
                error invalid-type file-ignored [1]: `version` must be a string, not a number: Claude Code does not load the plugin
            "#]],
        );
    }

    #[test]
    fn component_paths() {
        check(
            Manifest::Plugin,
            &plugin(r#""agents": "./agents""#),
            expect![[r#"
                error invalid-value file-ignored ["./agents"]: `./agents` must end with `.md` (`agents` lists agent files, not a folder: list each file, or leave `agents` out to read `agents/`): Claude Code does not load the plugin
            "#]],
        );
        check(
            Manifest::Plugin,
            &plugin(r#""agents": ["./a.md", "b.md", 5], "skills": "/abs", "commands": "./../up", "hooks": "./h.txt""#),
            expect![[r#"
                error invalid-value file-ignored ["b.md"]: `b.md` must start with `./` (paths are relative to the plugin root): Claude Code does not load the plugin
                error invalid-type file-ignored [5]: the paths of `agents` must be strings, not a number: Claude Code does not load the plugin
                error invalid-value file-ignored ["/abs"]: `/abs` must start with `./` (paths are relative to the plugin root): Claude Code does not load the plugin
                error invalid-value value-ignored ["./../up"]: `./../up` contains `..`: `claude plugin validate` rejects it, and Claude Code skips a path that leaves the plugin's folder
                error invalid-value file-ignored ["./h.txt"]: `./h.txt` must end with `.json`: Claude Code does not load the plugin
            "#]],
        );
        check(
            Manifest::Plugin,
            &plugin(
                r#""agents": {"x": "./a.md"}, "commands": {"a": {"source": "./a.md", "content": "x"}, "b": {"description": "d"}}"#,
            ),
            expect![[r#"
                error invalid-type file-ignored [{"x": "./a.md"}]: `agents` must be a `./` path or a list of them, not an object: Claude Code does not load the plugin
                error invalid-value file-ignored ["a"]: the command `a` must have either `source` (a file) or `content` (inline Markdown), not both or neither: Claude Code does not load the plugin
                error invalid-value file-ignored ["b"]: the command `b` must have either `source` (a file) or `content` (inline Markdown), not both or neither: Claude Code does not load the plugin
            "#]],
        );
        let (_, _, f) = analyze(
            Manifest::Plugin,
            &plugin(r#""agents": ["./x/a.md"], "commands": ["./cmds/", "./one.md"], "skills": ["./sk"]"#),
        );
        assert_eq!(
            f.layout,
            Layout {
                agents: Some(vec!["x/a.md".into()]),
                commands: Some(vec![
                    CommandSource::Path("cmds".into()),
                    CommandSource::Path("one.md".into())
                ]),
                skills: vec!["sk".into()],
            }
        );
        let paths: Vec<(&str, &str, Want)> = f.paths.iter().map(|p| (p.field, p.path.as_str(), p.want)).collect();
        assert_eq!(
            paths,
            [
                ("agents", "./x/a.md", Want::File),
                ("commands", "./cmds/", Want::Any),
                ("commands", "./one.md", Want::Any),
                ("skills", "./sk", Want::Dir)
            ]
        );
        // An invalid entry: the default folder is read (the layout stays unset).
        let (_, _, f) = analyze(Manifest::Plugin, &plugin(r#""agents": "./agents""#));
        assert_eq!(f.layout.agents, None);
        let (_, _, f) = analyze(
            Manifest::Plugin,
            &plugin(r#""commands": {"about": {"source": "./one.md", "description": "d"}, "hi": {"content": "x"}}"#),
        );
        assert_eq!(
            f.layout.commands,
            Some(vec![CommandSource::Named {
                name: "about".into(),
                source: "one.md".into()
            }])
        );
    }

    #[test]
    fn unknown_and_misplaced_fields() {
        check(
            Manifest::Plugin,
            &plugin(
                r#""nmae": "x", "category": "dev", "tags": ["a"], "main": "i.js", "capabilities": [], "themes": "./t", "foo": 1"#,
            ),
            expect![[r#"
                warning unknown-key value-ignored ["nmae"]: unknown field `nmae`: Claude Code ignores it at load time. Did you mean `name`?
                warning unknown-key value-ignored ["category"]: `category` belongs in the plugin's entry in `marketplace.json`, not in `plugin.json`: Claude Code ignores it at load time
                warning unknown-key value-ignored ["tags"]: `tags` belongs in the plugin's entry in `marketplace.json`, not in `plugin.json`: Claude Code ignores it at load time
                warning unknown-key value-ignored ["main"]: unknown field `main` (an npm `package.json` field): Claude Code ignores it at load time.
                warning deprecated-field value-ignored ["capabilities"]: `capabilities` is no longer read (what a hooks module uses is read from its source): delete it
                warning deprecated-field works-but-risky ["themes"]: `themes` is experimental: declare it under `experimental.themes`; Claude Code still reads it at the top level, but a future release will not
                warning unknown-key value-ignored ["foo"]: unknown field `foo`: Claude Code ignores it at load time.
            "#]],
        );
        let (d, _, _) = analyze(Manifest::Plugin, &plugin(r#""nmae": "x""#));
        assert_eq!(d[0].suggestion().map(|e| e.text.as_str()), Some("\"name\""));
    }

    #[test]
    fn structure_fields() {
        check(
            Manifest::Plugin,
            &plugin(
                r#""defaultEnabled": 1, "dependencies": "x", "settings": [], "engines": "x", "experimental": {"monitor": 1}, "userConfig": {"k": {"type": "nope"}}, "channels": ["x"]"#,
            ),
            expect![[r#"
                error invalid-type file-ignored [1]: `defaultEnabled` must be `true` or `false`, not a number: Claude Code does not load the plugin
                error invalid-type file-ignored ["x"]: `dependencies` must be a list, not a string: Claude Code does not load the plugin
                error invalid-type file-ignored [[]]: `settings` must be an object, not a list: Claude Code does not load the plugin
                warning invalid-type value-ignored ["x"]: `engines` must be an object such as `{"claude-code": ">=2.1.0"}`, not a string: Claude Code ignores it
                warning unknown-key value-ignored ["monitor"]: unknown experimental component `monitor`: Claude Code ignores it. Did you mean `monitors`?
                error missing-field file-ignored [{]: the option `k` has no `title`: Claude Code does not load the plugin
                error missing-field file-ignored [{]: the option `k` has no `description`: Claude Code does not load the plugin
                error invalid-value file-ignored ["nope"]: the `type` of option `k` must be one of `string`, `number`, `boolean`, `directory`, `file`, not "nope": Claude Code does not load the plugin
                error invalid-type file-ignored ["x"]: a channel must be an object with `server`, not a string: Claude Code does not load the plugin
            "#]],
        );
        check(
            Manifest::Plugin,
            &plugin(
                r#""hooks": {"PreToolUze": [], "Stop": "x", "PreToolUse": [{"hooks": [{"type": "nope"}]}]}, "mcpServers": {"s": {"cmd": "x"}}, "engines": {"claude-code": "latest"}"#,
            ),
            expect![[r#"
                warning unknown-key value-ignored ["PreToolUze"]: `PreToolUze` is no hook event: Claude Code ignores its hooks. Did you mean `PreToolUse`?
                warning invalid-type value-ignored ["x"]: `Stop` must be a list of matchers, not a string: Claude Code ignores this `Stop` entry
                error invalid-value file-ignored ["nope"]: `nope` is no hook type (one of `command`, `http`, `mcp_tool`, `prompt`, `agent`): Claude Code does not load the plugin
                error missing-field file-ignored ["s"]: the server `s` of `mcpServers` needs a `command` (or a `url`): Claude Code does not load the plugin
                error invalid-value works-but-risky ["latest"]: `engines.claude-code` must be a version range such as `">=2.1.0"`, not "latest"; Claude Code ignores it: `claude plugin validate` rejects it, though Claude Code loads the plugin
            "#]],
        );
    }

    #[test]
    fn strict_json_and_broken_files() {
        check(
            Manifest::Plugin,
            "{\"name\": \"p\", // c\n\"version\": \"1.0.0\", \"description\": \"d\", \"author\": {\"name\": \"a\",},}",
            expect![[r#"
                error syntax-error file-ignored [// c]: a comment (the file is read as strict JSON): Claude Code cannot parse the manifest and does not load the plugin
                error syntax-error file-ignored [,]: a trailing comma (the file is read as strict JSON): Claude Code cannot parse the manifest and does not load the plugin
                error syntax-error file-ignored [,]: a trailing comma (the file is read as strict JSON): Claude Code cannot parse the manifest and does not load the plugin
            "#]],
        );
        check(
            Manifest::Plugin,
            "[]",
            expect![[r#"
                error invalid-type file-ignored [[]]: the manifest must be a JSON object, not a list: Claude Code does not load the plugin
            "#]],
        );
        // A comma inside a string, and `//` in a URL, are not strict-JSON problems.
        check(
            Manifest::Plugin,
            &plugin(r#""homepage": "https://x.dev/a,}""#),
            expect![""],
        );
        // Whatever the input, no panic.
        for t in ["", "{", "{\"name\":", "\"", "{\"agents\": [", "/*", "{\"a\":1,"] {
            analyze(Manifest::Plugin, t);
            analyze(Manifest::Marketplace, t);
            complete(Manifest::Plugin, t, t.len());
            complete(Manifest::Marketplace, t, t.len());
        }
    }

    const MKT: &str = r#""name": "m", "description": "d", "owner": {"name": "o""#;

    fn marketplace(plugins: &str) -> String {
        format!("{{{MKT}}}, \"plugins\": [{plugins}]}}")
    }

    #[test]
    fn marketplaces() {
        check(
            Manifest::Marketplace,
            &marketplace(
                r#"{"name": "a", "source": "./plugins/a", "description": "d", "category": "dev", "tags": ["x"], "strict": false, "version": "1.0.0"}, {"name": "b", "source": {"source": "github", "repo": "o/b"}}"#,
            ),
            expect![""],
        );
        check(
            Manifest::Marketplace,
            r#"{"plugins": {}, "owner": "o", "plugns": []}"#,
            expect![[r#"
                error missing-field file-ignored [{]: `name` is missing (the marketplace's name is required): Claude Code cannot add the marketplace
                error invalid-type file-ignored [{}]: `plugins` must be a list of plugin entries, not an object: Claude Code cannot add the marketplace
                error invalid-type file-ignored ["o"]: `owner` must be an object such as `{"name": "...", "email": "..."}`, not a string: Claude Code cannot add the marketplace
                warning unknown-key value-ignored ["plugns"]: unknown field `plugns`: Claude Code ignores it at load time. Did you mean `plugins`?
            "#]],
        );
        check(
            Manifest::Marketplace,
            &marketplace(
                r#"{"name": "a b", "source": "plugins/a"}, {"source": {"source": "zip"}}, {"name": "c", "source": "./../c", "author": "x", "descripton": "d"}, {"name": "d", "source": {"source": "github"}}, 5"#,
            ),
            expect![[r#"
                error invalid-value fails-when-used ["a b"]: the plugin's `name` `a b` contains a space (use kebab-case, e.g. `my-plugin`): the marketplace loads, but Claude Code cannot install this plugin
                error invalid-value fails-when-used ["plugins/a"]: the source `plugins/a` must start with `./` (relative to the marketplace root): the marketplace loads, but Claude Code cannot install this plugin
                error missing-field fails-when-used [{]: `name` is missing from this plugin entry: the marketplace loads, but Claude Code cannot install this plugin
                error invalid-value fails-when-used ["zip"]: `zip` is no source type (one of `github`, `url`, `git-subdir`, `npm`).: the marketplace loads, but Claude Code cannot install this plugin
                error invalid-value fails-when-used ["./../c"]: the source `./../c` contains `..`: sources are relative to the marketplace root (the folder holding `.claude-plugin/`), not to `marketplace.json`: the marketplace loads, but Claude Code cannot install this plugin
                error invalid-type fails-when-used ["x"]: `author` must be an object such as `{"name": "...", "email": "..."}`, not a string: the marketplace loads, but Claude Code cannot install this plugin
                warning unknown-key value-ignored ["descripton"]: unknown field `descripton`: Claude Code ignores it in a marketplace entry. Did you mean `description`?
                error missing-field fails-when-used [{]: a `github` source needs a string `repo`: the marketplace loads, but Claude Code cannot install this plugin
                error invalid-type fails-when-used [5]: a plugin entry must be an object with `name` and `source`, not a number: the marketplace loads, but Claude Code cannot install this plugin
            "#]],
        );
        check(
            Manifest::Marketplace,
            &marketplace(r#"{"name": "a", "source": "./a"}, {"name": "a", "source": "./b"}"#),
            expect![[r#"
                error invalid-value value-ignored ["a"]: the plugin name `a` appears 2 times in this marketplace: `claude plugin validate` rejects it, and `a@...` installs only one of them
                error invalid-value value-ignored ["a"]: the plugin name `a` appears 2 times in this marketplace: `claude plugin validate` rejects it, and `a@...` installs only one of them
            "#]],
        );
        check(
            Manifest::Marketplace,
            &marketplace(""),
            expect![[r#"
                warning missing-field works-but-risky [[]]: `plugins` is empty: the marketplace offers no plugin
            "#]],
        );
        let (_, _, f) = analyze(
            Manifest::Marketplace,
            &marketplace(
                r#"{"name": "a", "source": "./plugins/a"}, {"name": "b", "source": {"source": "npm", "package": "b"}}"#,
            ),
        );
        let entries: Vec<(&str, Option<&str>)> = f
            .entries
            .iter()
            .map(|(n, s)| (n.as_str(), s.as_ref().map(|(p, _)| p.as_str())))
            .collect();
        assert_eq!(entries, [("a", Some("plugins/a")), ("b", None)]);
        // Below `metadata.pluginRoot`, a source needs no `./`.
        let text = r#"{"name": "m", "owner": {"name": "o"}, "metadata": {"pluginRoot": "./plugins"}, "plugins": [{"name": "a", "source": "a"}]}"#;
        check(
            Manifest::Marketplace,
            text,
            expect![[r#"
            warning missing-field works-but-risky [{]: `description` is missing. No description: it tells users what the marketplace offers; `claude plugin validate` warns
        "#]],
        );
        let (_, _, f) = analyze(Manifest::Marketplace, text);
        assert_eq!(f.entries[0].1.as_ref().map(|(p, _)| p.as_str()), Some("plugins/a"));
    }

    #[test]
    fn listing() {
        let l = |path: &str, text: &str| {
            let l = listed(path, false, text);
            (l.name, l.description, l.argument_hint)
        };
        assert_eq!(
            l(
                "p:sub:x",
                "---\nname: other\ndescription: |\n  two\n  lines\nargument-hint: [a, b]\n---\nb\n"
            ),
            ("p:sub:other".into(), "two lines".into(), "a,b".into())
        );
        assert_eq!(l("p:x", "---\nallowed-tools: Read\n---\n\n# Title\nx\n").1, "Title");
        assert_eq!(l("p:x", "<!-- c -->\n").1, "&lt;!-- c --&gt;");
        assert_eq!(l("p:x", "").1, "Plugin command");
        assert_eq!(listed("p:x", true, "---\n---\n").description, "Plugin skill");
        assert_eq!(l("p:x", &"x".repeat(300)).1, format!("{}...", "x".repeat(97)));
        assert_eq!(l("p:x", "---\nname: 5\ndescription: 42\n---\nb\n").0, "p:5");
        assert_eq!(l("p:x", "---\ndescription: [a, b]\n---\nbody\n").1, "body");
        // The lenient retry: the hint keeps its brackets; a frontmatter that fails both passes
        // is ignored (the body names it).
        assert_eq!(
            l(
                "p:x",
                "---\nargument-hint: [message] [--amend]\ndescription: d\n---\nb\n"
            ),
            ("p:x".into(), "d".into(), "[message] [--amend]".into())
        );
        assert_eq!(l("p:x", "---\ndescription: a: b: c\n  - x\n---\nbody\n").1, "body");
    }

    #[test]
    fn completion_and_hover() {
        let labels = |kind: Manifest, t: &str| -> Vec<String> {
            let at = t.find('|').unwrap();
            let t = t.replace('|', "");
            complete(kind, &t, at).into_iter().map(|i| i.label).collect()
        };
        let l = labels(Manifest::Plugin, "{\"name\": \"p\", \"|\"}");
        assert!(
            l.contains(&"agents".to_string()) && !l.contains(&"name".to_string()),
            "{l:?}"
        );
        assert_eq!(labels(Manifest::Plugin, "{\"author\": {\"|"), ["email", "name", "url"]);
        assert_eq!(labels(Manifest::Plugin, "{\"defaultEnabled\": |"), ["false", "true"]);
        let l = labels(Manifest::Marketplace, "{\"plugins\": [{\"name\": \"a\", \"|");
        assert!(
            l.contains(&"source".to_string()) && l.contains(&"category".to_string()),
            "{l:?}"
        );
        assert_eq!(
            labels(Manifest::Marketplace, "{\"plugins\": [{\"source\": {\"source\": \"|"),
            ["git-subdir", "github", "npm", "url"]
        );
        let text = r#"{"name": "p", "agents": []}"#;
        let parsed = jsonc::parse(text);
        let (h, span) = hover(Manifest::Plugin, &parsed, text.find("agents").unwrap()).unwrap();
        assert_eq!(span.text(text), "\"agents\"");
        assert!(h.starts_with("**`agents`** (`plugin.json` field)"), "{h}");
        let text = r#"{"name": "m", "plugins": [{"name": "a", "category": "x"}]}"#;
        let parsed = jsonc::parse(text);
        let (h, _) = hover(Manifest::Marketplace, &parsed, text.find("category").unwrap()).unwrap();
        assert!(h.starts_with("**`category`** (marketplace plugin entry field)"), "{h}");
        assert!(hover(Manifest::Plugin, &parsed, text.find("\"m\"").unwrap()).is_none());
    }
}

//! The field tables of `plugin.json`, `marketplace.json` and its entries (name, shape, doc),
//! and the lists of known values the checks share.

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
pub(super) const MARKETPLACE_ONLY: &[&str] = &["category", "tags", "source", "strict", "id"];

/// Fields often copied from an npm `package.json` (ignored by Claude Code).
pub(super) const NPM_FIELDS: &[&str] = &[
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

pub(super) const SOURCE_KINDS: &[(&str, &[&str])] = &[
    ("github", &["repo"]),
    ("url", &["url"]),
    ("git-subdir", &["url", "path"]),
    ("npm", &["package"]),
];

pub(super) const USER_CONFIG_TYPES: &[&str] = &["string", "number", "boolean", "directory", "file"];

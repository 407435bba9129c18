//! Claude Code's project settings, `.claude/settings.json` and `.claude/settings.local.json`:
//! their permission rules only (`permissions.allow`, `ask`, `deny` and `defaultMode`, spec
//! `claude-code.md` §2-§3). Every other key of the settings schema is left alone.
//!
//! [`read`] gives the rules in file order for other engines (a policy engine combines them with
//! an agent); [`analyze`] adds the diagnostics, each on the rule's string or the part of it that
//! is wrong:
//!
//! - `ignored-permission-rule`: a rule Claude Code skips or never consults: a path rule on
//!   `Write`, `NotebookEdit`, `Glob` or `MultiEdit` (startup warning since v2.1.210; `Edit(...)`
//!   and `Read(...)` rules cover them), a parameter rule on a primary field (`command`,
//!   `file_path`, ...), an allow glob not anchored to one MCP server (`*`, `mcp__*`), and a `:*`
//!   before the end of a Bash pattern (matched literally);
//! - `unknown-tool`: a rule naming no tool (names with `_` or `*` are exempt, as in Claude Code);
//! - `invalid-type`, `invalid-value`: `permissions` or a list of the wrong type, a non-string
//!   rule, an unknown `defaultMode`.

use super::schema::{LEGACY_TOOLS, PERMISSION_MODES, TOOLS};
use crate::analysis::complete::{Item, ItemKind, item, json_context};
use crate::analysis::diagnostic::{Diagnostic, Edit, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::suggest::{closest, did_you_mean};
use crate::analysis::syntax::{Node, Parsed, Value, jsonc};
use crate::analysis::text::Span;

/// Which settings file: the shared one or the personal one (git-ignored, wins over the shared).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SettingsFile {
    /// `.claude/settings.json`.
    Project,
    /// `.claude/settings.local.json`.
    Local,
}

impl SettingsFile {
    /// The settings file at `path`: one of the two names, directly in a `.claude` folder.
    pub fn of_path(path: &std::path::Path) -> Option<SettingsFile> {
        if path.parent()?.file_name()? != ".claude" {
            return None;
        }
        match path.file_name()?.to_str()? {
            "settings.json" => Some(SettingsFile::Project),
            "settings.local.json" => Some(SettingsFile::Local),
            _ => None,
        }
    }

    pub fn file_name(self) -> &'static str {
        match self {
            SettingsFile::Project => "settings.json",
            SettingsFile::Local => "settings.local.json",
        }
    }
}

/// The list a rule is in. Claude Code evaluates deny, then ask, then allow; the first match wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum List {
    Allow,
    Ask,
    Deny,
}

impl List {
    pub const ALL: [List; 3] = [List::Allow, List::Ask, List::Deny];

    pub fn as_str(self) -> &'static str {
        match self {
            List::Allow => "allow",
            List::Ask => "ask",
            List::Deny => "deny",
        }
    }
}

/// One permission rule: `Tool` or `Tool(specifier)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PermissionRule {
    pub list: List,
    /// The tool name as written (`Bash`, `mcp__github__*`, `*`).
    pub tool: String,
    /// What is between the parentheses; `None` for a bare tool (and for `Tool()`).
    pub specifier: Option<String>,
    /// The whole string value, quotes included.
    pub span: Span,
    /// The rule as written (the decoded string).
    pub text: String,
}

/// What a settings file says about permissions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Every string rule of `allow`, `ask` and `deny`, in file order.
    pub rules: Vec<PermissionRule>,
    /// `permissions.defaultMode` when it is a string, with the span of its value.
    pub default_mode: Option<(String, Span)>,
}

impl Settings {
    /// The rule whose string holds byte `offset`.
    pub fn rule_at(&self, offset: usize) -> Option<&PermissionRule> {
        self.rules.iter().find(|r| r.span.contains(offset))
    }
}

/// Tool names a permission rule may name besides [`TOOLS`]: `Task` (old `Agent`, still an
/// alias), the legacy `MultiEdit` and `Cd` (rules for `/cd`).
const RULE_ONLY_TOOLS: &[&str] = &["Task", "MultiEdit", "Cd"];

/// Tools whose path rules Claude Code never consults, and the rule to write instead.
const UNCONSULTED_PATHS: &[(&str, &str)] = &[
    ("Write", "Edit"),
    ("NotebookEdit", "Edit"),
    ("MultiEdit", "Edit"),
    ("Glob", "Read"),
];

/// Fields a parameter rule (`Tool(param:value)`) cannot target.
const PRIMARY_FIELDS: &[&str] = &["command", "file_path", "path", "notebook_path", "url"];

/// `name` is a tool a permission rule can name.
pub fn is_known_tool(name: &str) -> bool {
    TOOLS.contains(&name) || RULE_ONLY_TOOLS.contains(&name)
}

/// Split a rule into its tool and specifier, as Claude Code does: the tool is what comes before
/// the first `(` when the rule ends with `)`.
pub fn split_rule(text: &str) -> (&str, Option<&str>) {
    match text.find('(') {
        Some(open) if text.ends_with(')') && open > 0 => {
            let spec = &text[open + 1..text.len() - 1];
            (&text[..open], (!spec.is_empty()).then_some(spec))
        }
        _ => (text, None),
    }
}

/// The Bash or PowerShell command pattern of a rule in agent-lsp's wildcard form (`*` matches
/// anything): `Bash` and `Bash(*)` are `*`; the legacy `:*` suffix becomes ` *`; a `:*`
/// elsewhere stays as written (Claude Code matches it literally). `None` for other tools.
pub fn command_pattern(rule: &PermissionRule) -> Option<String> {
    if rule.tool != "Bash" && rule.tool != "PowerShell" {
        return None;
    }
    Some(match rule.specifier.as_deref() {
        None => "*".into(),
        Some(s) => match s.strip_suffix(":*") {
            Some(head) => format!("{head} *"),
            None => s.to_string(),
        },
    })
}

/// The rules and `defaultMode` of a settings file.
pub fn read(text: &str) -> Settings {
    analyze(text).2
}

/// Analyse a settings file: diagnostics on its permission rules, the parsed tree, the rules.
pub fn analyze(text: &str) -> (Vec<Diagnostic>, Parsed, Settings) {
    let parsed = jsonc::parse(text);
    let mut out: Vec<Diagnostic> = parsed
        .errors
        .iter()
        .map(|e| {
            Diagnostic::new(
                Code::SyntaxError,
                e.span,
                format!("{}: Claude Code cannot read this settings file", e.message),
            )
            .with_effect(Effect::FileIgnored)
        })
        .collect();
    let mut settings = Settings::default();
    let permissions = parsed
        .root
        .as_ref()
        .and_then(Node::as_map)
        .and_then(|m| m.get("permissions"));
    if let Some(entry) = permissions {
        match &entry.value.value {
            Value::Map(map) => {
                for e in map.entries.iter() {
                    let list = match e.key.name.as_str() {
                        "allow" => List::Allow,
                        "ask" => List::Ask,
                        "deny" => List::Deny,
                        "defaultMode" => {
                            default_mode(&e.value, &mut settings, &mut out);
                            continue;
                        }
                        _ => continue,
                    };
                    rules(list, &e.value, text, &mut settings, &mut out);
                }
            }
            Value::Unknown => {}
            _ => out.push(invalid_type(
                entry.value.span,
                format!("`permissions` must be an object, not {}", entry.value.type_name()),
            )),
        }
    }
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, parsed, settings)
}

fn invalid_type(span: Span, message: String) -> Diagnostic {
    Diagnostic::new(Code::InvalidType, span, message)
        .with_severity(Severity::Error)
        .with_effect(Effect::ValueIgnored)
}

fn default_mode(node: &Node, settings: &mut Settings, out: &mut Vec<Diagnostic>) {
    let Some(mode) = node.as_str() else {
        if !node.is_unknown() {
            out.push(invalid_type(
                node.span,
                format!("`defaultMode` must be a string, not {}", node.type_name()),
            ));
        }
        return;
    };
    settings.default_mode = Some((mode.to_string(), node.span));
    if PERMISSION_MODES.contains(&mode) || mode == "manual" {
        return;
    }
    let near = closest(mode, PERMISSION_MODES.iter().copied());
    let mut d = Diagnostic::new(
        Code::InvalidValue,
        node.span,
        format!(
            "`{mode}` is not a permission mode (one of {}).{}",
            PERMISSION_MODES
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", "),
            did_you_mean(near)
        ),
    )
    .with_severity(Severity::Error)
    .with_effect(Effect::ValueIgnored);
    if let Some(n) = near {
        d = d.with_suggestion(node.span, format!("\"{n}\""));
    }
    out.push(d);
}

fn rules(list: List, node: &Node, text: &str, settings: &mut Settings, out: &mut Vec<Diagnostic>) {
    let items = match &node.value {
        Value::Seq(items) => items,
        Value::Unknown => return,
        _ => {
            out.push(invalid_type(
                node.span,
                format!(
                    "`{}` must be a list of rule strings, not {}",
                    list.as_str(),
                    node.type_name()
                ),
            ));
            return;
        }
    };
    for it in items {
        let Some(s) = it.as_str() else {
            if !it.is_unknown() {
                out.push(invalid_type(
                    it.span,
                    format!(
                        "a permission rule is a string such as `\"Bash(npm test)\"`, not {}",
                        it.type_name()
                    ),
                ));
            }
            continue;
        };
        let (tool, specifier) = split_rule(s);
        let rule = PermissionRule {
            list,
            tool: tool.to_string(),
            specifier: specifier.map(str::to_string),
            span: it.span,
            text: s.to_string(),
        };
        check(&rule, text, out);
        settings.rules.push(rule);
    }
}

/// The span of `part` (a byte range of the decoded rule) in the file, when the string is written
/// without escapes (its source is the text between the quotes); the whole string otherwise.
fn sub_span(rule: &PermissionRule, text: &str, start: usize, end: usize) -> Span {
    let inner = Span::new(rule.span.start as usize + 1, (rule.span.end as usize).saturating_sub(1));
    if inner.end >= inner.start && text.get(inner.range()) == Some(rule.text.as_str()) {
        Span::new(inner.start as usize + start, inner.start as usize + end)
    } else {
        rule.span
    }
}

fn warn(code: Code, span: Span, message: String) -> Diagnostic {
    Diagnostic::new(code, span, message)
        .with_severity(Severity::Warning)
        .with_effect(Effect::RuleNeverApplies)
}

/// The checks of one rule.
fn check(rule: &PermissionRule, text: &str, out: &mut Vec<Diagnostic>) {
    let tool = rule.tool.as_str();
    let tool_span = sub_span(rule, text, 0, tool.len());
    // An allow glob over tool names that is not anchored to one MCP server.
    if rule.list == List::Allow && tool.contains('*') {
        let head = &tool[..tool.find('*').unwrap_or(0)];
        let anchored = head
            .strip_prefix("mcp__")
            .and_then(|rest| rest.find("__").filter(|&i| i > 0))
            .is_some();
        if !anchored {
            out.push(warn(
                Code::IgnoredPermissionRule,
                tool_span,
                format!(
                    "Claude Code skips `{tool}` in `allow`: a wildcard in an allow rule's tool name must follow a literal `mcp__<server>__`, as in `mcp__github__*`"
                ),
            ));
        }
        return;
    }
    if !is_known_tool(tool) && !tool.contains('_') && !tool.contains('*') {
        let legacy = LEGACY_TOOLS.iter().find(|(n, _, _)| *n == tool);
        let near = legacy
            .and_then(|(_, to, _)| *to)
            .or_else(|| closest(tool, TOOLS.iter().chain(RULE_ONLY_TOOLS).copied()));
        let does = if tool.starts_with(|c: char| c.is_ascii_lowercase()) {
            // Measured: `claude doctor` lists the rule as skipped in any list.
            "Claude Code skips the rule (tool names start with an uppercase letter)"
        } else {
            match rule.list {
                List::Allow => "the rule never matches",
                List::Ask | List::Deny => "Claude Code warns at start-up and the rule never matches",
            }
        };
        let why = legacy.map(|(_, _, why)| format!(" ({why})")).unwrap_or_default();
        let mut d = warn(
            Code::UnknownTool,
            tool_span,
            format!("`{tool}` is not a Claude Code tool{why}: {does}.{}", did_you_mean(near)),
        );
        if let Some(n) = near {
            d = d.with_suggestion(tool_span, n);
        }
        out.push(d);
        return;
    }
    let Some(spec) = rule.specifier.as_deref() else {
        return;
    };
    let spec_at = tool.len() + 1;
    if let Some((_, instead)) = UNCONSULTED_PATHS.iter().find(|(t, _)| *t == tool) {
        let mut d = warn(
            Code::IgnoredPermissionRule,
            rule.span,
            format!(
                "Claude Code never consults path rules on `{tool}` (startup warning): `Edit(...)` rules cover every edit tool, `Read(...)` rules cover reading and `Glob`. Use `{instead}({spec})`"
            ),
        );
        if *instead == "Edit" {
            d = d.with_fix(
                format!("Replace `{tool}` with `Edit`"),
                vec![Edit::new(tool_span, "Edit")],
                false,
            );
        }
        out.push(d);
        return;
    }
    if matches!(rule.list, List::Ask | List::Deny)
        && let Some((param, value)) = spec.split_once(':')
        && PRIMARY_FIELDS.contains(&param)
        // `Bash(path:*)` is the legacy prefix form (`path *`), not a parameter rule.
        && !(value == "*" && (tool == "Bash" || tool == "PowerShell"))
    {
        out.push(warn(
            Code::IgnoredPermissionRule,
            rule.span,
            format!(
                "`{param}` is `{tool}`'s primary field, which a parameter rule cannot target: Claude Code ignores this rule (startup warning). Write the pattern itself, as in `{tool}({value})`"
            ),
        ));
        return;
    }
    if tool == "Bash" || tool == "PowerShell" {
        let body = spec.strip_suffix(":*").unwrap_or(spec);
        if let Some(at) = body.find(":*") {
            let span = sub_span(rule, text, spec_at + at, spec_at + at + 2);
            out.push(
                warn(
                    Code::IgnoredPermissionRule,
                    span,
                    "`:*` means \"followed by anything\" only at the end of a pattern; here Claude Code matches `:*` literally. Did you mean ` *`?".to_string(),
                )
                .with_suggestion(span, " *"),
            );
        }
    }
}

/// What a rule does, in words, for hover.
pub fn describe(rule: &PermissionRule) -> String {
    let list = rule.list.as_str();
    let tool = rule.tool.as_str();
    let what = if let Some(pattern) = command_pattern(rule) {
        if pattern == "*" {
            format!("every `{tool}` command")
        } else if let Some(head) = pattern.strip_suffix(" *") {
            format!("`{tool}` commands matching `{pattern}` (also `{head}`)")
        } else {
            format!("`{tool}` commands matching `{pattern}`")
        }
    } else if let Some(rest) = tool.strip_prefix("mcp__") {
        match rest.split_once("__") {
            None => format!("every tool of the MCP server `{rest}`"),
            Some((server, "*")) => format!("every tool of the MCP server `{server}`"),
            _ => format!("the MCP tool `{tool}`"),
        }
    } else if tool == "*" {
        "every tool".into()
    } else {
        match (tool, rule.specifier.as_deref()) {
            (_, None) => format!("every use of `{tool}`"),
            ("Read" | "Edit", Some(p)) => format!("`{tool}` on paths matching `{p}` (gitignore-style)"),
            ("WebFetch", Some(d)) if d.starts_with("domain:") => {
                format!("fetching from `{}`", d.trim_start_matches("domain:"))
            }
            ("Agent" | "Task", Some(a)) => format!("starting the agent `{a}`"),
            (_, Some(s)) => format!("`{tool}` matching `{s}`"),
        }
    };
    let order = match rule.list {
        List::Deny => "deny rules are checked first",
        List::Ask => "checked after deny, before allow",
        List::Allow => "applies unless a deny or ask rule matches first",
    };
    format!("**{list}**: {what}\n\n({order})\n")
}

/// Completion in a settings file: tool names for a rule of `allow`, `ask` or `deny` (with the
/// `mcp__<server>` prefixes the workspace uses), the modes for `defaultMode`.
pub fn complete(text: &str, offset: usize, mcp_servers: &[String]) -> Vec<Item> {
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let Some(ctx) = json_context(text, offset) else {
        return Vec::new();
    };
    if ctx.path.as_slice() != ["permissions"] {
        return Vec::new();
    }
    let typed = &text[ctx.replace.range()];
    // After `Tool(` nothing is offered.
    if typed.contains('(') {
        return Vec::new();
    }
    let mut items: Vec<Item> = match ctx.value_of.as_deref() {
        Some("allow" | "ask" | "deny") => TOOLS
            .iter()
            .map(|t| item(t, ItemKind::Value, "Claude Code tool", None, 0))
            .chain(
                mcp_servers
                    .iter()
                    .map(|s| item(s, ItemKind::Value, "MCP server (every tool)", None, 1)),
            )
            .collect(),
        Some("defaultMode") => PERMISSION_MODES
            .iter()
            .map(|m| item(m, ItemKind::Value, "permission mode", None, 0))
            .collect(),
        _ => return Vec::new(),
    };
    // Replace the closing quote too when the editor already typed it.
    let end = if ctx.quoted && text[offset..].starts_with('"') {
        offset + 1
    } else {
        offset
    };
    for it in &mut items {
        it.insert = format!("\"{}\"", it.label);
        it.replace = Span::new(ctx.replace.start as usize, end);
    }
    items.sort_by(|a, b| (a.rank, &a.label).cmp(&(b.rank, &b.label)));
    items
}

#[cfg(test)]
mod tests;

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
use super::settings_schema::{MANAGED_ONLY, SETTINGS, silent};
use crate::analysis::complete::{Item, ItemKind, item, json_context};
use crate::analysis::diagnostic::{Diagnostic, Edit, Effect, Location, Related, Severity};
use crate::analysis::rules::Code;
use crate::analysis::shape::{self, Shape};
use crate::analysis::suggest::{closest, did_you_mean};
use crate::analysis::syntax::{Node, Parsed, Value, jsonc};
use crate::analysis::text::Span;

/// Which settings file: the shared one or the personal one (git-ignored, wins over the shared).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SettingsFile {
    /// The user's `~/.claude/settings.json` (read in every project, beneath the project's).
    User,
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
            SettingsFile::Project | SettingsFile::User => "settings.json",
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
    /// `permissions.defaultMode` when it is a string Claude Code applies from this file, with
    /// the span of its value (`bypassPermissions` and `auto` are not applied from a project's
    /// files).
    pub default_mode: Option<(String, Span)>,
    /// Claude Code applies nothing of this file, and why.
    pub voided: Option<Voided>,
    /// The scripts its hooks run (for the workspace to look up).
    pub scripts: Vec<super::hooks::Script>,
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
    analyze(text, SettingsFile::Project).2
}

/// Why Claude Code applies nothing of a settings file: the span of the first reason and what it
/// is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Voided {
    pub span: Span,
    pub why: String,
}

/// What a voided file loses, appended to the reason.
const VOIDS: &str = "Claude Code applies nothing of this settings file (its permission rules, hooks and every other setting) until this is fixed; it only logs `Invalid setting skipped`";

/// Analyse a settings file as Claude Code 2.1.332 reads it: every setting against its schema
/// ([`super::settings_schema`]), the permission rules one by one, the hooks; the parsed tree; the
/// rules, and whether the file is voided.
pub fn analyze(text: &str, file: SettingsFile) -> (Vec<Diagnostic>, Parsed, Settings) {
    let parsed = jsonc::parse(text);
    let mut out: Vec<Diagnostic> = parsed
        .errors
        .iter()
        .map(|e| {
            Diagnostic::new(
                Code::SyntaxError,
                e.span,
                format!(
                    "{}: Claude Code cannot read this settings file and applies none of it",
                    e.message
                ),
            )
            .with_effect(Effect::FileIgnored)
        })
        .collect();
    let mut settings = Settings::default();
    if let Some(e) = parsed.errors.first() {
        settings.voided = Some(Voided {
            span: e.span,
            why: "the file does not parse".into(),
        });
    }
    let Some(root) = parsed.root.as_ref() else {
        return (out, parsed, settings);
    };
    let Some(map) = root.as_map() else {
        if !matches!(root.value, Value::Unknown) {
            void(
                &mut out,
                &mut settings,
                Code::InvalidType,
                root.span,
                format!("a settings file is a JSON object, not {}", root.type_name()),
            );
        }
        return (out, parsed, settings);
    };
    let Shape::Object(top) = &SETTINGS else {
        return (out, parsed, settings);
    };
    for (key, value) in map.js_entries() {
        let name = key.name.as_str();
        match name {
            "permissions" => permissions(value, key.span, text, file, &mut settings, &mut out),
            "hooks" => hooks(value, text, &mut settings, &mut out),
            // Deleted before the rest is read, whatever its value.
            _ if MANAGED_ONLY.contains(&name) => out.push(
                Diagnostic::new(
                    Code::IgnoredField,
                    key.span,
                    format!(
                        "`{name}` is read from managed settings only: Claude Code ignores it in this file (it logs that it \"was ignored here\")"
                    ),
                )
                .with_severity(Severity::Warning)
                .with_effect(Effect::ValueIgnored),
            ),
            _ => match top.field(name) {
                Some(field) => setting(name, field, value, key.span, &mut settings, &mut out),
                None => unknown_setting(key, map, &mut out),
            },
        }
    }
    if settings.voided.is_none() {
        broad_grants(&settings.rules, &mut out);
    }
    // One cause, one finding: the rules a voided file loses are the related places of the
    // finding that voids it (the first reason), faded in the editor.
    if let Some(v) = &settings.voided
        && let Some(first) = out
            .iter_mut()
            .find(|d| d.span == v.span && d.effect == Effect::FileIgnored)
    {
        for r in &settings.rules {
            first.related.push(Related {
                location: Location::Here(r.span),
                message: format!("not applied: `{}` in `{}`", r.text, r.list.as_str()),
                lost: true,
            });
        }
    }
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, parsed, settings)
}

/// A problem that voids the file: an error on it, and the file's first reason recorded.
fn void(out: &mut Vec<Diagnostic>, settings: &mut Settings, code: Code, span: Span, what: String) {
    if settings.voided.is_none() {
        settings.voided = Some(Voided {
            span,
            why: what.clone(),
        });
    }
    out.push(
        Diagnostic::new(code, span, format!("{what}: {VOIDS}"))
            .with_severity(Severity::Error)
            .with_effect(Effect::FileIgnored),
    );
}

/// The literal a refused string most likely meant (for a replacement).
fn meant(issue: &shape::Issue) -> Option<&'static str> {
    match &issue.kind {
        shape::IssueKind::Value { expected, got } => got
            .as_str()
            .and_then(|s| closest(s, shape::string_literals(expected).iter().copied())),
        _ => None,
    }
}

/// What a refused value is, in words.
fn issue_words(issue: &shape::Issue) -> (Code, String) {
    let path = issue.path.join(".");
    match &issue.kind {
        shape::IssueKind::Type { expected, got } => (
            Code::InvalidType,
            format!("`{path}` must be {}, got {}", shape::describe(expected), got.display()),
        ),
        shape::IssueKind::Value { expected, got } => {
            let near = got
                .as_str()
                .and_then(|s| closest(s, shape::string_literals(expected).iter().copied()));
            (
                Code::InvalidValue,
                format!(
                    "`{path}` must be {}, got {}{}",
                    shape::describe(expected),
                    got.display(),
                    near.map(|n| format!(" (did you mean `{n}`?)")).unwrap_or_default()
                ),
            )
        }
        shape::IssueKind::Number { num, got } => (
            Code::InvalidValue,
            format!("`{path}` must be {}, got {}", num.describe(), got.display()),
        ),
        shape::IssueKind::Missing { object, field } => {
            let parent = issue.path[..issue.path.len().saturating_sub(1)].join(".");
            (
                Code::MissingField,
                format!("`{parent}` has no `{}`, which {} needs", field.name, object.what),
            )
        }
        shape::IssueKind::NoBranch { union, got, .. } => (
            Code::InvalidType,
            format!("`{path}` must be {}, got {}", shape::describe(union), got.display()),
        ),
        shape::IssueKind::Unknown { object } => {
            (Code::UnknownKey, format!("`{path}` is not a field of {}", object.what))
        }
        shape::IssueKind::Extra { tuple } | shape::IssueKind::MissingItem { tuple } => (
            Code::InvalidValue,
            format!("`{path}` must be {}", shape::describe(tuple)),
        ),
    }
}

/// One setting against its schema.
fn setting(
    name: &str,
    field: &'static shape::Field,
    value: &Node,
    key_span: Span,
    settings: &mut Settings,
    out: &mut Vec<Diagnostic>,
) {
    let decoded = shape::decode(value, &field.shape, key_span, &[name.to_string()]);
    for issue in &decoded.issues {
        let (code, what) = issue_words(issue);
        if silent(&issue.path) {
            out.push(
                Diagnostic::new(
                    code,
                    issue.span,
                    format!("{what}: Claude Code replaces this value with nothing, without a word (the rest of the file applies)"),
                )
                .with_severity(Severity::Warning)
                .with_effect(Effect::ValueIgnored),
            );
        } else {
            void(out, settings, code, issue.span, what);
        }
        suggest_last(out, issue);
    }
    dropped(&decoded, value, out);
}

/// The did-you-mean replacement of a refused literal, on the finding just pushed.
fn suggest_last(out: &mut [Diagnostic], issue: &shape::Issue) {
    if let (Some(n), Some(d)) = (meant(issue), out.last_mut()) {
        *d = d.clone().with_suggestion(issue.span, format!("\"{n}\""));
    }
}

/// Keys of a nested object that no field takes: never read. Claude Code drops them, or keeps
/// them where the object keeps what it does not know (`permissions`, ...): either way nothing
/// reads them (`/doctor`: "`permissions.alow` isn't a permissions setting, so it's ignored").
fn dropped(decoded: &shape::Decoded, root: &Node, out: &mut Vec<Diagnostic>) {
    for d in &decoded.kept {
        let key = d.key.name.as_str();
        let near = d.object.suggest(key);
        let under = if d.path.first().is_some_and(|p| p == "permissions")
            && d.path.len() == 1
            && matches!(d.value.value, Value::Seq(_))
        {
            " (rules written under it are not applied)"
        } else {
            ""
        };
        let mut diag = Diagnostic::new(
            Code::UnknownKey,
            d.key.span,
            format!(
                "`{key}` is not a field of {}: Claude Code keeps it without a word and never reads it{under}.{}",
                d.object.what,
                did_you_mean(near)
            ),
        )
        .with_severity(Severity::Warning)
        .with_effect(Effect::ValueIgnored);
        // The rename only where the object has no such key yet (it would replace its value).
        let taken = |n: &str| {
            node_at(root, &d.path[1..])
                .and_then(Node::as_map)
                .is_none_or(|m| m.contains(n))
        };
        if let Some(n) = near.filter(|n| !taken(n)) {
            diag = diag.with_suggestion(d.key.span, format!("\"{n}\""));
        }
        out.push(diag);
    }
    for d in &decoded.dropped {
        let key = d.key.name.as_str();
        let near = d.object.suggest(key);
        let mut diag = Diagnostic::new(
            Code::UnknownKey,
            d.key.span,
            format!(
                "`{key}` is not a field of {}: Claude Code never reads it.{}",
                d.object.what,
                did_you_mean(near)
            ),
        )
        .with_severity(Severity::Warning)
        .with_effect(Effect::ValueIgnored);
        if let Some(n) = near {
            diag = diag.with_suggestion(d.key.span, format!("\"{n}\""));
        }
        out.push(diag);
    }
}

/// The node at `path` (object keys, array indices) below `node`.
fn node_at<'a>(node: &'a Node, path: &[String]) -> Option<&'a Node> {
    path.iter().try_fold(node, |n, seg| match &n.value {
        Value::Map(m) => m.value(seg),
        Value::Seq(items) => items.get(seg.parse::<usize>().ok()?),
        _ => None,
    })
}

/// A top-level key that is no setting: kept in the file, never read.
fn unknown_setting(key: &crate::analysis::syntax::Key, map: &crate::analysis::syntax::Map, out: &mut Vec<Diagnostic>) {
    let Shape::Object(top) = &SETTINGS else { return };
    let name = key.name.as_str();
    let near = top.suggest(name);
    let mut d = Diagnostic::new(
        Code::UnknownKey,
        key.span,
        format!(
            "`{name}` is not a Claude Code setting: Claude Code keeps it without a word and never reads it.{}",
            if name == "mcpServers" {
                " MCP servers go in the project's `.mcp.json` (or `claude mcp add`), not in settings.".to_string()
            } else {
                did_you_mean(near)
            }
        ),
    )
    .with_severity(Severity::Warning)
    .with_effect(Effect::ValueIgnored);
    if let Some(n) = near.filter(|n| !map.contains(n)) {
        d = d.with_suggestion(key.span, format!("\"{n}\""));
    }
    out.push(d);
}

/// `permissions`: its settings against the schema, and its rule lists item by item (a
/// non-string item or a malformed rule is dropped alone; a list that is not a list voids the
/// file). `defaultMode: bypassPermissions` or `auto` in a project's file is ignored.
fn permissions(
    value: &Node,
    key_span: Span,
    text: &str,
    file: SettingsFile,
    settings: &mut Settings,
    out: &mut Vec<Diagnostic>,
) {
    let Shape::Object(top) = &SETTINGS else { return };
    let Some(field) = top.field("permissions") else { return };
    let decoded = shape::decode(value, &field.shape, key_span, &["permissions".to_string()]);
    for issue in &decoded.issues {
        let (code, what) = issue_words(issue);
        if silent(&issue.path) {
            out.push(
                Diagnostic::new(
                    code,
                    issue.span,
                    format!("{what}: Claude Code replaces this value with nothing, without a word (the rest of the file applies)"),
                )
                .with_severity(Severity::Warning)
                .with_effect(Effect::ValueIgnored),
            );
        } else {
            void(out, settings, code, issue.span, what);
        }
        suggest_last(out, issue);
    }
    dropped(&decoded, value, out);
    let Some(map) = value.as_map() else { return };
    for (key, v) in map.js_entries() {
        let list = match key.name.as_str() {
            "allow" => List::Allow,
            "ask" => List::Ask,
            "deny" => List::Deny,
            "defaultMode" => {
                default_mode(v, file, settings, out);
                continue;
            }
            _ => continue,
        };
        rules(list, v, text, settings, out);
    }
}

/// `broad-grant`: an allow rule for every command of a shell tool, unless an ask or deny rule of
/// the file takes in the whole tool again (then the allow grants nothing).
fn broad_grants(rules: &[PermissionRule], out: &mut Vec<Diagnostic>) {
    let whole = |r: &PermissionRule| super::tools::whole_shell(&r.tool, r.specifier.as_deref());
    fn runner(r: &PermissionRule) -> Option<&str> {
        super::tools::any_command(&r.tool, r.specifier.as_deref())
    }
    for rule in rules
        .iter()
        .filter(|r| r.list == List::Allow && (whole(r) || runner(r).is_some()))
    {
        // Deny and ask rules take tool-name globs (`*`): `"deny": ["*"]` takes in every tool.
        let takes_in = |r: &PermissionRule| {
            crate::analysis::permission::wildcard_match(&rule.tool, &r.tool)
                && super::tools::every_use(r.specifier.as_deref())
        };
        if rules.iter().any(|r| r.list != List::Allow && takes_in(r)) {
            continue;
        }
        // A whole-shell rule names no program: `runner` finds none in it.
        let message = match runner(rule) {
            Some(head) => format!(
                "`{}` in `allow` lets every {} command run without asking, for everyone who uses this file: {}, so the model runs any command through it (deny and ask rules still stop what they name). Allow the scripts it needs instead, as in `{}(python3 scripts/check.py *)`",
                rule.text,
                rule.tool,
                super::tools::runs_what(head),
                rule.tool
            ),
            _ => format!(
                "`{}` in `allow` runs every {} command the model chooses without asking, for everyone who uses this file (deny and ask rules still stop what they name): list the commands it needs instead, as in `{}(npm test *)`",
                rule.text, rule.tool, rule.tool
            ),
        };
        out.push(Diagnostic::new(Code::BroadGrant, rule.span, message));
    }
}

/// `hooks`, read as Claude Code reads them (see [`super::hooks`]).
fn hooks(value: &Node, text: &str, settings: &mut Settings, out: &mut Vec<Diagnostic>) {
    let report = super::hooks::check(value, text);
    for p in &report.problems {
        if p.guard {
            void(
                out,
                settings,
                p.code,
                p.span,
                format!(
                    "{} — a broken PreToolUse or PermissionRequest hook may be what guards the permissions beside it",
                    p.message
                ),
            );
        } else {
            let cost = if p.whole {
                "Claude Code ignores `hooks` (the rest of the file applies)"
            } else {
                "Claude Code ignores this entry (the rest of the file applies)"
            };
            out.push(
                Diagnostic::new(p.code, p.span, format!("{}: {cost}", p.message))
                    .with_severity(Severity::Error)
                    .with_effect(Effect::ValueIgnored),
            );
        }
    }
    out.extend(report.advice);
    settings.scripts = report.scripts;
}

/// `defaultMode`: its validity is the schema's; what applies is recorded here. A project's files
/// cannot grant `bypassPermissions` or `auto` (Claude Code ignores them there, with a warning in
/// its log: they are repo-controllable).
fn default_mode(node: &Node, file: SettingsFile, settings: &mut Settings, out: &mut Vec<Diagnostic>) {
    let Some(mode) = node.as_str() else { return };
    let mode = if mode == "manual" { "default" } else { mode };
    if !PERMISSION_MODES.contains(&mode) {
        return;
    }
    if matches!(mode, "bypassPermissions" | "auto") && file != SettingsFile::User {
        out.push(
            Diagnostic::new(
                Code::IgnoredField,
                node.span,
                format!(
                    "Claude Code ignores `defaultMode: {mode}` in a project's {}: only the user's settings, managed settings and the command line may grant it (this file is repo-controllable), so sessions start in `default` mode",
                    file.file_name()
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored),
        );
        return;
    }
    settings.default_mode = Some((mode.to_string(), node.span));
}

fn rules(list: List, node: &Node, text: &str, settings: &mut Settings, out: &mut Vec<Diagnostic>) {
    let items = match &node.value {
        Value::Seq(items) => items,
        Value::Unknown => return,
        _ => {
            void(
                out,
                settings,
                Code::InvalidType,
                node.span,
                format!(
                    "`permissions.{}` must be an array of rule strings, got {}",
                    list.as_str(),
                    node.display()
                ),
            );
            return;
        }
    };
    for it in items {
        let Some(s) = it.as_str() else {
            if !it.is_unknown() {
                out.push(
                    Diagnostic::new(
                        Code::InvalidType,
                        it.span,
                        format!(
                            "a permission rule is a string such as `\"Bash(npm test)\"`, not {}: Claude Code removes this item (the rest of the list applies)",
                            it.type_name()
                        ),
                    )
                    .with_severity(Severity::Error)
                    .with_effect(Effect::ValueIgnored),
                );
            }
            continue;
        };
        if let Some(why) = malformed(s) {
            let mut d = Diagnostic::new(
                Code::InvalidValue,
                it.span,
                format!("{why}: Claude Code skips this rule (the rest of the list applies)"),
            )
            .with_severity(Severity::Error)
            .with_effect(Effect::RuleNeverApplies);
            // Only a `)` missing at the end: add it, where the string is spelled out as is.
            let inner = (it.span.start as usize + 1, (it.span.end as usize).saturating_sub(1));
            if s.contains('(') && !s.contains(')') && text.get(inner.0..inner.1) == Some(s) {
                d = d.with_fix(
                    super::tools::ADD_PARENTHESIS,
                    vec![Edit::new(Span::new(inner.1, inner.1), ")")],
                    false,
                );
            }
            out.push(d);
            continue;
        }
        let (tool, specifier) = split_rule(s);
        let rule = PermissionRule {
            list,
            tool: tool.to_string(),
            specifier: specifier.map(str::to_string),
            span: it.span,
            text: s.to_string(),
        };
        if check(&rule, text, out) {
            settings.rules.push(rule);
        }
    }
}

/// Why Claude Code skips a rule before reading its tool: it is empty, its parentheses are not
/// `Tool(content)` ending at the last `)`, or they are empty.
fn malformed(rule: &str) -> Option<String> {
    if rule.is_empty() {
        return Some("an empty permission rule".into());
    }
    match rule.find('(') {
        Some(_) if !rule.ends_with(')') => Some(if rule.contains(')') {
            format!("`{rule}` has text after its closing `)`: a rule is `Tool` or `Tool(content)`, ending at the `)`")
        } else {
            format!("`{rule}` has no closing `)`: a rule is `Tool` or `Tool(content)`, ending at the `)`")
        }),
        Some(open) if open + 2 == rule.len() => Some(format!(
            "`{rule}` has empty parentheses: write a pattern between them, or `{}` alone for every use",
            &rule[..open]
        )),
        None if rule.contains(')') => Some(format!(
            "`{rule}` has a `)` without its `(`: a rule is `Tool` or `Tool(content)`"
        )),
        _ => None,
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

/// The checks of one rule; whether Claude Code keeps it (it skips a wildcard allow not anchored
/// to one MCP server, and a tool name starting in lower case).
fn check(rule: &PermissionRule, text: &str, out: &mut Vec<Diagnostic>) -> bool {
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
            out.push(
                warn(
                    Code::IgnoredPermissionRule,
                    tool_span,
                    format!(
                        "Claude Code skips `{tool}` in `allow`: a wildcard in an allow rule's tool name must follow a literal `mcp__<server>__`, as in `mcp__github__*`"
                    ),
                )
                .with_severity(Severity::Error),
            );
        }
        return anchored;
    }
    if !is_known_tool(tool) && !tool.contains('_') && !tool.contains('*') {
        let legacy = LEGACY_TOOLS.iter().find(|(n, _, _)| *n == tool);
        let near = legacy
            .and_then(|(_, to, _)| *to)
            .or_else(|| closest(tool, TOOLS.iter().chain(RULE_ONLY_TOOLS).copied()));
        let lower = tool.starts_with(|c: char| c.is_ascii_lowercase());
        let does = if lower {
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
        // A skipped rule is an error; one that never matches a warning.
        if lower {
            d = d.with_severity(Severity::Error);
        }
        out.push(d);
        return !lower;
    }
    let Some(spec) = rule.specifier.as_deref() else {
        return true;
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
        return true;
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
        return true;
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
    true
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
    let rule_list = matches!(ctx.value_of.as_deref(), Some("allow" | "ask" | "deny" | "defaultMode"));
    if ctx.path.as_slice() != ["permissions"] || !rule_list {
        // Every other key and value, from the tables.
        let mut items = editor::complete(&ctx);
        let end = if ctx.quoted && text[offset..].starts_with('"') && ctx.value_of.is_some() {
            offset + 1
        } else {
            offset
        };
        for it in &mut items {
            let body = if it.kind == ItemKind::Value && matches!(it.label.as_str(), "true" | "false") {
                it.label.clone()
            } else {
                format!("\"{}\"", it.label)
            };
            it.insert = if ctx.value_of.is_none() {
                format!("{body}: ")
            } else {
                body
            };
            it.replace = Span::new(ctx.replace.start as usize, end);
        }
        items.sort_by(|a, b| (a.rank, &a.label).cmp(&(b.rank, &b.label)));
        return items;
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

mod editor;

pub use editor::hover;

#[cfg(test)]
mod tests;

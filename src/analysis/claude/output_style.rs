//! Output styles (`.claude/output-styles/**/*.md` of a project and of the user, a plugin's
//! `output-styles/`), as Claude Code 2.1.332 reads them (seen with the runtime:
//! `tests/claude_runtime/output_styles.rs`).
//!
//! The frontmatter is read as an agent's (a lenient retry when the YAML fails, see
//! [`super::read`]); the body is the style's prompt, put into the system prompt under `# Output
//! Style: NAME` when the settings' `outputStyle` names the style (exactly, case included). Its keys:
//! `name` (the name in `/config` and in settings; the file's name without `.md` when absent; a
//! value of another type is written as JavaScript writes it, `5`, `a,b`), `description`,
//! `keep-coding-instructions` (the default coding instructions stay beside the style) and
//! `force-for-plugin` (read for a plugin's styles only). Any other key is ignored without a word.
//!
//! The checks here ([`analyze`]): keys Claude Code ignores (with the did-you-mean fix), values of
//! the wrong type, `force-for-plugin` outside a plugin, a frontmatter only the retry reads or that
//! neither pass reads. Across files (the workspace): two styles of one project with the same name,
//! and a settings `outputStyle` that names no style ([`BUILTIN`] or the project's, the user's,
//! the plugins').

use super::read::{self, Outcome, Reading};
use crate::analysis::complete::{Item, ItemKind, item, yaml_context};
use crate::analysis::diagnostic::{Diagnostic, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::suggest::{closest, did_you_mean};
use crate::analysis::syntax::{Node, Parsed, Value};
use crate::analysis::text::Span;

/// Where a style is defined.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// A project's `.claude/output-styles/` (or the user's `~/.claude/output-styles/`).
    Project,
    /// A plugin's `output-styles/` (or a folder or file its manifest's `outputStyles` lists):
    /// the plugin's name, which prefixes the style's (`plugin:style`).
    Plugin { plugin: String },
}

/// The styles Claude Code 2.1.332 has built in (its `available_output_styles` with no style of
/// its own).
pub const BUILTIN: &[&str] = &["default", "Proactive", "Concise", "Explanatory", "Learning"];

/// A style's keys, with what each does.
pub const KEYS: &[(&str, &str)] = &[
    (
        "name",
        "The style's name, in the Output style picker of `/config` and in the settings' `outputStyle` (exactly, case included). Defaults to the file's name without `.md`.",
    ),
    ("description", "Shown in the Output style picker of `/config`."),
    (
        "keep-coding-instructions",
        "`true`: the default coding instructions stay in the system prompt beside this style.",
    ),
    (
        "force-for-plugin",
        "A plugin's style only: used whenever the plugin is enabled. Ignored for a project's or user's style.",
    ),
];

/// What a style file declares.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// The name its `name` gives, as Claude Code writes it, and where; `None`: the file's name
    /// without `.md` (see [`Style::name`]).
    pub declared: Option<(String, Span)>,
    /// Where to report about the style when its name comes from the file's name: the opening
    /// `---`, or the first line.
    pub anchor: Span,
}

impl Style {
    /// The name Claude Code gives the style, given the file's name without `.md` (a plugin's
    /// style is listed as `plugin:name`, see [`listed_name`]).
    pub fn name<'a>(&'a self, file_stem: &'a str) -> &'a str {
        self.declared.as_ref().map_or(file_stem, |(n, _)| n.as_str())
    }

    /// Where the name is written (the anchor when it is the file's name).
    pub fn name_span(&self) -> Span {
        self.declared.as_ref().map_or(self.anchor, |(_, s)| *s)
    }
}

/// The name Claude Code lists a style under, in `/config` and for the settings' `outputStyle`: a
/// plugin's prefixed with the plugin's name.
pub fn listed_name(origin: &Origin, style: &Style, file_stem: &str) -> String {
    match origin {
        Origin::Project => style.name(file_stem).to_string(),
        Origin::Plugin { plugin } => format!("{plugin}:{}", style.name(file_stem)),
    }
}

/// Analyse a style file: its diagnostics, tree and declaration.
pub fn analyze(text: &str, origin: &Origin) -> (Vec<Diagnostic>, Parsed, Style) {
    let reading = read::read(text);
    let mut out = Vec::new();
    let anchor = reading
        .block
        .as_ref()
        .map_or_else(|| crate::analysis::text::first_line(text), |b| b.open);
    let mut style = Style { declared: None, anchor };
    match reading.outcome {
        Outcome::Failed => {
            let span = reading.first_errors.first().map(|e| e.span).unwrap_or(anchor);
            out.push(
                Diagnostic::new(
                    Code::SyntaxError,
                    span,
                    "this frontmatter is not valid YAML, even as Claude Code retries it: it reads none of it, and lists the style under the file's name",
                )
                .with_severity(Severity::Warning)
                .with_effect(Effect::ValueIgnored),
            );
        }
        Outcome::Retry => {
            out.extend(super::agent::lenient_parse(text, &reading, &[]));
        }
        _ => {}
    }
    if let Some(map) = readable(&reading) {
        for e in map.entries.iter() {
            let key = e.key.name.as_str();
            let v = &e.value;
            match key {
                "name" => {
                    if let Some(shown) = shown(v, text) {
                        style.declared = Some((shown.clone(), v.span));
                        if v.as_str().is_none() {
                            out.push(
                                Diagnostic::new(
                                    Code::InvalidType,
                                    v.span,
                                    format!(
                                        "`name` is {}: Claude Code lists the style as `{shown}`. Quote the value to name it as written",
                                        v.type_name()
                                    ),
                                )
                                .with_severity(Severity::Warning)
                                .with_effect(Effect::ValueIgnored),
                            );
                        }
                    }
                }
                "description" => {
                    // A string, a number or a boolean (written as text); anything else is left
                    // out ("Description invalid ... omitting" in the debug log).
                    if !matches!(
                        v.value,
                        Value::Str(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Null | Value::Unknown
                    ) {
                        out.push(
                            Diagnostic::new(
                                Code::InvalidType,
                                v.span,
                                format!(
                                    "`description` is {}: Claude Code leaves it out and describes the style by the first line of its body",
                                    v.type_name()
                                ),
                            )
                            .with_severity(Severity::Warning)
                            .with_effect(Effect::ValueIgnored),
                        );
                    }
                }
                "force-for-plugin" if *origin == Origin::Project => {
                    out.push(
                        Diagnostic::new(
                            Code::IgnoredField,
                            e.key.span,
                            "`force-for-plugin` is read for a plugin's styles only: Claude Code ignores it here (and says so in its debug log)",
                        )
                        .with_severity(Severity::Warning)
                        .with_effect(Effect::ValueIgnored),
                    );
                }
                "keep-coding-instructions" | "force-for-plugin" => {
                    if !matches!(v.value, Value::Null | Value::Unknown) && flag(v, text).is_none() {
                        out.push(
                            Diagnostic::new(
                                Code::InvalidValue,
                                v.span,
                                format!(
                                    "Claude Code reads `{key}` as `true` or `false` (also `yes`/`no`, `on`/`off`, `1`/`0`); it ignores {}, as if `false`",
                                    match &v.value {
                                        Value::Str(s) => format!("`{s}`"),
                                        _ => v.type_name().to_string(),
                                    }
                                ),
                            )
                            .with_severity(Severity::Warning)
                            .with_effect(Effect::ValueIgnored),
                        );
                    }
                }
                other => {
                    let near = closest(other, KEYS.iter().map(|(k, _)| *k));
                    let mut d = Diagnostic::new(
                        Code::UnknownKey,
                        e.key.span,
                        format!(
                            "an output style has no `{other}`: Claude Code ignores it without a word.{}",
                            did_you_mean(near)
                        ),
                    )
                    .with_severity(Severity::Warning)
                    .with_effect(Effect::ValueIgnored);
                    if let Some(n) = near.filter(|n| !map.contains(n)) {
                        d = d.with_suggestion(e.key.span, n);
                    }
                    out.push(d);
                }
            }
        }
    }
    (out, reading.parsed, style)
}

/// A flag as Claude Code reads it: a boolean, or a string or number that reads as one (`true`,
/// `yes`, `on`, `1` and `false`, `no`, `off`, `0`, any case, spaces around); `None` otherwise.
fn flag(v: &Node, text: &str) -> Option<bool> {
    let written = match &v.value {
        Value::Bool(b) => return Some(*b),
        Value::Str(s) => s.clone(),
        Value::Int(i) => i.to_string(),
        Value::Float(_) => v.span.text(text).to_string(),
        _ => return None,
    };
    match written.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// The frontmatter's mapping, when the loader reads one.
fn readable(reading: &Reading) -> Option<&crate::analysis::syntax::Map> {
    if !matches!(reading.outcome, Outcome::FirstPass | Outcome::Retry) {
        return None;
    }
    reading.parsed.root.as_ref()?.as_map()
}

/// A value as JavaScript's `String()` writes it (`5`, `a,b`, `true`); `None` for null and for a
/// value that is empty once written.
fn shown(v: &Node, text: &str) -> Option<String> {
    let written = |n: &Node| match &n.value {
        Value::Str(s) => s.clone(),
        Value::Null | Value::Unknown => String::new(),
        Value::Map(_) => "[object Object]".to_string(),
        Value::Int(i) => i.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => n.span.text(text).trim().to_string(),
    };
    let s = match &v.value {
        Value::Str(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_) => written(v),
        Value::Seq(items) => items.iter().map(written).collect::<Vec<_>>().join(","),
        Value::Map(_) => "[object Object]".to_string(),
        _ => return None,
    };
    (!s.trim().is_empty()).then_some(s)
}

/// Completion in a style's frontmatter: its keys (those not written yet).
pub fn complete(text: &str, offset: usize) -> Vec<Item> {
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let Some(ctx) = yaml_context(text, offset) else {
        return Vec::new();
    };
    let mut items: Vec<Item> = match (&ctx.value_of, ctx.path.is_empty()) {
        (None, true) => KEYS
            .iter()
            .filter(|(k, _)| !ctx.present.iter().any(|p| p == k))
            .map(|(k, d)| item(k, ItemKind::Key, "output style", Some(d.to_string()), 0))
            .collect(),
        (Some(key), true) if key == "keep-coding-instructions" || key == "force-for-plugin" => ["true", "false"]
            .iter()
            .map(|b| item(b, ItemKind::Value, key, None, 0))
            .collect(),
        _ => Vec::new(),
    };
    for it in &mut items {
        it.replace = ctx.replace;
        it.insert = if ctx.value_of.is_none() {
            format!("{}: ", it.label)
        } else {
            it.label.clone()
        };
    }
    items
}

/// Hover in a style file: on a key of its frontmatter, what it does; on its name (the `name`
/// value, or the opening `---` or first line when the file's name is the style's), the name
/// Claude Code lists (`listed`, see [`listed_name`]) and how to choose it.
pub fn hover(text: &str, offset: usize, listed: &str) -> Option<(String, Span)> {
    let (_, _, style) = analyze(text, &Origin::Project);
    let name_span = style.name_span();
    if name_span.contains(offset) || (name_span.is_empty() && offset == name_span.start as usize) {
        let md = format!(
            "**Output style `{listed}`**\n\nListed under this name in the Output style picker of `/config`; chosen by `\"outputStyle\": \"{listed}\"` in Claude Code's settings (the name exactly, case included).\n"
        );
        return Some((md, name_span));
    }
    let reading = read::read(text);
    let map = readable(&reading)?;
    let e = map.entries.iter().find(|e| e.key.span.contains(offset))?;
    let doc = KEYS
        .iter()
        .find(|(k, _)| *k == e.key.name)
        .map_or("Claude Code ignores this key.", |(_, d)| d);
    Some((format!("**`{}`** (output style)\n\n{doc}\n", e.key.name), e.key.span))
}

/// A style known to the workspace, for the checks across files.
#[derive(Clone, Debug)]
pub struct Listed<'a> {
    /// The workspace's id of its file.
    pub file: usize,
    /// The name Claude Code lists it under ([`listed_name`]).
    pub name: String,
    /// Where that name is written ([`Style::name_span`]).
    pub span: Span,
    /// The folder it belongs to: the one holding its `.claude/` (a project, the home directory),
    /// or the plugin's root.
    pub dir: &'a std::path::Path,
    /// The file's path from `dir`, for messages.
    pub rel: String,
    pub plugin: bool,
}

/// A settings file that may choose a style.
#[derive(Clone, Copy, Debug)]
pub struct Choice<'a> {
    pub file: usize,
    /// The settings' root, when Claude Code applies the file.
    pub root: Option<&'a Node>,
    /// The project whose `.claude/` holds it (the home directory for the user's settings).
    pub dir: &'a std::path::Path,
    /// The user's `~/.claude/settings.json`: it applies in every project.
    pub user: bool,
}

/// The checks across style files and settings:
///
/// - two styles of one folder (a project's `.claude/output-styles/`, the user's, a plugin) with
///   one name: Claude Code lists the name once and keeps one of them (a later one of the found
///   files replaces an earlier one, and the order is the file system's);
/// - a settings `outputStyle` that names no style Claude Code started there lists (built in, of
///   the project or a folder above it, of the user, of a plugin): Claude Code falls back to the
///   default style without a word. The user's styles count when `user_known`; when they were not
///   read, only a name close to a known one is reported (a style of the user may have it). A
///   plugin's style (`plugin:name`) of a plugin the workspace does not hold is not judged.
pub fn check_across(styles: &[Listed], choices: &[Choice], home: Option<&std::path::Path>) -> Vec<(usize, Diagnostic)> {
    let mut out = Vec::new();
    // Duplicates, folder by folder (and plugins apart from projects).
    for (i, s) in styles.iter().enumerate() {
        let first = styles[..i]
            .iter()
            .find(|o| o.dir == s.dir && o.plugin == s.plugin && o.name == s.name);
        if let Some(first) = first {
            out.push((
                s.file,
                Diagnostic::new(
                    Code::DuplicateAgent,
                    s.span,
                    format!(
                        "`{}` also names an output style `{}`: Claude Code lists the name once and uses one of the two files",
                        first.rel, s.name
                    ),
                )
                .with_effect(Effect::ValueIgnored),
            ));
        }
    }
    for c in choices {
        let Some(v) = c.root.and_then(Node::as_map).and_then(|m| m.value("outputStyle")) else {
            continue;
        };
        let Some(wanted) = v.as_str() else { continue };
        let visible = |s: &&Listed| s.plugin || c.user || c.dir.starts_with(s.dir) || home.is_some_and(|h| s.dir == h);
        let names: Vec<&str> = BUILTIN
            .iter()
            .copied()
            .chain(styles.iter().filter(visible).map(|s| s.name.as_str()))
            .collect();
        if names.contains(&wanted) {
            continue;
        }
        // A plugin's style: judged when the workspace holds the plugin (one installed from a
        // marketplace is not known).
        let plugin_known = wanted.split_once(':').map(|(plugin, _)| {
            styles
                .iter()
                .any(|s| s.plugin && s.name.starts_with(&format!("{plugin}:")))
        });
        if plugin_known == Some(false) {
            continue;
        }
        let near = closest(wanted, names.iter().copied());
        if home.is_none() && near.is_none() && plugin_known.is_none() {
            continue;
        }
        let mut d = Diagnostic::new(
            Code::InvalidValue,
            v.span,
            format!(
                "no output style is named `{wanted}`{}: Claude Code uses the default style instead, without a word.{}",
                if home.is_none() {
                    " here (the user's styles were not read)"
                } else {
                    ""
                },
                did_you_mean(near)
            ),
        )
        .with_severity(Severity::Warning)
        .with_effect(Effect::ValueIgnored);
        if let Some(n) = near {
            d = d.with_suggestion(v.span, n);
        }
        out.push((c.file, d));
    }
    out
}

#[cfg(test)]
mod tests;

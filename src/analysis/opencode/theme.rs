//! Custom themes of opencode's terminal interface (`themes/*.json` in the global config folder
//! and in every `.opencode/` from the folder opencode starts in up to the root), read as opencode
//! 1.18.34 reads them (seen with its terminal interface: `tests/runtime/themes.rs`):
//!
//! - every theme file is read with `JSON.parse` when the interface starts: one file that does
//!   not parse (a comment, a trailing comma) drops every custom theme, not only its own (an
//!   error, `syntax-error`);
//! - a theme is `{"defs": {...}, "theme": {...}}`; each value of `theme` is a color: `#rrggbb`
//!   (or `#rgb`, `#rrggbbaa`), `transparent` or `none`, an ANSI color number, the name of a
//!   `defs` entry or of another `theme` key, or `{"dark": ..., "light": ...}`; when the theme is
//!   chosen, every value is resolved, and a reference that names nothing, a reference cycle or a
//!   variant without the mode in use makes the theme fail: opencode keeps its default theme,
//!   without a word (an error on that value, effect `fails-when-used`);
//! - a key of `theme` opencode does not use is a warning (it is still resolved);
//! - the name of a theme is its file's name without `.json`; a later folder (farther up from
//!   where opencode starts) replaces a theme of the same name.
//!
//! The checks across files (a `tui.json` `theme` that names no theme) are the workspace's.

use crate::analysis::complete::{Context, Item, ItemKind, item};
use crate::analysis::diagnostic::{Diagnostic, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::suggest::{closest, did_you_mean};
use crate::analysis::syntax::strict::{strict_json, strict_json_fix};
use crate::analysis::syntax::{Key, Map, Node, Parsed, Value, jsonc};
use crate::analysis::text::Span;

/// opencode's own themes (its theme list with no custom theme), and `system` (the terminal's
/// colors).
pub const BUILTIN: &[&str] = &[
    "aura",
    "ayu",
    "catppuccin",
    "catppuccin-frappe",
    "catppuccin-macchiato",
    "cobalt2",
    "cursor",
    "dracula",
    "everforest",
    "flexoki",
    "github",
    "gruvbox",
    "kanagawa",
    "material",
    "matrix",
    "mercury",
    "monokai",
    "nightowl",
    "nord",
    "one-dark",
    "osaka-jade",
    "opencode",
    "orng",
    "lucent-orng",
    "palenight",
    "rosepine",
    "solarized",
    "synthwave84",
    "tokyonight",
    "vesper",
    "vercel",
    "zenburn",
    "carbonfox",
    "system",
];

/// The colors of a theme (`theme` keys), as opencode's own themes set them.
pub const KEYS: &[&str] = &[
    "primary",
    "secondary",
    "accent",
    "error",
    "warning",
    "success",
    "info",
    "text",
    "textMuted",
    "background",
    "backgroundPanel",
    "backgroundElement",
    "border",
    "borderActive",
    "borderSubtle",
    "diffAdded",
    "diffRemoved",
    "diffContext",
    "diffHunkHeader",
    "diffHighlightAdded",
    "diffHighlightRemoved",
    "diffAddedBg",
    "diffRemovedBg",
    "diffContextBg",
    "diffLineNumber",
    "diffAddedLineNumberBg",
    "diffRemovedLineNumberBg",
    "markdownText",
    "markdownHeading",
    "markdownLink",
    "markdownLinkText",
    "markdownCode",
    "markdownBlockQuote",
    "markdownEmph",
    "markdownStrong",
    "markdownHorizontalRule",
    "markdownListItem",
    "markdownListEnumeration",
    "markdownImage",
    "markdownImageText",
    "markdownCodeBlock",
    "syntaxComment",
    "syntaxKeyword",
    "syntaxFunction",
    "syntaxVariable",
    "syntaxString",
    "syntaxNumber",
    "syntaxType",
    "syntaxOperator",
    "syntaxPunctuation",
    // Optional: the selected item's text, the menus' background, the opacity of thinking.
    "selectedListItemText",
    "backgroundMenu",
    "thinkingOpacity",
];

const ROOT_KEYS: &[&str] = &["$schema", "defs", "theme"];

/// The modes a variant (`{"dark": ..., "light": ...}`) is read in.
const MODES: &[&str] = &["dark", "light"];

/// The start of the message on a variant without one of the modes: the theme works in the other
/// mode (a warning).
const MODE_MISSING: &str = "this color has no ";

/// Analyse a theme file: its diagnostics and tree. `loads`: it parses (when it does not, opencode
/// drops every custom theme).
pub fn analyze(text: &str) -> (Vec<Diagnostic>, Parsed) {
    let mut out = Vec::new();
    let lost = |span: Span, what: String| {
        Diagnostic::new(
            Code::SyntaxError,
            span,
            format!("{what}: opencode reads themes with `JSON.parse` and drops every custom theme, not only this one"),
        )
        .with_effect(Effect::FileIgnored)
    };
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        out.push(lost(
            crate::analysis::text::first_line(text),
            "the file is empty".into(),
        ));
        return (out, Parsed::default());
    }
    let parsed = jsonc::parse(text);
    for e in &parsed.errors {
        out.push(lost(e.span, e.message.clone()));
    }
    for (span, what) in strict_json(text) {
        out.push(strict_json_fix(
            lost(span, format!("{what} (the file is read as strict JSON)")),
            what,
        ));
    }
    if !out.is_empty() {
        return (out, parsed);
    }
    if let Some(root) = &parsed.root {
        check_root(root, text, &mut out);
    }
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, parsed)
}

fn fails(span: Span, what: String) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidValue,
        span,
        format!("{what}: choosing this theme fails, and opencode keeps its default theme without a word"),
    )
    .with_effect(Effect::FailsWhenUsed)
}

fn check_root(root: &Node, text: &str, out: &mut Vec<Diagnostic>) {
    let Some(map) = root.as_map() else {
        if !root.is_unknown() {
            out.push(fails(
                root.span,
                format!(
                    "a theme is an object (`{{\"defs\": {{...}}, \"theme\": {{...}}}}`), not {}",
                    root.type_name()
                ),
            ));
        }
        return;
    };
    for (key, _) in map.js_entries() {
        if !ROOT_KEYS.contains(&key.name.as_str()) {
            let what = format!("`{}` is not a key of a theme: opencode ignores it", key.name);
            out.push(unknown(key, map, ROOT_KEYS, what));
        }
    }
    let defs = match map.value("defs") {
        Some(d) => match d.as_map() {
            Some(m) => Some(m),
            None => {
                if !d.is_unknown() && !matches!(d.value, Value::Null) {
                    out.push(fails(
                        d.span,
                        format!("`defs` must be an object of named colors, not {}", d.type_name()),
                    ));
                }
                None
            }
        },
        None => None,
    };
    let Some(theme_node) = map.value("theme") else {
        let at = Span::new(root.span.start as usize, root.span.start as usize + 1);
        out.push(
            Diagnostic::new(
                Code::MissingField,
                at,
                "a theme needs `theme`, the object of its colors: choosing this theme fails, and opencode keeps its default theme without a word",
            )
            .with_effect(Effect::FailsWhenUsed),
        );
        return;
    };
    let Some(theme) = theme_node.as_map() else {
        if !theme_node.is_unknown() {
            out.push(fails(
                theme_node.span,
                format!("`theme` must be an object of colors, not {}", theme_node.type_name()),
            ));
        }
        return;
    };
    let cx = Resolve { defs, theme, text };
    let mut seen: Vec<Span> = Vec::new();
    for (key, value) in theme.js_entries() {
        if !KEYS.contains(&key.name.as_str()) {
            let what = format!("opencode uses no color `{}`: it is read but nothing shows it", key.name);
            out.push(unknown(key, theme, KEYS, what));
        }
        if key.name == "thinkingOpacity" {
            if !matches!(value.value, Value::Int(_) | Value::Float(_) | Value::Unknown) {
                out.push(
                    Diagnostic::new(
                        Code::InvalidType,
                        value.span,
                        format!("`thinkingOpacity` is a number from 0 to 1, not {}", value.type_name()),
                    )
                    .with_severity(Severity::Warning)
                    .with_effect(Effect::ValueIgnored),
                );
            }
            continue;
        }
        for mode in MODES {
            if let Err((span, why)) = cx.color(value, mode, &mut Vec::new(), 0)
                && !seen.contains(&span)
            {
                seen.push(span);
                let mut d = fails(span, why);
                if d.message.starts_with(MODE_MISSING) {
                    // Only one mode fails: a warning.
                    d.message = d.message.replace(
                        ": choosing this theme fails",
                        ": in that mode, choosing this theme fails",
                    );
                    d = d.with_severity(Severity::Warning);
                }
                out.push(d);
            }
        }
    }
}

/// A key of `map` that none of `known` is: a warning saying `what`, with the closest known key
/// the map does not have yet as its did-you-mean.
fn unknown(key: &Key, map: &Map, known: &[&'static str], what: String) -> Diagnostic {
    let near = closest(&key.name, known.iter().copied()).filter(|n| !map.contains(n));
    let d = Diagnostic::new(Code::UnknownKey, key.span, format!("{what}.{}", did_you_mean(near)))
        .with_severity(Severity::Warning)
        .with_effect(Effect::ValueIgnored);
    match near {
        Some(n) => d.with_suggestion(key.span, format!("\"{n}\"")),
        None => d,
    }
}

struct Resolve<'a> {
    defs: Option<&'a Map>,
    theme: &'a Map,
    text: &'a str,
}

impl Resolve<'_> {
    /// Resolve a color in `mode` as opencode does; the place and reason of a failure.
    fn color(&self, v: &Node, mode: &str, chain: &mut Vec<String>, depth: usize) -> Result<(), (Span, String)> {
        if depth > 64 {
            return Ok(());
        }
        match &v.value {
            Value::Unknown => Ok(()),
            Value::Str(s) if s == "transparent" || s == "none" => Ok(()),
            Value::Str(s) if s.starts_with('#') => {
                let hex = &s[1..];
                if matches!(hex.len(), 3 | 4 | 6 | 8) && hex.chars().all(|c| c.is_ascii_hexdigit()) {
                    Ok(())
                } else {
                    Err((v.span, format!("`{s}` is not a color (`#rrggbb`)")))
                }
            }
            Value::Str(name) => {
                if let Some(i) = chain.iter().position(|c| c == name) {
                    let cycle = chain[i..]
                        .iter()
                        .chain(std::iter::once(name))
                        .map(|c| format!("`{c}`"))
                        .collect::<Vec<_>>()
                        .join(" → ");
                    return Err((v.span, format!("the colors refer to each other in a cycle ({cycle})")));
                }
                // `defs` first, then the theme's own keys (a `null` in `defs` falls through).
                let target = self
                    .defs
                    .and_then(|d| d.value(name))
                    .filter(|n| !matches!(n.value, Value::Null))
                    .or_else(|| self.theme.value(name).filter(|n| !matches!(n.value, Value::Null)));
                let Some(target) = target else {
                    let names = self
                        .defs
                        .into_iter()
                        .flat_map(|d| d.entries.iter())
                        .chain(self.theme.entries.iter())
                        .map(|e| e.key.name.as_str());
                    let near = closest(name, names);
                    return Err((
                        v.span,
                        format!(
                            "the color `{name}` is not in `defs` nor a key of `theme`.{}",
                            did_you_mean(near)
                        ),
                    ));
                };
                chain.push(name.clone());
                let r = self.color(target, mode, chain, depth + 1);
                chain.pop();
                r
            }
            Value::Int(i) if (0..=255).contains(i) => Ok(()),
            Value::Int(_) | Value::Float(_) => Err((
                v.span,
                format!("`{}` is not an ANSI color number (0 to 255)", v.span.text(self.text)),
            )),
            Value::Map(m) => match m.value(mode) {
                Some(inner) => self.color(inner, mode, chain, depth + 1),
                None => Err((
                    Span::new(v.span.start as usize, v.span.start as usize + 1),
                    format!("{MODE_MISSING}`{mode}` value, which opencode reads in {mode} mode"),
                )),
            },
            _ => Err((
                v.span,
                format!(
                    "a color is a string, a number or `{{\"dark\": ..., \"light\": ...}}`, not {}",
                    v.type_name()
                ),
            )),
        }
    }
}

/// The check of a `tui.json` `theme` (its value and where it is written) against the themes
/// opencode started there has: `custom`, the custom themes visible (by file name), `broken`, a
/// theme file among them that does not parse (opencode then drops every custom theme),
/// `all_known`: the global config folder's themes were read (otherwise only a name close to a
/// known one is reported: the global folder may hold it).
pub fn check_choice(
    wanted: &str,
    span: Span,
    custom: &[&str],
    broken: Option<&str>,
    all_known: bool,
) -> Option<Diagnostic> {
    if BUILTIN.contains(&wanted) {
        return None;
    }
    if custom.contains(&wanted) {
        let broken = broken?;
        return Some(
            Diagnostic::new(
                Code::InvalidValue,
                span,
                format!(
                    "`{wanted}` is a custom theme, but `{broken}` does not parse: opencode drops every custom theme and uses its default one"
                ),
            )
            .with_effect(Effect::ValueIgnored),
        );
    }
    let names = BUILTIN.iter().copied().chain(custom.iter().copied());
    let near = closest(wanted, names);
    if !all_known && near.is_none() {
        return None;
    }
    let mut d = Diagnostic::new(
        Code::InvalidValue,
        span,
        format!(
            "no theme is named `{wanted}`{}: opencode uses its default theme instead, without a word.{}",
            if all_known {
                ""
            } else {
                " here (the global config folder was not read)"
            },
            did_you_mean(near)
        ),
    )
    .with_severity(Severity::Warning)
    .with_effect(Effect::ValueIgnored);
    if let Some(n) = near {
        d = d.with_suggestion(span, n);
    }
    Some(d)
}

/// Completion in a theme: its keys, the color keys of `theme` not written yet, and the names a
/// color may refer to (the `defs` entries, the theme's keys); the caller writes the edits.
pub fn complete(ctx: &Context, text: &str) -> Vec<Item> {
    let parsed = jsonc::parse(text);
    let root = parsed.root.as_ref().and_then(Node::as_map);
    match (ctx.path.first().map(String::as_str), ctx.path.len(), &ctx.value_of) {
        (None, 0, None) => ROOT_KEYS
            .iter()
            .filter(|k| !ctx.present.iter().any(|p| p == *k))
            .map(|k| item(k, ItemKind::Key, "theme file", None, 0))
            .collect(),
        (Some("theme"), 1, None) => KEYS
            .iter()
            .filter(|k| !ctx.present.iter().any(|p| p == *k))
            .map(|k| item(k, ItemKind::Key, "theme color", None, 0))
            .collect(),
        (Some("theme" | "defs"), _, Some(_)) => {
            let mut names: Vec<&str> = Vec::new();
            for section in ["defs", "theme"] {
                for e in root
                    .and_then(|m| m.value(section))
                    .and_then(Node::as_map)
                    .iter()
                    .flat_map(|m| m.entries.iter())
                {
                    if !names.contains(&e.key.name.as_str()) {
                        names.push(&e.key.name);
                    }
                }
            }
            names.extend(["transparent", "none"]);
            names
                .into_iter()
                .map(|n| item(n, ItemKind::Value, "color", None, 0))
                .collect()
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests;

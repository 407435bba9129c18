//! `agent-lsp.toml` (or `.agent-lsp.toml`): a project's own settings for agent-lsp.
//!
//! ```toml
//! [rules]
//! "unknown-key" = "error"      # error | warning | info | hint | off
//! "broad-pattern" = "off"
//! select = ["all"]             # the rules reported (default: all): codes, effects or "all"
//! ignore = ["works-but-risky"] # the rules not reported, by the same names
//!
//! [rules.per-file-ignores]     # globs, relative to this file's directory
//! "examples/**" = ["unknown-key"]
//!
//! [files]
//! exclude = ["vendor/**", "**/fixtures/**"]   # globs, relative to this file's directory
//! dialects = ["opencode", "claude"]           # the dialects to report on (default: all)
//! ```
//!
//! The file applies to the files under its directory; the nearest one wins (the workspace
//! decides which, see `Workspace::policy`). Reading it is pure: text in, settings and
//! diagnostics (on the exact key or value) out. A mistake in it is reported like any other, and
//! what can be read of it still applies.

use globset::{Glob, GlobSet, GlobSetBuilder};
use toml_edit::{Item, Key, TableLike, Value};

use super::diagnostic::{Diagnostic, Effect, Severity};
use super::dialect::Dialect;
use super::policy::spec::{Policy, Vocabulary};
use super::rules::{Code, Level};
use super::suggest::{closest, did_you_mean};
use super::text::Span;

/// The names the file may have, in precedence order when both are in one directory.
pub const NAMES: [&str; 2] = ["agent-lsp.toml", ".agent-lsp.toml"];

/// What a `select`, `ignore` or `per-file-ignores` entry names: every finding, the findings of
/// one rule, or the findings of one effect (`works-but-risky`: what works but is risky or
/// deprecated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selector {
    All,
    Effect(Effect),
    Code(Code),
}

impl Selector {
    pub fn parse(s: &str) -> Option<Selector> {
        if s == "all" {
            return Some(Selector::All);
        }
        Code::from_name(s)
            .map(Selector::Code)
            .or_else(|| Effect::parse(s).map(Selector::Effect))
    }

    /// How specific it is, as in ruff: a rule before an effect before `all`. Between a
    /// `select` and an `ignore` that both name a finding, the more specific one decides, and
    /// `ignore` when they are as specific.
    fn rank(self) -> u8 {
        match self {
            Selector::All => 0,
            Selector::Effect(_) => 1,
            Selector::Code(_) => 2,
        }
    }

    fn matches(self, d: &Diagnostic) -> bool {
        match self {
            Selector::All => true,
            Selector::Effect(e) => d.effect == e,
            Selector::Code(c) => d.code == c,
        }
    }
}

/// The most specific of `selectors` that names `d`.
fn best(selectors: &[Selector], d: &Diagnostic) -> Option<u8> {
    selectors.iter().filter(|s| s.matches(d)).map(|s| s.rank()).max()
}

/// A `[rules.per-file-ignores]` entry: what is not reported on the files a glob matches.
#[derive(Clone, Debug)]
pub struct PerFile {
    /// The glob as written (relative to the project file's directory).
    pub pattern: String,
    glob: globset::GlobMatcher,
    pub ignore: Vec<Selector>,
}

/// What a project file sets.
#[derive(Clone, Debug, Default)]
pub struct ProjectFile {
    /// Per-code levels, in file order (a later entry for the same code wins).
    pub rules: Vec<(Code, Level)>,
    /// `[rules] select`: the findings reported; `None`: all.
    pub select: Option<Vec<Selector>>,
    /// `[rules] ignore`: the findings not reported.
    pub ignore: Vec<Selector>,
    /// `[rules.per-file-ignores]`, in file order.
    pub per_file: Vec<PerFile>,
    /// Globs of paths (relative to the file's directory) not to report on.
    pub exclude: Vec<String>,
    exclude_set: Option<GlobSet>,
    /// The dialects to report on; `None`: all.
    pub dialects: Option<Vec<Dialect>>,
    /// The team policies (`[[policy]]`), in file order; those missing a required key left out.
    pub policies: Vec<Policy>,
}

impl ProjectFile {
    /// The level set for `code`, if any.
    pub fn level(&self, code: Code) -> Option<Level> {
        self.rules.iter().rev().find(|(c, _)| *c == code).map(|(_, l)| *l)
    }

    /// Whether it changes what is reported beyond exclusions: levels, a selection, ignores.
    pub fn has_rules(&self) -> bool {
        !self.rules.is_empty() || self.select.is_some() || !self.ignore.is_empty() || !self.per_file.is_empty()
    }

    /// The level of finding `d` on the file at `relative` (relative to this file's directory,
    /// `/`-separated; `None` for a file outside it): `None` leaves it as it is. A per-file
    /// ignore that matches turns it off; else the level set for its code; else it is off when
    /// `select` does not name it or an `ignore` names it at least as specifically.
    pub fn level_of(&self, d: &Diagnostic, relative: Option<&str>) -> Option<Level> {
        if let Some(relative) = relative
            && self
                .per_file
                .iter()
                .any(|p| p.glob.is_match(relative) && best(&p.ignore, d).is_some())
        {
            return Some(Level::Off);
        }
        if let Some(level) = self.level(d.code) {
            return Some(level);
        }
        let selected = match &self.select {
            None => Some(Selector::All.rank()),
            Some(select) => best(select, d),
        };
        let on = match (selected, best(&self.ignore, d)) {
            (None, _) => false,
            (Some(s), Some(i)) => s > i,
            (Some(_), None) => true,
        };
        (!on).then_some(Level::Off)
    }

    /// Whether `relative` (a path relative to the file's directory, `/`-separated) is excluded.
    pub fn excludes(&self, relative: &str) -> bool {
        self.exclude_set.as_ref().is_some_and(|s| s.is_match(relative))
    }

    /// Whether files of `dialect` are reported on.
    pub fn reports(&self, dialect: Dialect) -> bool {
        self.dialects.as_ref().is_none_or(|d| d.contains(&dialect))
    }
}

const TABLES: [&str; 3] = ["rules", "files", "policy"];
/// The keys of `[rules]` that are not rule codes, with what each sets.
const RULE_KEYS: [(&str, &str); 3] = [
    (
        "select",
        "the findings reported (default: all): rule codes, effects or \"all\"",
    ),
    ("ignore", "the findings not reported: rule codes, effects or \"all\""),
    (
        "per-file-ignores",
        "globs of paths (relative to this file) and the findings not reported on them",
    ),
];
const FILE_KEYS: [&str; 2] = ["exclude", "dialects"];
const LEVELS: [&str; 5] = ["error", "warning", "info", "hint", "off"];

fn span_of(range: Option<std::ops::Range<usize>>) -> Span {
    range.map_or(Span::empty(0), |r| Span::new(r.start, r.end))
}

fn key_span(key: Option<&Key>) -> Span {
    span_of(key.and_then(Key::span))
}

fn unknown(span: Span, what: &str, known: &[&str], message: String) -> Diagnostic {
    let near = closest(what, known.iter().copied());
    let mut d = Diagnostic::new(Code::UnknownKey, span, format!("{message}.{}", did_you_mean(near)))
        .with_severity(Severity::Warning);
    if let Some(n) = near {
        d = d.with_suggestion(span, n);
    }
    d
}

/// A string value that is not one of `known` (`message` says what it should be): an error with
/// the nearest one as a "did you mean" and a quick fix that writes it quoted.
fn not_one_of(span: Span, value: &str, known: &[&str], message: String) -> Diagnostic {
    let near = closest(value, known.iter().copied());
    let mut d = Diagnostic::new(Code::InvalidValue, span, format!("{message}{}", did_you_mean(near)));
    if let Some(n) = near {
        d = d.with_suggestion(span, format!("\"{n}\""));
    }
    d
}

fn type_name(item: &Item) -> &'static str {
    match item {
        Item::None => "nothing",
        Item::Table(_) => "a table",
        Item::ArrayOfTables(_) => "an array of tables",
        Item::Value(v) => match v {
            Value::String(_) => "a string",
            Value::Integer(_) => "an integer",
            Value::Float(_) => "a float",
            Value::Boolean(_) => "a boolean",
            Value::Datetime(_) => "a date",
            Value::Array(_) => "an array",
            Value::InlineTable(_) => "an inline table",
        },
    }
}

/// Read a project file; `vocab` holds the permission and tool names of the runtimes, for the
/// policies.
pub fn parse(text: &str, vocab: &Vocabulary) -> (ProjectFile, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut file = ProjectFile::default();
    let doc = match toml_edit::Document::parse(text) {
        Ok(doc) => doc,
        Err(e) => {
            let span = e
                .span()
                .map_or(Span::empty(0), |r| Span::new(r.start, r.end.max(r.start)));
            let message = e.message().trim().to_string();
            out.push(
                Diagnostic::new(
                    Code::SyntaxError,
                    span,
                    format!("{message}; agent-lsp ignores this file until it parses"),
                )
                .with_effect(Effect::NotApplied),
            );
            return (file, out);
        }
    };
    let Some(root) = doc.as_item().as_table_like() else {
        return (file, out);
    };
    for (name, item) in root.iter() {
        let key = root.get_key_value(name).map(|(k, _)| k);
        match name {
            "rules" => read_rules(item, &mut file, &mut out),
            "files" => read_files(item, &mut file, &mut out),
            "policy" => file.policies = super::policy::spec::read(item, key_span(key), text, vocab, &mut out),
            _ => out.push(unknown(
                key_span(key),
                name,
                &TABLES,
                format!("`{name}` is not an agent-lsp.toml setting (the tables are `[rules]`, `[files]` and `[[policy]]`); agent-lsp ignores it"),
            )),
        }
    }
    out.sort_by_key(|d| (d.span.start, d.span.end));
    // No runtime reads this file: a mistake in it only means agent-lsp does not apply the
    // setting (whatever the rule's default effect says about a runtime's file).
    for d in &mut out {
        d.effect = Effect::NotApplied;
    }
    (file, out)
}

fn table_of<'a>(name: &str, item: &'a Item, out: &mut Vec<Diagnostic>) -> Option<&'a dyn TableLike> {
    match item.as_table_like() {
        Some(t) => Some(t),
        None => {
            out.push(Diagnostic::new(
                Code::InvalidType,
                span_of(item.span()),
                format!(
                    "`{name}` must be a table, got {}; agent-lsp ignores it",
                    type_name(item)
                ),
            ));
            None
        }
    }
}

fn read_rules(item: &Item, file: &mut ProjectFile, out: &mut Vec<Diagnostic>) {
    let Some(table) = table_of("rules", item, out) else {
        return;
    };
    let mut codes: Vec<&str> = super::rules::RULES.iter().map(|r| r.name).collect();
    codes.extend(RULE_KEYS.iter().map(|(k, _)| *k));
    for (name, value) in table.iter() {
        let key = table.get_key_value(name).map(|(k, _)| k);
        match name {
            "select" => {
                file.select = Some(selectors(name, value, out));
                continue;
            }
            "ignore" => {
                file.ignore = selectors(name, value, out);
                continue;
            }
            "per-file-ignores" => {
                read_per_file(value, file, out);
                continue;
            }
            _ => {}
        }
        let Some(code) = Code::from_name(name) else {
            out.push(unknown(
                key_span(key),
                name,
                &codes,
                format!(
                    "`{name}` is not a rule code (`agent-lsp rules` lists them) nor `select`, `ignore` or `per-file-ignores`; this line has no effect"
                ),
            ));
            continue;
        };
        let span = span_of(value.span());
        let Some(level) = value.as_str() else {
            out.push(Diagnostic::new(
                Code::InvalidType,
                span,
                format!(
                    "the level of `{name}` must be a string (error, warning, info, hint or off), got {}",
                    type_name(value)
                ),
            ));
            continue;
        };
        let parsed = match level {
            "off" => Some(Level::Off),
            _ => Severity::parse(level).map(Level::On),
        };
        match parsed {
            Some(l) => file.rules.push((code, l)),
            None => out.push(not_one_of(
                span,
                level,
                &LEVELS,
                format!(
                    "`{level}` is not a level; use error, warning, info, hint or off. `{name}` keeps its default level."
                ),
            )),
        }
    }
}

/// The names `select`, `ignore` and `per-file-ignores` take: `all`, the effects, the codes.
fn selector_names() -> Vec<&'static str> {
    let mut names = vec!["all"];
    names.extend(Effect::ALL.iter().map(|e| e.as_str()));
    names.extend(super::rules::RULES.iter().map(|r| r.name));
    names
}

/// The selectors of an array of names, reporting what is not one.
fn selectors(name: &str, item: &Item, out: &mut Vec<Diagnostic>) -> Vec<Selector> {
    let mut found = Vec::new();
    for (s, span) in strings(name, item, out) {
        match Selector::parse(s) {
            Some(sel) => found.push(sel),
            None => out.push(not_one_of(
                span,
                s,
                &selector_names(),
                format!(
                    "`{s}` names no finding: use a rule code (`agent-lsp rules` lists them), an effect (such as `works-but-risky`) or `all`; this entry is ignored."
                ),
            )),
        }
    }
    found
}

fn read_per_file(item: &Item, file: &mut ProjectFile, out: &mut Vec<Diagnostic>) {
    let Some(table) = table_of("per-file-ignores", item, out) else {
        return;
    };
    for (pattern, value) in table.iter() {
        let key = table.get_key_value(pattern).map(|(k, _)| k);
        let ignore = selectors(pattern, value, out);
        if let Some(g) = glob(pattern, key_span(key), "it matches no file", out) {
            file.per_file.push(PerFile {
                pattern: pattern.to_string(),
                glob: g.compile_matcher(),
                ignore,
            });
        }
    }
}

/// A glob relative to the project file's directory (a leading `./` meaning that directory);
/// one that is not valid is reported on `span`, with what that means (`then`).
fn glob(pattern: &str, span: Span, then: &str, out: &mut Vec<Diagnostic>) -> Option<Glob> {
    Glob::new(pattern.trim_start_matches("./"))
        .map_err(|e| {
            out.push(Diagnostic::new(
                Code::InvalidValue,
                span,
                format!("`{pattern}` is not a valid glob ({}); {then}", e.kind()),
            ))
        })
        .ok()
}

/// The strings of an array value, reporting anything else.
fn strings<'a>(name: &str, item: &'a Item, out: &mut Vec<Diagnostic>) -> Vec<(&'a str, Span)> {
    let Some(array) = item.as_array() else {
        out.push(Diagnostic::new(
            Code::InvalidType,
            span_of(item.span()),
            format!(
                "`{name}` must be an array of strings, got {}; agent-lsp ignores it",
                type_name(item)
            ),
        ));
        return Vec::new();
    };
    let mut found = Vec::new();
    for v in array.iter() {
        let span = span_of(v.span());
        match v.as_str() {
            Some(s) => found.push((s, span)),
            None => out.push(Diagnostic::new(
                Code::InvalidType,
                span,
                format!("each entry of `{name}` must be a string; this one is ignored"),
            )),
        }
    }
    found
}

fn read_files(item: &Item, file: &mut ProjectFile, out: &mut Vec<Diagnostic>) {
    let Some(table) = table_of("files", item, out) else {
        return;
    };
    for (name, value) in table.iter() {
        let key = table.get_key_value(name).map(|(k, _)| k);
        match name {
            "exclude" => {
                let mut set = GlobSetBuilder::new();
                for (pattern, span) in strings(name, value, out) {
                    if let Some(g) = glob(pattern, span, "it excludes nothing", out) {
                        set.add(g);
                        file.exclude.push(pattern.to_string());
                    }
                }
                file.exclude_set = set.build().ok();
            }
            "dialects" => {
                let names: Vec<&str> = Dialect::ALL.iter().map(|d| d.as_str()).collect();
                let mut dialects = Vec::new();
                for (s, span) in strings(name, value, out) {
                    match Dialect::ALL.iter().find(|d| d.as_str() == s) {
                        Some(d) => dialects.push(*d),
                        None => out.push(not_one_of(
                            span,
                            s,
                            &names,
                            format!(
                                "`{s}` is not a dialect; use {}.",
                                Dialect::phrase(names.iter().copied(), "or")
                            ),
                        )),
                    }
                }
                file.dialects = Some(dialects);
            }
            _ => out.push(unknown(
                key_span(key),
                name,
                &FILE_KEYS,
                format!(
                    "`{name}` is not a `[files]` setting (they are `exclude` and `dialects`); agent-lsp ignores it"
                ),
            )),
        }
    }
}

/// Completion at byte `offset`: the table names at a `[`, the keys of the table the cursor is
/// in (rule codes in `[rules]`, with their summaries), the levels after `=` in `[rules]`, the
/// dialects inside `dialects = [...]`.
pub fn complete(text: &str, offset: usize, vocab: &Vocabulary) -> Vec<super::complete::Item> {
    use super::complete::{Item, ItemKind};
    let offset = offset.min(text.len());
    let Some(line_start) = text.get(..offset).map(|t| t.rfind('\n').map_or(0, |i| i + 1)) else {
        return Vec::new();
    };
    let line = &text[line_start..offset];
    // The table the cursor is in: the last header above it.
    let table = text[..line_start]
        .lines()
        .filter_map(|l| {
            l.trim()
                .trim_start_matches('[')
                .split(']')
                .next()
                .filter(|_| l.trim().starts_with('['))
        })
        .next_back()
        .map(|t| t.trim().to_string());
    // The word being typed (bare or in quotes), replaced as a whole.
    let word_start = line
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .map_or(0, |i| i + 1);
    let replace = Span::new(line_start + word_start, offset);
    let item = |label: &str, kind: ItemKind, detail: &str, rank: u8| Item {
        label: label.to_string(),
        kind,
        detail: detail.to_string(),
        documentation: None,
        insert: label.to_string(),
        replace,
        rank,
    };
    let trimmed = line.trim_start();
    if trimmed.starts_with('[') && !trimmed.contains(']') {
        return TABLES
            .iter()
            .chain(&["rules.per-file-ignores"])
            .map(|t| item(t, ItemKind::Key, "table", 0))
            .collect();
    }
    if table.as_deref() == Some("policy") {
        use super::policy::spec::{KEYS, LIMITS, MODES};
        return match line.split_once('=') {
            None => KEYS.iter().map(|(k, d)| item(k, ItemKind::Key, d, 0)).collect(),
            Some((key, _)) => match key.trim() {
                "permission" => vocab
                    .names
                    .iter()
                    .map(|(n, d)| item(n, ItemKind::Value, d, 0))
                    .collect(),
                "at-most" => LIMITS
                    .iter()
                    .map(|l| item(l, ItemKind::Value, "the strongest decision allowed", 0))
                    .collect(),
                "dialects" => vocab
                    .dialects
                    .iter()
                    .map(|d| item(d, ItemKind::Value, "dialect", 0))
                    .collect(),
                "modes" => MODES
                    .iter()
                    .map(|m| item(m, ItemKind::Value, "agent mode", 0))
                    .collect(),
                _ => Vec::new(),
            },
        };
    }
    match (table.as_deref(), line.split_once('=')) {
        (Some("rules"), None) => RULE_KEYS
            .iter()
            .map(|(k, d)| item(k, ItemKind::Key, d, 0))
            .chain(
                super::rules::RULES
                    .iter()
                    .map(|r| item(r.name, ItemKind::Key, r.summary, 1)),
            )
            .collect(),
        (Some("rules"), Some((key, _))) if matches!(key.trim(), "select" | "ignore") => selector_items(&item),
        (Some("rules.per-file-ignores"), Some(_)) => selector_items(&item),
        (Some("rules"), Some(_)) => LEVELS.iter().map(|l| item(l, ItemKind::Value, "level", 0)).collect(),
        (Some("files"), None) => [
            ("exclude", "globs of paths not to report on, relative to this file"),
            (
                "dialects",
                "the dialects to report on, by their `--dialect` names (default: all)",
            ),
        ]
        .iter()
        .map(|(k, d)| item(k, ItemKind::Key, d, 0))
        .collect(),
        (Some("files"), Some((key, _))) if key.trim() == "dialects" => Dialect::ALL
            .iter()
            .map(|d| item(d.as_str(), ItemKind::Value, d.product(), 0))
            .collect(),
        _ => Vec::new(),
    }
}

/// The names a selection takes, for completion: `all`, the effects, then the rule codes.
fn selector_items(
    item: &dyn Fn(&str, super::complete::ItemKind, &str, u8) -> super::complete::Item,
) -> Vec<super::complete::Item> {
    use super::complete::ItemKind;
    let mut items = vec![item("all", ItemKind::Value, "every finding", 0)];
    items.extend(
        Effect::ALL
            .iter()
            .map(|e| item(e.as_str(), ItemKind::Value, e.describe(), 0)),
    );
    items.extend(
        super::rules::RULES
            .iter()
            .map(|r| item(r.name, ItemKind::Value, r.summary, 1)),
    );
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (ProjectFile, Vec<Diagnostic>) {
        super::parse(text, &Vocabulary::default())
    }

    fn codes(d: &[Diagnostic]) -> Vec<&'static str> {
        d.iter().map(|d| d.code.as_str()).collect()
    }

    /// A dialect name it does not know: the message lists every registered dialect.
    #[test]
    fn an_unknown_dialect_names_every_dialect() {
        let (f, d) = parse("[files]\ndialects = [\"claude\", \"codx\"]\n");
        assert_eq!(f.dialects, Some(vec![Dialect::Claude]));
        let listed = Dialect::phrase(Dialect::ALL.iter().map(|d| d.as_str()), "or");
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(
            d[0].message
                .starts_with(&format!("`codx` is not a dialect; use {listed}.")),
            "{}",
            d[0].message
        );
        assert!(listed.ends_with("codex or gemini"), "{listed}");
    }

    #[test]
    fn a_valid_file() {
        let text = "[rules]\n\"unknown-key\" = \"error\"\nbroad-pattern = \"off\"\n\n[files]\nexclude = [\"vendor/**\", \"**/fixtures/**\"]\ndialects = [\"opencode\", \"claude\"]\n";
        let (f, d) = parse(text);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(f.level(Code::UnknownKey), Some(Level::On(Severity::Error)));
        assert_eq!(f.level(Code::BroadPattern), Some(Level::Off));
        assert_eq!(f.level(Code::InvalidValue), None);
        assert!(f.excludes("vendor/a/.opencode/agents/x.md"));
        assert!(f.excludes("pkg/fixtures/opencode.json"));
        assert!(!f.excludes(".opencode/agents/x.md"));
        assert!(f.reports(Dialect::Claude) && !f.reports(Dialect::Zuno));
        // Inline tables and dotted keys read the same.
        let (f, d) = parse("rules = { unknown-key = \"hint\" }\nfiles.exclude = [\"a/**\"]\n");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(f.level(Code::UnknownKey), Some(Level::On(Severity::Hint)));
        assert!(f.excludes("a/b.md") && f.reports(Dialect::Zuno));
    }

    #[test]
    fn mistakes_are_reported_on_the_exact_key_or_value() {
        let text = "[rulez]\n[rules]\nunknwn-key = \"error\"\nbroad-pattern = \"of\"\nshadowed-rule = 3\n[files]\nexclude = [\"a/[b\", 4]\ndialect = []\ndialects = [\"claud\"]\n";
        let (f, d) = parse(text);
        assert_eq!(
            codes(&d),
            [
                "unknown-key",
                "unknown-key",
                "invalid-value",
                "invalid-type",
                "invalid-value",
                "invalid-type",
                "unknown-key",
                "invalid-value"
            ]
        );
        let at = |i: usize| d[i].span.text(text);
        assert_eq!(at(0), "rulez");
        assert!(d[0].message.contains("Did you mean `rules`?"), "{}", d[0].message);
        assert_eq!(at(1), "unknwn-key");
        assert!(d[1].message.contains("`unknown-key`"), "{}", d[1].message);
        assert_eq!(at(2), "\"of\"");
        assert_eq!(d[2].fix.as_ref().unwrap().edits[0].text, "\"off\"");
        assert_eq!(at(3), "3");
        assert_eq!(at(4), "\"a/[b\"");
        assert_eq!(at(5), "4");
        assert_eq!(at(6), "dialect");
        assert_eq!(at(7), "\"claud\"");
        assert!(d[7].message.contains("`claude`"));
        // What could be read still applies.
        assert!(f.rules.is_empty() && f.exclude.is_empty());
        assert_eq!(f.dialects, Some(vec![]));
    }

    fn finding(code: Code, effect: Effect) -> Diagnostic {
        Diagnostic::new(code, Span::empty(0), String::new()).with_effect(effect)
    }

    #[test]
    fn select_ignore_and_per_file_ignores_choose_what_is_reported() {
        let text = "[rules]\nselect = [\"works-but-risky\", \"unknown-key\"]\nignore = [\"broad-pattern\"]\n\"shadowed-rule\" = \"error\"\n\n[rules.per-file-ignores]\n\"examples/**\" = [\"unknown-key\"]\n\"./legacy/*.md\" = [\"all\"]\n";
        let (f, d) = parse(text);
        assert!(d.is_empty(), "{d:?}");
        let off = Some(Level::Off);
        let unknown = finding(Code::UnknownKey, Effect::ValueIgnored);
        let risky = finding(Code::BroadPattern, Effect::Works);
        let other_risky = finding(Code::DeprecatedField, Effect::Works);
        let refused = finding(Code::InvalidType, Effect::FileIgnored);
        let shadowed = finding(Code::ShadowedRule, Effect::RuleNeverApplies);
        // Selected by code, by effect; not selected; a code ignored though its effect is
        // selected (the code is more specific); a level set for a code beats the selection.
        assert_eq!(f.level_of(&unknown, Some("a/opencode.json")), None);
        assert_eq!(f.level_of(&other_risky, Some("a/opencode.json")), None);
        assert_eq!(f.level_of(&refused, Some("a/opencode.json")), off);
        assert_eq!(f.level_of(&risky, Some("a/opencode.json")), off);
        assert_eq!(
            f.level_of(&shadowed, Some("a/opencode.json")),
            Some(Level::On(Severity::Error))
        );
        // Per file: only what its entry names, only where its glob matches (`./` read as the
        // file's own directory), and before any level.
        assert_eq!(f.level_of(&unknown, Some("examples/x/opencode.json")), off);
        assert_eq!(f.level_of(&other_risky, Some("examples/x/opencode.json")), None);
        assert_eq!(f.level_of(&shadowed, Some("legacy/a.md")), off);
        assert_eq!(f.level_of(&unknown, None), None);
        assert_eq!(f.per_file[1].pattern, "./legacy/*.md");
        // As specific both: `ignore` wins; a code selected beats `all` ignored.
        let (f, _) = parse("[rules]\nselect = [\"unknown-key\"]\nignore = [\"unknown-key\"]\n");
        assert_eq!(f.level_of(&unknown, None), off);
        let (f, _) = parse("[rules]\nselect = [\"unknown-key\"]\nignore = [\"all\"]\n");
        assert_eq!(f.level_of(&unknown, None), None);
        assert_eq!(f.level_of(&refused, None), off);
        // An effect ignored, a code of it selected back.
        let (f, _) = parse("[rules]\nignore = [\"works-but-risky\"]\nselect = [\"all\", \"broad-pattern\"]\n");
        assert_eq!(f.level_of(&risky, None), None);
        assert_eq!(f.level_of(&other_risky, None), off);
        assert_eq!(f.level_of(&refused, None), None);
        // Nothing set: nothing changes.
        let (f, _) = parse("[files]\nexclude = []\n");
        assert!(!f.has_rules());
        assert_eq!(f.level_of(&refused, Some("x")), None);
        for text in [
            "[rules]\nselect = []\n",
            "[rules]\nignore = [\"all\"]\n",
            "[rules.per-file-ignores]\n\"a\" = []\n",
            "[rules]\nx = \"off\"\n",
        ] {
            assert_eq!(parse(text).0.has_rules(), !text.contains("x ="), "{text}");
        }
        // An empty selection reports nothing.
        assert_eq!(parse("[rules]\nselect = []\n").0.level_of(&unknown, None), off);
    }

    #[test]
    fn selection_mistakes_are_reported_on_the_exact_value() {
        let text = "[rules]\nselect = [\"unknwn-key\", \"works-but-risky\"]\nignore = \"all\"\nselct = []\n[rules.per-file-ignores]\n\"a/[b\" = [\"all\"]\n\"c/**\" = [\"al\", 3]\n";
        let (f, d) = parse(text);
        let at: Vec<(&str, &str)> = d.iter().map(|d| (d.code.as_str(), d.span.text(text))).collect();
        assert_eq!(
            at,
            [
                ("invalid-value", "\"unknwn-key\""),
                ("invalid-type", "\"all\""),
                ("unknown-key", "selct"),
                ("invalid-value", "\"a/[b\""),
                ("invalid-value", "\"al\""),
                ("invalid-type", "3"),
            ]
        );
        assert_eq!(d[0].fix.as_ref().unwrap().edits[0].text, "\"unknown-key\"");
        assert!(d[2].message.contains("Did you mean `select`?"), "{}", d[2].message);
        assert_eq!(d[4].fix.as_ref().unwrap().edits[0].text, "\"all\"");
        // What could be read applies.
        assert_eq!(f.select, Some(vec![Selector::Effect(Effect::Works)]));
        assert_eq!(f.per_file.len(), 1);
        assert!(f.per_file[0].ignore.is_empty());
        let (_, d) = parse("[rules]\nper-file-ignores = 3\n");
        assert_eq!(codes(&d), ["invalid-type"]);
    }

    /// No runtime reads agent-lsp.toml: a mistake in it never refuses to start or ignores a
    /// runtime's value; agent-lsp does not apply the setting (a policy goes unchecked).
    #[test]
    fn every_mistake_has_the_effect_not_applied() {
        let text = "[rulez]\n[rules]\nbroad-pattern = \"of\"\nshadowed-rule = 3\n[files]\nexclude = [\"a/[b\"]\n[[policy]]\nid = \"x\"\npermision = \"bash\"\n";
        let (_, d) = parse(text);
        assert!(d.len() >= 6, "{d:?}");
        for d in &d {
            assert_eq!(d.effect, Effect::NotApplied, "{d:?}");
        }
        let (_, d) = parse("[rules]\nunknown-key = \"error\n");
        assert_eq!(d[0].effect, Effect::NotApplied);
    }

    #[test]
    fn completion_by_table_and_position() {
        let labels = |text: &str| -> Vec<String> {
            let at = text.find('|').unwrap();
            let text = text.replace('|', "");
            complete(&text, at, crate::analysis::policy_vocabulary())
                .into_iter()
                .map(|i| i.label)
                .collect()
        };
        let rules = labels("[rules]\nunkn|");
        assert!(rules.contains(&"unknown-key".to_string()) && rules.len() == super::super::rules::RULES.len() + 3);
        assert_eq!(rules[..3], ["select", "ignore", "per-file-ignores"]);
        // What `select`, `ignore` and a per-file ignore take: `all`, the effects, the codes.
        for text in [
            "[rules]\nselect = [\"|",
            "[rules]\nignore = [\"a\", \"|",
            "[rules.per-file-ignores]\n\"x/**\" = [\"|",
        ] {
            let names = labels(text);
            assert_eq!(names[..3], ["all", "refuses-to-start", "file-ignored"], "{text}");
            assert_eq!(
                names.len(),
                1 + Effect::ALL.len() + super::super::rules::RULES.len(),
                "{text}"
            );
        }
        let item = &complete("[rules]\nunkn", 12, &Vocabulary::default())[0];
        assert_eq!(item.replace, Span::new(8, 12));
        assert_eq!(labels("[rules]\nunknown-key = \"|"), LEVELS);
        assert_eq!(labels("[files]\n|"), ["exclude", "dialects"]);
        assert_eq!(
            labels("[files]\ndialects = [\"|"),
            ["opencode", "claude", "zuno", "copilot", "codex", "gemini"]
        );
        assert_eq!(labels("[|"), ["rules", "files", "policy", "rules.per-file-ignores"]);
        // Inside a `[[policy]]`: its keys, then each key's values.
        let keys = labels("[[policy]]\nid = \"x\"\n|");
        assert_eq!(keys[..5], ["id", "message", "permission", "inputs", "at-most"]);
        assert_eq!(labels("[[policy]]\nat-most = \"|"), ["deny", "ask", "allow"]);
        assert_eq!(labels("[[policy]]\nmodes = [\"|"), ["primary", "subagent", "all"]);
        let perms = labels("[[policy]]\npermission = \"ba|");
        assert!(
            perms.contains(&"bash".to_string())
                && perms.contains(&"Bash".to_string())
                && perms.contains(&"shell".to_string())
        );
        assert_eq!(
            labels("[[policy]]\ndialects = [\"|"),
            ["opencode", "claude", "zuno", "copilot", "codex", "gemini"]
        );
        assert!(labels("|").is_empty());
    }

    #[test]
    fn a_syntax_error_is_placed_and_the_file_ignored() {
        let text = "[rules]\nunknown-key = \"error\n";
        let (f, d) = parse(text);
        assert_eq!(codes(&d), ["syntax-error"]);
        assert!(d[0].span.start >= 22, "{:?}", d[0].span);
        assert!(f.rules.is_empty());
        // Wrong shapes of the tables.
        let (_, d) = parse("rules = 1\nfiles = \"x\"\n");
        assert_eq!(codes(&d), ["invalid-type", "invalid-type"]);
    }
}

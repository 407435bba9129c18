//! What a team policy says: one `[[policy]]` table of `agent-lsp.toml`, read with the exact span
//! of every key and value so that each mistake is reported where it is written.
//!
//! ```toml
//! [[policy]]
//! id = "no-unattended-push"            # required; in messages, suppressions, SARIF
//! message = "Pushing needs a human"    # optional; shown with each violation
//! permission = "bash"                  # required: a permission key or a Claude Code tool
//! inputs = ["git push*"]               # required: the runtime's wildcard syntax
//! at-most = "ask"                      # required: deny, ask or allow
//! agents = ["*"]                       # optional name globs (default: every agent)
//! dialects = ["opencode", "claude"]    # optional (default: all)
//! modes = ["subagent"]                 # optional: primary, subagent, all
//! ```
//!
//! Reading is pure and knows no dialect: the names a runtime knows come in as [`Vocabulary`].

use toml_edit::{ArrayOfTables, Item, Table};

use super::solve::Action;
use crate::analysis::diagnostic::{Diagnostic, Severity};
use crate::analysis::rules::Code;
use crate::analysis::suggest::{closest, did_you_mean};
use crate::analysis::text::Span;

/// The keys of a `[[policy]]` table, with what each takes (for messages and completion).
pub const KEYS: &[(&str, &str)] = &[
    (
        "id",
        "required: the policy's name, used in messages, suppressions and SARIF",
    ),
    ("message", "optional: why the policy exists, shown with each violation"),
    (
        "permission",
        "required: a permission key (bash, edit, read, webfetch, task, external_directory, ...) or a Claude Code tool (Bash, mcp__server__tool)",
    ),
    (
        "inputs",
        "required: the inputs it governs, in the runtime's wildcard syntax (`git push*`)",
    ),
    (
        "at-most",
        "required: the strongest decision any of those inputs may get: deny, ask or allow",
    ),
    ("agents", "optional: agent name globs (default: every agent)"),
    (
        "dialects",
        "optional: the dialects, by their `--dialect` names (default: all)",
    ),
    ("modes", "optional: primary, subagent, all (default: every mode)"),
];

pub const LIMITS: [&str; 3] = ["deny", "ask", "allow"];
pub const MODES: [&str; 3] = ["primary", "subagent", "all"];

/// The names the runtimes know, for checking `permission` and completing it.
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    /// Permission keys (opencode, Zuno) and tool names (Claude Code), with a short description.
    pub names: Vec<(&'static str, &'static str)>,
    /// The dialect names (`opencode`, `claude`, `zuno`).
    pub dialects: Vec<&'static str>,
}

/// Which agents a policy is about, by their mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Agents that can be the main agent: `primary` and `all`.
    Primary,
    /// Agents that can be started as subagents: `subagent` and `all`.
    Subagent,
    /// Agents of mode `all` only.
    All,
}

impl Mode {
    /// Whether an agent of `mode` (as its runtime reads it: `primary`, `subagent` or `all`) is
    /// one this policy mode selects.
    pub fn selects(self, mode: &str) -> bool {
        match self {
            Mode::Primary => matches!(mode, "primary" | "all"),
            Mode::Subagent => matches!(mode, "subagent" | "all"),
            Mode::All => mode == "all",
        }
    }
}

/// One policy as written.
#[derive(Clone, Debug, PartialEq, Hash)]
pub struct Policy {
    pub id: String,
    pub id_span: Span,
    /// The whole table: from its `[[policy]]` header to the next table (for hover).
    pub range: Span,
    /// The `[[policy]]` header.
    pub header: Span,
    pub message: Option<String>,
    pub permission: String,
    pub permission_span: Span,
    /// The patterns, each with its span (inside the quotes).
    pub inputs: Vec<(String, Span)>,
    pub at_most: Action,
    pub at_most_span: Span,
    /// Agent name globs; empty means every agent.
    pub agents: Vec<String>,
    /// Dialect names; `None`: every dialect.
    pub dialects: Option<Vec<String>>,
    /// `None`: every mode.
    pub modes: Option<Vec<Mode>>,
}

impl Policy {
    /// Whether the policy is about agent `name` of `dialect` with `mode` (`None`: a runtime
    /// without modes, such as Claude Code, where `modes` does not narrow).
    pub fn selects(&self, name: &str, dialect: &str, mode: Option<&str>) -> bool {
        let named = self.agents.is_empty()
            || self
                .agents
                .iter()
                .any(|g| crate::analysis::permission::wildcard_match(name, g));
        let dialect_ok = self.dialects.as_ref().is_none_or(|d| d.iter().any(|x| x == dialect));
        let mode_ok = match (mode, &self.modes) {
            (_, None) | (None, _) => true,
            (Some(m), Some(modes)) => modes.iter().any(|p| p.selects(m)),
        };
        named && dialect_ok && mode_ok
    }

    /// The patterns alone.
    pub fn patterns(&self) -> Vec<&str> {
        self.inputs.iter().map(|(p, _)| p.as_str()).collect()
    }
}

fn span_of(range: Option<std::ops::Range<usize>>) -> Span {
    range.map_or(Span::empty(0), |r| Span::new(r.start, r.end))
}

/// The span of a string value without its quotes (a basic or literal string on one line).
fn inner(span: Span, text: &str) -> Span {
    let written = span.text(text);
    let q = if written.starts_with("\"\"\"") || written.starts_with("'''") {
        3
    } else if written.starts_with(['"', '\'']) {
        1
    } else {
        0
    };
    if written.len() >= 2 * q {
        Span::new(span.start as usize + q, span.end as usize - q)
    } else {
        span
    }
}

/// Read the `policy` item of a project file: an array of tables (`[[policy]]`), or an inline
/// array of inline tables. Every mistake is a diagnostic on its key or value; a policy missing a
/// required key is left out, the others still apply.
pub fn read(item: &Item, key_span: Span, text: &str, vocab: &Vocabulary, out: &mut Vec<Diagnostic>) -> Vec<Policy> {
    let tables: Vec<(Table, Span)> = match item {
        Item::ArrayOfTables(a) => tables_of(a),
        Item::Value(toml_edit::Value::Array(a)) => a
            .iter()
            .filter_map(|v| match v {
                toml_edit::Value::InlineTable(t) => Some((t.clone().into_table(), span_of(v.span()))),
                other => {
                    out.push(Diagnostic::new(
                        Code::InvalidType,
                        span_of(other.span()),
                        "each policy must be a table (`[[policy]]`); this one is ignored",
                    ));
                    None
                }
            })
            .collect(),
        _ => {
            out.push(Diagnostic::new(
                Code::InvalidType,
                span_of(item.span()).max_or(key_span),
                "`policy` must be written as `[[policy]]` tables (one per policy); agent-lsp ignores it",
            ));
            return Vec::new();
        }
    };
    let mut policies: Vec<Policy> = Vec::new();
    let mut ids: Vec<(String, Span)> = Vec::new();
    let headers: Vec<Span> = tables.iter().map(|(_, s)| *s).collect();
    for (i, (table, header)) in tables.iter().enumerate() {
        let end = headers
            .get(i + 1)
            .map_or(next_table_after(text, *header), |s| s.start as usize);
        let range = Span::new(header.start as usize, end.max(header.end as usize));
        let (id, policy) = read_one(table, *header, range, text, vocab, out);
        if let Some((id, span)) = id {
            if let Some((_, first)) = ids.iter().find(|(i, _)| *i == id) {
                out.push(
                    Diagnostic::new(
                        Code::DuplicateKey,
                        span,
                        format!(
                            "two policies are called `{id}`: an id names one policy (in messages, suppressions and SARIF); rename one"
                        ),
                    )
                    .with_related(crate::analysis::diagnostic::Location::Here(*first), "the first policy of that id"),
                );
            }
            ids.push((id, span));
        }
        policies.extend(policy);
    }
    policies
}

fn tables_of(a: &ArrayOfTables) -> Vec<(Table, Span)> {
    a.iter().map(|t| (t.clone(), span_of(t.span()))).collect()
}

/// The start of the next table header after `header` (or the end of the text).
fn next_table_after(text: &str, header: Span) -> usize {
    let from = (header.end as usize).min(text.len());
    let mut pos = from;
    for line in text[from..].split_inclusive('\n') {
        if pos > from && line.trim_start().starts_with('[') {
            return pos;
        }
        pos += line.len();
    }
    text.len()
}

trait MaxOr {
    fn max_or(self, other: Span) -> Span;
}

impl MaxOr for Span {
    /// `self`, unless it is the empty span at 0 that a missing location gives.
    fn max_or(self, other: Span) -> Span {
        if self == Span::empty(0) { other } else { self }
    }
}

struct Reader<'a> {
    table: &'a Table,
    text: &'a str,
    out: &'a mut Vec<Diagnostic>,
    /// Where a missing key is reported: the header.
    header: Span,
}

impl Reader<'_> {
    fn key_span(&self, key: &str) -> Span {
        self.table
            .key(key)
            .and_then(|k| k.span())
            .map_or(self.header, |r| Span::new(r.start, r.end))
    }

    fn value_span(&self, key: &str) -> Span {
        span_of(self.table.get(key).and_then(Item::span)).max_or(self.key_span(key))
    }

    /// A required or optional string; `what` describes it for a type error.
    fn string(&mut self, key: &str, required: bool) -> Option<(String, Span)> {
        let Some(item) = self.table.get(key) else {
            if required {
                self.out.push(Diagnostic::new(
                    Code::MissingField,
                    self.header,
                    format!("this policy has no `{key}`; it is not checked until it has one"),
                ));
            }
            return None;
        };
        let span = self.value_span(key);
        match item.as_str() {
            Some(s) => Some((s.to_string(), inner(span, self.text))),
            None => {
                self.out.push(Diagnostic::new(
                    Code::InvalidType,
                    span,
                    format!("`{key}` must be a string, got {}", describe(item)),
                ));
                None
            }
        }
    }

    /// An optional array of strings, each with its span inside the quotes.
    fn strings(&mut self, key: &str) -> Option<Vec<(String, Span)>> {
        let item = self.table.get(key)?;
        let span = self.value_span(key);
        let Some(array) = item.as_array() else {
            let mut d = Diagnostic::new(
                Code::InvalidType,
                span,
                format!("`{key}` must be an array of strings, got {}", describe(item)),
            );
            if item.as_str().is_some() {
                d = d.with_fix(
                    "Write it as a one-item array",
                    vec![
                        crate::analysis::diagnostic::Edit::new(Span::empty(span.start as usize), "["),
                        crate::analysis::diagnostic::Edit::new(Span::empty(span.end as usize), "]"),
                    ],
                    true,
                );
            }
            self.out.push(d);
            return None;
        };
        let mut found = Vec::new();
        for v in array.iter() {
            let vspan = span_of(v.span()).max_or(span);
            match v.as_str() {
                Some(s) => found.push((s.to_string(), inner(vspan, self.text))),
                None => self.out.push(Diagnostic::new(
                    Code::InvalidType,
                    vspan,
                    format!("each entry of `{key}` must be a string; this one is ignored"),
                )),
            }
        }
        Some(found)
    }
}

fn describe(item: &Item) -> &'static str {
    match item {
        Item::None => "nothing",
        Item::Table(_) => "a table",
        Item::ArrayOfTables(_) => "an array of tables",
        Item::Value(v) => match v {
            toml_edit::Value::String(_) => "a string",
            toml_edit::Value::Integer(_) => "an integer",
            toml_edit::Value::Float(_) => "a float",
            toml_edit::Value::Boolean(_) => "a boolean",
            toml_edit::Value::Datetime(_) => "a date",
            toml_edit::Value::Array(_) => "an array",
            toml_edit::Value::InlineTable(_) => "an inline table",
        },
    }
}

/// A value that is not one of `known`: an error with the nearest as a did-you-mean and fix.
fn not_one_of(span: Span, value: &str, known: &[&str], message: String) -> Diagnostic {
    let near = closest(value, known.iter().copied());
    let mut d = Diagnostic::new(Code::InvalidValue, span, format!("{message}{}", did_you_mean(near)));
    if let Some(n) = near {
        d = d.with_suggestion(span, n);
    }
    d
}

/// Whether `name` is a permission or tool some runtime may consult: a known one, an MCP tool
/// (`mcp__server__tool` for Claude Code, `server_tool` for opencode), or a custom tool whose
/// name has an underscore.
pub fn plausible_permission(name: &str, vocab: &Vocabulary) -> bool {
    vocab.knows(name) || name.starts_with("mcp__") || name.contains('_')
}

impl Vocabulary {
    /// Whether a runtime names a permission or tool so.
    pub fn knows(&self, name: &str) -> bool {
        self.names.iter().any(|(n, _)| *n == name)
    }

    /// The known name `name` is nearest to, if any.
    pub fn closest(&self, name: &str) -> Option<&'static str> {
        closest(name, self.names.iter().map(|(n, _)| *n))
    }
}

fn read_one(
    table: &Table,
    header: Span,
    range: Span,
    text: &str,
    vocab: &Vocabulary,
    out: &mut Vec<Diagnostic>,
) -> (Option<(String, Span)>, Option<Policy>) {
    let mut r = Reader {
        table,
        text,
        out,
        header,
    };
    // Unknown keys first, so that `at_most` is reported as the misspelling it is.
    for (name, _) in table.iter() {
        if KEYS.iter().any(|(k, _)| *k == name) {
            continue;
        }
        let span = r.key_span(name);
        let names: Vec<&str> = KEYS.iter().map(|(k, _)| *k).collect();
        let near = closest(name, names.iter().copied()).or_else(|| {
            names
                .iter()
                .copied()
                .find(|k| k.replace('-', "_") == name.replace('-', "_"))
        });
        let mut d = Diagnostic::new(
            Code::UnknownKey,
            span,
            format!(
                "`{name}` is not a policy key (they are {}); agent-lsp ignores it.{}",
                names.join(", "),
                did_you_mean(near)
            ),
        )
        .with_severity(Severity::Warning);
        if let Some(n) = near {
            d = d.with_suggestion(span, n);
        }
        r.out.push(d);
    }
    let id = r.string("id", true);
    if let Some((id, span)) = &id
        && id.trim().is_empty()
    {
        r.out.push(Diagnostic::new(
            Code::InvalidValue,
            *span,
            "a policy's `id` must not be empty",
        ));
    }
    let message = r.string("message", false).map(|(m, _)| m);
    let permission = r.string("permission", true);
    let mut permission_ok = permission.is_some();
    if let Some((p, span)) = &permission {
        if p.is_empty() || p.contains(['*', '?']) || p.chars().any(char::is_whitespace) {
            r.out.push(Diagnostic::new(
                Code::InvalidValue,
                *span,
                format!(
                    "`permission` names one permission or tool (`bash`, `edit`, `Bash`, `mcp__server__tool`), not {}; this policy is not checked",
                    if p.is_empty() { "an empty string".to_string() } else { format!("the pattern \"{p}\"") }
                ),
            ));
            permission_ok = false;
        } else if !plausible_permission(p, vocab) {
            let names: Vec<&str> = vocab.names.iter().map(|(n, _)| *n).collect();
            r.out.push(not_one_of(
                *span,
                p,
                &names,
                format!(
                    "no runtime consults a permission or tool called `{p}` (opencode and Zuno permission keys, Claude Code tools, GitHub Copilot tool sets, or an MCP tool's name); this policy is not checked."
                ),
            ));
            permission_ok = false;
        } else if !vocab.knows(p)
            && let Some(near) = vocab.closest(p)
        {
            // An underscore makes it a possible MCP or custom tool, but one this close to a
            // known name is most likely a typo: the policy would govern nothing.
            r.out.push(
                Diagnostic::new(
                    Code::InvalidValue,
                    *span,
                    format!(
                        "`{p}` is no permission or tool a runtime has; unless an MCP or custom tool has exactly this name, this policy governs nothing. Did you mean `{near}`?"
                    ),
                )
                .with_severity(Severity::Warning)
                .with_suggestion(*span, near),
            );
        }
    }
    let has_inputs = table.contains_key("inputs");
    let inputs = match table.get("inputs") {
        None => {
            r.out.push(Diagnostic::new(
                Code::MissingField,
                header,
                "this policy has no `inputs` (the patterns it governs, such as `[\"git push*\"]`); it is not checked until it has some",
            ));
            None
        }
        Some(_) => r.strings("inputs"),
    };
    let mut patterns = Vec::new();
    if let Some(inputs) = inputs {
        if inputs.is_empty() {
            r.out.push(
                Diagnostic::new(
                    Code::InvalidValue,
                    r.value_span("inputs"),
                    "`inputs` is empty, so this policy matches no input and can never fail; give the patterns it governs, such as `[\"git push*\"]`",
                )
                .with_severity(Severity::Warning),
            );
        }
        for (p, span) in inputs {
            if p.trim().is_empty() {
                r.out.push(Diagnostic::new(
                    Code::InvalidValue,
                    span.max_or(header),
                    "an empty pattern matches only an empty input; write the inputs to govern (`git push*`), or `*` for every input",
                ));
                continue;
            }
            if p != p.trim() {
                r.out.push(
                    Diagnostic::new(
                        Code::InvalidValue,
                        span,
                        format!(
                            "\"{p}\" has spaces at its ends, which the runtime matches literally, so inputs without them are not governed"
                        ),
                    )
                    .with_severity(Severity::Warning)
                    .with_suggestion(span, p.trim().to_string()),
                );
            }
            patterns.push((p, span));
        }
    }
    let limit = r.string("at-most", true);
    let at_most = limit.as_ref().and_then(|(l, span)| match Action::parse(l) {
        Some(a) => Some((a, *span)),
        None => {
            let near = closest(l, LIMITS.iter().copied()).or(match l.to_ascii_lowercase().as_str() {
                "never" | "no" | "none" | "block" | "denied" => Some("deny"),
                "prompt" | "confirm" => Some("ask"),
                "yes" | "always" | "allowed" => Some("allow"),
                _ => None,
            });
            let mut d = Diagnostic::new(
                Code::InvalidValue,
                *span,
                format!(
                    "`at-most` must be \"deny\", \"ask\" or \"allow\" (the strongest decision allowed, in that order), got \"{l}\"; this policy is not checked.{}",
                    did_you_mean(near)
                ),
            );
            if let Some(n) = near {
                d = d.with_suggestion(*span, n);
            }
            r.out.push(d);
            None
        }
    });
    let agents: Vec<String> = r
        .strings("agents")
        .unwrap_or_default()
        .into_iter()
        .map(|(a, _)| a)
        .collect();
    let dialects = r.strings("dialects").map(|list| {
        let mut keep = Vec::new();
        for (d, span) in list {
            if vocab.dialects.contains(&d.as_str()) {
                keep.push(d);
            } else {
                let message = format!("`{d}` is not a dialect; use {}.", vocab.dialects.join(", "));
                r.out.push(not_one_of(span, &d, &vocab.dialects, message));
            }
        }
        keep
    });
    let modes = r.strings("modes").map(|list| {
        let mut keep = Vec::new();
        for (m, span) in list {
            match m.as_str() {
                "primary" => keep.push(Mode::Primary),
                "subagent" => keep.push(Mode::Subagent),
                "all" => keep.push(Mode::All),
                _ => r.out.push(not_one_of(
                    span,
                    &m,
                    &MODES,
                    format!("`{m}` is not a mode; use primary, subagent or all."),
                )),
            }
        }
        keep
    });
    let id = id.filter(|(i, _)| !i.trim().is_empty());
    let (Some((id_text, id_span)), Some((permission, permission_span)), Some((at_most, at_most_span)), true) =
        (id.clone(), permission.filter(|_| permission_ok), at_most, has_inputs)
    else {
        return (id, None);
    };
    let policy = Policy {
        id: id_text,
        id_span,
        range,
        header,
        message,
        permission,
        permission_span,
        inputs: patterns,
        at_most,
        at_most_span,
        agents,
        dialects,
        modes,
    };
    (id, Some(policy))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::project_file::parse;

    const VALID: &str = r#"[rules]
broad-pattern = "off"

[[policy]]
id = "no-unattended-push"
message = "Pushing needs a human"
permission = "bash"
inputs = ["git push*", "~/bin/deploy *"]
at-most = "ask"
agents = ["*"]
dialects = ["opencode", "claude"]
modes = ["subagent"]

[[policy]]
id = "reviewers-read-only"
permission = "edit"
inputs = ["*"]
at-most = "deny"
agents = ["review*"]
"#;

    fn read(text: &str) -> (Vec<Policy>, Vec<Diagnostic>) {
        let (f, d) = parse(text, crate::analysis::policy_vocabulary());
        (f.policies, d)
    }

    #[test]
    fn every_runtimes_names_are_known_copilots_tool_sets_too() {
        let v = crate::analysis::policy_vocabulary();
        for name in ["bash", "Bash", "execute", "web", "search", "todo", "edit"] {
            assert!(v.knows(name), "{name}");
        }
        assert!(!v.knows("executor"));
        assert_eq!(v.closest("executr"), Some("execute"));
        // A Copilot tool set that answers no permission question is not a name here.
        assert!(!v.knows("vscode"));
    }

    #[test]
    fn a_valid_file_gives_its_policies_with_spans() {
        let (p, d) = read(VALID);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(p.len(), 2);
        let push = &p[0];
        assert_eq!(push.id, "no-unattended-push");
        assert_eq!(push.id_span.text(VALID), "no-unattended-push");
        assert_eq!(push.header.text(VALID), "[[policy]]");
        assert!(
            push.range
                .text(VALID)
                .starts_with("[[policy]]\nid = \"no-unattended-push\"")
        );
        assert!(
            push.range.text(VALID).ends_with("modes = [\"subagent\"]\n\n"),
            "{:?}",
            push.range.text(VALID)
        );
        assert_eq!(push.permission_span.text(VALID), "bash");
        assert_eq!(push.at_most, Action::Ask);
        assert_eq!(push.at_most_span.text(VALID), "ask");
        let spans: Vec<&str> = push.inputs.iter().map(|(_, s)| s.text(VALID)).collect();
        assert_eq!(spans, ["git push*", "~/bin/deploy *"]);
        assert_eq!(push.message.as_deref(), Some("Pushing needs a human"));
        assert!(push.selects("review", "opencode", Some("all")));
        assert!(!push.selects("review", "opencode", Some("primary")));
        assert!(!push.selects("review", "zuno", Some("subagent")));
        // No mode (Claude Code) is not narrowed by `modes`.
        assert!(push.selects("x", "claude", None));
        let ro = &p[1];
        assert_eq!(ro.at_most, Action::Deny);
        assert!(ro.selects("reviewer", "zuno", Some("primary")) && !ro.selects("build", "zuno", Some("primary")));
        assert!(ro.range.text(VALID).ends_with("agents = [\"review*\"]\n"));
    }

    #[test]
    fn mistakes_sit_on_their_key_or_value_and_the_other_policies_still_run() {
        let text = r#"[[policy]]
id = "a"
permission = "bsh"
inputs = ["git push*"]
at-most = "never"

[[policy]]
id = "b"
permision = "bash"
inputs = "git push*"
at_most = "ask"

[[policy]]
id = "c"
permission = "Bash"
inputs = ["", " rm *", 3]
at-most = "Ask"
dialects = ["claud"]
modes = ["sub"]

[[policy]]
id = "c"
permission = "git push"
inputs = []
at-most = "deny"

[[policy]]
id = "ok"
permission = "mcp__github__push"
inputs = ["*"]
at-most = "deny"
"#;
        let (p, d) = read(text);
        let got: Vec<(&str, &str, Severity)> = d
            .iter()
            .map(|d| (d.code.as_str(), d.span.text(text), d.severity))
            .collect();
        use Severity::*;
        assert_eq!(
            got,
            [
                ("invalid-value", "bsh", Error),
                ("invalid-value", "never", Error),
                ("missing-field", "[[policy]]", Error),
                ("missing-field", "[[policy]]", Error),
                ("unknown-key", "permision", Warning),
                ("invalid-type", "\"git push*\"", Error),
                ("unknown-key", "at_most", Warning),
                ("invalid-value", "", Error),
                ("invalid-value", " rm *", Warning),
                ("invalid-type", "3", Error),
                ("invalid-value", "Ask", Error),
                ("invalid-value", "claud", Error),
                ("invalid-value", "sub", Error),
                ("duplicate-key", "c", Error),
                ("invalid-value", "git push", Error),
                ("invalid-value", "[]", Warning),
            ]
        );
        let msg = |i: usize| d[i].message.as_str();
        assert!(msg(0).contains("Did you mean `bash`?"), "{}", msg(0));
        assert!(msg(1).contains("Did you mean `deny`?"), "{}", msg(1));
        assert!(msg(4).contains("Did you mean `permission`?"), "{}", msg(4));
        assert!(msg(6).contains("Did you mean `at-most`?"), "{}", msg(6));
        assert_eq!(
            d[5].fix.as_ref().map(|f| f.title.as_str()),
            Some("Write it as a one-item array")
        );
        assert!(msg(10).contains("Did you mean `ask`?"), "{}", msg(10));
        assert!(msg(14).contains("not the pattern \"git push\""), "{}", msg(14));
        // Only the complete policy runs; the others wait for their fix.
        let ids: Vec<&str> = p.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["ok"]);
        // A name with an underscore may be an MCP tool, but one this close to a known key is a
        // typo: a warning with the fix, and the policy still runs.
        let text = "[[policy]]\nid = \"w\"\npermission = \"web_fetch\"\ninputs = [\"*\"]\nat-most = \"deny\"\n";
        let (typo, found) = read(text);
        assert_eq!(found.len(), 1, "{found:?}");
        let w = &found[0];
        assert_eq!(
            (w.code.as_str(), w.span.text(text), w.severity),
            ("invalid-value", "web_fetch", Severity::Warning)
        );
        assert!(w.message.contains("Did you mean `webfetch`?"), "{}", w.message);
        assert_eq!(typo.len(), 1);
        let (_, found) = read(&text.replace("web_fetch", "github_create_issue"));
        assert!(found.is_empty(), "{found:?}");
        assert!(d[13].related[0].message.contains("first policy"));
    }
}

//! The full documentation of one rule, as `agent-lsp rules CODE` prints it (and the MCP `rules`
//! tool returns it).

use crate::analysis::{Code, Severity};

/// The full documentation of one rule, as `agent-lsp rules CODE` prints it.
pub fn rule_doc(code: Code) -> String {
    let r = code.rule();
    let indent = |s: &str| s.lines().map(|l| format!("    {l}\n")).collect::<String>();
    let tags = if r.tags.is_empty() {
        String::new()
    } else {
        format!(
            ", tagged {}",
            r.tags
                .iter()
                .map(|t| format!("{t:?}").to_lowercase())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let dialects: Vec<&str> = code.dialects().iter().map(|d| d.product()).collect();
    let severities = match others(code).as_slice() {
        [] => String::new(),
        others => format!(
            "Severity: {} by default; {}\n",
            r.severity.as_str(),
            others
                .iter()
                .map(|(s, when)| format!("{}: {when}", s.as_str()))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    };
    format!(
        "{} ({}{tags}; effect: {}, {})\nDialects: {}\n{severities}\n{}\n\n{}\n\nBad:\n{}\nGood:\n{}",
        r.name,
        match r.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        },
        r.effect.as_str(),
        r.effect.describe(),
        dialects.join(", "),
        r.summary,
        r.explanation,
        indent(r.bad),
        indent(r.good)
    )
}

/// The severities a rule can have besides its default, each with when.
fn others(code: Code) -> Vec<(Severity, &'static str)> {
    code.rule()
        .severities()
        .into_iter()
        .filter_map(|(s, when)| Some((s, when?)))
        .collect()
}

/// The severities a rule can have, its default first: `error/warning`.
pub fn severity_list(code: Code) -> String {
    code.rule()
        .severities()
        .iter()
        .map(|(s, _)| s.as_str())
        .collect::<Vec<_>>()
        .join("/")
}

/// A rule's page of the book, `book/src/rules/CODE.md`, as `agent-lsp rules CODE --format
/// markdown` prints it: what the rule reports, what the runtime does, an example that triggers
/// it and the fix. Generated from the catalog; `tests/book.rs` holds the pages to it
/// (`UPDATE_BOOK=1 cargo test --test book` rewrites them).
pub fn rule_page(code: Code) -> String {
    let r = code.rule();
    let dialects: Vec<&str> = code.dialects().iter().map(|d| d.product()).collect();
    let tags = r
        .tags
        .iter()
        .map(|t| match t {
            crate::analysis::Tag::Deprecated => "| editors show it | struck through (deprecated) |\n",
            crate::analysis::Tag::Unnecessary => "| editors show it | faded (unnecessary) |\n",
        })
        .collect::<String>();
    let block = |s: &str| {
        let lang = if s.trim_start().starts_with('{') {
            "jsonc"
        } else {
            "yaml"
        };
        format!("```{lang}\n{}\n```", s.trim_end())
    };
    let silence = if code == Code::UnusedSuppression {
        "It cannot be suppressed itself. Turn it off for a project with `\"unused-suppression\" = \"off\"` \
under `[rules]` in [`agent-lsp.toml`](../project-file.md), or in the editor's `agentLsp.severity` \
setting."
            .to_string()
    } else {
        format!(
            "To keep one finding, write `agent-lsp: ignore[{name}]` in a comment on its line (see \
[Suppressions](../suppressions.md)). To change the rule's level for a project, set \
`\"{name}\" = \"off\"` (or `error`, `warning`, `info`, `hint`) under `[rules]` in \
[`agent-lsp.toml`](../project-file.md); in an editor, the `agentLsp.severity` setting does the \
same.",
            name = r.name
        )
    };
    format!(
        "<!-- Generated from the rule catalog (src/analysis/rules.rs) by `agent-lsp rules {name} --format markdown`; \
UPDATE_BOOK=1 cargo test --test book rewrites it. -->\n\n\
# `{name}`\n\n\
{summary}\n\n\
| | |\n|---|---|\n\
| default severity | {severity} |\n\
{other_severities}\
| effect | [`{effect}`](index.md#effects): {describe} |\n\
| dialects | {dialects} |\n\
{tags}\n\
## What the runtime does\n\n\
{explanation}\n\n\
## An example that triggers it\n\n\
{bad}\n\n\
## The fix\n\n\
{good}\n\n\
## Keeping a finding, or turning the rule off\n\n\
{silence}\n",
        name = r.name,
        summary = escape(r.summary),
        severity = r.severity.as_str(),
        other_severities = others(code)
            .iter()
            .map(|(s, when)| format!("| {} | {} |\n", s.as_str(), escape(when)))
            .collect::<String>(),
        effect = r.effect.as_str(),
        describe = r.effect.describe(),
        dialects = dialects.join(", "),
        explanation = escape(r.explanation),
        bad = block(r.bad),
        good = block(r.good),
    )
}

/// The rules' index page of the book, `book/src/rules/index.md`, as `agent-lsp rules --format
/// markdown` prints it: the effects, then one row per rule linking to its page.
pub fn rules_index() -> String {
    let mut out = String::from(
        "<!-- Generated from the rule catalog (src/analysis/rules.rs) by `agent-lsp rules --format markdown`; \
UPDATE_BOOK=1 cargo test --test book rewrites it. -->\n\n\
# Rules\n\n\
Every finding has a rule code, a severity and an effect. The effect below is each rule's \
usual one; the severity is its default, then the others it can have (`error/warning`), as \
what the runtime does differs: an error where the runtime refuses the configuration or skips \
the file, a warning where it drops or changes a value, info for a file it reads as something \
else. Each rule's page says when each severity applies. `agent-lsp rules` lists the rules in a \
terminal, `agent-lsp rules CODE` prints one in full and `agent-lsp rules --format json` prints \
the catalog for tools.\n\n\
## Effects\n\n\
Every diagnostic says what the runtime does about it, its effect (in `check`'s report, in \
`--format json`, in the language server's `Diagnostic.data` and in SARIF's `properties`). \
`agent-lsp check --effect EFFECT` reports only those, and `--fail-on effect` fails on every \
effect but `works-but-risky`.\n\n\
| effect | what the runtime does |\n|---|---|\n",
    );
    for e in crate::analysis::Effect::ALL {
        out.push_str(&format!("| `{}` | {} |\n", e.as_str(), e.describe()));
    }
    out.push_str(
        "\n## Every rule\n\n\
| code | dialects | severity | effect | what it reports |\n|---|---|---|---|---|\n",
    );
    for r in crate::analysis::RULES {
        let dialects: Vec<&str> = r.code.dialects().iter().map(|d| d.as_str()).collect();
        out.push_str(&format!(
            "| [`{name}`]({name}.md) | {} | {} | `{}` | {} |\n",
            dialects.join(", "),
            severity_list(r.code),
            r.effect.as_str(),
            escape(r.summary),
            name = r.name,
        ));
    }
    out
}

/// Catalog prose as Markdown: outside code spans, `<` would open an HTML tag and `*` emphasis.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    for c in text.chars() {
        match c {
            '`' => {
                in_code = !in_code;
                out.push(c);
            }
            '<' if !in_code => out.push_str("&lt;"),
            '*' if !in_code => out.push_str("\\*"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_is_escaped_outside_code_spans_only() {
        assert_eq!(
            escape("a \"*\": ask and `\"*\": ask` and <path> and `<path>`"),
            "a \"\\*\": ask and `\"*\": ask` and &lt;path> and `<path>`"
        );
    }

    #[test]
    fn a_rule_page_has_its_sections() {
        let page = rule_page(Code::UnknownKey);
        assert!(
            page.contains("\n# `unknown-key`\n\nA key the runtime does not know"),
            "{page}"
        );
        for section in [
            "## What the runtime does",
            "## An example that triggers it",
            "## The fix",
        ] {
            assert!(page.contains(section), "{section}");
        }
        assert!(page.contains("```yaml\ntemprature: 0.2\ntopP: 0.9\n```"), "{page}");
    }
}

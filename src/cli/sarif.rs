//! `agent-lsp check --format sarif`: a SARIF 2.1.0 log (one run), for GitHub code scanning and
//! other SARIF consumers.
//!
//! Locations are relative to the checked root (`uriBaseId` `%SRCROOT%`, which
//! `originalUriBaseIds` maps to the root's `file:` URI); a file outside the root (a parent's
//! `opencode.json` read for context) gets an absolute `file:` URI. Lines and columns are 1-based,
//! columns in UTF-16 code units (`columnKind: utf16CodeUnits`), the end column exclusive.

use std::path::Path;

use serde_json::{Value, json};

use crate::analysis::{Diagnostic, Encoding, LineCol, Location, RULES, Rule, Severity, Span};
use crate::workspace::{File, Workspace};

const SCHEMA: &str = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
const SRCROOT: &str = "%SRCROOT%";

/// SARIF `level` of a severity: `error`, `warning`, or `note` for info and hint.
pub fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info | Severity::Hint => "note",
    }
}

/// Percent-encode a path for a URI: unreserved characters, sub-delimiters, `@` and `/` stay;
/// `:` stays only when `colon` (a relative reference whose first segment holds a `:` would read
/// as a scheme).
fn encode_path(path: &str, colon: bool) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        let keep = b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=@/".contains(&b) || (colon && b == b':');
        if keep {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A `file:` URI for an absolute path (`/` separated; a Windows drive gets a leading `/`).
fn file_uri(path: &Path, dir: bool) -> String {
    let mut s = path.to_string_lossy().replace('\\', "/");
    if !s.starts_with('/') {
        s.insert(0, '/');
    }
    if dir && !s.ends_with('/') {
        s.push('/');
    }
    format!("file://{}", encode_path(&s, true))
}

/// An `artifactLocation`: relative to the root when the file is under it, else absolute.
fn artifact(path: &Path, root: &Path) -> Value {
    match path.strip_prefix(root) {
        Ok(rel) if !rel.as_os_str().is_empty() => {
            let rel = rel.to_string_lossy().replace('\\', "/");
            json!({"uri": encode_path(&rel, false), "uriBaseId": SRCROOT})
        }
        _ => json!({"uri": file_uri(path, false)}),
    }
}

/// A `region` of a span: 1-based lines and UTF-16 columns, the end column exclusive.
fn region(file: &File, span: Span) -> Value {
    let at = |offset: u32| {
        let LineCol { line, col } = file.index.line_col(&file.text, offset as usize, Encoding::Utf16);
        (line + 1, col + 1)
    };
    let (l1, c1) = at(span.start);
    let (l2, c2) = at(span.end);
    json!({"startLine": l1, "startColumn": c1, "endLine": l2, "endColumn": c2})
}

fn physical(file: &File, span: Span, root: &Path) -> Value {
    json!({"artifactLocation": artifact(&file.path, root), "region": region(file, span)})
}

/// The help text of a rule: why it matters, then a bad and a good example.
fn help(r: &Rule) -> Value {
    let indent = |s: &str| s.lines().map(|l| format!("    {l}\n")).collect::<String>();
    json!({
        "text": format!("{}\n\nBad:\n{}\nGood:\n{}", r.explanation, indent(r.bad), indent(r.good)),
        "markdown": format!("{}\n\nBad:\n\n```\n{}\n```\n\nGood:\n\n```\n{}\n```", r.explanation, r.bad.trim_end(), r.good.trim_end()),
    })
}

fn rule_descriptor(r: &Rule) -> Value {
    let dialects: Vec<&str> = r.code.dialects().iter().map(|d| d.as_str()).collect();
    json!({
        "id": r.name,
        "shortDescription": {"text": r.summary},
        "fullDescription": {"text": r.explanation},
        "help": help(r),
        "helpUri": r.code.doc_url(),
        "defaultConfiguration": {"level": level(r.severity)},
        "properties": {"effect": r.effect.as_str(), "dialects": dialects},
    })
}

fn result(ws: &Workspace, id: usize, d: &Diagnostic, root: &Path) -> Value {
    let file = &ws.files[id];
    let mut result = json!({
        "ruleId": d.code.as_str(),
        "ruleIndex": d.code as usize,
        "level": level(d.severity),
        "message": {"text": d.message},
        "locations": [{"physicalLocation": physical(file, d.span, root)}],
        "properties": {"effect": d.effect.as_str()},
    });
    let related: Vec<Value> = d
        .related
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let message = json!({"text": r.message});
            match &r.location {
                Location::Here(span) => {
                    json!({"id": i, "physicalLocation": physical(file, *span, root), "message": message})
                }
                Location::File { file: other, span } => {
                    json!({"id": i, "physicalLocation": physical(&ws.files[*other], *span, root), "message": message})
                }
                Location::BuiltIn => json!({"id": i, "message": {"text": format!("{} (built-in)", r.message)}}),
            }
        })
        .collect();
    if !related.is_empty() {
        result["relatedLocations"] = Value::Array(related);
    }
    if let Some(id) = crate::workspace::policy_check::policy_id(d) {
        result["properties"]["policy"] = json!(id);
    }
    if let Some(fix) = &d.fix {
        let replacements: Vec<Value> = fix
            .edits
            .iter()
            .map(|e| json!({"deletedRegion": region(file, e.span), "insertedContent": {"text": e.text}}))
            .collect();
        result["fixes"] = json!([{
            "description": {"text": fix.title},
            "artifactChanges": [{"artifactLocation": artifact(&file.path, root), "replacements": replacements}],
        }]);
    }
    result
}

/// The SARIF log of a check; `root` is the checked root (absolute) that URIs are relative to.
pub fn sarif(ws: &Workspace, diags: &[(usize, Diagnostic)], root: &Path) -> String {
    let mut driver = json!({
        "name": "agent-lsp",
        "version": env!("CARGO_PKG_VERSION"),
        "semanticVersion": env!("CARGO_PKG_VERSION"),
        "rules": RULES.iter().map(rule_descriptor).collect::<Vec<_>>(),
    });
    // The project's page, when Cargo.toml names one.
    let uri = [env!("CARGO_PKG_HOMEPAGE"), env!("CARGO_PKG_REPOSITORY")]
        .into_iter()
        .find(|u| !u.is_empty());
    if let Some(uri) = uri {
        driver["informationUri"] = json!(uri);
    }
    let log = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "originalUriBaseIds": {SRCROOT: {"uri": file_uri(root, true)}},
            "columnKind": "utf16CodeUnits",
            "results": diags.iter().map(|(id, d)| result(ws, *id, d, root)).collect::<Vec<_>>(),
        }],
    });
    let mut s = serde_json::to_string_pretty(&log).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_percent_encoded_and_relative_to_the_root() {
        assert_eq!(encode_path("a b/ü#?%.md", false), "a%20b/%C3%BC%23%3F%25.md");
        assert_eq!(encode_path("a:b.md", false), "a%3Ab.md");
        assert_eq!(file_uri(Path::new("/r/x y"), true), "file:///r/x%20y/");
        assert_eq!(
            artifact(Path::new("/r/.opencode/agents/a b.md"), Path::new("/r")),
            json!({"uri": ".opencode/agents/a%20b.md", "uriBaseId": "%SRCROOT%"})
        );
        assert_eq!(
            artifact(Path::new("/elsewhere/opencode.json"), Path::new("/r")),
            json!({"uri": "file:///elsewhere/opencode.json"})
        );
    }
}

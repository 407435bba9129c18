//! `agent-lsp explain --matrix` (every agent against what its runtime decides for it) and
//! `--graph` (which agent may start which subagent). Each dialect gives its part (its
//! `explain.rs`, through its agents); this module only lays them out.

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::analysis::agents::{GraphEdge, GraphNode, MatrixPart, MatrixTable};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphFormat {
    Mermaid,
    Dot,
    Json,
}

/// The heading of the first column, the agents'.
const CORNER: &str = "agent";

fn width_of(s: &str) -> usize {
    s.chars().count()
}

fn pad(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(width_of(s))))
}

/// Lay the table out within `width` columns: when the whole table is wider, the columns are
/// split into several tables stacked one under the other, each repeating the first column.
/// Every cell is padded, so all lines of one table have the same width.
fn render_table(t: &MatrixTable, width: usize) -> String {
    const GAP: usize = 2;
    let first = t
        .rows
        .iter()
        .map(|(n, _)| width_of(n))
        .chain([width_of(CORNER)])
        .max()
        .unwrap_or(0);
    let col_w: Vec<usize> = (0..t.headers.len())
        .map(|i| {
            t.rows
                .iter()
                .map(|(_, cells)| width_of(&cells[i]))
                .chain([width_of(&t.headers[i])])
                .max()
                .unwrap_or(0)
        })
        .collect();
    // Greedy chunks of columns; a column too wide on its own still gets a table.
    let mut chunks: Vec<Vec<usize>> = Vec::new();
    let mut used = first;
    for (i, cw) in col_w.iter().enumerate() {
        let w = GAP + cw;
        match chunks.last_mut() {
            Some(c) if used + w <= width => c.push(i),
            _ => {
                chunks.push(vec![i]);
                used = first;
            }
        }
        used += w;
    }
    if chunks.is_empty() {
        chunks.push(Vec::new());
    }
    let mut out = String::new();
    for (n, chunk) in chunks.iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let line = |name: &str, cells: &dyn Fn(usize) -> String| {
            let mut l = pad(name, first);
            for &i in chunk {
                l.push_str(&" ".repeat(GAP));
                l.push_str(&pad(&cells(i), col_w[i]));
            }
            // No trailing spaces (a last cell narrower than its column).
            l.truncate(l.trim_end().len());
            l
        };
        let _ = writeln!(out, "{}", line(CORNER, &|i| t.headers[i].clone()));
        for (name, cells) in &t.rows {
            let _ = writeln!(out, "{}", line(name, &|i| cells[i].clone()));
        }
    }
    out
}

/// Word-wrap prose to `width` columns.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && width_of(&line) + 1 + width_of(word) > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The matrix: each dialect's agents against what it decides for them (opencode: permission
/// keys; Claude Code: tools; Copilot: tool sets), in the dialects' order. `width`: the terminal
/// width for the human form.
pub fn matrix(parts: &[MatrixPart], json: bool, width: usize) -> String {
    if json {
        // opencode's keys are always at the top level; the others' under their key.
        let mut out = json!({"agents": [], "permissions": [], "matrix": {}});
        for p in parts {
            match (p.json_key, &p.json) {
                (None, Value::Object(keys)) => {
                    for (k, v) in keys {
                        out[k] = v.clone();
                    }
                }
                (Some(key), v) => out[key] = v.clone(),
                (None, _) => {}
            }
        }
        return format!("{}\n", serde_json::to_string_pretty(&out).unwrap_or_default());
    }
    let mut out = String::new();
    for t in parts.iter().filter_map(|p| p.table.as_ref()) {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(t.title);
        out.push_str("\n\n");
        out.push_str(&render_table(t, width));
        out.push('\n');
        out.push_str(&wrap(t.note, width));
    }
    out
}

/// The agent graph of every dialect's nodes and edges (see each dialect's `explain.rs`: opencode
/// from `task` permissions, Claude Code from `Agent(...)` entries, Copilot from `agents` and
/// handoffs), as Mermaid, Graphviz or JSON.
pub fn graph(nodes: &[GraphNode], edges: &[GraphEdge], format: GraphFormat) -> String {
    let index = |dialect: &str, name: &str| {
        nodes
            .iter()
            .position(|n| n.dialect == dialect && n.name == name)
            .unwrap_or(0)
    };
    let mut out = String::new();
    match format {
        GraphFormat::Json => {
            let v = json!({
                "nodes": nodes.iter().map(|n| json!({"name": n.name, "mode": n.mode, "dialect": n.dialect, "hidden": n.hidden})).collect::<Vec<_>>(),
                "edges": edges.iter().map(|e| json!({"from": e.from, "to": e.to, "action": e.action, "dialect": e.dialect})).collect::<Vec<_>>(),
            });
            out = format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        GraphFormat::Mermaid => {
            out.push_str("flowchart LR\n");
            let both = nodes.iter().any(|n| n.dialect != nodes[0].dialect);
            for d in crate::analysis::Dialect::ALL {
                let dialect = d.as_str();
                let group: Vec<(usize, &GraphNode)> =
                    nodes.iter().enumerate().filter(|(_, n)| n.dialect == dialect).collect();
                if group.is_empty() {
                    continue;
                }
                let indent = if both { "    " } else { "  " };
                if both {
                    let _ = writeln!(out, "  subgraph {dialect}[\"{}\"]", d.product());
                }
                for (i, n) in group {
                    let label = n.label.replace('"', "#quot;");
                    let _ = writeln!(out, "{indent}n{i}[\"{label}\"]");
                }
                if both {
                    out.push_str("  end\n");
                }
            }
            for e in edges {
                let (a, b) = (index(e.dialect, &e.from), index(e.dialect, &e.to));
                if e.action == "ask" {
                    let _ = writeln!(out, "  n{a} -. ask .-> n{b}");
                } else if e.action == "handoff" {
                    let _ = writeln!(out, "  n{a} == handoff ==> n{b}");
                } else {
                    let _ = writeln!(out, "  n{a} --> n{b}");
                }
            }
        }
        GraphFormat::Dot => {
            let q = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
            let id = |dialect: &str, name: &str| q(&format!("{dialect}:{name}"));
            out.push_str("digraph agents {\n  rankdir=LR;\n");
            for n in nodes {
                let style = if n.hidden { ", style=dashed" } else { "" };
                let _ = writeln!(out, "  {} [label={}{style}];", id(n.dialect, &n.name), q(&n.label));
            }
            for e in edges {
                let attrs = match e.action.as_str() {
                    "ask" => " [label=\"ask\", style=dashed]",
                    "handoff" => " [label=\"handoff\", style=bold]",
                    _ => "",
                };
                let _ = writeln!(out, "  {} -> {}{attrs};", id(e.dialect, &e.from), id(e.dialect, &e.to));
            }
            out.push_str("}\n");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stacked_tables_fit_and_stay_aligned() {
        let t = MatrixTable {
            title: "",
            note: "",
            headers: vec!["bash".into(), "external_directory".into(), "edit".into()],
            rows: vec![
                ("build".into(), vec!["allow".into(), "ask+2".into(), "allow".into()]),
                (
                    "a-long-agent-name".into(),
                    vec!["deny".into(), "ask".into(), "deny+1".into()],
                ),
            ],
        };
        let out = render_table(&t, 45);
        let tables: Vec<&str> = out.split("\n\n").collect();
        assert_eq!(tables.len(), 2, "{out}");
        expect_test::expect![[r#"
            agent              bash   external_directory
            build              allow  ask+2
            a-long-agent-name  deny   ask

            agent              edit
            build              allow
            a-long-agent-name  deny+1
        "#]]
        .assert_eq(&out);
        for table in tables {
            assert!(table.lines().all(|l| width_of(l) <= 45 && !l.ends_with(' ')), "{table}");
        }
        assert!(render_table(&t, 200).split("\n\n").count() == 1);
    }
}

//! `agent-lsp explain --matrix` and `--graph` on small workspaces.

mod cli_support;

use std::collections::BTreeSet;
use std::path::Path;

use cli_support::{command, write};
use serde_json::{Value, json};

/// `lead` refines `bash` and starts only `helper` (asks for `auditor`); `helper` denies `edit`
/// and `task`; `auditor` is a hidden subagent with the defaults.
fn project() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        "opencode.json",
        r#"{
  "agent": {
    "lead": { "mode": "primary", "permission": { "bash": { "*": "ask", "git status": "allow", "rm *": "deny" }, "task": { "*": "deny", "helper": "allow", "auditor": "ask" } } },
    "helper": { "mode": "subagent", "permission": { "edit": "deny", "task": "deny" } },
    "auditor": { "mode": "subagent", "hidden": true }
  }
}
"#,
    );
    t
}

/// `agent-lsp explain ARGS... --no-global` in `dir` (also `HOME`), with `COLUMNS` when given.
fn explain(dir: &Path, args: &[&str], columns: Option<&str>) -> (i32, String, String) {
    let mut cmd = command(dir, &["explain"]);
    cmd.args(args)
        .arg("--no-global")
        .env("HOME", dir)
        .env("TMPDIR", "/agent-lsp-test-tmp")
        .env_remove("COLUMNS");
    if let Some(c) = columns {
        cmd.env("COLUMNS", c);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const AGENTS: [&str; 10] = [
    "build",
    "plan",
    "general",
    "explore",
    "compaction",
    "title",
    "summary",
    "lead",
    "helper",
    "auditor",
];
const PERMISSIONS: [&str; 15] = [
    "bash",
    "doom_loop",
    "edit",
    "external_directory",
    "glob",
    "grep",
    "list",
    "plan_enter",
    "plan_exit",
    "question",
    "read",
    "task",
    "todowrite",
    "webfetch",
    "websearch",
];

/// Each agent's row, one cell per permission above: `action` or `action+patterns`.
const ROWS: [(&str, &str); 10] = [
    (
        "build",
        "allow ask allow ask+3 allow allow allow allow deny allow allow+3 allow allow allow allow",
    ),
    (
        "plan",
        "allow ask deny+2 ask+4 allow allow allow deny allow allow allow+3 allow+1 allow allow allow",
    ),
    (
        "general",
        "allow ask allow ask+3 allow allow allow deny deny deny allow+3 allow deny allow allow",
    ),
    // explore denies everything, then allows a few keys: the default `.env` rules are gone.
    (
        "explore",
        "allow deny deny ask+3 allow allow allow deny deny deny allow deny deny allow allow",
    ),
    // After their `*` deny, only the final tool-output allow remains.
    (
        "compaction",
        "deny deny deny deny+1 deny deny deny deny deny deny deny deny deny deny deny",
    ),
    (
        "title",
        "deny deny deny deny+1 deny deny deny deny deny deny deny deny deny deny deny",
    ),
    (
        "summary",
        "deny deny deny deny+1 deny deny deny deny deny deny deny deny deny deny deny",
    ),
    (
        "lead",
        "ask+2 ask allow ask+3 allow allow allow deny deny deny allow+3 deny+2 allow allow allow",
    ),
    (
        "helper",
        "allow ask deny ask+3 allow allow allow deny deny deny allow+3 deny allow allow allow",
    ),
    (
        "auditor",
        "allow ask allow ask+3 allow allow allow deny deny deny allow+3 allow allow allow allow",
    ),
];

fn cell(c: &str) -> Value {
    let (action, patterns) = c.split_once('+').unwrap_or((c, "0"));
    json!({"action": action, "patterns": patterns.parse::<u64>().unwrap()})
}

#[test]
fn matrix_json_is_exact() {
    let t = project();
    let (code, out, err) = explain(t.path(), &["--matrix", "--format", "json"], None);
    assert_eq!(code, 0, "{err}");
    let mut matrix = serde_json::Map::new();
    for (agent, row) in ROWS {
        let cells: Vec<&str> = row.split(' ').collect();
        assert_eq!(cells.len(), PERMISSIONS.len());
        let row: serde_json::Map<String, Value> = PERMISSIONS
            .iter()
            .zip(cells)
            .map(|(p, c)| (p.to_string(), cell(c)))
            .collect();
        matrix.insert(agent.to_string(), Value::Object(row));
    }
    let expected = json!({"agents": AGENTS, "permissions": PERMISSIONS, "matrix": matrix});
    let got: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(got, expected);
}

#[test]
fn human_matrix_fits_a_narrow_terminal_and_stays_aligned() {
    let t = project();
    let (code, out, err) = explain(t.path(), &["--matrix"], Some("50"));
    assert_eq!(code, 0, "{err}");
    let (tables, legend) = out.split_once("\n\nallow/ask/deny").expect("a legend under the tables");
    assert!(legend.contains("ask+3") && legend.contains("pattern rules refine it"));
    let tables: Vec<&str> = tables.split("\n\n").skip(1).collect();
    assert!(tables.len() > 2, "split into stacked tables: {out}");
    let mut headers: Vec<String> = Vec::new();
    let mut cells: Vec<(String, String, String)> = Vec::new();
    for table in &tables {
        let lines: Vec<&str> = table.lines().collect();
        let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(width <= 50, "{table}");
        assert!(lines.iter().all(|l| !l.ends_with(' ')), "trailing spaces:\n{table}");
        // Aligned: every column starts where its header does.
        let starts = |l: &str| -> Vec<usize> {
            let b: Vec<char> = l.chars().collect();
            (0..b.len())
                .filter(|&i| b[i] != ' ' && (i == 0 || b[i - 1] == ' '))
                .collect()
        };
        let header = starts(lines[0]);
        assert!(lines.iter().all(|l| starts(l) == header), "misaligned:\n{table}");
        // Every agent in every table, in order.
        let names: Vec<&str> = lines[1..]
            .iter()
            .map(|l| l.split_whitespace().next().unwrap())
            .collect();
        assert_eq!(names, AGENTS);
        let head: Vec<&str> = lines[0].split_whitespace().collect();
        assert_eq!(head[0], "agent");
        // Columns start where their header starts.
        for h in &head[1..] {
            let at = lines[0].find(&format!("  {h}")).unwrap() + 2;
            for l in &lines[1..] {
                let rest = &l[at..];
                assert!(!rest.starts_with(' ') && l[..at].ends_with("  "), "{table}");
                let agent = l.split_whitespace().next().unwrap().to_string();
                cells.push((agent, h.to_string(), rest.split(' ').next().unwrap().to_string()));
            }
            headers.push(h.to_string());
        }
    }
    assert_eq!(headers, PERMISSIONS);
    for (agent, row) in ROWS {
        for (p, c) in PERMISSIONS.iter().zip(row.split(' ')) {
            assert!(
                cells.contains(&(agent.to_string(), p.to_string(), c.to_string())),
                "{agent} {p} {c}"
            );
        }
    }
    // A wide terminal: one table.
    let (_, wide, _) = explain(t.path(), &["--matrix"], Some("300"));
    assert_eq!(wide.split("\n\n").count(), 3, "{wide}");
}

fn edges_of(v: &Value) -> Vec<(String, String, String)> {
    v["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["from"].as_str().unwrap().to_string(),
                e["to"].as_str().unwrap().to_string(),
                e["action"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn e(from: &str, to: &str, action: &str) -> (String, String, String) {
    (from.into(), to.into(), action.into())
}

#[test]
fn graph_json_is_exact() {
    let t = project();
    let (code, out, err) = explain(t.path(), &["--graph", "--format", "json"], None);
    assert_eq!(code, 0, "{err}");
    let node = |name: &str, mode: &str, hidden: bool| json!({"name": name, "mode": mode, "dialect": "opencode", "hidden": hidden});
    let edge =
        |from: &str, to: &str, action: &str| json!({"from": from, "to": to, "action": action, "dialect": "opencode"});
    let mut edges = Vec::new();
    // The subagents (hidden `auditor` included), in view order.
    let subs = ["general", "explore", "helper", "auditor"];
    for to in subs {
        edges.push(edge("build", to, "allow"));
    }
    // plan denies `general`.
    for to in ["explore", "helper", "auditor"] {
        edges.push(edge("plan", to, "allow"));
    }
    for to in subs {
        edges.push(edge("general", to, "allow"));
    }
    edges.push(edge("lead", "helper", "allow"));
    edges.push(edge("lead", "auditor", "ask"));
    for to in subs {
        edges.push(edge("auditor", to, "allow"));
    }
    let expected = json!({
        "nodes": [
            node("build", "primary", false),
            node("plan", "primary", false),
            node("general", "subagent", false),
            node("explore", "subagent", false),
            node("compaction", "primary", true),
            node("title", "primary", true),
            node("summary", "primary", true),
            node("lead", "primary", false),
            node("helper", "subagent", false),
            node("auditor", "subagent", true),
        ],
        "edges": edges,
    });
    let got: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(got, expected);
}

/// The edges of the collapsed forms: an agent that may start every subagent with one action
/// has one edge to `*` (every subagent).
fn drawn_edges() -> BTreeSet<(String, String, String)> {
    let mut s = BTreeSet::new();
    for from in ["build", "general", "auditor"] {
        s.insert(e(from, "*", "allow"));
    }
    for to in ["explore", "helper", "auditor"] {
        s.insert(e("plan", to, "allow"));
    }
    s.insert(e("lead", "helper", "allow"));
    s.insert(e("lead", "auditor", "ask"));
    s
}

#[test]
fn mermaid_graph_has_safe_ids_and_every_edge() {
    let t = project();
    let (code, out, err) = explain(t.path(), &["--graph"], None);
    assert_eq!(code, 0, "{err}");
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("flowchart LR"));
    let mut label: std::collections::HashMap<String, String> = Default::default();
    let mut edges = BTreeSet::new();
    for l in lines {
        let l = l.trim();
        if let Some((id, rest)) = l.split_once("[\"") {
            assert!(
                id.starts_with('n') && id[1..].bytes().all(|b| b.is_ascii_digit()),
                "{l}"
            );
            let name = rest.strip_suffix("\"]").unwrap();
            let name = name.strip_suffix(" (hidden)").unwrap_or(name);
            let name = if name == "every subagent" { "*" } else { name };
            label.insert(id.to_string(), name.to_string());
        } else if let Some((a, b)) = l.split_once(" --> ") {
            edges.insert(e(&label[a], &label[b], "allow"));
        } else if let Some((a, b)) = l.split_once(" -. ask .-> ") {
            edges.insert(e(&label[a], &label[b], "ask"));
        } else {
            panic!("unexpected line {l:?}");
        }
    }
    assert_eq!(label.len(), 11, "every agent and `*`: {out}");
    assert!(out.contains("[\"auditor (hidden)\"]"));
    assert_eq!(edges, drawn_edges());
}

#[test]
fn dot_graph_is_a_digraph_with_every_edge() {
    let t = project();
    let (code, out, err) = explain(t.path(), &["--graph", "--format", "dot"], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("digraph agents {\n"), "{out}");
    assert!(out.ends_with("}\n"));
    let mut edges = BTreeSet::new();
    let mut nodes = 0;
    for l in out.lines().skip(1) {
        let l = l.trim();
        if l == "}" || l == "rankdir=LR;" {
            continue;
        }
        let id = |s: &str| {
            s.trim()
                .strip_prefix("\"opencode:")
                .unwrap()
                .strip_suffix('"')
                .unwrap()
                .to_string()
        };
        if let Some((a, rest)) = l.split_once(" -> ") {
            let (b, attrs) = rest.split_once([' ', ';']).unwrap();
            let action = if attrs.contains("label=\"ask\"") {
                "ask"
            } else {
                "allow"
            };
            edges.insert(e(&id(a), &id(b), action));
        } else {
            let (n, attrs) = l.split_once(" [").unwrap();
            assert!(attrs.starts_with("label=\"") && attrs.ends_with("];"), "{l}");
            id(n);
            nodes += 1;
        }
    }
    assert_eq!(nodes, 11);
    assert!(out.contains("\"opencode:auditor\" [label=\"auditor (hidden)\", style=dashed];"));
    assert_eq!(edges, drawn_edges());
}

#[test]
fn claude_agents_get_a_tool_table_and_agent_edges() {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        ".claude/agents/lead.md",
        "---\nname: lead\ndescription: d\ntools: Read, Agent(worker)\n---\n",
    );
    write(
        t.path(),
        ".claude/agents/worker.md",
        "---\nname: worker\ndescription: d\ntools: Read, Bash\n---\n",
    );
    write(
        t.path(),
        ".claude/agents/free.md",
        "---\nname: free\ndescription: d\ndisallowedTools: Bash\n---\n",
    );
    let (code, out, err) = explain(t.path(), &["--matrix", "--format", "json", "--dialect", "claude"], None);
    assert_eq!(code, 0, "{err}");
    let got: Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = got["claude"]["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(sorted, ["free", "lead", "worker"]);
    assert_eq!(got["claude"]["tools"], json!(["Agent", "Bash", "Read"]));
    assert_eq!(
        got["claude"]["matrix"],
        json!({
            "lead": {"Agent": true, "Bash": false, "Read": true},
            "worker": {"Agent": false, "Bash": true, "Read": true},
            "free": {"Agent": true, "Bash": false, "Read": true},
        })
    );
    assert_eq!(got["agents"], json!([]));
    let (_, human, _) = explain(t.path(), &["--matrix", "--dialect", "claude"], None);
    assert!(
        human.starts_with("Claude Code: the tools each agent gets\n\nagent   Agent  Bash  Read\n"),
        "{human}"
    );
    assert!(human.contains("\nlead    yes    no    yes\n"), "{human}");

    let (code, out, err) = explain(t.path(), &["--graph", "--format", "json", "--dialect", "claude"], None);
    assert_eq!(code, 0, "{err}");
    let got: Value = serde_json::from_str(&out).unwrap();
    let edges: BTreeSet<_> = edges_of(&got).into_iter().collect();
    assert_eq!(
        edges,
        BTreeSet::from([e("lead", "worker", "allow"), e("free", "*", "allow")])
    );
    assert!(
        got["nodes"]
            .as_array()
            .unwrap()
            .contains(&json!({"name": "*", "mode": "any", "dialect": "claude", "hidden": false}))
    );
}

#[test]
fn formats_that_do_not_fit_the_view_are_usage_errors() {
    let t = project();
    assert_eq!(explain(t.path(), &["--graph", "--format", "human"], None).0, 2);
    assert_eq!(explain(t.path(), &["--matrix", "--format", "dot"], None).0, 2);
    assert_eq!(explain(t.path(), &["--format", "mermaid"], None).0, 2);
    assert_eq!(explain(t.path(), &["lead", "--matrix"], None).0, 2);
}

#[test]
fn copilot_agents_are_a_group_with_their_subagents_and_handoffs() {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        ".github/agents/planner.agent.md",
        "---\ndescription: Plans\ntools: ['agent', 'read']\nagents: [implementer]\nhandoffs:\n  - label: Go\n    agent: implementer\n  - label: Typo\n    agent: implementor\n---\nPlan.\n",
    );
    write(
        t.path(),
        ".github/agents/implementer.agent.md",
        "---\ndescription: Implements\nhandoffs:\n  - label: Ask\n    agent: ask\n---\nDo.\n",
    );
    let (code, out, err) = explain(t.path(), &["--graph", "--format", "json", "--dialect", "copilot"], None);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let nodes: Vec<(String, String, String)> = v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["dialect"].as_str().unwrap().to_string(),
                n["name"].as_str().unwrap().to_string(),
                n["mode"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let node = |n: &str, m: &str| ("copilot".to_string(), n.to_string(), m.to_string());
    assert_eq!(
        nodes,
        [
            node("implementer", "agent"),
            node("planner", "agent"),
            node("ask", "built-in"),
            node("implementor", "unknown"),
        ]
    );
    assert_eq!(
        edges_of(&v),
        [
            e("implementer", "ask", "handoff"),
            e("planner", "implementer", "allow"),
            e("planner", "implementer", "handoff"),
            e("planner", "implementor", "handoff"),
        ]
    );
    // Mermaid: the handoff is drawn as one, the unknown name says so.
    let (_, mermaid, _) = explain(t.path(), &["--graph", "--dialect", "copilot"], None);
    assert!(mermaid.contains("[\"implementor (no such agent)\"]"), "{mermaid}");
    assert!(mermaid.contains(" == handoff ==> "), "{mermaid}");
    // With other dialects, each is its group, titled with its product.
    write(t.path(), "opencode.json", "{}\n");
    let (_, mermaid, _) = explain(t.path(), &["--graph"], None);
    assert!(mermaid.contains("  subgraph copilot[\"GitHub Copilot\"]"), "{mermaid}");
    assert!(mermaid.contains("  subgraph opencode[\"opencode\"]"), "{mermaid}");
    let (_, dot, _) = explain(t.path(), &["--graph", "--format", "dot"], None);
    assert!(
        dot.contains("\"copilot:planner\" -> \"copilot:implementer\" [label=\"handoff\", style=bold];"),
        "{dot}"
    );
}

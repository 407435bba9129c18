//! Benchmarks of the analysis core and the workspace layer (std only; `cargo bench --bench
//! analysis`). Measurements:
//!
//! - one typical Markdown agent (a 40-line frontmatter and a body) through `analyze`;
//! - a typical Claude Code agent, `settings.json` (30 rules, hooks) and `.mcp.json` (10 servers);
//! - an `opencode.json` defining 500 agents through `analyze`;
//! - a typical `opencode.json` using every section (providers and models, MCP servers, language
//!   servers, formatters, commands, ...) through `analyze`, and one with 200 providers of 10
//!   models each;
//! - `Workspace::load` + `diagnostics()` of a generated 2,000-file project on disk;
//! - team policies: every policy over 2,500 agents, a keystroke with and without them, and the
//!   solver alone (`policies`, `solver`).
//!
//! Each prints a line like `typical agent file: median 23.1 µs, p95 30.2 µs (2000 runs)`.

use std::fmt::Write as _;
use std::fs;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use agent_lsp::analysis::Severity;
use agent_lsp::analysis::opencode::{FileKind, analyze};
use agent_lsp::workspace::{Options, Workspace};

/// A realistic agent: a 40-line frontmatter (description, mode, model, temperature, a permission
/// block with a 15-pattern bash map) and a prompt body.
const TYPICAL_AGENT: &str = r##"---
description: >-
  Reviews pull requests for correctness, security and test coverage. Use it after a change is
  written and before it is merged; it reads the diff and the surrounding code, and reports.
mode: subagent
model: anthropic/claude-sonnet-4-5
temperature: 0.1
color: "#4F7CAC"
steps: 40
permission:
  edit: deny
  webfetch: ask
  read:
    "*": allow
    "*.env": deny
    "*.env.*": deny
  bash:
    "*": ask
    "git status *": allow
    "git diff *": allow
    "git log *": allow
    "git show *": allow
    "git blame *": allow
    "grep *": allow
    "rg *": allow
    "ls *": allow
    "cat *": allow
    "npm test *": allow
    "npm run lint *": allow
    "cargo test *": allow
    "git push *": deny
    "rm *": deny
  task:
    "*": deny
    "explore": allow
---
You are a code reviewer for this repository, a TypeScript monorepo with a web front end
(`packages/web`) and an HTTP API (`packages/api`).

When asked to review a change:

1. Read the diff with `git diff` and the files it touches. Read the callers of every function
   whose signature or behaviour changed.
2. Check correctness first: off-by-one errors, missing `await`, unhandled promise rejections,
   null and undefined paths, and error handling that swallows failures.
3. Check security: user input reaching SQL, shell commands or HTML without escaping; secrets in
   code or logs; authorisation checks on every new endpoint.
4. Check tests: every behaviour change has a test, and the test fails without the change.
5. Report findings as a list, most severe first, each with the file, the line and a concrete
   suggestion. Say explicitly when you found nothing.

Do not edit files. Do not run commands that change the working tree.
"##;

/// Run `f` `runs` times (after a warm-up), timing each run; returns the sorted durations.
fn sample(runs: usize, warmup: usize, mut f: impl FnMut()) -> Vec<Duration> {
    for _ in 0..warmup {
        f();
    }
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn bench_typical_agent() {
    let kind = FileKind::Agent {
        name: "reviewer".into(),
    };
    let a = analyze(&kind, TYPICAL_AGENT);
    assert!(
        a.diagnostics.iter().all(|d| d.severity != Severity::Error),
        "the typical agent should be valid: {:?}",
        a.diagnostics
    );
    let runs = 2000;
    let times = sample(runs, 200, || {
        black_box(analyze(black_box(&kind), black_box(TYPICAL_AGENT)));
    });
    println!(
        "typical agent file ({} lines, {} bytes, {} diagnostics): median {:.1} µs, p95 {:.1} µs ({runs} runs)",
        TYPICAL_AGENT.lines().count(),
        TYPICAL_AGENT.len(),
        a.diagnostics.len(),
        micros(percentile(&times, 0.5)),
        micros(percentile(&times, 0.95)),
    );
}

/// A Claude Code agent as written in practice: a tool list, hooks, a few settings, a prompt.
const TYPICAL_CLAUDE_AGENT: &str = "---
name: reviewer
description: Reviews pull requests for correctness, style and security. Use after every change.
tools: Read, Grep, Glob, Bash, Agent(helper, Explore), mcp__github__get_pull_request
disallowedTools: Write
model: sonnet
permissionMode: plan
maxTurns: 20
effort: high
memory: project
color: cyan
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: ./scripts/check.sh
---
You are a careful reviewer. Check error handling, tests and security; suggest concrete fixes.
";

fn bench_claude_agent() {
    let kind = agent_lsp::analysis::FileKind::from(agent_lsp::analysis::claude::AgentFile::project("reviewer"));
    let a = agent_lsp::analysis::analyze(&kind, TYPICAL_CLAUDE_AGENT);
    assert!(
        a.diagnostics.is_empty(),
        "the typical Claude agent should be clean: {:?}",
        a.diagnostics
    );
    let runs = 2000;
    let times = sample(runs, 200, || {
        black_box(agent_lsp::analysis::analyze(
            black_box(&kind),
            black_box(TYPICAL_CLAUDE_AGENT),
        ));
    });
    println!(
        "typical Claude Code agent ({} lines, {} bytes): median {:.1} µs, p95 {:.1} µs ({runs} runs)",
        TYPICAL_CLAUDE_AGENT.lines().count(),
        TYPICAL_CLAUDE_AGENT.len(),
        micros(percentile(&times, 0.5)),
        micros(percentile(&times, 0.95)),
    );
}

/// A project's Claude Code settings as written in practice: 30 permission rules, guard and
/// post-edit hooks, env, a status line, plugins.
const TYPICAL_CLAUDE_SETTINGS: &str = r#"{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "model": "opus",
  "includeCoAuthoredBy": false,
  "cleanupPeriodDays": 30,
  "env": {"NODE_ENV": "development", "DEBUG": "app:*"},
  "enabledPlugins": {"formatter@tools": true, "linter@tools": false},
  "statusLine": {"type": "command", "command": "~/.claude/statusline.sh", "padding": 0},
  "enabledMcpjsonServers": ["github"],
  "permissions": {
    "allow": ["Bash(git status:*)", "Bash(git diff:*)", "Bash(git log:*)", "Bash(git add:*)",
      "Bash(git commit:*)", "Bash(npm run build:*)", "Bash(npm run lint:*)", "Bash(npm test:*)",
      "Bash(npx tsc:*)", "Bash(ls:*)", "Bash(cat:*)", "Bash(grep:*)", "Bash(rg:*)", "Read(src/**)",
      "Edit(src/**)", "WebFetch(domain:docs.anthropic.com)", "WebFetch(domain:github.com)",
      "mcp__github__get_issue", "mcp__github__get_pull_request", "Agent(code-reviewer)"],
    "ask": ["Bash(git push:*)", "Bash(npm publish:*)", "Edit(package.json)"],
    "deny": ["Read(./.env)", "Read(./.env.*)", "Read(./secrets/**)", "Edit(//etc/**)", "Bash(curl:*)",
      "Bash(rm -rf:*)", "WebFetch(domain:pastebin.com)"],
    "defaultMode": "acceptEdits",
    "additionalDirectories": ["../shared"]
  },
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo check", "timeout": 10}]}],
    "PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "npx prettier --write .", "timeout": 30}]}],
    "Stop": [{"hooks": [{"type": "prompt", "prompt": "Did the task finish? $ARGUMENTS"}]}]
  }
}
"#;

/// A project's `.mcp.json` with ten servers of every transport.
fn typical_mcp_json() -> String {
    let mut servers = Vec::new();
    for i in 0..10 {
        servers.push(match i % 3 {
            0 => format!(r#""local{i}": {{"command": "npx", "args": ["-y", "@scope/server-{i}"], "env": {{"TOKEN": "${{TOKEN_{i}}}"}}}}"#),
            1 => format!(r#""http{i}": {{"type": "http", "url": "https://mcp{i}.example.com/mcp", "headers": {{"Authorization": "Bearer ${{KEY:-none}}"}}}}"#),
            _ => format!(r#""sse{i}": {{"type": "sse", "url": "https://sse{i}.example.com/sse"}}"#),
        });
    }
    format!("{{\"mcpServers\": {{{}}}}}\n", servers.join(",\n"))
}

fn bench_claude_files() {
    use agent_lsp::analysis::claude::settings::SettingsFile;
    let cases: Vec<(&str, agent_lsp::analysis::FileKind, String)> = vec![
        (
            "typical Claude Code settings.json",
            agent_lsp::analysis::FileKind::from(SettingsFile::Project),
            TYPICAL_CLAUDE_SETTINGS.to_string(),
        ),
        (
            "typical .mcp.json (10 servers)",
            agent_lsp::analysis::FileKind::from(agent_lsp::analysis::claude::FileKind::McpJson),
            typical_mcp_json(),
        ),
    ];
    for (what, kind, text) in &cases {
        let a = agent_lsp::analysis::analyze(kind, text);
        assert!(
            a.diagnostics.iter().all(|d| d.severity != Severity::Error),
            "{what} should have no error: {:?}",
            a.diagnostics
        );
        let runs = 2000;
        let times = sample(runs, 200, || {
            black_box(agent_lsp::analysis::analyze(black_box(kind), black_box(text)));
        });
        println!(
            "{what} ({} lines, {} bytes): median {:.1} µs, p95 {:.1} µs ({runs} runs)",
            text.lines().count(),
            text.len(),
            micros(percentile(&times, 0.5)),
            micros(percentile(&times, 0.95)),
        );
    }
}

/// A Copilot custom agent as written in practice: tools of several kinds, two models, handoffs,
/// subagents, a body with `#tool:` references.
const TYPICAL_COPILOT_AGENT: &str = "---
name: planner
description: Plans a change across the web app and the API before anything is edited
tools: ['search', 'read', 'web/fetch', 'github/*', 'agent', 'todo', 'execute/runTests']
model: ['Claude Sonnet 4.5 (copilot)', 'GPT-5 (copilot)']
agents: [implementer, reviewer]
argument-hint: the change to plan
handoffs:
  - label: Implement the plan
    agent: implementer
    prompt: Implement the plan above, step by step.
    send: false
  - label: Review the plan
    agent: reviewer
    prompt: Review the plan above.
---
You plan. Read the code with #tool:search and #tool:read, keep a list with #tool:todo, then
write a numbered plan: files to touch, tests to add. Never edit a file yourself.
";

fn bench_copilot() {
    use agent_lsp::analysis::copilot::{self, AgentForm, FileKind as CKind, project};
    let kind = agent_lsp::analysis::FileKind::Copilot(CKind::Agent {
        name: "planner".into(),
        form: AgentForm::AgentMd,
    });
    let a = agent_lsp::analysis::analyze(&kind, TYPICAL_COPILOT_AGENT);
    assert!(
        a.diagnostics.iter().all(|d| d.severity == Severity::Hint),
        "the typical Copilot agent should have hints only: {:?}",
        a.diagnostics
    );
    let runs = 2000;
    let times = sample(runs, 200, || {
        black_box(agent_lsp::analysis::analyze(
            black_box(&kind),
            black_box(TYPICAL_COPILOT_AGENT),
        ));
    });
    println!(
        "typical Copilot agent ({} lines, {} bytes): median {:.1} µs, p95 {:.1} µs ({runs} runs)",
        TYPICAL_COPILOT_AGENT.lines().count(),
        TYPICAL_COPILOT_AGENT.len(),
        micros(percentile(&times, 0.5)),
        micros(percentile(&times, 0.95)),
    );
    // The checks across files of a folder of 10,000 agents, each handing off to the next.
    let n = 10_000;
    let files: Vec<(CKind, copilot::CopilotFile)> = (0..n)
        .map(|i| {
            let kind = CKind::Agent {
                name: format!("agent{i}"),
                form: AgentForm::AgentMd,
            };
            let text = format!(
                "---\ndescription: Agent {i}\ntools: [edit, 'github/*']\nhandoffs:\n  - label: Next\n    agent: agent{}\n    prompt: Go on\n---\nDo step {i}.\n",
                (i + 1) % n
            );
            let facts = copilot::analyze(&kind, &text).2;
            (kind, facts)
        })
        .collect();
    let view: Vec<project::ViewFile> = files
        .iter()
        .enumerate()
        .map(|(file, (kind, facts))| project::ViewFile { file, kind, facts })
        .collect();
    let runs = 20;
    let times = sample(runs, 3, || {
        black_box(project::check(black_box(&view)));
    });
    println!(
        "Copilot checks across {n} agents: median {:.2} ms, p95 {:.2} ms ({runs} runs)",
        millis(percentile(&times, 0.5)),
        millis(percentile(&times, 0.95)),
    );
}

fn config_with_agents(n: usize) -> String {
    let mut s = String::from("{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"agent\": {\n");
    for i in 0..n {
        let (mode, model) = match i % 3 {
            0 => ("subagent", "anthropic/claude-sonnet-4-5"),
            1 => ("primary", "openai/gpt-5"),
            _ => ("all", "google/gemini-2.5-pro"),
        };
        let _ = write!(
            s,
            r#"    "agent-{i}": {{
      "mode": "{mode}",
      "model": "{model}",
      "description": "Agent number {i}: reviews changes to module {i} and reports bugs, missing tests and unclear names.",
      "permission": {{
        "edit": "deny",
        "webfetch": "ask",
        "bash": {{
          "*": "ask",
          "git status *": "allow",
          "git diff *": "allow",
          "git log *": "allow",
          "rm *": "deny"
        }}
      }}
    }}{comma}
"#,
            comma = if i + 1 < n { "," } else { "" }
        );
    }
    s.push_str("  }\n}\n");
    s
}

fn bench_big_config() {
    let agents = 500;
    let text = config_with_agents(agents);
    let a = analyze(&FileKind::Config, &text);
    assert_eq!(a.facts.agents.len(), agents);
    assert!(
        a.diagnostics.is_empty(),
        "{:?}",
        &a.diagnostics[..a.diagnostics.len().min(3)]
    );
    let runs = 200;
    let times = sample(runs, 20, || {
        black_box(analyze(black_box(&FileKind::Config), black_box(&text)));
    });
    println!(
        "opencode.json with {agents} agents ({} lines, {} KB): median {:.0} µs, p95 {:.0} µs ({runs} runs)",
        text.lines().count(),
        text.len() / 1024,
        micros(percentile(&times, 0.5)),
        micros(percentile(&times, 0.95)),
    );
    // The part of that the secret scan takes (every string of the tree looked at).
    let root = a.parsed.root.as_ref().expect("a tree");
    let times = sample(runs, 20, || {
        black_box(agent_lsp::analysis::secret::find(black_box(root), black_box(&text)));
    });
    println!(
        "  of which the secret scan (hardcoded-secret): median {:.0} µs, p95 {:.0} µs",
        micros(percentile(&times, 0.5)),
        micros(percentile(&times, 0.95)),
    );
    // The commands' reading (unpinned-package: every map with a `command`) and the home-folder
    // search (home-path: the whole text).
    let times = sample(runs, 20, || {
        black_box(agent_lsp::analysis::launch::find(black_box(root), black_box(&text)));
    });
    println!(
        "  of which the commands' reading (unpinned-package): median {:.0} µs, p95 {:.0} µs",
        micros(percentile(&times, 0.5)),
        micros(percentile(&times, 0.95)),
    );
    let times = sample(runs, 20, || {
        black_box(agent_lsp::analysis::home::find(black_box(&text)));
    });
    println!(
        "  of which the home-folder search (home-path): median {:.0} µs, p95 {:.0} µs",
        micros(percentile(&times, 0.5)),
        micros(percentile(&times, 0.95)),
    );
}

/// A realistic config that uses every section of opencode 1.18.34's schema.
const TYPICAL_CONFIG: &str = r#"{
  "$schema": "https://opencode.ai/config.json",
  "model": "anthropic/claude-sonnet-4-5",
  "small_model": "anthropic/claude-haiku-4-5",
  "share": "manual",
  "autoupdate": "notify",
  "snapshot": true,
  "logLevel": "INFO",
  "username": "dev",
  "instructions": ["https://example.com/rules.md"],
  "server": {"port": 4096, "hostname": "127.0.0.1", "cors": ["https://app.example.com"]},
  "watcher": {"ignore": ["dist/**", "node_modules/**"]},
  "plugin": ["opencode-helicone-session", ["opencode-notify", {"sound": true}]],
  "provider": {
    "local": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "Local models",
      "options": {"baseURL": "http://127.0.0.1:8080/v1", "timeout": 600000, "headers": {"X-Team": "core"}},
      "models": {
        "qwen-coder": {"name": "Qwen Coder", "tool_call": true, "limit": {"context": 131072, "output": 8192},
                       "cost": {"input": 0, "output": 0}, "modalities": {"input": ["text"], "output": ["text"]}},
        "deepseek": {"name": "DeepSeek", "reasoning": true, "interleaved": {"field": "reasoning_content"},
                     "limit": {"context": 65536, "output": 8192}, "variants": {"high": {"reasoningEffort": "high"}}}
      }
    },
    "anthropic": {"options": {"setCacheKey": true}}
  },
  "mcp": {
    "github": {"type": "local", "command": ["npx", "-y", "@modelcontextprotocol/server-github@2025.4.8"],
               "environment": {"GITHUB_TOKEN": "{env:GITHUB_TOKEN}"}, "timeout": 10000},
    "sentry": {"type": "remote", "url": "https://mcp.sentry.dev/mcp", "headers": {"Authorization": "Bearer {env:SENTRY}"},
               "oauth": {"clientId": "abc", "scope": "read"}},
    "legacy": {"enabled": false}
  },
  "lsp": {"rust": {"command": ["rust-analyzer"]}, "eslint": {"disabled": true},
          "tailwind": {"command": ["tailwindcss-language-server", "--stdio"], "extensions": [".tsx", ".css"]}},
  "formatter": {"prettier": {"disabled": true}, "biome": {"command": ["biome", "format", "$FILE"], "extensions": [".ts"]}},
  "command": {"test": {"template": "Run the tests and fix failures: $ARGUMENTS", "description": "Test", "subtask": true}},
  "skills": {"urls": ["https://example.com/.well-known/skills/"]},
  "references": {"lib": {"repository": "owner/lib", "branch": "main", "description": "The library"}},
  "attachment": {"image": {"auto_resize": true, "max_width": 2000}},
  "tool_output": {"max_lines": 2000, "max_bytes": 51200},
  "compaction": {"auto": true, "prune": false, "preserve_recent_tokens": 20000},
  "experimental": {"batch_tool": true, "policies": [{"action": "provider.use", "effect": "deny", "resource": "openai"}]},
  "permission": {"edit": "ask", "bash": {"*": "ask", "git status *": "allow", "git diff *": "allow"}},
  "agent": {"review": {"mode": "subagent", "description": "Reviews changes", "permission": {"edit": "deny"}}}
}
"#;

fn config_with_providers(n: usize, models: usize) -> String {
    let mut s = String::from("{\n  \"provider\": {\n");
    for i in 0..n {
        let _ = write!(
            s,
            "    \"p{i}\": {{\"npm\": \"@ai-sdk/openai-compatible\", \"options\": {{\"baseURL\": \"http://127.0.0.1:{i}/v1\"}}, \"models\": {{"
        );
        for m in 0..models {
            let _ = write!(
                s,
                "\"m{m}\": {{\"name\": \"Model {m}\", \"limit\": {{\"context\": 128000, \"output\": 8192}}, \"cost\": {{\"input\": 1, \"output\": 2}}}}{}",
                if m + 1 < models { ", " } else { "" }
            );
        }
        let _ = writeln!(s, "}}}}{}", if i + 1 < n { "," } else { "" });
    }
    s.push_str("  }\n}\n");
    s
}

fn bench_config_sections() {
    let a = analyze(&FileKind::Config, TYPICAL_CONFIG);
    assert!(
        a.diagnostics.is_empty(),
        "the typical config should be clean: {:?}",
        a.diagnostics
    );
    let runs = 2000;
    let times = sample(runs, 200, || {
        black_box(analyze(black_box(&FileKind::Config), black_box(TYPICAL_CONFIG)));
    });
    println!(
        "typical opencode.json, every section ({} lines, {} bytes): median {:.1} µs, p95 {:.1} µs ({runs} runs)",
        TYPICAL_CONFIG.lines().count(),
        TYPICAL_CONFIG.len(),
        micros(percentile(&times, 0.5)),
        micros(percentile(&times, 0.95)),
    );
    let text = config_with_providers(200, 10);
    let a = analyze(&FileKind::Config, &text);
    assert!(
        a.diagnostics.is_empty(),
        "{:?}",
        &a.diagnostics[..a.diagnostics.len().min(3)]
    );
    let runs = 100;
    let times = sample(runs, 10, || {
        black_box(analyze(black_box(&FileKind::Config), black_box(&text)));
    });
    println!(
        "opencode.json with 200 providers of 10 models ({} lines, {} KB): median {:.0} µs, p95 {:.0} µs ({runs} runs)",
        text.lines().count(),
        text.len() / 1024,
        micros(percentile(&times, 0.5)),
        micros(percentile(&times, 0.95)),
    );
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().expect("a parent")).expect("create dir");
    fs::write(path, text).expect("write file");
}

/// A monorepo: a root config and `.opencode/agents/` with `agents` Markdown files (a third of
/// them in team subdirectories), and `packages` packages each with its own `opencode.json`.
/// Nothing in it is reported.
fn generate_workspace(root: &Path, agents: usize, packages: usize) {
    write(
        &root.join("opencode.json"),
        "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"default_agent\": \"agent-0\",\n  \"command\": {\n    \"review\": {\"template\": \"Review the diff\", \"agent\": \"agent-1\"}\n  }\n}\n",
    );
    for i in 0..agents {
        let rel = if i % 3 == 2 {
            format!(".opencode/agents/team-{}/agent-{i}.md", i % 10)
        } else {
            format!(".opencode/agents/agent-{i}.md")
        };
        let text = TYPICAL_AGENT.replacen(
            "mode: subagent",
            if i == 0 { "mode: primary" } else { "mode: subagent" },
            1,
        );
        write(&root.join(rel), &text);
    }
    for p in 0..packages {
        write(
            &root.join(format!("packages/p{p}/opencode.json")),
            &format!(
                "{{\n  \"agent\": {{\n    \"pkg-{p}\": {{\"mode\": \"subagent\", \"description\": \"Package {p} helper\"}}\n  }}\n}}\n"
            ),
        );
    }
}

fn bench_workspace() {
    let (agents, packages) = (1990, 9);
    let dir = tempfile::tempdir().expect("temp dir");
    generate_workspace(dir.path(), agents, packages);
    let paths = [dir.path().to_path_buf()];
    let options = Options::isolated();

    let (mut loads, mut diags, mut totals) = (Vec::new(), Vec::new(), Vec::new());
    let mut summary = (0, 0);
    let runs = 7;
    for run in 0..=runs {
        let t = Instant::now();
        let ws = Workspace::load(&paths, &options).expect("workspace loads");
        let loaded = t.elapsed();
        let d = ws.diagnostics();
        let total = t.elapsed();
        assert!(ws.errors.is_empty(), "{:?}", ws.errors);
        black_box(&d);
        summary = (ws.files.len(), d.len());
        // The first run warms the page cache and is not counted.
        if run > 0 {
            loads.push(loaded);
            diags.push(total - loaded);
            totals.push(total);
        }
    }
    for v in [&mut loads, &mut diags, &mut totals] {
        v.sort();
    }
    println!(
        "workspace of {} files (load + diagnostics, {} diagnostics): median {:.1} ms, min {:.1} ms ({runs} runs); load median {:.1} ms, diagnostics median {:.1} ms",
        summary.0,
        summary.1,
        millis(percentile(&totals, 0.5)),
        millis(totals[0]),
        millis(percentile(&loads, 0.5)),
        millis(percentile(&diags, 0.5)),
    );
}

/// The cross-file units of one large view (2,000 Markdown agents and a config of 500): how long
/// each takes to recompute, which is what a keystroke in one of those agents costs beyond the
/// file's own analysis when the edit changes its frontmatter.
fn bench_units() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    write(&root.join("opencode.json"), &config_with_agents(500));
    for i in 0..2000 {
        write(&root.join(format!(".opencode/agents/md-{i}.md")), TYPICAL_AGENT);
    }
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).expect("workspace loads");
    if std::env::var_os("UNITS_DETAIL").is_some() {
        let def = ws.units().into_iter().next().unwrap();
        let t = |name: &str, f: &mut dyn FnMut()| {
            let times = sample(100, 3, &mut *f);
            println!("  {name}: median {:.0} µs", micros(percentile(&times, 0.5)));
        };
        t("view_files", &mut || {
            black_box(agent_lsp::analysis::opencode::views::view_files(&ws, &def.view));
        });
        let vf = agent_lsp::analysis::opencode::views::view_files(&ws, &def.view);
        t("opencode_skills", &mut || {
            black_box(agent_lsp::analysis::opencode::views::skills(&ws, root));
        });
        t("project::check", &mut || {
            black_box(agent_lsp::analysis::opencode::project::check(&vf));
        });
        t("registry", &mut || {
            black_box(agent_lsp::analysis::opencode::project::registry(&vf));
        });
        t("check_skill_patterns", &mut || {
            black_box(agent_lsp::analysis::opencode::project::check_skill_patterns(&vf, &[]));
        });
    }
    for def in ws.units() {
        let times = sample(300, 3, || {
            black_box(ws.unit_diagnostics(black_box(&def)));
        });
        println!(
            "unit {:?} of {} files: median {:.0} µs, p95 {:.0} µs",
            def.unit,
            def.inputs.len(),
            micros(percentile(&times, 0.5)),
            micros(percentile(&times, 0.95)),
        );
    }
}

/// The instruction files of a monorepo of 1,000 packages, each with an `AGENTS.md` and a
/// `CLAUDE.md` that imports it (and 2,000 agents beside them): the unit that says who reads each
/// runs again on any edit of a memory file.
fn bench_instructions() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join(".git")).expect(".git");
    write(&root.join("AGENTS.md"), "Be brief.\n");
    // Codex is used here: its chain of AGENTS.md files and their budget is a unit too.
    write(&root.join(".codex/config.toml"), "model = \"gpt-5.1-codex\"\n");
    for i in 0..1000 {
        let pkg = root.join(format!("packages/p{i}"));
        write(&pkg.join("AGENTS.md"), "Run the package's tests before a commit.\n");
        write(&pkg.join("CLAUDE.md"), "@AGENTS.md\n");
        write(&pkg.join(format!(".opencode/agents/a{i}.md")), TYPICAL_AGENT);
        write(
            &pkg.join(format!(".claude/agents/c{i}.md")),
            "---\nname: c\ndescription: d\n---\nx\n",
        );
    }
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).expect("workspace loads");
    for def in ws.units().into_iter().filter(|d| {
        let unit = format!("{:?}", d.unit);
        unit == "Instructions" || unit.contains("\"instructions\"")
    }) {
        let times = sample(30, 3, || {
            black_box(ws.unit_diagnostics(black_box(&def)));
        });
        println!(
            "unit {:?} of {} files (1,000 packages): median {:.0} µs, p95 {:.0} µs",
            def.unit,
            def.inputs.len(),
            micros(percentile(&times, 0.5)),
            micros(percentile(&times, 0.95)),
        );
    }
}

/// A keystroke in the language server's state, in-process (no pipes): the opened agent's
/// `mode` flipped between a valid and an invalid value among 2,000 Markdown agents and a config
/// of 500, what `didChange` costs before its publish is written.
fn bench_keystroke() {
    use agent_lsp::analysis::Encoding;
    use agent_lsp::lsp::settings::{GlobalConfig, Settings};
    use agent_lsp::lsp::state::State;
    use std::str::FromStr;
    use tower_lsp_server::ls_types::Uri;
    let dir = tempfile::tempdir().expect("temp dir");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    write(&root.join("opencode.json"), &config_with_agents(500));
    for i in 0..2000 {
        write(&root.join(format!(".opencode/agents/md-{i}.md")), TYPICAL_AGENT);
    }
    let settings = Settings {
        global: GlobalConfig::Off,
        ..Settings::default()
    };
    let mut st = State::new(vec![root.clone()], Encoding::Utf16, settings);
    black_box(st.scan());
    let path = root.join(".opencode/agents/md-1.md");
    let uri = Uri::from_str(&format!("file://{}", path.display())).expect("uri");
    black_box(st.open(uri.clone(), "markdown", 1, TYPICAL_AGENT.to_string()));
    let line = TYPICAL_AGENT
        .lines()
        .position(|l| l.starts_with("mode:"))
        .expect("a mode line") as u32;
    let mut version = 1;
    let times = flip_mode(&mut st, &uri, &mut version, (line, 6), 400);
    println!(
        "keystroke in the server state, one agent among 2,500 in one view: median {:.0} µs, p95 {:.0} µs",
        micros(percentile(&times, 0.5)),
        micros(percentile(&times, 0.95)),
    );
    // The same in the opencode.json of 500 agents (the last agent's mode).
    let config = config_with_agents(500);
    let path = root.join("opencode.json");
    let uri = Uri::from_str(&format!("file://{}", path.display())).expect("uri");
    black_box(st.open(uri.clone(), "json", 1, config.clone()));
    let at = config
        .lines()
        .enumerate()
        .filter_map(|(i, l)| l.find("\"subagent\"").map(|c| (i as u32, c as u32 + 1)))
        .last()
        .expect("a subagent mode");
    let times = flip_mode(&mut st, &uri, &mut version, at, 200);
    println!(
        "keystroke in the server state, opencode.json of 500 agents (same view): median {:.0} µs, p95 {:.0} µs",
        micros(percentile(&times, 0.5)),
        micros(percentile(&times, 0.95)),
    );
}

/// A keystroke in one Copilot agent of a folder of 10,000 (each handing off to the next, with an
/// MCP tool of `.vscode/mcp.json`): in its description (the folder's cross-file checks run again)
/// and in its body (they do not).
fn bench_copilot_keystroke() {
    use agent_lsp::analysis::Encoding;
    use agent_lsp::lsp::settings::{GlobalConfig, Settings};
    use agent_lsp::lsp::state::State;
    use std::str::FromStr;
    use tower_lsp_server::ls_types::Uri;
    let dir = tempfile::tempdir().expect("temp dir");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let n = 10_000;
    write(
        &root.join(".vscode/mcp.json"),
        "{ \"servers\": { \"github\": { \"url\": \"https://api.githubcopilot.com/mcp/\" } } }\n",
    );
    let agent = |i: usize| {
        format!(
            "---\ndescription: Agent {i} hands work to a subagent\ntools: [edit, 'github/*']\nhandoffs:\n  - label: Next\n    agent: agent{}\n    prompt: Go on\n---\nDo step {i}, then ask a subagent.\n",
            (i + 1) % n
        )
    };
    for i in 0..n {
        write(&root.join(format!(".github/agents/agent{i}.agent.md")), &agent(i));
    }
    let settings = Settings {
        global: GlobalConfig::Off,
        ..Settings::default()
    };
    let mut st = State::new(vec![root.clone()], Encoding::Utf16, settings);
    black_box(st.scan());
    let text = agent(1);
    let path = root.join(".github/agents/agent1.agent.md");
    let uri = Uri::from_str(&format!("file://{}", path.display())).expect("uri");
    black_box(st.open(uri.clone(), "chatagent", 1, text.clone()));
    let mut version = 1;
    for (what, line) in [("description", 1usize), ("body", 8)] {
        let col = text
            .lines()
            .nth(line)
            .and_then(|l| l.find("subagent"))
            .expect("a subagent") as u32;
        let times = flip_mode(&mut st, &uri, &mut version, (line as u32, col), 200);
        println!(
            "keystroke in the server state, a Copilot agent's {what}, one of {n} agents in one folder: median {:.0} µs, p95 {:.0} µs",
            micros(percentile(&times, 0.5)),
            micros(percentile(&times, 0.95)),
        );
    }
}

/// `runs` edits of document `uri` that flip the `subagent` at `(line, column)` to `subagnt` and
/// back, each timed from `change` to its publishes.
fn flip_mode(
    st: &mut agent_lsp::lsp::state::State,
    uri: &tower_lsp_server::ls_types::Uri,
    version: &mut i32,
    (line, col): (u32, u32),
    runs: usize,
) -> Vec<Duration> {
    use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent};
    let mut valid = true;
    sample(runs, runs / 20, || {
        *version += 1;
        let (from, to) = if valid {
            ("subagent", "subagnt")
        } else {
            ("subagnt", "subagent")
        };
        valid = !valid;
        let change = TextDocumentContentChangeEvent {
            range: Some(Range::new(
                Position::new(line, col),
                Position::new(line, col + from.len() as u32),
            )),
            range_length: None,
            text: to.to_string(),
        };
        black_box(st.change(uri, *version, vec![change]));
    })
}

fn main() {
    // `cargo bench` passes `--bench`; a non-flag argument selects benchmarks by substring.
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    if cfg!(debug_assertions) {
        println!("note: built without optimisations; run `cargo bench --bench analysis` for real figures");
    }
    if wanted("agent") {
        bench_typical_agent();
    }
    if wanted("claude") {
        bench_claude_agent();
        bench_claude_files();
    }
    if wanted("copilot") {
        bench_copilot();
        bench_copilot_keystroke();
    }
    if wanted("codex") {
        bench_codex();
    }
    if wanted("gemini") {
        bench_gemini();
    }
    if wanted("config") {
        bench_big_config();
        bench_config_sections();
    }
    if wanted("workspace") {
        bench_workspace();
    }
    if wanted("units") {
        bench_units();
    }
    if wanted("instructions") {
        bench_instructions();
    }
    if wanted("keystroke") {
        bench_keystroke();
    }
    if wanted("policies") {
        bench_policies();
    }
    if wanted("solver") {
        bench_solver();
    }
}

/// A Codex project's `config.toml` as written in practice (settings, MCP servers, a provider,
/// roles, feature flags), and an agent file: the whole analysis of one file, as a keystroke costs.
fn bench_codex() {
    use agent_lsp::analysis::codex;
    let config = r#"model = "gpt-5.1-codex"
model_reasoning_effort = "high"
approval_policy = "on-request"
sandbox_mode = "workspace-write"
project_doc_fallback_filenames = ["CLAUDE.md"]

[sandbox_workspace_write]
network_access = false
writable_roots = ["/tmp/build"]

[features]
web_search_request = true
collab = true
multi_agent_v2 = { enabled = true }

[mcp_servers.docs]
command = "npx"
args = ["-y", "@upstash/context7-mcp@1.0.0"]
env = { LOG = "info" }
startup_timeout_sec = 20

[mcp_servers.remote]
url = "https://example.com/mcp"
bearer_token_env_var = "REMOTE_TOKEN"

[agents]
max_threads = 4

[agents.reviewer]
description = "Reviews diffs"
config_file = "agents/reviewer.toml"

[tui]
notifications = ["agent-turn-complete"]

[shell_environment_policy]
inherit = "core"
set = { CI = "1" }
"#;
    let agent = "name = \"reviewer\"\ndescription = \"Reviews a diff.\"\nmodel = \"o3\"\nsandbox_mode = \"read-only\"\ndeveloper_instructions = \"\"\"\nReview the change; point at exact lines.\n\"\"\"\n";
    for (what, kind, text) in [
        ("Codex config.toml", codex::FileKind::Config { project: true }, config),
        ("Codex agent file", codex::FileKind::Agent, agent),
    ] {
        let kind: agent_lsp::analysis::FileKind = kind.into();
        let a = agent_lsp::analysis::analyze(&kind, text);
        assert!(
            a.diagnostics.is_empty(),
            "the {what} should be clean: {:?}",
            a.diagnostics
        );
        let runs = 2000;
        let times = sample(runs, 200, || {
            black_box(agent_lsp::analysis::analyze(black_box(&kind), black_box(text)));
        });
        println!(
            "{what} ({} lines, {} bytes): median {:.1} µs, p95 {:.1} µs ({runs} runs)",
            text.lines().count(),
            text.len(),
            micros(percentile(&times, 0.5)),
            micros(percentile(&times, 0.95)),
        );
    }
}

/// A Gemini CLI project's `settings.json` as written in practice (sections, MCP servers, hooks),
/// an agent file and a command: the whole analysis of one file, as a keystroke costs.
fn bench_gemini() {
    use agent_lsp::analysis::gemini;
    let settings = r#"{
  // Team settings.
  "general": { "vimMode": false, "preferredEditor": "neovim", "checkpointing": { "enabled": true } },
  "ui": { "theme": "GitHub", "hideBanner": true, "footer": { "hideCWD": true } },
  "context": { "fileName": ["AGENTS.md", "GEMINI.md"], "includeDirectories": ["../shared"] },
  "model": { "name": "gemini-2.5-pro", "maxSessionTurns": 40 },
  "tools": { "sandbox": false, "exclude": ["run_shell_command"] },
  "privacy": { "usageStatisticsEnabled": false },
  "mcpServers": {
    "docs": { "command": "npx", "args": ["-y", "docs-mcp@1.0.0"], "env": { "LOG": "info" }, "timeout": 20000 },
    "remote": { "httpUrl": "https://example.com/mcp", "headers": { "X-Key": "$KEY" } }
  },
  "hooks": {
    "BeforeTool": [
      { "matcher": "run_shell_command", "hooks": [ { "type": "command", "command": "./check.sh", "timeout": 5000 } ] }
    ]
  }
}
"#;
    let agent = "---\nname: reviewer\ndescription: Reviews a change for bugs.\ntools: [read_file, grep_search, glob, \"mcp_docs_*\"]\nmodel: gemini-2.5-pro\ntemperature: 0.2\nmax_turns: 15\n---\nYou review code; point at exact lines.\n";
    let command =
        "description = \"Review the staged change\"\nprompt = \"\"\"\nReview the staged change: {{args}}\n\"\"\"\n";
    let extension = r#"{
  "name": "docs-helper",
  "version": "1.2.0",
  "description": "Answers questions from the team's docs.",
  "contextFileName": ["GEMINI.md", "docs/STYLE.md"],
  "excludeTools": ["run_shell_command(rm -rf)"],
  "mcpServers": {
    "docs": { "command": "node", "args": ["${extensionPath}/server.js"], "cwd": "${extensionPath}" }
  },
  "settings": [{ "name": "Docs token", "description": "Read access to the docs.", "envVar": "DOCS_TOKEN", "sensitive": true }]
}
"#;
    let skill = agent_lsp::analysis::FileKind::Skill(agent_lsp::analysis::skill::SkillKind {
        folder: "release-notes".into(),
        loaders: vec![agent_lsp::analysis::Dialect::Gemini],
        misplaced: None,
        family: agent_lsp::analysis::Dialect::Gemini,
        namespace: None,
    });
    let skill_text = "---\nname: release-notes\ndescription: Drafts release notes from the merged pull requests.\n---\nRead the merged pull requests since the last tag and group them.\n";
    let a = agent_lsp::analysis::analyze(&skill, skill_text);
    assert!(
        a.diagnostics.is_empty(),
        "the skill should be clean: {:?}",
        a.diagnostics
    );
    let times = sample(2000, 200, || {
        black_box(agent_lsp::analysis::analyze(black_box(&skill), black_box(skill_text)));
    });
    println!(
        "Gemini CLI skill ({} lines, {} bytes): median {:.1} µs, p95 {:.1} µs (2000 runs)",
        skill_text.lines().count(),
        skill_text.len(),
        micros(percentile(&times, 0.5)),
        micros(percentile(&times, 0.95)),
    );
    for (what, kind, text) in [
        (
            "Gemini CLI settings.json",
            gemini::FileKind::Settings { project: true },
            settings,
        ),
        ("Gemini CLI agent file", gemini::FileKind::Agent, agent),
        ("Gemini CLI command file", gemini::FileKind::Command, command),
        ("Gemini CLI extension manifest", gemini::FileKind::Extension, extension),
    ] {
        let kind: agent_lsp::analysis::FileKind = kind.into();
        let a = agent_lsp::analysis::analyze(&kind, text);
        assert!(
            a.diagnostics.is_empty(),
            "the {what} should be clean: {:?}",
            a.diagnostics
        );
        let runs = 2000;
        let times = sample(runs, 200, || {
            black_box(agent_lsp::analysis::analyze(black_box(&kind), black_box(text)));
        });
        println!(
            "{what} ({} lines, {} bytes): median {:.1} µs, p95 {:.1} µs ({runs} runs)",
            text.lines().count(),
            text.len(),
            micros(percentile(&times, 0.5)),
            micros(percentile(&times, 0.95)),
        );
    }
}

/// The policy solver alone: one proof over a 49-rule opencode `bash` map (a catch-all, allows and
/// denials for five tools) and over a 14-rule Claude Code Bash list with the compound-command
/// split, for several policies.
fn bench_solver() {
    use agent_lsp::analysis::policy::solve::{Action, Order, Rule, Syntax, solve};
    let mut list: Vec<(String, Action)> = vec![("*".into(), Action::Ask)];
    for tool in ["git", "npm", "cargo", "docker", "kubectl"] {
        for sub in ["status", "diff", "log", "push", "rm", "run", "build", "test", "show"] {
            let action = if sub == "push" || sub == "rm" {
                Action::Deny
            } else {
                Action::Allow
            };
            list.push((format!("{tool} {sub} *"), action));
        }
    }
    list.push(("rm -rf *".into(), Action::Deny));
    list.push(("*--force*".into(), Action::Deny));
    list.push(("ls*".into(), Action::Allow));
    let opencode: Vec<Rule> = list.iter().map(|(p, a)| Rule { pattern: p, action: *a }).collect();
    let claude_list: [(&str, Action); 14] = [
        ("git status:*", Action::Allow),
        ("git diff:*", Action::Allow),
        ("git log:*", Action::Allow),
        ("git add:*", Action::Allow),
        ("git commit:*", Action::Allow),
        ("npm run test:*", Action::Allow),
        ("npm run build", Action::Allow),
        ("cargo test:*", Action::Allow),
        ("cargo build:*", Action::Allow),
        ("ls:*", Action::Allow),
        ("cat:*", Action::Allow),
        ("rm -rf:*", Action::Deny),
        ("git push --force:*", Action::Deny),
        ("git push:*", Action::Ask),
    ];
    let claude: Vec<Rule> = claude_list
        .iter()
        .map(|(p, a)| Rule { pattern: p, action: *a })
        .collect();
    let last = Order::LastMatch { default: Action::Ask };
    let split = Order::Claude {
        default: Action::Ask,
        split: true,
    };
    // (what, the policy's patterns, the rules, their syntax and order, runs)
    type Case<'a> = (&'a str, &'a [&'a str], &'a [Rule<'a>], Syntax, Order, usize);
    let cases: [Case; 7] = [
        (
            "opencode, 49 rules",
            &["git push*"],
            &opencode,
            Syntax::OpenCode,
            last,
            2000,
        ),
        (
            "opencode, 49 rules",
            &["rm *", "* rm *"],
            &opencode,
            Syntax::OpenCode,
            last,
            2000,
        ),
        ("opencode, 49 rules", &["*"], &opencode, Syntax::OpenCode, last, 2000),
        (
            "Claude Code, 14 rules, split",
            &["git push*"],
            &claude,
            Syntax::Claude,
            split,
            200,
        ),
        (
            "Claude Code, 14 rules, split",
            &["*git push*"],
            &claude,
            Syntax::Claude,
            split,
            50,
        ),
        (
            "Claude Code, 14 rules, split",
            &["rm *", "*rm *"],
            &claude,
            Syntax::Claude,
            split,
            50,
        ),
        (
            "Claude Code, 14 rules, no split",
            &["git push*"],
            &claude,
            Syntax::Claude,
            Order::Claude {
                default: Action::Ask,
                split: false,
            },
            2000,
        ),
    ];
    for (what, policy, rules, syntax, order, runs) in cases {
        let mut outcomes = 0;
        let times = sample(runs, runs / 20, || {
            outcomes = solve(policy, rules, syntax, order, 200_000).map_or(0, |o| o.len());
        });
        println!(
            "solver, {what}, policy {policy:?}: {outcomes} deciders, median {:.1} µs, p95 {:.1} µs",
            micros(percentile(&times, 0.5)),
            micros(percentile(&times, 0.95)),
        );
    }
}

/// Ten team policies, as a project file (`[[policy]]`): pushes, tags, deletions, secrets,
/// edits by reviewers, web access, subagents started, across dialects.
fn ten_policies() -> String {
    let policies = [
        ("no-unattended-push", "bash", "\"git push*\"", "ask", "\"*\""),
        ("tags-need-a-human", "bash", "\"git tag*\"", "ask", "\"*\""),
        ("no-rm-rf", "bash", "\"rm -rf *\", \"rm -fr *\"", "deny", "\"*\""),
        (
            "no-curl-pipe",
            "bash",
            "\"curl *| sh*\", \"curl *|sh*\"",
            "deny",
            "\"*\"",
        ),
        ("secrets-ask", "read", "\"*.env\", \"*.pem\"", "ask", "\"*\""),
        ("reviewers-read-only", "edit", "\"*\"", "deny", "\"*review*\""),
        ("no-web-for-subagents", "webfetch", "\"*\"", "ask", "\"agent-1*\""),
        (
            "no-publish",
            "bash",
            "\"npm publish*\", \"cargo publish*\"",
            "ask",
            "\"*\"",
        ),
        ("no-force", "bash", "\"git * --force*\"", "deny", "\"*\""),
        ("explore-only", "task", "\"*\"", "ask", "\"md-*\""),
    ];
    let mut s = String::new();
    for (id, permission, inputs, limit, agents) in policies {
        let _ = write!(
            s,
            "[[policy]]\nid = \"{id}\"\npermission = \"{permission}\"\ninputs = [{inputs}]\nat-most = \"{limit}\"\nagents = [{agents}]\n\n"
        );
    }
    s
}

/// Team policies: every policy of a ten-policy project file checked over 2,500 agents (2,000
/// Markdown agents and a config of 500), first (each question proved) and again (answers
/// remembered); and a keystroke in one agent with the ten policies, side by side with the same
/// keystroke in the same project without them.
fn bench_policies() {
    use agent_lsp::analysis::Encoding;
    use agent_lsp::lsp::settings::{GlobalConfig, Settings};
    use agent_lsp::lsp::state::State;
    use std::str::FromStr;
    use tower_lsp_server::ls_types::Uri;
    let dir = tempfile::tempdir().expect("temp dir");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    write(&root.join("opencode.json"), &config_with_agents(500));
    for i in 0..2000 {
        write(&root.join(format!(".opencode/agents/md-{i}.md")), TYPICAL_AGENT);
    }
    let options = Options::isolated();
    let keystroke = |with: bool| -> Vec<Duration> {
        let toml = root.join("agent-lsp.toml");
        if with {
            write(&toml, &ten_policies());
        } else {
            let _ = fs::remove_file(&toml);
        }
        let settings = Settings {
            global: GlobalConfig::Off,
            ..Settings::default()
        };
        let mut st = State::new(vec![root.clone()], Encoding::Utf16, settings);
        black_box(st.scan());
        let path = root.join(".opencode/agents/md-1.md");
        let uri = Uri::from_str(&format!("file://{}", path.display())).expect("uri");
        black_box(st.open(uri.clone(), "markdown", 1, TYPICAL_AGENT.to_string()));
        let line = TYPICAL_AGENT
            .lines()
            .position(|l| l.starts_with("mode:"))
            .expect("a mode line") as u32;
        let mut version = 1;
        flip_mode(&mut st, &uri, &mut version, (line, 6), 100)
    };
    // Every diagnostic of the workspace (what `check` computes after loading), with and without
    // the policies; and the policies alone, proved from nothing, then remembered.
    let check = |with: bool| -> (Duration, usize, Workspace) {
        let toml = root.join("agent-lsp.toml");
        if with {
            write(&toml, &ten_policies());
        } else {
            let _ = fs::remove_file(&toml);
        }
        let ws = Workspace::load(std::slice::from_ref(&root), &options).expect("load");
        let start = Instant::now();
        let n = ws.diagnostics().len();
        (start.elapsed(), n, ws)
    };
    let (without_check, without_n, _) = check(false);
    let (with_check, with_n, ws) = check(true);
    let (pid, pdir) = ws.policy_files().into_iter().next().expect("the project file");
    let fresh = Workspace::load(std::slice::from_ref(&root), &options).expect("load");
    let start = Instant::now();
    let judged = fresh.judge_policies(pid, &pdir).len();
    let cold = start.elapsed();
    let warm = sample(10, 2, || {
        black_box(fresh.judge_policies(pid, &pdir));
    });
    println!(
        "every diagnostic of 2,500 agents: with ten policies {:.1} ms ({with_n} diagnostics), without {:.1} ms ({without_n})",
        millis(with_check),
        millis(without_check),
    );
    println!(
        "ten policies judged over 2,500 agents ({judged} judgements): proved from nothing {:.1} ms, remembered median {:.1} ms",
        millis(cold),
        millis(percentile(&warm, 0.5)),
    );
    let with = keystroke(true);
    let without = keystroke(false);
    println!(
        "keystroke in one agent among 2,500: with ten policies median {:.0} µs, p95 {:.0} µs; without policies median {:.0} µs, p95 {:.0} µs",
        micros(percentile(&with, 0.5)),
        micros(percentile(&with, 0.95)),
        micros(percentile(&without, 0.5)),
        micros(percentile(&without, 0.95)),
    );
}

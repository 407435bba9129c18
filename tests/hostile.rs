//! Hostile inputs cost time and memory in proportion to their size, checked as growth rather
//! than against a clock, so that the check holds on any machine and under `--release` alike.
//!
//! Each case builds an input at size `n` and at `10 n` (the shapes that once hit a quadratic or
//! worse path), runs the analysis on both, and compares three costs: the number of allocations
//! and the peak of live heap bytes (counted by this binary's allocator, per thread, so they do
//! not depend on the machine or on other tests), and the time (the fastest of a few runs). Each
//! cost may grow at most `SLACK` times faster than the input: linear code grows about 10x, a
//! quadratic path 100x. The peak heap must also stay within a fixed multiple of the input size.
//! The counts are exact and repeatable; time is checked with a wider margin, cases one at a time.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::time::{Duration, Instant};

use agent_lsp::analysis::opencode::{FileKind, analyze};
use agent_lsp::workspace::{Options, Workspace};

struct Counting;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

fn note(delta: i64, new_alloc: bool) {
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
    if new_alloc {
        let _ = ALLOCS.try_with(|a| a.set(a.get() + 1));
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size() as i64, true);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(-(layout.size() as i64), false);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size as i64 - layout.size() as i64, true);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[derive(Debug, Clone, Copy)]
struct Cost {
    allocs: u64,
    /// Peak live heap bytes above what was live when the measurement started.
    peak: i64,
    time: Duration,
}

fn measure(f: &dyn Fn(), runs: usize) -> Cost {
    let mut best: Option<Cost> = None;
    for _ in 0..runs {
        let base = LIVE.with(Cell::get);
        PEAK.with(|p| p.set(base));
        let allocs = ALLOCS.with(Cell::get);
        let t = Instant::now();
        f();
        let time = t.elapsed();
        let cost = Cost {
            allocs: ALLOCS.with(Cell::get) - allocs,
            peak: PEAK.with(Cell::get) - base,
            time,
        };
        best = Some(match best {
            Some(b) if b.time <= cost.time => b,
            _ => cost,
        });
    }
    best.unwrap()
}

/// How much faster than the input allocations and peak heap may grow.
const SLACK: f64 = 3.0;
/// How much faster than the input time may grow: clocks are noisy, but a quadratic path grows
/// ten times the input, twice this.
const TIME_SLACK: f64 = 5.0;
/// Cases run one at a time, so that their clocks do not measure each other.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
/// Below this, times are too small to compare reliably.
const MIN_TIME: Duration = Duration::from_millis(5);
/// The most heap a case may hold at once, in bytes per byte of input (plus 16 MB).
const HEAP_PER_INPUT_BYTE: i64 = 80;

/// Run `run` on `make(n)` and `make(10 n)` and check that every cost grows in proportion.
fn assert_linear(what: &str, n: usize, make: &dyn Fn(usize) -> String, run: &dyn Fn(&str)) {
    let _serial = SERIAL.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let (small, large) = (make(n), make(10 * n));
    let input = large.len() as f64 / small.len() as f64;
    let (a, b) = (measure(&|| run(&small), 3), measure(&|| run(&large), 2));
    let ratio = |x: f64, y: f64| y / x.max(1.0);
    let allocs = ratio(a.allocs as f64, b.allocs as f64);
    let peak = ratio(a.peak as f64, b.peak as f64);
    let time = b.time.as_secs_f64() / a.time.as_secs_f64().max(1e-9);
    eprintln!(
        "{what}: input x{input:.1} ({} -> {} bytes): allocations x{allocs:.1} ({} -> {}), peak heap x{peak:.1} ({} -> {} bytes), time x{time:.1} ({:?} -> {:?})",
        small.len(),
        large.len(),
        a.allocs,
        b.allocs,
        a.peak,
        b.peak,
        a.time,
        b.time
    );
    let limit = input * SLACK;
    assert!(
        allocs <= limit,
        "{what}: allocations grew x{allocs:.1} for input x{input:.1}"
    );
    assert!(
        peak <= limit || b.peak < 1 << 20,
        "{what}: peak heap grew x{peak:.1} for input x{input:.1}"
    );
    if a.time >= MIN_TIME {
        assert!(
            time <= input * TIME_SLACK,
            "{what}: time grew x{time:.1} for input x{input:.1}"
        );
    }
    let bound = HEAP_PER_INPUT_BYTE * large.len() as i64 + (16 << 20);
    assert!(
        b.peak <= bound,
        "{what}: peak heap {} bytes for a {}-byte input",
        b.peak,
        large.len()
    );
}

fn agent() -> FileKind {
    FileKind::Agent { name: "x".into() }
}

fn analyze_agent(text: &str) {
    std::hint::black_box(analyze(&agent(), text));
}

fn analyze_config(text: &str) {
    std::hint::black_box(analyze(&FileKind::Config, text));
}

/// A project with this `opencode.json` and one Markdown agent, loaded and checked.
fn check_project(config: &str) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("opencode.json"), config).unwrap();
    std::fs::create_dir_all(dir.path().join(".opencode/agents")).unwrap();
    std::fs::write(
        dir.path().join(".opencode/agents/x.md"),
        "---\nmode: primary\n---\nBody\n",
    )
    .unwrap();
    let ws = Workspace::load(&[dir.path().to_path_buf()], &Options::isolated()).unwrap();
    std::hint::black_box(ws.diagnostics());
}

/// Regression: every alias counted the size of its target before checking the budget, so N
/// aliases to an anchor of N nodes cost N² steps (N = 100k took 24 s in release).
#[test]
fn aliases_to_a_large_anchor() {
    let make = |n: usize| {
        format!(
            "---\na: &a [{}]\nb: [{}]\n---\nBody\n",
            vec!["1"; n].join(","),
            vec!["*a"; n].join(",")
        )
    };
    assert_linear("aliases to a large anchor", 5_000, &make, &analyze_agent);
}

/// Regression: `merge_keys` checked each merged entry against every own entry (80k of each took
/// 48 s in release).
#[test]
fn merge_key_with_many_entries() {
    let make = |n: usize| {
        let mut y = String::from("---\nx:\n  <<: {");
        y.push_str(&(0..n).map(|i| format!("m{i}: 1")).collect::<Vec<_>>().join(", "));
        y.push_str("}\n");
        for i in 0..n {
            y.push_str(&format!("  k{i}: 1\n"));
        }
        y.push_str("---\nBody\n");
        y
    };
    assert_linear("merge key with many entries", 4_000, &make, &analyze_agent);
}

/// Regression: `glob_includes` allocated a (len × len) table for two patterns (two 40k-char
/// patterns took 1.5 GB).
#[test]
fn long_permission_patterns() {
    let under_bash = |n: usize| {
        let long = "a".repeat(n);
        format!("{{\"permission\": {{\"bash\": {{\"{long}\": \"allow\", \"{long}*\": \"deny\"}}}}}}")
    };
    assert_linear("two long bash patterns", 4_000, &under_bash, &analyze_config);
    let as_keys = |n: usize| {
        let long = "a".repeat(n);
        format!("{{\"permission\": {{\"{long}\": \"allow\", \"{long}*\": \"deny\"}}}}")
    };
    assert_linear("two long permission keys", 4_000, &as_keys, &analyze_config);
}

/// Regression: the shadowed-rule scan was cubic for long patterns that pass its cheap filters
/// (200 of them, a 140 kB config, took 16 s in release). `n` rules of `?a{500}?{n-i}a{i}`: no
/// later pattern covers an earlier one, yet every literal run of the later occurs in the earlier.
#[test]
fn long_patterns_that_pass_the_filters() {
    let make = |n: usize| {
        let rules = (0..n)
            .map(|i| {
                let pattern = format!("?{}{}{}", "a".repeat(500), "?".repeat(n - i), "a".repeat(i));
                format!("\"{pattern}\": \"{}\"", if i % 2 == 0 { "deny" } else { "allow" })
            })
            .collect::<Vec<_>>()
            .join(", ");
        format!("{{\"permission\": {{\"bash\": {{{rules}}}}}}}")
    };
    assert_linear("long patterns that pass the filters", 30, &make, &analyze_config);
}

/// Regression: `js_order` found each key among the keys seen so far (100k patterns took 22 s).
#[test]
fn many_permission_patterns() {
    let make = |n: usize| {
        let rules = (0..n)
            .map(|i| format!("\"c{i} *\": \"allow\""))
            .collect::<Vec<_>>()
            .join(", ");
        format!("{{\"permission\": {{\"bash\": {{{rules}}}}}}}")
    };
    assert_linear("many bash patterns", 5_000, &make, &analyze_config);
}

/// Regression: the registry looked each agent up by a linear search (100k agents took 72 s).
#[test]
fn many_agents_in_one_config() {
    let make = |n: usize| {
        let agents = (0..n).map(|i| format!("\"c{i}\": {{}}")).collect::<Vec<_>>().join(", ");
        format!("{{\"agent\": {{{agents}}}}}")
    };
    assert_linear("many agents in one config", 5_000, &make, &check_project);
}

/// Regression: cross-file diagnostics were de-duplicated against every one collected so far
/// (80k commands naming unknown agents took about 15 s in release).
#[test]
fn many_cross_file_diagnostics() {
    let make = |n: usize| {
        let commands = (0..n)
            .map(|i| format!("\"c{i}\":{{\"template\":\"t\",\"agent\":\"n{i}\"}}"))
            .collect::<Vec<_>>()
            .join(",");
        format!("{{\"command\":{{{commands}}}}}")
    };
    assert_linear("many cross-file diagnostics", 4_000, &make, &check_project);
}

/// Deep nesting is cut off at the depth limit: the cost follows the input, not the depth.
#[test]
fn deep_nesting() {
    assert_linear(
        "nested brackets in a config",
        10_000,
        &|n| "[".repeat(n),
        &analyze_config,
    );
    assert_linear(
        "nested flow maps in a frontmatter",
        10_000,
        &|n| format!("---\nx: {}\n---\nBody\n", "{a: ".repeat(n)),
        &analyze_agent,
    );
    assert_linear(
        "nested block sequences in a frontmatter",
        10_000,
        &|n| format!("---\n{}x\n---\nBody\n", "- ".repeat(n)),
        &analyze_agent,
    );
}

/// Big ordinary files: prompts, comment lines, long lists.
#[test]
fn big_ordinary_files() {
    assert_linear(
        "a long prompt",
        20_000,
        &|n| {
            format!(
                "---\nmode: subagent\n---\n{}",
                "Review the code. 审查代码 🚀\n".repeat(n)
            )
        },
        &analyze_agent,
    );
    assert_linear(
        "a long list under an unknown key",
        4_000,
        &|n| format!("---\nnotes:\n{}---\nBody\n", "  - an item # and a comment\n".repeat(n)),
        &analyze_agent,
    );
    assert_linear(
        "a config with many instructions",
        10_000,
        &|n| format!("{{\"instructions\": [{}\"x\"]}}", "\"docs/a.md\", ".repeat(n)),
        &analyze_config,
    );
}

/// A frontmatter of many unknown keys (each a warning with a "did you mean" search).
#[test]
fn many_unknown_keys_in_a_frontmatter() {
    assert_linear(
        "many unknown keys",
        1_000,
        &|n| {
            let keys: String = (0..n).map(|i| format!("key{i}: value {i}\n")).collect();
            format!("---\n{keys}---\nBody\n")
        },
        &analyze_agent,
    );
}

/// The body of a Claude Code command and of a skill it loads: placeholders, code spans and links
/// are found in time proportional to the body, however the brackets and backticks are arranged
/// (a line of unclosed `[`, backtick runs that never close, `$` everywhere).
#[test]
fn command_and_skill_bodies() {
    use agent_lsp::analysis::command::CommandKind;
    use agent_lsp::analysis::skill::SkillKind;
    use agent_lsp::analysis::{Dialect, FileKind, analyze};
    let make = |n: usize| {
        let mut body = String::from("---\ndescription: d\narguments: [file, mode]\n---\n");
        body.push_str(&"[".repeat(n));
        body.push('\n');
        for k in 1..=(n / 200).max(1) {
            body.push_str(&"`".repeat(k));
            body.push_str(" x ");
        }
        body.push('\n');
        body.push_str(&"`$1` $file $ARGUMENTS[2] \\$0 [a](b.md) ![c](<d e.md> \"t\") ".repeat(n / 10));
        body.push_str("\n```sh\n");
        body.push_str(&"echo $1 $mode\n".repeat(n / 10));
        body
    };
    let command = FileKind::Command(CommandKind {
        plugin: false,
        runtime: Dialect::Claude,
        name: "x".into(),
    });
    let skill = FileKind::Skill(SkillKind {
        folder: "x".into(),
        loaders: vec![Dialect::Claude, Dialect::Opencode],
        misplaced: None,
        family: Dialect::Claude,
        namespace: None,
    });
    assert_linear("a Claude Code command's body", 20_000, &make, &|t| {
        std::hint::black_box(analyze(&command, t));
    });
    assert_linear("a skill's body", 20_000, &make, &|t| {
        std::hint::black_box(analyze(&skill, t));
    });
}

/// A Copilot agent with long lists: tools that do not exist, handoffs and subagents naming no
/// agent, `#tool:` references in the body. Each list is read whole and judged up to a bound.
#[test]
fn long_copilot_lists() {
    use agent_lsp::analysis::copilot::{self, AgentForm};
    let kind = copilot::FileKind::Agent {
        name: "a".into(),
        form: AgentForm::AgentMd,
    };
    let make = |n: usize| {
        let tools: Vec<String> = (0..n).map(|i| format!("tool{i}")).collect();
        let handoffs: String = (0..n)
            .map(|i| format!("  - label: step {i}\n    agent: nobody{i}\n"))
            .collect();
        let refs: String = (0..n).map(|i| format!("#tool:tool{i} ")).collect();
        format!(
            "---\ndescription: d\ntools: [{}]\nagents: [{}]\nhandoffs:\n{handoffs}---\n{refs}\n",
            tools.join(", "),
            tools.join(", ")
        )
    };
    assert_linear("long Copilot lists", 300, &make, &|t| {
        std::hint::black_box(copilot::analyze(&kind, t));
    });
}

/// A folder of Copilot agents, each handing off to an agent that does not exist: every unknown
/// name would search every name for a "did you mean"; past a bound, the search is skipped.
#[test]
fn many_copilot_agents_naming_no_agent() {
    use agent_lsp::analysis::copilot::{self, AgentForm, project};
    let make = |n: usize| {
        (0..n)
            .map(|i| format!("---\ndescription: d\nhandoffs:\n  - label: go\n    agent: nobody{i}\n---\nBody\n\0"))
            .collect::<String>()
    };
    let run = |all: &str| {
        let files: Vec<(copilot::FileKind, copilot::CopilotFile)> = all
            .split_terminator('\0')
            .enumerate()
            .map(|(i, text)| {
                let kind = copilot::FileKind::Agent {
                    name: format!("agent{i}"),
                    form: AgentForm::AgentMd,
                };
                let facts = copilot::analyze(&kind, text).2;
                (kind, facts)
            })
            .collect();
        let view: Vec<project::ViewFile> = files
            .iter()
            .enumerate()
            .map(|(file, (kind, facts))| project::ViewFile { file, kind, facts })
            .collect();
        let found = project::check(&view);
        assert_eq!(found.len(), view.len(), "one unknown agent per file");
    };
    assert_linear("many Copilot agents naming no agent", 1_000, &make, &run);
}

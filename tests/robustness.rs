//! Robustness: no input makes the analysis panic, hang or blow up.
//!
//! Every case runs the public API (the pure core through `analyze`, the workspace layer through
//! `Workspace::load`, and where it matters the built binary) on hostile input: deep nesting,
//! alias bombs, huge files, invalid UTF-8, binary files, symlink loops, degenerate files and a few
//! thousand pseudo-random byte strings. For every diagnostic produced, its span (and the spans of
//! its related locations and suggestion) must lie within the text and on char boundaries, and must
//! convert to a line/column and back.
//!
//! Time is bounded by construction (inputs large enough that a quadratic or exponential path
//! would not finish); the only wall-clock assertion is a generous sanity bound on each case.

use std::fs;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use agent_lsp::analysis::opencode::{Analysis, FileKind, analyze};
use agent_lsp::analysis::{Code, Diagnostic, Effect, Encoding, LineIndex, Location, Severity, Span};
use agent_lsp::workspace::{MAX_FILE_SIZE, Options, Workspace};

mod fingerprint;

/// A generous bound on any single case, to turn a hang into a failure rather than a stuck CI.
const SANITY: Duration = Duration::from_secs(20);

fn agent() -> FileKind {
    FileKind::Agent { name: "x".into() }
}

fn all_kinds() -> [FileKind; 3] {
    [FileKind::Config, agent(), FileKind::Mode { name: "m".into() }]
}

/// A span must lie within the text and on char boundaries.
fn check_span(text: &str, span: Span, what: &str) {
    let (start, end) = (span.start as usize, span.end as usize);
    assert!(
        start <= end && end <= text.len(),
        "{what}: span {start}..{end} out of bounds (text is {} bytes)",
        text.len()
    );
    assert!(
        text.is_char_boundary(start) && text.is_char_boundary(end),
        "{what}: span {start}..{end} not on char boundaries"
    );
}

/// Every span of every diagnostic is valid, and converts to UTF-16 positions and back.
fn check_diagnostics(text: &str, diags: &[Diagnostic], what: &str) {
    let index = LineIndex::new(text);
    let mut spans = Vec::new();
    for d in diags {
        let what = format!("{what}: {:?} {:?}", d.code, d.message);
        check_span(text, d.span, &what);
        spans.push(d.span);
        for r in &d.related {
            if let Location::Here(s) = r.location {
                check_span(text, s, &format!("{what} (related)"));
                spans.push(s);
            }
        }
        if let Some(fix) = &d.fix {
            let mut edits: Vec<Span> = fix.edits.iter().map(|e| e.span).collect();
            for &e in &edits {
                check_span(text, e, &format!("{what} (fix {:?})", fix.title));
                spans.push(e);
            }
            edits.sort();
            for w in edits.windows(2) {
                assert!(
                    w[0].end <= w[1].start,
                    "{what}: fix {:?} has overlapping edits {:?}",
                    fix.title,
                    fix.edits
                );
            }
        }
    }
    for s in spans {
        for offset in [s.start as usize, s.end as usize] {
            for enc in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
                let pos = index.line_col(text, offset, enc);
                let back = index.offset(text, pos, enc);
                assert!(
                    back <= text.len() && text.is_char_boundary(back),
                    "{what}: {offset} -> {back}"
                );
                assert_eq!(
                    back,
                    round_trip_target(text, offset),
                    "{what}: {offset} -> {pos:?} -> {back} ({enc:?})"
                );
            }
        }
    }
}

/// Where a byte offset lands after a trip to a line and column and back: the offset itself,
/// except for the two documented moves (an offset between the CR and the LF of a CRLF pair goes
/// to the pair's start; offset 0 of a file with a BOM is column 0 of the first line, after the
/// BOM).
fn round_trip_target(text: &str, offset: usize) -> usize {
    let bytes = text.as_bytes();
    if offset == 0 && text.starts_with('\u{feff}') {
        3
    } else if offset > 0 && bytes[offset - 1] == b'\r' && bytes.get(offset) == Some(&b'\n') {
        offset - 1
    } else {
        offset
    }
}

/// Every char boundary of every input converts to a line and column and back to exactly the
/// same offset (up to the documented moves), in UTF-8, UTF-16 and UTF-32; and the line and
/// column are the ones counted by hand.
#[test]
fn every_offset_round_trips_exactly() {
    let inputs = [
        "",
        "a",
        "---\nmode: subagent\n---\nBody\n",
        "\u{feff}---\r\ndescription: 审查代码 🚀\r\nmode: main\r\n---\r\nBody\r\n",
        "lone\rcarriage\rreturns\r",
        "mixed\r\nbreaks\nand\rkinds\r\n\n\r",
        "emoji 🚀🚀 and 𝄞 (astral) and é (two bytes) and 中 (three)\n\tand a tab",
        "\u{feff}",
        "\u{feff}\r\n\u{feff}x",
        "no trailing newline 🚀",
    ];
    for text in inputs {
        let index = LineIndex::new(text);
        // By hand: line = line breaks before the offset (CRLF counts once, a lone CR is one);
        // column = code units since the line start (after the BOM on line 0). An offset between
        // CR and LF is the line's end, the CR's column (a column inside the line break is no
        // position at all); it converts back to the pair's start.
        let by_hand = |offset: usize, enc: Encoding| -> (u32, u32) {
            let inside_crlf =
                offset > 0 && text.as_bytes()[offset - 1] == b'\r' && text.as_bytes().get(offset) == Some(&b'\n');
            let target = if inside_crlf { offset - 1 } else { offset };
            let before = &text[..target];
            let mut line = 0u32;
            let mut start = 0usize;
            let b = before.as_bytes();
            let mut i = 0;
            while i < b.len() {
                if b[i] == b'\n' || (b[i] == b'\r' && text.as_bytes().get(i + 1) != Some(&b'\n')) {
                    line += 1;
                    start = i + 1;
                }
                i += 1;
            }
            let start = if line == 0 && text.starts_with('\u{feff}') {
                3
            } else {
                start
            };
            let seg = &text[start.min(target)..target];
            let col = match enc {
                Encoding::Utf8 => seg.len(),
                Encoding::Utf16 => seg.encode_utf16().count(),
                Encoding::Utf32 => seg.chars().count(),
            };
            (line, col as u32)
        };
        for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
            for enc in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
                let pos = index.line_col(text, offset, enc);
                assert_eq!(
                    (pos.line, pos.col),
                    by_hand(offset, enc),
                    "{text:?}: offset {offset} ({enc:?})"
                );
                let back = index.offset(text, pos, enc);
                assert_eq!(
                    back,
                    round_trip_target(text, offset),
                    "{text:?}: {offset} -> {pos:?} ({enc:?})"
                );
            }
        }
    }
}

/// `analyze` with all spans checked and the sanity time bound.
fn analyze_checked(kind: &FileKind, text: &str, what: &str) -> Analysis {
    let t = Instant::now();
    let a = analyze(kind, text);
    let elapsed = t.elapsed();
    assert!(elapsed < SANITY, "{what} ({kind:?}): analysis took {elapsed:?}");
    check_diagnostics(text, &a.diagnostics, &format!("{what} ({kind:?})"));
    for decl in &a.facts.agents {
        check_span(text, decl.span, &format!("{what} ({kind:?}): agent {:?}", decl.name));
    }
    for r in &a.facts.refs {
        check_span(text, r.span, &format!("{what} ({kind:?}): ref {:?}", r.name));
    }
    a
}

fn has_code(a: &Analysis, code: Code) -> bool {
    a.diagnostics.iter().any(|d| d.code == code)
}

fn load(dir: &Path) -> Workspace {
    let t = Instant::now();
    let ws = Workspace::load(&[dir.to_path_buf()], &Options::isolated()).expect("workspace loads");
    assert!(t.elapsed() < SANITY, "loading {} took {:?}", dir.display(), t.elapsed());
    ws
}

/// The workspace's diagnostics, with every span checked against its file's text.
fn ws_diagnostics(ws: &Workspace) -> Vec<(usize, Diagnostic)> {
    let t = Instant::now();
    let diags = ws.diagnostics();
    assert!(t.elapsed() < SANITY, "diagnostics took {:?}", t.elapsed());
    // One pass per file (each pass builds the file's line index).
    let mut by_file: Vec<Vec<Diagnostic>> = vec![Vec::new(); ws.files.len()];
    for (id, d) in &diags {
        by_file[*id].push(d.clone());
    }
    for (file, ds) in ws.files.iter().zip(&by_file) {
        if !ds.is_empty() {
            check_diagnostics(&file.text, ds, &file.path.display().to_string());
        }
    }
    for (_, d) in &diags {
        for r in &d.related {
            if let Location::File { file: other, span } = r.location {
                let f = &ws.files[other];
                check_span(
                    &f.text,
                    span,
                    &format!("{} (related in another file)", f.path.display()),
                );
            }
        }
    }
    diags
}

fn write(path: &Path, bytes: impl AsRef<[u8]>) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
}

/// A project with `opencode.json` and `.opencode/agents/x.md` holding the given bytes.
fn project(config: impl AsRef<[u8]>, agent_md: impl AsRef<[u8]>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("opencode.json"), config);
    write(&dir.path().join(".opencode/agents/x.md"), agent_md);
    dir
}

fn diags_of<'a>(ws: &Workspace, diags: &'a [(usize, Diagnostic)], file: &str) -> Vec<&'a Diagnostic> {
    diags
        .iter()
        .filter(|(id, _)| ws.files[*id].path.ends_with(file))
        .map(|(_, d)| d)
        .collect()
}

/// Run `agent-lsp check <dir> --no-global --format <format>` with a time limit; returns the exit
/// status and stdout. A crash (panic, signal) fails the test.
fn run_check(dir: &Path, format: &str) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_agent-lsp"))
        .arg("check")
        .arg(dir)
        .args(["--no-global", "--format", format])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn agent-lsp");
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        stdout.read_to_string(&mut s).map(|_| s)
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let deadline = Instant::now() + SANITY;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("agent-lsp check {} did not finish within {SANITY:?}", dir.display());
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let stdout = out.join().unwrap().expect("stdout is UTF-8");
    let stderr = err.join().unwrap();
    let code = status
        .code()
        .unwrap_or_else(|| panic!("agent-lsp killed by a signal: {stderr}"));
    assert!(
        matches!(code, 0..=2),
        "agent-lsp check {} exited with {code}: {stderr}",
        dir.display()
    );
    assert!(!stderr.contains("panicked"), "agent-lsp panicked: {stderr}");
    (code, stdout)
}

/// Both machine and human reports of a directory, the JSON one parsed.
fn run_check_all_formats(dir: &Path) -> serde_json::Value {
    let (code, json) = run_check(dir, "json");
    let report: serde_json::Value = serde_json::from_str(&json).expect("JSON report parses");
    assert!(report["diagnostics"].is_array(), "{report}");
    let (human_code, _) = run_check(dir, "human");
    let (github_code, _) = run_check(dir, "github");
    assert_eq!((human_code, github_code), (code, code));
    report
}

// ---------------------------------------------------------------------------------------------
// Deep nesting
// ---------------------------------------------------------------------------------------------

const DEEP: usize = 100_000;

#[test]
fn deeply_nested_brackets_in_config() {
    let open = "[".repeat(DEEP);
    let a = analyze_checked(&FileKind::Config, &open, "100k `[`");
    assert!(has_code(&a, Code::SyntaxError));

    let closed = format!("{open}{}", "]".repeat(DEEP));
    analyze_checked(&FileKind::Config, &closed, "100k `[` closed");

    let in_key = format!("{{\"agent\": {open}");
    analyze_checked(&FileKind::Config, &in_key, "100k `[` under a key");

    let objects = "{\"a\":".repeat(DEEP);
    let a = analyze_checked(&FileKind::Config, &objects, "100k `{\"a\":`");
    assert!(has_code(&a, Code::SyntaxError));

    let objects_closed = format!("{}1{}", objects, "}".repeat(DEEP));
    analyze_checked(&FileKind::Config, &objects_closed, "100k `{\"a\":` closed");

    // Nesting through known keys, so that the checks walk the (depth-limited) tree.
    let known = format!(
        "{{\"agent\": {{\"x\": {{\"permission\": {{\"bash\": {}",
        "{\"*\": ".repeat(DEEP)
    );
    analyze_checked(&FileKind::Config, &known, "100k nested permission maps");
}

#[test]
fn deeply_nested_flow_collections_in_frontmatter() {
    let brackets = "[".repeat(DEEP);
    for (what, yaml) in [
        ("100k `[`", format!("x: {brackets}\n")),
        ("100k `[` closed", format!("x: {brackets}{}\n", "]".repeat(DEEP))),
        ("100k `[` at the root", format!("{brackets}\n")),
        ("100k `{a: `", format!("x: {}\n", "{a: ".repeat(DEEP))),
        ("100k `{\"a\":`", format!("permission: {}\n", "{\"a\":".repeat(DEEP))),
    ] {
        for kind in [agent(), FileKind::Mode { name: "m".into() }] {
            let closed = format!("---\n{yaml}---\nBody\n");
            let a = analyze_checked(&kind, &closed, what);
            assert!(has_code(&a, Code::SyntaxError), "{what}: {:?}", a.diagnostics);
            let unclosed = format!("---\n{yaml}");
            analyze_checked(&kind, &unclosed, &format!("{what}, unclosed frontmatter"));
        }
    }
}

#[test]
fn deeply_nested_block_collections_in_frontmatter() {
    // `- - - - ... x`: 100k compact nested sequences.
    let dashes = format!("---\n{}x\n---\nBody\n", "- ".repeat(DEEP));
    analyze_checked(&agent(), &dashes, "100k `- `");
    let unclosed = format!("---\npermission:\n  bash: {}x\n", "- ".repeat(DEEP));
    analyze_checked(&agent(), &unclosed, "100k `- ` under a key, unclosed");

    // Block mappings indented one more space per level (valid YAML): quadratic in size, so
    // fewer levels, still far past the depth limit.
    let levels = 2_000;
    let mut yaml = String::from("---\n");
    for i in 0..levels {
        yaml.push_str(&" ".repeat(i));
        yaml.push_str("permission:\n");
    }
    yaml.push_str(&" ".repeat(levels));
    yaml.push_str("x: allow\n---\nBody\n");
    let a = analyze_checked(&agent(), &yaml, "2k nested block maps");
    assert!(has_code(&a, Code::SyntaxError), "the depth limit is reported");

    // The same through sequences of maps: `- a:\n  - a:\n ...`.
    let mut yaml = String::from("---\n");
    for i in 0..levels {
        yaml.push_str(&"  ".repeat(i));
        yaml.push_str("- a:\n");
    }
    analyze_checked(&agent(), &yaml, "2k nested sequences of maps, unclosed");
}

// ---------------------------------------------------------------------------------------------
// Alias bombs
// ---------------------------------------------------------------------------------------------

/// The classic billion laughs: `levels` anchors, each a list of nine aliases to the previous.
fn billion_laughs(levels: usize, flow: bool) -> String {
    let mut y = String::from("---\n");
    y.push_str("a0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for i in 1..levels {
        let p = i - 1;
        if flow {
            let items = vec![format!("*a{p}"); 9].join(",");
            y.push_str(&format!("a{i}: &a{i} [{items}]\n"));
        } else {
            y.push_str(&format!("a{i}: &a{i}\n"));
            for _ in 0..9 {
                y.push_str(&format!("  - *a{p}\n"));
            }
        }
    }
    y.push_str("---\nBody\n");
    y
}

#[test]
fn alias_bombs() {
    for levels in [9, 10] {
        for flow in [true, false] {
            let text = billion_laughs(levels, flow);
            let what = format!("billion laughs, {levels} levels, flow {flow}");
            let a = analyze_checked(&agent(), &text, &what);
            assert!(has_code(&a, Code::SyntaxError), "{what}: the bomb is reported");
        }
    }

    // Bombs in the places the checks read: permission maps, merge keys.
    let mut y = String::from("---\npermission:\n  bash: &b0\n    \"git *\": allow\n    \"rm *\": deny\n");
    for i in 1..10 {
        y.push_str(&format!("  p{i}: &b{i}\n"));
        for j in 0..9 {
            y.push_str(&format!("    k{j}: *b{}\n", i - 1));
        }
    }
    y.push_str("---\nBody\n");
    analyze_checked(&agent(), &y, "alias bomb of maps under permission");

    let mut y = String::from("---\nm0: &m0 {a: 1, b: 2, c: 3}\n");
    for i in 1..10 {
        let merges = (0..9).map(|_| format!("*m{}", i - 1)).collect::<Vec<_>>().join(", ");
        y.push_str(&format!("m{i}: &m{i} {{<<: [{merges}], k{i}: {i}}}\n"));
    }
    y.push_str("permission:\n  <<: *m9\n---\nBody\n");
    analyze_checked(&agent(), &y, "merge-key bomb");
}

// The scaling regressions (many aliases to a large anchor, merge keys with many entries, long
// permission patterns, many patterns, agents and cross-file diagnostics) are in
// `tests/hostile.rs`, checked as growth in allocations, heap and time between n and 10n.

// ---------------------------------------------------------------------------------------------
// Huge files
// ---------------------------------------------------------------------------------------------

const TEN_MB: usize = 10 * 1024 * 1024;

/// `head`, then `line` repeated until the text is at least 10 MB, then `tail`.
fn ten_mb(head: &str, line: &str, tail: &str) -> String {
    let n = TEN_MB / line.len() + 1;
    let mut s = String::with_capacity(head.len() + n * line.len() + tail.len());
    s.push_str(head);
    s.push_str(&line.repeat(n));
    s.push_str(tail);
    assert!(s.len() >= TEN_MB);
    s
}

fn huge_config() -> String {
    ten_mb(
        "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"instructions\": [\n",
        "    \"docs/some/instruction/file.md\",\n",
        "    \"last.md\"\n  ]\n}\n",
    )
}

fn huge_agent_body() -> String {
    ten_mb(
        "---\ndescription: Reviews code\nmode: subagent\n---\n",
        "You review code. Point out bugs, missing tests and unclear names. 审查代码 🚀\n",
        "",
    )
}

#[test]
fn ten_megabyte_files_in_the_core() {
    let t = Instant::now();
    analyze_checked(&FileKind::Config, &huge_config(), "10 MB config");
    analyze_checked(&agent(), &huge_agent_body(), "10 MB agent body");
    // A huge frontmatter: comments and a long list under an unknown key; unclosed, so that the
    // whole file is YAML.
    let fm = ten_mb(
        "---\ndescription: x\nnotes:\n",
        "  - an item of a long list # and a comment\n",
        "",
    );
    analyze_checked(&agent(), &fm, "10 MB frontmatter");
    // A 10 MB config that is one unterminated string on one line.
    let one_line = format!("{{\"description\": \"{}", "x".repeat(TEN_MB));
    analyze_checked(&FileKind::Config, &one_line, "10 MB unterminated string");
    assert!(t.elapsed() < SANITY * 2, "10 MB cases took {:?}", t.elapsed());
}

#[test]
fn ten_megabyte_files_on_disk_are_skipped() {
    let dir = project(huge_config(), huge_agent_body());
    let ws = load(dir.path());
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    // Each is in the workspace with no text and one `unchecked-file` finding.
    assert_eq!(ws.files.len(), 2);
    for f in &ws.files {
        assert!(f.text.is_empty(), "no file over {MAX_FILE_SIZE} bytes is analysed");
        let codes: Vec<Code> = f.analysis.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, [Code::UncheckedFile], "{}", f.path.display());
        assert!(
            f.analysis.diagnostics[0]
                .message
                .contains("over the 4 MiB agent-lsp reads"),
            "{:?}",
            f.analysis.diagnostics
        );
    }
    let diags = ws_diagnostics(&ws);
    assert_eq!(diags.len(), 2, "{diags:?}");
    let (code, _) = run_check(dir.path(), "json");
    assert_eq!(code, 0, "two warnings");
}

// ---------------------------------------------------------------------------------------------
// Bytes that are not text
// ---------------------------------------------------------------------------------------------

#[test]
fn invalid_utf8_on_disk() {
    let dir = project(
        b"{\"agent\": {\"x\": {\"description\": \"caf\xe9\"}}}\n".as_slice(),
        b"---\ndescription: \xff\xfe bad\nmode: subagent\n---\nBody \xc3\n".as_slice(),
    );
    let ws = load(dir.path());
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    let diags = ws_diagnostics(&ws);
    for file in ["opencode.json", "x.md"] {
        let d = diags_of(&ws, &diags, file);
        assert!(
            d.iter()
                .any(|d| d.code == Code::SyntaxError && d.message.contains("UTF-8")),
            "{file}: {d:?}"
        );
    }
    let report = run_check_all_formats(dir.path());
    assert_eq!(report["files"], 2);
}

#[test]
fn invalid_utf8_everywhere() {
    // Every byte value, in every position of a small file: read lossily like the workspace does.
    for b in 0x80..=0xffu8 {
        for template in ["---\nmode: @\n---\n@", "{\"@\": @}", "@---\n---\n", "---\n@"] {
            let bytes: Vec<u8> = template
                .bytes()
                .flat_map(|c| if c == b'@' { vec![b] } else { vec![c] })
                .collect();
            let text = String::from_utf8_lossy(&bytes);
            for kind in all_kinds() {
                analyze_checked(&kind, &text, &format!("byte {b:#x} in {template:?}"));
            }
        }
    }
}

#[test]
fn binary_files_are_skipped() {
    let mut binary = b"\x7fELF\x02\x01\x01\x00\x00\x00".to_vec();
    binary.extend((0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8));
    let dir = project(&binary, &binary);
    let ws = load(dir.path());
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    assert_eq!(ws.files.len(), 2);
    for f in &ws.files {
        let ds = &f.analysis.diagnostics;
        assert!(
            ds.len() == 1 && ds[0].code == Code::UncheckedFile && ds[0].message.contains("NUL bytes"),
            "{}: {ds:?}",
            f.path.display()
        );
    }
    run_check(dir.path(), "json");

    // NUL bytes in the core: valid UTF-8, so `analyze` must cope with them.
    let with_nul = "---\nmode: sub\0agent\n\0: x\n---\n\0Body\0";
    for kind in all_kinds() {
        analyze_checked(&kind, with_nul, "NUL bytes");
        analyze_checked(&kind, "{\"agent\": {\"\0\": {\"mode\": \"\0\"}}}", "NUL bytes in JSON");
        analyze_checked(&kind, &String::from_utf8_lossy(&binary), "lossy ELF");
    }
}

// ---------------------------------------------------------------------------------------------
// File-system shapes
// ---------------------------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn symlink_loops_terminate() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(&root.join("opencode.json"), "{\"default_agent\": \"x\"}\n");
    write(&root.join(".opencode/agents/x.md"), "---\nmode: primary\n---\nBody\n");
    // A directory symlink to its parent inside `agents/`, another to the project root, and one
    // to itself.
    symlink(root.join(".opencode/agents"), root.join(".opencode/agents/loop")).unwrap();
    symlink(root, root.join(".opencode/agents/root")).unwrap();
    symlink(root.join("self"), root.join("self")).unwrap();
    // Two directories pointing at each other.
    fs::create_dir_all(root.join("a")).unwrap();
    symlink(root.join("b"), root.join("a/b")).unwrap();
    symlink(root.join("a"), root.join("b")).unwrap();

    let ws = load(root);
    let names: Vec<&str> = ws
        .files
        .iter()
        .flat_map(|f| f.analysis.agents().iter().map(|a| a.name.as_str()))
        .collect();
    assert!(names.contains(&"x"), "{names:?}");
    assert!(
        ws.files.len() < 20,
        "each file is read a bounded number of times: {}",
        ws.files.len()
    );
    ws_diagnostics(&ws);
    run_check_all_formats(root);
}

#[test]
fn degenerate_files() {
    let cases: &[(&str, &str)] = &[
        ("empty", ""),
        ("only ---", "---"),
        ("only ---\\n", "---\n"),
        ("--- twice", "---\n---"),
        ("--- thrice", "---\n---\n---\n"),
        ("---\\r\\n", "---\r\n"),
        ("---\\r", "---\r"),
        ("CRLF only", "\r\n\r\n\r\n"),
        ("CR only", "\r\r\r"),
        ("LF only", "\n\n\n"),
        ("BOM only", "\u{feff}"),
        ("BOM twice", "\u{feff}\u{feff}"),
        ("BOM ---", "\u{feff}---"),
        ("BOM --- CRLF", "\u{feff}---\r\n---\r\n"),
        ("BOM CRLF", "\u{feff}\r\n"),
        ("whitespace", " \t \u{a0}\u{3000}"),
        ("one char", "a"),
        ("one emoji", "🚀"),
        ("lone CR inside frontmatter", "---\rmode: x\r---\rBody"),
        ("CR before ---", "---\nmode: x\r---\n"),
        ("---- four dashes", "----\n----\n"),
        ("--- with a language", "---yaml\nmode: primary\n---\n"),
        ("--- with text", "--- mode: x\n---"),
        ("frontmatter is a scalar", "---\nhello\n---\n"),
        ("frontmatter is a list", "---\n- a\n- b\n---\n"),
        ("frontmatter is ...", "---\n...\n---\n"),
        ("two documents", "---\na: 1\n---\n---\nb: 2\n---\n"),
        ("document markers", "---\n--- \n...\n---\n"),
        ("json braces", "{}"),
        ("json brackets", "[]"),
        ("json null", "null"),
        ("json string", "\"\""),
        ("json comment only", "// x"),
        ("json unterminated comment", "/*"),
        ("json lone quote", "\""),
        ("json lone backslash", "{\"\\"),
        ("json bad escape", "{\"\\u\": 1}"),
        ("json surrogate escape", "{\"\\ud800\": \"\\udfff\\u00\"}"),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (i, (what, text)) in cases.iter().enumerate() {
        for kind in all_kinds() {
            analyze_checked(&kind, text, what);
            // And with every line break style.
            analyze_checked(&kind, &text.replace('\n', "\r\n"), &format!("{what} (CRLF)"));
            analyze_checked(&kind, &text.replace('\n', "\r"), &format!("{what} (CR)"));
        }
        let project = dir.path().join(format!("p{i}"));
        write(&project.join("opencode.json"), text);
        write(&project.join(".opencode/agents/x.md"), text);
        write(&project.join(".opencode/modes/m.md"), text);
    }
    let ws = load(dir.path());
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    assert_eq!(ws.files.len(), cases.len() * 3);
    ws_diagnostics(&ws);
    run_check_all_formats(dir.path());
}

// ---------------------------------------------------------------------------------------------
// Pseudo-random input
// ---------------------------------------------------------------------------------------------

/// xorshift64*: deterministic and good enough to pick tokens.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Pieces of YAML, JSON, frontmatter and multibyte text, glued at random.
const TOKENS: &[&str] = &[
    "---\n",
    "---",
    "\n",
    "\r\n",
    "\r",
    " ",
    "  ",
    "\t",
    ":",
    ": ",
    "-",
    "- ",
    "?",
    "? ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "\"",
    "'",
    "\\",
    "\\u",
    "\\ud83d",
    "#",
    "//",
    "/*",
    "*/",
    "&a",
    "*a",
    "&b ",
    "*b",
    "<<: ",
    "!!str ",
    "!!int ",
    "!x ",
    "|",
    ">",
    "|-",
    ">+",
    "%YAML 1.2\n",
    "...",
    "@",
    "`",
    "mode",
    "mode: ",
    "subagent",
    "primary",
    "all",
    "permission",
    "permission:\n",
    "bash",
    "bash:\n",
    "\"*\"",
    "\"git *\"",
    "ask",
    "allow",
    "deny",
    "edit",
    "webfetch",
    "agent",
    "\"agent\": ",
    "{\"agent\": {",
    "default_agent",
    "\"default_agent\": \"x\"",
    "model",
    "anthropic/claude",
    "temperature",
    "0.7",
    "1e999",
    "-0",
    "0x1F",
    "017",
    "1:30",
    "~",
    "null",
    "true",
    "yes",
    "tools",
    "prompt",
    "description",
    "color",
    "#ff0000",
    "hidden",
    "disable",
    "steps",
    "maxSteps",
    "command",
    "template",
    "$schema",
    "name",
    "x",
    "é",
    "审查",
    "🚀",
    "\u{feff}",
    "\u{200b}",
    "\u{2028}",
    "\u{85}",
    "\0",
    "\u{fffd}",
    "𝕏",
    "ß",
];

fn random_text(rng: &mut Rng) -> String {
    let mut s = String::new();
    if rng.below(3) == 0 {
        s.push_str("---\n");
    }
    for _ in 0..rng.below(40) {
        match rng.below(10) {
            // An arbitrary scalar value (any char, including controls and surrogate neighbours).
            0 => {
                let c = char::from_u32(rng.below(0x11_0000) as u32).unwrap_or('\u{fffd}');
                s.push(c);
            }
            1 => s.push(char::from(rng.below(128) as u8)),
            _ => s.push_str(TOKENS[rng.below(TOKENS.len())]),
        }
    }
    s
}

/// Regression: `frontmatter::split` sliced inside the last character when the file starts with
/// `---`, has no line break and ends with a multibyte character.
#[test]
fn frontmatter_first_line_ending_in_a_multibyte_char() {
    for text in ["---é", "---🚀", "\u{feff}---x审", "---\u{85}"] {
        for kind in all_kinds() {
            analyze_checked(&kind, text, "first line ends in a multibyte char");
        }
    }
}

#[test]
fn random_garbage() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let kinds = all_kinds();
    let t = Instant::now();
    for i in 0..4_000 {
        let text = random_text(&mut rng);
        for kind in &kinds {
            analyze_checked(kind, &text, &format!("random #{i} {text:?}"));
        }
        // The same bytes split at a random point and read lossily (a truncated multibyte char).
        let bytes = text.as_bytes();
        let cut = rng.below(bytes.len() + 1);
        let lossy = String::from_utf8_lossy(&bytes[..cut]);
        analyze_checked(&kinds[i % 3], &lossy, &format!("random #{i} cut at {cut}"));
    }
    assert!(t.elapsed() < SANITY, "random inputs took {:?}", t.elapsed());
}

#[test]
fn random_garbage_in_a_workspace() {
    // A few random projects through the workspace layer and the binary: cross-file checks and
    // report rendering see the same garbage.
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let dir = tempfile::tempdir().unwrap();
    for p in 0..8 {
        let root = dir.path().join(format!("p{p}"));
        let mut config = random_text(&mut rng);
        if p % 2 == 0 {
            config = format!("{{\"default_agent\": \"a0\", \"agent\": {{\"a0\": {config}");
        }
        write(&root.join("opencode.json"), config);
        for a in 0..6 {
            write(&root.join(format!(".opencode/agents/a{a}.md")), random_text(&mut rng));
        }
        write(&root.join(".opencode/mode/m.md"), random_text(&mut rng));
    }
    let ws = load(dir.path());
    ws_diagnostics(&ws);
    run_check_all_formats(dir.path());
}

// ---------------------------------------------------------------------------------------------
// Fixes on pseudo-random agents and configs
// ---------------------------------------------------------------------------------------------

fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len())]
}

/// Keys of a `tools` map: `write`, `edit` and `patch` all become `edit`.
const TOOL_NAMES: &[&str] = &[
    "bash",
    "write",
    "edit",
    "patch",
    "webfetch",
    "\"mcp_*\"",
    "todowrite",
    "read",
];

/// A value for a frontmatter field, often wrong in the ways the rules (and their fixes) know.
fn yaml_field(rng: &mut Rng, indent: &str) -> String {
    let i = indent;
    match rng.below(24) {
        0 => format!(
            "description: {}",
            pick(
                rng,
                &[
                    "Reviews code",
                    "\"Quoted: desc\"",
                    "Use when: x",
                    "|\n  multi\n  line",
                    ">-\n  folded",
                    "''"
                ]
            )
        ),
        1 => format!(
            "mode: {}",
            pick(
                rng,
                &[
                    "subagent",
                    "primary",
                    "all",
                    "subagnet",
                    "Primary",
                    "\"primary\"",
                    "1",
                    "[primary]"
                ]
            )
        ),
        2 => format!(
            "model: {}",
            pick(rng, &["anthropic/claude-sonnet-4-5", "gpt-4", "\"openai/gpt-5\"", "x/"])
        ),
        3 => format!(
            "temperature: {}",
            pick(rng, &["0.2", "\"0.2\"", "'0.7'", "high", "2", "\" 1 \""])
        ),
        4 => format!("steps: {}", pick(rng, &["5", "\"5\"", "0", "-1", "'12'"])),
        5 => format!("maxSteps: {}", pick(rng, &["10", "\"10\"", "0"])),
        6 => format!(
            "color: {}",
            pick(
                rng,
                &["#ff0000", "\"#ff0000\"", "red", "primary", "\"#FFF\"", "#abc # c"]
            )
        ),
        7 => format!("hidden: {}", pick(rng, &["yes", "true", "\"true\"", "1"])),
        8 => format!("disable: {}", pick(rng, &["false", "no", "\"false\""])),
        9 => "prompt: You are terse.".into(),
        10 | 11 => {
            let entries: Vec<String> = (0..1 + rng.below(4))
                .map(|_| {
                    let k = pick(rng, TOOL_NAMES);
                    let v = pick(rng, &["true", "false", "yes", "\"false\""]);
                    format!("{k}: {v}")
                })
                .collect();
            if rng.below(3) == 0 {
                format!("tools: {{{}}}", entries.join(", "))
            } else {
                format!("tools:\n{i}{}", entries.join(&format!("\n{i}")))
            }
        }
        12 => format!("permissions:\n{i}edit: deny"),
        13..=18 => {
            let mut t = String::from("permission:");
            if rng.below(5) == 0 {
                t.push_str(" {edit: deny, bash: {\"*\": ask, \"git *\": allow}}");
                return t;
            }
            for _ in 0..1 + rng.below(5) {
                match rng.below(8) {
                    0 => t.push_str(&format!(
                        "\n{i}edit: {}",
                        pick(rng, &["allow", "deny", "alow", "Ask", "\"deny\""])
                    )),
                    1 => t.push_str(&format!("\n{i}write: deny")),
                    2 => t.push_str(&format!("\n{i}\"git status\": allow")),
                    3 => t.push_str(&format!(
                        "\n{i}{}: ask",
                        pick(rng, &["webfetch", "websearch", "patch", "todoread"])
                    )),
                    4 => t.push_str(&format!("\n{i}bash: {}", pick(rng, &["ask", "allow", "deny", "yes"]))),
                    _ => {
                        let perm = pick(rng, &["bash", "edit", "task", "read", "external_directory"]);
                        t.push_str(&format!("\n{i}{perm}:"));
                        for _ in 0..1 + rng.below(5) {
                            let pat = pick(
                                rng,
                                &[
                                    "\"*\"",
                                    "\"git *\"",
                                    "\"git diff*\"",
                                    "\"rm -rf *\"",
                                    "\"npm test\"",
                                    "'*.env'",
                                    "ls",
                                ],
                            );
                            let act = pick(rng, &["allow", "deny", "ask", "alow"]);
                            t.push_str(&format!("\n{i}{i}{pat}: {act}"));
                        }
                    }
                }
            }
            t
        }
        19 => format!("name: {}", pick(rng, &["reviewer", "\"\"", "team/x"])),
        20 => format!(
            "{}: x",
            pick(rng, &["descripton", "modle", "temprature", "hiden", "permision"])
        ),
        21 => format!("options:\n{i}foo: 1"),
        22 => "# a comment".into(),
        _ => String::new(),
    }
}

/// A frontmatter agent built from [`yaml_field`]s, in random order and style.
fn random_agent(rng: &mut Rng) -> String {
    let indent = pick(rng, &["  ", "    ", " "]);
    let mut s = String::from("---\n");
    for _ in 0..rng.below(8) {
        s.push_str(&yaml_field(rng, indent).replace("\n  ", &format!("\n{indent}")));
        s.push('\n');
    }
    s.push_str(pick(rng, &["---\n", "---\n\n", "---"]));
    s.push_str(pick(
        rng,
        &["You review code.\n", "", "   \n", "Body with --- inside\n"],
    ));
    s
}

/// A JSON value for an agent field, often wrong.
fn json_field(rng: &mut Rng) -> String {
    match rng.below(16) {
        0 => format!(
            "\"mode\": {}",
            pick(rng, &["\"subagent\"", "\"primary\"", "\"subagnet\"", "1"])
        ),
        1 => format!(
            "\"model\": {}",
            pick(rng, &["\"anthropic/claude-sonnet-4-5\"", "\"gpt-4\""])
        ),
        2 => format!("\"temperature\": {}", pick(rng, &["0.2", "\"0.2\"", "\"high\""])),
        3 => format!("\"steps\": {}", pick(rng, &["5", "\"5\"", "0"])),
        4 => "\"maxSteps\": 10".into(),
        5 => format!("\"color\": {}", pick(rng, &["\"#ff0000\"", "\"red\"", "\"#ff00\""])),
        6 => {
            let entries: Vec<String> = (0..1 + rng.below(4))
                .map(|_| {
                    let k = pick(rng, TOOL_NAMES).trim_matches('"');
                    format!("\"{k}\": {}", pick(rng, &["true", "false", "\"false\""]))
                })
                .collect();
            format!("\"tools\": {{{}}}", entries.join(", "))
        }
        7 => "\"permissions\": {\"edit\": \"deny\"}".into(),
        8..=11 => {
            let rules: Vec<String> = (0..1 + rng.below(4))
                .map(|_| {
                    let pat = pick(
                        rng,
                        &["\"*\"", "\"git *\"", "\"git diff*\"", "\"rm *\"", "\"npm test\""],
                    );
                    let act = pick(rng, &["\"allow\"", "\"deny\"", "\"ask\"", "\"alow\""]);
                    format!("{pat}: {act}")
                })
                .collect();
            let extra = pick(
                rng,
                &[
                    "",
                    ", \"write\": \"deny\"",
                    ", \"git status\": \"allow\"",
                    ", \"edit\": \"Ask\"",
                ],
            );
            format!("\"permission\": {{\"bash\": {{{}}}{extra}}}", rules.join(", "))
        }
        12 => "\"descripton\": \"x\"".into(),
        13 => "\"hidden\": \"true\"".into(),
        14 => "\"prompt\": \"{file:./p.md}\"".into(),
        _ => "\"description\": \"Reviews code\"".into(),
    }
}

/// An `opencode.json` with agents, modes, commands and top-level keys built from [`json_field`].
fn random_config(rng: &mut Rng) -> String {
    let sep = pick(rng, &[", ", ",\n  ", ",\n    // comment\n  "]);
    let agent = |rng: &mut Rng| -> String {
        let fields: Vec<String> = (0..rng.below(5)).map(|_| json_field(rng)).collect();
        format!("{{{}{}}}", fields.join(sep), pick(rng, &["", ","]))
    };
    let mut top = Vec::new();
    for _ in 0..1 + rng.below(5) {
        top.push(match rng.below(9) {
            0 => "\"$schema\": \"https://opencode.ai/config.json\"".to_string(),
            1 => format!("\"default_agent\": \"{}\"", pick(rng, &["a", "build", "nope", "b"])),
            2 => format!("\"mode\": {{\"m\": {}}}", agent(rng)),
            3 => "\"command\": {\"c\": {\"agent\": \"a\"}, \"d\": {\"template\": \"t\", \"agent\": \"zz\"}}".into(),
            4 => json_field(rng),
            5 => "\"plugin\": [\"p\"]".into(),
            6 => "\"agnet\": {}".into(),
            _ => format!("\"agent\": {{\"a\": {}, \"b\": {}}}", agent(rng), agent(rng)),
        });
    }
    format!("{{\n  {}{}\n}}\n", top.join(sep), pick(rng, &["", ","]))
}

/// Break a text a little: drop or duplicate a line, insert a token, or switch to CRLF.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    match rng.below(6) {
        0 if lines.len() > 1 => {
            lines.remove(rng.below(lines.len()));
        }
        1 => {
            let l = rng.below(lines.len());
            let dup = lines[l].clone();
            lines.insert(l, dup);
        }
        2 => {
            let l = rng.below(lines.len());
            let at = lines[l]
                .char_indices()
                .map(|(i, _)| i)
                .nth(rng.below(lines[l].len() + 1))
                .unwrap_or(lines[l].len());
            lines[l].insert_str(at, TOKENS[rng.below(TOKENS.len())]);
        }
        3 => return text.replace('\n', "\r\n"),
        _ => {}
    }
    lines.join("\n")
}

/// Regression: in JSON and YAML flow maps, the `tools` conversion moved each existing permission
/// entry (or dropped each key that collapses into `edit`) with a deletion that included the
/// separating comma, so the deletions of two adjacent entries overlapped and the safe fix gave
/// `{"permission": {"bash": "ask", "edit": "deny", "bash": "ask"}}`, or left `"patch": false`
/// under `permission` (found by the fuzzer).
#[test]
fn tools_fix_with_two_existing_permission_entries() {
    use agent_lsp::analysis::diagnostic::apply;
    for (kind, text) in [
        (
            FileKind::Config,
            r#"{"tools": {"bash": false, "write": true}, "permission": {"edit": "deny", "bash": "ask"}}"#,
        ),
        (
            agent(),
            "---\ntools: {bash: false, write: true}\npermission: {edit: deny, bash: ask}\n---\nx\n",
        ),
        (
            FileKind::Config,
            r#"{"tools": {"bash": true, "edit": false, "write": false, "patch": false}}"#,
        ),
        (
            agent(),
            "---\ntools: {edit: false, write: false, patch: false}\n---\nx\n",
        ),
    ] {
        let a = analyze(&kind, text);
        let fix = a
            .diagnostics
            .iter()
            .find_map(|d| d.fix.as_ref().filter(|f| f.title == "Convert `tools` to `permission`"));
        let fix = fix.expect("a tools fix");
        let mut spans: Vec<Span> = fix.edits.iter().map(|e| e.span).collect();
        spans.sort();
        assert!(spans.windows(2).all(|w| w[0].end <= w[1].start), "{:?}", fix.edits);
        let out = apply(text, &fix.edits);
        let after = analyze(&kind, &out);
        assert!(!has_code(&after, Code::DuplicateKey), "{out}");
        assert!(!has_code(&after, Code::UnknownPermission), "{out}");
    }
}

/// Regression (found by the fuzzer): the tools conversion inserted into the empty `permission`
/// object by replacing what lies between `{` and the object's last byte, assumed to be `}`
/// (`Doc::insert_into_empty`); in an unclosed object that ends in a multibyte character the edit
/// ended inside it, and applying the (safe) fix, as `check --fix` does, panicked in
/// `diagnostic::apply`.
#[test]
fn fix_into_an_unclosed_object_ending_in_a_multibyte_char() {
    use agent_lsp::analysis::opencode::fix_all;
    for text in [
        "{\"tools\": {\"q\": false}, \"permission\": {é",
        "{\"tools\": {\"q\": false}, \"permission\": {🚀",
        "{\"agent\": {\"a\": {\"tools\": {\"bash\": true}, \"permission\": {\u{fffd}",
    ] {
        analyze_checked(&FileKind::Config, text, "tools fix into an unclosed object");
        let (fixed, _) = fix_all(&FileKind::Config, text);
        analyze_checked(&FileKind::Config, &fixed, "after fix_all");
    }
}

/// Every fix of every diagnostic applies to a text that analyses without panicking; on a file
/// that parsed, it does not break the syntax, it removes its finding, it does not set a key
/// twice, and a safe fix keeps every effective agent as it was (field by field, rule by rule)
/// except for the value it repairs. `fix_all` never breaks the syntax, and a second `fix_all`
/// changes nothing.
#[test]
fn random_fixes() {
    use agent_lsp::analysis::diagnostic::apply;
    use agent_lsp::analysis::opencode::fix_all;
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut applied = 0;
    let mut safe_checked = 0;
    // (fix title and what went wrong, an example)
    let mut failures: Vec<(String, String)> = Vec::new();
    for i in 0..3_000 {
        let (kind, mut text) = match i % 3 {
            0 => (FileKind::Config, random_config(&mut rng)),
            1 => (agent(), random_agent(&mut rng)),
            _ => (FileKind::Mode { name: "m".into() }, random_agent(&mut rng)),
        };
        if rng.below(3) == 0 {
            text = mutate(&mut rng, &text);
        }
        let a = analyze_checked(&kind, &text, &format!("generated #{i} {text:?}"));
        let parsed = !has_code(&a, Code::SyntaxError);
        let no_duplicates = !has_code(&a, Code::DuplicateKey);
        // The same finding (code and message): a rule shadowed by several later rules is
        // reported again, naming the next one, once the last is moved.
        let same = |a: &Analysis, d: &Diagnostic| {
            a.diagnostics
                .iter()
                .filter(|e| e.code == d.code && e.message == d.message)
                .count()
        };
        for d in &a.diagnostics {
            let Some(fix) = &d.fix else { continue };
            let out = apply(&text, &fix.edits);
            applied += 1;
            let after = analyze_checked(&kind, &out, &format!("generated #{i} after {:?}", fix.title));
            let duplicated = no_duplicates && has_code(&after, Code::DuplicateKey);
            // What a safe fix may change: nothing, or the value it repairs (a quoted number, an
            // unquoted color), which opencode rejected before.
            let behaviour = if fix.safe && parsed && no_duplicates {
                safe_checked += 1;
                let diff = fingerprint::diff(&fingerprint::agents(&kind, &text), &fingerprint::agents(&kind, &out));
                // A repaired value of a `mode/` file makes opencode load the file it skipped.
                let loads = d.effect == Effect::FileIgnored;
                let repairs = d.severity == Severity::Error
                    && diff.iter().all(|c| {
                        [".color: ", ".steps: ", ".temperature: ", ".top_p: "]
                            .iter()
                            .any(|f| c.contains(f))
                            || (loads && c.ends_with(": added"))
                    });
                diff.is_empty() || repairs
            } else {
                true
            };
            let broke = if parsed && has_code(&after, Code::SyntaxError) {
                "broke the syntax"
            } else if duplicated {
                "set a key twice"
            } else if parsed && same(&after, d) >= same(&a, d) {
                "left the diagnostic"
            } else if !behaviour {
                "changed what opencode does"
            } else {
                continue;
            };
            let example = format!("{kind:?} {text:?}\n  --[{}]--> {out:?}\n  ({broke})", fix.title);
            failures.push((format!("{:?}: {broke}", fix.title), example));
        }
        let (fixed, titles) = fix_all(&kind, &text);
        let after = analyze_checked(&kind, &fixed, &format!("generated #{i} after fix_all"));
        if parsed && has_code(&after, Code::SyntaxError) {
            let example = format!("{kind:?} {text:?}\n  --[fix_all {titles:?}]--> {fixed:?}");
            failures.push(("fix_all: broke the syntax".into(), example));
        }
        let (again, more) = fix_all(&kind, &fixed);
        if again != fixed {
            let example =
                format!("{kind:?} {text:?}\n  --[fix_all {titles:?}]--> {fixed:?}\n  --[{more:?}]--> {again:?}");
            failures.push(("fix_all: not idempotent".into(), example));
        }
    }
    eprintln!("{applied} fixes applied, {safe_checked} safe ones checked against the effective agents");
    assert!(safe_checked > 300, "only {safe_checked} safe fixes were checked");
    let mut kinds: Vec<&str> = failures.iter().map(|(k, _)| k.as_str()).collect();
    kinds.sort();
    kinds.dedup();
    let summary: Vec<String> = kinds
        .iter()
        .map(|k| {
            let n = failures.iter().filter(|(f, _)| f == k).count();
            let example = &failures.iter().find(|(f, _)| f == k).unwrap().1;
            format!("{n} × {k}, e.g.\n{example}")
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} fixes failed:\n{}",
        failures.len(),
        summary.join("\n")
    );
}

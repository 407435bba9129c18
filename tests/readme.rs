//! The README's and the book's commands and outputs stay true (the book's pages are every
//! Markdown file under `book/src/`).
//!
//! - Every ```` ```console ```` block is a transcript: lines starting with `$ agent-lsp ` are run
//!   (the built binary, from the repository root, no colour, no user configuration) and must
//!   print exactly the lines that follow, up to the next `$` line or the block's end; `# exit N`
//!   right after the output states the exit status.
//! - Every `agent-lsp ...` command line in a ```` ```sh ```` block names a subcommand that exists
//!   and only options its `--help` lists.

use std::path::Path;
use std::process::Command;

const README: &str = include_str!("../README.md");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The README and every page of the book: (path from the repository root, text).
fn documents() -> Vec<(String, String)> {
    let mut out = vec![("README.md".to_string(), README.to_string())];
    let mut stack = vec![root().join("book/src")];
    let mut pages = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    for path in pages {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path.strip_prefix(root()).unwrap().display().to_string();
        out.push((name, text));
    }
    out
}

/// The fenced blocks of a Markdown text: (info string, body).
fn blocks(md: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut open: Option<(String, String, usize)> = None;
    for line in md.lines() {
        let trimmed = line.trim_start();
        let fence = trimmed.chars().take_while(|c| *c == '`').count();
        match &mut open {
            None if fence >= 3 => open = Some((trimmed[fence..].trim().to_string(), String::new(), fence)),
            Some((info, body, n)) if fence >= *n && trimmed[fence..].trim().is_empty() => {
                out.push((std::mem::take(info), std::mem::take(body)));
                open = None;
            }
            Some((_, body, _)) => {
                body.push_str(line);
                body.push('\n');
            }
            None => {}
        }
    }
    out
}

/// Split a command line into words: spaces separate, single and double quotes group.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                any = true;
            }
            (None, ' ') => {
                if any || !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            (None, c) => word.push(c),
        }
    }
    if any || !word.is_empty() {
        out.push(word);
    }
    out
}

fn run(args: &[String]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_agent-lsp"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .env("HOME", "/nonexistent/agent-lsp-readme-home")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("OPENCODE_CONFIG")
        .env_remove("OPENCODE_CONFIG_DIR")
        .output()
        .expect("run agent-lsp");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// The transcripts of one document that differ from what the binary prints; and how many it has.
fn check_transcripts(name: &str, md: &str, failures: &mut Vec<String>) -> usize {
    let mut checked = 0;
    for (info, body) in blocks(md) {
        if info != "console" {
            continue;
        }
        let lines: Vec<&str> = body.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            let Some(cmd) = lines[i].strip_prefix("$ ") else {
                i += 1;
                continue;
            };
            let mut expected = Vec::new();
            let mut status = None;
            i += 1;
            while i < lines.len() && !lines[i].starts_with("$ ") {
                match lines[i].strip_prefix("# exit ") {
                    Some(n) => status = n.trim().parse::<i32>().ok(),
                    None => expected.push(lines[i]),
                }
                i += 1;
            }
            let argv = words(cmd);
            assert_eq!(argv.first().map(String::as_str), Some("agent-lsp"), "{cmd}");
            let (code, stdout) = run(&argv[1..]);
            let got: Vec<&str> = stdout.lines().map(str::trim_end).collect();
            let want: Vec<&str> = expected.iter().map(|l| l.trim_end()).collect();
            if got != want {
                failures.push(format!(
                    "$ {cmd}\n--- {name}\n{}\n--- agent-lsp\n{}",
                    want.join("\n"),
                    got.join("\n")
                ));
            }
            if let Some(s) = status
                && s != code
            {
                failures.push(format!("$ {cmd}: exit {code}, {name} says {s}"));
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn console_transcripts_are_what_the_binary_prints() {
    let mut failures = Vec::new();
    let mut in_book = 0;
    for (name, text) in documents() {
        let n = check_transcripts(&name, &text, &mut failures);
        if name == "README.md" {
            assert!(n >= 3, "the README shows only {n} transcripts");
        } else {
            in_book += n;
        }
    }
    assert!(in_book >= 3, "the book shows only {in_book} transcripts");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Every `agent-lsp SUBCOMMAND ...` the README writes, in a code block (a synopsis, a shell or
/// workflow line) or in inline code: the words after `agent-lsp`, up to a shell operator.
fn commands_written(md: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut take = |text: &str| {
        let Some(at) = text.find("agent-lsp ") else { return };
        // `agent-lsp` as a word of its own (not `.agent-lsp.toml`, not a path).
        if at > 0 && !text[..at].ends_with([' ', '`', ':']) {
            return;
        }
        let rest = &text[at + "agent-lsp ".len()..];
        let end = rest.find(['>', '|', '`', ';']).unwrap_or(rest.len());
        out.push(rest[..end].trim().to_string());
    };
    for (info, body) in blocks(md) {
        if info == "console" {
            continue;
        }
        body.lines().for_each(&mut take);
    }
    // Inline code in the prose.
    let mut in_block = false;
    for line in md.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            continue;
        }
        for (k, span) in line.split('`').enumerate() {
            if k % 2 == 1 && span.starts_with("agent-lsp ") {
                take(span);
            }
        }
    }
    out
}

#[test]
fn commands_use_subcommands_and_options_that_exist() {
    let mut failures = Vec::new();
    let mut in_book = 0;
    for (name, text) in documents() {
        let n = check_commands(&name, &text, &mut failures);
        if name == "README.md" {
            assert!(n >= 10, "the README shows only {n} agent-lsp commands");
        } else {
            in_book += n;
        }
    }
    assert!(in_book >= 20, "the book shows only {in_book} agent-lsp commands");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The commands of one document that use a subcommand or option that does not exist; and how
/// many commands it has.
fn check_commands(name_of_doc: &str, md: &str, failures: &mut Vec<String>) -> usize {
    const SUBCOMMANDS: &[&str] = &["check", "explain", "serve", "rules", "mcp", "setup", "hook"];
    let mut checked = 0;
    for cmd in commands_written(md) {
        let argv: Vec<String> = words(&cmd)
            .into_iter()
            .map(|w| w.trim_matches(['[', ']']).to_string())
            .collect();
        let Some(sub) = argv.first().filter(|s| SUBCOMMANDS.contains(&s.as_str())) else {
            continue;
        };
        let (code, help) = run(&[sub.clone(), "--help".into()]);
        assert_eq!(code, 0, "agent-lsp {sub} --help");
        for opt in argv.iter().filter(|w| w.starts_with("--") && w.len() > 2) {
            let name = opt.split('=').next().unwrap_or(opt);
            let listed = help
                .lines()
                .any(|l| l.trim_start().split([' ', ',', '=']).any(|w| w == name));
            if !listed {
                failures.push(format!(
                    "{doc}: `agent-lsp {cmd}`: `agent-lsp {sub}` has no option {name}",
                    doc = name_of_doc
                ));
            }
        }
        checked += 1;
    }
    checked
}

#[test]
fn a_misspelt_option_is_caught() {
    let md = "Run `agent-lsp check --deny-warning`.\n\n```sh\nagent-lsp explain --matrx\n```\n";
    let cmds = commands_written(md);
    assert_eq!(cmds, ["explain --matrx", "check --deny-warning"]);
}

#[test]
fn the_two_commands_of_the_quick_start_are_what_ci_runs() {
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    for command in ["cargo run --release -- check test-workspace --no-global", "cargo test"] {
        assert!(
            README.contains(&format!("\n{command}\n")),
            "the README shows `{command}`"
        );
    }
    assert!(
        ci.lines().any(|l| l.trim() == "cargo test"),
        ".ci/run runs `cargo test`"
    );
    assert!(
        ci.contains("cargo run --release --quiet -- check test-workspace --no-global"),
        ".ci/run runs the README's main job"
    );
}

#[test]
fn words_split_like_a_shell_for_simple_lines() {
    assert_eq!(
        words(r#"agent-lsp explain reviewer --check bash "git push origin" --x='a b'"#),
        [
            "agent-lsp",
            "explain",
            "reviewer",
            "--check",
            "bash",
            "git push origin",
            "--x=a b"
        ]
    );
    assert_eq!(words("a  ''  b"), ["a", "", "b"]);
}

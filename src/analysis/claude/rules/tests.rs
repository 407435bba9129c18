use super::*;

/// `code at "spanned text": message [fix]` of each finding of a rule file.
fn diags(text: &str) -> Vec<String> {
    let reading = crate::analysis::claude::read::read(text);
    check(text, &reading)
        .iter()
        .map(|d| {
            let fix = d.fix.as_ref().map(|f| format!(" [{}]", f.title)).unwrap_or_default();
            format!("{} at {:?}: {}{fix}", d.code.as_str(), d.span.text(text), d.message)
        })
        .collect()
}

fn pats(text: &str) -> Vec<String> {
    patterns(&crate::analysis::claude::read::read(text))
        .into_iter()
        .map(|(p, _)| p)
        .collect()
}

#[test]
fn the_patterns_claude_code_takes() {
    assert_eq!(
        pats("---\npaths: [\"src/**/*.ts\", \"docs/**\"]\n---\nx\n"),
        ["src/**/*.ts", "docs"]
    );
    assert_eq!(
        pats("---\npaths: \"lib/*.py, src/{app,other}.ts\"\n---\nx\n"),
        ["lib/*.py", "src/app.ts", "src/other.ts"]
    );
    assert_eq!(pats("---\npaths: [42, \"a.ts\"]\n---\nx\n"), ["a.ts"]);
    // No pattern: loaded for every file.
    for none in [
        "x\n",
        "---\npaths: 42\n---\nx\n",
        "---\npaths: []\n---\nx\n",
        "---\npaths: \"\"\n---\nx\n",
        "---\npaths: [\"**\", \"**/**\"]\n---\nx\n",
        "---\nglobs: src/**\n---\nx\n",
    ] {
        assert!(pats(none).is_empty(), "{none}");
    }
}

#[test]
fn a_valid_rule_gets_nothing() {
    for ok in [
        "---\npaths: [\"src/**/*.ts\"]\n---\nUse strict types.\n",
        "---\npaths: src/**/*.ts, test/**\n---\nx\n",
        "---\npaths:\n  - \"**/*.md\"\n  - docs/**\n---\nx\n",
        "No frontmatter: loaded for every file, as meant.\n",
        "---\npaths: [\"**\"]\n---\nx\n",
    ] {
        assert_eq!(diags(ok), Vec::<String>::new(), "{ok}");
    }
}

#[test]
fn what_makes_a_rule_load_for_every_file_or_never() {
    assert_eq!(
        diags("---\nglobs: src/**/*.ts\n---\nx\n"),
        [
            "unknown-key at \"globs\": Claude Code reads only `paths` in a rule's frontmatter and ignores `globs`, so it loads this rule at the start of every session, for every file. Did you mean `paths`? [Rename `globs` to `paths`]"
        ]
    );
    // Beside `paths`: ignored, no rename.
    assert_eq!(
        diags("---\ndescription: x\npaths: [a.ts]\n---\nx\n"),
        [
            "unknown-key at \"description\": Claude Code reads only `paths` in a rule's frontmatter and ignores `description`"
        ]
    );
    assert_eq!(
        diags("---\npaths: 42\n---\nx\n"),
        [
            "invalid-type at \"42\": `paths` must be a list of glob patterns (or one string of them, separated by commas), not a number: Claude Code reads no pattern from it, and loads this rule at the start of every session, for every file"
        ]
    );
    assert_eq!(
        diags("---\npaths: []\n---\nx\n"),
        [
            "invalid-value at \"[]\": `paths` lists no pattern: Claude Code loads this rule at the start of every session, for every file"
        ]
    );
    assert_eq!(
        diags("---\npaths: [1, true]\n---\nx\n"),
        [
            "invalid-type at \"1\": a pattern of `paths` is a string, not a number: Claude Code leaves it out",
            "invalid-type at \"true\": a pattern of `paths` is a string, not a boolean: Claude Code leaves it out",
            "invalid-value at \"[1, true]\": no item of `paths` is a pattern: Claude Code loads this rule at the start of every session, for every file",
        ]
    );
    assert_eq!(
        diags("---\npaths: [\"./src/*.ts\", \"lib/**\"]\n---\nx\n"),
        [
            "invalid-value at \"./src/*.ts\": `./src/*.ts` matches no file: Claude Code matches a rule's paths from the project's folder, written without `./` [Remove the `./`]"
        ]
    );
    // An unclosed list: the retry reads it as one pattern.
    let d = diags("---\npaths: [\"src/**/*.ts\"\n---\nx\n");
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0].starts_with("lenient-parse at \"[\\\"src/**/*.ts\\\"\": this list is not valid YAML: Claude Code reads it, through its lenient retry, as the one pattern"), "{d:?}");
}

#[test]
fn completion_offers_paths_and_hover_says_what_it_does() {
    let labels = |text: &str| -> Vec<String> {
        let at = text.find('|').unwrap();
        complete(&text.replace('|', ""), at)
            .into_iter()
            .map(|i| i.label)
            .collect()
    };
    assert_eq!(labels("---\npa|\n---\nx\n"), ["paths"]);
    assert_eq!(labels("---\n|\n---\nx\n"), ["paths"]);
    // Written already, or a value: nothing.
    assert!(labels("---\npaths: [a]\n|\n---\nx\n").is_empty());
    assert!(labels("---\npaths: |\n---\nx\n").is_empty());
    let text = "---\npaths: [a.ts]\nglobs: b\n---\nx\n";
    let reading = crate::analysis::claude::read::read(text);
    let (md, span) = hover(&reading, text.find("paths").unwrap() + 1).unwrap();
    assert!(md.starts_with("**`paths`** (a rule of `.claude/rules/`)"), "{md}");
    assert_eq!(span.text(text), "paths");
    let (md, _) = hover(&reading, text.find("globs").unwrap()).unwrap();
    assert!(md.contains("ignores this key"), "{md}");
    assert!(hover(&reading, text.find("a.ts").unwrap()).is_none());
}

#[test]
fn patterns_split_at_commas_outside_braces_and_expanded() {
    assert_eq!(split("src/{a,b}.ts, lib/*.py"), ["src/a.ts", "src/b.ts", "lib/*.py"]);
    // A `}` before the `{`: kept as written.
    assert_eq!(split("x}y{z"), ["x}y{z"]);
    // Past a hundred patterns, the rest as written: of `{a0,...,a99}{x,y}`, the first two are
    // expanded before the count reaches a hundred; the other 98 stay as written.
    let alternatives: Vec<String> = (0..100).map(|i| format!("a{i}")).collect();
    let out = split(&format!("{{{}}}{{x,y}}", alternatives.join(",")));
    assert_eq!(out.len(), 102);
    assert_eq!(out[..4], ["a0x", "a0y", "a1x", "a1y"]);
    assert_eq!(out.iter().filter(|p| p.contains('{')).count(), 98);
}

#[test]
fn paths_that_give_no_pattern_say_why() {
    for (front, why) in [
        ("paths:", "`paths` is empty"),
        ("paths: \"  \"", "`paths` is empty"),
        ("paths: []", "`paths` lists no pattern"),
        ("paths: [1, true]", "no item of `paths` is a pattern"),
    ] {
        let got = diags(&format!("---\n{front}\n---\nx\n"));
        assert!(
            got.iter().any(|d| d.starts_with("invalid-value")
                && d.contains(&format!(
                    "{why}: Claude Code loads this rule at the start of every session, for every file"
                ))),
            "{front}: {got:#?}"
        );
    }
}

#[test]
fn a_dot_slash_inside_a_comma_separated_string_is_found_where_it_is() {
    let text = "---\npaths: \"lib/*.py,  ./src/*.ts, ./a/*.md\"\n---\nx\n";
    let got = diags(text);
    assert_eq!(
        got,
        [
            "invalid-value at \"./src/*.ts\": `./src/*.ts` matches no file: Claude Code matches a rule's paths from the project's folder, written without `./` [Remove the `./`]",
            "invalid-value at \"./a/*.md\": `./a/*.md` matches no file: Claude Code matches a rule's paths from the project's folder, written without `./` [Remove the `./`]",
        ]
    );
}

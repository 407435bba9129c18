use super::*;

/// The top-level mapping of a reading.
fn map(r: &Reading) -> &Map {
    r.parsed.root.as_ref().and_then(Node::as_map).expect("a mapping")
}

fn get<'a>(r: &'a Reading, key: &str) -> &'a Node {
    map(r).value(key).unwrap_or_else(|| panic!("no {key}"))
}

fn str_of<'a>(r: &'a Reading, key: &str) -> &'a str {
    get(r, key).as_str().unwrap_or_else(|| panic!("{key} is not a string"))
}

fn agent(yaml: &str) -> String {
    format!("---\n{yaml}---\nYou are an agent.\n")
}

/// Every span of a reading lies on char boundaries within the text.
fn check_spans(text: &str, r: &Reading) {
    let ok = |s: Span| {
        let (a, b) = (s.start as usize, s.end as usize);
        assert!(
            a <= b && b <= text.len() && text.is_char_boundary(a) && text.is_char_boundary(b),
            "{s:?} in {text:?}"
        );
    };
    fn walk(n: &Node, ok: &dyn Fn(Span)) {
        ok(n.span);
        match &n.value {
            Value::Seq(items) => items.iter().for_each(|i| walk(i, ok)),
            Value::Map(m) => m.entries.iter().for_each(|e| {
                ok(e.key.span);
                walk(&e.value, ok);
            }),
            _ => {}
        }
    }
    if let Some(b) = &r.block {
        [b.open, b.yaml, b.close, b.body].into_iter().for_each(ok);
    }
    if let Some(root) = &r.parsed.root {
        walk(root, &ok);
    }
    r.parsed
        .errors
        .iter()
        .chain(&r.first_errors)
        .chain(&r.retry_errors)
        .for_each(|e| ok(e.span));
    r.parsed.duplicates.iter().for_each(|d| {
        ok(d.first);
        ok(d.duplicate);
    });
    r.quoted.iter().copied().for_each(ok);
    r.lost_keys.iter().for_each(|(_, s)| ok(*s));
}

fn read_checked(text: &str) -> Reading {
    let r = read(text);
    check_spans(text, &r);
    r
}

// §7.1 / §7.2: finding the block.

#[test]
fn basic_block() {
    let text = "---\nname: a\ndescription: b\n---\nBody\n";
    let r = read_checked(text);
    assert_eq!(r.outcome, Outcome::FirstPass);
    let b = r.block.as_ref().unwrap();
    assert_eq!(b.open, Span::new(0, 3));
    assert_eq!(b.yaml.text(text), "name: a\ndescription: b\n");
    assert_eq!(b.close.text(text), "---");
    assert_eq!(b.body.text(text), "Body\n");
    assert!(!b.early);
    assert_eq!(str_of(&r, "name"), "a");
    assert_eq!(map(&r).get("name").unwrap().key.span.text(text), "name");
}

#[test]
fn one_bom_is_stripped_a_second_means_no_frontmatter() {
    let text = "\u{feff}---\nname: a\n---\n";
    let r = read_checked(text);
    assert!(r.bom);
    assert_eq!(r.block.as_ref().unwrap().open, Span::new(3, 6));
    assert_eq!(str_of(&r, "name"), "a");
    let r = read_checked("\u{feff}\u{feff}---\nname: a\n---\n");
    assert!(r.bom);
    assert_eq!(r.outcome, Outcome::NoFrontmatter);
    assert!(r.block.is_none());
}

#[test]
fn the_opening_must_be_the_first_thing() {
    for text in [
        "\n---\nname: a\n---\n",
        " ---\nname: a\n---\n",
        "# Title\n---\nname: a\n---\n",
        "---yaml\nname: a\n---\n",
        "----\nname: a\n---\n",
        "--- x\nname: a\n---\n",
        "---",
        "",
        "-",
    ] {
        let r = read_checked(text);
        assert_eq!(r.outcome, Outcome::NoFrontmatter, "{text:?}");
        assert!(r.parsed.root.is_none());
    }
    // Spaces or tabs may follow the opening hyphens; CRLF is a line break.
    for text in [
        "--- \t\nname: a\n---\n",
        "---\r\nname: a\r\n---\r\n",
        "---  \r\nname: a\n---\n",
    ] {
        let r = read_checked(text);
        assert_eq!(r.outcome, Outcome::FirstPass, "{text:?}");
        assert_eq!(str_of(&r, "name"), "a");
    }
}

#[test]
fn no_later_hyphens_means_no_frontmatter() {
    let r = read_checked("---\nname: a\ndescription: b\n\nBody - - text\n");
    assert_eq!(r.outcome, Outcome::NoFrontmatter);
    assert!(r.block.is_none());
}

#[test]
fn hyphens_mid_line_close_the_block() {
    let text = "---\nname: a\ndescription: Use this --- when needed\nmodel: sonnet\ntools: Read\n---\nBody\n";
    let r = read_checked(text);
    assert_eq!(r.outcome, Outcome::FirstPass);
    let b = r.block.as_ref().unwrap();
    assert!(b.early);
    assert_eq!(
        b.body.text(text),
        "when needed\nmodel: sonnet\ntools: Read\n---\nBody\n"
    );
    assert_eq!(str_of(&r, "description"), "Use this");
    assert!(!map(&r).contains("model"));
    let lost: Vec<(&str, &str)> = r.lost_keys.iter().map(|(k, s)| (k.as_str(), s.text(text))).collect();
    assert_eq!(lost, [("model", "model"), ("tools", "tools")]);
}

#[test]
fn lost_keys_run_to_the_end_without_a_closing_line() {
    let text = "---\nname: a\ndescription: x --- y\nmodel: sonnet\n# not: a key\n  indented: no\nNote: prose\n";
    let r = read_checked(text);
    let lost: Vec<&str> = r.lost_keys.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(lost, ["model", "Note"]);
    // Not early: nothing is lost.
    let r = read_checked("---\nname: a\n---\nmodel: sonnet\n");
    assert!(!r.block.unwrap().early);
    assert!(r.lost_keys.is_empty());
}

#[test]
fn hyphens_inside_quotes_cut_the_string_open() {
    let r = read_checked(&agent("name: a\ndescription: \"a---b\"\n"));
    assert_eq!(r.outcome, Outcome::Failed);
    assert!(r.block.as_ref().unwrap().early);
    assert!(!r.first_errors.is_empty());
    assert!(!r.retry_errors.is_empty());
}

#[test]
fn a_comment_with_hyphens_closes_the_block() {
    let text = "---\nname: a\n# ---- section ----\ndescription: b\n---\nBody\n";
    let r = read_checked(text);
    let b = r.block.as_ref().unwrap();
    assert!(b.early);
    assert_eq!(b.yaml.text(text), "name: a\n# ");
    assert_eq!(b.close, Span::new(14, 17));
    assert_eq!(b.body.text(text), "- section ----\ndescription: b\n---\nBody\n");
    assert_eq!(r.outcome, Outcome::FirstPass);
    assert!(!map(&r).contains("description"));
    assert_eq!(
        r.lost_keys.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
        ["description"]
    );
}

#[test]
fn four_hyphens_and_trailing_text() {
    let text = "---\nname: a\n----\nBody\n";
    let r = read_checked(text);
    let b = r.block.as_ref().unwrap();
    assert!(b.early);
    assert_eq!(b.body.text(text), "-\nBody\n");
    let text = "---\nname: a\n--- trailing\nBody\n";
    let r = read_checked(text);
    let b = r.block.as_ref().unwrap();
    assert!(b.early);
    assert_eq!(b.body.text(text), "trailing\nBody\n");
    // Spaces and tabs then the line break are removed; only one line break.
    let text = "---\nname: a\n--- \t\r\n\nBody\n";
    let r = read_checked(text);
    let b = r.block.as_ref().unwrap();
    assert!(!b.early);
    assert_eq!(b.body.text(text), "\nBody\n");
    // A close at the end of the file.
    let text = "---\nname: a\n---";
    let r = read_checked(text);
    let b = r.block.as_ref().unwrap();
    assert!(!b.early);
    assert!(b.body.is_empty());
    assert_eq!(str_of(&r, "name"), "a");
}

#[test]
fn indented_hyphens_close_the_block() {
    let text = "---\nname: a\ntools:\n  ---\nmodel: x\n---\nBody\n";
    let r = read_checked(text);
    let b = r.block.as_ref().unwrap();
    assert!(b.early);
    assert_eq!(b.close.start, 21);
    assert_eq!(b.yaml.text(text), "name: a\ntools:\n  ");
    assert_eq!(r.outcome, Outcome::FirstPass);
    assert_eq!(get(&r, "tools").value, Value::Null);
    assert_eq!(
        r.lost_keys.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
        ["model"]
    );
}

#[test]
fn empty_and_comment_only_blocks_are_an_empty_mapping() {
    for (text, yaml) in [
        ("---\n---\nBody", ""),
        ("---\n# only a comment\n\n---\n", "# only a comment\n\n"),
    ] {
        let r = read_checked(text);
        assert_eq!(r.outcome, Outcome::FirstPass, "{text:?}");
        let root = r.parsed.root.as_ref().unwrap();
        assert!(root.as_map().unwrap().entries.is_empty());
        assert_eq!(root.span.text(text), yaml);
    }
}

#[test]
fn a_list_or_a_scalar_is_not_a_mapping() {
    for yaml in [
        "- a\n- b\n",
        "just text\n",
        "~\n",
        "42\n",
        "[a, b]\n",
        "a: 1\n...\nb: 2\n",
    ] {
        let r = read_checked(&agent(yaml));
        assert_eq!(r.outcome, Outcome::NotMapping, "{yaml:?}");
        assert!(r.first_errors.is_empty());
        assert!(r.parsed.root.as_ref().unwrap().as_map().is_none());
    }
}

// §7.3 first pass.

#[test]
fn first_pass_uses_yaml_1_2_core_typing() {
    let r = read_checked(&agent(
        "name: a\ndescription: b\nw: yes\nx: no\ny: on\nz: off\nd: 2024-01-01\nt: true\nT: True\nF: FALSE\ne:\ntilde: ~\nn: null\ni: 42\no: 0o17\nf: 2.5\ninf: .inf\n",
    ));
    assert_eq!(r.outcome, Outcome::FirstPass);
    for k in ["w", "x", "y", "z"] {
        assert!(get(&r, k).as_str().is_some(), "{k}");
    }
    assert_eq!(str_of(&r, "d"), "2024-01-01");
    assert_eq!(get(&r, "t").as_bool(), Some(true));
    assert_eq!(get(&r, "T").as_bool(), Some(true));
    assert_eq!(get(&r, "F").as_bool(), Some(false));
    for k in ["e", "tilde", "n"] {
        assert_eq!(get(&r, k).value, Value::Null, "{k}");
    }
    assert_eq!(get(&r, "i").value, Value::Int(42));
    assert_eq!(get(&r, "o").value, Value::Int(15));
    assert_eq!(get(&r, "f").value, Value::Float(2.5));
    assert_eq!(get(&r, "inf").value, Value::Float(f64::INFINITY));
}

#[test]
fn duplicate_keys_last_wins() {
    let text = agent("name: a\nname: b\ndescription: c\n");
    let r = read_checked(&text);
    assert_eq!(r.outcome, Outcome::FirstPass);
    assert_eq!(str_of(&r, "name"), "b");
    assert!(r.parsed.errors.is_empty());
    assert_eq!(r.parsed.duplicates.len(), 1);
    assert_eq!(r.parsed.duplicates[0].duplicate.text(&text), "name");
}

#[test]
fn tab_indentation_fails_but_a_tab_after_the_colon_is_fine() {
    let r = read_checked(&agent("name: a\ndescription:\tb\tc\nmodel: \tsonnet\n"));
    assert_eq!(r.outcome, Outcome::FirstPass);
    assert_eq!(str_of(&r, "description"), "b\tc");
    assert_eq!(str_of(&r, "model"), "sonnet");
    let r = read_checked(&agent("name: a\ndescription: b\nhooks:\n\tStop: x\n"));
    assert!(!r.first_errors.is_empty());
}

#[test]
fn comments_shorten_plain_values() {
    let r = read_checked(&agent(
        "name: a\ndescription: Handles C# and F# code #1 priority\ncolor: #FF5733\nmodel: sonnet # fast one\n",
    ));
    assert_eq!(r.outcome, Outcome::FirstPass);
    assert_eq!(str_of(&r, "description"), "Handles C# and F# code");
    assert_eq!(get(&r, "color").value, Value::Null);
    assert_eq!(str_of(&r, "model"), "sonnet");
}

#[test]
fn an_unknown_tag_is_dropped() {
    let text = agent("name: a\ndescription: !important note\nx: !!str 42\ny: !!int \"7\"\n");
    let r = read_checked(&text);
    assert_eq!(r.outcome, Outcome::FirstPass);
    assert_eq!(str_of(&r, "description"), "note");
    assert_eq!(str_of(&r, "x"), "42");
    assert_eq!(get(&r, "y").value, Value::Int(7));
}

#[test]
fn anchors_and_aliases_resolve() {
    let r = read_checked(&agent(
        "name: &n a\ndescription: *n\ntools: &t [Read, Grep]\nskills: *t\n",
    ));
    assert_eq!(r.outcome, Outcome::FirstPass);
    assert_eq!(str_of(&r, "description"), "a");
    assert_eq!(get(&r, "skills").to_json(), serde_json::json!(["Read", "Grep"]));
}

#[test]
fn three_hundred_nested_brackets_parse() {
    // Bun parses them on the first pass; the tree is cut at the depth limit (an unknown value
    // deep inside), which is no error.
    let yaml = format!("name: a\ndescription: b\nx: {}{}\n", "[".repeat(300), "]".repeat(300));
    let r = read_checked(&agent(&yaml));
    assert_eq!(r.outcome, Outcome::FirstPass);
    assert_eq!(str_of(&r, "name"), "a");
    assert!(matches!(get(&r, "x").value, Value::Seq(_)));
}

#[test]
fn what_fails_the_first_pass() {
    for value in [
        "It's a test: really",
        "Use it. Examples:",
        "@mention",
        "`code` span",
        "%TEMP%",
        "*bold* text",
        "- item",
        "? what",
        "{x} text",
        "[x] text",
        "\"a\" b \"c\"",
    ] {
        let r = read_checked(&agent(&format!("name: a\ndescription: {value}\n")));
        assert!(!r.first_errors.is_empty(), "{value:?}");
    }
    let r = read_checked(&agent("name:foo\ndescription: b\n"));
    assert!(!r.first_errors.is_empty());
}

// §7.3 the retry.

#[test]
fn retry_rescues_indicators_in_one_line_values() {
    for value in [
        "Use this agent when … Examples: <example>Context: the user asks …</example>",
        "Examples:\\n\\n<example>\\nContext: x\\nuser: \"hi\"\\n</example>",
        "*bold* text",
        "@mention",
        "`code` span",
        "%TEMP%",
        "{x} text",
        "It's a test: really",
        "\"Quoted\" then: more",
    ] {
        let text = agent(&format!("name: a\ndescription: {value}\n"));
        let r = read_checked(&text);
        assert_eq!(r.outcome, Outcome::Retry, "{value:?}");
        assert!(!r.first_errors.is_empty());
        let d = get(&r, "description");
        assert_eq!(d.as_str(), Some(value), "{value:?}");
        // The span is the value as written.
        assert_eq!(d.span.text(&text), value);
        assert_eq!(r.quoted.len(), 1);
        assert_eq!(r.quoted[0].text(&text), value);
    }
}

#[test]
fn retry_keeps_backslash_n_sequences() {
    let text = agent("name: a\ndescription: Use it: one\\ntwo \"q\" \\\\ end\n");
    let r = read_checked(&text);
    assert_eq!(r.outcome, Outcome::Retry);
    let d = get(&r, "description");
    assert_eq!(d.as_str(), Some("Use it: one\\ntwo \"q\" \\\\ end"));
    assert_eq!(d.span.text(&text), "Use it: one\\ntwo \"q\" \\\\ end");
}

#[test]
fn retry_quotes_other_keys_too() {
    let text = agent("name: a\ndescription: b\nNotes: a: b\n");
    let r = read_checked(&text);
    assert_eq!(r.outcome, Outcome::Retry);
    assert_eq!(str_of(&r, "Notes"), "a: b");
    let e = map(&r).get("Notes").unwrap();
    assert_eq!(e.key.span.text(&text), "Notes");
    assert_eq!(e.value.span.text(&text), "a: b");
}

#[test]
fn retry_side_effects_on_comments_and_brackets() {
    let text = agent("name: a\ndescription: x: y\nmodel: sonnet # fast one\ncolor: #FF5733\ntools: [Read, Grep\n");
    let r = read_checked(&text);
    assert_eq!(r.outcome, Outcome::Retry);
    assert_eq!(str_of(&r, "model"), "sonnet # fast one");
    assert_eq!(str_of(&r, "color"), "#FF5733");
    assert_eq!(str_of(&r, "tools"), "[Read, Grep");
    let quoted: Vec<&str> = r.quoted.iter().map(|s| s.text(&text)).collect();
    assert_eq!(quoted, ["x: y", "sonnet # fast one", "#FF5733", "[Read, Grep"]);
    // A list that parses and quoted values are left alone.
    let r = read_checked(&agent(
        "name: a\ndescription: x: y\ntools: [Read, Grep]\nmodel: \"a: b\"\ncolor: 'c # d'\n",
    ));
    assert_eq!(r.outcome, Outcome::Retry);
    assert_eq!(get(&r, "tools").to_json(), serde_json::json!(["Read", "Grep"]));
    assert_eq!(str_of(&r, "model"), "a: b");
    assert_eq!(str_of(&r, "color"), "c # d");
    assert_eq!(r.quoted.len(), 1);
}

#[test]
fn retry_turns_leading_tabs_into_spaces() {
    for nl in ["\n", "\r\n"] {
        let text = format!("---{nl}name: a{nl}description: b{nl}tools:{nl}\t- Read{nl}\t- Grep{nl}---{nl}Body");
        let r = read_checked(&text);
        assert_eq!(r.outcome, Outcome::Retry, "{nl:?}");
        assert_eq!(get(&r, "tools").to_json(), serde_json::json!(["Read", "Grep"]));
        let tools = get(&r, "tools").to_owned();
        let Value::Seq(items) = &tools.value else { panic!() };
        assert_eq!(items[0].span.text(&text), "Read");
        assert_eq!(items[1].span.text(&text), "Grep");
        assert!(r.quoted.is_empty());
    }
}

#[test]
fn crlf_lines_are_not_rescued() {
    let text = "---\r\nname: a\r\ndescription: Use it: now\r\n---\r\nBody\r\n";
    let r = read_checked(text);
    assert_eq!(r.outcome, Outcome::Failed);
    assert!(r.quoted.is_empty());
    assert!(!r.retry_errors.is_empty());
    // The same with LF loads.
    let r = read_checked(&text.replace("\r\n", "\n"));
    assert_eq!(r.outcome, Outcome::Retry);
}

#[test]
fn what_the_retry_does_not_rescue() {
    for yaml in [
        // A multi-line plain description with `: ` or a trailing `:` on some line.
        "name: a\ndescription: first line\n  second: line\n",
        "name: a\ndescription: first line\n  Examples:\n",
        // Continuation lines at column 0 that are not `key: value`.
        "name: a\ndescription: Use it: x\n<example>\nhi\n</example>\n",
        "name: a\ndescription: b\nx2: a: b\n",
        "name: a\ndescription: b\nx.y: a: b\n",
        "name: a\ndescription: b\nhooks:\n  note: a: b\n",
        "name: a\ndescription: \"a\" b \"c\"\n",
        "name: a\ndescription: - item\n",
        "name: a\ndescription: ? what\n",
        "name: a\ndescription: Use it. Examples:\n",
    ] {
        let r = read_checked(&agent(yaml));
        assert_eq!(r.outcome, Outcome::Failed, "{yaml:?}");
        assert!(!r.first_errors.is_empty());
        assert!(!r.retry_errors.is_empty());
        // The partial tree of the first pass is kept.
        assert_eq!(r.parsed.errors, r.first_errors);
    }
}

#[test]
fn column_0_continuation_lines_become_keys() {
    let text = agent(
        "name: a\ndescription: Use it. Examples: one\nuser: \"hi\"\\nassistant: \"ok\"\\n<commentary>\nuser: \"second\"\\nassistant: x\ntools: Read\n",
    );
    let r = read_checked(&text);
    assert_eq!(r.outcome, Outcome::Retry);
    assert_eq!(str_of(&r, "description"), "Use it. Examples: one");
    assert_eq!(str_of(&r, "user"), "\"second\"\\nassistant: x");
    assert_eq!(r.parsed.duplicates.len(), 1);
    assert_eq!(str_of(&r, "tools"), "Read");
}

#[test]
fn what_loads_on_the_first_pass() {
    for yaml in [
        "name: a\ndescription: first line\n  second line\n  third\n",
        "name: a\ndescription: |\n  a: b\n  c\n",
        "name: a\ndescription: >\n  a: b\n  c\n",
        "name: a\ndescription: \"a: b\n  c\"\n",
        "name: a\ndescription: 'a: b\n  c'\n",
    ] {
        let r = read_checked(&agent(yaml));
        assert_eq!(r.outcome, Outcome::FirstPass, "{yaml:?}");
        assert!(r.first_errors.is_empty());
        assert!(r.quoted.is_empty());
    }
}

#[test]
fn keys_are_case_sensitive() {
    let r = read_checked(&agent("Name: a\nDescription: b\n"));
    assert!(!map(&r).contains("name"));
    assert!(map(&r).contains("Name"));
}

#[test]
fn retry_matches_the_loader_regex() {
    assert_eq!(rewritable("description: x"), Some((11, 13)));
    assert_eq!(rewritable("a-b_C:\t\tx"), Some((5, 8)));
    assert_eq!(rewritable("a:x"), None);
    assert_eq!(rewritable("a: x\r"), None);
    assert_eq!(rewritable("a:   "), None);
    assert_eq!(rewritable("a2: x"), None);
    assert_eq!(rewritable(" a: x"), None);
    assert_eq!(rewritable("a: x\u{2028}y"), None);
    assert_eq!(rewritable(": x"), None);
    assert!(needs_quotes("a: b"));
    assert!(!needs_quotes("a:b"));
    assert!(!needs_quotes("plain text, with (parens) and -dashes"));
    assert!(needs_quotes("[a, b"));
    assert!(needs_quotes("[a] b ]"));
    assert!(!needs_quotes("[a, b]"));
    assert!(!needs_quotes("\"a: \" b \""));
    assert!(needs_quotes("\"a: b"));
    for c in ["{", "}", "[", "]", "*", "&", "#", "!", "|", ">", "%", "@", "`"] {
        assert!(needs_quotes(&format!("x{c}y")), "{c}");
    }
}

#[test]
fn non_ascii_spans_map_back() {
    let text = agent("name: 审查\ndescription: 审查代码: 🚀 \"ok\" \\ end\nmodel: é # c\n");
    let r = read_checked(&text);
    assert_eq!(r.outcome, Outcome::Retry);
    let d = get(&r, "description");
    assert_eq!(d.as_str(), Some("审查代码: 🚀 \"ok\" \\ end"));
    assert_eq!(d.span.text(&text), "审查代码: 🚀 \"ok\" \\ end");
    assert_eq!(get(&r, "model").span.text(&text), "é # c");
    assert_eq!(get(&r, "name").span.text(&text), "审查");
}

// The corpus (§7.8).

#[test]
fn corpus_matches_section_7_8() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/C_claude_agent");
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| {
        panic!("the corpus is missing: expected {dir} (the shared/ directory checked out beside the repository): {e}")
    });
    let mut files: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    files.sort();
    assert_eq!(files.len(), 40);
    let mut by: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path).unwrap();
        let r = read_checked(&text);
        let kind = match r.outcome {
            Outcome::FirstPass => "first",
            Outcome::Retry => "retry",
            Outcome::Failed => "failed",
            Outcome::NoFrontmatter => "none",
            Outcome::NotMapping => "not-mapping",
        };
        if r.outcome == Outcome::Retry {
            // Retry trees point at the original text.
            let m = map(&r);
            for e in m.entries.iter() {
                assert_eq!(e.key.span.text(&text), e.key.name, "{name}");
            }
            for s in &r.quoted {
                let e = m.entries.iter().find(|e| e.value.span == *s);
                let e = e.unwrap_or_else(|| panic!("{name}: quoted {s:?} is no value"));
                assert_eq!(e.value.as_str(), Some(s.text(&text)), "{name}");
            }
        }
        by.entry(kind).or_default().push(name);
    }
    let short = |v: &Vec<String>| -> Vec<String> {
        v.iter()
            .map(|n| {
                let owner = n.split("__").next().unwrap();
                let file = n.rsplit("__").next().unwrap().trim_end_matches(".md");
                format!("{owner} {file}")
            })
            .collect()
    };
    assert_eq!(by["first"].len(), 29, "{:?}", by);
    assert_eq!(
        short(&by["retry"]),
        [
            "1215-Labs code-reviewer",
            "12306hujunjie code-reviewer",
            "12306hujunjie senior-architect-coder",
            "VoltAgent gdpr-ccpa-compliance",
            "VoltAgent first-principles-thinking",
            "contains-studio whimsy-injector",
            "contains-studio ai-engineer",
            "contains-studio app-store-optimizer",
        ]
    );
    assert_eq!(short(&by["failed"]), ["contains-studio workflow-optimizer"]);
    assert_eq!(
        short(&by["none"]),
        ["0motionguy ai-hedge-fund", "contains-studio content-creator"]
    );
    assert!(!by.contains_key("not-mapping"));

    // app-store-optimizer: `user` lines become keys; the description keeps its first line.
    let text = std::fs::read_to_string(format!(
        "{dir}/contains-studio__agents__marketing__app-store-optimizer.md"
    ))
    .unwrap();
    let r = read_checked(&text);
    let m = map(&r);
    let keys: Vec<&str> = m.js_entries().iter().map(|(k, _)| k.name.as_str()).collect();
    assert_eq!(keys, ["name", "description", "user", "color", "tools"]);
    let d = m.value("description").unwrap();
    let first_line = text.lines().nth(2).unwrap().strip_prefix("description: ").unwrap();
    assert_eq!(d.as_str(), Some(first_line));
    assert_eq!(d.span.text(&text), first_line);
    let user = m.get("user").unwrap();
    assert_eq!(user.key.span.text(&text), "user");
    assert!(
        user.value
            .span
            .text(&text)
            .starts_with("\"Should we change our app icon?")
    );
    assert_eq!(r.parsed.duplicates.len(), 3);
    // The template's `name: [agent-name]` is a list (first pass).
    let text = std::fs::read_to_string(format!(
        "{dir}/1215-Labs__claude-code-templates__.claude__agents___agent-file-structure.template.md"
    ))
    .unwrap();
    let r = read_checked(&text);
    assert_eq!(r.outcome, Outcome::FirstPass);
    assert!(matches!(get(&r, "name").value, Value::Seq(_)));
}

// Robustness.

#[test]
fn hostile_inputs_do_not_panic() {
    let mut inputs: Vec<String> = vec![
        "---\n".into(),
        "---\r".into(),
        "---\r\n---".into(),
        "\u{feff}".into(),
        "\u{feff}---\n\u{feff}---\n".into(),
        "---\na: \u{feff}---\n".into(),
        "---\n\r---\n".into(),
        "---\na: b\r---\r\n".into(),
        "---\n\t\t\t---".into(),
        "---\na: \"\\\n---\n".into(),
        "---\na: x: \u{2028}y\n---\n".into(),
        "---\nä: ö: ü\n\t- 🚀\n---é".into(),
        format!("---\na: {}\n---\n", "[".repeat(100_000)),
        format!("---\na: {}x\n---\n", "- ".repeat(50_000)),
        format!("---\n{}---\n", "a:\tb\n".repeat(5_000)),
        format!("---\ndescription: x: y\n{}---\n", "\tk: v\n".repeat(5_000)),
    ];
    let mut bomb = String::from("---\nl0: &l0 [a, b, c, d, e, f, g, h, i, j]\n");
    for level in 1..10 {
        let refs = vec![format!("*l{}", level - 1); 10].join(", ");
        bomb.push_str(&format!("l{level}: &l{level} [{refs}]\n"));
    }
    bomb.push_str("description: a: b\n---\n");
    inputs.push(bomb);
    // Pseudo-random byte soup over YAML's and the loader's special characters.
    let alphabet: Vec<&str> = vec![
        "-", "---", ":", " ", "\t", "\n", "\r\n", "\r", "\"", "'", "#", "[", "]", "{", "}", "*", "&", "!", "|", ">",
        "%", "@", "`", "\\", "a", "key", "é", "🚀", "\u{feff}", "?", ",", "\u{2028}",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..3000 {
        let mut s = String::from("---\n");
        let len = (seed % 40) as usize;
        for _ in 0..len {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            s.push_str(alphabet[(seed % alphabet.len() as u64) as usize]);
        }
        inputs.push(s);
    }
    for text in &inputs {
        let r = read_checked(text);
        if let Some(root) = &r.parsed.root {
            assert!(crate::analysis::syntax::depth(root) <= crate::analysis::syntax::MAX_DEPTH + 2);
        }
    }
}

#[test]
fn time_is_linear_ish() {
    let line = "description: Use this: ok *bold* `x` @y #z\n";
    let small = format!("---\n{}---\n", line.repeat(200));
    let large = format!("---\n{}---\n", line.repeat(6_400));
    let time = |t: &str| {
        let start = std::time::Instant::now();
        for _ in 0..3 {
            std::hint::black_box(read(t));
        }
        start.elapsed()
    };
    let (a, b) = (time(&small), time(&large));
    // 32 times the input: far below quadratic (1024x).
    assert!(b < a * 200 + std::time::Duration::from_millis(200), "{a:?} vs {b:?}");
}

#[test]
fn retry_reads_a_tab_after_a_colon_above_a_quoted_value() {
    // The retry parses a copy with `description`'s value quoted; the tab after `model:` lies
    // before that edit, and Bun reads it as a space there too (the patch finds the tab's place
    // in the copy through the part of the map that holds it, not the one after the edit).
    let text = agent("name: a\nmodel:\tsonnet\ndescription: Use when: x\ncolor: blue\n");
    let r = read_checked(&text);
    assert_eq!(r.outcome, Outcome::Retry);
    assert_eq!(str_of(&r, "model"), "sonnet");
    assert_eq!(str_of(&r, "description"), "Use when: x");
    assert_eq!(get(&r, "model").span.text(&text), "sonnet");
    assert_eq!(str_of(&r, "color"), "blue");
}

use super::*;

/// `code at "spanned text": message [fix]` of each finding of a style file.
fn diags_as(origin: &Origin, text: &str) -> Vec<String> {
    analyze(text, origin)
        .0
        .iter()
        .map(|d| {
            let fix = d.fix.as_ref().map(|f| format!(" [{}]", f.title)).unwrap_or_default();
            format!("{} at {:?}: {}{fix}", d.code.as_str(), d.span.text(text), d.message)
        })
        .collect()
}

fn diags(text: &str) -> Vec<String> {
    diags_as(&Origin::Project, text)
}

/// The name Claude Code lists the style under, for a file named `file.md`.
fn name(text: &str) -> String {
    analyze(text, &Origin::Project).2.name("file").to_string()
}

#[test]
fn a_valid_style_gets_nothing() {
    for ok in [
        "---\nname: Terse\ndescription: Short answers\nkeep-coding-instructions: true\n---\nBe terse.\n",
        "---\ndescription: 42\nkeep-coding-instructions: yes\n---\nx\n",
        "---\nkeep-coding-instructions: \"Off\"\n---\nx\n",
        "---\nkeep-coding-instructions: 1\n---\nx\n",
        "---\nname:\ndescription:\n---\nx\n",
        "No frontmatter: the file's name, the whole text as the prompt.\n",
        "---\n---\nx\n",
    ] {
        assert_eq!(diags(ok), Vec::<String>::new(), "{ok}");
    }
    assert_eq!(
        diags_as(&plugin(), "---\nforce-for-plugin: true\n---\nx\n"),
        Vec::<String>::new()
    );
}

#[test]
fn the_name_claude_code_lists() {
    assert_eq!(name("---\nname: Terse\n---\nx\n"), "Terse");
    assert_eq!(name("---\ndescription: d\n---\nx\n"), "file");
    assert_eq!(name("x\n"), "file");
    // Empty or null: the file's name.
    assert_eq!(name("---\nname: \"\"\n---\nx\n"), "file");
    assert_eq!(name("---\nname:\n---\nx\n"), "file");
    // Other types, as JavaScript's `String()` writes them.
    assert_eq!(name("---\nname: 5\n---\nx\n"), "5");
    assert_eq!(name("---\nname: 0x10\n---\nx\n"), "16");
    assert_eq!(name("---\nname: true\n---\nx\n"), "true");
    assert_eq!(name("---\nname: [a, b]\n---\nx\n"), "a,b");
    assert_eq!(name("---\nname: {a: 1}\n---\nx\n"), "[object Object]");
    // The retry quotes what the first pass refused.
    assert_eq!(name("---\nname: [a, b\n---\nx\n"), "[a, b");
    let text = "---\nname: Terse\n---\nx\n";
    let style = analyze(text, &Origin::Project).2;
    assert_eq!(style.name_span().text(text), "Terse");
    let style = analyze("---\ndescription: d\n---\nx\n", &Origin::Project).2;
    assert_eq!(style.name_span(), Span::new(0, 3));
    let style = analyze("\u{feff}Be terse.\n", &Origin::Project).2;
    assert_eq!(
        style.name_span().text("\u{feff}Be terse.\n"),
        "Be terse.",
        "after the BOM"
    );
}

#[test]
fn keys_claude_code_ignores() {
    assert_eq!(
        diags("---\nname: Terse\nkeep-coding-instruction: true\n---\nx\n"),
        [
            "unknown-key at \"keep-coding-instruction\": an output style has no `keep-coding-instruction`: Claude Code ignores it without a word. Did you mean `keep-coding-instructions`? [Replace with `keep-coding-instructions`]"
        ]
    );
    // The fix is left out when the key it names is there already.
    let found = diags("---\ndescriptin: a\ndescription: b\n---\nx\n");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(!found[0].contains('['), "{found:?}");
    assert_eq!(
        diags("---\nmodel: opus\n---\nx\n"),
        ["unknown-key at \"model\": an output style has no `model`: Claude Code ignores it without a word."]
    );
    assert_eq!(
        diags("---\nforce-for-plugin: true\n---\nx\n"),
        [
            "ignored-field at \"force-for-plugin\": `force-for-plugin` is read for a plugin's styles only: Claude Code ignores it here (and says so in its debug log)"
        ]
    );
}

#[test]
fn values_of_the_wrong_type() {
    assert_eq!(
        diags("---\nname: 5\n---\nx\n"),
        [
            "invalid-type at \"5\": `name` is a number: Claude Code lists the style as `5`. Quote the value to name it as written"
        ]
    );
    assert_eq!(
        diags("---\ndescription: [a, b]\n---\nx\n"),
        [
            "invalid-type at \"[a, b]\": `description` is a list: Claude Code leaves it out and describes the style by the first line of its body"
        ]
    );
    assert_eq!(
        diags("---\nkeep-coding-instructions: maybe\n---\nx\n"),
        [
            "invalid-value at \"maybe\": Claude Code reads `keep-coding-instructions` as `true` or `false` (also `yes`/`no`, `on`/`off`, `1`/`0`); it ignores `maybe`, as if `false`"
        ]
    );
    assert_eq!(
        diags("---\nkeep-coding-instructions: 2\n---\nx\n"),
        [
            "invalid-value at \"2\": Claude Code reads `keep-coding-instructions` as `true` or `false` (also `yes`/`no`, `on`/`off`, `1`/`0`); it ignores a number, as if `false`"
        ]
    );
    assert_eq!(
        diags_as(&plugin(), "---\nforce-for-plugin: [x]\n---\nx\n").len(),
        1,
        "a plugin's flag is checked"
    );
    for d in analyze("---\nname: 5\ndescription: [a]\nx: 1\n---\nx\n", &Origin::Project).0 {
        assert_ne!(d.severity, Severity::Error, "a style loads whatever its keys: {d:?}");
    }
}

#[test]
fn a_frontmatter_only_the_retry_reads_or_none() {
    let found = diags("---\nname: [a, b\n---\nx\n");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("lenient-parse at \"[a, b\""), "{found:?}");
    let text = "---\nname: a\n  bad: [\n---\nx\n";
    let (d, _, style) = analyze(text, &Origin::Project);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].code, Code::SyntaxError);
    assert_eq!(d[0].severity, Severity::Warning);
    assert!(d[0].message.contains("under the file's name"), "{}", d[0].message);
    assert_eq!(style.declared, None);
}

#[test]
fn completion_and_hover() {
    let text = "---\nname: Terse\nke\n---\nx\n";
    let offset = text.find("ke").unwrap() + 2;
    let labels: Vec<String> = complete(text, offset).into_iter().map(|i| i.label).collect();
    assert!(labels.contains(&"keep-coding-instructions".to_string()), "{labels:?}");
    assert!(
        !labels.contains(&"name".to_string()),
        "present keys are left out: {labels:?}"
    );
    let items = complete(text, offset);
    let keep = items.iter().find(|i| i.label == "keep-coding-instructions").unwrap();
    assert_eq!(keep.insert, "keep-coding-instructions: ");
    assert_eq!(keep.replace.text(text), "ke");
    let text = "---\nkeep-coding-instructions: \n---\nx\n";
    let offset = text.find(": ").unwrap() + 2;
    let items = complete(text, offset);
    let labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
    assert_eq!(labels, ["true", "false"]);
    assert_eq!(items[0].insert, "true");
    let text = "---\ndescription: \n---\nx\n";
    assert!(complete(text, text.find(": ").unwrap() + 2).is_empty());
    assert!(complete(text, text.len() + 5).is_empty(), "past the end");

    let text = "---\nkeep-coding-instructions: true\nmodel: x\n---\nx\n";
    let (md, span) = hover(text, 6, "file").unwrap();
    assert_eq!(span.text(text), "keep-coding-instructions");
    assert!(md.contains("default coding instructions"), "{md}");
    let (md, _) = hover(text, text.find("model").unwrap(), "file").unwrap();
    assert!(md.contains("ignores"), "{md}");
    assert!(
        hover(text, text.find("true").unwrap(), "file").is_none(),
        "values have no hover"
    );
    // On the name: the name listed, and how to choose it.
    let (md, span) = hover(text, 1, "file").unwrap();
    assert_eq!(span, Span::new(0, 3));
    assert!(md.contains("`\"outputStyle\": \"file\"`"), "{md}");
    let text = "---\nname: Terse\n---\nx\n";
    let (md, span) = hover(text, text.find("Terse").unwrap() + 1, "kit:Terse").unwrap();
    assert_eq!(span.text(text), "Terse");
    assert!(md.contains("Output style `kit:Terse`"), "{md}");
}

fn plugin() -> Origin {
    Origin::Plugin { plugin: "kit".into() }
}

#[test]
fn a_plugin_style_is_listed_under_the_plugin_name() {
    let style = analyze("---\nname: Terse\n---\nx\n", &plugin()).2;
    assert_eq!(listed_name(&plugin(), &style, "file"), "kit:Terse");
    assert_eq!(listed_name(&Origin::Project, &style, "file"), "Terse");
    let style = analyze("x\n", &plugin()).2;
    assert_eq!(listed_name(&plugin(), &style, "file"), "kit:file");
}

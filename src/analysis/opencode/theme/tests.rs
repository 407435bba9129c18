use super::*;

/// `severity code at "spanned text": message` of each finding.
fn diags(text: &str) -> Vec<String> {
    analyze(text)
        .0
        .iter()
        .map(|d| {
            format!(
                "{} {} at {:?}: {}",
                d.severity.as_str(),
                d.code.as_str(),
                d.span.text(text),
                d.message
            )
        })
        .collect()
}

#[test]
fn a_valid_theme_gets_nothing() {
    for ok in [
        r##"{"$schema": "https://opencode.ai/theme.json", "defs": {"bg": "#123456", "fg": {"dark": "#eee", "light": "#111"}}, "theme": {"background": "bg", "text": "fg", "primary": {"dark": "#ff0000", "light": "primary2"}, "secondary": 33, "border": "transparent", "borderSubtle": "none", "accent": "#11223344", "thinkingOpacity": 0.6}}"##,
        // A theme key refers to another.
        r##"{"theme": {"primary": "#ff0000", "markdownLink": "primary"}}"##,
        // A `null` in `defs` falls through to the theme's key of that name.
        r##"{"defs": {"primary": null}, "theme": {"primary": "#ff0000", "accent": "primary"}}"##,
    ] {
        let found = diags(ok);
        // (`primary2` is not defined: only the light mode fails; checked below.)
        assert!(found.iter().all(|f| f.contains("primary2")), "{ok}: {found:?}");
    }
    assert_eq!(diags(r##"{"theme": {"primary": "#ff0000"}}"##), Vec::<String>::new());
}

#[test]
fn a_color_that_resolves_to_nothing_fails_the_theme() {
    assert_eq!(
        diags(r##"{"defs": {"bg": "#000000"}, "theme": {"background": "bgg", "text": {"dark": "#eee"}}}"##),
        [
            "error invalid-value at \"\\\"bgg\\\"\": the color `bgg` is not in `defs` nor a key of `theme`. Did you mean `bg`?: choosing this theme fails, and opencode keeps its default theme without a word",
            "warning invalid-value at \"{\": this color has no `light` value, which opencode reads in light mode: in that mode, choosing this theme fails, and opencode keeps its default theme without a word",
        ]
    );
    let found = diags(r##"{"theme": {"primary": "accent", "accent": "primary"}}"##);
    assert!(
        found[0].contains("cycle (`accent` → `primary` → `accent`)"),
        "{found:?}"
    );
    assert_eq!(found.len(), 2, "one per color of the cycle: {found:?}");
    for (bad, what) in [
        (r##"{"theme": {"primary": "#12345"}}"##, "`#12345` is not a color"),
        (r##"{"theme": {"primary": 300}}"##, "not an ANSI color number"),
        (r##"{"theme": {"primary": true}}"##, "not a boolean"),
        (r##"{"theme": {"primary": null}}"##, "not null"),
        (r##"{"theme": 5}"##, "`theme` must be an object"),
        (r##"{"defs": []}"##, "needs `theme`"),
        (
            r##"{"defs": 5, "theme": {"primary": "#ff0000"}}"##,
            "`defs` must be an object of named colors, not a number",
        ),
        (r##"[1]"##, "a theme is an object"),
    ] {
        let found = diags(bad);
        assert!(
            found.iter().any(|f| f.starts_with("error") && f.contains(what)),
            "{bad}: {found:?}"
        );
    }
}

#[test]
fn a_file_that_does_not_parse_drops_every_custom_theme() {
    let text = "{\"theme\": {\"primary\": \"#ff0000\",}}";
    let (d, _) = analyze(text);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].code, Code::SyntaxError);
    assert!(
        d[0].message.contains("drops every custom theme, not only this one"),
        "{}",
        d[0].message
    );
    assert!(
        d[0].fix.as_ref().is_some_and(|f| f.safe),
        "the trailing comma is removed"
    );
    assert!(diags("{\"theme\": {} // x\n}")[0].contains("a comment"));
    assert!(diags("{\"theme\": {").iter().all(|f| f.contains("syntax-error")));
    // A value half typed is the syntax error's alone: no color finding on it.
    let half = diags("{\"theme\": {\"primary\": , \"accent\": \"#ff0000\"}}");
    assert!(
        !half.is_empty() && half.iter().all(|f| f.contains("syntax-error")),
        "{half:?}"
    );
    assert!(diags("").iter().all(|f| f.contains("empty")));
}

#[test]
fn keys_opencode_does_not_use() {
    assert_eq!(
        diags(r##"{"theme": {"primry": "#ff0000"}, "colors": {}}"##),
        [
            "warning unknown-key at \"\\\"primry\\\"\": opencode uses no color `primry`: it is read but nothing shows it. Did you mean `primary`?",
            "warning unknown-key at \"\\\"colors\\\"\": `colors` is not a key of a theme: opencode ignores it.",
        ]
    );
    // An unknown key is still resolved.
    assert!(
        diags(r##"{"theme": {"foo": "nothing"}}"##)
            .iter()
            .any(|f| f.starts_with("error"))
    );
    assert_eq!(
        diags(r##"{"theme": {"thinkingOpacity": "half"}}"##),
        ["warning invalid-type at \"\\\"half\\\"\": `thinkingOpacity` is a number from 0 to 1, not a string"]
    );
}

#[test]
fn the_choice_of_a_theme() {
    let span = Span::new(0, 1);
    assert!(check_choice("dracula", span, &[], None, true).is_none());
    assert!(check_choice("mine", span, &["mine"], None, false).is_none());
    let d = check_choice("mine", span, &["mine"], Some(".opencode/themes/x.json"), true).unwrap();
    assert_eq!(d.severity, Severity::Error);
    assert!(
        d.message.contains("`.opencode/themes/x.json` does not parse"),
        "{}",
        d.message
    );
    let d = check_choice("draclua", span, &[], None, false).unwrap();
    assert_eq!(d.severity, Severity::Warning);
    assert!(d.message.contains("Did you mean `dracula`?"), "{}", d.message);
    assert_eq!(d.fix.unwrap().edits[0].text, "dracula");
    assert!(
        check_choice("zzzzzz", span, &[], None, false).is_none(),
        "may be a global theme"
    );
    let d = check_choice("zzzzzz", span, &[], None, true).unwrap();
    assert!(!d.message.contains("global config folder"), "{}", d.message);
}

#[test]
fn completion() {
    use crate::analysis::opencode::{
        FileKind,
        complete::{Known, complete},
    };
    let known = Known::default();
    let text = r##"{"defs": {"bg": "#000"}, "theme": {"primary": "#f00", }}"##;
    let at = text.find(", }").unwrap() + 2;
    let labels: Vec<String> = complete(&FileKind::Theme, text, at, &known)
        .into_iter()
        .map(|i| i.label)
        .collect();
    assert!(labels.contains(&"background".to_string()), "{labels:?}");
    assert!(!labels.contains(&"primary".to_string()), "{labels:?}");
    let text = r##"{"defs": {"bg": "#000"}, "theme": {"primary": ""}}"##;
    let at = text.find(": \"\"").unwrap() + 3;
    let items = complete(&FileKind::Theme, text, at, &known);
    let labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
    assert!(labels.contains(&"bg") && labels.contains(&"transparent"), "{labels:?}");
    let text = "{}";
    let labels: Vec<String> = complete(&FileKind::Theme, text, 1, &known)
        .into_iter()
        .map(|i| i.label)
        .collect();
    assert_eq!(labels, ["$schema", "defs", "theme"]);
}

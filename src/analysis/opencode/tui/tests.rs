use super::*;
use expect_test::{Expect, expect};

/// Every diagnostic of a `tui.json` as `code severity effect `spanned text`: message`, and its
/// fix applied.
fn show(text: &str) -> String {
    let a = analyze(text);
    let mut out = String::new();
    let mut diags = a.diagnostics.clone();
    diags.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    for d in &diags {
        out.push_str(&format!(
            "{} {} {} `{}`: {}\n",
            d.code.as_str(),
            d.severity.as_str(),
            d.effect.as_str(),
            d.span.text(text),
            d.message
        ));
        if let Some(f) = &d.fix {
            let fixed = crate::analysis::diagnostic::apply(text, &f.edits);
            out.push_str(&format!(
                "  fix ({}) {}: {fixed}\n",
                if f.safe { "safe" } else { "editor" },
                f.title
            ));
        }
    }
    out
}

fn check(text: &str, want: Expect) {
    want.assert_eq(&show(text));
}

#[test]
fn every_setting_written_right_is_silent() {
    let text = r#"{
  // comments and trailing commas are fine
  "$schema": "https://opencode.ai/tui.json",
  "theme": "opencode",
  "keybinds": {
    "leader": "ctrl+x",
    "app_exit": "ctrl+c,<leader>q",
    "help_show": false,
    "docs_open": "none",
    "diff_open": {"name": "d", "ctrl": true, "shift": false, "meta": false, "super": false, "hyper": false},
    "diff_close": {"key": "escape", "event": "release", "preventDefault": true, "fallthrough": false, "extra": [1]},
    "session_new": ["ctrl+n", {"name": "n", "meta": true}, {"key": {"name": "x"}}],
    "dialog.select.prev": "up",
  },
  "plugin": ["tui-plugin", ["./plugins/mine.ts", {"level": 2}]],
  "plugin_enabled": {"tui-plugin": false},
  "leader_timeout": 1500,
  "attention": {"enabled": true, "notifications": false, "sound": true, "volume": 0.5, "sound_pack": "soft",
                "sounds": {"default": "./ding.wav", "question": "", "permission": "p.wav", "error": "e.wav", "done": "d.wav", "subagent_done": "s.wav"}},
  "prompt": {"max_height": 12, "max_width": "auto"},
  "scroll_speed": 0.001,
  "scroll_acceleration": {"enabled": true},
  "diff_style": "stacked",
  "cursor": {"style": "default", "blinking": false},
  "mouse": false,
}"#;
    check(text, expect![[""]]);
    // A whole-number float, an exponent: numbers as JSON writes them.
    check(
        r#"{"leader_timeout": 1e3, "scroll_speed": 1E-3, "prompt": {"max_width": 80}}"#,
        expect![[""]],
    );
    // An empty file is no settings; a non-object is ignored with an error.
    check("", expect![[""]]);
}

#[test]
fn refused_values_skip_the_whole_file_with_opencode_s_path() {
    // Each of these made opencode 1.18.34 log "skipping invalid tui config" (tests/runtime/tui.rs).
    check(
        r#"{"theme": "opencode", "scroll_speed": 0, "diff_style": "sideways", "leader_timeout": 1.5, "mouse": "true"}"#,
        expect![[r#"
            invalid-value error file-ignored `0`: `scroll_speed` must be a number, 0.001 or more, got 0; opencode skips this whole file, so none of its settings apply
            invalid-value error file-ignored `"sideways"`: `diff_style` must be "auto" or "stacked", got "sideways"; opencode skips this whole file, so none of its settings apply
            invalid-value error file-ignored `1.5`: `leader_timeout` must be a whole number greater than 0, got 1.5; opencode skips this whole file, so none of its settings apply
            invalid-type error file-ignored `"true"`: `mouse` must be true or false, got the string "true"; opencode skips this whole file, so none of its settings apply
        "#]],
    );
    check(
        r#"{"attention": {"volume": 2, "sounds": {"default": 5}}, "prompt": {"max_width": "wide", "max_height": 0}, "scroll_acceleration": {}, "cursor": {"style": "bar"}}"#,
        expect![[r#"
            invalid-value error file-ignored `2`: `attention.volume` must be a number from 0 to 1, got 2; opencode skips this whole file, so none of its settings apply
            invalid-type error file-ignored `5`: `attention.sounds.default` must be a string, got a number (5); opencode skips this whole file, so none of its settings apply
            invalid-value error file-ignored `"wide"`: `prompt.max_width` must be a whole number greater than 0 or "auto", got "wide"; opencode skips this whole file, so none of its settings apply
            invalid-value error file-ignored `0`: `prompt.max_height` must be a whole number greater than 0, got 0; opencode skips this whole file, so none of its settings apply
            missing-field error file-ignored `"scroll_acceleration"`: `scroll_acceleration` has no `enabled`, which scroll acceleration needs; opencode skips this whole file, so none of its settings apply (`Missing key` at scroll_acceleration.enabled)
            invalid-value error file-ignored `"bar"`: `cursor.style` must be "block", "underline", "line" or "default", got "bar"; opencode skips this whole file, so none of its settings apply
        "#]],
    );
    check(
        r#"{"plugin": ["x", ["y"], ["z", {}, 3], 5], "plugin_enabled": {"x": "yes"}, "$schema": 5, "leader_timeout": "100"}"#,
        expect![[r#"
            invalid-value error file-ignored `["y"]`: `plugin.1` must be an array of exactly 2 items (a string, then an object); opencode skips this whole file, so none of its settings apply
            invalid-value error file-ignored `3`: `plugin.2` must be an array of exactly 2 items (a string, then an object), and this item is one too many; opencode skips this whole file, so none of its settings apply
            invalid-type error file-ignored `5`: `plugin.3` must be a string or an array of exactly 2 items (a string, then an object), got a number (5); opencode skips this whole file, so none of its settings apply
            invalid-type error file-ignored `"yes"`: `plugin_enabled.x` must be true or false, got the string "yes"; opencode skips this whole file, so none of its settings apply
            invalid-type error file-ignored `5`: `$schema` must be a string, got a number (5); opencode skips this whole file, so none of its settings apply
            invalid-type error file-ignored `"100"`: `leader_timeout` must be a whole number greater than 0, got the string "100"; opencode skips this whole file, so none of its settings apply
              fix (safe) Remove the quotes: {"plugin": ["x", ["y"], ["z", {}, 3], 5], "plugin_enabled": {"x": "yes"}, "$schema": 5, "leader_timeout": 100}
        "#]],
    );
}

#[test]
fn keybind_values_are_judged_by_the_form_meant() {
    check(
        r#"{"keybinds": {"app_exit": true, "leader": null, "help_show": 5, "docs_open": [true], "diff_open": {"key": 5}, "diff_close": {"name": "x", "ctrl": "yes"}, "diff_toggle": {"event": "press"}, "diff_expand": {"key": "x", "event": "hold"}}}"#,
        expect![[r#"
            invalid-value error file-ignored `true`: `keybinds.app_exit` must be false, "none", a string, a key object, a binding object or an array of items that are each a string, a key object or a binding object, got true; opencode skips this whole file, so none of its settings apply
            invalid-type error file-ignored `null`: `keybinds.leader` must be false, "none", a string, a key object, a binding object or an array of items that are each a string, a key object or a binding object, got null; opencode skips this whole file, so none of its settings apply
            invalid-type error file-ignored `5`: `keybinds.help_show` must be false, "none", a string, a key object, a binding object or an array of items that are each a string, a key object or a binding object, got a number (5); opencode skips this whole file, so none of its settings apply
            invalid-type error file-ignored `true`: `keybinds.docs_open.0` must be a string, a key object or a binding object, got a boolean (true); opencode skips this whole file, so none of its settings apply
            invalid-type error file-ignored `5`: `keybinds.diff_open.key` must be a string or a key object, got a number (5); opencode skips this whole file, so none of its settings apply
            invalid-type error file-ignored `"yes"`: `keybinds.diff_close.ctrl` must be true or false, got the string "yes"; opencode skips this whole file, so none of its settings apply
            missing-field error file-ignored `"diff_toggle"`: `keybinds.diff_toggle` has no `key`, which a binding object needs; opencode skips this whole file, so none of its settings apply (`Missing key` at keybinds.diff_toggle.key)
            invalid-value error file-ignored `"hold"`: `keybinds.diff_expand.event` must be "press" or "release", got "hold"; opencode skips this whole file, so none of its settings apply
        "#]],
    );
    // `keybinds` itself must be an object.
    check(
        r#"{"keybinds": 5}"#,
        expect![[r#"
            invalid-type error file-ignored `5`: `keybinds` must be an object (keybind names to keys), got a number (5); opencode skips this whole file, so none of its settings apply
        "#]],
    );
}

#[test]
fn dropped_keys_and_unknown_keybinds_are_warnings_with_a_did_you_mean() {
    check(
        r#"{"thme": "x", "model": "a/b", "keybinds": {"app_exitt": 5, "session_quick": "x", "leader": "ctrl+a"}, "attention": {"sounds": {"bogus": 5}, "volum": 1}, "keybindings": {}}"#,
        expect![[r#"
            unknown-key warning value-ignored `"thme"`: `thme` is not a setting of `tui.json`: opencode drops it without a word. Did you mean `theme`?
              fix (editor) Replace with `"theme"`: {"theme": "x", "model": "a/b", "keybinds": {"app_exitt": 5, "session_quick": "x", "leader": "ctrl+a"}, "attention": {"sounds": {"bogus": 5}, "volum": 1}, "keybindings": {}}
            unknown-key warning value-ignored `"model"`: `model` is a setting of `opencode.json`, not of `tui.json`: opencode drops it here without a word. Move it to `opencode.json`
            unknown-key warning value-ignored `"app_exitt"`: `app_exitt` is not a keybind opencode knows: it removes the name before reading the keybinds, so it binds nothing. Did you mean `app_exit`?
              fix (editor) Replace with `"app_exit"`: {"thme": "x", "model": "a/b", "keybinds": {"app_exit": 5, "session_quick": "x", "leader": "ctrl+a"}, "attention": {"sounds": {"bogus": 5}, "volum": 1}, "keybindings": {}}
            unknown-key warning value-ignored `"session_quick"`: `session_quick` is not a keybind opencode knows: it removes the name before reading the keybinds, so it binds nothing.
            unknown-key warning value-ignored `"bogus"`: `bogus` is not a field of attention sounds (in `attention.sounds`): opencode drops it without a word.
            unknown-key warning value-ignored `"volum"`: `volum` is not a field of attention settings (in `attention`): opencode drops it without a word. Did you mean `volume`?
              fix (editor) Replace with `"volume"`: {"thme": "x", "model": "a/b", "keybinds": {"app_exitt": 5, "session_quick": "x", "leader": "ctrl+a"}, "attention": {"sounds": {"bogus": 5}, "volume": 1}, "keybindings": {}}
            unknown-key warning value-ignored `"keybindings"`: `keybindings` is not a setting of `tui.json`: opencode drops it without a word. Did you mean `keybinds`?
              fix (editor) Replace with `"keybinds"`: {"thme": "x", "model": "a/b", "keybinds": {"app_exitt": 5, "session_quick": "x", "leader": "ctrl+a"}, "attention": {"sounds": {"bogus": 5}, "volum": 1}, "keybinds": {}}
        "#]],
    );
}

#[test]
fn the_legacy_tui_wrapper_is_read_as_the_top_level() {
    // Its keys are decoded where opencode puts them (the path has no `tui.`), and a key also at
    // the top level loses: its bad value is no refusal.
    check(
        r#"{"tui": {"scroll_speed": 0, "diff_style": "x", "mouse": 1, "keybinds": {"app_exit": 5}}, "mouse": true}"#,
        expect![[r#"
            deprecated-field warning works-but-risky `"tui"`: `tui` is the old wrapper of these settings: opencode reads its keys as if they were written at the top level (where a key is in both, the top-level value wins). Write them at the top level
            invalid-value error file-ignored `0`: `scroll_speed` must be a number, 0.001 or more, got 0; opencode skips this whole file, so none of its settings apply
            invalid-value error file-ignored `"x"`: `diff_style` must be "auto" or "stacked", got "x"; opencode skips this whole file, so none of its settings apply
            duplicate-key warning value-ignored `"mouse"`: `mouse` is also set at the top level, which wins: opencode ignores this one
            invalid-type error file-ignored `5`: `keybinds.app_exit` must be false, "none", a string, a key object, a binding object or an array of items that are each a string, a key object or a binding object, got a number (5); opencode skips this whole file, so none of its settings apply
        "#]],
    );
    // With nothing at the top level in its way, the fix writes its keys there.
    check(
        "{\n  \"tui\": {\n    \"scroll_speed\": 2,\n    \"diff_style\": \"auto\",\n  },\n  \"theme\": \"x\"\n}",
        expect![[r#"
            deprecated-field warning works-but-risky `"tui"`: `tui` is the old wrapper of these settings: opencode reads its keys as if they were written at the top level (where a key is in both, the top-level value wins). Write them at the top level
              fix (safe) Write the keys of `tui` at the top level: {
              "scroll_speed": 2,
                "diff_style": "auto",
              "theme": "x"
            }
        "#]],
    );
    check(
        r#"{"theme": "x", "tui": {}}"#,
        expect![[r#"
            deprecated-field warning works-but-risky `"tui"`: `tui` is the old wrapper of these settings: opencode reads its keys as if they were written at the top level (where a key is in both, the top-level value wins). Write them at the top level
              fix (safe) Write the keys of `tui` at the top level: {"theme": "x"}
        "#]],
    );
    // A comment inside could swallow what follows: no fix.
    check(
        "{\"tui\": {\"mouse\": true // on\n}}",
        expect![[r#"
            deprecated-field warning works-but-risky `"tui"`: `tui` is the old wrapper of these settings: opencode reads its keys as if they were written at the top level (where a key is in both, the top-level value wins). Write them at the top level
        "#]],
    );
    // Not an object: deleted, the rest is read.
    check(
        r#"{"tui": 5, "theme": "x"}"#,
        expect![[r#"
            invalid-type warning value-ignored `5`: `tui` must be an object (the old wrapper of these settings), got a number (5); opencode deletes it and reads the rest of the file
        "#]],
    );
    // A `tui` inside the wrapper is no wrapper: opencode drops it.
    check(
        r#"{"tui": {"tui": {"mouse": 1}}}"#,
        expect![[r#"
            deprecated-field warning works-but-risky `"tui"`: `tui` is the old wrapper of these settings: opencode reads its keys as if they were written at the top level (where a key is in both, the top-level value wins). Write them at the top level
            unknown-key warning value-ignored `"tui"`: `tui` is not a setting of `tui.json`: opencode drops it without a word.
        "#]],
    );
}

#[test]
fn files_opencode_cannot_read_are_skipped() {
    check(
        r#"{"theme": "a",,}"#,
        expect![[r#"
            syntax-error error file-ignored `,`: unexpected `,`; opencode cannot parse this file and skips it, so none of its settings apply
        "#]],
    );
    check(
        "  \n",
        expect![[r#"
            syntax-error error file-ignored ``: the file is empty; expected a JSON object; opencode cannot parse this file and skips it, so none of its settings apply
        "#]],
    );
    check(
        "[]",
        expect![[r#"
            invalid-type error file-ignored `[]`: the settings must be a JSON object, got a list; opencode ignores this file
        "#]],
    );
    check(
        r#"{"mouse": "x", "mouse": true}"#,
        expect![[r#"
            duplicate-key warning value-ignored `"mouse"`: "mouse" is set again later in this object; opencode keeps only the last value, so this one is ignored
        "#]],
    );
}

/// Completion at `|` as `label (detail) -> insert`.
fn completions(text: &str) -> Vec<String> {
    let offset = text.find('|').unwrap();
    let text = text.replace('|', "");
    let known = crate::analysis::opencode::complete::Known::default();
    crate::analysis::opencode::complete::complete(&super::super::FileKind::Tui, &text, offset, &known)
        .into_iter()
        .map(|i| format!("{} ({}) -> {}", i.label, i.detail, i.insert))
        .collect()
}

#[test]
fn completion_offers_the_settings_the_keybinds_and_the_values() {
    let top = completions(r#"{"theme": "x", "|"}"#);
    assert_eq!(top.len(), 12, "{top:#?}");
    assert!(
        top.contains(&r#"keybinds (tui.json) -> "keybinds": "#.to_string()),
        "{top:#?}"
    );
    assert!(
        !top.iter().any(|t| t.starts_with("theme ")),
        "written already: {top:#?}"
    );
    // The keybinds opencode knows, without those written.
    let kb = completions(r#"{"keybinds": {"leader": "ctrl+a", |}}"#);
    assert_eq!(kb.len(), 183);
    assert!(kb.contains(&r#"app_exit (keybind) -> "app_exit": "#.to_string()));
    let app_exit = crate::analysis::opencode::complete::complete(
        &super::super::FileKind::Tui,
        r#"{"keybinds": {"app_ex"}}"#,
        20,
        &Default::default(),
    );
    let doc = app_exit
        .iter()
        .find(|i| i.label == "app_exit")
        .and_then(|i| i.documentation.clone());
    assert_eq!(doc.as_deref(), Some("Exit the application."));
    // Inside the legacy wrapper, the top-level settings.
    assert!(
        completions(r#"{"tui": {"|"}}"#)
            .iter()
            .any(|t| t.starts_with("scroll_speed "))
    );
    // Required fields first.
    assert_eq!(
        completions(r#"{"scroll_acceleration": {|}}"#),
        [r#"enabled (scroll acceleration) -> "enabled": "#]
    );
    // Values: literals and booleans, a keybind's `false` and `"none"`.
    assert_eq!(
        completions(r#"{"diff_style": "|"}"#),
        [r#"auto (diff_style) -> "auto""#, r#"stacked (diff_style) -> "stacked""#]
    );
    assert_eq!(
        completions(r#"{"mouse": |}"#),
        ["true (boolean) -> true", "false (boolean) -> false"]
    );
    assert_eq!(
        completions(r#"{"keybinds": {"app_exit": |}}"#),
        ["false (boolean) -> false", r#"none (keybind) -> "none""#]
    );
    assert_eq!(
        completions(r#"{"keybinds": {"app_exit": [{"key": "x", "event": "|"}]}}"#),
        [r#"press (event) -> "press""#, r#"release (event) -> "release""#]
    );
}

#[test]
fn hover_on_keys_values_and_the_wrapper() {
    let text = r#"{"keybinds": {"app_exit": "ctrl+q"}, "tui": {"mouse": false}, "thme": 1}"#;
    let a = analyze(text);
    let at = |needle: &str| {
        let offset = text.find(needle).unwrap() + 1;
        hover(&a.parsed, offset)
            .map(|(md, span)| (md.lines().next().unwrap_or("").to_string(), span.text(text).to_string()))
    };
    assert_eq!(
        at("app_exit"),
        Some(("**`app_exit`** (keybind)".into(), "\"app_exit\"".into()))
    );
    assert_eq!(
        at("ctrl+q"),
        Some(("**`app_exit`** (keybind)".into(), "\"ctrl+q\"".into()))
    );
    assert_eq!(at("tui"), Some(("**`tui`** (deprecated)".into(), "\"tui\"".into())));
    assert_eq!(
        at("mouse"),
        Some(("**`mouse`** (the tui.json settings)".into(), "\"mouse\"".into()))
    );
    assert_eq!(at("thme"), None);
}

#[test]
fn the_wrapper_fix_is_offered_only_when_it_changes_nothing() {
    // Written twice: the first would win once the last is unwrapped.
    let twice = r#"{"tui": {"mouse": false}, "tui": {"mouse": true}}"#;
    let a = analyze(twice);
    let d = a.diagnostics.iter().find(|d| d.code == Code::DeprecatedField).unwrap();
    assert_eq!(d.span.text(twice), "\"tui\"");
    assert_eq!(d.span.start, 26, "on the wrapper opencode reads, the last");
    assert!(d.fix.is_none());
    // A key also at the top level: the wrapper's value loses, and unwrapping would repeat it.
    let clash = r#"{"tui": {"mouse": false}, "mouse": true}"#;
    let a = analyze(clash);
    let d = a.diagnostics.iter().find(|d| d.code == Code::DeprecatedField).unwrap();
    assert!(d.fix.is_none());
    // The related location of the value that wins: the last top-level one.
    let last = r#"{"tui": {"mouse": false}, "mouse": 1, "mouse": true}"#;
    let a = analyze(last);
    let d = a
        .diagnostics
        .iter()
        .find(|d| d.code == Code::DuplicateKey && d.message.starts_with("`mouse` is also set"))
        .unwrap();
    assert_eq!(
        d.related.first().map(|r| &r.location),
        Some(&Location::Here(Span::new(38, 45)))
    );
    assert_eq!(&last[38..45], "\"mouse\"");
    // Applying the fix leaves what opencode reads as it was: no error before, none after.
    let text = r#"{"theme": "x", "tui": {"scroll_speed": 2, "keybinds": {"app_exit": "ctrl+q"}}}"#;
    let (fixed, titles) = crate::analysis::opencode::fix_all(&super::super::FileKind::Tui, text);
    assert_eq!(titles, ["Write the keys of `tui` at the top level"]);
    assert_eq!(
        fixed,
        r#"{"theme": "x", "scroll_speed": 2, "keybinds": {"app_exit": "ctrl+q"}}"#
    );
    assert!(analyze(&fixed).diagnostics.is_empty());
}

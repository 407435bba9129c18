use super::*;
use crate::analysis::shape;
use expect_test::expect;

#[test]
fn the_keybinds_are_the_184_opencode_knows_each_documented() {
    let names: Vec<&str> = KEYBIND_FIELDS.iter().map(|f| f.name).collect();
    assert_eq!(names.len(), 184);
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), 184, "a keybind is listed twice");
    assert_eq!(
        (names[0], names[1], names[183]),
        ("leader", "app_exit", "which_key_end")
    );
    for f in KEYBIND_FIELDS {
        assert!(!f.required && f.doc.ends_with('.') && f.doc.len() > 5, "{}", f.name);
    }
    // The fields of every object are documented, each once.
    let Shape::Object(top) = &TUI else { panic!() };
    for f in top.fields {
        assert!(!f.doc.is_empty(), "{}", f.name);
    }
    assert_eq!(shape::lookup::fields_at(&TUI, &["keybinds"]).len(), 184);
}

#[test]
fn hover_says_what_a_setting_does_and_takes() {
    expect![[r#"
        **`diff_style`** (the tui.json settings)

        How diffs are drawn: `auto` adapts to the terminal's width, `stacked` always shows a single column.

        Value: "auto" or "stacked".
    "#]]
    .assert_eq(&hover(&["diff_style"]).unwrap());
    expect![[r#"
        **`session_new`** (keybind)

        Create a new session.

        Value: false, "none", a string, a key object, a binding object or an array of items that are each a string, a key object or a binding object.
    "#]]
    .assert_eq(&hover(&["keybinds", "session_new"]).unwrap());
    expect![[r#"
        **`enabled`** (scroll acceleration)

        Turn scroll acceleration on or off.

        Value: true or false. Required: without it opencode skips the whole file.
    "#]]
    .assert_eq(&hover(&["scroll_acceleration", "enabled"]).unwrap());
    // Inside a keybind's binding object.
    assert!(
        hover(&["keybinds", "app_exit", "event"])
            .unwrap()
            .contains("(a binding object)")
    );
    assert_eq!(hover(&["keybinds", "app_exitt"]), None);
    assert_eq!(hover(&["model"]), None);
}

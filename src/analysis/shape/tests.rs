use super::lookup::{field_at, fields_at, shapes_at, values_at};
use super::*;
use crate::analysis::syntax::jsonc;

// A small schema with every kind of shape, shaped like opencode's own.
static LOCAL: Object = Object {
    what: "a local server",
    fields: &[
        Field::req("type", Shape::Lit(&[Lit::Str("local")]), "local"),
        Field::req("command", Shape::Array(&Shape::Str), "the command"),
        Field::opt("environment", Shape::Record(&Shape::Str), "variables").aka(&["env"]),
        Field::opt("timeout", Shape::Num(Num::POSITIVE_INT), "ms"),
    ],
    rest: Rest::Drop,
};
static REMOTE: Object = Object {
    what: "a remote server",
    fields: &[
        Field::req("type", Shape::Lit(&[Lit::Str("remote")]), "remote"),
        Field::req("url", Shape::Str, "the URL"),
        Field::opt("enabled", Shape::Bool, "on"),
    ],
    rest: Rest::Drop,
};
static SWITCH: Object = Object {
    what: "a switch",
    fields: &[Field::req("enabled", Shape::Bool, "on")],
    rest: Rest::Drop,
};
static OPTIONS: Object = Object {
    what: "options",
    fields: &[Field::opt("apiKey", Shape::Str, "key")],
    rest: Rest::Keep(&Shape::Any),
};
static ROOT: Shape = Shape::Object(&Object {
    what: "the config",
    fields: &[
        Field::opt(
            "servers",
            Shape::Record(&Shape::Union(&[
                Shape::Union(&[Shape::Object(&LOCAL), Shape::Object(&REMOTE)]),
                Shape::Object(&SWITCH),
            ])),
            "servers",
        ),
        Field::opt(
            "update",
            Shape::Union(&[Shape::Bool, Shape::Lit(&[Lit::Str("notify")])]),
            "u",
        ),
        Field::opt("level", Shape::Lit(&[Lit::Str("DEBUG"), Lit::Str("INFO")]), "l"),
        Field::opt("depth", Shape::Num(Num::NON_NEGATIVE_INT), "d"),
        Field::opt(
            "port",
            Shape::Num(Num {
                int: true,
                min: Bound::Incl(1.0),
                max: Some(65535.0),
            }),
            "p",
        ),
        Field::opt(
            "plugin",
            Shape::Array(&Shape::Union(&[
                Shape::Str,
                Shape::Tuple(&[Shape::Str, Shape::Record(&Shape::Any)]),
            ])),
            "plugins",
        ),
        Field::opt("options", Shape::Object(&OPTIONS), "options"),
        Field::opt("agent", Shape::Custom("agents"), "agents"),
    ],
    rest: Rest::Drop,
});

/// Decode a JSON text against the test schema: each issue as `path @ spanned text: kind`, and
/// each dropped key as `path.key`.
fn run(text: &str) -> (Vec<String>, Vec<String>) {
    let parsed = jsonc::parse(text);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let root = parsed.root.unwrap();
    let d = decode(&root, &ROOT, Span::new(0, 1), &[]);
    let issues = d
        .issues
        .iter()
        .map(|i| {
            let kind = match &i.kind {
                IssueKind::Type { expected, .. } => format!("type, expected {}", describe(expected)),
                IssueKind::Value { expected, .. } => format!("value, expected {}", describe(expected)),
                IssueKind::Number { num, .. } => format!("number, expected {}", num.describe()),
                IssueKind::Missing { object, field } => format!("missing {} of {}", field.name, object.what),
                IssueKind::Extra { .. } => "extra item".into(),
                IssueKind::Unknown { object } => format!("unknown key of {}", object.what),
                IssueKind::MissingItem { .. } => "missing item".into(),
                IssueKind::NoBranch { tag, .. } => format!("no branch (tag {:?})", tag.map(|(f, _)| f.name)),
            };
            format!("{} @ {}: {kind}", i.path.join("."), i.span.text(text))
        })
        .collect();
    let dropped = d
        .dropped
        .iter()
        .map(|x| {
            let mut p = x.path.clone();
            p.push(x.key.name.clone());
            format!(
                "{}{}",
                p.join("."),
                if x.other_member_has_it { " (other form)" } else { "" }
            )
        })
        .collect();
    (issues, dropped)
}

#[test]
fn a_valid_value_has_no_issue_and_keeps_rest_keys() {
    let (issues, dropped) = run(
        r#"{"servers": {"a": {"type": "local", "command": ["x"], "environment": {"A": "1"}, "timeout": 5},
             "b": {"type": "remote", "url": "u"}, "c": {"enabled": false}},
            "update": "notify", "level": "INFO", "depth": 0, "port": 65535,
            "plugin": ["p", ["q", {"k": 1}]], "options": {"apiKey": "k", "anything": [1]},
            "agent": {"whatever": 1}}"#,
    );
    assert_eq!(issues, Vec::<String>::new());
    assert_eq!(dropped, Vec::<String>::new());
}

#[test]
fn wrong_types_and_values_sit_on_the_value() {
    let (issues, _) = run(
        r#"{"servers": {"a": {"type": "local", "command": "npx x"}}, "update": "yes", "level": "debug",
            "depth": -1, "port": 0, "options": {"apiKey": 5}}"#,
    );
    assert_eq!(
        issues,
        [
            "servers.a.command @ \"npx x\": type, expected an array of strings",
            "update @ \"yes\": value, expected true, false or \"notify\"",
            "level @ \"debug\": value, expected \"DEBUG\" or \"INFO\"",
            "depth @ -1: number, expected a whole number, 0 or more",
            "port @ 0: number, expected a whole number from 1 to 65535",
            "options.apiKey @ 5: type, expected a string",
        ]
    );
}

#[test]
fn numbers_must_be_whole_and_in_bounds() {
    let (issues, _) = run(r#"{"depth": 1.5, "port": 65536}"#);
    assert_eq!(
        issues,
        [
            "depth @ 1.5: number, expected a whole number, 0 or more",
            "port @ 65536: number, expected a whole number from 1 to 65535"
        ]
    );
    // 2.0 is a whole number, as JavaScript reads it.
    assert_eq!(run(r#"{"depth": 2.0}"#).0, Vec::<String>::new());
    // Beyond what a JavaScript number holds exactly.
    assert_eq!(run(r#"{"depth": 1e300}"#).0.len(), 1);
}

#[test]
fn unknown_keys_of_plain_objects_are_dropped_at_every_depth() {
    let (issues, dropped) = run(
        r#"{"servers": {"a": {"type": "local", "command": ["x"], "env": {}}}, "extra": 1, "options": {"kept": 1}}"#,
    );
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(dropped, ["servers.a.env", "extra"]);
}

#[test]
fn a_union_is_decoded_by_its_first_member_that_takes_the_value() {
    // `{enabled}` alone is the switch; with `url` too, the switch still takes it and drops
    // `url`, which the remote form has.
    let (issues, dropped) = run(r#"{"servers": {"a": {"enabled": false, "url": "x"}}}"#);
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(dropped, ["servers.a.url (other form)"]);
    let (_, dropped) = run(r#"{"servers": {"a": {"enabled": false, "nope": "x"}}}"#);
    assert_eq!(dropped, ["servers.a.nope"]);
    // A remote server with a `command`: the remote form takes it and drops `command`, which the
    // local form has.
    let (issues, dropped) = run(r#"{"servers": {"a": {"type": "remote", "url": "x", "command": ["y"]}}}"#);
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(dropped, ["servers.a.command (other form)"]);
}

#[test]
fn a_refused_union_reports_the_member_that_fits_best() {
    // The tag selects the local form: its own issues, not the switch's missing `enabled`.
    let (issues, _) = run(r#"{"servers": {"a": {"type": "local", "command": "x"}}}"#);
    assert_eq!(
        issues,
        ["servers.a.command @ \"x\": type, expected an array of strings"]
    );
    // An unknown tag: on the tag's value.
    let (issues, _) = run(r#"{"servers": {"a": {"type": "lokal", "command": ["x"]}}}"#);
    assert_eq!(issues, ["servers.a.type @ \"lokal\": no branch (tag Some(\"type\"))"]);
    // No tag, but the keys of the switch: the switch's issue.
    let (issues, _) = run(r#"{"servers": {"a": {"enabled": "yes"}}}"#);
    assert_eq!(issues, ["servers.a.enabled @ \"yes\": type, expected true or false"]);
    // No tag and nothing known: on the entry's key, saying the tag is missing.
    let (issues, _) = run(r#"{"servers": {"a": {"url": "x"}}}"#);
    assert_eq!(issues, ["servers.a @ \"a\": no branch (tag Some(\"type\"))"]);
    // A required field of the tagged form: on the entry's key.
    let (issues, _) = run(r#"{"servers": {"a": {"type": "remote"}}}"#);
    assert_eq!(issues, ["servers.a.url @ \"a\": missing url of a remote server"]);
    // A value no member can take by its type.
    let (issues, _) = run(r#"{"servers": {"b": 5}}"#);
    assert_eq!(issues, ["servers.b @ 5: no branch (tag None)"]);
}

#[test]
fn tuples_take_exactly_their_items() {
    let (issues, _) = run(r#"{"plugin": [["a", {}], ["b"], ["c", {}, 3], 5]}"#);
    assert_eq!(
        issues,
        [
            "plugin.1.1 @ [\"b\"]: missing item",
            "plugin.2.2 @ 3: extra item",
            "plugin.3 @ 5: no branch (tag None)",
        ]
    );
}

#[test]
fn custom_and_unreadable_values_are_left_to_others() {
    let (issues, dropped) = run(r#"{"agent": 5}"#);
    assert!(issues.is_empty() && dropped.is_empty());
    let node = Node::new(Span::new(0, 1), crate::analysis::syntax::Style::Plain, Value::Unknown);
    assert!(!decode(&node, &ROOT, Span::new(0, 1), &[]).refused());
}

#[test]
fn the_last_of_a_repeated_key_is_decoded() {
    let (issues, _) = run(r#"{"depth": -1, "depth": 1}"#);
    assert!(issues.is_empty(), "{issues:?}");
    let (issues, _) = run(r#"{"depth": 1, "depth": -1}"#);
    assert_eq!(issues, ["depth @ -1: number, expected a whole number, 0 or more"]);
}

#[test]
fn descriptions() {
    assert_eq!(describe(&Shape::Num(Num::ANY)), "a number");
    assert_eq!(
        describe(&Shape::Num(Num::POSITIVE_INT)),
        "a whole number greater than 0"
    );
    assert_eq!(
        describe(&Shape::Record(&Shape::Str)),
        "an object whose values are strings"
    );
    assert_eq!(describe(&Shape::Record(&Shape::Any)), "an object");
    let Shape::Object(root) = &ROOT else { unreachable!() };
    let servers = &root.field("servers").unwrap().shape;
    assert_eq!(
        describe(servers),
        "an object whose values are each a local server, a remote server or a switch"
    );
    assert_eq!(either(vec![]), "");
    assert_eq!(either(vec!["a".into()]), "a");
    assert_eq!(either(vec!["a".into(), "b".into(), "c".into()]), "a, b or c");
}

#[test]
fn suggestions_for_unknown_keys() {
    assert_eq!(LOCAL.suggest("env"), Some("environment"));
    assert_eq!(LOCAL.suggest("enviroment"), Some("environment"));
    assert_eq!(LOCAL.suggest("comand"), Some("command"));
    // A prefix of one field only.
    assert_eq!(LOCAL.suggest("envi"), Some("environment"));
    assert_eq!(LOCAL.suggest("zzz"), None);
    assert_eq!(REMOTE.suggest("e"), None);
}

#[test]
fn lookups_for_completion_and_hover() {
    let names = |fs: Vec<(&'static Object, &'static Field)>| fs.iter().map(|(_, f)| f.name).collect::<Vec<_>>();
    assert_eq!(
        names(fields_at(&ROOT, &["servers", "a"])),
        ["type", "command", "environment", "timeout", "url", "enabled"]
    );
    // Through an array: a tuple's object.
    assert!(fields_at(&ROOT, &["plugin"]).is_empty());
    let hover = field_at(&ROOT, &["servers", "x", "enabled"]);
    let whats: Vec<&str> = hover.iter().map(|(o, _)| o.what).collect();
    assert_eq!(whats, ["a remote server", "a switch"]);
    assert_eq!(
        values_at(&ROOT, &["servers", "x", "type"]),
        [Lit::Str("local"), Lit::Str("remote")]
    );
    assert_eq!(
        values_at(&ROOT, &["update"]),
        [Lit::Bool(true), Lit::Bool(false), Lit::Str("notify")]
    );
    assert!(field_at(&ROOT, &[]).is_empty());
    assert!(shapes_at(&ROOT, &["nope", "x"]).is_empty());
}

#[test]
fn a_deep_union_costs_bounded_work() {
    // Every level is a union tried member by member: the budget bounds the walk.
    let mut text = String::new();
    for _ in 0..60 {
        text.push_str(r#"{"servers": {"a": "#);
    }
    text.push('1');
    for _ in 0..60 {
        text.push_str("}}");
    }
    let parsed = jsonc::parse(&text);
    let root = parsed.root.unwrap();
    let d = decode(&root, &ROOT, Span::new(0, 1), &[]);
    assert!(d.refused());
}

#[test]
fn a_strict_object_refuses_an_unknown_key_on_the_key() {
    static STRICT: Shape = Shape::Object(&Object {
        what: "a strict thing",
        fields: &[Field::opt("a", Shape::Bool, "a")],
        rest: Rest::Refuse,
    });
    let text = r#"{"a": true, "b": 1}"#;
    let root = jsonc::parse(text).root.unwrap();
    let d = decode(&root, &STRICT, Span::new(0, 1), &["x".to_string()]);
    assert!(d.dropped.is_empty());
    let got: Vec<(String, &str)> = d.issues.iter().map(|i| (i.path.join("."), i.span.text(text))).collect();
    assert_eq!(got, [("x.b".to_string(), "\"b\"")]);
    assert!(matches!(d.issues[0].kind, IssueKind::Unknown { object } if object.what == "a strict thing"));
}

#[test]
fn an_alias_is_suggested_where_the_spelling_is_far() {
    static O: Object = Object {
        what: "a server",
        fields: &[Field::opt("environment", Shape::Record(&Shape::Str), "variables").aka(&["vars"])],
        rest: Rest::Drop,
    };
    assert_eq!(O.suggest("vars"), Some("environment"));
    assert_eq!(O.suggest("zzzz"), None);
}

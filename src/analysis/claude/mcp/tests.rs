use super::*;
use expect_test::{Expect, expect};

/// Each diagnostic as `severity code effect [text]: message`.
fn run(text: &str) -> String {
    let (d, _, _) = analyze(text);
    d.iter()
        .map(|d| {
            format!(
                "{} {} {} [{}]: {}\n",
                d.severity.as_str(),
                d.code.as_str(),
                d.effect.as_str(),
                d.span.text(text),
                d.message
            )
        })
        .collect()
}

fn check(text: &str, want: Expect) {
    want.assert_eq(&run(text));
}

/// `{"mcpServers": {...}}` around one server `a`.
fn one(server: &str) -> String {
    format!("{{\"mcpServers\": {{\"a\": {server}}}}}")
}

#[test]
fn probe() {
    check(&one(r#"{"command": 5}"#), expect![""]);
}

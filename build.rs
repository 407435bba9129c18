//! The registration list of the dialects, read from `src/analysis/mod.rs`.
//!
//! A dialect is registered by its one `pub mod <module>;` line in that file's dialect block
//! (between `// The dialects` and `// End of the dialects.`; the test dialect's line comes after
//! `#[cfg(test)]`). The module is a plain `mod` line, so that rustfmt, cargo-mutants and every
//! tool that follows `mod` lines see the folder. This script writes the list as the macro
//! `for_each_dialect!` (`$OUT_DIR/dialects.rs`, included by `src/analysis/registry.rs`): each
//! dialect as `Variant => module`, the variant being the module's name in UpperCamelCase
//! (`opencode` is `Dialect::Opencode`). `registry.rs` documents what the list expands into.

use std::fmt::Write as _;

const SOURCE: &str = "src/analysis/mod.rs";
const START: &str = "// The dialects";
const END: &str = "// End of the dialects.";

/// `github_copilot` -> `GithubCopilot`.
fn camel(module: &str) -> String {
    module
        .split('_')
        .map(|part| {
            let mut c = part.chars();
            c.next()
                .map(|first| first.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

fn main() {
    println!("cargo:rerun-if-changed={SOURCE}");
    println!("cargo:rerun-if-changed=build.rs");
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let path = std::path::Path::new(&root).join(SOURCE);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let start = text
        .find(START)
        .unwrap_or_else(|| panic!("{SOURCE}: no dialect block (a line starting `{START}`)"));
    let end = text[start..]
        .find(END)
        .map(|e| start + e)
        .unwrap_or_else(|| panic!("{SOURCE}: the dialect block has no `{END}` line"));
    let mut dialects: Vec<String> = Vec::new();
    let mut test: Option<String> = None;
    let mut test_next = false;
    for line in text[start..end].lines().map(str::trim) {
        if line == "#[cfg(test)]" {
            test_next = true;
            continue;
        }
        let Some(module) = line.strip_prefix("pub mod ").and_then(|r| r.strip_suffix(';')) else {
            continue;
        };
        let entry = format!("{} => {module}", camel(module));
        if std::mem::take(&mut test_next) {
            assert!(test.is_none(), "{SOURCE}: two test dialects in the dialect block");
            test = Some(entry);
        } else {
            dialects.push(entry);
        }
    }
    assert!(!dialects.is_empty(), "{SOURCE}: no `pub mod` line in the dialect block");
    let test = test.unwrap_or_else(|| panic!("{SOURCE}: no `#[cfg(test)] pub mod` line (the test dialect)"));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "/// Hands the registration list (read from `{SOURCE}` by `build.rs`) to the macro `$expand`."
    );
    let _ = writeln!(out, "macro_rules! for_each_dialect {{");
    let _ = writeln!(out, "    ($expand:ident) => {{");
    let _ = writeln!(out, "        $expand! {{");
    let _ = writeln!(out, "            test: {test};");
    for d in &dialects {
        let _ = writeln!(out, "            {d},");
    }
    let _ = writeln!(out, "        }}\n    }};\n}}");
    let dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let path = std::path::Path::new(&dir).join("dialects.rs");
    std::fs::write(&path, out).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
}

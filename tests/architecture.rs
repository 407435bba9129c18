//! The crate's layering, checked on its own source text.
//!
//! This test reads every `.rs` file under `src/` (nothing is compiled or hard-coded: the module
//! tree, the imports and the enums are all parsed from the text) and builds the **file-level
//! import graph**: an edge `a.rs -> b.rs` when code in `a.rs` names an item that `b.rs` defines.
//!
//! How the graph is built:
//!
//! - The module tree starts at `src/lib.rs` (`crate`) and `src/main.rs` (a crate of its own, which
//!   reaches the library as `agent_lsp::`); `mod x;` is `x.rs` or `x/mod.rs` beside a `mod.rs`,
//!   `lib.rs` or `main.rs`, and `a/x.rs` or `a/x/mod.rs` from `a.rs`; inline `mod x { ... }`
//!   blocks are modules of their own inside their file. `#[path]` is not supported (not used).
//! - Comments (line, block, nested, doc) and literals (strings, raw strings `r#"..."#`, byte and C
//!   strings, chars and byte chars; not lifetimes or labels) are blanked before anything is read.
//! - **Test code is left out of the graph** (tests may reach anywhere): an item under an attribute
//!   whose `cfg` needs `test` (`#[cfg(test)]`, `#[cfg(all(test, ..))]`, not `cfg(not(test))`),
//!   an inline `#[cfg(test)] mod tests { ... }`, a file declared `#[cfg(test)] mod x;` (never read),
//!   a `#[test]` function, and a block or file carrying `#![cfg(test)]`.
//! - Every `use` tree is expanded (brace groups, `self`, `super`, `crate`, `as`, `*`) and bound in
//!   the block it is written in (a `use` inside a function binds only there). Paths in code are
//!   read wherever they start with `crate::`, `self::`, `super::`, `Self::`, a name a `use`
//!   brought in, a child module of the current module or an item of the current module.
//! - An edge goes to the file that **defines** the item: the longest prefix of the resolved path
//!   that is a module gives a file; when the next name is imported by that module (a `pub use`,
//!   `pub(crate) use`, or a private `use`, which descendants may reach too), the import is
//!   followed to its origin, recursively (with a depth guard); a glob import is followed when the
//!   module or enum it names provides the name.
//! - A `use` that names a module (not an item in it) is no edge by itself: the paths through
//!   that name are. A glob `use m::*` is an edge to `m`'s file. A `mod x;` is no edge. A bare
//!   macro call `name!` is an edge to the file whose module (the caller's or an ancestor) defines
//!   `macro_rules! name`. Self-edges are dropped; paths into other crates are ignored.
//!
//! Known limits (most of them can only hide an edge; the three that could misplace one are
//! marked *misplace*, and none is known to happen in this crate):
//!
//! - Macros are not expanded: a path to an item a macro makes is taken to end in the file of its
//!   longest module prefix (where the macro ran); paths inside a `macro_rules!` body count as code
//!   of the file that defines the macro (`$crate` is `crate`).
//! - A name the resolver cannot find in the crate is taken for another crate's, a generic, a
//!   local or a prelude name and dropped: an edge missed, never guessed. Items declared inside a
//!   function body are local names (they hide outer ones and are never an edge).
//! - Calling a method on a value names neither the type nor the file with the `impl`, so
//!   `x.method()` is no edge (where the type or trait is named, that is one).
//! - *Misplace*: namespaces (types, values, macros) are not told apart, so a module and a function
//!   of one name in one scope could be mixed up.
//! - *Misplace*: a name a module gets from a glob import of another crate (`pub use other::*`),
//!   or from a glob of a module whose items a macro makes, is taken to be defined in that module.
//! - *Misplace*: a `#[macro_export]` macro called as `crate::name!` is taken to be in `lib.rs`;
//!   `macro_rules!` scope ignores textual order and `#[macro_use]`.
//! - Every `cfg` other than `test` is taken as enabled (both `cfg(unix)` and `cfg(not(unix))`
//!   code is read; of two inline modules of one name, the first is the one seen from outside).
//! - `#[path]`, `include!` and `extern` blocks are not read; `Self` in a trait's default method is
//!   not resolved.
//! - The dispatch count sees paths (`FileKind::Zuno`, `K::Zuno` after `use ..FileKind as K`,
//!   `Self::Zuno` in `impl FileKind`, `Zuno` after `use ..Dialect::*` or `use ..Dialect::Zuno`),
//!   not a variant reached otherwise (a macro building the path from pieces).
//!
//! Checks: no file in one dialect's folder (`src/analysis/<dialect>/`) reaches another dialect's
//! files; the graph has no cycle; and only a few files outside the dialect folders name variants
//! of the top-level `FileKind` and `Dialect` enums (the places that dispatch on the dialect).
//! `cargo test --test architecture report -- --nocapture` prints the numbers (with `ARCH_EDGES=1`,
//! every edge and the paths behind it too).

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fmt::Write as _;
use std::path::Path;

const DIALECT_PARENT: &str = "src/analysis";
/// The file whose dialect block registers the dialects: one `pub mod <module>;` line each (the
/// test dialect's after `#[cfg(test)]`), its folder being `src/analysis/<module>/` and its
/// variant the module's name in UpperCamelCase (as `build.rs` reads it into the list).
const REGISTRY: &str = "src/analysis/mod.rs";
/// The files that expand the list, and with which macro (see [`expanded`]).
const EXPANSIONS: &[(&str, &str)] = &[
    ("src/analysis/mod.rs", "declare_dialect_specs"),
    ("src/analysis/dialect.rs", "declare_dialect_enum"),
    ("src/analysis/kind.rs", "declare_kinds"),
];
/// The enums whose registered variants are the dialect dispatch; found by parsing `src/analysis`.
const DISPATCH_ENUMS: &[&str] = &["FileKind", "Dialect", "Facts"];
/// At most this many files outside a dialect's folder import from it: the expansions that name
/// its module (`mod.rs`, for its module and `Spec`; `kind.rs`, for its `FileKind` and `Facts`).
const MAX_FILES_IMPORTING_A_DIALECT: usize = 2;
/// The layers that reach the dialects through the registry only, never by a path into a folder.
const LAYERS_THAT_NAME_NO_DIALECT: &[&str] = &["src/workspace", "src/lsp", "src/cli", "src/mcp"];
/// How many of the biggest files the report lists.
const BIGGEST: usize = 15;
/// Guard against import chains that loop (`use a::b as c; use c::d as b;`).
const MAX_DEPTH: usize = 32;

// ------------------------------------------------------------------------------------------------
// Comments and literals
// ------------------------------------------------------------------------------------------------

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// `src` with comments blanked and each literal (string, raw string, byte string, char) turned
/// into `"` + blanks + `"`. Newlines are kept, so line numbers stay true.
fn strip(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let n = c.len();
    let mut out = String::with_capacity(src.len());
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    // A literal from `start` to `end` (exclusive), prefix and hashes included.
    let literal = |out: &mut String, start: usize, end: usize| {
        for (k, &ch) in c[start..end].iter().enumerate() {
            if k == 0 || k + 1 == end - start {
                out.push('"');
            } else {
                blank(out, ch);
            }
        }
    };
    let quoted_end = |q: usize| {
        // `q` is the opening `"`.
        let mut j = q + 1;
        while j < n {
            match c[j] {
                '\\' => j += 2,
                '"' => return j + 1,
                _ => j += 1,
            }
        }
        n
    };
    let raw_end = |q: usize, hashes: usize| {
        // `q` is the opening `"` of a raw string with `hashes` hashes.
        let mut j = q + 1;
        while j < n {
            if c[j] == '"' && (1..=hashes).all(|h| c.get(j + h) == Some(&'#')) {
                return j + 1 + hashes;
            }
            j += 1;
        }
        n
    };
    let char_end = |q: usize| -> Option<usize> {
        // `q` is a `'`: a char literal, or a lifetime or label (`None`).
        match c.get(q + 1) {
            Some('\\') => {
                let mut j = q + 3;
                while j < n && c[j] != '\'' && c[j] != '\n' {
                    j += 1;
                }
                (j < n && c[j] == '\'').then_some(j + 1)
            }
            Some(&ch) if ch != '\'' && ch != '\n' && c.get(q + 2) == Some(&'\'') => Some(q + 3),
            _ => None,
        }
    };
    let mut i = 0;
    while i < n {
        let ch = c[i];
        if ch == '/' && c.get(i + 1) == Some(&'/') {
            while i < n && c[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0usize;
            while i < n {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if ch == '"' {
            let end = quoted_end(i);
            literal(&mut out, i, end);
            i = end;
        } else if ch == '\'' {
            match char_end(i) {
                Some(end) => {
                    literal(&mut out, i, end);
                    i = end;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else if is_ident_start(ch) && (i == 0 || !is_ident_char(c[i - 1])) {
            let start = i;
            while i < n && is_ident_char(c[i]) {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            let next = c.get(i).copied();
            let end = match (word.as_str(), next) {
                ("b", Some('\'')) => char_end(i),
                ("b" | "c", Some('"')) => Some(quoted_end(i)),
                ("r" | "br" | "cr", Some('"' | '#')) => {
                    let hashes = c[i..].iter().take_while(|&&h| h == '#').count();
                    (c.get(i + hashes) == Some(&'"')).then(|| raw_end(i + hashes, hashes))
                }
                _ => None,
            };
            match end {
                Some(end) => {
                    literal(&mut out, start, end);
                    i = end;
                }
                None => out.push_str(&word),
            }
        } else {
            out.push(ch);
            i += 1;
        }
    }
    out
}

// ------------------------------------------------------------------------------------------------
// Tokens
// ------------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ident,
    /// `r#type`: never a keyword.
    RawIdent,
    /// `::`
    PathSep,
    Punct,
    Literal,
    Lifetime,
}

#[derive(Clone, Debug)]
struct Tok {
    kind: Kind,
    text: String,
    line: u32,
}

impl Tok {
    fn is(&self, s: &str) -> bool {
        matches!(self.kind, Kind::Punct | Kind::PathSep) && self.text == s
    }

    fn kw(&self, s: &str) -> bool {
        self.kind == Kind::Ident && self.text == s
    }
}

fn is(t: Option<&Tok>, s: &str) -> bool {
    t.is_some_and(|t| t.is(s))
}

const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false", "fn",
    "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self",
    "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "abstract", "become",
    "box", "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// The token as a path segment: a name, or `crate`, `self`, `super`, `Self`.
fn segment(t: &Tok) -> Option<&str> {
    match t.kind {
        Kind::RawIdent => Some(&t.text),
        Kind::Ident if !KEYWORDS.contains(&t.text.as_str()) => Some(&t.text),
        Kind::Ident if ["crate", "self", "super", "Self"].contains(&t.text.as_str()) => Some(&t.text),
        _ => None,
    }
}

/// A name that can be declared (not a keyword, not `_`).
fn name(t: Option<&Tok>) -> Option<&str> {
    let t = t?;
    match t.kind {
        Kind::RawIdent => Some(&t.text),
        Kind::Ident if !KEYWORDS.contains(&t.text.as_str()) && t.text != "_" => Some(&t.text),
        _ => None,
    }
}

/// Tokens of stripped text (see [`strip`]).
fn tokenize(s: &str) -> Vec<Tok> {
    let c: Vec<char> = s.chars().collect();
    let n = c.len();
    let mut toks = Vec::new();
    let mut line = 1u32;
    let mut i = 0;
    let push = |toks: &mut Vec<Tok>, kind, text: String, line| toks.push(Tok { kind, text, line });
    while i < n {
        let ch = c[i];
        let word_end = |from: usize| {
            let mut j = from;
            while j < n && is_ident_char(c[j]) {
                j += 1;
            }
            j
        };
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '"' {
            let start_line = line;
            let mut j = i + 1;
            while j < n && c[j] != '"' {
                if c[j] == '\n' {
                    line += 1;
                }
                j += 1;
            }
            push(&mut toks, Kind::Literal, String::new(), start_line);
            i = j + 1;
        } else if ch == '\'' && c.get(i + 1).is_some_and(|&d| is_ident_start(d)) {
            let j = word_end(i + 1);
            push(&mut toks, Kind::Lifetime, c[i..j].iter().collect(), line);
            i = j;
        } else if ch == 'r'
            && c.get(i + 1) == Some(&'#')
            && c.get(i + 2).is_some_and(|&d| is_ident_start(d))
            && (i == 0 || !is_ident_char(c[i - 1]))
        {
            let j = word_end(i + 2);
            push(&mut toks, Kind::RawIdent, c[i + 2..j].iter().collect(), line);
            i = j;
        } else if is_ident_start(ch) {
            let j = word_end(i);
            push(&mut toks, Kind::Ident, c[i..j].iter().collect(), line);
            i = j;
        } else if ch.is_ascii_digit() {
            let mut j = word_end(i);
            while c.get(j) == Some(&'.') && c.get(j + 1).is_some_and(|d| d.is_ascii_digit()) {
                j = word_end(j + 1);
            }
            push(&mut toks, Kind::Literal, String::new(), line);
            i = j;
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            push(&mut toks, Kind::PathSep, "::".into(), line);
            i += 2;
        } else if ch == '$' && c[i + 1..].starts_with(&['c', 'r', 'a', 't', 'e']) && word_end(i + 1) == i + 6 {
            // `$crate` in a macro body is the defining crate.
            push(&mut toks, Kind::Ident, "crate".into(), line);
            i += 6;
        } else {
            push(&mut toks, Kind::Punct, ch.to_string(), line);
            i += 1;
        }
    }
    toks
}

/// For each `(`, `[`, `{`: the index of its closer, and for each closer its opener.
fn match_brackets(toks: &[Tok]) -> Vec<Option<usize>> {
    let mut mat = vec![None; toks.len()];
    let mut stack: Vec<usize> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.is("(") || t.is("[") || t.is("{") {
            stack.push(i);
        } else if t.is(")") || t.is("]") || t.is("}") {
            let want = match t.text.as_str() {
                ")" => "(",
                "]" => "[",
                _ => "{",
            };
            // Tolerate a stray closer: only match the nearest opener of its kind.
            if let Some(pos) = stack.iter().rposition(|&o| toks[o].is(want)) {
                let o = stack[pos];
                stack.truncate(pos);
                mat[o] = Some(i);
                mat[i] = Some(o);
            }
        }
    }
    mat
}

// ------------------------------------------------------------------------------------------------
// Test code
// ------------------------------------------------------------------------------------------------

/// Whether an attribute (the tokens between `#[` and `]`) makes its item test-only: `test`, or a
/// `cfg` whose predicate cannot hold without `test`.
fn is_test_attr(attr: &[Tok]) -> bool {
    match attr {
        [t] => t.kw("test"),
        [cfg, open, pred @ .., close] if cfg.kw("cfg") && open.is("(") && close.is(")") => cfg_needs_test(pred),
        _ => false,
    }
}

fn cfg_needs_test(pred: &[Tok]) -> bool {
    match pred {
        [t] => t.kw("test"),
        [f, open, args @ .., close] if open.is("(") && close.is(")") => {
            let args = split_top(args, ",");
            match f.text.as_str() {
                "all" => args.iter().any(|a| cfg_needs_test(a)),
                "any" => !args.is_empty() && args.iter().all(|a| cfg_needs_test(a)),
                _ => false,
            }
        }
        _ => false,
    }
}

/// `toks` split at `sep` outside any brackets; empty parts dropped.
fn split_top<'a>(toks: &'a [Tok], sep: &str) -> Vec<&'a [Tok]> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, t) in toks.iter().enumerate() {
        if t.is("(") || t.is("[") || t.is("{") {
            depth += 1;
        } else if t.is(")") || t.is("]") || t.is("}") {
            depth -= 1;
        } else if depth == 0 && t.is(sep) {
            parts.push(&toks[start..i]);
            start = i + 1;
        }
    }
    parts.push(&toks[start..]);
    parts.retain(|p| !p.is_empty());
    parts
}

const ITEM_KEYWORDS: &[&str] = &[
    "fn",
    "mod",
    "impl",
    "struct",
    "enum",
    "trait",
    "type",
    "const",
    "static",
    "use",
    "union",
    "macro_rules",
    "extern",
    "let",
    "unsafe",
    "async",
    "default",
];

/// The end (exclusive) of the item, field, variant, arm or statement starting at `start` (just
/// after its attributes).
fn item_end(toks: &[Tok], mat: &[Option<usize>], start: usize) -> usize {
    let mut k = start;
    if toks.get(k).is_some_and(|t| t.kw("pub")) {
        k += 1;
        if is(toks.get(k), "(") {
            k = mat[k].map_or(toks.len(), |c| c + 1);
        }
    }
    let item = toks
        .get(k)
        .is_some_and(|t| t.kind == Kind::Ident && ITEM_KEYWORDS.contains(&t.text.as_str()));
    let mut j = start;
    while j < toks.len() {
        let t = &toks[j];
        if t.is("{") {
            return mat[j].map_or(toks.len(), |c| c + 1);
        } else if t.is("(") || t.is("[") {
            j = mat[j].map_or(toks.len(), |c| c + 1);
            continue;
        } else if t.is(")") || t.is("]") || t.is("}") {
            return j;
        } else if t.is(";") || (!item && t.is(",")) {
            return j + 1;
        }
        j += 1;
    }
    toks.len()
}

/// The token ranges that are test code, in order and disjoint; `true` when the whole file is.
fn test_ranges(toks: &[Tok], mat: &[Option<usize>]) -> (Vec<(usize, usize)>, bool) {
    let mut ranges = Vec::new();
    let mut braces: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if t.is("#") {
            let inner = is(toks.get(i + 1), "!");
            let open = if inner { i + 2 } else { i + 1 };
            if let (true, Some(close)) = (is(toks.get(open), "["), mat.get(open).copied().flatten()) {
                if inner {
                    if is_test_attr(&toks[open + 1..close]) {
                        match braces.last() {
                            None => return (vec![(0, toks.len())], true),
                            Some(&b) => {
                                let end = mat[b].unwrap_or(toks.len());
                                ranges.push((i, end));
                                i = end;
                                continue;
                            }
                        }
                    }
                    i = close + 1;
                    continue;
                }
                // Outer attributes: all of those in a row belong to the next item.
                let mut k = i;
                let mut test = false;
                while is(toks.get(k), "#") && is(toks.get(k + 1), "[") {
                    let Some(c) = mat[k + 1] else { break };
                    test |= is_test_attr(&toks[k + 2..c]);
                    k = c + 1;
                }
                if test {
                    let end = item_end(toks, mat, k).max(k);
                    ranges.push((i, end));
                    i = end;
                } else {
                    i = k.max(i + 1);
                }
                continue;
            }
        }
        if t.is("{") {
            braces.push(i);
        } else if t.is("}") {
            braces.pop();
        }
        i += 1;
    }
    (ranges, false)
}

// ------------------------------------------------------------------------------------------------
// `use` trees
// ------------------------------------------------------------------------------------------------

/// One leaf of a `use` tree: the full path as written, and the name it binds (`None` for a glob).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Leaf {
    path: Vec<String>,
    binding: Option<String>,
}

/// The leaves of the `use` declaration at `i` (the `use` keyword), and the index after its `;`.
fn parse_use(toks: &[Tok], i: usize) -> (Vec<Leaf>, usize) {
    let mut j = i + 1;
    let mut prefix = Vec::new();
    if is(toks.get(j), "::") {
        // `use ::std::..`: always another crate.
        prefix.push("::".to_string());
        j += 1;
    }
    let mut leaves = Vec::new();
    use_tree(toks, &mut j, prefix, &mut leaves);
    while j < toks.len() && !toks[j].is(";") {
        j += 1;
    }
    (leaves, (j + 1).min(toks.len()).max(i + 1))
}

fn use_tree(toks: &[Tok], j: &mut usize, prefix: Vec<String>, leaves: &mut Vec<Leaf>) -> bool {
    let Some(t) = toks.get(*j) else { return false };
    if t.is("{") {
        *j += 1;
        loop {
            match toks.get(*j) {
                None => return false,
                Some(t) if t.is("}") => {
                    *j += 1;
                    return true;
                }
                Some(t) if t.is(",") => *j += 1,
                Some(_) => {
                    if !use_tree(toks, j, prefix.clone(), leaves) {
                        return false;
                    }
                }
            }
        }
    }
    if t.is("*") {
        *j += 1;
        leaves.push(Leaf {
            path: prefix,
            binding: None,
        });
        return true;
    }
    let mut path = prefix;
    let mut t = t;
    loop {
        let Some(s) = segment(t) else { return false };
        path.push(s.to_string());
        *j += 1;
        if !is(toks.get(*j), "::") {
            break;
        }
        *j += 1;
        match toks.get(*j) {
            Some(n) if n.is("{") || n.is("*") => return use_tree(toks, j, path, leaves),
            Some(n) => t = n,
            None => return false,
        }
    }
    let mut alias = None;
    if toks.get(*j).is_some_and(|t| t.kw("as")) {
        *j += 1;
        match toks.get(*j) {
            Some(a) if a.kind == Kind::Ident || a.kind == Kind::RawIdent => alias = Some(a.text.clone()),
            _ => return false,
        }
        *j += 1;
    }
    // `m::{self}` binds `m` itself.
    if path.len() >= 2 && path.last().is_some_and(|s| s == "self") {
        path.pop();
    }
    let binding = alias.or_else(|| path.last().cloned());
    leaves.push(Leaf { path, binding });
    true
}

// ------------------------------------------------------------------------------------------------
// The crate
// ------------------------------------------------------------------------------------------------

#[derive(Debug, Default)]
struct Module {
    path: Vec<String>,
    /// The file it lives in (its own, or its parent's for an inline module).
    file: Option<usize>,
    /// Its top-level block in that file.
    block: usize,
    /// The module that is its crate's root.
    root: usize,
    parent: Option<usize>,
    /// The folder its child modules' files are in.
    dir: String,
    children: BTreeMap<String, usize>,
    items: BTreeSet<String>,
    enums: BTreeMap<String, Vec<String>>,
    macros: BTreeSet<String>,
}

/// A `{ }` block of a file: a module's top level, a function body, an `impl`...
#[derive(Debug)]
struct Block {
    parent: Option<usize>,
    module: usize,
    is_module: bool,
    /// The type of an `impl` block, as written (for `Self`).
    impl_self: Option<Vec<String>>,
    /// A function body or a plain block, whose items are local names (not an `impl`, a
    /// `trait` or a module).
    local: bool,
    /// Items declared in a `local` block: they shadow the names outside it.
    items: BTreeSet<String>,
    uses: Vec<usize>,
}

#[derive(Debug)]
struct UseDecl {
    block: usize,
    leaf: Leaf,
    line: u32,
}

/// A path written in code.
#[derive(Debug)]
struct Occurrence {
    block: usize,
    segs: Vec<String>,
    line: u32,
    /// `name!`
    is_macro: bool,
}

#[derive(Debug, Default)]
struct SrcFile {
    rel: String,
    lines: usize,
    /// Lines inside test code.
    test_lines: usize,
    /// The whole file is test code.
    test_only: bool,
    /// Tokens outside test code.
    code: Vec<Tok>,
    blocks: Vec<Block>,
    uses: Vec<UseDecl>,
    occurrences: Vec<Occurrence>,
}

/// Where an edge comes from in the source.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Via {
    line: u32,
    path: String,
}

#[derive(Debug, Default)]
struct Crate {
    files: Vec<SrcFile>,
    by_rel: HashMap<String, usize>,
    modules: Vec<Module>,
    by_path: HashMap<Vec<String>, usize>,
    lib_root: Option<usize>,
    /// The library's name from other crates (`agent_lsp`).
    extern_name: String,
    /// Files under `src/` that are never read: declared under `#[cfg(test)]`.
    test_files: Vec<String>,
    /// Files under `src/` no `mod` reaches.
    unreached: Vec<String>,
    /// `mod x;` with no file.
    missing: Vec<String>,
    /// Files with their line counts, test or not, reached or not.
    all_lines: Vec<(String, usize, usize)>,
    /// Answers of [`Crate::provides`], and the questions being answered (read as `false`
    /// while in progress, which cuts glob cycles): `use super::*` in many sibling files made
    /// the plain recursion exponential.
    provides_memo: std::cell::RefCell<HashMap<(Vec<String>, String), bool>>,
}

/// What the next `{` opens, when it is not a plain block.
enum Open {
    Module(usize),
    Impl(Option<Vec<String>>),
    Trait,
}

impl Crate {
    fn build(sources: &BTreeMap<String, String>, extern_name: &str) -> Crate {
        let mut c = Crate {
            extern_name: extern_name.to_string(),
            ..Crate::default()
        };
        let mut roots: Vec<(String, String)> = vec![
            ("src/lib.rs".into(), "crate".into()),
            ("src/main.rs".into(), "crate(main)".into()),
        ];
        for rel in sources.keys() {
            if let Some(bin) = rel.strip_prefix("src/bin/").and_then(|b| b.strip_suffix(".rs"))
                && !bin.contains('/')
            {
                roots.push((rel.clone(), format!("crate(bin {bin})")));
            }
        }
        let mut queue: VecDeque<usize> = VecDeque::new();
        for (rel, root_name) in roots {
            let Some(text) = sources.get(&rel) else { continue };
            let m = c.modules.len();
            let dir = rel.rsplit_once('/').map_or("", |(d, _)| d).to_string();
            c.modules.push(Module {
                path: vec![root_name.clone()],
                root: m,
                dir,
                ..Module::default()
            });
            c.by_path.insert(vec![root_name], m);
            if rel == "src/lib.rs" {
                c.lib_root = Some(m);
            }
            c.load(m, &rel, text, &mut queue, sources);
        }
        while let Some(m) = queue.pop_front() {
            let parent = c.modules[m].parent.unwrap_or(m);
            let pdir = c.modules[parent].dir.clone();
            let name = c.modules[m].path.last().cloned().unwrap_or_default();
            let candidates = [format!("{pdir}/{name}.rs"), format!("{pdir}/{name}/mod.rs")];
            match candidates.iter().find(|p| sources.contains_key(*p)) {
                Some(rel) => {
                    let text = &sources[rel];
                    c.load(m, rel, text, &mut queue, sources);
                }
                None => c.missing.push(candidates[0].clone()),
            }
        }
        for (rel, text) in sources {
            if !rel.ends_with(".rs") {
                continue;
            }
            let (lines, test_lines) = match c.by_rel.get(rel) {
                Some(&f) => (c.files[f].lines, c.files[f].test_lines),
                None => {
                    let n = text.lines().count();
                    (n, if c.test_files.contains(rel) { n } else { 0 })
                }
            };
            c.all_lines.push((rel.clone(), lines, test_lines));
            if !c.by_rel.contains_key(rel) && !c.test_files.contains(rel) {
                c.unreached.push(rel.clone());
            }
        }
        c
    }

    fn child_module(&mut self, parent: usize, name: &str, file: Option<usize>) -> usize {
        let mut path = self.modules[parent].path.clone();
        path.push(name.to_string());
        if let Some(&m) = self.by_path.get(&path) {
            return m;
        }
        let m = self.modules.len();
        let dir = format!("{}/{}", self.modules[parent].dir, name);
        let root = self.modules[parent].root;
        self.modules.push(Module {
            path: path.clone(),
            file,
            root,
            parent: Some(parent),
            dir,
            ..Module::default()
        });
        self.modules[parent].children.insert(name.to_string(), m);
        self.by_path.insert(path, m);
        m
    }

    fn load(
        &mut self,
        m: usize,
        rel: &str,
        text: &str,
        queue: &mut VecDeque<usize>,
        sources: &BTreeMap<String, String>,
    ) {
        if self.by_rel.contains_key(rel) {
            return;
        }
        let toks = tokenize(&strip(text));
        let mat = match_brackets(&toks);
        let (ranges, test_only) = test_ranges(&toks, &mat);
        let lines = text.lines().count();
        let mut test_lines: BTreeSet<u32> = BTreeSet::new();
        for &(s, e) in &ranges {
            if let (Some(a), Some(b)) = (toks.get(s), toks.get(e.saturating_sub(1))) {
                test_lines.extend(a.line..=b.line);
            }
        }
        let f = self.files.len();
        self.files.push(SrcFile {
            rel: rel.to_string(),
            lines,
            test_lines: if test_only { lines } else { test_lines.len() },
            test_only,
            ..SrcFile::default()
        });
        self.by_rel.insert(rel.to_string(), f);
        self.modules[m].file = Some(f);
        self.modules[m].block = 0;
        if test_only {
            return;
        }
        self.walk(f, m, &toks, &mat, &ranges, queue, sources);
    }

    /// Reads one file's blocks, `use` declarations, items, child modules and paths.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &mut self,
        f: usize,
        root: usize,
        toks: &[Tok],
        mat: &[Option<usize>],
        ranges: &[(usize, usize)],
        queue: &mut VecDeque<usize>,
        sources: &BTreeMap<String, String>,
    ) {
        let mut blocks = vec![Block {
            parent: None,
            module: root,
            is_module: true,
            impl_self: None,
            local: false,
            items: BTreeSet::new(),
            uses: Vec::new(),
        }];
        let mut uses = Vec::new();
        let mut occurrences = Vec::new();
        let mut code = Vec::new();
        let mut stack = vec![0usize];
        let mut open: Option<(usize, Open)> = None;
        let mut r = 0;
        let mut i = 0;
        while i < toks.len() {
            while r < ranges.len() && ranges[r].1 <= i {
                r += 1;
            }
            let top = *stack.last().unwrap_or(&0);
            let module = blocks[top].module;
            if r < ranges.len() && ranges[r].0 <= i {
                // Test code: skipped, but a `#[cfg(test)] mod x;` names a file that is never read.
                let (s, e) = ranges[r];
                let mut k = s;
                while is(toks.get(k), "#") && is(toks.get(k + 1), "[") {
                    k = mat[k + 1].map_or(e, |c| c + 1);
                }
                if toks.get(k).is_some_and(|t| t.kw("pub")) {
                    k += 1;
                    if is(toks.get(k), "(") {
                        k = mat[k].map_or(e, |c| c + 1);
                    }
                }
                if toks.get(k).is_some_and(|t| t.kw("mod"))
                    && let Some(n) = name(toks.get(k + 1))
                    && is(toks.get(k + 2), ";")
                {
                    let dir = format!("{}/{}", self.modules[module].dir, n);
                    let (a, b) = (format!("{dir}.rs"), format!("{dir}/mod.rs"));
                    let hit = if sources.contains_key(&a) { a } else { b };
                    if sources.contains_key(&hit) {
                        self.test_files.push(hit);
                    }
                }
                i = e.max(i + 1);
                r += 1;
                continue;
            }
            let t = &toks[i];
            code.push(t.clone());
            let prev = i.checked_sub(1).map(|p| &toks[p]);
            if t.is("{") {
                let (module, is_module, impl_self, local) = match open.take() {
                    Some((at, Open::Module(m))) if at == i => (m, true, None, false),
                    Some((at, Open::Impl(ty))) if at == i => (module, false, ty, false),
                    Some((at, Open::Trait)) if at == i => (module, false, None, false),
                    _ => (module, false, None, true),
                };
                let b = blocks.len();
                blocks.push(Block {
                    parent: Some(top),
                    module,
                    is_module,
                    impl_self,
                    local,
                    items: BTreeSet::new(),
                    uses: Vec::new(),
                });
                // Two inline modules of one name (`#[cfg(unix)] mod m {}`, `#[cfg(not(unix))] mod m {}`):
                // the first is the one other modules' paths see.
                if is_module && self.modules[module].block == 0 {
                    self.modules[module].block = b;
                }
                stack.push(b);
                i += 1;
                continue;
            }
            if t.is("}") {
                if stack.len() > 1 {
                    stack.pop();
                }
                i += 1;
                continue;
            }
            if t.kw("use") {
                let (leaves, end) = parse_use(toks, i);
                for leaf in leaves {
                    blocks[top].uses.push(uses.len());
                    uses.push(UseDecl {
                        block: top,
                        leaf,
                        line: t.line,
                    });
                }
                code.extend(toks[i + 1..end].iter().cloned());
                i = end;
                continue;
            }
            if t.kw("mod")
                && let Some(n) = name(toks.get(i + 1))
            {
                if is(toks.get(i + 2), ";") {
                    let c = self.child_module(module, n, None);
                    queue.push_back(c);
                    i += 1;
                    continue;
                }
                if is(toks.get(i + 2), "{") {
                    let c = self.child_module(module, n, Some(f));
                    if self.modules[c].file.is_none() {
                        self.modules[c].file = Some(f);
                    }
                    open = Some((i + 2, Open::Module(c)));
                    i += 1;
                    continue;
                }
            }
            if t.kw("impl") && prev.is_none_or(|p| p.is("}") || p.is(";") || p.is("{") || p.is("]") || p.kw("unsafe")) {
                if let Some((at, ty)) = impl_header(toks, mat, i) {
                    open = Some((at, Open::Impl(ty)));
                }
                i += 1;
                continue;
            }
            if t.kw("macro_rules")
                && is(toks.get(i + 1), "!")
                && let Some(n) = name(toks.get(i + 2))
            {
                if blocks[top].is_module {
                    self.modules[module].macros.insert(n.to_string());
                }
                i += 1;
                continue;
            }
            if t.kind == Kind::Ident
                && ["fn", "struct", "enum", "trait", "type", "const", "static", "union"].contains(&t.text.as_str())
                && let Some(n) = name(toks.get(i + 1))
            {
                if blocks[top].is_module {
                    self.modules[module].items.insert(n.to_string());
                    if t.text == "enum" {
                        let v = variants(toks, mat, i + 2);
                        self.modules[module].enums.insert(n.to_string(), v);
                    }
                } else if blocks[top].local {
                    blocks[top].items.insert(n.to_string());
                }
                if t.text == "trait" {
                    let mut j = i + 2;
                    while j < toks.len() && !toks[j].is("{") && !toks[j].is(";") {
                        j = if toks[j].is("(") || toks[j].is("[") {
                            mat[j].map_or(toks.len(), |c| c + 1)
                        } else {
                            j + 1
                        };
                    }
                    if is(toks.get(j), "{") {
                        open = Some((j, Open::Trait));
                    }
                }
                code.push(toks[i + 1].clone());
                i += 2;
                continue;
            }
            if let Some(s) = segment(t)
                && !prev.is_some_and(|p| p.kind == Kind::PathSep || p.is(".") || p.is("$"))
            {
                let mut segs = vec![s.to_string()];
                let mut j = i;
                while is(toks.get(j + 1), "::")
                    && let Some(n) = toks.get(j + 2).and_then(segment)
                {
                    segs.push(n.to_string());
                    j += 2;
                }
                let is_macro = segs.len() == 1
                    && is(toks.get(j + 1), "!")
                    && toks.get(j + 2).is_some_and(|t| t.is("(") || t.is("[") || t.is("{"));
                occurrences.push(Occurrence {
                    block: top,
                    segs,
                    line: t.line,
                    is_macro,
                });
                code.extend(toks[i + 1..=j].iter().cloned());
                i = j + 1;
                continue;
            }
            i += 1;
        }
        let file = &mut self.files[f];
        file.blocks = blocks;
        file.uses = uses;
        file.occurrences = occurrences;
        file.code = code;
    }

    // -- resolution ------------------------------------------------------------------------------

    /// The absolute path a name means in block `b` of file `f`.
    fn lookup(&self, f: usize, b: usize, name: &str, depth: usize) -> Option<Vec<String>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let file = &self.files[f];
        let mut cur = Some(b);
        while let Some(bi) = cur {
            let blk = file.blocks.get(bi)?;
            for &u in &blk.uses {
                let leaf = &file.uses[u].leaf;
                if leaf.binding.as_deref() == Some(name) {
                    return self.resolve(f, bi, &leaf.path, depth + 1);
                }
            }
            if blk.items.contains(name) {
                // An item of a function body: local to this file, and it hides the outer name.
                return None;
            }
            if blk.is_module {
                let m = &self.modules[blk.module];
                if m.children.contains_key(name) || m.items.contains(name) {
                    let mut p = m.path.clone();
                    p.push(name.to_string());
                    return Some(p);
                }
            }
            for &u in &blk.uses {
                let leaf = &file.uses[u].leaf;
                if leaf.binding.is_none()
                    && let Some(t) = self.resolve(f, bi, &leaf.path, depth + 1)
                    && self.provides(&t, name, depth + 1)
                {
                    let mut p = t;
                    p.push(name.to_string());
                    return Some(p);
                }
            }
            if blk.is_module {
                break;
            }
            cur = blk.parent;
        }
        if name == self.extern_name {
            return self.lib_root.map(|r| self.modules[r].path.clone());
        }
        None
    }

    /// The absolute path of `segs` as written in block `b` of file `f`; `None` for another crate
    /// or a name not found.
    fn resolve(&self, f: usize, b: usize, segs: &[String], depth: usize) -> Option<Vec<String>> {
        if depth > MAX_DEPTH || segs.is_empty() {
            return None;
        }
        let module = self.files[f].blocks.get(b)?.module;
        let (mut base, used) = match segs[0].as_str() {
            "::" => return None,
            "crate" => (self.modules[self.modules[module].root].path.clone(), 1),
            "self" => (self.modules[module].path.clone(), 1),
            "super" => {
                let mut m = module;
                let mut k = 0;
                while segs.get(k).is_some_and(|s| s == "super") {
                    m = self.modules[m].parent?;
                    k += 1;
                }
                (self.modules[m].path.clone(), k)
            }
            "Self" => {
                let mut cur = Some(b);
                let mut found = None;
                while let Some(bi) = cur {
                    let blk = &self.files[f].blocks[bi];
                    if let Some(ty) = &blk.impl_self {
                        found = Some((blk.parent.unwrap_or(bi), ty));
                        break;
                    }
                    if blk.is_module {
                        break;
                    }
                    cur = blk.parent;
                }
                let (scope, ty) = found?;
                (self.resolve(f, scope, ty, depth + 1)?, 1)
            }
            first => (self.lookup(f, b, first, depth + 1)?, 1),
        };
        base.extend(segs[used..].iter().cloned());
        Some(base)
    }

    fn longest_module(&self, path: &[String]) -> Option<(usize, usize)> {
        (1..=path.len())
            .rev()
            .find_map(|k| self.by_path.get(&path[..k]).map(|&m| (m, k)))
    }

    /// The top-level block of module `m`, with its file.
    fn module_block(&self, m: usize) -> Option<(usize, &Block)> {
        let module = &self.modules[m];
        let f = module.file?;
        self.files[f]
            .blocks
            .get(module.block)
            .filter(|b| b.is_module)
            .map(|b| (f, b))
    }

    /// `path` with every import on the way followed to where the item is defined; `None` when
    /// that is another crate.
    fn canonical(&self, path: Vec<String>, depth: usize) -> Option<Vec<String>> {
        let (m, k) = self.longest_module(&path)?;
        if k == path.len() || depth > MAX_DEPTH {
            return Some(path);
        }
        let name = &path[k];
        let module = &self.modules[m];
        let Some((f, blk)) = self.module_block(m) else {
            return Some(path);
        };
        for &u in &blk.uses {
            let leaf = &self.files[f].uses[u].leaf;
            if leaf.binding.as_deref() == Some(name.as_str()) {
                let mut p = self.resolve(f, module.block, &leaf.path, depth + 1)?;
                p.extend(path[k + 1..].iter().cloned());
                return self.canonical(p, depth + 1);
            }
        }
        if module.items.contains(name) {
            return Some(path);
        }
        for &u in &blk.uses {
            let leaf = &self.files[f].uses[u].leaf;
            if leaf.binding.is_none()
                && let Some(mut p) = self.resolve(f, module.block, &leaf.path, depth + 1)
                && self.provides(&p, name, depth + 1)
            {
                p.extend(path[k..].iter().cloned());
                return self.canonical(p, depth + 1);
            }
        }
        // Not found: a macro made it, or it is an enum's variant or an associated item.
        Some(path)
    }

    /// Whether the module or enum at `target` has a `name` for a glob import to bring in.
    fn provides(&self, target: &[String], name: &str, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        let key = (target.to_vec(), name.to_string());
        if let Some(&known) = self.provides_memo.borrow().get(&key) {
            return known;
        }
        self.provides_memo.borrow_mut().insert(key.clone(), false);
        let answer = self.provides_uncached(target, name, depth);
        self.provides_memo.borrow_mut().insert(key, answer);
        answer
    }

    fn provides_uncached(&self, target: &[String], name: &str, depth: usize) -> bool {
        let Some(t) = self.canonical(target.to_vec(), depth + 1) else {
            return false;
        };
        if let Some(&m) = self.by_path.get(&t) {
            let module = &self.modules[m];
            if module.items.contains(name) || module.children.contains_key(name) {
                return true;
            }
            let Some((f, blk)) = self.module_block(m) else {
                return false;
            };
            blk.uses.iter().any(|&u| {
                let leaf = &self.files[f].uses[u].leaf;
                match &leaf.binding {
                    Some(b) => b == name,
                    None => self
                        .resolve(f, module.block, &leaf.path, depth + 1)
                        .is_some_and(|p| self.provides(&p, name, depth + 1)),
                }
            })
        } else if let Some((m, k)) = self.longest_module(&t) {
            k + 1 == t.len()
                && self.modules[m]
                    .enums
                    .get(&t[k])
                    .is_some_and(|v| v.iter().any(|x| x == name))
        } else {
            false
        }
    }

    /// The file that defines what `segs` names; `None` for a module named alone (unless it is a
    /// glob), another crate or a name not found.
    fn target(&self, f: usize, b: usize, segs: &[String], glob: bool) -> Option<usize> {
        let abs = self.resolve(f, b, segs, 0)?;
        let canon = self.canonical(abs, 0)?;
        let (m, k) = self.longest_module(&canon)?;
        if k == canon.len() && !glob {
            return None;
        }
        self.modules[m].file
    }

    /// The file defining the `macro_rules!` a bare `name!` in block `b` of file `f` calls.
    fn macro_target(&self, f: usize, b: usize, name: &str) -> Option<usize> {
        let mut m = Some(self.files[f].blocks.get(b)?.module);
        while let Some(mi) = m {
            if self.modules[mi].macros.contains(name) {
                return self.modules[mi].file;
            }
            m = self.modules[mi].parent;
        }
        None
    }

    // -- the graph -------------------------------------------------------------------------------

    /// Files in the graph: read, and not test code.
    fn nodes(&self) -> Vec<usize> {
        (0..self.files.len()).filter(|&f| !self.files[f].test_only).collect()
    }

    /// Every edge with where it comes from, self-edges left out.
    fn edges(&self) -> BTreeMap<(usize, usize), BTreeSet<Via>> {
        let mut edges: BTreeMap<(usize, usize), BTreeSet<Via>> = BTreeMap::new();
        for f in self.nodes() {
            let file = &self.files[f];
            let mut add = |to: Option<usize>, path: String, line: u32| {
                if let Some(to) = to
                    && to != f
                    && !self.files[to].test_only
                {
                    edges.entry((f, to)).or_default().insert(Via { line, path });
                }
            };
            for u in &file.uses {
                let glob = u.leaf.binding.is_none();
                let mut written = u.leaf.path.join("::");
                if glob {
                    written.push_str("::*");
                }
                add(self.target(f, u.block, &u.leaf.path, glob), written, u.line);
            }
            for o in &file.occurrences {
                if o.is_macro {
                    add(
                        self.macro_target(f, o.block, &o.segs[0]),
                        format!("{}!", o.segs[0]),
                        o.line,
                    );
                } else if o.segs.len() >= 2 {
                    add(self.target(f, o.block, &o.segs, false), o.segs.join("::"), o.line);
                }
            }
        }
        edges
    }

    fn rel(&self, f: usize) -> &str {
        &self.files[f].rel
    }
}

/// The type an `impl` block at `i` is for, and the index of the block's `{`.
fn impl_header(toks: &[Tok], mat: &[Option<usize>], i: usize) -> Option<(usize, Option<Vec<String>>)> {
    let mut j = i + 1;
    let mut angle = 0i32;
    let closes = |j: usize| toks[j].is(">") && !(j > 0 && (toks[j - 1].is("-") || toks[j - 1].is("=")));
    if is(toks.get(j), "<") {
        angle = 1;
        j += 1;
        while j < toks.len() && angle > 0 {
            if toks[j].is("<") {
                angle += 1;
            } else if closes(j) {
                angle -= 1;
            }
            j += 1;
        }
    }
    let start = j;
    let mut ty_start = start;
    let mut ty_end = None;
    while j < toks.len() {
        let t = &toks[j];
        if t.is("{") {
            break;
        } else if t.is(";") {
            return None;
        } else if t.is("(") || t.is("[") {
            j = mat[j].map_or(toks.len(), |c| c + 1);
            continue;
        } else if t.is("<") {
            angle += 1;
        } else if closes(j) {
            angle -= 1;
        } else if angle == 0 && t.kw("for") {
            ty_start = j + 1;
        } else if angle == 0 && t.kw("where") && ty_end.is_none() {
            ty_end = Some(j);
        }
        j += 1;
    }
    if j >= toks.len() {
        return None;
    }
    let mut k = ty_start;
    let end = ty_end.unwrap_or(j);
    while k < end && (toks[k].is("&") || toks[k].kw("mut") || toks[k].kw("dyn") || toks[k].kind == Kind::Lifetime) {
        k += 1;
    }
    let mut segs = Vec::new();
    while k < end {
        let Some(s) = segment(&toks[k]) else { break };
        segs.push(s.to_string());
        if !is(toks.get(k + 1), "::") {
            break;
        }
        k += 2;
    }
    Some((j, (!segs.is_empty()).then_some(segs)))
}

/// The variant names of the enum whose name ends at `from`.
fn variants(toks: &[Tok], mat: &[Option<usize>], from: usize) -> Vec<String> {
    let mut j = from;
    while j < toks.len() && !toks[j].is("{") && !toks[j].is(";") {
        j += 1;
    }
    let Some(end) = (j < toks.len() && toks[j].is("{")).then(|| mat[j]).flatten() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut k = j + 1;
    while k < end {
        while is(toks.get(k), "#") && is(toks.get(k + 1), "[") {
            k = mat[k + 1].map_or(end, |c| c + 1);
        }
        if let Some(n) = name(toks.get(k)).filter(|_| k < end) {
            out.push(n.to_string());
        }
        while k < end && !toks[k].is(",") {
            k = if toks[k].is("(") || toks[k].is("[") || toks[k].is("{") {
                mat[k].map_or(end, |c| c + 1)
            } else {
                k + 1
            };
        }
        k += 1;
    }
    out
}

// ------------------------------------------------------------------------------------------------
// Strongly connected components and cycles
// ------------------------------------------------------------------------------------------------

/// Tarjan's algorithm; components in no particular order.
fn sccs(n: usize, adj: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct T<'a> {
        adj: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(t: &mut T, v: usize) {
        t.index[v] = Some(t.next);
        t.low[v] = t.next;
        t.next += 1;
        t.stack.push(v);
        t.on_stack[v] = true;
        for &w in &t.adj[v] {
            match t.index[w] {
                None => {
                    visit(t, w);
                    t.low[v] = t.low[v].min(t.low[w]);
                }
                Some(iw) if t.on_stack[w] => t.low[v] = t.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(t.low[v]) == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on_stack[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            t.out.push(comp);
        }
    }
    let mut t = T {
        adj,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            visit(&mut t, v);
        }
    }
    t.out
}

/// A shortest cycle inside `comp` (first node repeated at the end).
fn shortest_cycle(comp: &[usize], adj: &[Vec<usize>]) -> Vec<usize> {
    let inside: BTreeSet<usize> = comp.iter().copied().collect();
    let mut best: Option<Vec<usize>> = None;
    for &s in comp {
        let mut prev: BTreeMap<usize, usize> = BTreeMap::new();
        let mut queue = VecDeque::from([s]);
        let mut closing = None;
        'bfs: while let Some(v) = queue.pop_front() {
            for &w in &adj[v] {
                if w == s {
                    closing = Some(v);
                    break 'bfs;
                }
                if inside.contains(&w) && !prev.contains_key(&w) {
                    prev.insert(w, v);
                    queue.push_back(w);
                }
            }
        }
        let Some(mut v) = closing else { continue };
        let mut path = vec![s, v];
        while v != s {
            v = prev[&v];
            path.push(v);
        }
        path.reverse();
        if best.as_ref().is_none_or(|b| path.len() < b.len()) {
            best = Some(path);
        }
    }
    best.unwrap_or_default()
}

// ------------------------------------------------------------------------------------------------
// The checks' computations
// ------------------------------------------------------------------------------------------------

fn dialect_of(rel: &str) -> Option<&'static str> {
    dialects().iter().copied().find(|d| {
        let dir = format!("{DIALECT_PARENT}/{d}");
        rel == format!("{dir}.rs") || rel.starts_with(&format!("{dir}/"))
    })
}

/// A top-level enum whose variants are the dialect dispatch.
#[derive(Debug)]
struct DispatchEnum {
    name: String,
    /// Its absolute path (`crate::analysis::FileKind`).
    path: Vec<String>,
    variants: Vec<String>,
    file: String,
}

/// A file outside the dialect folders that names dispatch variants.
#[derive(Debug, PartialEq)]
struct Mentions {
    file: String,
    /// Paths resolving to a variant, per [`DispatchEnum`] in order.
    resolved: Vec<usize>,
    /// The tokens `Enum::Variant`, whatever they resolve to.
    textual: usize,
}

impl Mentions {
    fn total(&self) -> usize {
        self.resolved.iter().sum()
    }
}

/// The graph with the facts the checks and the report need.
struct Analysis {
    krate: Crate,
    /// The variants the registration list declares (`None`: no list, every variant of the
    /// dispatch enums counts, as in the checker's own tests).
    registered: Option<BTreeSet<String>>,
    edges: BTreeMap<(usize, usize), BTreeSet<Via>>,
    adj: Vec<Vec<usize>>,
}

impl Analysis {
    fn new(krate: Crate) -> Analysis {
        let edges = krate.edges();
        let mut adj = vec![Vec::new(); krate.files.len()];
        for &(a, b) in edges.keys() {
            adj[a].push(b);
        }
        Analysis {
            krate,
            edges,
            adj,
            registered: None,
        }
    }

    fn via(&self, a: usize, b: usize) -> String {
        self.edges[&(a, b)]
            .iter()
            .next()
            .map_or(String::new(), |v| format!("{}, line {}", v.path, v.line))
    }

    /// For each dialect folder, the files outside it that import from it, with one path each.
    fn dialect_importers(&self) -> BTreeMap<&'static str, BTreeMap<String, String>> {
        let c = &self.krate;
        let mut out: BTreeMap<&'static str, BTreeMap<String, String>> = BTreeMap::new();
        for d in dialects() {
            out.entry(d).or_default();
        }
        for &(a, b) in self.edges.keys() {
            let (from, to) = (&c.files[a].rel, &c.files[b].rel);
            if let Some(d) = dialect_of(to)
                && dialect_of(from) != Some(d)
            {
                out.entry(d)
                    .or_default()
                    .entry(from.clone())
                    .or_insert_with(|| self.via(a, b));
            }
        }
        out
    }

    /// `src/x.rs -> src/y.rs (via path, line n)`, one line per distinct path.
    fn cross_dialect(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (&(a, b), vias) in &self.edges {
            let (from, to) = (self.krate.rel(a), self.krate.rel(b));
            if let (Some(da), Some(db)) = (dialect_of(from), dialect_of(to))
                && da != db
            {
                let mut seen = BTreeSet::new();
                for v in vias {
                    if seen.insert(&v.path) {
                        out.push(format!("{from} -> {to} (via {}, line {})", v.path, v.line));
                    }
                }
            }
        }
        out
    }

    /// Components of more than one file, each sorted, in order of their first file.
    fn cycles(&self) -> Vec<(Vec<usize>, Vec<usize>)> {
        let mut comps: Vec<Vec<usize>> = sccs(self.krate.files.len(), &self.adj)
            .into_iter()
            .filter(|c| c.len() > 1)
            .map(|mut c| {
                c.sort_by(|&a, &b| self.krate.rel(a).cmp(self.krate.rel(b)));
                c
            })
            .collect();
        comps.sort_by(|a, b| self.krate.rel(a[0]).cmp(self.krate.rel(b[0])));
        comps
            .into_iter()
            .map(|c| {
                let cycle = shortest_cycle(&c, &self.adj);
                (c, cycle)
            })
            .collect()
    }

    fn render_cycles(&self) -> String {
        let mut s = String::new();
        for (k, (comp, cycle)) in self.cycles().iter().enumerate() {
            let _ = writeln!(s, "component {} ({} files):", k + 1, comp.len());
            for &f in comp {
                let _ = writeln!(s, "    {}", self.krate.rel(f));
            }
            let _ = writeln!(s, "  a shortest cycle in it ({} edges):", cycle.len().saturating_sub(1));
            if let Some(&first) = cycle.first() {
                let _ = writeln!(s, "    {}", self.krate.rel(first));
            }
            for w in cycle.windows(2) {
                let _ = writeln!(s, "      -> {}  (via {})", self.krate.rel(w[1]), self.via(w[0], w[1]));
            }
        }
        s
    }

    /// The dispatch enums, each defined once in `src/analysis` outside the dialect folders.
    fn dispatch_enums(&self) -> Result<Vec<DispatchEnum>, String> {
        let c = &self.krate;
        let mut out = Vec::new();
        for &e in DISPATCH_ENUMS {
            let found: Vec<_> = c
                .modules
                .iter()
                .filter_map(|m| {
                    let rel = c.rel(m.file?);
                    let under = rel.starts_with(&format!("{DIALECT_PARENT}/")) || rel == format!("{DIALECT_PARENT}.rs");
                    let variants = m.enums.get(e)?;
                    (under && dialect_of(rel).is_none()).then(|| {
                        let mut path = m.path.clone();
                        path.push(e.to_string());
                        DispatchEnum {
                            name: e.to_string(),
                            path,
                            variants: variants
                                .iter()
                                .filter(|v| self.registered.as_ref().is_none_or(|r| r.contains(*v)))
                                .cloned()
                                .collect(),
                            file: rel.to_string(),
                        }
                    })
                })
                .collect();
            match found.len() {
                1 => out.extend(found),
                0 if self.registered.is_none() => {}
                0 => return Err(format!("no `enum {e}` in {DIALECT_PARENT} outside the dialect folders")),
                _ => {
                    let files: Vec<_> = found.iter().map(|x| x.file.clone()).collect();
                    return Err(format!("several `enum {e}` outside the dialect folders: {files:?}"));
                }
            }
        }
        Ok(out)
    }

    /// The files outside the dialect folders with a mention, most mentions first.
    fn mentions(&self) -> Result<Vec<Mentions>, String> {
        let c = &self.krate;
        let enums = self.dispatch_enums()?;
        let mut rows = Vec::new();
        for f in c.nodes() {
            let file = &c.files[f];
            if dialect_of(&file.rel).is_some() {
                continue;
            }
            let bound: BTreeSet<&str> = file.uses.iter().filter_map(|u| u.leaf.binding.as_deref()).collect();
            let globs = file.uses.iter().any(|u| u.leaf.binding.is_none());
            let mut counts = vec![0usize; enums.len()];
            for o in &file.occurrences {
                if o.is_macro || (o.segs.len() == 1 && !globs && !bound.contains(o.segs[0].as_str())) {
                    continue;
                }
                let Some(canon) = c.resolve(f, o.block, &o.segs, 0).and_then(|p| c.canonical(p, 0)) else {
                    continue;
                };
                for (k, e) in enums.iter().enumerate() {
                    if canon.len() == e.path.len() + 1
                        && canon.starts_with(&e.path)
                        && canon.last().is_some_and(|v| e.variants.contains(v))
                    {
                        counts[k] += 1;
                    }
                }
            }
            let textual = file
                .code
                .windows(3)
                .filter(|w| {
                    w[1].kind == Kind::PathSep
                        && enums
                            .iter()
                            .any(|e| w[0].kw(&e.name) && e.variants.contains(&w[2].text))
                })
                .count();
            if counts.iter().any(|&n| n > 0) || textual > 0 {
                rows.push(Mentions {
                    file: file.rel.clone(),
                    resolved: counts,
                    textual,
                });
            }
        }
        rows.sort_by(|a, b| b.total().cmp(&a.total()).then(a.file.cmp(&b.file)));
        Ok(rows)
    }

    fn render_mentions(&self) -> String {
        let rows = match self.mentions() {
            Ok(r) => r,
            Err(e) => return format!("cannot count: {e}\n"),
        };
        let Ok(enums) = self.dispatch_enums() else {
            return String::new();
        };
        let mut head: Vec<String> = vec!["file".into()];
        head.extend(enums.iter().map(|e| e.name.clone()));
        head.push("total".into());
        head.push("textual".into());
        let body: Vec<Vec<String>> = rows
            .iter()
            .map(|m| {
                let mut r = vec![m.file.clone()];
                r.extend(m.resolved.iter().map(|n| n.to_string()));
                r.push(m.total().to_string());
                r.push(m.textual.to_string());
                r
            })
            .collect();
        let counted = rows.iter().filter(|m| m.total() > 0).count();
        let mut s = String::new();
        for e in &enums {
            let _ = writeln!(s, "{} ({}): {}", e.path.join("::"), e.file, e.variants.join(", "));
        }
        let _ = writeln!(
            s,
            "{counted} files outside the dialect folders name a registered variant (none allowed: the list's expansions write `$variant`):"
        );
        s.push_str(&table(&head, &body));
        s.push_str(
            "(counts are paths that resolve to a variant, through `use` renames, globs and `Self`; \
             `textual` counts the tokens `FileKind::V` / `Dialect::V` whatever they resolve to)\n",
        );
        s
    }

    /// Every edge with every reference behind it.
    fn render_edges(&self) -> String {
        let mut s = String::new();
        for (&(a, b), vias) in &self.edges {
            let _ = writeln!(s, "{} -> {}", self.krate.rel(a), self.krate.rel(b));
            for v in vias {
                let _ = writeln!(s, "    line {:>4}: {}", v.line, v.path);
            }
        }
        s
    }

    fn report(&self) -> String {
        let c = &self.krate;
        let mut s = String::new();
        let refs: usize = self.edges.values().map(|v| v.len()).sum();
        let _ = writeln!(s, "== Import graph of src/ ==");
        let _ = writeln!(
            s,
            "{} files, {} edges (file to file), {} distinct references (path and line) behind them",
            c.nodes().len(),
            self.edges.len(),
            refs
        );
        let _ = writeln!(s, "(ARCH_EDGES=1 lists every edge with the path and line behind it)");
        let mut test_files = c.test_files.clone();
        test_files.extend(c.files.iter().filter(|f| f.test_only).map(|f| f.rel.clone()));
        if !test_files.is_empty() {
            let _ = writeln!(s, "test-only files (not in the graph): {}", test_files.join(", "));
        }
        if !c.unreached.is_empty() {
            let _ = writeln!(
                s,
                "files no `mod` reaches (not in the graph): {}",
                c.unreached.join(", ")
            );
        }
        if !c.missing.is_empty() {
            let _ = writeln!(s, "`mod` declarations without a file: {}", c.missing.join(", "));
        }
        let cross = self.cross_dialect();
        let pairs: BTreeSet<&str> = cross
            .iter()
            .filter_map(|e| e.split_once(" (via ").map(|p| p.0))
            .collect();
        let _ = writeln!(
            s,
            "\n== Edges from one dialect folder to another: {} edges, {} paths behind them ==",
            pairs.len(),
            cross.len()
        );
        for e in &cross {
            let _ = writeln!(s, "{e}");
        }
        let cycles = self.cycles();
        let _ = writeln!(
            s,
            "\n== Import cycles: {} strongly connected components of more than one file ==",
            cycles.len()
        );
        s.push_str(&self.render_cycles());
        let _ = writeln!(
            s,
            "\n== Files outside the dialect folders that name a FileKind or Dialect variant =="
        );
        s.push_str(&self.render_mentions());
        let _ = writeln!(s, "\n== The {BIGGEST} biggest files of src/ ==");
        let mut all = c.all_lines.clone();
        all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let total: usize = all.iter().map(|x| x.1).sum();
        let total_code: usize = all.iter().map(|x| x.1.saturating_sub(x.2)).sum();
        let body: Vec<Vec<String>> = all
            .iter()
            .take(BIGGEST)
            .map(|(f, n, t)| {
                vec![
                    f.clone(),
                    n.to_string(),
                    n.saturating_sub(*t).to_string(),
                    t.to_string(),
                ]
            })
            .collect();
        let head = ["file", "lines", "non-test", "test"].map(String::from);
        s.push_str(&table(&head, &body));
        let _ = writeln!(
            s,
            "all {} files: {total} lines, {total_code} outside test code",
            all.len()
        );
        s
    }
}

/// A plain-text table: first column left-aligned, the others right-aligned.
fn table(head: &[String], rows: &[Vec<String>]) -> String {
    let cols = head.len();
    let mut width: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (k, cell) in r.iter().enumerate().take(cols) {
            width[k] = width[k].max(cell.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let mut l = String::new();
        for (k, cell) in cells.iter().enumerate().take(cols) {
            if k == 0 {
                let _ = write!(l, "{cell:<w$}", w = width[0]);
            } else {
                let _ = write!(l, "  {cell:>w$}", w = width[k]);
            }
        }
        l.trim_end().to_string() + "\n"
    };
    let mut s = line(head);
    let rule: Vec<String> = width.iter().map(|&w| "-".repeat(w)).collect();
    s.push_str(&line(&rule));
    for r in rows {
        s.push_str(&line(r));
    }
    s
}

// ------------------------------------------------------------------------------------------------
// The crate on disk
// ------------------------------------------------------------------------------------------------

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `src/`, by its path from the crate's root (`src/a/b.rs`).
fn sources() -> BTreeMap<String, String> {
    fn walk(dir: &Path, out: &mut BTreeMap<String, String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
            .map(|e| e.expect("a directory entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let rel = p
                    .strip_prefix(root())
                    .expect("under the crate")
                    .to_string_lossy()
                    .replace('\\', "/");
                let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display()));
                out.insert(rel, text);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(&root().join("src"), &mut out);
    out
}

/// The registration list: `(variant, module)` of each dialect, in order, and of the test
/// dialect, with the line of each in [`REGISTRY`].
struct Registration {
    dialects: Vec<(String, String)>,
    test: (String, String),
    lines: BTreeMap<String, u32>,
}

/// The list `build.rs` wrote (`$OUT_DIR/dialects.rs`: `test: Variant => module;`, then
/// `Variant => module,` per dialect), with the line of each dialect's `pub mod` in [`REGISTRY`].
fn registration() -> &'static Registration {
    static LIST: std::sync::OnceLock<Registration> = std::sync::OnceLock::new();
    LIST.get_or_init(|| {
        let written = concat!(env!("OUT_DIR"), "/dialects.rs");
        let list = std::fs::read_to_string(written).unwrap_or_else(|e| panic!("reading {written}: {e}"));
        let source = &sources()[REGISTRY];
        let line_of = |module: &str| {
            let decl = format!("pub mod {module};");
            source
                .lines()
                .position(|l| l.trim() == decl)
                .map(|i| i as u32 + 1)
                .unwrap_or_else(|| panic!("no `{decl}` in {REGISTRY}"))
        };
        let mut dialects = Vec::new();
        let mut test = None;
        let mut lines = BTreeMap::new();
        for line in list.lines().map(str::trim) {
            let (entry, is_test) = match line.strip_prefix("test:") {
                Some(rest) => (rest.trim(), true),
                None => (line, false),
            };
            let Some((variant, module)) = entry.split_once(" => ") else {
                continue;
            };
            let module = module.trim_end_matches([',', ';']);
            let ident = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_');
            if !ident(variant) || !ident(module) {
                continue;
            }
            lines.insert(module.to_string(), line_of(module));
            let pair = (variant.to_string(), module.to_string());
            if is_test {
                test = Some(pair);
            } else {
                dialects.push(pair);
            }
        }
        assert!(!dialects.is_empty(), "no dialect in {written}");
        Registration {
            dialects,
            test: test.unwrap_or_else(|| panic!("no test dialect in {written}")),
            lines,
        }
    })
}

/// The dialect folders (the modules of the registration list, the test dialect aside: its
/// folder is test code).
fn dialects() -> &'static [&'static str] {
    static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        registration()
            .dialects
            .iter()
            .map(|(_, m)| &*Box::leak(m.clone().into_boxed_str()))
            .collect()
    })
}

/// The sources with the registration list's three expansions written out, as the compiler sees
/// them for this graph: `mod.rs` names each dialect's `dialect::Spec` (its `pub mod` lines
/// are plain code); `dialect.rs` declares `enum Dialect` with a variant per dialect; `kind.rs`
/// declares `enum FileKind` and `enum Facts`, whose variants hold `<module>::FileKind` and
/// `<module>::Facts`. (The macro bodies themselves are code of `registry.rs`, as any macro's.)
fn expanded(sources: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    let list = &registration().dialects;
    let mut out = sources.clone();
    for (file, expander) in EXPANSIONS {
        let call = format!("for_each_dialect!({expander});");
        let text = out
            .get_mut(*file)
            .unwrap_or_else(|| panic!("{file}, which expands the registration list, is missing"));
        assert!(
            text.contains(&call),
            "{file} does not expand the registration list with `{call}`"
        );
        let code: String = match *expander {
            "declare_dialect_specs" => {
                let mut c = String::from("fn registered() { ");
                c.extend(list.iter().map(|(_, m)| format!("let _ = {m}::dialect::Spec; ")));
                c.push('}');
                c
            }
            "declare_dialect_enum" => {
                format!(
                    "pub enum Dialect {{ {} }}",
                    list.iter().map(|(v, _)| v.as_str()).collect::<Vec<_>>().join(", ")
                )
            }
            _ => {
                let variants = |what: &str| {
                    list.iter()
                        .map(|(v, m)| format!("{v}(crate::analysis::{m}::{what})"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                format!(
                    "pub enum FileKind {{ {}, Skill, Command, ProjectFile }} pub enum Facts {{ None, {}, Skill, Command, Project }}",
                    variants("FileKind"),
                    variants("Facts")
                )
            }
        };
        *text = text.replace(&call, &code);
    }
    out
}

fn analysis() -> Analysis {
    let mut a = Analysis::new(Crate::build(
        &expanded(&sources()),
        &env!("CARGO_PKG_NAME").replace('-', "_"),
    ));
    let r = registration();
    a.registered = Some(r.dialects.iter().chain([&r.test]).map(|(v, _)| v.clone()).collect());
    a
}

// ------------------------------------------------------------------------------------------------
// The checks
// ------------------------------------------------------------------------------------------------

#[test]
fn no_dialect_imports_another() {
    for d in dialects() {
        let dir = root().join(DIALECT_PARENT).join(d);
        assert!(
            dir.is_dir(),
            "the dialect folder {} of the registration list does not exist",
            dir.display()
        );
    }
    let a = analysis();
    let cross = a.cross_dialect();
    let pairs: BTreeSet<&str> = cross
        .iter()
        .filter_map(|e| e.split_once(" (via ").map(|p| p.0))
        .collect();
    assert!(
        cross.is_empty(),
        "{} edges from a file of one dialect folder to a file of another ({} paths behind them):\n{}",
        pairs.len(),
        cross.len(),
        cross.join("\n")
    );
}

#[test]
fn no_import_cycles() {
    let a = analysis();
    let cycles = a.cycles();
    assert!(
        cycles.is_empty(),
        "the files of src/ import each other in cycles: {} strongly connected components of more than \
         one file (each listed with one shortest cycle in it; cutting an edge of that cycle is a start):\n{}",
        cycles.len(),
        a.render_cycles()
    );
}

/// A dialect is its folder: outside it, only its registration imports from it, and the
/// workspace and the front ends never do (they iterate the registered dialects).
#[test]
fn a_dialect_is_imported_by_its_registration_only() {
    let a = analysis();
    let importers = a.dialect_importers();
    let mut report = String::new();
    for (d, files) in &importers {
        let _ = writeln!(report, "{d}: {} files outside its folder import from it", files.len());
        for (f, via) in files {
            let _ = writeln!(report, "    {f} ({via})");
        }
    }
    println!("{report}");
    let layered: Vec<&String> = importers
        .values()
        .flat_map(|files| files.keys())
        .filter(|f| {
            LAYERS_THAT_NAME_NO_DIALECT
                .iter()
                .any(|l| f.starts_with(&format!("{l}/")) || **f == format!("{l}.rs"))
        })
        .collect();
    assert!(
        layered.is_empty(),
        "the workspace and the front ends import from a dialect folder: {layered:?}\n{report}"
    );
    for (d, files) in &importers {
        assert!(
            files.len() <= MAX_FILES_IMPORTING_A_DIALECT,
            "{} files outside src/analysis/{d}/ import from it (at most {MAX_FILES_IMPORTING_A_DIALECT}):\n{report}",
            files.len()
        );
    }
}

/// Adding a dialect touches one line outside its folder: outside it, the code (comments, string
/// literals and test code aside) names the dialect on one line only, its line in the
/// registration list: no path through its module (`claude::x`, `mod claude`) and no variant of
/// a dispatch enum (`Dialect::Claude`) anywhere else. The test dialect too.
#[test]
fn a_dialect_is_named_on_its_registration_line_only() {
    let r = registration();
    let texts = sources();
    let mut report = String::new();
    for (variant, module) in r.dialects.iter().chain([&r.test]) {
        let mut lines: BTreeSet<(String, u32)> = BTreeSet::new();
        for (f, text) in &texts {
            let folder = format!("{DIALECT_PARENT}/{module}");
            // Its folder, and the files that are test code whole (`tests.rs`, `tests/`).
            if f.starts_with(&format!("{folder}/"))
                || *f == format!("{folder}.rs")
                || f.ends_with("/tests.rs")
                || f.contains("/tests/")
            {
                continue;
            }
            let toks = tokenize(&strip(text));
            let mat = match_brackets(&toks);
            let (tests, whole) = test_ranges(&toks, &mat);
            if whole {
                continue;
            }
            for (i, t) in toks.iter().enumerate() {
                // Its module, or its variant of a dispatch enum (another enum may have a variant
                // of the same name: the policy globs' `Syntax::OpenCode`).
                let variant_path = t.kw(variant)
                    && i >= 2
                    && toks[i - 1].kind == Kind::PathSep
                    && DISPATCH_ENUMS.iter().any(|e| toks[i - 2].kw(e));
                // The module as a path (`module::x`, `crate::analysis::module`, `mod module`;
                // a local variable of the same name is none).
                let module_path = t.kw(module)
                    && (toks.get(i + 1).is_some_and(|n| n.kind == Kind::PathSep)
                        || i >= 1 && (toks[i - 1].kind == Kind::PathSep || toks[i - 1].kw("mod")));
                if (module_path || variant_path) && !tests.iter().any(|&(a, b)| (a..b).contains(&i)) {
                    lines.insert((f.clone(), t.line));
                }
            }
        }
        let _ = writeln!(report, "{module} ({variant}): named outside its folder on {lines:?}");
        // Its `pub mod` line (the test dialect's is test code, left out like the rest).
        let own = (REGISTRY.to_string(), r.lines[module]);
        let is_test = module == &r.test.1;
        assert!(
            lines.iter().all(|l| *l == own) && (is_test || lines.contains(&own)),
            "`{module}` ({variant}) must be named outside src/analysis/{module}/ on its registration line only \
             ({REGISTRY}:{}), not on {lines:?}",
            own.1
        );
    }
    println!("{report}");
}

#[test]
fn no_file_outside_the_dialects_dispatches_on_a_registered_variant() {
    let a = analysis();
    let rows = a.mentions().unwrap_or_else(|e| panic!("{e}"));
    let table = a.render_mentions();
    println!("{table}");
    let files: Vec<&str> = rows.iter().filter(|m| m.total() > 0).map(|m| m.file.as_str()).collect();
    assert!(
        files.is_empty(),
        "files outside the dialect folders dispatch on a registered variant of FileKind, Dialect or Facts: {}\n{table}",
        files.join(", ")
    );
}

#[test]
fn report() {
    let a = analysis();
    println!("{}", a.report());
    if std::env::var_os("ARCH_EDGES").is_some() {
        println!("== Every edge ==\n{}", a.render_edges());
    }
    // The parser read every file without giving up on one.
    assert!(
        a.krate.missing.is_empty(),
        "`mod` declarations without a file: {:?}",
        a.krate.missing
    );
    assert!(!a.edges.is_empty(), "no edge at all: the parser is broken");
}

// ------------------------------------------------------------------------------------------------
// The checker's own tests
// ------------------------------------------------------------------------------------------------

fn krate(files: &[(&str, &str)]) -> Analysis {
    let sources = files.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect();
    Analysis::new(Crate::build(&sources, "mycrate"))
}

/// `(from, to, via)` for every reference.
fn edge_list(a: &Analysis) -> BTreeSet<(String, String, String)> {
    let mut out = BTreeSet::new();
    for (&(x, y), vias) in &a.edges {
        for v in vias {
            out.insert((a.krate.rel(x).to_string(), a.krate.rel(y).to_string(), v.path.clone()));
        }
    }
    out
}

fn pairs(a: &Analysis) -> BTreeSet<(String, String)> {
    a.edges
        .keys()
        .map(|&(x, y)| (a.krate.rel(x).to_string(), a.krate.rel(y).to_string()))
        .collect()
}

fn pair(a: &str, b: &str) -> (String, String) {
    (a.to_string(), b.to_string())
}

#[test]
fn strip_blanks_comments_and_literals_but_not_lifetimes() {
    let src = r###"
fn f<'a>(x: &'a str) -> &'a str { x } // crate::line::comment
/* crate::block /* crate::nested */ still::comment */ keep1
/// crate::doc [crate::link]
//! crate::inner
let s = "crate::string \" crate::escaped"; keep2
let r = r#"crate::raw "quoted" crate::raw"#; keep3
let r2 = r##"a "# b"##; keep4
let b = b"crate::bytes"; let br = br#"crate::rawbytes"#; keep5
let c = '"'; let q = '\''; let u = '\u{1F600}'; let bc = b'x'; keep6
'outer: loop { break 'outer; } keep7
let r#type = r#match; keep8
"###;
    let out = strip(src);
    assert_eq!(out.lines().count(), src.lines().count(), "line count kept");
    assert!(!out.contains("crate::"), "a comment or literal survived:\n{out}");
    for k in 1..=8 {
        assert!(out.contains(&format!("keep{k}")), "code after literal {k} lost:\n{out}");
    }
    assert_eq!(out.matches("'a").count(), 3, "lifetimes kept:\n{out}");
    assert!(
        out.contains("'outer") && out.contains("r#type") && out.contains("r#match"),
        "{out}"
    );
    let toks = tokenize(&out);
    assert!(toks.iter().any(|t| t.kind == Kind::RawIdent && t.text == "type"));
    assert!(toks.iter().any(|t| t.kind == Kind::Lifetime && t.text == "'outer"));
    let keep8 = toks.iter().find(|t| t.text == "keep8").map(|t| t.line);
    assert_eq!(keep8, Some(12), "line numbers stay true");
}

#[test]
fn use_trees_expand_into_full_paths() {
    let toks = tokenize(&strip(
        "use crate::a::{self, b::{c as d, e::*}, f, g::{self as h}}; use ::std::io; use super::super::x as _;",
    ));
    let (leaves, end) = parse_use(&toks, 0);
    let got: Vec<(String, Option<String>)> = leaves.iter().map(|l| (l.path.join("::"), l.binding.clone())).collect();
    let want = [
        ("crate::a", Some("a")),
        ("crate::a::b::c", Some("d")),
        ("crate::a::b::e", None),
        ("crate::a::f", Some("f")),
        ("crate::a::g", Some("h")),
    ]
    .map(|(p, b)| (p.to_string(), b.map(String::from)));
    assert_eq!(got, want);
    let (leaves, end) = parse_use(&toks, end);
    assert_eq!(leaves[0].path, ["::", "std", "io"]);
    let (leaves, _) = parse_use(&toks, end);
    assert_eq!(
        leaves,
        [Leaf {
            path: vec!["super".into(), "super".into(), "x".into()],
            binding: Some("_".into())
        }]
    );
}

#[test]
fn super_self_and_child_modules_resolve_relative_to_the_module() {
    let a = krate(&[
        ("src/lib.rs", "pub mod a; pub mod b; mod top;"),
        ("src/top.rs", "pub fn t() {}"),
        (
            "src/a/mod.rs",
            "pub mod x; mod y; pub fn here() { y::why(); self::x::ex(); }",
        ),
        (
            "src/a/x.rs",
            "use super::super::b::Bee; pub fn ex() {} mod inner { fn f() { super::super::here(); } }",
        ),
        ("src/a/y.rs", "pub fn why() { crate::top::t(); }"),
        ("src/b.rs", "pub struct Bee; mod c; fn g() { c::C; }"),
        ("src/b/c.rs", "pub const C: u8 = 0;"),
    ]);
    let want: BTreeSet<_> = [
        pair("src/a/mod.rs", "src/a/y.rs"),
        pair("src/a/mod.rs", "src/a/x.rs"),
        pair("src/a/x.rs", "src/b.rs"),
        pair("src/a/x.rs", "src/a/mod.rs"),
        pair("src/a/y.rs", "src/top.rs"),
        pair("src/b.rs", "src/b/c.rs"),
    ]
    .into();
    assert_eq!(pairs(&a), want, "{:#?}", edge_list(&a));
}

#[test]
fn names_from_use_in_scope_lead_to_the_right_file() {
    let a = krate(&[
        ("src/lib.rs", "pub mod analysis; pub mod lsp;"),
        ("src/analysis/mod.rs", "pub mod opencode; pub mod zuno;"),
        ("src/analysis/opencode/mod.rs", "pub mod complete; pub mod schema;"),
        ("src/analysis/opencode/complete.rs", "pub fn item() {}"),
        ("src/analysis/opencode/schema.rs", "pub const S: u8 = 1;"),
        (
            "src/analysis/zuno/mod.rs",
            "pub mod schema; use super::opencode; fn f() { opencode::complete::item(); }",
        ),
        ("src/analysis/zuno/schema.rs", "pub const S: u8 = 2;"),
        (
            "src/lsp.rs",
            "use crate::analysis;
             fn a() { use crate::analysis::opencode::schema; let _ = schema::S; }
             fn b() { use analysis::zuno::{schema}; let _ = schema::S; }",
        ),
    ]);
    let got = edge_list(&a);
    // The `use`s of modules (`super::opencode`, `crate::analysis`, the two `schema`s) are no edge;
    // each `schema::S` goes where the `use` of its own function says.
    let want: BTreeSet<_> = [
        (
            "src/analysis/zuno/mod.rs",
            "src/analysis/opencode/complete.rs",
            "opencode::complete::item",
        ),
        ("src/lsp.rs", "src/analysis/opencode/schema.rs", "schema::S"),
        ("src/lsp.rs", "src/analysis/zuno/schema.rs", "schema::S"),
    ]
    .map(|(x, y, z)| (x.to_string(), y.to_string(), z.to_string()))
    .into();
    assert_eq!(got, want);
    assert_eq!(
        a.cross_dialect(),
        ["src/analysis/zuno/mod.rs -> src/analysis/opencode/complete.rs (via opencode::complete::item, line 1)"]
    );
}

#[test]
fn reexports_are_followed_to_their_origin() {
    let a = krate(&[
        ("src/lib.rs", "pub mod m; pub mod user; pub mod glob;"),
        (
            "src/m/mod.rs",
            "mod inner; mod deep; pub use inner::{Thing as Alias, other::Other}; pub(crate) use self::deep::*;
             pub use std::collections::HashMap; pub fn local() {}",
        ),
        (
            "src/m/inner.rs",
            "pub struct Thing; pub mod other { pub use crate::m::deep::Deep as Other; }",
        ),
        ("src/m/deep.rs", "pub struct Deep; pub struct Deeper;"),
        (
            "src/user.rs",
            "use crate::m::Alias; use crate::m::{HashMap, Other};
             fn f() { crate::m::Deeper::new(); crate::m::local(); let _: HashMap<u8, u8>; }",
        ),
        ("src/glob.rs", "use crate::m::*; fn g() { Deep; }"),
    ]);
    let got = edge_list(&a);
    for (x, y, z) in [
        ("src/user.rs", "src/m/inner.rs", "crate::m::Alias"),
        ("src/user.rs", "src/m/deep.rs", "crate::m::Other"),
        ("src/user.rs", "src/m/deep.rs", "crate::m::Deeper::new"),
        ("src/user.rs", "src/m/mod.rs", "crate::m::local"),
        ("src/glob.rs", "src/m/mod.rs", "crate::m::*"),
    ] {
        assert!(
            got.contains(&(x.into(), y.into(), z.into())),
            "missing {x} -> {y} via {z} in {got:#?}"
        );
    }
    // `HashMap` is std's, re-exported: no edge to m/mod.rs for it.
    assert!(!got.iter().any(|e| e.2.contains("HashMap")), "{got:#?}");
}

#[test]
fn test_code_is_left_out() {
    let a = krate(&[
        (
            "src/lib.rs",
            "mod a; mod b; #[cfg(test)] mod t; #[cfg(all(test, unix))] mod t2;",
        ),
        (
            "src/a.rs",
            "#[cfg(test)]
             mod tests { use crate::b::X; fn f() { crate::b::y(); } }
             #[cfg(all(test, feature = \"x\"))] fn g() { crate::b::z(); }
             #[test] fn h() { crate::b::z(); }
             #[cfg(not(test))] fn kept() { crate::b::w(); }
             #[cfg(any(test, unix))] fn kept2() { crate::b::v(); }
             mod inner { #![cfg(test)] fn i() { crate::b::u(); } }
             struct S { #[cfg(test)] field: crate::b::X, other: u8 }",
        ),
        (
            "src/b.rs",
            "pub struct X; pub fn y() {} pub fn z() {} pub fn w() {} pub fn v() {} pub fn u() {}",
        ),
        ("src/t.rs", "use crate::a::anything;"),
        ("src/t2.rs", "#![cfg(test)] use crate::a::anything;"),
    ]);
    let got: Vec<String> = edge_list(&a).into_iter().map(|e| e.2).collect();
    assert_eq!(got, ["crate::b::v", "crate::b::w"]);
    assert_eq!(a.krate.test_files, ["src/t.rs", "src/t2.rs"]);
    assert!(a.krate.unreached.is_empty());
    let lines = a.krate.files[a.krate.by_rel["src/a.rs"]].test_lines;
    assert_eq!(lines, 6, "lines 1-4 are test code, and parts of lines 7 and 8");
}

#[test]
fn items_of_a_function_body_hide_outer_names() {
    let a = krate(&[
        ("src/lib.rs", "pub mod k; pub mod user;"),
        (
            "src/k.rs",
            "pub enum Kind { A } pub mod schema { pub const S: u8 = 0; }",
        ),
        (
            "src/user.rs",
            "use crate::k::{Kind, schema};
             fn f() { enum Kind { A } let _ = Kind::A; }
             impl U { fn schema() {} fn g() { let _ = schema::S; } }
             trait T { fn schema() {} fn h() { let _ = schema::S; } }",
        ),
    ]);
    let got: Vec<(String, u32)> = a.edges.values().flatten().map(|v| (v.path.clone(), v.line)).collect();
    // `crate::k::Kind` (the `use`) and both `schema::S` (a method is no name in scope), not
    // the local `Kind::A`.
    assert_eq!(
        got,
        [
            (String::from("crate::k::Kind"), 1),
            ("schema::S".into(), 3),
            ("schema::S".into(), 4)
        ]
    );
}

#[test]
fn macro_calls_reach_the_defining_module() {
    let a = krate(&[
        ("src/lib.rs", "macro_rules! out { () => {} } pub mod k; pub mod user;"),
        ("src/k.rs", "pub enum Kind { A, B(u8) } pub trait Tr {}"),
        (
            "src/user.rs",
            "use crate::k::{Kind, Tr}; struct U;
             impl Tr for U {}
             impl U { fn f() { out!(); } }",
        ),
    ]);
    let got: BTreeSet<_> = edge_list(&a).into_iter().map(|e| (e.1, e.2)).collect();
    assert!(got.contains(&("src/lib.rs".to_string(), "out!".to_string())), "{got:?}");
    assert!(
        got.contains(&("src/k.rs".to_string(), "crate::k::Tr".to_string())),
        "{got:?}"
    );
}

#[test]
fn mentions_follow_renames_globs_and_self_but_not_other_enums() {
    let a = krate(&[
        ("src/lib.rs", "pub mod analysis; pub mod cli;"),
        (
            "src/analysis/mod.rs",
            "pub mod opencode;
             pub enum Dialect { OpenCode, Claude }
             pub enum FileKind { OpenCode(opencode::FileKind), Skill }
             impl FileKind { fn d(&self) -> Dialect { match self { Self::OpenCode(_) => Dialect::OpenCode, _ => todo!() } } }",
        ),
        ("src/analysis/opencode/mod.rs", "pub enum FileKind { Config, Skill } fn f() { super::FileKind::Skill; }"),
        (
            "src/cli.rs",
            "use crate::analysis::{FileKind as K, opencode};
             fn f(k: K) {
                 let _ = opencode::FileKind::Skill;
                 let _ = K::Skill;
                 { use crate::analysis::Dialect::*; let _ = Claude; }
                 let _ = crate::analysis::Dialect::parse;
             }",
        ),
    ]);
    let enums = a.dispatch_enums().expect("found");
    assert_eq!(enums[0].path, ["crate", "analysis", "FileKind"]);
    assert_eq!(enums[0].variants, ["OpenCode", "Skill"]);
    assert_eq!(enums[1].variants, ["OpenCode", "Claude"]);
    let rows = a.mentions().expect("counted");
    let row = |file: &str, resolved: Vec<usize>, textual| Mentions {
        file: file.into(),
        resolved,
        textual,
    };
    // mod.rs: `Self::OpenCode` and `Dialect::OpenCode`, not the `opencode::FileKind` nor the
    // declarations; cli.rs: `K::Skill` and `Claude` (the glob), not `opencode::FileKind::Skill`
    // (which the textual count takes) nor `Dialect::parse`.
    assert_eq!(
        rows,
        [
            row("src/analysis/mod.rs", vec![1, 1], 1),
            row("src/cli.rs", vec![1, 1], 1)
        ]
    );
}

#[test]
fn cycles_are_found_with_a_shortest_path() {
    let a = krate(&[
        ("src/lib.rs", "pub mod a; pub mod b; pub mod c; pub mod d;"),
        ("src/a.rs", "pub fn fa() { crate::b::fb(); crate::d::fd(); }"),
        ("src/b.rs", "pub fn fb() { crate::c::fc(); crate::a::fa(); }"),
        ("src/c.rs", "pub fn fc() { crate::a::fa(); }"),
        ("src/d.rs", "pub fn fd() {}"),
    ]);
    let cycles = a.cycles();
    assert_eq!(cycles.len(), 1);
    let names = |v: &[usize]| v.iter().map(|&f| a.krate.rel(f).to_string()).collect::<Vec<_>>();
    assert_eq!(names(&cycles[0].0), ["src/a.rs", "src/b.rs", "src/c.rs"]);
    assert_eq!(names(&cycles[0].1), ["src/a.rs", "src/b.rs", "src/a.rs"]);
    assert!(a.render_cycles().contains("-> src/b.rs  (via crate::b::fb, line 1)"));
}

#[test]
fn every_file_of_src_parses() {
    // Parsing twice gives the same graph, and every file is in the module tree or test code.
    let (x, y) = (analysis(), analysis());
    assert_eq!(pairs(&x), pairs(&y));
    let sources = sources();
    for rel in sources.keys() {
        let read = x.krate.by_rel.contains_key(rel);
        assert!(
            read || x.krate.test_files.contains(rel) || x.krate.unreached.contains(rel),
            "{rel}"
        );
        // Every `{` of every file is matched.
        let toks = tokenize(&strip(&sources[rel]));
        let mat = match_brackets(&toks);
        let unmatched = toks
            .iter()
            .zip(&mat)
            .filter(|(t, m)| (t.is("{") || t.is("}")) && m.is_none())
            .count();
        assert_eq!(
            unmatched, 0,
            "{rel}: unmatched braces after stripping (a literal misread?)"
        );
    }
}

//! `tools`, `disallowedTools` and `skills` lists: how the loader splits them and what each entry
//! is (spec §1.3-1.4, §2, §7.5).
//!
//! Split rule: every string (a whole value or one list item) is cut at commas and whitespace,
//! except where the separator lies inside one level of parentheses: `Bash(git diff:*)` and
//! `Agent(a, b)` stay whole, `Bash(echo (a) b)` is cut after `echo`. A separator is inside when
//! the text after it reaches a `)` before any `(`.

use crate::analysis::syntax::{Node, Style, Value};
use crate::analysis::text::Span;

/// One entry of a tool list, with the span of its text when it can be placed exactly (else the
/// span of the value it comes from).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub text: String,
    pub span: Span,
    /// The span covers exactly `text` (a fix may replace it).
    pub exact: bool,
    /// On the first piece of an entry whose `(` is never closed (`Bash(npm test:*`): the whole
    /// entry, which the loader cuts open at its spaces.
    pub unclosed: Option<Unclosed>,
    /// A later piece of such an entry (`test:*`): told with the first, not on its own.
    pub cut: bool,
}

/// An entry whose `(` is never closed, from its `(` piece to the next comma.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unclosed {
    /// The entry as written, and the pieces the loader cuts it into.
    pub text: String,
    pub pieces: Vec<String>,
    /// The entry's span when the value is spelled out (else the value's).
    pub span: Span,
    /// Where the missing `)` goes, when the value is spelled out.
    pub close_at: Option<usize>,
}

/// How a list field reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum List {
    /// The entries, in order (duplicates kept).
    Items(Vec<Item>),
    /// An entry `*`: every tool (the field is ignored).
    All(Span),
    /// An empty value, `""`, only separators, a number or a boolean: an empty list.
    Empty(Span),
}

impl List {
    pub fn items(&self) -> &[Item] {
        match self {
            List::Items(v) => v,
            _ => &[],
        }
    }
}

/// Cut one string into entries; offsets are byte offsets into `s`.
pub fn split(s: &str) -> Vec<(usize, usize)> {
    let bytes = s.as_bytes();
    // For each position, whether a `)` comes before the next `(` (scanning right to left).
    let mut closes_first = vec![false; bytes.len() + 1];
    let mut state = false;
    for i in (0..bytes.len()).rev() {
        match bytes[i] {
            b')' => state = true,
            b'(' => state = false,
            _ => {}
        }
        closes_first[i] = state;
    }
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in s.char_indices() {
        // A separator is not a parenthesis, so the state at it is the state after it.
        let sep = (ch == ',' || ch.is_whitespace()) && !closes_first[i];
        match (sep, start) {
            (true, Some(st)) => {
                out.push((st, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(st) = start {
        out.push((st, s.len()));
    }
    out
}

/// Where the value of a string scalar starts in the source, when the value is spelled exactly
/// there (a plain scalar on one line, or a quoted one without escapes).
fn exact_start(node: &Node, value: &str, source: &str) -> Option<usize> {
    let raw = node.span.text(source);
    let start = node.span.start as usize;
    match node.style {
        Style::Plain if raw == value => Some(start),
        Style::Quoted if raw.get(1..raw.len().saturating_sub(1)) == Some(value) => Some(start + 1),
        _ => None,
    }
}

fn push_string(node: &Node, value: &str, source: &str, out: &mut Vec<Item>) {
    let base = exact_start(node, value, source);
    let place = |a: usize, b: usize| match base {
        Some(s) => (Span::new(s + a, s + b), true),
        None => (node.span, false),
    };
    let pieces = split(value);
    let mut i = 0;
    while i < pieces.len() {
        let (a, b) = pieces[i];
        let (span, exact) = place(a, b);
        let text = &value[a..b];
        // An entry whose `(` is never closed before the next comma: its pieces up to that comma
        // (or up to a piece opening a parenthesis of its own).
        let comma = value[a..].find(',').map_or(value.len(), |k| a + k);
        let entry = &value[a..comma];
        let open = text.contains('(') && !text.contains(')') && entry.matches('(').count() > entry.matches(')').count();
        let mut last = i;
        while open
            && let Some(&(na, nb)) = pieces.get(last + 1)
            && na < comma
            && !value[na..nb].contains('(')
        {
            last += 1;
        }
        let unclosed = open.then(|| {
            let end = pieces[last].1;
            let (span, exact) = place(a, end);
            Unclosed {
                text: value[a..end].to_string(),
                pieces: pieces[i..=last].iter().map(|&(x, y)| value[x..y].to_string()).collect(),
                span,
                close_at: exact.then_some(span.end as usize),
            }
        });
        out.push(Item {
            text: text.to_string(),
            span,
            exact,
            unclosed,
            cut: false,
        });
        for &(x, y) in &pieces[i + 1..=last] {
            let (span, exact) = place(x, y);
            out.push(Item {
                text: value[x..y].to_string(),
                span,
                exact,
                unclosed: None,
                cut: true,
            });
        }
        i = last + 1;
    }
}

/// Read a list field's value as the loader does.
pub fn read(node: &Node, source: &str) -> List {
    let mut items = Vec::new();
    match &node.value {
        Value::Str(s) => push_string(node, s, source, &mut items),
        Value::Seq(seq) => {
            for n in seq {
                // Non-string items are dropped.
                if let Value::Str(s) = &n.value {
                    push_string(n, s, source, &mut items);
                }
            }
            if seq.is_empty() {
                return List::Items(Vec::new());
            }
        }
        Value::Unknown => return List::Items(Vec::new()),
        _ => return List::Empty(node.span),
    }
    if let Some(star) = items.iter().find(|i| i.text == "*") {
        return List::All(star.span);
    }
    if items.is_empty() {
        return List::Empty(node.span);
    }
    List::Items(items)
}

impl Unclosed {
    /// What is wrong, for a message ending with what the runtime then does (`effect`).
    pub fn message(&self, effect: &str) -> String {
        let how = match self.pieces.as_slice() {
            [_] => format!(
                "Claude Code reads it as a tool named `{}`, which does not exist",
                self.text
            ),
            pieces => format!(
                "Claude Code cuts it at the spaces into `{}`, which are no tools",
                pieces.join("`, `")
            ),
        };
        format!("`{}` has no closing `)`: {how}; {effect}", self.text)
    }

    /// The fix: the `)` written at the end of the entry, when the value is spelled out.
    pub fn fix(&self) -> Option<crate::analysis::diagnostic::Edit> {
        self.close_at
            .map(|at| crate::analysis::diagnostic::Edit::new(Span::new(at, at), ")"))
    }
}

/// The title of [`Unclosed::fix`].
pub const ADD_PARENTHESIS: &str = "Add the missing `)`";

/// An entry's tool name and its parenthesised specifier, if any (`Bash(git diff:*)`).
pub fn parts(entry: &str) -> (&str, Option<&str>) {
    match entry.find('(') {
        Some(i) if entry.ends_with(')') => (&entry[..i], Some(&entry[i + 1..entry.len() - 1])),
        _ => (entry, None),
    }
}

/// Whether the rule `tool(spec)` takes in every command of a shell tool: `Bash`, `Bash(*)`,
/// `Bash(:*)`, and the same of `PowerShell`.
pub fn whole_shell(tool: &str, spec: Option<&str>) -> bool {
    matches!(tool, "Bash" | "PowerShell") && every_use(spec)
}

/// Programs that run whatever command or code their arguments hold, each with the options that
/// take code (`python3 -c`): an allow rule for one of them with any arguments (`Bash(python3 *)`,
/// `Bash(env:*)`, `Bash(bash -c *)`) lets every command through. Seen with Claude Code 2.1.332
/// (`tests/agents/run.sh` step (i)): such a rule let `env touch`, `python3 -c`, `bash -c`,
/// `sh -c`, `node -e`, `perl -e`, `xargs touch`, `timeout 5 touch`, `nohup`, `nice`, `time`,
/// `stdbuf`, `command`, `su -c` and `npm exec` run a command the rule does not name, and passed
/// the others here to the shell; it refuses on its own `eval`, `exec`, `watch`, `find -exec`
/// and `awk`'s `system()`, which are not listed.
const RUNNERS: &[(&str, &[&str])] = &[
    ("bash", &["-c"]),
    ("sh", &["-c"]),
    ("zsh", &["-c"]),
    ("dash", &["-c"]),
    ("ksh", &["-c"]),
    ("fish", &["-c"]),
    ("pwsh", &["-c", "-Command"]),
    ("python", &["-c"]),
    ("python3", &["-c"]),
    ("node", &["-e", "--eval", "-p", "--print"]),
    ("perl", &["-e", "-E"]),
    ("ruby", &["-e"]),
    ("php", &["-r"]),
    ("bun", &["-e", "--eval"]),
    ("deno", &["eval"]),
    ("osascript", &["-e"]),
    ("env", &[]),
    ("xargs", &[]),
    ("timeout", &[]),
    ("nohup", &[]),
    ("nice", &[]),
    ("time", &[]),
    ("stdbuf", &[]),
    ("command", &[]),
    ("sudo", &[]),
    ("su", &["-c"]),
    ("npx", &[]),
    ("bunx", &[]),
    ("uvx", &[]),
    ("npm exec", &[]),
    ("pnpm dlx", &[]),
    ("uv run", &[]),
    ("docker run", &[]),
];

/// When the rule `tool(spec)` is a shell tool's rule for a program of [`RUNNERS`] with any
/// arguments (`Bash(python3 *)`, `Bash(env:*)`, `Bash(bash -c *)`): the program and option as
/// written before the wildcard.
pub fn any_command<'s>(tool: &str, spec: Option<&'s str>) -> Option<&'s str> {
    if tool != "Bash" {
        return None;
    }
    let spec = spec?.trim();
    let head = [" **", " *", ":*", "*"]
        .iter()
        .find_map(|w| spec.strip_suffix(w))?
        .trim_end();
    if head.contains('*') {
        return None;
    }
    let words: Vec<&str> = head.split_whitespace().collect();
    let (options, rest) = runner_of(&words)?;
    match rest {
        [] => Some(head),
        [option] if options.contains(option) => Some(head),
        _ => None,
    }
}

/// The entry of [`RUNNERS`] `words` start with: its code options, and the words after it.
fn runner_of<'w, 'a>(words: &'w [&'a str]) -> Option<(&'static [&'static str], &'w [&'a str])> {
    RUNNERS.iter().find_map(|(runner, options)| {
        let n = runner.split(' ').count();
        let named = words.len() >= n && runner.split(' ').eq(words[..n].iter().copied());
        named.then(|| (*options, &words[n..]))
    })
}

/// How the program [`any_command`] found runs anything: "`python3 -c` runs whatever code it
/// is given", "`env` runs whatever command follows it".
pub fn runs_what(head: &str) -> String {
    let words: Vec<&str> = head.split_whitespace().collect();
    match runner_of(&words) {
        Some((&[option, ..], [])) => format!("`{head} {option}` runs whatever code it is given"),
        Some((&[_, ..], _)) => format!("`{head}` runs whatever code it is given"),
        _ => format!("`{head}` runs whatever command follows it"),
    }
}

/// Whether a rule's specifier takes in every use of its tool: none, `*`, `:*` or `**`.
pub fn every_use(spec: Option<&str>) -> bool {
    matches!(spec.map(str::trim), None | Some("*" | ":*" | "**"))
}

/// The agent types named by an `Agent(a, b)` or `Task(a, b)` entry, with their offsets inside
/// the entry.
pub fn agent_types(entry: &str) -> Vec<(usize, usize)> {
    let (name, Some(spec)) = parts(entry) else {
        return Vec::new();
    };
    if name != "Agent" && name != "Task" {
        return Vec::new();
    }
    let base = name.len() + 1;
    let mut out = Vec::new();
    let mut at = 0;
    for piece in spec.split(',') {
        let lead = piece.len() - piece.trim_start().len();
        let t = piece.trim();
        if !t.is_empty() {
            out.push((base + at + lead, base + at + lead + t.len()));
        }
        at += piece.len() + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::syntax::yaml;

    #[test]
    fn a_runner_with_any_arguments_runs_any_command() {
        fn any(spec: &str) -> Option<&str> {
            any_command("Bash", Some(spec))
        }
        // Every wildcard form, a code option, two-word runners.
        assert_eq!(any("python3 *"), Some("python3"));
        assert_eq!(any("env:*"), Some("env"));
        assert_eq!(any("node*"), Some("node"));
        assert_eq!(any("xargs **"), Some("xargs"));
        assert_eq!(any(" bash -c * "), Some("bash -c"));
        assert_eq!(any("node --eval *"), Some("node --eval"));
        assert_eq!(any("uv run *"), Some("uv run"));
        assert_eq!(any("npm exec:*"), Some("npm exec"));
        // Narrower: a script or folder named, another option, a second word, no wildcard at
        // the end, a wildcard inside, a program that is not a runner, another tool.
        assert_eq!(any("python3 scripts/check.py *"), None);
        assert_eq!(any("python3 tests/*"), None);
        assert_eq!(any("python3 -m pytest *"), None);
        assert_eq!(any("bash -x *"), None);
        assert_eq!(any("bash -c echo *"), None);
        assert_eq!(any("uv *"), None);
        assert_eq!(any("npm *"), None);
        assert_eq!(any("python3"), None);
        assert_eq!(any("python* -c *"), None);
        assert_eq!(any("git *"), None);
        assert_eq!(any_command("Bash", None), None);
        // A whole-shell rule names no program (`broad_grants` relies on it for its message).
        for spec in ["*", ":*", "**", " * "] {
            assert!(whole_shell("Bash", Some(spec)), "{spec}");
            assert_eq!(any(spec), None, "{spec}");
        }
        assert_eq!(any_command("Read", Some("env *")), None);
        assert_eq!(runs_what("python3"), "`python3 -c` runs whatever code it is given");
        assert_eq!(runs_what("bash -c"), "`bash -c` runs whatever code it is given");
        assert_eq!(runs_what("uv run"), "`uv run` runs whatever command follows it");
        assert_eq!(runs_what("env"), "`env` runs whatever command follows it");
    }

    /// The items of `tools` in a one-line frontmatter, with the source text under each span and
    /// whether the span is exact.
    fn items(yaml_text: &str) -> Vec<(String, String, bool)> {
        let parsed = yaml::parse_core(yaml_text, 0);
        let map = parsed.root.as_ref().and_then(Node::as_map).expect("a mapping");
        let node = map.value("tools").expect("tools");
        read(node, yaml_text)
            .items()
            .iter()
            .map(|i| (i.text.clone(), i.span.text(yaml_text).to_string(), i.exact))
            .collect()
    }

    #[test]
    fn item_spans_are_exact_only_where_the_value_is_spelled_out() {
        let it = |t: &str, s: &str, e: bool| (t.to_string(), s.to_string(), e);
        assert_eq!(
            items("tools: Read, Grep\n"),
            [it("Read", "Read", true), it("Grep", "Grep", true)]
        );
        assert_eq!(
            items("tools: \"Read, Grep\"\n"),
            [it("Read", "Read", true), it("Grep", "Grep", true)]
        );
        // An escape: the text is not the value, so every item points at the whole value.
        assert_eq!(
            items("tools: \"Re\\x61d, Grep\"\n"),
            [
                it("Read", "\"Re\\x61d, Grep\"", false),
                it("Grep", "\"Re\\x61d, Grep\"", false)
            ]
        );
        // A plain value over two lines is not spelled out on one line either.
        assert_eq!(
            items("tools: Read,\n  Grep\n"),
            [it("Read", "Read,\n  Grep", false), it("Grep", "Read,\n  Grep", false)]
        );
        // An unreadable value (cut off by the depth limit) is no list, not an empty one.
        let unknown = Node::new(Span::new(0, 0), crate::analysis::syntax::Style::Plain, Value::Unknown);
        assert_eq!(read(&unknown, ""), List::Items(Vec::new()));
    }

    fn cut(s: &str) -> Vec<&str> {
        split(s).into_iter().map(|(a, b)| &s[a..b]).collect()
    }

    #[test]
    fn splits_like_the_loader() {
        assert_eq!(cut("Read, Grep,Glob  Bash"), ["Read", "Grep", "Glob", "Bash"]);
        assert_eq!(cut("Bash(git diff:*), Read"), ["Bash(git diff:*)", "Read"]);
        assert_eq!(cut("Agent(a, b) Read"), ["Agent(a, b)", "Read"]);
        // One level only: nested parentheses are cut open.
        assert_eq!(cut("Bash(echo (a) b)"), ["Bash(echo", "(a) b)"]);
        assert_eq!(cut(" , ,"), Vec::<&str>::new());
        assert_eq!(cut("[Read"), ["[Read"]);
        assert_eq!(cut("Read,Read"), ["Read", "Read"]);
    }

    /// An entry whose `(` is never closed: the loader cuts it, and the pieces up to the next
    /// comma are marked as one unclosed entry.
    #[test]
    fn an_unclosed_parenthesis_is_one_entry_cut_open() {
        let parsed = yaml::parse_core("tools: Read, Bash(npm test:* x, Grep Bash(git\n", 0);
        let text = "tools: Read, Bash(npm test:* x, Grep Bash(git\n";
        let map = parsed.root.as_ref().and_then(Node::as_map).unwrap();
        let list = read(map.value("tools").unwrap(), text);
        type Row = (String, Option<(String, Option<usize>)>, bool);
        let got: Vec<Row> = list
            .items()
            .iter()
            .map(|i| {
                let u = i.unclosed.as_ref().map(|u| (u.span.text(text).to_string(), u.close_at));
                (i.text.clone(), u, i.cut)
            })
            .collect();
        let s = |x: &str| x.to_string();
        assert_eq!(
            got,
            [
                (s("Read"), None, false),
                (s("Bash(npm"), Some((s("Bash(npm test:* x"), Some(30))), false),
                (s("test:*"), None, true),
                (s("x"), None, true),
                (s("Grep"), None, false),
                (s("Bash(git"), Some((s("Bash(git"), Some(45))), false),
            ]
        );
        // Nested parentheses are cut open, but nothing is left unclosed.
        let parsed = yaml::parse_core("tools: Bash(echo (a) b)\n", 0);
        let map = parsed.root.as_ref().and_then(Node::as_map).unwrap();
        let list = read(map.value("tools").unwrap(), "tools: Bash(echo (a) b)\n");
        assert!(list.items().iter().all(|i| i.unclosed.is_none() && !i.cut));
    }

    #[test]
    fn parts_and_agent_types() {
        assert_eq!(parts("Bash(git diff:*)"), ("Bash", Some("git diff:*")));
        assert_eq!(parts("Read"), ("Read", None));
        // An unclosed parenthesis is no specifier.
        assert_eq!(parts("Bash(git"), ("Bash(git", None));
        let e = "Agent(a, b-c)";
        let got: Vec<&str> = agent_types(e).into_iter().map(|(a, b)| &e[a..b]).collect();
        assert_eq!(got, ["a", "b-c"]);
        assert!(agent_types("Bash(a)").is_empty());
    }
}

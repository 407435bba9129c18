//! Secrets written into agent files: API tokens and keys pasted into a config's `env`, `headers`
//! or provider options, where anyone who can read the file (the repository, its history, its
//! forks) can use them.
//!
//! Two ways to recognise one, both without a regular expression:
//! - a well-known token shape anywhere in a string value ([`SHAPES`]: a fixed prefix, then a
//!   run of the characters that token is made of, long enough): GitHub, OpenAI, Anthropic,
//!   AWS, Slack, Google, Stripe, GitLab, npm, Hugging Face and the like;
//! - a value under a key that names a secret (`*TOKEN*`, `*SECRET*`, `*PASSWORD*`, `*_KEY`,
//!   `apiKey`, `Authorization`) that reads as one: no spaces, at least 16 characters, high
//!   entropy, and neither a reference the runtime fills in (`${NAME}`, `{env:NAME}`,
//!   `${input:id}`), a path or URL, nor a placeholder (`<your-token>`, `xxxx`, `changeme`).
//!
//! The secret itself is never put in a message: [`redacted`] shows its first characters and its
//! length, and [`mask`] hides it in a line of source a report prints.

use super::spec::SecretFix;
use super::syntax::{Node, Value};
use super::{Code, Diagnostic, Edit, Span};

/// One secret found in a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Secret {
    /// The secret's own characters in the source (inside the quotes; without `Bearer `).
    pub span: Span,
    /// What it is: "a GitHub token", or "a value that reads as a secret".
    pub what: &'static str,
    /// The keys from the root down to the value holding it.
    pub path: Vec<String>,
    /// The secret's characters, as the value holds them.
    pub text: String,
}

/// A token shape: its prefix, the characters of its body, and the body's least length.
struct Shape {
    prefix: &'static str,
    body: fn(u8) -> bool,
    min: usize,
    what: &'static str,
}

fn alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

fn alnum_(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn url_safe(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

fn upper_digit(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit()
}

fn hex_dash(b: u8) -> bool {
    b.is_ascii_hexdigit() || b == b'-'
}

fn slack(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-'
}

/// The token shapes recognised anywhere in a string (the longest prefix is tried first where two
/// share a start: `sk-ant-` before `sk-`).
#[rustfmt::skip]
const SHAPES: &[Shape] = &[
    Shape { prefix: "ghp_", body: alnum, min: 36, what: "a GitHub token" },
    Shape { prefix: "gho_", body: alnum, min: 36, what: "a GitHub token" },
    Shape { prefix: "ghu_", body: alnum, min: 36, what: "a GitHub token" },
    Shape { prefix: "ghs_", body: alnum, min: 36, what: "a GitHub token" },
    Shape { prefix: "ghr_", body: alnum, min: 36, what: "a GitHub token" },
    Shape { prefix: "github_pat_", body: alnum_, min: 60, what: "a GitHub token" },
    Shape { prefix: "sk-ant-", body: url_safe, min: 40, what: "an Anthropic API key" },
    Shape { prefix: "sk-proj-", body: url_safe, min: 40, what: "an OpenAI API key" },
    Shape { prefix: "sk-svcacct-", body: url_safe, min: 40, what: "an OpenAI API key" },
    Shape { prefix: "sk-admin-", body: url_safe, min: 40, what: "an OpenAI API key" },
    Shape { prefix: "sk-or-v1-", body: alnum, min: 48, what: "an OpenRouter API key" },
    Shape { prefix: "sk-", body: alnum, min: 40, what: "an OpenAI API key" },
    Shape { prefix: "AKIA", body: upper_digit, min: 16, what: "an AWS access key" },
    Shape { prefix: "ASIA", body: upper_digit, min: 16, what: "an AWS access key" },
    Shape { prefix: "xoxb-", body: slack, min: 20, what: "a Slack token" },
    Shape { prefix: "xoxp-", body: slack, min: 20, what: "a Slack token" },
    Shape { prefix: "xoxa-", body: slack, min: 20, what: "a Slack token" },
    Shape { prefix: "xapp-", body: slack, min: 20, what: "a Slack token" },
    Shape { prefix: "AIza", body: url_safe, min: 35, what: "a Google API key" },
    Shape { prefix: "sk_live_", body: alnum, min: 24, what: "a Stripe secret key" },
    Shape { prefix: "rk_live_", body: alnum, min: 24, what: "a Stripe secret key" },
    Shape { prefix: "glpat-", body: url_safe, min: 20, what: "a GitLab token" },
    Shape { prefix: "npm_", body: alnum, min: 36, what: "an npm token" },
    Shape { prefix: "hf_", body: alnum, min: 34, what: "a Hugging Face token" },
    Shape { prefix: "gsk_", body: alnum, min: 48, what: "a Groq API key" },
    Shape { prefix: "xai-", body: alnum, min: 70, what: "an xAI API key" },
    Shape { prefix: "pplx-", body: alnum, min: 40, what: "a Perplexity API key" },
    Shape { prefix: "lin_api_", body: alnum, min: 40, what: "a Linear API key" },
    Shape { prefix: "ntn_", body: alnum, min: 40, what: "a Notion token" },
    Shape { prefix: "tvly-", body: url_safe, min: 30, what: "a Tavily API key" },
    Shape { prefix: "sbp_", body: alnum, min: 40, what: "a Supabase token" },
    Shape { prefix: "dop_v1_", body: alnum, min: 64, what: "a DigitalOcean token" },
    Shape { prefix: "figd_", body: url_safe, min: 40, what: "a Figma token" },
    Shape { prefix: "sntrys_", body: url_safe, min: 60, what: "a Sentry token" },
    Shape { prefix: "ctx7sk-", body: hex_dash, min: 36, what: "a Context7 API key" },
];

/// A private key block.
const PRIVATE_KEY: &str = "-----BEGIN ";

/// The bytes a token starts with: where [`token_in`] looks further.
static STARTS: [bool; 256] = {
    let mut t = [false; 256];
    t[PRIVATE_KEY.as_bytes()[0] as usize] = true;
    let mut i = 0;
    while i < SHAPES.len() {
        t[SHAPES[i].prefix.as_bytes()[0] as usize] = true;
        i += 1;
    }
    t
};

/// Whether `s` may hold a token: every token holds a run of 16 of its characters or more, which
/// prose has not, or a private key's header (a cheap pass that spares [`token_in`]'s search
/// almost every description and prompt).
fn may_hold_token(s: &str) -> bool {
    let mut run = 0;
    s.bytes().any(|b| {
        run = if url_safe(b) { run + 1 } else { 0 };
        run >= 16
    }) || s.contains(PRIVATE_KEY)
}

/// The first well-known token in `s`: its byte range and what it is.
pub fn token_in(s: &str) -> Option<(usize, usize, &'static str)> {
    if !may_hold_token(s) {
        return None;
    }
    let bytes = s.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        // A token starts a word: not in the middle of an identifier or another token.
        let starts = (at == 0 || !url_safe(bytes[at - 1])) && STARTS[bytes[at] as usize];
        if starts {
            if s[at..].starts_with(PRIVATE_KEY)
                && let Some(end) = pem_end(&s[at..])
            {
                return Some((at, at + end, "a private key"));
            }
            for shape in SHAPES {
                if shape.prefix.as_bytes()[0] != bytes[at] || !s[at..].starts_with(shape.prefix) {
                    continue;
                }
                let body = at + shape.prefix.len();
                let len = bytes[body..].iter().take_while(|b| (shape.body)(**b)).count();
                let end = body + len;
                // Long enough, and ending the word (a longer run of other characters is some
                // other text that happens to start the same way).
                if len >= shape.min && (end == bytes.len() || !alnum(bytes[end])) && !placeholder(&s[body..end]) {
                    return Some((at, end, shape.what));
                }
            }
        }
        at += s[at..].chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// Where the private key block that `s` starts with ends (past its `-----END ...-----`): a
/// `-----BEGIN ... PRIVATE KEY-----` line, then base64 (on lines, or with `\n` written out, as
/// in a JSON string quoted in prose, and an encrypted key's `Proc-Type:` and `DEK-Info:`
/// lines), then the `-----END` line. None for anything else: a rule or a doc that names the
/// header (`-----BEGIN PRIVATE KEY-----` in a list of patterns), a block whose body is a
/// placeholder (`...`, `<your key>`).
fn pem_end(s: &str) -> Option<usize> {
    const HEADER_END: &str = "PRIVATE KEY-----";
    let first = s.lines().next()?;
    let body_start = first.find(HEADER_END)? + HEADER_END.len();
    // A key's block is a few KiB at most (an 8192-bit RSA key: under 7): the end is looked for
    // that far, so that text full of headers costs no more than one pass each.
    let window = &s.as_bytes()[body_start..(body_start + 16 * 1024).min(s.len())];
    let end_at = body_start + window.windows(9).position(|w| w == b"-----END ")?;
    let mut base64 = 0;
    for line in s[body_start..end_at].split(['\n', '\r']).flat_map(|l| l.split("\\n")) {
        let line = line.trim().trim_end_matches("\\r");
        if line.is_empty() || line.starts_with("Proc-Type:") || line.starts_with("DEK-Info:") {
            continue;
        }
        if !line
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
        {
            return None;
        }
        base64 += line.len();
    }
    if base64 < 16 {
        return None;
    }
    let close = end_at + 9 + s[end_at + 9..].lines().next()?.find("-----")? + 5;
    Some(close)
}

/// Whether a key's name says its value is a secret (`GITHUB_TOKEN`, `apiKey`, `client_secret`,
/// `Authorization`), and not something about one (`TOKEN_URL`, `api_key_env`, `keyFile`).
/// (Asked of every string's key on every keystroke: no allocation.)
pub fn secret_key(name: &str) -> bool {
    let Some(last) = word_slices(name).last() else {
        return false;
    };
    // What the value is, by the last word: a name, a path, a place, a flag is not the secret.
    const ABOUT: &[&str] = &[
        "ENV", "VAR", "VARS", "NAME", "FILE", "PATH", "URL", "URI", "ID", "HEADER", "HELPER", "COMMAND", "CMD", "TYPE",
        "LENGTH", "EXPIRY", "EXPIRES", "TTL", "ENABLED", "PREFIX", "SUFFIX", "FORMAT", "MODE",
    ];
    if ABOUT.iter().any(|a| a.eq_ignore_ascii_case(last)) {
        return false;
    }
    let several = word_slices(name).nth(1).is_some();
    const NAMING: &[&str] = &[
        "TOKEN",
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "APIKEY",
        "CREDENTIAL",
        "CREDENTIALS",
        "AUTHORIZATION",
        "PAT",
    ];
    word_slices(name)
        .any(|w| NAMING.iter().any(|n| n.eq_ignore_ascii_case(w)) || several && w.eq_ignore_ascii_case("PASS"))
        || several && last.eq_ignore_ascii_case("KEY")
}

/// The words of a key as slices of it: split at what is not a letter or digit, and where a
/// lower-case letter or digit is followed by an upper-case one (`apiKey`: `api`, `Key`).
fn word_slices(name: &str) -> impl Iterator<Item = &str> {
    let b = name.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < b.len() && !b[at].is_ascii_alphanumeric() {
            at += 1;
        }
        if at >= b.len() {
            return None;
        }
        let start = at;
        at += 1;
        while at < b.len()
            && b[at].is_ascii_alphanumeric()
            && !(b[at].is_ascii_uppercase() && (b[at - 1].is_ascii_lowercase() || b[at - 1].is_ascii_digit()))
        {
            at += 1;
        }
        Some(&name[start..at])
    })
}

/// The words of a key, upper-case: `apiKey` is `API KEY`, `GITHUB_TOKEN` is `GITHUB TOKEN`.
fn words(name: &str) -> Vec<String> {
    word_slices(name).map(str::to_ascii_uppercase).collect()
}

/// Shannon entropy of `s` in bits per character.
fn entropy(s: &str) -> f64 {
    let mut counts = [0u32; 256];
    for b in s.bytes() {
        counts[b as usize] += 1;
    }
    let n = s.len() as f64;
    counts
        .iter()
        .filter(|c| **c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * p.log2()
        })
        .sum()
}

/// Whether `s` is a stand-in for a secret rather than one (`<token>`, `your-api-key`, `xxxx`).
fn placeholder(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    const WORDS: &[&str] = &[
        "your",
        "xxxx",
        "****",
        "....",
        "example",
        "placeholder",
        "changeme",
        "change_me",
        "replace",
        "dummy",
        "redacted",
        "insert",
        "todo",
        "here",
        "sample",
        "fake",
        "token",
        "secret",
        "password",
    ];
    WORDS.iter().any(|w| lower.contains(w))
        || s.contains(['<', '>', '{', '}', '$', '%', '[', ']'])
        // One character over and over, or a counting run.
        || s.bytes().all(|b| b == s.as_bytes()[0])
        || lower.contains("0123456789")
        || lower.contains("abcdef")
}

/// The part of `value` (under a secret's key) that is a literal secret: after an HTTP scheme
/// word (`Bearer `, `Basic `, `token `), when it reads as a secret.
fn literal(value: &str) -> Option<(usize, usize)> {
    let (start, end) = scheme_split(value);
    let s = &value[start..end];
    let chars = s.chars().count();
    let reads = (16..=2048).contains(&chars)
        && !s.contains(char::is_whitespace)
        && s.is_ascii()
        && !s.contains("://")
        && !s.starts_with(['/', '~', '.', '-'])
        && !s.contains('\\')
        && !placeholder(s)
        // Letters and digits both, or mixed case: not a word, not a number.
        && (s.bytes().any(|b| b.is_ascii_digit()) && s.bytes().any(|b| b.is_ascii_alphabetic())
            || s.bytes().any(|b| b.is_ascii_uppercase()) && s.bytes().any(|b| b.is_ascii_lowercase()))
        && entropy(s) >= 3.3;
    reads.then_some((start, end))
}

/// Under a key that names a secret, the part of `value` after an HTTP scheme word when it is
/// some value, not a reference or nothing (see [`filled_in`]).
fn any_literal(value: &str) -> Option<(usize, usize)> {
    let (start, end) = scheme_split(value);
    let s = &value[start..end];
    (s.chars().count() >= 6 && !s.contains(char::is_whitespace) && !s.contains(['{', '$'])).then_some((start, end))
}

/// Where the value after an HTTP scheme word (`Bearer `, `Basic `, `token `) starts and ends.
fn scheme_split(value: &str) -> (usize, usize) {
    let mut start = 0;
    for scheme in ["Bearer ", "bearer ", "Basic ", "basic ", "Token ", "token "] {
        if let Some(rest) = value.strip_prefix(scheme) {
            start = value.len() - rest.len();
            break;
        }
    }
    (start, start + value[start..].trim_end().len())
}

/// The most nodes one file's walk visits (a YAML alias bomb repeats shared maps endlessly).
const BUDGET: usize = 50_000;

/// The secrets in a file's tree (`text` is the file the spans index).
pub fn find(root: &Node, text: &str) -> Vec<Secret> {
    walk(root, text, false)
}

/// The secrets of a tree whose values the runtime filled in from the environment (opencode's
/// `{env:NAME}`), to hide them in what agent-lsp prints: under a key that names a secret, any
/// value that is not a reference, however it reads.
pub fn filled_in(root: &Node) -> Vec<String> {
    walk(root, "", true).into_iter().map(|s| s.text).collect()
}

fn walk(root: &Node, text: &str, lenient: bool) -> Vec<Secret> {
    let mut out = Vec::new();
    let mut path: Vec<&str> = Vec::new();
    let mut walk = Walk {
        lenient,
        text,
        budget: BUDGET,
        seen: std::collections::HashSet::new(),
        out: &mut out,
    };
    walk.node(root, &mut path);
    out
}

struct Walk<'a> {
    /// Under a key that names a secret, any value (see [`filled_in`]).
    lenient: bool,
    text: &'a str,
    budget: usize,
    /// The secrets already found, by where they start (an alias repeats its anchor's).
    seen: std::collections::HashSet<u32>,
    out: &'a mut Vec<Secret>,
}

/// The shortest string a token shape can match (`AKIA` and 16 characters).
const SHORTEST_TOKEN: usize = 20;

impl Walk<'_> {
    fn node<'t>(&mut self, node: &'t Node, path: &mut Vec<&'t str>) {
        if self.budget == 0 || path.len() > 64 {
            return;
        }
        self.budget -= 1;
        match &node.value {
            Value::Str(s) => {
                let key = path.last().copied().unwrap_or("");
                let lenient = self.lenient;
                // (The cheap tests first: most values are short, most keys name no secret.)
                let by_key = || {
                    let long = s.len() >= if lenient { 6 } else { 16 };
                    (long && secret_key(key))
                        .then(|| if lenient { any_literal(s) } else { literal(s) })
                        .flatten()
                        .map(|(a, b)| (a, b, "a value that reads as a secret"))
                };
                let found = if s.len() >= SHORTEST_TOKEN { token_in(s) } else { None }.or_else(by_key);
                // (Once: an alias repeats its anchor's value.)
                if let Some((a, b, what)) = found
                    && self.seen.insert(node.span.start)
                {
                    self.out.push(Secret {
                        span: source_span(node, self.text, &s[a..b]),
                        text: s[a..b].to_string(),
                        what,
                        path: path.iter().map(|k| k.to_string()).collect(),
                    });
                }
            }
            Value::Seq(items) => {
                for item in items {
                    self.node(item, path);
                }
            }
            Value::Map(map) => {
                for e in map.entries.iter() {
                    path.push(&e.key.name);
                    self.node(&e.value, path);
                    path.pop();
                }
            }
            _ => {}
        }
    }
}

/// Where `secret` is written inside `node`'s source: as it is, when the value holds no escape;
/// else the whole value.
fn source_span(node: &Node, text: &str, secret: &str) -> Span {
    let written = node.span.text(text);
    match written.find(secret) {
        Some(i) => Span::new(
            node.span.start as usize + i,
            node.span.start as usize + i + secret.len(),
        ),
        None => node.span,
    }
}

/// How a report names a secret without showing it: its first characters and its length
/// (`` `ghp_…`, 40 characters ``).
pub fn redacted(secret: &str) -> String {
    let n = secret.chars().count();
    let shown: String = secret.chars().take(if n >= 24 { 4 } else { 2 }).collect();
    format!("`{shown}…`, {n} characters")
}

/// `line` with each of `secrets` in it hidden, at the same width: its first characters kept,
/// the rest `*`.
pub fn mask(line: &str, secrets: &[&str]) -> String {
    let mut out = line.to_string();
    for s in secrets {
        if s.is_empty() {
            continue;
        }
        let n = s.chars().count();
        let keep = if n >= 24 { 4 } else { 2 };
        let hidden: String = s
            .chars()
            .enumerate()
            .map(|(i, c)| if i < keep { c } else { '*' })
            .collect();
        out = out.replace(s, &hidden);
    }
    out
}

/// A name for the environment variable to read a secret from: the key itself when it is one
/// (`GITHUB_TOKEN`), else built from the keys above it (`provider.anthropic.options.apiKey`
/// gives `ANTHROPIC_API_KEY`, `mcp.github.headers.Authorization` gives `GITHUB_TOKEN`).
pub fn env_name(path: &[String]) -> String {
    let Some(key) = path.last() else {
        return "SECRET".to_string();
    };
    let env_like = !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        && key.as_bytes()[0].is_ascii_uppercase();
    if env_like {
        return key.clone();
    }
    let own = words(key);
    let own = if own.iter().any(|w| w == "AUTHORIZATION") || own.is_empty() {
        vec!["TOKEN".to_string()]
    } else {
        own
    };
    // The nearest key above that names a thing (a server, a provider), not a container.
    const CONTAINERS: &[&str] = &[
        "env",
        "environment",
        "headers",
        "options",
        "mcp",
        "mcpServers",
        "servers",
        "provider",
        "http_headers",
        "auth",
        "settings",
        "config",
    ];
    let owner = path[..path.len() - 1]
        .iter()
        .rev()
        .find(|k| !CONTAINERS.contains(&k.as_str()) && k.parse::<usize>().is_err())
        .map(|k| words(k))
        .unwrap_or_default();
    let mut all = owner;
    for w in own {
        if !all.contains(&w) {
            all.push(w);
        }
    }
    all.join("_")
}

/// At most this many secrets are reported in one file's prose.
const PROSE_LIMIT: usize = 100;

/// The well-known tokens and private keys in the prose of a Markdown file (`text[from..]`: a
/// prompt, a skill's or command's instructions, an instruction file), each with an empty path.
/// Only token shapes count here: a key name that says "secret" means nothing in prose.
pub fn find_in_prose(text: &str, from: usize) -> Vec<Secret> {
    let mut out = Vec::new();
    let mut at = from.min(text.len());
    while out.len() < PROSE_LIMIT
        && let Some((a, b, what)) = text.get(at..).and_then(token_in)
    {
        out.push(Secret {
            span: Span::new(at + a, at + b),
            what,
            path: Vec::new(),
            text: text[at + a..at + b].to_string(),
        });
        // (A token is never empty: `b > a`, so this moves on.)
        at += b;
    }
    out
}

/// [`find_in_prose`] of `text[from..]` added to `secrets`, but for a token one of them already
/// covers (where a runtime reads the same text as settings: one finding).
pub fn add_prose(secrets: &mut Vec<Secret>, text: &str, from: usize) {
    let prose = find_in_prose(text, from);
    let fresh: Vec<Secret> = prose
        .into_iter()
        .filter(|p| {
            !secrets
                .iter()
                .any(|s| s.span.start < p.span.end && p.span.start < s.span.end)
        })
        .collect();
    secrets.extend(fresh);
}

/// The `hardcoded-secret` finding on `secret` of `text`, with the runtime's way to read it from
/// the environment (`fix`) as its fix or its advice.
pub fn diagnostic(secret: &Secret, text: &str, fix: Option<SecretFix>) -> Diagnostic {
    let written = secret.span.text(text);
    if secret.path.is_empty() {
        // In prose: the model provider receives it with the prompt, and the file is shared.
        let message = format!(
            "the text of this file holds {} ({}): the runtime sends it to the model provider with the prompt, and whoever can read the file, a copy or its history can use it. Keep it out of the text (a command or an MCP server can read it from the environment), and revoke it if it was ever committed.",
            secret.what,
            redacted(written)
        );
        return Diagnostic::new(Code::HardcodedSecret, secret.span, message);
    }
    let holder = match secret.path.last() {
        Some(key) if secret.path.len() > 1 || !key.is_empty() => format!("`{key}`"),
        _ => "This value".to_string(),
    };
    let name = env_name(&secret.path);
    let advice = match fix {
        Some(SecretFix { reference: Some(r), .. }) => {
            format!("Read it from the environment: `{}`.", r.replace("NAME", &name))
        }
        Some(f) => f.advice.to_string(),
        None => "Read it from the environment instead.".to_string(),
    };
    let message = format!(
        "{holder} holds {} ({}) written into the file: whoever can read the file, a copy or its history can use it. {advice} Revoke it if it was ever committed.",
        secret.what,
        redacted(written)
    );
    let d = Diagnostic::new(Code::HardcodedSecret, secret.span, message);
    match fix.and_then(|f| f.reference) {
        Some(r) => {
            let reference = r.replace("NAME", &name);
            d.with_fix(
                format!("Read it from the environment: `{reference}`"),
                vec![Edit::new(secret.span, reference)],
                false,
            )
        }
        None => d,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Node {
        super::super::syntax::jsonc::parse(text).root.unwrap()
    }

    fn found(text: &str) -> Vec<(String, &'static str, String)> {
        find(&parse(text), text)
            .into_iter()
            .map(|s| (s.span.text(text).to_string(), s.what, s.path.join(".")))
            .collect()
    }

    const GH: &str = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";

    #[test]
    fn tokens_in_prose_each_on_its_characters() {
        let aws = "AKIAQWERTYUIOPASDFGH";
        let text = format!("---\nname: x\n---\nPush with {GH}, then\nsync with {aws}.\nIn a word, X{GH} is not one.\n");
        let found: Vec<(&str, &str)> = find_in_prose(&text, 15)
            .iter()
            .map(|s| {
                assert!(s.path.is_empty());
                assert_eq!(s.span.text(&text), s.text);
                (s.span.text(&text), s.what)
            })
            .collect();
        assert_eq!(found, [(GH, "a GitHub token"), (aws, "an AWS access key")]);
        // Only after `from`; words that only look like a key's name are nothing in prose.
        assert_eq!(find_in_prose(&text, text.find(aws).unwrap() + 1), []);
        assert_eq!(
            find_in_prose("api_key: Jq7vR2nX9pL4wT8kZ3mB6cY1 and TOKEN=abc\n", 0),
            []
        );
        assert_eq!(find_in_prose("", 5), []);
        // Bounded: a file full of tokens reports the first hundred.
        let many = format!("{GH} ").repeat(150);
        assert_eq!(find_in_prose(&many, 0).len(), PROSE_LIMIT);
    }

    #[test]
    fn a_token_already_found_in_the_settings_is_not_found_again_in_prose() {
        let text = format!("token: {GH}\nand {GH}\n");
        let mut secrets = find_in_prose(&text, 0);
        secrets.truncate(1);
        secrets[0].path = vec!["token".into()];
        add_prose(&mut secrets, &text, 0);
        let at: Vec<(usize, bool)> = secrets
            .iter()
            .map(|s| (s.span.start as usize, s.path.is_empty()))
            .collect();
        // The first (found as a setting) once; the second, which nothing covers, from the prose.
        assert_eq!(at, [(7, false), (text.rfind(GH).unwrap(), true)]);
        // Spans that only touch do not overlap: a finding that ends where the token starts, or
        // starts where it ends, leaves it to the prose.
        let text = format!("{GH}\n");
        let end = GH.len();
        for touching in [Span::new(0, 0), Span::new(end, end + 1)] {
            let mut secrets = vec![Secret {
                span: touching,
                what: "a value that reads as a secret",
                path: vec!["k".into()],
                text: String::new(),
            }];
            add_prose(&mut secrets, &text, 0);
            assert_eq!(secrets.len(), 2, "{touching:?}");
        }
    }

    #[test]
    fn a_secret_in_prose_says_where_it_goes_and_hides() {
        let text = format!("Deploy with {GH}.\n");
        let s = &find_in_prose(&text, 0)[0];
        let d = diagnostic(s, &text, None);
        assert!(
            d.message
                .starts_with("the text of this file holds a GitHub token (`ghp_…`, 40 characters)"),
            "{}",
            d.message
        );
        assert!(d.message.contains("sends it to the model provider"), "{}", d.message);
        assert!(!d.message.contains(GH));
        assert!(d.fix.is_none());
    }

    #[test]
    fn well_known_tokens_anywhere() {
        let text = format!(r#"{{ "mcp": {{ "gh": {{ "headers": {{ "X-Other": "Bearer {GH}" }} }} }} }}"#);
        assert_eq!(
            found(&text),
            [(GH.to_string(), "a GitHub token", "mcp.gh.headers.X-Other".to_string())]
        );
        for (token, what) in [
            (
                "sk-ant-api03-Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVbNm-_a1B2c3D4",
                "an Anthropic API key",
            ),
            (
                "sk-proj-Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVbNm_a1B2c3D4",
                "an OpenAI API key",
            ),
            ("AKIAQ3EGRXK7VZ2WJ5NP", "an AWS access key"),
            ("xoxb-1234567890-ab12CD34ef56", "a Slack token"),
            ("AIzaSyB1c2D3e4F5g6H7i8J9k0L1m2N3o4P5q6R", "a Google API key"),
            ("glpat-Ab3dE6gH9jK2mN5pQ8sT", "a GitLab token"),
        ] {
            let text = format!(r#"{{ "args": ["--key", "{token}"] }}"#);
            assert_eq!(found(&text), [(token.to_string(), what, "args".to_string())], "{token}");
        }
        // A private key, in a value with escapes: the whole value.
        let text = r#"{ "k": "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----" }"#;
        assert_eq!(found(text)[0].1, "a private key");
        assert_eq!(found(text)[0].0, &text[7..text.len() - 2]);
    }

    #[test]
    fn no_token_is_shorter_than_the_walk_looks_at() {
        let shortest = SHAPES.iter().map(|s| s.prefix.len() + s.min).min();
        assert_eq!(shortest, Some(SHORTEST_TOKEN));
    }

    #[test]
    fn a_token_ends_where_its_characters_do() {
        for (token, after) in [
            ("ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", ". Then"),
            (
                "github_pat_11QZRTWPN0a1B2c3D4e5F6_g7H8i9J0k1L2m3N4o5P6q7R8s9T0u1V2w3X4y5Z6a7B8c9D0e1F2g3H4",
                "-x",
            ),
            ("AKIAQ3EGRXK7VZ2WJ5NP", "/secret path"),
            ("ctx7sk-be936a83-6a34-4903-8504-48ce3943c13f", " and more"),
            ("xoxb-1234567890-ab12CD34ef56gh", ".x"),
            ("sk-Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVbNm1q2w", "_x"),
        ] {
            let s = format!("key={token}{after}");
            let (a, b, _) = token_in(&s).unwrap_or_else(|| panic!("{s}"));
            assert_eq!(&s[a..b], token, "{s}");
        }
    }

    #[test]
    fn only_a_long_run_or_a_key_header_is_searched() {
        assert!(!may_hold_token(
            "Reviews code for bugs, missing tests and unclear names."
        ));
        assert!(!may_hold_token("a run of fifteen: abcdefghijklmno."));
        assert!(may_hold_token("sixteen: abcdefghijklmnop"));
        assert!(may_hold_token("-----BEGIN EC PRIVATE KEY-----"));
    }

    #[test]
    fn a_private_key_is_the_whole_block() {
        let pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1b2\n-----END RSA PRIVATE KEY-----";
        let text = format!("key: {pem}\nmore");
        assert_eq!(token_in(&text), Some((5, 5 + pem.len(), "a private key")));
        // A certificate is public.
        let cert = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUZ0123\n-----END CERTIFICATE-----";
        assert_eq!(token_in(cert), None);
        // Nor is a line that only names one.
        assert_eq!(token_in("see PRIVATE KEY----- in the docs, aaaaaaaaaaaaaaaaaaaa"), None);
        // Nor a header named in a list of patterns, however much text follows (a later
        // `-----END` of another mention included), nor a placeholder body, nor a block without
        // its end.
        let doc = "- Private keys: `-----BEGIN PRIVATE KEY-----`\n\n**Behavior**: block it.\nAlso `-----END PRIVATE KEY-----`.";
        assert_eq!(token_in(doc), None);
        assert_eq!(
            token_in("-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----"),
            None
        );
        assert_eq!(
            token_in("-----BEGIN RSA PRIVATE KEY-----\n<your key here>\n-----END RSA PRIVATE KEY-----"),
            None
        );
        assert_eq!(token_in("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1b2\n"), None);
        // A key with `\n` written out (a JSON string quoted in prose), CRLF, and an encrypted
        // key's header lines: each the whole block.
        for pem in [
            r"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0B\n-----END PRIVATE KEY-----",
            "-----BEGIN EC PRIVATE KEY-----\r\nMIIEpAIBAAKCAQEA1b2\r\nAQEA1b2\r\n-----END EC PRIVATE KEY-----",
            "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,4A1B\n\nMIIEpAIBAAKCAQEA1b2\n-----END RSA PRIVATE KEY-----",
        ] {
            let text = format!("\"{pem}\", then more");
            assert_eq!(token_in(&text), Some((1, 1 + pem.len(), "a private key")), "{pem}");
        }
        // A real key's size (an 8192-bit one: some 6.5 KiB) is found whole; the end is not
        // looked for past 16 KiB.
        let block = |n: usize| {
            let body: String = "MIIJQgIBADANBgkqhkiG9w0BAQEFAASCCSwwggkoAgEAAoICAQ\n".repeat(n / 50 + 1);
            format!("-----BEGIN PRIVATE KEY-----\n{body}-----END PRIVATE KEY-----")
        };
        let big = block(6600);
        assert_eq!(token_in(&big), Some((0, big.len(), "a private key")));
        assert_eq!(token_in(&block(17 * 1024)), None);
    }

    #[test]
    fn not_tokens() {
        // A long run, and a string that ends after no token character.
        assert_eq!(token_in("aaaaaaaaaaaaaaaaaaaaaaaa."), None);
        for s in [
            // Too short, in a word, longer than its shape's run, a placeholder.
            "ghp_abc",
            "xghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
            "sk-your-key-here",
            "sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "AKIAEXAMPLEEXAMPLE12",
            "task-runner-with-a-very-long-name-indeed-1234567890",
            "https://example.com/ghp_short",
        ] {
            assert_eq!(token_in(s), None, "{s}");
        }
    }

    #[test]
    fn secrets_by_their_key() {
        let text = r#"{ "env": { "MY_API_TOKEN": "q8Zr2mXv9LkT4wPb7NcY", "TOKEN_URL": "q8Zr2mXv9LkT4wPb7NcY", "API_KEY": "${API_KEY}", "DB_PASSWORD": "<your password>", "GITHUB_TOKEN": "{env:GITHUB_TOKEN}", "LOG_LEVEL": "q8Zr2mXv9LkT4wPb7NcY" }, "headers": { "Authorization": "Bearer q8Zr2mXv9LkT4wPb7NcY", "x-api-key": "short1" }, "apiKey": "aaaaaaaaaaaaaaaaaaaaaa" }"#;
        assert_eq!(
            found(text),
            [
                (
                    "q8Zr2mXv9LkT4wPb7NcY".to_string(),
                    "a value that reads as a secret",
                    "env.MY_API_TOKEN".to_string()
                ),
                (
                    "q8Zr2mXv9LkT4wPb7NcY".to_string(),
                    "a value that reads as a secret",
                    "headers.Authorization".to_string()
                ),
            ]
        );
        // The second is after `Bearer `.
        let spans: Vec<Span> = find(&parse(text), text).into_iter().map(|s| s.span).collect();
        assert!(text[..spans[1].start as usize].ends_with("Bearer "));
    }

    #[test]
    fn key_names() {
        for k in [
            "GITHUB_TOKEN",
            "apiKey",
            "api_key",
            "client_secret",
            "Authorization",
            "DB_PASSWORD",
            "x-api-key",
            "ACCESS_KEY",
            "githubPat",
        ] {
            assert!(secret_key(k), "{k}");
        }
        for k in [
            "TOKEN_URL",
            "api_key_env",
            "keyFile",
            "KEY",
            "bearer_token_env_var",
            "monkey",
            "tokens_path",
            "LOG_LEVEL",
            "passage",
        ] {
            assert!(!secret_key(k), "{k}");
        }
    }

    #[test]
    fn redaction_and_masking() {
        assert_eq!(redacted(GH), "`ghp_…`, 40 characters");
        assert_eq!(redacted("q8Zr2mXv9LkT4wPb7NcY"), "`q8…`, 20 characters");
        let line = format!("  \"GITHUB_TOKEN\": \"{GH}\",");
        let masked = mask(&line, &[GH]);
        assert!(!masked.contains(GH));
        assert_eq!(masked.len(), line.len());
        assert!(masked.contains("\"ghp_************************************\""));
    }

    #[test]
    fn env_names() {
        let p = |s: &str| s.split('.').map(String::from).collect::<Vec<_>>();
        assert_eq!(env_name(&p("mcp.github.environment.GITHUB_TOKEN")), "GITHUB_TOKEN");
        assert_eq!(env_name(&p("provider.anthropic.options.apiKey")), "ANTHROPIC_API_KEY");
        assert_eq!(env_name(&p("mcp.github.headers.Authorization")), "GITHUB_TOKEN");
        assert_eq!(
            env_name(&p("servers.brave-search.headers.x-api-key")),
            "BRAVE_SEARCH_X_API_KEY"
        );
        assert_eq!(env_name(&[]), "SECRET");
    }

    #[test]
    fn bounded_on_an_alias_bomb() {
        let mut text = String::from("a: &a [\"q8Zr2mXv9LkT4wPb7NcY\"]\n");
        for i in 0..30 {
            let prev = if i == 0 { "a".to_string() } else { format!("l{}", i - 1) };
            text.push_str(&format!("l{i}: &l{i} [*{prev}, *{prev}]\n"));
        }
        let parsed = super::super::syntax::yaml::parse(&text, 0);
        // Visits at most the budget, finds nothing under keys that name no secret.
        assert!(find(parsed.root.as_ref().unwrap(), &text).is_empty());
    }
}

//! `unpinned-package`: a program started through a package runner (`npx`, `bunx`, `pnpm dlx`,
//! `yarn dlx`, `npm exec`, `uvx`, `uv tool run`, `pipx run`, `docker run`, `podman run`) without
//! a pinned version, so that whatever is published next runs with the agent's rights.
//!
//! The same shapes in every dialect: a map with a `command` that is an argument list
//! (opencode's `["npx", "-y", "pkg"]`), a program beside its `args` (`.mcp.json`,
//! `.vscode/mcp.json`, Codex's and Gemini CLI's servers), or a shell line (a hook's command,
//! read word by word, each `&&`, `;` or `|` a new command). Each runner's own options are
//! skipped to find the package it fetches; a local path, a URL or a variable is not a package.

use super::diagnostic::Diagnostic;
use super::rules::Code;
use super::syntax::{Map, Node, Value};
use super::text::Span;

/// Where a package comes from, which says what pins it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Registry {
    /// npm: `name@1.2.3` (an exact version; a tag or a range moves).
    Npm,
    /// PyPI: `name==1.2.3` or uv's `name@1.2.3`.
    PyPi,
    /// An image registry: a tag other than `latest`, or a digest.
    Image,
}

/// One package fetched without a pin.
#[derive(Clone, Debug, PartialEq)]
pub struct Unpinned {
    /// The package as written (`@modelcontextprotocol/server-github@latest`).
    pub span: Span,
    /// The runner as the user wrote it (`npx`, `uvx`, `docker run`).
    pub runner: String,
    pub registry: Registry,
    /// The package's name, without its version (`@modelcontextprotocol/server-github`).
    pub name: String,
    /// The version or tag written, when there is one that moves (`latest`, `^1.2`).
    pub moving: Option<String>,
}

/// One word of a command: its text and where it is written (`None`: where the file's escapes
/// hide it, the whole value holding it).
#[derive(Clone, Debug)]
struct Word<'t> {
    text: &'t str,
    span: Span,
}

/// The most nodes one file's walk visits (a YAML alias bomb repeats shared maps endlessly).
const BUDGET: usize = 50_000;

/// Every unpinned package a file's tree starts (`text` is the file the spans index).
pub fn find(root: &Node, text: &str) -> Vec<Unpinned> {
    let mut out = Vec::new();
    let mut budget = BUDGET;
    walk(root, text, 0, &mut budget, &mut out);
    out.dedup_by(|a, b| a.span == b.span);
    out
}

fn walk(node: &Node, text: &str, depth: usize, budget: &mut usize, out: &mut Vec<Unpinned>) {
    if *budget == 0 || depth > 64 {
        return;
    }
    *budget -= 1;
    match &node.value {
        Value::Seq(items) => {
            for item in items {
                walk(item, text, depth + 1, budget, out);
            }
        }
        Value::Map(map) => {
            if !disabled(map) {
                for argv in commands(map, text) {
                    out.extend(unpinned(&argv));
                }
            }
            for e in map.entries.iter() {
                walk(&e.value, text, depth + 1, budget, out);
            }
        }
        _ => {}
    }
}

/// A server turned off (`"enabled": false`, `"disabled": true`) is not started.
fn disabled(map: &Map) -> bool {
    matches!(map.get("enabled").map(|e| &e.value.value), Some(Value::Bool(false)))
        || matches!(map.get("disabled").map(|e| &e.value.value), Some(Value::Bool(true)))
}

/// The commands a map starts: its `command` as an argument list, as a program with its `args`,
/// or as a shell line.
fn commands<'t>(map: &'t Map, text: &str) -> Vec<Vec<Word<'t>>> {
    let Some(command) = map.get("command").map(|e| &e.value) else {
        return Vec::new();
    };
    match &command.value {
        Value::Seq(items) => vec![list(items, text)],
        Value::Str(line) => match map.get("args").map(|e| &e.value.value) {
            Some(Value::Seq(args)) => {
                let mut argv = shell_words(
                    line,
                    crate::analysis::syntax::content_start(command, text, line),
                    command.span,
                )
                .into_iter()
                .flatten()
                .collect::<Vec<_>>();
                argv.extend(list(args, text));
                vec![argv]
            }
            _ => shell_words(
                line,
                crate::analysis::syntax::content_start(command, text, line),
                command.span,
            ),
        },
        _ => Vec::new(),
    }
}

/// The strings of an argument list, up to the first that is not one.
fn list<'t>(items: &'t [Node], text: &str) -> Vec<Word<'t>> {
    items
        .iter()
        .map_while(|item| match &item.value {
            Value::Str(s) => Some(Word {
                text: s,
                span: match crate::analysis::syntax::content_start(item, text, s) {
                    Some(at) => Span::new(at, at + s.len()),
                    None => item.span,
                },
            }),
            _ => None,
        })
        .collect()
}

/// A shell line's simple commands (`a && b; c | d` is three... four), each as its words. Quotes
/// group words; a word holding a quote or an escape keeps the whole value as its place.
fn shell_words<'t>(line: &'t str, at: Option<usize>, whole: Span) -> Vec<Vec<Word<'t>>> {
    let mut commands = vec![Vec::new()];
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if matches!(b, b'&' | b'|' | b';' | b'(' | b')' | b'\n') {
            if !commands.last().is_some_and(Vec::is_empty) {
                commands.push(Vec::new());
            }
            i += 1;
            continue;
        }
        let start = i;
        let mut quoted = false;
        while i < bytes.len() {
            match bytes[i] {
                q @ (b'"' | b'\'') => {
                    quoted = true;
                    i += 1;
                    while i < bytes.len() && bytes[i] != q {
                        i += 1;
                    }
                    i += 1;
                }
                b'\\' => {
                    quoted = true;
                    i += 1 + line[i + 1..].chars().next().map_or(0, char::len_utf8);
                }
                c if c.is_ascii_whitespace() || matches!(c, b'&' | b'|' | b';' | b'(' | b')') => break,
                _ => i += 1,
            }
        }
        let end = i.min(bytes.len());
        let word = &line[start..end];
        // (A quoted word's text is its inside: `'pkg@1.0'` is `pkg@1.0`.)
        let (text, inner) = match word.as_bytes() {
            [q @ (b'"' | b'\''), .., last]
                if last == q && word.len() >= 2 && !word[1..word.len() - 1].contains(['"', '\'', '\\']) =>
            {
                (&word[1..word.len() - 1], 1)
            }
            _ if quoted => (word, usize::MAX),
            _ => (word, 0),
        };
        let span = match at {
            Some(at) if inner != usize::MAX => Span::new(at + start + inner, at + start + inner + text.len()),
            _ => whole,
        };
        if let Some(last) = commands.last_mut() {
            last.push(Word { text, span });
        }
    }
    commands.retain(|c| !c.is_empty());
    commands
}

/// The program a word names: its file name, without a Windows extension.
fn program(word: &str) -> &str {
    let name = word.rsplit(['/', '\\']).next().unwrap_or(word);
    [".cmd", ".exe", ".CMD", ".EXE"]
        .iter()
        .find_map(|ext| name.strip_suffix(ext))
        .unwrap_or(name)
}

/// The packages a command fetches without a pin.
fn unpinned(argv: &[Word]) -> Vec<Unpinned> {
    // Variables set for the command (`FOO=1 npx pkg`), `exec`, `env` and Windows' `cmd /c` come
    // before the program.
    let skip = argv
        .iter()
        .enumerate()
        .take_while(|(i, w)| {
            matches!(w.text, "exec" | "env" | "cmd" | "cmd.exe")
                || is_assignment(w.text)
                || (*i > 0 && matches!(w.text, "/c" | "/C") && program(argv[i - 1].text) == "cmd")
        })
        .count();
    let argv = &argv[skip..];
    let Some(first) = argv.first() else {
        return Vec::new();
    };
    let second = argv.get(1).map(|w| w.text);
    let (runner, registry, rest) = match (program(first.text), second) {
        ("npx" | "bunx" | "pnpx", _) => (program(first.text).to_string(), Registry::Npm, &argv[1..]),
        // `bun x` is `bunx` spelt out (bun's own docs: "bunx is an alias for bun x").
        ("bun", Some("x")) => ("bun x".to_string(), Registry::Npm, &argv[2..]),
        ("pnpm" | "yarn", Some("dlx")) => (format!("{} dlx", program(first.text)), Registry::Npm, &argv[2..]),
        ("npm", Some(verb @ ("exec" | "x"))) => (format!("npm {verb}"), Registry::Npm, &argv[2..]),
        ("uvx", _) => ("uvx".to_string(), Registry::PyPi, &argv[1..]),
        ("uv", Some("tool")) if argv.get(2).is_some_and(|w| w.text == "run") => {
            ("uv tool run".to_string(), Registry::PyPi, &argv[3..])
        }
        ("pipx", Some("run")) => ("pipx run".to_string(), Registry::PyPi, &argv[2..]),
        ("docker" | "podman", Some("run")) => (format!("{} run", program(first.text)), Registry::Image, &argv[2..]),
        ("docker" | "podman", Some("container")) if argv.get(2).is_some_and(|w| w.text == "run") => (
            format!("{} container run", program(first.text)),
            Registry::Image,
            &argv[3..],
        ),
        _ => return Vec::new(),
    };
    let packages = match registry {
        Registry::Npm => npm_packages(rest),
        Registry::PyPi => python_packages(rest, runner == "pipx run"),
        Registry::Image => image(rest).into_iter().collect(),
    };
    packages
        .into_iter()
        .filter_map(|w| {
            let (name, version) = split(registry, w.text)?;
            let moving = match version {
                Some(v) if pinned(registry, v) => return None,
                Some(v) => Some(v.to_string()),
                None => None,
            };
            Some(Unpinned {
                span: w.span,
                runner: runner.clone(),
                registry,
                name: name.to_string(),
                moving,
            })
        })
        .collect()
}

/// Whether a shell word is a variable assignment (`NAME=value`, which the shell does not split).
pub(crate) fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && !name.as_bytes()[0].is_ascii_digit()
    })
}

/// The value of `--name=value` or of `--name value` (then the next word is consumed).
fn option_value<'a, 't>(words: &'a [Word<'t>], i: &mut usize, names: &[&str]) -> Option<Option<&'a Word<'t>>> {
    let w = &words[*i];
    for name in names {
        if w.text == *name {
            *i += 1;
            return Some(words.get(*i));
        }
    }
    None
}

/// The npm options that take the next word as their value.
const NPM_VALUED: &[&str] = &[
    "--registry",
    "--cache",
    "--prefix",
    "--userconfig",
    "-w",
    "--workspace",
    "--node-options",
];

/// npx, bunx, pnpm dlx, yarn dlx and npm exec: the packages of `-p`/`--package`, else the first
/// word that is not an option (the command, which is also the package).
fn npm_packages<'t>(words: &[Word<'t>]) -> Vec<Word<'t>> {
    let mut packages = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        if let Some(value) = option_value(words, &mut i, &["-p", "--package"]) {
            packages.extend(value.cloned());
        } else if let Some(spec) = w.text.strip_prefix("--package=") {
            let offset = w.text.len() - spec.len();
            packages.push(sub_word(w, offset));
        } else if matches!(w.text, "-c" | "--call" | "--") {
            // A shell line of its own, or the command after `--` (with `-p` given, not a package).
            if w.text == "--" && packages.is_empty() {
                packages.extend(words.get(i + 1).cloned());
            }
            break;
        } else if option_value(words, &mut i, NPM_VALUED).is_some() || w.text.starts_with('-') {
            // An option, and its value.
        } else {
            if packages.is_empty() {
                packages.push(w.clone());
            }
            break;
        }
        i += 1;
    }
    packages
}

/// The part of a word after its first `offset` bytes.
fn sub_word<'t>(w: &Word<'t>, offset: usize) -> Word<'t> {
    let exact = w.span.len() == w.text.len();
    Word {
        text: &w.text[offset..],
        span: if exact {
            Span::new(w.span.start as usize + offset, w.span.end as usize)
        } else {
            w.span
        },
    }
}

/// uvx, uv tool run and pipx run: the package of `--from`/`--spec`, else the first word that is
/// not an option.
fn python_packages<'t>(words: &[Word<'t>], pipx: bool) -> Vec<Word<'t>> {
    const VALUED: &[&str] = &[
        "--with",
        "--with-editable",
        "--with-requirements",
        "--python",
        "-p",
        "--index",
        "--index-url",
        "--extra-index-url",
        "--default-index",
        "--find-links",
        "-f",
        "--constraints",
        "-c",
        "--overrides",
        "--cache-dir",
        "--directory",
        "--project",
        "--config-file",
        "--python-platform",
        "--color",
        "--refresh-package",
        "--reinstall-package",
        "--upgrade-package",
        "-P",
        "--index-strategy",
        "--keyring-provider",
        "--resolution",
        "--prerelease",
        "--link-mode",
        "--config-setting",
        "-C",
        "--env-file",
        "--allow-insecure-host",
        "--pip-args",
        "--backend",
    ];
    let from: &[&str] = if pipx { &["--spec"] } else { &["--from"] };
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        if let Some(value) = option_value(words, &mut i, from) {
            return value.cloned().into_iter().collect();
        }
        if let Some(spec) = from
            .iter()
            .find_map(|f| w.text.strip_prefix(f).and_then(|s| s.strip_prefix('=')))
        {
            return vec![sub_word(w, w.text.len() - spec.len())];
        }
        if w.text == "--exclude-newer" || w.text.starts_with("--exclude-newer=") {
            // Resolution stops at a date: what runs is fixed.
            return Vec::new();
        }
        if w.text == "--" {
            return words.get(i + 1).cloned().into_iter().collect();
        }
        if option_value(words, &mut i, VALUED).is_none() && !w.text.starts_with('-') {
            return vec![w.clone()];
        }
        i += 1;
    }
    Vec::new()
}

/// docker run and podman run: the image, the first word that is not an option.
fn image<'t>(words: &[Word<'t>]) -> Option<Word<'t>> {
    const VALUED: &[&str] = &[
        "--add-host",
        "--annotation",
        "--attach",
        "--blkio-weight",
        "--cap-add",
        "--cap-drop",
        "--cgroup-parent",
        "--cgroupns",
        "--cidfile",
        "--cpu-period",
        "--cpu-quota",
        "--cpu-shares",
        "--cpus",
        "--cpuset-cpus",
        "--cpuset-mems",
        "--device",
        "--dns",
        "--dns-option",
        "--dns-search",
        "--domainname",
        "--entrypoint",
        "--env",
        "--env-file",
        "--expose",
        "--gpus",
        "--group-add",
        "--health-cmd",
        "--health-interval",
        "--health-retries",
        "--health-timeout",
        "--hostname",
        "--ip",
        "--ip6",
        "--ipc",
        "--isolation",
        "--label",
        "--label-file",
        "--link",
        "--log-driver",
        "--log-opt",
        "--mac-address",
        "--memory",
        "--memory-swap",
        "--mount",
        "--name",
        "--network",
        "--net",
        "--network-alias",
        "--platform",
        "--publish",
        "--pull",
        "--restart",
        "--runtime",
        "--security-opt",
        "--shm-size",
        "--stop-signal",
        "--stop-timeout",
        "--storage-opt",
        "--sysctl",
        "--tmpfs",
        "--ulimit",
        "--user",
        "--userns",
        "--uts",
        "--volume",
        "--volumes-from",
        "--workdir",
    ];
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        let t = w.text;
        if t == "--" {
            return words.get(i + 1).cloned();
        }
        if let Some(flags) = t.strip_prefix('-').filter(|f| !f.starts_with('-')) {
            // `-it`, `-e NAME=1`: a cluster of letters whose last may take the next word.
            if flags.len() <= 3 && flags.ends_with(['a', 'c', 'e', 'h', 'l', 'm', 'p', 'u', 'v', 'w']) {
                i += 1;
            }
        } else if option_value(words, &mut i, VALUED).is_none() && !t.starts_with('-') {
            return Some(w.clone());
        }
        i += 1;
    }
    None
}

/// A package word's name and version; `None` for what no registry serves (a path, a URL, a
/// variable, a git source, a tarball).
fn split(registry: Registry, spec: &str) -> Option<(&str, Option<&str>)> {
    let local_or_remote = spec.starts_with(['.', '/', '~', '$', '\\'])
        || spec.contains("://")
        || spec.contains("${")
        || [".tgz", ".whl", ".tar.gz"].iter().any(|e| spec.ends_with(e));
    if spec.is_empty() || local_or_remote {
        return None;
    }
    match registry {
        Registry::Npm => {
            // `npm:`, `github:`, `file:`, a variable, GitHub's `owner/repo`.
            if spec.contains([':', '\\', '$']) || spec.contains('/') && !spec.starts_with('@') {
                return None;
            }
            let at = spec.char_indices().skip(1).find(|&(_, c)| c == '@').map(|(i, _)| i);
            Some(match at {
                Some(i) => (&spec[..i], Some(&spec[i + 1..])),
                None => (spec, None),
            })
        }
        Registry::PyPi => {
            // A path, a git source, a variable, `name @ url`.
            if spec.contains(['/', ':', '\\', '$', ' ']) {
                return None;
            }
            if let Some(i) = spec.find(['=', '<', '>', '~', '!']) {
                let name = &spec[..i];
                return Some((name, Some(&spec[i..])));
            }
            Some(match spec.split_once('@') {
                Some((name, version)) => (name, Some(version)),
                None => (spec, None),
            })
        }
        Registry::Image => {
            if let Some((name, digest)) = spec.split_once('@') {
                return Some((name, Some(digest)));
            }
            let slash = spec.rfind('/').map_or(0, |i| i + 1);
            Some(match spec[slash..].rfind(':') {
                Some(i) => (&spec[..slash + i], Some(&spec[slash + i + 1..])),
                None => (spec, None),
            })
        }
    }
}

/// Whether a version as written fixes what runs.
fn pinned(registry: Registry, version: &str) -> bool {
    match registry {
        Registry::Npm => exact(version.strip_prefix('v').unwrap_or(version)),
        Registry::PyPi => match version.strip_prefix("===").or_else(|| version.strip_prefix("==")) {
            Some(v) => !v.contains('*') && !v.contains(',') && v.starts_with(|c: char| c.is_ascii_digit()),
            // uv's `name@1.2.3`
            None => {
                !version.starts_with(['=', '<', '>', '~', '!']) && version.starts_with(|c: char| c.is_ascii_digit())
            }
        },
        Registry::Image => !version.is_empty() && version != "latest",
    }
}

/// An exact semantic version: `1.2.3`, `1.2.3-beta.1`, `1.2.3+build`.
pub fn exact(version: &str) -> bool {
    let core = version.split(['-', '+']).next().unwrap_or("");
    core.split('.').count() == 3
        && core
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        && version
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-+.".contains(&b))
}

/// The finding for `u`.
pub fn diagnostic(u: &Unpinned) -> Diagnostic {
    let what = match (&u.moving, u.registry) {
        (None, Registry::Image) => format!(
            "`{}` runs image `{}` without a tag, which is `latest`",
            u.runner, u.name
        ),
        (Some(tag), Registry::Image) => format!("`{}` runs image `{}` at `{tag}`", u.runner, u.name),
        (None, _) => format!("`{}` runs package `{}` without a version", u.runner, u.name),
        (Some(v), _) => format!(
            "`{}` runs package `{}` at `{v}`, which is not one version",
            u.runner, u.name
        ),
    };
    let then = match u.registry {
        Registry::Image => "whatever is pushed to that tag next is pulled and run with the agent's rights",
        _ => "whatever is published next is fetched and run with the agent's rights",
    };
    let pin = match u.registry {
        Registry::Npm => format!("`{}@1.2.3`", u.name),
        Registry::PyPi => format!("`{}==1.2.3`", u.name),
        Registry::Image => format!("a version tag or a digest (`{}@sha256:…`)", u.name),
    };
    Diagnostic::new(
        Code::UnpinnedPackage,
        u.span,
        format!("{what}: {then} (a new release, or a takeover of the name). Pin it to the version you checked: {pin}."),
    )
}

#[cfg(test)]
mod tests;

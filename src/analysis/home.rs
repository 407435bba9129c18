//! `home-path`: an absolute path into one person's home folder (`/home/<user>/`,
//! `/Users/<user>/`, `C:\Users\<user>\`) written into a file the runtime reads: on a teammate's
//! machine, or in CI, the file it names is not there.
//!
//! The whole text is searched (a frontmatter, a prompt, a hook's command, a server's `args`):
//! the path is found where it is written, escapes included (`C:\\Users\\...` in JSON). Whether
//! the file is shared at all (inside a repository, not ignored by git) is the workspace's to say.

use super::diagnostic::Diagnostic;
use super::rules::Code;
use super::text::Span;

/// One home path as written.
#[derive(Clone, Debug, PartialEq)]
pub struct HomePath {
    /// The path up to the end of its user's folder (`/Users/alice`).
    pub span: Span,
    pub user: String,
}

/// The user names that stand for anyone (`/home/user/`), or are not a person's home folder
/// (`/Users/Shared`, `/home/linuxbrew`, the home of GitHub's runners).
const NOT_A_PERSON: &[&str] = &[
    "user",
    "username",
    "users",
    "you",
    "your-name",
    "yourname",
    "your_name",
    "youruser",
    "me",
    "name",
    "someone",
    "example",
    "shared",
    "public",
    "default",
    "all users",
    "linuxbrew",
    "runner",
    "node",
    "root",
    "ubuntu",
    "vscode",
    "codespace",
    "coder",
    "dev",
    "developer",
    "app",
    "foo",
    "bar",
    "john",
    "jane",
    "johndoe",
    "alice",
    "bob",
    "x",
    "xxx",
    "...",
    "…",
];

/// The prefixes of a home folder, as they may be written (a JSON string doubles a backslash).
const PREFIXES: &[(&str, &str)] = &[
    ("/home/", "/"),
    ("/Users/", "/"),
    ("C:\\Users\\", "\\"),
    ("C:\\\\Users\\\\", "\\\\"),
    ("C:/Users/", "/"),
    ("c:\\Users\\", "\\"),
    ("c:/Users/", "/"),
];

/// The most home paths reported in one file (one is enough to make the point; a file of
/// hundreds says it in each place up to this).
const MOST: usize = 100;

/// Every home path written in `text`.
pub fn find(text: &str) -> Vec<HomePath> {
    let mut out = Vec::new();
    for (prefix, sep) in PREFIXES {
        let mut from = 0;
        while let Some(i) = text[from..].find(prefix) {
            let start = from + i;
            from = start + prefix.len();
            // Not in the middle of a longer path or a word (`/mnt/home/x`, `my/Users/`).
            if text[..start]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || matches!(c, '/' | '\\' | '.' | '_' | '-' | '$' | '}' | '~'))
            {
                continue;
            }
            let rest = &text[from..];
            let len = rest
                .find(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '_' | '-')))
                .unwrap_or(rest.len());
            let user = &rest[..len];
            // A user's folder is followed by more of the path, or ends the path.
            let after = &rest[len..];
            let ends = after.is_empty()
                || after.starts_with(sep)
                || after.starts_with(|c: char| {
                    c.is_whitespace() || matches!(c, '"' | '\'' | '`' | ')' | ']' | ',' | ';' | ':')
                });
            if user.is_empty() || !ends || NOT_A_PERSON.contains(&user.to_lowercase().as_str()) || user.starts_with('.')
            {
                continue;
            }
            out.push(HomePath {
                span: Span::new(start, from + len),
                user: user.to_string(),
            });
            if out.len() >= MOST {
                break;
            }
        }
    }
    out.sort_by_key(|h| h.span.start);
    // (`C:/Users/ana` holds `/Users/ana`: one path, one finding.)
    out.dedup_by(|later, first| later.span.end == first.span.end);
    out.truncate(MOST);
    out
}

/// The finding for `h` of `text`.
pub fn diagnostic(h: &HomePath, text: &str) -> Diagnostic {
    let written = h.span.text(text);
    Diagnostic::new(
        Code::HomePath,
        h.span,
        format!(
            "`{written}` is {}'s home folder on one machine: on a teammate's, or in CI, nothing is there, so what names a file under it (a hook, a server, a prompt) fails or points the model nowhere. Write the path from the project (`$CLAUDE_PROJECT_DIR`, `${{CLAUDE_PLUGIN_ROOT}}`, a relative path), or from `~` where a shell reads it.",
            h.user
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(&str, String)> {
        find(text).into_iter().map(|h| (h.span.text(text), h.user)).collect()
    }

    #[test]
    fn home_folders_as_written() {
        assert_eq!(
            found("run /home/ana/bin/lint.sh now"),
            [("/home/ana", "ana".to_string())]
        );
        assert_eq!(
            found("\"/Users/ana.b/notes.md\""),
            [("/Users/ana.b", "ana.b".to_string())]
        );
        assert_eq!(found("C:\\Users\\Ana\\x"), [("C:\\Users\\Ana", "Ana".to_string())]);
        assert_eq!(
            found(r#"{ "cwd": "C:\\Users\\ana\\code" }"#),
            [(r"C:\\Users\\ana", "ana".to_string())]
        );
        assert_eq!(found("cd C:/Users/ana/code"), [("C:/Users/ana", "ana".to_string())]);
        assert_eq!(found("`/home/ana`"), [("/home/ana", "ana".to_string())]);
        assert_eq!(
            found("(/home/ana) and /Users/bo/x"),
            [("/home/ana", "ana".to_string()), ("/Users/bo", "bo".to_string())]
        );
        assert_eq!(found("/home/审查/x"), [("/home/审查", "审查".to_string())]);
        assert_eq!(found("/home/ana"), [("/home/ana", "ana".to_string())]);
    }

    #[test]
    fn not_a_persons_home() {
        for text in [
            "/home/user/x",
            "/Users/username/x",
            "/Users/Shared/x",
            "/home/linuxbrew/.linuxbrew/bin/x",
            "/home/runner/work",
            "/mnt/home/ana/x",
            "$HOME/x",
            "${HOME}/ana",
            "~/x",
            "/home/",
            "/home/.config",
            "/home/ana*",
            "/home/<user>/x",
            "/home/$USER/x",
            "/Usersx/ana",
            "a/Users/ana/x",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }

    #[test]
    fn bounded() {
        let text = "/home/ana/x ".repeat(1000);
        assert_eq!(find(&text).len(), MOST);
    }

    #[test]
    fn message() {
        let text = "/Users/ana/x";
        let d = diagnostic(&find(text)[0], text);
        assert_eq!(d.code, Code::HomePath);
        assert!(
            d.message
                .starts_with("`/Users/ana` is ana's home folder on one machine: on a teammate's"),
            "{}",
            d.message
        );
    }
}

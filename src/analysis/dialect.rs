//! Which runtime a file belongs to: the dialects agent-lsp reads, by name. This is the one list
//! of dialect names every layer shares (settings, `--dialect`, rule scopes); what a dialect
//! knows lives in its folder, and [`super::FileKind`] says which dialect reads a file.

/// The agent-file dialects agent-lsp reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dialect {
    OpenCode,
    Claude,
    Zuno,
    Copilot,
    #[cfg(test)]
    Example,
}

impl Dialect {
    pub const ALL: [Dialect; 4] = [Dialect::OpenCode, Dialect::Claude, Dialect::Zuno, Dialect::Copilot];

    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::OpenCode => "opencode",
            Dialect::Claude => "claude",
            Dialect::Zuno => "zuno",
            Dialect::Copilot => "copilot",
            #[cfg(test)]
            Dialect::Example => "example",
        }
    }

    /// The product's name, for messages.
    pub fn product(self) -> &'static str {
        match self {
            Dialect::OpenCode => "opencode",
            Dialect::Claude => "Claude Code",
            Dialect::Zuno => "Zuno",
            Dialect::Copilot => "GitHub Copilot",
            #[cfg(test)]
            Dialect::Example => "Example",
        }
    }

    /// The release of the runtime agent-lsp's rules were checked against, by running it (the
    /// differential tests of `tests/runtime` and `tests/claude_runtime`); `None` where no runtime
    /// could be run.
    pub fn checked_against(self) -> Option<&'static str> {
        match self {
            Dialect::OpenCode => Some("1.18.34"),
            Dialect::Claude => Some("2.1.332"),
            Dialect::Zuno => None,
            Dialect::Copilot => Some("(VS Code 1.139.1)"),
            #[cfg(test)]
            Dialect::Example => None,
        }
    }

    /// The products of every dialect agent-lsp reads, as one phrase: "opencode, Claude Code,
    /// Zuno and GitHub Copilot". Every help text, tool description and message that names the
    /// runtimes takes it from here, so that a new dialect is named everywhere at once.
    pub fn products() -> String {
        Self::phrase(Dialect::ALL.iter().map(|d| d.product()), "and")
    }

    /// The products of every dialect joined with `or`: "opencode, Claude Code, Zuno or GitHub
    /// Copilot".
    pub fn products_or() -> String {
        Self::phrase(Dialect::ALL.iter().map(|d| d.product()), "or")
    }

    /// `--dialect` values and what each is: "`opencode`, `claude` (Claude Code), `zuno` (Zuno) or
    /// `copilot` (GitHub Copilot)".
    pub fn names_described() -> String {
        Self::phrase(
            Dialect::ALL.iter().map(|d| {
                if d.as_str() == d.product() {
                    format!("`{}`", d.as_str())
                } else {
                    format!("`{}` ({})", d.as_str(), d.product())
                }
            }),
            "or",
        )
    }

    fn phrase<S: AsRef<str>>(items: impl Iterator<Item = S>, last: &str) -> String {
        let items: Vec<S> = items.collect();
        match items.as_slice() {
            [] => String::new(),
            [one] => one.as_ref().to_string(),
            [init @ .., end] => format!(
                "{} {last} {}",
                init.iter().map(AsRef::as_ref).collect::<Vec<_>>().join(", "),
                end.as_ref()
            ),
        }
    }

    pub fn parse(s: &str) -> Option<Dialect> {
        match s.to_ascii_lowercase().as_str() {
            "opencode" => Some(Dialect::OpenCode),
            "claude" | "claude-code" | "claudecode" => Some(Dialect::Claude),
            "zuno" => Some(Dialect::Zuno),
            "copilot" | "github-copilot" | "vscode" => Some(Dialect::Copilot),
            #[cfg(test)]
            "example" => Some(Dialect::Example),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dialect_is_named_in_the_phrases() {
        assert_eq!(Dialect::products(), "opencode, Claude Code, Zuno and GitHub Copilot");
        assert_eq!(Dialect::products_or(), "opencode, Claude Code, Zuno or GitHub Copilot");
        assert_eq!(
            Dialect::names_described(),
            "`opencode`, `claude` (Claude Code), `zuno` (Zuno) or `copilot` (GitHub Copilot)"
        );
        assert_eq!(Dialect::phrase(["a"].iter(), "and"), "a");
        assert_eq!(Dialect::phrase(["a", "b"].iter(), "or"), "a or b");
        assert_eq!(Dialect::phrase(Vec::<&str>::new().iter(), "and"), "");
    }
}

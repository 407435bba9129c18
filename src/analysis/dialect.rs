//! Which runtime a file belongs to: the dialects agent-lsp reads, by name. This is the one list
//! of dialect names every layer shares (settings, `--dialect`, rule scopes); what a dialect
//! knows lives in its folder (behind [`super::spec::DialectSpec`]), and [`super::FileKind`]
//! says which dialect reads a file.

// The `Dialect` enum, from the registration list (`registry.rs`).
for_each_dialect!(declare_dialect_enum);

/// Who a dialect is (see [`DialectSpec::identity`](super::spec::DialectSpec::identity)).
#[derive(Clone, Copy, Debug)]
pub struct Identity {
    /// Its `--dialect` name (and its name in `agent-lsp.toml`, rule scopes and JSON).
    pub name: &'static str,
    /// The product's name, for messages.
    pub product: &'static str,
    /// The other spellings `--dialect` takes.
    pub aliases: &'static [&'static str],
    /// The release of the runtime its rules were checked against by running it (`None`: no
    /// runtime could be run).
    pub checked_against: Option<&'static str>,
}

impl Dialect {
    /// Its `--dialect` name (and its name in `agent-lsp.toml`, rule scopes and JSON).
    pub fn as_str(self) -> &'static str {
        self.identity().name
    }

    /// The product's name, for messages.
    pub fn product(self) -> &'static str {
        self.identity().product
    }

    /// The release of the runtime agent-lsp's rules were checked against, by running it (the
    /// differential tests of `tests/runtime` and `tests/claude_runtime`); `None` where no runtime
    /// could be run.
    pub fn checked_against(self) -> Option<&'static str> {
        self.identity().checked_against
    }

    /// Who the dialect is: its names and the release it was checked against (in its folder's
    /// `dialect.rs`).
    fn identity(self) -> Identity {
        self.spec().identity()
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

    /// `a, b and c` (`last` is `and` or `or`).
    pub fn phrase<S: AsRef<str>>(items: impl Iterator<Item = S>, last: &str) -> String {
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

    /// The dialect a `--dialect` value (or one of its other spellings) names.
    pub fn parse(s: &str) -> Option<Dialect> {
        let s = s.to_ascii_lowercase();
        Dialect::ALL
            .into_iter()
            .chain(Dialect::TEST_ONLY.iter().copied())
            .find(|d| d.as_str() == s || d.identity().aliases.contains(&s.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dialect_is_named_in_the_phrases() {
        assert_eq!(
            Dialect::products(),
            "opencode, Claude Code, Zuno, GitHub Copilot, Codex and Gemini CLI"
        );
        assert_eq!(
            Dialect::products_or(),
            "opencode, Claude Code, Zuno, GitHub Copilot, Codex or Gemini CLI"
        );
        assert_eq!(
            Dialect::names_described(),
            "`opencode`, `claude` (Claude Code), `zuno` (Zuno), `copilot` (GitHub Copilot), `codex` (Codex) or `gemini` (Gemini CLI)"
        );
        assert_eq!(Dialect::phrase(["a"].iter(), "and"), "a");
        assert_eq!(Dialect::phrase(["a", "b"].iter(), "or"), "a or b");
        assert_eq!(Dialect::phrase(Vec::<&str>::new().iter(), "and"), "");
    }
}

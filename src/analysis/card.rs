//! What the hover cards and `explain` of every dialect share.

/// What a card's title says of an agent's mode: "opencode subagent", "Zuno primary agent",
/// "opencode agent, primary and subagent" (`all`), "opencode agent with mode `main`" (a mode
/// the runtime rejects), with " (built-in)" for a runtime's own agent.
pub fn mode_title(product: &str, mode: &str, builtin: bool) -> String {
    let what = match mode {
        "subagent" => format!("{product} subagent"),
        "primary" => format!("{product} primary agent"),
        "all" => format!("{product} agent, primary and subagent"),
        other => format!("{product} agent with mode `{other}`"),
    };
    if builtin { format!("{what} (built-in)") } else { what }
}

/// How a card shows a pattern that names a path of this machine: as the user would write it.
/// The runtime matches absolute paths (a skill's folder, the workspace's own directories, the
/// temporary directory); a card shows them relative to the workspace, with `~` for the home,
/// `<tmpdir>` for the system's temporary directory, and a skill's folder named as the skill's.
#[derive(Clone, Debug, Default)]
pub struct PathNames {
    /// The workspace (the project directory the runtime starts in).
    pub root: Option<String>,
    pub home: Option<String>,
    /// The system's temporary directory.
    pub tmp: Option<String>,
    /// Skill folders (absolute), each shown as its skill.
    pub skills: Vec<String>,
}

impl PathNames {
    /// The skill whose folder `pattern` covers (`<folder>/*`), by its folder's name.
    pub fn skill<'p>(&self, pattern: &'p str) -> Option<&'p str> {
        let dir = pattern.strip_suffix("/*")?;
        self.skills
            .iter()
            .any(|s| s.trim_end_matches('/') == dir)
            .then(|| dir.rsplit('/').next().unwrap_or(dir))
    }

    /// `pattern` as the user would write it (the longest known prefix is replaced).
    pub fn show(&self, pattern: &str) -> String {
        let under = |base: &Option<String>| {
            let base = base.as_deref()?.trim_end_matches('/');
            if base.is_empty() {
                return None;
            }
            let rest = pattern.strip_prefix(base)?;
            (rest.is_empty() || rest.starts_with('/')).then_some((base.len(), rest))
        };
        let candidates = [
            under(&self.root).map(|(n, rest)| (n, rest.trim_start_matches('/').to_string())),
            under(&self.tmp).map(|(n, rest)| (n, format!("<tmpdir>{rest}"))),
            under(&self.home).map(|(n, rest)| (n, format!("~{rest}"))),
        ];
        match candidates.into_iter().flatten().max_by_key(|(n, _)| *n) {
            Some((_, shown)) if shown.is_empty() => ".".into(),
            Some((_, shown)) => shown,
            None => pattern.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_shown_as_the_user_writes_them() {
        let p = PathNames {
            root: Some("/home/u/proj".into()),
            home: Some("/home/u".into()),
            tmp: Some("/tmp".into()),
            skills: vec!["/home/u/proj/.claude/skills/lint".into()],
        };
        assert_eq!(p.show("/home/u/proj/.claude/skills/lint/*"), ".claude/skills/lint/*");
        assert_eq!(p.show("/home/u/proj"), ".");
        assert_eq!(
            p.show("/home/u/.local/share/opencode/tool-output/*"),
            "~/.local/share/opencode/tool-output/*"
        );
        assert_eq!(p.show("/tmp/opencode/*"), "<tmpdir>/opencode/*");
        // A prefix that is not a whole directory name stays as written.
        assert_eq!(p.show("/home/u/projects/*"), "~/projects/*");
        assert_eq!(p.show("/home/user2/*"), "/home/user2/*");
        assert_eq!(p.show("git push *"), "git push *");
        assert_eq!(p.skill("/home/u/proj/.claude/skills/lint/*"), Some("lint"));
        assert_eq!(p.skill("/home/u/proj/.claude/skills/*"), None);
        assert_eq!(PathNames::default().show("/tmp/x"), "/tmp/x");
    }
}

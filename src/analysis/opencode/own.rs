//! What opencode adds to the shared [`FileKind`] and [`FileAnalysis`]: its accessors for its own
//! kinds and facts (the registration list gives the conversions, see `registry.rs`).

use super::{AgentDecl, AgentRef, Facts, FileKind as Kind, markdown, project};
use crate::analysis::syntax::frontmatter::Split;
use crate::analysis::{FileAnalysis, FileKind};

impl FileKind {
    /// An opencode file: its kind.
    pub fn opencode(&self) -> Option<&Kind> {
        self.own()
    }

    /// An opencode config file (`opencode.json(c)`).
    pub fn is_config(&self) -> bool {
        self.opencode() == Some(&Kind::Config)
    }

    /// opencode's `tui.json(c)`: the terminal interface's settings.
    pub fn is_tui(&self) -> bool {
        self.opencode() == Some(&Kind::Tui)
    }

    /// A custom theme of opencode's terminal interface (`themes/*.json`).
    pub fn is_theme(&self) -> bool {
        self.opencode() == Some(&Kind::Theme)
    }
}

/// An opencode file's facts when the file is not one (no agents, no references).
static NO_FACTS: Facts = Facts {
    split: None,
    reading: None,
    agents: Vec::new(),
    refs: Vec::new(),
    has_plugins: false,
    scripted: false,
    paths: Vec::new(),
};

impl FileAnalysis {
    /// An opencode file's facts (empty for any other file).
    pub fn opencode(&self) -> &Facts {
        self.own().unwrap_or(&NO_FACTS)
    }

    /// opencode agents this file declares, in file order.
    pub fn agents(&self) -> &[AgentDecl] {
        &self.opencode().agents
    }

    /// opencode agent names this file refers to (`default_agent`, command `agent`).
    pub fn refs(&self) -> &[AgentRef] {
        &self.opencode().refs
    }

    /// opencode Markdown files: where the frontmatter and body are.
    pub fn split(&self) -> Option<&Split> {
        self.opencode().split.as_ref()
    }

    /// opencode Markdown files: how opencode reads it.
    pub fn reading(&self) -> Option<markdown::Reading> {
        self.opencode().reading
    }

    /// The opencode config lists plugins, which may define agents this analysis cannot see.
    pub fn has_plugins(&self) -> bool {
        self.opencode().has_plugins
    }

    /// The file as opencode reads it after `{env:}`/`{file:}` substitution (`None` when
    /// nothing changes or the file is not opencode's).
    pub fn substituted(&self, value: &dyn Fn(&str) -> Option<String>) -> Option<FileAnalysis> {
        let facts = self.own::<Facts>()?;
        let (parsed, facts) = super::substitute::apply(&self.parsed, facts, value)?;
        // What the environment filled in under a secret's key is a secret too.
        let mut secrets = self.secrets.clone();
        if let Some(root) = &parsed.root {
            secrets.extend(crate::analysis::secret::filled_in(root));
        }
        Some(FileAnalysis {
            parsed,
            diagnostics: self.diagnostics.clone(),
            suppressions: self.suppressions.clone(),
            facts: facts.into(),
            secrets,
            unpinned: self.unpinned.clone(),
        })
    }

    /// The file as opencode's project pass sees it.
    pub fn opencode_view(&self, file: usize, group: usize) -> project::ViewFile<'_> {
        project::ViewFile {
            file,
            parsed: &self.parsed,
            facts: self.opencode(),
            group,
        }
    }
}

//! opencode behind the one dialect interface ([`DialectSpec`]): what the workspace and the front
//! ends ask of it.

use crate::analysis::spec::DialectSpec;

/// opencode's implementation of the dialect interface.
pub struct Spec;

impl DialectSpec for Spec {
    /// An error in a config stops opencode: it starts with none of it.
    fn refuses_configuration(&self) -> bool {
        true
    }

    fn list_rank(&self) -> u8 {
        0
    }

    /// A config's `agent` and `mode` entries (a Markdown agent has none).
    fn agent_sections(&self, kind: &crate::analysis::FileKind) -> &'static [&'static str] {
        if kind.is_config() { &["agent", "mode"] } else { &[] }
    }
}

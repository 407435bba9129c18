//! Example behind the one dialect interface ([`DialectSpec`]): what the workspace and the front
//! ends ask of it.

use crate::analysis::spec::DialectSpec;

/// Example's implementation of the dialect interface.
pub struct Spec;

impl DialectSpec for Spec {
    fn list_rank(&self) -> u8 {
        9
    }
}

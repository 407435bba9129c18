//! The Claude Code dialect (release 2.1.332): subagent files `.claude/agents/**/*.md`.
//!
//! - [`read`]: how Claude Code finds and parses the frontmatter (spec `claude-code.md` §7.1-7.3):
//!   the block that ends at the first later `---`, the strict YAML 1.2 pass, the lenient retry.

pub mod read;

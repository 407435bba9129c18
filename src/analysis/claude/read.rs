//! How Claude Code 2.1.332 finds and parses an agent's frontmatter (spec §7.1-7.3).

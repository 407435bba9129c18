//! How the runtimes name things from their files: an agent from its path, a skill from its
//! frontmatter's `name` line. Shared by the dialects whose runtimes name them the same way.

/// The agent name a runtime derives from a Markdown path relative to its config directory
/// (opencode's rule, which Zuno shares): `agents/team/reviewer.md` is `team/reviewer`,
/// `agent/foo.bar.md` is `foo.bar`.
pub fn agent_name_from_relative_path(relative: &str) -> String {
    let rel = relative.replace('\\', "/");
    let rel = ["agents/", "agent/", "modes/", "mode/"]
        .iter()
        .find_map(|p| rel.strip_prefix(p))
        .unwrap_or(&rel);
    match rel.rfind('.') {
        Some(dot) if dot > rel.rfind('/').map_or(0, |s| s + 1) => rel[..dot].to_string(),
        _ => rel.to_string(),
    }
}

/// The `name` of a `SKILL.md` frontmatter (a plain or quoted one-line value).
pub fn skill_name(text: &str) -> Option<String> {
    let rest = text.trim_start_matches('\u{feff}').strip_prefix("---")?;
    for line in rest.lines().skip(1) {
        if line.trim_end() == "---" {
            break;
        }
        if let Some(v) = line.strip_prefix("name:") {
            let v = v.trim().trim_matches(['"', '\'']);
            return (!v.is_empty()).then(|| v.to_string());
        }
    }
    None
}

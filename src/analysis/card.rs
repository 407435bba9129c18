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

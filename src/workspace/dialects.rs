//! The dialects side by side, as the workspace answers for them: for a start directory, what
//! each dialect's runtime reads there and which agents it builds ([`DialectAgents`]), each agent
//! as one generic [`ExplainedAgent`] (its name, its card and JSON, the files it rests on). This
//! is the workspace layer's one dispatch on [`Dialect`]; `explain` iterates [`Dialect::ALL`]
//! over it. Rendering stays with each dialect (`opencode::card`, `claude::card`, `zuno::card`);
//! terminal presentation stays with the CLI.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::model::{File, Workspace};
use crate::analysis::claude::project::ClaudeFile;
use crate::analysis::opencode::card as opencode_card;
use crate::analysis::opencode::effective::{self, EffectiveAgent, Rule};
use crate::analysis::provenance::{Source, WhereIs};
use crate::analysis::zuno::project::MergedAgent;
use crate::analysis::{Dialect, FileKind, claude, opencode, zuno};

/// The order of the dialects' sections in `explain`'s list for the terminal.
pub const LIST_ORDER: [Dialect; 3] = [Dialect::OpenCode, Dialect::Zuno, Dialect::Claude];

/// What one dialect shows from a start directory: the files its runtime reads there and the
/// agents it builds from them.
pub struct DialectAgents<'ws> {
    pub dialect: Dialect,
    /// The files the runtime reads from the start directory (those agent-lsp did not analyse
    /// included): the ones whose problems concern it.
    pub files: Vec<usize>,
    agents: Agents<'ws>,
}

enum Agents<'ws> {
    /// opencode's effective agents of the view of the start directory.
    OpenCode(Vec<EffectiveAgent>),
    /// Claude Code's agent files, the directory they are seen from and the registry (the winning
    /// file of each name).
    Claude {
        files: Vec<ClaudeFile<'ws>>,
        dir: PathBuf,
        registry: Vec<(String, ClaudeFile<'ws>)>,
    },
    /// Zuno's merged agents, by name (disabled ones included).
    Zuno(BTreeMap<String, MergedAgent>),
}

/// One agent of one dialect, as `explain` shows it.
pub struct ExplainedAgent<'a> {
    pub dialect: Dialect,
    /// The name it is registered under (opencode's key).
    pub name: &'a str,
    agent: AgentRef<'a>,
}

#[derive(Clone, Copy)]
enum AgentRef<'a> {
    OpenCode(&'a EffectiveAgent),
    Claude {
        file: &'a ClaudeFile<'a>,
        files: &'a [ClaudeFile<'a>],
        dir: &'a Path,
    },
    Zuno(&'a MergedAgent),
}

/// How a dialect lists its agents for the terminal.
pub enum Listing {
    /// As the dialect renders its list (opencode's, like `opencode agent list`).
    Text(String),
    /// One row per agent, under the heading of the second column.
    Rows { detail: &'static str, rows: Vec<ListRow> },
}

/// One agent in a [`Listing::Rows`].
pub struct ListRow {
    pub name: String,
    /// Zuno's mode, Claude Code's model.
    pub detail: String,
    pub defined_in: String,
    /// The whole description (the CLI cuts it).
    pub description: Option<String>,
}

impl<'ws> DialectAgents<'ws> {
    /// What `dialect`'s runtime started in `start` reads and builds.
    pub fn gather(ws: &'ws Workspace, dialect: Dialect, start: &Path) -> DialectAgents<'ws> {
        let dir = std::fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
        let (files, agents) = match dialect {
            Dialect::OpenCode => {
                let view = ws.view_for(start);
                let agents = effective::agents(&ws.view_files(&view), &ws.effective_env(start));
                (view, Agents::OpenCode(agents))
            }
            Dialect::Claude => {
                let files = ws.claude_files();
                let registry = claude::project::registry(&files, &dir);
                // Every Claude Code agent file, those agent-lsp did not read included.
                let ids = (0..ws.files.len())
                    .filter(|&id| matches!(ws.files[id].kind, FileKind::Claude(_)))
                    .collect();
                (ids, Agents::Claude { files, dir, registry })
            }
            Dialect::Zuno => {
                let view = ws.zuno_view_for(&dir);
                let agents = if view.is_empty() {
                    BTreeMap::new()
                } else {
                    zuno::project::registry(&ws.zuno_view_files(&view))
                };
                (view, Agents::Zuno(agents))
            }
        };
        DialectAgents { dialect, files, agents }
    }

    /// Whether an error that stops the runtime refuses the whole configuration (opencode, Zuno)
    /// rather than one file (Claude Code skips the file).
    pub fn refuses_configuration(&self) -> bool {
        match self.dialect {
            Dialect::OpenCode | Dialect::Zuno => true,
            Dialect::Claude => false,
        }
    }

    /// The agents the runtime offers (Zuno's disabled ones left out), in the dialect's order.
    pub fn agents(&self) -> Vec<ExplainedAgent<'_>> {
        match &self.agents {
            Agents::OpenCode(agents) => agents
                .iter()
                .map(|a| self.explained(AgentRef::OpenCode(a), &a.name))
                .collect(),
            Agents::Claude { files, dir, registry } => registry
                .iter()
                .map(|(n, file)| self.explained(AgentRef::Claude { file, files, dir }, n))
                .collect(),
            Agents::Zuno(agents) => agents
                .iter()
                .filter(|(_, a)| !a.flag("disable"))
                .map(|(n, a)| self.explained(AgentRef::Zuno(a), n))
                .collect(),
        }
    }

    /// The agent called `name` (opencode: by key, else by display name).
    pub fn find(&self, name: &str) -> Option<ExplainedAgent<'_>> {
        match &self.agents {
            Agents::OpenCode(agents) => agents
                .iter()
                .find(|a| a.name == name)
                .or_else(|| agents.iter().find(|a| shown_name(a) == name))
                .map(|a| self.explained(AgentRef::OpenCode(a), &a.name)),
            Agents::Claude { files, dir, registry } => registry
                .iter()
                .find(|(n, _)| n == name)
                .map(|(n, file)| self.explained(AgentRef::Claude { file, files, dir }, n)),
            Agents::Zuno(agents) => agents
                .get_key_value(name)
                .filter(|(_, a)| !a.flag("disable"))
                .map(|(n, a)| self.explained(AgentRef::Zuno(a), n)),
        }
    }

    /// Every name an agent has here (Zuno's disabled ones included), for suggestions.
    pub fn names(&self) -> Vec<&str> {
        match &self.agents {
            Agents::OpenCode(agents) => agents.iter().map(|a| a.name.as_str()).collect(),
            Agents::Claude { registry, .. } => registry.iter().map(|(n, _)| n.as_str()).collect(),
            Agents::Zuno(agents) => agents.keys().map(String::as_str).collect(),
        }
    }

    /// The list for the terminal; `marked` says which agents to mark as having problems.
    pub fn listing(&self, where_is: WhereIs, marked: &dyn Fn(&ExplainedAgent) -> bool) -> Listing {
        match &self.agents {
            Agents::OpenCode(agents) => {
                let marked = |a: &EffectiveAgent| marked(&self.explained(AgentRef::OpenCode(a), &a.name));
                Listing::Text(opencode_card::list(agents, where_is, &marked))
            }
            Agents::Claude { files, dir, registry } => Listing::Rows {
                detail: "model",
                rows: registry
                    .iter()
                    .map(|(n, f)| {
                        let at = definers(files, dir, n, where_is)
                            .into_iter()
                            .next()
                            .map(|d| d.location)
                            .unwrap_or_default();
                        let model = f
                            .agent
                            .setting("model")
                            .map_or("(inherit)".to_string(), |s| s.value.to_string());
                        ListRow {
                            name: n.clone(),
                            detail: model,
                            defined_in: at,
                            description: f.agent.description.clone(),
                        }
                    })
                    .collect(),
            },
            Agents::Zuno(agents) => Listing::Rows {
                detail: "mode",
                rows: agents
                    .values()
                    .filter(|a| !a.flag("disable") && !a.flag("hidden"))
                    .map(|a| ListRow {
                        name: a.name.clone(),
                        detail: a.mode().to_string(),
                        defined_in: a.definitions.last().map(|s| where_is(*s)).unwrap_or_default(),
                        description: a.str("description").map(str::to_string),
                    })
                    .collect(),
            },
        }
    }

    fn explained<'a>(&self, agent: AgentRef<'a>, name: &'a str) -> ExplainedAgent<'a> {
        ExplainedAgent {
            dialect: self.dialect,
            name,
            agent,
        }
    }
}

/// opencode's effective agents among `all` (none when opencode is not there), for the
/// permission matrix and graph.
pub fn opencode_agents<'a>(all: &'a [DialectAgents]) -> &'a [EffectiveAgent] {
    all.iter()
        .find_map(|d| match &d.agents {
            Agents::OpenCode(agents) => Some(agents.as_slice()),
            _ => None,
        })
        .unwrap_or(&[])
}

/// Claude Code's agents among `all` by registered name, for the permission matrix and graph.
pub fn claude_agents<'a>(all: &'a [DialectAgents]) -> Vec<(&'a str, &'a claude::Agent)> {
    all.iter()
        .flat_map(|d| match &d.agents {
            Agents::Claude { registry, .. } => registry.iter().map(|(n, f)| (n.as_str(), f.agent)).collect(),
            _ => Vec::new(),
        })
        .collect()
}

impl<'a> ExplainedAgent<'a> {
    /// The files its definition rests on: those whose problems concern it.
    pub fn problem_files(&self) -> Vec<usize> {
        match self.agent {
            AgentRef::OpenCode(a) => files_of(&a.definitions),
            AgentRef::Claude { file, .. } => vec![file.file],
            AgentRef::Zuno(a) => files_of(&a.definitions),
        }
    }

    /// Its entry in the JSON list of agents (without its problems).
    pub fn list_json(&self, where_is: WhereIs) -> Value {
        let dialect = self.dialect.as_str();
        match self.agent {
            AgentRef::OpenCode(a) => json!({
                "dialect": dialect,
                "name": shown_name(a),
                "key": a.name,
                "mode": a.mode.value,
                "hidden": a.hidden.value,
                "native": a.native,
                "defined_in": a.definitions.iter().map(|s| where_is(*s)).collect::<Vec<_>>(),
            }),
            AgentRef::Claude { files, dir, .. } => {
                let defs: Vec<String> = definers(files, dir, self.name, where_is)
                    .into_iter()
                    .map(|d| d.location)
                    .collect();
                json!({"dialect": dialect, "name": self.name, "key": self.name, "defined_in": defs})
            }
            AgentRef::Zuno(a) => json!({
                "dialect": dialect,
                "name": a.name,
                "key": a.name,
                "mode": a.mode(),
                "hidden": a.flag("hidden"),
                "native": a.builtin,
                "defined_in": a.definitions.iter().map(|s| where_is(*s)).collect::<Vec<_>>(),
            }),
        }
    }

    /// Its card as JSON (without its problems).
    pub fn json(&self, where_is: WhereIs) -> Value {
        match self.agent {
            AgentRef::OpenCode(a) => opencode_json(a, where_is),
            AgentRef::Claude { file, files, dir } => {
                claude::card::json(file.agent, self.name, &definers(files, dir, self.name, where_is))
            }
            AgentRef::Zuno(a) => zuno::card::json(a, where_is),
        }
    }

    /// Its card, as Markdown.
    pub fn card(&self, where_is: WhereIs) -> String {
        match self.agent {
            AgentRef::OpenCode(a) => opencode_card::card(a, where_is, &[]),
            AgentRef::Claude { file, files, dir } => {
                claude::card::card(file.agent, self.name, &definers(files, dir, self.name, where_is))
            }
            AgentRef::Zuno(a) => zuno::card::card(a, where_is),
        }
    }

    /// opencode's effective agent, which answers permission questions (`explain --check`).
    pub fn effective(&self) -> Option<&'a EffectiveAgent> {
        match self.agent {
            AgentRef::OpenCode(a) => Some(a),
            _ => None,
        }
    }
}

/// `Some(why)` when file `f` would define agent `name`, `why` being the reason its runtime
/// does not load it when the dialect says one (Claude Code's skipped files).
pub fn would_define(f: &File, name: &str) -> Option<Option<String>> {
    match &f.kind {
        FileKind::Claude(k) => {
            let c = f.analysis.claude();
            let named = c.and_then(|c| c.agent.name.as_deref()).unwrap_or(&k.stem);
            let why = match c.map(|c| &c.agent.status) {
                Some(claude::agent::Status::Skipped(why)) => Some(format!("Claude Code skips this file ({why})")),
                Some(claude::agent::Status::NotAgent(why)) => {
                    Some(format!("Claude Code does not read it as an agent ({why})"))
                }
                _ => None,
            };
            (named == name).then_some(why)
        }
        FileKind::OpenCode(opencode::FileKind::Agent { name: n } | opencode::FileKind::Mode { name: n })
        | FileKind::Zuno(zuno::FileKind::Agent { name: n } | zuno::FileKind::Mode { name: n }) => {
            (n == name).then_some(None)
        }
        _ => None,
    }
}

/// An opencode permission rule as JSON, with where it is set.
pub fn rule_json(r: &Rule, where_is: WhereIs) -> Value {
    json!({"permission": r.permission, "pattern": r.pattern, "action": r.action, "source": where_is(r.source)})
}

fn opencode_json(a: &EffectiveAgent, where_is: WhereIs) -> Value {
    let v = |x: Option<Value>| x.unwrap_or(Value::Null);
    json!({
        "name": shown_name(a),
        "key": a.name,
        "mode": a.mode.value,
        "hidden": a.hidden.value,
        "native": a.native,
        "model": v(a.model.as_ref().map(|s| json!(s.value))),
        "variant": v(a.variant.as_ref().map(|s| json!(s.value))),
        "temperature": v(a.temperature.as_ref().map(|s| json!(s.value))),
        "top_p": v(a.top_p.as_ref().map(|s| json!(s.value))),
        "steps": v(a.steps.as_ref().map(|s| json!(s.value))),
        "color": v(a.color.as_ref().map(|s| json!(s.value))),
        "description": v(a.description.as_ref().map(|s| json!(s.value))),
        "prompt": opencode_card::prompt_text(&a.prompt.value),
        "options": a.options.iter().map(|(k, s)| (k.clone(), s.value.clone())).collect::<serde_json::Map<String, Value>>(),
        "permission": a.permission.iter().map(|r| rule_json(r, where_is)).collect::<Vec<_>>(),
        "decisions": a.decisions().into_iter().map(|(k, act)| (k, json!(act))).collect::<serde_json::Map<String, Value>>(),
        "defined_in": a.definitions.iter().map(|s| where_is(*s)).collect::<Vec<_>>(),
    })
}

/// The name opencode shows: the display name of a config entry, else the key.
fn shown_name(a: &EffectiveAgent) -> &str {
    a.display_name.as_ref().map_or(a.name.as_str(), |d| d.value.as_str())
}

/// The files among `definitions` (not the built-in).
fn files_of(definitions: &[Source]) -> Vec<usize> {
    definitions
        .iter()
        .filter_map(|s| match *s {
            Source::File { file, .. } => Some(file),
            Source::BuiltIn => None,
        })
        .collect()
}

/// The Claude Code files that define `name` seen from `dir`, in precedence order.
fn definers(files: &[ClaudeFile], dir: &Path, name: &str, where_is: WhereIs) -> Vec<claude::card::Definer> {
    claude::project::candidates(files, dir, name)
        .iter()
        .map(|f| claude::card::Definer {
            location: where_is(Source::File {
                file: f.file,
                span: f.agent.name_span,
            }),
            source: f.kind.source.label(),
        })
        .collect()
}

//! Gemini CLI's agents as `explain` sees them (0.61.0's `AgentRegistry`): its built-in
//! `codebase_investigator`, `cli_help` and `generalist`, then the project's `.gemini/agents/`
//! (in a trusted folder, once acknowledged), then the user's `~/.gemini/agents/`. The first
//! registered of a name stays: a later one of the same name is ignored ("Duplicate agent name
//! ... The later definition will be ignored"), so a project agent cannot replace a built-in, and
//! a user agent cannot replace a project one.
//!
//! The card shows what the agent file sets that decides what it does: `kind`, `tools` (all of
//! Gemini CLI's tools when absent), `model`, `max_turns`, `temperature`, and for a remote agent
//! its card's URL. Gemini CLI's permissions are its policy engine's, which agent-lsp does not
//! model: `rulesets` answers nothing for them.

use serde_json::{Value, json};

use crate::analysis::Dialect;
use crate::analysis::agents::{Agent, AgentSet, Explained, ListRow, Listing};
use crate::analysis::card::PathNames;
use crate::analysis::host::Host;
use crate::analysis::policy::judge::Ruleset;
use crate::analysis::provenance::{Source, WhereIs};
use crate::analysis::text::Span;

pub use super::agent::BUILT_IN;

/// The fields of an agent file the card shows, in order.
const SHOWN: &[&str] = &["kind", "tools", "model", "max_turns", "temperature", "agent_card_url"];

/// One agent: its name and description, and for one defined in a file, that file and what it
/// sets.
pub struct GeminiAgent {
    pub name: String,
    pub description: Option<String>,
    /// The file, with the span of its name; `None` for a built-in agent.
    pub defined: Option<(usize, Span)>,
    /// The shown fields the file sets: (field, value as JSON, span).
    pub fields: Vec<(&'static str, Value, Span)>,
}

impl GeminiAgent {
    fn source(&self) -> Source {
        self.defined
            .map_or(Source::BuiltIn, |(file, span)| Source::File { file, span })
    }

    fn field(&self, key: &str) -> Option<&(&'static str, Value, Span)> {
        self.fields.iter().find(|(k, ..)| *k == key)
    }

    fn kind(&self) -> &str {
        match self.field("kind").and_then(|(_, v, _)| v.as_str()) {
            _ if self.defined.is_none() => "built-in",
            Some(k) => k,
            None => "local",
        }
    }
}

/// The fields the card shows, read from an agent file's frontmatter.
pub fn fields_of(root: Option<&crate::analysis::syntax::Node>) -> Vec<(&'static str, Value, Span)> {
    let Some(map) = root.and_then(|r| r.as_map()) else {
        return Vec::new();
    };
    SHOWN
        .iter()
        .filter_map(|k| map.value(k).map(|v| (*k, v.to_json(), v.span)))
        .collect()
}

/// The agents Gemini CLI builds for one start folder.
pub struct Agents {
    pub agents: Vec<GeminiAgent>,
}

impl AgentSet for Agents {
    fn agents(&self) -> Vec<Explained<'_>> {
        self.agents
            .iter()
            .map(|a| Explained {
                dialect: Dialect::Gemini,
                name: &a.name,
                agent: Box::new(One(a)),
            })
            .collect()
    }

    fn listing(&self, where_is: WhereIs, _marked: &dyn Fn(&Explained) -> bool) -> Listing {
        Listing::Rows {
            detail: "kind",
            rows: self
                .agents
                .iter()
                .map(|a| ListRow {
                    name: a.name.clone(),
                    detail: a.kind().to_string(),
                    defined_in: where_is(a.source()),
                    description: a.description.clone(),
                })
                .collect(),
        }
    }
}

struct One<'a>(&'a GeminiAgent);

fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => format!("`{s}`"),
        Value::Array(items) => items
            .iter()
            .map(|i| match i {
                Value::String(s) => format!("`{s}`"),
                other => format!("`{other}`"),
            })
            .collect::<Vec<_>>()
            .join(", "),
        other => format!("`{other}`"),
    }
}

impl Agent for One<'_> {
    fn problem_files(&self) -> Vec<usize> {
        self.0.defined.map(|(f, _)| vec![f]).unwrap_or_default()
    }

    fn list_json(&self, where_is: WhereIs) -> Value {
        json!({
            "dialect": Dialect::Gemini.as_str(),
            "name": self.0.name,
            "key": self.0.name,
            "defined_in": [where_is(self.0.source())],
        })
    }

    fn json(&self, where_is: WhereIs) -> Value {
        let a = self.0;
        let mut settings = serde_json::Map::new();
        for (k, v, span) in &a.fields {
            if let Some(file) = a.defined.map(|(f, _)| f) {
                settings.insert(
                    (*k).to_string(),
                    json!({ "value": v, "from": where_is(Source::File { file, span: *span }) }),
                );
            }
        }
        json!({
            "dialect": Dialect::Gemini.as_str(),
            "name": a.name,
            "description": a.description,
            "built_in": a.defined.is_none(),
            "kind": a.kind(),
            "settings": settings,
            "defined_in": [where_is(a.source())],
        })
    }

    fn card(&self, where_is: WhereIs, _paths: &PathNames) -> String {
        let a = self.0;
        let kind = match a.kind() {
            "built-in" => "Gemini CLI built-in agent".to_string(),
            k => format!("Gemini CLI {k} agent"),
        };
        let mut out = format!("### `{}`: {kind}\n\n", a.name);
        if let Some(d) = &a.description {
            out.push_str(d.trim());
            out.push_str("\n\n");
        }
        if let Some((file, _)) = a.defined {
            let at = |span: Span| where_is(Source::File { file, span });
            if a.kind() == "remote" {
                if let Some((_, v, span)) = a.field("agent_card_url") {
                    out.push_str(&format!("**Card**: {} ({})\n\n", shown(v), at(*span)));
                }
            } else {
                out.push_str(&match a.field("tools") {
                    Some((_, v, span)) => format!("**Tools**: {} ({})\n\n", shown(v), at(*span)),
                    None => "**Tools**: all of Gemini CLI's tools (no `tools` list)\n\n".to_string(),
                });
                out.push_str(&match a.field("model") {
                    Some((_, v, span)) => format!("**Model**: {} ({})\n\n", shown(v), at(*span)),
                    None => "**Model**: the session's model (no `model`)\n\n".to_string(),
                });
                for (key, label) in [("max_turns", "Max turns"), ("temperature", "Temperature")] {
                    if let Some((_, v, span)) = a.field(key) {
                        out.push_str(&format!("**{label}**: {} ({})\n\n", shown(v), at(*span)));
                    }
                }
            }
        }
        out.push_str(&format!("Defined in: {}.\n", where_is(a.source())));
        out
    }

    /// Gemini CLI's permissions are its policy engine's, which agent-lsp does not model.
    fn rulesets(&self, _: &dyn Host, _permission: &str, _home: Option<&str>) -> Option<Vec<(String, Ruleset)>> {
        None
    }

    fn defined_at(&self) -> Option<Source> {
        self.0.defined.map(|(file, span)| Source::File { file, span })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(text: &str, file: usize) -> GeminiAgent {
        let (_, parsed, decl) = super::super::agent::check(text);
        GeminiAgent {
            name: decl.name.clone().unwrap(),
            description: decl.description.clone(),
            defined: Some((file, decl.name_span.unwrap())),
            fields: fields_of(parsed.root.as_ref()),
        }
    }

    fn where_is(s: Source) -> String {
        match s {
            Source::BuiltIn => "built-in".to_string(),
            Source::File { file, span } => format!("file{file}:{}", span.start),
        }
    }

    #[test]
    fn the_card_says_what_the_file_sets_and_where() {
        let a = agent(
            "---\nname: reviewer\ndescription: Reviews.\ntools: [read_file, grep_search]\nmax_turns: 5\n---\nReview.\n",
            3,
        );
        assert_eq!(
            One(&a).card(&where_is, &PathNames::default()),
            "### `reviewer`: Gemini CLI local agent\n\nReviews.\n\n**Tools**: `read_file`, `grep_search` (file3:48)\n\n**Model**: the session's model (no `model`)\n\n**Max turns**: `5` (file3:84)\n\nDefined in: file3:10.\n"
        );
        // What `explain` reads of it besides the card.
        let span = a.defined.unwrap().1;
        assert_eq!(One(&a).problem_files(), [3]);
        assert_eq!(One(&a).defined_at(), Some(Source::File { file: 3, span }));
        assert_eq!(
            One(&a).list_json(&where_is),
            json!({ "dialect": "gemini", "name": "reviewer", "key": "reviewer", "defined_in": ["file3:10"] })
        );
        let ws = crate::workspace::Workspace::load(&[], &crate::workspace::Options::isolated()).unwrap();
        assert!(One(&a).rulesets(&ws, "bash", None).is_none());
        let j = One(&a).json(&where_is);
        assert_eq!(j["kind"], "local");
        assert_eq!(j["settings"]["max_turns"]["value"], 5);
        let remote = agent(
            "---\nkind: remote\nname: far\nagent_card_url: https://example.com/card.json\n---\n",
            1,
        );
        assert_eq!(
            One(&remote).card(&where_is, &PathNames::default()),
            "### `far`: Gemini CLI remote agent\n\n**Card**: `https://example.com/card.json` (file1:43)\n\nDefined in: file1:23.\n"
        );
        let built_in = GeminiAgent {
            name: "generalist".into(),
            description: Some(BUILT_IN[2].1.into()),
            defined: None,
            fields: Vec::new(),
        };
        assert_eq!(One(&built_in).problem_files(), Vec::<usize>::new());
        assert_eq!(One(&built_in).defined_at(), None);
        assert_eq!(
            One(&built_in).card(&where_is, &PathNames::default()),
            format!(
                "### `generalist`: Gemini CLI built-in agent\n\n{}\n\nDefined in: built-in.\n",
                BUILT_IN[2].1
            )
        );
    }
}

//! Codex's agents as `explain` sees them: the built-in `default`, `worker` and `explorer`, and the
//! custom agents of the project's `.codex/agents/` and the user's `$CODEX_HOME/agents/` that
//! Codex loads (a file it drops is not an agent; of two of one name the first by path).
//!
//! An agent's settings are layers, the last that sets a key winning: the user's `config.toml`,
//! the project's `.codex/config.toml`, then the agent's own file. The card says, for the settings
//! that decide what runs without asking (`approval_policy`, `sandbox_mode`) and for `model`,
//! which layer set it, or that Codex's default applies.

use serde_json::{Value, json};

use super::layer::{Settings, Written};
use crate::analysis::Dialect;
use crate::analysis::agents::{Agent, AgentSet, Explained, ListRow, Listing};
use crate::analysis::card::PathNames;
use crate::analysis::host::Host;
use crate::analysis::policy::judge::Ruleset;
use crate::analysis::provenance::{Source, WhereIs};
use crate::analysis::text::Span;

/// Codex's built-in agents, with what they are for.
pub const BUILT_IN: &[(&str, &str)] = &[
    ("default", "Default agent."),
    ("worker", "Executes and applies changes in the codebase."),
    (
        "explorer",
        "Answers specific, well-scoped questions about the codebase, fast.",
    ),
];

/// The settings a card shows, with Codex's default for each.
const SHOWN: &[(&str, &str)] = &[
    ("model", "the model Codex picks"),
    (
        "approval_policy",
        "Codex's default (`never` under `codex exec`, as its session header shows)",
    ),
    (
        "sandbox_mode",
        "Codex's default (`workspace-write` in a trusted project, as its session header shows)",
    ),
];

/// One configuration layer: what it sets, in which file.
#[derive(Clone, Copy)]
pub struct LayerOf<'h> {
    pub settings: &'h Settings,
    pub file: usize,
}

/// One agent: its name, description, where it is defined and the layers below it.
pub struct CodexAgent<'h> {
    pub name: String,
    pub description: Option<String>,
    /// The agent's own file, with the span of its name (or the file's first line); `None` for
    /// a built-in agent.
    pub defined: Option<(usize, Span)>,
    /// The user's and the project's configuration, then the agent's file, in that order.
    pub layers: Vec<LayerOf<'h>>,
}

impl CodexAgent<'_> {
    /// The value of `key` and where it comes from: the last layer that sets it.
    fn setting(&self, key: &str) -> Option<(&Written, usize)> {
        self.layers.iter().rev().find_map(|l| {
            let w = match key {
                "model" => l.settings.model.as_ref(),
                "approval_policy" => l.settings.approval_policy.as_ref(),
                "sandbox_mode" => l.settings.sandbox_mode.as_ref(),
                _ => None,
            }?;
            Some((w, l.file))
        })
    }

    fn source(&self) -> Source {
        self.defined
            .map_or(Source::BuiltIn, |(file, span)| Source::File { file, span })
    }
}

/// The agents Codex builds in one project.
pub struct Agents<'h> {
    pub agents: Vec<CodexAgent<'h>>,
}

impl AgentSet for Agents<'_> {
    fn agents(&self) -> Vec<Explained<'_>> {
        self.agents
            .iter()
            .map(|a| Explained {
                dialect: Dialect::Codex,
                name: &a.name,
                agent: Box::new(One(a)),
            })
            .collect()
    }

    fn listing(&self, where_is: WhereIs, _marked: &dyn Fn(&Explained) -> bool) -> Listing {
        Listing::Rows {
            detail: "sandbox",
            rows: self
                .agents
                .iter()
                .map(|a| ListRow {
                    name: a.name.clone(),
                    detail: a
                        .setting("sandbox_mode")
                        .map_or("(default)".to_string(), |(w, _)| w.value.clone()),
                    defined_in: where_is(a.source()),
                    description: a.description.clone(),
                })
                .collect(),
        }
    }
}

struct One<'a, 'h>(&'a CodexAgent<'h>);

impl Agent for One<'_, '_> {
    fn problem_files(&self) -> Vec<usize> {
        let mut files: Vec<usize> = self.0.layers.iter().map(|l| l.file).collect();
        files.sort_unstable();
        files.dedup();
        files
    }

    fn list_json(&self, where_is: WhereIs) -> Value {
        json!({
            "dialect": Dialect::Codex.as_str(),
            "name": self.0.name,
            "key": self.0.name,
            "defined_in": [where_is(self.0.source())],
        })
    }

    fn json(&self, where_is: WhereIs) -> Value {
        let a = self.0;
        let mut settings = serde_json::Map::new();
        for (key, default) in SHOWN {
            let v = match a.setting(key) {
                Some((w, file)) => json!({
                    "value": w.value,
                    "from": where_is(Source::File { file, span: w.span }),
                }),
                None => json!({ "value": null, "default": default }),
            };
            settings.insert((*key).to_string(), v);
        }
        json!({
            "dialect": Dialect::Codex.as_str(),
            "name": a.name,
            "description": a.description,
            "built_in": a.defined.is_none(),
            "settings": settings,
            "defined_in": [where_is(a.source())],
        })
    }

    fn card(&self, where_is: WhereIs, _paths: &PathNames) -> String {
        let a = self.0;
        let kind = if a.defined.is_none() {
            "Codex built-in agent"
        } else {
            "Codex agent"
        };
        let mut out = format!("### `{}`: {kind}\n\n", a.name);
        if let Some(d) = &a.description {
            out.push_str(d.trim());
            out.push_str("\n\n");
        }
        // What runs without asking: the approval policy and the sandbox, on one line.
        let said = |key: &str, label: &str, default: &str| match a.setting(key) {
            Some((w, file)) => format!(
                "{label} `{}` ({})",
                w.value,
                where_is(Source::File { file, span: w.span })
            ),
            None => format!("{label}: {default}"),
        };
        out.push_str(&format!(
            "**Permission**: {}; {}\n\n",
            said("approval_policy", "approval", SHOWN[1].1),
            said("sandbox_mode", "sandbox", SHOWN[2].1)
        ));
        out.push_str(&format!(
            "**Model**: {}\n\nEach setting is the last layer's that sets it: the agent's file, over the project's config.toml, over the user's.\n",
            match a.setting("model") {
                Some((w, file)) => format!("`{}` ({})", w.value, where_is(Source::File { file, span: w.span })),
                None => format!("not set: {}", SHOWN[0].1),
            }
        ));
        out.push_str(&format!("\nDefined in: {}.\n", where_is(a.source())));
        out
    }

    /// No rule per command: the sandbox and the approval policy decide (see [`super::policy`]).
    fn rulesets(&self, _: &dyn Host, permission: &str, _home: Option<&str>) -> Option<Vec<(String, Ruleset)>> {
        let a = self.0;
        let setting = |key: &str| {
            a.setting(key)
                .map(|(w, file)| (w.value.as_str(), Source::File { file, span: w.span }))
        };
        let settings = super::policy::Settings {
            sandbox: setting("sandbox_mode"),
            approval: setting("approval_policy"),
            defined: a.source(),
        };
        super::policy::ruleset(&settings, permission).map(|r| vec![r])
    }

    fn defined_at(&self) -> Option<Source> {
        self.0.defined.map(|(file, span)| Source::File { file, span })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(text: &str) -> Settings {
        let (_, _, facts) = super::super::analyze(&super::super::FileKind::Config { project: true }, text);
        facts.settings
    }

    #[test]
    fn the_last_layer_that_sets_a_key_wins_and_the_card_says_where() {
        let user = settings("model = \"o3\"\napproval_policy = \"never\"\n");
        let project = settings("sandbox_mode = \"read-only\"\napproval_policy = \"on-request\"\n");
        let agent = settings("sandbox_mode = \"workspace-write\"\n");
        let a = CodexAgent {
            name: "reviewer".into(),
            description: Some("Reviews.".into()),
            defined: Some((2, Span::new(0, 4))),
            layers: vec![
                LayerOf {
                    settings: &user,
                    file: 0,
                },
                LayerOf {
                    settings: &project,
                    file: 1,
                },
                LayerOf {
                    settings: &agent,
                    file: 2,
                },
            ],
        };
        let where_is = |s: Source| match s {
            Source::BuiltIn => "built-in".to_string(),
            Source::File { file, span } => format!("file{file}:{}", span.start),
        };
        let card = One(&a).card(&where_is, &PathNames::default());
        assert_eq!(
            card,
            "### `reviewer`: Codex agent\n\nReviews.\n\n**Permission**: approval `on-request` (file1:45); sandbox `workspace-write` (file2:15)\n\n**Model**: `o3` (file0:8)\n\nEach setting is the last layer's that sets it: the agent's file, over the project's config.toml, over the user's.\n\nDefined in: file2:0.\n"
        );
        let j = One(&a).json(&where_is);
        assert_eq!(j["settings"]["sandbox_mode"]["value"], "workspace-write");
        assert_eq!(j["settings"]["approval_policy"]["from"], "file1:45");
        let builtin = CodexAgent {
            name: "worker".into(),
            description: None,
            defined: None,
            layers: vec![],
        };
        let card = One(&builtin).card(&where_is, &PathNames::default());
        assert!(
            card.contains("built-in agent") && card.contains("approval: Codex's default (`never`"),
            "{card}"
        );
        assert_eq!(One(&builtin).defined_at(), None);
    }
}

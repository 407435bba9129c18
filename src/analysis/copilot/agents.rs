//! GitHub Copilot's custom agents as `explain`, the matrix and the policies see them (the
//! shared [`AgentSet`] and [`Agent`]).

use serde_json::{Value, json};

use super::project::{ViewFile, registry};
use crate::analysis::Dialect;
use crate::analysis::agents::{Agent, AgentSet, Explained, GraphEdge, GraphNode, ListRow, Listing, MatrixPart};
use crate::analysis::card::PathNames;
use crate::analysis::host::Host;
use crate::analysis::policy::judge::Ruleset;
use crate::analysis::provenance::{Source, WhereIs};

/// Copilot's files of a workspace folder and its custom agents by name (the first file of each
/// name).
pub struct Agents<'h> {
    files: Vec<ViewFile<'h>>,
    registry: Vec<(&'h str, ViewFile<'h>)>,
}

impl<'h> Agents<'h> {
    pub fn gather(files: Vec<ViewFile<'h>>) -> Agents<'h> {
        let registry = registry(&files);
        Agents { files, registry }
    }

    fn named(&self) -> Vec<(&str, &super::CopilotFile)> {
        self.registry.iter().map(|(n, f)| (*n, f.facts)).collect()
    }
}

impl AgentSet for Agents<'_> {
    fn agents(&self) -> Vec<Explained<'_>> {
        self.registry
            .iter()
            .map(|(name, file)| Explained {
                dialect: Dialect::Copilot,
                name,
                agent: Box::new(One {
                    name,
                    file: *file,
                    files: &self.files,
                }),
            })
            .collect()
    }

    fn names(&self) -> Vec<&str> {
        self.registry.iter().map(|(n, _)| *n).collect()
    }

    fn listing(&self, where_is: WhereIs, _marked: &dyn Fn(&Explained) -> bool) -> Listing {
        Listing::Rows {
            detail: "model",
            rows: self
                .registry
                .iter()
                .map(|(n, f)| ListRow {
                    name: n.to_string(),
                    detail: f
                        .facts
                        .models
                        .first()
                        .map_or("(the chat's)".to_string(), |m| m.name.clone()),
                    defined_in: where_is(super::project::source(f)),
                    description: f.facts.description.clone(),
                })
                .collect(),
        }
    }

    fn matrix(&self) -> Option<MatrixPart> {
        super::explain::matrix(&self.named())
    }

    fn graph(&self, _collapse: bool) -> (Vec<GraphNode>, Vec<GraphEdge>) {
        super::explain::graph(&self.named())
    }
}

struct One<'a> {
    name: &'a str,
    file: ViewFile<'a>,
    files: &'a [ViewFile<'a>],
}

impl Agent for One<'_> {
    fn problem_files(&self) -> Vec<usize> {
        vec![self.file.file]
    }

    fn list_json(&self, where_is: WhereIs) -> Value {
        json!({
            "dialect": Dialect::Copilot.as_str(),
            "name": self.name,
            "key": self.name,
            "defined_in": [where_is(super::project::source(&self.file))],
        })
    }

    fn json(&self, where_is: WhereIs) -> Value {
        let f = &self.file;
        super::card::json(f.kind, f.facts, super::project::source(f), where_is)
    }

    fn card(&self, where_is: WhereIs, _: &PathNames) -> String {
        let f = &self.file;
        let cx = super::card::Context { files: self.files };
        super::card::card(f.kind, f.facts, super::project::source(f), &cx, where_is)
    }

    /// Copilot has tool sets, not rules: decided where the agent lacks them (see
    /// `copilot::policy`).
    fn rulesets(&self, _: &dyn Host, permission: &str, _home: Option<&str>) -> Option<Vec<(String, Ruleset)>> {
        let f = &self.file;
        let r = super::policy::ruleset(f.file, f.kind, f.facts, permission)?;
        Some(vec![(super::policy::set_for(permission)?.to_string(), r)])
    }

    fn defined_at(&self) -> Option<Source> {
        Some(super::project::source(&self.file))
    }
}

//! Claude Code's agents as `explain`, the hover card, the matrix and the policies see them (the
//! shared [`AgentSet`] and [`Agent`]): each registered agent with the project's settings rules
//! and `defaultMode`, which decide for its tools.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::Agent as ClaudeAgent;
use super::policy::SettingsRule;
use super::project::{ClaudeFile, candidates, registry};
use super::views::VoidedRules;
use crate::analysis::Dialect;
use crate::analysis::agents::{Agent, AgentSet, Explained, GraphEdge, GraphNode, ListRow, Listing, MatrixPart};
use crate::analysis::card::PathNames;
use crate::analysis::host::Host;
use crate::analysis::policy::judge::{Ruleset, Unapplied};
use crate::analysis::provenance::{Source, WhereIs};

/// The permission rules of a project's Claude Code settings files and its `defaultMode`, with
/// where it is written, and the files Claude Code voids with the rules they lose.
type Settings<'h> = (Vec<SettingsRule<'h>>, Option<(String, Source)>, Vec<VoidedRules<'h>>);

/// Claude Code's agent files, the directory they are seen from and the registry (the winning
/// file of each name), with the project's settings.
pub struct Agents<'h> {
    files: Vec<ClaudeFile<'h>>,
    dir: PathBuf,
    registry: Vec<(String, ClaudeFile<'h>)>,
    settings: Settings<'h>,
}

impl<'h> Agents<'h> {
    /// What Claude Code started in `dir` (canonical) builds.
    pub fn gather(host: &'h dyn Host, dir: PathBuf) -> Agents<'h> {
        let files = super::views::files(host);
        let registry = registry(&files, &dir);
        let (rules, mode) = super::views::permission_rules(host, &dir);
        let settings = (rules, mode, super::views::voided_rules(host, &dir));
        Agents {
            files,
            dir,
            registry,
            settings,
        }
    }

    fn registered(&self) -> Vec<(&str, &ClaudeAgent)> {
        self.registry.iter().map(|(n, f)| (n.as_str(), f.agent)).collect()
    }
}

impl AgentSet for Agents<'_> {
    fn agents(&self) -> Vec<Explained<'_>> {
        self.registry
            .iter()
            .map(|(name, file)| Explained {
                dialect: Dialect::Claude,
                name,
                agent: Box::new(One { name, file, set: self }),
            })
            .collect()
    }

    fn names(&self) -> Vec<&str> {
        self.registry.iter().map(|(n, _)| n.as_str()).collect()
    }

    fn listing(&self, where_is: WhereIs, _marked: &dyn Fn(&Explained) -> bool) -> Listing {
        Listing::Rows {
            detail: "model",
            rows: self
                .registry
                .iter()
                .map(|(n, f)| {
                    let at = definers(&self.files, &self.dir, n, where_is)
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
        }
    }

    fn matrix(&self) -> Option<MatrixPart> {
        super::explain::matrix(&self.registered())
    }

    fn graph(&self, _collapse: bool) -> (Vec<GraphNode>, Vec<GraphEdge>) {
        super::explain::graph(&self.registered())
    }
}

struct One<'a> {
    /// The name it is registered under.
    name: &'a str,
    file: &'a ClaudeFile<'a>,
    set: &'a Agents<'a>,
}

impl Agent for One<'_> {
    fn problem_files(&self) -> Vec<usize> {
        vec![self.file.file]
    }

    fn list_json(&self, where_is: WhereIs) -> Value {
        let name = self.name;
        let defs: Vec<String> = definers(&self.set.files, &self.set.dir, name, where_is)
            .into_iter()
            .map(|d| d.location)
            .collect();
        json!({"dialect": Dialect::Claude.as_str(), "name": name, "key": name, "defined_in": defs})
    }

    fn json(&self, where_is: WhereIs) -> Value {
        let name = self.name;
        super::card::json(
            self.file.agent,
            name,
            &definers(&self.set.files, &self.set.dir, name, where_is),
        )
    }

    fn card(&self, where_is: WhereIs, _: &PathNames) -> String {
        let name = self.name;
        let (rules, mode, voided) = &self.set.settings;
        let mode = mode.as_ref().map(|(m, s)| (m.as_str(), *s));
        let agent = self.file.agent;
        let mut card = super::card::card(agent, name, &definers(&self.set.files, &self.set.dir, name, where_is));
        card.push_str(&super::policy::settings_section(agent, rules, mode, where_is));
        for (cause, why, lost) in voided {
            card.push_str(&super::policy::voided_section(agent, *cause, why, lost, where_is));
        }
        card
    }

    fn rulesets(&self, host: &dyn Host, permission: &str, home: Option<&str>) -> Option<Vec<(String, Ruleset)>> {
        let tools = super::policy::tools_for(permission)?;
        let dir = &self.set.dir;
        let (rules, mode) = super::views::permission_rules(host, dir);
        let root = dir.to_string_lossy();
        let places = super::policy::Places { root: &root, home };
        let mode = mode
            .as_ref()
            .map(|(m, s)| super::policy::DefaultMode { mode: m, source: *s });
        let voided = super::views::voided_rules(host, dir);
        let (agent, file) = (self.file.agent, self.file.file);
        Some(
            tools
                .into_iter()
                .map(|t| {
                    let mut r = super::policy::ruleset(agent, file, t, &rules, mode, places);
                    // What a voided settings file would decide: said beside the answer.
                    for (cause, why, lost) in &voided {
                        let v = super::policy::ruleset(agent, file, t, lost, mode, places);
                        if !v.rules.is_empty() {
                            r.unapplied.push(Unapplied {
                                rules: v.rules,
                                cause: *cause,
                                why: why.clone(),
                            });
                        }
                    }
                    (t.to_string(), r)
                })
                .collect(),
        )
    }

    fn defined_at(&self) -> Option<Source> {
        Some(Source::File {
            file: self.file.file,
            span: self.file.agent.name_span,
        })
    }

    fn decide(
        &self,
        permission: &str,
        input: &str,
        row: &dyn Fn() -> Option<Value>,
        where_is: WhereIs,
    ) -> Option<Result<Value, String>> {
        Some(super::explain::decide(
            (self.file.agent, self.file.file),
            permission,
            input,
            row(),
            where_is,
        ))
    }
}

/// The Claude Code files that define `name` seen from `dir`, in precedence order.
pub fn definers(files: &[ClaudeFile], dir: &Path, name: &str, where_is: WhereIs) -> Vec<super::card::Definer> {
    candidates(files, dir, name)
        .iter()
        .map(|f| super::card::Definer {
            location: where_is(Source::File {
                file: f.file,
                span: f.agent.name_span,
            }),
            source: f.kind.source.label(),
        })
        .collect()
}

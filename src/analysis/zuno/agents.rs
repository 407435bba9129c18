//! Zuno's merged agents as `explain` and the policies see them (the shared [`AgentSet`] and
//! [`Agent`]).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::project::MergedAgent;
use crate::analysis::Dialect;
use crate::analysis::agents::{Agent, AgentSet, Explained, ListRow, Listing, files_of, last_file};
use crate::analysis::card::PathNames;
use crate::analysis::host::Host;
use crate::analysis::policy::judge::Ruleset;
use crate::analysis::provenance::{Source, WhereIs};

/// Zuno's merged agents of a project, by name (disabled ones included).
pub struct Agents(pub BTreeMap<String, MergedAgent>);

fn explained<'a>(name: &'a str, a: &'a MergedAgent) -> Explained<'a> {
    Explained {
        dialect: Dialect::Zuno,
        name,
        agent: Box::new(One(a)),
    }
}

impl AgentSet for Agents {
    /// Disabled agents left out.
    fn agents(&self) -> Vec<Explained<'_>> {
        self.0
            .iter()
            .filter(|(_, a)| !a.flag("disable"))
            .map(|(n, a)| explained(n, a))
            .collect()
    }

    fn find(&self, name: &str) -> Option<Explained<'_>> {
        self.0
            .get_key_value(name)
            .filter(|(_, a)| !a.flag("disable"))
            .map(|(n, a)| explained(n, a))
    }

    fn names(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).collect()
    }

    fn listing(&self, where_is: WhereIs, _marked: &dyn Fn(&Explained) -> bool) -> Listing {
        Listing::Rows {
            detail: "mode",
            rows: self
                .0
                .values()
                .filter(|a| !a.flag("disable") && !a.flag("hidden"))
                .map(|a| ListRow {
                    name: a.name.clone(),
                    detail: a.mode().to_string(),
                    defined_in: a.definitions.last().map(|s| where_is(*s)).unwrap_or_default(),
                    description: a.str("description").map(str::to_string),
                })
                .collect(),
        }
    }
}

struct One<'a>(&'a MergedAgent);

impl Agent for One<'_> {
    fn problem_files(&self) -> Vec<usize> {
        files_of(&self.0.definitions)
    }

    fn list_json(&self, where_is: WhereIs) -> Value {
        let a = self.0;
        json!({
            "dialect": Dialect::Zuno.as_str(),
            "name": a.name,
            "key": a.name,
            "mode": a.mode(),
            "hidden": a.flag("hidden"),
            "native": a.builtin,
            "defined_in": a.definitions.iter().map(|s| where_is(*s)).collect::<Vec<_>>(),
        })
    }

    fn json(&self, where_is: WhereIs) -> Value {
        super::card::json(self.0, where_is)
    }

    fn card(&self, where_is: WhereIs, _: &PathNames) -> String {
        super::card::card(self.0, where_is)
    }

    fn mode(&self) -> Option<&str> {
        Some(self.0.mode())
    }

    fn rulesets(&self, _: &dyn Host, permission: &str, _home: Option<&str>) -> Option<Vec<(String, Ruleset)>> {
        let key = super::policy::permission_for(permission).to_string();
        Some(vec![(key, super::policy::ruleset(self.0, permission))])
    }

    fn defined_at(&self) -> Option<Source> {
        last_file(&self.0.definitions)
    }
}

//! opencode's effective agents as `explain`, the matrix and the policies see them (the shared
//! [`AgentSet`] and [`Agent`]).

use serde_json::{Value, json};

use super::card;
use super::effective::EffectiveAgent;
use crate::analysis::Dialect;
use crate::analysis::agents::{
    Agent, AgentSet, Explained, GraphEdge, GraphNode, Listing, MatrixPart, files_of, last_file,
};
use crate::analysis::card::PathNames;
use crate::analysis::host::Host;
use crate::analysis::policy::judge::Ruleset;
use crate::analysis::provenance::{Source, WhereIs};

/// The effective agents of the view of a start directory.
pub struct Agents(pub Vec<EffectiveAgent>);

/// One effective agent as an [`Explained`] agent (policies judge agents of reduced views too).
pub fn explained(a: &EffectiveAgent) -> Explained<'_> {
    Explained {
        dialect: Dialect::Opencode,
        name: &a.name,
        agent: Box::new(One(a)),
    }
}

impl AgentSet for Agents {
    fn agents(&self) -> Vec<Explained<'_>> {
        self.0.iter().map(explained).collect()
    }

    /// By key, else by display name.
    fn find(&self, name: &str) -> Option<Explained<'_>> {
        self.0
            .iter()
            .find(|a| a.name == name)
            .or_else(|| self.0.iter().find(|a| shown_name(a) == name))
            .map(explained)
    }

    fn names(&self) -> Vec<&str> {
        self.0.iter().map(|a| a.name.as_str()).collect()
    }

    /// As `opencode agent list` lists them.
    fn listing(&self, where_is: WhereIs, marked: &dyn Fn(&Explained) -> bool) -> Listing {
        let marked = |a: &EffectiveAgent| marked(&explained(a));
        Listing::Text(card::list(&self.0, where_is, &marked))
    }

    fn matrix(&self) -> Option<MatrixPart> {
        Some(super::explain::matrix(&self.0))
    }

    fn graph(&self, collapse: bool) -> (Vec<GraphNode>, Vec<GraphEdge>) {
        super::explain::graph(&self.0, collapse)
    }
}

struct One<'a>(&'a EffectiveAgent);

impl Agent for One<'_> {
    fn problem_files(&self) -> Vec<usize> {
        files_of(&self.0.definitions)
    }

    fn list_json(&self, where_is: WhereIs) -> Value {
        let a = self.0;
        json!({
            "dialect": Dialect::Opencode.as_str(),
            "name": shown_name(a),
            "key": a.name,
            "mode": a.mode.value,
            "hidden": a.hidden.value,
            "native": a.native,
            "defined_in": a.definitions.iter().map(|s| where_is(*s)).collect::<Vec<_>>(),
        })
    }

    fn json(&self, where_is: WhereIs) -> Value {
        let a = self.0;
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
            "prompt": card::prompt_text(&a.prompt.value),
            "options": a.options.iter().map(|(k, s)| (k.clone(), s.value.clone())).collect::<serde_json::Map<String, Value>>(),
            "permission": a.permission.iter().map(|r| super::explain::rule_json(r, where_is)).collect::<Vec<_>>(),
            "decisions": a.decisions().into_iter().map(|(k, act)| (k, json!(act))).collect::<serde_json::Map<String, Value>>(),
            "defined_in": a.definitions.iter().map(|s| where_is(*s)).collect::<Vec<_>>(),
        })
    }

    fn card(&self, where_is: WhereIs, paths: &PathNames) -> String {
        card::card(self.0, where_is, &[], paths, card::Detail::Full)
    }

    fn mode(&self) -> Option<&str> {
        Some(self.0.mode.value.as_str())
    }

    fn rulesets(&self, _: &dyn Host, permission: &str, home: Option<&str>) -> Option<Vec<(String, Ruleset)>> {
        let key = super::policy::permission_for(permission);
        Some(vec![(key, super::policy::ruleset(self.0, permission, home))])
    }

    fn defined_at(&self) -> Option<Source> {
        last_file(&self.0.definitions)
    }

    fn decide(
        &self,
        permission: &str,
        input: &str,
        _row: &dyn Fn() -> Option<Value>,
        where_is: WhereIs,
    ) -> Option<Result<Value, String>> {
        Some(Ok(super::explain::decide(self.0, permission, input, where_is)))
    }
}

/// The name opencode shows: the display name of a config entry, else the key.
fn shown_name(a: &EffectiveAgent) -> &str {
    a.display_name.as_ref().map_or(a.name.as_str(), |d| d.value.as_str())
}

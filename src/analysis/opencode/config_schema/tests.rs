//! The table against the JSON Schema generated from the 1.18.34 release
//! (`shared/spec/opencode-config.schema.json`): every property, type, value, bound and
//! required key, both ways, so neither can gain or lose a field unnoticed.

use super::*;
use crate::analysis::shape::{Bound, describe};
use serde_json::Value as J;

fn spec() -> J {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/spec/opencode-config.schema.json"
    );
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{path}: {e} (the shared fact sheets must sit beside the checkout)"));
    serde_json::from_str(&text).expect("the schema is JSON")
}

/// Follow a local `$ref`.
fn resolve<'a>(defs: &'a J, s: &'a J) -> &'a J {
    match s.get("$ref").and_then(J::as_str) {
        Some(r) if r.starts_with("#/$defs/") => resolve(defs, &defs[&r["#/$defs/".len()..]]),
        _ => s,
    }
}

fn compare(defs: &J, json: &J, shape: &Shape, path: &str, out: &mut Vec<String>) {
    let json = resolve(defs, json);
    let ty = json.get("type").and_then(J::as_str);
    match shape {
        // Checked by their own rules; their JSON shapes are not this table's.
        Shape::Custom(_) => {}
        Shape::Str => {
            if ty != Some("string") || json.get("enum").is_some() {
                out.push(format!("{path}: a string here, {json} there"));
            }
        }
        Shape::Bool => {
            if ty != Some("boolean") || json.get("enum").is_some() {
                out.push(format!("{path}: a boolean here, {json} there"));
            }
        }
        Shape::Lit(lits) => {
            let theirs: Vec<J> = json["enum"].as_array().cloned().unwrap_or_default();
            let ours: Vec<J> = lits
                .iter()
                .map(|l| match l {
                    Lit::Str(s) => J::from(*s),
                    Lit::Bool(b) => J::from(*b),
                })
                .collect();
            // A union of one-literal unions (`anyOf: [{anyOf: [{enum}]}]`) is one literal set.
            let nested = json["anyOf"].as_array().map(|m| {
                m.iter()
                    .flat_map(|x| {
                        let x = resolve(defs, x);
                        match x["anyOf"].as_array() {
                            Some(inner) => inner
                                .iter()
                                .flat_map(|y| y["enum"].as_array().cloned().unwrap_or_default())
                                .collect(),
                            None => x["enum"].as_array().cloned().unwrap_or_default(),
                        }
                    })
                    .collect::<Vec<J>>()
            });
            if ours != theirs && Some(&ours) != nested.as_ref() {
                out.push(format!("{path}: values {ours:?} here, {json} there"));
            }
        }
        // opencode's JSON has no integers apart from numbers: no field is written this way.
        Shape::Int(n) => out.push(format!("{path}: a TOML integer ({}) here, {json} there", n.describe())),
        Shape::Num(n) => {
            let want_int = ty == Some("integer");
            if !(want_int || ty == Some("number")) || n.int != want_int {
                out.push(format!("{path}: {} here, {json} there", n.describe()));
                return;
            }
            let min = match (json.get("minimum"), json.get("exclusiveMinimum")) {
                (Some(m), _) => Bound::Incl(m.as_f64().unwrap_or_default()),
                (_, Some(m)) => Bound::Excl(m.as_f64().unwrap_or_default()),
                _ => Bound::None,
            };
            // The generator adds JavaScript's safe-integer maximum to every integer.
            let max = json
                .get("maximum")
                .and_then(J::as_f64)
                .filter(|m| *m != crate::analysis::shape::MAX_SAFE_INT);
            if n.min != min || n.max != max {
                out.push(format!("{path}: {} here, {json} there", n.describe()));
            }
        }
        Shape::Array(item) => match (ty, json.get("items")) {
            (Some("array"), Some(items)) => compare(defs, items, item, &format!("{path}[]"), out),
            _ => out.push(format!("{path}: an array here, {json} there")),
        },
        Shape::Tuple(items) => {
            let prefix = json["prefixItems"].as_array().cloned().unwrap_or_default();
            if ty != Some("array") || prefix.len() != items.len() {
                out.push(format!("{path}: a tuple here, {json} there"));
                return;
            }
            for (i, (j, s)) in prefix.iter().zip(items.iter()).enumerate() {
                compare(defs, j, s, &format!("{path}[{i}]"), out);
            }
        }
        Shape::Record(each) => {
            let props = json.get("properties").and_then(J::as_object);
            if ty != Some("object") || props.is_some_and(|p| !p.is_empty()) {
                out.push(format!("{path}: a record here, {json} there"));
                return;
            }
            match (json.get("additionalProperties"), each) {
                (None, Shape::Any) => {}
                (Some(a), _) if a.is_object() => compare(defs, a, each, &format!("{path}.*"), out),
                _ => out.push(format!("{path}: a record of {} here, {json} there", describe(each))),
            }
        }
        Shape::Object(o) => {
            let props = json
                .get("properties")
                .and_then(J::as_object)
                .cloned()
                .unwrap_or_default();
            if ty != Some("object") {
                out.push(format!("{path}: an object here, {json} there"));
                return;
            }
            let required: Vec<&str> = json["required"]
                .as_array()
                .map(|r| r.iter().filter_map(J::as_str).collect())
                .unwrap_or_default();
            for f in o.fields {
                let p = format!("{path}.{}", f.name);
                match props.get(f.name) {
                    Some(j) => compare(defs, j, &f.shape, &p, out),
                    None => out.push(format!("{p}: a field here, not there")),
                }
                if f.required != required.contains(&f.name) {
                    out.push(format!("{p}: required {} here, {} there", f.required, !f.required));
                }
            }
            for k in props.keys() {
                if o.field(k).is_none() {
                    out.push(format!("{path}.{k}: a field there, not here"));
                }
            }
            match (&o.rest, json.get("additionalProperties")) {
                (Rest::Drop, Some(J::Bool(false))) => {}
                (Rest::Keep(Shape::Any), None) => {}
                (rest, a) => out.push(format!("{path}: rest {rest:?} here, additionalProperties {a:?} there")),
            }
        }
        Shape::Union(members) => {
            let any = json["anyOf"].as_array().cloned().unwrap_or_default();
            if any.len() != members.len() {
                out.push(format!("{path}: a union of {} here, {json} there", members.len()));
                return;
            }
            for (i, (j, s)) in any.iter().zip(members.iter()).enumerate() {
                compare(defs, j, s, &format!("{path}|{i}"), out);
            }
        }
        Shape::Any | Shape::Null | Shape::Pattern(..) => out.push(format!("{path}: {shape:?} is not in this table")),
    }
}

#[test]
fn the_table_is_the_release_schema() {
    let spec = spec();
    let defs = &spec["$defs"];
    let mut out = Vec::new();
    compare(defs, &defs["Config"], &CONFIG, "", &mut out);
    assert!(
        out.is_empty(),
        "the table and the 1.18.34 schema differ:\n{}",
        out.join("\n")
    );
}

#[test]
fn the_comparison_sees_a_difference() {
    // A table that lost a field, got a type wrong and turned a drop into a keep is caught.
    static WRONG: Object = Object {
        what: "server settings",
        fields: &[
            Field::opt("port", STR, ""),
            Field::opt("hostname", STR, ""),
            Field::opt("mdns", BOOL, ""),
            Field::opt("mdnsDomain", STR, ""),
        ],
        rest: Rest::Keep(&Shape::Any),
    };
    let spec = spec();
    let defs = &spec["$defs"];
    let mut out = Vec::new();
    compare(defs, &defs["ServerConfig"], &Shape::Object(&WRONG), "server", &mut out);
    assert_eq!(out.len(), 3, "{out:#?}");
}

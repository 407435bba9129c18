//! The Example dialect alone, and as the workspace discovers and analyses it.

use super::*;
use crate::analysis::syntax::frontmatter;

const REV: &str = "---\nmodle: x\n---\nReview the change.\n";

/// (code, the text under the span, the suggested replacement).
fn found(diags: &[Diagnostic], text: &str) -> Vec<(Code, String, Option<String>)> {
    diags
        .iter()
        .map(|d| {
            (
                d.code,
                d.span.text(text).to_string(),
                d.suggestion().map(|e| e.text.clone()),
            )
        })
        .collect()
}

fn expected() -> Vec<(Code, String, Option<String>)> {
    vec![
        (Code::MissingField, "---".into(), None),
        (Code::UnknownKey, "modle".into(), Some("model".into())),
    ]
}

#[test]
fn analyze_reports_unknown_key_and_missing_field() {
    let kind = crate::analysis::FileKind::Example(FileKind::Agent { name: "rev".into() });
    assert_eq!(kind.dialect(), crate::analysis::Dialect::Example);
    let a = crate::analysis::analyze(&kind, REV);
    assert_eq!(found(&a.diagnostics, REV), expected());
    let unknown = a.diagnostics.iter().find(|d| d.code == Code::UnknownKey).unwrap();
    assert_eq!(unknown.severity, crate::analysis::Severity::Warning);
    assert!(unknown.message.contains("Did you mean `model`?"), "{}", unknown.message);
    let yaml = frontmatter::split(REV).frontmatter.unwrap().yaml;
    assert_eq!(unknown.span.start, yaml.start, "on the key itself, in file offsets");
    let crate::analysis::Facts::Example(facts) = &a.facts else {
        panic!("not Example's facts: {:?}", a.facts)
    };
    assert_eq!(
        **facts,
        Facts {
            name: "rev".into(),
            description: None
        }
    );

    let good = "---\ndescription: Reviews code\nmodel: m\n---\n";
    let a = crate::analysis::analyze(&kind, good);
    assert_eq!(found(&a.diagnostics, good), []);
    let crate::analysis::Facts::Example(facts) = &a.facts else {
        panic!()
    };
    assert_eq!(facts.description.as_deref(), Some("Reviews code"));
    let bad_type = "---\ndescription: [a]\n---\n";
    let a = crate::analysis::analyze(&kind, bad_type);
    assert_eq!(
        found(&a.diagnostics, bad_type),
        [(Code::InvalidType, "[a]".into(), None)]
    );
}

#[test]
fn the_workspace_discovers_and_analyses_example_agents() {
    use crate::workspace::Role;
    let (_t, dir, path, ws) = example_workspace();
    let id = ws.id(&path).expect("the workspace found .example/agents/rev.md");
    let f = &ws.files[id];
    assert_eq!(
        f.kind,
        crate::analysis::FileKind::Example(FileKind::Agent { name: "rev".into() })
    );
    assert_eq!(
        f.role,
        Role::Dialect {
            dir: dir.clone(),
            layer: 0
        }
    );
    assert!(f.in_scope);
    let reported: Vec<Diagnostic> = ws
        .diagnostics()
        .into_iter()
        .map(|(i, d)| {
            assert_eq!(i, id, "only the Example file has problems");
            d
        })
        .collect();
    assert_eq!(found(&reported, REV), expected());
}

#[test]
fn a_dialect_with_no_more_than_its_files_gets_the_interface_defaults() {
    use crate::analysis::Dialect;
    use crate::analysis::host::Host;
    let (_t, dir, path, ws) = example_workspace();
    let id = ws.id(&path).unwrap();
    let f = ws.file(id).unwrap();
    let spec = Dialect::Example.spec();
    // Nothing of its own beyond the file: no hover, names, renames, moves, views, units,
    // agents, skills' notes or project; the workspace asks and gets nothing.
    assert!(spec.hover(&ws, id, 0, &|_| String::new()).is_none());
    assert!(spec.agent_names(&f).is_none());
    assert!(spec.renamed_file(&f, "x").is_none());
    assert!(spec.moved_file(&f, &ws).is_none());
    assert!(spec.view_of_file(&ws, id).is_empty());
    assert!(spec.agent_sections(f.kind).is_empty());
    assert!(spec.command_agents(&ws, &dir).is_empty());
    assert!(spec.models(&ws).is_empty());
    assert!(spec.skill_notes(&ws, id, &|_| String::new()).is_none());
    assert!(spec.other_definitions(&ws, id, 0).is_none());
    assert!(spec.starts(&ws, &dir).is_empty());
    assert!(spec.would_define(&f, "rev").is_none());
    assert!(spec.project_of_file(&ws, id).is_none());
    assert!(spec.path_names(&ws, &dir).is_none());
    assert!(spec.units(&ws).is_empty());
    let unit = crate::analysis::spec::UnitRef {
        part: "any",
        dir: None,
        view: &[id],
        groups: &[id],
    };
    assert_eq!(
        spec.check_unit(&ws, unit),
        (Vec::new(), crate::analysis::spec::Reads::All)
    );
    assert!(!spec.refuses_configuration());
    let (files, agents) = spec.agents(&ws, &dir);
    assert!(files.is_empty() && agents.agents().is_empty() && agents.matrix().is_none());
    assert_eq!(agents.graph(true), (Vec::new(), Vec::new()));
    // And a dialect that has them answers (opencode's agent sections; Copilot's moves).
    assert_eq!(
        Dialect::Opencode
            .spec()
            .agent_sections(&crate::analysis::opencode::FileKind::Config.into()),
        ["agent", "mode"]
    );
}

/// A project with one Example agent, `.example/agents/rev.md`, loaded: its folder (kept while
/// the first value lives), the agent's path and the workspace.
fn example_workspace() -> (
    tempfile::TempDir,
    std::path::PathBuf,
    std::path::PathBuf,
    crate::workspace::Workspace,
) {
    use crate::workspace::{Options, Workspace};
    let t = tempfile::tempdir().unwrap();
    let dir = std::fs::canonicalize(t.path()).unwrap();
    let path = dir.join(".example/agents/rev.md");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, REV).unwrap();
    let ws = Workspace::load(std::slice::from_ref(&dir), &Options::isolated()).unwrap();
    (t, dir, path, ws)
}

//! `agent-lsp check --format sarif`: the log validates against the official SARIF 2.1.0 schema
//! (vendored in `tests/sarif/`, see its README), and its rules, levels, URIs and UTF-16 regions
//! are what the book documents (`book/src/sarif.md`).

use std::fs;
use std::path::Path;

mod cli_support;

use agent_lsp::analysis::RULES;
use cli_support::{command, workspace};
use serde_json::{Value, json};

/// `agent-lsp check --no-global --format sarif ARGS...` in `cwd`: (status, parsed log).
fn sarif(cwd: &Path, args: &[&str]) -> (i32, Value) {
    let out = command(cwd, &["check", "--no-global", "--format", "sarif"])
        .args(args)
        .output()
        .expect("run agent-lsp");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr, "", "stderr");
    let log = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    (out.status.code().expect("exit code"), log)
}

fn validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(include_str!("sarif/sarif-schema-2.1.0.json")).expect("schema is JSON");
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the SARIF schema compiles")
}

fn schema_errors(v: &jsonschema::Validator, log: &Value) -> Vec<String> {
    v.iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// A project with errors, warnings and an info, a cross-file related location, fixes, wide
/// characters before an error and a file name that needs percent-encoding.
fn project() -> tempfile::TempDir {
    workspace(&[
        (
            "opencode.json",
            "{\"agent\": {\"rev\": {\"description\": \"审查代码 🚀\", \"mode\": \"main\"}}, \"default_agent\": \"helper\"}\n",
        ),
        (
            ".opencode/agents/x y.md",
            "---\n{description: \"审查代码 🚀\", mode: main}\n---\nYou review code.\n",
        ),
        (
            ".opencode/agents/helper.md",
            "---\ndescription: Helps\nmode: subagent\ntemprature: 0.2\npermission:\n  bash:\n    \"git log*\": allow\n---\nHelp.\n",
        ),
    ])
}

#[test]
fn sarif_log_validates_against_the_official_schema() {
    let ws = project();
    let (status, log) = sarif(ws.path(), &[]);
    assert_eq!(status, 1);
    let v = validator();
    assert_eq!(schema_errors(&v, &log), Vec::<String>::new(), "{log:#}");
    let results = log["runs"][0]["results"].as_array().expect("results");
    let levels: Vec<&str> = results.iter().map(|r| r["level"].as_str().expect("level")).collect();
    for level in ["error", "warning", "note"] {
        assert!(levels.contains(&level), "no {level} result: {levels:?}");
    }
    assert!(results.iter().any(|r| r.get("relatedLocations").is_some()), "{log:#}");
    assert!(results.iter().any(|r| r.get("fixes").is_some()), "{log:#}");

    // The validation is real: one wrong field by hand and the log is rejected.
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]["level"] = json!("warn");
    assert!(!v.is_valid(&broken), "a level \"warn\" passed the schema");
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = json!(0);
    assert!(!v.is_valid(&broken), "a startLine 0 passed the schema");
    let mut broken = log.clone();
    broken["version"] = json!("2.1");
    assert!(!v.is_valid(&broken), "version 2.1 passed the schema");
    let mut broken = log;
    broken["runs"][0]["columnKind"] = json!("utf16");
    assert!(!v.is_valid(&broken), "columnKind utf16 passed the schema");

    // A clean project is a valid log with no results.
    let ws = workspace(&[(
        ".opencode/agents/ok.md",
        "---\ndescription: Reviews\nmode: subagent\n---\nReview.\n",
    )]);
    let (status, log) = sarif(ws.path(), &[]);
    assert_eq!(status, 0);
    assert_eq!(schema_errors(&v, &log), Vec::<String>::new());
    assert_eq!(log["runs"][0]["results"], json!([]));
}

#[test]
fn sarif_driver_lists_every_rule_of_the_catalog() {
    let ws = workspace(&[]);
    let (status, log) = sarif(ws.path(), &[]);
    assert_eq!(status, 0);
    assert_eq!(log["version"], "2.1.0");
    assert_eq!(
        log["$schema"],
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    );
    let runs = log["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    assert_eq!(run["columnKind"], "utf16CodeUnits");
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "agent-lsp");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    let rules = driver["rules"].as_array().expect("rules");
    assert_eq!(rules.len(), RULES.len());
    for (r, rule) in rules.iter().zip(RULES) {
        assert_eq!(r["id"], rule.name);
        assert_eq!(r["shortDescription"]["text"], rule.summary);
        assert_eq!(r["fullDescription"]["text"], rule.explanation);
        let help = r["help"]["text"].as_str().expect("help text");
        assert!(
            help.starts_with(rule.explanation) && help.contains("\nBad:\n"),
            "{help}"
        );
        let level = match rule.severity.as_str() {
            "error" => "error",
            "warning" => "warning",
            _ => "note",
        };
        assert_eq!(r["defaultConfiguration"]["level"], level, "{}", rule.name);
        assert_eq!(r["properties"]["effect"], rule.effect.as_str());
        // The rule's page of the book, a file of this repository.
        let help_uri = r["helpUri"].as_str().expect("helpUri");
        assert_eq!(
            help_uri,
            format!(
                "https://github.com/agent-lsp/agent-lsp/blob/main/book/src/rules/{}.md",
                rule.name
            )
        );
        let page = help_uri.split("/blob/main/").nth(1).unwrap();
        assert!(Path::new(env!("CARGO_MANIFEST_DIR")).join(page).is_file(), "{page}");
    }
    assert!(rules.iter().any(|r| r["defaultConfiguration"]["level"] == "note"));
}

#[test]
fn sarif_results_have_rule_uris_and_utf16_regions() {
    let ws = project();
    let (_, log) = sarif(ws.path(), &[]);
    let run = &log["runs"][0];
    let root = fs::canonicalize(ws.path()).expect("canonical root");
    let root_uri = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .expect("root uri");
    assert_eq!(root_uri, format!("file://{}/", root.display()));
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    let summary: Vec<String> = run["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            let index = r["ruleIndex"].as_u64().expect("ruleIndex") as usize;
            assert_eq!(rules[index]["id"], r["ruleId"]);
            assert!(!r["message"]["text"].as_str().expect("message").is_empty());
            let loc = &r["locations"][0]["physicalLocation"];
            assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
            let g = &loc["region"];
            format!(
                "{} {}:{}-{}:{} {} {}",
                loc["artifactLocation"]["uri"].as_str().expect("uri"),
                g["startLine"],
                g["startColumn"],
                g["endLine"],
                g["endColumn"],
                r["level"].as_str().expect("level"),
                r["ruleId"].as_str().expect("ruleId"),
            )
        })
        .collect();
    // After `审查代码 🚀` (7 UTF-16 units, 6 scalar values) the JSON value `"main"` starts at
    // UTF-16 column 54 (the JSON report, in scalar values, says 53); in the Markdown agent `main`
    // starts at 32. The space in `x y.md` is percent-encoded.
    assert_eq!(
        summary,
        [
            ".opencode/agents/helper.md 4:1-4:11 warning unknown-key",
            ".opencode/agents/helper.md 7:5-7:15 note broad-pattern",
            ".opencode/agents/x%20y.md 2:32-2:36 error invalid-value",
            "opencode.json 1:54-1:60 error invalid-value",
            "opencode.json 1:81-1:89 error invalid-default-agent",
        ]
    );
    // The cross-file note of `default_agent` points at the agent's mode, in its own file.
    let default_agent = run["results"]
        .as_array()
        .expect("results")
        .iter()
        .find(|r| r["ruleId"] == "invalid-default-agent")
        .expect("invalid-default-agent result");
    let related = &default_agent["relatedLocations"][0];
    assert_eq!(
        related["physicalLocation"]["artifactLocation"],
        json!({"uri": ".opencode/agents/helper.md", "uriBaseId": "%SRCROOT%"})
    );
    assert_eq!(related["physicalLocation"]["region"]["startLine"], 3);
    // The did-you-mean fix replaces the value.
    let fix = &run["results"][2]["fixes"][0];
    assert_eq!(
        fix["artifactChanges"][0]["replacements"][0],
        json!({"deletedRegion": {"startLine": 2, "startColumn": 32, "endLine": 2, "endColumn": 36}, "insertedContent": {"text": "primary"}})
    );
}

#[test]
fn sarif_uris_are_relative_to_the_first_directory_given() {
    let ws = workspace(&[(
        "sub/.opencode/agents/rev.md",
        "---\ndescription: R\nmode: main\n---\nR.\n",
    )]);
    let (_, log) = sarif(ws.path(), &["sub"]);
    let run = &log["runs"][0];
    let root = fs::canonicalize(ws.path().join("sub")).expect("canonical");
    assert_eq!(
        run["originalUriBaseIds"]["%SRCROOT%"]["uri"],
        format!("file://{}/", root.display())
    );
    assert_eq!(
        run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        ".opencode/agents/rev.md"
    );
    // Files only: relative to the current directory.
    let (_, log) = sarif(ws.path(), &["sub/.opencode/agents/rev.md"]);
    assert_eq!(
        log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "sub/.opencode/agents/rev.md"
    );
    assert!(validator().is_valid(&log));
}

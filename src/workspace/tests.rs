//! Tests of the workspace layer on real directories.

use std::fs;
use std::path::Path;

use super::model::*;
use crate::analysis::{Code, FileKind, claude};

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

fn codes(ws: &Workspace) -> Vec<(String, &'static str)> {
    ws.diagnostics()
        .into_iter()
        .map(|(id, d)| {
            let rel = ws.files[id]
                .path
                .strip_prefix(&ws.roots[0])
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (rel, d.code.as_str())
        })
        .collect()
}

#[test]
fn skill_links_to_missing_files() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    let skill = "---\nname: tdd\ndescription: d\n---\nRead [the guide](references/guide.md), [run](${CLAUDE_SKILL_DIR}/scripts/run.sh),\n[up](../shared/notes.md#part), [here](./SKILL.md) and [web](https://x.y/z.md).\n";
    write(root, ".claude/skills/tdd/SKILL.md", skill);
    write(root, ".claude/skills/shared/notes.md", "notes");
    let mut ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let id = ws.id(&root.join(".claude/skills/tdd/SKILL.md")).unwrap();
    let broken = |ws: &Workspace| -> Vec<(String, String)> {
        ws.diagnostics()
            .into_iter()
            .filter(|(_, d)| d.code == Code::BrokenLink)
            .map(|(i, d)| (d.span.text(&ws.files[i].text).to_string(), d.message))
            .collect()
    };
    assert_eq!(
        broken(&ws),
        [
            (
                "references/guide.md".to_string(),
                "`references/guide.md` does not exist (links resolve from the skill's folder): a model that follows this link finds no file".to_string()
            ),
            (
                "${CLAUDE_SKILL_DIR}/scripts/run.sh".to_string(),
                "`scripts/run.sh` does not exist (links resolve from the skill's folder): a model that follows this link finds no file".to_string()
            ),
        ]
    );
    // A file created later clears its warning once the links are checked again.
    write(root, ".claude/skills/tdd/references/guide.md", "guide");
    assert_eq!(ws.refresh_skill_links(), [id]);
    assert_eq!(broken(&ws).len(), 1);
    assert_eq!(ws.refresh_skill_links(), Vec::<usize>::new());
    // An edit re-checks the links of the file edited.
    ws.set_text(id, skill.replace("scripts/run.sh", "references/guide.md"));
    assert_eq!(broken(&ws), []);
    // A deleted file brings it back.
    fs::remove_file(root.join(".claude/skills/tdd/references/guide.md")).unwrap();
    assert_eq!(ws.refresh_skill_links(), [id]);
    assert_eq!(broken(&ws).len(), 2);
}

/// A link to a file that is not there, beside one of a close name: "did you mean" with a fix
/// that writes the existing name into the link.
#[test]
fn a_broken_link_suggests_the_closest_file_of_its_folder() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    let skill =
        "---\nname: env\ndescription: d\n---\nSee [vars](references/env-vars.md#list) and [x](references/zzz.md).\n";
    write(root, ".claude/skills/env/SKILL.md", skill);
    write(root, ".claude/skills/env/references/env-var.md", "vars");
    write(root, ".claude/skills/env/references/other.md", "other");
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let id = ws.id(&root.join(".claude/skills/env/SKILL.md")).unwrap();
    let found: Vec<_> = ws
        .diagnostics()
        .into_iter()
        .filter(|(i, d)| *i == id && d.code == Code::BrokenLink)
        .map(|(_, d)| d)
        .collect();
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(
        found[0].message.ends_with("Did you mean `references/env-var.md`?"),
        "{}",
        found[0].message
    );
    let fix = found[0].fix.as_ref().expect("a fix");
    assert_eq!(fix.title, "Replace with `env-var.md`");
    let mut fixed = skill.to_string();
    fixed.replace_range(fix.edits[0].span.range(), &fix.edits[0].text);
    assert!(fixed.contains("[vars](references/env-var.md#list)"), "{fixed}");
    // Nothing close: no suggestion.
    assert!(
        !found[1].message.contains("Did you mean") && found[1].fix.is_none(),
        "{:?}",
        found[1]
    );
}

const PRIMARY: &str = "---\nmode: primary\n---\nPrompt\n";
const SUBAGENT: &str = "---\ndescription: Reviews.\nmode: subagent\n---\nPrompt\n";

#[test]
fn ancestor_dot_opencode_beats_the_nearer_one() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    write(root, "sub/opencode.json", r#"{"default_agent": "x"}"#);
    write(root, ".opencode/agents/x.md", SUBAGENT);
    write(root, "sub/.opencode/agents/x.md", PRIMARY);
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    // Started in sub/, opencode merges sub/.opencode first and the ancestor's file last.
    assert_eq!(codes(&ws), [("sub/opencode.json".to_string(), "invalid-default-agent")]);
    // Swapped, the primary definition wins.
    write(root, ".opencode/agents/x.md", PRIMARY);
    write(root, "sub/.opencode/agents/x.md", SUBAGENT);
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    assert_eq!(codes(&ws), []);
}

#[test]
fn effective_agent_follows_the_view_of_the_start_directory() {
    use crate::analysis::opencode::effective;
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    write(
        root,
        ".opencode/agents/x.md",
        "---
mode: subagent
temperature: 0.1
---
P
",
    );
    write(
        root,
        "sub/.opencode/agents/x.md",
        "---
mode: primary
temperature: 0.9
model: a/b
---
P
",
    );
    write(root, "sub/opencode.json", "{}");
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let env = effective::Env::default();
    let from_sub = effective::agents(
        &crate::analysis::opencode::views::view_files(
            &ws,
            &crate::analysis::opencode::views::view_for(&ws, &root.join("sub")),
        ),
        &env,
    );
    let x = from_sub.iter().find(|a| a.name == "x").unwrap();
    // The ancestor's file is merged last and wins where it sets a field; the nearer file
    // still contributes what only it sets.
    assert_eq!(x.mode.value, "subagent");
    assert_eq!(x.temperature.as_ref().unwrap().value, 0.1);
    assert_eq!(x.model.as_ref().unwrap().value, "a/b");
    let from_root = effective::agents(
        &crate::analysis::opencode::views::view_files(&ws, &crate::analysis::opencode::views::view_for(&ws, root)),
        &env,
    );
    assert!(from_root.iter().find(|a| a.name == "x").unwrap().model.is_none());
}

#[test]
fn markdown_beats_json_and_mode_beats_agent() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    write(
        root,
        "opencode.json",
        r#"{"default_agent": "rev", "agent": {"rev": {"mode": "subagent", "description": "Reviews."}}}"#,
    );
    write(root, ".opencode/agents/rev.md", PRIMARY);
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    assert_eq!(codes(&ws), []);
    write(root, ".opencode/agents/rev.md", SUBAGENT);
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    assert_eq!(codes(&ws), [("opencode.json".to_string(), "invalid-default-agent")]);
    // A deprecated mode/ file is primary and is merged after agents/.
    write(root, ".opencode/mode/rev.md", "---\ndescription: d\n---\nPrompt\n");
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    // Two files of one directory defining one agent are reported.
    assert_eq!(
        codes(&ws),
        [
            (".opencode/agents/rev.md".to_string(), "duplicate-agent"),
            (".opencode/mode/rev.md".to_string(), "deprecated-field"),
            (".opencode/mode/rev.md".to_string(), "duplicate-agent"),
        ]
    );
}

#[test]
fn global_layer_disable_and_agents() {
    let t = tempfile::tempdir().unwrap();
    let g = tempfile::tempdir().unwrap();
    let root = t.path();
    write(root, "opencode.json", r#"{"default_agent": "build"}"#);
    write(g.path(), "opencode.json", r#"{"agent": {"build": {"disable": true}}}"#);
    write(
        g.path(),
        "agents/helper.md",
        "---\nmode: primary\ncolor: red\n---\nPrompt\n",
    );
    let options = Options::default().with(crate::analysis::opencode::user::GLOBAL_DIR, g.path().to_path_buf());
    let ws = Workspace::load(&[root.to_path_buf()], &options).unwrap();
    let d = ws.diagnostics();
    // The global agent's own problem is not reported; the disabled default agent is.
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].1.code, Code::InvalidDefaultAgent);
    assert!(d[0].1.message.contains("disabled"));
    write(root, "opencode.json", r#"{"default_agent": "helper"}"#);
    let ws = Workspace::load(&[root.to_path_buf()], &options).unwrap();
    assert!(ws.diagnostics().is_empty());
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    assert_eq!(ws.diagnostics().len(), 1);
}

#[test]
fn user_configs_merge_in_opencode_s_order_whatever_order_they_were_read_in() {
    let t = tempfile::tempdir().unwrap();
    let g = tempfile::tempdir().unwrap();
    let root = t.path();
    write(root, "opencode.json", "{}");
    write(g.path(), "opencode.jsonc", "{}");
    write(g.path(), "opencode.json", "{}");
    write(g.path(), "custom/settings.json", "{}");
    let options = Options::default()
        .with(crate::analysis::opencode::user::GLOBAL_DIR, g.path().to_path_buf())
        .with(
            crate::analysis::opencode::user::CONFIG_FILE,
            g.path().join("custom/settings.json"),
        );
    let mut ws = Workspace::load(&[root.to_path_buf()], &options).unwrap();
    // `config.json` appears while the server runs: read last, merged first.
    write(g.path(), "config.json", "{}");
    let late = g.path().join("config.json");
    let (kind, role) = ws.role_of(&late).unwrap();
    ws.read_and_add(&late, kind, role, false);
    let views = crate::analysis::opencode::views::views(&ws);
    assert_eq!(views.len(), 1);
    let order: Vec<String> = views[0]
        .iter()
        .map(|&i| {
            let p = &ws.files[i].path;
            let (base, tag) = if p.starts_with(g.path()) {
                (g.path(), "~")
            } else {
                (root, ".")
            };
            format!("{tag}/{}", p.strip_prefix(base).unwrap().to_string_lossy())
        })
        .collect();
    // Later wins: config.json, opencode.json, opencode.jsonc, `$OPENCODE_CONFIG`, the project.
    assert_eq!(
        order,
        [
            "~/config.json",
            "~/opencode.json",
            "~/opencode.jsonc",
            "~/custom/settings.json",
            "./opencode.json"
        ]
    );
}

#[test]
fn global_config_layout_and_nested_names() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    // A repository holding a global config directory: opencode.json next to agents/.
    write(
        root,
        "dotfiles/opencode/opencode.json",
        r#"{"default_agent": "team/lead"}"#,
    );
    write(root, "dotfiles/opencode/agents/team/lead.md", PRIMARY);
    // Markdown outside any config directory is not an opencode agent.
    write(root, "docs/agents/notes.md", "---\nmode: main\n---\n");
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    assert_eq!(codes(&ws), []);
    assert_eq!(ws.files_in_scope(), 2);
    // Its commands are opencode commands (nested names too), resolved against its agents;
    // a `commands/` folder outside a config directory is nothing.
    write(
        root,
        "dotfiles/opencode/commands/git/ship.md",
        "---\nagent: team/leed\n---\nShip $1\n",
    );
    write(root, "docs/commands/ship.md", "---\nagent: nobody\n---\nx\n");
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    assert_eq!(
        codes(&ws),
        [("dotfiles/opencode/commands/git/ship.md".to_string(), "unknown-agent")]
    );
    let id = ws.id(&root.join("dotfiles/opencode/commands/git/ship.md")).unwrap();
    match &ws.files[id].kind {
        FileKind::Command(k) => assert_eq!(
            (k.runtime, k.name.as_str()),
            (crate::analysis::Dialect::Opencode, "git/ship")
        ),
        other => panic!("{other:?}"),
    }
    assert!(ws.id(&root.join("docs/commands/ship.md")).is_none());
    // The same in the global directory given in the options.
    let options = Options::isolated().with(
        crate::analysis::opencode::user::GLOBAL_DIR,
        root.join("dotfiles/opencode"),
    );
    let ws = Workspace::new(vec![root.to_path_buf()], options);
    let (kind, _) = ws.role_of(&root.join("dotfiles/opencode/command/x.md")).unwrap();
    assert!(matches!(kind, FileKind::Command(_)), "{kind:?}");
}

#[test]
fn one_missing_file_referenced_three_times_is_one_finding() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    write(
        root,
        "opencode.json",
        r#"{"agent": {"a": {"prompt": "{file:./p/gone.md}", "mode": "primary"}, "b": {"prompt": "{file:./p/gone.md}", "mode": "primary"}, "c": {"prompt": "{file:p/gone.md}", "mode": "primary"}, "d": {"prompt": "{file:./other.md}", "mode": "primary"}}}"#,
    );
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let d = ws.diagnostics();
    let f = &ws.files[d[0].0];
    let shown: Vec<(&str, Vec<&str>)> = d
        .iter()
        .map(|(_, d)| {
            assert_eq!(d.code, Code::BadFileReference);
            let related = d
                .related
                .iter()
                .map(|r| match r.location {
                    crate::analysis::diagnostic::Location::Here(s) => s.text(&f.text),
                    _ => "elsewhere",
                })
                .collect();
            (d.span.text(&f.text), related)
        })
        .collect();
    // `./p/gone.md` and `p/gone.md` are the same file; `./other.md` is another mistake.
    assert_eq!(
        shown,
        [
            ("{file:./p/gone.md}", vec!["{file:./p/gone.md}", "{file:p/gone.md}"]),
            ("{file:./other.md}", vec![]),
        ]
    );
    assert!(
        d[0].1.message.ends_with("(referenced 3 times in this file)"),
        "{}",
        d[0].1.message
    );
    assert!(!d[1].1.message.contains("referenced"), "{}", d[1].1.message);
    assert!(
        d[1].1
            .message
            .starts_with(&format!("`{}` does not exist;", root.join("other.md").display())),
        "{}",
        d[1].1.message
    );
    // A path that exists but is no readable file (a folder) says so.
    fs::create_dir_all(root.join("p/gone.md")).unwrap();
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let d = ws.diagnostics();
    assert!(
        d[0].1
            .message
            .starts_with(&format!("`{}` cannot be read (", root.join("p/gone.md").display())),
        "{}",
        d[0].1.message
    );
}

#[test]
fn file_references_are_read_and_missing_ones_refuse() {
    use crate::analysis::Effect;
    use crate::analysis::opencode::effective;
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    write(
        root,
        "opencode.jsonc",
        "{\n  // \"prompt\": \"{file:./commented.txt}\"\n  \"agent\": {\"a\": {\"description\": \"{file:./d.txt}\", \"prompt\": \"{file:./gone.md}\"}}\n}\n",
    );
    write(root, "d.txt", "  from a file \n");
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let d = ws.diagnostics();
    assert_eq!(d.len(), 1, "{d:#?}");
    let f = &ws.files[d[0].0];
    assert_eq!(d[0].1.code, Code::BadFileReference);
    assert_eq!(d[0].1.effect, Effect::RefusesToStart);
    assert_eq!(d[0].1.span.text(&f.text), "{file:./gone.md}");
    assert!(
        d[0].1.message.contains(&root.join("gone.md").display().to_string()),
        "{}",
        d[0].1.message
    );
    let agents = effective::agents(
        &crate::analysis::opencode::views::view_files(&ws, &crate::analysis::opencode::views::view_for(&ws, root)),
        &effective::Env::default(),
    );
    let a = agents.iter().find(|a| a.name == "a").unwrap();
    assert_eq!(a.description.as_ref().unwrap().value, "from a file");
}

#[test]
fn skill_directories_in_discovery_order() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    std::fs::create_dir(root.join(".git")).unwrap();
    for d in [
        ".opencode/skill/deep/er",
        ".opencode/skills/b",
        ".opencode/skill/a",
        ".claude/skills/c",
        ".agents/skills/d",
        "sub/.claude/skills/e",
        "sub/.opencode/skills/f",
    ] {
        write(root, &format!("{d}/SKILL.md"), "---\nname: s\n---\n");
    }
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let env = crate::analysis::opencode::views::effective_env(&ws, &root.join("sub"));
    let canon = std::fs::canonicalize(root).unwrap();
    let rel: Vec<String> = env
        .skill_dirs
        .iter()
        .map(|d| Path::new(d).strip_prefix(&canon).unwrap().display().to_string())
        .collect();
    assert_eq!(
        rel,
        [
            "sub/.claude/skills/e",
            ".claude/skills/c",
            ".agents/skills/d",
            "sub/.opencode/skills/f",
            ".opencode/skill/a",
            ".opencode/skills/b",
            ".opencode/skill/deep/er",
        ]
    );
    assert_eq!(env.worktree.as_deref(), Some(canon.to_str().unwrap()));
}

/// Every file of a plugin, as `(relative path, kind)` with the name Claude Code gives it.
fn plugin_view(ws: &Workspace, root: &Path) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = ws
        .files
        .iter()
        .filter(|f| f.live)
        .filter_map(|f| {
            let rel = f.path.strip_prefix(root).ok()?.to_string_lossy().replace('\\', "/");
            let what = match &f.kind {
                FileKind::Claude(claude::FileKind::Agent(k)) => match &k.source {
                    claude::Source::Plugin { plugin } => format!("agent {plugin}:{}", k.stem),
                    _ => return None,
                },
                FileKind::Command(k) => format!("command {}", k.name),
                FileKind::Skill(k) => format!("skill {}:{}", k.namespace.as_deref().unwrap_or("-"), k.folder),
                FileKind::Claude(claude::FileKind::Manifest(m)) => format!("manifest {}", m.file_name()),
                _ => return None,
            };
            Some((rel, what))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_plugin_is_read_whole() {
    let t = tempfile::tempdir().unwrap();
    let root = &fs::canonicalize(t.path()).unwrap();
    let p = root.join("plugins/tools");
    let manifest = r#"{"name": "tools", "version": "1.0.0", "description": "d", "author": {"name": "a"}}"#;
    write(&p, ".claude-plugin/plugin.json", manifest);
    let md = "---\ndescription: d\n---\nBody\n";
    for f in [
        "agents/a.md",
        "agents/sub/b.md",
        "commands/c.md",
        "commands/sub/d.md",
        "commands/sk/SKILL.md",
        "commands/sk/ref.md",
        "skills/s/SKILL.md",
        "skills/s/deep/SKILL.md",
        "skills/s/notes.md",
        "SKILL.md",
        "extra/x.md",
    ] {
        write(&p, f, md);
    }
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let want = [
        (".claude-plugin/plugin.json", "manifest plugin.json"),
        ("agents/a.md", "agent tools:a"),
        ("agents/sub/b.md", "agent tools:sub:b"),
        ("commands/c.md", "command tools:c"),
        ("commands/sk/SKILL.md", "skill tools:sk"),
        ("commands/sub/d.md", "command tools:sub:d"),
        ("skills/s/SKILL.md", "skill tools:s"),
    ];
    let want: Vec<(String, String)> = want.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    assert_eq!(plugin_view(&ws, &p), want);
    // A plugin's skill folder is not a misplaced skill, and nothing is reported.
    assert_eq!(codes(&ws), []);
    // A plugin's repository may hold a project of its own: its `.claude/` is the project's.
    write(
        &p,
        ".claude/agents/dev.md",
        "---\nname: dev\ndescription: d\n---\nBody\n",
    );
    write(
        &p,
        ".claude/skills/dev/SKILL.md",
        "---\nname: dev\ndescription: d\n---\nBody\n",
    );
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let kind = |rel: &str| ws.files[ws.id(&p.join(rel)).unwrap()].kind.clone();
    assert_eq!(
        kind(".claude/agents/dev.md"),
        FileKind::from(claude::AgentFile::project("dev"))
    );
    match kind(".claude/skills/dev/SKILL.md") {
        FileKind::Skill(k) => assert_eq!((k.namespace, k.loaders.len()), (None, 2)),
        other => panic!("{other:?}"),
    }
    fs::remove_dir_all(p.join(".claude")).unwrap();
    // Custom paths: `agents` and `commands` replace their folder, `skills` adds one; paths
    // that do not exist, and the default files left out, are reported on the manifest.
    write(
        &p,
        ".claude-plugin/plugin.json",
        r#"{"name": "tools", "version": "1.0.0", "description": "d", "author": {"name": "a"},
            "agents": ["./extra/x.md", "./gone.md"], "commands": "./commands/sub", "skills": ["./commands", "./nope"]}"#,
    );
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let want = [
        (".claude-plugin/plugin.json", "manifest plugin.json"),
        ("commands/sk/SKILL.md", "skill tools:sk"),
        ("commands/sub/d.md", "command tools:d"),
        ("extra/x.md", "agent tools:x"),
        ("skills/s/SKILL.md", "skill tools:s"),
    ];
    let want: Vec<(String, String)> = want.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    assert_eq!(plugin_view(&ws, &p), want);
    let id = ws.id(&p.join(".claude-plugin/plugin.json")).unwrap();
    let f = &ws.files[id];
    let found: Vec<(&str, &str, String)> = ws
        .diagnostics()
        .iter()
        .filter(|(i, _)| *i == id)
        .map(|(_, d)| (d.code.as_str(), d.span.text(&f.text), d.message.clone()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "invalid-value",
                "\"agents\"",
                "setting `agents` replaces the plugin's `agents/` folder: Claude Code does not load the 2 files there that `agents` leaves out (`agents/a.md`, ...)".to_string()
            ),
            (
                "invalid-value",
                "\"./gone.md\"",
                "`./gone.md` does not exist in the plugin: `claude plugin validate` rejects the manifest, and Claude Code loads the plugin without it".to_string()
            ),
            (
                "invalid-value",
                "\"commands\"",
                "setting `commands` replaces the plugin's `commands/` folder: Claude Code does not load the 1 file there that `commands` leaves out (`commands/c.md`)".to_string()
            ),
            (
                "invalid-value",
                "\"./nope\"",
                "`./nope` does not exist in the plugin: `claude plugin validate` rejects the manifest, and Claude Code loads the plugin without it".to_string()
            ),
        ]
    );
    // The language server follows a manifest changed on disk: the plugin renamed, the
    // custom paths dropped.
    let mut ws = ws;
    write(
        &p,
        ".claude-plugin/plugin.json",
        &manifest.replace("\"tools\"", "\"kit\""),
    );
    let (kind, role) = ws.role_of(&p.join(".claude-plugin/plugin.json")).unwrap();
    ws.upsert(
        &p.join(".claude-plugin/plugin.json"),
        kind,
        role,
        fs::read_to_string(p.join(".claude-plugin/plugin.json")).unwrap(),
        true,
    );
    ws.load_bundle(&p);
    let want = [
        (".claude-plugin/plugin.json", "manifest plugin.json"),
        ("agents/a.md", "agent kit:a"),
        ("agents/sub/b.md", "agent kit:sub:b"),
        ("commands/c.md", "command kit:c"),
        ("commands/sk/SKILL.md", "skill kit:sk"),
        ("commands/sub/d.md", "command kit:sub:d"),
        ("skills/s/SKILL.md", "skill kit:s"),
    ];
    let want: Vec<(String, String)> = want.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    assert_eq!(plugin_view(&ws, &p), want);
    // A marketplace whose local source is no folder.
    write(
        root,
        ".claude-plugin/marketplace.json",
        r#"{"name": "m", "description": "d", "owner": {"name": "o"}, "plugins": [{"name": "tools", "source": "./plugins/tools"}, {"name": "gone", "source": "./plugins/gone"}]}"#,
    );
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let id = ws.id(&root.join(".claude-plugin/marketplace.json")).unwrap();
    let d: Vec<(&str, String)> = ws
        .diagnostics()
        .iter()
        .filter(|(i, _)| *i == id)
        .map(|(_, d)| (d.span.text(&ws.files[id].text), d.message.clone()))
        .collect();
    assert_eq!(
        d,
        [(
            "\"./plugins/gone\"",
            "`plugins/gone` is no folder of this marketplace: Claude Code cannot install `gone` (\"Source path does not exist\"); `claude plugin validate` does not check it".to_string()
        )]
    );
}

#[test]
fn a_start_directory_sees_its_ancestors_and_user_agents() {
    let t = tempfile::tempdir().unwrap();
    let g = tempfile::tempdir().unwrap();
    let root = t.path();
    std::fs::create_dir(root.join(".git")).unwrap();
    write(root, ".opencode/agents/up.md", PRIMARY);
    write(root, "pkg/sub/opencode.json", "{}");
    write(g.path(), "agents/global.md", SUBAGENT);
    let options = Options::default().with(crate::analysis::opencode::user::GLOBAL_DIR, g.path().to_path_buf());
    // Loaded from the nested project only, as `explain --root pkg/sub` does.
    let sub = root.join("pkg/sub");
    let ws = Workspace::load(std::slice::from_ref(&sub), &options).unwrap();
    let names: Vec<String> = crate::analysis::opencode::views::view_for(&ws, &sub)
        .iter()
        .flat_map(|&id| ws.files[id].analysis.agents().iter().map(|a| a.name.clone()))
        .collect();
    assert_eq!(names, ["global", "up"]);
    // An empty start directory still sees the user-level agents.
    let empty = tempfile::tempdir().unwrap();
    let ws = Workspace::load(&[empty.path().to_path_buf()], &options).unwrap();
    assert_eq!(crate::analysis::opencode::views::view_for(&ws, empty.path()).len(), 1);
}

#[test]
fn claude_settings_of_a_project() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    // A git repository that ignores the personal settings, which Claude Code reads all the same.
    fs::create_dir_all(root.join(".git")).unwrap();
    write(root, ".gitignore", ".claude/settings.local.json\n");
    write(
        root,
        ".claude/settings.json",
        r#"{"permissions":{"allow":["Bash(git *)"],"deny":["Write(src/**)"],"defaultMode":"plan"}}"#,
    );
    write(
        root,
        ".claude/settings.local.json",
        r#"{"permissions":{"ask":["Bash(git push:*)"],"defaultMode":"acceptEdits"}}"#,
    );
    // Not settings: another folder's `settings.json`, a file below `.claude/`.
    write(root, "config/settings.json", r#"{"permissions":{"deny":["Write(x)"]}}"#);
    write(
        root,
        ".claude/x/settings.json",
        r#"{"permissions":{"deny":["Write(x)"]}}"#,
    );
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let root = ws.roots[0].clone();
    let found: Vec<_> = crate::analysis::claude::views::settings(&ws, &root)
        .into_iter()
        .map(|(id, s)| {
            let rel = ws.files[id]
                .path
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let rules: Vec<&str> = s.rules.iter().map(|r| r.text.as_str()).collect();
            (rel, rules, s.default_mode.as_ref().map(|(m, _)| m.clone()))
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                ".claude/settings.json".to_string(),
                vec!["Bash(git *)", "Write(src/**)"],
                Some("plan".to_string())
            ),
            (
                ".claude/settings.local.json".to_string(),
                vec!["Bash(git push:*)"],
                Some("acceptEdits".to_string())
            ),
        ]
    );
    assert_eq!(
        codes(&ws),
        [(".claude/settings.json".to_string(), "ignored-permission-rule")]
    );
    assert!(crate::analysis::claude::views::settings(&ws, &root.join("config")).is_empty());
    // The user's `~/.claude/settings.json` is the user's settings, read in every project; a
    // `settings.local.json` there is not read.
    let home = root.join("home");
    assert_eq!(
        crate::analysis::claude::discover::claude_settings(&home.join(".claude/settings.json"), Some(&home)),
        Some((
            crate::analysis::FileKind::from(crate::analysis::claude::settings::SettingsFile::User),
            home.clone()
        ))
    );
    assert_eq!(
        crate::analysis::claude::discover::claude_settings(&home.join(".claude/settings.local.json"), Some(&home)),
        None
    );
}

#[test]
fn memory_imports_that_name_no_file() {
    use crate::analysis::claude::memory::MemoryFile;
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    let memory = "# Project\nRead @docs/guide.md, @missing.md and @docs here.\nNot in code: `@code.md`; @logo.png\n";
    write(root, "CLAUDE.md", memory);
    write(root, "docs/guide.md", "guide @part.md @gone-too.md @../CLAUDE.md");
    write(root, "docs/part.md", "@deeper/none.md");
    write(root, "logo.png", "png");
    write(root, "CLAUDE.local.md", "@~/none.md\n");
    write(root, ".claude/CLAUDE.md", "@../docs/guide.md\n");
    write(root, ".claude/rules/go/style.md", "@gone.md\n");
    // A rule's `paths` that match nothing yet (information) and its import that names no file
    // (a warning): two checks, two findings.
    write(
        root,
        ".claude/rules/both.md",
        "---\npaths: [\"nowhere/**\"]\n---\n@gone2.md\n",
    );
    write(root, "pkg/CLAUDE.md", "@../docs/guide.md\n");
    write(
        root,
        ".claude/commands/ship.md",
        "---\ndescription: d\n---\nSee @docs/guide.md, @nope.md. and @\"docs/a b.md\"\n",
    );
    let mut ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let kinds: Vec<(String, Option<MemoryFile>)> = ws
        .files
        .iter()
        .filter(|f| f.kind.memory().is_some())
        .map(|f| {
            (
                f.path.strip_prefix(root).unwrap().to_string_lossy().into_owned(),
                f.kind.memory(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            (".claude/CLAUDE.md".to_string(), Some(MemoryFile::Project)),
            (".claude/rules/both.md".to_string(), Some(MemoryFile::Rule)),
            (".claude/rules/go/style.md".to_string(), Some(MemoryFile::Rule)),
            ("CLAUDE.local.md".to_string(), Some(MemoryFile::Local)),
            ("CLAUDE.md".to_string(), Some(MemoryFile::Project)),
            ("pkg/CLAUDE.md".to_string(), Some(MemoryFile::Project)),
        ]
    );
    let missing = |ws: &Workspace| -> Vec<(String, String)> {
        ws.diagnostics()
            .into_iter()
            .filter(|(_, d)| d.code == Code::MissingPath)
            .map(|(i, d)| {
                let rel = ws.files[i]
                    .path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                (rel, d.span.text(&ws.files[i].text).to_string())
            })
            .collect()
    };
    assert_eq!(
        missing(&ws),
        [
            (".claude/CLAUDE.md".to_string(), "../docs/guide.md".to_string()),
            (".claude/CLAUDE.md".to_string(), "../docs/guide.md".to_string()),
            (".claude/commands/ship.md".to_string(), "nope.md".to_string()),
            (".claude/commands/ship.md".to_string(), "docs/a b.md".to_string()),
            (".claude/rules/both.md".to_string(), "\"nowhere/**\"".to_string()),
            (".claude/rules/both.md".to_string(), "gone2.md".to_string()),
            (".claude/rules/go/style.md".to_string(), "gone.md".to_string()),
            ("CLAUDE.md".to_string(), "docs/guide.md,".to_string()),
            ("CLAUDE.md".to_string(), "missing.md".to_string()),
            ("CLAUDE.md".to_string(), "docs".to_string()),
            ("CLAUDE.md".to_string(), "logo.png".to_string()),
            ("pkg/CLAUDE.md".to_string(), "../docs/guide.md".to_string()),
            ("pkg/CLAUDE.md".to_string(), "../docs/guide.md".to_string()),
        ]
    );
    // An import of an import that names no file: on the import that leads there.
    let pkg = ws.id(&root.join("pkg/CLAUDE.md")).unwrap();
    let nested: Vec<String> = ws
        .diagnostics()
        .into_iter()
        .filter(|(i, _)| *i == pkg)
        .map(|(_, d)| d.message)
        .collect();
    assert_eq!(
        nested,
        [
            "`deeper/none.md` (imported by `../docs/guide.md` → `part.md`, from its folder) names no file: Claude Code leaves that import out without a word",
            "`gone-too.md` (imported by `../docs/guide.md`, from its folder) names no file: Claude Code leaves that import out without a word",
        ]
    );
    let id = ws.id(&root.join("CLAUDE.md")).unwrap();
    let message = |ws: &Workspace, written: &str| {
        ws.diagnostics()
            .into_iter()
            .find(|(i, d)| *i == id && d.span.text(memory) == written)
            .unwrap()
            .1
            .message
    };
    assert_eq!(
        message(&ws, "missing.md"),
        "`missing.md` names no file (an import resolves from this file's folder): Claude Code leaves the import out without a word, so the model never sees it"
    );
    assert_eq!(
        message(&ws, "docs/guide.md,"),
        "`docs/guide.md,` names no file: `,` right after the path is part of it for Claude Code, which leaves the import out without a word (`docs/guide.md` exists; put a blank before the `,`)"
    );
    assert_eq!(
        message(&ws, "docs"),
        "`docs` is a folder: Claude Code imports files only and leaves this import out without a word"
    );
    // The file appears: the warning goes; an edit checks again.
    write(root, "missing.md", "here");
    assert_eq!(ws.refresh_disk_checks(), [id]);
    assert_eq!(missing(&ws).len(), 12, "the rule keeps its two findings");
    ws.set_text(id, "@still-missing.md\n".into());
    assert!(missing(&ws).contains(&("CLAUDE.md".to_string(), "still-missing.md".to_string())));
    // Document links: the imports that lead somewhere.
    let links: Vec<String> = ws
        .file_links(ws.id(&root.join("pkg/CLAUDE.md")).unwrap())
        .into_iter()
        .map(|(_, p)| p.strip_prefix(root).unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(links, ["docs/guide.md"]);
    // The user's `~/.claude/CLAUDE.md` and rules.
    let home = root.join("home");
    assert_eq!(
        crate::analysis::claude::discover::memory_kind(&home.join(".claude/CLAUDE.md"), Some(&home)),
        Some((MemoryFile::User, home.clone()))
    );
    assert_eq!(
        crate::analysis::claude::discover::memory_kind(&home.join(".claude/rules/a.md"), Some(&home)),
        Some((MemoryFile::User, home.clone()))
    );
    assert_eq!(
        crate::analysis::claude::discover::memory_kind(&root.join(".claude/agents/CLAUDE.md"), None),
        None
    );
}

#[test]
fn a_plugin_is_found_at_any_depth_even_in_a_build_folder() {
    let t = tempfile::tempdir().unwrap();
    let root = &fs::canonicalize(t.path()).unwrap();
    fs::create_dir_all(root.join(".git")).unwrap();
    // `build/` is ignored: a plugin there is left out; `dist/` is committed.
    write(root, ".gitignore", "build/\n");
    let manifest = "{\n  \"name\": \"go-dev\",\n  \"version\": \"1.0.0\",\n  \"description\": \"d\",\n  \"author\": {\"name\": \"a\"}\n}\n";
    let agent = "---\nname: gopher\ndescription: Writes Go\ntools: Read, LS\n---\nWrite Go.\n";
    for base in ["dist/claude/plugins/go-dev", "build/go-dev", "packages/a/b/c/tool"] {
        write(root, &format!("{base}/.claude-plugin/plugin.json"), manifest);
        write(root, &format!("{base}/agents/gopher.md"), agent);
    }
    write(
        root,
        "dist/claude/.claude-plugin/marketplace.json",
        "{\n  \"name\": \"m\",\n  \"owner\": {\"name\": \"o\"},\n  \"plugins\": [{\"name\": \"go-dev\", \"source\": \"./plugins/go-dev\"}]\n}\n",
    );
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let found: Vec<(String, &str)> = codes(&ws).into_iter().filter(|(_, c)| *c == "unknown-tool").collect();
    assert_eq!(
        found,
        [
            (
                "dist/claude/plugins/go-dev/agents/gopher.md".to_string(),
                "unknown-tool"
            ),
            ("packages/a/b/c/tool/agents/gopher.md".to_string(), "unknown-tool"),
        ]
    );
    assert!(
        ws.id(&root.join("dist/claude/.claude-plugin/marketplace.json"))
            .is_some()
    );
    assert!(ws.id(&root.join("build/go-dev/.claude-plugin/plugin.json")).is_none());
}

#[test]
fn hook_scripts_that_name_no_file() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    fs::create_dir_all(root.join(".git")).unwrap();
    write(root, ".claude/hooks/guard.sh", "#!/bin/sh\n");
    write(
        root,
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh"},
            {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/gaurd.sh --strict"},
            {"type": "command", "command": "./scripts/lint.sh && echo ok"},
            {"type": "command", "command": "$HOME/bin/x.sh; npm test"}
        ]}]}}"#,
    );
    // An agent's hooks: relative to the project.
    write(
        root,
        ".claude/agents/rev.md",
        "---\nname: rev\ndescription: d\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: .claude/hooks/stop.sh\n---\n",
    );
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let found: Vec<(String, String)> = ws
        .diagnostics()
        .into_iter()
        .filter(|(_, d)| d.code == Code::MissingPath)
        .map(|(id, d)| {
            let f = &ws.files[id];
            let rel = f
                .path
                .strip_prefix(&ws.roots[0])
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (rel, d.span.text(&f.text).to_string())
        })
        .collect();
    assert_eq!(
        found,
        [
            (".claude/agents/rev.md".to_string(), ".claude/hooks/stop.sh".to_string()),
            (
                ".claude/settings.json".to_string(),
                "/.claude/hooks/gaurd.sh".to_string()
            ),
            (".claude/settings.json".to_string(), "./scripts/lint.sh".to_string()),
        ]
    );
}

#[test]
fn a_path_rule_with_one_slash_is_read_from_the_project() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    fs::create_dir_all(root.join(".git")).unwrap();
    write(root, "src/main.rs", "");
    write(
        root,
        ".claude/settings.json",
        r#"{"permissions": {"deny": ["Edit(/etc/**)", "Read(/src/**)", "Read(//etc/passwd)", "Bash(/etc/x)", "Read(/*.env)"]}}"#,
    );
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let found: Vec<(String, String, String)> = ws
        .diagnostics()
        .into_iter()
        .filter(|(_, d)| d.code == Code::MissingPath)
        .map(|(id, d)| {
            let f = &ws.files[id];
            let fix = d.fix.as_ref().expect("a fix");
            let mut fixed = f.text.clone();
            for e in fix.edits.iter().rev() {
                fixed.replace_range(e.span.range(), &e.text);
            }
            let start = fixed.find("\"Edit(").unwrap();
            let end = start + fixed[start + 1..].find('"').unwrap() + 2;
            (
                d.span.text(&f.text).to_string(),
                d.message.clone(),
                fixed[start..end].to_string(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [(
            "/".to_string(),
            "`/etc/**` starts at the project's root (one leading `/`), which holds no `etc`: for the absolute path write `//etc/**`".to_string(),
            "\"Edit(//etc/**)\"".to_string()
        )]
    );
}

#[test]
fn a_plugin_hooks_file_is_read_and_its_scripts_looked_up() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    fs::create_dir_all(root.join(".git")).unwrap();
    write(root, "plug/.claude-plugin/plugin.json", r#"{"name": "plug"}"#);
    write(root, "plug/scripts/ok.sh", "");
    write(
        root,
        "plug/hooks/hooks.json",
        r#"{"hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/scripts/ok.sh\""},
            {"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/scripts/gone.sh\""},
            {"type": "shell", "command": "x"}
        ]}]}}"#,
    );
    // Not a plugin's: not read.
    write(root, "other/hooks/hooks.json", r#"{"hooks": 5}"#);
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let found: Vec<(String, &str, String)> = ws
        .diagnostics()
        .into_iter()
        .map(|(id, d)| {
            let f = &ws.files[id];
            let rel = f
                .path
                .strip_prefix(&ws.roots[0])
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (rel, d.code.as_str(), d.span.text(&f.text).to_string())
        })
        .filter(|(rel, _, _)| !rel.ends_with("plugin.json"))
        .collect();
    assert_eq!(
        found,
        [
            (
                "plug/hooks/hooks.json".to_string(),
                "missing-path",
                "${CLAUDE_PLUGIN_ROOT}/scripts/gone.sh".to_string()
            ),
            (
                "plug/hooks/hooks.json".to_string(),
                "invalid-value",
                "\"shell\"".to_string()
            ),
        ]
    );
}

#[test]
fn mcp_json_found_where_claude_code_reads_it() {
    let t = tempfile::tempdir().unwrap();
    let outer = fs::canonicalize(t.path()).unwrap();
    // Above the repository: Claude Code reads it too (not reported on).
    write(&outer, ".mcp.json", r#"{"mcpServers": {"above": {"command": "x"}}}"#);
    let root = outer.join("repo");
    fs::create_dir_all(root.join(".git")).unwrap();
    // Ignored by git, read all the same.
    write(&root, ".gitignore", ".mcp.json\n");
    write(
        &root,
        ".mcp.json",
        r#"{"mcpServers": {"github-tools": {"command": "x"}, "a.b": {"command": 5}}}"#,
    );
    write(&root, "sub/.mcp.json", r#"{"mcpServers": {"below": {"command": "x"}}}"#);
    // A plugin's `.mcp.json` is the plugin's (not a project's).
    write(&root, "plug/.claude-plugin/plugin.json", r#"{"name": "plug"}"#);
    write(&root, "plug/.mcp.json", r#"{"mcpServers": {"p": {"command": 5}}}"#);
    write(
        &root,
        ".claude/settings.local.json",
        r#"{"enabledMcpjsonServers": ["github-tools", "above", "below", "a_b", "nothere"], "disabledMcpjsonServers": ["gone"]}"#,
    );
    let ws = Workspace::load(std::slice::from_ref(&root), &Options::isolated()).unwrap();
    let mut mcp: Vec<(String, bool)> = ws
        .files
        .iter()
        .filter(|f| f.live && f.kind.is_mcp_json())
        .map(|f| {
            (
                f.path.strip_prefix(&outer).unwrap().to_string_lossy().into_owned(),
                f.in_scope,
            )
        })
        .collect();
    mcp.sort();
    assert_eq!(
        mcp,
        [
            (".mcp.json".to_string(), false),
            ("repo/.mcp.json".to_string(), true),
            ("repo/sub/.mcp.json".to_string(), true),
        ]
    );
    let id = ws.id(&root.join(".mcp.json")).unwrap();
    assert_eq!(
        ws.files[id].role,
        crate::analysis::claude::place::Place::Mcp.role(root.clone())
    );
    let settings = ws.id(&root.join(".claude/settings.local.json")).unwrap();
    let got: Vec<(String, String)> = ws
        .diagnostics()
        .into_iter()
        .map(|(id, d)| {
            let f = &ws.files[id];
            let rel = f.path.strip_prefix(&root).unwrap().to_string_lossy().into_owned();
            (format!("{rel} {}", d.code.as_str()), f.text[d.span.range()].to_string())
        })
        .filter(|(what, _)| !what.starts_with("plug/"))
        .collect();
    assert_eq!(
        got,
        [
            (
                ".claude/settings.local.json unknown-mcp-server".to_string(),
                "\"a_b\"".to_string()
            ),
            (
                ".claude/settings.local.json unknown-mcp-server".to_string(),
                "\"nothere\"".to_string()
            ),
            (
                ".claude/settings.local.json unknown-mcp-server".to_string(),
                "\"gone\"".to_string()
            ),
            (".mcp.json invalid-type".to_string(), "5".to_string()),
        ],
        "{settings}"
    );
}

#[test]
fn mcp_json_names_are_unknown_while_a_file_does_not_parse() {
    let t = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(t.path()).unwrap();
    fs::create_dir_all(root.join(".git")).unwrap();
    write(&root, ".mcp.json", "{\"mcpServers\": {\"a\": {\"command\": \"x\"},}}");
    write(&root, ".claude/settings.json", r#"{"enabledMcpjsonServers": ["b"]}"#);
    let ws = Workspace::load(std::slice::from_ref(&root), &Options::isolated()).unwrap();
    let got: Vec<&str> = ws.diagnostics().into_iter().map(|(_, d)| d.code.as_str()).collect();
    assert_eq!(got, ["syntax-error"]);
    // No `.mcp.json` at all: an approval approves nothing.
    fs::remove_file(root.join(".mcp.json")).unwrap();
    let ws = Workspace::load(std::slice::from_ref(&root), &Options::isolated()).unwrap();
    let got: Vec<String> = ws.diagnostics().into_iter().map(|(_, d)| d.message).collect();
    assert_eq!(
        got,
        [
            "`enabledMcpjsonServers` names `b`, but there is no `.mcp.json` in this project: this approval approves nothing."
        ]
    );
}

#[test]
fn mcp_tool_entries_of_project_agents() {
    let t = tempfile::tempdir().unwrap();
    let top = fs::canonicalize(t.path()).unwrap();
    let home = top.join("home");
    let root = top.join("repo");
    fs::create_dir_all(root.join(".git")).unwrap();
    write(&root, ".mcp.json", r#"{"mcpServers": {"github": {"command": "x"}}}"#);
    let agent = "---\nname: a\ndescription: d\ntools: Read, mcp__github__get_issue, mcp__githb__x, mcp__plugin_p_s__t, mcp__inl__t, mcp__mine__x, mcp__here__x\nmcpServers:\n  - inl: {command: x}\n---\nBody\n";
    write(&root, ".claude/agents/a.md", agent);
    let local = format!(
        r#"{{"mcpServers": {{"mine": {{"command": "x"}}}}, "projects": {{"{}": {{"mcpServers": {{"here": {{}}}}}}}}}}"#,
        root.display()
    );
    write(&home, ".claude.json", &local);
    let options = Options {
        home: Some(home.clone()),
        ..Options::isolated()
    };
    let entries = |ws: &Workspace| -> Vec<String> {
        ws.diagnostics()
            .into_iter()
            .filter(|(_, d)| d.code == Code::UnknownMcpServer)
            .map(|(id, d)| ws.files[id].text[d.span.range()].to_string())
            .collect()
    };
    let ws = Workspace::load(std::slice::from_ref(&root), &options).unwrap();
    if crate::analysis::claude::views::user_servers(&ws).is_none() {
        // This machine has `CLAUDE_CONFIG_DIR` or an organization's `managed-mcp.json`.
        return;
    }
    assert_eq!(entries(&ws), ["mcp__githb__x"]);
    // The user's configuration unreadable as such: nothing is judged.
    write(&home, ".claude.json", r#"{"mcpServers": []}"#);
    let ws = Workspace::load(std::slice::from_ref(&root), &options).unwrap();
    assert!(entries(&ws).is_empty());
    // Without a home (`--no-global`): nothing either.
    let ws = Workspace::load(std::slice::from_ref(&root), &Options::isolated()).unwrap();
    assert!(entries(&ws).is_empty());
    // No `~/.claude.json` at all: the project's and the agents' servers are all there is.
    fs::remove_file(home.join(".claude.json")).unwrap();
    let ws = Workspace::load(std::slice::from_ref(&root), &options).unwrap();
    assert_eq!(entries(&ws), ["mcp__githb__x", "mcp__mine__x", "mcp__here__x"]);
}

#[test]
fn a_marketplace_entry_version_that_its_plugin_contradicts() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    fs::create_dir_all(root.join(".git")).unwrap();
    write(
        root,
        ".claude-plugin/marketplace.json",
        r#"{"name": "market", "owner": {"name": "o"}, "plugins": [
            {"name": "pp", "source": "./plugins/pp", "version": "2.0.0"},
            {"name": "qq", "source": "./plugins/qq", "version": "3.0.0"}
        ]}"#,
    );
    write(
        root,
        "plugins/pp/.claude-plugin/plugin.json",
        r#"{"name": "pp", "version": "1.0.0"}"#,
    );
    write(
        root,
        "plugins/qq/.claude-plugin/plugin.json",
        r#"{"name": "qq", "version": "3.0.0"}"#,
    );
    // Each entry is compared with its own plugin's version (the two differ, so that reading the
    // other entry's plugin.json would show).
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let found: Vec<(String, String)> = ws
        .diagnostics()
        .into_iter()
        .filter(|(id, d)| ws.files[*id].path.ends_with("marketplace.json") && d.message.contains("plugin.json says"))
        .map(|(id, d)| (d.span.text(&ws.files[id].text).to_string(), d.message.clone()))
        .collect();
    assert_eq!(
        found,
        [(
            "\"2.0.0\"".to_string(),
            "`pp`'s plugin.json says version \"1.0.0\": Claude Code installs \"1.0.0\" and ignores this one (`claude plugin validate` warns)".to_string()
        )]
    );
}

#[test]
fn a_forked_skill_names_an_agent_the_project_has() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    fs::create_dir_all(root.join(".git")).unwrap();
    write(
        root,
        ".claude/agents/rev.md",
        "---\nname: reviewer\ndescription: d\n---\nP\n",
    );
    write(
        root,
        ".claude/skills/a/SKILL.md",
        "---\nname: a\ndescription: d\ncontext: fork\nagent: reviewer\n---\nB\n",
    );
    write(
        root,
        ".claude/skills/b/SKILL.md",
        "---\nname: b\ndescription: d\ncontext: fork\nagent: Explore\n---\nB\n",
    );
    write(
        root,
        ".claude/skills/c/SKILL.md",
        "---\nname: c\ndescription: d\ncontext: fork\nagent: reviwer\n---\nB\n",
    );
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let found: Vec<(String, String)> = ws
        .diagnostics()
        .into_iter()
        .filter(|(_, d)| d.code == Code::UnknownAgent)
        .map(|(id, d)| {
            let f = &ws.files[id];
            let rel = f
                .path
                .strip_prefix(&ws.roots[0])
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (rel, d.span.text(&f.text).to_string())
        })
        .collect();
    assert_eq!(
        found,
        [(".claude/skills/c/SKILL.md".to_string(), "reviwer".to_string())]
    );
}

#[test]
fn a_config_in_a_config_directory_is_read_as_one_wherever_that_directory_is() {
    // opencode reads `opencode.json` in `.opencode/`, `~/.opencode/` and `$OPENCODE_CONFIG_DIR`
    // as a directory's config (merged with its agents), anywhere else as a project's.
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    let options = Options::isolated()
        .with(
            crate::analysis::opencode::user::HOME_DOT_OPENCODE,
            root.join("home/.opencode"),
        )
        .with(crate::analysis::opencode::user::CONFIG_DIR, root.join("conf"));
    let ws = Workspace::load(&[root.to_path_buf()], &options).unwrap();
    let role = |rel: &str| ws.role_of(&root.join(rel)).map(|(_, role)| role);
    let dir = |rel: &str| root.join(rel);
    assert_eq!(
        role(".opencode/opencode.json"),
        Some(crate::analysis::opencode::place::Place::Dir.role(dir(".opencode")))
    );
    assert_eq!(
        role("home/.opencode/opencode.json"),
        Some(crate::analysis::opencode::place::Place::Dir.role(dir("home/.opencode")))
    );
    assert_eq!(
        role("conf/opencode.json"),
        Some(crate::analysis::opencode::place::Place::Dir.role(dir("conf")))
    );
    assert_eq!(
        role("app/opencode.json"),
        Some(crate::analysis::opencode::place::Place::Project.role(dir("app")))
    );
}

#[test]
fn an_opencode_markdown_agent_is_named_by_its_file_and_judged_in_its_own_unit() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    write(root, ".opencode/agents/review.md", SUBAGENT);
    write(root, ".opencode/modes/plan2.md", "---\ndescription: d\n---\nPrompt\n");
    write(root, "opencode.json", r#"{"agent": {"build": {"model": "a/b"}}}"#);
    write(
        root,
        "agent-lsp.toml",
        "[[policy]]\nid = \"p\"\npermission = \"bash\"\ninputs = [\"rm -rf /\"]\nat-most = \"deny\"\n",
    );
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let id = |rel: &str| ws.files.iter().position(|f| f.path == root.join(rel)).unwrap();
    assert_eq!(
        crate::analysis::opencode::views::markdown_agent(&ws, id(".opencode/agents/review.md")),
        Some("review")
    );
    assert_eq!(
        crate::analysis::opencode::views::markdown_agent(&ws, id(".opencode/modes/plan2.md")),
        Some("plan2")
    );
    assert_eq!(
        crate::analysis::opencode::views::markdown_agent(&ws, id("opencode.json")),
        None
    );
    // A keystroke in the agent's file costs that agent: it has a unit of its own, which a
    // config's agents do not.
    let units: Vec<super::Unit> = ws.units().into_iter().map(|u| u.unit).collect();
    let md = id(".opencode/agents/review.md");
    assert!(
        units
            .iter()
            .any(|u| matches!(u, super::Unit::PolicyFile { file, .. } if *file == md)),
        "{units:?}"
    );
    assert!(
        !units
            .iter()
            .any(|u| matches!(u, super::Unit::PolicyFile { file, .. } if *file == id("opencode.json"))),
        "{units:?}"
    );
}

#[test]
fn who_may_answers_for_the_claude_code_edit_tool_that_gives_the_most() {
    use crate::analysis::Dialect;
    use crate::analysis::policy::solve::Action;
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    // Each agent is granted one of the four edit tools: the others are denied to it, and the
    // one it has decides (asks, by default), whichever comes first in the list of tools.
    write(
        root,
        ".claude/agents/a.md",
        "---\nname: a\ndescription: A\ntools: Edit\n---\nBody\n",
    );
    write(
        root,
        ".claude/agents/b.md",
        "---\nname: b\ndescription: B\ntools: NotebookEdit\n---\nBody\n",
    );
    write(
        root,
        ".claude/agents/c.md",
        "---\nname: c\ndescription: C\ntools: Read\n---\nBody\n",
    );
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let rows = ws.who_may(root, "edit", "src/a.rs");
    let of = |name: &str| {
        rows.iter()
            .find(|r| r.agent == name && r.dialect == Dialect::Claude)
            .map(|r| (r.tool.as_str(), r.action))
    };
    assert_eq!(of("a"), Some(("Edit", Action::Ask)), "{rows:?}");
    assert_eq!(of("b"), Some(("NotebookEdit", Action::Ask)), "{rows:?}");
    assert_eq!(of("c").map(|(_, a)| a), Some(Action::Deny), "{rows:?}");
}

#[test]
fn a_file_in_a_runtime_s_own_folder_is_the_project_s_even_where_a_plugin_lists_it() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    write(
        root,
        ".claude-plugin/plugin.json",
        r#"{"name": "pp", "agents": ["./.claude/agents/a.md", "./extra/b.md"]}"#,
    );
    let agent = "---\nname: a\ndescription: d\n---\nP\n";
    write(root, ".claude/agents/a.md", agent);
    write(root, "extra/b.md", agent);
    // `.claude/agents/` is Claude Code's project folder: not looked up as a plugin's file.
    let ws = Workspace::new(vec![root.to_path_buf()], Options::default());
    let at = crate::analysis::spec::At {
        host: &ws,
        disk: &super::tree::FsDisk,
        places: crate::analysis::Dialect::places(),
    };
    let plugin_role = |p: &Path| crate::analysis::claude::discover::plugin_role(p, &at);
    assert!(plugin_role(&root.join(".claude/agents/a.md")).is_none());
    // Elsewhere the manifest's list makes it the plugin's agent.
    match plugin_role(&root.join("extra/b.md")) {
        Some(Some((FileKind::Claude(claude::FileKind::Agent(k)), role))) => {
            let (dir, place) = crate::analysis::claude::place::Place::of(&role).unwrap();
            assert_eq!(place, crate::analysis::claude::place::Place::Agent);
            assert_eq!((k.source, dir), (claude::Source::Plugin { plugin: "pp".into() }, root));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn relative_instructions_are_judged_only_where_the_start_folder_is_known() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    fs::create_dir_all(root.join(".git")).unwrap();
    let config = r#"{"instructions": ["NOWHERE.md"]}"#;
    // `$OPENCODE_CONFIG_DIR` (a folder not named `.opencode`): opencode reads its relative
    // instructions from wherever it starts, which no file says; a project's `.opencode/` is read
    // from the project.
    write(root, "cfg/opencode.json", config);
    write(root, "app/.opencode/opencode.json", config);
    let options = Options::isolated().with(crate::analysis::opencode::user::CONFIG_DIR, root.join("cfg"));
    let ws = Workspace::load(&[root.to_path_buf()], &options).unwrap();
    let missing: Vec<String> = ws
        .diagnostics()
        .into_iter()
        .filter(|(_, d)| d.code == Code::MissingPath)
        .map(|(id, _)| {
            ws.files[id]
                .path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(missing, ["app/.opencode/opencode.json"]);
}

/// `file: code "spanned text"` of each finding, in the workspace's order.
fn findings(ws: &Workspace, root: &Path) -> Vec<String> {
    ws.diagnostics()
        .into_iter()
        .map(|(id, d)| {
            let f = &ws.files[id];
            let rel = f
                .path
                .strip_prefix(root)
                .unwrap_or(&f.path)
                .to_string_lossy()
                .into_owned();
            format!("{rel}: {} {:?}", d.code.as_str(), d.span.text(&f.text))
        })
        .collect()
}

#[test]
fn output_styles_of_projects_users_and_plugins() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    let home = tempfile::tempdir().unwrap();
    write(
        root,
        ".claude/output-styles/terse.md",
        "---\nname: Terse\n---\nBe terse.\n",
    );
    write(
        root,
        ".claude/output-styles/team/review.md",
        "---\ndescription: d\n---\nx\n",
    );
    write(
        root,
        ".claude/output-styles/team/terse-too.md",
        "---\nname: Terse\n---\nx\n",
    );
    write(root, ".claude/settings.json", "{ \"outputStyle\": \"Tersee\" }");
    write(root, ".claude/settings.local.json", "{ \"outputStyle\": \"review\" }");
    write(
        root,
        "kit/.claude-plugin/plugin.json",
        r#"{"name": "kit", "version": "1.0.0", "description": "d", "author": {"name": "a"}, "outputStyles": ["./more/"]}"#,
    );
    write(
        root,
        "kit/output-styles/brief.md",
        "---\nforce-for-plugin: true\n---\nx\n",
    );
    write(root, "kit/more/extra.md", "---\nname: Extra\nmodel: x\n---\nx\n");
    write(
        home.path(),
        ".claude/output-styles/mine.md",
        "---\nname: Mine\n---\nx\n",
    );
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let mut styles: Vec<(String, &'static str)> = ws
        .files
        .iter()
        .filter_map(|f| {
            let origin = f.kind.output_style()?;
            let rel = f.path.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            let Some((dir, crate::analysis::claude::place::Place::OutputStyle)) =
                crate::analysis::claude::place::Place::of(&f.role)
            else {
                panic!("{rel}: {:?}", f.role)
            };
            let owner = if dir == root { "project" } else { "plugin" };
            assert_eq!(
                matches!(origin, claude::output_style::Origin::Plugin { plugin } if plugin == "kit"),
                owner == "plugin",
                "{rel}"
            );
            Some((rel, owner))
        })
        .collect();
    styles.sort();
    assert_eq!(
        styles,
        [
            (".claude/output-styles/team/review.md".to_string(), "project"),
            (".claude/output-styles/team/terse-too.md".to_string(), "project"),
            (".claude/output-styles/terse.md".to_string(), "project"),
            ("kit/more/extra.md".to_string(), "plugin"),
        ]
    );
    // (`kit/output-styles/` is not read: the manifest's `outputStyles` replaces it.)
    // The user's styles were not read: a name close to a known one is reported, with its fix.
    let found = findings(&ws, root);
    assert_eq!(
        found,
        [
            ".claude/output-styles/terse.md: duplicate-agent \"Terse\"",
            ".claude/settings.json: invalid-value \"\\\"Tersee\\\"\"",
            // `kit/output-styles/` left out by `outputStyles`, said on the manifest.
            "kit/.claude-plugin/plugin.json: invalid-value \"\\\"outputStyles\\\"\"",
            "kit/more/extra.md: unknown-key \"model\"",
        ],
        "{found:#?}"
    );
    let diags = ws.diagnostics();
    let (_, d) = diags.iter().find(|(_, d)| d.code == Code::InvalidValue).unwrap();
    assert!(d.message.contains("the user's styles were not read"), "{}", d.message);
    assert_eq!(
        d.fix.as_ref().unwrap().edits[0].text,
        "\"Terse\"",
        "the quotes are kept"
    );
    let (_, d) = diags.iter().find(|(_, d)| d.code == Code::DuplicateAgent).unwrap();
    assert!(
        d.message
            .contains("`.claude/output-styles/team/terse-too.md` also names"),
        "{}",
        d.message
    );

    // With the user's styles read: `Mine` is known, any unknown name is reported.
    write(root, ".claude/settings.json", "{ \"outputStyle\": \"Mine\" }");
    write(root, ".claude/settings.local.json", "{ \"outputStyle\": \"Zen\" }");
    let options = Options {
        home: Some(home.path().to_path_buf()),
        ..Options::default()
    };
    let ws = Workspace::load(&[root.to_path_buf()], &options).unwrap();
    let found: Vec<String> = findings(&ws, root)
        .into_iter()
        .filter(|f| f.contains("settings"))
        .collect();
    assert_eq!(found, [".claude/settings.local.json: invalid-value \"\\\"Zen\\\"\""]);
    // A plugin's style by its full name; a plugin the workspace does not hold is not judged; a
    // built-in; a voided settings file applies nothing.
    for ok in ["kit:Extra", "other:thing", "Explanatory"] {
        write(
            root,
            ".claude/settings.local.json",
            &format!("{{ \"outputStyle\": \"{ok}\" }}"),
        );
        let ws = Workspace::load(&[root.to_path_buf()], &options).unwrap();
        let found: Vec<String> = findings(&ws, root)
            .into_iter()
            .filter(|f| f.contains("settings"))
            .collect();
        assert!(found.is_empty(), "{ok}: {found:?}");
    }
    // A style of a plugin the workspace holds is judged even with the user's styles unread.
    for (name, opts) in [("kit:extra", &options), ("kit:brief", &Options::isolated())] {
        write(
            root,
            ".claude/settings.local.json",
            &format!("{{ \"outputStyle\": \"{name}\" }}"),
        );
        let ws = Workspace::load(&[root.to_path_buf()], opts).unwrap();
        let found: Vec<String> = findings(&ws, root)
            .into_iter()
            .filter(|f| f.contains("local"))
            .collect();
        assert_eq!(
            found,
            [format!(".claude/settings.local.json: invalid-value \"\\\"{name}\\\"\"")]
        );
    }
    // A style given by path is read as one (never called unread).
    let path = root.join(".claude/output-styles/terse.md");
    let ws = Workspace::load(std::slice::from_ref(&path), &Options::isolated()).unwrap();
    assert!(
        ws.files
            .iter()
            .any(|f| f.path == path && f.kind.output_style().is_some() && f.role != Role::NotRead)
    );
}

#[test]
fn a_plugin_s_server_files_are_read() {
    use crate::analysis::claude::plugin::servers_file::ServersFile;
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    let manifest = |extra: &str| {
        format!(r#"{{"name": "kit", "version": "1.0.0", "description": "d", "author": {{"name": "a"}}{extra}}}"#)
    };
    write(
        root,
        "kit/.claude-plugin/plugin.json",
        &manifest(r#", "lspServers": "./more/lsp.json""#),
    );
    write(
        root,
        "kit/.mcp.json",
        r#"{"github": {"command": "gh-mcp"}, "bad": {"comand": "x"}}"#,
    );
    write(
        root,
        "kit/.lsp.json",
        r#"{"ts": {"command": "tsls --stdio", "extensionToLanguage": {".ts": "typescript"}}}"#,
    );
    write(
        root,
        "kit/more/lsp.json",
        r#"{"py": {"command": "pyright", "extensionToLanguage": {".py": "python"}}}"#,
    );
    write(root, "kit/monitors/monitors.json", r#"[{"name": "w", "command": "x"}]"#);
    // A project's `.mcp.json` is not a plugin's.
    write(root, "app/.mcp.json", r#"{"mcpServers": {}}"#);
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let mut kinds: Vec<(String, Option<ServersFile>)> = ws
        .files
        .iter()
        .filter(|f| f.kind.plugin_servers().is_some() || f.kind.is_mcp_json())
        .map(|f| {
            let rel = f.path.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            (rel, f.kind.plugin_servers())
        })
        .collect();
    kinds.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        kinds,
        [
            ("app/.mcp.json".to_string(), None),
            ("kit/.lsp.json".to_string(), Some(ServersFile::Lsp)),
            ("kit/.mcp.json".to_string(), Some(ServersFile::Mcp)),
            ("kit/monitors/monitors.json".to_string(), Some(ServersFile::Monitors)),
            ("kit/more/lsp.json".to_string(), Some(ServersFile::Lsp)),
        ]
    );
    let found = findings(&ws, root);
    assert_eq!(
        found,
        [
            "kit/.lsp.json: invalid-value \"\\\"tsls --stdio\\\"\"",
            // One cause, one finding: the missing `command` is on the misspelt key.
            "kit/.mcp.json: missing-field \"\\\"comand\\\"\"",
            "kit/monitors/monitors.json: missing-field \"{\"",
        ],
        "{found:#?}"
    );
    // The plugin's servers, by the name Claude Code gives them (a server it drops is not one).
    assert_eq!(
        crate::analysis::claude::views::plugin_mcp_servers(&ws),
        ["plugin:kit:github"]
    );
    // A manifest that sets `monitors` inline: `monitors/monitors.json` is not read.
    write(
        root,
        "kit/.claude-plugin/plugin.json",
        &manifest(r#", "experimental": {"monitors": [{"name": "w", "command": "x", "description": "d"}]}"#),
    );
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    assert!(ws.files.iter().all(|f| !f.path.ends_with("monitors/monitors.json")));
    assert!(
        findings(&ws, root).iter().all(|f| !f.contains("plugin.json")),
        "{:?}",
        findings(&ws, root)
    );
    // A server file given by path is read as the plugin's.
    let path = root.join("kit/.lsp.json");
    let ws = Workspace::load(std::slice::from_ref(&path), &Options::isolated()).unwrap();
    let id = ws.id(&path).unwrap();
    assert_eq!(ws.files[id].kind.plugin_servers(), Some(ServersFile::Lsp));
}

#[test]
fn opencode_themes_and_the_theme_a_tui_json_chooses() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    let g = tempfile::tempdir().unwrap();
    write(
        root,
        ".opencode/themes/mine.json",
        r##"{"theme": {"primary": "#ff0000", "text": "nosuch"}}"##,
    );
    write(root, "tui.json", r#"{"theme": "mnie"}"#);
    write(g.path(), "themes/global.json", r##"{"theme": {"primary": "#ff0000"}}"##);
    write(
        g.path(),
        "skills/review/SKILL.md",
        "---\nname: review\ndescription: Review code\n---\nDo it.\n",
    );
    let options = Options::default().with(crate::analysis::opencode::user::GLOBAL_DIR, g.path().to_path_buf());
    let mut ws = Workspace::load(&[root.to_path_buf()], &options).unwrap();
    ws.refresh_cross();
    assert!(
        ws.files
            .iter()
            .any(|f| f.kind.is_theme() && f.path.ends_with("global.json"))
    );
    let found = findings(&ws, root);
    assert_eq!(
        found,
        [
            ".opencode/themes/mine.json: invalid-value \"\\\"nosuch\\\"\"",
            "tui.json: invalid-value \"\\\"mnie\\\"\"",
        ],
        "{found:#?}"
    );
    // A global theme by its name; a built-in one.
    for ok in ["global", "dracula", "system"] {
        write(root, "tui.json", &format!("{{\"theme\": \"{ok}\"}}"));
        let mut ws = Workspace::load(&[root.to_path_buf()], &options).unwrap();
        ws.refresh_cross();
        assert!(findings(&ws, root).iter().all(|f| !f.starts_with("tui.json")), "{ok}");
    }
    // One theme file that does not parse drops every custom one.
    write(root, ".opencode/themes/mine.json", "{\"theme\": {},}");
    write(root, "tui.json", r#"{"theme": "global"}"#);
    let mut ws = Workspace::load(&[root.to_path_buf()], &options).unwrap();
    ws.refresh_cross();
    let diags = ws.diagnostics();
    let (_, d) = diags
        .iter()
        .find(|(id, _)| ws.files[*id].path.ends_with("tui.json"))
        .expect("a finding on tui.json");
    assert!(
        d.message.contains("`.opencode/themes/mine.json` does not parse"),
        "{}",
        d.message
    );
    // The global folder checked as a folder: its skill and theme are read.
    let ws = Workspace::load(&[g.path().to_path_buf()], &options).unwrap();
    let kinds: Vec<bool> = ws
        .files
        .iter()
        .filter(|f| f.in_scope)
        .map(|f| f.kind.skill().is_some() || f.kind.is_theme())
        .collect();
    assert_eq!(
        kinds,
        [true, true],
        "{:?}",
        ws.files.iter().map(|f| &f.path).collect::<Vec<_>>()
    );
}

#[test]
fn instruction_files_that_no_runtime_reads() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    fs::create_dir_all(root.join(".git")).unwrap();
    // AGENTS.md for opencode and CLAUDE.md for Claude Code: each read by one runtime, no
    // finding; CONTEXT.md beside them is read by neither.
    write(root, "AGENTS.md", "Be brief.\n");
    write(root, "CLAUDE.md", "# Project\n");
    write(root, "CONTEXT.md", "Context.\n");
    // Under a folder of its own, a CONTEXT.md is opencode's when no AGENTS.md or CLAUDE.md is
    // found up to the git root (there is one: none read).
    write(root, "sub/CONTEXT.md", "Sub context.\n");
    let mut ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let found: Vec<(String, String)> = ws
        .diagnostics()
        .into_iter()
        .filter(|(_, d)| d.code == Code::ShadowedFile)
        .map(|(id, d)| {
            let rel = ws.files[id]
                .path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            assert_eq!(d.severity, crate::analysis::Severity::Warning);
            assert_eq!(d.span.start, 0, "on the first line");
            (rel, d.message)
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                "CONTEXT.md".to_string(),
                "no runtime reads this `CONTEXT.md` here: opencode reads `AGENTS.md` (this folder) and then no `CONTEXT.md`: it takes the first of `AGENTS.md`, `CLAUDE.md`, `CONTEXT.md` that a folder up to the git root holds; Claude Code never reads `CONTEXT.md`; Codex reads `CONTEXT.md` only where `project_doc_fallback_filenames` names it and the folder holds no `AGENTS.override.md` or `AGENTS.md`; Gemini CLI reads `CONTEXT.md` only where `context.fileName` names it (it reads `GEMINI.md`)".to_string()
            ),
            (
                "sub/CONTEXT.md".to_string(),
                "no runtime reads this `CONTEXT.md` here: opencode reads `AGENTS.md` (..) and then no `CONTEXT.md`: it takes the first of `AGENTS.md`, `CLAUDE.md`, `CONTEXT.md` that a folder up to the git root holds; Claude Code never reads `CONTEXT.md`; Codex reads `CONTEXT.md` only where `project_doc_fallback_filenames` names it and the folder holds no `AGENTS.override.md` or `AGENTS.md`; Gemini CLI reads `CONTEXT.md` only where `context.fileName` names it (it reads `GEMINI.md`)".to_string()
            ),
        ]
    );
    // The hover's answer for AGENTS.md: opencode and Codex read it, Claude Code reads CLAUDE.md,
    // Gemini CLI `GEMINI.md`.
    let agents = ws.id(&root.join("AGENTS.md")).unwrap();
    let (_, verdicts) = ws.instruction_readers(agents).unwrap();
    assert_eq!(
        verdicts.iter().map(|v| v.reads).collect::<Vec<_>>(),
        [true, false, true, false]
    );
    // A CLAUDE.md that imports them: Claude Code reads both through the import, as the
    // verdict says; the findings go as the import is typed.
    let claude = ws.id(&root.join("CLAUDE.md")).unwrap();
    ws.set_text(claude, "# Project\n@CONTEXT.md @sub/CONTEXT.md\n".into());
    assert!(
        !ws.diagnostics().iter().any(|(_, d)| d.code == Code::ShadowedFile),
        "{:#?}",
        ws.diagnostics()
    );
    let sub = ws.id(&root.join("sub/CONTEXT.md")).unwrap();
    let (_, verdicts) = ws.instruction_readers(sub).unwrap();
    assert_eq!(
        verdicts[1].why,
        "Claude Code reads it through the import in `../CLAUDE.md`"
    );
    ws.set_text(claude, "# Project\n".into());
    assert_eq!(
        ws.diagnostics()
            .iter()
            .filter(|(_, d)| d.code == Code::ShadowedFile)
            .count(),
        2
    );
}

#[test]
fn a_manifest_s_output_styles_replace_the_default_folder() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    let style = "---\nname: S\ndescription: d\n---\nBe short.\n";
    write(root, "kit/output-styles/terse.md", style);
    write(root, "kit/styles/short.md", style);
    let manifest = |styles: &str| {
        format!(r#"{{"name": "kit", "version": "1.0.0", "description": "d", "author": {{"name": "a"}}{styles}}}"#)
    };
    write(
        root,
        "kit/.claude-plugin/plugin.json",
        &manifest(r#", "outputStyles": ["./styles/"]"#),
    );
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let id = ws.id(&root.join("kit/.claude-plugin/plugin.json")).unwrap();
    let found: Vec<(&str, String)> = ws
        .diagnostics()
        .iter()
        .filter(|(i, _)| *i == id)
        .map(|(_, d)| (d.span.text(&ws.files[id].text), d.message.clone()))
        .collect();
    assert_eq!(
        found,
        [(
            "\"outputStyles\"",
            "setting `outputStyles` replaces the plugin's `output-styles/` folder: Claude Code does not load the 1 file there that `outputStyles` leaves out (`output-styles/terse.md`)".to_string()
        )]
    );
    // Listing the folder too, or no `outputStyles`: nothing to say.
    for styles in [r#", "outputStyles": ["./styles/", "./output-styles/"]"#, ""] {
        write(root, "kit/.claude-plugin/plugin.json", &manifest(styles));
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        let id = ws.id(&root.join("kit/.claude-plugin/plugin.json")).unwrap();
        assert!(
            !ws.diagnostics().iter().any(|(i, _)| *i == id),
            "{styles}: {:#?}",
            ws.diagnostics()
        );
    }
}

#[test]
fn the_user_s_instruction_files_are_not_a_project_s() {
    let t = tempfile::tempdir().unwrap();
    let home = t.path().join("home");
    let global = t.path().join("global");
    write(&home, "CLAUDE.md", "# Mine\n");
    write(&home, "CONTEXT.md", "Context.\n");
    write(&global, "AGENTS.md", "Global.\n");
    write(&global, "CONTEXT.md", "Global context.\n");
    for (dir, options) in [
        (
            &home,
            Options {
                home: Some(home.clone()),
                ..Options::isolated()
            },
        ),
        (
            &global,
            Options::isolated().with(crate::analysis::opencode::user::GLOBAL_DIR, global.clone()),
        ),
    ] {
        let ws = Workspace::load(std::slice::from_ref(dir), &options).unwrap();
        let memory: Vec<usize> = (0..ws.files.len())
            .filter(|&i| ws.files[i].kind.memory().is_some())
            .collect();
        assert!(!memory.is_empty(), "{}", dir.display());
        for id in memory {
            assert!(ws.instruction_readers(id).is_none(), "{}", ws.files[id].path.display());
        }
        assert!(!ws.diagnostics().iter().any(|(_, d)| d.code == Code::ShadowedFile));
    }
}

#[test]
fn an_importer_is_named_from_the_imported_file_s_folder() {
    let p = Path::new("/w/p");
    assert_eq!(super::dialects::relative_to(&p.join("CLAUDE.md"), p), "CLAUDE.md");
    assert_eq!(
        super::dialects::relative_to(&p.join(".claude/CLAUDE.md"), p),
        ".claude/CLAUDE.md"
    );
    assert_eq!(
        super::dialects::relative_to(&p.join("CLAUDE.md"), &p.join("a")),
        "../CLAUDE.md"
    );
    assert_eq!(
        super::dialects::relative_to(&p.join("CLAUDE.md"), &p.join("a/b/c")),
        "../../../CLAUDE.md"
    );
}

#[test]
fn an_instruction_file_open_in_the_editor_counts_before_it_is_saved() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    fs::create_dir_all(root.join(".git")).unwrap();
    write(root, "AGENTS.md", "Be brief.\n");
    write(root, "CONTEXT.md", "Context.\n");
    let mut ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    // The editor holds AGENTS.md; the disk no longer does (and the watcher said so).
    fs::remove_file(root.join("AGENTS.md")).unwrap();
    ws.refresh_disk_checks();
    let context = ws.id(&root.join("CONTEXT.md")).unwrap();
    let (_, verdicts) = ws.instruction_readers(context).unwrap();
    assert!(!verdicts[0].reads, "opencode reads the AGENTS.md the workspace holds");
}

#[test]
fn completion_knows_the_models_configs_declare_and_agents_use() {
    let t = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(t.path()).unwrap();
    write(
        &root,
        "opencode.json",
        r#"{"model": "a/one", "small_model": "plain", "provider": {"p": {"models": {"m1": {}, "m2": {}}}},
            "agent": {"x": {"model": "b/two"}, "y": {"model": "a/one"}}}"#,
    );
    let ws = Workspace::load(std::slice::from_ref(&root), &Options::isolated()).unwrap();
    // `provider/model` ids only (`plain` is none), each once, in the order first seen.
    assert_eq!(
        crate::analysis::spec::provider_models(&ws),
        ["p/m1", "p/m2", "a/one", "b/two"]
    );
}

#[test]
fn the_users_own_skills_are_the_runtimes_own() {
    use crate::analysis::Dialect;
    use crate::analysis::host::Host;
    let t = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(t.path()).unwrap();
    let home = root.join("home");
    write(
        &home,
        ".claude/skills/shipit/SKILL.md",
        "---\nname: shipit\ndescription: Ship it.\n---\nGo.\n",
    );
    write(
        &root,
        "p/.claude/agents/a.md",
        "---\nname: a\ndescription: A.\n---\nBody\n",
    );
    let options = Options {
        home: Some(home.clone()),
        ..Options::isolated()
    };
    let ws = Workspace::load(&[root.join("p")], &options).unwrap();
    assert_eq!(ws.user_skill_names(Dialect::Claude), ["shipit"]);
    assert!(ws.user_skill_names(Dialect::Zuno).is_empty());
    let (names, own) = claude::views::skills(&ws, &root.join("p"));
    assert_eq!((names, own), (vec!["shipit"], false));
}

#[test]
fn each_runtime_says_which_agents_its_commands_may_name() {
    use crate::analysis::Dialect;
    let t = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(t.path()).unwrap();
    write(
        &root,
        "zuno.json",
        r#"{"agents": {"fixer": {"mode": "subagent"}, "off": {"disable": true}}}"#,
    );
    write(&root, "opencode.json", r#"{"agent": {"rev": {"mode": "primary"}}}"#);
    let ws = Workspace::load(std::slice::from_ref(&root), &Options::isolated()).unwrap();
    let zuno = Dialect::Zuno.spec().command_agents(&ws, &root);
    assert!(
        zuno.contains(&("fixer".to_string(), "subagent".to_string())),
        "{zuno:?}"
    );
    assert!(!zuno.iter().any(|(n, _)| n == "off" || n == "rev"), "{zuno:?}");
    let opencode = Dialect::Opencode.spec().command_agents(&ws, &root);
    assert!(
        opencode.contains(&("rev".to_string(), "primary".to_string())),
        "{opencode:?}"
    );
    assert!(!opencode.iter().any(|(n, _)| n == "fixer"), "{opencode:?}");
    // Claude Code's built-in agents, whatever the project holds.
    let claude = Dialect::Claude.spec().command_agents(&ws, &root);
    assert!(
        claude.iter().any(|(n, m)| n == "general-purpose" && m == "subagent"),
        "{claude:?}"
    );
    assert!(Dialect::Copilot.spec().command_agents(&ws, &root).is_empty());
}

#[test]
fn a_zuno_agent_named_by_its_path_is_renamed_in_its_folder() {
    use crate::analysis::Dialect;
    use crate::analysis::host::Host;
    let t = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(t.path()).unwrap();
    let global = root.join("global");
    write(
        &root,
        "p/.zuno/agents/team/fixer.md",
        "---\ndescription: Fixes.\n---\nFix.\n",
    );
    write(&global, "agents/helper.md", "---\ndescription: Helps.\n---\nHelp.\n");
    write(&root, "p/zuno.json", "{}");
    let options = Options::isolated().with(crate::analysis::zuno::discover::GLOBAL, global.clone());
    let ws = Workspace::load(&[root.join("p")], &options).unwrap();
    let renamed = |path: &Path| {
        let f = ws.file(ws.id(path).expect("loaded")).unwrap();
        Dialect::Zuno.spec().renamed_file(&f, "new")
    };
    // A project's agent: in the same top folder of its `.zuno/`; a global one: of the global
    // folder; the config is named by no path.
    assert_eq!(
        renamed(&root.join("p/.zuno/agents/team/fixer.md")),
        Some(root.join("p/.zuno/agents/new.md"))
    );
    assert_eq!(
        renamed(&global.join("agents/helper.md")),
        Some(global.join("agents/new.md"))
    );
    assert_eq!(renamed(&root.join("p/zuno.json")), None);
}

/// opencode's config paths, looked up as opencode looks them up (`opencode::disk`).
mod config_paths {
    use std::path::PathBuf;

    use super::super::tree::FsDisk;
    use crate::analysis::Code;
    use crate::analysis::diagnostic::{Effect, Severity};
    use crate::analysis::opencode::disk::{missing, up_to_worktree};
    use crate::analysis::opencode::sections::{PathKind, PathRef};

    fn path_ref(kind: PathKind, text: &str) -> PathRef {
        PathRef {
            kind,
            text: text.into(),
            span: crate::analysis::Span::new(0, 1),
        }
    }

    #[test]
    fn each_kind_is_looked_up_where_opencode_looks() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::create_dir_all(root.join("app/.opencode")).unwrap();
        std::fs::create_dir_all(root.join("docs/guides")).unwrap();
        std::fs::create_dir_all(root.join("app/skills")).unwrap();
        std::fs::create_dir_all(root.join("home/notes")).unwrap();
        std::fs::write(root.join("RULES.md"), "r").unwrap();
        std::fs::write(root.join("docs/guides/a.md"), "a").unwrap();
        std::fs::write(root.join("app/.opencode/plugin.ts"), "p").unwrap();
        std::fs::write(root.join("home/notes/n.md"), "n").unwrap();
        let project = root.join("app");
        let config_dir = root.join("app/.opencode");
        let home = root.join("home");
        let check = |kind, text: &str| {
            missing(&path_ref(kind, text), &config_dir, Some(&project), Some(&home), &FsDisk).is_none()
        };
        // Instructions: from the project up to the repository's root; globs; the home folder.
        assert!(check(PathKind::Instructions, "RULES.md"));
        assert!(check(PathKind::Instructions, "docs/guides/*.md"));
        assert!(check(PathKind::Instructions, "docs/**/*.md"));
        assert!(check(PathKind::Instructions, "~/notes/*.md"));
        assert!(!check(PathKind::Instructions, "RULE.md"));
        assert!(!check(PathKind::Instructions, "docs/*.md"));
        assert!(!check(PathKind::Instructions, "~/notes/x.md"));
        // A folder is not an instructions file.
        assert!(!check(PathKind::Instructions, "docs"));
        // Skills folders: from the project.
        assert!(check(PathKind::SkillsPath, "skills"));
        assert!(check(PathKind::SkillsPath, "./skills"));
        assert!(!check(PathKind::SkillsPath, "skill"));
        // References and plugins: from the config's folder.
        assert!(check(PathKind::Reference, "../../docs"));
        assert!(!check(PathKind::Reference, "./docs"));
        assert!(check(PathKind::Plugin, "./plugin.ts"));
        assert!(check(
            PathKind::Plugin,
            &format!("file://{}", root.join("app/.opencode/plugin.ts").display())
        ));
        assert!(!check(PathKind::Plugin, "./plugins/x.ts"));
        // Nothing is said where the answer depends on what is unknown.
        let global = missing(
            &path_ref(PathKind::Instructions, "nope.md"),
            &config_dir,
            None,
            None,
            &FsDisk,
        );
        assert!(global.is_none());
        let no_home = missing(
            &path_ref(PathKind::SkillsPath, "~/nope"),
            &config_dir,
            Some(&project),
            None,
            &FsDisk,
        );
        assert!(no_home.is_none());
        // The message says where it looked.
        let message = |kind, text: &str| {
            let d = missing(&path_ref(kind, text), &config_dir, Some(&project), Some(&home), &FsDisk).unwrap();
            assert_eq!(
                (d.code, d.severity, d.effect),
                (Code::MissingPath, Severity::Warning, Effect::ValueIgnored)
            );
            d.message
        };
        assert_eq!(
            message(PathKind::Instructions, "RULE.md"),
            "`RULE.md` matches no file in the project's folder or its parents up to the repository's root: opencode skips this instructions entry without a word"
        );
        assert_eq!(
            message(PathKind::Instructions, "~/notes/x.md"),
            "`~/notes/x.md` matches no file: opencode skips this instructions entry without a word"
        );
        assert_eq!(
            message(PathKind::SkillsPath, "skill"),
            "there is no folder `skill` in the project's folder: opencode skips it (it only logs \"skill path not found\")"
        );
        assert_eq!(
            message(PathKind::Reference, "./docs"),
            "there is no folder `./docs` beside this config: the agents find nothing in this reference"
        );
        assert_eq!(
            message(PathKind::Plugin, "file://./plugins/x.ts"),
            "there is no file `./plugins/x.ts` beside this config: opencode cannot load this plugin"
        );
    }

    #[test]
    fn the_walk_up_stops_at_the_repository_root() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("repo");
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        let dirs: Vec<PathBuf> = up_to_worktree(&root.join("a/b"), &FsDisk).collect();
        assert_eq!(dirs, [root.join("a/b"), root.join("a"), root.clone()]);
    }
}

/// Each runtime finds the user's folders in the environment its own way (what
/// `Options::from_env` asks of every dialect).
#[test]
fn each_runtime_finds_the_user_s_folders_in_the_environment() {
    use crate::analysis::Dialect;
    use std::path::PathBuf;
    let vars: std::collections::HashMap<&str, &str> = [
        ("XDG_CONFIG_HOME", "/x"),
        ("OPENCODE_CONFIG", "/c/o.json"),
        ("OPENCODE_CONFIG_DIR", "/c/dir"),
        ("OPENCODE_TUI_CONFIG", "/c/tui.json"),
        ("CODEX_HOME", "/cx"),
        ("GEMINI_CLI_HOME", "/gh"),
    ]
    .into_iter()
    .collect();
    let env = |k: &str| vars.get(k).map(PathBuf::from);
    let fill = |env: &dyn Fn(&str) -> Option<PathBuf>, global: Option<&Path>| {
        let mut o = Options {
            home: Some("/h".into()),
            ..Options::default()
        };
        for d in Dialect::REGISTERED {
            d.spec().user_options(env, global, &mut o);
        }
        o
    };
    use crate::analysis::codex::dialect::HOME as CODEX_HOME;
    use crate::analysis::gemini::dialect::HOME as GEMINI_HOME;
    use crate::analysis::opencode::user::{CONFIG_DIR, CONFIG_FILE, GLOBAL_DIR, HOME_DOT_OPENCODE, TUI_CONFIG};
    use crate::analysis::zuno::discover::GLOBAL as ZUNO_GLOBAL;
    let o = fill(&env, None);
    let p = |s: &'static str| Some(Path::new(s));
    let all = [
        GLOBAL_DIR,
        HOME_DOT_OPENCODE,
        CONFIG_FILE,
        CONFIG_DIR,
        TUI_CONFIG,
        ZUNO_GLOBAL,
        CODEX_HOME,
        GEMINI_HOME,
    ];
    assert_eq!(
        all.map(|k| o.user(k)),
        [
            p("/x/opencode"),
            p("/h/.opencode"),
            p("/c/o.json"),
            p("/c/dir"),
            p("/c/tui.json"),
            p("/x/zuno"),
            p("/cx"),
            p("/gh/.gemini"),
        ]
    );
    // Nothing else: each dialect's own names.
    assert_eq!(o.user.len(), all.len());
    // Without `XDG_CONFIG_HOME`, `~/.config`; a global folder named by the user wins.
    let o = fill(&|_| None, Some(Path::new("/g")));
    assert_eq!(
        [GLOBAL_DIR, CONFIG_FILE, ZUNO_GLOBAL, CODEX_HOME, GEMINI_HOME].map(|k| o.user(k)),
        [p("/g"), None, p("/h/.config/zuno"), p("/h/.codex"), p("/h/.gemini")]
    );
    let o = fill(&|_| None, None);
    assert_eq!(o.user(GLOBAL_DIR), p("/h/.config/opencode"));
    // The folders whose configs are the user's, not a project's.
    let o = fill(&env, None);
    let user: Vec<PathBuf> = Dialect::REGISTERED
        .iter()
        .flat_map(|d| d.spec().user_folders(&o))
        .collect();
    assert_eq!(
        user,
        [
            "/x/opencode",
            "/h/.opencode",
            "/c/dir",
            "/c/o.json",
            "/x/zuno",
            "/cx",
            "/gh/.gemini"
        ]
        .map(PathBuf::from)
    );
}

/// The user's own agents are read for resolution and not reported on, even when the home folder
/// is the folder checked (the walk meets them after the user layer read them).
#[test]
fn the_user_s_agents_are_not_reported_when_home_is_the_root() {
    let t = tempfile::tempdir().unwrap();
    let home = fs::canonicalize(t.path()).unwrap();
    write(
        &home,
        ".claude/agents/mine.md",
        "---\nname: mine\ndescription: d\ncolour: red\n---\nP\n",
    );
    write(
        &home,
        "work/.claude/agents/team.md",
        "---\nname: team\ndescription: d\ncolour: red\n---\nP\n",
    );
    let options = Options {
        home: Some(home.clone()),
        ..Options::default()
    };
    let ws = Workspace::load(std::slice::from_ref(&home), &options).unwrap();
    let mine = ws.id(&home.join(".claude/agents/mine.md")).unwrap();
    let team = ws.id(&home.join("work/.claude/agents/team.md")).unwrap();
    assert!(!ws.files[mine].in_scope && ws.files[team].in_scope);
    let reported: Vec<usize> = ws.diagnostics().into_iter().map(|(id, _)| id).collect();
    assert!(reported.contains(&team) && !reported.contains(&mine), "{reported:?}");
}

/// A file given by path in no place a runtime reads (as pre-commit passes it): a Markdown file
/// in an `agents/` folder is analysed as an opencode agent; any other is read by no runtime.
#[test]
fn a_file_given_by_path_in_no_runtime_s_place() {
    let t = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(t.path()).unwrap();
    write(
        &root,
        "docs/agents/helper.md",
        "---\nmode: subagent\ndescription: d\n---\nHelp.\n",
    );
    write(&root, "notes/readme.md", "# Notes\n");
    let agent = root.join("docs/agents/helper.md");
    let ws = Workspace::load(std::slice::from_ref(&agent), &Options::default()).unwrap();
    let f = &ws.files[ws.id(&agent).unwrap()];
    assert_eq!(
        (f.kind.opencode(), f.role.folder()),
        (
            Some(&crate::analysis::opencode::FileKind::Agent { name: "helper".into() }),
            Some(root.join("docs").as_path())
        )
    );
    assert!(ws.unread(ws.id(&agent).unwrap()).is_none());
    let notes = root.join("notes/readme.md");
    let ws = Workspace::load(std::slice::from_ref(&notes), &Options::default()).unwrap();
    assert_eq!(ws.files[ws.id(&notes).unwrap()].role, Role::NotRead);
}

/// Reloading a plugin re-reads its own files only: a file given by path elsewhere, which no path
/// rule places, stays.
#[test]
fn reloading_a_plugin_leaves_other_files_alone() {
    let t = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(t.path()).unwrap();
    let p = root.join("plugin");
    write(&p, ".claude-plugin/plugin.json", r#"{"name": "kit"}"#);
    write(&p, "agents/a.md", "---\nname: a\ndescription: d\n---\nP\n");
    write(&root, "notes/readme.md", "# Notes\n");
    let notes = root.join("notes/readme.md");
    let mut ws = Workspace::load(&[p.clone(), notes.clone()], &Options::default()).unwrap();
    let id = ws.id(&notes).unwrap();
    assert_eq!(ws.files[id].role, Role::NotRead);
    ws.load_bundle(&p);
    assert_eq!(ws.id(&notes), Some(id));
    assert!(ws.id(&p.join("agents/a.md")).is_some());
}

#[test]
fn an_unclosed_frontmatter_counts_whole() {
    let kind = FileKind::Opencode(crate::analysis::opencode::FileKind::Agent {
        name: "reviewer".into(),
    });
    // Found by the LSP fuzzer: the opening `---` alone used to be all that counted, so a
    // `name` typed below it changed nothing the cross-file checks saw.
    assert_ne!(
        super::cross::content_key(&kind, "---\nname: a\n"),
        super::cross::content_key(&kind, "---\nname: b\n")
    );
    // A closed frontmatter: the body does not count, only whether there is one.
    assert_eq!(
        super::cross::content_key(&kind, "---\nmode: all\n---\nOne.\n"),
        super::cross::content_key(&kind, "---\nmode: all\n---\nTwo.\n")
    );
    assert_ne!(
        super::cross::content_key(&kind, "---\nmode: all\n---\n"),
        super::cross::content_key(&kind, "---\nmode: all\n---\nBody\n")
    );
}

#[test]
fn a_file_that_is_not_markdown_counts_whole_even_when_it_starts_with_a_fence() {
    // A config is JSON, a Claude Code settings file strict JSON: what follows a `---` line is
    // theirs too (no body to leave out).
    for kind in [
        FileKind::Opencode(crate::analysis::opencode::FileKind::Config),
        FileKind::from(crate::analysis::claude::settings::SettingsFile::Project),
    ] {
        assert_ne!(
            super::cross::content_key(&kind, "---\n{}\n---\nOne\n"),
            super::cross::content_key(&kind, "---\n{}\n---\nTwo\n"),
            "{kind:?}"
        );
    }
}

#[test]
fn a_skill_named_by_its_folder_is_a_duplicate_on_its_first_line() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    std::fs::create_dir(root.join(".git")).unwrap();
    write(
        root,
        ".claude/skills/x/SKILL.md",
        "---\nname: tdd\ndescription: d\n---\nBody\n",
    );
    // No `name`: Claude Code names the skill by its folder, `tdd` too.
    write(root, ".claude/skills/tdd/SKILL.md", "---\ndescription: d\n---\nBody\n");
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let mut spans: Vec<(String, String)> = ws
        .diagnostics()
        .into_iter()
        .filter(|(_, d)| d.code == Code::DuplicateSkill)
        .map(|(id, d)| {
            let f = &ws.files[id];
            let folder = f.path.parent().and_then(Path::file_name).unwrap_or_default();
            (folder.to_string_lossy().into_owned(), d.span.text(&f.text).to_string())
        })
        .collect();
    spans.sort();
    // On the `name` value where there is one, else on the file's first line.
    assert_eq!(spans, [("tdd".into(), "---".into()), ("x".into(), "tdd".into())]);
}

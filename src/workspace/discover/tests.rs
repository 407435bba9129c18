use super::*;

fn touch(root: &Path, rel: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, "---\ndescription: d\n---\n").unwrap();
}

fn rel(root: &Path, paths: &[PathBuf]) -> Vec<String> {
    paths
        .iter()
        .map(|p| p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/"))
        .collect()
}

#[test]
fn candidates_are_counted_up_to_just_past_the_limit() {
    let t = tempfile::tempdir().unwrap();
    let root = &fs::canonicalize(t.path()).unwrap();
    fs::create_dir_all(root.join(".git")).unwrap();
    fs::write(root.join(".gitignore"), "generated/\n").unwrap();
    for i in 0..8 {
        touch(root, &format!(".opencode/agents/a{i}.md"));
    }
    touch(root, "opencode.jsonc");
    touch(root, "src/main.rs");
    touch(root, "generated/x.md");
    touch(root, "node_modules/pkg/y.md");
    // 8 agents and the config; not the source file, nor what the walk skips.
    assert_eq!(count_candidates_past(root, 100), 9);
    assert_eq!(count_candidates_past(root, 9), 9);
    assert_eq!(count_candidates_past(root, 3), 4);
}

#[test]
fn the_walk_honours_git_ignore_rules_but_not_for_config_folders() {
    let t = tempfile::tempdir().unwrap();
    let root = &fs::canonicalize(t.path()).unwrap();
    fs::create_dir_all(root.join(".git")).unwrap();
    fs::write(
        root.join(".gitignore"),
        "generated/\n.opencode/\n.agents/\nnotes/agents/b.md\n",
    )
    .unwrap();
    touch(root, ".opencode/agents/a.md");
    // A folder only skills are read from (Agent Skills' `.agents/`) is read even when ignored.
    touch(root, ".agents/skills/tdd/SKILL.md");
    touch(root, ".opencode/opencode.json");
    touch(root, "generated/.claude/agents/g.md");
    touch(root, "generated/opencode.json");
    touch(root, "notes/agents/a.md");
    touch(root, "notes/agents/b.md");
    touch(root, "node_modules/pkg/.opencode/agents/n.md");
    touch(root, "pkg/opencode.json");
    touch(root, "pkg/.zuno/agents/z.md");
    let found = walk(root);
    // `generated/` is ignored, `.opencode/` too but read anyway; node_modules never.
    assert_eq!(
        rel(root, &found.configs),
        [".opencode/opencode.json", "pkg/opencode.json"]
    );
    assert_eq!(
        rel(root, &found.markdown),
        [
            ".agents/skills/tdd/SKILL.md",
            ".opencode/agents/a.md",
            "notes/agents/a.md",
            "pkg/.zuno/agents/z.md"
        ]
    );
    let folders: Vec<PathBuf> = found.folders.iter().map(|(_, d)| d.clone()).collect();
    assert_eq!(rel(root, &folders), [".opencode"]);
    // Outside a git repository `.gitignore` does not apply (as in ripgrep); `.ignore` does.
    fs::remove_dir_all(root.join(".git")).unwrap();
    assert!(rel(root, &walk(root).configs).contains(&"generated/opencode.json".to_string()));
    fs::write(root.join(".ignore"), "generated/\n").unwrap();
    assert!(!rel(root, &walk(root).configs).contains(&"generated/opencode.json".to_string()));
}

#[cfg(unix)]
#[test]
fn a_symlink_loop_is_entered_once() {
    let t = tempfile::tempdir().unwrap();
    let root = &fs::canonicalize(t.path()).unwrap();
    touch(root, "a/.opencode/agents/x.md");
    std::os::unix::fs::symlink(root.join("a"), root.join("a/loop")).unwrap();
    let found = walk(root);
    assert!(found.unreadable.is_empty(), "{:?}", found.unreadable);
    assert_eq!(rel(root, &found.markdown), ["a/.opencode/agents/x.md"]);
}

#[test]
fn a_skill_is_loaded_by_the_runtimes_whose_folder_holds_it_at_the_depth_they_read() {
    use crate::analysis::Dialect::{Claude, Codex, Gemini, Opencode, Zuno};
    // (path below the project `p`, the runtimes that load it, where it should go instead)
    let cases: &[(&str, &[crate::analysis::Dialect], Option<&str>)] = &[
        (".claude/skills/a/SKILL.md", &[Claude, Opencode], None),
        // Claude Code reads one level below `.claude/skills/`; opencode's glob reads any depth.
        (".claude/skills/group/a/SKILL.md", &[Opencode], None),
        (".opencode/skill/a/SKILL.md", &[Opencode], None),
        (".opencode/skills/group/a/SKILL.md", &[Opencode], None),
        // Gemini CLI reads one level below `.agents/skills/` and `.gemini/skills/`.
        (".agents/skills/a/SKILL.md", &[Opencode, Zuno, Codex, Gemini], None),
        (".gemini/skills/a/SKILL.md", &[Gemini], None),
        (".gemini/skills/SKILL.md", &[Gemini], None),
        (".claude/skills/SKILL.md", &[Opencode], None),
        (".gemini/skills/x/y/SKILL.md", &[], Some("`.gemini/skills/y/`")),
        (".gemini/agents/a/SKILL.md", &[], Some("`.gemini/skills/a/`")),
        (".agents/skills/group/a/SKILL.md", &[Opencode, Zuno, Codex], None),
        (".zuno/skills/x/y/SKILL.md", &[Zuno], None),
        (".codex/skills/x/y/SKILL.md", &[Codex], None),
        (".codex/prompts/a/SKILL.md", &[], Some("`.codex/skills/a/`")),
        (".claude/other/a/SKILL.md", &[], Some("`.claude/skills/a/`")),
        (".opencode/agents/a/SKILL.md", &[], Some("`.opencode/skills/a/`")),
    ];
    let root = Path::new("/p");
    for &(path, loaders, misplaced) in cases {
        let (kind, project) = crate::analysis::discovery::skill_kind(&root.join(path), Dialect::places())
            .unwrap_or_else(|| panic!("{path}: no skill"));
        assert_eq!(
            (kind.loaders.as_slice(), kind.misplaced.as_deref(), project.as_path()),
            (loaders, misplaced, root),
            "{path}"
        );
        assert_eq!(kind.folder, path.rsplit('/').nth(1).unwrap(), "{path}");
    }
    // Not a skill: another file name, or a `SKILL.md` outside the runtimes' folders.
    assert_eq!(
        crate::analysis::discovery::skill_kind(Path::new("/p/.claude/skills/a/README.md"), Dialect::places()),
        None
    );
    assert_eq!(
        crate::analysis::discovery::skill_kind(Path::new("/p/docs/a/SKILL.md"), Dialect::places()),
        None
    );
}

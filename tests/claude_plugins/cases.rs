//! Generated plugins and marketplaces: every manifest rule of `claude/plugin.rs` once, and the
//! discovery rules of `workspace/discover.rs` (default folders, sub-folders, custom paths,
//! skill folders in a commands folder, names from frontmatter, listing descriptions).

/// A generated plugin or marketplace: its folder name and its files.
pub struct Gen {
    pub dir: String,
    pub files: Vec<(String, String)>,
}

const AGENT: &str = "---\nname: a\ndescription: Agent a\n---\nBody\n";

fn base(name: &str) -> serde_json::Map<String, serde_json::Value> {
    let v = serde_json::json!({
        "name": name,
        "version": "1.0.0",
        "description": "A generated plugin",
        "author": {"name": "agent-lsp"}
    });
    v.as_object().cloned().unwrap_or_default()
}

/// A plugin `dir` whose manifest is the base with `fields` merged in (a `null` removes a
/// field), holding one agent (so that what loads shows whether the plugin did).
fn manifest(dir: &str, fields: serde_json::Value) -> Gen {
    let mut m = base(dir);
    for (k, v) in fields.as_object().cloned().unwrap_or_default() {
        if v.is_null() {
            m.remove(&k);
        } else {
            m.insert(k, v);
        }
    }
    raw(dir, &serde_json::to_string_pretty(&m).unwrap_or_default())
}

/// A plugin `dir` with a manifest written as is.
fn raw(dir: &str, text: &str) -> Gen {
    Gen {
        dir: dir.into(),
        files: vec![
            (".claude-plugin/plugin.json".into(), text.into()),
            ("agents/a.md".into(), AGENT.into()),
            ("hooks/h.json".into(), "{\"hooks\": {}}".into()),
            (
                "sk/s/SKILL.md".into(),
                "---\nname: s\ndescription: Skill s\n---\nBody\n".into(),
            ),
        ],
    }
}

pub fn plugins() -> Vec<Gen> {
    use serde_json::json;
    let mut out = vec![
        manifest("m-clean", json!({})),
        manifest(
            "m-full",
            json!({"homepage": "https://example.com", "repository": "https://github.com/o/r", "license": "MIT",
                   "keywords": ["a"], "agents": ["./agents/a.md"], "skills": "./sk", "hooks": "./hooks/h.json",
                   "mcpServers": {"s": {"command": "node"}}, "engines": {"claude-code": ">=2.1.0"}}),
        ),
        manifest("m-bare", json!({"version": null, "description": null, "author": null})),
        manifest("m-no-name", json!({"name": null})),
        manifest("m-name-number", json!({"name": 5})),
        manifest("m-name-empty", json!({"name": ""})),
        manifest("m-name-space", json!({"name": "m name space"})),
        manifest("m-name-caps", json!({"name": "MNameCaps"})),
        manifest("m-name-colon", json!({"name": "m:name-colon"})),
        manifest("m-name-dash", json!({"name": "-m-name-dash"})),
        manifest("m-name-underscore", json!({"name": "m_name_underscore"})),
        manifest("m-version-number", json!({"version": 1})),
        manifest("m-version-loose", json!({"version": "1.0"})),
        manifest("m-description-number", json!({"description": 5})),
        manifest("m-author-string", json!({"author": "Me"})),
        manifest("m-author-no-name", json!({"author": {"email": "me@example.com"}})),
        manifest("m-homepage", json!({"homepage": "example.com"})),
        manifest(
            "m-repository-object",
            json!({"repository": {"type": "git", "url": "https://x"}}),
        ),
        manifest("m-keywords-string", json!({"keywords": "a"})),
        manifest("m-keywords-numbers", json!({"keywords": [1, 2]})),
        manifest("m-license-number", json!({"license": 5})),
        manifest("m-unknown", json!({"nmae": "x", "foo": 1, "output-styles": "./s"})),
        manifest(
            "m-marketplace-fields",
            json!({"category": "dev", "tags": ["a"], "strict": true, "id": "x"}),
        ),
        manifest(
            "m-npm-fields",
            json!({"main": "index.js", "scripts": {}, "private": true}),
        ),
        manifest("m-capabilities", json!({"capabilities": []})),
        manifest("m-agents-folder", json!({"agents": "./agents"})),
        manifest("m-agents-no-dot", json!({"agents": "agents/a.md"})),
        manifest("m-agents-absolute", json!({"agents": "/etc/a.md"})),
        manifest("m-agents-number-item", json!({"agents": ["./agents/a.md", 5]})),
        manifest("m-agents-object", json!({"agents": {"a": "./agents/a.md"}})),
        manifest("m-agents-missing", json!({"agents": "./agents/nope.md"})),
        manifest("m-agents-up", json!({"agents": "./../a.md"})),
        manifest("m-commands-missing", json!({"commands": "./nope"})),
        manifest("m-commands-no-dot", json!({"commands": "commands"})),
        manifest(
            "m-commands-both",
            json!({"commands": {"c": {"source": "./agents/a.md", "content": "x"}}}),
        ),
        manifest("m-commands-neither", json!({"commands": {"c": {"description": "x"}}})),
        manifest("m-skills-file", json!({"skills": "./sk/s/SKILL.md"})),
        manifest("m-skills-no-dot", json!({"skills": "sk"})),
        manifest("m-skills-missing", json!({"skills": ["./sk", "./nope"]})),
        manifest("m-hooks-txt", json!({"hooks": "./hooks/h.txt"})),
        manifest("m-hooks-missing", json!({"hooks": "./nope.json"})),
        manifest("m-hooks-event", json!({"hooks": {"PreToolUze": []}})),
        manifest("m-hooks-shape", json!({"hooks": {"Stop": "x"}})),
        manifest(
            "m-hooks-type",
            json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "nope"}]}]}}),
        ),
        manifest("m-mcp-bad", json!({"mcpServers": {"s": {"cmd": "x"}}})),
        manifest("m-mcp-missing", json!({"mcpServers": "./nope.json"})),
        manifest("m-mcp-no-dot", json!({"mcpServers": "mcp.json"})),
        manifest("m-lsp-bad", json!({"lspServers": {"go": {"command": "gopls"}}})),
        manifest("m-default-enabled", json!({"defaultEnabled": 1})),
        manifest("m-dependencies", json!({"dependencies": "x"})),
        manifest("m-settings", json!({"settings": []})),
        manifest("m-user-config", json!({"userConfig": {"k": {"type": "nope"}}})),
        manifest("m-channels", json!({"channels": ["x"]})),
        manifest("m-engines-string", json!({"engines": "x"})),
        manifest("m-engines-range", json!({"engines": {"claude-code": "latest"}})),
        manifest("m-experimental", json!({"experimental": {"monitor": 1}})),
        manifest("m-themes", json!({"themes": 5})),
        manifest("m-schema-display", json!({"$schema": 5, "displayName": 5, "icon": 5})),
        raw(
            "m-comment",
            "{\n  // a comment\n  \"name\": \"m-comment\",\n  \"version\": \"1.0.0\",\n  \"description\": \"d\",\n  \"author\": {\"name\": \"a\"}\n}\n",
        ),
        raw(
            "m-trailing-comma",
            "{\"name\": \"m-trailing-comma\", \"version\": \"1.0.0\", \"description\": \"d\", \"author\": {\"name\": \"a\"},}\n",
        ),
        raw("m-array", "[]\n"),
        raw(
            "m-duplicate-key",
            "{\"name\": \"x\", \"name\": \"m-duplicate-key\", \"version\": \"1.0.0\", \"description\": \"d\", \"author\": {\"name\": \"a\"}}\n",
        ),
    ];
    out.extend(discovery());
    out
}

fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect()
}

fn with_manifest(dir: &str, fields: serde_json::Value, list: &[(&str, &str)]) -> Gen {
    let mut m = base(dir);
    for (k, v) in fields.as_object().cloned().unwrap_or_default() {
        m.insert(k, v);
    }
    let mut f = vec![(
        ".claude-plugin/plugin.json".to_string(),
        serde_json::to_string_pretty(&m).unwrap_or_default(),
    )];
    f.extend(files(list));
    Gen {
        dir: dir.into(),
        files: f,
    }
}

/// Plugins for what loads and under which names.
fn discovery() -> Vec<Gen> {
    use serde_json::json;
    let skill = |name: &str, d: &str| format!("---\nname: {name}\ndescription: {d}\n---\nBody\n");
    let cmd = |d: &str| format!("---\ndescription: {d}\n---\nBody\n");
    let agent = |name: &str, d: &str| format!("---\nname: {name}\ndescription: {d}\n---\nBody\n");
    let layout = with_manifest(
        "d-layout",
        json!({}),
        &[
            ("agents/plain.md", &agent("plain", "Plain agent")),
            ("agents/sub/file.md", &agent("other", "Named in a sub-folder")),
            (
                "agents/deep/er/noname.md",
                "---\ndescription: No name, deep\n---\nBody\n",
            ),
            ("agents/.hidden/h.md", &agent("h", "In a hidden folder")),
            (
                "agents/broken.md",
                "---\nname: broken\ndescription: [unclosed\n  x: y\n---\nBody\n",
            ),
            ("agents/readme.txt", "not an agent"),
            ("commands/plain.md", &cmd("Plain command")),
            (
                "commands/sub/named.md",
                "---\nname: renamed\ndescription: Renamed in a sub-folder\n---\nBody\n",
            ),
            ("commands/nofm.md", "First line of the body\nsecond\n"),
            ("commands/.hidden/h.md", &cmd("Hidden folder command")),
            (
                "commands/sk/SKILL.md",
                &skill("in-commands", "A skill in the commands folder"),
            ),
            ("commands/sk/ref.md", &cmd("Beside a skill: not a command")),
            (
                "commands/deep/sk2/SKILL.md",
                "---\ndescription: Nested skill in commands\n---\nBody\n",
            ),
            ("commands/same.md", &cmd("Command that shadows a skill")),
            ("skills/same/SKILL.md", &skill("same", "Skill shadowed by a command")),
            (
                "skills/folder/SKILL.md",
                &skill("named", "Skill named otherwise than its folder"),
            ),
            ("skills/nofm/SKILL.md", "A skill without frontmatter\n"),
            (
                "skills/noname/SKILL.md",
                "---\ndescription: Skill without name\n---\nBody\n",
            ),
            ("skills/a/b/SKILL.md", &skill("b", "Too deep: not loaded")),
            ("skills/x/other.md", &cmd("Beside a skill: nothing")),
            (
                "skills/lower/skill.md",
                &skill("lower", "Lower-case skill.md: not loaded"),
            ),
            ("SKILL.md", &skill("root", "A SKILL.md at the plugin root: not loaded")),
        ],
    );
    let custom = with_manifest(
        "d-custom",
        json!({"agents": ["./extra/x.md", "./agents/kept.md"], "commands": ["./cmds", "./one.md", "./cmdskill"], "skills": ["./sk", "./single"]}),
        &[
            ("agents/kept.md", &agent("kept", "Listed in agents")),
            ("agents/left.md", &agent("left", "Left out by agents")),
            ("extra/x.md", &agent("x", "A custom agent file")),
            ("commands/dc.md", &cmd("Default folder, replaced")),
            ("cmds/cc.md", &cmd("Custom command folder")),
            ("cmds/sub/cs.md", &cmd("Custom command folder, sub-folder")),
            ("one.md", &cmd("One command file")),
            (
                "cmdskill/SKILL.md",
                &skill("cmdskill", "A skill folder given as a commands path"),
            ),
            ("skills/ds/SKILL.md", &skill("ds", "Default skills folder, kept")),
            ("sk/cs/SKILL.md", &skill("cs", "Custom skills folder")),
            (
                "single/SKILL.md",
                &skill("single", "A skill folder given as a skills path"),
            ),
        ],
    );
    let named = with_manifest(
        "d-named",
        json!({"commands": {"about": {"source": "./one.md"}, "inline": {"content": "Say hi", "description": "Inline"}}}),
        &[
            ("one.md", &cmd("Named by the manifest")),
            ("commands/dc.md", &cmd("Replaced")),
        ],
    );
    let listing = with_manifest(
        "d-listing",
        json!({}),
        &[
            (
                "commands/c1.md",
                "---\nallowed-tools: Read\n---\n\n# Title here\nBody line\n",
            ),
            ("commands/c2.md", "---\n---\nline one\nline two\n"),
            ("commands/c3.md", "---\nargument-hint: [focus-area]\n---\nb\n"),
            (
                "commands/c4.md",
                "---\nargument-hint: [message] [--amend]\ndescription: amend\n---\nb\n",
            ),
            ("commands/c5.md", "---\ndescription: 42\n---\nb\n"),
            ("commands/c6.md", "---\ndescription: [a, b]\n---\nb\n"),
            ("commands/c7.md", ""),
            ("commands/c8.md", "---\ndescription: \"\"\n---\nfallback\n"),
            ("commands/c9.md", "## Heading two\n"),
            ("commands/c10.md", "<!-- comment -->\n"),
            ("commands/c11.md", "---\ndescription: |\n  multi\n  line\n---\nb\n"),
            ("commands/c12.md", &"x".repeat(300)),
            ("commands/c13.md", "---\nargument-hint:\n  - a\n  - b c\n---\nb\n"),
            ("commands/c14.md", "---\nname: 5\ndescription: Number name\n---\nb\n"),
            (
                "commands/c15.md",
                "---\ndescription: a: b: c\n  - x\n---\nBody of a broken one\n",
            ),
            (
                "commands/c16.md",
                "---\ndescription: \"  padded  \"\nwhen_to_use: later\n---\nb\n",
            ),
            ("skills/s1/SKILL.md", "---\nname: s1\n---\n\n# Skill title\n"),
            ("skills/s2/SKILL.md", ""),
            (
                "skills/s3/SKILL.md",
                "---\nname: s3\nargument-hint: [x]\ndescription: d\n---\nb\n",
            ),
            // Not valid YAML: loaded through the retry, which quotes the value (a real plugin
            // skill has this shape, with 1,100 characters of description).
            (
                "skills/s4/SKILL.md",
                "---\nname: s4\ndescription: Use this when: the user asks\n---\nb\n",
            ),
            (
                "skills/s5/SKILL.md",
                &format!(
                    "---\nname: s5\ndescription: Use this skill when: {}\n---\nb\n",
                    "the user asks for release notes. ".repeat(33)
                ),
            ),
        ],
    );
    vec![layout, custom, named, listing]
}

/// A marketplace `dir`: `marketplace.json` as given, and two plugins it may point to.
fn market(dir: &str, text: &str) -> Gen {
    Gen {
        dir: dir.into(),
        files: files(&[
            (".claude-plugin/marketplace.json", text),
            (
                "plugins/a/.claude-plugin/plugin.json",
                "{\"name\": \"a\", \"version\": \"1.0.0\", \"description\": \"d\", \"author\": {\"name\": \"x\"}}",
            ),
            (
                "plugins/b/.claude-plugin/plugin.json",
                "{\"name\": \"b\", \"version\": \"1.0.0\", \"description\": \"d\", \"author\": {\"name\": \"x\"}}",
            ),
        ]),
    }
}

pub fn marketplaces() -> Vec<Gen> {
    use serde_json::json;
    let with = |fields: serde_json::Value, plugins: serde_json::Value| {
        let mut m = json!({"name": "mkt", "owner": {"name": "o"}, "plugins": plugins});
        for (k, v) in fields.as_object().cloned().unwrap_or_default() {
            if v.is_null() {
                m.as_object_mut().map(|o| o.remove(&k));
            } else {
                m[k] = v;
            }
        }
        serde_json::to_string_pretty(&m).unwrap_or_default()
    };
    let ok = json!([{"name": "a", "source": "./plugins/a", "description": "d"}]);
    vec![
        market("k-clean", &with(json!({}), ok.clone())),
        market(
            "k-sources",
            &with(
                json!({}),
                json!([
                    {"name": "a", "source": "./plugins/a", "category": "dev", "tags": ["x"], "strict": false},
                    {"name": "gh", "source": {"source": "github", "repo": "o/r"}},
                    {"name": "url", "source": {"source": "url", "url": "https://example.com/r.git"}},
                    {"name": "sub", "source": {"source": "git-subdir", "url": "https://example.com/r.git", "path": "x"}},
                    {"name": "npm", "source": {"source": "npm", "package": "x"}}
                ]),
            ),
        ),
        market("k-no-name", &with(json!({"name": null}), ok.clone())),
        market("k-name-space", &with(json!({"name": "my mkt"}), ok.clone())),
        market("k-name-colon", &with(json!({"name": "a:b"}), ok.clone())),
        market("k-name-caps", &with(json!({"name": "MyMkt"}), ok.clone())),
        market("k-owner-string", &with(json!({"owner": "o"}), ok.clone())),
        market("k-owner-no-name", &with(json!({"owner": {"email": "x"}}), ok.clone())),
        market("k-no-plugins", &with(json!({"plugins": null}), ok.clone())),
        market("k-plugins-object", &with(json!({"plugins": {}}), ok.clone())),
        market("k-plugins-empty", &with(json!({}), json!([]))),
        market("k-unknown", &with(json!({"foo": 1, "plugns": []}), ok.clone())),
        market(
            "k-metadata",
            &with(
                json!({"metadata": {"pluginRoot": "./plugins", "foo": 1}}),
                json!([{"name": "a", "source": "a"}]),
            ),
        ),
        market("k-metadata-string", &with(json!({"metadata": "x"}), ok.clone())),
        market(
            "k-entries",
            &with(
                json!({}),
                json!([
                    {"name": "a b", "source": "./plugins/a"},
                    {"name": "nodot", "source": "plugins/a"},
                    {"name": "up", "source": "./../a"},
                    {"name": "zip", "source": {"source": "zip"}},
                    {"name": "norepo", "source": {"source": "github"}},
                    {"name": "author", "source": "./plugins/a", "author": "x"},
                    {"name": "home", "source": "./plugins/a", "homepage": "x"},
                    {"name": "typo", "source": "./plugins/a", "descripton": "x", "icon": "./i.png"},
                    {"name": "strict", "source": "./plugins/a", "strict": "no"},
                    {"name": "tags", "source": "./plugins/a", "tags": "x"},
                    {"source": "./plugins/a"},
                    {"name": "nosource"},
                    5
                ]),
            ),
        ),
        market(
            "k-entry-names",
            &with(
                json!({}),
                json!([{"name": "a:b", "source": "./plugins/a"}, {"name": "C", "source": "./plugins/b"}]),
            ),
        ),
        market(
            "k-duplicates",
            &with(
                json!({}),
                json!([{"name": "a", "source": "./plugins/a"}, {"name": "a", "source": "./plugins/b"}]),
            ),
        ),
        market(
            "k-trailing-comma",
            "{\"name\": \"m\", \"owner\": {\"name\": \"o\"}, \"plugins\": [],}\n",
        ),
        market("k-array", "[]\n"),
    ]
}

use super::*;
use expect_test::{Expect, expect};

/// Each diagnostic as `severity code effect [text]: message`.
fn run(kind: Manifest, text: &str) -> String {
    let (d, _, _) = analyze(kind, text);
    d.iter()
        .map(|d| {
            format!(
                "{} {} {} [{}]: {}\n",
                d.severity.as_str(),
                d.code.as_str(),
                d.effect.as_str(),
                d.span.text(text),
                d.message
            )
        })
        .collect()
}

fn check(kind: Manifest, text: &str, want: Expect) {
    want.assert_eq(&run(kind, text));
}

const OK: &str = r#""version": "1.0.0", "description": "d", "author": {"name": "a"}"#;

fn plugin(extra: &str) -> String {
    format!(
        "{{\"name\": \"p\", {OK}{}{extra}}}",
        if extra.is_empty() { "" } else { ", " }
    )
}

#[test]
fn a_complete_manifest_is_clean() {
    check(Manifest::Plugin, &plugin(""), expect![""]);
    check(
        Manifest::Plugin,
        &plugin(
            r#""homepage": "https://x.dev", "repository": "https://github.com/a/b", "license": "MIT", "keywords": ["a"], "agents": ["./agents/a.md"], "commands": "./cmds", "skills": "./extra", "hooks": "./hooks/hooks.json", "mcpServers": {"s": {"command": "node"}}, "lspServers": {"go": {"command": "gopls", "extensionToLanguage": {".go": "go"}}}, "engines": {"claude-code": ">=2.1.0"}, "$schema": "x""#,
        ),
        expect![""],
    );
}

#[test]
fn the_name_as_the_validator_and_loader_judge_it() {
    check(
        Manifest::Plugin,
        &format!("{{{OK}}}"),
        expect![[r#"
                error missing-field file-ignored [{]: `name` is missing (the plugin's name is required): Claude Code does not load the plugin
            "#]],
    );
    check(
        Manifest::Plugin,
        &format!("{{\"name\": 5, {OK}}}"),
        expect![[r#"
                error invalid-type file-ignored [5]: `name` must be a string, not a number: Claude Code does not load the plugin
            "#]],
    );
    check(
        Manifest::Plugin,
        &format!("{{\"name\": \"my plugin\", {OK}}}"),
        expect![[r#"
                error invalid-value file-ignored ["my plugin"]: the plugin's `name` `my plugin` contains a space (use kebab-case, e.g. `my-plugin`): Claude Code does not load the plugin
            "#]],
    );
    check(
        Manifest::Plugin,
        &format!("{{\"name\": \"MyPlugin\", {OK}}}"),
        expect![[r#"
                warning invalid-name works-but-risky ["MyPlugin"]: the plugin name `MyPlugin` is not kebab-case (lowercase letters, digits and single hyphens): Claude Code accepts it, but the Claude.ai marketplace sync requires kebab-case
            "#]],
    );
    check(
        Manifest::Plugin,
        &format!("{{\"name\": \"a:b\", {OK}}}"),
        expect![[r#"
                warning invalid-name file-ignored ["a:b"]: the plugin name `a:b` is not kebab-case (lowercase letters, digits and single hyphens): Claude Code refuses a plugin with this name when it is loaded by path (`--plugin-dir`) and cannot install it from a marketplace that lists it under this name
            "#]],
    );
    check(
        Manifest::Plugin,
        &format!("{{\"name\": \"-ab\", {OK}}}"),
        expect![[r#"
                warning invalid-name works-but-risky ["-ab"]: the plugin name `-ab` is not kebab-case (lowercase letters, digits and single hyphens): Claude Code loads it by path, but cannot install it from a marketplace that lists it under this name
            "#]],
    );
    // Names that pass as Anthropic's own: reserved (an error of the validator only; the
    // plugin loads), or holding the word (a warning).
    for (name, want) in [
        ("claude-tools", Some(true)),
        ("Claude_Code", Some(true)),
        ("claudecode", Some(true)),
        ("my-official-claude", Some(true)),
        ("cc-plugin-x", Some(true)),
        ("anthropics", Some(true)),
        ("my-claude", Some(false)),
        ("official-x-anthropic", Some(false)),
        ("claudeish", None),
        ("xclaude", None),
    ] {
        assert_eq!(reserved(name), want, "{name}");
    }
    check(
        Manifest::Plugin,
        &format!("{{\"name\": \"claude-tools\", {OK}}}"),
        expect![[r#"
                error invalid-name works-but-risky ["claude-tools"]: the plugin name `claude-tools` is reserved for Anthropic's own plugins (no third-party name starts with `claude-`, `anthropic-` or `cc-plugin-`, is `claude`, `claude-code`, `anthropic`, or puts `official` beside `claude` or `anthropic`): `claude plugin validate` rejects it
            "#]],
    );
    check(
        Manifest::Plugin,
        &format!("{{\"name\": \"my-claude\", {OK}}}"),
        expect![[r#"
                warning invalid-name works-but-risky ["my-claude"]: the plugin name `my-claude` reads as one of Anthropic's own (it holds the word `claude` or `anthropic`): name it for what it does; `claude plugin validate` warns
            "#]],
    );
    let (d, _, _) = analyze(Manifest::Plugin, &format!("{{\"name\": \"MyPlugin\", {OK}}}"));
    assert_eq!(d[0].suggestion().map(|e| e.text.as_str()), Some("\"my-plugin\""));
    for ok in ["a", "my-plugin", "1ab", "a1-b2"] {
        check(Manifest::Plugin, &format!("{{\"name\": \"{ok}\", {OK}}}"), expect![""]);
    }
}

#[test]
fn missing_metadata_is_a_warning_on_the_brace() {
    check(
        Manifest::Plugin,
        r#"{"name": "p"}"#,
        expect![[r#"
                warning missing-field works-but-risky [{]: `version` is missing. No version specified (e.g. `"1.0.0"`); `claude plugin validate` warns, Claude Code loads the plugin
                warning missing-field works-but-risky [{]: `description` is missing. No description: it tells users what the plugin does; `claude plugin validate` warns, Claude Code loads the plugin
                warning missing-field works-but-risky [{]: `author` is missing. No author (`{"name": ...}`), for attribution; `claude plugin validate` warns, Claude Code loads the plugin
            "#]],
    );
}

#[test]
fn the_advice_waits_for_the_schema() {
    // Like the validator: no advice on missing fields while the file breaks the schema.
    check(
        Manifest::Plugin,
        r#"{"name": 5}"#,
        expect![[r#"
                error invalid-type file-ignored [5]: `name` must be a string, not a number: Claude Code does not load the plugin
            "#]],
    );
    check(
        Manifest::Marketplace,
        r#"{"name": "m", "owner": {"name": "o"}, "plugins": [{"name": "a", "source": "./a", "author": "x"}]}"#,
        expect![[r#"
                error invalid-type fails-when-used ["x"]: `author` must be an object such as `{"name": "...", "email": "..."}`, not a string: the marketplace loads, but Claude Code cannot install this plugin
            "#]],
    );
}

#[test]
fn descriptive_fields_are_the_validators_alone() {
    check(
        Manifest::Plugin,
        r#"{"name": "p", "version": "1.0.0", "description": 5, "author": "Me", "homepage": "x.y", "repository": {"url": "x"}, "keywords": "a", "license": 1}"#,
        expect![[r#"
                error invalid-type works-but-risky [5]: `description` must be a string, not a number: `claude plugin validate` rejects it, though Claude Code loads the plugin
                error invalid-type works-but-risky ["Me"]: `author` must be an object such as `{"name": "...", "email": "..."}`, not a string: `claude plugin validate` rejects it, though Claude Code loads the plugin
                error invalid-value works-but-risky ["x.y"]: `homepage` is not a URL (`https://...`): `claude plugin validate` rejects it, though Claude Code loads the plugin
                error invalid-type works-but-risky [{"url": "x"}]: `repository` must be a string, not an object: `claude plugin validate` rejects it, though Claude Code loads the plugin
                error invalid-type works-but-risky ["a"]: `keywords` must be a list of strings, not a string: `claude plugin validate` rejects it, though Claude Code loads the plugin
                error invalid-type works-but-risky [1]: `license` must be a string, not a number: `claude plugin validate` rejects it, though Claude Code loads the plugin
            "#]],
    );
    check(
        Manifest::Plugin,
        &plugin(r#""author": {"email": "x"}"#).replace(r#""author": {"name": "a"}, "#, ""),
        expect![[r#"
                error missing-field works-but-risky [{]: `author.name` is missing: `claude plugin validate` rejects it, though Claude Code loads the plugin
            "#]],
    );
    check(
        Manifest::Plugin,
        &plugin(r#""version": 1"#).replace(r#""version": "1.0.0", "#, ""),
        expect![[r#"
                error invalid-type file-ignored [1]: `version` must be a string, not a number: Claude Code does not load the plugin
            "#]],
    );
}

#[test]
fn component_paths() {
    check(
        Manifest::Plugin,
        &plugin(r#""agents": "./agents""#),
        expect![[r#"
                error invalid-value file-ignored ["./agents"]: `./agents` must end with `.md` (`agents` lists agent files, not a folder: list each file, or leave `agents` out to read `agents/`): Claude Code does not load the plugin
            "#]],
    );
    check(
        Manifest::Plugin,
        &plugin(r#""agents": ["./a.md", "b.md", 5], "skills": "/abs", "commands": "./../up", "hooks": "./h.txt""#),
        expect![[r#"
                error invalid-value file-ignored ["b.md"]: `b.md` must start with `./` (paths are relative to the plugin root): Claude Code does not load the plugin
                error invalid-type file-ignored [5]: the paths of `agents` must be strings, not a number: Claude Code does not load the plugin
                error invalid-value file-ignored ["/abs"]: `/abs` must start with `./` (paths are relative to the plugin root): Claude Code does not load the plugin
                error invalid-value value-ignored ["./../up"]: `./../up` contains `..`: `claude plugin validate` rejects it, and Claude Code skips a path that leaves the plugin's folder
                error invalid-value file-ignored ["./h.txt"]: `./h.txt` must end with `.json`: Claude Code does not load the plugin
            "#]],
    );
    check(
        Manifest::Plugin,
        &plugin(
            r#""agents": {"x": "./a.md"}, "commands": {"a": {"source": "./a.md", "content": "x"}, "b": {"description": "d"}}"#,
        ),
        expect![[r#"
                error invalid-type file-ignored [{"x": "./a.md"}]: `agents` must be a `./` path or a list of them, not an object: Claude Code does not load the plugin
                error invalid-value file-ignored ["a"]: the command `a` must have either `source` (a file) or `content` (inline Markdown), not both or neither: Claude Code does not load the plugin
                error invalid-value file-ignored ["b"]: the command `b` must have either `source` (a file) or `content` (inline Markdown), not both or neither: Claude Code does not load the plugin
            "#]],
    );
    let (_, _, f) = analyze(
        Manifest::Plugin,
        &plugin(
            r#""agents": ["./x/a.md"], "commands": ["./cmds/", "./one.md"], "skills": ["./sk"], "outputStyles": ["./styles/", "./one-style.md"]"#,
        ),
    );
    assert_eq!(
        f.layout,
        Layout {
            agents: Some(vec!["x/a.md".into()]),
            commands: Some(vec![
                CommandSource::Path("cmds".into()),
                CommandSource::Path("one.md".into())
            ]),
            skills: vec!["sk".into()],
            output_styles: vec!["styles".into(), "one-style.md".into()],
            ..Layout::default()
        }
    );
    let paths: Vec<(&str, &str, Want)> = f.paths.iter().map(|p| (p.field, p.path.as_str(), p.want)).collect();
    assert_eq!(
        paths,
        [
            ("agents", "./x/a.md", Want::File),
            ("commands", "./cmds/", Want::Any),
            ("commands", "./one.md", Want::Any),
            ("skills", "./sk", Want::Dir),
            ("outputStyles", "./styles/", Want::Any),
            ("outputStyles", "./one-style.md", Want::Any)
        ]
    );
    // An invalid entry: the default folder is read (the layout stays unset).
    let (_, _, f) = analyze(Manifest::Plugin, &plugin(r#""agents": "./agents""#));
    assert_eq!(f.layout.agents, None);
    let (_, _, f) = analyze(
        Manifest::Plugin,
        &plugin(r#""commands": {"about": {"source": "./one.md", "description": "d"}, "hi": {"content": "x"}}"#),
    );
    assert_eq!(
        f.layout.commands,
        Some(vec![CommandSource::Named {
            name: "about".into(),
            source: "one.md".into()
        }])
    );
}

#[test]
fn unknown_and_misplaced_fields() {
    check(
        Manifest::Plugin,
        &plugin(
            r#""nmae": "x", "category": "dev", "tags": ["a"], "main": "i.js", "capabilities": [], "themes": "./t", "foo": 1"#,
        ),
        expect![[r#"
                warning unknown-key value-ignored ["nmae"]: unknown field `nmae`: Claude Code ignores it at load time. Did you mean `name`?
                warning unknown-key value-ignored ["category"]: `category` belongs in the plugin's entry in `marketplace.json`, not in `plugin.json`: Claude Code ignores it at load time
                warning unknown-key value-ignored ["tags"]: `tags` belongs in the plugin's entry in `marketplace.json`, not in `plugin.json`: Claude Code ignores it at load time
                warning unknown-key value-ignored ["main"]: unknown field `main` (an npm `package.json` field): Claude Code ignores it at load time.
                warning deprecated-field value-ignored ["capabilities"]: `capabilities` is no longer read (what a hooks module uses is read from its source): delete it
                warning deprecated-field works-but-risky ["themes"]: `themes` is experimental: declare it under `experimental.themes`; Claude Code still reads it at the top level, but a future release will not
                warning unknown-key value-ignored ["foo"]: unknown field `foo`: Claude Code ignores it at load time.
            "#]],
    );
    let (d, _, _) = analyze(Manifest::Plugin, &plugin(r#""nmae": "x""#));
    assert_eq!(d[0].suggestion().map(|e| e.text.as_str()), Some("\"name\""));
}

#[test]
fn structure_fields() {
    check(
        Manifest::Plugin,
        &plugin(
            r#""defaultEnabled": 1, "dependencies": "x", "settings": [], "engines": "x", "experimental": {"monitor": 1}, "userConfig": {"k": {"type": "nope"}}, "channels": ["x"]"#,
        ),
        expect![[r#"
                error invalid-type file-ignored [1]: `defaultEnabled` must be `true` or `false`, not a number: Claude Code does not load the plugin
                error invalid-type file-ignored ["x"]: `dependencies` must be a list, not a string: Claude Code does not load the plugin
                error invalid-type file-ignored [[]]: `settings` must be an object, not a list: Claude Code does not load the plugin
                warning invalid-type value-ignored ["x"]: `engines` must be an object such as `{"claude-code": ">=2.1.0"}`, not a string: Claude Code ignores it
                warning unknown-key value-ignored ["monitor"]: unknown experimental component `monitor`: Claude Code ignores it. Did you mean `monitors`?
                error missing-field file-ignored [{]: the option `k` has no `title`: Claude Code does not load the plugin
                error missing-field file-ignored [{]: the option `k` has no `description`: Claude Code does not load the plugin
                error invalid-value file-ignored ["nope"]: the `type` of option `k` must be one of `string`, `number`, `boolean`, `directory`, `file`, not "nope": Claude Code does not load the plugin
                error invalid-type file-ignored ["x"]: a channel must be an object with `server`, not a string: Claude Code does not load the plugin
            "#]],
    );
    check(
        Manifest::Plugin,
        &plugin(
            r#""hooks": {"PreToolUze": [], "Stop": "x", "SubagentStop": ["y"], "PreToolUse": [{"hooks": [{"type": "nope"}]}]}, "mcpServers": {"s": {"cmd": "x"}}, "engines": {"claude-code": "latest"}"#,
        ),
        expect![[r#"
            warning unknown-key value-ignored ["PreToolUze"]: `PreToolUze` is no hook event: Claude Code ignores its hooks. Did you mean `PreToolUse`?
            warning invalid-type value-ignored ["x"]: `Stop` must be a list of matchers, not a string: Claude Code ignores this `Stop` entry
            warning invalid-type value-ignored ["y"]: a matcher of `SubagentStop` must be an object, not a string: Claude Code ignores this `SubagentStop` entry
            error invalid-value file-ignored ["nope"]: `nope` is no hook type (one of `command`, `prompt`, `agent`, `http`, `mcp_tool`): Claude Code does not load the plugin
            error missing-field file-ignored ["s"]: the server `s` of `mcpServers` needs a `command` (or a `url`): Claude Code does not load the plugin
            error invalid-value works-but-risky ["latest"]: `engines.claude-code` must be a version range such as `">=2.1.0"`, not "latest"; Claude Code ignores it: `claude plugin validate` rejects it, though Claude Code loads the plugin
        "#]],
    );
}

#[test]
fn strict_json_and_broken_files() {
    check(
        Manifest::Plugin,
        "{\"name\": \"p\", // c\n\"version\": \"1.0.0\", \"description\": \"d\", \"author\": {\"name\": \"a\",},}",
        expect![[r#"
                error syntax-error file-ignored [// c]: a comment (the file is read as strict JSON): Claude Code cannot parse the manifest and does not load the plugin
                error syntax-error file-ignored [,]: a trailing comma (the file is read as strict JSON): Claude Code cannot parse the manifest and does not load the plugin
                error syntax-error file-ignored [,]: a trailing comma (the file is read as strict JSON): Claude Code cannot parse the manifest and does not load the plugin
            "#]],
    );
    check(
        Manifest::Plugin,
        "[]",
        expect![[r#"
                error invalid-type file-ignored [[]]: the manifest must be a JSON object, not a list: Claude Code does not load the plugin
            "#]],
    );
    // A comma inside a string, and `//` in a URL, are not strict-JSON problems.
    check(
        Manifest::Plugin,
        &plugin(r#""homepage": "https://x.dev/a,}""#),
        expect![""],
    );
    // Whatever the input, no panic.
    for t in ["", "{", "{\"name\":", "\"", "{\"agents\": [", "/*", "{\"a\":1,"] {
        analyze(Manifest::Plugin, t);
        analyze(Manifest::Marketplace, t);
        complete(Manifest::Plugin, t, t.len());
        complete(Manifest::Marketplace, t, t.len());
    }
}

const MKT: &str = r#""name": "m", "description": "d", "owner": {"name": "o""#;

fn marketplace(plugins: &str) -> String {
    format!("{{{MKT}}}, \"plugins\": [{plugins}]}}")
}

#[test]
fn marketplaces() {
    check(
        Manifest::Marketplace,
        &marketplace(
            r#"{"name": "a", "source": "./plugins/a", "description": "d", "category": "dev", "tags": ["x"], "strict": false, "version": "1.0.0"}, {"name": "b", "source": {"source": "github", "repo": "o/b"}}"#,
        ),
        expect![""],
    );
    check(
        Manifest::Marketplace,
        r#"{"plugins": {}, "owner": "o", "plugns": []}"#,
        expect![[r#"
                error missing-field file-ignored [{]: `name` is missing (the marketplace's name is required): Claude Code cannot add the marketplace
                error invalid-type file-ignored [{}]: `plugins` must be a list of plugin entries, not an object: Claude Code cannot add the marketplace
                error invalid-type file-ignored ["o"]: `owner` must be an object such as `{"name": "...", "email": "..."}`, not a string: Claude Code cannot add the marketplace
                warning unknown-key value-ignored ["plugns"]: unknown field `plugns`: Claude Code ignores it at load time. Did you mean `plugins`?
            "#]],
    );
    check(
        Manifest::Marketplace,
        &marketplace(
            r#"{"name": "a b", "source": "plugins/a"}, {"source": {"source": "zip"}}, {"name": "c", "source": "./../c", "author": "x", "descripton": "d"}, {"name": "d", "source": {"source": "github"}}, 5"#,
        ),
        expect![[r#"
                error invalid-value fails-when-used ["a b"]: the plugin's `name` `a b` contains a space (use kebab-case, e.g. `my-plugin`): the marketplace loads, but Claude Code cannot install this plugin
                error invalid-value fails-when-used ["plugins/a"]: the source `plugins/a` must start with `./` (relative to the marketplace root): the marketplace loads, but Claude Code cannot install this plugin
                error missing-field fails-when-used [{]: `name` is missing from this plugin entry: the marketplace loads, but Claude Code cannot install this plugin
                error invalid-value fails-when-used ["zip"]: `zip` is no source type (one of `github`, `url`, `git-subdir`, `npm`).: the marketplace loads, but Claude Code cannot install this plugin
                error invalid-value fails-when-used ["./../c"]: the source `./../c` contains `..`: sources are relative to the marketplace root (the folder holding `.claude-plugin/`), not to `marketplace.json`: the marketplace loads, but Claude Code cannot install this plugin
                error invalid-type fails-when-used ["x"]: `author` must be an object such as `{"name": "...", "email": "..."}`, not a string: the marketplace loads, but Claude Code cannot install this plugin
                warning unknown-key value-ignored ["descripton"]: unknown field `descripton`: Claude Code ignores it in a marketplace entry. Did you mean `description`?
                error missing-field fails-when-used [{]: a `github` source needs a string `repo`: the marketplace loads, but Claude Code cannot install this plugin
                error invalid-type fails-when-used [5]: a plugin entry must be an object with `name` and `source`, not a number: the marketplace loads, but Claude Code cannot install this plugin
            "#]],
    );
    check(
        Manifest::Marketplace,
        &marketplace(r#"{"name": "a", "source": "./a"}, {"name": "a", "source": "./b"}"#),
        expect![[r#"
                error invalid-value value-ignored ["a"]: the plugin name `a` appears 2 times in this marketplace: `claude plugin validate` rejects it, and `a@...` installs only one of them
                error invalid-value value-ignored ["a"]: the plugin name `a` appears 2 times in this marketplace: `claude plugin validate` rejects it, and `a@...` installs only one of them
            "#]],
    );
    check(
        Manifest::Marketplace,
        &marketplace(""),
        expect![[r#"
                warning missing-field works-but-risky [[]]: `plugins` is empty: the marketplace offers no plugin
            "#]],
    );
    let (_, _, f) = analyze(
        Manifest::Marketplace,
        &marketplace(
            r#"{"name": "a", "source": "./plugins/a"}, {"name": "b", "source": {"source": "npm", "package": "b"}}"#,
        ),
    );
    let entries: Vec<(&str, Option<&str>)> = f
        .entries
        .iter()
        .map(|(n, s)| (n.as_str(), s.as_ref().map(|(p, _)| p.as_str())))
        .collect();
    assert_eq!(entries, [("a", Some("plugins/a")), ("b", None)]);
    // Below `metadata.pluginRoot`, a source needs no `./`.
    let text = r#"{"name": "m", "owner": {"name": "o"}, "metadata": {"pluginRoot": "./plugins"}, "plugins": [{"name": "a", "source": "a"}]}"#;
    check(
        Manifest::Marketplace,
        text,
        expect![[r#"
            warning missing-field works-but-risky [{]: `description` is missing. No description: it tells users what the marketplace offers; `claude plugin validate` warns
        "#]],
    );
    let (_, _, f) = analyze(Manifest::Marketplace, text);
    assert_eq!(f.entries[0].1.as_ref().map(|(p, _)| p.as_str()), Some("plugins/a"));
}

#[test]
fn listing() {
    let l = |path: &str, text: &str| {
        let l = listed(path, false, text);
        (l.name, l.description, l.argument_hint)
    };
    assert_eq!(
        l(
            "p:sub:x",
            "---\nname: other\ndescription: |\n  two\n  lines\nargument-hint: [a, b]\n---\nb\n"
        ),
        ("p:sub:other".into(), "two lines".into(), "a,b".into())
    );
    assert_eq!(l("p:x", "---\nallowed-tools: Read\n---\n\n# Title\nx\n").1, "Title");
    assert_eq!(l("p:x", "<!-- c -->\n").1, "&lt;!-- c --&gt;");
    assert_eq!(l("p:x", "").1, "Plugin command");
    assert_eq!(listed("p:x", true, "---\n---\n").description, "Plugin skill");
    assert_eq!(l("p:x", &"x".repeat(300)).1, format!("{}...", "x".repeat(97)));
    assert_eq!(l("p:x", "---\nname: 5\ndescription: 42\n---\nb\n").0, "p:5");
    assert_eq!(l("p:x", "---\ndescription: [a, b]\n---\nbody\n").1, "body");
    // The lenient retry: the hint keeps its brackets; a frontmatter that fails both passes
    // is ignored (the body names it).
    assert_eq!(
        l(
            "p:x",
            "---\nargument-hint: [message] [--amend]\ndescription: d\n---\nb\n"
        ),
        ("p:x".into(), "d".into(), "[message] [--amend]".into())
    );
    assert_eq!(l("p:x", "---\ndescription: a: b: c\n  - x\n---\nbody\n").1, "body");
}

#[test]
fn completion_and_hover() {
    let labels = |kind: Manifest, t: &str| -> Vec<String> {
        let at = t.find('|').unwrap();
        let t = t.replace('|', "");
        complete(kind, &t, at).into_iter().map(|i| i.label).collect()
    };
    let l = labels(Manifest::Plugin, "{\"name\": \"p\", \"|\"}");
    assert!(
        l.contains(&"agents".to_string()) && !l.contains(&"name".to_string()),
        "{l:?}"
    );
    assert_eq!(labels(Manifest::Plugin, "{\"author\": {\"|"), ["email", "name", "url"]);
    assert_eq!(labels(Manifest::Plugin, "{\"defaultEnabled\": |"), ["false", "true"]);
    let l = labels(Manifest::Marketplace, "{\"plugins\": [{\"name\": \"a\", \"|");
    assert!(
        l.contains(&"source".to_string()) && l.contains(&"category".to_string()),
        "{l:?}"
    );
    assert_eq!(
        labels(Manifest::Marketplace, "{\"plugins\": [{\"source\": {\"source\": \"|"),
        ["git-subdir", "github", "npm", "url"]
    );
    let text = r#"{"name": "p", "agents": []}"#;
    let parsed = jsonc::parse(text);
    let (h, span) = hover(Manifest::Plugin, &parsed, text.find("agents").unwrap()).unwrap();
    assert_eq!(span.text(text), "\"agents\"");
    assert!(h.starts_with("**`agents`** (`plugin.json` field)"), "{h}");
    let text = r#"{"name": "m", "plugins": [{"name": "a", "category": "x"}]}"#;
    let parsed = jsonc::parse(text);
    let (h, _) = hover(Manifest::Marketplace, &parsed, text.find("category").unwrap()).unwrap();
    assert!(h.starts_with("**`category`** (marketplace plugin entry field)"), "{h}");
    assert!(hover(Manifest::Plugin, &parsed, text.find("\"m\"").unwrap()).is_none());
}

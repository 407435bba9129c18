//! Generated workspaces: each exercises one part of how opencode builds its agents (merge order,
//! `disable`, `mode` entries, `tools`/`maxSteps`, broken YAML and the sanitizer, substitutions,
//! permission shapes, skills as opencode reads their frontmatter) or one reason it refuses a
//! configuration.

pub struct GenCase {
    pub name: &'static str,
    /// Files of the project (a git repository), relative to its root.
    pub files: &'static [(&'static str, &'static str)],
    /// Files of the global config directory; a case with any runs in its own server.
    pub global: &'static [(&'static str, &'static str)],
}

const fn case(name: &'static str, files: &'static [(&'static str, &'static str)]) -> GenCase {
    GenCase {
        name,
        files,
        global: &[],
    }
}

/// A skill description of 1,100 characters (over the Agent Skills format's 1,024) with a `: `,
/// the shape of a real plugin skill's.
macro_rules! long_description {
    () => {
        "Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use now."
    };
}

pub const CASES: &[GenCase] = &[
    // --- merge order and layers
    case(
        "merge-json-then-markdown",
        &[
            (
                "opencode.json",
                r#"{"agent": {"rev": {"mode": "subagent", "model": "a/b", "temperature": 0.1, "description": "from json", "options": {"x": 1}}}}"#,
            ),
            (
                ".opencode/agents/rev.md",
                "---\nmode: primary\ntemperature: 0.3\n---\nReview.\n",
            ),
        ],
    ),
    case(
        "merge-jsonc-beats-json",
        &[
            ("opencode.json", r#"{"agent": {"a": {"steps": 3, "color": "accent"}}}"#),
            ("opencode.jsonc", "// c\n{\"agent\": {\"a\": {\"steps\": 5,},},}\n"),
        ],
    ),
    case(
        "merge-ancestor-dot-opencode-wins",
        &[
            (
                ".opencode/agents/x.md",
                "---\nmode: subagent\ntemperature: 0.1\n---\nP\n",
            ),
            (
                "sub/.opencode/agents/x.md",
                "---\nmode: primary\ntemperature: 0.9\nmodel: a/b\n---\nP\n",
            ),
            ("sub/opencode.json", "{}"),
        ],
    ),
    case(
        "merge-dot-opencode-config",
        &[
            ("opencode.json", r#"{"agent": {"a": {"description": "root"}}}"#),
            (
                ".opencode/opencode.json",
                r#"{"agent": {"a": {"description": "dot", "top_p": 0.5}}}"#,
            ),
        ],
    ),
    case(
        "nested-agent-names",
        &[
            (
                ".opencode/agents/team/reviewer.md",
                "---\ndescription: nested\n---\nP\n",
            ),
            (".opencode/agent/foo.bar.md", "---\nmode: subagent\n---\nP\n"),
            (".opencode/agents/named.md", "---\nname: Other Name\n---\nP\n"),
        ],
    ),
    case(
        "json-display-name",
        &[(
            "opencode.json",
            r#"{"agent": {"k": {"name": "Display", "mode": "subagent"}}}"#,
        )],
    ),
    case(
        "frontmatter-name-number",
        &[(
            ".opencode/agents/n.md",
            "---\nname: 42\ndescription: numeric name\n---\nP\n",
        )],
    ),
    // --- disable, mode entries, mode files
    case(
        "disable-builtins",
        &[(
            "opencode.json",
            r#"{"agent": {"build": {"disable": true}, "general": {"disable": true}, "x": {"disable": false, "mode": "primary"}}}"#,
        )],
    ),
    case(
        "disable-in-markdown",
        &[(".opencode/agents/plan.md", "---\ndisable: true\n---\nP\n")],
    ),
    case(
        "mode-key-entries",
        &[(
            "opencode.json",
            r##"{"agent": {"x": {"mode": "subagent", "color": "#112233"}}, "mode": {"x": {"temperature": 0.2}, "y": {}}}"##,
        )],
    ),
    case(
        "mode-directory",
        &[
            (
                ".opencode/mode/debug.md",
                "---\ndescription: debug mode\ntemperature: 0.4\n---\nDebug.\n",
            ),
            (".opencode/mode/bad.md", "---\nmode: nonsense\n---\nBad.\n"),
        ],
    ),
    case(
        "override-builtin",
        &[
            (
                "opencode.json",
                r#"{"agent": {"plan": {"model": "anthropic/claude-x", "permission": {"edit": "ask"}}, "explore": {"description": "mine", "hidden": true}}}"#,
            ),
            (
                ".opencode/agents/build.md",
                "---\ntemperature: 0.7\n---\nBuild prompt.\n",
            ),
        ],
    ),
    // --- deprecated conversions
    case(
        "tools-and-max-steps",
        &[(
            ".opencode/agents/t.md",
            "---\ntools:\n  write: false\n  bash: true\n  patch: false\n  mymcp_*: false\n  apply_patch: true\npermission:\n  bash: ask\nmaxSteps: 7\n---\nBody\n",
        )],
    ),
    case(
        "steps-beats-max-steps",
        &[(
            "opencode.json",
            r#"{"agent": {"s": {"steps": 2, "maxSteps": 9, "tools": {"edit": false}}}}"#,
        )],
    ),
    case(
        "top-level-tools",
        &[(
            "opencode.json",
            r#"{"tools": {"bash": false, "write": true}, "permission": {"bash": {"git *": "allow"}}}"#,
        )],
    ),
    // --- options and unknown keys
    case(
        "unknown-keys-to-options",
        &[(
            ".opencode/agents/o.md",
            "---\nreasoningEffort: high\ntopP: 0.9\nlist: [1, 2]\nmap:\n  a: 1\n  b: [x]\nquoted: \"q\"\noptions:\n  reasoningEffort: low\n  keep: true\n---\nP\n",
        )],
    ),
    case(
        "options-deep-merge",
        &[
            (
                "opencode.json",
                r#"{"agent": {"o": {"options": {"a": {"x": 1, "y": 2}, "b": [1]}}}}"#,
            ),
            (
                ".opencode/agents/o.md",
                "---\noptions:\n  a:\n    y: 3\n  b: [2]\n---\nP\n",
            ),
        ],
    ),
    // --- permission shapes
    case(
        "permission-shapes",
        &[(
            "opencode.json",
            r#"{"permission": {"edit": "ask", "bash": {"*": "ask", "git *": "allow"}}, "agent": {"p": {"permission": "deny"}, "q": {"permission": {"*": "deny", "read": "allow", "bash": {"rm *": "deny", "*": "allow"}, "10": "ask", "2": "allow", "mymcp_*": "allow"}}}}"#,
        )],
    ),
    case(
        "permission-merge-keeps-position",
        &[
            (
                "opencode.json",
                r#"{"agent": {"x": {"permission": {"*": "deny", "bash": "allow"}}}}"#,
            ),
            (
                ".opencode/opencode.json",
                r#"{"agent": {"x": {"permission": {"*": "ask", "bash": {"ls": "deny"}}}}}"#,
            ),
        ],
    ),
    case(
        "permission-home-expansion",
        &[(
            ".opencode/agents/h.md",
            "---\npermission:\n  external_directory:\n    \"~/projects/*\": allow\n    \"$HOME/x/*\": deny\n    \"~\": ask\n  read:\n    \"~/notes.md\": deny\n---\nP\n",
        )],
    ),
    case(
        "permission-tool-output-deny",
        &[(
            "opencode.json",
            r#"{"agent": {"d": {"permission": {"external_directory": {"*": "deny"}}}}}"#,
        )],
    ),
    // --- YAML: broken, rescued, odd
    case(
        "yaml-duplicate-key",
        &[(
            ".opencode/agents/dup.md",
            "---\nmode: subagent\nmode: primary\ndescription: d\n---\nBody\n",
        )],
    ),
    case(
        "yaml-unquoted-star",
        &[(
            ".opencode/agents/star.md",
            "---\ndescription: x\npermission:\n  *: deny\n---\nBody\n",
        )],
    ),
    case(
        "yaml-bad-indentation",
        &[(
            ".opencode/agents/ind.md",
            "---\ndescription: x\n  mode: subagent\n model: a/b\n---\nBody\n",
        )],
    ),
    case(
        "yaml-sanitizer-rescues",
        &[(
            ".opencode/agents/san.md",
            "---\ndescription: Checks five patterns: repeated code\nmode: subagent\n---\nBody\n",
        )],
    ),
    case(
        "yaml-sanitizer-fails-again",
        &[(
            ".opencode/agents/skip.md",
            "---\ndescription: a: b\nmode: subagent\nmode: primary\n---\nBody\n",
        )],
    ),
    case(
        "yaml-crlf-broken",
        &[(
            ".opencode/agents/crlf.md",
            "---\r\nmode: subagent\r\nmode: primary\r\n---\r\nBody\r\n",
        )],
    ),
    case(
        "yaml-crlf-and-bom",
        &[(
            ".opencode/agents/bom.md",
            "\u{feff}---\r\ndescription: with BOM\r\nmode: subagent\r\n---\r\nBody\r\n",
        )],
    ),
    case(
        "yaml-unclosed",
        &[
            (
                ".opencode/agents/open.md",
                "---\nmode: subagent\ndescription: never closed\n",
            ),
            (
                ".opencode/agents/open-bad.md",
                "---\nmode: subagent\ndescription: a: b\nBody text\n",
            ),
        ],
    ),
    case(
        "yaml-scalar-frontmatter",
        &[(".opencode/agents/sc.md", "---\njust text\n---\nBody\n")],
    ),
    case(
        "yaml-empty-and-comment-only",
        &[
            (".opencode/agents/empty.md", "---\n---\nBody\n"),
            (".opencode/agents/comment.md", "---\n# nothing\n---\nBody\n"),
        ],
    ),
    case(
        "yaml-1-1-scalars",
        &[(
            ".opencode/agents/y.md",
            "---\ndescription: yes\ntemperature: 0.5\nsteps: 017\ncolor: \"#AbCdEf\"\nlegacy: on\nwhen: 1:30\n---\nP\n",
        )],
    ),
    case(
        "markdown-without-frontmatter",
        &[
            (
                ".opencode/agents/README.md",
                "# Our agents\n\nThis folder holds our agents.\n",
            ),
            (".opencode/agents/late.md", "\n---\nmode: subagent\n---\nP\n"),
        ],
    ),
    case(
        "markdown-overrides-json-prompt",
        &[
            (
                "opencode.json",
                r#"{"agent": {"doc": {"mode": "subagent", "prompt": "Be brief."}}}"#,
            ),
            (".opencode/agents/doc.md", "# Notes about doc\n"),
        ],
    ),
    case(
        "empty-body-prompt",
        &[(".opencode/agents/e.md", "---\nprompt: ignored\n---\n\n")],
    ),
    // --- substitutions
    case(
        "file-substitution",
        &[
            (
                "opencode.json",
                r#"{"agent": {"f": {"prompt": "{file:./prompts/f.txt}", "description": "{file:./desc.txt}"}}}"#,
            ),
            ("prompts/f.txt", "You are f.\n"),
            ("desc.txt", "  described in a file  \n"),
        ],
    ),
    case(
        "file-substitution-missing",
        &[("opencode.json", r#"{"agent": {"f": {"prompt": "{file:./nope.txt}"}}}"#)],
    ),
    case(
        "file-substitution-in-comment",
        &[(
            "opencode.jsonc",
            "{\n  // \"prompt\": \"{file:./nope.txt}\"\n  \"agent\": {\"c\": {\"mode\": \"subagent\"}}\n}\n",
        )],
    ),
    case(
        "env-substitution",
        &[(
            "opencode.json",
            r#"{"agent": {"e": {"description": "env [{env:AGENT_LSP_SURELY_UNSET}]", "model": "{env:AGENT_LSP_SURELY_UNSET}a/b"}}}"#,
        )],
    ),
    // --- refusals
    case(
        "refuse-bad-mode",
        &[(".opencode/agents/m.md", "---\nmode: main\n---\nP\n")],
    ),
    case(
        "refuse-css-color",
        &[(".opencode/agents/c.md", "---\ncolor: teal\n---\nP\n")],
    ),
    case(
        "refuse-unquoted-hex",
        &[(".opencode/agents/c.md", "---\ncolor: #FF5733\n---\nP\n")],
    ),
    case(
        "refuse-steps-zero",
        &[("opencode.json", r#"{"agent": {"s": {"steps": 0}}}"#)],
    ),
    case(
        "refuse-steps-fraction",
        &[("opencode.json", r#"{"agent": {"s": {"steps": 1.5}}}"#)],
    ),
    case(
        "refuse-quoted-number",
        &[(".opencode/agents/q.md", "---\nsteps: \"5\"\n---\nP\n")],
    ),
    case(
        "refuse-yes-boolean",
        &[(".opencode/agents/h.md", "---\nhidden: yes\n---\nP\n")],
    ),
    case(
        "refuse-tools-list",
        &[(".opencode/agents/t.md", "---\ntools: [read, edit]\n---\nP\n")],
    ),
    case(
        "refuse-bad-action",
        &[("opencode.json", r#"{"permission": {"bash": "maybe"}}"#)],
    ),
    case(
        "refuse-object-for-action-only",
        &[(
            "opencode.json",
            r#"{"agent": {"a": {"permission": {"webfetch": {"*": "deny"}}}}}"#,
        )],
    ),
    case(
        "refuse-null-prompt",
        &[(".opencode/agents/n.md", "---\nprompt: ~\n---\nP\n")],
    ),
    case(
        "refuse-v2-permissions",
        &[(
            "opencode.json",
            r#"{"permissions": [{"action": "bash", "resource": "*", "effect": "ask"}]}"#,
        )],
    ),
    case(
        "refuse-missing-template",
        &[("opencode.json", r#"{"command": {"t": {"description": "d"}}}"#)],
    ),
    case(
        "refuse-json-syntax",
        &[("opencode.json", "{\"agent\": {\"a\": {}}}}\n")],
    ),
    case(
        "refuse-temperature-string",
        &[("opencode.json", r#"{"agent": {"a": {"temperature": "0.5"}}}"#)],
    ),
    // --- tolerated
    case(
        "tolerated",
        &[(
            "opencode.json",
            r#"{"agents": {"x": {}}, "theme": "dark", "default_agent": "nope", "agent": {"t": {"temperature": 5, "color": "primary", "mode": "all", "model": "nomodel"}}, "autoshare": true}"#,
        )],
    ),
    case(
        "schema-key-values",
        &[(
            "opencode.json",
            r#"{"$schema": "https://opencode.ai/config.json", "default_agent": "plan", "subagent_depth": 2, "agent": {"v": {"variant": "high", "model": "openai/gpt-5/mini", "hidden": false}}}"#,
        )],
    ),
    // --- more shapes the runtime settles
    case(
        "skill-directories",
        &[
            (
                ".claude/skills/review/SKILL.md",
                "---\nname: review\ndescription: r\n---\nR\n",
            ),
            (
                ".agents/skills/lint/SKILL.md",
                "---\nname: lint\ndescription: l\n---\nL\n",
            ),
            (".opencode/skills/deploy/SKILL.md", "---\nname: deploy\n---\nD\n"),
            (
                ".opencode/skill/nested/deep/SKILL.md",
                "---\nname: 7\n---\nbroken name\n",
            ),
            ("sub/.claude/skills/inner/SKILL.md", "---\nname: inner\n---\nI\n"),
            ("sub/opencode.json", "{}"),
        ],
    ),
    // A `SKILL.md` that is not valid YAML: opencode's sanitizer rescues a top-level value holding
    // `:` (as a block of text); when it changes nothing (a key set twice, a broken quote) the
    // cache hands back no data, and when its retry throws too the skill is skipped.
    case(
        "skill-lenient-yaml",
        &[
            (
                ".opencode/skills/colon/SKILL.md",
                "---\nname: colon\ndescription: Use this when: the user asks\n---\nBody\n",
            ),
            (
                ".opencode/skills/long/SKILL.md",
                concat!("---\nname: long\ndescription: ", long_description!(), "\n---\nBody\n"),
            ),
            (
                ".claude/skills/colon2/SKILL.md",
                "---\nname: colon2\ndescription: Use this when: the user asks\n---\nBody\n",
            ),
            (
                ".claude/skills/long2/SKILL.md",
                concat!("---\nname: long2\ndescription: ", long_description!(), "\n---\nBody\n"),
            ),
            (
                ".agents/skills/colon3/SKILL.md",
                "---\nname: colon3\ndescription: Use this when: the user asks\n---\nBody\n",
            ),
            (
                ".opencode/skills/crlf/SKILL.md",
                "---\r\nname: crlf\r\ndescription: Use this when: crlf\r\n---\r\nBody\r\n",
            ),
            (
                ".claude/skills/crlf2/SKILL.md",
                "---\r\nname: crlf2\r\ndescription: Use this when: crlf\r\n---\r\nBody\r\n",
            ),
            (
                ".opencode/skills/endcolon/SKILL.md",
                "---\nname: endcolon\ndescription: Examples:\n---\nBody\n",
            ),
            (
                ".opencode/skills/quoted-then/SKILL.md",
                "---\nname: quoted-then\ndescription: \"Quoted\" then: more\n---\nBody\n",
            ),
            (
                ".opencode/skills/unclosed/SKILL.md",
                "---\nname: unclosed\ndescription: u\n",
            ),
            (".opencode/skills/nodesc/SKILL.md", "---\nname: nodesc\n---\nBody\n"),
            (
                ".opencode/skills/twice/SKILL.md",
                "---\nname: twice\ndescription: t\nname: twice\n---\nBody\n",
            ),
            (
                ".claude/skills/twice2/SKILL.md",
                "---\nname: twice2\ndescription: t\nname: twice2\n---\nBody\n",
            ),
            (
                ".opencode/skills/bare/SKILL.md",
                "---\nname: bare\ndescription: ok\nbad: \"open\n---\nBody\n",
            ),
            (
                ".opencode/skills/retry-fails/SKILL.md",
                "---\nname: retry-fails\ndescription: Use it: now\nmetadata:\n  x: a: b\n---\nBody\n",
            ),
            (
                ".opencode/skills/sexagesimal/SKILL.md",
                "---\nname: 1:30\ndescription: a number for js-yaml\n---\nBody\n",
            ),
            (
                ".opencode/skills/nulldesc/SKILL.md",
                "---\nname: nulldesc\ndescription:\n---\nBody\n",
            ),
        ],
    ),
    case(
        "file-reference-in-trailing-comment",
        &[(
            "opencode.jsonc",
            "{\n  \"agent\": {\"a\": {\"mode\": \"subagent\"}} // {file:./gone.txt}\n}\n",
        )],
    ),
    case(
        "file-reference-in-block-comment",
        &[(
            "opencode.jsonc",
            "{\n  /* {file:./gone.txt} */\n  \"agent\": {\"a\": {}}\n}\n",
        )],
    ),
    case(
        "file-reference-home-and-nested",
        &[
            (
                "config/opencode.json",
                r#"{"agent": {"n": {"prompt": "{file:../prompts/n.txt}", "description": "{file:prompts/d.txt}"}}}"#,
            ),
            ("prompts/n.txt", "N prompt"),
            ("config/prompts/d.txt", "\n\tnested description\n\n"),
        ],
    ),
    case(
        "env-substitution-in-permission",
        &[(
            "opencode.json",
            r#"{"permission": {"external_directory": {"{env:AGENT_LSP_SURELY_UNSET}/tmp/*": "allow"}}, "agent": {"{env:AGENT_LSP_SURELY_UNSET}k": {"mode": "subagent"}}}"#,
        )],
    ),
    case(
        "yaml-bom-broken",
        &[(
            ".opencode/agents/bom.md",
            "\u{feff}---\ndescription: a: b\nmode: subagent\n---\nBody\n",
        )],
    ),
    case(
        "yaml-crlf-sanitizer",
        &[(
            ".opencode/agents/crlf.md",
            "---\r\ndescription: Use when: reviewing\r\nmode: subagent\r\n---\r\nBody\r\n",
        )],
    ),
    case(
        "yaml-language-line",
        &[
            (".opencode/agents/lang.md", "---yaml\nmode: subagent\n---\nBody\n"),
            (
                ".opencode/agents/json.md",
                "---json\n{\"mode\": \"subagent\"}\n---\nBody\n",
            ),
        ],
    ),
    case(
        "yaml-anchors-and-merge-keys",
        &[(
            ".opencode/agents/anchor.md",
            "---\nbase: &b\n  bash: ask\n  edit: deny\npermission:\n  <<: *b\n  read: allow\ndescription: &d anchored\nlabel: *d\n---\nBody\n",
        )],
    ),
    case(
        "yaml-odd-scalars",
        &[(
            ".opencode/agents/odd.md",
            "---\ntemperature: 1:30\ntop_p: .5\nsteps: 0x0A\ncolor: '#abcdef'\nhidden: false\nflag: off\nnothing: ~\ndate: 2024-01-02\n---\nBody\n",
        )],
    ),
    case(
        "yaml-flow-and-block-scalars",
        &[(
            ".opencode/agents/flow.md",
            "---\ndescription: >\n  Folded\n  text\npermission: {bash: {\"*\": ask, \"git *\": allow}, edit: deny}\nmode: \"subagent\"\n---\nBody\n",
        )],
    ),
    case(
        "json-duplicate-agents",
        &[(
            "opencode.json",
            r#"{"agent": {"a": {"mode": "subagent", "temperature": 0.1}, "b": {}, "a": {"description": "second"}}}"#,
        )],
    ),
    case(
        "disable-then-enable",
        &[
            (
                "opencode.json",
                r#"{"agent": {"general": {"disable": true}, "x": {"disable": true}}}"#,
            ),
            (
                ".opencode/opencode.json",
                r#"{"agent": {"general": {"disable": false}}}"#,
            ),
            (".opencode/agents/x.md", "---\ndescription: md x\n---\nX\n"),
        ],
    ),
    case(
        "mode-file-bad-values-skipped",
        &[
            (".opencode/mode/yes.md", "---\nhidden: yes\n---\nY\n"),
            (".opencode/modes/color.md", "---\ncolor: teal\n---\nC\n"),
            (
                ".opencode/modes/nested/deep.md",
                "---\ndescription: not read (modes are not recursive)\n---\nD\n",
            ),
        ],
    ),
    case(
        "permission-action-string-in-markdown",
        &[(".opencode/agents/p.md", "---\npermission: ask\n---\nP\n")],
    ),
    case(
        "tools-collapse-into-edit",
        &[(
            "opencode.json",
            r#"{"agent": {"t": {"tools": {"write": true, "edit": false, "patch": true, "bash": false}, "permission": {"bash": {"ls *": "allow"}}}}}"#,
        )],
    ),
    case(
        "v2-agents-lowered",
        &[(
            "opencode.json",
            r#"{"agents": {"v2": {"system": "You are v2.", "disabled": false, "model": "openai/gpt-5#high", "mode": "subagent"}}}"#,
        )],
    ),
    case(
        "v2-permissions-in-agent",
        &[(
            "opencode.json",
            r#"{"agent": {"a": {"permissions": [{"action": "bash", "resource": "*", "effect": "ask"}]}}}"#,
        )],
    ),
    case(
        "hidden-and-colors",
        &[(
            "opencode.json",
            r##"{"agent": {"h": {"mode": "subagent", "hidden": true, "color": "#ABCDEF"}, "i": {"color": "info", "variant": "max"}}}"##,
        )],
    ),
    case(
        "markdown-name-collision",
        &[
            (
                ".opencode/agents/a.md",
                "---\nname: shared\ndescription: from a\ntemperature: 0.1\n---\nA\n",
            ),
            (
                ".opencode/agents/b.md",
                "---\nname: shared\ndescription: from b\n---\nB\n",
            ),
        ],
    ),
    case(
        "command-file-schema-error",
        &[(".opencode/command/bad.md", "---\nsubtask: maybe\n---\nDo it.\n")],
    ),
    case(
        "no-frontmatter-overrides-builtin",
        &[(
            ".opencode/agents/build.md",
            "You are the build agent, with house rules.\n",
        )],
    ),
    case(
        "refuse-date-where-a-string-goes",
        &[(".opencode/agents/d.md", "---\ndescription: 2024-01-01\n---\nP\n")],
    ),
    case(
        "date-in-options",
        &[(
            ".opencode/agents/d.md",
            "---\nreleased: 2024-01-02 10:30:00 +02:00\n---\nP\n",
        )],
    ),
    case(
        "frontmatter-engines",
        &[
            (
                ".opencode/agents/k.md",
                "---json\n{\"mode\": \"subagent\", \"description\": \"from json\"}\n---\nP\n",
            ),
            (".opencode/agents/t.md", "---toml\nmode = \"subagent\"\n---\nP\n"),
            (
                ".opencode/agents/j.md",
                "---js\n{mode: \"subagent\", description: \"computed \" + (6 * 7)}\n---\nP\n",
            ),
        ],
    ),
    // --- global directory
    GenCase {
        name: "global-layers",
        files: &[
            ("opencode.json", r#"{"agent": {"g": {"temperature": 0.2}}}"#),
            (".opencode/agents/p.md", "---\ndescription: project\n---\nP\n"),
        ],
        global: &[
            (
                "opencode.json",
                r#"{"agent": {"build": {"disable": true}, "g": {"mode": "subagent", "temperature": 0.9}}}"#,
            ),
            ("agents/g.md", "---\ndescription: global md\n---\nG\n"),
            ("agents/p.md", "---\ndescription: global p\nmode: primary\n---\nG\n"),
        ],
    },
];

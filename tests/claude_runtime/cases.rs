//! Generated workspaces, each holding many files (Claude Code's start is the cost, not the
//! files), covering `claude-code.md` §7: which files are read (§7.1), how the block is found
//! (§7.2), the first pass and the lenient retry (§7.3: its quoting, CRLF, tabs, BOM, ` #`
//! comments, `!tags`, duplicate keys, block scalars), required fields of every YAML type (§7.4),
//! `model` (§7.5), unknown keys (§7.6), plugin agents (§7.9), precedence across project, user and
//! plugin agents, and commands and skills (§4, §5; a skill's frontmatter through the retry).
//!
//! Agents of one workspace have distinct names and descriptions, so that the name Claude Code
//! lists and its description tell which file it read.

pub struct GenCase {
    pub name: &'static str,
    /// Files of the project (a git repository), relative to its root.
    pub files: Vec<(String, Vec<u8>)>,
    /// Files of the home directory (`.claude/agents/...`, `.claude/commands/...`).
    pub home: Vec<(String, Vec<u8>)>,
}

fn case(name: &'static str) -> GenCase {
    GenCase {
        name,
        files: Vec::new(),
        home: Vec::new(),
    }
}

impl GenCase {
    fn file(mut self, path: &str, text: &str) -> Self {
        self.files.push((path.to_string(), text.as_bytes().to_vec()));
        self
    }

    fn bytes(mut self, path: &str, bytes: Vec<u8>) -> Self {
        self.files.push((path.to_string(), bytes));
        self
    }

    fn home(mut self, path: &str, text: &str) -> Self {
        self.home.push((path.to_string(), text.as_bytes().to_vec()));
        self
    }

    /// One project agent per frontmatter: `.claude/agents/{prefix}-{i}.md`, the frontmatter
    /// preceded by `name: {prefix}-{i}` (so each loads under its own name), then a prompt.
    fn named(mut self, prefix: &str, frontmatters: &[&str]) -> Self {
        for (i, fm) in frontmatters.iter().enumerate() {
            let text = format!("---\nname: {prefix}-{i}\n{fm}---\nPrompt {i}.\n");
            self = self.file(&format!(".claude/agents/{prefix}-{i}.md"), &text);
        }
        self
    }

    /// One project agent per whole file text: `.claude/agents/{prefix}-{i}.md`.
    fn raw(mut self, prefix: &str, texts: &[&str]) -> Self {
        for (i, t) in texts.iter().enumerate() {
            self = self.file(&format!(".claude/agents/{prefix}-{i}.md"), t);
        }
        self
    }
}

pub fn cases() -> Vec<GenCase> {
    vec![
        // §7.3: what the retry rescues (a value with `: ` or a reserved character, quoted), and
        // what it does not.
        case("retry-quoting").named(
            "r",
            &[
                "description: Use this agent when needed. Examples: <example>Context: the user asks for a review</example>\n",
                "description: Use this agent when needed.\\n\\n<example>\\nContext: the user asks\\nuser: \"review\"\\n</example>\n",
                "description: *bold* text\n",
                "description: @mention someone\n",
                "description: `code` first\n",
                "description: %TEMP% folder\n",
                "description: {x} text after\n",
                "description: It's a test: really\n",
                "description: \"Quoted\" then: more\n",
                "description: d r9\nNotes: a: b\n",
                "description: d r10\ntools:\n\t- Read\n\t- Grep\n",
                "description: d r11\nx2: a: b\n",
                "description: d r12\nx.y: a: b\n",
                "description: d r13\nmeta:\n  note: a: b\n",
                "description: \"a\" b \"c\"\n",
                "description: - item\n",
                "description: ? what\n",
                "description: Use it. Examples:\n",
                "description: first line of it\n  second line: with colon\n",
                "description: Use this agent. Examples:\n<example>\nContext: it\n</example>\n",
                "description: Use this agent when: asked\nuser: \"first example\"\nassistant: \"answer\"\nuser: \"second example\"\n",
                "description: with a comment: here\nmodel: sonnet # fast one\n",
                "description: with colour: here\ncolor: #FF5733\n",
                "description: unbalanced: here\ntools: [Read, Grep\n",
                "description: 'single: quoted' kept\n",
                "description: [a, b] then text\n",
                "description: [not: a list\n",
                "description: d r27 & more: x\n",
                "description: ends with colon:\n",
                "description: >- folded: text\n",
                "description: d r30 | pipe: x\n",
                "description: d r31\nname: r-31-renamed: x\n",
            ],
        ),
        // §7.3: CRLF line endings; the retry skips every line that ends in a carriage return.
        case("crlf").raw(
            "c",
            &[
                "---\r\nname: c-0\r\ndescription: plain crlf\r\n---\r\nPrompt.\r\n",
                "---\r\nname: c-1\r\ndescription: Use this: when needed\r\n---\r\nPrompt.\r\n",
                "---\r\nname: c-2\r\ndescription: tabs crlf\r\ntools:\r\n\t- Read\r\n---\r\nPrompt.\r\n",
                "---\r\nname: c-3\r\ndescription: comment crlf # gone\r\nmodel: haiku\r\n---\r\nPrompt.\r\n",
                "---\r\nname: c-4\r\ndescription: mixed\nNotes: a: b\r\n---\r\nPrompt.\r\n",
                "---\nname: c-5\ndescription: lf then crlf: here\r\n---\nPrompt.\n",
                "---\r\nname: c-6\r\ndescription: |\r\n  block crlf\r\n  two\r\n---\r\nPrompt.\r\n",
            ],
        ),
        // §7.3: tabs.
        case("tabs").named(
            "t",
            &[
                "description:\ttab after the colon\n",
                "description: tab\tinside\n",
                "description: d t2\ntools:\n\t- Read\n",
                "description: d t3\nhooks:\n\tStop:\n\t\t- hooks: []\n",
                "description: d t4\n\tfoo: bar\n",
                "description: d t5\ntools: [Read,\tGrep]\n",
                "\tdescription: indented with a tab\n",
            ],
        ),
        // §7.1: one BOM is removed; a second is kept (then there is no frontmatter).
        case("bom").raw(
            "b",
            &[
                "\u{feff}---\nname: b-0\ndescription: one bom\n---\nPrompt.\n",
                "\u{feff}\u{feff}---\nname: b-1\ndescription: two boms\n---\nPrompt.\n",
                "\u{feff}---\r\nname: b-2\r\ndescription: bom crlf\r\n---\r\nPrompt.\r\n",
                "\u{feff}---\nname: b-3\ndescription: bom retry: yes\n---\nPrompt.\n",
                "---\nname: b-4\ndescription: bom \u{feff}inside\n---\nPrompt.\n",
            ],
        ),
        // §7.2: the block opens on the first character and ends at the first later `---`
        // anywhere.
        case("block-finding").raw(
            "k",
            &[
                "---\nname: k-0\ndescription: Use this --- when needed\nmodel: opus\n---\nPrompt.\n",
                "---\nname: k-1\ndescription: \"a---b\"\n---\nPrompt.\n",
                "---\nname: k-2\ndescription: d k2\n# ---- section ----\nmodel: opus\n---\nPrompt.\n",
                "---\nname: k-3\ndescription: d k3\n----\nPrompt.\n",
                "---\nname: k-4\ndescription: d k4\n--- trailing\nPrompt.\n",
                "---\nname: k-5\ndescription: d k5\n  ---\nmodel: opus\n---\nPrompt.\n",
                "---\nname: k-6\ndescription: never closed\n",
                "\n---\nname: k-7\ndescription: blank line first\n---\nPrompt.\n",
                " ---\nname: k-8\ndescription: space first\n---\nPrompt.\n",
                "---yaml\nname: k-9\ndescription: yaml opener\n---\nPrompt.\n",
                "---  \nname: k-10\ndescription: spaces after the opener\n---\nPrompt.\n",
                "---\t\nname: k-11\ndescription: tab after the opener\n---\nPrompt.\n",
                "# Heading\n---\nname: k-12\ndescription: heading first\n---\nPrompt.\n",
                "---\n---\nname: k-13\ndescription: empty block\n---\nPrompt.\n",
                "---\nname: k-14\ndescription: d k14\n---",
                "---\nname: k-15\ndescription: multi\n  line --- cut\n---\nPrompt.\n",
                "---\nname: k-16\ndescription: 'quoted --- cut'\n---\nPrompt.\n",
            ],
        ),
        // §7.3: ` #` starts a comment; `#` without a space before it does not.
        case("comments").named(
            "h",
            &[
                "description: Handles C# and F# code #1 priority\n",
                "description: d h1\ncolor: #FF5733\n",
                "description: d h2\nmodel: sonnet # fast one\n",
                "description: d h3 #\n",
                "description: \"quoted # kept\"\n",
                "description: d#h5\n",
                "# a comment line\ndescription: d h6\n",
                "description: d h7\t# tab comment\n",
            ],
        ),
        // §7.3: unknown tags are dropped; core tags apply.
        case("tags").named(
            "g",
            &[
                "description: !important note\n",
                "description: !!str 42\n",
                "description: !!int 42\n",
                "description: d g3\nmodel: !custom opus\n",
                "description: !!binary aGVsbG8=\n",
                "description: !<tag:example.com,2000:x> verbatim\n",
                "description: !!null\n",
                "description: ! plain bang\n",
            ],
        ),
        // §7.3: duplicate keys are accepted, the last wins.
        case("duplicate-keys").raw(
            "u",
            &[
                "---\nname: u-0\ndescription: first\ndescription: last wins\n---\nPrompt.\n",
                "---\nname: u-1-first\nname: u-1\ndescription: d u1\n---\nPrompt.\n",
                "---\nname: u-2\ndescription: d u2\nmodel: opus\nmodel: haiku\n---\nPrompt.\n",
                "---\nname: u-3\ndescription: d u3\nfoo: 1\nfoo: 2\n---\nPrompt.\n",
                "---\nname: u-4\ndescription: d u4\ndescription:\n---\nPrompt.\n",
                "---\nname: u-5\ndescription: retried: first\ndescription: retried: last\n---\nPrompt.\n",
            ],
        ),
        // §7.3: block scalars and multi-line strings load on the first pass.
        case("block-scalars").named(
            "s",
            &[
                "description: |\n  literal\n  two lines\n",
                "description: >\n  folded\n  two lines\n",
                "description: |-\n  strip\n",
                "description: >+\n  keep\n\n",
                "description: |2\n    indented by indicator\n",
                "description: \"double\n  quoted over lines\"\n",
                "description: 'single\n  quoted over lines'\n",
                "description: plain\n  over lines\n  three\n",
                "description: |\n  literal with: colon\n  and # hash\n",
                "description: \"escapes \\t tab \\u00e9 \\\\n two chars\"\n",
                "description: 'it''s'\n",
                "description: \"line\\\\nbreak\"\n",
                "description: |\n  keeps \\n as two chars\n",
                "description: >\n\n  leading blank\n",
            ],
        ),
        // §7.4: `name` of every YAML type.
        case("name-types").raw(
            "n",
            &[
                "---\nname: 123\ndescription: d n0\n---\nP\n",
                "---\nname: 1.0\ndescription: d n1\n---\nP\n",
                "---\nname: true\ndescription: d n2\n---\nP\n",
                "---\nname: false\ndescription: d n3\n---\nP\n",
                "---\nname: 0\ndescription: d n4\n---\nP\n",
                "---\nname: null\ndescription: d n5\n---\nP\n",
                "---\nname: ~\ndescription: d n6\n---\nP\n",
                "---\nname: \"\"\ndescription: d n7\n---\nP\n",
                "---\nname: [n-list]\ndescription: d n8\n---\nP\n",
                "---\nname: {a: b}\ndescription: d n9\n---\nP\n",
                "---\nname: \"  n-spaced  \"\ndescription: d n10\n---\nP\n",
                "---\nname: N Upper Case\ndescription: d n11\n---\nP\n",
                "---\nname: -n-lead\ndescription: d n12\n---\nP\n",
                "---\nname: \"n:colon\"\ndescription: d n13\n---\nP\n",
                "---\nname: n\u{ff1a}fullwidth\ndescription: d n14\n---\nP\n",
                "---\nname: yes\ndescription: d n15\n---\nP\n",
                "---\nname: on\ndescription: d n16\n---\nP\n",
                "---\nname: 0o17\ndescription: d n17\n---\nP\n",
                "---\nname: .inf\ndescription: d n18\n---\nP\n",
                "---\nname: 2024-01-01\ndescription: d n19\n---\nP\n",
                "---\nname: \"123\"\ndescription: d n20\n---\nP\n",
                "---\nname: \"n-multi\\nline\"\ndescription: d n21\n---\nP\n",
                "---\nname:\ndescription: d n22\n---\nP\n",
                "---\nName: n-capital\ndescription: d n23\n---\nP\n",
                "---\nname: n_under_score\ndescription: d n24\n---\nP\n",
                "---\nname: n-unicode-名前\ndescription: d n25\n---\nP\n",
                "---\nname: 'n-single'\ndescription: d n26\n---\nP\n",
                "---\nname: n-a: b\ndescription: d n27\n---\nP\n",
            ],
        ),
        // §7.4: `description` of every YAML type; `\n` in a description.
        case("description-types").named(
            "d",
            &[
                "description: 42\n",
                "description: 0o17\n",
                "description: .inf\n",
                "description: true\n",
                "description: [a, b]\n",
                "description: {a: b}\n",
                "description: null\n",
                "description: \"\"\n",
                "description: \"   \"\n",
                "description: yes\n",
                "description: 2024-01-01\n",
                "description: \"a\\\\nb\"\n",
                "description: 'a\\nb'\n",
                "description:\n",
                "Description: capital\n",
                "description: 1.5\n",
                "description: ~\n",
                "description: -5\n",
                "description: \"  padded  \"\n",
                "description: 'tab\tinside'\n",
            ],
        ),
        // A missing description; files without frontmatter or without `name`.
        case("missing-and-none").raw(
            "m",
            &[
                "---\nname: m-0\n---\nNo description.\n",
                "---\nname: m-1\nwhen_to_use: only this\n---\nP\n",
                "# Just Markdown\n\nNo frontmatter.\n",
                "---\ndescription: no name\n---\nP\n",
                "---\ndescription: no name, unknown key\nfoo: 1\n---\nP\n",
                "---\n---\nEmpty block.\n",
                "---\n# only a comment\n---\nP\n",
                "---\n- a list\n- b\n---\nP\n",
                "---\njust a scalar\n---\nP\n",
                "",
                "---\nname: m-10\ndescription: d m10\n---\n",
            ],
        ),
        // §7.5: `model`, unset kept apart from `inherit`.
        case("model-values").named(
            "o",
            &[
                "description: d o0\n",
                "description: d o1\nmodel: inherit\n",
                "description: d o2\nmodel: INHERIT\n",
                "description: d o3\nmodel: \" sonnet \"\n",
                "description: d o4\nmodel: \"\"\n",
                "description: d o5\nmodel: 42\n",
                "description: d o6\nmodel: [opus]\n",
                "description: d o7\nmodel: fable\n",
                "description: d o8\nmodel: gpt-4o\n",
                "description: d o9\nmodel: ~\n",
                "description: d o10\nmodel: claude-opus-5\n",
                "description: d o11\nmodel: \"   \"\n",
                "description: d o12\nmodel: true\n",
                "description: d o13\nmodel: Opus\n",
                "description: d o14\nmodel: sonnet[1m]\n",
            ],
        ),
        // §7.6: unknown keys and Claude Code's list of them.
        case("unknown-keys").named(
            "x",
            &[
                "description: d x0\nfoo: 1\n",
                "description: d x1\nallowed-tools: Read\nwhen_to_use: later\nmode: subagent\nTools: Read\n",
                "description: d x2\nk1: 1\nk2: 2\nk3: 3\nk4: 4\nk5: 5\nk6: 6\nk7: 7\n",
                "description: d x3\nmax turns: 3\n",
                "description: d x4\nobserver: true\nexperimental: {}\nomitClaudeMd: true\nautoCompactWindow: 200000\n",
                "description: d x5\ndisallowed-tools: Bash\nargument-hint: x\n",
                "description: d x6\n\"quoted key\": 1\n",
                "description: d x7\ntags: [a]\ncategory: c\nversion: 1\n",
                "description: d x8\n1numeric: 1\n",
                "description: d x9\ninitialPrompt: hi\nmemory: user\nbackground: true\nisolation: worktree\neffort: high\n",
                "description: d x10\nNAME: shout\n",
                "description: d x11\nfoo: 1\nfoo: 2\n",
                "description: d x12\nwhen-to-use: later\nWhen_To_Use: again\n",
                "description: d x13\npermissionmode: plan\n",
            ],
        ),
        // §7.4-7.5: values that skip the file (hooks) and values that are only dropped.
        case("hooks-and-values").named(
            "v",
            &[
                "description: d v0\nhooks: not a map\n",
                "description: d v1\nPreToolUse:\n  - matcher: Bash\n    hooks:\n      - type: command\n        command: echo\n",
                "description: d v2\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: echo hi\n",
                "description: d v3\nhooks:\n  PreToolUse: a string\n",
                "description: d v4\npermissionMode: Plan\neffort: ultracode\nmaxTurns: 0\nmemory: Project\nisolation: container\nbackground: yes\ncolor: teal\n",
                "description: d v5\npermissionMode: manual\neffort: med\nmaxTurns: \"20 turns\"\ncolor: red\n",
                "description: d v6\nhooks:\n  NotAnEvent: []\n",
                "description: d v7\nmcpServers: [a, {b: {command: x}}]\ntools: \"\"\nskills: a, b\n",
            ],
        ),
        // §7.1: which files are read: `*.md` at any depth, hidden folders included; `.MD` and
        // `.txt` are not.
        case("which-files")
            .file(".claude/agents/w-0.md", "---\nname: w-0\ndescription: top\n---\nP\n")
            .file(".claude/agents/team/deep/w-1.md", "---\nname: w-1\ndescription: nested\n---\nP\n")
            .file(".claude/agents/.hidden/w-2.md", "---\nname: w-2\ndescription: hidden folder\n---\nP\n")
            .file(".claude/agents/.w-3.md", "---\nname: w-3\ndescription: hidden file\n---\nP\n")
            .file(".claude/agents/w-4.MD", "---\nname: w-4\ndescription: upper extension\n---\nP\n")
            .file(".claude/agents/w-5.txt", "---\nname: w-5\ndescription: text file\n---\nP\n")
            .file(".claude/agents/w-6.md.bak", "---\nname: w-6\ndescription: backup\n---\nP\n")
            .file(".claude/agents/README.md", "# Agents\n\nThese are our agents.\n")
            .file(".claude/agent/w-7.md", "---\nname: w-7\ndescription: singular folder\n---\nP\n"),
        // §7.1: the 1 MiB limit (the file size, with its frontmatter).
        case("size-limit")
            .bytes(".claude/agents/z-0.md", sized("---\nname: z-0\ndescription: exactly 1 MiB\n---\n", 1_048_576))
            .bytes(".claude/agents/z-1.md", sized("---\nname: z-1\ndescription: one byte over\n---\n", 1_048_577))
            .bytes(".claude/agents/z-2.md", sized("---\nname: z-2\ndescription: two MiB\n---\n", 2 * 1_048_576))
            .bytes(
                ".claude/agents/z-3.md",
                sized("---\nname: z-3\ndescription: just under\n---\n", 1_048_575),
            ),
        // Precedence: project over user; the closest project; user-only agents; a built-in
        // replaced.
        case("precedence")
            .file(".claude/agents/p-both.md", "---\nname: p-both\ndescription: project wins\n---\nP\n")
            .home(".claude/agents/p-both.md", "---\nname: p-both\ndescription: user loses\n---\nP\n")
            .home(".claude/agents/p-user.md", "---\nname: p-user\ndescription: user only\nmodel: opus\n---\nP\n")
            .home(".claude/agents/team/p-user2.md", "---\nname: p-user2\ndescription: user nested\nfoo: 1\n---\nP\n")
            .home(".claude/agents/p-user-broken.md", "---\nname: p-user-broken\ndescription: a: b: c\n  d: e\n---\nP\n")
            .file(".claude/agents/p-near.md", "---\nname: p-near\ndescription: root project\n---\nP\n")
            .file("sub/.claude/agents/p-near.md", "---\nname: p-near\ndescription: sub project wins in sub\n---\nP\n")
            .file("sub/.claude/agents/p-sub.md", "---\nname: p-sub\ndescription: sub only\n---\nP\n")
            .file(".claude/agents/explore.md", "---\nname: Explore\ndescription: our own explorer\n---\nP\n")
            .file(".claude/agents/p-user-shadow.md", "---\nname: p-user-shadow\ndescription: project, broken: yes: no\n  x: y\n---\nP\n")
            .home(".claude/agents/p-user-shadow.md", "---\nname: p-user-shadow\ndescription: user, since the project file is skipped\n---\nP\n"),
        // Several files of one name in one folder: all load, one is active.
        case("duplicates")
            .file(".claude/agents/a.md", "---\nname: q-dup\ndescription: from a\n---\nP\n")
            .file(".claude/agents/b.md", "---\nname: q-dup\ndescription: from b\n---\nP\n")
            .file(".claude/agents/sub/c.md", "---\nname: q-dup\ndescription: from sub/c\n---\nP\n")
            .file(".claude/agents/x.md", "---\nname: q-two\ndescription: from x\n---\nP\n")
            .file(".claude/agents/y.md", "---\nname: q-two\ndescription: from y\n---\nP\n")
            .home(".claude/agents/u1.md", "---\nname: q-user\ndescription: from u1\n---\nP\n")
            .home(".claude/agents/u2.md", "---\nname: q-user\ndescription: from u2\n---\nP\n"),
        // §7.9: plugin agents (`--plugin-dir`), namespaced, with their own rules.
        case("plugins")
            .file("plugins/pk/.claude-plugin/plugin.json", r#"{"name": "pk", "version": "1.0.0"}"#)
            .file("plugins/pk/agents/same.md", "---\nname: same\ndescription: plugin same\n---\nP\n")
            .file(".claude/agents/same.md", "---\nname: same\ndescription: project same\n---\nP\n")
            .file("plugins/pk/agents/nameless.md", "---\ndescription: no name here\n---\nP\n")
            .file("plugins/pk/agents/review/security.md", "---\ndescription: in a subfolder\n---\nP\n")
            .file("plugins/pk/agents/review/named.md", "---\nname: named-in-sub\ndescription: named, in a subfolder\n---\nP\n")
            .file("plugins/pk/agents/broken.md", "---\ndescription: a: b: c\n  d: - e\n---\nP\n")
            .file("plugins/pk/agents/numdesc.md", "---\nname: numdesc\ndescription: 42\n---\nP\n")
            .file("plugins/pk/agents/booldesc.md", "---\nname: booldesc\ndescription: true\n---\nP\n")
            .file("plugins/pk/agents/listdesc.md", "---\nname: listdesc\ndescription: [a]\n---\nP\n")
            .file("plugins/pk/agents/wtu.md", "---\nname: wtu\nwhen_to_use: fallback description\n---\nP\n")
            .file("plugins/pk/agents/wtu2.md", "---\nname: wtu2\nwhen-to-use: dashed fallback\n---\nP\n")
            .file("plugins/pk/agents/nodesc.md", "---\nname: nodesc\n---\nP\n")
            .file("plugins/pk/agents/ignored.md", "---\nname: ignored\ndescription: ignored keys\npermissionMode: plan\nhooks: {}\nfoo: 1\nmodel: haiku\n---\nP\n")
            .file("plugins/pk/agents/nofm.md", "Just a prompt.\n")
            .file("plugins/pk/agents/colon.md", "---\nname: \"a:b\"\ndescription: colon in a plugin name\n---\nP\n")
            .file("plugins/unnamed/.claude-plugin/plugin.json", r#"{"version": "1.0.0"}"#)
            .file("plugins/unnamed/agents/u.md", "---\nname: u\ndescription: plugin without a name\n---\nP\n"),
        // §4, §5: commands and skills.
        case("commands")
            .file(".claude/commands/c-desc.md", "---\ndescription: Commit it\nargument-hint: <message>\n---\nCommit $ARGUMENTS\n")
            .file(".claude/commands/c-nodesc.md", "First line is the description\n\nRest.\n")
            .file(".claude/commands/c-nodesc-fm.md", "---\nargument-hint: x\n---\nBody first line\n")
            .file(".claude/commands/c-list-hint.md", "---\ndescription: list hint\nargument-hint: [focus-area]\n---\nGo\n")
            .file(".claude/commands/c-bad-hint.md", "---\ndescription: bad hint\nargument-hint: [message] [--amend]\n---\nGo\n")
            .file(".claude/commands/c-num.md", "---\ndescription: 42\nargument-hint: 7\n---\nGo\n")
            .file(".claude/commands/c-name.md", "---\nname: other-name\ndescription: name is ignored\n---\nGo\n")
            .file(".claude/commands/c-broken.md", "---\ndescription: \"unterminated\nargument-hint: x\n---\nBroken body\n")
            .file(".claude/commands/c-retry.md", "---\ndescription: Use it: now\nargument-hint: <a>\n---\nGo\n")
            .file(".claude/commands/c-crlf.md", "---\r\ndescription: crlf command\r\n---\r\nGo\r\n")
            .file(".claude/commands/ns/c-sub.md", "---\ndescription: in a subfolder\n---\nGo\n")
            .file(".claude/commands/c-empty.md", "")
            .file(".claude/commands/c-multi-hint.md", "---\ndescription: multi\nargument-hint: [a, b]\n---\nGo\n")
            .file(".claude/skills/s-named/SKILL.md", "---\nname: s-named-other\ndescription: skill with a name\n---\nGo\n")
            .file(".claude/skills/s-plain/SKILL.md", "---\ndescription: skill plain\nargument-hint: \"[a] [b]\"\n---\nGo\n")
            .file(".claude/skills/s-nodesc/SKILL.md", "---\nname: s-nodesc\n---\nFirst paragraph\nof it.\n\nSecond.\n")
            .home(".claude/commands/c-user.md", "---\ndescription: user command\n---\nGo\n")
            .home(".claude/commands/c-desc.md", "---\ndescription: user loses\n---\nGo\n"),
        // §5, §7.3: a skill's frontmatter goes through the agents' retry; opencode reads the
        // same files with its own (tests/runtime).
        case("skills-lenient")
            .file(".claude/skills/sk-colon/SKILL.md", "---\nname: sk-colon\ndescription: Use this when: the user asks\n---\nBody\n")
            .file(".claude/skills/sk-long/SKILL.md", &format!("---\nname: sk-long\ndescription: {LONG}\n---\nBody\n"))
            .file(".claude/skills/sk-crlf/SKILL.md", "---\r\nname: sk-crlf\r\ndescription: Use this when: crlf\r\n---\r\nFirst paragraph of sk-crlf\r\n")
            .file(".claude/skills/sk-twice/SKILL.md", "---\nname: sk-twice\ndescription: the last wins\nname: sk-twice\n---\nBody\n")
            .file(".claude/skills/sk-broken/SKILL.md", "---\nname: sk-broken\ndescription: d\nfoo: \"open\n---\nFirst paragraph of sk-broken\n")
            .file(".claude/skills/sk-quoted-then/SKILL.md", "---\nname: sk-quoted-then\ndescription: \"Quoted\" then: more\n---\nBody\n")
            .file(".claude/skills/sk-endcolon/SKILL.md", "---\nname: sk-endcolon\ndescription: Examples:\n---\nBody\n"),
        // §4, §5, §7.3: the YAML edge cases of a description and an argument hint, each written
        // as a command and as a skill.
        prompt_edges(),
    ]
}

/// Frontmatters that try YAML's corners on `description` and `argument-hint`: quoting, `: `
/// (the retry), block scalars, comments, tags, anchors, non-strings, duplicates, tabs, CRLF.
const PROMPT_EDGES: &[&str] = &[
    "description: Use it: now\nargument-hint: <a>\n",
    "description: 'single: quoted'\n",
    "description: \"double \\\"escaped\\\"\"\n",
    "description: >\n  folded\n  text\n",
    "description: |\n  literal\n  text\n",
    "description: plain # a comment\n",
    "description: !!str 42\n",
    "description: [a, b]\n",
    "description: {a: b}\n",
    "description: true\n",
    "description: 1e3\n",
    "description: null\n",
    "description: ~\n",
    "description: first\ndescription: second\n",
    "description:\ttabbed\n",
    "argument-hint: <file> [--fix]\ndescription: hinted\n",
    "argument-hint: [x, y]\ndescription: list hint\n",
    "argument-hint: 5\ndescription: number hint\n",
    "argument-hint: \"[a] [b]\"\ndescription: quoted hint\n",
    "description: &d anchored\nargument-hint: *d\n",
    "description: *undefined\n",
    "description: Use this: <example>x: y</example>\n",
    "description: \"unterminated\n",
    "description: \"Quoted\" then: more\n",
    "description: Examples:\n",
    "description: a #not-a-comment and a: colon\n",
    "description: crlf: here\r\nargument-hint: <c>\r\n",
    "when_to_use: later\ndescription: with when\n",
    "description: ''\n",
    "description: \"\"\nargument-hint: \"\"\n",
];

fn prompt_edges() -> GenCase {
    let mut c = case("prompt-edges");
    for (i, fm) in PROMPT_EDGES.iter().enumerate() {
        let nl = if fm.contains('\r') { "\r\n" } else { "\n" };
        let text = format!("---{nl}{fm}---{nl}First line of pe-{i}.{nl}");
        c = c
            .file(&format!(".claude/commands/pe-{i}.md"), &text)
            .file(&format!(".claude/skills/ps-{i}/SKILL.md"), &text.replace("pe-", "ps-"));
    }
    c
}

/// A skill description of 1,100 characters (over the Agent Skills format's 1,024) with a `: `,
/// the shape of a real plugin skill's.
const LONG: &str = "Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use this skill when: the user asks for release notes, a changelog entry or a version bump. Use now.";

/// A file of exactly `size` bytes: `head`, then prompt text.
fn sized(head: &str, size: usize) -> Vec<u8> {
    let mut v = head.as_bytes().to_vec();
    while v.len() < size {
        v.push(if v.len() % 80 == 79 { b'\n' } else { b'x' });
    }
    v.truncate(size);
    v
}

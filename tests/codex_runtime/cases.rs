//! The cases Codex judges: hand-written configurations and agent folders, and the configuration
//! keys generated from agent-lsp's schema (`codex::schema`), each with a valid value, a value of
//! the wrong type, a value out of its range or set, and a misspelt name.

use agent_lsp::analysis::codex::schema;
use agent_lsp::analysis::shape::{Bound, Field, Lit, Object, Rest, Shape};

use super::verdict_support;

/// One project: files by path relative to it.
pub struct Case {
    pub id: String,
    pub files: Vec<(String, String)>,
    /// The folder Codex is started in, relative to the project (`""`: the project).
    pub start: String,
    /// Whether the project is a git work tree (a `.git` folder marks its root).
    pub git: bool,
}

impl Case {
    pub fn new(id: &str, files: Vec<(String, String)>) -> Case {
        Case {
            id: id.to_string(),
            files,
            start: String::new(),
            git: true,
        }
    }

    fn config(id: &str, text: &str) -> Case {
        Case::new(id, vec![(".codex/config.toml".into(), text.to_string())])
    }

    pub fn text(&self, rel: &str) -> Option<&str> {
        self.files.iter().find(|(r, _)| r == rel).map(|(_, t)| t.as_str())
    }

    pub fn has_agents(&self) -> bool {
        self.files.iter().any(|(r, _)| r.starts_with(".codex/agents/"))
    }

    /// The hash of the files, and of where Codex starts when that is not the project's git
    /// root.
    pub fn hash(&self) -> String {
        let place = format!("start={} git={}", self.start, self.git);
        let placed = (!self.start.is_empty() || !self.git).then_some(("(start)", place.as_bytes()));
        verdict_support::hash_files(self.files.iter().map(|(r, t)| (r.as_str(), t.as_bytes())).chain(placed))
    }
}

/// The `name = "..."` an agent file gives itself (as the comparison needs it; a file without one
/// cannot load).
pub fn name_of(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let rest = l.trim().strip_prefix("name")?.trim_start().strip_prefix('=')?.trim();
        let name = rest.strip_prefix('"')?.strip_suffix('"')?;
        (!name.trim().is_empty()).then(|| name.to_string())
    })
}

/// The role of the case's `config.toml` that points at agent file `rel` (`[agents.<name>]` with
/// `config_file = "./agents/x.toml"`, relative to `.codex/`): its name.
pub fn declared_name(case: &Case, rel: &str) -> Option<String> {
    let config = case.text(".codex/config.toml")?;
    let mut role: Option<&str> = None;
    for l in config.lines() {
        let l = l.trim();
        if let Some(h) = l.strip_prefix("[agents.").and_then(|h| h.strip_suffix(']')) {
            role = Some(h);
        } else if l.starts_with('[') {
            role = None;
        } else if let (Some(r), Some(v)) = (role, l.strip_prefix("config_file = \"")) {
            let file = v.trim_end_matches('"').trim_start_matches("./");
            if format!(".codex/{file}") == rel {
                return Some(r.to_string());
            }
        }
    }
    None
}

/// The one-line `description = "..."` an agent file gives itself.
pub fn description_of(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let rest = l
            .trim()
            .strip_prefix("description")?
            .trim_start()
            .strip_prefix('=')?
            .trim();
        Some(rest.strip_prefix('"')?.strip_suffix('"')?.to_string())
    })
}

/// Every case, hand-written first.
pub fn all() -> Vec<Case> {
    let mut out: Vec<Case> = CONFIGS.iter().map(|(id, t)| Case::config(id, t)).collect();
    for (id, files) in AGENTS {
        out.push(Case::new(
            id,
            files
                .iter()
                .map(|(r, t)| ((*r).to_string(), (*t).to_string()))
                .collect(),
        ));
    }
    out.extend(corpus());
    out.extend(super::docs::cases());
    out.extend(super::skills::cases());
    out.extend(generated());
    out
}

/// The real files of `tests/corpus/codex/`, one case per repository (`corpus-<owner>__<repo>`).
fn corpus() -> Vec<Case> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/codex");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("tests/corpus/codex")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs.iter()
        .map(|dir| {
            let mut files = Vec::new();
            collect(dir, dir, &mut files);
            files.sort();
            Case::new(&format!("corpus-{}", dir.file_name().unwrap().to_string_lossy()), files)
        })
        .collect()
}

fn collect(root: &std::path::Path, dir: &std::path::Path, out: &mut Vec<(String, String)>) {
    for e in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
        let p = e.path();
        if p.is_dir() {
            collect(root, &p, out);
        } else {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            out.push((rel, std::fs::read_to_string(&p).unwrap()));
        }
    }
}

/// Hand-written configurations: the facts of the issue and the fact sheet, and the valid files.
const CONFIGS: &[(&str, &str)] = &[
    ("empty", ""),
    // What `agent-lsp setup codex --write` adds to an empty project (`tests/setup.rs` holds
    // setup to this text): Codex takes it and lists the server.
    (
        "setup:the-table-setup-codex-writes",
        "[mcp_servers.agent-lsp]\ncommand = \"agent-lsp\"\nargs = [\"mcp\"]\n",
    ),
    (
        "valid-full",
        "model = \"gpt-5.1-codex\"\nmodel_reasoning_effort = \"high\"\napproval_policy = \"on-request\"\nsandbox_mode = \"workspace-write\"\nproject_doc_max_bytes = 65536\nproject_doc_fallback_filenames = [\"CLAUDE.md\"]\n\n[sandbox_workspace_write]\nnetwork_access = false\n\n[features]\nweb_search_request = true\ncollab = true\n\n[mcp_servers.docs]\ncommand = \"npx\"\nargs = [\"-y\", \"@upstash/context7-mcp@1.0.0\"]\nenv = { LOG = \"info\" }\nstartup_timeout_sec = 20\n\n[mcp_servers.remote]\nurl = \"https://example.com/mcp\"\nbearer_token_env_var = \"REMOTE_TOKEN\"\n\n[model_providers.local]\nname = \"Local\"\nbase_url = \"http://127.0.0.1:11434/v1\"\n\n[agents]\nmax_threads = 4\n\n[tui]\nnotifications = [\"agent-turn-complete\"]\n\n[shell_environment_policy]\ninherit = \"core\"\nset = { CI = \"1\" }\n",
    ),
    ("bad-enum", "approval_policy = \"sometimes\"\n"),
    ("bad-enum-table", "[tui]\nnotification_method = \"loud\"\n"),
    (
        "granular",
        "approval_policy = { granular = { sandbox_approval = true, rules = false, mcp_elicitations = false } }\n",
    ),
    (
        "granular-missing",
        "approval_policy = { granular = { sandbox_approval = true } }\n",
    ),
    ("unknown-top", "model_reasoning_efort = \"low\"\nmodel = \"o3\"\n"),
    (
        "unknown-several",
        "modle = \"o3\"\nsandbox = \"read-only\"\n[mcp_servers.x]\ncommand = \"npx\"\nenviroment = { A = \"b\" }\n[features]\nnot_a_flag = true\n",
    ),
    ("effort-any-string", "model_reasoning_effort = \"extreme\"\n"),
    ("mcp-misspelt-command", "[mcp_servers.docs]\ncomand = \"npx\"\n"),
    ("mcp-nothing", "[mcp_servers.docs]\nenabled = true\n"),
    (
        "mcp-both",
        "[mcp_servers.docs]\ncommand = \"npx\"\nurl = \"http://127.0.0.1:9/mcp\"\n",
    ),
    (
        "mcp-url-with-args",
        "[mcp_servers.docs]\nurl = \"http://127.0.0.1:9/mcp\"\nargs = [\"a\"]\n",
    ),
    (
        "mcp-stdio-with-headers",
        "[mcp_servers.docs]\ncommand = \"npx\"\nhttp_headers = { A = \"b\" }\n",
    ),
    (
        "mcp-args-string",
        "[mcp_servers.docs]\ncommand = \"npx\"\nargs = \"-y x\"\n",
    ),
    (
        "mcp-env-vars-forms",
        "[mcp_servers.docs]\ncommand = \"npx\"\nenv_vars = [\"A\", { name = \"B\", source = \"local\" }]\n",
    ),
    ("profile-legacy-key", "profile = \"fast\"\n"),
    ("profiles-table", "[profiles.fast]\nmodel = \"o3\"\n"),
    ("permissions-without-default", "[permissions.p]\ndescription = \"x\"\n"),
    (
        "wire-api-chat",
        "[model_providers.x]\nname = \"X\"\nwire_api = \"chat\"\n",
    ),
    ("integer-as-float", "project_doc_max_bytes = 1.0\n"),
    ("negative-bytes", "project_doc_max_bytes = -1\n"),
    ("syntax-error", "model = \"o3\nsandbox_mode = \"read-only\"\n"),
    ("duplicate-key", "model = \"o3\"\nmodel = \"o4\"\n"),
    (
        "agents-role-table",
        "[agents.reviewer]\ndescription = \"Reviews\"\nnickname_candidates = [\"Ada\"]\n",
    ),
    ("agents-zero-threads", "[agents]\nmax_threads = 0\n"),
    (
        "projects-trust",
        "[projects.\"/tmp/elsewhere\"]\ntrust_level = \"trusted\"\n",
    ),
    (
        "projects-bad-trust",
        "[projects.\"/tmp/elsewhere\"]\ntrust_level = \"yes\"\n",
    ),
    ("skills-config", "[[skills.config]]\nname = \"x\"\nenabled = false\n"),
    ("skills-config-no-enabled", "[[skills.config]]\nname = \"x\"\n"),
    ("notify-string", "notify = \"notify-send\"\n"),
    ("web-search-indexed", "web_search = \"indexed\"\n"),
    ("tui-osc777", "[tui]\nnotification_method = \"osc777\"\n"),
    (
        "features-legacy-names",
        "[features]\ncodex_hooks = true\ntelepathy = false\nconnectors = true\n",
    ),
    (
        "features-table-flag",
        "[features]\nmulti_agent_v2 = { enabled = true }\n",
    ),
    ("features-not-bool", "[features]\nhooks = \"yes\"\n"),
];

/// Hand-written agent folders (`.codex/agents/`).
const AGENTS: &[(&str, &[(&str, &str)])] = &[
    (
        "agents-mixed",
        &[
            (
                ".codex/agents/reviewer.toml",
                "name = \"reviewer\"\ndescription = \"Reviews code\"\ndeveloper_instructions = \"Review carefully.\"\n",
            ),
            (
                ".codex/agents/typo.toml",
                "name = \"typo\"\ndescripton = \"typo\"\ndeveloper_instructions = \"x\"\n",
            ),
            (
                ".codex/agents/noinst.toml",
                "name = \"noinst\"\ndescription = \"no instructions\"\n",
            ),
            (
                ".codex/agents/nodesc.toml",
                "name = \"nodesc\"\ndeveloper_instructions = \"x\"\n",
            ),
            (
                ".codex/agents/blank.toml",
                "name = \"blank\"\ndescription = \"  \"\ndeveloper_instructions = \"x\"\n",
            ),
            (
                ".codex/agents/noname.toml",
                "description = \"d\"\ndeveloper_instructions = \"x\"\n",
            ),
            (
                ".codex/agents/badtype.toml",
                "name = \"badtype\"\ndescription = \"d\"\ndeveloper_instructions = \"x\"\nmodel = 5\n",
            ),
            (
                ".codex/agents/badenum.toml",
                "name = \"badenum\"\ndescription = \"d\"\ndeveloper_instructions = \"x\"\nsandbox_mode = \"nope\"\n",
            ),
            (
                ".codex/agents/layer.toml",
                "name = \"layer\"\ndescription = \"with settings\"\ndeveloper_instructions = \"x\"\nmodel = \"o3\"\nsandbox_mode = \"read-only\"\nmodel_reasoning_effort = \"high\"\n[mcp_servers.x]\ncommand = \"a\"\nenviroment = \"b\"\n",
            ),
            (
                ".codex/agents/sub/deep.toml",
                "name = \"deep\"\ndescription = \"in a subfolder\"\ndeveloper_instructions = \"x\"\n",
            ),
            (
                ".codex/agents/spaced.toml",
                "name = \"Has Space\"\ndescription = \"a name with a space\"\ndeveloper_instructions = \"x\"\nnickname_candidates = [\"a b\"]\n",
            ),
            (
                ".codex/agents/broken.toml",
                "name = \"broken\"\ndescription = \"d\ndeveloper_instructions = \"x\"\n",
            ),
        ],
    ),
    (
        "agents-declared-in-config",
        &[
            (
                ".codex/config.toml",
                "[agents.reviewer]\ndescription = \"Find security, correctness and test risks.\"\nconfig_file = \"./agents/reviewer.toml\"\n\n[agents.explorer2]\nconfig_file = \"./agents/explorer2.toml\"\n",
            ),
            (
                ".codex/agents/reviewer.toml",
                "model = \"gpt-5.4\"\nmodel_reasoning_effort = \"high\"\ndeveloper_instructions = \"\"\"\nFocus on high priority issues.\n\"\"\"\n",
            ),
            (
                ".codex/agents/explorer2.toml",
                "developer_instructions = \"Explore.\"\n",
            ),
            (
                ".codex/agents/orphan.toml",
                "model = \"gpt-5.4\"\ndeveloper_instructions = \"x\"\n",
            ),
        ],
    ),
    (
        "agents-duplicate-names",
        &[
            (
                ".codex/agents/dup1.toml",
                "name = \"dup\"\ndescription = \"first dup\"\ndeveloper_instructions = \"x\"\n",
            ),
            (
                ".codex/agents/dup2.toml",
                "name = \"dup\"\ndescription = \"second dup\"\ndeveloper_instructions = \"x\"\n",
            ),
        ],
    ),
    (
        // Codex sorts the folder by path: `reviewer-copy.toml` comes before `reviewer.toml`.
        "agents-duplicate-order",
        &[
            (
                ".codex/agents/reviewer.toml",
                "name = \"reviewer\"\ndescription = \"the original\"\ndeveloper_instructions = \"x\"\n",
            ),
            (
                ".codex/agents/reviewer-copy.toml",
                "name = \"reviewer\"\ndescription = \"the copy\"\ndeveloper_instructions = \"x\"\n",
            ),
            (
                ".codex/agents/zz.toml",
                "name = \"late\"\ndescription = \"from zz\"\ndeveloper_instructions = \"x\"\n",
            ),
            (
                ".codex/agents/mm.toml",
                "name = \"late\"\ndescription = \"from mm\"\ndeveloper_instructions = \"x\"\n",
            ),
        ],
    ),
    (
        "agents-valid",
        &[
            (
                ".codex/agents/explorer2.toml",
                "name = \"explorer2\"\ndescription = \"Explores\"\ndeveloper_instructions = \"Find things.\"\nnickname_candidates = [\"Scout\"]\n",
            ),
            (".codex/config.toml", "[agents]\nmax_depth = 2\n"),
        ],
    ),
];

/// A sample value of `shape` that Codex takes, for field `name`; `None` for a shape not generated.
fn valid(name: &str, shape: &Shape) -> Option<String> {
    Some(match shape {
        Shape::Str => match name {
            // Files Codex reads at start, relative to the configuration's folder.
            n if n.ends_with("_file") || n.ends_with("_json") => "\"config.toml\"".into(),
            n if n.ends_with("_dir") || n.ends_with("_home") || n == "cwd" => "\".\"".into(),
            "model_provider" => "\"openai\"".into(),
            "oss_provider" => "\"ollama\"".into(),
            "default_permissions" => "\":read-only\"".into(),
            n if n.contains("url") => "\"http://127.0.0.1:9/\"".into(),
            _ => "\"x\"".into(),
        },
        // `false`: `true` turns some features on that need more settings.
        Shape::Bool => "false".into(),
        Shape::Int(n) | Shape::Num(n) => match n.min {
            Bound::Incl(m) => format!("{}", m.max(1.0) as i64),
            Bound::Excl(m) => format!("{}", m as i64 + 1),
            Bound::None => "1".into(),
        },
        Shape::Lit(lits) => match lits.first()? {
            Lit::Str(s) => format!("\"{s}\""),
            Lit::Bool(b) => b.to_string(),
        },
        Shape::Array(item) => format!("[{}]", valid(name, item)?),
        Shape::Union(members) => valid(name, members.first()?)?,
        _ => return None,
    })
}

/// A value of a type `shape` does not take.
fn wrong_type(shape: &Shape) -> Option<&'static str> {
    Some(match shape {
        Shape::Str | Shape::Lit(_) => "1",
        Shape::Bool | Shape::Int(_) | Shape::Num(_) | Shape::Array(_) => "\"zz\"",
        Shape::Object(_) | Shape::Record(_) => "1",
        Shape::Union(ms)
            if ms
                .iter()
                .all(|m| matches!(m, Shape::Str | Shape::Lit(_) | Shape::Array(_))) =>
        {
            "1"
        }
        _ => return None,
    })
}

/// A value of the right type that `shape` refuses.
fn out_of_range(shape: &Shape) -> Option<String> {
    match shape {
        Shape::Lit(lits) if lits.iter().all(|l| matches!(l, Lit::Str(_))) => Some("\"zz-not-a-value\"".into()),
        Shape::Int(n) => match n.min {
            Bound::Incl(m) => Some(format!("{}", m as i64 - 1)),
            Bound::Excl(m) => Some(format!("{}", m as i64)),
            Bound::None => Some("1.5".into()),
        },
        _ => None,
    }
}

/// Where a generated key goes: the table header path and any line the table needs.
struct Place {
    header: Vec<String>,
    needs: Vec<String>,
}

/// Fields not generated: with a reason.
const SKIPPED: &[(&str, &str)] = &[
    ("profile", "refused whatever its value (a hand-written case)"),
    ("profiles", "a legacy table (a hand-written case)"),
    ("projects", "keyed by path (hand-written cases)"),
    ("permissions", "needs default_permissions (a hand-written case)"),
    ("default_permissions", "names a profile of [permissions]"),
    ("experimental_thread_store_endpoint", "a remote store Codex would reach"),
    ("openai_base_url", "the harness sets it to keep Codex off the network"),
    ("model_provider", "must name a provider"),
    ("model_catalog_json", "names a JSON catalog Codex reads at start"),
];

/// The generated cases: each field of the schema at its place, four ways.
fn generated() -> Vec<Case> {
    let mut out = Vec::new();
    let Shape::Object(top) = &schema::CONFIG else {
        unreachable!()
    };
    walk(
        top,
        &Place {
            header: Vec::new(),
            needs: Vec::new(),
        },
        &mut out,
    );
    out
}

fn walk(object: &'static Object, place: &Place, out: &mut Vec<Case>) {
    for f in object.fields {
        if place.header.is_empty() && SKIPPED.iter().any(|(n, _)| *n == f.name) {
            continue;
        }
        field(f, place, out);
        match &f.shape {
            Shape::Object(inner) => walk(
                inner,
                &Place {
                    header: [place.header.clone(), vec![f.name.to_string()]].concat(),
                    needs: Vec::new(),
                },
                out,
            ),
            Shape::Record(Shape::Object(inner)) => walk_record(f.name, inner, place, out),
            _ => {}
        }
    }
    if let Rest::Keep(Shape::Object(inner)) = &object.rest {
        // A table whose other keys are entries of their own (`[agents.<role>]`).
        walk(
            inner,
            &Place {
                header: [place.header.clone(), vec!["x".to_string()]].concat(),
                needs: Vec::new(),
            },
            out,
        );
    }
}

/// The entries of a table of entries (`[mcp_servers.<name>]`): one entry `x`.
fn walk_record(name: &str, inner: &'static Object, place: &Place, out: &mut Vec<Case>) {
    let header = [place.header.clone(), vec![name.to_string(), "x".to_string()]].concat();
    let mcp = place.header.is_empty() && name == "mcp_servers";
    for f in inner.fields {
        // An MCP server is local or remote: a field of one kind gets that kind's key.
        let needs = if mcp {
            let remote = matches!(
                f.name,
                "url" | "bearer_token_env_var" | "http_headers" | "env_http_headers" | "oauth_resource" | "oauth"
            );
            match (f.name, remote) {
                ("command" | "url", _) => Vec::new(),
                (_, true) => vec!["url = \"http://127.0.0.1:9/mcp\"".to_string()],
                (_, false) => vec!["command = \"true\"".to_string()],
            }
        } else {
            inner
                .fields
                .iter()
                .filter(|r| r.required && r.name != f.name)
                .filter_map(|r| Some(format!("{} = {}", r.name, valid(r.name, &r.shape)?)))
                .collect()
        };
        field(
            f,
            &Place {
                header: header.clone(),
                needs,
            },
            out,
        );
    }
}

fn field(f: &Field, place: &Place, out: &mut Vec<Case>) {
    let mut id_path = place.header.clone();
    id_path.push(f.name.to_string());
    let id = id_path.join(".");
    let text = |key: &str, value: &str| -> String {
        let mut t = String::new();
        if !place.header.is_empty() {
            t.push_str(&format!("[{}]\n", place.header.join(".")));
        }
        for n in &place.needs {
            t.push_str(n);
            t.push('\n');
        }
        t.push_str(&format!("{key} = {value}\n"));
        t
    };
    let mut push = |how: &str, t: String| out.push(Case::config(&format!("gen:{id}:{how}"), &t));
    match &f.shape {
        // A table agent-lsp does not look into may need keys it does not know.
        Shape::Record(Shape::Any) => {}
        Shape::Object(_) | Shape::Record(_) => {
            push("empty", text(f.name, "{}"));
        }
        s => {
            if let Some(v) = valid(f.name, s) {
                push("valid", text(f.name, &v));
            }
        }
    }
    if let Some(w) = wrong_type(&f.shape) {
        push("type", text(f.name, w));
    }
    if let Some(v) = out_of_range(&f.shape) {
        push("range", text(f.name, &v));
    }
    if let Some(v) = valid(f.name, &f.shape)
        .or_else(|| matches!(f.shape, Shape::Object(_) | Shape::Record(_)).then(|| "{}".to_string()))
    {
        push("misspelt", text(&format!("{}zq", f.name), &v));
    }
}

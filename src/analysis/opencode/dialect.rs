//! opencode behind the one dialect interface ([`DialectSpec`]): what the workspace and the front
//! ends ask of it.

use super::discover;
use crate::analysis::Diagnostic;
use crate::analysis::Span;
use crate::analysis::discovery::{Claim, CommandHome, Disk, Load, Pile, SkillHome, Stage, UserLayer};
use crate::analysis::host::Options;
use crate::analysis::host::{Host, HostFile, Role};
use crate::analysis::provenance::WhereIs;
use crate::analysis::spec::At;
use crate::analysis::spec::{DialectSpec, DialectUnit, Hover, NameAt, Reads, UnitRef};
use crate::analysis::syntax::Node;

use super::DeclOrigin;

/// opencode's implementation of the dialect interface.
pub struct Spec;

impl DialectSpec for Spec {
    fn identity(&self) -> crate::analysis::spec::Identity {
        crate::analysis::spec::Identity {
            name: "opencode",
            product: "opencode",
            aliases: &[],
            checked_against: Some("1.18.34"),
        }
    }

    fn not_read_note(&self, kind: &crate::analysis::FileKind) -> Option<&'static str> {
        kind.is_config().then_some(
            "opencode reads a config only as `opencode.json` or `opencode.jsonc` (in a project, `.opencode/` or the global config folder)",
        )
    }

    /// A Markdown agent is named by its path below its config directory: the renamed file
    /// stays in the same top folder (`agents/`, `agent/`, ...).
    fn renamed_file(&self, file: &HostFile, new_name: &str) -> Option<std::path::PathBuf> {
        let dir = super::place::dir_at(file, super::place::Place::Markdown)?;
        crate::analysis::spec::renamed_in(dir, file.path, new_name)
    }

    fn names_key(&self, kind: &crate::analysis::FileKind, analysis: &crate::analysis::FileAnalysis) -> Option<u64> {
        super::views::names_key(kind, analysis)
    }

    fn policy_parts(&self, host: &dyn Host, dir: &std::path::Path) -> Vec<crate::analysis::spec::PolicyPart> {
        super::policy_parts::parts(host, dir)
    }

    fn policy_agents(
        &self,
        host: &dyn Host,
        dir: &std::path::Path,
        judge: &mut dyn FnMut(&mut dyn Iterator<Item = crate::analysis::agents::Explained<'_>>),
    ) -> bool {
        super::policy_parts::agents(host, dir, judge);
        true
    }

    fn part_agents(
        &self,
        host: &dyn Host,
        file: usize,
        view: (&[usize], &[usize]),
        judge: &mut dyn FnMut(&mut dyn Iterator<Item = crate::analysis::agents::Explained<'_>>),
    ) {
        super::policy_parts::part_agents(host, file, view, judge);
    }

    fn disk_checks(&self, host: &dyn Host, id: usize) -> Vec<crate::analysis::spec::DiskFindings> {
        super::disk::checks(host, id)
    }

    fn substitute(&self, host: &dyn Host, id: usize) -> Option<crate::analysis::spec::Substituted> {
        super::disk::substitute(host, id)
    }

    fn analyze(&self, kind: &crate::analysis::FileKind, text: &str) -> Option<crate::analysis::FileAnalysis> {
        let a = super::analyze(kind.opencode()?, text);
        let facts = crate::analysis::Facts::Opencode(Box::new(a.facts));
        Some(crate::analysis::FileAnalysis::of(a.parsed, a.diagnostics, facts))
    }

    fn complete(
        &self,
        kind: &crate::analysis::FileKind,
        text: &str,
        offset: usize,
        host: &dyn Host,
        id: Option<usize>,
    ) -> Option<Vec<crate::analysis::complete::Item>> {
        let k = kind.opencode()?;
        Some(super::complete::complete(
            k,
            text,
            offset,
            &super::views::known(host, id),
        ))
    }

    fn builtin_agents(&self) -> Vec<&'static str> {
        super::schema::BUILTIN_AGENTS.iter().map(|b| b.name).collect()
    }

    fn instruction_reader(
        &self,
        _host: &dyn Host,
        _dir: &std::path::Path,
        which: crate::analysis::instructions::Which,
        chain: &[crate::analysis::instructions::Level],
        _imported_by: Option<&str>,
    ) -> Option<crate::analysis::instructions::Verdict> {
        Some(super::instructions::readers(which, chain))
    }

    fn command_keys(&self) -> &'static [(&'static str, &'static str)] {
        super::command::KEYS
    }

    fn command_template(&self) -> Option<crate::analysis::command::Template<'static>> {
        Some(super::command::TEMPLATE)
    }

    fn skill_loader(&self) -> Option<crate::analysis::skill::Loader> {
        Some(super::skill::LOADER)
    }

    fn policy_names(&self) -> Vec<(&'static str, &'static str)> {
        super::schema::PERMISSION_KEYS
            .iter()
            .map(|k| (k.name, k.matches))
            .collect()
    }

    // Discovery (see `discover.rs`).
    fn config_folders(&self) -> &'static [&'static str] {
        &[".opencode"]
    }

    fn walk_keeps(&self, path: &std::path::Path, depth: usize, _disk: &dyn Disk) -> Option<Pile> {
        discover::walk_keeps(path, depth)
    }

    fn whole_folders(&self, dirs: &[std::path::PathBuf], configs: &[std::path::PathBuf]) -> Vec<std::path::PathBuf> {
        discover::whole_folders(dirs, configs)
    }

    fn folder_files(&self, dir: &std::path::Path, disk: &dyn Disk) -> Vec<Load> {
        discover::agents_of(dir, disk)
    }

    fn kind_of(&self, path: &std::path::Path, at: &At, stage: Stage) -> Claim {
        discover::kind_of(path, at, stage)
    }

    fn kind_alone(&self, path: &std::path::Path, _at: &At, stage: Stage) -> Claim {
        discover::kind_alone(path, stage)
    }

    fn project_of_role(&self, role: &Role) -> Option<Option<std::path::PathBuf>> {
        discover::project_of_role(role)
    }

    fn enclosing_project(&self, root: &std::path::Path) -> Option<std::path::PathBuf> {
        discover::enclosing_project(root)
    }

    /// The global config folder (`$XDG_CONFIG_HOME/opencode`, `~/.config/opencode`, or the one
    /// named), `~/.opencode`, `$OPENCODE_CONFIG`, `$OPENCODE_CONFIG_DIR` and
    /// `$OPENCODE_TUI_CONFIG`.
    fn user_options(
        &self,
        env: &dyn Fn(&str) -> Option<std::path::PathBuf>,
        global_dir: Option<&std::path::Path>,
        o: &mut Options,
    ) {
        use super::user::{CONFIG_DIR, CONFIG_FILE, GLOBAL_DIR, HOME_DOT_OPENCODE, TUI_CONFIG};
        let global = global_dir.map(std::path::Path::to_path_buf).or_else(|| {
            env("XDG_CONFIG_HOME")
                .map(|x| x.join("opencode"))
                .or_else(|| o.home.as_ref().map(|h| h.join(".config").join("opencode")))
        });
        o.set_user(GLOBAL_DIR, global);
        o.set_user(HOME_DOT_OPENCODE, o.home.as_ref().map(|h| h.join(".opencode")));
        o.set_user(CONFIG_FILE, env("OPENCODE_CONFIG"));
        o.set_user(CONFIG_DIR, env("OPENCODE_CONFIG_DIR"));
        o.set_user(TUI_CONFIG, env("OPENCODE_TUI_CONFIG"));
    }

    fn user_folders(&self, o: &Options) -> Vec<std::path::PathBuf> {
        let o = super::user::of(o);
        [o.global_dir, o.home_dot_opencode, o.config_dir, o.config_file]
            .into_iter()
            .flatten()
            .map(std::path::Path::to_path_buf)
            .collect()
    }

    fn user_layer(&self, options: &Options, disk: &dyn Disk) -> UserLayer {
        discover::user_layer(options, disk)
    }

    fn context_files(&self, dir: &std::path::Path, disk: &dyn Disk) -> Vec<Load> {
        discover::context_files(dir, disk)
    }

    fn files_beside(&self, role: &Role, at: &At) -> Vec<Load> {
        discover::files_beside(role, at.disk)
    }

    fn skill_homes(&self) -> &'static [SkillHome] {
        &[
            SkillHome {
                folder: ".opencode",
                subs: &["skill", "skills"],
                owner: true,
                depths: &[],
            },
            SkillHome {
                folder: ".claude",
                subs: &["skills"],
                owner: false,
                depths: &[],
            },
            SkillHome {
                folder: ".agents",
                subs: &["skills"],
                owner: true,
                depths: &[],
            },
        ]
    }

    fn command_homes(&self) -> &'static [CommandHome] {
        &[CommandHome {
            folder: ".opencode",
            subs: &["command", "commands"],
            separator: '/',
        }]
    }

    fn solo_kind(
        &self,
        path: Option<&std::path::Path>,
        name: &str,
        language_id: &str,
        text: &str,
        _disk: &dyn Disk,
    ) -> Option<crate::analysis::FileKind> {
        discover::solo_kind(path, name, language_id, text)
    }

    /// An error in a config stops opencode: it starts with none of it.
    fn refuses_configuration(&self) -> bool {
        true
    }

    fn list_rank(&self) -> u8 {
        0
    }

    fn watched(&self) -> &'static [&'static str] {
        &["**/opencode.json", "**/opencode.jsonc", "**/tui.json", "**/tui.jsonc"]
    }

    fn instruction_names(&self) -> &'static [&'static str] {
        super::instructions::NAMES
    }

    fn setup_help(&self) -> Option<&'static str> {
        Some(super::setup::HELP)
    }

    fn setup(&self, ask: &crate::analysis::setup::Ask) -> Result<Vec<crate::analysis::setup::Step>, String> {
        super::setup::steps(ask)
    }

    fn comments(&self, kind: &crate::analysis::FileKind) -> crate::analysis::suppress::Comments {
        use crate::analysis::suppress::Comments;
        match kind.opencode() {
            Some(super::FileKind::Config | super::FileKind::Tui) => Comments::Jsonc,
            // A theme is read as strict JSON.
            Some(super::FileKind::Theme) => Comments::None,
            _ => Comments::Frontmatter,
        }
    }

    fn declarations(&self, analysis: &crate::analysis::FileAnalysis, names: &[String]) -> Vec<(Span, Option<Span>)> {
        analysis
            .agents()
            .iter()
            .filter(|d| names.contains(&d.name))
            .map(|d| (d.span, d.node.as_ref().map(|n| n.span)))
            .collect()
    }

    fn parses_as_written(&self, analysis: &crate::analysis::FileAnalysis) -> bool {
        analysis.reading().is_none_or(|r| r == super::markdown::Reading::Parsed)
    }

    /// `provider.<p>.models.<m>` and `model`, `small_model` of a config; the `model` of each
    /// agent.
    fn declared_models(&self, f: &HostFile<'_>) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(root) = f.analysis.parsed.root.as_ref().and_then(|r| r.as_map())
            && f.kind.is_config()
        {
            if let Some(providers) = root.value("provider").and_then(|p| p.as_map()) {
                for p in providers.entries.iter() {
                    if let Some(models) = p
                        .value
                        .as_map()
                        .and_then(|m| m.value("models"))
                        .and_then(|m| m.as_map())
                    {
                        for m in models.entries.iter() {
                            out.push(format!("{}/{}", p.key.name, m.key.name));
                        }
                    }
                }
            }
            for k in ["model", "small_model"] {
                if let Some(m) = root.value(k).and_then(|v| v.as_str()) {
                    out.push(m.to_string());
                }
            }
        }
        for a in f.analysis.agents() {
            if let Some(m) = a
                .node
                .as_ref()
                .and_then(|n| n.as_map())
                .and_then(|m| m.value("model"))
                .and_then(|v| v.as_str())
            {
                out.push(m.to_string());
            }
        }
        out
    }

    fn rules(&self) -> &'static [crate::analysis::Code] {
        super::schema::RULES
    }

    fn hover(&self, host: &dyn Host, id: usize, offset: usize, where_is: WhereIs) -> Option<Option<Hover>> {
        super::hover::hover(host, id, offset, where_is)
    }

    fn agent_names(&self, file: &HostFile) -> Option<Vec<NameAt>> {
        agent_names(file)
    }

    /// On a `skill` permission pattern: the `SKILL.md` files whose skill it matches, among
    /// those opencode loads for the file's project.
    fn other_definitions(&self, host: &dyn Host, id: usize, offset: usize) -> Option<Vec<(usize, Span)>> {
        let pattern = skill_pattern_at(&host.file(id)?, offset)?;
        let Some(dir) = super::views::project_dir_of_file(host, id) else {
            return Some(Vec::new());
        };
        Some(
            super::views::skills(host, &dir)
                .into_iter()
                .filter(|(name, _)| crate::analysis::permission::wildcard_match(name, &pattern))
                .filter_map(|(_, id)| {
                    let id = id?;
                    Some((id, host.file(id)?.analysis.skill()?.span))
                })
                .collect(),
        )
    }

    /// Which opencode agents of the project may load the skill: each agent's `skill`
    /// permission for it.
    fn skill_notes(&self, host: &dyn Host, id: usize, where_is: WhereIs) -> Option<String> {
        let f = host.file(id)?;
        let (Role::Skill { dir }, Some(name)) = (f.role, f.analysis.skill()?.name.as_ref()) else {
            return None;
        };
        Some(super::views::skill_access(host, dir, name, where_is))
    }

    /// The project folders of the views at or below `dir`.
    fn starts(&self, host: &dyn Host, dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        super::views::project_views(host)
            .into_iter()
            .map(|(p, _)| p)
            .filter(|p| p.starts_with(dir))
            .collect()
    }

    /// opencode fills `{env:NAME}` in anywhere in its JSON configs, before it parses them.
    fn secret_fix(
        &self,
        kind: &crate::analysis::FileKind,
        _path: &[String],
    ) -> Option<crate::analysis::spec::SecretFix> {
        matches!(kind.own()?, super::FileKind::Config).then_some(crate::analysis::spec::SecretFix {
            reference: Some("{env:NAME}"),
            advice: "",
        })
    }

    /// The view of `start` and its effective agents.
    fn agents<'h>(
        &self,
        host: &'h dyn Host,
        start: &std::path::Path,
    ) -> (Vec<usize>, Box<dyn crate::analysis::agents::AgentSet + 'h>) {
        let view = super::views::view_for(host, start);
        let env = super::views::effective_env(host, start);
        let agents = super::effective::agents(&super::views::view_files(host, &view), &env);
        (view, Box::new(super::agents::Agents(agents)))
    }

    /// A Markdown agent or mode file is named by its path.
    fn would_define(&self, file: &HostFile, name: &str) -> Option<Option<String>> {
        match file.kind.opencode()? {
            super::FileKind::Agent { name: n } | super::FileKind::Mode { name: n } => (n == name).then_some(None),
            _ => None,
        }
    }

    /// Each project's view (with every skill, for the `skill` patterns), and the themes with
    /// the `tui.json` files that choose one.
    fn units(&self, host: &dyn Host) -> Vec<DialectUnit> {
        let skills: Vec<usize> = host
            .files()
            .filter(|f| matches!(f.role, Role::Skill { .. }))
            .map(|f| f.id)
            .collect();
        let all_groups = super::views::groups(host);
        let mut out = Vec::new();
        for (dir, view) in super::views::project_views(host) {
            let mut inputs = view.clone();
            inputs.extend(&skills);
            let groups = view.iter().map(|&i| all_groups[i]).collect();
            out.push(DialectUnit {
                part: "view",
                dir: Some(dir),
                view,
                inputs,
                groups,
            });
        }
        let themes: Vec<usize> = host
            .files()
            .filter(|f| {
                matches!(
                    super::place::place(f),
                    Some((_, super::place::Place::Theme | super::place::Place::Tui))
                )
            })
            .map(|f| f.id)
            .collect();
        if !themes.is_empty() {
            out.push(DialectUnit::over("themes", themes));
        }
        out
    }

    fn check_unit(&self, host: &dyn Host, unit: UnitRef) -> (Vec<(usize, Diagnostic)>, Reads) {
        match (unit.part, unit.dir) {
            ("view", Some(dir)) => {
                let vf: Vec<super::project::ViewFile> = unit
                    .view
                    .iter()
                    .zip(unit.groups)
                    .filter_map(|(&id, &group)| Some(host.file(id)?.effective.opencode_view(id, group)))
                    .collect();
                let skills = super::views::skills(host, dir);
                let names: Vec<&str> = skills.iter().map(|(n, _)| n.as_str()).collect();
                let (mut d, mut files, looked_up) = super::project::check_and_reads(&vf);
                d.extend(super::project::check_skill_patterns(&vf, &names));
                let (overridden, read) = super::overridden::check(&vf, &|id| host.file(id).map(|f| f.text));
                d.extend(overridden);
                files.extend(read);
                files.sort_unstable();
                files.dedup();
                (d, Reads::Names(files, looked_up))
            }
            ("themes", _) => (super::views::theme_checks(host), Reads::All),
            _ => (Vec::new(), Reads::All),
        }
    }

    fn project_of_file(&self, host: &dyn Host, id: usize) -> Option<std::path::PathBuf> {
        super::views::project_dir_of_file(host, id)
    }

    /// Its data, temporary and skill folders, as its environment in `start` finds them.
    fn path_names(&self, host: &dyn Host, start: &std::path::Path) -> Option<crate::analysis::card::PathNames> {
        Some(super::views::path_names(
            host,
            start,
            &super::views::effective_env(host, start),
        ))
    }

    fn view_of_file(&self, host: &dyn Host, id: usize) -> Vec<usize> {
        super::views::view_of_file(host, id)
    }

    fn command_agents(&self, host: &dyn Host, dir: &std::path::Path) -> Vec<(String, String)> {
        super::views::command_agents(host, dir)
    }

    fn models(&self, host: &dyn Host) -> Vec<String> {
        crate::analysis::spec::provider_models(host)
    }

    /// A config's `agent` and `mode` entries (a Markdown agent has none).
    fn agent_sections(&self, kind: &crate::analysis::FileKind) -> &'static [&'static str] {
        if kind.is_config() { &["agent", "mode"] } else { &[] }
    }
}

/// The agent names of an opencode file: its agents (config keys, a Markdown agent's `name` or
/// first line) and the names it refers to (`default_agent`, a command's `agent`, `task`
/// permission patterns, `@name` in a Markdown body).
pub fn agent_names(f: &HostFile) -> Option<Vec<NameAt>> {
    f.kind.opencode()?;
    let text = f.text;
    let mut out: Vec<NameAt> = Vec::new();
    let push = &mut Names(&mut out);
    for decl in f.analysis.agents() {
        match decl.origin {
            DeclOrigin::AgentKey | DeclOrigin::ModeKey => push.push(&decl.name, decl.span, true),
            DeclOrigin::Markdown | DeclOrigin::ModeFile => {
                // The frontmatter `name` value, else the opening `---` of the file.
                push.push(&decl.name, decl.span, true);
            }
        }
    }
    let Some(root) = f.analysis.parsed.root.as_ref().and_then(Node::as_map) else {
        return Some(out);
    };
    let task_patterns = |perm: Option<&Node>, push: &mut Names| {
        if let Some(task) = perm
            .and_then(Node::as_map)
            .and_then(|p| p.value("task"))
            .and_then(Node::as_map)
        {
            for e in task.entries.iter() {
                push.push(&e.key.name, e.key.span, false);
            }
        }
    };
    if f.kind.is_config() {
        if let Some(v) = root.value("default_agent")
            && let Some(name) = v.as_str()
        {
            push.push(name, v.span, false);
        }
        if let Some(commands) = root.value("command").and_then(Node::as_map) {
            for c in commands.entries.iter() {
                if let Some(v) = c.value.as_map().and_then(|m| m.value("agent"))
                    && let Some(name) = v.as_str()
                {
                    push.push(name, v.span, false);
                }
            }
        }
        task_patterns(root.value("permission"), push);
        for section in ["agent", "mode"] {
            if let Some(agents) = root.value(section).and_then(Node::as_map) {
                for a in agents.entries.iter() {
                    task_patterns(a.value.as_map().and_then(|m| m.value("permission")), push);
                }
            }
        }
    } else {
        task_patterns(root.value("permission"), push);
    }
    if f.kind.is_markdown()
        && let Some(split) = &f.analysis.split()
    {
        let body = split.body;
        let b = body.text(text);
        for (i, _) in b.match_indices('@') {
            let before = b[..i].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '`') {
                continue;
            }
            let name: String = b[i + 1..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '/' | '.'))
                .collect();
            let name = name.trim_end_matches(['.', '/']);
            if !name.is_empty() {
                let start = body.start as usize + i + 1;
                push.push(name, Span::new(start, start + name.len()), false);
            }
        }
    }
    Some(out)
}

/// Collects names as [`NameAt`]s.
struct Names<'a>(&'a mut Vec<NameAt>);

impl Names<'_> {
    fn push(&mut self, name: &str, span: Span, definition: bool) {
        self.0.push(if definition {
            NameAt::definition(name, span)
        } else {
            NameAt::reference(name, span)
        });
    }
}

/// The `skill` permission pattern under `offset` in an opencode file (a key of a `skill` map
/// under `permission`, at the top of a config, in an `agent`/`mode` entry, or in a Markdown
/// agent's frontmatter).
fn skill_pattern_at(f: &HostFile, offset: usize) -> Option<String> {
    // `tui.json` has no permissions (a `permission` key there is dropped).
    if f.kind.opencode().is_none() || f.kind.is_tui() || f.kind.is_theme() {
        return None;
    }
    let root = f.analysis.parsed.root.as_ref()?;
    let path = crate::analysis::syntax::path_at(root, offset);
    let names: Vec<&str> = path.iter().map(|s| s.key.name.as_str()).collect();
    let last = path.last().filter(|s| s.on_key)?;
    let prefix_ok = match names.as_slice() {
        ["permission", "skill", _] => true,
        ["agent" | "mode", _, "permission", "skill", _] => f.kind.is_config(),
        _ => false,
    };
    prefix_ok.then(|| last.key.name.clone())
}

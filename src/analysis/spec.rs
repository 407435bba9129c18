//! The one interface of a dialect ([`DialectSpec`]): what the workspace and the front ends ask
//! of it. Each dialect implements it in its folder (`<dialect>/dialect.rs`); `Dialect::spec`
//! (in `mod.rs`) is the registry.

use std::path::{Path, PathBuf};

use super::agents::{AgentSet, Explained, NoAgents};
use super::card::PathNames;
pub use super::dialect::Identity;
use super::discovery::{Claim, CommandHome, Disk, Load, Pile, Places, SkillHome, Stage, UserLayer};
use super::host::{Host, HostFile, Options, Role};
use super::prompt::Placeholder;
use super::provenance::WhereIs;
use super::{Diagnostic, FileKind, Span};

/// The one interface of a dialect: what the workspace and the front ends ask of it. A dialect
/// implements it in its folder (`<dialect>/dialect.rs`, a unit struct `Spec`); a capability it
/// lacks keeps the default.
pub trait DialectSpec: Sync {
    /// Who it is: its `--dialect` name, its product, its other spellings and the runtime release
    /// its rules were checked against.
    fn identity(&self) -> Identity;

    /// Where its file `kind` holds comments, for `agent-lsp: ignore` directives (a Markdown
    /// file's frontmatter unless it says otherwise).
    fn comments(&self, kind: &FileKind) -> crate::analysis::suppress::Comments {
        let _ = kind;
        crate::analysis::suppress::Comments::Frontmatter
    }

    /// Whether its runtime's first reading of a file it analysed parsed it as written (beyond
    /// the shared syntax: a runtime whose retry reads a ` # ...` comment as part of a value says
    /// no when the first pass failed). An ignore comment is offered only then.
    fn parses_as_written(&self, analysis: &crate::analysis::FileAnalysis) -> bool {
        let _ = analysis;
        true
    }

    /// `agent-lsp setup <name>`: what the help says it writes (`None`: its runtime cannot be set
    /// up to run agent-lsp).
    fn setup_help(&self) -> Option<&'static str> {
        None
    }

    /// The steps of `agent-lsp setup <name>`: the text and the config files, in the report's
    /// order (an error refuses the run). Asked only of a dialect with [`Self::setup_help`].
    fn setup(&self, ask: &crate::analysis::setup::Ask) -> Result<Vec<crate::analysis::setup::Step>, String> {
        let _ = ask;
        Err(format!("{} cannot be set up", self.identity().product))
    }

    /// Where file `analysis` (one of its own) declares the agents `names`: each declaration's
    /// span and that of its settings, in file order. A unit whose findings [`Reads::Names`]
    /// reads only these of a file is left alone by a keystroke elsewhere in it.
    fn declarations(&self, analysis: &crate::analysis::FileAnalysis, names: &[String]) -> Vec<(Span, Option<Span>)> {
        let _ = (analysis, names);
        Vec::new()
    }

    /// The model ids its file declares (`provider/model`), offered where a model is completed.
    fn declared_models(&self, file: &HostFile<'_>) -> Vec<String> {
        let _ = file;
        Vec::new()
    }

    /// Whether an error that stops the runtime refuses its whole configuration.
    fn refuses_configuration(&self) -> bool {
        false
    }
    /// Its place among `explain`'s sections for the terminal (lower first).
    fn list_rank(&self) -> u8;

    /// The rules its files are checked by beyond `rules::EVERY_DIALECT` (all of them when it
    /// does not share those).
    fn rules(&self) -> &'static [crate::analysis::Code];

    /// Whether its files are checked by the rules every dialect shares (a dialect with no
    /// permissions, skills or commands of its own lists its whole set instead).
    fn shares_every_dialect_rules(&self) -> bool {
        true
    }

    /// Analyse its file `kind` alone (`None`: not one of its kinds).
    fn analyze(&self, kind: &FileKind, text: &str) -> Option<crate::analysis::FileAnalysis> {
        let _ = (kind, text);
        None
    }

    /// Completion at byte `offset` of its file `kind` (file `id` of the host, when it is one);
    /// `None`: not one of its kinds.
    fn complete(
        &self,
        kind: &FileKind,
        text: &str,
        offset: usize,
        host: &dyn Host,
        id: Option<usize>,
    ) -> Option<Vec<crate::analysis::complete::Item>> {
        let _ = (kind, text, offset, host, id);
        None
    }

    // Command files and skills, which several runtimes read.

    /// The frontmatter keys its runtime reads in a command file, with their documentation.
    fn command_keys(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    /// How its runtime reads a command file when it reads one as a template (opencode, Zuno):
    /// the shared reading with its keys. `None`: it reads none, or its own way.
    fn command_template(&self) -> Option<crate::analysis::command::Template<'static>> {
        None
    }

    /// Whether its runtime reads command files its own way (Claude Code): the others' readings
    /// hint at its keys.
    fn reads_commands_itself(&self) -> bool {
        false
    }

    /// A command file read its runtime's own way (Claude Code), when it has one.
    fn analyze_command(
        &self,
        kind: &crate::analysis::command::CommandKind,
        text: &str,
    ) -> Option<(
        Vec<Diagnostic>,
        crate::analysis::syntax::Parsed,
        crate::analysis::command::CommandDecl,
    )> {
        let _ = (kind, text);
        None
    }

    /// A command's hover card, its runtime's own way.
    fn command_card(
        &self,
        kind: &crate::analysis::command::CommandKind,
        decl: &crate::analysis::command::CommandDecl,
        text: &str,
    ) -> Option<String> {
        let _ = (kind, decl, text);
        None
    }

    /// Completion in a command file, its runtime's own way.
    fn complete_command(
        &self,
        text: &str,
        offset: usize,
        agents: &[(String, String)],
        models: &[String],
    ) -> Option<Vec<crate::analysis::complete::Item>> {
        let _ = (text, offset, agents, models);
        None
    }

    /// The values its runtime takes for a command key that other runtimes' command files offer
    /// too (Claude Code's `effort`).
    fn command_values(&self, key: &str) -> Option<Vec<crate::analysis::complete::Item>> {
        let _ = key;
        None
    }

    /// How its runtime loads a `SKILL.md`, when it loads skills.
    fn skill_loader(&self) -> Option<crate::analysis::skill::Loader> {
        None
    }

    /// Its runtime's own checks of a `SKILL.md` it loads, beyond the shared rules.
    fn check_skill(
        &self,
        kind: &crate::analysis::skill::SkillKind,
        text: &str,
        decl: &mut crate::analysis::skill::SkillDecl,
        out: &mut Vec<Diagnostic>,
    ) {
        let _ = (kind, text, decl, out);
    }

    /// The names of its built-in agents, in its catalog's order.
    fn builtin_agents(&self) -> Vec<&'static str> {
        Vec::new()
    }

    /// Whether `name` is one of its built-in agents.
    fn is_builtin_agent(&self, name: &str) -> bool {
        self.builtin_agents().contains(&name)
    }

    /// Whether `name` is how its runtime calls an agent that the agent's own file does not
    /// spell (Claude Code's `plugin:name`).
    fn is_plugin_agent_name(&self, name: &str) -> bool {
        let _ = name;
        false
    }

    /// The files its runtime reads that the editor should watch beyond Markdown, text files and
    /// skills (which every runtime's are): globs such as `**/opencode.json`.
    fn watched(&self) -> &'static [&'static str] {
        &[]
    }

    /// The instruction files (paths from the folder that holds them) whose presence in a folder
    /// its runtime weighs: the workspace looks these up in each folder of a chain ([`Self::instruction_reader`]).
    fn instruction_names(&self) -> &'static [&'static str] {
        &[]
    }

    /// Whether its runtime reads instruction file `which` of folder `dir` where it is, given the
    /// instruction files of its folder and each one above (`chain`), the file that imports it,
    /// if one does, and the workspace's files (a runtime whose settings choose the names it
    /// reads); `None` when its runtime reads no instruction file.
    fn instruction_reader(
        &self,
        host: &dyn Host,
        dir: &std::path::Path,
        which: crate::analysis::instructions::Which,
        chain: &[crate::analysis::instructions::Level],
        imported_by: Option<&str>,
    ) -> Option<crate::analysis::instructions::Verdict> {
        let _ = (host, dir, which, chain, imported_by);
        None
    }

    /// What to show on hover at byte `offset` of file `id`: `None` when the file is none of its
    /// own, `Some(None)` when it is and there is nothing to show there.
    fn hover(&self, host: &dyn Host, id: usize, offset: usize, where_is: WhereIs) -> Option<Option<Hover>> {
        let _ = (host, id, offset, where_is);
        None
    }

    /// The agent names one of its files defines and refers to, for navigation (`None`: not a
    /// file of its own that names agents).
    fn agent_names(&self, file: &HostFile) -> Option<Vec<NameAt>> {
        let _ = file;
        None
    }

    /// The files its runtime merges for file `id`, in merge order (later wins): where a name's
    /// definitions are listed from.
    fn view_of_file(&self, host: &dyn Host, id: usize) -> Vec<usize> {
        let _ = (host, id);
        Vec::new()
    }

    /// The new path of its file `file`, named by its path, when its agent is renamed to
    /// `new_name` (`None`: the file is not named by its path).
    fn renamed_file(&self, file: &HostFile, new_name: &str) -> Option<PathBuf> {
        let _ = (file, new_name);
        None
    }

    /// Where its runtime wants its file `file` instead (a place it has deprecated), when
    /// that place is free.
    fn moved_file(&self, file: &HostFile, host: &dyn Host) -> Option<PathBuf> {
        let _ = (file, host);
        None
    }

    /// The agents (name, mode) a command of its runtime in folder `dir` may name.
    fn command_agents(&self, host: &dyn Host, dir: &Path) -> Vec<(String, String)> {
        let _ = (host, dir);
        Vec::new()
    }

    /// The model ids (`provider/model`) its files use or declare, for completion.
    fn models(&self, host: &dyn Host) -> Vec<String> {
        let _ = host;
        Vec::new()
    }

    /// What a placeholder its runtime fills in becomes in the command or skill `name`, and what
    /// the prompt sends (`base_dir`: a skill's folder); `None` when it fills in none.
    fn placeholder_hover(
        &self,
        name: &str,
        placeholder: &Placeholder,
        text: &str,
        body: &str,
        arguments: &[String],
        base_dir: Option<&str>,
    ) -> Option<String> {
        let _ = (name, placeholder, text, body, arguments, base_dir);
        None
    }

    /// What its runtime adds to the hover card of the skill file `id` it loads.
    fn skill_notes(&self, host: &dyn Host, id: usize, where_is: WhereIs) -> Option<String> {
        let _ = (host, id, where_is);
        None
    }

    /// The definitions of what is under the cursor at byte `offset` of its file `id` when it
    /// is no agent name (opencode: the skills a `skill` permission pattern matches); `None`
    /// when there is no such thing there.
    fn other_definitions(&self, host: &dyn Host, id: usize, offset: usize) -> Option<Vec<(usize, Span)>> {
        let _ = (host, id, offset);
        None
    }

    /// The folders at or below `dir` its runtime may be started in to build agents (for
    /// the agents a project's policies govern).
    fn starts(&self, host: &dyn Host, dir: &Path) -> Vec<PathBuf> {
        let _ = (host, dir);
        Vec::new()
    }

    /// How its runtime takes a secret from the environment in place of the value written at
    /// `path` (the keys from the root) of a file of `kind`: what to write there, or only what to
    /// do (see `hardcoded-secret`). `None`: the general advice.
    fn secret_fix(&self, kind: &FileKind, path: &[String]) -> Option<SecretFix> {
        let _ = (kind, path);
        None
    }

    /// What its runtime started in `start` reads (the files whose problems concern its agents,
    /// those agent-lsp did not analyse included) and the agents it builds.
    fn agents<'h>(&self, host: &'h dyn Host, start: &Path) -> (Vec<usize>, Box<dyn AgentSet + 'h>) {
        let _ = (host, start);
        (Vec::new(), Box::new(NoAgents))
    }

    /// `Some(why)` when its file `file` would define agent `name`, `why` being the reason its
    /// runtime does not load it, when it says one.
    fn would_define(&self, file: &HostFile, name: &str) -> Option<Option<String>> {
        let _ = (file, name);
        None
    }

    /// Its groups of cross-file checks, each with the files it reads (the workspace reruns one
    /// only when one of those changes).
    fn units(&self, host: &dyn Host) -> Vec<DialectUnit> {
        let _ = host;
        Vec::new()
    }

    /// The findings of one of its [`DialectSpec::units`], and what they were computed from.
    fn check_unit(&self, host: &dyn Host, unit: UnitRef) -> (Vec<(usize, Diagnostic)>, Reads) {
        let _ = (host, unit);
        (Vec::new(), Reads::All)
    }

    /// The project folder its file `id` belongs to: where its runtime is started to read it,
    /// and what a "who may" question asked from the file is about.
    fn project_of_file(&self, host: &dyn Host, id: usize) -> Option<PathBuf> {
        let _ = (host, id);
        None
    }

    /// How cards show the machine's paths for its runtime started in `start` (relative to it,
    /// `~` for the home, the folders its environment names), when its runtime has such an
    /// environment.
    fn path_names(&self, host: &dyn Host, start: &Path) -> Option<PathNames> {
        let _ = (host, start);
        None
    }

    /// The top-level keys of its file `kind` whose entries are agents (a document outline marks
    /// them).
    fn agent_sections(&self, kind: &FileKind) -> &'static [&'static str] {
        let _ = kind;
        &[]
    }

    // Discovery: what its runtime reads, and as what (the types are in `discovery`).

    /// The config folders of a project its runtime reads even where ignore rules hide them
    /// (`.claude`). Other runtimes' path rules also know them as folders no plugin lies in.
    fn config_folders(&self) -> &'static [&'static str] {
        &[]
    }

    /// Whether a walk keeps the file it meets at `path` (`depth` below the walk's root), and on
    /// which pile: what the path rules are then asked about.
    fn walk_keeps(&self, path: &Path, depth: usize, disk: &dyn Disk) -> Option<Pile> {
        let _ = (path, depth, disk);
        None
    }

    /// The files of `dir`, a folder a walk entered, that its runtime reads even where git
    /// ignores them (`CLAUDE.local.md`): the walk keeps those that exist.
    fn read_when_ignored(&self, dir: &Path) -> Vec<PathBuf> {
        let _ = dir;
        Vec::new()
    }

    /// Whether a walk looks for this file in the build folders it otherwise leaves out (`dist/`,
    /// `build/`), where the ignore rules let it (a plugin built there).
    fn kept_in_build_folders(&self, path: &Path) -> bool {
        let _ = path;
        false
    }

    /// The folders whose files its runtime loads as a whole (by their layout), given the
    /// folders and the config files a walk found.
    fn whole_folders(&self, dirs: &[PathBuf], configs: &[PathBuf]) -> Vec<PathBuf> {
        let _ = (dirs, configs);
        Vec::new()
    }

    /// The files of a folder its runtime loads as a whole (see [`DialectSpec::whole_folders`]).
    fn folder_files(&self, dir: &Path, disk: &dyn Disk) -> Vec<Load> {
        let _ = (dir, disk);
        Vec::new()
    }

    /// What `path` is to its runtime, asked at `stage` (see [`Stage`]).
    fn kind_of(&self, path: &Path, at: &At, stage: Stage) -> Claim {
        let _ = (path, at, stage);
        None
    }

    /// What a file given by path is to its runtime when no place the workspace knows holds it
    /// (it is checked on its own, as pre-commit passes it), asked at `stage`.
    fn kind_alone(&self, path: &Path, at: &At, stage: Stage) -> Claim {
        let _ = (path, at, stage);
        None
    }

    /// The project whose layers are read around a file of its given by path, in `role`:
    /// `None` when the role is none of its own, `Some(None)` when it has no project.
    fn project_of_role(&self, role: &Role) -> Option<Option<PathBuf>> {
        let _ = role;
        None
    }

    /// The project around `root`, a folder given as a path that is (or lies in) one of its
    /// config folders.
    fn enclosing_project(&self, root: &Path) -> Option<PathBuf> {
        let _ = root;
        None
    }

    /// Fill in the user's folders its runtime reads, as it finds them in the environment (`env`
    /// gives a variable, unset when empty) and the home folder; `global_dir` is the global
    /// configuration folder the user named (`--global-dir`), for the runtime whose it is.
    fn user_options(&self, env: &dyn Fn(&str) -> Option<PathBuf>, global_dir: Option<&Path>, options: &mut Options) {
        let _ = (env, global_dir, options);
    }

    /// The user's configuration folders and files its runtime reads (their configs are read in
    /// every project, not reported on).
    fn user_folders(&self, options: &Options) -> Vec<PathBuf> {
        let _ = options;
        Vec::new()
    }

    /// What its runtime reads of the user's own folders.
    fn user_layer(&self, options: &Options, disk: &dyn Disk) -> UserLayer {
        let _ = (options, disk);
        UserLayer::default()
    }

    /// The files its runtime reads in `dir`, one of the folders from where it starts up to the
    /// worktree's top.
    fn context_files(&self, dir: &Path, disk: &dyn Disk) -> Vec<Load> {
        let _ = (dir, disk);
        Vec::new()
    }

    /// The files its runtime reads in `dir`, one of the folders above where it starts, past the
    /// worktree's top too.
    fn files_above(&self, dir: &Path) -> Vec<PathBuf> {
        let _ = dir;
        Vec::new()
    }

    /// The folder whose files a file of its brings along once read (a plugin's manifest
    /// decides what its plugin holds).
    fn bundle_of(&self, kind: &FileKind, role: &Role) -> Option<PathBuf> {
        let _ = (kind, role);
        None
    }

    /// The files of the bundle at `root` (see [`DialectSpec::bundle_of`]), as it now says;
    /// `None` when `root` is no bundle.
    fn bundle_files(&self, root: &Path, disk: &dyn Disk) -> Option<Vec<Load>> {
        let _ = (root, disk);
        None
    }

    /// The files that a file new on disk in `role` brings along (a new config can make its
    /// folder one whose files load as a whole).
    fn files_beside(&self, role: &Role, at: &At) -> Vec<Load> {
        let _ = (role, at);
        Vec::new()
    }

    /// The project whose skills its runtime finds beyond the files the workspace holds, when
    /// its file `kind` in `role` is read (Zuno looks for skills from each project).
    fn skill_project(&self, kind: &FileKind, role: &Role) -> Option<PathBuf> {
        let _ = (kind, role);
        None
    }

    /// The `SKILL.md` files its runtime finds for `project` (see
    /// [`DialectSpec::skill_project`]).
    fn project_skill_files(&self, project: &Path, options: &Options, disk: &dyn Disk) -> Vec<PathBuf> {
        let _ = (project, options, disk);
        Vec::new()
    }

    /// The folders of a project its runtime reads Agent Skills from.
    fn skill_homes(&self) -> &'static [SkillHome] {
        &[]
    }

    /// The folders of a project its runtime reads command files from.
    fn command_homes(&self) -> &'static [CommandHome] {
        &[]
    }

    /// What the workspace's name-level checks read of its file `kind`, hashed (the names it
    /// declares and refers to; not the settings only the checks of one agent read): an edit that
    /// leaves it alone re-runs no name-level check. `None`: they read the whole file.
    fn names_key(&self, kind: &FileKind, analysis: &crate::analysis::FileAnalysis) -> Option<u64> {
        let _ = (kind, analysis);
        None
    }

    /// Whether a change to its file `kind` may change who reads an instruction file (it is one,
    /// or imports one).
    fn reads_instructions(&self, kind: &FileKind) -> bool {
        let _ = kind;
        false
    }

    // Team policies (`agent-lsp.toml`) over its agents.

    /// The permission keys and tool names a policy's `permission` may name in its runtime's
    /// terms, with what each is.
    fn policy_names(&self) -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }

    /// Its files whose agents a policy of the project in `dir` judges on their own, so that a
    /// keystroke in one costs its agents only: each with the files its agents are built from
    /// and their merge groups.
    fn policy_parts(&self, host: &dyn Host, dir: &Path) -> Vec<PolicyPart> {
        let _ = (host, dir);
        Vec::new()
    }

    /// Hands `judge` the agents a policy of the project in `dir` judges, but those of its
    /// parts ([`DialectSpec::policy_parts`]), one group at a time (a finding twice in a group is
    /// placed once). `false`: it has no groups of its own, and its agents are judged as its
    /// agent sets give them from each place its runtime may start.
    fn policy_agents(
        &self,
        host: &dyn Host,
        dir: &Path,
        judge: &mut dyn FnMut(&mut dyn Iterator<Item = Explained<'_>>),
    ) -> bool {
        let _ = (host, dir, judge);
        false
    }

    /// Hands `judge` the agents of part `file` (see [`DialectSpec::policy_parts`]), built from
    /// `view` with its merge `groups`.
    fn part_agents(
        &self,
        host: &dyn Host,
        file: usize,
        (view, groups): (&[usize], &[usize]),
        judge: &mut dyn FnMut(&mut dyn Iterator<Item = Explained<'_>>),
    ) {
        let _ = (host, file, view, groups, judge);
    }

    // What the disk holds around its files.

    /// The checks of its file `id` that look at the disk around it (the paths a config names,
    /// the scripts its hooks run, the files it imports): one entry per check that applies to the
    /// file. Run when the file is analysed and again when files appear or vanish.
    fn disk_checks(&self, host: &dyn Host, id: usize) -> Vec<DiskFindings> {
        let _ = (host, id);
        Vec::new()
    }

    /// Its file `id` as its runtime reads it after substituting values (`None`: it substitutes
    /// none there).
    fn substitute(&self, host: &dyn Host, id: usize) -> Option<Substituted> {
        let _ = (host, id);
        None
    }

    /// The files its file `id` names that exist (document links), with where each is named.
    fn file_links(&self, host: &dyn Host, id: usize) -> Vec<(Span, PathBuf)> {
        let _ = (host, id);
        Vec::new()
    }

    /// Which instruction file its file `id` is (`AGENTS.md`, `CLAUDE.md`, ...; several runtimes
    /// read them, each in its own way), with the folder it belongs to.
    fn instruction_file(&self, host: &dyn Host, id: usize) -> Option<(crate::analysis::instructions::Which, PathBuf)> {
        let _ = (host, id);
        None
    }

    /// The instruction files its files import, each with the file that imports it (a runtime
    /// that imports one reads it there even where it would not by its name).
    fn instruction_imports(&self, host: &dyn Host) -> Vec<(PathBuf, PathBuf)> {
        let _ = host;
        Vec::new()
    }

    /// Where its runtime would read a file of `kind` given by path that it does not read where
    /// it sits (`None`: the general note on where agents, commands and skills go).
    fn not_read_note(&self, kind: &FileKind) -> Option<&'static str> {
        let _ = kind;
        None
    }

    /// Where its file `kind` is too large for its runtime, which skips it: the limit in bytes
    /// and what the runtime then does.
    fn skips_over(&self, kind: &FileKind) -> Option<(u64, &'static str)> {
        let _ = kind;
        None
    }

    /// What to analyse a document open in an editor as, from its path (none for an untitled
    /// one), file name, language and text alone, when no place its runtime reads holds it.
    fn solo_kind(
        &self,
        path: Option<&Path>,
        name: &str,
        language_id: &str,
        text: &str,
        disk: &dyn Disk,
    ) -> Option<FileKind> {
        let _ = (path, name, language_id, text, disk);
        None
    }
}

/// A file whose agents a policy judges on their own (see `DialectSpec::policy_parts`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyPart {
    pub file: usize,
    /// The files its agents are built from (the file among them).
    pub view: Vec<usize>,
    /// Their merge groups, one per file of `view`.
    pub groups: Vec<usize>,
}

/// What one of a dialect's disk checks found in one of its files: the new findings, which
/// replace those of the file that `own` picks (the check's own, from the last time it ran).
/// `own: None`: they add to the file's analysis, so the check runs right after the file is
/// analysed only (it reads other files: the file's stamp is always new).
pub struct DiskFindings {
    pub own: Option<fn(&Diagnostic) -> bool>,
    pub found: Vec<Diagnostic>,
}

/// A file read with the values its runtime substitutes (opencode's `{env:...}`, `{file:...}`).
pub struct Substituted {
    /// The analysis after the substitutions (`None`: nothing changed).
    pub resolved: Option<crate::analysis::FileAnalysis>,
    /// Findings on references that cannot be substituted (a file that does not exist).
    pub problems: Vec<Diagnostic>,
}

/// What a dialect's path rules may consult: the workspace, the disk, and the places every
/// registered runtime reads.
#[derive(Clone, Copy)]
pub struct At<'a> {
    pub host: &'a dyn Host,
    pub disk: &'a dyn Disk,
    pub places: &'a Places,
}

/// The path of a Markdown agent named by its path relative to `root` (`agents/x/y.md` is
/// `x/y`), renamed to `new_name`: in the same top folder of `root` (`agents/`, `agent/`, ...).
pub fn renamed_in(root: &Path, path: &Path, new_name: &str) -> Option<PathBuf> {
    let rel = path.strip_prefix(root).ok()?;
    let folder = rel.components().next()?.as_os_str();
    Some(root.join(folder).join(format!("{new_name}.md")))
}

/// One group of a dialect's cross-file checks and the files it reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DialectUnit {
    /// Which of its checks (the dialect's own name for it).
    pub part: &'static str,
    /// The folder it is about, for a check per project.
    pub dir: Option<PathBuf>,
    /// The files the runtime merges, in merge order, for a check of one view.
    pub view: Vec<usize>,
    /// Every file whose change may change its findings.
    pub inputs: Vec<usize>,
    /// For a view: the group of each of its files (files of one config folder share one).
    pub groups: Vec<usize>,
}

impl DialectUnit {
    /// A check of `part` over `inputs`.
    pub fn over(part: &'static str, inputs: Vec<usize>) -> DialectUnit {
        DialectUnit {
            part,
            dir: None,
            view: Vec::new(),
            inputs,
            groups: Vec::new(),
        }
    }

    /// A check of `part` over the view of folder `dir` (its inputs are the view).
    pub fn of_view(part: &'static str, dir: PathBuf, view: Vec<usize>) -> DialectUnit {
        DialectUnit {
            part,
            dir: Some(dir),
            inputs: view.clone(),
            view,
            groups: Vec::new(),
        }
    }
}

/// A unit as the workspace hands it back to be checked.
#[derive(Clone, Copy, Debug)]
pub struct UnitRef<'a> {
    pub part: &'static str,
    pub dir: Option<&'a Path>,
    pub view: &'a [usize],
    pub groups: &'a [usize],
}

/// What a unit's findings were computed from, so that the next refresh knows what to compare.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reads {
    /// Every input, entirely.
    All,
    /// Every input's name-level part, and of the files listed (those declaring an agent whose
    /// settings the checks read) the declarations of the names listed.
    Names(Vec<usize>, Vec<String>),
}

/// A dialect's hover: the Markdown, the span it is about, and the permission and pattern whose
/// "who may" the front end adds (it asks every dialect).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hover {
    pub text: String,
    pub span: Span,
    pub who_may: Option<(String, String)>,
}

impl Hover {
    pub fn new(text: String, span: Span) -> Hover {
        Hover {
            text,
            span,
            who_may: None,
        }
    }
}

/// The card of the agent file `id` defines, for a hover at `offset` on its name's line
/// (`name_span`): the agent as `spec`'s runtime builds it in the file's folder, or `None` when it
/// does not build one from this file there (shadowed, not loaded, not on that line).
pub fn agent_card_on_name(
    spec: &dyn DialectSpec,
    host: &dyn Host,
    id: usize,
    name_span: Span,
    offset: usize,
    where_is: WhereIs,
) -> Option<Hover> {
    let f = host.file(id)?;
    let text = f.text;
    let (start, end) = (name_span.start as usize, name_span.end as usize);
    let line_start = text.get(..start)?.rfind('\n').map_or(0, |i| i + 1);
    let line_end = text.get(end..)?.find(['\r', '\n']).map_or(text.len(), |i| end + i);
    if !(line_start..=line_end).contains(&offset) {
        return None;
    }
    let (dir, _) = f.role.dialect()?;
    let (_, set) = spec.agents(host, dir);
    let agents = set.agents();
    let a = agents.iter().find(|a| {
        a.defined_at()
            .is_some_and(|s| matches!(s, super::provenance::Source::File { file, .. } if file == id))
    })?;
    Some(Hover::new(
        a.card(where_is, &PathNames::default()),
        Span::new(line_start, line_end),
    ))
}

/// A runtime's way to read a secret from the environment (see [`DialectSpec::secret_fix`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SecretFix {
    /// What to write in place of the secret, `NAME` standing for the variable's name
    /// (`{env:NAME}`), where the runtime fills a reference in there.
    pub reference: Option<&'static str>,
    /// What to do, as one sentence of the message.
    pub advice: &'static str,
}

/// An agent name in a file: where, and whether it defines the agent or refers to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameAt {
    pub name: String,
    /// The name's scalar (with its quotes, if any).
    pub span: Span,
    pub definition: bool,
}

impl NameAt {
    pub fn definition(name: &str, span: Span) -> NameAt {
        NameAt {
            name: name.to_string(),
            span,
            definition: true,
        }
    }

    pub fn reference(name: &str, span: Span) -> NameAt {
        NameAt {
            name: name.to_string(),
            span,
            definition: false,
        }
    }
}

/// Model ids every file of the workspace declares (`provider/model`), each once, in file order.
pub fn provider_models(host: &dyn Host) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in host.files() {
        for m in f.kind.dialect().spec().declared_models(&f) {
            if m.contains('/') && !out.contains(&m) {
                out.push(m);
            }
        }
    }
    out
}

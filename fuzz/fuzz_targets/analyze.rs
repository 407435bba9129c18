//! Parse and analyse arbitrary input as an agent file, and apply its fixes.
//!
//! The first byte picks the kind (`byte % 10`: opencode config, Markdown agent, Markdown mode
//! file; Claude Code project agent, plugin agent (or, for `byte / 10 % 3` of 1 and 2, a plugin's
//! `plugin.json` and `marketplace.json`); Zuno config, Markdown agent; a `SKILL.md`, a Markdown
//! command, `agent-lsp.toml` or, for `byte / 10 % 7` of 5 and 6, Codex's `config.toml` and an agent file, and for the
//! bytes 79, 149 and 219 Gemini CLI's `settings.json`, agent and command files, for 124, 154 and
//! 184 a `GEMINI.md`, for 9 an extension's `gemini-extension.json`, for 247 a skill Gemini CLI
//! loads; for a skill or a command, `byte / 10 % 3` picks the runtime); the rest, read lossily as UTF-8, is analysed. A crash is any panic in the analysis, or a broken invariant:
//!
//! - every span (diagnostic, related location in the same file, fix edit, agent declaration,
//!   agent reference) lies within the text and on char boundaries;
//! - a diagnostic's start converts to a line/column (UTF-16, UTF-32, UTF-8) and back to the same
//!   offset, give or take the two documented moves (an offset inside a CRLF pair goes to the
//!   pair's start; offset 0 of a file with a BOM is the first column after the BOM);
//! - a fix's edits do not overlap, and applying it gives a text that analyses without panicking;
//!   a safe fix on a file that parsed leaves no syntax error, and sets no key twice on a file
//!   that set none twice;
//! - `fix_all` gives a text that analyses without panicking; if the input parsed, the result
//!   parses too, and `fix_all` is idempotent: `fix_all(fix_all(x)) == fix_all(x)`.
//!
//! Every fix is applied and analysed, so this target is slow (hundreds of executions per
//! second); `frontmatter`, `jsonc` and `lsp` are the cheap ones.
#![no_main]

mod common;

use agent_lsp::analysis::Code;
use agent_lsp::analysis::claude::plugin::Manifest;
use agent_lsp::analysis::claude::{self, Source};
use agent_lsp::analysis::codex;
use agent_lsp::analysis::command::CommandKind;
use agent_lsp::analysis::diagnostic::apply;
use agent_lsp::analysis::gemini;
use agent_lsp::analysis::opencode::FileKind as OcKind;
use agent_lsp::analysis::skill::SkillKind;
use agent_lsp::analysis::zuno;
use agent_lsp::analysis::{Dialect, FileKind, fix_all};
use common::{checked, has};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let runtime = Dialect::ALL[usize::from(selector / 10 % 3)];
    let kind: FileKind = match selector % 10 {
        // A skill Gemini CLI loads (its js-yaml-then-line reader).
        7 if selector == 247 => FileKind::Skill(SkillKind {
            folder: "fuzz".into(),
            loaders: vec![Dialect::Gemini],
            misplaced: None,
            family: Dialect::Gemini,
            namespace: None,
        }),
        0 => OcKind::Config.into(),
        1 => OcKind::Agent { name: "fuzz".into() }.into(),
        2 => OcKind::Mode { name: "fuzz".into() }.into(),
        3 => claude::AgentFile::project("fuzz").into(),
        5 => zuno::FileKind::Config.into(),
        6 => zuno::FileKind::Agent { name: "fuzz".into() }.into(),
        7 => FileKind::Skill(SkillKind {
            folder: "fuzz".into(),
            loaders: vec![runtime],
            misplaced: None,
            family: runtime,
            namespace: (runtime == Dialect::Claude).then(|| "p".into()),
        }),
        8 => FileKind::Command(CommandKind {
            plugin: runtime == Dialect::Claude && selector >= 128,
            runtime,
            name: "fuzz".into(),
        }),
        // Claude Code's settings, `.mcp.json`, a plugin's hooks file, a memory file; Codex's
        // `config.toml` (a project's) and an agent file.
        9 if selector / 10 % 7 == 1 => claude::settings::SettingsFile::Project.into(),
        9 if selector / 10 % 7 == 2 => claude::FileKind::McpJson.into(),
        9 if selector / 10 % 7 == 3 => FileKind::plugin_hooks(),
        9 if selector / 10 % 7 == 4 => claude::memory::MemoryFile::Project.into(),
        9 if selector / 10 % 7 == 5 => codex::FileKind::Config { project: true }.into(),
        9 if selector / 10 % 7 == 6 => codex::FileKind::Agent.into(),
        // Gemini CLI's `settings.json`, an agent file and a command file.
        9 if selector == 79 => gemini::FileKind::Settings { project: true }.into(),
        9 if selector == 149 => gemini::FileKind::Agent.into(),
        9 if selector == 219 => gemini::FileKind::Command.into(),
        9 if selector == 9 => gemini::FileKind::Extension.into(),
        9 => FileKind::ProjectFile,
        // An output style (a project's or a plugin's).
        4 if selector >= 200 => FileKind::from(if selector / 10 % 2 == 0 {
            claude::output_style::Origin::Project
        } else {
            claude::output_style::Origin::Plugin { plugin: "p".into() }
        }),
        // A `GEMINI.md` (its imports).
        4 if matches!(selector, 124 | 154 | 184) => gemini::FileKind::Context.into(),
        4 if selector / 10 % 3 == 1 => Manifest::Plugin.into(),
        4 if selector / 10 % 3 == 2 => Manifest::Marketplace.into(),
        _ => claude::AgentFile {
            source: Source::Plugin { plugin: "p".into() },
            stem: "fuzz".into(),
        }
        .into(),
    };
    let text = String::from_utf8_lossy(rest);
    let analysis = checked(&kind, &text);
    let parsed = !has(&analysis, Code::SyntaxError);
    // A key set twice is not always reported: after Claude Code's lenient retry, a repeated
    // line that continued a one-line description is reported as that, not as a duplicate (and
    // quoting the description, a safe fix, then reveals it). The reading itself says.
    let no_duplicates = !has(&analysis, Code::DuplicateKey)
        && (kind.claude().is_none() || claude::read::read(&text).parsed.duplicates.is_empty());
    for d in &analysis.diagnostics {
        let Some(fix) = &d.fix else { continue };
        let out = apply(&text, &fix.edits);
        let after = checked(&kind, &out);
        if fix.safe && parsed {
            assert!(
                !has(&after, Code::SyntaxError),
                "safe fix {:?} broke the syntax: {out:?}",
                fix.title
            );
        }
        // On a file that does not parse, fixes are computed from the partial tree: only the
        // absence of panics is checked there.
        if fix.safe && parsed && no_duplicates {
            assert!(
                !has(&after, Code::DuplicateKey),
                "safe fix {:?} set a key twice: {out:?}",
                fix.title
            );
        }
    }
    let (fixed, titles) = fix_all(&kind, &text);
    let after = checked(&kind, &fixed);
    if parsed {
        assert!(
            !has(&after, Code::SyntaxError),
            "fix_all {titles:?} broke the syntax: {fixed:?}"
        );
        // Idempotence: a second `fix_all` finds nothing left to change.
        let (again, more) = fix_all(&kind, &fixed);
        assert!(
            again == fixed,
            "fix_all is not idempotent: after {titles:?} gave {fixed:?}, a second run applied {more:?} and gave {again:?}"
        );
    }
});

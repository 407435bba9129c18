//! Claude Code plugins (release 2.1.332): the manifests `.claude-plugin/plugin.json` and
//! `.claude-plugin/marketplace.json`, and how a plugin's commands and skills are listed.
//!
//! `claude plugin validate --json` is the judge of the manifests: what it reports as an error or
//! a warning is reported here with the same severity, on the exact key or value. The messages
//! say what Claude Code does, found by running it (`claude-code.md` §8):
//!
//! - `plugin.json` is read as strict JSON (no comments, no trailing commas); a manifest that does
//!   not parse, or breaks the loader's schema (the plugin `name`, `version`, the component paths,
//!   `hooks`, `mcpServers`, ...), stops the whole plugin from loading. The descriptive fields
//!   (`description`, `author`, `homepage`, `repository`, `license`, `keywords`, `displayName`)
//!   are checked by the validator only: the loader takes the plugin with a wrong one.
//! - Component paths start with `./` (relative to the plugin root); `agents` lists `.md` files,
//!   `skills` directories, `hooks` a `.json` file. Setting `agents` or `commands` replaces the
//!   default `agents/` or `commands/` folder; `skills` adds to `skills/`. A path that does not
//!   exist or leaves the plugin is skipped at load (the rest loads); the validator rejects it.
//!   Existence is checked by the workspace (it reads the disk): [`ManifestFile::paths`].
//! - Unknown fields are ignored at load (a warning, with a "did you mean"); the marketplace's
//!   fields (`category`, `tags`, `source`, `strict`, `id`) are ignored in `plugin.json`.
//! - `marketplace.json`: a schema error at the top level stops `claude plugin marketplace add`;
//!   one in a plugin entry stops that plugin's install.
//!
//! Not checked (the validator's directory findings, which are no load problem): README, LICENSE,
//! icon files; nor the `version` of a marketplace entry against its `plugin.json` (another file).

use super::super::diagnostic::{Diagnostic, Effect, Location, Severity};
use super::super::rules::Code;
use super::super::syntax::{Parsed, Value, jsonc};

mod check;
mod components;
mod cx;
mod editor;
pub mod hooks_file;
mod listed;
mod marketplace;
pub mod members;
mod model;
pub mod servers_file;
mod table;

pub(crate) use crate::analysis::syntax::strict::{strict_json, strict_json_fix};
use check::plugin;
#[cfg(test)]
use check::reserved;
use cx::{Cx, Fate, Scope};
use marketplace::marketplace;

pub use model::{CommandSource, DeclaredPath, Layout, Manifest, ManifestFile, Want};
pub use table::{ENTRY_FIELDS, Field, MARKETPLACE_FIELDS, PLUGIN_FIELDS, Shape};

pub use check::is_kebab;
pub use editor::{complete, hover};
pub(crate) use listed::js_string;
pub use listed::{Listed, listed};

/// Analyse a manifest on its own: diagnostics, the parsed tree and what it declares.
pub fn analyze(kind: Manifest, text: &str) -> (Vec<Diagnostic>, Parsed, ManifestFile) {
    let parsed = jsonc::parse(text);
    let mut cx = Cx {
        out: Vec::new(),
        file: ManifestFile::default(),
        plugin_root: None,
        schema_error: false,
    };
    let scope = match kind {
        Manifest::Plugin => Scope::Plugin,
        Manifest::Marketplace => Scope::Marketplace,
    };
    let unparsed = |what: &str| match kind {
        Manifest::Plugin => format!("{what}: Claude Code cannot parse the manifest and does not load the plugin"),
        Manifest::Marketplace => format!("{what}: Claude Code cannot parse the file and cannot add the marketplace"),
    };
    for e in &parsed.errors {
        cx.out.push(
            Diagnostic::new(Code::SyntaxError, e.span, unparsed(&e.message))
                .with_severity(Severity::Error)
                .with_effect(Effect::FileIgnored),
        );
    }
    for (span, what) in strict_json(text) {
        cx.out.push(strict_json_fix(
            Diagnostic::new(
                Code::SyntaxError,
                span,
                unparsed(&format!("{what} (the file is read as strict JSON)")),
            )
            .with_severity(Severity::Error)
            .with_effect(Effect::FileIgnored),
            what,
        ));
    }
    cx.schema_error = !cx.out.is_empty();
    for d in &parsed.duplicates {
        cx.warn(
            Code::DuplicateKey,
            d.duplicate,
            format!("`{}` is set twice; Claude Code uses the last one", d.name),
            Effect::ValueIgnored,
        );
        let last = cx.out.len() - 1;
        cx.out[last] = cx.out[last]
            .clone()
            .with_related(Location::Here(d.first), "first set here");
    }
    if let Some(root) = &parsed.root {
        match &root.value {
            Value::Map(map) => match kind {
                Manifest::Plugin => plugin(&mut cx, root, map),
                Manifest::Marketplace => marketplace(&mut cx, root, map),
            },
            Value::Unknown => {}
            _ => cx.error(
                Code::InvalidType,
                root.span,
                format!("the manifest must be a JSON object, not {}", root.type_name()),
                scope,
                Fate::Refused,
            ),
        }
    }
    let mut out = cx.out;
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, parsed, cx.file)
}

#[cfg(test)]
mod tests;

//! Reading a file from disk with the size and encoding guards, and the `unchecked-file` finding
//! for a file that is not read.

use std::fs;
use std::path::Path;

use crate::analysis::{self, Code, Diagnostic, FileKind, Span};

/// Files larger than this are not analysed (no agent file comes near it).
pub const MAX_FILE_SIZE: u64 = 4 * 1024 * 1024;

/// Why a file was not analysed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unread {
    /// Over [`MAX_FILE_SIZE`]: the size in bytes.
    TooLarge(u64),
    /// NUL bytes in its first 8 KiB.
    Binary,
    /// It could not be read (the operating system's reason).
    Io(String),
    /// Given by path, but no runtime reads it where it sits.
    NotRead,
    /// A runtime reads it, but agent-lsp does not check this kind of file yet: what it is.
    NotChecked(&'static str),
}

impl std::fmt::Display for Unread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unread::TooLarge(n) => write!(
                f,
                "file is {n} bytes, larger than the {MAX_FILE_SIZE} bytes agent-lsp analyses; skipped"
            ),
            Unread::Binary => f.write_str("binary file (contains NUL bytes); skipped"),
            Unread::Io(e) => f.write_str(e),
            Unread::NotRead => f.write_str("no runtime reads this file where it is; not analysed"),
            Unread::NotChecked(what) => write!(f, "{what}; agent-lsp does not check it yet"),
        }
    }
}

/// The `unchecked-file` diagnostic of a file agent-lsp did not analyse, saying what the runtime
/// that reads it does with it. On the file's start: the whole file is its subject.
pub fn unchecked_file(kind: &FileKind, why: &Unread) -> Diagnostic {
    let reason = match why {
        Unread::TooLarge(n) => format!(
            "agent-lsp did not analyse this file: it is {} MiB ({n} bytes), over the {} MiB agent-lsp reads",
            mib(*n),
            MAX_FILE_SIZE >> 20
        ),
        Unread::Binary => "agent-lsp did not analyse this file: it holds NUL bytes (a binary file)".to_string(),
        Unread::Io(e) => format!("agent-lsp could not read this file ({e})"),
        Unread::NotChecked(what) => {
            return Diagnostic::new(
                Code::UncheckedFile,
                Span::new(0, 0),
                format!("{what}; agent-lsp does not check this kind of file yet, so its mistakes are not reported"),
            )
            .with_severity(analysis::Severity::Info)
            .with_effect(analysis::Effect::Works);
        }
        Unread::NotRead => {
            let what = kind.dialect().spec().not_read_note(kind).unwrap_or(
                "an agent goes in `.opencode/agents/`, `.claude/agents/` or `.github/agents/<name>.agent.md` (Copilot leaves a README.md there out), a command in `.opencode/commands/` or `.claude/commands/`, a skill in `.claude/skills/<name>/SKILL.md` or `.opencode/skills/<name>/SKILL.md`",
            );
            let d = Diagnostic::new(
                Code::UncheckedFile,
                Span::new(0, 0),
                format!("no runtime reads this file where it is, so agent-lsp does not analyse it: {what}"),
            );
            return d
                .with_severity(analysis::Severity::Info)
                .with_effect(analysis::Effect::FileIgnored);
        }
    };
    let d = Diagnostic::new(Code::UncheckedFile, Span::new(0, 0), String::new());
    match kind {
        // A runtime that skips a file this large: what it then does.
        k if let Unread::TooLarge(n) = why
            && let Some((max, what)) = k.dialect().spec().skips_over(k)
            && *n > max =>
        {
            let message = format!("{reason}; {what}");
            Diagnostic { message, ..d }
                .with_severity(analysis::Severity::Error)
                .with_effect(analysis::Effect::FileIgnored)
        }
        k if k.is_project_file() => Diagnostic {
            message: format!("{reason}; its settings are not applied"),
            ..d
        }
        .with_effect(analysis::Effect::NotApplied),
        _ => Diagnostic {
            message: format!(
                "{reason}; {} still reads it, so whatever it defines is unchecked and unknown to the other checks",
                kind.dialect().product()
            ),
            ..d
        },
    }
}

/// Bytes in MiB with one decimal.
pub(super) fn mib(n: u64) -> String {
    format!("{:.1}", n as f64 / (1u64 << 20) as f64)
}

/// Read a file as text, with guards: too large or binary is an error; invalid UTF-8 is read
/// lossily with a diagnostic at the first bad byte.
pub fn read_text(path: &Path) -> Result<(String, Option<Diagnostic>), Unread> {
    let meta = fs::metadata(path).map_err(|e| Unread::Io(e.to_string()))?;
    if meta.len() > MAX_FILE_SIZE {
        return Err(Unread::TooLarge(meta.len()));
    }
    let bytes = fs::read(path).map_err(|e| Unread::Io(e.to_string()))?;
    if bytes[..bytes.len().min(8192)].contains(&0) {
        return Err(Unread::Binary);
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok((text, None)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let d = Diagnostic::new(
                Code::SyntaxError,
                Span::new(at, at + '\u{fffd}'.len_utf8()),
                format!("the file is not valid UTF-8 (byte {at}); opencode reads it with replacement characters"),
            )
            .with_effect(crate::analysis::Effect::ValueIgnored);
            Ok((text, Some(d)))
        }
    }
}

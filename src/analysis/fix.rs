//! Applying fixes: which safe fixes of a file's diagnostics can go together, and the rounds
//! that apply them until nothing changes (a fix can reveal another).

use super::diagnostic::{self, Diagnostic, Edit, Fix, Severity};
use super::rules::Code;

/// A diagnostic that leaves the tree partial: fixes wait until it is repaired.
pub fn is_broken(d: &Diagnostic) -> bool {
    d.code == Code::SyntaxError || (d.code == Code::DuplicateKey && d.severity == Severity::Error)
}

/// The safe fixes of `diagnostics` that can be applied together: each once, and none whose
/// edits overlap an earlier one's (the later waits for the next round).
pub fn safe_fixes<'a>(diagnostics: impl IntoIterator<Item = &'a Diagnostic>) -> Vec<&'a Fix> {
    let mut taken: Vec<&Fix> = Vec::new();
    for d in diagnostics {
        let Some(f) = d.fix.as_deref().filter(|f| f.safe) else {
            continue;
        };
        if taken.contains(&f) {
            continue;
        }
        let overlaps = taken.iter().flat_map(|t| &t.edits).any(|a| {
            f.edits.iter().any(|b| {
                a.span.start < b.span.end.max(b.span.start + 1) && b.span.start < a.span.end.max(a.span.start + 1)
            })
        });
        if !overlaps {
            taken.push(f);
        }
    }
    taken
}

/// The most rounds of `analysis::fix_all`: a round stops as soon as nothing changes, so only a
/// pathological file comes near it. Eight rounds once fell short on a Claude Code agent whose
/// lines repeated keys over and over, each quoting fix of its lenient reading revealing more
/// duplicates (found by the `analyze` fuzz target: it needed nine, and a second `fix_all` then
/// still changed the file).
pub const FIX_ROUNDS: usize = 32;

/// `analysis::fix_all` on any analysis function.
pub fn fix_all_with(text: &str, diagnose: &dyn Fn(&str) -> Vec<Diagnostic>) -> (String, Vec<String>) {
    let mut text = text.to_string();
    let mut applied = Vec::new();
    for _ in 0..FIX_ROUNDS {
        let diagnostics = diagnose(&text);
        // Fixes are computed from the tree; on a file that does not parse, that tree is partial.
        let broken = diagnostics.iter().any(is_broken);
        if broken {
            break;
        }
        let taken = safe_fixes(&diagnostics);
        if taken.is_empty() {
            break;
        }
        let edits: Vec<Edit> = taken.iter().flat_map(|f| f.edits.iter().cloned()).collect();
        applied.extend(taken.iter().map(|f| f.title.clone()));
        let next = diagnostic::apply(&text, &edits);
        if next == text {
            break;
        }
        text = next;
    }
    (text, applied)
}

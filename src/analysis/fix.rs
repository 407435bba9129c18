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
    fixes_to_apply(diagnostics, false)
}

/// The fixes of `diagnostics` that can be applied together, the unsafe ones too when
/// `unsafe_fixes` (`check --fix --unsafe-fixes`): each once, and none whose edits overlap one
/// taken already (it waits for the next round). Safe fixes are taken first, so that an unsafe
/// one never holds one back.
pub fn fixes_to_apply<'a>(diagnostics: impl IntoIterator<Item = &'a Diagnostic>, unsafe_fixes: bool) -> Vec<&'a Fix> {
    let fixes: Vec<&Fix> = diagnostics.into_iter().filter_map(|d| d.fix.as_deref()).collect();
    let mut taken: Vec<&Fix> = Vec::new();
    let passes: &[bool] = if unsafe_fixes { &[true, false] } else { &[true] };
    for &safe in passes {
        for &f in fixes.iter().filter(|f| f.safe == safe) {
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
    fix_all_rounds(text, diagnose, false)
}

/// [`fix_all_with`], with the unsafe fixes too when `unsafe_fixes`.
pub fn fix_all_rounds(
    text: &str,
    diagnose: &dyn Fn(&str) -> Vec<Diagnostic>,
    unsafe_fixes: bool,
) -> (String, Vec<String>) {
    let mut text = text.to_string();
    let mut applied = Vec::new();
    for _ in 0..FIX_ROUNDS {
        let diagnostics = diagnose(&text);
        // Fixes are computed from the tree; on a file that does not parse, that tree is partial:
        // only the fixes of what breaks it (a trailing comma removed, a value quoted) apply, and
        // the others wait until it reads whole.
        let broken = diagnostics.iter().any(is_broken);
        let taken = if broken {
            fixes_to_apply(diagnostics.iter().filter(|d| is_broken(d)), unsafe_fixes)
        } else {
            fixes_to_apply(&diagnostics, unsafe_fixes)
        };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Span;

    fn with(span: (usize, usize), text: &str, safe: bool) -> Diagnostic {
        Diagnostic::new(Code::InvalidValue, Span::new(span.0, span.1), "m").with_fix(
            text,
            vec![Edit::new(Span::new(span.0, span.1), text)],
            safe,
        )
    }

    #[test]
    fn unsafe_fixes_only_when_asked_and_never_over_a_safe_one() {
        // An unsafe fix first in the file, overlapping the safe one after it; a third apart.
        let ds = [
            with((0, 4), "unsafe", false),
            with((2, 6), "safe", true),
            with((10, 12), "apart", false),
        ];
        let titles = |fs: Vec<&Fix>| fs.iter().map(|f| f.title.clone()).collect::<Vec<_>>();
        assert_eq!(titles(fixes_to_apply(&ds, false)), ["safe"]);
        assert_eq!(titles(safe_fixes(&ds)), ["safe"]);
        // The safe one is taken first; the unsafe one it overlaps waits (for a round that may
        // never come: the safe fix can make it go away).
        assert_eq!(titles(fixes_to_apply(&ds, true)), ["safe", "apart"]);
        // Two unsafe fixes that overlap: the later one waits.
        let ds = [with((0, 4), "first", false), with((3, 5), "second", false)];
        assert_eq!(titles(fixes_to_apply(&ds, true)), ["first"]);
        // Rounds: the waiting one is applied on the text the first left, if it still applies.
        let (text, applied) = fix_all_rounds(
            "abcdefgh",
            &|t| {
                if t == "abcdefgh" {
                    vec![with((0, 4), "WXYZ", false), with((3, 5), "D", false)]
                } else {
                    Vec::new()
                }
            },
            true,
        );
        assert_eq!((text.as_str(), applied), ("WXYZefgh", vec!["WXYZ".to_string()]));
    }

    #[test]
    fn in_a_file_that_does_not_parse_only_what_breaks_it_is_fixed_first() {
        // `[,]`: a trailing comma (a syntax error with its fix) and a value's fix beside it.
        let diagnose = |t: &str| -> Vec<Diagnostic> {
            let mut out = Vec::new();
            if let Some(i) = t.find(",]") {
                out.push(
                    Diagnostic::new(Code::SyntaxError, Span::new(i, i + 1), "a trailing comma").with_fix(
                        "Remove the trailing comma",
                        vec![Edit::new(Span::new(i, i + 1), "")],
                        true,
                    ),
                );
            }
            if let Some(i) = t.find("bad") {
                out.push(with((i, i + 3), "good", true));
            }
            out
        };
        // The comma goes in the first round, alone; the value's fix in the next, on a file that
        // parses.
        let (text, applied) = fix_all_rounds("[bad,]", &diagnose, false);
        assert_eq!(text, "[good]");
        assert_eq!(applied, ["Remove the trailing comma", "good"]);
        // A broken file whose breakage has no fix: nothing is applied.
        let (text, applied) = fix_all_rounds(
            "[bad,]",
            &|t: &str| {
                let mut d = diagnose(t);
                d[0].fix = None;
                d
            },
            false,
        );
        assert_eq!((text.as_str(), applied.len()), ("[bad,]", 0));
    }
}

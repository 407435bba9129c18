//! "Did you mean": the closest known name to a misspelt one.

/// The candidate closest to `word`, if it is close enough to be a plausible typo: equal up to
/// case, `_`/`-` and camelCase (`topP` → `top_p`), or within a small edit distance.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let norm = normalize(word);
    let lower = word.to_lowercase();
    let len = lower.chars().count();
    let mut best: Option<(usize, &'a str)> = None;
    for cand in candidates {
        if cand == word {
            return None;
        }
        let cand_len = cand.chars().count();
        let limit = match cand_len {
            0..=3 => 1,
            4..=6 => 2,
            _ => 3,
        };
        let distance = if same_normalized(&norm, cand) {
            0
        } else if len.abs_diff(cand_len) > limit || letters_apart(&lower, cand) > limit {
            // Both bound the edit distance from below: no need to compute it.
            continue;
        } else {
            // Optimal string alignment: an adjacent swap counts as one edit, and no table of
            // characters is built (Damerau-Levenshtein's is slow on many calls).
            strsim::osa_distance(&lower, &cand.to_lowercase())
        };
        if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, cand));
        }
    }
    best.map(|(_, c)| c)
}

/// A lower bound of the edit distance between `lower` (lower case) and `cand`, from their
/// letters alone (ASCII, case-insensitive): one edit adds, removes or replaces one letter, so it
/// takes at least as many edits as there are letters of one word the other lacks. 0 when either
/// is not ASCII.
fn letters_apart(lower: &str, cand: &str) -> usize {
    if !lower.is_ascii() || !cand.is_ascii() {
        return 0;
    }
    let mut count = [0u16; 128];
    for b in lower.bytes() {
        count[b as usize] = count[b as usize].saturating_add(1);
    }
    // The letters the two share (as multisets); the rest of each needs an edit.
    let mut shared = 0;
    for b in cand.bytes() {
        let c = &mut count[b.to_ascii_lowercase() as usize];
        if *c > 0 {
            *c -= 1;
            shared += 1;
        }
    }
    (lower.len() - shared).max(cand.len() - shared)
}

/// `normalize(cand) == norm`, without allocating.
fn same_normalized(norm: &str, cand: &str) -> bool {
    if norm.is_ascii() && cand.is_ascii() {
        // Byte by byte (the usual case: field names are ASCII).
        let mut rest = norm.bytes();
        for b in cand.bytes().filter(|b| *b != b'_' && *b != b'-') {
            if rest.next() != Some(b.to_ascii_lowercase()) {
                return false;
            }
        }
        return rest.next().is_none();
    }
    cand.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .eq(norm.chars())
}

fn normalize(s: &str) -> String {
    s.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// `" Did you mean `x`?"`, or nothing.
pub fn did_you_mean(suggestion: Option<&str>) -> String {
    suggestion.map(|s| format!(" Did you mean `{s}`?")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::{closest, letters_apart};

    #[test]
    fn the_letter_bound_never_exceeds_the_distance() {
        let words = [
            "mode",
            "model",
            "modle",
            "desc",
            "description",
            "descripton",
            "k12345",
            "temperature",
            "temprature",
            "tools",
            "toosl",
            "a",
            "",
            "top_p",
            "topP",
            "permission",
            "permissions",
            "Mode",
            "MODEL",
        ];
        for a in words {
            for b in words {
                let lower = a.to_lowercase();
                let d = strsim::osa_distance(&lower, &b.to_lowercase());
                assert!(letters_apart(&lower, b) <= d, "{a} {b}");
            }
        }
        assert_eq!(letters_apart("k12345", "mode"), 6);
        assert_eq!(letters_apart("modle", "model"), 0);
    }

    #[test]
    fn typos_and_spellings() {
        let fields = ["temperature", "top_p", "mode", "model", "permission", "steps", "hidden"];
        assert_eq!(closest("temprature", fields), Some("temperature"));
        assert_eq!(closest("topP", fields), Some("top_p"));
        assert_eq!(closest("permissions", fields), Some("permission"));
        assert_eq!(closest("Mode", fields), Some("mode"));
        assert_eq!(closest("modle", fields), Some("mode"));
        assert_eq!(closest("quickSwitch", fields), None);
        assert_eq!(closest("category", fields), None);
        assert_eq!(closest("mode", fields), None);
        // Case and separators alone are no edit, however many there are: four `_` are past the
        // edit distance's limit of 3, and still the same name.
        let env = ["DISABLE_NON_ESSENTIAL_MODEL_CALLS", "DISABLE_TELEMETRY"];
        for word in ["disableNonEssentialModelCalls", "disable-non-essential-model-calls"] {
            assert_eq!(closest(word, env), Some(env[0]), "{word}");
        }
        assert_eq!(closest("disable-telemetry", env), Some(env[1]));
    }
}

//! "Did you mean": the closest known name to a misspelt one.

/// The candidate closest to `word`, if it is close enough to be a plausible typo: equal up to
/// case, `_`/`-` and camelCase (`topP` → `top_p`), or within a small edit distance.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let norm = normalize(word);
    let mut best: Option<(usize, &'a str)> = None;
    for cand in candidates {
        if cand == word {
            return None;
        }
        let distance = if normalize(cand) == norm {
            0
        } else {
            strsim::damerau_levenshtein(&word.to_lowercase(), &cand.to_lowercase())
        };
        let limit = match cand.chars().count() {
            0..=3 => 1,
            4..=6 => 2,
            _ => 3,
        };
        if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, cand));
        }
    }
    best.map(|(_, c)| c)
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
    use super::closest;

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
    }
}

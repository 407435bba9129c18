//! The permission engine opencode and Zuno share: wildcard matching as opencode's
//! `Wildcard.match` does it, last-match evaluation, and inclusion between patterns ("covers"),
//! which tells a rule that can never decide (a later rule matches every input it matches).
//!
//! Semantics (`../shared/spec/opencode.md` §6.4): `*` matches any text, across `/`; `?` one
//! character; case-sensitive; a backslash is read as `/`; a pattern ending in ` *` also matches with
//! nothing after it (`git diff *` matches `git diff`).

/// The last rule whose permission and pattern both match `(permission, input)`, as opencode's
/// `Permission.evaluate` and Zuno's rule list decide; `None` when no rule matches (the caller's
/// default applies).
pub fn last_match<'r, R>(
    rules: &'r [R],
    permission: &str,
    input: &str,
    key: impl Fn(&R) -> (&str, &str),
) -> Option<&'r R> {
    rules.iter().rev().find(|r| {
        let (p, pattern) = key(r);
        wildcard_match(permission, p) && wildcard_match(input, pattern)
    })
}

/// opencode's `Wildcard.match(input, pattern)`.
pub fn wildcard_match(input: &str, pattern: &str) -> bool {
    let input: Vec<char> = input.replace('\\', "/").chars().collect();
    let pattern = pattern.replace('\\', "/");
    if glob(&input, &pattern.chars().collect::<Vec<_>>()) {
        return true;
    }
    match pattern.strip_suffix(" *") {
        Some(stem) => glob(&input, &stem.chars().collect::<Vec<_>>()),
        None => false,
    }
}

/// Anchored glob match with `*` (any run) and `?` (one char), iterative with one backtrack point.
fn glob(s: &[char], p: &[char]) -> bool {
    let (mut si, mut pi) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while si < s.len() {
        if pi < p.len() && (p[pi] == '?' || (p[pi] != '*' && p[pi] == s[si])) {
            si += 1;
            pi += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, si));
            pi += 1;
        } else if let Some((sp, ss)) = star {
            pi = sp + 1;
            si = ss + 1;
            star = Some((sp, ss + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

/// Whether every permission name matched by `earlier` is matched by `later`.
pub fn covers(later: &str, earlier: &str) -> bool {
    if later == "*" || later == earlier {
        return true;
    }
    if !later.contains(['*', '?']) {
        // A literal covers only itself.
        return false;
    }
    let prefix = |p: &str| p.find(['*', '?']).map_or(p.len(), |i| i);
    let (pl, pe) = (&later[..prefix(later)], &earlier[..prefix(earlier)]);
    if !(pl.starts_with(pe) || pe.starts_with(pl)) || !segments_in(later, earlier) {
        return false;
    }
    glob_includes(&earlier.chars().collect::<Vec<_>>(), &later.chars().collect::<Vec<_>>())
}

/// Whether every input matched by pattern `earlier` is matched by pattern `later`, with the
/// trailing ` *` rule on both sides. Sound (never claims inclusion that does not hold).
pub fn pattern_covers(later: &str, earlier: &str) -> bool {
    // Fast paths for the usual shapes: the catch-all, equal patterns, a literal later rule.
    if later == "*" || later == earlier {
        return true;
    }
    if !later.contains(['*', '?', '\\']) && !earlier.contains(['*', '?', '\\']) {
        return false;
    }
    // Literal prefixes that disagree: nothing of `earlier` can match `later`.
    let prefix = |p: &str| p.find(['*', '?', '\\']).map_or(p.len(), |i| i);
    let (pl, pe) = (&later[..prefix(later)], &earlier[..prefix(earlier)]);
    if !(pl.starts_with(pe) || pe.starts_with(pl)) {
        return false;
    }
    if !later.contains('\\') && !earlier.contains('\\') && !segments_in(later.trim_end_matches(" *"), earlier) {
        return false;
    }
    let variants = |p: &str| -> Vec<Vec<char>> {
        let p = p.replace('\\', "/");
        let mut v = vec![p.chars().collect()];
        if let Some(stem) = p.strip_suffix(" *") {
            v.push(stem.chars().collect());
        }
        v
    };
    let later_variants = variants(later);
    variants(earlier)
        .iter()
        .all(|e| later_variants.iter().any(|l| glob_includes(e, l)))
}

/// A necessary condition for L(earlier) ⊆ L(later): every literal run of `later` must occur in
/// the text of `earlier` (otherwise a wildcard of `earlier` can avoid it). Cheap, and it rejects
/// almost every pair before the quadratic check.
fn segments_in(later: &str, earlier: &str) -> bool {
    later
        .split(['*', '?'])
        .filter(|s| !s.is_empty())
        .all(|s| earlier.contains(s))
}

/// Language inclusion L(a) ⊆ L(b) for patterns with `*` and `?`: `b`'s `*` may absorb any
/// symbol of `a` (a `*` too), `b`'s `?` one literal or `?` of `a`, and literals must agree.
fn glob_includes(a: &[char], b: &[char]) -> bool {
    let (n, m) = (a.len(), b.len());
    // Patterns of hundreds of characters are not worth a quadratic table: claim nothing.
    if (n + 1).saturating_mul(m + 1) > 1 << 16 {
        return a == b;
    }
    // reach[i][j]: a[..i] can be absorbed by b[..j] (one flat table).
    let w = m + 1;
    let mut table = vec![false; (n + 1) * w];
    table[0] = true;
    struct Reach<'t> {
        t: &'t mut [bool],
        w: usize,
    }
    impl std::ops::Index<usize> for Reach<'_> {
        type Output = [bool];
        fn index(&self, i: usize) -> &[bool] {
            &self.t[i * self.w..(i + 1) * self.w]
        }
    }
    impl std::ops::IndexMut<usize> for Reach<'_> {
        fn index_mut(&mut self, i: usize) -> &mut [bool] {
            &mut self.t[i * self.w..(i + 1) * self.w]
        }
    }
    let mut reach = Reach { t: &mut table, w };
    for i in 0..=n {
        for j in 0..=m {
            if !reach[i][j] {
                continue;
            }
            if j < m && b[j] == '*' {
                reach[i][j + 1] = true; // star absorbs nothing
                if i < n {
                    reach[i + 1][j] = true; // star absorbs a[i]
                }
            }
            if i < n && j < m {
                let ok = match (a[i], b[j]) {
                    (_, '*') => false,
                    ('*', _) => false,
                    (_, '?') => true,
                    ('?', _) => false,
                    (x, y) => x == y,
                };
                if ok {
                    reach[i + 1][j + 1] = true;
                }
            }
        }
    }
    reach[n][m]
}

/// What a pattern rule matches and whether a later rule in the same list shadows it: the hover
/// on a pattern key of opencode and Zuno. `rules` are `(permission, pattern, action)` in order.
pub fn pattern_doc(rules: &[(&str, &str, &str)], index: usize) -> String {
    let (perm, pattern, action) = rules[index];
    let mut out = format!("`{perm}` rule `\"{pattern}\": {action}`\n\n");
    let star = pattern.contains('*') || pattern.contains('?');
    if pattern == "*" {
        out.push_str("Matches every input.");
    } else if !star {
        out.push_str(&format!("Matches exactly `{pattern}`."));
    } else {
        out.push_str("`*` matches any text (including `/`), `?` one character; case-sensitive.");
        if let Some(stem) = pattern.strip_suffix(" *") {
            out.push_str(&format!(" Also matches `{stem}` with nothing after it."));
        }
    }
    if let Some((p, pat, act)) = rules[index + 1..]
        .iter()
        .rev()
        .find(|(p, pat, _)| covers(p, perm) && pattern_covers(pat, pattern))
    {
        out.push_str(&format!(
            "\n\n**Never decides**: the later rule `{p}` `\"{pat}\": {act}` matches everything this one matches (last match wins)."
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inclusion() {
        assert!(pattern_covers("*", "git push *"));
        assert!(pattern_covers("git *", "git push *"));
        assert!(pattern_covers("git push *", "git push"));
        assert!(pattern_covers("git push *", "git push *"));
        assert!(!pattern_covers("git push *", "git *"));
        assert!(!pattern_covers("git push", "git push *"));
        assert!(!pattern_covers("rm *", "*"));
        assert!(pattern_covers("?s", "ls"));
        assert!(!pattern_covers("ls", "?s"));
        assert!(covers("*", "bash"));
        assert!(!covers("bash", "*"));
    }

    #[test]
    fn the_last_matching_rule_decides() {
        let rules = [
            ("bash", "*", "ask"),
            ("bash", "git *", "allow"),
            ("*", "rm *", "deny"),
            ("edit", "*", "deny"),
        ];
        let decide = |p: &str, input: &str| last_match(&rules, p, input, |r| (r.0, r.1)).map(|r| r.2);
        assert_eq!(decide("bash", "git status"), Some("allow"));
        assert_eq!(decide("bash", "git"), Some("allow"));
        assert_eq!(decide("bash", "rm -rf x"), Some("deny"));
        assert_eq!(decide("bash", "ls"), Some("ask"));
        assert_eq!(decide("read", "x"), None);
        assert_eq!(decide("edit", "rm x"), Some("deny"));
        assert!(wildcard_match("mymcp_search", "mymcp_*"));
        assert!(wildcard_match("src/a/.env", "*.env"));
        assert!(!wildcard_match("a/b/.env.example", "*.env"));
        assert!(wildcard_match("a\\b", "a/?"));
        assert!(!wildcard_match("GIT diff", "git diff *"));
    }
}

//! A line-based unified diff (`check --diff`): Myers' shortest edit script over the lines between
//! the common head and tail, in hunks with three lines of context, as `diff -u` and `patch -p0`
//! read them. Fixes change a few places of a file, so the edit script is short; past
//! [`MAX_EDITS`] the lines between the first and last change are shown as replaced whole.

use std::fmt::Write as _;

/// Lines of context around a change.
const CONTEXT: usize = 3;

/// The longest edit script searched for (its search costs memory quadratic in this).
const MAX_EDITS: usize = 1000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Same,
    Del,
    Ins,
}

/// The unified diff from `old` to `new`, both shown as `path`; empty when they are equal.
pub fn unified(path: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let ops = script(&a, &b);
    let mut out = format!("--- {path}\n+++ {path}\n");
    // (op, line of `a`, line of `b`) before the op.
    let mut at = Vec::with_capacity(ops.len());
    let (mut i, mut j) = (0, 0);
    for op in ops {
        at.push((op, i, j));
        match op {
            Op::Same => (i, j) = (i + 1, j + 1),
            Op::Del => i += 1,
            Op::Ins => j += 1,
        }
    }
    let changes: Vec<usize> = (0..at.len()).filter(|&k| at[k].0 != Op::Same).collect();
    let mut c = 0;
    while c < changes.len() {
        let start = changes[c].saturating_sub(CONTEXT);
        let mut last = changes[c];
        while c + 1 < changes.len() && changes[c + 1] - last <= 2 * CONTEXT {
            c += 1;
            last = changes[c];
        }
        c += 1;
        let end = (last + 1 + CONTEXT).min(at.len());
        let hunk = &at[start..end];
        let old_len = hunk.iter().filter(|h| h.0 != Op::Ins).count();
        let new_len = hunk.iter().filter(|h| h.0 != Op::Del).count();
        let _ = writeln!(
            out,
            "@@ -{} +{} @@",
            range(hunk[0].1, old_len),
            range(hunk[0].2, new_len)
        );
        for &(op, i, j) in hunk {
            let (mark, line) = match op {
                Op::Same => (' ', a[i]),
                Op::Del => ('-', a[i]),
                Op::Ins => ('+', b[j]),
            };
            out.push(mark);
            out.push_str(line);
            if !line.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
    }
    out
}

/// A hunk's range as `diff -u` writes it: 1-based start, length when not 1; an empty range
/// starts at the line before it.
fn range(start: usize, len: usize) -> String {
    match len {
        0 => format!("{start},0"),
        1 => format!("{}", start + 1),
        n => format!("{},{n}", start + 1),
    }
}

/// The edit script from `a` to `b`: the common head and tail kept, Myers' between them.
fn script(a: &[&str], b: &[&str]) -> Vec<Op> {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (mid_a, mid_b) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut ops = vec![Op::Same; head];
    match myers(mid_a, mid_b) {
        Some(mid) => ops.extend(mid),
        None => {
            ops.extend(std::iter::repeat_n(Op::Del, mid_a.len()));
            ops.extend(std::iter::repeat_n(Op::Ins, mid_b.len()));
        }
    }
    ops.extend(std::iter::repeat_n(Op::Same, tail));
    ops
}

/// Myers' O((N+M)D) shortest edit script; `None` when it is longer than [`MAX_EDITS`].
fn myers(a: &[&str], b: &[&str]) -> Option<Vec<Op>> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let max = (n + m) as usize;
    // v[k + offset]: the furthest x on diagonal k; trace[d]: v's diagonals -d-1..=d+1 before
    // round d.
    let offset = max as isize + 1;
    let mut v = vec![0isize; 2 * max + 3];
    let mut trace: Vec<Vec<isize>> = Vec::new();
    let idx = |k: isize| (k + offset) as usize;
    for d in 0..=max as isize {
        if d as usize > MAX_EDITS {
            return None;
        }
        trace.push(v[idx(-d - 1)..=idx(d + 1)].to_vec());
        let mut k = -d;
        while k <= d {
            let mut x = if k == -d || (k != d && v[idx(k - 1)] < v[idx(k + 1)]) {
                v[idx(k + 1)]
            } else {
                v[idx(k - 1)] + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[idx(k)] = x;
            if x >= n && y >= m {
                return Some(backtrack(&trace, n, m));
            }
            k += 2;
        }
    }
    None
}

fn backtrack(trace: &[Vec<isize>], n: isize, m: isize) -> Vec<Op> {
    let mut ops = Vec::new();
    let (mut x, mut y) = (n, m);
    for (d, v) in trace.iter().enumerate().rev() {
        let d = d as isize;
        // v holds diagonals -d-1..=d+1.
        let at = |k: isize| v[(k + d + 1) as usize];
        let k = x - y;
        let prev_k = if k == -d || (k != d && at(k - 1) < at(k + 1)) {
            k + 1
        } else {
            k - 1
        };
        let prev_x = if d == 0 { 0 } else { at(prev_k) };
        let prev_y = prev_x - prev_k;
        while x > prev_x && y > prev_y {
            ops.push(Op::Same);
            x -= 1;
            y -= 1;
        }
        if d > 0 {
            ops.push(if x == prev_x { Op::Ins } else { Op::Del });
        }
        x = prev_x;
        y = prev_y;
    }
    ops.reverse();
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Apply a unified diff to `old` (what `patch` does), to check it against `new`.
    fn patch(old: &str, diff: &str) -> String {
        let a: Vec<&str> = old.split_inclusive('\n').collect();
        let mut out = String::new();
        let mut i = 0;
        let mut lines = diff.split_inclusive('\n').skip(2).peekable();
        while let Some(l) = lines.next() {
            if let Some(h) = l.strip_prefix("@@ -") {
                let start: usize = h.split([',', ' ']).next().unwrap().parse().unwrap();
                let len_zero = h.split(' ').next().unwrap().ends_with(",0");
                let to = if len_zero { start } else { start - 1 };
                while i < to {
                    out.push_str(a[i]);
                    i += 1;
                }
                continue;
            }
            let no_newline = lines.peek().is_some_and(|n| n.starts_with('\\'));
            let body = if no_newline {
                l[1..].trim_end_matches('\n')
            } else {
                &l[1..]
            };
            match &l[..1] {
                " " => {
                    out.push_str(body);
                    i += 1;
                }
                "-" => i += 1,
                "+" => out.push_str(body),
                "\\" => {}
                other => panic!("{other:?}"),
            }
        }
        while i < a.len() {
            out.push_str(a[i]);
            i += 1;
        }
        out
    }

    fn roundtrip(old: &str, new: &str) -> String {
        let d = unified("f", old, new);
        assert_eq!(patch(old, &d), new, "{d}");
        d
    }

    #[test]
    fn hunks_with_context() {
        let old: String = (1..=20).map(|i| format!("{i}\n")).collect();
        let with = |changes: &[(usize, &str)]| -> String {
            (1..=20)
                .map(|i| match changes.iter().find(|c| c.0 == i) {
                    Some((_, s)) => format!("{s}\n"),
                    None => format!("{i}\n"),
                })
                .collect()
        };
        let new = with(&[(5, "five"), (16, "sixteen")]);
        assert_eq!(
            roundtrip(&old, &new),
            "--- f\n+++ f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n@@ -13,7 +13,7 @@\n 13\n 14\n 15\n-16\n+sixteen\n 17\n 18\n 19\n"
        );
        // Changes six lines apart share a hunk.
        let near = with(&[(5, "five"), (11, "eleven")]);
        assert_eq!(roundtrip(&old, &near).matches("@@ -").count(), 1);
        assert_eq!(unified("f", &old, &old), "");
    }

    #[test]
    fn edges() {
        assert_eq!(roundtrip("", "a\n"), "--- f\n+++ f\n@@ -0,0 +1 @@\n+a\n");
        assert_eq!(roundtrip("a\n", ""), "--- f\n+++ f\n@@ -1 +0,0 @@\n-a\n");
        assert_eq!(
            roundtrip("a\nb", "a\nc"),
            "--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"
        );
        roundtrip("a\r\nb\r\n", "a\r\nB\r\n");
        roundtrip("x\ny\nz\n", "y\nx\nz\nw\n");
        roundtrip("a\nb\nc\nd\ne\n", "b\nc\nX\ne\nf\n");
        // Lines moved and repeated.
        roundtrip("a\na\nb\na\n", "b\na\na\na\nb\n");
    }

    #[test]
    fn long_scripts_fall_back_to_one_replacement() {
        let old: String = (0..3000).map(|i| format!("{i}\n")).collect();
        let new: String = (0..3000).map(|i| format!("{}\n", i * 7)).collect();
        roundtrip(&old, &new);
    }
}

//! The search: the patterns' positions as one product automaton over a few character classes,
//! explored breadth first (see the module documentation of `solve`).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::model::*;

/// What a character class does in split mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Plain,
    /// White space: trimmed at the ends of a part.
    Blank,
    /// Cuts a command into parts.
    Separator,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Class {
    pub(super) ch: char,
    pub(super) kind: Kind,
}

/// Marks a position that belongs to a policy pattern.
pub(super) const POLICY: u32 = u32::MAX;
/// Marks a position that is not a literal of any class.
pub(super) const NO_CLASS: u32 = u32::MAX;
/// Past this many mask words (classes × words) the automaton is too big to build.
pub(super) const MAX_MASK_WORDS: usize = 1 << 22;

/// Every pattern's positions side by side in one bit set, with the masks a step needs.
pub(super) struct Machine {
    /// Words per bit set.
    pub(super) w: usize,
    /// The start state (every pattern at position 0, closed over `*`).
    pub(super) start: Vec<u64>,
    /// Positions of `*` and of a single path `*`: they loop, and are skipped over (matching
    /// nothing).
    pub(super) star: Vec<u64>,
    /// Positions of a single path `*` ([`Tok::Seg`]): they do not loop on `/`.
    pub(super) seg: Vec<u64>,
    /// The class of `/` when a pattern has a [`Tok::Seg`] (then `/` is always tried).
    pub(super) slash: Option<usize>,
    /// Per class: the positions that advance on it (its literal, or `?`).
    pub(super) lits: Vec<Vec<u64>>,
    /// Per position: the class of its literal token, if any.
    pub(super) lit_class: Vec<u32>,
    /// Positions of policy patterns.
    pub(super) policy: Vec<u64>,
    pub(super) policy_acc: Vec<u64>,
    pub(super) rule_acc: Vec<u64>,
    /// Per position: the rule it belongs to, or [`POLICY`].
    pub(super) owner: Vec<u32>,
    /// Actions of the rules given (by their index).
    pub(super) actions: Vec<Action>,
    pub(super) classes: Vec<Class>,
    /// The class that stands for every character no pattern writes.
    pub(super) other: usize,
    /// Classes tried from every state (split mode: separators and blanks).
    pub(super) always: Vec<usize>,
    /// The deciders that can possibly decide something, to stop early.
    pub(super) possible: usize,
    /// Positions of a rule's final `*`: once live, the rule matches every longer input too.
    pub(super) sticky: Vec<u64>,
    /// Per rule index: where its positions start (rules are laid out in order after the policy).
    pub(super) base_of: Vec<usize>,
    /// Where the rules' positions start.
    pub(super) rules_from: usize,
}

impl Machine {
    pub(super) fn build(inputs: &[&str], rules: &[Rule], syntax: Syntax, order: Order) -> Result<Machine, TooComplex> {
        let split = order.splits();
        let policy: Vec<Glob> = inputs.iter().map(|p| Glob::parse(p, Syntax::OpenCode)).collect();
        let kept = kept_rules(&policy, rules, syntax, order);
        let can_default = !kept.iter().any(|(_, g)| g.is_catch_all());
        let possible = kept.len() + usize::from(can_default);
        let globs: Vec<(u32, &Glob)> = policy
            .iter()
            .map(|g| (POLICY, g))
            .chain(kept.iter().map(|(i, g)| (*i as u32, g)))
            .collect();
        let classes = alphabet(&globs, split);
        let has_seg = globs.iter().any(|(_, g)| g.toks.contains(&Tok::Seg));
        let other = other_char(&globs);
        let positions: usize = globs.iter().map(|(_, g)| g.toks.len() + 1).sum();
        let w = positions.div_ceil(64).max(1);
        if classes.len().saturating_mul(w) > MAX_MASK_WORDS {
            return Err(TooComplex);
        }
        let mut m = Machine {
            w,
            start: vec![0; w],
            star: vec![0; w],
            seg: vec![0; w],
            slash: classes.iter().position(|c| c.ch == '/').filter(|_| has_seg),
            lits: vec![vec![0; w]; classes.len()],
            lit_class: vec![NO_CLASS; positions],
            policy: vec![0; w],
            policy_acc: vec![0; w],
            rule_acc: vec![0; w],
            owner: vec![POLICY; positions],
            actions: rules.iter().map(|r| r.action).collect(),
            other: classes.iter().position(|c| c.ch == other).unwrap_or(0),
            always: (0..classes.len())
                .filter(|&k| classes[k].kind != Kind::Plain || (has_seg && classes[k].ch == '/'))
                .collect(),
            classes,
            possible,
            sticky: vec![0; w],
            base_of: vec![usize::MAX; rules.len()],
            rules_from: positions,
        };
        let mut base = 0;
        for (owner, glob) in &globs {
            m.place(base, *owner, glob);
            if *owner != POLICY {
                m.rules_from = m.rules_from.min(base);
                if let Some(b) = m.base_of.get_mut(*owner as usize) {
                    *b = base;
                }
                if glob.toks.last() == Some(&Tok::Star) {
                    let p = base + glob.toks.len() - 1;
                    m.sticky[p / 64] |= 1 << (p % 64);
                }
            }
            base += glob.toks.len() + 1;
        }
        let mut start = std::mem::take(&mut m.start);
        m.close(&mut start);
        m.start = start;
        Ok(m)
    }

    /// Lays out one pattern's positions from `base`.
    pub(super) fn place(&mut self, base: usize, owner: u32, glob: &Glob) {
        let set = |v: &mut Vec<u64>, p: usize| v[p / 64] |= 1 << (p % 64);
        set(&mut self.start, base);
        for (i, tok) in glob.toks.iter().enumerate() {
            let p = base + i;
            self.owner[p] = owner;
            match tok {
                Tok::Star => set(&mut self.star, p),
                Tok::Seg => {
                    set(&mut self.star, p);
                    set(&mut self.seg, p);
                }
                Tok::One => self.lits.iter_mut().for_each(|l| set(l, p)),
                Tok::Lit(c) => {
                    if let Some(k) = self.classes.iter().position(|k| k.ch == *c) {
                        set(&mut self.lits[k], p);
                        self.lit_class[p] = k as u32;
                    }
                }
            }
        }
        let end = base + glob.toks.len();
        self.owner[end] = owner;
        let acc = if owner == POLICY {
            &mut self.policy_acc
        } else {
            &mut self.rule_acc
        };
        set(acc, end);
        if let Some(n) = glob.stem_len() {
            set(acc, base + n);
        }
        if owner == POLICY {
            for p in base..=end {
                set(&mut self.policy, p);
            }
        }
    }

    /// Adds the position after every live `*` (runs of `*` are collapsed, so one pass does).
    pub(super) fn close(&self, bits: &mut [u64]) {
        let mut carry = 0;
        for (b, star) in bits.iter_mut().zip(&self.star) {
            let x = *b & star;
            *b |= (x << 1) | carry;
            carry = x >> 63;
        }
    }

    /// Reads one character of class `k`: `out` = the positions reached from `bits`.
    pub(super) fn step(&self, bits: &[u64], k: usize, out: &mut [u64]) {
        let slash = self.slash == Some(k);
        let mut carry = 0;
        for i in 0..self.w {
            let x = bits[i] & self.lits[k][i];
            let loops = if slash {
                self.star[i] & !self.seg[i]
            } else {
                self.star[i]
            };
            out[i] = (x << 1) | carry | (bits[i] & loops);
            carry = x >> 63;
        }
        self.close(out);
    }

    /// Last-match order: once a rule whose final `*` is live matches, it matches every longer
    /// input, so no earlier rule can decide any more. Their positions are cleared, which merges
    /// states that differ only there (the same inputs reach the same deciders from both).
    pub(super) fn prune_dominated(&self, bits: &mut [u64]) {
        let Some(p) = (0..self.w).rev().find_map(|i| {
            let x = bits[i] & self.sticky[i];
            (x != 0).then(|| i * 64 + 63 - x.leading_zeros() as usize)
        }) else {
            return;
        };
        let Some(&end) = self.base_of.get(self.owner[p] as usize) else {
            return;
        };
        for q in self.rules_from..end {
            bits[q / 64] &= !(1 << (q % 64));
        }
    }

    pub(super) fn policy_live(&self, bits: &[u64]) -> bool {
        bits.iter().zip(&self.policy).any(|(b, p)| b & p != 0)
    }

    pub(super) fn policy_accepts(&self, bits: &[u64]) -> bool {
        bits.iter().zip(&self.policy_acc).any(|(b, p)| b & p != 0)
    }

    /// The last rule accepting in `bits` (rules are laid out in order).
    pub(super) fn last_rule(&self, bits: &[u64]) -> Option<usize> {
        (0..self.w).rev().find_map(|i| {
            let x = bits[i] & self.rule_acc[i];
            (x != 0).then(|| self.owner[i * 64 + 63 - x.leading_zeros() as usize] as usize)
        })
    }

    /// Claude Code's verdict on the text whose rule positions are `bits`.
    pub(super) fn claude_verdict(&self, bits: &[u64]) -> Verdict {
        let (mut ask, mut allow) = (None, None);
        for (i, (b, acc)) in bits.iter().zip(&self.rule_acc).enumerate() {
            let mut x = b & acc;
            while x != 0 {
                let rule = self.owner[i * 64 + x.trailing_zeros() as usize] as usize;
                x &= x - 1;
                match self.actions[rule] {
                    Action::Deny => return Verdict::Deny(rule),
                    Action::Ask => ask = ask.or(Some(rule)),
                    Action::Allow => allow = allow.or(Some(rule)),
                }
            }
        }
        ask.map(Verdict::Ask)
            .or(allow.map(Verdict::Allow))
            .unwrap_or(Verdict::Default)
    }

    /// The classes worth trying from `bits`: the literals some live position expects, the
    /// representative of every other character, and (split mode) separators and blanks.
    pub(super) fn classes_from(&self, bits: &[u64], out: &mut Vec<usize>) {
        out.clear();
        out.push(self.other);
        out.extend_from_slice(&self.always);
        for (i, b) in bits.iter().enumerate() {
            let mut x = *b;
            while x != 0 {
                let k = self.lit_class[i * 64 + x.trailing_zeros() as usize];
                x &= x - 1;
                if k != NO_CLASS {
                    out.push(k as usize);
                }
            }
        }
        // Classes are sorted by readability: trying them in index order keeps witnesses readable.
        out.sort_unstable();
        out.dedup();
    }
}

/// The rules that can matter for the policy, with their patterns: not those whose literal prefix
/// disagrees with every policy pattern's (split mode excepted: a part starts anywhere), nor, for
/// opencode's order, those before the last catch-all.
pub(super) fn kept_rules(policy: &[Glob], rules: &[Rule], syntax: Syntax, order: Order) -> Vec<(usize, Glob)> {
    let prefixes: Vec<Vec<char>> = policy.iter().map(Glob::literal_prefix).collect();
    let first = match order {
        Order::LastMatch { .. } => rules
            .iter()
            .rposition(|r| Glob::parse(r.pattern, syntax).is_catch_all())
            .unwrap_or(0),
        Order::Claude { .. } => 0,
    };
    rules
        .iter()
        .enumerate()
        .skip(first)
        .map(|(i, r)| (i, Glob::parse(r.pattern, syntax)))
        .filter(|(_, g)| {
            if order.splits() {
                return true;
            }
            let mine = g.literal_prefix();
            prefixes.iter().any(|p| p.starts_with(&mine) || mine.starts_with(p))
        })
        .collect()
}

/// The character classes: every literal of the patterns, the representative of the rest, and in
/// split mode one unused separator and one unused blank. Printable ASCII first, then by character.
pub(super) fn alphabet(globs: &[(u32, &Glob)], split: bool) -> Vec<Class> {
    let kind = |c: char| match c {
        c if split && is_separator(c) => Kind::Separator,
        c if split && c.is_whitespace() => Kind::Blank,
        _ => Kind::Plain,
    };
    let mut chars: Vec<char> = literals(globs)
        .into_iter()
        .filter(|c| !(split && is_shell_special(*c)))
        .collect();
    let mut extra = vec![other_char(globs)];
    // A single path `*` stops at `/`: `/` is a class of its own.
    if globs.iter().any(|(_, g)| g.toks.contains(&Tok::Seg)) {
        extra.push('/');
    }
    if split {
        let used = literals(globs);
        extra.extend([';', '&', '|', '\n'].into_iter().find(|c| !used.contains(c)));
        extra.extend(BLANKS.into_iter().find(|c| !used.contains(c)));
    }
    chars.extend(extra);
    // Printable ASCII first: breadth-first search tries classes in this order, so among
    // witnesses of one length it picks the readable one.
    chars.sort_unstable_by_key(|c| (!(' '..='~').contains(c), *c));
    chars.dedup();
    chars.into_iter().map(|ch| Class { ch, kind: kind(ch) }).collect()
}

/// White space other than newline, the space first.
pub(super) const BLANKS: [char; 24] = [
    ' ', '\t', '\r', '\u{b}', '\u{c}', '\u{85}', '\u{a0}', '\u{1680}', '\u{2000}', '\u{2001}', '\u{2002}', '\u{2003}',
    '\u{2004}', '\u{2005}', '\u{2006}', '\u{2007}', '\u{2008}', '\u{2009}', '\u{200a}', '\u{2028}', '\u{2029}',
    '\u{202f}', '\u{205f}', '\u{3000}',
];

/// Every character written literally in the patterns, sorted.
pub(super) fn literals(globs: &[(u32, &Glob)]) -> Vec<char> {
    let mut chars: Vec<char> = globs
        .iter()
        .flat_map(|(_, g)| g.toks.iter())
        .filter_map(|t| match t {
            Tok::Lit(c) => Some(*c),
            _ => None,
        })
        .collect();
    chars.sort_unstable();
    chars.dedup();
    chars
}

/// The representative of every character no pattern writes: readable, never white space, a
/// separator or a character a shell reads specially.
pub(super) fn other_char(globs: &[(u32, &Glob)]) -> char {
    let used = literals(globs);
    let fits = |c: &char| {
        !used.contains(c) && !c.is_whitespace() && !is_separator(*c) && !is_shell_special(*c) && !"*?".contains(*c)
    };
    "xyzqjkvwabcdefghilmnoprstu0123456789"
        .chars()
        .chain((0xC0..=0x10FFFF).filter_map(char::from_u32))
        .find(fits)
        .unwrap_or('x')
}

/// A hasher for state words (already well mixed by the caller's fold).
#[derive(Default)]
pub(super) struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(*b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

pub(super) fn hash_words(words: &[u64]) -> u64 {
    words.iter().fold(0u64, |h, w| {
        (h.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
    })
}

/// Split mode's per-state flags, kept in the last word of a state with its verdict.
#[derive(Clone, Copy, Debug)]
pub(super) struct Header {
    /// Inside a non-empty part.
    pub(super) in_part: bool,
    /// Blanks were read since the part's last non-blank character.
    pub(super) pending: bool,
    /// A part was closed.
    pub(super) seen: bool,
    pub(super) verdict: Verdict,
}

impl Header {
    pub(super) fn pack(self) -> u64 {
        u64::from(self.in_part) | (u64::from(self.pending) << 1) | (u64::from(self.seen) << 2) | self.verdict.pack()
    }

    pub(super) fn unpack(word: u64) -> Header {
        Header {
            in_part: word & 1 != 0,
            pending: word & 2 != 0,
            seen: word & 4 != 0,
            verdict: Verdict::unpack(word),
        }
    }
}

/// The breadth-first search over product states. A state is `w` words of live positions (the
/// policy's and the rules'); in split mode also `w` words of the rules' positions at the current
/// part's last non-blank character (when blanks are pending) and a [`Header`] word.
pub(super) struct Search<'m> {
    pub(super) m: &'m Machine,
    pub(super) order: Order,
    pub(super) budget: usize,
    pub(super) stride: usize,
    pub(super) arena: Vec<u64>,
    pub(super) parent: Vec<u32>,
    pub(super) via: Vec<u32>,
    pub(super) table: HashMap<u64, u32, BuildHasherDefault<WordHasher>>,
    pub(super) chain: Vec<u32>,
    /// Outside split mode, per decider: the action and the state first reaching it.
    pub(super) found: HashMap<Decider, (Action, u32)>,
}

impl<'m> Search<'m> {
    pub(super) fn new(m: &'m Machine, order: Order, budget: usize) -> Search<'m> {
        let stride = if order.splits() { 2 * m.w + 1 } else { m.w };
        Search {
            m,
            order,
            budget,
            stride,
            arena: Vec::new(),
            parent: Vec::new(),
            via: Vec::new(),
            table: HashMap::default(),
            chain: Vec::new(),
            found: HashMap::new(),
        }
    }

    pub(super) fn run(mut self) -> Result<Vec<Outcome>, TooComplex> {
        if self.order.splits() {
            return self.run_split();
        }
        let mut start = self.m.start.clone();
        let last_match = matches!(self.order, Order::LastMatch { .. });
        if last_match {
            self.m.prune_dominated(&mut start);
        }
        self.intern(&start, u32::MAX, 0)?;
        self.note(0);
        let (mut cur, mut next) = (vec![0; self.stride], vec![0; self.stride]);
        let mut try_classes = Vec::new();
        let mut q = 0;
        while q < self.parent.len() && self.found.len() < self.m.possible {
            cur.copy_from_slice(&self.arena[q * self.stride..(q + 1) * self.stride]);
            self.m.classes_from(&cur, &mut try_classes);
            for &k in &try_classes {
                self.m.step(&cur, k, &mut next);
                if last_match {
                    self.m.prune_dominated(&mut next);
                }
                if self.m.policy_live(&next) {
                    let (id, new) = self.intern(&next, q as u32, k as u32)?;
                    if new {
                        self.note(id);
                    }
                }
            }
            q += 1;
        }
        Ok(self.outcomes())
    }

    /// The id of `state`, added if new (then `true`).
    pub(super) fn intern(&mut self, state: &[u64], parent: u32, via: u32) -> Result<(u32, bool), TooComplex> {
        let h = hash_words(state);
        let mut at = self.table.get(&h).copied().unwrap_or(u32::MAX);
        while at != u32::MAX {
            let i = at as usize;
            if self.arena[i * self.stride..(i + 1) * self.stride] == *state {
                return Ok((at, false));
            }
            at = self.chain[i];
        }
        if self.parent.len() >= self.budget {
            return Err(TooComplex);
        }
        let id = self.parent.len() as u32;
        self.arena.extend_from_slice(state);
        self.parent.push(parent);
        self.via.push(via);
        self.chain.push(self.table.insert(h, id).unwrap_or(u32::MAX));
        Ok((id, true))
    }

    /// Notes the decider a newly found state shows, if the policy accepts there and the decider
    /// is new (breadth-first: the first state found is a shortest input).
    pub(super) fn note(&mut self, id: u32) {
        let state = &self.arena[id as usize * self.stride..(id as usize + 1) * self.stride];
        if !self.m.policy_accepts(state) {
            return;
        }
        let default = self.order.default_action();
        let (action, decider) = match self.order {
            Order::LastMatch { .. } => match self.m.last_rule(state) {
                Some(r) => (self.m.actions[r], Decider::Rule(r)),
                None => (default, Decider::Default),
            },
            Order::Claude { .. } => self.m.claude_verdict(state).outcome(default),
        };
        self.found.entry(decider).or_insert((action, id));
    }

    /// Split mode. The verdict's rule (which part set it) is left out of the states, or it would
    /// multiply them by the number of rules; the states keep its rank only. Then:
    ///
    /// - the forward search visits every state and keeps every edge, with the part verdict that
    ///   raised the rank on it (an "event": the rule of that part becomes the decider);
    /// - a backward search gives, for each state, a shortest way on to an accepted input without
    ///   raising the rank again ("completion");
    /// - a decider's shortest input is the best of: a shortest path to an event's source, the
    ///   event, a completion of its target; or a shortest path to an accepted state whose last
    ///   part raises the rank itself.
    ///
    /// The event on an edge depends on the source state only, so the path to the source can be any
    /// shortest one, and the completion keeps the decider (the rank stays, and a rank is set by
    /// its first part).
    pub(super) fn run_split(mut self) -> Result<Vec<Outcome>, TooComplex> {
        let w = self.m.w;
        let mut start = vec![0; self.stride];
        start[..w].copy_from_slice(&self.m.start);
        start[2 * w] = Header {
            in_part: false,
            pending: false,
            seen: false,
            verdict: Verdict::Nothing,
        }
        .pack();
        self.intern(&start, u32::MAX, 0)?;
        let mut depth = vec![0u32];
        let mut edges: Vec<Edge> = Vec::new();
        let (mut cur, mut next, mut scratch) = (vec![0; self.stride], vec![0; self.stride], vec![0; w]);
        let mut try_classes = Vec::new();
        let mut q = 0;
        while q < self.parent.len() {
            cur.copy_from_slice(&self.arena[q * self.stride..(q + 1) * self.stride]);
            self.m.classes_from(&cur[..w], &mut try_classes);
            for &k in &try_classes {
                let event = self.step_split(&cur, k, &mut next, &mut scratch);
                if self.m.policy_live(&next[..w]) {
                    let (to, new) = self.intern(&next, q as u32, k as u32)?;
                    if new {
                        depth.push(depth[q] + 1);
                    }
                    edges.push(Edge {
                        from: q as u32,
                        to,
                        class: k as u32,
                        event,
                    });
                }
            }
            q += 1;
        }
        let rank = |id: usize| Header::unpack(self.arena[id * self.stride + 2 * w]).verdict.rank();
        // Accepted states: the verdict of the part the input ends with, if it raises the rank.
        let mut best: HashMap<Decider, (Action, u32, Witness)> = HashMap::new();
        let default = self.order.default_action();
        let mut offer = |verdict: Verdict, len: u32, witness: Witness| {
            let (action, decider) = verdict.outcome(default);
            let slot = best.entry(decider).or_insert((action, u32::MAX, witness));
            if len < slot.1 {
                *slot = (action, len, witness);
            }
        };
        let mut complete_here = vec![false; self.parent.len()];
        for (id, done) in complete_here.iter_mut().enumerate() {
            let state = &self.arena[id * self.stride..(id + 1) * self.stride];
            if !self.m.policy_accepts(&state[..w]) {
                continue;
            }
            let h = Header::unpack(state[2 * w]);
            match self.last_part(state) {
                Some(part) if part.rank() > h.verdict.rank() => offer(part, depth[id], Witness::Path(id as u32)),
                _ if h.verdict == Verdict::Default => offer(Verdict::Default, depth[id], Witness::Path(id as u32)),
                _ => *done = true,
            }
        }
        let (completion, onward) = completions(&edges, &complete_here, &rank);
        for (i, e) in edges.iter().enumerate() {
            if let Some(part) = e.event
                && part != Verdict::Default
                && completion[e.to as usize] != u32::MAX
            {
                let len = depth[e.from as usize] + 1 + completion[e.to as usize];
                offer(part, len, Witness::Via(i as u32));
            }
        }
        Ok(best
            .into_iter()
            .map(|(decider, (action, _, witness))| {
                let text = match witness {
                    Witness::Path(id) => self.witness(id),
                    Witness::Via(i) => {
                        let e = edges[i as usize];
                        let mut text = self.witness(e.from);
                        text.push(self.m.classes[e.class as usize].ch);
                        let mut at = e.to as usize;
                        while onward[at] != u32::MAX {
                            let next = edges[onward[at] as usize];
                            text.push(self.m.classes[next.class as usize].ch);
                            at = next.to as usize;
                        }
                        text
                    }
                };
                Outcome {
                    decider,
                    action,
                    witness: text,
                }
            })
            .collect())
    }

    /// Split mode: the verdict of the part an input reaching `state` ends with, if any (`None`
    /// after a separator, or once denied).
    pub(super) fn last_part(&self, state: &[u64]) -> Option<Verdict> {
        let w = self.m.w;
        let h = Header::unpack(state[2 * w]);
        if matches!(h.verdict, Verdict::Deny(_)) {
            None
        } else if h.in_part {
            let content = if h.pending { &state[w..2 * w] } else { &state[..w] };
            Some(self.m.claude_verdict(content))
        } else if !h.seen {
            // Only blanks and separators: one empty part (the rules are at their start).
            Some(self.m.claude_verdict(&state[..w]))
        } else {
            None
        }
    }

    /// Split mode: reads one character of class `k` from `cur` into `out`; returns the verdict
    /// of the part this closes if it raises the command's rank (the state keeps the rank only).
    pub(super) fn step_split(&self, cur: &[u64], k: usize, out: &mut [u64], stepped: &mut [u64]) -> Option<Verdict> {
        let m = self.m;
        let w = m.w;
        let (a, rest) = cur.split_at(w);
        let before = &rest[..w];
        let mut h = Header::unpack(rest[w]);
        m.step(a, k, stepped);
        let (out_a, rest) = out.split_at_mut(w);
        let (out_b, out_h) = rest.split_at_mut(w);
        // Whether the rules' positions go back to their start (a new part begins).
        let mut restart = false;
        let mut event = None;
        out_b.fill(0);
        out_a.copy_from_slice(stepped);
        match m.classes[k].kind {
            Kind::Separator => {
                if h.in_part {
                    let content = if h.pending { before } else { a };
                    let part = m.claude_verdict(content);
                    if part.rank() > h.verdict.rank() {
                        event = Some(part);
                        h.verdict = part.rank_only();
                    }
                    h.seen = true;
                }
                h.in_part = false;
                h.pending = false;
                restart = true;
            }
            Kind::Blank if !h.in_part => restart = true,
            Kind::Blank => {
                if h.pending {
                    out_b.copy_from_slice(before);
                } else {
                    for ((x, a), p) in out_b.iter_mut().zip(a).zip(&m.policy) {
                        *x = a & !p;
                    }
                }
                h.pending = true;
            }
            Kind::Plain => {
                h.in_part = true;
                h.pending = false;
            }
        }
        if let Verdict::Deny(_) = h.verdict {
            // Decided whatever follows: forget the rules.
            h = Header {
                in_part: false,
                pending: false,
                seen: true,
                verdict: h.verdict,
            };
            out_a.iter_mut().zip(&m.policy).for_each(|(x, p)| *x &= p);
            out_b.fill(0);
        } else if restart {
            for ((x, p), s) in out_a.iter_mut().zip(&m.policy).zip(&m.start) {
                *x = (*x & p) | (s & !p);
            }
        }
        out_h[0] = h.pack();
        event
    }

    pub(super) fn witness(&self, mut id: u32) -> String {
        let mut chars = Vec::new();
        while self.parent[id as usize] != u32::MAX {
            chars.push(self.m.classes[self.via[id as usize] as usize].ch);
            id = self.parent[id as usize];
        }
        chars.iter().rev().collect()
    }

    pub(super) fn outcomes(&self) -> Vec<Outcome> {
        self.found
            .iter()
            .map(|(decider, (action, id))| Outcome {
                decider: *decider,
                action: *action,
                witness: self.witness(*id),
            })
            .collect()
    }
}

/// Split mode: a step of the search graph.
#[derive(Clone, Copy, Debug)]
pub(super) struct Edge {
    pub(super) from: u32,
    pub(super) to: u32,
    pub(super) class: u32,
    /// The verdict of the part this step closes, when it raises the command's rank.
    pub(super) event: Option<Verdict>,
}

/// Split mode: where a decider's shortest input comes from.
#[derive(Clone, Copy, Debug)]
pub(super) enum Witness {
    /// The shortest path to an accepted state.
    Path(u32),
    /// The shortest path to an edge's source, the edge, then the shortest completion.
    Via(u32),
}

/// Backward breadth-first search from the states where an accepted input ends without raising
/// the rank (`done`), along edges that keep the rank: per state, the length of a shortest
/// completion (`u32::MAX`: none) and its first edge (`u32::MAX` at a done state).
pub(super) fn completions(edges: &[Edge], done: &[bool], rank: &dyn Fn(usize) -> u64) -> (Vec<u32>, Vec<u32>) {
    let n = done.len();
    // Incoming rank-keeping edges of each state, grouped (counting sort).
    let keeps = |e: &Edge| rank(e.from as usize) == rank(e.to as usize);
    let mut start = vec![0u32; n + 1];
    for e in edges.iter().filter(|e| keeps(e)) {
        start[e.to as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut incoming = vec![0u32; start[n] as usize];
    for (i, e) in edges.iter().enumerate().filter(|(_, e)| keeps(e)) {
        incoming[fill[e.to as usize] as usize] = i as u32;
        fill[e.to as usize] += 1;
    }
    let mut completion = vec![u32::MAX; n];
    let mut onward = vec![u32::MAX; n];
    let mut queue: Vec<usize> = (0..n).filter(|&i| done[i]).collect();
    for &i in &queue {
        completion[i] = 0;
    }
    let mut q = 0;
    while q < queue.len() {
        let to = queue[q];
        q += 1;
        for &e in &incoming[start[to] as usize..start[to + 1] as usize] {
            let from = edges[e as usize].from as usize;
            if completion[from] == u32::MAX {
                completion[from] = completion[to] + 1;
                onward[from] = e;
                queue.push(from);
            }
        }
    }
    (completion, onward)
}

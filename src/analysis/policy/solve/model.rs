//! The solver's vocabulary: decisions, rules, the order they are taken in, the patterns as
//! token lists and their matcher, and the combined verdict of a command's parts.

/// A permission decision. Ordered by how much it lets through: deny < ask < allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    Deny,
    Ask,
    Allow,
}

impl Action {
    pub fn parse(s: &str) -> Option<Action> {
        match s {
            "deny" => Some(Action::Deny),
            "ask" => Some(Action::Ask),
            "allow" => Some(Action::Allow),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Action::Deny => "deny",
            Action::Ask => "ask",
            Action::Allow => "allow",
        }
    }
}

/// How rule patterns are written (the policy's own patterns are always opencode's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// opencode and Zuno: `*`, `?`.
    OpenCode,
    /// Claude Code: `*` and a final `:*`; `?` is literal.
    Claude,
    /// Claude Code's path rules (`Read(...)`, `Edit(...)`): `**` is any run of characters, a
    /// single `*` any run without `/`; `?` is literal; no `:*` or `" *"` suffix.
    ClaudePath,
}

/// One rule: a pattern and the action it gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule<'a> {
    pub pattern: &'a str,
    pub action: Action,
}

/// How a list of rules decides an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// opencode / Zuno: the last matching rule wins; `default` when none matches.
    LastMatch { default: Action },
    /// Claude Code: deny > ask > allow regardless of order; `split` = Bash compound splitting.
    Claude { default: Action, split: bool },
}

impl Order {
    pub(super) fn default_action(self) -> Action {
        match self {
            Order::LastMatch { default } | Order::Claude { default, .. } => default,
        }
    }

    pub(super) fn splits(self) -> bool {
        matches!(self, Order::Claude { split: true, .. })
    }
}

/// What decided an input: a rule (index into the rules given) or the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Decider {
    Rule(usize),
    Default,
}

/// A decider, the action it gives, and a shortest input of the policy's language it decides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub decider: Decider,
    pub action: Action,
    pub witness: String,
}

/// The state budget ran out before the proof was complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooComplex;

pub(super) fn is_separator(c: char) -> bool {
    matches!(c, '&' | '|' | ';' | '\n')
}

/// Characters no split-mode witness contains (a shell reads them specially).
pub(super) fn is_shell_special(c: char) -> bool {
    matches!(c, '"' | '\'' | '\\' | '$' | '`')
}

/// The combined verdict of a command's parts so far, ranked: a higher rank overrides, an equal
/// one keeps the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    Nothing,
    Allow(usize),
    Default,
    Ask(usize),
    Deny(usize),
}

impl Verdict {
    pub(super) fn rank(self) -> u64 {
        match self {
            Verdict::Nothing => 0,
            Verdict::Allow(_) => 1,
            Verdict::Default => 2,
            Verdict::Ask(_) => 3,
            Verdict::Deny(_) => 4,
        }
    }

    pub(super) fn rule(self) -> usize {
        match self {
            Verdict::Allow(r) | Verdict::Ask(r) | Verdict::Deny(r) => r,
            Verdict::Nothing | Verdict::Default => 0,
        }
    }

    /// The same rank, the rule forgotten.
    pub(super) fn rank_only(self) -> Verdict {
        match self {
            Verdict::Allow(_) => Verdict::Allow(0),
            Verdict::Ask(_) => Verdict::Ask(0),
            Verdict::Deny(_) => Verdict::Deny(0),
            v => v,
        }
    }

    pub(super) fn then(self, part: Verdict) -> Verdict {
        if part.rank() > self.rank() { part } else { self }
    }

    pub(super) fn outcome(self, default: Action) -> (Action, Decider) {
        match self {
            Verdict::Nothing | Verdict::Default => (default, Decider::Default),
            Verdict::Allow(r) => (Action::Allow, Decider::Rule(r)),
            Verdict::Ask(r) => (Action::Ask, Decider::Rule(r)),
            Verdict::Deny(r) => (Action::Deny, Decider::Rule(r)),
        }
    }

    /// Packed into the high bits of a state's header word.
    pub(super) fn pack(self) -> u64 {
        (self.rank() << 3) | ((self.rule() as u64) << 32)
    }

    pub(super) fn unpack(word: u64) -> Verdict {
        let rule = (word >> 32) as usize;
        match (word >> 3) & 7 {
            1 => Verdict::Allow(rule),
            2 => Verdict::Default,
            3 => Verdict::Ask(rule),
            4 => Verdict::Deny(rule),
            _ => Verdict::Nothing,
        }
    }
}

/// A pattern token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tok {
    Lit(char),
    One,
    /// Any run of characters.
    Star,
    /// Any run of characters without `/` ([`Syntax::ClaudePath`]'s single `*`).
    Seg,
}

/// A parsed pattern: its tokens (runs of `*` collapsed, backslashes read as `/`) and whether it
/// ends in `" *"` (then it also matches its tokens but the last two).
#[derive(Clone, Debug)]
pub(super) struct Glob {
    pub(super) toks: Vec<Tok>,
    pub(super) stem: bool,
}

impl Glob {
    pub(super) fn parse(pattern: &str, syntax: Syntax) -> Glob {
        let mut text: String = pattern.chars().map(|c| if c == '\\' { '/' } else { c }).collect();
        if syntax == Syntax::ClaudePath {
            return Glob::parse_path(&text);
        }
        if syntax == Syntax::Claude
            && let Some(stem) = text.strip_suffix(":*")
        {
            text = format!("{stem} *");
        }
        let stem = text.ends_with(" *");
        let mut toks: Vec<Tok> = Vec::with_capacity(text.len());
        for c in text.chars() {
            let tok = match c {
                '*' => Tok::Star,
                '?' if syntax == Syntax::OpenCode => Tok::One,
                c => Tok::Lit(c),
            };
            if !(tok == Tok::Star && toks.last() == Some(&Tok::Star)) {
                toks.push(tok);
            }
        }
        Glob { toks, stem }
    }

    /// A [`Syntax::ClaudePath`] pattern: `**` (or longer) is [`Tok::Star`], a single `*`
    /// [`Tok::Seg`].
    pub(super) fn parse_path(text: &str) -> Glob {
        let chars: Vec<char> = text.chars().collect();
        let mut toks: Vec<Tok> = Vec::with_capacity(chars.len());
        let mut i = 0;
        while i < chars.len() {
            if chars[i] != '*' {
                toks.push(Tok::Lit(chars[i]));
                i += 1;
                continue;
            }
            // A whole run of stars at once: `**` (or longer) is one `Star`.
            let run = chars[i..].iter().take_while(|&&c| c == '*').count();
            toks.push(if run >= 2 { Tok::Star } else { Tok::Seg });
            i += run;
        }
        Glob { toks, stem: false }
    }

    /// With a final `" *"`: how many tokens the stem has.
    pub(super) fn stem_len(&self) -> Option<usize> {
        self.stem.then(|| self.toks.len() - 2)
    }

    pub(super) fn is_catch_all(&self) -> bool {
        self.toks == [Tok::Star]
    }

    /// The literal text every match starts with.
    pub(super) fn literal_prefix(&self) -> Vec<char> {
        let end = self.stem_len().unwrap_or(self.toks.len());
        self.toks[..end]
            .iter()
            .map_while(|t| match t {
                Tok::Lit(c) => Some(*c),
                _ => None,
            })
            .collect()
    }
}

/// Anchored match by dynamic programming over (input, token) prefixes: the reference matcher.
pub(super) fn glob_match(input: &[char], toks: &[Tok]) -> bool {
    // reach[j]: input[..i] is matched by toks[..j], for the current i.
    let mut reach = vec![false; toks.len() + 1];
    reach[0] = true;
    let star_closure = |reach: &mut Vec<bool>| {
        for j in 0..toks.len() {
            if reach[j] && matches!(toks[j], Tok::Star | Tok::Seg) {
                reach[j + 1] = true;
            }
        }
    };
    star_closure(&mut reach);
    for &c in input {
        let mut next = vec![false; toks.len() + 1];
        for j in 0..toks.len() {
            if !reach[j] {
                continue;
            }
            match toks[j] {
                Tok::Star => next[j] = true,
                Tok::Seg if c != '/' => next[j] = true,
                Tok::Seg => {}
                Tok::One => next[j + 1] = true,
                Tok::Lit(l) if l == c => next[j + 1] = true,
                Tok::Lit(_) => {}
            }
        }
        star_closure(&mut next);
        reach = next;
    }
    reach[toks.len()]
}

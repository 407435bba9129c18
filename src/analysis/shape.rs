//! A runtime's configuration schema as data, and the decoding it describes.
//!
//! A [`Shape`] says what a value may be: a string, a number within bounds, one of some literals,
//! an array, a record (any keys, one shape of value), an object of named fields, or a union.
//! [`decode`] reads a spanned tree the way a schema decoder with "report every error, ignore
//! excess keys" reads JSON (opencode's Effect schema): it returns every reason the value is
//! refused ([`Issue`], each on its exact span) and every key the decoder drops without a word
//! ([`Dropped`]). The same data answers completion ([`lookup::fields_at`], [`lookup::values_at`]) and hover
//! ([`lookup::field_at`]), so what is checked, offered and documented never disagree.
//!
//! Unions decode like Effect's: the members that can take the value's JSON type (and whose
//! literal tag fields, such as `"type": "local"`, match) are tried in order, and the first that
//! takes it wins; its dropped keys are the ones dropped. When none takes it, the issues reported
//! are those of the member that fits the value best (see [`decode`]).
//!
//! The layer knows no dialect: each dialect writes its schema with these types and words the
//! messages itself.

use super::syntax::{Key, Map, Node, Value};
use super::text::Span;

/// What a value may be.
#[derive(Debug)]
pub enum Shape {
    /// Anything (a pass-through value the runtime hands on unread).
    Any,
    Str,
    /// `null` (a runtime that reads an absent and a null value alike writes `Union[X, Null]`).
    Null,
    /// A string that must pass a check; the text says what it must be ("a `#rrggbb` color").
    Pattern(fn(&str) -> bool, &'static str),
    Bool,
    Num(Num),
    /// A whole number written as one: TOML tells `1` from `1.0`, and a reader of integers
    /// refuses the float even when it is whole.
    Int(Num),
    /// One of these literal values.
    Lit(&'static [Lit]),
    Array(&'static Shape),
    /// An array of exactly these items.
    Tuple(&'static [Shape]),
    /// An object with any keys, each value of this shape.
    Record(&'static Shape),
    Object(&'static Object),
    /// The first member that takes the value.
    Union(&'static [Shape]),
    /// A value the dialect checks with its own rules (agents, permissions); accepted here. The
    /// text says what it is.
    Custom(&'static str),
}

/// A number: whole or not, and its bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Num {
    pub int: bool,
    pub min: Bound,
    pub max: Option<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    None,
    /// At least this.
    Incl(f64),
    /// Greater than this.
    Excl(f64),
}

/// The largest integer a JavaScript number holds exactly (`Number.MAX_SAFE_INTEGER`).
pub const MAX_SAFE_INT: f64 = 9_007_199_254_740_991.0;

impl Num {
    pub const ANY: Num = Num {
        int: false,
        min: Bound::None,
        max: None,
    };
    /// A whole number greater than 0.
    pub const POSITIVE_INT: Num = Num {
        int: true,
        min: Bound::Excl(0.0),
        max: None,
    };
    /// A whole number, 0 or more.
    pub const NON_NEGATIVE_INT: Num = Num {
        int: true,
        min: Bound::Incl(0.0),
        max: None,
    };

    /// Why `n` is refused, if it is.
    fn refuses(&self, n: f64) -> bool {
        if self.int && (n.fract() != 0.0 || n.abs() > MAX_SAFE_INT) {
            return true;
        }
        let low = match self.min {
            Bound::None => false,
            Bound::Incl(m) => n < m,
            Bound::Excl(m) => n <= m,
        };
        low || self.max.is_some_and(|m| n > m)
    }

    /// "a whole number greater than 0", "a number from 1 to 65535", ...
    pub fn describe(&self) -> String {
        let noun = if self.int { "a whole number" } else { "a number" };
        match (self.min, self.max) {
            (Bound::None, None) => noun.to_string(),
            (Bound::Incl(a), Some(b)) => format!("{noun} from {} to {}", fmt_num(a), fmt_num(b)),
            (Bound::Excl(a), _) => format!("{noun} greater than {}", fmt_num(a)),
            (Bound::Incl(a), None) => format!("{noun}, {} or more", fmt_num(a)),
            (Bound::None, Some(b)) => format!("{noun}, at most {}", fmt_num(b)),
        }
    }
}

fn fmt_num(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        n.to_string()
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lit {
    Str(&'static str),
    Bool(bool),
}

impl Lit {
    fn matches(&self, node: &Node) -> bool {
        match (self, &node.value) {
            (Lit::Str(s), Value::Str(v)) => s == v,
            (Lit::Bool(b), Value::Bool(v)) => b == v,
            _ => false,
        }
    }

    /// As JSON writes it: `"auto"`, `true`.
    pub fn json(&self) -> String {
        match self {
            Lit::Str(s) => format!("\"{s}\""),
            Lit::Bool(b) => b.to_string(),
        }
    }
}

/// An object of named fields.
#[derive(Debug)]
pub struct Object {
    /// What it is, for messages: "a local MCP server".
    pub what: &'static str,
    pub fields: &'static [Field],
    /// What happens to a key that is not a field.
    pub rest: Rest,
}

#[derive(Debug)]
pub enum Rest {
    /// Dropped without a word.
    Drop,
    /// Kept, and decoded with this shape.
    Keep(&'static Shape),
    /// Refused: the value is invalid (a strict object, zod's `.strict()`).
    Refuse,
}

#[derive(Debug)]
pub struct Field {
    pub name: &'static str,
    pub shape: Shape,
    pub required: bool,
    /// What it does, for hover and completion.
    pub doc: &'static str,
    /// Other names people write for it (`env` for `environment`): a did-you-mean that edit
    /// distance would not find.
    pub aliases: &'static [&'static str],
    /// Deprecated: what to use instead.
    pub deprecated: Option<&'static str>,
}

impl Field {
    /// An optional field.
    pub const fn opt(name: &'static str, shape: Shape, doc: &'static str) -> Field {
        Field {
            name,
            shape,
            required: false,
            doc,
            aliases: &[],
            deprecated: None,
        }
    }

    /// A required field.
    pub const fn req(name: &'static str, shape: Shape, doc: &'static str) -> Field {
        Field {
            required: true,
            ..Field::opt(name, shape, doc)
        }
    }

    pub const fn aka(self, aliases: &'static [&'static str]) -> Field {
        Field { aliases, ..self }
    }

    pub const fn deprecated(self, instead: &'static str) -> Field {
        Field {
            deprecated: Some(instead),
            ..self
        }
    }
}

impl Object {
    pub fn field(&self, name: &str) -> Option<&'static Field> {
        let fields: &'static [Field] = self.fields;
        fields.iter().find(|f| f.name == name)
    }

    /// The field a misspelt or unknown key most likely means.
    pub fn suggest(&self, key: &str) -> Option<&'static str> {
        let fields: &'static [Field] = self.fields;
        if let Some(f) = fields.iter().find(|f| f.aliases.contains(&key)) {
            return Some(f.name);
        }
        if let Some(s) = super::suggest::closest(key, fields.iter().map(|f| f.name)) {
            return Some(s);
        }
        // A prefix of one field only (`env` for `environment`).
        let lower = key.to_ascii_lowercase();
        let mut by_prefix = fields
            .iter()
            .filter(|f| lower.len() >= 3 && f.name.to_ascii_lowercase().starts_with(&lower));
        match (by_prefix.next(), by_prefix.next()) {
            (Some(f), None) => Some(f.name),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Decoding

/// One reason the value is refused.
#[derive(Debug)]
pub struct Issue<'a> {
    /// Where the runtime says it is: keys and array indices from the decoded root.
    pub path: Vec<String>,
    /// Where it is reported.
    pub span: Span,
    pub kind: IssueKind<'a>,
}

#[derive(Debug)]
pub enum IssueKind<'a> {
    /// A value of the wrong JSON type (or null).
    Type { expected: &'static Shape, got: &'a Node },
    /// The right type, but not a value the shape allows (a literal, a pattern).
    Value { expected: &'static Shape, got: &'a Node },
    /// A number out of bounds, or not whole.
    Number { num: &'static Num, got: &'a Node },
    /// A required field is absent from this object (the span is the object's key).
    Missing {
        object: &'static Object,
        field: &'static Field,
    },
    /// A key a strict object does not take (the span is the key).
    Unknown { object: &'static Object },
    /// An array with more items than its tuple takes (the span is the first extra item).
    Extra { tuple: &'static Shape },
    /// An array with fewer items than its tuple takes (the span is the array).
    MissingItem { tuple: &'static Shape },
    /// A union none of whose members can take the value. `tag`: the members are objects told
    /// apart by a literal field (`type`), and this is that field and the value written, if any
    /// (the span is then that value, or the object's key when the field is absent).
    NoBranch {
        union: &'static Shape,
        got: &'a Node,
        tag: Option<(&'static Field, Option<&'a Node>)>,
    },
}

/// A key the decoder drops without a word.
#[derive(Debug)]
pub struct Dropped<'a> {
    /// The path of the object it is in.
    pub path: Vec<String>,
    pub key: &'a Key,
    pub value: &'a Node,
    pub object: &'static Object,
    /// Another member of the union that took this object has the key: the value was read as
    /// `object` (the first member that takes it), which drops it (`"disabled": true` makes an
    /// LSP entry the short form, and its `command` is dropped).
    pub other_member_has_it: bool,
}

#[derive(Debug, Default)]
pub struct Decoded<'a> {
    pub issues: Vec<Issue<'a>>,
    pub dropped: Vec<Dropped<'a>>,
    /// Keys of an object that keeps what it does not know (`Rest::Keep(Any)`, zod's
    /// `.passthrough()`) that no field takes: kept as written, never read.
    pub kept: Vec<Dropped<'a>>,
}

impl<'a> Decoded<'a> {
    pub fn refused(&self) -> bool {
        !self.issues.is_empty()
    }

    /// For `issue`, a required field that is missing: the dropped key of the same object that is
    /// its misspelling (`comand` for `command`), with the field's name.
    fn misspelling_of(&self, issue: &Issue) -> Option<(&'static str, &Dropped<'a>)> {
        let IssueKind::Missing { field, .. } = &issue.kind else {
            return None;
        };
        let parent = &issue.path[..issue.path.len().saturating_sub(1)];
        self.dropped
            .iter()
            .find(|d| d.path == parent && d.object.suggest(&d.key.name) == Some(field.name))
            .map(|d| (field.name, d))
    }

    /// The finding of `issue` (`diag`, as the dialect words it). One mistake, one finding: a
    /// required field missing because its key is misspelt is said on that key (see
    /// [`on_misspelling`]), and the key gets no finding of its own ([`Self::misspelt`]).
    pub fn finding(&self, issue: &Issue, diag: crate::analysis::Diagnostic) -> crate::analysis::Diagnostic {
        match self.misspelling_of(issue) {
            Some((field, d)) => on_misspelling(diag, field, &d.key.name, d.key.span),
            None => diag,
        }
    }

    /// Dropped key `d` is a missing field's misspelling, which that field's finding reports.
    pub fn misspelt(&self, d: &Dropped) -> bool {
        self.issues
            .iter()
            .filter_map(|i| self.misspelling_of(i))
            .any(|(_, m)| m.key.span == d.key.span)
    }
}

/// A missing field's finding `diag` (its message says "has no `field`") moved onto the key that
/// misspells the field (`key`, written at `span`), saying so, with the rename as its fix.
pub fn on_misspelling(
    mut diag: crate::analysis::Diagnostic,
    field: &str,
    key: &str,
    span: Span,
) -> crate::analysis::Diagnostic {
    diag.span = span;
    let missing = format!("has no `{field}`");
    diag.message = diag.message.replacen(
        &missing,
        &format!("{missing} (`{key}` is written: did you mean `{field}`?)"),
        1,
    );
    diag.with_suggestion(span, format!("\"{field}\""))
}

/// Decode `node` as `shape`, as the runtime does. `anchor` is where a missing field of `node`
/// is reported (its key in the enclosing object); `path` the keys leading to it.
pub fn decode<'a>(node: &'a Node, shape: &'static Shape, anchor: Span, path: &[String]) -> Decoded<'a> {
    let mut d = Decoder {
        path: Vec::new(),
        prefix: path.to_vec(),
        out: Decoded::default(),
        budget: 200_000,
    };
    d.value(node, shape, anchor);
    d.out
}

/// One step of the path to a value: a key of the tree (or of the schema), or an array index.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

fn path_strings(path: &[Seg]) -> Vec<String> {
    path.iter()
        .map(|s| match s {
            Seg::Key(k) => (*k).to_string(),
            Seg::Index(i) => i.to_string(),
        })
        .collect()
}

struct Decoder<'a> {
    /// The path, as segments (strings are made only for what is reported).
    path: Vec<Seg<'a>>,
    /// The keys above the decoded root, given by the caller.
    prefix: Vec<String>,
    out: Decoded<'a>,
    /// Nodes left to visit: a union tries each member on the same subtree, so nested unions
    /// could multiply the work; past this, the rest is accepted unread.
    budget: usize,
}

impl<'a> Decoder<'a> {
    fn issue(&mut self, span: Span, kind: IssueKind<'a>) {
        let path = self.full_path();
        self.out.issues.push(Issue { path, span, kind });
    }

    /// The path as the runtime names it: the caller's keys, then the segments.
    fn full_path(&self) -> Vec<String> {
        let mut out = self.prefix.clone();
        out.extend(path_strings(&self.path));
        out
    }

    fn value(&mut self, node: &'a Node, shape: &'static Shape, anchor: Span) {
        if self.budget == 0 {
            return;
        }
        self.budget -= 1;
        if node.is_unknown() {
            return;
        }
        match shape {
            Shape::Any | Shape::Custom(_) => {}
            Shape::Null => {
                if !matches!(node.value, Value::Null) {
                    self.issue(
                        node.span,
                        IssueKind::Type {
                            expected: shape,
                            got: node,
                        },
                    );
                }
            }
            Shape::Str => {
                if !matches!(node.value, Value::Str(_)) {
                    self.issue(
                        node.span,
                        IssueKind::Type {
                            expected: shape,
                            got: node,
                        },
                    );
                }
            }
            Shape::Pattern(ok, _) => match &node.value {
                Value::Str(s) if ok(s) => {}
                Value::Str(_) => self.issue(
                    node.span,
                    IssueKind::Value {
                        expected: shape,
                        got: node,
                    },
                ),
                _ => self.issue(
                    node.span,
                    IssueKind::Type {
                        expected: shape,
                        got: node,
                    },
                ),
            },
            Shape::Bool => {
                if !matches!(node.value, Value::Bool(_)) {
                    self.issue(
                        node.span,
                        IssueKind::Type {
                            expected: shape,
                            got: node,
                        },
                    );
                }
            }
            Shape::Int(_) if matches!(node.value, Value::Float(_)) => self.issue(
                node.span,
                IssueKind::Type {
                    expected: shape,
                    got: node,
                },
            ),
            Shape::Num(num) | Shape::Int(num) => match node.as_f64() {
                Some(n) if num.refuses(n) => self.issue(node.span, IssueKind::Number { num, got: node }),
                Some(_) => {}
                None => self.issue(
                    node.span,
                    IssueKind::Type {
                        expected: shape,
                        got: node,
                    },
                ),
            },
            Shape::Lit(lits) => {
                if !lits.iter().any(|l| l.matches(node)) {
                    let kind = if accepts_type(shape, node) {
                        IssueKind::Value {
                            expected: shape,
                            got: node,
                        }
                    } else {
                        IssueKind::Type {
                            expected: shape,
                            got: node,
                        }
                    };
                    self.issue(node.span, kind);
                }
            }
            Shape::Array(item) => match &node.value {
                Value::Seq(items) => {
                    for (i, it) in items.iter().enumerate() {
                        self.path.push(Seg::Index(i));
                        self.value(it, item, it.span);
                        self.path.pop();
                    }
                }
                _ => self.issue(
                    node.span,
                    IssueKind::Type {
                        expected: shape,
                        got: node,
                    },
                ),
            },
            Shape::Tuple(items) => match &node.value {
                Value::Seq(got) => {
                    for (i, s) in items.iter().enumerate() {
                        self.path.push(Seg::Index(i));
                        match got.get(i) {
                            Some(it) => self.value(it, s, it.span),
                            None => self.issue(node.span, IssueKind::MissingItem { tuple: shape }),
                        }
                        self.path.pop();
                    }
                    if let Some(extra) = got.get(items.len()) {
                        self.path.push(Seg::Index(items.len()));
                        self.issue(extra.span, IssueKind::Extra { tuple: shape });
                        self.path.pop();
                    }
                }
                _ => self.issue(
                    node.span,
                    IssueKind::Type {
                        expected: shape,
                        got: node,
                    },
                ),
            },
            Shape::Record(each) => match &node.value {
                Value::Map(map) => {
                    for (key, v) in map.js_entries() {
                        self.path.push(Seg::Key(&key.name));
                        self.value(v, each, key.span);
                        self.path.pop();
                    }
                }
                _ => self.issue(
                    node.span,
                    IssueKind::Type {
                        expected: shape,
                        got: node,
                    },
                ),
            },
            Shape::Object(object) => match &node.value {
                Value::Map(map) => self.object(map, object, anchor),
                _ => self.issue(
                    node.span,
                    IssueKind::Type {
                        expected: shape,
                        got: node,
                    },
                ),
            },
            Shape::Union(members) => self.union(node, shape, members, anchor),
        }
    }

    fn object(&mut self, map: &'a Map, object: &'static Object, anchor: Span) {
        let entries = map.js_entries();
        for (key, v) in &entries {
            match object.field(&key.name) {
                Some(f) => {
                    self.path.push(Seg::Key(&key.name));
                    self.value(v, &f.shape, key.span);
                    self.path.pop();
                }
                None => match object.rest {
                    Rest::Drop => self.out.dropped.push(Dropped {
                        path: self.full_path(),
                        key,
                        value: v,
                        object,
                        other_member_has_it: false,
                    }),
                    Rest::Keep(each) => {
                        if matches!(each, Shape::Any) {
                            self.out.kept.push(Dropped {
                                path: self.full_path(),
                                key,
                                value: v,
                                object,
                                other_member_has_it: false,
                            });
                        }
                        self.path.push(Seg::Key(&key.name));
                        self.value(v, each, key.span);
                        self.path.pop();
                    }
                    Rest::Refuse => {
                        self.path.push(Seg::Key(&key.name));
                        self.issue(key.span, IssueKind::Unknown { object });
                        self.path.pop();
                    }
                },
            }
        }
        for f in object.fields.iter().filter(|f| f.required) {
            if !entries.iter().any(|(k, _)| k.name == f.name) {
                self.path.push(Seg::Key(f.name));
                self.issue(anchor, IssueKind::Missing { object, field: f });
                self.path.pop();
            }
        }
    }

    fn union(&mut self, node: &'a Node, shape: &'static Shape, members: &'static [Shape], anchor: Span) {
        let candidates: Vec<&'static Shape> = members
            .iter()
            .filter(|m| accepts_type(m, node) && tag_matches(m, node))
            .collect();
        if candidates.is_empty() {
            // Objects told apart by a tag: on the tag's value, or on the object's key when the
            // tag is not written.
            let tag = tag_of(members).map(|f| (f, node.as_map().and_then(|m| m.value(f.name))));
            let span = match tag {
                Some((f, Some(v))) => {
                    self.path.push(Seg::Key(f.name));
                    self.issue(
                        v.span,
                        IssueKind::NoBranch {
                            union: shape,
                            got: node,
                            tag,
                        },
                    );
                    self.path.pop();
                    return;
                }
                Some((_, None)) if node.as_map().is_some() => anchor,
                _ => node.span,
            };
            self.issue(
                span,
                IssueKind::NoBranch {
                    union: shape,
                    got: node,
                    tag,
                },
            );
            return;
        }
        // Each candidate on its own; the first that takes the value wins.
        let mut tries: Vec<Decoded<'a>> = Vec::with_capacity(candidates.len());
        for m in &candidates {
            let mut sub = Decoder {
                path: self.path.clone(),
                prefix: self.prefix.clone(),
                out: Decoded::default(),
                budget: self.budget,
            };
            sub.value(node, m, anchor);
            self.budget = sub.budget;
            if !sub.out.refused() {
                let here = self.full_path();
                for mut d in sub.out.dropped {
                    if d.path == here {
                        d.other_member_has_it |= members
                            .iter()
                            .any(|other| !std::ptr::eq(other, *m) && knows_key(other, &d.key.name));
                    }
                    self.out.dropped.push(d);
                }
                return;
            }
            tries.push(sub.out);
        }
        // None does: report the member that fits best, the one that knows the most keys of
        // the value and got past its own level (the first among equals, as the runtime lists
        // its issues in member order).
        let keys: Vec<&str> = node
            .as_map()
            .map(|m| m.entries.iter().map(|e| e.key.name.as_str()).collect())
            .unwrap_or_default();
        let score = |i: usize| {
            let known = keys.iter().filter(|k| knows_key(candidates[i], k)).count();
            let got_in = !tries[i]
                .issues
                .iter()
                .any(|x| matches!(x.kind, IssueKind::NoBranch { got, .. } if std::ptr::eq(got, node)));
            (known, got_in)
        };
        let best = (0..tries.len())
            .max_by(|&a, &b| score(a).cmp(&score(b)).then(b.cmp(&a)))
            .unwrap_or(0);
        let chosen = tries.swap_remove(best);
        // A scalar member refused on the value itself: the union's whole choice says it better.
        let at_node = chosen
            .issues
            .iter()
            .all(|x| x.span == node.span && matches!(x.kind, IssueKind::Type { .. } | IssueKind::Value { .. }));
        if at_node && node.as_map().is_none() && !matches!(node.value, Value::Seq(_)) {
            let kind = if members.iter().any(|m| accepts_type(m, node)) {
                IssueKind::Value {
                    expected: shape,
                    got: node,
                }
            } else {
                IssueKind::Type {
                    expected: shape,
                    got: node,
                }
            };
            self.issue(node.span, kind);
            return;
        }
        self.out.issues.extend(chosen.issues);
        self.out.dropped.extend(chosen.dropped);
    }
}

/// Whether a member of this shape can take a value of `node`'s JSON type.
fn accepts_type(shape: &Shape, node: &Node) -> bool {
    match (shape, &node.value) {
        (Shape::Any | Shape::Custom(_), _) | (_, Value::Unknown) => true,
        (Shape::Str | Shape::Pattern(..), Value::Str(_)) => true,
        (Shape::Null, Value::Null) => true,
        (Shape::Bool, Value::Bool(_)) => true,
        (Shape::Num(_), Value::Int(_) | Value::Float(_)) => true,
        (Shape::Int(_), Value::Int(_)) => true,
        (Shape::Lit(lits), v) => lits
            .iter()
            .any(|l| matches!((l, v), (Lit::Str(_), Value::Str(_)) | (Lit::Bool(_), Value::Bool(_)))),
        (Shape::Array(_) | Shape::Tuple(_), Value::Seq(_)) => true,
        (Shape::Record(_) | Shape::Object(_), Value::Map(_)) => true,
        (Shape::Union(ms), _) => ms.iter().any(|m| accepts_type(m, node)),
        _ => false,
    }
}

/// An object member's literal tag fields (a required field of literal values) must hold one of
/// their values; other members always match.
fn tag_matches(shape: &Shape, node: &Node) -> bool {
    let (Shape::Object(o), Some(map)) = (shape, node.as_map()) else {
        return true;
    };
    o.fields
        .iter()
        .filter(|f| f.required && matches!(f.shape, Shape::Lit(_)))
        .all(|f| match (&f.shape, map.value(f.name)) {
            (Shape::Lit(lits), Some(v)) => lits.iter().any(|l| l.matches(v)),
            _ => false,
        })
}

/// The tag field shared by every member of a union of tagged objects.
fn tag_of(members: &'static [Shape]) -> Option<&'static Field> {
    let mut tag: Option<&'static Field> = None;
    for m in members {
        let Shape::Object(o) = m else { return None };
        let fields: &'static [Field] = o.fields;
        let f = fields.iter().find(|f| f.required && matches!(f.shape, Shape::Lit(_)))?;
        if tag.is_some_and(|t| t.name != f.name) {
            return None;
        }
        tag = Some(f);
    }
    tag
}

/// The values a union's tag field takes, in member order.
pub fn tag_values(union: &Shape) -> Vec<Lit> {
    let Shape::Union(members) = union else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for m in members.iter() {
        if let Shape::Object(o) = m {
            for f in o.fields.iter().filter(|f| f.required) {
                if let Shape::Lit(lits) = f.shape {
                    out.extend(lits.iter().copied());
                }
            }
        }
    }
    out
}

fn knows_key(shape: &Shape, key: &str) -> bool {
    match shape {
        Shape::Object(o) => o.field(key).is_some(),
        Shape::Union(ms) => ms.iter().any(|m| knows_key(m, key)),
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------------
// Words

/// What a value of this shape must be, for messages: "an array of strings", `"auto" or
/// "stretch"`, "true, false or \"notify\"".
pub fn describe(shape: &Shape) -> String {
    match shape {
        Shape::Any => "any value".into(),
        Shape::Str => "a string".into(),
        Shape::Null => "null".into(),
        Shape::Pattern(_, what) | Shape::Custom(what) => (*what).into(),
        Shape::Bool => "true or false".into(),
        Shape::Num(n) => n.describe(),
        Shape::Int(n) => format!("{} (an integer, not `1.0`)", n.describe()),
        Shape::Lit(lits) => either(lits.iter().map(Lit::json).collect()),
        Shape::Array(item) => format!("an array of {}", plural(item)),
        Shape::Tuple(items) => format!(
            "an array of exactly {} items ({})",
            items.len(),
            items.iter().map(describe).collect::<Vec<_>>().join(", then ")
        ),
        Shape::Record(each) => match each {
            Shape::Any => "an object".into(),
            Shape::Str => "an object whose values are strings".into(),
            _ => {
                let mut parts = Vec::new();
                union_parts(each, &mut parts);
                format!("an object whose values are each {}", either(parts))
            }
        },
        Shape::Object(o) => format!("an object ({})", o.what),
        Shape::Union(_) => {
            let mut parts: Vec<String> = Vec::new();
            union_parts(shape, &mut parts);
            parts.dedup();
            either(parts)
        }
    }
}

/// A union's choices, nested unions flattened: `true`, `false` and literals one by one, objects
/// by what they are ("a remote MCP server").
fn union_parts(shape: &Shape, parts: &mut Vec<String>) {
    match shape {
        Shape::Union(ms) => {
            for m in ms.iter() {
                union_parts(m, parts);
            }
        }
        Shape::Bool => {
            parts.push("true".into());
            parts.push("false".into());
        }
        Shape::Lit(lits) => parts.extend(lits.iter().map(Lit::json)),
        Shape::Object(o) => parts.push(o.what.into()),
        other => parts.push(describe(other)),
    }
}

/// Items of an array of this shape: "strings", "objects (an MCP server)".
fn plural(shape: &Shape) -> String {
    match shape {
        Shape::Str => "strings".into(),
        Shape::Bool => "booleans".into(),
        Shape::Num(n) if n.int => "whole numbers".into(),
        Shape::Int(_) => "integers".into(),
        Shape::Num(_) => "numbers".into(),
        Shape::Object(_) | Shape::Record(_) => "objects".into(),
        Shape::Lit(lits) => either(lits.iter().map(Lit::json).collect()),
        Shape::Union(_) => format!("items that are each {}", describe(shape)),
        other => format!("items that are each {}", describe(other)),
    }
}

/// `a`, `a or b`, `a, b or c`.
pub fn either(parts: Vec<String>) -> String {
    match parts.len() {
        0 => String::new(),
        1 => parts.into_iter().next().unwrap_or_default(),
        n => format!("{} or {}", parts[..n - 1].join(", "), parts[n - 1]),
    }
}

/// The string literals a shape allows (for a did-you-mean on a bad value).
pub fn string_literals(shape: &Shape) -> Vec<&'static str> {
    match shape {
        Shape::Lit(lits) => lits
            .iter()
            .filter_map(|l| match l {
                Lit::Str(s) => Some(*s),
                Lit::Bool(_) => None,
            })
            .collect(),
        Shape::Union(ms) => ms.iter().flat_map(string_literals).collect(),
        _ => Vec::new(),
    }
}

pub mod lookup;

#[cfg(test)]
mod tests;

//! Lookup in a schema, for completion and hover: the shapes, fields and values at a path of keys
//! (arrays are looked through).

use super::{Field, Lit, Object, Rest, Shape};

/// The shapes a value at `path` (keys from `root`; arrays are looked through) may have.
pub fn shapes_at<'s>(root: &'s Shape, path: &[&str]) -> Vec<&'s Shape> {
    let mut here: Vec<&'s Shape> = vec![root];
    for key in path {
        let mut next = Vec::new();
        for s in here {
            step(s, key, &mut next);
        }
        if next.is_empty() {
            return next;
        }
        here = next;
    }
    here
}

fn step<'s>(shape: &'s Shape, key: &str, out: &mut Vec<&'s Shape>) {
    match shape {
        Shape::Object(o) => match (o.fields.iter().find(|f| f.name == key), &o.rest) {
            (Some(f), _) => push_through_arrays(&f.shape, out),
            (None, Rest::Keep(each)) => push_through_arrays(each, out),
            (None, Rest::Drop | Rest::Refuse) => {}
        },
        Shape::Record(each) => push_through_arrays(each, out),
        Shape::Union(ms) => {
            for m in ms.iter() {
                step(m, key, out);
            }
        }
        Shape::Array(item) => step(item, key, out),
        Shape::Tuple(items) => {
            for i in items.iter() {
                step(i, key, out);
            }
        }
        _ => {}
    }
}

/// An array's items stand for the array: completion paths name keys only.
fn push_through_arrays<'s>(shape: &'s Shape, out: &mut Vec<&'s Shape>) {
    match shape {
        Shape::Array(item) => push_through_arrays(item, out),
        Shape::Tuple(items) => {
            for i in items.iter() {
                push_through_arrays(i, out);
            }
        }
        Shape::Union(ms) => {
            out.push(shape);
            for m in ms.iter() {
                if matches!(m, Shape::Array(_) | Shape::Tuple(_)) {
                    push_through_arrays(m, out);
                }
            }
        }
        _ => out.push(shape),
    }
}

/// The fields an object at `path` may have, each once, with the object it belongs to (for a
/// union of objects, every member's), in schema order.
pub fn fields_at(root: &'static Shape, path: &[&str]) -> Vec<(&'static Object, &'static Field)> {
    let mut out: Vec<(&'static Object, &'static Field)> = Vec::new();
    fn collect(s: &'static Shape, out: &mut Vec<(&'static Object, &'static Field)>) {
        match s {
            Shape::Object(o) => {
                let fields: &'static [Field] = o.fields;
                for f in fields {
                    if !out.iter().any(|(_, g)| g.name == f.name) {
                        out.push((o, f));
                    }
                }
            }
            Shape::Union(ms) => {
                for m in ms.iter() {
                    collect(m, out);
                }
            }
            _ => {}
        }
    }
    for s in shapes_at(root, path) {
        collect(s, &mut out);
    }
    out
}

/// The field named by the last key of `path`, with the objects that have it (one per union
/// member that does), for hover.
pub fn field_at(root: &'static Shape, path: &[&str]) -> Vec<(&'static Object, &'static Field)> {
    let Some((last, parent)) = path.split_last() else {
        return Vec::new();
    };
    let mut out: Vec<(&'static Object, &'static Field)> = Vec::new();
    fn collect(s: &'static Shape, name: &str, out: &mut Vec<(&'static Object, &'static Field)>) {
        match s {
            Shape::Object(o) => {
                if let Some(f) = o.field(name)
                    && !out.iter().any(|(p, g)| std::ptr::eq(*p, *o) && g.name == f.name)
                {
                    out.push((o, f));
                }
            }
            Shape::Union(ms) => {
                for m in ms.iter() {
                    collect(m, name, out);
                }
            }
            _ => {}
        }
    }
    for s in shapes_at(root, parent) {
        collect(s, last, &mut out);
    }
    out
}

/// The literal values a value at `path` may take (booleans as `true`/`false`), for completion.
pub fn values_at(root: &'static Shape, path: &[&str]) -> Vec<Lit> {
    let mut out: Vec<Lit> = Vec::new();
    fn collect(s: &Shape, out: &mut Vec<Lit>) {
        match s {
            Shape::Bool => {
                for b in [true, false] {
                    if !out.contains(&Lit::Bool(b)) {
                        out.push(Lit::Bool(b));
                    }
                }
            }
            Shape::Lit(lits) => {
                for l in lits.iter() {
                    if !out.contains(l) {
                        out.push(*l);
                    }
                }
            }
            Shape::Union(ms) => {
                for m in ms.iter() {
                    collect(m, out);
                }
            }
            Shape::Array(item) => collect(item, out),
            _ => {}
        }
    }
    for s in shapes_at(root, path) {
        collect(s, &mut out);
    }
    out
}

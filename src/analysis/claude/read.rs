//! How Claude Code 2.1.332 finds and parses an agent's frontmatter (spec §7.1-7.3).
//! (Interim: first pass only; replaced by the full reader.)

use crate::analysis::syntax::{Parsed, SyntaxError, yaml};
use crate::analysis::text::Span;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub open: Span,
    pub yaml: Span,
    pub close: Span,
    pub body: Span,
    pub early: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    NoFrontmatter,
    FirstPass,
    Retry,
    Failed,
    NotMapping,
}

#[derive(Clone, Debug)]
pub struct Reading {
    pub bom: bool,
    pub block: Option<Block>,
    pub outcome: Outcome,
    pub parsed: Parsed,
    pub first_errors: Vec<SyntaxError>,
    pub quoted: Vec<Span>,
    pub lost_keys: Vec<(String, Span)>,
}

pub fn read(text: &str) -> Reading {
    let bom = text.starts_with('\u{feff}');
    let start = if bom { 3 } else { 0 };
    let mut r = Reading {
        bom,
        block: None,
        outcome: Outcome::NoFrontmatter,
        parsed: Parsed::default(),
        first_errors: Vec::new(),
        quoted: Vec::new(),
        lost_keys: Vec::new(),
    };
    let rest = &text[start..];
    if !rest.starts_with("---") {
        return r;
    }
    let after = rest[3..].trim_start_matches([' ', '\t']);
    let nl = if after.starts_with("\r\n") {
        2
    } else if after.starts_with('\n') {
        1
    } else {
        return r;
    };
    let yaml_start = text.len() - after.len() + nl;
    let Some(i) = text[yaml_start..].find("---") else {
        return r;
    };
    let close = Span::new(yaml_start + i, yaml_start + i + 3);
    let mut body = close.end as usize;
    body += text[body..].len() - text[body..].trim_start_matches([' ', '\t']).len();
    if text[body..].starts_with("\r\n") {
        body += 2;
    } else if text[body..].starts_with('\n') {
        body += 1;
    }
    let early = !(text[..close.start as usize].ends_with('\n')
        && (body == text.len() || text[close.end as usize..body].ends_with('\n')));
    r.block = Some(Block {
        open: Span::new(start, start + 3),
        yaml: Span::new(yaml_start, yaml_start + i),
        close,
        body: Span::new(body, text.len()),
        early,
    });
    r.parsed = yaml::parse(&text[yaml_start..yaml_start + i], yaml_start);
    r.outcome = if r.parsed.errors.is_empty() {
        Outcome::FirstPass
    } else {
        r.first_errors = r.parsed.errors.clone();
        Outcome::Failed
    };
    r
}

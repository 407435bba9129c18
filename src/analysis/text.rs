//! Byte spans and the one place where byte offsets become lines and columns.
//!
//! Every span in the analysis core is a byte range into the text of the whole file. Lines and
//! columns only exist at the edges (CLI output, LSP positions), and they are computed here, for
//! three column units:
//! - [`Encoding::Utf8`]: bytes (LSP `utf-8`);
//! - [`Encoding::Utf16`]: UTF-16 code units (LSP `utf-16`, the protocol default);
//! - [`Encoding::Utf32`]: Unicode scalar values (LSP `utf-32`, and the CLI's human columns).
//!
//! Line breaks are `\n`, `\r\n` and a lone `\r`, as in the LSP specification. A UTF-8 byte-order
//! mark at the start of the text has zero width: it is not counted in columns of the first line.

use std::ops::Range;

/// A half-open byte range `[start, end)` into a file's text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        let start = u32::try_from(start).unwrap_or(u32::MAX);
        let end = u32::try_from(end).unwrap_or(u32::MAX).max(start);
        Span { start, end }
    }

    pub fn empty(at: usize) -> Span {
        Span::new(at, at)
    }

    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// Shift a span that was computed on a slice starting at `offset`.
    pub fn shifted(self, offset: usize) -> Span {
        Span::new(self.start as usize + offset, self.end as usize + offset)
    }

    pub fn cover(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub fn contains(self, offset: usize) -> bool {
        (self.start as usize) <= offset && offset <= (self.end as usize)
    }

    /// The text under the span, or `""` when the span does not fall on char boundaries.
    pub fn text(self, source: &str) -> &str {
        source.get(self.range()).unwrap_or("")
    }
}

/// The unit in which columns are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    Utf8,
    Utf16,
    Utf32,
}

/// A zero-based line and column (column in the chosen [`Encoding`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

/// Line starts of one text; immutable, rebuilt when the text changes (this costs about a
/// microsecond per kilobyte).
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offset where each line starts. Always holds at least one entry (`0` or `3` after a BOM).
    starts: Vec<u32>,
    len: u32,
    /// True when the text is pure ASCII, so every encoding counts the same.
    ascii: bool,
}

const BOM: &str = "\u{feff}";

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let first = if text.starts_with(BOM) { BOM.len() } else { 0 };
        let mut starts = vec![first as u32];
        // Line breaks found with memchr: a 200 kB config is indexed on every keystroke. The `\r`
        // of a CRLF is skipped: the line starts after its `\n`.
        for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            if !(bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n')) {
                starts.push((i + 1) as u32);
            }
        }
        LineIndex {
            starts,
            len: text.len() as u32,
            ascii: text.is_ascii(),
        }
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// Byte offset of the start of `line` (zero-based), or the end of the text past the last line.
    pub fn line_start(&self, line: usize) -> usize {
        self.starts.get(line).map(|s| *s as usize).unwrap_or(self.len as usize)
    }

    /// Byte range of a line's content, without its line break.
    pub fn line_range(&self, text: &str, line: usize) -> Range<usize> {
        let start = self.line_start(line);
        let mut end = self.line_start(line + 1).min(text.len());
        let bytes = text.as_bytes();
        if line + 1 < self.starts.len() {
            if end > start && bytes[end - 1] == b'\n' {
                end -= 1;
            }
            if end > start && bytes[end - 1] == b'\r' {
                end -= 1;
            }
        }
        start..end.max(start)
    }

    /// Zero-based line of a byte offset (offsets past the end map to the last line).
    pub fn line_of(&self, offset: usize) -> usize {
        let offset = offset.min(self.len as usize) as u32;
        match self.starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next.saturating_sub(1),
        }
    }

    /// Line and column of a byte offset. An offset inside a multi-byte character or inside a
    /// CRLF pair is moved back to the start of that character or pair.
    pub fn line_col(&self, text: &str, offset: usize, encoding: Encoding) -> LineCol {
        let offset = offset.min(text.len());
        let line = self.line_of(offset);
        let start = self.line_start(line).min(offset);
        // Never past the line's content: an offset between the `\r` and the `\n` of a CRLF
        // is the end of the line, not a column inside its line break.
        let mut end = offset.min(self.line_range(text, line).end).max(start);
        while end > start && !text.is_char_boundary(end) {
            end -= 1;
        }
        let segment = &text[start..end];
        let col = if self.ascii {
            segment.len()
        } else {
            match encoding {
                Encoding::Utf8 => segment.len(),
                Encoding::Utf16 => segment.encode_utf16().count(),
                Encoding::Utf32 => segment.chars().count(),
            }
        };
        LineCol {
            line: line as u32,
            col: col as u32,
        }
    }

    /// Byte offset of a line and column. Out-of-range positions are clamped: a line past the end
    /// maps to the end of the text, a column past the end of its line to the end of the line
    /// (before the line break), and a column inside a character to the start of that character.
    pub fn offset(&self, text: &str, pos: LineCol, encoding: Encoding) -> usize {
        let line = pos.line as usize;
        if line >= self.starts.len() {
            return text.len();
        }
        let range = self.line_range(text, line);
        let content = &text[range.clone()];
        let want = pos.col as usize;
        if self.ascii || encoding == Encoding::Utf8 {
            let mut at = want.min(content.len());
            while at > 0 && !content.is_char_boundary(at) {
                at -= 1;
            }
            return range.start + at;
        }
        let mut units = 0usize;
        for (i, ch) in content.char_indices() {
            let width = match encoding {
                Encoding::Utf16 => ch.len_utf16(),
                _ => 1,
            };
            if units + width > want {
                return range.start + i;
            }
            units += width;
        }
        range.end
    }

    /// Same as [`LineIndex::offset`], but `None` when the position lies outside the text (a line
    /// past the last one, or a column past the end of its line). Used where a bad position must be
    /// noticed rather than clamped.
    pub fn checked_offset(&self, text: &str, pos: LineCol, encoding: Encoding) -> Option<usize> {
        let line = pos.line as usize;
        if line >= self.starts.len() {
            return None;
        }
        let range = self.line_range(text, line);
        let content = &text[range.clone()];
        let width: usize = match encoding {
            _ if self.ascii => content.len(),
            Encoding::Utf8 => content.len(),
            Encoding::Utf16 => content.encode_utf16().count(),
            Encoding::Utf32 => content.chars().count(),
        };
        if pos.col as usize > width {
            return None;
        }
        Some(self.offset(text, pos, encoding))
    }
}

/// A span for "the file": its first line (after a BOM), where a diagnostic about the whole file
/// sits.
pub fn first_line(text: &str) -> Span {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let end = text[start..].find(['\n', '\r']).map_or(text.len(), |i| start + i);
    Span::new(start, end)
}

/// JavaScript's `\s`: its white space and line terminators (what `trim` removes), as the
/// runtimes' own readers written in JavaScript see a blank.
pub fn js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lc(index: &LineIndex, text: &str, offset: usize, enc: Encoding) -> (u32, u32) {
        let p = index.line_col(text, offset, enc);
        (p.line, p.col)
    }

    #[test]
    fn ascii_lines() {
        let text = "a: 1\nbb: 2\n";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_count(), 3);
        assert_eq!(lc(&idx, text, 5, Encoding::Utf16), (1, 0));
        assert_eq!(lc(&idx, text, 8, Encoding::Utf8), (1, 3));
        assert_eq!(idx.offset(text, LineCol { line: 1, col: 3 }, Encoding::Utf16), 8);
    }

    #[test]
    fn cjk_and_emoji_columns() {
        // "审查代码 🚀 ok": 4 CJK chars (3 bytes, 1 UTF-16 unit each), a space, an emoji
        // (4 bytes, 2 UTF-16 units), a space, "ok".
        let text = "description: 审查代码 🚀 ok\nmode: subagent\n";
        let idx = LineIndex::new(text);
        let ok = text.find("ok").unwrap();
        assert_eq!(ok, 31);
        assert_eq!(lc(&idx, text, ok, Encoding::Utf8), (0, 31));
        assert_eq!(lc(&idx, text, ok, Encoding::Utf16), (0, 21));
        assert_eq!(lc(&idx, text, ok, Encoding::Utf32), (0, 20));
        for enc in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
            let p = idx.line_col(text, ok, enc);
            assert_eq!(idx.offset(text, p, enc), ok, "{enc:?}");
        }
        let mode = text.find("subagent").unwrap();
        assert_eq!(lc(&idx, text, mode, Encoding::Utf16), (1, 6));
    }

    #[test]
    fn position_inside_a_surrogate_pair_moves_to_the_char_start() {
        let text = "a🚀b";
        let idx = LineIndex::new(text);
        // UTF-16 column 2 is the middle of the emoji.
        assert_eq!(idx.offset(text, LineCol { line: 0, col: 2 }, Encoding::Utf16), 1);
        assert_eq!(idx.offset(text, LineCol { line: 0, col: 3 }, Encoding::Utf16), 5);
        // A byte offset inside the emoji reports the emoji's start column.
        assert_eq!(lc(&idx, text, 3, Encoding::Utf16), (0, 1));
    }

    #[test]
    fn crlf_and_lone_cr() {
        let text = "a: 1\r\nb: 2\rc: 3\n";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_count(), 4);
        assert_eq!(lc(&idx, text, text.find('b').unwrap(), Encoding::Utf16), (1, 0));
        assert_eq!(lc(&idx, text, text.find('c').unwrap(), Encoding::Utf16), (2, 0));
        assert_eq!(idx.line_range(text, 0), 0..4);
        // The `\r` of a CRLF and the offset between it and the `\n` are both the line's end.
        assert_eq!(lc(&idx, text, 4, Encoding::Utf16), (0, 4));
        assert_eq!(lc(&idx, text, 5, Encoding::Utf16), (0, 4));
        assert_eq!(lc(&idx, text, 5, Encoding::Utf8), (0, 4));
        // A column past the end of the line clamps before the CRLF.
        assert_eq!(idx.offset(text, LineCol { line: 0, col: 99 }, Encoding::Utf16), 4);
        assert_eq!(
            idx.checked_offset(text, LineCol { line: 0, col: 99 }, Encoding::Utf16),
            None
        );
        assert_eq!(
            idx.checked_offset(text, LineCol { line: 9, col: 0 }, Encoding::Utf16),
            None
        );
    }

    #[test]
    fn bom_has_zero_width() {
        let text = "\u{feff}mode: x\n";
        let idx = LineIndex::new(text);
        assert_eq!(lc(&idx, text, 3, Encoding::Utf16), (0, 0));
        assert_eq!(lc(&idx, text, text.find('x').unwrap(), Encoding::Utf32), (0, 6));
        assert_eq!(idx.offset(text, LineCol { line: 0, col: 0 }, Encoding::Utf16), 3);
    }

    #[test]
    fn empty_text_and_offsets_past_the_end() {
        let idx = LineIndex::new("");
        assert_eq!(lc(&idx, "", 10, Encoding::Utf16), (0, 0));
        assert_eq!(idx.offset("", LineCol { line: 5, col: 5 }, Encoding::Utf16), 0);
    }
}

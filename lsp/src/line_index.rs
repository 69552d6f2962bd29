//! Byte offsets to LSP positions and back.
//!
//! Everything inside the server works in byte offsets, as `dotc-lang` does. The protocol counts
//! lines and UTF-16 code units within a line, so a curly apostrophe (’, one UTF-16 unit but three
//! bytes) or an accented name ("Émile Laforêt") moves the two apart. This index is the one place
//! that converts, and only at the edge of a request.
//!
//! A line ends at `\n`, at `\r\n` or at a lone `\r`: the three line breaks LSP defines, and the
//! three the grammar's `NEWLINE` reads; the lines are `dotc-lang`'s own index, so a line number
//! in a message, in `dotc odds --at` or in the CLI's JSON is the line the editor shows.

use tower_lsp_server::ls_types::{Position, Range};

use dotc_lang::Span;
use dotc_lang::incremental::Edit;
use dotc_lang::lines::LineIndex as Lines;

/// The language's line index ([`dotc_lang::lines::LineIndex`]) with the protocol's UTF-16
/// columns on top: the server and the CLI count lines the same way.
#[derive(Clone, Debug)]
pub struct LineIndex {
    lines: Lines,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        LineIndex { lines: Lines::new(text) }
    }

    /// Bring the index up to date with an edit that made `new_text`
    /// ([`dotc_lang::lines::LineIndex::edit`]).
    pub fn edit(&mut self, new_text: &str, edit: Edit) {
        self.lines.edit(new_text, edit);
    }

    /// How many lines the text has (a text ending in a newline has an empty last line).
    pub fn line_count(&self) -> usize {
        self.lines.line_count()
    }

    /// The 0-based line of a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        self.lines.line_of(offset)
    }

    /// The byte offset where a 0-based line starts (the end of the text past the last line).
    pub fn line_start(&self, line: usize) -> usize {
        self.lines.line_start(line)
    }

    /// Where a line's text ends: before its line break (the end of the text for the last line).
    pub fn content_end(&self, text: &str, line: usize) -> usize {
        self.lines.content_end(text, line)
    }

    /// The protocol position of a byte offset. An offset inside a character counts from that
    /// character's start; one inside a line break (between the `\r` and `\n` of a `\r\n`) is the
    /// end of its line; one past the end is the end of the text.
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.line_of(offset);
        let start = self.line_start(line);
        let offset = offset.min(self.content_end(text, line)).max(start);
        let column: usize = text[start..offset].chars().map(char::len_utf16).sum();
        Position { line: to_u32(line), character: to_u32(column) }
    }

    pub fn range(&self, text: &str, span: Span) -> Range {
        Range { start: self.position(text, span.start), end: self.position(text, span.end) }
    }

    /// The byte offset of a protocol position. A column past the end of its line is the end of
    /// the line (before its newline); a line past the end of the text is the end of the text; a
    /// column in the middle of a surrogate pair is the start of that character.
    pub fn offset(&self, text: &str, position: Position) -> usize {
        let line = position.line as usize;
        if line >= self.line_count() {
            return text.len();
        }
        let start = self.line_start(line);
        let content = text.get(start..self.content_end(text, line)).unwrap_or("");
        let mut units = 0;
        for (i, c) in content.char_indices() {
            let next = units + c.len_utf16();
            if next > position.character as usize {
                return start + i;
            }
            units = next;
        }
        start + content.len()
    }

    pub fn span(&self, text: &str, range: Range) -> Span {
        let start = self.offset(text, range.start);
        let end = self.offset(text, range.end);
        Span::new(start.min(end), end.max(start))
    }
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn ascii_round_trips() {
        let text = "ab\ncd\n";
        let index = LineIndex::new(text);
        assert_eq!(index.position(text, 4), pos(1, 1));
        assert_eq!(index.offset(text, pos(1, 1)), 4);
        assert_eq!(index.position(text, text.len()), pos(2, 0));
    }

    #[test]
    fn curly_apostrophe_is_one_utf16_unit_and_three_bytes() {
        let text = "brigade \"Hollister’s Brigade\" {\n}";
        let index = LineIndex::new(text);
        let after = text.find("s Brigade").unwrap_or(0);
        // `’` is 3 bytes, 1 UTF-16 unit: the `s` after it is at column 19, not 21.
        assert_eq!(index.position(text, after), pos(0, 19));
        assert_eq!(index.offset(text, pos(0, 19)), after);
    }

    #[test]
    fn accented_names_convert_both_ways() {
        let text = "x\n    brigadier \"Brig. Gen. Émile Laforêt\" aggressive\n";
        let index = LineIndex::new(text);
        let aggressive = text.find("aggressive").unwrap_or(0);
        // "    brigadier \"Brig. Gen. Émile Laforêt\" " is 41 characters (46 bytes), each one UTF-16 unit.
        assert_eq!(index.position(text, aggressive), pos(1, 41));
        assert_eq!(index.offset(text, pos(1, 41)), aggressive);
        for (offset, _) in text.char_indices() {
            assert_eq!(index.offset(text, index.position(text, offset)), offset);
        }
    }

    #[test]
    fn astral_characters_count_two_units() {
        let text = "\"𝔄b\"";
        let index = LineIndex::new(text);
        assert_eq!(index.position(text, 5), pos(0, 3));
        // Inside the surrogate pair: the start of the character.
        assert_eq!(index.offset(text, pos(0, 2)), 1);
        assert_eq!(index.offset(text, pos(0, 3)), 5);
    }

    #[test]
    fn lone_cr_and_crlf_end_lines() {
        let text = "a\rbc\r\nd\ne\r";
        let index = LineIndex::new(text);
        let starts: Vec<usize> = (0..index.line_count()).map(|l| index.line_start(l)).collect();
        assert_eq!(starts, vec![0, 2, 6, 8, 10]);
        assert_eq!(index.position(text, 3), pos(1, 1));
        assert_eq!(index.position(text, 6), pos(2, 0));
        // Between the `\r` and the `\n` of a CRLF: the end of its line.
        assert_eq!(index.position(text, 5), pos(1, 2));
        assert_eq!(index.position(text, text.len()), pos(4, 0));
        assert_eq!(index.offset(text, pos(1, 9)), 4);
        assert_eq!(index.offset(text, pos(0, 9)), 1);
        assert_eq!(index.offset(text, pos(3, 9)), 9);
        // Thirty lines ended by a lone `\r`: the last is line 29, not a column of line 0.
        let text = "x\r".repeat(29) + "y";
        let index = LineIndex::new(&text);
        assert_eq!(index.position(&text, text.len() - 1), pos(29, 0));
    }

    #[test]
    fn out_of_range_positions_clamp() {
        let text = "ab\r\ncd";
        let index = LineIndex::new(text);
        assert_eq!(index.offset(text, pos(0, 99)), 2);
        assert_eq!(index.offset(text, pos(9, 0)), text.len());
        assert_eq!(index.position(text, 999), pos(1, 2));
        // An offset in the middle of a multi-byte character is that character's start.
        let text = "é";
        assert_eq!(LineIndex::new(text).position(text, 1), pos(0, 0));
    }
}

//! The one line index: where every line of a text starts.
//!
//! Everything in dotc works in byte offsets; lines and columns are computed only where a person
//! or a tool reads them (the CLI's text and JSON output, the audit's findings, `dotc odds --at`,
//! the export's line fields, the language server's positions). They all use this index, made
//! once per text, so a file with a finding on every line is reported in time linear in its size
//! (issue 16): a lookup is a binary search, not a count of the newlines from the top.
//!
//! A line ends at `\n`, at `\r\n` or at a lone `\r`: the three line breaks the grammar's
//! `NEWLINE` reads, the three LSP defines and the three miette splits on, so the line a message
//! gives, the line the editor shows and the line the renderer draws are the same line.
//!
//! [`work`] counts the bytes and steps this module spends, so a test can tell linear reporting
//! from quadratic by counting, not by timing.

use crate::incremental::Edit;

/// The start of every line of a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    /// Byte offset where each line starts; the first is always 0.
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if bytes.get(i + 1) != Some(&b'\n') => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        work::add(bytes.len() as u64);
        LineIndex { starts, len: text.len() }
    }

    /// Bring the index up to date with an edit that made `new_text`: the line starts in and just
    /// around the replaced bytes are found again and those after it move; the rest is kept.
    pub fn edit(&mut self, new_text: &str, edit: Edit) {
        let bytes = new_text.as_bytes();
        let delta = edit.delta();
        // Whether a line starts at `p` depends on the bytes at `p - 1` and `p` (a `\r` followed
        // by `\n` ends its line only after the `\n`), so an edit can make or unmake a line start
        // at either end of the bytes it replaced: a `\r` typed before a `\n` joins them, text
        // typed between them splits them. The starts in [start, old_end] of the old text are
        // found again in [start, new_end] of the new one; the first line's start stays.
        let from = self.starts.partition_point(|&s| s < edit.start.max(1));
        let to = self.starts.partition_point(|&s| s <= edit.old_end);
        let fresh: Vec<usize> =
            (edit.start.max(1)..=edit.new_end.min(bytes.len())).filter(|&p| starts_line(bytes, p)).collect();
        work::add((edit.new_end.saturating_sub(edit.start) + self.starts.len() - to) as u64);
        for s in &mut self.starts[to..] {
            *s = s.wrapping_add_signed(delta);
        }
        self.starts.splice(from..to.max(from), fresh);
        self.len = new_text.len();
    }

    /// How many lines the text has (a text ending in a line break has an empty last line).
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The length of the text the index was made for.
    pub fn text_len(&self) -> usize {
        self.len
    }

    /// The 0-based line of a byte offset (an offset past the end is on the last line).
    pub fn line_of(&self, offset: usize) -> usize {
        work::add(self.starts.len().max(2).ilog2() as u64);
        let offset = offset.min(self.len);
        self.starts.partition_point(|&start| start <= offset).saturating_sub(1)
    }

    /// The 1-based line of a byte offset, as messages and the CLI's output give it.
    pub fn line(&self, offset: usize) -> usize {
        self.line_of(offset) + 1
    }

    /// The byte offset where a 0-based line starts (the end of the text past the last line).
    pub fn line_start(&self, line: usize) -> usize {
        self.starts.get(line).copied().unwrap_or(self.len)
    }

    /// Where a line's text ends: before its line break (the end of the text for the last line).
    pub fn content_end(&self, text: &str, line: usize) -> usize {
        let start = self.line_start(line);
        let Some(&next) = self.starts.get(line + 1) else { return text.len() };
        let bytes = text.as_bytes();
        let mut end = next.min(bytes.len());
        if end > start && bytes.get(end - 1) == Some(&b'\n') {
            end -= 1;
        }
        if end > start && bytes.get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        end
    }

    /// The text of a 0-based line, without its line break (empty past the last line).
    pub fn line_text<'t>(&self, text: &'t str, line: usize) -> &'t str {
        if line >= self.starts.len() {
            return "";
        }
        text.get(self.line_start(line)..self.content_end(text, line)).unwrap_or("")
    }

    /// Line and column of a byte offset, both 1-based, the column in characters. An offset
    /// inside a character counts from that character's start; one past the end is the end of
    /// the text.
    pub fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.line_of(offset);
        let start = self.line_start(line).min(offset);
        work::add((offset - start) as u64);
        (line + 1, text[start..offset].chars().count() + 1)
    }
}

/// Line and column (both 1-based, the column in characters) of one byte offset. For one lookup
/// only: it indexes the whole text, so many lookups share a [`LineIndex`] instead.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    LineIndex::new(text).line_col(text, offset)
}

/// A line starts at byte `p` (not the first) when a line break ends just before it: a `\n`, or
/// a `\r` not followed by `\n`.
fn starts_line(bytes: &[u8], p: usize) -> bool {
    match p.checked_sub(1).and_then(|i| bytes.get(i)) {
        Some(b'\n') => true,
        Some(b'\r') => bytes.get(p) != Some(&b'\n'),
        _ => false,
    }
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// A count of the work spent placing things in a text, per thread: bytes scanned to index a
/// text or count a column, bytes of the file miette reads to render a diagnostic, the steps of
/// each binary search, and the findings a report looks at to place them under their action
/// (the replay's narrative). Cheap enough to be always on; read by the test that holds
/// reporting to linear growth (`src/linear_tests.rs`).
pub mod work {
    use std::cell::Cell;

    thread_local! {
        static WORK: Cell<u64> = const { Cell::new(0) };
    }

    /// Add `n` units of work done on this thread.
    pub fn add(n: u64) {
        WORK.with(|w| w.set(w.get().saturating_add(n)));
    }

    /// The work done on this thread so far.
    pub fn done() -> u64 {
        WORK.with(Cell::get)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain definition, walked a character at a time.
    fn by_hand(text: &str, offset: usize) -> (usize, usize) {
        // Inside a character: where that character begins.
        if offset < text.len() && !text.is_char_boundary(offset) {
            return by_hand(text, floor_char_boundary(text, offset));
        }
        let (mut line, mut column) = (1, 1);
        let mut chars = text.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            if at >= offset {
                break;
            }
            let next = chars.peek().map(|&(_, n)| n);
            match c {
                '\r' if next == Some('\n') => column += 1,
                '\n' | '\r' => (line, column) = (line + 1, 1),
                _ => column += 1,
            }
        }
        (line, column)
    }

    #[test]
    fn line_col_counts_lf_crlf_and_lone_cr() {
        let text = "a\rbc\r\nd\ne\r\u{e9}x";
        let index = LineIndex::new(text);
        assert_eq!(index.starts, vec![0, 2, 6, 8, 10]);
        assert_eq!(index.line_col(text, 0), (1, 1));
        assert_eq!(index.line_col(text, 3), (2, 2));
        assert_eq!(index.line_col(text, 6), (3, 1));
        // After a two-byte character: the third character of line 5.
        assert_eq!(index.line_col(text, 12), (5, 2));
        assert_eq!(index.line_col(text, 999), (5, 3));
        for offset in 0..=text.len() + 1 {
            assert_eq!(index.line_col(text, offset), by_hand(text, offset), "{offset}");
        }
    }

    #[test]
    fn line_text_and_content_end_leave_the_break_out() {
        let text = "one\r\ntwo\rthree\nfour";
        let index = LineIndex::new(text);
        let lines: Vec<&str> = (0..index.line_count()).map(|l| index.line_text(text, l)).collect();
        assert_eq!(lines, ["one", "two", "three", "four"]);
        assert_eq!(index.line_text(text, 9), "");
    }

    #[test]
    fn an_edited_index_is_the_index_of_the_new_text() {
        let texts = ["", "a", "\n", "ab\ncd\n", "x\n\ny\r\nz", "é\n’\n", "a\rb\r\r\nc\r", "\r\n\r\n", "\r"];
        let inserts = ["", "\n", "q", "a\nb\n", "\r\n", "\r", "x\r", "\ny", "\r\r\n"];
        for old in texts {
            for start in 0..=old.len() {
                for end in start..=old.len() {
                    if !old.is_char_boundary(start) || !old.is_char_boundary(end) {
                        continue;
                    }
                    for insert in inserts {
                        let new = format!("{}{insert}{}", &old[..start], &old[end..]);
                        let mut index = LineIndex::new(old);
                        index.edit(&new, Edit { start, old_end: end, new_end: start + insert.len() });
                        assert_eq!(index, LineIndex::new(&new), "{old:?} -> {new:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn lookups_cost_a_binary_search_not_a_scan() {
        let text = "line\n".repeat(100_000);
        let index = LineIndex::new(&text);
        let before = work::done();
        for offset in (0..text.len()).step_by(5) {
            index.line_of(offset);
        }
        // 100,000 lookups of about 17 steps each, not 100,000 scans of the text.
        assert!(work::done() - before < 2_000_000, "{}", work::done() - before);
    }
}

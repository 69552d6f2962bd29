//! Arbitrary sequences of `didChange` edits (UTF-16 ranges, several changes per notification,
//! whole-text replacements, stale versions) to a document whose lines end in `\n`, `\r\n`, a
//! lone `\r` or a mix, applied through the language server's workspace. After every
//! notification: the document's text is the reference text this target edits itself, its line
//! index is the index of that text, every diagnostic position is inside the document, and no
//! analysis panicked.
#![no_main]

use dotc_lsp::ls_types::{Position, Range, TextDocumentContentChangeEvent, Uri};
use dotc_lsp::workspace::Workspace;
use libfuzzer_sys::fuzz_target;

const SCENARIO: &str = include_str!("../../tests/fixtures/base-scenario.dotc");
const GAME: &str = include_str!("../../tests/fixtures/examples/e1-buck-and-ball.dotc");

/// What an input byte below 32 types.
const PIECES: &[&str] = &[
    "\n", "\r\n", "\r", "\n\r", "\r\r", "é", "’", "𝔄", "\"", "// c", "/*", "*/", "{", "}", "`", "\"\"\"",
    "fire ", "turn 2 union {", "\"19th Indiana\"", "roll [3, 4]", "=> hits 1", "stands 5", "\t", " ",
    "@allow(dotc::replay-doubtful, \"x\")", "scenario ", "regiment ", "at (1, 2)", "}\n", "\r\n}", "x\r", "\ry",
];

/// Lines as (start, end of content): a line ends at `\n`, `\r\n` or a lone `\r`.
fn lines(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let (mut out, mut start, mut i) = (Vec::new(), 0, 0);
    while i < bytes.len() {
        if bytes[i] == b'\n' || bytes[i] == b'\r' {
            out.push((start, i));
            if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                i += 1;
            }
            start = i + 1;
        }
        i += 1;
    }
    out.push((start, bytes.len()));
    out
}

fn utf16_len(s: &str) -> u32 {
    s.chars().map(|c| c.len_utf16() as u32).sum()
}

/// The byte offset of a position, clamped as the protocol says.
fn offset(text: &str, lines: &[(usize, usize)], p: Position) -> usize {
    let Some(&(start, end)) = lines.get(p.line as usize) else { return text.len() };
    let mut units = 0;
    for (i, c) in text[start..end].char_indices() {
        units += c.len_utf16() as u32;
        if units > p.character {
            return start + i;
        }
    }
    end
}

struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> Option<u8> {
        let (&first, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(first)
    }

    fn text(&mut self) -> String {
        let len = self.next().unwrap_or(0) % 12;
        let mut out = String::new();
        for _ in 0..len {
            match self.next() {
                Some(b) if b < 32 => out.push_str(PIECES[b as usize % PIECES.len()]),
                Some(b) if b < 128 => out.push(b as char),
                Some(b) => out.push(['é', 'ê', '’', '—', '𝔄', '😀', '\u{FEFF}', 'ß'][b as usize % 8]),
                None => break,
            }
        }
        out
    }

    /// A position near the reference text's lines (sometimes past them).
    fn position(&mut self, text: &str, lines: &[(usize, usize)], near: Option<u32>) -> Position {
        let a = self.next().unwrap_or(0) as u32;
        let b = self.next().unwrap_or(0) as u32;
        let line = match near {
            Some(line) => line + a % 4,
            None => a % (lines.len() as u32 + 2),
        };
        let width = lines.get(line as usize).map_or(0, |&(s, e)| utf16_len(&text[s..e]));
        Position { line, character: b % (width + 3) }
    }
}

fn with_line_ends(text: &str, style: u8) -> String {
    let plain = text.replace("\r\n", "\n");
    let mut out = String::with_capacity(plain.len() * 2);
    for (i, c) in plain.chars().enumerate() {
        if c != '\n' {
            out.push(c);
            continue;
        }
        out.push_str(match (style % 4, i % 3) {
            (0, _) | (3, 0) => "\n",
            (1, _) | (3, 1) => "\r\n",
            _ => "\r",
        });
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes(data);
    let Some(first) = input.next() else { return };
    let (name, original) = match first % 3 {
        0 => ("fuzz-scenario.dotc", SCENARIO),
        1 => ("examples/fuzz-e1-game.dotc", GAME),
        _ => ("fuzz-empty.dotc", ""),
    };
    let path = format!("{}/../tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let Some(uri) = Uri::from_file_path(&path) else { return };
    let mut text = with_line_ends(original, first / 3);
    let mut ws = Workspace::new();
    ws.open(uri.clone(), 1, text.clone());
    let mut version = 1;
    for _ in 0..48 {
        let Some(op) = input.next() else { break };
        let stale = op % 16 == 15;
        let count = 1 + usize::from(op >> 6);
        let mut changes = Vec::new();
        let mut reference = text.clone();
        for _ in 0..count {
            let lines = lines(&reference);
            let change = if op % 16 == 14 {
                TextDocumentContentChangeEvent { range: None, range_length: None, text: input.text() }
            } else {
                let start = input.position(&reference, &lines, None);
                let end = input.position(&reference, &lines, Some(start.line));
                let (a, b) = (offset(&reference, &lines, start), offset(&reference, &lines, end));
                let range = if a <= b { Range { start, end } } else { Range { start: end, end: start } };
                TextDocumentContentChangeEvent { range: Some(range), range_length: None, text: input.text() }
            };
            match change.range {
                None => reference = change.text.clone(),
                Some(range) => {
                    let a = offset(&reference, &lines, range.start);
                    let b = offset(&reference, &lines, range.end);
                    reference.replace_range(a..b, &change.text);
                }
            }
            changes.push(change);
        }
        if stale {
            assert!(ws.change(&uri, version, changes).is_none(), "a stale version was applied");
        } else {
            version += 1;
            assert!(ws.change(&uri, version, changes).is_some());
            text = reference;
        }
        let doc = ws.get(&uri).expect("the document is open");
        assert_eq!(*doc.text, text, "the server's text is not the reference");
        let lines = lines(&text);
        assert_eq!(doc.index.line_count(), lines.len(), "line count");
        for (l, &(start, _)) in lines.iter().enumerate() {
            assert_eq!(doc.index.line_start(l), start, "start of line {l}");
        }
        for d in dotc_lsp::convert::diagnostics(doc, 1000) {
            assert!(d.code.as_ref().is_none_or(|c| *c != dotc_lsp::ls_types::NumberOrString::String(
                "dotc::internal-error".to_string()
            )), "the analysis panicked: {}", d.message);
            let ranges = std::iter::once(d.range)
                .chain(d.related_information.iter().flatten().map(|r| r.location.range));
            for range in ranges {
                for p in [range.start, range.end] {
                    let &(s, e) = lines.get(p.line as usize).expect("a diagnostic past the last line");
                    assert!(p.character <= utf16_len(&text[s..e]), "a diagnostic past its line's end");
                }
                assert!((range.start.line, range.start.character) <= (range.end.line, range.end.character));
            }
        }
    }
});

//! A forgiving tokenizer of `.dotc` text for the editor features.
//!
//! The parser's tree is the authority on what a file means, but an editor also asks about text
//! the parser has given up on: the word under the cursor in a half-typed line, the block a
//! completion is typed in, the strings to colour or rename. This tokenizer never fails and needs
//! no grammar: it knows only comments, strings, text blocks, scripts, words, numbers and
//! punctuation, which is enough for those questions. An unterminated string ends at its line.

use dotc_lang::Span;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// An identifier, a keyword, `@allow`, or a code such as `dotc::unknown-unit`.
    Word,
    /// A quoted name; `closed` is false when the line ended first.
    Str {
        closed: bool,
    },
    /// A number, a signed modifier, a target (`4+`), a date or a clock time.
    Number,
    Comment,
    /// A `"""` text block.
    Text,
    /// A script in backticks, fenced or inline.
    Script,
    /// Any other character (`=>` is one token).
    Punct,
}

/// One token and where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

impl Token {
    pub fn text<'t>(&self, source: &'t str) -> &'t str {
        source.get(self.span.start..self.span.end).unwrap_or("")
    }

    /// For a string, the span of its content without the quotes.
    pub fn inner(&self) -> Span {
        match self.kind {
            TokenKind::Str { closed } => {
                let end = if closed { self.span.end.saturating_sub(1) } else { self.span.end };
                Span::new((self.span.start + 1).min(end), end)
            }
            _ => self.span,
        }
    }

    /// For a string, its value with escapes resolved; otherwise the text.
    pub fn value(&self, source: &str) -> String {
        let inner = self.inner();
        let raw = source.get(inner.start..inner.end).unwrap_or("");
        if !matches!(self.kind, TokenKind::Str { .. }) {
            return raw.to_string();
        }
        unescape(raw)
    }
}

/// A string's content with `\"`, `\\`, `\n` and `\t` resolved, as `dotc-lang` reads it.
pub fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A name written so that it reads back as itself inside double quotes.
pub fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out
}

/// Every token of `source[from..to]`, in order. `from` must be outside any token.
pub fn tokens(source: &str, from: usize, to: usize) -> Vec<Token> {
    Tokens::new(source, from, to).collect()
}

/// The tokens of `source[from..to]` one at a time, for a reader that may stop early: the tokens
/// that start before `to` (the last may run past it). `from` must be outside any token.
///
/// Each token is read from its first byte on: where it ends depends on nothing before it and
/// nothing after its last byte (at most the byte after it, which it stops at). So lexing from a
/// point outside any token gives the same tokens from there on as lexing from the start, which
/// is what lets the semantic tokens be made a top-level item at a time
/// ([`crate::semantic`]).
#[derive(Clone, Debug)]
pub struct Tokens<'s> {
    source: &'s str,
    i: usize,
    to: usize,
}

impl<'s> Tokens<'s> {
    pub fn new(source: &'s str, from: usize, to: usize) -> Tokens<'s> {
        let to = to.min(source.len());
        Tokens { source, i: from.min(to), to }
    }
}

impl Iterator for Tokens<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        let (source, to) = (self.source, self.to);
        let bytes = source.as_bytes();
        let mut i = self.i;
        while i < to {
            let b = bytes[i];
            let start = i;
            let kind = match b {
                b' ' | b'\t' | b'\r' | b'\n' => {
                    i += 1;
                    continue;
                }
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    // A line comment ends at any line break (`\n`, `\r\n` or a lone `\r`).
                    i = bytes[i..]
                        .iter()
                        .position(|&b| b == b'\n' || b == b'\r')
                        .map_or(bytes.len(), |p| i + p);
                    TokenKind::Comment
                }
                b'/' if bytes.get(i + 1) == Some(&b'*') => {
                    i = find_seq(bytes, i + 2, b"*/");
                    TokenKind::Comment
                }
                b'"' if bytes[i..].starts_with(b"\"\"\"") => {
                    i = find_seq(bytes, i + 3, b"\"\"\"");
                    TokenKind::Text
                }
                b'"' => {
                    i += 1;
                    let mut closed = false;
                    while i < bytes.len() {
                        match bytes[i] {
                            b'\\' => i += 2,
                            b'"' => {
                                i += 1;
                                closed = true;
                                break;
                            }
                            b'\n' | b'\r' => break,
                            _ => i += 1,
                        }
                    }
                    i = i.min(bytes.len());
                    TokenKind::Str { closed }
                }
                b'`' if bytes[i..].starts_with(b"```") => {
                    i = find_seq(bytes, i + 3, b"```");
                    TokenKind::Script
                }
                b'`' => {
                    i += 1;
                    while i < bytes.len() && !matches!(bytes[i], b'`' | b'\n' | b'\r') {
                        i += 1;
                    }
                    if bytes.get(i) == Some(&b'`') {
                        i += 1;
                    }
                    TokenKind::Script
                }
                b'@' | b'_' | b'a'..=b'z' | b'A'..=b'Z' => {
                    i += 1;
                    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                        i += 1;
                    }
                    if bytes[i..].starts_with(b"::") {
                        i += 2;
                        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'-') {
                            i += 1;
                        }
                    }
                    TokenKind::Word
                }
                b'0'..=b'9' => {
                    i = number_end(bytes, i);
                    TokenKind::Number
                }
                b'+' | b'-' if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                    i = number_end(bytes, i + 1);
                    TokenKind::Number
                }
                b'=' if bytes.get(i + 1) == Some(&b'>') => {
                    i += 2;
                    TokenKind::Punct
                }
                _ => {
                    i += source.get(i..).and_then(|rest| rest.chars().next()).map_or(1, char::len_utf8);
                    TokenKind::Punct
                }
            };
            self.i = i;
            return Some(Token { kind, span: Span::new(start, i.min(bytes.len())) });
        }
        self.i = i;
        None
    }
}

fn number_end(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && (bytes[i].is_ascii_digit() || matches!(bytes[i], b'.' | b':' | b'-')) {
        i += 1;
    }
    if bytes.get(i) == Some(&b'+') {
        i += 1;
    }
    i
}

/// The end of the first `seq` at or after `from`, or the end of the text.
fn find_seq(bytes: &[u8], from: usize, seq: &[u8]) -> usize {
    let from = from.min(bytes.len());
    bytes[from..].windows(seq.len()).position(|w| w == seq).map_or(bytes.len(), |p| from + p + seq.len())
}

/// The token at a byte offset (one touching it from the left counts, so a cursor just after a
/// word is on that word).
pub fn token_at(tokens: &[Token], offset: usize) -> Option<Token> {
    let i = tokens.partition_point(|t| t.span.end < offset);
    tokens.get(i).copied().filter(|t| t.span.start <= offset && offset <= t.span.end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(source: &str) -> Vec<(TokenKind, &str)> {
        tokens(source, 0, source.len()).iter().map(|t| (t.kind, t.text(source))).collect()
    }

    #[test]
    fn reads_every_kind() {
        let source = "fire \"6th \\\"X\\\"\" at (3, 4.5) roll [5] => hits 4+ // c\n/* b */ \"\"\"t\"\"\" `x` dotc::off-table";
        let got = kinds(source);
        assert_eq!(got[0], (TokenKind::Word, "fire"));
        assert_eq!(got[1], (TokenKind::Str { closed: true }, "\"6th \\\"X\\\"\""));
        assert!(got.contains(&(TokenKind::Punct, "=>")));
        assert!(got.contains(&(TokenKind::Number, "4+")));
        assert!(got.contains(&(TokenKind::Comment, "// c")));
        assert!(got.contains(&(TokenKind::Comment, "/* b */")));
        assert!(got.contains(&(TokenKind::Text, "\"\"\"t\"\"\"")));
        assert!(got.contains(&(TokenKind::Script, "`x`")));
        assert!(got.contains(&(TokenKind::Word, "dotc::off-table")));
        let name = tokens(source, 0, source.len())[1];
        assert_eq!(name.value(source), "6th \"X\"");
    }

    #[test]
    fn an_unterminated_string_ends_at_its_line() {
        let source = "move \"9th Lou\nfire";
        let got = kinds(source);
        assert_eq!(got[1], (TokenKind::Str { closed: false }, "\"9th Lou"));
        assert_eq!(got[2], (TokenKind::Word, "fire"));
    }

    #[test]
    fn comments_strings_and_scripts_end_at_every_line_break() {
        for br in ["\n", "\r\n", "\r"] {
            let source = format!("// c{br}move \"9th{br}`x{br}fire");
            let got = kinds(&source);
            assert_eq!(got[0], (TokenKind::Comment, "// c"), "{br:?}");
            assert_eq!(got[2], (TokenKind::Str { closed: false }, "\"9th"), "{br:?}");
            assert_eq!(got[3], (TokenKind::Script, "`x"), "{br:?}");
            assert_eq!(got[4], (TokenKind::Word, "fire"), "{br:?}");
        }
    }

    #[test]
    fn escape_round_trips() {
        let name = "6th \"Irish\" \\ Tigers’";
        assert_eq!(unescape(&escape(name)), name);
    }
}

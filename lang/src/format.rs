//! `dotc fmt`: the canonical layout of a `.dotc` file.
//!
//! The formatter works on the token stream of the grammar's `format_tokens` rule, which keeps
//! every comment, so nothing the author wrote can be lost. The layout (issue 21):
//! - one statement a line: a `;` between two statements becomes a line break and is dropped,
//!   as is a `;` that ends a line or comes before a block's `}`; the body of a statement block
//!   starts on the line after its `{`, and its `}` stands on a line of its own;
//! - an empty statement block is no exception: `rules { }` is written `rules {` and `}` on the
//!   next line, as `dotc play` writes a phase block before it fills it;
//! - a unit's attribute list (`regiment "A" { stands 4 at (1, 2) }`) is no statement block: its
//!   braces and line breaks stay where the author put them, as the attributes of a unit may share
//!   a line or take one each;
//! - four spaces of indent per open `{`; a continuation line (one that starts with `(`, `[`,
//!   `)`, `]` or `,`) one level deeper;
//! - one space between tokens, none inside `( )` and `[ ]` or before `,`, one after `,`;
//! - at most one blank line in a row, none at the start, exactly one newline at the end, every
//!   line end between tokens `\n` (`\r\n` and a lone `\r` read as one);
//! - every comment kept, in order: a comment before a `;` or after a `{` or `}` on the same line
//!   stays at the end of that line (so a trailing comment stays with the statement it followed),
//!   and a block comment after a `;` starts the next statement's line; a trailing comment keeps
//!   the gap its author left before it (so aligned comments stay aligned);
//! - scripts, text blocks, strings and comments kept as written, `;` and braces inside them
//!   included, but for the spaces at the end of their lines and a `\r\n` inside them, which
//!   becomes `\n` (a lone `\r` inside them stays).
//!
//! The statement blocks are told from the unit attribute lists by the word that starts the
//! statement the `{` ends (see [`BLOCK_WORDS`]) and, inside a `library`, by being an entry: in a
//! file without syntax errors that is exactly the grammar's block rules, which
//! `lang/tests/format.rs` checks against the parse tree ([`block_braces`]). A `;` outside a
//! string, script, text block or comment is always a statement separator in such a file.
//!
//! A file with syntax errors is not formatted: the errors are returned instead, so a
//! half-written file is never rewritten.

use pest::Parser as _;

use crate::diagnostic::Diagnostic;
use crate::parser::{DotcParser, Rule};

/// Format a file, or return its syntax errors.
pub fn format(source: &str) -> Result<String, Vec<Diagnostic>> {
    // Only the syntax errors are needed: the tree is dropped here, before the token stream is
    // made, so the two are never in memory together.
    let diagnostics = crate::parse(source).diagnostics;
    let syntax: Vec<Diagnostic> = diagnostics
        .into_iter()
        .filter(|d| {
            matches!(
                d.code,
                "dotc::syntax"
                    | "dotc::misplaced-statement"
                    | "dotc::file-too-large"
                    | "dotc::nesting-too-deep"
                    | "dotc::parse-limit"
            )
        })
        .collect();
    if !syntax.is_empty() {
        return Err(syntax);
    }
    let tokens = tokens(source)?;
    Ok(layout(Canonical::new(&tokens)))
}

/// One token of the formatter's stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: TokenKind,
    pub text: &'a str,
    /// Bytes of space and tabs before it on its line.
    pub gap: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    Newline,
    LineComment,
    BlockComment,
    Open,
    Close,
    Other,
}

/// The token stream of a source, comments included.
pub fn tokens(source: &str) -> Result<Vec<Token<'_>>, Vec<Diagnostic>> {
    let pairs = DotcParser::parse(Rule::format_tokens, source)
        .map_err(|e| vec![crate::parser::syntax_error(&e, source, 0)])?;
    let mut out = Vec::new();
    let mut last_end = 0;
    for pair in pairs.flatten() {
        // `flatten` yields nested pairs too; keep only the top-level tokens.
        let span = pair.as_span();
        if span.start() < last_end {
            continue;
        }
        let rule = pair.as_rule();
        if rule == Rule::format_tokens || rule == Rule::EOI {
            continue;
        }
        let text = pair.as_str();
        let between = &source[last_end..span.start()];
        let gap = between.len();
        last_end = span.end();
        let kind = match rule {
            Rule::fmt_newline => TokenKind::Newline,
            Rule::line_comment => TokenKind::LineComment,
            Rule::block_comment => TokenKind::BlockComment,
            Rule::fmt_punct if text == "{" => TokenKind::Open,
            Rule::fmt_punct if text == "}" => TokenKind::Close,
            _ => TokenKind::Other,
        };
        out.push(Token { kind, text, gap });
    }
    Ok(out)
}

/// The words that start a statement whose `{` opens a block of statements: the grammar's
/// `scenario`, `rules_block`, `terrain_block`, `side`, `brigade`, `reinforcements`, `victory`,
/// `library`, `game`, `bids_block`, `turn`, `phase` (its five names), an assault's `steps`,
/// `campaign`, `battle` and `after_block`. Inside a `library`, every `{` opens an `entry`,
/// whatever its kind. Any other `{` (a unit's attribute list) is laid out as its author wrote it.
const BLOCK_WORDS: &[&str] = &[
    "scenario",
    "rules",
    "terrain",
    "side",
    "brigade",
    "reinforcements",
    "victory",
    "library",
    "game",
    "bids",
    "turn",
    "command",
    "maneuver",
    "fire",
    "melee",
    "status",
    "assault",
    "campaign",
    "battle",
    "after",
];

/// A line break the layout puts in.
const BREAK: Token<'static> = Token { kind: TokenKind::Newline, text: "\n", gap: 0 };

/// An open `{`: whether it opens a block of statements, and whether that block is a library's.
#[derive(Clone, Copy, Debug)]
struct Frame {
    block: bool,
    library: bool,
}

/// Tells statement blocks from attribute lists, reading the tokens one at a time: a `{` opens a
/// statement block when the statement it ends starts with one of [`BLOCK_WORDS`] (an
/// `@allow(...)` before it aside) or stands in a library.
#[derive(Debug)]
struct Blocks<'a> {
    frames: Vec<Frame>,
    /// The first word of the statement being read, once read.
    first_word: Option<&'a str>,
    /// Whether the next word starts a statement.
    at_start: bool,
    /// Inside the parentheses of an `@allow(...)` that comes before an action's verb.
    in_allow: bool,
}

impl<'a> Blocks<'a> {
    fn new() -> Self {
        Blocks { frames: Vec::new(), first_word: None, at_start: true, in_allow: false }
    }

    /// Read the next token; for a `{` or a `}`, whether it opens or closes a statement block.
    fn read(&mut self, token: &Token<'a>) -> bool {
        match token.kind {
            TokenKind::LineComment | TokenKind::BlockComment => false,
            TokenKind::Newline => {
                self.start();
                false
            }
            TokenKind::Open => {
                let in_library = self.frames.last().is_some_and(|f| f.library);
                let word = self.first_word;
                let block = in_library || word.is_some_and(|w| BLOCK_WORDS.contains(&w));
                self.frames.push(Frame { block, library: !in_library && word == Some("library") });
                self.start();
                block
            }
            TokenKind::Close => {
                self.start();
                self.frames.pop().is_some_and(|f| f.block)
            }
            TokenKind::Other => {
                if token.text == ";" {
                    self.start();
                } else if self.in_allow {
                    self.in_allow = token.text != ")";
                } else if self.at_start {
                    if token.text == "@allow" {
                        self.in_allow = true;
                    } else {
                        self.first_word = Some(token.text);
                        self.at_start = false;
                    }
                }
                false
            }
        }
    }

    /// A statement may start at the next word.
    fn start(&mut self) {
        self.first_word = None;
        self.at_start = true;
        self.in_allow = false;
    }
}

/// The token stream with the line breaks of one statement a line (issue 21): a `;` becomes a
/// break or goes, a statement block's body starts on a new line and its `}` stands on its own.
/// Everything else passes through for [`layout`] to space and indent.
struct Canonical<'t, 'a> {
    tokens: &'t [Token<'a>],
    next: usize,
    blocks: Blocks<'a>,
    /// A token to give on the next call, after the one just given.
    held: Option<Token<'a>>,
    /// Whether the line being given has anything on it yet.
    line_has_content: bool,
}

impl<'t, 'a> Canonical<'t, 'a> {
    fn new(tokens: &'t [Token<'a>]) -> Self {
        Canonical { tokens, next: 0, blocks: Blocks::new(), held: None, line_has_content: false }
    }

    fn give(&mut self, token: Token<'a>) -> Token<'a> {
        self.line_has_content = token.kind != TokenKind::Newline;
        token
    }

    /// Whether nothing but comments follows `from` on its line. After a `;`, more `;` and a
    /// block's `}` count as nothing too (the `}` gets its own line anyway).
    fn rest_of_line_is_empty(&self, from: usize, after_semicolon: bool) -> bool {
        for token in &self.tokens[from.min(self.tokens.len())..] {
            match token.kind {
                TokenKind::LineComment | TokenKind::BlockComment => {}
                TokenKind::Newline => return true,
                TokenKind::Close => return after_semicolon,
                TokenKind::Other if after_semicolon && token.text == ";" => {}
                _ => return false,
            }
        }
        true
    }
}

impl<'a> Iterator for Canonical<'_, 'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        if let Some(token) = self.held.take() {
            return Some(self.give(token));
        }
        loop {
            let token = *self.tokens.get(self.next)?;
            self.next += 1;
            let block = self.blocks.read(&token);
            match token.kind {
                TokenKind::Other if token.text == ";" => {
                    if self.line_has_content && !self.rest_of_line_is_empty(self.next, true) {
                        return Some(self.give(BREAK));
                    }
                }
                TokenKind::Open if block => {
                    if !self.rest_of_line_is_empty(self.next, false) {
                        self.held = Some(BREAK);
                    }
                    return Some(self.give(token));
                }
                TokenKind::Close if block && self.line_has_content => {
                    self.held = Some(token);
                    return Some(self.give(BREAK));
                }
                _ => return Some(self.give(token)),
            }
        }
    }
}

/// The byte offsets of the `}` that the formatter takes to close statement blocks, in order
/// (for the test that holds them to the grammar's block rules); empty if the file has no token
/// stream.
pub fn block_braces(source: &str) -> Vec<usize> {
    let Ok(tokens) = tokens(source) else {
        return Vec::new();
    };
    let mut blocks = Blocks::new();
    tokens
        .iter()
        .filter(|t| blocks.read(t) && t.kind == TokenKind::Close)
        .map(|t| t.text.as_ptr() as usize - source.as_ptr() as usize)
        .collect()
}

fn layout<'a>(tokens: impl IntoIterator<Item = Token<'a>>) -> String {
    let mut out = String::new();
    let mut depth: usize = 0;
    let mut blank_lines = 0;
    let mut at_line_start = true;
    let mut prev: Option<&str> = None;
    let mut wrote_anything = false;
    for token in tokens {
        match token.kind {
            TokenKind::Newline => {
                if at_line_start {
                    blank_lines += 1;
                } else {
                    out.push('\n');
                    at_line_start = true;
                    blank_lines = 0;
                }
                prev = None;
                continue;
            }
            TokenKind::Close => depth = depth.saturating_sub(1),
            _ => {}
        }
        if at_line_start {
            if wrote_anything && blank_lines > 0 {
                out.push('\n');
            }
            blank_lines = 0;
            let continuation =
                matches!(token.text.as_bytes().first(), Some(b'(' | b'[' | b')' | b']' | b','))
                    && token.kind == TokenKind::Other;
            let indent = depth + usize::from(continuation);
            for _ in 0..indent {
                out.push_str("    ");
            }
            at_line_start = false;
        } else if let Some(p) = prev {
            match token.kind {
                TokenKind::LineComment | TokenKind::BlockComment => {
                    for _ in 0..token.gap.max(1) {
                        out.push(' ');
                    }
                }
                _ => {
                    if wants_space(p, token.text) {
                        out.push(' ');
                    }
                }
            }
        }
        out.push_str(token.text);
        wrote_anything = true;
        prev = Some(token.text);
        if token.kind == TokenKind::Open {
            depth += 1;
        }
    }
    // Trim trailing spaces on every line and end with one newline.
    let mut result: String = out.lines().map(str::trim_end).collect::<Vec<_>>().join("\n");
    while result.ends_with('\n') {
        result.pop();
    }
    if !result.is_empty() {
        result.push('\n');
    }
    result
}

/// Whether one space goes between two tokens on a line.
fn wants_space(before: &str, after: &str) -> bool {
    if matches!(before, "(" | "[" | "@allow") {
        return false;
    }
    !matches!(after, ")" | "]" | "," | ";")
}

/// The comments of a source, in order, with trailing spaces trimmed (for tests and checks that
/// formatting lost nothing).
pub fn comments(source: &str) -> Vec<String> {
    match tokens(source) {
        Ok(tokens) => tokens
            .iter()
            .filter(|t| matches!(t.kind, TokenKind::LineComment | TokenKind::BlockComment))
            .map(|t| t.text.trim_end().to_string())
            .collect(),
        Err(_) => Vec::new(),
    }
}

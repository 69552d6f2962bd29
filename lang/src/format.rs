//! `dotc fmt`: the canonical layout of a `.dotc` file.
//!
//! The formatter works on the token stream of the grammar's `format_tokens` rule, which keeps
//! every comment, so nothing the author wrote can be lost: only the space between tokens
//! changes. The layout:
//! - four spaces of indent per open `{`; a continuation line (one that starts with `(`, `[`,
//!   `)`, `]` or `,`) one level deeper;
//! - one space between tokens, none inside `( )` and `[ ]` or before `,`, one after `,`;
//! - at most one blank line in a row, none at the start, exactly one newline at the end;
//! - a trailing comment keeps the gap its author left before it (so aligned comments stay
//!   aligned); scripts, text blocks and comments are kept byte for byte.
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
    Ok(layout(&tokens))
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

fn layout(tokens: &[Token<'_>]) -> String {
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

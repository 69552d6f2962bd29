//! The pest parser and its guards for untrusted input.
//!
//! pest recurses once per nested rule, so a file of ten thousand `{` would overflow the stack.
//! Before pest sees a file we measure its bracket depth ([`MAX_DEPTH`]) and its size
//! ([`MAX_SOURCE_BYTES`]), and we give pest a call limit proportional to the input, so a
//! pathological file is a diagnostic, never a crash or a hang.

use std::num::NonZeroUsize;

use pest::Parser as _;
use pest::iterators::Pairs;
use pest_derive::Parser;

use crate::ast::Span;
use crate::catalogue;
use crate::diagnostic::Diagnostic;

#[derive(Parser)]
#[grammar = "grammar.pest"]
pub struct DotcParser;

/// The deepest bracket nesting a file may have. Real files stay under 8.
pub const MAX_DEPTH: usize = 64;
/// The largest file we parse: 64 MiB (a 100,000-line log is about 5 MiB).
pub const MAX_SOURCE_BYTES: usize = 64 << 20;

/// Parse `source` with `rule`, refusing input that could exhaust the stack.
pub fn parse_rule(rule: Rule, source: &str) -> Result<Pairs<'_, Rule>, Box<Diagnostic>> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err(Box::new(catalogue::file_too_large(source.len(), MAX_SOURCE_BYTES)));
    }
    if let Some(at) = too_deep(source) {
        return Err(Box::new(catalogue::nesting_too_deep(Span::new(at, at + 1), MAX_DEPTH)));
    }
    // Generous: a clean file needs a few hundred calls per line; backtracking blow-ups need
    // many orders of magnitude more.
    let limit = source.len().saturating_mul(2_000).max(1_000_000);
    pest::set_call_limit(NonZeroUsize::new(limit));
    DotcParser::parse(rule, source).map_err(|error| Box::new(syntax_error(&error, source, 0)))
}

/// Turn a pest error into a located diagnostic. `base` is the offset of `source` in the file.
pub fn syntax_error(error: &pest::error::Error<Rule>, source: &str, base: usize) -> Diagnostic {
    syntax_error_in(error, source, base, true)
}

/// Like [`syntax_error`]; `ends_file` says whether the end of `source` is the end of the file
/// (for a re-parsed line it is only the end of the line).
fn syntax_error_in(
    error: &pest::error::Error<Rule>,
    source: &str,
    base: usize,
    ends_file: bool,
) -> Diagnostic {
    use pest::error::{ErrorVariant, InputLocation};
    let at = match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    if let ErrorVariant::CustomError { message } = &error.variant {
        // pest's only custom error here is the call limit.
        return catalogue::parse_limit(Span::new(base + at, base + at), message);
    }
    let mut expected: Vec<String> = Vec::new();
    let mut at_pos = at;
    if let Some(attempts) = error.parse_attempts() {
        at_pos = attempts.max_position;
        for stack in attempts.call_stacks() {
            if let Some(rule) = stack.deepest.get_rule() {
                if let Some(text) = describe(*rule) {
                    expected.push(text.to_string());
                } else if let Some(text) = stack.parent.and_then(describe) {
                    expected.push(text.to_string());
                }
            }
        }
        for token in attempts.expected_tokens() {
            // Literal tokens print as themselves; ranges and built-ins are described by their
            // rules above.
            let token = token.to_string();
            if token.contains("..")
                || token == "BUILTIN_RULE"
                || token.trim().is_empty()
                || is_trivia_start(&token)
            {
                continue;
            }
            expected.push(format!("`{token}`"));
        }
    } else if let ErrorVariant::ParsingError { positives, .. } = &error.variant {
        expected.extend(positives.iter().filter_map(|r| describe(*r)).map(str::to_string));
    }
    let raw_keywords: Vec<String> = expected
        .iter()
        .filter_map(|e| e.strip_prefix('`').and_then(|e| e.strip_suffix('`')))
        .filter(|k| !k.is_empty() && k.chars().all(|c| c.is_ascii_alphabetic() || c == '_'))
        .map(str::to_string)
        .collect();
    let mut expected = tidy_expected(expected);
    expected.sort();
    expected.dedup();
    // Point at the whole token the parser stopped in, not at the character inside it: `9` of
    // `date 9 July`, not the space after it.
    let at_pos = token_start(source, at_pos);
    let found = found_token(source, at_pos);
    let start = base + at_pos;
    let span = Span::new(start, start + found.len());
    // A misspelled keyword: suggest the nearest keyword that was expected here.
    let keywords = raw_keywords.iter().map(String::as_str);
    let suggestion = if found.chars().next().is_some_and(char::is_alphabetic) {
        crate::names::suggest(found, keywords)
    } else {
        None
    };
    if found.is_empty() && !ends_file {
        return catalogue::syntax_error(span, &expected, "\n", suggestion);
    }
    catalogue::syntax_error(span, &expected, found, suggestion)
}

/// Literal tokens that stand for a larger thing, said the way a person would.
const TOKEN_WORDS: &[(&str, &str)] = &[
    ("`\"`", "a quoted name"),
    ("`\"\"\"`", "a \"\"\"text block\"\"\""),
    ("`(`", "a position such as (12, 4)"),
    ("`[`", "dice such as [3, 5, 2]"),
    ("```````", "a ```rhai script block```"),
    ("```", "a `script expression`"),
    ("`+`", "a modifier such as +1"),
];

/// Groups of literal alternatives that read better as one description.
const TOKEN_GROUPS: &[(&[&str], &str)] = &[
    (&["min", "mins", "minute", "minutes", "h", "hour", "hours"], "a unit of time such as `min`"),
    (&["command", "maneuver", "fire", "melee", "status"], "a phase (command, maneuver, fire, melee, status)"),
    (&[">=", "<=", ">", "<", "=="], "a comparison such as >="),
];

/// Replace punctuation and alternative keywords in an "expected" list by descriptions.
fn tidy_expected(expected: Vec<String>) -> Vec<String> {
    let mut out = Vec::with_capacity(expected.len());
    for item in expected {
        if let Some((_, words)) = TOKEN_WORDS.iter().find(|(token, _)| *token == item) {
            out.push(words.to_string());
            continue;
        }
        let bare = item.trim_matches('`');
        if let Some((_, words)) = TOKEN_GROUPS.iter().find(|(group, _)| group.contains(&bare)) {
            out.push(words.to_string());
            continue;
        }
        out.push(item);
    }
    // A description given by a rule already covers the literals of its group.
    out
}

/// Tokens that start whitespace or a comment: allowed almost anywhere, never worth listing.
fn is_trivia_start(token: &str) -> bool {
    // `-`, `.` and `_` continue numbers, codes and words: listing them only confuses.
    matches!(token, "//" | "/*" | "\u{FEFF}" | ";" | "_" | "-" | ".")
}

/// The start of the token around `at`: back over the letters and digits just before it, or
/// over the spaces just before it when `at` is at the end of the line or a space.
fn token_start(source: &str, at: usize) -> usize {
    let at = at.min(source.len());
    let Some(before) = source.get(..at) else { return at };
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '.' || c == '/' || c == '-' || c == ':';
    let next = source[at..].chars().next();
    let at_gap = next.is_none_or(|c| c == ' ' || c == '\t' || c == '\n' || c == '\r');
    if at_gap {
        // The parser ran past a token into the space after it: name that token.
        let trimmed = before.trim_end_matches([' ', '\t']);
        if trimmed.len() < before.len() || next.is_some_and(|c| c == ' ' || c == '\t') {
            let start = trimmed
                .rfind(|c: char| !word(c))
                .map_or(0, |i| i + trimmed[i..].chars().next().map_or(1, char::len_utf8));
            if start < trimmed.len() {
                return start;
            }
        }
        return at;
    }
    if before.chars().next_back().is_some_and(word) && next.is_some_and(word) {
        return before
            .rfind(|c: char| !word(c))
            .map_or(0, |i| i + before[i..].chars().next().map_or(1, char::len_utf8));
    }
    at
}

/// The token at `at`, for "found ..." in messages.
fn found_token(source: &str, at: usize) -> &str {
    let rest = source.get(at..).unwrap_or("");
    if rest.is_empty() {
        return "";
    }
    let first = rest.chars().next().unwrap_or(' ');
    let end = if first.is_alphanumeric() || first == '_' {
        rest.find(|c: char| {
            !(c.is_alphanumeric() || c == '_' || c == '.' || c == '/' || c == '-' || c == ':')
        })
        .unwrap_or(rest.len())
    } else if first == '"' {
        rest[1..].find(['"', '\n']).map_or(rest.len(), |i| i + 2)
    } else {
        first.len_utf8()
    };
    &rest[..end.min(rest.len())]
}

/// What a rule means to a person writing a file, for "expected ..." messages.
pub fn describe(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::string | Rule::string_inner => "a quoted name",
        Rule::number => "a number",
        Rule::signed => "a modifier such as +1",
        Rule::target => "a target such as 4+",
        Rule::ident | Rule::word | Rule::flag | Rule::unit_flag => "a word",
        Rule::point | Rule::coord => "a position such as (12, 4)",
        Rule::points => "positions such as (0, 0) (4, 0)",
        Rule::dice | Rule::die => "dice such as [3, 5, 2]",
        Rule::facing => "a facing (degrees or a compass word)",
        Rule::date => "a date such as 1863-07-01",
        Rule::time => "a time such as 10:30",
        Rule::duration | Rule::duration_unit => "a duration such as 15 min",
        Rule::script_block | Rule::script_body | Rule::script_lang => "a ```rhai script block```",
        Rule::script_expr | Rule::script_expr_body => "a `script expression`",
        Rule::text_block => "a \"\"\"text block\"\"\"",
        Rule::code => "a diagnostic code such as dotc::out-of-range",
        Rule::compare => "a comparison such as >=",
        Rule::EOI => "the end of the line",
        Rule::scenario => "`scenario`",
        Rule::library => "`library`",
        Rule::game => "`game`",
        Rule::turn => "`turn`",
        Rule::phase | Rule::phase_name => "a phase (command, maneuver, fire, melee, status)",
        Rule::stands_attr => "`stands`",
        Rule::arrival => "`at TIME` or `turn N`",
        Rule::outcome => "a result such as `union major` or `draw`",
        Rule::hold_time => "`at_end` or `for N turns`",
        Rule::claim_item => "a claimed result such as `hits 2`",
        _ => return None,
    })
}

/// The first byte offset where bracket nesting (outside strings, comments and scripts) exceeds
/// [`MAX_DEPTH`], if any.
fn too_deep(source: &str) -> Option<usize> {
    let bytes = source.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                if bytes[i..].starts_with(b"\"\"\"") {
                    i = skip_past(bytes, i + 3, b"\"\"\"");
                    continue;
                }
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'`' if bytes[i..].starts_with(b"```") => {
                i = skip_past(bytes, i + 3, b"```");
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = skip_past(bytes, i + 2, b"*/");
                continue;
            }
            b'{' | b'(' | b'[' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(i);
                }
            }
            b'}' | b')' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

fn skip_past(bytes: &[u8], from: usize, end: &[u8]) -> usize {
    let mut i = from;
    while i < bytes.len() {
        if bytes[i..].starts_with(end) {
            return i + end.len();
        }
        i += 1;
    }
    bytes.len()
}

/// Re-parse a line that the lenient grammar skipped, with the strict rule of its context, to
/// find out exactly what was wrong with it.
pub fn explain_invalid(strict: Rule, text: &str, base: usize, ends_file: bool) -> Diagnostic {
    if let Some((offset, what)) = unclosed(text) {
        return catalogue::unclosed(Span::new(base + offset, base + offset + what.opener().len()), what);
    }
    match parse_with_detail(strict, text) {
        Err(error) => {
            let at = error.parse_attempts().map_or(0, |a| a.max_position);
            // Nothing of the statement was readable here: it may belong in another block.
            if text[..at.min(text.len())].trim().is_empty()
                && let Some(home) = home_of(text, strict)
            {
                return catalogue::misplaced_statement(
                    Span::new(base, base + first_word(text).len()),
                    first_word(text),
                    Some(home),
                );
            }
            let d = syntax_error_in(&error, text, base, ends_file);
            if strict == Rule::action_line && d.message.ends_with("found `{`") {
                return d.with_help("only an `assault` line takes steps in braces (Ch16 7.1)");
            }
            d
        }
        Ok(_) => catalogue::misplaced_statement(
            Span::new(base, base + first_word(text).len()),
            first_word(text),
            None,
        ),
    }
}

/// Parse with pest's detailed error tracking, which names the literal tokens it expected.
///
/// The switch is process-wide and costs time on every failed alternative, so it is on only
/// while a strict re-parse runs; the lock makes concurrent re-parses (tests, a language server)
/// each see it on. Ordinary parses never turn it on.
fn parse_with_detail(rule: Rule, text: &str) -> Result<Pairs<'_, Rule>, pest::error::Error<Rule>> {
    static DETAIL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = DETAIL.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    pest::set_error_detail(true);
    let result = DotcParser::parse(rule, text);
    pest::set_error_detail(false);
    result
}

/// Blocks a statement can belong in, by the strict rule of each, for "belongs in ..." hints.
/// Generic forms (terrain features, library properties, log actions) are left out: almost any
/// line would read as one of them.
const HOMES: &[(Rule, &str)] = &[
    (Rule::scenario_line, "the scenario block"),
    (Rule::rules_line, "a `rules { }` block"),
    (Rule::side_line, "a `side { }` block"),
    (Rule::brigade_line, "a `brigade { }` block"),
    (Rule::reinforcement_line, "the `reinforcements { }` block"),
    (Rule::victory_line, "the `victory { }` block"),
    (Rule::game_line, "the `game { }` header"),
    (Rule::bids_line, "a `bids { }` block"),
    (Rule::turn_line, "a `turn { }` block"),
    (Rule::top_line, "the top level of a file"),
];

fn home_of(text: &str, here: Rule) -> Option<&'static str> {
    HOMES
        .iter()
        .filter(|(rule, _)| *rule != here)
        .find(|(rule, _)| DotcParser::parse(*rule, text).is_ok())
        .map(|(_, home)| *home)
}

/// Something opened and never closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unclosed {
    Brace,
    Script,
    Text,
    Comment,
}

impl Unclosed {
    pub fn opener(self) -> &'static str {
        match self {
            Unclosed::Brace => "{",
            Unclosed::Script => "```",
            Unclosed::Text => "\"\"\"",
            Unclosed::Comment => "/*",
        }
    }
}

/// The first opener in `text` that is never closed, if any: a `{`, a script fence, a text
/// block or a block comment. Strings are single-line and reported by the grammar.
pub fn unclosed(text: &str) -> Option<(usize, Unclosed)> {
    let bytes = text.as_bytes();
    let mut braces: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        let (skip_to, kind) = if rest.starts_with(b"```") {
            (find_from(bytes, i + 3, b"```"), Unclosed::Script)
        } else if rest.starts_with(b"\"\"\"") {
            (find_from(bytes, i + 3, b"\"\"\""), Unclosed::Text)
        } else if rest.starts_with(b"/*") {
            (find_from(bytes, i + 2, b"*/"), Unclosed::Comment)
        } else {
            match bytes[i] {
                b'"' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'/' if rest.starts_with(b"//") => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                }
                b'{' => braces.push(i),
                b'}' => {
                    braces.pop();
                }
                _ => {}
            }
            i += 1;
            continue;
        };
        match skip_to {
            Some(end) => i = end,
            None => return Some((i, kind)),
        }
    }
    braces.first().map(|&at| (at, Unclosed::Brace))
}

fn find_from(bytes: &[u8], from: usize, end: &[u8]) -> Option<usize> {
    (from..=bytes.len().saturating_sub(end.len()))
        .find(|&i| bytes[i..].starts_with(end))
        .map(|i| i + end.len())
}

/// The leading word of a statement, used to name it in messages.
pub fn first_word(text: &str) -> &str {
    let text = text.trim_start();
    let end = text.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(text.len());
    &text[..end]
}

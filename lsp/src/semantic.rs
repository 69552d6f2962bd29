//! Semantic tokens: the whole file, a range of lines, or the edits since the last answer.
//!
//! A token is coloured by what it is ([`Vocabulary::token_type`], the one place that decides):
//! keywords, names the scenario declares (as variables), numbers, comments, log verbs, rule-data
//! ids, `@allow` and codes. A token that spans lines is sent as one token per line.
//!
//! A long log is made of many top-level items (its turns), and an edit touches one of them. So
//! the tokens are kept per item ([`TokenCache`]): an item starts at a word in the first column
//! that the lexer reaches outside any other token, and runs to the next one. Lexing from the
//! start of an item gives the same tokens as lexing the whole text (the lexer reads each token
//! from its first byte on, [`lex::Tokens`]), and an item's tokens depend only on its own text:
//! it ends at a line start, and no token looks past the line break before it unless it runs
//! over it. After an edit, the items before the edit are kept, the items after it are moved
//! with the text, and only what lies between is lexed again, up to the first moved item the
//! lexer reaches at a token boundary (from there on the old items are exactly what lexing would
//! give). A range request lexes nothing more than it needs: the items up to its last line that
//! are not known yet.
//!
//! A full or delta answer carries a result id; [`DocumentTokens`] keeps the last answers of a
//! document so that a delta request is answered with the one edit between them.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use dotc_lang::incremental::Edit;
use dotc_lang::keywords;
use dotc_lang::library::EntryKind;
use dotc_lang::verbs::verb_spec;
use tower_lsp_server::ls_types::{
    Range, SemanticToken, SemanticTokenType, SemanticTokensEdit, SemanticTokensLegend, Uri,
};

use crate::lex::{self, Token, TokenKind};
use crate::line_index::LineIndex;
use crate::workspace::Doc;

/// The token types this server reports, in legend order.
pub const TOKEN_TYPES: &[SemanticTokenType] = &[
    SemanticTokenType::KEYWORD,
    SemanticTokenType::STRING,
    SemanticTokenType::NUMBER,
    SemanticTokenType::COMMENT,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::OPERATOR,
    SemanticTokenType::MACRO,
];

const KEYWORD: u32 = 0;
const STRING: u32 = 1;
const NUMBER: u32 = 2;
const COMMENT: u32 = 3;
const FUNCTION: u32 = 4;
const ENUM_MEMBER: u32 = 5;
const VARIABLE: u32 = 6;
const OPERATOR: u32 = 7;
const MACRO: u32 = 8;

pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend { token_types: TOKEN_TYPES.to_vec(), token_modifiers: Vec::new() }
}

/// The semantic tokens of a whole document, made afresh.
pub fn semantic_tokens(doc: &Doc) -> Vec<SemanticToken> {
    TokenInputs::of(doc).tokens()
}

/// What colouring a document's words needs from its analysis, copied out of it: whether it is
/// a game log (verbs are coloured only there), the ids of the rule-data entries in force, and
/// the names its scenario declares. A few hundred short strings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vocabulary {
    is_game: bool,
    entry_ids: HashSet<String>,
    names: HashSet<String>,
}

impl Vocabulary {
    pub fn of(doc: &Doc) -> Vocabulary {
        let data = &doc.analyzed.analysis.rule_data;
        let entry_ids = EntryKind::ALL.iter().flat_map(|kind| data.ids(*kind)).map(str::to_string).collect();
        let names = crate::navigate::scenario_of(doc)
            .map(|scenario| scenario.names.names.keys().cloned().collect())
            .unwrap_or_default();
        Vocabulary { is_game: doc.analyzed.is_game(), entry_ids, names }
    }

    /// The type of a token, or None for a token that is not coloured (punctuation other than
    /// `=>`, and words that are none of the above). `words` remembers the answer for each word,
    /// which depends on nothing but the word and this vocabulary.
    fn token_type(
        &self,
        token: Token,
        text: &str,
        words: &mut HashMap<Box<str>, Option<u32>>,
    ) -> Option<u32> {
        match token.kind {
            TokenKind::Comment => Some(COMMENT),
            TokenKind::Text | TokenKind::Str { .. } => {
                let inner = token.inner();
                let raw = text.get(inner.start..inner.end).unwrap_or("");
                // The value with its escapes resolved, as the names are declared.
                let value = match token.kind {
                    TokenKind::Str { .. } if raw.contains('\\') => Cow::Owned(lex::unescape(raw)),
                    _ => Cow::Borrowed(raw),
                };
                Some(if self.names.contains(value.as_ref()) { VARIABLE } else { STRING })
            }
            TokenKind::Number => Some(NUMBER),
            TokenKind::Script => Some(MACRO),
            TokenKind::Punct => (token.text(text) == "=>").then_some(OPERATOR),
            TokenKind::Word => {
                let word = token.text(text);
                if let Some(known) = words.get(word) {
                    return *known;
                }
                let kind = self.word_type(word);
                words.insert(word.into(), kind);
                kind
            }
        }
    }

    fn word_type(&self, word: &str) -> Option<u32> {
        if word.starts_with('@') || word.contains("::") {
            Some(MACRO)
        } else if keywords::is_keyword(word) {
            Some(KEYWORD)
        } else if self.is_game && verb_spec(word).is_some() {
            Some(FUNCTION)
        } else if self.entry_ids.contains(word) {
            Some(ENUM_MEMBER)
        } else {
            None
        }
    }
}

/// What the semantic tokens of a document are made from, taken from it without holding on to
/// its analysis: the text and line index (shared) and its [`Vocabulary`] (copied: small). The
/// server makes the tokens of a long log from these on a blocking thread while edits go on
/// updating the analysis in place (issue 16).
#[derive(Clone, Debug)]
pub struct TokenInputs {
    pub text: Arc<String>,
    pub index: Arc<LineIndex>,
    pub vocabulary: Vocabulary,
}

impl TokenInputs {
    pub fn of(doc: &Doc) -> TokenInputs {
        TokenInputs { text: doc.text.clone(), index: doc.index.clone(), vocabulary: Vocabulary::of(doc) }
    }

    /// The tokens of the whole text, made afresh.
    pub fn tokens(&self) -> Vec<SemanticToken> {
        TokenCache::default().full(self)
    }
}

/// The lines of a request's range: from its start's line to its end's, without the end's line
/// when the range stops at its first column (it then holds nothing of that line).
pub fn range_lines(range: Range) -> (u32, u32) {
    let (first, end) = (range.start.line, range.end.line);
    let last = if end > first && range.end.character == 0 { end - 1 } else { end };
    (first, last.max(first))
}

/// One top-level item's tokens: `start..end` of the text, from its `line` on.
#[derive(Clone, Debug)]
struct Item {
    start: usize,
    end: usize,
    line: usize,
    /// Encoded as if the item were the whole text: the first token's line counts from the
    /// item's first line (whose first column is the item's start).
    tokens: Vec<SemanticToken>,
    /// The line of the last token, from the item's first line.
    last_line: u32,
}

/// The semantic tokens of one document kept item by item (see the module's comment), for the
/// text they were last made for.
#[derive(Debug, Default)]
pub struct TokenCache {
    text: Arc<String>,
    vocabulary: Vocabulary,
    /// The type of each word met so far, for [`TokenCache::vocabulary`].
    words: HashMap<Box<str>, Option<u32>>,
    /// The items of `text` from its start, one after the other.
    items: Vec<Item>,
    /// Items of an earlier text after the last edit, in order, moved to where their text is now
    /// (their `line` is set again when they are taken): each is taken over if lexing reaches
    /// its start.
    spare: VecDeque<Item>,
}

impl TokenCache {
    /// The tokens of the whole text.
    pub fn full(&mut self, inputs: &TokenInputs) -> Vec<SemanticToken> {
        self.update(inputs);
        self.extend_to(inputs, inputs.text.len());
        let mut out = Vec::with_capacity(self.items.iter().map(|i| i.tokens.len()).sum());
        let mut last_line = 0;
        for item in &self.items {
            let (first, last) = (to_u32(item.line), to_u32(item.line).saturating_add(item.last_line));
            let Some(head) = item.tokens.first() else { continue };
            push_run(&mut out, &mut last_line, first.saturating_add(head.delta_line), &item.tokens, last);
        }
        out
    }

    /// The tokens on lines `first..=last`, encoded as a whole answer: what [`TokenCache::full`]
    /// gives for those lines, the first token's position counted from the start of the text.
    pub fn range(&mut self, inputs: &TokenInputs, (first, last): (u32, u32)) -> Vec<SemanticToken> {
        self.update(inputs);
        let index = &inputs.index;
        self.extend_to(inputs, index.line_start(last as usize + 1));
        let from = self.items.partition_point(|item| item.line <= first as usize).saturating_sub(1);
        let mut out = Vec::new();
        let mut last_line = 0;
        for item in &self.items[from..] {
            if item.line > last as usize {
                break;
            }
            // The tokens of the item on the lines asked for: decode its lines up to them.
            let mut line = to_u32(item.line);
            let (mut begin, mut end, mut end_line) = (None, item.tokens.len(), line);
            for (i, token) in item.tokens.iter().enumerate() {
                line = line.saturating_add(token.delta_line);
                if line > last {
                    end = i;
                    break;
                }
                if begin.is_none() && line >= first {
                    begin = Some((i, line));
                }
                end_line = line;
            }
            let Some((begin, begin_line)) = begin else { continue };
            push_run(&mut out, &mut last_line, begin_line, &item.tokens[begin..end.max(begin)], end_line);
        }
        out
    }

    /// Bring the items up to date with `inputs`: the same text keeps them all; another
    /// vocabulary keeps none; another text keeps those before its first changed byte and moves
    /// those after its last changed byte to [`TokenCache::spare`].
    fn update(&mut self, inputs: &TokenInputs) {
        if self.vocabulary != inputs.vocabulary {
            *self = TokenCache {
                text: inputs.text.clone(),
                vocabulary: inputs.vocabulary.clone(),
                ..TokenCache::default()
            };
            return;
        }
        if Arc::ptr_eq(&self.text, &inputs.text) {
            return;
        }
        let edit = Edit::between(&self.text, &inputs.text);
        if edit.start == edit.old_end && edit.start == edit.new_end {
            self.text = inputs.text.clone();
            return;
        }
        let (prefix, old_changed_end) = (edit.start, edit.old_end);
        // An item is kept if the byte after it is unchanged too: its end is still a line start.
        let kept = self.items.partition_point(|item| item.end < prefix);
        let spare: VecDeque<Item> = self
            .items
            .drain(kept..)
            .chain(self.spare.drain(..))
            .filter_map(|item| {
                if item.end < prefix {
                    // A spare item before the change, not reached yet: where it was.
                    Some(item)
                } else if item.start > old_changed_end {
                    // After the change, and so is the byte before it (which decides that it
                    // starts a line): moved with the text.
                    let (start, end) = (
                        item.start.wrapping_add_signed(edit.delta()),
                        item.end.wrapping_add_signed(edit.delta()),
                    );
                    Some(Item { start, end, ..item })
                } else {
                    None
                }
            })
            .collect();
        self.spare = spare;
        self.text = inputs.text.clone();
    }

    /// Make the items up to `target` (a byte offset): lex from the end of the last one, taking
    /// over the spare items where lexing reaches one.
    fn extend_to(&mut self, inputs: &TokenInputs, target: usize) {
        let text = inputs.text.as_str();
        let target = target.min(text.len());
        let mut at = self.items.last().map_or(0, |item| item.end);
        while at < target {
            while self.spare.front().is_some_and(|item| item.start < at) {
                self.spare.pop_front();
            }
            if self.spare.front().is_some_and(|item| item.start == at) {
                while let Some(mut item) = self.spare.pop_front() {
                    if item.start != at {
                        self.spare.push_front(item);
                        break;
                    }
                    item.line = inputs.index.line_of(item.start);
                    at = item.end;
                    self.items.push(item);
                }
                continue;
            }
            let item = self.lex_item(inputs, at);
            at = item.end;
            self.items.push(item);
        }
        // Spare items lexing went past will not be reached.
        while self.spare.front().is_some_and(|item| item.start < at) {
            self.spare.pop_front();
        }
    }

    /// Lex the item that starts at `start` (a line start outside any token, or 0).
    fn lex_item(&mut self, inputs: &TokenInputs, start: usize) -> Item {
        let (text, index) = (inputs.text.as_str(), &*inputs.index);
        let bytes = text.as_bytes();
        let first_line = index.line_of(start);
        let mut columns = Columns::new(text, index, first_line);
        let mut tokens = Vec::new();
        let (mut last_line, mut last_start) = (0u32, 0u32);
        let mut end = text.len();
        for token in lex::Tokens::new(text, start, text.len()) {
            let span = token.span;
            if span.start > start && token.kind == TokenKind::Word && starts_line(bytes, span.start) {
                end = span.start;
                break;
            }
            let Some(kind) = self.vocabulary.token_type(token, text, &mut self.words) else { continue };
            // One token per line of a multi-line token.
            let mut from = span.start;
            while from < span.end {
                columns.seek(from);
                let line_end = columns.next_line_start.min(span.end);
                let piece_end = columns.content_end.min(line_end);
                let (from_column, to_column) = (columns.column(from), columns.column(piece_end));
                let length = to_column.saturating_sub(from_column);
                if length > 0 {
                    let line = to_u32(columns.line - first_line);
                    let delta_line = line.saturating_sub(last_line);
                    let delta_start =
                        if delta_line == 0 { from_column.saturating_sub(last_start) } else { from_column };
                    tokens.push(SemanticToken {
                        delta_line,
                        delta_start,
                        length,
                        token_type: kind,
                        token_modifiers_bitset: 0,
                    });
                    (last_line, last_start) = (line, from_column);
                }
                if line_end <= from {
                    break;
                }
                from = line_end;
            }
        }
        Item { start, end, line: first_line, tokens, last_line }
    }
}

/// Push a run of an item's tokens onto a whole answer whose last token is on `last_line`: the
/// first of them, on line `first`, is the first token of its line (every token before it in the
/// answer is on an earlier line), so its column counts from the line's start as it is; the
/// last is on line `last`.
fn push_run(out: &mut Vec<SemanticToken>, last_line: &mut u32, first: u32, run: &[SemanticToken], last: u32) {
    let Some((head, rest)) = run.split_first() else { return };
    out.push(SemanticToken { delta_line: first.saturating_sub(*last_line), ..*head });
    out.extend_from_slice(rest);
    *last_line = last;
}

/// Line and UTF-16 column of byte offsets met in order, a line at a time: what
/// [`LineIndex::position`] gives, without a search or a count from the line's start for each.
struct Columns<'t> {
    bytes: &'t [u8],
    index: &'t LineIndex,
    line: usize,
    line_start: usize,
    next_line_start: usize,
    content_end: usize,
    /// A byte offset on the line and its column.
    at: usize,
    column: u32,
    text: &'t str,
}

impl<'t> Columns<'t> {
    fn new(text: &'t str, index: &'t LineIndex, line: usize) -> Columns<'t> {
        let mut columns = Columns {
            bytes: text.as_bytes(),
            index,
            line,
            line_start: 0,
            next_line_start: 0,
            content_end: 0,
            at: 0,
            column: 0,
            text,
        };
        columns.enter(line);
        columns
    }

    fn enter(&mut self, line: usize) {
        self.line = line;
        self.line_start = self.index.line_start(line);
        self.next_line_start = self.index.line_start(line + 1);
        self.content_end = self.index.content_end(self.text, line);
        (self.at, self.column) = (self.line_start, 0);
    }

    /// Move to the line `offset` is on (at or after the current one).
    fn seek(&mut self, offset: usize) {
        if offset >= self.next_line_start && self.line + 1 < self.index.line_count() {
            let mut line = self.line + 1;
            while line + 1 < self.index.line_count() && self.index.line_start(line + 1) <= offset {
                line += 1;
            }
            self.enter(line);
        }
    }

    /// The column of `offset`, on the current line (clamped to its text).
    fn column(&mut self, offset: usize) -> u32 {
        let offset = offset.clamp(self.line_start, self.content_end);
        if offset < self.at {
            (self.at, self.column) = (self.line_start, 0);
        }
        self.column += utf16_len(&self.bytes[self.at..offset]);
        self.at = offset;
        self.column
    }
}

/// The UTF-16 units of the characters that start in `bytes`: one for each byte that is not a
/// continuation byte, and one more for each four-byte character. (A slice that starts inside a
/// character counts from the next one, as a position inside a character counts from its start.)
fn utf16_len(bytes: &[u8]) -> u32 {
    let units: usize = bytes.iter().map(|&b| usize::from((b as i8) >= -0x40) + usize::from(b >= 0xf0)).sum();
    to_u32(units)
}

/// A line starts at `p` (not the first): a `\n` ends just before it, or a `\r` not followed by
/// a `\n`.
fn starts_line(bytes: &[u8], p: usize) -> bool {
    match p.checked_sub(1).and_then(|i| bytes.get(i)) {
        Some(b'\n') => true,
        Some(b'\r') => bytes.get(p) != Some(&b'\n'),
        _ => false,
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The one edit that turns `old` into `new`: what lies between their common start and common
/// end, in the protocol's units (each token is five numbers). None when they are the same.
pub fn delta(old: &[SemanticToken], new: &[SemanticToken]) -> Option<SemanticTokensEdit> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix =
        old[prefix..].iter().rev().zip(new[prefix..].iter().rev()).take_while(|(a, b)| a == b).count();
    let (deleted, inserted) = (&old[prefix..old.len() - suffix], &new[prefix..new.len() - suffix]);
    if deleted.is_empty() && inserted.is_empty() {
        return None;
    }
    Some(SemanticTokensEdit {
        start: to_u32(prefix.saturating_mul(5)),
        delete_count: to_u32(deleted.len().saturating_mul(5)),
        data: (!inserted.is_empty()).then(|| inserted.to_vec()),
    })
}

/// A whole-file answer as JSON, as `serde_json` writes [`SemanticTokens`] (`resultId`, then
/// `data` with each token's five numbers in turn), written directly: for the 390,000 tokens of
/// a 100,000-line log `serde_json` takes some 11 ms, on a thread that shares the machine's two
/// cores with the keystrokes (issue 16).
pub fn tokens_json(result_id: &str, data: &[SemanticToken]) -> Vec<u8> {
    // Most numbers are one or two digits: about three bytes each with the comma.
    let mut out = Vec::with_capacity(32 + result_id.len() + data.len().saturating_mul(16));
    out.extend_from_slice(b"{\"resultId\":");
    // A result id is digits, but quoted as JSON whatever it is.
    match serde_json::to_vec(result_id) {
        Ok(quoted) => out.extend_from_slice(&quoted),
        Err(_) => out.extend_from_slice(b"\"\""),
    }
    out.extend_from_slice(b",\"data\":[");
    let mut first = true;
    for token in data {
        let numbers = [
            token.delta_line,
            token.delta_start,
            token.length,
            token.token_type,
            token.token_modifiers_bitset,
        ];
        for n in numbers {
            if !first {
                out.push(b',');
            }
            first = false;
            push_number(&mut out, n);
        }
    }
    out.extend_from_slice(b"]}");
    out
}

/// A number's decimal digits.
fn push_number(out: &mut Vec<u8>, n: u32) {
    if n < 10 {
        out.push(b'0' + n as u8);
        return;
    }
    let mut digits = [0u8; 10];
    let (mut n, mut at) = (n, digits.len());
    while n > 0 {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    out.extend_from_slice(&digits[at..]);
}

/// How many earlier answers of a document are kept for delta requests: the last one, and the
/// one before it (an editor that cancelled the request of the last one still holds the one
/// before; a cancelled request's answer is made anyway, on its blocking thread).
const KEPT_RESULTS: usize = 2;

/// Result ids, unique in the process (so an id of a closed document's answers never matches a
/// new one's).
static NEXT_RESULT: AtomicU64 = AtomicU64::new(1);

/// One document's semantic tokens between requests: its [`TokenCache`] and its last answers.
#[derive(Debug, Default)]
pub struct DocumentTokens {
    cache: TokenCache,
    results: VecDeque<(String, Arc<Vec<SemanticToken>>)>,
}

/// What a delta request is answered with.
#[derive(Debug, PartialEq)]
pub enum Answer {
    /// The whole file (no earlier answer with that id is kept), shared with what is kept.
    Full(Arc<Vec<SemanticToken>>),
    /// The edits that turn the earlier answer into this one (none when nothing changed).
    Delta(Vec<SemanticTokensEdit>),
}

impl DocumentTokens {
    /// The whole file's tokens, and the id of this answer. The tokens are those kept for the
    /// next delta, not a copy: a long log's are megabytes (issue 16).
    pub fn full(&mut self, inputs: &TokenInputs) -> (String, Arc<Vec<SemanticToken>>) {
        let tokens = Arc::new(self.cache.full(inputs));
        (self.keep(tokens.clone()), tokens)
    }

    /// The tokens of lines `first..=last` (see [`TokenCache::range`]). Not an answer kept for
    /// deltas: a range answer has no id.
    pub fn range(&mut self, inputs: &TokenInputs, lines: (u32, u32)) -> Vec<SemanticToken> {
        self.cache.range(inputs, lines)
    }

    /// The edits from the answer `previous` to the whole file's tokens now, or the tokens
    /// themselves when that answer is not kept; and the id of this answer.
    pub fn delta(&mut self, inputs: &TokenInputs, previous: &str) -> (String, Answer) {
        let tokens = Arc::new(self.cache.full(inputs));
        let old = self.results.iter().find(|(id, _)| id == previous).map(|(_, old)| old.clone());
        let id = self.keep(tokens.clone());
        match old {
            Some(old) => (id, Answer::Delta(delta(&old, &tokens).into_iter().collect())),
            None => (id, Answer::Full(tokens)),
        }
    }

    fn keep(&mut self, tokens: Arc<Vec<SemanticToken>>) -> String {
        let id = NEXT_RESULT.fetch_add(1, Ordering::Relaxed).to_string();
        if self.results.len() == KEPT_RESULTS {
            self.results.pop_front();
        }
        self.results.push_back((id.clone(), tokens));
        id
    }
}

/// The open documents' [`KeptTokens`], by URI.
#[derive(Debug, Default)]
pub struct TokenStore {
    docs: Mutex<HashMap<String, Arc<KeptTokens>>>,
}

impl TokenStore {
    /// The tokens kept for a document (made empty the first time).
    pub fn document(&self, uri: &Uri) -> Arc<KeptTokens> {
        lock(&self.docs).entry(uri.as_str().to_string()).or_default().clone()
    }

    /// Drop what is kept for a document (closed, or opened afresh).
    pub fn forget(&self, uri: &Uri) {
        lock(&self.docs).remove(uri.as_str());
    }

    /// How many documents have tokens kept (for tests).
    pub fn len(&self) -> usize {
        lock(&self.docs).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One document's [`DocumentTokens`], and the count of the whole-file requests (`full` and
/// `full/delta`) asked of it.
///
/// The whole-file answers of one document are made one at a time (they share its kept tokens).
/// An editor asks again at every change, and cancels the request before; but a cancelled
/// request's work, already handed to a blocking thread, ran on, and on a machine whose cores
/// were taken the requests came faster than the answers (issue 16: tens of milliseconds and
/// 4 MB of JSON each for a 100,000-line log, which no one would read). A request that finds a
/// newer one waiting when its turn comes is answered `ContentModified` at once, unmade
/// ([`KeptTokens::superseded`]): the client asks again after a change anyway, and gets the
/// newest answer sooner.
#[derive(Debug, Default)]
pub struct KeptTokens {
    tokens: Mutex<DocumentTokens>,
    whole_asked: AtomicU64,
}

impl KeptTokens {
    /// Note a whole-file request; its number, for [`KeptTokens::superseded`].
    pub fn ask_whole(&self) -> u64 {
        self.whole_asked.fetch_add(1, Ordering::SeqCst) + 1
    }

    /// How many whole-file requests were asked.
    pub fn whole_asked(&self) -> u64 {
        self.whole_asked.load(Ordering::SeqCst)
    }

    /// Whether a whole-file request was asked after the one numbered `asked`.
    pub fn superseded(&self, asked: u64) -> bool {
        self.whole_asked.load(Ordering::SeqCst) != asked
    }

    /// The document's kept tokens, locked (a panic while they were held leaves them empty, not
    /// wrong).
    pub fn lock(&self) -> MutexGuard<'_, DocumentTokens> {
        lock(&self.tokens)
    }
}

fn lock<T: Default>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| {
        // A panic while making tokens may have left them half made: start again from nothing.
        let mut guard = poisoned.into_inner();
        *guard = T::default();
        mutex.clear_poison();
        guard
    })
}

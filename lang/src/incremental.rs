//! Re-parsing only what an edit touched.
//!
//! A game log is a header and a long run of `turn` blocks, each a top-level item of the file.
//! When a player types inside a log, the items before the edit and after it are the same text,
//! so they parse to the same trees (moved by the edit's length). [`reparse`] parses again only
//! the text between the last item that ends before the edit and the first item that starts
//! after it, then moves every later span: on a 100,000-line log that is one turn's parse
//! instead of the whole file's.
//!
//! The result must be exactly what a parse of the whole new text gives; the tests compare the
//! two over many random edits. Whenever that is not certain (the edit touches the header, an
//! unreadable item may run on past the re-parsed text, the file is not a game log), [`reparse`]
//! declines and the caller parses the whole file.

use crate::ast::*;
use crate::diagnostic::Diagnostic;
use crate::parser::{self, Rule};
use crate::{Parsed, lower};

/// One change of a text: the bytes `start..old_end` of the old text became `start..new_end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edit {
    pub start: usize,
    pub old_end: usize,
    pub new_end: usize,
}

impl Edit {
    /// The smallest edit that turns `old` into `new`: their common start and end left out,
    /// cut at character boundaries of both.
    pub fn between(old: &str, new: &str) -> Edit {
        let (a, b) = (old.as_bytes(), new.as_bytes());
        let mut prefix = common_prefix(a, b);
        while !(old.is_char_boundary(prefix) && new.is_char_boundary(prefix)) {
            prefix -= 1;
        }
        let max_suffix = a.len().min(b.len()) - prefix;
        let mut suffix = common_suffix(a, b).min(max_suffix);
        while !(old.is_char_boundary(a.len() - suffix) && new.is_char_boundary(b.len() - suffix)) {
            suffix -= 1;
        }
        Edit { start: prefix, old_end: a.len() - suffix, new_end: b.len() - suffix }
    }

    /// How many bytes longer the text became (negative when it shrank).
    pub fn delta(&self) -> isize {
        self.new_end as isize - self.old_end as isize
    }

    /// Where an offset of the old text is in the new one: before the edit it stays, from its
    /// end on it moves by [`Edit::delta`]; inside the replaced bytes it is gone.
    pub fn map(&self, offset: usize) -> Option<usize> {
        if offset <= self.start {
            Some(offset)
        } else if offset >= self.old_end {
            Some(offset.wrapping_add_signed(self.delta()))
        } else {
            None
        }
    }

    /// The inverse of [`Edit::map`]: where an offset of the new text was in the old one.
    pub fn unmap(&self, offset: usize) -> Option<usize> {
        if offset <= self.start {
            Some(offset)
        } else if offset >= self.new_end {
            Some(offset.wrapping_add_signed(-self.delta()))
        } else {
            None
        }
    }

    /// One edit that does what this edit and then `next` (an edit of the text this one made) do
    /// together: everything either replaced, as one stretch of the first text and one of the
    /// last. Outside it both texts are the same.
    pub fn then(self, next: Edit) -> Edit {
        // In the text between the two edits, from here on neither edit touched anything.
        let untouched = self.new_end.max(next.old_end);
        Edit {
            start: self.start.min(next.start),
            old_end: untouched.wrapping_add_signed(-self.delta()),
            new_end: untouched.wrapping_add_signed(next.delta()),
        }
    }

    /// A span of the old text in the new one; None when the edit replaced part of it.
    pub fn map_span(&self, span: Span) -> Option<Span> {
        if span.end <= self.start {
            return Some(span);
        }
        if span.start >= self.old_end {
            return Some(span.shifted(self.delta()));
        }
        None
    }
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    // Compare in chunks (memcmp) and finish byte by byte inside the first chunk that differs.
    const CHUNK: usize = 256;
    let n = a.len().min(b.len());
    let mut at = 0;
    while at + CHUNK <= n && a[at..at + CHUNK] == b[at..at + CHUNK] {
        at += CHUNK;
    }
    while at < n && a[at] == b[at] {
        at += 1;
    }
    at
}

fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    const CHUNK: usize = 256;
    let n = a.len().min(b.len());
    let mut k = 0;
    while k + CHUNK <= n && a[a.len() - k - CHUNK..a.len() - k] == b[b.len() - k - CHUNK..b.len() - k] {
        k += CHUNK;
    }
    while k < n && a[a.len() - k - 1] == b[b.len() - k - 1] {
        k += 1;
    }
    k
}

impl Span {
    /// This span moved by `delta` bytes.
    pub fn shifted(self, delta: isize) -> Span {
        Span { start: self.start.wrapping_add_signed(delta), end: self.end.wrapping_add_signed(delta) }
    }
}

/// What a top-level item of a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TopKind {
    Scenario,
    Library,
    Game,
    Turn,
    /// Text at the top level that is none of them (a syntax error).
    Invalid,
}

/// A top-level item: where it is and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TopItem {
    pub span: Span,
    pub kind: TopKind,
}

/// The top-level items of a parse, in order.
pub(crate) fn top_items(pairs: &pest::iterators::Pairs<'_, Rule>) -> Vec<TopItem> {
    let mut items = Vec::new();
    for file in pairs.clone() {
        for item in file.into_inner() {
            let kind = match item.as_rule() {
                Rule::scenario => TopKind::Scenario,
                Rule::library => TopKind::Library,
                Rule::game => TopKind::Game,
                Rule::turn => TopKind::Turn,
                Rule::invalid_top => TopKind::Invalid,
                _ => continue,
            };
            let s = item.as_span();
            items.push(TopItem { span: Span::new(s.start(), s.end()), kind });
        }
    }
    items
}

/// What [`reparse`] changed, for the layers above to update what they derived from the parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reparse {
    /// The text edit.
    pub edit: Edit,
    /// The old text's bytes that were parsed again (from the end of the item before the edit
    /// to the start of the item after it).
    pub old_range: Span,
    /// The same stretch in the new text.
    pub new_range: Span,
    /// The turns that were replaced: `turns[first..first + old_count]` of the old document
    /// became `turns[first..first + new_count]`.
    pub first_turn: usize,
    pub old_turns: usize,
    pub new_turns: usize,
}

/// Update a game log's parse after an edit, re-parsing only the top-level items it touched.
/// Returns None, having changed nothing, when only a whole parse is certain to be right.
pub fn reparse(parsed: &mut Parsed, old_text: &str, new_text: &str, edit: Edit) -> Option<Reparse> {
    let document = &parsed.document;
    if document.kind != Some(FileKind::Game)
        || document.scenario.is_some()
        || !document.libraries.is_empty()
        || new_text.len() > parser::MAX_SOURCE_BYTES
        || edit.old_end > old_text.len()
        || edit.new_end > new_text.len()
    {
        return None;
    }
    let items = &parsed.items;
    // The item before the edit must end before it (the character after its end, which its
    // parse looked at, is unchanged); the item after it must start at or after its end.
    let before = items.iter().rposition(|i| i.span.end < edit.start);
    let after = items.iter().position(|i| i.span.start >= edit.old_end);
    let lo = before.map_or(0, |i| i + 1);
    let hi = after.unwrap_or(items.len());
    // Only turns move (the header and anything else must come before the edit).
    if lo > hi || items[lo..].iter().any(|i| !matches!(i.kind, TopKind::Turn | TopKind::Invalid)) {
        return None;
    }
    let old_start = before.map_or(0, |i| items[i].span.end);
    // The item before looked past its end for the end of its line (over spaces and comments):
    // that line end must come before the edit.
    if before.is_some() && !line_ends_before(&old_text[old_start..], edit.start - old_start) {
        return None;
    }
    let old_stop = after.map_or(old_text.len(), |i| items[i].span.start);
    let new_start = old_start;
    let new_stop = after.map_or(new_text.len(), |i| items[i].span.start.wrapping_add_signed(edit.delta()));
    if new_stop < new_start || !new_text.is_char_boundary(new_start) || !new_text.is_char_boundary(new_stop) {
        return None;
    }
    let ends_file = after.is_none();
    let fresh = parse_stretch(&new_text[new_start..new_stop], new_start, ends_file, false)?;
    let stale = parse_stretch(&old_text[old_start..old_stop], old_start, ends_file, false)?;
    // The old stretch must give back what the whole parse gave for it; otherwise its items
    // did not stand alone and neither may the new ones.
    if stale.items != items[lo..hi] {
        return None;
    }
    let first_turn = items[..lo].iter().filter(|i| i.kind == TopKind::Turn).count();
    let old_turns = stale.document.turns.len();
    let new_turns = fresh.document.turns.len();
    if first_turn + old_turns > parsed.document.turns.len() {
        return None;
    }

    // Commit: nothing above may fail from here on.
    let delta = edit.delta();
    let document = &mut parsed.document;
    for turn in &mut document.turns[first_turn + old_turns..] {
        turn.shift(delta);
    }
    document.turns.splice(first_turn..first_turn + old_turns, fresh.document.turns);
    remove_each(&mut document.broken_names, &stale.document.broken_names);
    remove_each(&mut document.broken_words, &stale.document.broken_words);
    remove_each(&mut document.broken_idents, &stale.document.broken_idents);
    document.broken_names.extend(fresh.document.broken_names);
    document.broken_words.extend(fresh.document.broken_words);
    document.broken_idents.extend(fresh.document.broken_idents);
    let range = Span::new(old_start, old_stop);
    splice_diagnostics(&mut parsed.diagnostics, range, ends_file, delta, edit.old_end, fresh.diagnostics);
    let mut later: Vec<TopItem> =
        parsed.items[hi..].iter().map(|i| TopItem { span: i.span.shifted(delta), kind: i.kind }).collect();
    parsed.items.truncate(lo);
    parsed.items.extend(fresh.items);
    parsed.items.append(&mut later);
    Some(Reparse {
        edit,
        old_range: Span::new(old_start, old_stop),
        new_range: Span::new(new_start, new_stop),
        first_turn,
        old_turns,
        new_turns,
    })
}

/// Replace the diagnostics whose primary span starts in `old_range` by `fresh` and move those
/// after it by `delta`, keeping the list in its order (by position, stable). `to_end`: the
/// range runs to the end of the file, and a diagnostic at the very end is one of its own.
/// `edited_end` is where the edited text ended in the old text: every span of a kept diagnostic
/// at or after it moves, a secondary label pointing back into the re-read range too (the turn
/// before, in "turn 9 comes where turn 3 should").
pub fn splice_diagnostics(
    list: &mut Vec<Diagnostic>,
    old_range: Span,
    to_end: bool,
    delta: isize,
    edited_end: usize,
    fresh: Vec<Diagnostic>,
) {
    // A zero-width diagnostic at the very start belongs to the item that ends there ("the
    // line ends here"), not to the stretch.
    let inside = |d: &Diagnostic| {
        let s = d.primary.span.start;
        let at_start = s == old_range.start && d.primary.span.is_empty() && old_range.start > 0;
        old_range.start <= s && (s < old_range.end || (s == old_range.end && to_end)) && !at_start
    };
    let mut kept: Vec<Diagnostic> = Vec::with_capacity(list.len() + fresh.len());
    let mut later: Vec<Diagnostic> = Vec::new();
    for d in list.drain(..) {
        if inside(&d) {
            continue;
        }
        if d.primary.span.start >= old_range.end {
            let mut d = d;
            shift_diagnostic(&mut d, delta, edited_end);
            later.push(d);
        } else {
            kept.push(d);
        }
    }
    kept.extend(fresh);
    kept.append(&mut later);
    kept.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    *list = kept;
}

/// Move every span of a diagnostic at or after `from` by `delta`.
pub fn shift_diagnostic(d: &mut Diagnostic, delta: isize, from: usize) {
    let shift = |s: &mut Span| {
        if s.start >= from {
            *s = s.shifted(delta);
        }
    };
    shift(&mut d.primary.span);
    for label in &mut d.secondary {
        shift(&mut label.span);
    }
    if let Some(fix) = &mut d.fix {
        shift(&mut fix.span);
    }
}

/// Whether `rest` has a line end within its first `limit` bytes with no block comment before
/// it (a block comment could run on over the line end).
fn line_ends_before(rest: &str, limit: usize) -> bool {
    match rest.find('\n') {
        Some(nl) => nl < limit && !rest[..nl].contains("/*"),
        None => false,
    }
}

/// Take each of `gone` out of `list` once (the broken-statement word lists are multisets).
fn remove_each(list: &mut Vec<String>, gone: &[String]) {
    for word in gone {
        if let Some(at) = list.iter().position(|w| w == word) {
            list.remove(at);
        }
    }
}

/// How many bytes [`parse_in_stretches`] reads at once, at least: enough that the stretches'
/// own overhead is lost in the parse, few enough that one stretch's tokens are a small part of a
/// long log's memory.
pub const STRETCH_BYTES: usize = 256 * 1024;

/// Parse a file in stretches of at least `stretch` bytes, each cut just before a line that
/// starts with `turn` at its first column; each stretch's syntax tree is lowered and its tokens
/// dropped before the next is read. A stretch that might read differently on its own than in the
/// whole file (it fails to parse, holds unreadable text, or its last item's line runs past its
/// end: the checks [`reparse`] makes of a re-parsed stretch) is read together with all the rest
/// of the file. None when the file is too short to cut, its head does not read cleanly as a game
/// log, or the rest holds anything but turns: the caller then parses the whole file at once.
pub fn parse_in_stretches(source: &str, stretch: usize) -> Option<Parsed> {
    let (mut parsed, stretches) = read_in_stretches(source, stretch)?;
    for part in stretches {
        parsed.append(part?);
    }
    Some(parsed)
}

/// Start reading a file in stretches (see [`parse_in_stretches`]): the head (the header and the
/// turns before the first cut) parsed, and the rest to be read one stretch at a time, so that a
/// caller that needs one turn at a time (`dotc check`, issue 16) can drop each stretch's turns
/// before the next is read. None when the file is not to be read in stretches.
pub fn read_in_stretches(source: &str, stretch: usize) -> Option<(Parsed, Stretches<'_>)> {
    if source.len() > parser::MAX_SOURCE_BYTES {
        return None;
    }
    let cuts = stretch_cuts(source, stretch);
    let &first = cuts.first()?;
    // The head (the header and the first turns) is read as a file of its own.
    let head = &source[..first];
    let pairs = parser::parse_rule(Rule::file, head).ok()?;
    if has_unreadable(&pairs) {
        return None;
    }
    let items = top_items(&pairs);
    let mut diagnostics = Vec::new();
    let document = lower::lower_file(pairs, &mut diagnostics);
    let head_alone =
        items.last().is_none_or(|last| line_ends_before(&head[last.span.end..], head.len() - last.span.end))
            && !diagnostics.iter().any(|d| d.primary.span.end >= head.len());
    // The stretches hold turns only, so the head must already make the file a game log: a
    // scenario or library before them (the whole parse's "mixed kinds" error) or no item at all
    // (the kind set by the first turn) is read whole.
    if !head_alone || document.kind != Some(FileKind::Game) {
        return None;
    }
    Some((Parsed { document, diagnostics, items }, Stretches { source, cuts, next: 0 }))
}

/// The stretches of a file after its head, parsed one at a time ([`read_in_stretches`]). Each
/// item is one stretch's parse, its spans those of the whole file: its turns, their syntax
/// diagnostics and broken statements, its top-level items. An item None means the stretches do
/// not give the whole file's parse (the rest of the file did not stand alone): the caller must
/// parse the whole file instead. Nothing follows a None.
#[derive(Debug)]
pub struct Stretches<'s> {
    source: &'s str,
    /// Where each stretch starts, the head's end first.
    cuts: Vec<usize>,
    /// The index in `cuts` of the next stretch; past the end once the rest is read.
    next: usize,
}

impl Iterator for Stretches<'_> {
    type Item = Option<Parsed>;

    fn next(&mut self) -> Option<Option<Parsed>> {
        let &start = self.cuts.get(self.next)?;
        let end = self.cuts.get(self.next + 1).copied().unwrap_or(self.source.len());
        let (source, ends_file) = (self.source, end == self.source.len());
        self.next += 1;
        // A stretch holding unreadable text (a typo) is read as the whole parse reads it when
        // that text ends inside it: what came before it read alone and ends at a line end, so the
        // whole parse reaches its start at the top level as this parse does, and the two read
        // the same text the same way up to where either looks past the stretch's end, which
        // `parse_stretch` refuses (the same test `reparse` trusts for an edit's turns).
        let part = parse_stretch(&source[start..end], start, ends_file, true);
        if part.is_some() {
            return Some(part);
        }
        // One that does not stand alone (a brace or string left open) is read together with the
        // stretches after it, twice as many each time, until the whole reads alone: a typo costs
        // at most about two parses of the text from it to where the reading recovers, and the
        // text held at once is that much, not the rest of the file. A brace left open at the top
        // level swallows the rest of the file, as in the whole parse.
        let mut more = 1;
        loop {
            let last = self.next + more;
            match self.cuts.get(last).copied() {
                Some(end) => {
                    if let Some(part) = parse_stretch(&source[start..end], start, false, true) {
                        self.next = last;
                        return Some(Some(part));
                    }
                    more *= 2;
                }
                None => {
                    self.next = self.cuts.len();
                    return Some(parse_stretch(&source[start..], start, true, true));
                }
            }
        }
    }
}

/// Whether the grammar read any text as unreadable (an `invalid` statement or top-level item).
fn has_unreadable(pairs: &pest::iterators::Pairs<'_, Rule>) -> bool {
    pairs.clone().flatten().any(|p| matches!(p.as_rule(), Rule::invalid | Rule::invalid_top))
}

/// Where [`parse_in_stretches`] cuts: the start of a line beginning `turn ` at least `stretch`
/// bytes after the cut before (or the file's start). Empty when the file is shorter.
fn stretch_cuts(source: &str, stretch: usize) -> Vec<usize> {
    let mut cuts = Vec::new();
    let mut from = stretch.max(1);
    while from < source.len() {
        while !source.is_char_boundary(from) {
            from += 1;
        }
        let Some(found) = source[from..].find("\nturn ") else { break };
        let cut = from + found + 1;
        cuts.push(cut);
        from = cut + stretch.max(1);
    }
    cuts
}

/// Parse a stretch of top-level text that starts at `base` in its file, as the whole-file
/// parse would see it. None when the stretch does not stand alone: it fails to parse, holds
/// anything but turns and unreadable text, or unreadable text runs to its end or holds a `{`
/// (and in the whole file might have run on past it).
fn parse_stretch(text: &str, base: usize, ends_file: bool, braces: bool) -> Option<Parsed> {
    let pairs = parser::parse_rule(Rule::file, text).ok()?;
    // Unreadable text may hold the start of something that found no end before the stretch's
    // end and was read otherwise, where the whole file has an end for it further on: a `"""`
    // read as an empty string and a quote (the whole file's text block swallows what this parse
    // read as the rest of the turn), or, for a stretch read on its own (`braces`), a `{` read as
    // a plain character where the whole file has a `}` that closes it. (An edit's turns, which
    // `reparse` reads, keep the braces they had: there a `{` found its `}` in the stretch.)
    if !ends_file
        && pairs.clone().flatten().any(|p| {
            matches!(p.as_rule(), Rule::invalid | Rule::invalid_top)
                && (p.as_str().contains("\"\"\"") || (braces && !braces_close_inside(p.as_str())))
        })
    {
        return None;
    }
    let items = top_items(&pairs);
    let mut diagnostics = Vec::new();
    let mut document = lower::lower_file(pairs, &mut diagnostics);
    if document.game.is_some() || document.scenario.is_some() || !document.libraries.is_empty() {
        return None;
    }
    // Likewise the last item looked past its end: its line must end inside the stretch.
    if !ends_file
        && let Some(last) = items.last()
        && !line_ends_before(&text[last.span.end..], text.len() - last.span.end)
    {
        return None;
    }
    // A lowering message that depends on where the file ends would differ.
    if !ends_file && diagnostics.iter().any(|d| d.primary.span.end >= text.len()) {
        return None;
    }
    let delta = base as isize;
    for turn in &mut document.turns {
        turn.shift(delta);
        // A stretch read afresh is moved whole: its parse touched every span anyway.
        turn.settle();
    }
    for d in &mut diagnostics {
        shift_diagnostic(d, delta, 0);
    }
    let items = items.into_iter().map(|i| TopItem { span: i.span.shifted(delta), kind: i.kind }).collect();
    Some(Parsed { document, diagnostics, items })
}

/// Whether every `{` of a piece of unreadable text is closed inside it, so the grammar read each
/// as the start of a block (which it does only when the `}` is there), as the whole file's parse
/// does. Text with a quote or a comment is not judged (a brace inside one is no brace): false.
fn braces_close_inside(text: &str) -> bool {
    if !text.contains('{') {
        return true;
    }
    if text.contains(['"', '`']) || text.contains("/*") || text.contains("//") {
        return false;
    }
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            _ => {}
        }
    }
    depth == 0
}

/// Moving every span of a subtree by a number of bytes.
pub trait Shift {
    fn shift(&mut self, delta: isize);
}

impl Shift for Span {
    fn shift(&mut self, delta: isize) {
        *self = self.shifted(delta);
    }
}

impl<T> Shift for Spanned<T> {
    fn shift(&mut self, delta: isize) {
        self.span.shift(delta);
    }
}

impl<T: Shift> Shift for Vec<T> {
    fn shift(&mut self, delta: isize) {
        for item in self {
            item.shift(delta);
        }
    }
}

impl<T: Shift> Shift for Option<T> {
    fn shift(&mut self, delta: isize) {
        if let Some(item) = self {
            item.shift(delta);
        }
    }
}

/// A turn moves its header at once and its phases when they are read ([`Turn::phases`]): O(1).
impl Shift for Turn {
    fn shift(&mut self, delta: isize) {
        self.shift_lazily(delta);
    }
}

impl Shift for Phase {
    fn shift(&mut self, delta: isize) {
        self.span.shift(delta);
        self.kind.shift(delta);
        self.actions.shift(delta);
    }
}

impl Shift for Action {
    fn shift(&mut self, delta: isize) {
        self.span.shift(delta);
        self.allows.shift(delta);
        self.verb.shift(delta);
        self.args.shift(delta);
        self.claim.shift(delta);
        self.steps.shift(delta);
    }
}

impl Shift for Allow {
    fn shift(&mut self, delta: isize) {
        self.span.shift(delta);
        self.code.shift(delta);
        self.reason.shift(delta);
    }
}

impl Shift for Arg {
    fn shift(&mut self, delta: isize) {
        match self {
            Arg::Unit(n) | Arg::At(n) | Arg::Against(n) | Arg::Pip(n) | Arg::Word(n) => n.shift(delta),
            Arg::To(p) | Arg::Point(p) => p.shift(delta),
            Arg::Facing(f) => f.shift(delta),
            Arg::Via(v) => v.shift(delta),
            Arg::Roll(r) => r.shift(delta),
            Arg::Number(n) => n.shift(delta),
        }
    }
}

impl Shift for Roll {
    fn shift(&mut self, delta: isize) {
        self.span.shift(delta);
        self.label.shift(delta);
        self.dice.shift(delta);
        for die in &mut self.dice.value {
            die.shift(delta);
        }
    }
}

impl Shift for Claim {
    fn shift(&mut self, delta: isize) {
        self.span.shift(delta);
        self.items.shift(delta);
    }
}

impl Shift for ClaimItem {
    fn shift(&mut self, delta: isize) {
        self.span.shift(delta);
        self.words.shift(delta);
        self.numbers.shift(delta);
    }
}

//! Completion, from the text before the cursor.
//!
//! The parser's tree cannot be trusted on the line being typed, so the context is read with the
//! forgiving tokenizer from the start of the enclosing top-level block (found in the cached
//! tree, which is right about everything before it): the stack of open blocks (`scenario`,
//! `side`, `brigade`, a unit body, `turn`, a phase, a library entry) and the words of the
//! statement so far. What is offered follows from those:
//! - at the start of a statement, the keywords of the block (in a phase, the verbs of that
//!   phase);
//! - inside a quote, or after a log verb, the names in scope (in a log, its scenario's units
//!   and leaders);
//! - after `=>` on an action or step line, and after a `,` inside its claim, the claim words of
//!   that verb or step (`dotc_lang::claims`), each with its meaning; after the first word of a
//!   phrase (`leader`, `screen`), the words that finish it;
//! - after `traits`, `markers`, `module`, `ruling`, `preset`, `weather`, `facing`, `edge`, the
//!   words they take; elsewhere in a unit or an action, the rule-data ids of the stdlib and the
//!   file's own library entries (qualities, weapons, formations, markers, traits).

use dotc_lang::check::NameKind;
use dotc_lang::claims::{self, ClaimWord};
use dotc_lang::library::{EntryKind, RuleData};
use dotc_lang::verbs::VERBS;
use dotc_lang::{Span, keywords, rulings};
use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, InsertTextFormat, TextEdit,
};

use crate::lex::{self, Token, TokenKind};
use crate::navigate::scenario_of;
use crate::workspace::Doc;

/// A completion candidate before it is put in protocol form.
struct Candidate {
    label: String,
    kind: CompletionItemKind,
    detail: Option<String>,
    /// Inserted instead of the label (a quoted name).
    insert: Option<String>,
}

fn candidate(label: impl Into<String>, kind: CompletionItemKind, detail: Option<String>) -> Candidate {
    Candidate { label: label.into(), kind, detail, insert: None }
}

/// The completions at a byte offset.
pub fn completion(doc: &Doc, offset: usize) -> Vec<CompletionItem> {
    if let Some(campaign) = crate::campaign::completion(doc, offset) {
        return campaign;
    }
    let offset = offset.min(doc.text.len());
    let text = &doc.text;
    let start = context_start(doc, offset);
    let tokens = lex::tokens(text, start, offset);
    let Some(context) = Context::read(text, &tokens, offset) else { return Vec::new() };
    let (candidates, replace) = match context.in_string {
        Some(token) => (names(doc, true), Some(token)),
        None => (context.candidates(doc), None),
    };
    let replace_span = match (replace, context.prefix) {
        (Some(token), _) => Some(Span::new(token.inner().start, offset)),
        (None, Some(prefix)) => Some(Span::new(prefix.start, offset)),
        (None, None) => None,
    };
    let closes = replace.is_some_and(|t| t.kind == TokenKind::Str { closed: false });
    candidates
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let mut new_text = c.insert.clone().unwrap_or_else(|| c.label.clone());
            if replace.is_some() {
                new_text = lex::escape(&c.label);
                if closes {
                    new_text.push('"');
                }
            }
            CompletionItem {
                label: c.label.clone(),
                kind: Some(c.kind),
                detail: c.detail,
                sort_text: Some(format!("{i:04}")),
                filter_text: Some(c.label.clone()),
                insert_text_format: Some(InsertTextFormat::PLAIN_TEXT),
                text_edit: replace_span.map(|span| {
                    CompletionTextEdit::Edit(TextEdit { range: doc.index.range(text, span), new_text })
                }),
                ..CompletionItem::default()
            }
        })
        .collect()
}

/// Where the top-level block holding the offset starts, from the cached tree.
fn context_start(doc: &Doc, offset: usize) -> usize {
    let document = &doc.analyzed.analysis.document;
    let starts = document
        .scenario
        .iter()
        .map(|s| s.span.start)
        .chain(document.libraries.iter().map(|l| l.span.start))
        .chain(document.game.iter().map(|g| g.span.start));
    let before = |s: &usize| *s <= offset;
    let mut best = starts.filter(before).max().unwrap_or(0);
    // Turns are sorted; find the last one starting before the offset.
    let turns = &document.turns;
    let i = turns.partition_point(|t| t.span.start <= offset);
    if i > 0 {
        best = best.max(turns[i - 1].span.start);
    }
    best
}

/// What the text before the cursor says.
struct Context<'t> {
    /// Header words of the open blocks, outermost first.
    blocks: Vec<String>,
    /// Words of the statement before the cursor (not the one being typed).
    words: Vec<&'t str>,
    /// The word being typed, if the cursor touches one.
    prefix: Option<Span>,
    /// The string the cursor is inside.
    in_string: Option<Token>,
    /// The cursor is in the claim after `=>`.
    claim: Option<ClaimAt<'t>>,
}

/// Where in a claim the cursor is.
struct ClaimAt<'t> {
    /// The statement's verb or assault step.
    verb: &'t str,
    /// The words of the claim item before the cursor (after the last `,` or the `=>`).
    item: Vec<&'t str>,
}

impl<'t> ClaimAt<'t> {
    /// The claim context of a statement's tokens, the word being typed left out: None when the
    /// statement has no `=>`.
    fn read(text: &'t str, statement: &[Token]) -> Option<ClaimAt<'t>> {
        let punct = |t: &Token, p: &str| t.kind == TokenKind::Punct && t.text(text) == p;
        let arrow = statement.iter().position(|t| punct(t, "=>"))?;
        // The verb: the first word, past an `@allow(...)` and its parentheses.
        let mut depth = 0usize;
        let mut verb = None;
        for token in &statement[..arrow] {
            match token.kind {
                TokenKind::Punct if token.text(text) == "(" => depth += 1,
                TokenKind::Punct if token.text(text) == ")" => depth = depth.saturating_sub(1),
                TokenKind::Word if depth == 0 && !token.text(text).starts_with('@') => {
                    verb = Some(token.text(text));
                    break;
                }
                _ => {}
            }
        }
        let after = &statement[arrow + 1..];
        let from = after.iter().rposition(|t| punct(t, ",")).map_or(0, |i| i + 1);
        let item = after[from..].iter().filter(|t| t.kind == TokenKind::Word).map(|t| t.text(text)).collect();
        Some(ClaimAt { verb: verb?, item })
    }

    /// The claim words of the verb that fit the words of the item so far: whole words at its
    /// start, the rest of a phrase after its first words.
    fn candidates(&self) -> Vec<Candidate> {
        let typed = self.item.join(" ").to_lowercase();
        let mut out: Vec<Candidate> = Vec::new();
        for word in claims::claim_words_for(self.verb) {
            let label = if typed.is_empty() {
                Some(word.word)
            } else {
                word.word.strip_prefix(typed.as_str()).and_then(|rest| rest.strip_prefix(' '))
            };
            if let Some(label) = label.filter(|l| !l.is_empty())
                && !out.iter().any(|c| c.label == label)
            {
                out.push(candidate(label, CompletionItemKind::VALUE, Some(claim_detail(word))));
            }
        }
        out
    }
}

/// A claim word's detail: how it is written, what it means, the rule.
fn claim_detail(word: &ClaimWord) -> String {
    format!("{}: {} ({})", word.usage(), word.meaning, word.rule)
}

impl<'t> Context<'t> {
    fn read(text: &'t str, tokens: &[Token], offset: usize) -> Option<Context<'t>> {
        let mut blocks: Vec<String> = Vec::new();
        let mut statement: Vec<Token> = Vec::new();
        let mut previous_end: Option<usize> = None;
        for token in tokens {
            let new_line = previous_end
                .is_none_or(|end| text.get(end..token.span.start).is_some_and(|g| g.contains(['\n', '\r'])));
            previous_end = Some(token.span.end);
            if new_line {
                statement.clear();
            }
            match (token.kind, token.text(text)) {
                (TokenKind::Comment, _) => {}
                (TokenKind::Punct, "{") => {
                    let header = statement
                        .iter()
                        .find(|t| t.kind == TokenKind::Word)
                        .map(|t| t.text(text).to_string())
                        .unwrap_or_default();
                    blocks.push(header);
                    statement.clear();
                }
                (TokenKind::Punct, "}") => {
                    blocks.pop();
                    statement.clear();
                }
                (TokenKind::Punct, ";") => statement.clear(),
                _ => statement.push(*token),
            }
        }
        // A statement ends at a newline: text after the last token decides whether the cursor
        // starts a new one.
        let last_end = previous_end.unwrap_or(0);
        if text.get(last_end..offset).is_some_and(|g| g.contains(['\n', '\r'])) {
            statement.clear();
        }
        let mut prefix = None;
        let mut in_string = None;
        if let Some(last) = statement.last().copied()
            && last.span.end == offset
        {
            match last.kind {
                TokenKind::Word => {
                    prefix = Some(last.span);
                    statement.pop();
                }
                TokenKind::Str { closed: false } => in_string = Some(last),
                TokenKind::Str { closed: true } => return None,
                TokenKind::Comment | TokenKind::Text | TokenKind::Script => return None,
                _ => {}
            }
        }
        let words = statement.iter().filter(|t| t.kind == TokenKind::Word).map(|t| t.text(text)).collect();
        let claim = ClaimAt::read(text, &statement);
        Some(Context { blocks, words, prefix, in_string, claim })
    }

    fn block(&self) -> &str {
        self.blocks.last().map_or("", String::as_str)
    }

    fn candidates(&self, doc: &Doc) -> Vec<Candidate> {
        let data = &doc.analyzed.analysis.rule_data;
        let block = self.block();
        let keyword = |w: &str| candidate(w, CompletionItemKind::KEYWORD, None);
        if self.words.is_empty() {
            return match block {
                "terrain" => {
                    let mut out: Vec<Candidate> =
                        [EntryKind::Terrain, EntryKind::Obstacle, EntryKind::Structure]
                            .into_iter()
                            .flat_map(|k| ids(data, k))
                            .collect();
                    out.extend(dotc_lang::check::BUILTIN_FEATURES.iter().copied().map(keyword));
                    out
                }
                "regiment" | "battery" | "cavalry" => unit_words(data),
                "library" => EntryKind::ALL.iter().map(|k| keyword(k.word())).collect(),
                "assault" => VERBS
                    .iter()
                    .filter(|v| v.step)
                    .map(|v| candidate(v.verb, CompletionItemKind::FUNCTION, Some(v.summary.to_string())))
                    .collect(),
                block if !keywords::statements(block).is_empty() => {
                    keywords::statements(block).iter().copied().map(keyword).collect()
                }
                phase => match dotc_lang::ast::PhaseKind::from_word(phase) {
                    Some(kind) => VERBS
                        .iter()
                        .filter(|v| !v.step && v.phases.contains(&kind))
                        .map(|v| candidate(v.verb, CompletionItemKind::FUNCTION, Some(v.summary.to_string())))
                        .collect(),
                    None => match EntryKind::from_word(phase) {
                        Some(kind) => kind.keys().into_iter().map(keyword).collect(),
                        None => Vec::new(),
                    },
                },
            };
        }
        if let Some(claim) = &self.claim {
            return claim.candidates();
        }
        let last = self.words.last().copied().unwrap_or("");
        let first = self.words.first().copied().unwrap_or("");
        match last {
            "traits" => return ids(data, EntryKind::Trait),
            "markers" => return ids(data, EntryKind::Marker),
            "module" => {
                return rulings::Module::ALL
                    .iter()
                    .map(|m| candidate(m.name(), CompletionItemKind::ENUM_MEMBER, Some(m.detail())))
                    .collect();
            }
            "ruling" => {
                return rulings::RULINGS
                    .iter()
                    .map(|r| candidate(r.name, CompletionItemKind::ENUM_MEMBER, Some(r.summary.to_string())))
                    .collect();
            }
            "preset" => {
                return rulings::PRESETS
                    .iter()
                    .map(|(p, s)| candidate(*p, CompletionItemKind::ENUM_MEMBER, Some(s.to_string())))
                    .collect();
            }
            "weather" => return rulings::WEATHER.iter().map(|(a, _)| keyword(a)).collect(),
            "facing" => {
                return dotc_lang::names::COMPASS
                    .iter()
                    .map(|(w, d)| candidate(*w, CompletionItemKind::ENUM_MEMBER, Some(format!("{d}°"))))
                    .collect();
            }
            "edge" => return dotc_lang::names::EDGES.iter().map(|w| keyword(w)).collect(),
            "formation" if block_is_phase(block) => return ids(data, EntryKind::Formation),
            "order" if block_is_phase(block) => return ids(data, EntryKind::Order),
            _ => {}
        }
        if let Some((_, conditions)) = rulings::WEATHER.iter().find(|(a, _)| *a == last) {
            return conditions.iter().map(|c| candidate(*c, CompletionItemKind::ENUM_MEMBER, None)).collect();
        }
        if first == "ruling"
            && let Some(ruling) = self.words.get(1).and_then(|name| rulings::ruling(name))
        {
            return ruling
                .values
                .iter()
                .map(|v| candidate(*v, CompletionItemKind::ENUM_MEMBER, None))
                .collect();
        }
        if matches!(first, "brigadier" | "commander") {
            let mut out = ids(data, EntryKind::Rating);
            if first == "commander" {
                out.extend(["army", "corps", "division"].into_iter().map(keyword));
            }
            out.push(keyword("at"));
            return out;
        }
        if first == "first_side" || matches!(last, "held_by" | "broken" | "vp") {
            return side_ids(doc);
        }
        if block_is_phase(block) || block == "assault" {
            let mut out = names(doc, false);
            out.extend(["to", "facing", "at", "via", "pip", "roll"].into_iter().map(keyword));
            out.extend(ids(data, EntryKind::Formation));
            out.extend(ids(data, EntryKind::Marker));
            return out;
        }
        if matches!(block, "regiment" | "battery" | "cavalry" | "side" | "brigade" | "reinforcements") {
            return unit_words(data);
        }
        if block == "terrain" {
            return ["polygon", "line", "at", "size", "level", "crest", "ford", "bridge", "capacity", "vp"]
                .into_iter()
                .map(keyword)
                .collect();
        }
        Vec::new()
    }
}

fn block_is_phase(block: &str) -> bool {
    dotc_lang::ast::PhaseKind::from_word(block).is_some()
}

/// The ids of one kind of rule data, with their display names.
fn ids(data: &RuleData, kind: EntryKind) -> Vec<Candidate> {
    data.metas(kind)
        .into_iter()
        .map(|m| {
            let detail = format!("{} · {}", kind.word(), m.title());
            candidate(m.id.clone(), CompletionItemKind::ENUM_MEMBER, Some(detail))
        })
        .collect()
}

/// What a unit body takes: its keywords, then qualities, weapons, formations, traits, markers.
fn unit_words(data: &RuleData) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = ["stands", "men", "sections", "at", "facing", "traits", "markers"]
        .into_iter()
        .map(|w| candidate(w, CompletionItemKind::KEYWORD, None))
        .collect();
    for kind in
        [EntryKind::Quality, EntryKind::Weapon, EntryKind::Formation, EntryKind::Trait, EntryKind::Marker]
    {
        out.extend(ids(data, kind));
    }
    out.extend(
        ["limbered", "unlimbered", "mounted", "dismounted"]
            .into_iter()
            .map(|w| candidate(w, CompletionItemKind::KEYWORD, None)),
    );
    out
}

/// The names the scenario declares: units, brigades and leaders, in declaration order.
fn names(doc: &Doc, in_quotes: bool) -> Vec<Candidate> {
    let Some(scenario) = scenario_of(doc) else { return Vec::new() };
    scenario
        .names
        .order
        .iter()
        .filter_map(|name| {
            let (kind, _, side) = scenario.names.get(name)?;
            let item_kind = match kind {
                NameKind::Unit(_) => CompletionItemKind::VARIABLE,
                NameKind::Brigade => CompletionItemKind::MODULE,
                // Ch13 4.0: a blind token, moved and revealed by its name.
                NameKind::Blind => CompletionItemKind::VALUE,
                NameKind::Brigadier | NameKind::Replacement | NameKind::Commander => {
                    CompletionItemKind::CONSTANT
                }
            };
            let mut c = candidate(name.clone(), item_kind, Some(format!("{}, {side}", kind.word())));
            if !in_quotes {
                c.insert = Some(format!("\"{}\"", lex::escape(name)));
            }
            Some(c)
        })
        .collect()
}

/// The scenario's side ids.
fn side_ids(doc: &Doc) -> Vec<Candidate> {
    let Some(scenario) = scenario_of(doc) else { return Vec::new() };
    scenario
        .document
        .scenario
        .iter()
        .flat_map(|s| s.sides.iter())
        .map(|side| {
            candidate(
                side.id.value.clone(),
                CompletionItemKind::ENUM_MEMBER,
                side.name.as_ref().map(|n| n.value.clone()),
            )
        })
        .collect()
}

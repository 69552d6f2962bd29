//! Campaign files (Ch14) in the editor: hover, completion, go to definition and rename on a
//! campaign's battles, steps and names (issue 18).
//!
//! A campaign names its battles' scenarios and logs; a unit or brigadier is the same one across
//! them by its quoted name (dotc D33). What a hover says of its state is read from the
//! campaign as the rules core plays it ([`dotc_runtime::campaign::play`], cached in
//! [`crate::workspace::Analyzed::campaign`] and played off the editing path): the roster as each
//! battle began (`Played::before`) and after its post-battle sequence. The diagnostics are the
//! workspace's (the campaign's findings are its audit).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use dotc_lang::ast::{Battle, Campaign, Document};
use dotc_lang::campaign::{CAMPAIGN_RULINGS, FEATS, LoadedBattle, STEPS, SURGEON_RESULTS};
use dotc_lang::check::{NameIndex, NameKind};
use dotc_lang::{Span, parse};
use dotc_runtime::campaign::experience::Track;
use dotc_runtime::campaign::{BattleRecord, LeaderRecord, Played, UnitRecord};
use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, InsertTextFormat, Location, TextEdit, Uri,
    WorkspaceEdit,
};

use crate::lex::{self, Token, TokenKind};
use crate::line_index::LineIndex;
use crate::navigate::{Target, target_at};
use crate::workspace::{Doc, Workspace, normalize, uri_of};

/// The campaign of a campaign document.
fn campaign_of(doc: &Doc) -> Option<&Campaign> {
    if !doc.analyzed.is_campaign() {
        return None;
    }
    doc.analyzed.analysis.document.campaign.as_ref()
}

/// The battle (its index in the campaign's order) whose text holds the offset: the last one
/// starting at or before it (a half-typed step may end a battle's parsed span early).
fn battle_at(campaign: &Campaign, offset: usize) -> Option<(usize, &Battle)> {
    campaign.battles.iter().enumerate().rev().find(|(_, b)| b.span.start <= offset)
}

/// A name as the battles' scenarios declare it: the first scenario that does, its kind.
fn kind_in(loaded: Option<&LoadedBattle>, name: &str) -> Option<NameKind> {
    let scenario = loaded?.scenario.as_deref()?;
    scenario.names.get(name).map(|(kind, _, _)| *kind)
}

/// The loaded battle of index `i`, if the analysis loaded it.
fn loaded(doc: &Doc, i: usize) -> Option<&LoadedBattle> {
    doc.analyzed.analysis.battles.get(i)
}

/// What a quoted string of a campaign file is.
enum Quoted<'a> {
    BattleName(usize),
    Scenario(&'a Battle),
    Log(&'a Battle),
    /// A unit or leader name, in the battle of this index.
    Name(usize, NameKind),
    Other,
}

fn quoted<'a>(doc: &'a Doc, campaign: &'a Campaign, name: &str, token: &Token) -> Quoted<'a> {
    let Some((i, battle)) = battle_at(campaign, token.span.start) else { return Quoted::Other };
    if battle.name.span == token.span {
        return Quoted::BattleName(i);
    }
    if battle.scenario.as_ref().is_some_and(|s| s.span == token.span) {
        return Quoted::Scenario(battle);
    }
    if battle.log.as_ref().is_some_and(|s| s.span == token.span) {
        return Quoted::Log(battle);
    }
    match kind_in(loaded(doc, i), name) {
        Some(kind) => Quoted::Name(i, kind),
        None => Quoted::Other,
    }
}

// ------------------------------------------------------------------------------------- hover

/// The hover of a campaign document: a battle, a unit's or brigadier's campaign state, a step
/// word, a Surgeon's result, a feat, a campaign ruling. None: not a campaign, or nothing of the
/// campaign's here (the words every file knows are hovered by [`crate::hover`]).
pub fn hover(doc: &Doc, offset: usize) -> Option<(String, Span)> {
    let campaign = campaign_of(doc)?;
    match target_at(doc, offset)? {
        Target::Name(name, token) => {
            let text = match quoted(doc, campaign, &name, &token) {
                Quoted::BattleName(i) => battle_hover(doc, i)?,
                Quoted::Scenario(b) => path_hover(doc, campaign, b, "scenario")?,
                Quoted::Log(b) => path_hover(doc, campaign, b, "log")?,
                Quoted::Name(i, kind) => name_hover(doc, campaign, i, &name, kind)?,
                Quoted::Other => return None,
            };
            Some((text, token.span))
        }
        Target::Word(word, span) => word_hover(&word).map(|text| (text, span)),
    }
}

/// A battle's scenario or log path: the file, and whether it was read.
fn path_hover(doc: &Doc, campaign: &Campaign, battle: &Battle, what: &str) -> Option<String> {
    let i = campaign.battles.iter().position(|b| std::ptr::eq(b, battle))?;
    let named = if what == "log" { battle.log.as_ref() } else { battle.scenario.as_ref() }?;
    let path = normalize(&doc.path.parent().unwrap_or(Path::new("")).join(&named.value));
    let loaded = loaded(doc, i);
    let read = if what == "log" {
        loaded.is_some_and(|l| l.log.is_some())
    } else {
        loaded.is_some_and(|l| l.scenario.is_some())
    };
    let state = if read { "read" } else { "not read (missing, or not a file dotc can read)" };
    Some(format!(
        "**{}** of battle {} \"{}\"\n\n`{}`: {state}",
        what,
        i + 1,
        battle.name.value,
        path.display()
    ))
}

/// A note when the play the hover reads is of the text before the latest edits.
fn stale_note(doc: &Doc) -> &'static str {
    if doc.analyzed.audit_due || doc.analyzed.analysis.has_errors() {
        "\n\n(as last played, before the latest edits)"
    } else {
        ""
    }
}

/// Where the campaign's state is not known yet, why.
fn not_played(doc: &Doc) -> &'static str {
    if doc.analyzed.analysis.has_errors() {
        "The campaign is not played while the file has errors."
    } else {
        "The campaign is being played (it replays every battle's log); hover again in a moment."
    }
}

fn battle_hover(doc: &Doc, i: usize) -> Option<String> {
    let campaign = campaign_of(doc)?;
    let battle = campaign.battles.get(i)?;
    let mut out = format!("**{}**: battle {} of the campaign (Ch14 1.0)", battle.name.value, i + 1);
    let Some(played) = &doc.analyzed.campaign else {
        let _ = write!(out, "\n\n{}", not_played(doc));
        return Some(out);
    };
    let Some(record) = played.state.battles.get(i) else { return Some(out) };
    out.push_str("\n\n");
    out.push_str(&battle_lines(record));
    out.push_str(stale_note(doc));
    out.push_str(&crate::hover::cited("Ch14 1.0"));
    Some(out)
}

fn battle_lines(record: &BattleRecord) -> String {
    let mut lines = Vec::new();
    if !record.played {
        lines.push("- not played yet: no log, or its log cannot be replayed".to_string());
    } else {
        let result = record.result.as_deref().unwrap_or("no victory condition met");
        lines.push(format!("- result by the scenario's victory conditions: {result}"));
        let field = record.field.as_deref().unwrap_or("nobody (dotc D31)");
        lines.push(format!("- holding the field after the replay: {field}"));
        lines.push(if record.sequence_recorded {
            "- its post-battle sequence is recorded (`after`)".to_string()
        } else {
            "- its post-battle sequence is not recorded yet (`dotc campaign next`)".to_string()
        });
    }
    lines.join("\n")
}

fn name_hover(doc: &Doc, campaign: &Campaign, i: usize, name: &str, kind: NameKind) -> Option<String> {
    let battle = campaign.battles.get(i)?;
    let what = match kind {
        NameKind::Unit(kind) => kind.word(),
        other => other.word(),
    };
    let side = doc
        .analyzed
        .campaign
        .as_ref()
        .and_then(|p| {
            let unit = p.state.units.iter().find(|u| u.name == name).map(|u| &u.side);
            unit.or_else(|| p.state.leaders.iter().find(|l| l.name == name).map(|l| &l.side))
        })
        .map_or(String::new(), |side| format!(", {side}"));
    let mut out = format!("**{name}**: {what}{side}, in battle {} \"{}\"", i + 1, battle.name.value);
    let Some(played) = &doc.analyzed.campaign else {
        let _ = write!(out, "\n\n{}", not_played(doc));
        return Some(out);
    };
    let Some(before) = played.before.get(i) else { return Some(out) };
    let (after_label, after) = after_roster(played, i, battle);
    let stale = stale_note(doc);
    match kind {
        NameKind::Unit(_) => {
            let at_start = before.units.iter().find(|u| u.name == name);
            let later = after.0.iter().find(|u| u.name == name);
            if let Some(u) = at_start {
                let _ = write!(out, "\n\n*As battle {} began* (Ch14 1.0):\n{}", i + 1, unit_lines(u));
            }
            if let Some(u) = later {
                let _ = write!(out, "\n\n*{after_label}*:\n{}", unit_lines(u));
                let returning = at_start.is_some_and(|u| u.hospital.iter().any(|h| h.returns_for == i + 2));
                if played.before.get(i + 1).is_some() && returning {
                    out.push_str("\n\n(with the stands back from hospital for that battle, Ch14 2.0)");
                }
            }
            out.push_str(stale);
            out.push_str(&crate::hover::cited("Ch14 2.0, Ch14 3.0, Ch14 5.0"));
        }
        _ => {
            let at_start = before.leaders.iter().find(|l| l.name == name);
            let later = after.1.iter().find(|l| l.name == name);
            if let Some(l) = at_start {
                let _ = write!(out, "\n\n*As battle {} began*:\n{}", i + 1, leader_lines(l, i + 1));
            }
            if let Some(l) = later {
                let _ = write!(out, "\n\n*{after_label}*:\n{}", leader_lines(l, i + 2));
            }
            out.push_str(stale);
            out.push_str(&crate::hover::cited("Ch14 4.0"));
        }
    }
    Some(out)
}

/// The roster after battle `i`'s post-battle sequence, as far as the play tells it: the next
/// battle's starting roster (its returning stands back), or the campaign's state now.
fn after_roster<'p>(
    played: &'p Played,
    i: usize,
    battle: &Battle,
) -> (String, (&'p [UnitRecord], &'p [LeaderRecord])) {
    if let Some(next) = played.before.get(i + 1) {
        let label = format!("After its post-battle sequence, as battle {} began", i + 2);
        return (label, (&next.units, &next.leaders));
    }
    let label = if battle.after.is_some() {
        "After its post-battle sequence (the campaign now)".to_string()
    } else {
        "After the battle (its post-battle sequence not recorded yet)".to_string()
    };
    (label, (&played.state.units, &played.state.leaders))
}

fn unit_lines(u: &UnitRecord) -> String {
    let mut lines = vec![format!("- {} of its {} stands on the roster", u.on_roster, u.strength)];
    for h in &u.hospital {
        lines.push(format!("- {} in hospital, back for battle {} (Ch14 2.0)", h.stands, h.returns_for));
    }
    if u.lost > 0 || u.captured > 0 {
        lines.push(format!("- lost for good: {}, taken prisoner: {} (Ch14 2.0)", u.lost, u.captured));
    }
    if u.awaiting_surgeon > 0 {
        lines.push(format!(
            "- {} lost in the battle, awaiting the Surgeon's roll (Ch14 2.0)",
            u.awaiting_surgeon
        ));
    }
    let grade = u.grade.as_deref().unwrap_or("no grade");
    if u.kind == "battery" {
        lines.push(format!("- a battery keeps no experience: {grade} (Ch14 3.0)"));
    } else {
        lines.push(format!("- {} XP, {grade} (Ch14 3.0)", u.xp));
    }
    if !u.traits.is_empty() {
        lines.push(format!("- traits from the campaign: {}", u.traits.join(", ")));
    }
    if u.replacements > 0 {
        lines.push(format!("- {} replacement stands taken in drafts (Ch14 5.0)", u.replacements));
    }
    if let Some(battle) = u.diluted_for {
        let grade = u.diluted_grade.as_deref().unwrap_or("a grade lower");
        lines.push(format!("- diluted by recruits: fights battle {battle} as {grade} (Ch14 5.0)"));
    }
    lines.join("\n")
}

/// A brigadier's state, `next` the battle it is read for.
fn leader_lines(l: &LeaderRecord, next: usize) -> String {
    let rating = l.rating.as_deref().unwrap_or("no rating");
    let mut lines = vec![format!("- rating {rating}")];
    if let Some(brigade) = &l.brigade {
        lines.push(format!("- brigade: {brigade}"));
    }
    // A death is said once, below.
    for c in l.casualties.iter().filter(|c| c.casualty != dotc_runtime::campaign::staff::Casualty::Killed) {
        lines.push(format!("- {} in battle {} (Ch14 4.0)", c.casualty.words(), c.battle));
    }
    if let Some(killed) = l.killed_in {
        lines.push(format!("- killed in battle {killed}: a new brigadier holds his command for good, at the rating above, under his name in the roster (Ch14 4.0, dotc D39)"));
    }
    if let Some(back) = l.back_for.filter(|b| *b >= next) {
        lines.push(format!("- out with his wound: back for battle {back} (Ch14 4.0)"));
    }
    if let Some(stand_in) = &l.commanded_by {
        lines.push(format!("- {} commands in his place, {}", stand_in.name, stand_in.rating));
    }
    if let Some(c) = &l.awaiting_officer {
        lines.push(format!("- {}, awaiting the officer's roll (Ch14 4.0)", c.words()));
    }
    if !l.promoted_after.is_empty() {
        let after: Vec<String> = l.promoted_after.iter().map(|b| format!("battle {b}")).collect();
        lines.push(format!("- promoted after {} (Ch14 4.0)", after.join(", ")));
    }
    lines.join("\n")
}

/// A step word, a Surgeon's result, a feat or a campaign ruling.
fn word_hover(word: &str) -> Option<String> {
    if let Some(step) = STEPS.iter().find(|s| s.word == word) {
        let mut out = format!(
            "**{}** (campaign step, {})\n\n`{}`\n\n{}",
            step.word, step.rule, step.form, step.summary
        );
        out.push_str(&crate::hover::cited(step.rule));
        return Some(out);
    }
    if let Some((w, meaning)) = SURGEON_RESULTS.iter().find(|(w, _)| *w == word) {
        let mut out = format!("**{w} N** (Surgeon's result, Ch14 2.0)\n\n{meaning}");
        out.push_str(&crate::hover::cited("Ch14 2.0"));
        return Some(out);
    }
    let claim = if word == "not" { "not promoted" } else { word };
    if let Some((step, w, meaning, rule)) = STEP_CLAIMS.iter().find(|(_, w, ..)| *w == claim) {
        let mut out = format!("**{w}** (claim of `{step}`, {rule})\n\n{meaning}");
        out.push_str(&crate::hover::cited(rule));
        return Some(out);
    }
    if let Some((w, meaning)) = FEATS.iter().find(|(w, _)| *w == word) {
        let mut out = format!("**{w}** (feat, Ch14 3.0)\n\n{meaning}: +1 XP (dotc D35)");
        out.push_str(&crate::hover::cited("Ch14 3.0"));
        return Some(out);
    }
    if let Some(spec) = CAMPAIGN_RULINGS.iter().find(|r| r.name == word) {
        let values: Vec<String> = spec.values.iter().map(|v| format!("`{v}`")).collect();
        let mut out = format!(
            "**{}**: campaign ruling (dotc {})\n\n{}\n\nvalues: {} (default first)",
            spec.name,
            spec.id,
            spec.summary,
            values.join(", ")
        );
        out.push_str(&crate::hover::cited(&format!("dotc {}", spec.id)));
        return Some(out);
    }
    None
}

// ---------------------------------------------------------------------------------- definition

/// Where a name of a campaign is declared (its battle's scenario), or the file a `scenario` or
/// `log` path names.
pub fn definition(ws: &Workspace, doc: &Doc, offset: usize) -> Option<Location> {
    let campaign = campaign_of(doc)?;
    let Target::Name(name, token) = target_at(doc, offset)? else { return None };
    let base = doc.path.parent().unwrap_or(Path::new(""));
    let file = |path: &str| {
        let path = normalize(&base.join(path));
        let uri = ws.by_path(&path).map(|d| d.uri.clone()).or_else(|| uri_of(&path))?;
        let zero = tower_lsp_server::ls_types::Position { line: 0, character: 0 };
        path.is_file()
            .then_some(Location { uri, range: tower_lsp_server::ls_types::Range { start: zero, end: zero } })
    };
    match quoted(doc, campaign, &name, &token) {
        Quoted::Scenario(b) => file(&b.scenario.as_ref()?.value),
        Quoted::Log(b) => file(&b.log.as_ref()?.value),
        Quoted::Name(i, _) => {
            let scenario = loaded(doc, i)?.scenario.as_deref()?;
            let (_, span, _) = scenario.names.get(&name)?;
            let uri = ws.by_path(&scenario.path).map(|d| d.uri.clone()).or_else(|| uri_of(&scenario.path))?;
            Some(Location { uri, range: LineIndex::new(&scenario.source).range(&scenario.source, *span) })
        }
        _ => None,
    }
}

// ---------------------------------------------------------------------------------- completion

/// The completions in a campaign document; None when the document is not a campaign.
pub fn completion(doc: &Doc, offset: usize) -> Option<Vec<CompletionItem>> {
    let campaign = campaign_of(doc)?;
    let offset = offset.min(doc.text.len());
    let text = doc.text.as_str();
    let line = doc.index.line_of(offset);
    let start = doc.index.line_start(line).min(offset);
    let tokens = lex::tokens(text, start, offset);
    // The token the cursor touches: a word being typed, or a string it is inside.
    let (typing, before): (Option<&Token>, &[Token]) = match tokens.last() {
        Some(t) if t.span.end == offset && matches!(t.kind, TokenKind::Word) => {
            (Some(t), &tokens[..tokens.len() - 1])
        }
        Some(t) if matches!(t.kind, TokenKind::Str { closed: false }) => {
            (Some(t), &tokens[..tokens.len() - 1])
        }
        Some(t) if matches!(t.kind, TokenKind::Str { closed: true }) && t.span.end > offset => {
            (Some(t), &tokens[..tokens.len() - 1])
        }
        _ => (None, &tokens[..]),
    };
    let in_string = typing.filter(|t| matches!(t.kind, TokenKind::Str { .. }));
    let words: Vec<&str> = before.iter().map(|t| t.text(text)).collect();
    let in_after = in_after_block(text, campaign, offset);
    let battle = battle_at(campaign, offset).map(|(i, _)| i);
    let candidates = match (in_after, words.first().copied()) {
        (false, None) => top_words(campaign, offset),
        (false, Some(_)) => Vec::new(),
        (true, None) => STEPS
            .iter()
            .map(|s| candidate(s.word, CompletionItemKind::KEYWORD, Some(format!("{} ({})", s.form, s.rule))))
            .collect(),
        (true, Some(step)) => step_candidates(doc, battle, step, &words, in_string.is_some()),
    };
    // A word is replaced up to the cursor; a string whole (an unclosed one up to the cursor),
    // by the quoted name.
    let replace = typing.map(|t| match t.kind {
        TokenKind::Str { closed: true } => t.span,
        _ => Span::new(t.span.start, offset),
    });
    Some(
        candidates
            .into_iter()
            .enumerate()
            .map(|(i, (label, kind, detail, quote))| {
                let new_text = if quote || in_string.is_some() {
                    format!("\"{}\"", lex::escape(&label))
                } else {
                    label.clone()
                };
                let range = replace.map(|span| doc.index.range(text, span));
                CompletionItem {
                    label: label.clone(),
                    kind: Some(kind),
                    detail,
                    sort_text: Some(format!("{i:04}")),
                    filter_text: Some(if in_string.is_some() || quote {
                        format!("\"{label}")
                    } else {
                        label
                    }),
                    insert_text_format: Some(InsertTextFormat::PLAIN_TEXT),
                    insert_text: if range.is_none() { Some(new_text.clone()) } else { None },
                    text_edit: range.map(|range| CompletionTextEdit::Edit(TextEdit { range, new_text })),
                    ..CompletionItem::default()
                }
            })
            .collect(),
    )
}

/// A candidate: label, kind, detail, and whether it is a quoted name.
type Candidate = (String, CompletionItemKind, Option<String>, bool);

fn candidate(label: &str, kind: CompletionItemKind, detail: Option<String>) -> Candidate {
    (label.to_string(), kind, detail, false)
}

/// Whether the offset is inside an `after { ... }` block: the braces counted from the start of
/// the battle holding it.
fn in_after_block(text: &str, campaign: &Campaign, offset: usize) -> bool {
    let Some((_, battle)) = battle_at(campaign, offset) else { return false };
    let tokens = lex::tokens(text, battle.span.start, offset);
    let mut stack: Vec<&str> = Vec::new();
    let mut last_word = "";
    for t in &tokens {
        match (t.kind, t.text(text)) {
            (TokenKind::Punct, "{") => stack.push(last_word),
            (TokenKind::Punct, "}") => {
                stack.pop();
            }
            (TokenKind::Word, w) => last_word = w,
            _ => {}
        }
    }
    stack.last() == Some(&"after")
}

/// At the start of a line outside the steps: a battle's statements inside a battle, else the
/// campaign's.
fn top_words(campaign: &Campaign, offset: usize) -> Vec<Candidate> {
    let in_battle = campaign.battles.iter().any(|b| b.span.start < offset && offset < b.span.end);
    let words: &[(&str, &str)] = if in_battle {
        &[
            ("scenario", "the battle's scenario file, relative to the campaign"),
            ("log", "the battle's game log, once played"),
            ("after", "the post-battle sequence (Ch14 1.0)"),
        ]
    } else {
        &[("battle", "a battle of the campaign, in order (Ch14 1.0)"), ("rules", "the campaign's rulings")]
    };
    words.iter().map(|(w, d)| candidate(w, CompletionItemKind::KEYWORD, Some(d.to_string()))).collect()
}

/// What follows a step word on its line.
fn step_candidates(
    doc: &Doc,
    battle: Option<usize>,
    step: &str,
    words: &[&str],
    in_string: bool,
) -> Vec<Candidate> {
    let loaded = battle.and_then(|i| loaded(doc, i));
    let scenario = loaded.and_then(|l| l.scenario.as_deref()).and_then(|s| s.document.scenario.as_ref());
    let track = Track::from_rule_data(dotc_lang::stdlib()).ok();
    if let Some(arrow) = words.iter().position(|w| *w == "=>") {
        let item: Vec<&str> = words[arrow + 1..].iter().rev().take_while(|w| **w != ",").copied().collect();
        return claim_candidates(step, &item, track.as_ref());
    }
    let names_given = words.iter().filter(|w| w.starts_with('"')).count();
    let unit_names = |sides: Option<&str>| -> Vec<Candidate> {
        let Some(s) = scenario else { return Vec::new() };
        s.sides
            .iter()
            .filter(|side| sides.is_none_or(|only| side.id.value == only))
            .flat_map(|side| {
                side.brigades
                    .iter()
                    .flat_map(|b| b.units.iter())
                    .chain(side.units.iter())
                    .map(move |u| (side, u))
            })
            .map(|(side, u)| {
                (
                    u.name.value.clone(),
                    CompletionItemKind::VALUE,
                    Some(format!("{}, {}", u.kind.word(), side.id.value)),
                    true,
                )
            })
            .collect()
    };
    let sides = || -> Vec<Candidate> {
        scenario
            .map(|s| {
                s.sides
                    .iter()
                    .map(|side| {
                        candidate(
                            &side.id.value,
                            CompletionItemKind::ENUM_MEMBER,
                            side.name.as_ref().map(|n| n.value.clone()),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    match step {
        "surgeon" | "experience" | "trait" if names_given == 0 => {
            let mut out = unit_names(None);
            if step == "surgeon" {
                // The units that lost stands and await the Surgeon first (Ch14 2.0).
                let waiting: Vec<String> = doc
                    .analyzed
                    .campaign
                    .as_ref()
                    .map(|p| {
                        p.state
                            .units
                            .iter()
                            .filter(|u| u.awaiting_surgeon > 0)
                            .map(|u| u.name.clone())
                            .collect()
                    })
                    .unwrap_or_default();
                out.sort_by_key(|c| !waiting.contains(&c.0));
                for c in out.iter_mut().filter(|c| waiting.contains(&c.0)) {
                    c.2 = Some(format!(
                        "{}; lost stands, awaiting the Surgeon",
                        c.2.clone().unwrap_or_default()
                    ));
                }
            }
            out
        }
        "promotion" | "officer" if names_given == 0 => scenario
            .map(|s| {
                s.sides
                    .iter()
                    .flat_map(|side| {
                        side.brigades.iter().flat_map(move |b| b.brigadiers.iter().map(move |l| (side, b, l)))
                    })
                    .map(|(side, b, l)| {
                        (
                            l.name.value.clone(),
                            CompletionItemKind::VALUE,
                            Some(format!("brigadier of {}, {}", b.name.value, side.id.value)),
                            true,
                        )
                    })
                    .collect()
            })
            .unwrap_or_default(),
        "field" if words.len() == 1 && !in_string => {
            let mut out = sides();
            out.push(candidate(
                "none",
                CompletionItemKind::ENUM_MEMBER,
                Some("nobody holds the field (dotc D31)".into()),
            ));
            out
        }
        "replacements" if words.len() == 1 && !in_string => sides(),
        "replacements" if words.len() >= 2 => unit_names(Some(words[1])),
        "experience" if !in_string => FEATS
            .iter()
            .map(|(w, d)| candidate(w, CompletionItemKind::ENUM_MEMBER, Some(d.to_string())))
            .collect(),
        "trait" if !in_string => track
            .iter()
            .flat_map(|t| t.choose.iter().flat_map(|(q, ts)| ts.iter().map(move |t| (q, t))))
            .map(|(q, t)| {
                candidate(
                    t,
                    CompletionItemKind::ENUM_MEMBER,
                    Some(format!("an Army Trait, chosen from {q} on (Ch14 3.0)")),
                )
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The claim words of the steps other than the Surgeon's ([`SURGEON_RESULTS`]): the step, the
/// word, what it claims, the section.
const STEP_CLAIMS: &[(&str, &str, &str, &str)] = &[
    ("experience", "xp", "xp N: the XP the unit has after the battle, at most 2 more a battle", "Ch14 3.0"),
    ("promotion", "promoted", "the roll made 5+: his rating rises one tier", "Ch14 4.0"),
    ("promotion", "not promoted", "the roll fell short of 5+: his rating stays", "Ch14 4.0"),
    ("officer", "out", "out N: the severely wounded brigadier misses N campaign battles (1D3)", "Ch14 4.0"),
    ("officer", "replaced", "replaced RATING: a killed brigadier's successor, for good", "Ch14 4.0"),
    ("replacements", "stands", "N stands: the replacement stands the draft gives (1D3)", "Ch14 5.0"),
];

/// The claim words of a step after `=>` (`item`: the words of the claim item so far, last first).
fn claim_candidates(step: &str, item: &[&str], track: Option<&Track>) -> Vec<Candidate> {
    let word = |w: &str, d: &str| candidate(w, CompletionItemKind::VALUE, Some(d.to_string()));
    let claims = |step: &str| -> Vec<Candidate> {
        STEP_CLAIMS
            .iter()
            .filter(|(s, ..)| *s == step)
            .map(|(_, w, d, rule)| word(w, &format!("{d} ({rule})")))
            .collect()
    };
    match step {
        "surgeon" if item.is_empty() => SURGEON_RESULTS.iter().map(|(w, d)| word(w, d)).collect(),
        "experience" if item.is_empty() => {
            let mut out = claims("experience");
            for (q, xp) in track.iter().flat_map(|t| t.grades.iter()) {
                out.push(word(q, &format!("the grade from {xp} XP (Ch14 3.0)")));
            }
            out
        }
        "promotion" | "officer" if item.is_empty() => claims(step),
        "officer" if item == ["replaced"] => ["timid", "reliable"]
            .iter()
            .map(|r| word(r, "the new brigadier's rating (Ch14 4.0, dotc D39)"))
            .collect(),
        "replacements" if item.len() == 1 => claims("replacements"),
        _ => Vec::new(),
    }
}

// ------------------------------------------------------------------------------------- rename

/// Whether a quoted name of a campaign can be renamed: a unit or brigadier of a battle's
/// scenario. Ok(None): not a campaign document (or not on a quoted name); Err: why not.
pub fn prepare_rename(doc: &Doc, offset: usize) -> Result<Option<(String, Span)>, String> {
    let Some(campaign) = campaign_of(doc) else { return Ok(None) };
    let Some(Target::Name(name, token)) = target_at(doc, offset) else {
        return Err("only a unit's or a brigadier's quoted name can be renamed in a campaign".to_string());
    };
    match quoted(doc, campaign, &name, &token) {
        Quoted::Name(_, NameKind::Unit(_) | NameKind::Brigadier) => Ok(Some((name, token.inner()))),
        Quoted::Name(_, kind) => {
            Err(format!("a {} is not renamed from a campaign: rename it in its scenario", kind.word()))
        }
        Quoted::BattleName(_) => Err("a battle's name is the campaign's own: edit it in place".to_string()),
        Quoted::Scenario(_) | Quoted::Log(_) => Err("a file path is not a name: rename the file".to_string()),
        Quoted::Other => Err(format!("\"{name}\" is not a unit or brigadier of this battle's scenario")),
    }
}

/// A campaign's files for a rename: the campaign's own text and path, and each battle's
/// scenario and log paths.
struct CampaignFiles {
    path: PathBuf,
    text: String,
    document: Document,
}

impl CampaignFiles {
    fn battle_paths(&self) -> Vec<(PathBuf, Option<PathBuf>)> {
        let base = self.path.parent().unwrap_or(Path::new("")).to_path_buf();
        let Some(campaign) = &self.document.campaign else { return Vec::new() };
        campaign
            .battles
            .iter()
            .filter_map(|b| {
                let scenario = normalize(&base.join(&b.scenario.as_ref()?.value));
                Some((scenario, b.log.as_ref().map(|l| normalize(&base.join(&l.value)))))
            })
            .collect()
    }
}

/// A file's text: its open buffer, else the disk.
fn text_of(ws: &Workspace, path: &Path) -> Option<String> {
    match ws.by_path(path) {
        Some(doc) => Some(doc.text.to_string()),
        None => std::fs::read_to_string(path).ok(),
    }
}

/// Every string token of a text whose value is `name`, as edits to `replacement`.
fn edits_in(text: &str, name: &str, replacement: &str, skip: &[Span]) -> Vec<TextEdit> {
    let index = LineIndex::new(text);
    lex::tokens(text, 0, text.len())
        .into_iter()
        .filter(|t| {
            matches!(t.kind, TokenKind::Str { .. }) && t.value(text) == name && !skip.contains(&t.span)
        })
        .map(|t| TextEdit { range: index.range(text, t.inner()), new_text: replacement.to_string() })
        .collect()
}

/// Add the edits of renaming `name` across a campaign: its own mentions (not its battles'
/// names or paths), each battle's scenario that declares it and that battle's log. Files
/// already in `changes` are left as they are.
fn campaign_rename(
    ws: &Workspace,
    files: &CampaignFiles,
    name: &str,
    replacement: &str,
    changes: &mut HashMap<Uri, Vec<TextEdit>>,
) {
    let own_strings: Vec<Span> = files
        .document
        .campaign
        .iter()
        .flat_map(|c| c.battles.iter())
        .flat_map(|b| {
            std::iter::once(b.name.span)
                .chain(b.scenario.iter().map(|s| s.span))
                .chain(b.log.iter().map(|s| s.span))
        })
        .collect();
    let mut add = |path: &Path, text: &str, skip: &[Span]| {
        let Some(uri) = ws.by_path(path).map(|d| d.uri.clone()).or_else(|| uri_of(path)) else { return };
        if changes.contains_key(&uri) {
            return;
        }
        let edits = edits_in(text, name, replacement, skip);
        if !edits.is_empty() {
            changes.insert(uri, edits);
        }
    };
    add(&files.path, &files.text, &own_strings);
    for (scenario, log) in files.battle_paths() {
        let Some(text) = text_of(ws, &scenario) else { continue };
        let parsed = parse(&text);
        let Some(s) = &parsed.document.scenario else { continue };
        let names = NameIndex::build(s, &mut Vec::new());
        if !matches!(names.get(name), Some((NameKind::Unit(_) | NameKind::Brigadier, _, _))) {
            continue;
        }
        add(&scenario, &text, &[]);
        if let Some(log) = log
            && let Some(text) = text_of(ws, &log)
        {
            add(&log, &text, &[]);
        }
    }
}

/// Rename from a campaign document: every mention across the campaign, its battles' scenarios
/// that declare the name and their logs. None: not a campaign.
pub fn rename(
    ws: &Workspace,
    doc: &Doc,
    offset: usize,
    new_name: &str,
) -> Option<Result<Option<WorkspaceEdit>, String>> {
    campaign_of(doc)?;
    let name = match prepare_rename(doc, offset) {
        Ok(Some((name, _))) => name,
        Ok(None) => return Some(Ok(None)),
        Err(why) => return Some(Err(why)),
    };
    if new_name.is_empty() || new_name.contains(['\n', '\r']) {
        return Some(Err("a name must be one non-empty line".to_string()));
    }
    // A name another unit or leader of one of the battles already has would merge the two
    // (dotc D33).
    let battles = &doc.analyzed.analysis.battles;
    let taken =
        battles.iter().filter_map(|b| b.scenario.as_deref()).find(|s| s.names.get(new_name).is_some());
    if new_name != name
        && let Some(scenario) = taken
    {
        let file = scenario.path.file_name().map_or_else(String::new, |f| f.to_string_lossy().into_owned());
        return Some(Err(format!("{file} already has a \"{new_name}\"")));
    }
    let files = CampaignFiles {
        path: doc.path.clone(),
        text: doc.text.to_string(),
        document: doc.analyzed.analysis.document.clone(),
    };
    let mut changes = HashMap::new();
    campaign_rename(ws, &files, &name, &lex::escape(new_name), &mut changes);
    Some(Ok(Some(WorkspaceEdit { changes: Some(changes), ..WorkspaceEdit::default() })))
}

/// Every place a unit or brigadier named in a campaign document is written: the rename's
/// places (the campaign, its battles' scenarios that declare it, their logs). None: not a
/// campaign.
pub fn references(ws: &Workspace, doc: &Doc, offset: usize) -> Option<Option<Vec<Location>>> {
    campaign_of(doc)?;
    let Ok(Some((name, _))) = prepare_rename(doc, offset) else { return Some(None) };
    let files = CampaignFiles {
        path: doc.path.clone(),
        text: doc.text.to_string(),
        document: doc.analyzed.analysis.document.clone(),
    };
    let mut changes = HashMap::new();
    campaign_rename(ws, &files, &name, &name, &mut changes);
    Some(Some(locations(changes)))
}

/// The places of a set of edits, sorted by file and position.
fn locations(changes: HashMap<Uri, Vec<TextEdit>>) -> Vec<Location> {
    let mut out: Vec<Location> = changes
        .into_iter()
        .flat_map(|(uri, edits)| {
            edits.into_iter().map(move |e| {
                // The whole string, quotes included, as the references of a scenario give it
                // (a quote is one UTF-16 unit, on the name's line).
                let mut range = e.range;
                range.start.character = range.start.character.saturating_sub(1);
                range.end.character += 1;
                Location { uri: uri.clone(), range }
            })
        })
        .collect();
    out.sort_by(|a, b| {
        (a.uri.as_str(), a.range.start.line, a.range.start.character).cmp(&(
            b.uri.as_str(),
            b.range.start.line,
            b.range.start.character,
        ))
    });
    out
}

/// The places in the campaigns that play a scenario where a name of it is written, for the
/// references asked for in the scenario or one of its logs (files already listed left out).
pub fn extend_references(ws: &Workspace, scenario: &Path, name: &str, out: &mut Vec<Location>) {
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for files in campaigns_using(ws, &normalize(scenario)) {
        campaign_rename(ws, &files, name, name, &mut changes);
    }
    changes.retain(|uri, _| !out.iter().any(|l| &l.uri == uri));
    out.extend(locations(changes));
}

/// The campaigns that play a scenario (open campaign documents, and the campaign files on disk
/// under the workspace folders and the scenario's folder), for a rename made in the scenario or
/// one of its logs.
fn campaigns_using(ws: &Workspace, scenario: &Path) -> Vec<CampaignFiles> {
    let mut out: Vec<CampaignFiles> = Vec::new();
    let mut consider = |path: PathBuf, text: String| {
        if out.iter().any(|c| c.path == path) || !text.contains("campaign") {
            return;
        }
        let document = parse(&text).document;
        let files = CampaignFiles { path, text, document };
        if files.document.campaign.is_some() && files.battle_paths().iter().any(|(s, _)| s == scenario) {
            out.push(files);
        }
    };
    for doc in ws.docs().filter(|d| d.analyzed.is_campaign()) {
        consider(doc.path.clone(), doc.text.to_string());
    }
    let mut roots = ws.roots.clone();
    roots.extend(scenario.parent().map(Path::to_path_buf));
    for path in crate::navigate::dotc_files(&roots) {
        if ws.by_path(&path).is_none()
            && let Ok(text) = std::fs::read_to_string(&path)
        {
            consider(path, text);
        }
    }
    out
}

/// Add to a rename made in a scenario or log the edits of the campaigns that play that
/// scenario: each campaign's mentions, and its other battles' scenarios and logs that declare
/// the name.
pub fn extend_rename(ws: &Workspace, scenario: &Path, name: &str, new_name: &str, edit: &mut WorkspaceEdit) {
    let changes = edit.changes.get_or_insert_with(HashMap::new);
    let replacement = lex::escape(new_name);
    for files in campaigns_using(ws, &normalize(scenario)) {
        campaign_rename(ws, &files, name, &replacement, changes);
    }
}

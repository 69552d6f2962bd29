//! Hover: what a name or a word means here.
//!
//! - A unit's profile as the scenario declares it; in a game log, also its stands, health,
//!   micro-hit and markers at that line of the game, folded from the replay's events up to it.
//! - A leader's rating and post, a brigade's leaders and units; a blind's side, place and what
//!   it hides (Ch13 4.0).
//! - A rule-data id's summary from its entry; a weapon's range bands and to-hit numbers.
//! - A claim word after `=>` (`hits`, `disordered`, `attacker wins`): what it says, where it may
//!   stand and the rule it is checked against (`dotc_lang::claims`).
//! - A log verb's summary and the rules it cites, a phase, a module or a ruling switch, each
//!   with the RULE id and summary from `dotc_lang::references`.
//! - On a `fire` line of a game log, the volley's plan and exact odds as `dotc odds --at` gives
//!   them.
//!
//! The texts are Markdown; they are built here from plain data.

use std::fmt::Write as _;

use dotc_lang::Span;
use dotc_lang::ast::{PhaseKind, Unit};
use dotc_lang::claims;
use dotc_lang::library::{EntryKind, RuleData, Weapon};
use dotc_lang::references;
use dotc_lang::rulings;
use dotc_lang::verbs::verb_spec;
use dotc_runtime::luck;
use dotc_runtime::odds::explain::{assault_lines, assault_outcome_line, outcome_line, volley_lines};
use dotc_runtime::replay::{ReplayOptions, replay};

use crate::navigate::{ScenarioView, Target, scenario_of, target_at};
use crate::replay_view::{ReplayView, Shown};
use crate::workspace::Doc;

/// The hover text and the span it is about.
pub fn hover(doc: &Doc, offset: usize) -> Option<(String, Span)> {
    if let Some(campaign) = crate::campaign::hover(doc, offset) {
        return Some(campaign);
    }
    let (mut text, span) = match target_at(doc, offset)? {
        Target::Name(name, token) => {
            let scenario = scenario_of(doc)?;
            let mut text = profile(&scenario, &doc.analyzed.analysis.rule_data, &name)?;
            if let Some(view) = &doc.analyzed.view {
                text.push_str(&state_at(doc, view, &scenario, &name, offset));
            }
            (text, token.span)
        }
        Target::Word(word, span) => match claim_hover(doc, span) {
            Some(claim) => claim,
            None => (word_hover(doc, &word)?, span),
        },
    };
    if let Some(odds) = volley_odds_at(doc, offset) {
        let _ = write!(text, "\n\n{odds}");
    }
    Some((text, span))
}

/// The exact odds of the volley or assault on the cursor's line, the numbers `dotc odds --at
/// FILE:LINE` prints (one wording, `dotc_runtime::odds::explain`): the log is replayed with that
/// line's volley or assault planned and priced. Only for a `fire`, `assault` or `closing_volley`
/// line of a log short enough to replay at every keystroke
/// ([`crate::workspace::DEFERRED_AUDIT_BYTES`]) that checks clean, fought with the order of
/// battle its audit used ([`crate::workspace::Analyzed::battle`]).
pub fn volley_odds_at(doc: &Doc, offset: usize) -> Option<String> {
    let line = doc.index.line_of(offset);
    let (start, end) = (doc.index.line_start(line), doc.index.line_start(line + 1));
    let head = doc.text.get(start..end.max(start))?.trim_start();
    let assault_line = head.starts_with("assault \"");
    let volley_line = head.starts_with("fire \"") || head.starts_with("closing_volley ");
    if !(volley_line || assault_line) {
        return None;
    }
    let (replayed, line) = probed(doc, offset)?;
    if assault_line {
        let assault = replayed.assault_probes.iter().find(|p| p.line == line)?;
        let odds = assault.odds.as_ref().ok()?;
        let mut out = String::from("**odds of this assault** (as `dotc odds --at` gives them)\n\n```text\n");
        let volley = assault.volley.as_ref().zip(odds.closing_volley.as_ref());
        for l in assault_lines(&assault.charger, &assault.target, odds, volley) {
            let _ = writeln!(out, "{l}");
        }
        if let Some(result) = assault.result {
            let _ = writeln!(out, "{}", assault_outcome_line(odds, result));
            let _ = writeln!(out, "{}", assault_luck_line(odds, result));
        }
        out.push_str("```");
        return Some(out);
    }
    let volley = replayed.probes.iter().find(|p| p.line == line)?;
    let mut out = String::from("**odds of this volley** (as `dotc odds --at` gives them)\n\n```text\n");
    for l in volley_lines(&volley.plan, &volley.odds) {
        let _ = writeln!(out, "{l}");
    }
    if let Some(outcome) = volley.outcome {
        let _ = writeln!(out, "{}", outcome_line(&volley.odds, outcome));
        let _ = writeln!(out, "{}", volley_luck_line(&volley.odds, outcome));
    }
    out.push_str("```");
    Some(out)
}

/// The log replayed with the volley or assault on the cursor's line planned and priced
/// ([`ReplayOptions::probe`]), and that line as the replay numbers it (1-based). Only for a log
/// short enough to replay at a request ([`crate::workspace::DEFERRED_AUDIT_BYTES`]) whose
/// language checks are clean, fought with the order of battle its audit used
/// ([`crate::workspace::Analyzed::battle`]). The hover's odds and the action that writes a
/// volley's claim (`crate::hints`) read it.
pub fn probed(doc: &Doc, offset: usize) -> Option<(dotc_runtime::replay::Replay, usize)> {
    let analysis = &doc.analyzed.analysis;
    if doc.text.len() > crate::workspace::DEFERRED_AUDIT_BYTES
        || !doc.analyzed.is_game()
        || analysis.has_errors()
        || analysis.scenario.is_none()
    {
        return None;
    }
    let start = doc.index.line_start(doc.index.line_of(offset));
    // The replay numbers lines as `dotc odds --at` does, counting `\n` only: with lone `\r` line
    // breaks that is not the protocol's line.
    let line = doc.text.get(..start).map_or(0, |before| before.bytes().filter(|&b| b == b'\n').count());
    // A campaign battle's log is priced with the roster its audit found (Ch14 1.0); none
    // before its order of battle is looked up (after a pause).
    let battle = doc.analyzed.battle.as_deref()?;
    let probe = [line + 1];
    let options = ReplayOptions {
        source: Some(&doc.text),
        probe: &probe,
        order_of_battle: battle.order(),
        ..ReplayOptions::default()
    };
    Some((replay(analysis, &options), line + 1))
}

/// Where the log's dice fall in the volley's distributions (issue 20): the mid-p percentile of
/// each count, `P(X < x) + P(X = x) / 2`, as `dotc luck` judges a roll (50% is exactly average;
/// [`dotc_runtime::luck::stats`]): the hits for the firer (RULE-05-2.1-2.3), the unsaved hits
/// (after the saves, RULE-05-3.1) and the stands lost (RULE-05-3.3), each higher the worse for
/// the target.
fn volley_luck_line(odds: &dotc_runtime::odds::FireOdds, (hits, unsaved, lost): (u32, u32, u32)) -> String {
    let at = |dist: &[f64], x: u32| percent(luck::stats(dist, x as usize).percentile);
    format!(
        "luck         hits at the {} percentile, unsaved {}, stands lost {} (50th: as expected)",
        at(&odds.hits, hits),
        at(&odds.unsaved, unsaved),
        at(&odds.stands_lost, lost)
    )
}

/// Where an assault's ending falls among its endings, from the charger's worst to its best
/// (issue 20): destroyed by the closing volley, stalled short (Ch16 7.2), the melee lost, a
/// Bloody Draw, the melee won (Ch16 7.4), the defender routed or overrun before the melee; the
/// mid-p percentile of that order ([`dotc_runtime::luck::stats`]), each ending's chance from
/// the assault's exact odds.
fn assault_luck_line(
    odds: &dotc_runtime::odds::assault_plan::PlannedAssaultOdds,
    result: dotc_runtime::engine::assault::AssaultResult,
) -> String {
    use dotc_runtime::engine::assault::AssaultResult;
    use dotc_runtime::engine::events::MeleeOutcome;
    let order = [
        odds.p_destroyed,
        odds.p_stalled,
        odds.p_defender_wins,
        odds.p_draw,
        odds.p_attacker_wins,
        odds.p_routed + odds.p_overrun,
    ];
    let at = match result {
        AssaultResult::Destroyed => 0,
        AssaultResult::Stalled => 1,
        AssaultResult::Melee(MeleeOutcome::DefenderWins) => 2,
        AssaultResult::Melee(MeleeOutcome::BloodyDraw) => 3,
        AssaultResult::Melee(MeleeOutcome::AttackerWins) => 4,
        AssaultResult::Routed | AssaultResult::Overrun => 5,
    };
    format!(
        "luck         the charger's: the {} percentile of its endings, worst to best (50th: as expected)",
        percent(luck::stats(&order, at).percentile)
    )
}

/// A percentile as an ordinal: `62nd`, `1st`, `13th`.
fn percent(p: f64) -> String {
    let n = (p * 100.0).round().clamp(0.0, 100.0) as u32;
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// What a unit, brigade or leader is, as the scenario declares it.
fn profile(scenario: &ScenarioView<'_>, data: &RuleData, name: &str) -> Option<String> {
    let s = scenario.document.scenario.as_ref()?;
    let mut out = String::new();
    for side in &s.sides {
        let side_name = side.name.as_ref().map_or(side.id.value.as_str(), |n| n.value.as_str());
        if let Some(commander) = side.commanders.iter().find(|c| c.name.value == name) {
            let _ = write!(out, "**{}**: {} commander, {}", name, commander.level.value, side_name);
            if let Some(rating) = &commander.rating {
                let _ = write!(out, ", {}", rating.value);
            }
            if let Some(at) = &commander.position {
                let _ = write!(out, "\n\nat ({}, {})", at.value.x, at.value.y);
            }
            return Some(out);
        }
        for brigade in &side.brigades {
            if brigade.name.value == name {
                let _ = write!(out, "**{name}**: brigade, {side_name}");
                for b in &brigade.brigadiers {
                    let _ = write!(out, "\n\nbrigadier {}", b.name.value);
                }
                for unit in &brigade.units {
                    let _ = write!(out, "\n- {} ({})", unit.name.value, unit.kind.word());
                }
                return Some(out);
            }
            if let Some(b) = brigade.brigadiers.iter().find(|b| b.name.value == name) {
                let _ = write!(out, "**{name}**: brigadier of {}, {side_name}", brigade.name.value);
                if let Some(rating) = &b.rating {
                    let _ = write!(out, "\n\nrating `{}`", rating.value);
                    if let Some(summary) = data.summary(EntryKind::Rating, &rating.value) {
                        let _ = write!(out, ": {summary}");
                    }
                }
                if let Some(at) = &b.position {
                    let _ = write!(out, "\n\nat ({}, {})", at.value.x, at.value.y);
                }
                let _ = write!(out, "\n\nreplaced, if he falls, by {} (Ch16 2.4)", b.replacement_name());
                return Some(out);
            }
            // Ch16 2.4, RULINGS C9: the colonel who takes over when the brigadier falls.
            if let Some(b) = brigade.brigadiers.first().filter(|b| b.replacement_name() == name) {
                let _ = write!(
                    out,
                    "**{name}**: replacement colonel of {}, {side_name}\n\ntakes over the brigade if {} \
                     falls, from the next turn, on the rating his leader casualty result gives \
                     (Timid, Ch16 2.4, RULINGS C9)",
                    brigade.name.value, b.name.value
                );
                return Some(out);
            }
            if let Some(unit) = brigade.units.iter().find(|u| u.name.value == name) {
                return Some(unit_profile(unit, side_name, Some(&brigade.name.value), data));
            }
        }
        if let Some(unit) = side.units.iter().find(|u| u.name.value == name) {
            return Some(unit_profile(unit, side_name, None, data));
        }
        // Ch13 4.0: a blind token, its side, where it is deployed and what it hides.
        if let Some(blind) = side.blinds.iter().find(|b| b.name.value == name) {
            let (x, y) = (blind.position.value.x, blind.position.value.y);
            let _ = write!(
                out,
                "**{name}**: blind of {side_name} (Hidden Deployment, Ch13 4.0)\n\nat ({x}, {y})"
            );
            match &blind.brigade {
                Some(brigade) => {
                    let _ = write!(
                        out,
                        "\n\nhides the brigade {}: its units and brigadier stay off the table until it is revealed",
                        brigade.value
                    );
                }
                None => out.push_str("\n\na dummy: it hides nothing, and is removed when revealed"),
            }
            out.push_str(&cited("Ch13 4.0, dotc D27"));
            return Some(out);
        }
    }
    None
}

fn unit_profile(unit: &Unit, side: &str, brigade: Option<&str>, data: &RuleData) -> String {
    let mut out = format!("**{}**: {}, {side}", unit.name.value, unit.kind.word());
    if let Some(brigade) = brigade {
        let _ = write!(out, ", {brigade}");
    }
    let mut strength = Vec::new();
    if let Some(s) = &unit.stands {
        strength.push(format!("{} stands", s.value));
    }
    if let Some(m) = &unit.men {
        strength.push(format!("{} men", m.value));
    }
    if let Some(s) = &unit.sections {
        strength.push(format!("{} sections", s.value));
    }
    strength.extend(unit.words.iter().map(|w| format!("`{}`", w.value)));
    let _ = write!(out, "\n\n{}", strength.join(" · "));
    if let Some(at) = &unit.position {
        let _ = write!(out, "\n\nat ({}, {})", at.value.x, at.value.y);
        if let Some(facing) = &unit.facing {
            match &facing.value {
                dotc_lang::ast::Facing::Degrees(d) => {
                    let _ = write!(out, " facing {d}");
                }
                dotc_lang::ast::Facing::Word(w) => {
                    let _ = write!(out, " facing {w}");
                }
            }
        }
    } else {
        out.push_str("\n\noff the table at the start (a reinforcement)");
    }
    if !unit.traits.is_empty() {
        let traits: Vec<String> = unit.traits.iter().map(|t| format!("`{}`", t.value)).collect();
        let _ = write!(out, "\n\ntraits {}", traits.join(", "));
    }
    if !unit.markers.is_empty() {
        let markers: Vec<String> = unit.markers.iter().map(|t| format!("`{}`", t.value)).collect();
        let _ = write!(out, "\n\nmarkers {}", markers.join(", "));
    }
    for word in &unit.words {
        if let Some(weapon) = data.weapon(&word.value) {
            let _ = write!(out, "\n\n{}", weapon_table(weapon));
        }
    }
    out
}

/// A weapon's range bands and to-hit numbers as a table.
pub fn weapon_table(weapon: &Weapon) -> String {
    let mut out = format!("{}: {}D6 per {}\n\n", weapon.meta.title(), weapon.dice.dice, per_word(weapon));
    out.push_str("| band | range | hits on |\n| --- | --- | --- |\n");
    for band in &weapon.bands {
        let _ = writeln!(out, "| {} | {}-{}\" | {}+ |", band.name.word(), band.from, band.to, band.hits);
    }
    for band in &weapon.cavalry_bands {
        let _ = writeln!(
            out,
            "| {} (cavalry) | {}-{}\" | {}+ |",
            band.name.word(),
            band.from,
            band.to,
            band.hits
        );
    }
    out.trim_end().to_string()
}

fn per_word(weapon: &Weapon) -> &'static str {
    weapon.dice.per.word()
}

/// A unit's stands, health, micro-hit and markers after every event before the end of the
/// cursor's line, from the replay (its [`ReplayView`]).
fn state_at(doc: &Doc, view: &ReplayView, scenario: &ScenarioView<'_>, name: &str, offset: usize) -> String {
    let Some(summary) = view.units.iter().find(|u| u.name == name) else {
        return String::new();
    };
    // None when no event names the unit: then only the moment comes from the events.
    let unit = view.find_name(name);
    let line_end = doc.index.line_start(doc.index.line_of(offset) + 1);
    let mut stands = summary.starting_stands;
    let mut health: Option<&str> = None;
    let mut first_health: Option<&str> = None;
    let mut micro = 0;
    let mut markers: Vec<String> = scenario
        .document
        .scenario
        .iter()
        .flat_map(|s| s.sides.iter())
        .flat_map(|side| side.units.iter().chain(side.brigades.iter().flat_map(|b| b.units.iter())))
        .find(|u| u.name.value == name)
        .map(|u| u.markers.iter().map(|m| m.value.clone()).collect())
        .unwrap_or_default();
    let mut removed = false;
    // The replay may be older than the last edits: the view has each event where it is now.
    for event in unit.iter().flat_map(|&unit| view.events_of(unit)) {
        // An event belongs before the cursor if its action ends by the end of the cursor's
        // line; the end-of-turn events carry the whole turn's span and come after it.
        let Some(span) = event.span() else { continue };
        let before = span.end <= line_end;
        match event.shown {
            Shown::HealthChanged { from, to, .. } => {
                first_health.get_or_insert(from.id());
                if before {
                    health = Some(to.id());
                }
            }
            _ if !before => {}
            Shown::StandsLost { remaining, .. } => stands = remaining,
            Shown::MicroHit { micro_hit, .. } => micro = micro_hit,
            Shown::MarkerPlaced { marker, .. } if !markers.iter().any(|m| m == view.name(marker)) => {
                markers.push(view.name(marker).to_string())
            }
            Shown::MarkerRemoved { marker, .. } => markers.retain(|m| m != view.name(marker)),
            Shown::Removed { .. } | Shown::Shattered { .. } => removed = true,
            _ => {}
        }
    }
    // The moment: that of the last event of any unit before the cursor.
    let moment = view.last_ending_by(line_end).map(|e| (e.turn, e.phase));
    let health = health.or(first_health).unwrap_or(summary.health.as_str());
    let when = match moment {
        Some((turn, phase)) => format!("turn {turn}, {} phase", phase_word(phase)),
        None => "the start of the game".to_string(),
    };
    let mut out = format!("\n\n---\n\nAt this line of the game ({when}): ");
    if removed {
        out.push_str("off the table");
        return out;
    }
    let _ = write!(out, "{stands} of {} stands, {health}", summary.starting_stands);
    if micro > 0 {
        out.push_str(", a micro-hit");
    }
    if !markers.is_empty() {
        let _ = write!(out, "; markers {}", markers.join(", "));
    }
    out
}

fn phase_word(phase: PhaseKind) -> &'static str {
    phase.word()
}

/// A claim word's meaning, when the word at `span` stands in the claim after `=>` on its line:
/// the phrase of its claim item (`attacker wins`, `leader wounded`), or the word alone; and the
/// span of what it explains.
fn claim_hover(doc: &Doc, span: Span) -> Option<(String, Span)> {
    let text = &doc.text;
    let line = doc.index.line_of(span.start);
    let tokens = crate::lex::tokens(text, doc.index.line_start(line), doc.index.line_start(line + 1));
    let punct = |t: &crate::lex::Token, p: &[&str]| {
        t.kind == crate::lex::TokenKind::Punct && p.contains(&t.text(text))
    };
    let at = tokens.iter().position(|t| t.span == span)?;
    // The statement holding the word: from the last `{` or `;` before it.
    let start = tokens[..at].iter().rposition(|t| punct(t, &["{", ";"])).map_or(0, |i| i + 1);
    let arrow = start + tokens[start..at].iter().position(|t| punct(t, &["=>"]))?;
    let verb = tokens[start..arrow]
        .iter()
        .scan(0usize, |depth, t| {
            match t.text(text) {
                "(" if t.kind == crate::lex::TokenKind::Punct => *depth += 1,
                ")" if t.kind == crate::lex::TokenKind::Punct => *depth = depth.saturating_sub(1),
                _ => {}
            }
            Some((*depth, t))
        })
        .find(|(depth, t)| {
            *depth == 0 && t.kind == crate::lex::TokenKind::Word && !t.text(text).starts_with('@')
        })
        .map(|(_, t)| t.text(text));
    // The claim item: between the `,` (or the `=>`) before the word and the `,` (or the end of
    // the statement) after it.
    let from = arrow + 1 + tokens[arrow + 1..at].iter().rposition(|t| punct(t, &[","])).map_or(0, |i| i + 1);
    let to = at + tokens[at..].iter().position(|t| punct(t, &[",", ";", "}"])).unwrap_or(tokens.len() - at);
    let words: Vec<&crate::lex::Token> =
        tokens[from..to].iter().filter(|t| t.kind == crate::lex::TokenKind::Word).collect();
    let phrase = words.iter().map(|t| t.text(text)).collect::<Vec<_>>().join(" ");
    let (word, span) = match claims::claim_word(verb, &phrase) {
        Some(word) => {
            let (first, last) = (words.first()?, words.last()?);
            (word, Span::new(first.span.start, last.span.end))
        }
        None => (claims::claim_word(verb, tokens[at].text(text))?, span),
    };
    let on: Vec<String> = word.on.iter().map(|v| format!("`{v}`")).collect();
    let mut out = format!("**{}** (claim; on {})\n\n{}", word.usage(), on.join(", "), word.meaning);
    if !word.also.is_empty() {
        let also: Vec<String> = word.also.iter().map(|w| format!("`{w}`")).collect();
        let _ = write!(out, "\n\nalso written {}", also.join(", "));
    }
    let _ = write!(out, "\n\nchecked against {}", word.rule);
    out.push_str(&cited(word.rule));
    Some((out, span))
}

/// A word's meaning: a verb, phase, rule-data id, module or ruling.
fn word_hover(doc: &Doc, word: &str) -> Option<String> {
    let data = &doc.analyzed.analysis.rule_data;
    let in_game = doc.analyzed.is_game() || doc.analyzed.analysis.document.kind.is_none();
    if in_game && let Some(spec) = verb_spec(word) {
        let phases: Vec<&str> = spec.phases.iter().map(|p| p.word()).collect();
        let mut out =
            format!("**{}** (log verb; phases: {})\n\n{}", spec.verb, phases.join(", "), spec.summary);
        out.push_str(&cited(spec.rule));
        return Some(out);
    }
    if let Some(phase) = PhaseKind::from_word(word) {
        let mut out = format!("**{word}**: phase {} of a turn (Ch16 1.0)", phase.number());
        out.push_str(&cited("Ch16 1.0"));
        return Some(out);
    }
    if let Some(text) = entry_hover(data, word) {
        return Some(text);
    }
    if let Some(section) = rulings::module(word) {
        let mut out = format!("**{word}**: optional module ({section})");
        out.push_str(&cited(section));
        return Some(out);
    }
    if let Some(ruling) = rulings::ruling(word) {
        let values: Vec<String> = ruling.values.iter().map(|v| format!("`{v}`")).collect();
        let mut out = format!(
            "**{}**: ruling switch ({})\n\n{}\n\nvalues: {} (default first; `as_printed`: `{}`)",
            ruling.name,
            ruling.citation(),
            ruling.summary,
            values.join(", "),
            ruling.as_printed
        );
        out.push_str(&cited(&ruling.citation()));
        return Some(out);
    }
    None
}

/// Every rule-data entry with this id (an id may name entries of several kinds).
fn entry_hover(data: &RuleData, word: &str) -> Option<String> {
    let mut parts = Vec::new();
    for kind in EntryKind::ALL {
        let Some(meta) = data.meta(kind, word) else { continue };
        let mut text = format!("**{}** ({} `{}`)\n\n{}", meta.title(), kind.word(), meta.id, meta.summary);
        if kind == EntryKind::Weapon
            && let Some(weapon) = data.weapon(word)
        {
            let _ = write!(text, "\n\n{}", weapon_table(weapon));
        }
        parts.push(text);
    }
    if parts.is_empty() { None } else { Some(parts.join("\n\n---\n\n")) }
}

/// The summaries of the references a rule string cites (`RULE-05-1.1, Ch16 5.0`).
pub(crate) fn cited(rule: &str) -> String {
    let mut out = String::new();
    for part in rule.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if let Some(reference) = references::lookup(part) {
            let _ = write!(out, "\n\n`{}` {}: {}", reference.id, reference.title, reference.summary);
        }
    }
    out
}

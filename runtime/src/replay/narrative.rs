//! The replay in plain English ([`Replay::narrative`]) and the state at its end ([`Summary`]).

use std::collections::BTreeMap;
use std::fmt::Write;

use dotc_lang::ast::Span;
use serde::Serialize;

use super::{Finding, GameResult, Level, Replay, ReplayEvent, Step};
use crate::engine::events::Event;
use crate::engine::state::GameState;
use crate::engine::{Rules, morale};

/// How the game stands at the end of the replay.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    pub units: Vec<UnitSummary>,
    pub brigades: Vec<BrigadeSummary>,
    /// Each side's victory points at the end: the `vp` of the objectives it holds plus what the
    /// scenario's scripts awarded (see `crate::script::HOLD_RADIUS`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub victory_points: BTreeMap<String, f64>,
    /// The result by the scenario's `victory` block (or a script's `game.end_game`); None when
    /// the replay stopped early or no condition held.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// Batteries taken in melee with the Spiking the Guns module on, and the fate of their guns
    /// (Ch13 15.0).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub guns: Vec<GunsSummary>,
    /// The blinds of Hidden Deployment as a side saw them at the end (Ch13 4.0): only in a
    /// side's view ([`Replay::as_seen_by`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blinds: Vec<super::BlindSummary>,
    /// The leaders the leader casualty table struck (Ch16 2.4), each with his worst result: what
    /// a campaign's officer casualties read (Ch14 4.0, dotc D39).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub leader_casualties: Vec<LeaderCasualtySummary>,
}

/// A leader struck by the leader casualty table (Ch16 2.4) and his worst result of the battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LeaderCasualtySummary {
    pub leader: String,
    /// The stdlib `leader_result` id: `lightly_wounded`, `severely_wounded`, `killed`.
    pub result: String,
}

/// A battery's guns taken in melee and what became of them (Ch13 15.0, dotc D16).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GunsSummary {
    pub battery: String,
    /// The side the guns belong to.
    pub side: String,
    pub taken_by: String,
    pub turn: u32,
    /// `occupied`, `being hauled off`, `spiked`, `hauled off` or `recaptured`.
    pub fate: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnitSummary {
    pub name: String,
    pub stands: u32,
    pub starting_stands: u32,
    pub health: String,
    pub micro_hit: u8,
    /// None for a battery, whose stands are sections.
    pub formation: Option<String>,
    pub markers: Vec<String>,
    pub on_table: bool,
    /// The formation and markers as the rule data titles them ("Assault Column", "Clean
    /// Barrels"), for the text summary; JSON keeps the ids above.
    #[serde(skip)]
    pub shown: Shown,
}

/// A unit's formation and markers by their rule-data titles, for [`Replay::summary`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shown {
    pub formation: Option<String>,
    pub markers: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BrigadeSummary {
    pub name: String,
    pub losses: u32,
    pub starting_stands: u32,
    pub state: String,
    pub pips: u32,
    pub banked: u32,
}

/// A unit's state in one word: its health (Ch16 8.1), `removed`, or for a battery (whose health
/// is no regiment's) `limbered` or `unlimbered`.
pub(super) fn health_word(
    rules: &Rules,
    state: &GameState,
    id: crate::engine::state::UnitId,
) -> &'static str {
    let Some(u) = state.unit(id) else { return "" };
    if u.removed {
        "removed"
    } else if let crate::engine::state::Arm::Battery { limbered } = u.arm {
        if limbered { "limbered" } else { "unlimbered" }
    } else {
        morale::unit_health(rules, state, id).map_or("", |h| h.id())
    }
}

impl Summary {
    pub(super) fn of(state: &GameState, rules: &Rules) -> Summary {
        let units = state
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| {
                let markers: Vec<String> = state
                    .marker_ids(crate::engine::state::UnitId(i))
                    .into_iter()
                    .map(str::to_string)
                    .collect();
                let health = health_word(rules, state, crate::engine::state::UnitId(i)).to_string();
                let formation = (!u.is_battery()).then(|| u.formation.clone());
                let shown = Shown {
                    formation: formation.as_ref().map(|f| {
                        rules.data.formation(f).map_or_else(|| f.clone(), |k| k.meta.title().to_string())
                    }),
                    markers: markers
                        .iter()
                        .map(|m| {
                            rules.data.marker(m).map_or_else(|| m.clone(), |k| k.meta.title().to_string())
                        })
                        .collect(),
                };
                UnitSummary {
                    name: u.name.clone(),
                    stands: u.stands,
                    starting_stands: u.starting_stands,
                    health,
                    micro_hit: u.micro_hit,
                    formation,
                    markers,
                    on_table: u.on_table && !u.removed,
                    shown,
                }
            })
            .collect();
        let brigades = state
            .brigades
            .iter()
            .map(|b| BrigadeSummary {
                name: b.name.clone(),
                losses: b.losses,
                starting_stands: b.starting_stands,
                state: b.status.label().to_string(),
                pips: b.pips,
                banked: b.banked,
            })
            .collect();
        let guns = state
            .guns
            .iter()
            .map(|g| GunsSummary {
                battery: g.battery.clone(),
                side: state.sides.get(g.owner.0).map(|s| s.name.clone()).unwrap_or_default(),
                taken_by: g.taken_by.clone(),
                turn: g.turn,
                fate: g.fate.word().to_string(),
            })
            .collect();
        let leader_casualties = state
            .leaders
            .iter()
            .filter_map(|l| {
                let result = l.casualty.clone()?;
                Some(LeaderCasualtySummary { leader: l.name.clone(), result })
            })
            .collect();
        Summary {
            units,
            brigades,
            victory_points: BTreeMap::new(),
            result: None,
            guns,
            blinds: Vec::new(),
            leader_casualties,
        }
    }
}

impl Replay {
    /// The game turn by turn and phase by phase: each action as the log wrote it, what the rules
    /// made of it, and the findings at it. A replay asked to narrate as it went
    /// ([`super::ReplayOptions::narrate`]) already holds it, and lends it: a 1M-line game's
    /// text is 170 MB, not worth a copy (issue 16).
    pub fn narrative(&self) -> std::borrow::Cow<'_, str> {
        if let Some(text) = &self.narrated {
            return std::borrow::Cow::Borrowed(text);
        }
        let mut out = String::new();
        // A side's view (Ch13 4.0) begins with whose it is and the blinds as that side saw them
        // deployed.
        if let Some(side) = &self.seen_by {
            out.push_str(&self.view_heading(side));
        }
        let mut findings: Vec<_> = self.findings.iter().collect();
        findings.sort_by_key(|f| (f.span.start, f.span.end));
        narrate(&mut out, &self.steps, &self.events, &findings, self.telling);
        std::borrow::Cow::Owned(out)
    }

    /// Each regiment's stands, health and markers; each brigade's tally and state.
    pub fn summary(&self) -> String {
        let mut out = String::from("Units\n");
        for u in &self.summary.units {
            let mut extra = Vec::new();
            if u.micro_hit > 0 {
                extra.push("micro-hit".to_string());
            }
            extra.extend(u.shown.markers.iter().cloned());
            if !u.on_table {
                extra.push("off the table".into());
            }
            let extra = if extra.is_empty() { String::new() } else { format!(", {}", extra.join(", ")) };
            let (what, formation) = match &u.shown.formation {
                Some(f) => ("stands", format!(", {f}")),
                None => ("sections", String::new()),
            };
            let _ = writeln!(
                out,
                "  {}: {} of {} {what}, {}{formation}{extra}",
                u.name, u.stands, u.starting_stands, u.health
            );
        }
        out.push_str("Brigades\n");
        for b in &self.summary.brigades {
            let _ = writeln!(
                out,
                "  {}: {} of {} stands lost, {}, {} pip{}, {} banked",
                b.name,
                b.losses,
                b.starting_stands,
                b.state,
                b.pips,
                if b.pips == 1 { "" } else { "s" },
                b.banked
            );
        }
        if !self.summary.guns.is_empty() {
            out.push_str("Captured guns\n");
            for g in &self.summary.guns {
                let _ = writeln!(
                    out,
                    "  {} ({}): taken by {} in turn {}, {}",
                    g.battery, g.side, g.taken_by, g.turn, g.fate
                );
            }
        }
        if !self.summary.blinds.is_empty() {
            out.push_str("Blinds\n");
            for b in &self.summary.blinds {
                let _ = writeln!(out, "  {b}");
            }
        }
        if !self.summary.victory_points.is_empty() {
            let vp: Vec<String> =
                self.summary.victory_points.iter().map(|(side, vp)| format!("{side} {vp}")).collect();
            let _ = writeln!(out, "Victory points: {}", vp.join(", "));
        }
        if let Some(result) = &self.summary.result {
            match result.unfinished {
                Some(u) => {
                    let _ = writeln!(
                        out,
                        "Result: unfinished, the log stops after turn {} of {}; were the game to end here: {} ({})",
                        u.last_turn, u.turns, result.result, result.by
                    );
                }
                None => {
                    let _ = writeln!(out, "Result: {} ({})", result.result, result.by);
                }
            }
        }
        out
    }
}

/// Write the narrative of `steps` (a stretch of the game from a turn's start, or the whole game)
/// onto `out`: `events` are the events those steps made, in order, and `findings` hold, sorted by
/// span, at least every finding within their actions. What the game header did before turn 1
/// (the bids of Ch13 1.0, Scouting's terrain move, Logistics' marker) comes first, as turn 0.
///
/// Each event is told once, in the order it happened: under the action it belongs to, or, when
/// the rules judged an earlier action of the turn late (a change of formation with no move after
/// it, judged at the phase's end), under the action being played then. An event left over from
/// an earlier turn is told before the next turn's heading, so no event holds up the ones after it.
pub(super) fn narrate(
    out: &mut String,
    steps: &[Step],
    events: &[ReplayEvent],
    findings: &[&Finding],
    telling: Telling,
) {
    let mut events = events.iter().peekable();
    let mut before: Vec<&Event> = Vec::new();
    while let Some(e) = events.next_if(|e| e.turn == 0) {
        before.push(&e.event);
    }
    let told = tell(&before, "", telling, "      ");
    if !told.is_empty() {
        let _ = writeln!(out, "Before the game");
        out.push_str(&told);
    }
    // The spans of the turn's actions told so far: their late events.
    let mut told: Vec<Span> = Vec::new();
    for step in steps {
        match step {
            Step::Turn { number, side } => {
                let mut late: Vec<&Event> = Vec::new();
                while let Some(e) = events.next_if(|e| e.turn < *number) {
                    late.push(&e.event);
                }
                out.push_str(&tell(&late, "", telling, "      "));
                told.clear();
                if !out.is_empty() {
                    out.push('\n');
                }
                let _ = writeln!(out, "Turn {number} ({side})");
            }
            Step::Phase(kind) => {
                let _ = writeln!(out, "  Phase {}, {}", kind.number(), kind.word());
            }
            Step::Action { line, span, text, .. } => {
                // The rules trace heads each action with its line as the log wrote it; the story
                // tells it in sentences alone.
                match (telling, line) {
                    (Telling::Story, _) => {}
                    (Telling::Rules, 0) => {
                        let _ = writeln!(out, "    {text}");
                    }
                    (Telling::Rules, n) => {
                        let _ = writeln!(out, "    line {n}: {text}");
                    }
                }
                told.push(*span);
                let mut its: Vec<&Event> = Vec::new();
                while let Some(e) = events.next_if(|e| e.span == *span || told.contains(&e.span)) {
                    its.push(&e.event);
                }
                let verb = text.split_whitespace().next().unwrap_or("");
                let indent = if telling == Telling::Story { "    " } else { "      " };
                out.push_str(&tell(&its, verb, telling, indent));
                // The findings within the action, found by a binary search of the sorted
                // list: walking the whole list for every action made a long log's
                // narrative quadratic (issue 16; counted as work for src/linear_tests.rs).
                let from = findings.partition_point(|f| f.span.start < span.start);
                let within = findings[from..].iter().take_while(|f| f.span.start <= span.end);
                let mut visited = 0u64;
                for f in within.inspect(|_| visited += 1).filter(|f| f.span.end <= span.end) {
                    let mark = match f.level {
                        Level::Error => "finding",
                        Level::Warning => "warning",
                        Level::Note => "note",
                        Level::Followed => "follows the log",
                    };
                    let rule = if f.rule.is_empty() { String::new() } else { format!(" ({})", f.rule) };
                    match (telling, line) {
                        (Telling::Story, n) if *n > 0 => {
                            let _ = writeln!(out, "    ! {mark} at line {n}: {}{rule}", f.message);
                        }
                        (Telling::Story, _) => {
                            let _ = writeln!(out, "    ! {mark}: {}{rule}", f.message);
                        }
                        (Telling::Rules, _) => {
                            let _ = writeln!(out, "      ! {mark}: {}{rule}", f.message);
                        }
                    }
                }
                dotc_lang::lines::work::add(visited);
            }
            Step::EndOfTurn(turn) => {
                let mut its: Vec<&Event> = Vec::new();
                while let Some(e) = events.next_if(|e| e.span == *turn || told.contains(&e.span)) {
                    its.push(&e.event);
                }
                let indent = if telling == Telling::Story { "    " } else { "      " };
                let said = tell(&its, "", telling, indent);
                if !said.is_empty() {
                    let _ = writeln!(out, "  End of the turn");
                    out.push_str(&said);
                }
            }
            // Said by the action before it.
            Step::Reveal { .. } => {}
        }
    }
    // What is left: events of the last turn told, that no step of it claims.
    let left: Vec<&Event> = events.map(|e| &e.event).collect();
    out.push_str(&tell(&left, "", telling, "      "));
}

/// How the narrative tells the game: every event with its rule, or the story.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Telling {
    /// Each action as the log wrote it, then every event the rules made of it with the rule it
    /// applied (`dotc replay --rules`).
    #[default]
    Rules,
    /// Each action in plain sentences ([`super::story::tell`]): `dotc replay`'s default.
    Story,
}

/// Some events, one line each: as the rules trace says them, or as the story tells them.
fn tell(events: &[&Event], verb: &str, telling: Telling, indent: &str) -> String {
    let mut out = String::new();
    match telling {
        Telling::Rules => {
            for e in events {
                let _ = writeln!(out, "{indent}{e}");
            }
        }
        Telling::Story => {
            for sentence in super::story::tell(events, verb) {
                let _ = writeln!(out, "{indent}{sentence}");
            }
        }
    }
    out
}

//! What the engine tells: typed events, each citing the rule it applied.
//!
//! Every resolution returns a list of [`Event`]s in the order things happened at the table: the
//! dice rolled and what they were for, hits, Shock triggers, tests with the number needed and
//! the die rolled, saves, stands removed, markers placed and removed, health and brigade state
//! changes, leader casualties. Each event names the RULE id, Ch16 section or RULINGS id it
//! applied in `rule`, so a replay or an audit can say *why* as well as *what*.
//!
//! Events serialise to JSON and YAML (insta snapshots of replays); [`Event`]'s `Display` is the
//! one-line English a replay prints.

use std::fmt;

use serde::Serialize;

use crate::dice::Purpose;

/// One thing that happened, and the rule that made it happen.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Event {
    #[serde(flatten)]
    pub what: What,
    /// The RULE id, Ch16 section or RULINGS id applied, e.g. `RULE-05-3.3` or `Ch16 7.4, RULINGS C1`.
    pub rule: &'static str,
}

impl Event {
    pub fn new(what: What, rule: &'static str) -> Event {
        Event { what, rule }
    }
}

/// A named modifier and its value, as applied to a to-hit number, a save, a test or a Shock Score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Modifier {
    /// What it is, in a few words: `disordered`, `gunsmoke`, `fresh`, `stone_wall`...
    pub name: String,
    /// As the table prints it: +1 is a bonus, -1 a penalty.
    pub value: i32,
    pub rule: &'static str,
}

impl Modifier {
    pub fn new(name: impl Into<String>, value: i32, rule: &'static str) -> Modifier {
        Modifier { name: name.into(), value, rule }
    }
}

/// The kinds of test a unit or leader rolls against a target number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TestKind {
    /// The Discipline Save after a Shock trigger (RULE-05-4.2, Ch16 5.5).
    ShockSave,
    /// A Spent unit fired upon (Ch16 8.1, RULINGS G9).
    SpentUnderFire,
    /// A green unit's first unsaved hit or natural 6 (Seen the Elephant, Ch16 9.0, RULINGS C28).
    SeenTheElephant,
    /// The charger's check at the 4" line (Ch16 7.2, RULINGS C7).
    PreContact,
    /// A Rebel Yell charge against green or regular defenders (Ch16 9.0).
    RebelYell,
    /// A column charged with no reserved pip, caught flat-footed (Ch13 18.0, dotc D9).
    FlatFooted,
    /// A Green regiment charged, at the 4" line (Ch13 10.0, RULINGS C28).
    PrematureFire,
    /// Passage of lines (Ch16 3.3, RULINGS C8).
    PassageOfLines,
    /// Any other Discipline check (RULE-07-1.4).
    Discipline,
    /// A natural rally in Phase 5 (RULE-07-3.3, Ch16 8.3).
    NaturalRally,
}

impl TestKind {
    /// The test with its article, for a finding about its die: "the pre-contact check".
    pub fn the_label(self) -> &'static str {
        match self {
            TestKind::ShockSave => "the Shock save",
            TestKind::SpentUnderFire => "the Spent-under-fire check",
            TestKind::SeenTheElephant => "the Seen the Elephant check",
            TestKind::PreContact => "the pre-contact check",
            TestKind::RebelYell => "the Rebel Yell check",
            TestKind::FlatFooted => "the flat-footed check",
            TestKind::PrematureFire => "the premature fire check",
            TestKind::PassageOfLines => "the passage of lines check",
            TestKind::Discipline => "the Discipline check",
            TestKind::NaturalRally => "the natural rally",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            TestKind::ShockSave => "Shock save",
            TestKind::SpentUnderFire => "Spent-under-fire check",
            TestKind::SeenTheElephant => "Seen the Elephant check",
            TestKind::PreContact => "pre-contact check",
            TestKind::RebelYell => "Rebel Yell check",
            TestKind::FlatFooted => "flat-footed check",
            TestKind::PrematureFire => "premature fire check",
            TestKind::PassageOfLines => "passage of lines check",
            TestKind::Discipline => "Discipline check",
            TestKind::NaturalRally => "natural rally",
        }
    }
}

/// A regiment's health state (Ch16 8.1, RULINGS C4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Health {
    Fresh,
    Worn,
    Spent,
    Shattered,
}

impl Health {
    /// The stdlib `health` entry id.
    pub fn id(self) -> &'static str {
        match self {
            Health::Fresh => "fresh",
            Health::Worn => "worn",
            Health::Spent => "spent",
            Health::Shattered => "shattered",
        }
    }
}

/// A brigade's state on the faltering clock (Ch16 8.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BrigadeStatus {
    #[default]
    Fresh,
    Hesitant,
    Broken,
}

impl BrigadeStatus {
    pub fn label(self) -> &'static str {
        match self {
            BrigadeStatus::Fresh => "Fresh",
            BrigadeStatus::Hesitant => "Hesitant",
            BrigadeStatus::Broken => "Broken",
        }
    }

    /// Its name in lower case, as scripts see it: `fresh`, `hesitant`, `broken`.
    pub fn word(self) -> &'static str {
        match self {
            BrigadeStatus::Fresh => "fresh",
            BrigadeStatus::Hesitant => "hesitant",
            BrigadeStatus::Broken => "broken",
        }
    }
}

/// How a melee ended for the attacker (Ch16 7.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MeleeOutcome {
    AttackerWins,
    BloodyDraw,
    DefenderWins,
}

/// What happened. Unit, brigade and leader names are as the scenario writes them.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum What {
    /// Dice handed out by the dice source, with their purpose.
    Rolled {
        #[serde(serialize_with = "purpose_label")]
        purpose: Purpose,
        faces: Vec<u8>,
    },
    /// A volley is declared: its pool and to-hit number after every modifier.
    Volley {
        firer: String,
        target: String,
        band: String,
        range: f64,
        dice: u32,
        /// The to-hit number before modifiers.
        base: i32,
        to_hit: i32,
        modifiers: Vec<Modifier>,
    },
    /// A volley the log gave no to-hit dice for, which the replay therefore did not apply: what
    /// the rules would roll, from the engine's own plan ([`crate::engine::fire::plan_volley`]):
    /// the dice (RULE-05-2.1), the number each needs to hit after every modifier (RULE-05-2.2,
    /// 2.3, Ch16 5.6) and the cover save each hit gets (RULE-05-3.1, Ch16 5.4; None: no save).
    /// Issue 20: the editor shows it on the line before the dice are typed.
    Unrolled {
        firer: String,
        target: String,
        dice: u32,
        to_hit: i32,
        save: Option<i32>,
    },
    /// The to-hit dice and what they scored.
    Hits {
        firer: String,
        faces: Vec<u8>,
        to_hit: i32,
        hits: u32,
        sixes: u32,
    },
    /// A missed die rolled again (Sharpshooters, Ch16 9.0).
    Reroll {
        unit: String,
        from: u8,
        to: u8,
    },
    /// Enough natural 6s for a Shock trigger (RULE-05-4.1).
    ShockTrigger {
        target: String,
        sixes: u32,
        needed: u32,
    },
    /// A Shock trigger a trait ignored (Iron Discipline, Ch16 9.0).
    ShockIgnored {
        target: String,
        because: String,
    },
    /// A test: needed is the target number after modifiers (a die equal or above passes).
    Test {
        unit: String,
        test: TestKind,
        base: i32,
        modifiers: Vec<Modifier>,
        needed: i32,
        rolled: u8,
        /// With Advantage (Ch13 17.0, Desperate Valor): the lower of the two dice, discarded;
        /// `rolled` is the higher.
        #[serde(skip_serializing_if = "Option::is_none")]
        discarded: Option<u8>,
        passed: bool,
    },
    /// Cover saves against the hits.
    Saves {
        unit: String,
        save: i32,
        modifiers: Vec<Modifier>,
        faces: Vec<u8>,
        saved: u32,
        unsaved: u32,
    },
    /// No save against these hits, and why.
    NoSave {
        unit: String,
        hits: u32,
        because: String,
    },
    /// The skirmish screen soaks up an unsaved hit (Ch16 3.4, RULINGS G12).
    ScreenHit {
        unit: String,
        hits: u32,
        removed: bool,
    },
    /// Unsaved hits (or a micro-hit) arriving at a unit.
    UnsavedHits {
        unit: String,
        hits: u32,
        carried: u8,
    },
    /// Stands taken off the table.
    StandsLost {
        unit: String,
        lost: u32,
        remaining: u32,
        /// The enemy unit whose volley or melee took them, where the engine knows it (set by
        /// [`crate::engine::fire`] and [`crate::engine::melee`]; read by the campaign's
        /// experience, Ch14 3.0, dotc D35). Not serialised: a replay's text is unchanged.
        #[serde(skip)]
        by: Option<String>,
    },
    /// The micro-hit marker behind the Color Stand (RULE-05-3.3): now 0 or 1.
    MicroHit {
        unit: String,
        micro_hit: u8,
    },
    /// A regiment down to one stand shatters and its last stand goes (RULE-05-3.4).
    Shattered {
        unit: String,
    },
    /// A unit leaves the table (shattered, routed, overrun, a battery captured).
    Removed {
        unit: String,
        because: String,
    },
    MarkerPlaced {
        unit: String,
        marker: String,
    },
    MarkerRemoved {
        unit: String,
        marker: String,
    },
    HealthChanged {
        unit: String,
        from: Health,
        to: Health,
    },
    /// The brigade's loss tally after a loss (RULE-07-2.2, RULINGS G5).
    Tally {
        brigade: String,
        lost: u32,
        starting: u32,
    },
    BrigadeChanged {
        brigade: String,
        from: BrigadeStatus,
        to: BrigadeStatus,
        lost: u32,
        threshold: u32,
    },
    /// Staff pips lost or spent.
    Pips {
        brigade: String,
        change: i32,
        pips: u32,
        banked: u32,
    },
    /// A unit moves back, directly away from the enemy (the table geometry is the caller's).
    FallBack {
        unit: String,
        inches: f64,
    },
    /// A melee loser retreats.
    Retreat {
        unit: String,
        inches: f64,
    },
    /// A charge stops short of its target (Ch16 7.2, RULINGS G10).
    Stalled {
        unit: String,
        inches: f64,
    },
    /// A charge reaches its target.
    Contact {
        attacker: String,
        defender: String,
        /// The defender's health as the charge came home (Ch16 8.1); None for a battery. Read by
        /// the campaign's experience (Ch14 3.0, dotc D35); not serialised.
        #[serde(skip)]
        defender_health: Option<Health>,
        /// The defender was a formed unit as the charge came home: a regiment or cavalry in a
        /// formation with no gap between its stands and no cover of its own (not a battery, not
        /// open or skirmish order; Ch14 3.0, dotc D35). Not serialised.
        #[serde(skip)]
        defender_formed: bool,
    },
    /// Each side's Shock Score (Ch16 7.3).
    ShockScore {
        unit: String,
        rolled: u8,
        engaged: u32,
        modifiers: Vec<Modifier>,
        score: i32,
    },
    Melee {
        attacker: String,
        defender: String,
        outcome: MeleeOutcome,
        margin: i32,
    },
    /// A unit (or a leader) moved on the table: the inches its path used and the most the rules
    /// allowed it (Ch16 3.1; a leader's ride, Ch16 2.2).
    Moved {
        unit: String,
        /// The verb of the narrative: "moves", or "rides" for a leader.
        how: String,
        used: f64,
        allowance: f64,
    },
    /// The victor's free move (Ch16 7.4).
    Consolidate {
        unit: String,
        inches: f64,
    },
    /// A frenzied victor's forced move straight at the nearest enemy unit or objective, its
    /// Disorder placed at the move's end (Ch13 12.0, dotc D21; the table geometry is the
    /// caller's: [`crate::engine::melee::end_pursuit`]).
    Pursuit {
        unit: String,
        inches: f64,
    },
    /// A Fresh attacker's sweeping advance (Ch16 7.4).
    Breakthrough {
        unit: String,
        inches: f64,
        pips: u32,
    },
    /// The leader casualty roll (Ch16 2.4).
    LeaderCasualty {
        leader: String,
        rolled: u8,
        result: String,
    },
    /// A leader leaves the table; a replacement takes over next turn (RULINGS G18).
    LeaderReplaced {
        leader: String,
        by: String,
        rating: String,
        permanent: bool,
    },
    /// A unit may not do this; the action changes nothing.
    Refused {
        unit: String,
        why: String,
    },
    /// A note on something that did not happen, e.g. no Low Ammo with one natural 1.
    Note {
        text: String,
    },
}

fn purpose_label<S: serde::Serializer>(p: &Purpose, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(p.label())
}

/// A distance for people: at most two decimals, no trailing zeros (`14.08`, `9`, `10.5`).
fn inches(x: f64) -> String {
    let text = format!("{x:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn faces(f: &[u8]) -> String {
    let list: Vec<String> = f.iter().map(u8::to_string).collect();
    format!("[{}]", list.join(", "))
}

/// `1 hit`, `3 hits`: a count and its noun, plural when it is not one.
fn count(n: u32, one: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {one}s") }
}

fn mods(m: &[Modifier]) -> String {
    if m.is_empty() {
        return String::new();
    }
    let list: Vec<String> = m.iter().map(|m| format!("{} {:+}", m.name, m.value)).collect();
    format!(" ({})", list.join(", "))
}

impl fmt::Display for What {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            What::Rolled { purpose, faces: fs } => write!(f, "rolled {purpose} {}", faces(fs)),
            What::Volley { firer, target, band, range, dice, base, to_hit, modifiers }
                if modifiers.is_empty() && base == to_hit =>
            {
                write!(
                    f,
                    "{firer} fires {dice}D6 at {target} ({}\", {band}): hits on {to_hit}+",
                    inches(*range)
                )
            }
            What::Volley { firer, target, band, range, dice, base, to_hit, modifiers } => write!(
                f,
                "{firer} fires {dice}D6 at {target} ({}\", {band}): {base}+ becomes {to_hit}+{}",
                inches(*range),
                mods(modifiers)
            ),
            What::Unrolled { firer, target, dice, to_hit, save } => {
                let save = match save {
                    Some(save) => format!("saves on {save}+"),
                    None => "no save".to_string(),
                };
                write!(
                    f,
                    "{firer} would roll {dice}D6 at {target}: hits on {to_hit}+, {save}; no dice logged"
                )
            }
            What::Hits { firer, faces: fs, to_hit, hits, sixes } => {
                write!(
                    f,
                    "{firer} rolls {} needing {to_hit}+: {}, {}",
                    faces(fs),
                    count(*hits, "hit"),
                    count(*sixes, "natural 6")
                )
            }
            What::Reroll { unit, from, to } => write!(f, "{unit} rolls a missed {from} again: {to}"),
            What::ShockTrigger { target, sixes, needed } => {
                write!(f, "Shock trigger on {target}: {} ({needed} needed)", count(*sixes, "natural 6"))
            }
            What::ShockIgnored { target, because } => {
                write!(f, "{target} ignores the Shock trigger ({because})")
            }
            What::Test { unit, test, base, modifiers, needed, rolled, discarded, passed } => {
                let outcome = if *passed { "passed" } else { "failed" };
                // Ch13 17.0: an advantaged check says which die it kept.
                let rolled = match discarded {
                    Some(low) => format!("{rolled} (Advantage: {low} discarded)"),
                    None => rolled.to_string(),
                };
                if modifiers.is_empty() && base == needed {
                    write!(f, "{unit} {}: needs {needed}+, rolled {rolled}: {outcome}", test.label())
                } else {
                    write!(
                        f,
                        "{unit} {}: {base}+{} becomes {needed}+, rolled {rolled}: {outcome}",
                        test.label(),
                        mods(modifiers)
                    )
                }
            }
            What::Saves { unit, save, modifiers, faces: fs, saved, unsaved } => write!(
                f,
                "{unit} saves on {save}+{}: {} saves {saved}, {unsaved} unsaved",
                mods(modifiers),
                faces(fs)
            ),
            What::NoSave { unit, hits, because } => {
                write!(f, "{unit} has no save against {} ({because})", count(*hits, "hit"))
            }
            What::ScreenHit { unit, hits, removed } => {
                write!(f, "{unit}'s skirmish screen takes a hit ({hits} so far)")?;
                if *removed { write!(f, " and is driven in") } else { Ok(()) }
            }
            What::UnsavedHits { unit, hits, carried } => {
                write!(f, "{unit} takes {} ({carried} carried on the micro-hit)", count(*hits, "unsaved hit"))
            }
            What::StandsLost { unit, lost, remaining, .. } => {
                write!(f, "{unit} loses {lost} stand{}, {remaining} left", if *lost == 1 { "" } else { "s" })
            }
            What::MicroHit { unit, micro_hit } => write!(f, "{unit} micro-hit now {micro_hit}"),
            What::Shattered { unit } => write!(f, "{unit} shatters: its last stand leaves the table"),
            What::Removed { unit, because } => write!(f, "{unit} is removed ({because})"),
            What::MarkerPlaced { unit, marker } => write!(f, "{unit} gets {marker}"),
            What::MarkerRemoved { unit, marker } => write!(f, "{unit} loses {marker}"),
            What::HealthChanged { unit, from, to } => write!(f, "{unit}: {from:?} -> {to:?}"),
            What::Tally { brigade, lost, starting } => {
                write!(f, "{brigade} tally: {lost} of {starting} stands lost")
            }
            What::BrigadeChanged { brigade, from, to, lost, threshold } => write!(
                f,
                "{brigade}: {} -> {} ({lost} lost, threshold {threshold})",
                from.label(),
                to.label()
            ),
            What::Pips { brigade, change, pips, banked } => {
                write!(f, "{brigade} pips {change:+}: {pips} to spend, {banked} banked")
            }
            What::FallBack { unit, inches } => write!(f, "{unit} falls back {inches}\""),
            What::Retreat { unit, inches } => write!(f, "{unit} retreats {inches}\""),
            What::Stalled { unit, inches } => write!(f, "{unit}'s charge stalls {inches}\" short"),
            What::Contact { attacker, defender, .. } => write!(f, "{attacker} charges home into {defender}"),
            What::ShockScore { unit, rolled, engaged, modifiers, score } => write!(
                f,
                "{unit} Shock Score {score}: rolled {rolled} + {engaged} engaged stands{}",
                mods(modifiers)
            ),
            What::Melee { attacker, defender, outcome, margin } => {
                let by = margin.unsigned_abs();
                match outcome {
                    MeleeOutcome::AttackerWins => {
                        write!(f, "melee {attacker} against {defender}: {attacker} wins by {by}")
                    }
                    MeleeOutcome::DefenderWins => {
                        write!(f, "melee {attacker} against {defender}: {defender} wins by {by}")
                    }
                    MeleeOutcome::BloodyDraw => {
                        write!(f, "melee {attacker} against {defender}: a Bloody Draw")
                    }
                }
            }
            What::Moved { unit, how, used, allowance } => {
                write!(f, "{unit} {how} {used:.1}\" of an allowed {allowance:.1}\"")
            }
            What::Consolidate { unit, inches } => write!(f, "{unit} may consolidate {inches}\""),
            What::Pursuit { unit, inches } => {
                write!(f, "{unit} is frenzied: a forced {inches}\" pursuit at the nearest enemy or objective")
            }
            What::Breakthrough { unit, inches, pips } => {
                write!(f, "{unit} may sweep forward {inches}\" for {}", count(*pips, "pip"))
            }
            What::LeaderCasualty { leader, rolled, result } => {
                write!(f, "{leader} leader casualty roll {rolled}: {result}")
            }
            What::LeaderReplaced { leader, by, rating, permanent } => write!(
                f,
                "{leader} leaves the field; {by} takes command as {rating}{}",
                if *permanent { " for good" } else { "" }
            ),
            What::Refused { unit, why } => write!(f, "{unit} may not: {why}"),
            What::Note { text } => f.write_str(text),
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}  [{}]", self.what, self.rule)
    }
}

#[cfg(test)]
mod wording_tests {
    use super::*;

    /// Issue 14: what a player reads has no internal names, no negative margins, no "1 hits"
    /// and no "3+ needs 3+".
    #[test]
    fn wording_a_player_sees_has_plain_counts_outcomes_and_numbers() {
        let said = |what: What| what.to_string();
        let hits = What::Hits { firer: "A".into(), faces: vec![6, 1], to_hit: 4, hits: 1, sixes: 1 };
        assert_eq!(said(hits), "A rolls [6, 1] needing 4+: 1 hit, 1 natural 6");
        let melee =
            |outcome, margin| What::Melee { attacker: "A".into(), defender: "D".into(), outcome, margin };
        assert_eq!(said(melee(MeleeOutcome::DefenderWins, -1)), "melee A against D: D wins by 1");
        assert_eq!(said(melee(MeleeOutcome::AttackerWins, 4)), "melee A against D: A wins by 4");
        assert_eq!(said(melee(MeleeOutcome::BloodyDraw, 0)), "melee A against D: a Bloody Draw");
        let test = What::Test {
            unit: "A".into(),
            test: TestKind::ShockSave,
            base: 3,
            modifiers: Vec::new(),
            needed: 3,
            rolled: 5,
            discarded: None,
            passed: true,
        };
        assert!(said(test).ends_with(": needs 3+, rolled 5: passed"));
        assert_eq!(
            said(What::NoSave { unit: "A".into(), hits: 1, because: "open".into() }),
            "A has no save against 1 hit (open)"
        );
        assert_eq!(
            said(What::Breakthrough { unit: "A".into(), inches: 4.0, pips: 1 }),
            "A may sweep forward 4\" for 1 pip"
        );
    }
}

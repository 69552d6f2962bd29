//! Campaigns (Ch14): battles linked by the post-battle sequence (Ch14 1.0), played by the rules
//! core. [`play`] walks a campaign's battles in order: the units each battle's scenario declares
//! join the roster by name (dotc D33), the battle's log is replayed (the one replay of
//! `crate::replay`), and its `after` block's steps are checked against it: who holds the field
//! (`field`, Ch14 1.0, [`field`]) and each unit's Surgeon's roll (`surgeon`, Ch14 2.0,
//! [`surgeon`]). What the rules give is what the roster carries on with; each step the file gets
//! wrong is a [`Finding`] at its line citing its section.
//!
//! Experience (Ch14 3.0), the officers (4.0) and replacements (5.0) are played by
//! [`experience`], [`staff`] and [`replacements`]. Each battle is fought with the roster as it
//! began ([`Played::before`]): [`order::OrderOfBattle`] (dotc D42-D44), handed to the replay.

pub mod day;
pub mod experience;
pub mod field;
pub mod logged;
#[cfg(test)]
mod logged_tests;
pub mod next;
pub mod order;
#[cfg(test)]
mod order_tests;
pub mod replacements;
pub mod staff;
#[cfg(test)]
mod staff_tests;
pub mod surgeon;
#[cfg(test)]
mod tests;

use dotc_lang::analysis::Analysis;
use dotc_lang::ast::{Battle, Campaign, Span};
use dotc_lang::campaign::{CAMPAIGN_RULINGS, LoadedBattle, Step, campaign_ruling, surgeon_claim};
use dotc_lang::check::starting_stands;
use dotc_lang::library::EntryKind;
use experience::{FeatRulings, Seen, Track, UnitFacts};
use serde::Serialize;
use std::collections::BTreeMap;

use crate::replay::{Finding, Level, ReplayOptions, replay};
use replacements::{DraftTable, DraftWhen};
use staff::{BattleBrigadier, BattleStaff, Casualty, PromotionObjective, StaffTable};
use surgeon::{Field, Prisoners, SurgeonTable, Tally};

/// Stands of a unit in hospital, and the battle (1-based, in the campaign's order) they return
/// for (Ch14 2.0, dotc D34).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hospitalised {
    pub stands: u32,
    pub returns_for: usize,
}

/// A regiment's or battery's campaign state (Ch14): carried from battle to battle by its quoted
/// name (dotc D33).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnitRecord {
    pub name: String,
    pub side: String,
    /// `regiment`, `battery` or `cavalry`.
    pub kind: String,
    /// Stands able to fight.
    pub on_roster: u32,
    /// Stands in hospital, each lot with the battle it returns for (Ch14 2.0).
    pub hospital: Vec<Hospitalised>,
    /// Stands lost for good (the Surgeon's 1s, Ch14 2.0).
    pub lost: u32,
    /// Stands taken prisoner by the side holding the field (Ch14 2.0, dotc D32): lost for good.
    pub captured: u32,
    /// Stands lost in the last battle whose Surgeon's roll is not recorded yet.
    pub awaiting_surgeon: u32,
    /// Campaign experience (Ch14 3.0): a regiment or cavalry battalion joins with its scenario
    /// quality's tier (dotc D37) and earns by its feats; a battery keeps none (0).
    pub xp: u32,
    /// The morale grade: the quality of the tier its XP reaches (Ch14 3.0, dotc D37); a battery
    /// keeps its scenario's quality.
    pub grade: Option<String>,
    /// The traits the campaign gave it: the Army Trait it chose as a Veteran and those its grade
    /// gains (Ch14 3.0, dotc D37).
    pub traits: Vec<String>,
    /// The battle (1-based) the unit joined the campaign in.
    pub joined: usize,
    /// Its starting strength: the stands it joined with, which replacements never exceed
    /// (Ch14 5.0, dotc D41).
    pub strength: u32,
    /// Replacement stands it took in the campaign's drafts (Ch14 5.0).
    pub replacements: u32,
    /// The battle (1-based) it fights diluted, after taking too many recruits in one draft
    /// (Ch14 5.0), and the grade it fights it at.
    pub diluted_for: Option<usize>,
    pub diluted_grade: Option<String>,
}

/// A brigadier's campaign state (Ch14 4.0; played from slice 2 of issue 18 on).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LeaderRecord {
    pub name: String,
    pub side: String,
    pub rating: Option<String>,
    /// The battle (1-based) he is back for, while he misses battles (Ch14 4.0).
    pub back_for: Option<usize>,
    /// The brigade he commands, as his first scenario names it.
    pub brigade: Option<String>,
    /// Who commands his brigade while he is out: the senior colonel, Timid (Ch14 4.0).
    pub commanded_by: Option<StandIn>,
    /// The battle he was killed in (Ch14 4.0): a new brigadier holds his command for good, at
    /// the rating the roll gave ([`LeaderRecord::rating`]), under his name in the roster
    /// (dotc D39).
    pub killed_in: Option<usize>,
    /// A severe wound or death in the last battle whose officer roll is not recorded yet.
    pub awaiting_officer: Option<Casualty>,
    /// The battles after which he was promoted (Ch14 4.0).
    pub promoted_after: Vec<usize>,
    /// The casualties the replays saw, by battle (dotc D39).
    pub casualties: Vec<LeaderCasualty>,
}

/// The officer commanding a brigade in its brigadier's place (Ch14 4.0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StandIn {
    pub name: String,
    pub rating: String,
}

/// A casualty of a brigadier in one battle (Ch14 4.0, dotc D39).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LeaderCasualty {
    pub battle: usize,
    pub casualty: Casualty,
}

/// One battle of the campaign as played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BattleRecord {
    pub number: usize,
    pub name: String,
    /// Whether its log was replayed.
    pub played: bool,
    /// The scenario's result, by its victory conditions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// The side holding the field as the replay gives it (Ch14 1.0, dotc D31); None: nobody.
    pub field: Option<String>,
    /// Whether its post-battle sequence is recorded.
    pub sequence_recorded: bool,
}

/// The campaign's state: the roster after the last recorded step.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CampaignState {
    pub name: String,
    pub battles: Vec<BattleRecord>,
    /// Every unit in the order it joined.
    pub units: Vec<UnitRecord>,
    pub leaders: Vec<LeaderRecord>,
}

/// A campaign played: its state and what the file got wrong.
#[derive(Clone, Debug, Default)]
pub struct Played {
    pub state: CampaignState,
    pub findings: Vec<Finding>,
    /// The roster as each battle began, in the campaign's order: after the stands back from
    /// hospital and the brigadiers back in command, with the units its scenario brought in
    /// (Ch14 1.0). What a battle's order of battle is taken from, and what the editor shows.
    pub before: Vec<Roster>,
    /// The order of battle each battle is fought with (Ch14 1.0, dotc D42), in the campaign's
    /// order (None: its scenario could not be read).
    pub orders: Vec<Option<order::OrderOfBattle>>,
    /// For each battle whose roster changes its scenario, a note at its `scenario` line saying
    /// what (`dotc check`, `dotc audit`; [`note_diagnostic`]).
    pub notes: Vec<Finding>,
    /// The campaign's state after each battle, in the campaign's order: after its replay and its
    /// post-battle sequence, as far as the file records it (a battle of a day not yet over is
    /// followed by `field` alone, its losses awaiting the day's Surgeon, dotc D49). What
    /// `dotc campaign status --after` and `--history` show (issue 19); the last is
    /// [`Played::state`] when the campaign is played to its end.
    pub after: Vec<CampaignState>,
}

/// A note of [`Played::notes`] as a diagnostic: advice, never an error (`dotc::campaign-roster`).
pub fn note_diagnostic(f: &Finding) -> dotc_lang::diagnostic::Diagnostic {
    let mut d = dotc_lang::diagnostic::Diagnostic::error(
        dotc_lang::catalogue::CAMPAIGN_ROSTER,
        f.message.clone(),
        f.span,
        "fought with the roster",
    );
    d.severity = dotc_lang::diagnostic::Severity::Advice;
    d.with_rule(f.rule.clone())
}

/// The roster at one moment of the campaign.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Roster {
    pub units: Vec<UnitRecord>,
    pub leaders: Vec<LeaderRecord>,
}

fn error(span: Span, message: String, rule: &str) -> Finding {
    Finding { span, level: Level::Error, message, rule: rule.to_string(), in_scenario: None }
}

/// The campaign rulings a campaign's `rules` blocks set (the last setting of each counts).
fn prisoners_ruling(campaign: &Campaign) -> Prisoners {
    campaign_ruling(campaign, CAMPAIGN_RULINGS[0].name).and_then(Prisoners::from_word).unwrap_or_default()
}

/// Play a campaign's battles and post-battle sequences (Ch14 1.0, 2.0) from its analysis (a
/// campaign file analysed by `dotc_lang::analysis::analyze`, its battles loaded). A campaign
/// whose analysis has errors is played as far as its battles can be read.
pub fn play(analysis: &Analysis) -> Played {
    play_until(analysis, Stop::Never, None).0
}

/// [`play`], stopped as soon as `cancel` is set (before each battle, and within a battle's
/// replay before each action, `ReplayOptions::cancel`): the language server sets it when the
/// campaign's text changes. None: stopped, what was played is of no use.
pub fn play_cancellable(analysis: &Analysis, cancel: &std::sync::atomic::AtomicBool) -> Option<Played> {
    let played = play_until(analysis, Stop::Never, Some(cancel)).0;
    (!cancel.load(std::sync::atomic::Ordering::Relaxed)).then_some(played)
}

/// Where [`play_until`] stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// Plays the whole campaign.
    Never,
    /// After the replay of the first played battle with no `after` block.
    AtDue,
    /// After the replay of battle N (1-based), before its `after` block is played, if it has
    /// one and its log was played: what `campaign next` completes a written block from.
    Before(usize),
    /// Once battle N's (1-based) order of battle is made, before its log is replayed: what a
    /// game log that names that battle is fought with ([`logged`], Ch14 1.0).
    OrderOf(usize),
}

/// Play a campaign as [`play`] does, as far as `stop` says, and return what the post-battle
/// sequence of the battle it stopped at needs (the roster then holds its losses awaiting the
/// Surgeon), for [`next::next_steps`].
pub(crate) fn play_until(
    analysis: &Analysis,
    stop: Stop,
    cancel: Option<&std::sync::atomic::AtomicBool>,
) -> (Played, Option<next::Pending>) {
    let mut played = Played::default();
    let Some(campaign) = &analysis.document.campaign else { return (played, None) };
    played.state.name = campaign.name.value.clone();
    let table = match SurgeonTable::from_rule_data(dotc_lang::stdlib()) {
        Ok(table) => table,
        Err(message) => {
            played.findings.push(error(campaign.name.span, message, "Ch14 2.0"));
            return (played, None);
        }
    };
    let prisoners = prisoners_ruling(campaign);
    let track = match Track::from_rule_data(dotc_lang::stdlib()) {
        Ok(track) => track,
        Err(message) => {
            played.findings.push(error(campaign.name.span, message, "Ch14 3.0"));
            return (played, None);
        }
    };
    let xp = Xp { track: &track, rulings: feat_rulings(campaign) };
    // dotc D43: a regiment's health counts from the stands it takes the field with, or from the
    // strength it joined with (`roster_health = depleted`); the last setting counts.
    let depleted = campaign_ruling(campaign, "roster_health") == Some("depleted");
    let staff = StaffRules::of(campaign, &mut played.findings);
    // dotc D49: which battles end their day, and what the day's earlier battles carry.
    let days = day::Days::of(campaign, analysis);
    let mut carried = day::Day::default();
    for (i, battle) in campaign.battles.iter().enumerate() {
        if cancel.is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed)) {
            break;
        }
        let loaded = analysis.battles.get(i);
        let rules = StepRules {
            surgeon: &table,
            prisoners,
            xp: &xp,
            staff: staff.as_ref(),
            depleted,
            cancel,
            days: &days,
        };
        let pending = play_battle(&mut played, i + 1, battle, loaded, &rules, &mut carried, stop);
        if stop == Stop::OrderOf(i + 1) {
            break;
        }
        played.after.push(played.state.clone());
        if let Some(pending) = pending
            && (stop == Stop::AtDue || stop == Stop::Before(i + 1))
        {
            return (played, Some(pending));
        }
    }
    (played, None)
}

/// The experience track and the campaign's rulings on the feats (Ch14 3.0, dotc D35, D36).
struct Xp<'t> {
    track: &'t Track,
    rulings: FeatRulings,
}

/// The campaign's rulings on the feats (dotc D35, D36): the last setting of each counts.
fn feat_rulings(campaign: &Campaign) -> FeatRulings {
    let value = |name: &str| campaign_ruling(campaign, name);
    FeatRulings {
        breaks_only_when_removed: value("xp_charge_breaks") == Some("removed"),
        held_within_a_turn: value("xp_held_attacks") == Some("turn"),
        each_time: value("xp_repeat_feat") == Some("each"),
    }
}

/// The rules of steps 4 and the draft (Ch14 4.0, 5.0): the rule data's tables and the campaign's
/// rulings `promotion_objective` (dotc D38) and `replacements` (dotc D40).
pub struct StaffRules {
    pub staff: StaffTable,
    pub draft: DraftTable,
    pub objective: PromotionObjective,
    pub when: DraftWhen,
}

impl StaffRules {
    fn of(campaign: &Campaign, findings: &mut Vec<Finding>) -> Option<StaffRules> {
        let staff = StaffTable::from_rule_data(dotc_lang::stdlib())
            .map_err(|m| findings.push(error(campaign.name.span, m, "Ch14 4.0")))
            .ok()?;
        let draft = DraftTable::from_rule_data(dotc_lang::stdlib())
            .map_err(|m| findings.push(error(campaign.name.span, m, "Ch14 5.0")))
            .ok()?;
        let objective = campaign_ruling(campaign, "promotion_objective")
            .and_then(PromotionObjective::from_word)
            .unwrap_or_default();
        let when =
            campaign_ruling(campaign, "replacements").and_then(DraftWhen::from_word).unwrap_or_default();
        Some(StaffRules { staff, draft, objective, when })
    }
}

/// What plays the post-battle steps: the rule data's tables and the campaign's rulings.
struct StepRules<'a> {
    surgeon: &'a SurgeonTable,
    prisoners: Prisoners,
    xp: &'a Xp<'a>,
    staff: Option<&'a StaffRules>,
    /// `roster_health = depleted` (dotc D43).
    depleted: bool,
    /// Stop the battles' replays when set ([`play_cancellable`]).
    cancel: Option<&'a std::sync::atomic::AtomicBool>,
    /// Which battles end their day (`same_day`, dotc D49).
    days: &'a day::Days,
}

fn play_battle(
    played: &mut Played,
    number: usize,
    battle: &Battle,
    loaded: Option<&LoadedBattle>,
    rules: &StepRules<'_>,
    carried: &mut day::Day,
    stop: Stop,
) -> Option<next::Pending> {
    let stop_before = stop == Stop::Before(number);
    let (table, prisoners, xp, staff_rules) = (rules.surgeon, rules.prisoners, rules.xp, rules.staff);
    let state = &mut played.state;
    // The battle's units as its scenario gives them, for the feats (Ch14 3.0).
    let mut facts: BTreeMap<String, UnitFacts> = BTreeMap::new();
    back_from_hospital(&mut state.units, number);
    back_to_command(&mut state.leaders, &mut state.units, number);
    let mut battle_staff = BattleStaff::default();
    let mut record = BattleRecord {
        number,
        name: battle.name.value.clone(),
        played: false,
        result: None,
        field: None,
        sequence_recorded: battle.after.is_some(),
    };
    let scenario = loaded.and_then(|l| l.scenario.as_deref());
    // The units the scenario declares join by name; those already on the roster keep their
    // state (dotc D33).
    let mut sides: Vec<&str> = Vec::new();
    if let Some(loaded) = scenario
        && let Some(s) = &loaded.document.scenario
    {
        let per = s.men_per_stand.as_ref().map(|m| m.value);
        for side in &s.sides {
            sides.push(side.id.value.as_str());
            for brigade in &side.brigades {
                for b in &brigade.brigadiers {
                    battle_staff.brigadiers.push(BattleBrigadier {
                        name: b.name.value.clone(),
                        side: side.id.value.clone(),
                        brigade: brigade.name.value.clone(),
                        colonel: b.replacement_name(),
                    });
                    if !state.leaders.iter().any(|l| l.name == b.name.value) {
                        state.leaders.push(LeaderRecord {
                            name: b.name.value.clone(),
                            side: side.id.value.clone(),
                            rating: b.rating.as_ref().map(|r| r.value.clone()),
                            back_for: None,
                            brigade: Some(brigade.name.value.clone()),
                            commanded_by: None,
                            killed_in: None,
                            awaiting_officer: None,
                            promoted_after: Vec::new(),
                            casualties: Vec::new(),
                        });
                    }
                }
            }
            let units = side.brigades.iter().flat_map(|b| b.units.iter()).chain(side.units.iter());
            for unit in units {
                let grade = unit
                    .words
                    .iter()
                    .find(|w| loaded.rule_data.contains(EntryKind::Quality, &w.value))
                    .map(|w| w.value.clone());
                facts.insert(
                    unit.name.value.clone(),
                    UnitFacts {
                        side: side.id.value.clone(),
                        kind: unit.kind.word().to_string(),
                        quality: grade.clone(),
                    },
                );
                if state.units.iter().any(|u| u.name == unit.name.value) {
                    continue;
                }
                let stands = starting_stands(unit, per).map_or(0, |s| s.max(0.0).round() as u32);
                // A regiment or cavalry battalion joins with its quality's tier (dotc D37).
                let tracked = unit.kind.word() != "battery";
                let joined_xp = grade.as_deref().filter(|_| tracked).and_then(|q| xp.track.xp_of(q));
                state.units.push(UnitRecord {
                    name: unit.name.value.clone(),
                    side: side.id.value.clone(),
                    kind: unit.kind.word().to_string(),
                    on_roster: stands,
                    hospital: Vec::new(),
                    lost: 0,
                    captured: 0,
                    awaiting_surgeon: 0,
                    xp: joined_xp.unwrap_or(0),
                    traits: joined_xp.map(|x| xp.track.gained(x)).unwrap_or_default(),
                    grade,
                    joined: number,
                    strength: stands,
                    replacements: 0,
                    diluted_for: None,
                    diluted_grade: None,
                });
            }
        }
    }
    played.before.push(Roster { units: state.units.clone(), leaders: state.leaders.clone() });
    // The order of battle it is fought with (Ch14 1.0, dotc D42), said at its `scenario` line.
    let order = scenario.and_then(|l| {
        let s = l.document.scenario.as_ref()?;
        played
            .before
            .last()
            .map(|roster| order::OrderOfBattle::of(roster, s, &l.rule_data, number, rules.depleted))
    });
    if let Some(order) = &order {
        for u in &order.units {
            if let Some(f) = facts.get_mut(&u.name) {
                f.quality = u.grade.clone();
            }
        }
        let changes = order.changes();
        if let Some(at) = battle.scenario.as_ref().filter(|_| !changes.is_empty()) {
            played.notes.push(Finding {
                span: at.span,
                level: Level::Note,
                message: format!(
                    "battle {number} \"{}\" is fought with the roster: {}",
                    battle.name.value,
                    changes.join("; ")
                ),
                rule: order.rule(),
                in_scenario: None,
            });
        }
    }
    played.orders.push(order);
    let state = &mut played.state;
    if stop == Stop::OrderOf(number) {
        state.battles.push(record);
        return None;
    }
    let log = loaded.and_then(|l| l.log.as_deref());
    let Some(log) = log.filter(|log| !log.has_errors() && scenario.is_some()) else {
        state.battles.push(record);
        return None;
    };
    // The battle's log, replayed (Ch14 1.0: the sequence follows the battle as played).
    // The whole replay, its events kept: experience reads them (Ch14 3.0).
    let options = ReplayOptions {
        order_of_battle: played.orders.last().and_then(Option::as_ref),
        cancel: rules.cancel,
        ..ReplayOptions::default()
    };
    let replayed = replay(log, &options);
    let errors = replayed.findings.iter().filter(|f| f.level == Level::Error).count();
    if errors > 0
        && let Some(path) = &battle.log
    {
        played.findings.push(Finding {
            span: path.span,
            level: Level::Warning,
            message: format!(
                "the log \"{}\" does not audit clean ({errors} error{}); the campaign goes on from its replay",
                path.value,
                if errors == 1 { "" } else { "s" }
            ),
            rule: "Ch14 1.0".to_string(),
            in_scenario: None,
        });
    }
    let summary = &replayed.summary;
    record.played = true;
    record.result = summary.result.as_ref().map(|r| r.result.clone());
    record.field = field::holder(summary, &sides);
    // The stands each unit lost in the battle: its stands at the start less at the end
    // (dotc D33).
    // Under `roster_health = depleted` the stands it was short at the start count in its
    // starting stands but were not lost in this battle (dotc D43).
    let order = played.orders.last().and_then(Option::as_ref);
    let short =
        |name: &str| order.and_then(|o| o.units.iter().find(|u| u.name == name)).map_or(0, |u| u.short);
    let losses: Vec<(String, u32)> = summary
        .units
        .iter()
        .map(|u| (u.name.clone(), u.starting_stands.saturating_sub(u.stands).saturating_sub(short(&u.name))))
        .collect();
    for (name, lost) in &losses {
        if let Some(unit) = state.units.iter_mut().find(|u| &u.name == name) {
            unit.on_roster = unit.on_roster.saturating_sub(*lost);
            // What the day's earlier battles cost waits for the Surgeon too (dotc D49).
            unit.awaiting_surgeon = carried.carried(name) + *lost;
        }
    }
    let holder = record.field.clone();
    state.battles.push(record);
    // The feats of every regiment and cavalry battalion, from the replay (Ch14 3.0, dotc D35).
    let seen = experience::seen(&replayed.events, &facts, xp.track.elite(), xp.rulings);
    if let Some(rules) = staff_rules {
        staff_after_replay(&mut state.leaders, &mut battle_staff, summary, number, &holder, &rules.staff);
    }
    // dotc D49: a battle followed by another of its day is linked to it by `field` alone; what
    // it cost is carried to the day's last battle.
    if let Some(day_end) = rules.days.mid_day(number) {
        carried.add(&losses, &seen, &battle_staff);
        if let Some(rules) = staff_rules {
            day::out_for_the_day(&mut state.leaders, &battle_staff, day_end + 1, &rules.staff.stand_in);
        }
        if let Some(after) = &battle.after
            && !stop_before
        {
            day::play_mid_day(played, number, day_end, after, holder.as_deref(), rules.days);
            return None;
        }
        return Some(next::Pending {
            number,
            holder,
            sides: sides.iter().map(|s| s.to_string()).collect(),
            losses: Vec::new(),
            seen: BTreeMap::new(),
            battle_staff,
            prisoners,
            feat_rulings: xp.rulings,
            mid_day: true,
        });
    }
    let (losses, seen, battle_staff) = carried.end(losses, seen, battle_staff);
    if let Some(after) = &battle.after
        && !stop_before
    {
        play_after(played, number, after, holder.as_deref(), &losses, table, prisoners);
        play_experience(played, after, &seen, xp);
        if let Some(rules) = staff_rules {
            play_staff_after(played, number, after, &battle_staff, rules, &sides);
        }
        return None;
    }
    Some(next::Pending {
        number,
        holder,
        sides: sides.iter().map(|s| s.to_string()).collect(),
        losses,
        seen,
        battle_staff,
        prisoners,
        feat_rulings: xp.rulings,
        mid_day: false,
    })
}

/// Before battle `number`: brigadiers whose time out is over take their brigades back from the
/// colonels (Ch14 4.0), and a dilution that was for an earlier battle is over (Ch14 5.0).
fn back_to_command(leaders: &mut [LeaderRecord], units: &mut [UnitRecord], number: usize) {
    for leader in leaders {
        if leader.back_for.is_some_and(|b| b <= number) {
            leader.back_for = None;
            leader.commanded_by = None;
        }
    }
    for unit in units {
        if unit.diluted_for.is_some_and(|b| b < number) {
            unit.diluted_for = None;
            unit.diluted_grade = None;
        }
    }
}

/// The battle's leader casualties as the replay left them (Ch16 2.4), turned into Ch14 4.0's
/// (dotc D39) for the brigadiers in command; who was out (a colonel fought under his name).
fn staff_after_replay(
    leaders: &mut [LeaderRecord],
    battle_staff: &mut BattleStaff,
    summary: &crate::replay::Summary,
    number: usize,
    holder: &Option<String>,
    table: &StaffTable,
) {
    battle_staff.holder = holder.clone();
    battle_staff.broken = summary
        .brigades
        .iter()
        .filter(|b| b.state.eq_ignore_ascii_case("broken"))
        .map(|b| b.name.clone())
        .collect();
    for b in &battle_staff.brigadiers {
        let Some(leader) = leaders.iter_mut().find(|l| l.name == b.name) else { continue };
        if leader.back_for.is_some_and(|back| back > number) {
            battle_staff.absent.push(b.name.clone());
            continue;
        }
        let Some(hit) = summary.leader_casualties.iter().find(|c| c.leader == b.name) else { continue };
        let casualty = table.casualty(&hit.result);
        battle_staff.casualties.push((b.name.clone(), casualty));
        leader.casualties.push(LeaderCasualty { battle: number, casualty });
        if casualty != Casualty::Light {
            leader.awaiting_officer = Some(casualty);
        }
    }
}

/// Step 4 and the draft of one `after` block (Ch14 4.0, 5.0): each `promotion`, `officer` and
/// `replacements` line against the replay and the roster, then the lines the block lacks.
fn play_staff_after(
    played: &mut Played,
    number: usize,
    after: &dotc_lang::ast::After,
    battle_staff: &BattleStaff,
    rules: &StaffRules,
    sides: &[&str],
) {
    let mut promoted: Vec<String> = Vec::new();
    let mut officers: Vec<String> = Vec::new();
    let mut drafts: Vec<String> = Vec::new();
    for action in &after.steps {
        let Ok(step) = Step::read(action) else { continue };
        match step {
            Step::Promotion { leader, roll, claim } => {
                promoted.push(leader.value.clone());
                let step = staff::LeaderStep { action, leader, roll, claim };
                staff::play_promotion(played, number, step, battle_staff, rules);
            }
            Step::Officer { leader, roll, claim } => {
                officers.push(leader.value.clone());
                let step = staff::LeaderStep { action, leader, roll, claim };
                staff::play_officer(played, number, step, battle_staff, rules);
            }
            Step::Replacements { side, roll, claim, action } => {
                drafts.push(side.value.clone());
                replacements::play_draft(played, number, action, side, roll, claim, rules);
            }
            Step::Field { .. } | Step::Surgeon { .. } | Step::Experience { .. } | Step::Trait { .. } => {}
        }
    }
    staff::missing_lines(played, after, battle_staff, rules, &promoted, &officers);
    replacements::missing_drafts(played, after, rules.when, sides, &drafts);
}

/// A `field` step against the side the replay gives the field (Ch14 1.0, dotc D31).
fn check_field(played: &mut Played, side: &dotc_lang::ast::Ident, holder: Option<&str>) {
    let claimed = (side.value != "none").then_some(side.value.as_str());
    if claimed != holder {
        let says = holder.map_or("nobody holds the field".to_string(), |h| format!("{h} holds the field"));
        played.findings.push(error(
            side.span,
            format!(
                "the replay of the battle says {says} (the scenario's victory conditions), not {}",
                claimed.map_or("nobody".to_string(), str::to_string)
            ),
            "Ch14 1.0, dotc D31",
        ));
    }
}

/// The steps of one `after` block against the replay (Ch14 1.0, 2.0).
fn play_after(
    played: &mut Played,
    number: usize,
    after: &dotc_lang::ast::After,
    holder: Option<&str>,
    losses: &[(String, u32)],
    table: &SurgeonTable,
    prisoners: Prisoners,
) {
    let mut rolled: Vec<&str> = Vec::new();
    for action in &after.steps {
        let Ok(step) = Step::read(action) else { continue };
        match step {
            Step::Field { side } => check_field(played, side, holder),
            Step::Surgeon { unit, roll, claim } => {
                rolled.push(unit.value.as_str());
                let lost = losses.iter().find(|(n, _)| *n == unit.value).map_or(0, |(_, l)| *l);
                let Some(record) = played.state.units.iter_mut().find(|u| u.name == unit.value) else {
                    continue;
                };
                let side = record.side.clone();
                let field = match holder {
                    Some(h) if h == side => Field::Ours,
                    Some(_) => Field::Theirs,
                    None => Field::Nobody,
                };
                let dice = roll.map(|r| r.dice.value.as_slice()).unwrap_or_default();
                let at = roll.map_or(action.span, |r| r.span);
                if let Some(bad) = dice.iter().find(|d| !(1..=6).contains(&d.value)) {
                    played.findings.push(error(
                        bad.span,
                        format!("a d6 shows 1 to 6, not {}", bad.value),
                        "Ch14 2.0",
                    ));
                    continue;
                }
                let faces: Vec<u8> = dice.iter().take(lost as usize).map(|d| d.value as u8).collect();
                if dice.len() != lost as usize {
                    let what = if dice.len() < lost as usize { "too few" } else { "too many" };
                    played.findings.push(error(
                        at,
                        format!(
                            "{what} dice: \"{}\" lost {lost} stand{} in the battle, one Surgeon's die each, but {} {} rolled{}",
                            unit.value,
                            if lost == 1 { "" } else { "s" },
                            dice.len(),
                            if dice.len() == 1 { "was" } else { "were" },
                            if dice.len() < lost as usize {
                                "; the stands not rolled for stay off the roster"
                            } else {
                                ""
                            }
                        ),
                        "Ch14 2.0",
                    ));
                }
                let tally = surgeon::roll(table, &faces, field, prisoners);
                if let Some(claim) = claim
                    && let Ok(said) = surgeon_claim(claim)
                {
                    let said = Tally {
                        returns: said.returns.unwrap_or(0),
                        hospital: said.hospital.unwrap_or(0),
                        lost: said.lost.unwrap_or(0),
                        captured: said.captured.unwrap_or(0),
                    };
                    if said != tally && dice.len() == lost as usize {
                        played.findings.push(error(
                            claim.span,
                            format!(
                                "the dice give {} ({}), not {}",
                                tally.claim_text(),
                                explain_roll(table, field, prisoners, &side, holder),
                                said.claim_text()
                            ),
                            "Ch14 2.0",
                        ));
                    }
                }
                apply(record, number, &tally, lost, table);
            }
            // Step 3 is played by `play_experience` (Ch14 3.0).
            Step::Experience { .. } | Step::Trait { .. } => {}
            // Step 4 and the draft: `play_staff_after` (Ch14 4.0, 5.0).
            Step::Promotion { .. } | Step::Officer { .. } | Step::Replacements { .. } => {}
        }
    }
    for (name, lost) in losses {
        if *lost > 0 && !rolled.contains(&name.as_str()) {
            played.findings.push(error(
                after.span,
                format!(
                    "no Surgeon's roll for \"{name}\", which lost {lost} stand{} in the battle: add `surgeon \"{name}\" roll [{}] => ...`",
                    if *lost == 1 { "" } else { "s" },
                    vec!["_"; *lost as usize].join(", ")
                ),
                "Ch14 2.0",
            ));
        }
    }
}

/// Step 3, regimental experience (Ch14 3.0, dotc D35-D37): each `experience` line against the
/// feats the replay saw, each `trait` line against the unit's grade; then every unit that earned
/// XP by the replay and has no `experience` line. The roster takes the XP the rules give.
fn play_experience(
    played: &mut Played,
    after: &dotc_lang::ast::After,
    seen: &BTreeMap<String, Seen>,
    xp: &Xp<'_>,
) {
    let track = xp.track;
    let none = Seen::default();
    let mut written: Vec<&str> = Vec::new();
    for action in &after.steps {
        let Ok(step) = Step::read(action) else { continue };
        match step {
            Step::Experience { unit, feats, claim } => {
                written.push(unit.value.as_str());
                let Some(record) = played.state.units.iter_mut().find(|u| u.name == unit.value) else {
                    continue;
                };
                if record.kind == "battery" {
                    played.findings.push(error(
                        unit.span,
                        format!("\"{}\" is a battery: only regiments and cavalry battalions keep an experience track", unit.value),
                        "Ch14 3.0",
                    ));
                    continue;
                }
                let saw = seen.get(&unit.value).unwrap_or(&none);
                let done = saw.feats(track, xp.rulings);
                let before = record.xp;
                let rules_xp = track.after_battle(before, done.iter().sum());
                // Each feat claimed must be one the replay saw, as often as it is claimed.
                let mut claimed = [0u32; 3];
                let mut unseen = false;
                for feat in dotc_lang::campaign::feat_words(feats) {
                    let Some(i) = dotc_lang::campaign::FEATS.iter().position(|(w, _)| *w == feat.value)
                    else {
                        continue;
                    };
                    claimed[i] += 1;
                    if claimed[i] > done[i] {
                        unseen = true;
                        let message = if done[i] > 0 && !xp.rulings.each_time {
                            format!(
                                "`{}` earns once a battle (dotc D36, xp_repeat_feat = once); the replay saw: {}",
                                feat.value,
                                saw.describe()
                            )
                        } else {
                            format!(
                                "the replay of the battle did not see \"{}\" do `{}` ({}){}; it saw: {}",
                                unit.value,
                                feat.value,
                                dotc_lang::campaign::FEATS[i].1,
                                if claimed[i] > 1 { " that often" } else { "" },
                                saw.describe()
                            )
                        };
                        played.findings.push(error(feat.span, message, "Ch14 3.0, dotc D35"));
                    }
                }
                let said = claim.and_then(|c| dotc_lang::campaign::experience_claim(c).ok());
                if let Some(said) = said
                    && let Some(claimed_xp) = said.xp
                    && let Some(claim) = claim
                {
                    if claimed_xp > track.max_xp {
                        played.findings.push(error(
                            claim.span,
                            format!("the experience track ends at {} XP, not {claimed_xp}", track.max_xp),
                            "Ch14 3.0",
                        ));
                    } else if claimed_xp > before + track.per_battle {
                        played.findings.push(error(
                            claim.span,
                            format!(
                                "at most {} XP a battle: \"{}\" had {before}, so {} at most, not {claimed_xp}",
                                track.per_battle,
                                unit.value,
                                (before + track.per_battle).min(track.max_xp)
                            ),
                            "Ch14 3.0",
                        ));
                    } else if claimed_xp != rules_xp && !unseen {
                        played.findings.push(error(
                            claim.span,
                            format!(
                                "\"{}\" had {before} XP and the replay saw: {}; that is {} feat(s), so xp {rules_xp}, not {claimed_xp}",
                                unit.value,
                                saw.describe(),
                                done.iter().sum::<u32>()
                            ),
                            "Ch14 3.0, dotc D36",
                        ));
                    }
                    if let Some(grade) = &said.grade
                        && Some(grade.as_str()) != track.grade(rules_xp)
                    {
                        played.findings.push(error(
                            claim.span,
                            format!(
                                "{rules_xp} XP is the grade {}, not {grade}",
                                track.grade(rules_xp).unwrap_or("-")
                            ),
                            "Ch14 3.0, dotc D37",
                        ));
                    }
                }
                promote(record, rules_xp, track);
            }
            Step::Trait { unit, chosen } => {
                let Some(record) = played.state.units.iter_mut().find(|u| u.name == unit.value) else {
                    continue;
                };
                let all: Vec<&String> = track.choose.iter().flat_map(|(_, ts)| ts).collect();
                let open = track.choosable(record.xp);
                let may: Vec<&String> = open.iter().flat_map(|(_, ts)| ts.iter()).collect();
                let first_grade = track.choose.first().map_or("", |(q, _)| q.as_str());
                if let Some(had) = record.traits.iter().find(|t| all.contains(t)) {
                    played.findings.push(error(
                        action.span,
                        format!("\"{}\" already chose its Army Trait ({had}): one only", unit.value),
                        "Ch14 3.0, dotc D37",
                    ));
                } else if record.kind == "battery" || may.is_empty() {
                    played.findings.push(error(
                        action.span,
                        format!(
                            "\"{}\" is {} with {} XP: only a {first_grade} or better regiment chooses an Army Trait",
                            unit.value,
                            record.grade.as_deref().unwrap_or("ungraded"),
                            record.xp
                        ),
                        "Ch14 3.0, dotc D37",
                    ));
                } else if !may.contains(&&chosen.value) {
                    let names: Vec<&str> = may.iter().map(|s| s.as_str()).collect();
                    played.findings.push(error(
                        chosen.span,
                        format!(
                            "`{}` is no trait a {first_grade} may choose: {}",
                            chosen.value,
                            names.join(" or ")
                        ),
                        "Ch14 3.0, dotc D37",
                    ));
                } else {
                    record.traits.push(chosen.value.clone());
                }
            }
            _ => {}
        }
    }
    for (name, saw) in seen {
        let done: u32 = saw.feats(xp.track, xp.rulings).iter().sum();
        if done == 0 || written.contains(&name.as_str()) {
            continue;
        }
        let Some(record) = played.state.units.iter_mut().find(|u| &u.name == name) else { continue };
        let now = track.after_battle(record.xp, done);
        if now == record.xp {
            continue;
        }
        let feats: Vec<&str> = saw
            .feats(xp.track, xp.rulings)
            .iter()
            .zip(dotc_lang::campaign::FEATS)
            .flat_map(|(n, (w, _))| std::iter::repeat_n(*w, *n as usize))
            .collect();
        played.findings.push(error(
            after.span,
            format!(
                "no experience line for \"{name}\", whose feats the replay saw ({}): add `experience \"{name}\" {} => xp {now}`",
                saw.describe(),
                feats.join(" ")
            ),
            "Ch14 3.0",
        ));
        promote(record, now, track);
    }
}

/// A unit's XP after the battle and the grade and traits it gives (Ch14 3.0, dotc D37).
fn promote(record: &mut UnitRecord, xp: u32, track: &Track) {
    record.xp = xp;
    if let Some(grade) = track.grade(xp) {
        record.grade = Some(grade.to_string());
    }
    for t in track.gained(xp) {
        if !record.traits.contains(&t) {
            record.traits.push(t);
        }
    }
}

/// How the roll was read, for a finding: the thresholds, the field's bonus, the prisoners.
fn explain_roll(
    table: &SurgeonTable,
    field: Field,
    prisoners: Prisoners,
    side: &str,
    holder: Option<&str>,
) -> String {
    let returns = match field {
        Field::Ours => format!(
            "{side} holds the field: {:+} to each die, so {}+ returns",
            table.field_bonus,
            i64::from(table.returns) - i64::from(table.field_bonus)
        ),
        _ => format!("{}+ returns", table.returns),
    };
    let captured = match (field, prisoners) {
        (Field::Theirs, Prisoners::Returners) => {
            format!(
                ", and {} holds the field: those that would return are captured (dotc D32)",
                holder.unwrap_or("")
            )
        }
        (Field::Theirs, Prisoners::All) => {
            format!(", and {} holds the field: every survivor is captured (dotc D32)", holder.unwrap_or(""))
        }
        _ => String::new(),
    };
    format!("{returns}, {}+ hospital, below it lost{captured}", table.hospital)
}

/// The stands whose hospital stay ends come back to the roster before battle `number`
/// (Ch14 2.0, dotc D34), whether or not their unit fights in it.
fn back_from_hospital(units: &mut [UnitRecord], number: usize) {
    for unit in units {
        let back: u32 = unit.hospital.iter().filter(|h| h.returns_for <= number).map(|h| h.stands).sum();
        unit.hospital.retain(|h| h.returns_for > number);
        unit.on_roster += back;
    }
}

/// A unit's Surgeon's roll carried onto the roster (Ch14 2.0, dotc D34): the returned stands
/// back, the hospitalised ones due back after `misses` battles, the rest gone.
fn apply(record: &mut UnitRecord, number: usize, tally: &Tally, lost: u32, table: &SurgeonTable) {
    record.on_roster += tally.returns;
    if tally.hospital > 0 {
        record
            .hospital
            .push(Hospitalised { stands: tally.hospital, returns_for: number + table.misses as usize + 1 });
    }
    record.lost += tally.lost;
    record.captured += tally.captured;
    let resolved = tally.returns + tally.hospital + tally.lost + tally.captured;
    // Stands not rolled for stay off the roster, lost (the finding says so).
    record.lost += lost.saturating_sub(resolved);
    record.awaiting_surgeon = 0;
}

//! `dotc campaign next`: the post-battle sequence due after the first played battle whose `after`
//! block is not written yet (Ch14 1.0), its dice rolled from a seed ([`crate::dice::D6Stream`])
//! and each claim the result the rules give for them, so the written block audits clean.
//!
//! The campaign is played by [`super::play_until`] up to that battle's replay, then the steps
//! are worked out in Ch14 1.0's order with the same tables and functions [`super::play`] judges
//! a written step by: `field` (1.0), a `surgeon` line per unit that lost stands (2.0), an
//! `experience` line per unit the replay saw earn XP (3.0, no dice), a `promotion` roll for each
//! brigadier due one and an `officer` roll for each severely wounded or killed one (4.0), and a
//! `replacements` draft per side when the campaign's `replacements` ruling is `every_battle`
//! (5.0, dotc D40). The player's own choices are left to the player as `// choose:` comments: a
//! new Veteran's Army Trait; the draft's stands go to the side's depleted regiments in roster
//! order, as far as each has room (dotc D41), and a comment says so.

use std::collections::BTreeMap;

use dotc_lang::analysis::Analysis;

use super::experience::{FeatRulings, Seen, Track};
use super::replacements::{self, DraftWhen};
use super::staff::{BattleStaff, Casualty};
use super::surgeon::{self, Field, Prisoners, SurgeonTable};
use super::{Played, StaffRules};
use crate::dice::D6Stream;
use crate::replay::{Finding, Level};

/// What [`super::play_until`] knows of a played battle with no `after` block.
#[derive(Clone, Debug)]
pub(crate) struct Pending {
    pub number: usize,
    pub holder: Option<String>,
    pub sides: Vec<String>,
    pub losses: Vec<(String, u32)>,
    pub seen: BTreeMap<String, Seen>,
    pub battle_staff: BattleStaff,
    pub prisoners: Prisoners,
    pub feat_rulings: FeatRulings,
}

/// One line of the post-battle sequence to write: comments first (each without its `//`), then
/// the step as the campaign file writes it (None: a comment only, e.g. a choice left to the
/// player).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DueStep {
    /// The Ch14 section (and dotc ruling) the step plays.
    pub rule: &'static str,
    pub comments: Vec<String>,
    pub line: Option<String>,
}

/// The battle whose sequence is due and its steps, in Ch14 1.0's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DueBattle {
    /// 1-based, in the campaign's order.
    pub number: usize,
    pub name: String,
    pub seed: u64,
    pub steps: Vec<DueStep>,
}

impl DueBattle {
    /// The `after { ... }` block, each line indented by `indent` and its steps by four more.
    pub fn block(&self, indent: &str) -> String {
        let mut out = format!("{indent}after {{\n");
        for step in &self.steps {
            for c in &step.comments {
                out.push_str(&format!("{indent}    // {c}\n"));
            }
            if let Some(line) = &step.line {
                out.push_str(&format!("{indent}    {line}\n"));
            }
        }
        out.push_str(&format!("{indent}}}\n"));
        out
    }
}

/// Why no sequence can be worked out.
#[derive(Clone, Debug)]
pub enum NextError {
    /// The recorded steps disagree with the rules (or lack lines): fix them first.
    Findings(Vec<Finding>),
    /// The rule data lacks a table (its message names it).
    RuleData(String),
}

fn plural(n: u32, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

fn quoted_dice(dice: &[u8]) -> String {
    dice.iter().map(u8::to_string).collect::<Vec<_>>().join(", ")
}

/// The post-battle sequence due in the campaign `analysis` (a campaign file analysed whole), its
/// dice from `seed`: Ok(None) when every played battle has its `after` block. The campaign's
/// recorded steps before it must audit clean (an error finding is returned otherwise).
pub fn next_steps(analysis: &Analysis, seed: u64) -> Result<Option<DueBattle>, NextError> {
    let (mut played, pending) = super::play_until(analysis, true);
    let errors: Vec<Finding> = played.findings.iter().filter(|f| f.level == Level::Error).cloned().collect();
    if !errors.is_empty() {
        return Err(NextError::Findings(errors));
    }
    let Some(pending) = pending else { return Ok(None) };
    let Some(campaign) = &analysis.document.campaign else { return Ok(None) };
    let data = dotc_lang::stdlib();
    let surgeon = SurgeonTable::from_rule_data(data).map_err(NextError::RuleData)?;
    let track = Track::from_rule_data(data).map_err(NextError::RuleData)?;
    let mut findings = Vec::new();
    let staff = StaffRules::of(campaign, &mut findings);
    if let Some(f) = findings.first() {
        return Err(NextError::RuleData(f.message.clone()));
    }
    let name = campaign.battles.get(pending.number - 1).map(|b| b.name.value.clone()).unwrap_or_default();
    let mut dice = D6Stream::new(seed);
    let mut steps = Vec::new();
    field_step(&pending, &mut steps);
    surgeon_steps(&mut played, &pending, &surgeon, &mut dice, &mut steps);
    experience_steps(&mut played, &pending, &track, &mut steps);
    if let Some(staff) = &staff {
        staff_steps(&mut played, &pending, staff, &mut dice, &mut steps);
        draft_steps(&mut played, &pending, staff, &mut dice, &mut steps);
    }
    Ok(Some(DueBattle { number: pending.number, name, seed, steps }))
}

/// Ch14 1.0: who holds the field, from the replay (dotc D31).
fn field_step(pending: &Pending, steps: &mut Vec<DueStep>) {
    let (side, why) = match &pending.holder {
        Some(h) => (h.clone(), format!("{h} won the battle by the scenario's victory conditions")),
        None => ("none".to_string(), "nobody won the battle: nobody holds the field".to_string()),
    };
    steps.push(DueStep {
        rule: "Ch14 1.0, dotc D31",
        comments: vec![format!("Ch14 1.0: {why} (dotc D31).")],
        line: Some(format!("field {side}")),
    });
}

/// Ch14 2.0: one Surgeon's die per stand each unit lost, in the order of the replay's units.
fn surgeon_steps(
    played: &mut Played,
    pending: &Pending,
    table: &SurgeonTable,
    dice: &mut D6Stream,
    steps: &mut Vec<DueStep>,
) {
    for (name, lost) in &pending.losses {
        if *lost == 0 {
            continue;
        }
        let Some(record) = played.state.units.iter_mut().find(|u| &u.name == name) else { continue };
        let field = match pending.holder.as_deref() {
            Some(h) if h == record.side => Field::Ours,
            Some(_) => Field::Theirs,
            None => Field::Nobody,
        };
        let faces: Vec<u8> = (0..*lost).map(|_| dice.next_d6()).collect();
        let tally = surgeon::roll(table, &faces, field, pending.prisoners);
        let why =
            super::explain_roll(table, field, pending.prisoners, &record.side, pending.holder.as_deref());
        steps.push(DueStep {
            rule: "Ch14 2.0",
            comments: vec![format!("Ch14 2.0: one die a stand lost ({}); {why}.", plural(*lost, "stand"))],
            line: Some(format!(
                "surgeon \"{name}\" roll [{}] => {}",
                quoted_dice(&faces),
                tally.claim_text()
            )),
        });
        super::apply(record, pending.number, &tally, *lost, table);
    }
}

/// Ch14 3.0: an `experience` line for each unit whose feats the replay saw and whose XP they
/// raise (no dice), in roster order; a unit that may now choose its Army Trait gets a
/// `// choose:` comment (dotc D37): the choice is the player's.
fn experience_steps(played: &mut Played, pending: &Pending, track: &Track, steps: &mut Vec<DueStep>) {
    let all: Vec<&String> = track.choose.iter().flat_map(|(_, ts)| ts).collect();
    for record in played.state.units.iter_mut() {
        let Some(saw) = pending.seen.get(&record.name) else { continue };
        if record.kind == "battery" {
            continue;
        }
        let done = saw.feats(track, pending.feat_rulings);
        let total: u32 = done.iter().sum();
        let now = track.after_battle(record.xp, total);
        if total == 0 || now == record.xp {
            continue;
        }
        let feats: Vec<&str> = done
            .iter()
            .zip(dotc_lang::campaign::FEATS)
            .flat_map(|(n, (w, _))| std::iter::repeat_n(*w, *n as usize))
            .collect();
        let grade = track.grade(now).map(|g| format!(", {g}")).unwrap_or_default();
        steps.push(DueStep {
            rule: "Ch14 3.0",
            comments: vec![format!(
                "Ch14 3.0: the replay saw: {}; {} at {} XP each, at most {} a battle: {} -> {now}.",
                saw.describe(),
                plural(total, "feat"),
                track.per_feat,
                track.per_battle,
                record.xp
            )],
            line: Some(format!("experience \"{}\" {} => xp {now}{grade}", record.name, feats.join(" "))),
        });
        super::promote(record, now, track);
        let chosen = record.traits.iter().any(|t| all.contains(&t));
        let open: Vec<&str> =
            track.choosable(now).iter().flat_map(|(_, ts)| ts.iter()).map(String::as_str).collect();
        if !chosen && !open.is_empty() {
            steps.push(DueStep {
                rule: "Ch14 3.0, dotc D37",
                comments: vec![format!(
                    "choose: \"{}\" may choose its one Army Trait (dotc D37): add `trait \"{}\" <{}>`",
                    record.name,
                    record.name,
                    open.join(" | ")
                )],
                line: None,
            });
        }
    }
}

/// Ch14 4.0: per brigadier of the battle, in the scenario's order, his promotion roll when one
/// is due (dotc D38) and his officer roll when he was severely wounded or killed (dotc D39).
fn staff_steps(
    played: &mut Played,
    pending: &Pending,
    rules: &StaffRules,
    dice: &mut D6Stream,
    steps: &mut Vec<DueStep>,
) {
    let staff = &pending.battle_staff;
    for b in &staff.brigadiers {
        let Some(record) = played.state.leaders.iter_mut().find(|l| l.name == b.name) else { continue };
        let rating = record.rating.clone();
        if staff.promotion_due(&b.name, rating.as_deref(), &rules.staff, rules.objective).is_ok() {
            let die = dice.next_d6();
            let up = rules.staff.promotes(die);
            let rating = rating.unwrap_or_default();
            let how = if up {
                format!(
                    "{die} on {}+: {rating} -> {}",
                    rules.staff.promotion,
                    rules.staff.above(&rating).unwrap_or("")
                )
            } else {
                format!("{die} is below {}+: he stays {rating}", rules.staff.promotion)
            };
            steps.push(DueStep {
                rule: "Ch14 4.0, dotc D38",
                comments: vec![format!(
                    "Ch14 4.0: his side won and he came through in command (dotc D38); {how}."
                )],
                line: Some(format!(
                    "promotion \"{}\" roll [{die}] => {}",
                    b.name,
                    if up { "promoted" } else { "not promoted" }
                )),
            });
        }
        match staff.casualty(&b.name) {
            Some(Casualty::Severe) => {
                let die = dice.next_d6();
                let Some(out) = rules.staff.battles_out(die) else { continue };
                steps.push(DueStep {
                    rule: "Ch14 4.0, dotc D39",
                    comments: vec![format!(
                        "Ch14 4.0: severely wounded: 1D{} read off the d6 (RULINGS G2), {die} is {out}; back for battle {} (dotc D39).",
                        rules.staff.out,
                        pending.number + out as usize + 1
                    )],
                    line: Some(format!("officer \"{}\" roll [{die}] => out {out}", b.name)),
                });
            }
            Some(Casualty::Killed) => {
                let die = dice.next_d6();
                let Some(successor) = rules.staff.successor(die) else { continue };
                steps.push(DueStep {
                    rule: "Ch14 4.0, dotc D39",
                    comments: vec![format!(
                        "Ch14 4.0: killed: a new brigadier, {die} gives {successor} (dotc D39)."
                    )],
                    line: Some(format!("officer \"{}\" roll [{die}] => replaced {successor}", b.name)),
                });
            }
            _ => {}
        }
    }
}

/// Ch14 5.0: under `replacements = every_battle` (dotc D40) a draft per side, 1D3 read off the
/// d6; its stands go to the side's depleted regiments in roster order, each up to its room
/// (dotc D41). Under `written` no draft is due.
fn draft_steps(
    played: &mut Played,
    pending: &Pending,
    rules: &StaffRules,
    dice: &mut D6Stream,
    steps: &mut Vec<DueStep>,
) {
    if rules.when != DraftWhen::EveryBattle {
        return;
    }
    for side in &pending.sides {
        let die = dice.next_d6();
        let Some(stands) = rules.draft.stands_for(die) else { continue };
        let mut left = stands;
        let mut shares = String::new();
        for unit in played.state.units.iter_mut().filter(|u| &u.side == side) {
            let give = replacements::room(unit).min(left);
            if give == 0 {
                continue;
            }
            left -= give;
            shares.push_str(&format!(" \"{}\" {give}", unit.name));
            replacements::take(unit, give, pending.number, &rules.draft);
        }
        let mut comments = vec![format!(
            "Ch14 5.0: 1D{} read off the d6 (RULINGS G2), {die} is {}; {} (dotc D40, D41).",
            rules.draft.stands,
            plural(stands, "stand"),
            if shares.is_empty() {
                "no regiment of the side has room for them".to_string()
            } else {
                "handed to the depleted regiments in roster order, each up to its starting strength"
                    .to_string()
            }
        )];
        if !shares.is_empty() {
            comments.push(
                "choose: the stands may go to other depleted regiments of the side instead".to_string(),
            );
        }
        steps.push(DueStep {
            rule: "Ch14 5.0, dotc D40",
            comments,
            line: Some(format!("replacements {side} roll [{die}]{shares} => {}", plural(stands, "stand"))),
        });
    }
}

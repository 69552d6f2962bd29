//! `dotc campaign next`: the post-battle sequence due after the first played battle whose `after`
//! block is missing or incomplete (Ch14 1.0), the dice not written rolled from a seed
//! ([`crate::dice::D6Stream`]) and each claim the result the rules give for them, so the block
//! audits clean.
//!
//! A block the players began by hand is completed: a step written whole is kept, and its dice
//! are the ones what follows is worked from; a step written without its dice or its claim is
//! completed; a step not written is added ([`Written`]).
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
use dotc_lang::ast::{After, Span};
use dotc_lang::campaign::Step;

use super::experience::{FeatRulings, Seen, Track};
use super::replacements::{self, DraftWhen};
use super::staff::{BattleStaff, Casualty};
use super::surgeon::{self, Field, Prisoners, SurgeonTable};
use super::{Played, StaffRules, Stop};
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
    /// Another battle of its day follows it under `same_day = field`: only `field` is due
    /// (dotc D49).
    pub mid_day: bool,
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
    /// How the battle's written `after` block already has it.
    pub written: Written,
}

/// How a due step stands in the battle's written `after` block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// Not written: its comments and line are to be added.
    New,
    /// Written without its dice or its claim: its line replaces the written step at the span.
    Complete(Span),
    /// Written whole, at the span: kept as it is.
    Kept(Span),
}

impl DueStep {
    fn new(rule: &'static str, comments: Vec<String>, line: Option<String>) -> DueStep {
        DueStep { rule, comments, line, written: Written::New }
    }
}

/// The steps of a battle's written `after` block, found by their word and what they name.
#[derive(Default)]
struct WrittenSteps<'a> {
    steps: Vec<(Span, Step<'a>)>,
}

impl<'a> WrittenSteps<'a> {
    fn of(after: Option<&'a After>) -> WrittenSteps<'a> {
        let steps = after
            .map(|a| a.steps.iter().filter_map(|s| Step::read(s).ok().map(|step| (s.span, step))).collect())
            .unwrap_or_default();
        WrittenSteps { steps }
    }

    /// The written step of `word` naming `subject` (a unit, a leader or a side; `field` names
    /// none).
    fn find(&self, word: &str, subject: &str) -> Option<&(Span, Step<'a>)> {
        self.steps.iter().find(|(_, step)| match step {
            Step::Field { .. } => word == "field",
            Step::Surgeon { unit, .. } => word == "surgeon" && unit.value == subject,
            Step::Experience { unit, .. } => word == "experience" && unit.value == subject,
            Step::Trait { unit, .. } => word == "trait" && unit.value == subject,
            Step::Promotion { leader, .. } => word == "promotion" && leader.value == subject,
            Step::Officer { leader, .. } => word == "officer" && leader.value == subject,
            Step::Replacements { side, .. } => word == "replacements" && side.value == subject,
        })
    }

    /// The dice a step rolls: the written ones when it has them (each a d6 face), else `n`
    /// from the seed; and how the step stands.
    fn dice(&self, word: &str, subject: &str, n: usize, seeded: &mut D6Stream) -> (Vec<u8>, Written) {
        let Some((span, step)) = self.find(word, subject) else {
            return ((0..n).map(|_| seeded.next_d6()).collect(), Written::New);
        };
        let (roll, claim) = match step {
            Step::Surgeon { roll, claim, .. }
            | Step::Promotion { roll, claim, .. }
            | Step::Officer { roll, claim, .. }
            | Step::Replacements { roll, claim, .. } => (*roll, claim.is_some()),
            _ => (None, true),
        };
        let written: Option<Vec<u8>> = roll.and_then(|r| {
            r.dice.value.iter().map(|d| u8::try_from(d.value).ok().filter(|f| (1..=6).contains(f))).collect()
        });
        match written {
            Some(faces) if claim => (faces, Written::Kept(*span)),
            Some(faces) => (faces, Written::Complete(*span)),
            None => ((0..n).map(|_| seeded.next_d6()).collect(), Written::Complete(*span)),
        }
    }

    /// How a step without dice stands: kept when written with its claim.
    fn stands(&self, word: &str, subject: &str) -> Written {
        match self.find(word, subject) {
            None => Written::New,
            Some((span, Step::Experience { claim: None, .. })) => Written::Complete(*span),
            Some((span, _)) => Written::Kept(*span),
        }
    }
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
        for step in self.steps.iter().filter(|s| s.written == Written::New) {
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

    /// Whether the battle's written block lacks a step or a step's dice or claim.
    pub fn incomplete(&self) -> bool {
        self.steps.iter().any(|s| s.line.is_some() && !matches!(s.written, Written::Kept(_)))
    }

    /// The step's comments and line as lines of text (without the indent).
    pub fn lines(step: &DueStep) -> Vec<String> {
        step.comments.iter().map(|c| format!("// {c}")).chain(step.line.clone()).collect()
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
/// missing dice from `seed`: that of the first played battle whose `after` block is incomplete
/// (a step, a step's dice or its claim not written), else of the first played battle with no
/// block; Ok(None) when every played battle has its whole block. The recorded steps before it
/// must audit clean (an error finding is returned otherwise).
pub fn next_steps(analysis: &Analysis, seed: u64) -> Result<Option<DueBattle>, NextError> {
    let Some(campaign) = &analysis.document.campaign else { return Ok(None) };
    for (i, battle) in campaign.battles.iter().enumerate() {
        let Some(after) = &battle.after else { continue };
        let Some(due) = due_at(analysis, Stop::Before(i + 1), Some(after), seed)? else { continue };
        if due.number == i + 1 && due.incomplete() {
            return Ok(Some(due));
        }
    }
    due_at(analysis, Stop::AtDue, None, seed)
}

/// The sequence due where [`super::play_until`] stops, completing `written` (the battle's
/// `after` block, if it has one).
fn due_at(
    analysis: &Analysis,
    stop: Stop,
    written: Option<&After>,
    seed: u64,
) -> Result<Option<DueBattle>, NextError> {
    let (mut played, pending) = super::play_until(analysis, stop, None);
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
    let written = WrittenSteps::of(written);
    let mut work = Work { dice: D6Stream::new(seed), written: &written, steps: Vec::new() };
    field_step(&pending, &mut work);
    if pending.mid_day {
        return Ok(Some(DueBattle { number: pending.number, name, seed, steps: work.steps }));
    }
    surgeon_steps(&mut played, &pending, &surgeon, &mut work);
    experience_steps(&mut played, &pending, &track, &mut work);
    if let Some(staff) = &staff {
        staff_steps(&mut played, &pending, staff, &mut work);
        draft_steps(&mut played, &pending, staff, &mut work);
    }
    Ok(Some(DueBattle { number: pending.number, name, seed, steps: work.steps }))
}

/// What the steps are worked out with: the seeded dice, the written block, the steps so far.
struct Work<'w, 'a> {
    dice: D6Stream,
    written: &'w WrittenSteps<'a>,
    steps: Vec<DueStep>,
}

impl Work<'_, '_> {
    /// The dice of the step of `word` naming `subject`: see [`WrittenSteps::dice`].
    fn roll(&mut self, word: &str, subject: &str, n: usize) -> (Vec<u8>, Written) {
        self.written.dice(word, subject, n, &mut self.dice)
    }

    fn push(&mut self, mut step: DueStep, written: Written) {
        step.written = written;
        self.steps.push(step);
    }
}

/// Ch14 1.0: who holds the field, from the replay (dotc D31).
fn field_step(pending: &Pending, work: &mut Work<'_, '_>) {
    let (side, why) = match &pending.holder {
        Some(h) => (h.clone(), format!("{h} won the battle by the scenario's victory conditions")),
        None => ("none".to_string(), "nobody won the battle: nobody holds the field".to_string()),
    };
    let written = work.written.stands("field", "");
    work.push(
        DueStep::new(
            "Ch14 1.0, dotc D31",
            vec![format!("Ch14 1.0: {why} (dotc D31).")],
            Some(format!("field {side}")),
        ),
        written,
    );
}

/// Ch14 2.0: one Surgeon's die per stand each unit lost, in the order of the replay's units.
fn surgeon_steps(played: &mut Played, pending: &Pending, table: &SurgeonTable, work: &mut Work<'_, '_>) {
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
        let (faces, written) = work.roll("surgeon", name, *lost as usize);
        let tally = surgeon::roll(table, &faces, field, pending.prisoners);
        let why =
            super::explain_roll(table, field, pending.prisoners, &record.side, pending.holder.as_deref());
        work.push(
            DueStep::new(
                "Ch14 2.0",
                vec![format!("Ch14 2.0: one die a stand lost ({}); {why}.", plural(*lost, "stand"))],
                Some(format!("surgeon \"{name}\" roll [{}] => {}", quoted_dice(&faces), tally.claim_text())),
            ),
            written,
        );
        super::apply(record, pending.number, &tally, *lost, table);
    }
}

/// Ch14 3.0: an `experience` line for each unit whose feats the replay saw and whose XP they
/// raise (no dice), in roster order; a unit that may now choose its Army Trait gets a
/// `// choose:` comment (dotc D37): the choice is the player's.
fn experience_steps(played: &mut Played, pending: &Pending, track: &Track, work: &mut Work<'_, '_>) {
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
        let written = work.written.stands("experience", &record.name);
        work.push(
            DueStep::new(
                "Ch14 3.0",
                vec![format!(
                    "Ch14 3.0: the replay saw: {}; {} at {} XP each, at most {} a battle: {} -> {now}.",
                    saw.describe(),
                    plural(total, "feat"),
                    track.per_feat,
                    track.per_battle,
                    record.xp
                )],
                Some(format!("experience \"{}\" {} => xp {now}{grade}", record.name, feats.join(" "))),
            ),
            written,
        );
        super::promote(record, now, track);
        let chosen = record.traits.iter().any(|t| all.contains(&t))
            || work.written.find("trait", &record.name).is_some();
        let open: Vec<&str> =
            track.choosable(now).iter().flat_map(|(_, ts)| ts.iter()).map(String::as_str).collect();
        if !chosen && !open.is_empty() {
            work.push(
                DueStep::new(
                    "Ch14 3.0, dotc D37",
                    vec![format!(
                        "choose: \"{}\" may choose its one Army Trait (dotc D37): add `trait \"{}\" <{}>`",
                        record.name,
                        record.name,
                        open.join(" | ")
                    )],
                    None,
                ),
                Written::New,
            );
        }
    }
}

/// Ch14 4.0: per brigadier of the battle, in the scenario's order, his promotion roll when one
/// is due (dotc D38) and his officer roll when he was severely wounded or killed (dotc D39).
fn staff_steps(played: &mut Played, pending: &Pending, rules: &StaffRules, work: &mut Work<'_, '_>) {
    let staff = &pending.battle_staff;
    for b in &staff.brigadiers {
        let Some(record) = played.state.leaders.iter_mut().find(|l| l.name == b.name) else { continue };
        let rating = record.rating.clone();
        if staff.promotion_due(&b.name, rating.as_deref(), &rules.staff, rules.objective).is_ok() {
            let (faces, written) = work.roll("promotion", &b.name, 1);
            let die = faces.first().copied().unwrap_or(1);
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
            work.push(
                DueStep::new(
                    "Ch14 4.0, dotc D38",
                    vec![format!("Ch14 4.0: his side won and he came through in command (dotc D38); {how}.")],
                    Some(format!(
                        "promotion \"{}\" roll [{die}] => {}",
                        b.name,
                        if up { "promoted" } else { "not promoted" }
                    )),
                ),
                written,
            );
        }
        match staff.casualty(&b.name) {
            Some(Casualty::Severe) => {
                let (faces, written) = work.roll("officer", &b.name, 1);
                let die = faces.first().copied().unwrap_or(1);
                let Some(out) = rules.staff.battles_out(die) else { continue };
                work.push(
                    DueStep::new(
                        "Ch14 4.0, dotc D39",
                        vec![format!(
                            "Ch14 4.0: severely wounded: 1D{} read off the d6 (RULINGS G2), {die} is {out}; back for battle {} (dotc D39).",
                            rules.staff.out,
                            pending.number + out as usize + 1
                        )],
                        Some(format!("officer \"{}\" roll [{die}] => out {out}", b.name)),
                    ),
                    written,
                );
            }
            Some(Casualty::Killed) => {
                let (faces, written) = work.roll("officer", &b.name, 1);
                let die = faces.first().copied().unwrap_or(1);
                let Some(successor) = rules.staff.successor(die) else { continue };
                work.push(
                    DueStep::new(
                        "Ch14 4.0, dotc D39",
                        vec![format!(
                            "Ch14 4.0: killed: a new brigadier, {die} gives {successor} (dotc D39)."
                        )],
                        Some(format!("officer \"{}\" roll [{die}] => replaced {successor}", b.name)),
                    ),
                    written,
                );
            }
            _ => {}
        }
    }
}

/// Ch14 5.0: under `replacements = every_battle` (dotc D40) a draft per side, 1D3 read off the
/// d6; its stands go to the side's depleted regiments in roster order, each up to its room
/// (dotc D41). Under `written` no draft is due.
fn draft_steps(played: &mut Played, pending: &Pending, rules: &StaffRules, work: &mut Work<'_, '_>) {
    if rules.when != DraftWhen::EveryBattle {
        return;
    }
    for side in &pending.sides {
        let (faces, written) = work.roll("replacements", side, 1);
        let die = faces.first().copied().unwrap_or(1);
        let Some(stands) = rules.draft.stands_for(die) else { continue };
        // Where the players wrote where the stands go, that is kept; else they go in roster
        // order, each regiment up to its room (dotc D41).
        let chosen: Vec<(String, u32)> = match work.written.find("replacements", side) {
            Some((_, Step::Replacements { action, .. })) => dotc_lang::campaign::draft_allocations(action)
                .map(|a| a.iter().map(|a| (a.unit.value.clone(), a.stands)).collect())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        let mut left = stands;
        let mut shares = String::new();
        for unit in played.state.units.iter_mut().filter(|u| &u.side == side) {
            let give = if chosen.is_empty() {
                replacements::room(unit).min(left)
            } else {
                chosen.iter().filter(|(n, _)| *n == unit.name).map(|(_, g)| *g).sum()
            };
            if give == 0 {
                continue;
            }
            left = left.saturating_sub(give);
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
        work.push(
            DueStep::new(
                "Ch14 5.0, dotc D40",
                comments,
                Some(format!("replacements {side} roll [{die}]{shares} => {}", plural(stands, "stand"))),
            ),
            written,
        );
    }
}

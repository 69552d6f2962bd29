//! Step 4 of the post-battle sequence, staff and officer status (Ch14 4.0): a brigadier's
//! promotion roll and the officer casualties the replay saw. The numbers come from the rule
//! data (`staff officers`, stdlib/campaign.dotc); who may be promoted is dotc D38 (with the
//! campaign ruling `promotion_objective`), how the battle's leader casualty results (Ch16 2.4)
//! become Ch14's is dotc D39.

use dotc_lang::library::RuleData;
use serde::Serialize;

use crate::dice::read_off_d6;

/// The staff rules as the rule data states them (`staff officers`, Ch14 4.0).
#[derive(Clone, Debug, PartialEq)]
pub struct StaffTable {
    /// From this roll a brigadier who earned it is promoted.
    pub promotion: u32,
    /// Rating ids, lowest first.
    pub ladder: Vec<String>,
    /// The die of battles a severely wounded brigadier misses (3: a d3 read off the d6).
    pub out: u32,
    /// The senior colonel's rating while the brigadier is out.
    pub stand_in: String,
    /// A new brigadier's rating by the d6 rolled.
    pub successors: Vec<(String, (u32, u32))>,
    /// The `leader_result` ids that take a leader off the table for good (Killed, dotc D39).
    pub killing: Vec<String>,
    /// The `leader_result` ids that take him off without killing him (Severely Wounded).
    pub removing: Vec<String>,
}

impl StaffTable {
    /// The table from the rule data; an error names the entry or key that is missing.
    pub fn from_rule_data(data: &RuleData) -> Result<StaffTable, String> {
        let entry = data.staff("officers").ok_or("the rule data has no `staff officers` (Ch14 4.0)")?;
        let need = |key: &str| format!("`staff officers` has no `{key}` (Ch14 4.0)");
        if entry.ladder.len() < 2 {
            return Err(need("ladder"));
        }
        if entry.successors.is_empty() {
            return Err(need("successor"));
        }
        let results = data.leader_results();
        Ok(StaffTable {
            promotion: entry.promotion.ok_or_else(|| need("promotion"))?,
            ladder: entry.ladder.clone(),
            out: entry.out.ok_or_else(|| need("out"))?,
            stand_in: entry.stand_in.clone().ok_or_else(|| need("stand_in"))?,
            successors: entry.successors.clone(),
            killing: results.iter().filter(|r| r.removed && r.permanent).map(|r| r.meta.id.clone()).collect(),
            removing: results
                .iter()
                .filter(|r| r.removed && !r.permanent)
                .map(|r| r.meta.id.clone())
                .collect(),
        })
    }

    /// Ch14's casualty state for the battle's worst leader result (dotc D39): a row that kills is
    /// Killed in Action, one that removes him otherwise (wounded or captured) Severely Wounded,
    /// any other that struck him (a light wound's lost pip) Lightly Wounded.
    pub fn casualty(&self, result: &str) -> Casualty {
        if self.killing.iter().any(|r| r == result) {
            Casualty::Killed
        } else if self.removing.iter().any(|r| r == result) {
            Casualty::Severe
        } else {
            Casualty::Light
        }
    }

    /// Whether a promotion roll of `die` promotes (Ch14 4.0: 5+).
    pub fn promotes(&self, die: u8) -> bool {
        u32::from(die) >= self.promotion
    }

    /// The tier above `rating`; None at the top of the ladder (or off it).
    pub fn above(&self, rating: &str) -> Option<&str> {
        let at = self.ladder.iter().position(|r| r == rating)?;
        self.ladder.get(at + 1).map(String::as_str)
    }

    /// The campaign battles a severely wounded brigadier misses for a d6 of `die` (Ch14 4.0:
    /// 1D3, read off the d6 as RULINGS G2 reads every D3: 1-2 one, 3-4 two, 5-6 three).
    pub fn battles_out(&self, die: u8) -> Option<u32> {
        read_off_d6(self.out, die)
    }

    /// The new brigadier's rating for a d6 of `die` (Ch14 4.0: 1-3 Timid, 4-6 Reliable).
    pub fn successor(&self, die: u8) -> Option<&str> {
        let roll = u32::from(die);
        self.successors
            .iter()
            .find(|(_, (low, high))| (*low..=*high).contains(&roll))
            .map(|(r, _)| r.as_str())
    }
}

/// Ch14 4.0's officer casualty states (dotc D39).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Casualty {
    /// Back for the next engagement at full rating: no roll.
    Light,
    /// Out of action for 1D3 campaign battles; a senior colonel commands as Timid.
    Severe,
    /// Replaced for good by a new brigadier: 1-3 Timid, 4-6 Reliable.
    Killed,
}

impl Casualty {
    pub fn words(self) -> &'static str {
        match self {
            Casualty::Light => "lightly wounded",
            Casualty::Severe => "severely wounded",
            Casualty::Killed => "killed",
        }
    }
}

/// Which brigades "achieved their primary scenario objective" (Ch14 4.0): the campaign ruling
/// `promotion_objective`, dotc D38.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PromotionObjective {
    /// Every brigade of the side holding the field (the winner by the victory conditions,
    /// dotc D31). The default.
    #[default]
    SideWon,
    /// A brigade of the winning side that is not Broken at the battle's end.
    Unbroken,
}

impl PromotionObjective {
    pub fn from_word(word: &str) -> Option<PromotionObjective> {
        match word {
            "side_won" => Some(PromotionObjective::SideWon),
            "unbroken" => Some(PromotionObjective::Unbroken),
            _ => None,
        }
    }
}

/// A brigadier of a battle's scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BattleBrigadier {
    pub name: String,
    pub side: String,
    pub brigade: String,
    /// The colonel who takes over when he falls (the scenario's `replacement`).
    pub colonel: String,
}

/// What step 4 needs to know of one battle (Ch14 4.0).
#[derive(Clone, Debug, Default)]
pub struct BattleStaff {
    pub brigadiers: Vec<BattleBrigadier>,
    /// The Ch14 casualty of each brigadier in command whom the replay's leader casualty table
    /// struck (dotc D39).
    pub casualties: Vec<(String, Casualty)>,
    /// The brigades Broken at the battle's end.
    pub broken: Vec<String>,
    /// The side holding the field (dotc D31).
    pub holder: Option<String>,
    /// The brigadiers out of action for this battle (a colonel commanded: his results are not
    /// the brigadier's, dotc D39).
    pub absent: Vec<String>,
}

impl BattleStaff {
    pub fn casualty(&self, name: &str) -> Option<Casualty> {
        self.casualties.iter().find(|(n, _)| n == name).map(|(_, c)| *c)
    }

    /// Why `name` may not roll for promotion after this battle, or Ok when he may (Ch14 4.0,
    /// dotc D38): he commanded in the battle, came through it in command (unhurt or lightly
    /// wounded), his brigade achieved its objective, and a tier above his rating exists.
    pub fn promotion_due(
        &self,
        name: &str,
        rating: Option<&str>,
        table: &StaffTable,
        objective: PromotionObjective,
    ) -> Result<(), String> {
        let Some(b) = self.brigadiers.iter().find(|b| b.name == name) else {
            return Err(format!("\"{name}\" commanded no brigade in this battle"));
        };
        if self.absent.iter().any(|a| a == name) {
            return Err(format!("\"{name}\" was out of action for this battle (a colonel commanded)"));
        }
        if let Some(c @ (Casualty::Severe | Casualty::Killed)) = self.casualty(name) {
            return Err(format!(
                "\"{name}\" was {} in the battle: he did not come through it in command",
                c.words()
            ));
        }
        if self.holder.as_deref() != Some(b.side.as_str()) {
            let who = self.holder.as_deref().map_or("nobody".to_string(), |h| h.to_string());
            return Err(format!(
                "his side, {}, did not win the battle ({who} holds the field, dotc D31)",
                b.side
            ));
        }
        if objective == PromotionObjective::Unbroken && self.broken.contains(&b.brigade) {
            return Err(format!(
                "his brigade, \"{}\", ended the battle Broken (`promotion_objective = unbroken`)",
                b.brigade
            ));
        }
        match rating {
            Some(r) if table.above(r).is_none() => {
                Err(format!("he is already {r}, the highest tier: there is nothing to rise to"))
            }
            None => Err(format!("\"{name}\" has no rating to raise")),
            Some(_) => Ok(()),
        }
    }
}

// ------------------------------------------------------------------ the steps played

use dotc_lang::ast::{Action, Claim, Name, Roll, Span};
use dotc_lang::campaign::{OfficerClaim, PromotionClaim, officer_claim, promotion_claim};

use super::{Played, StaffRules, StandIn, error};

/// The one d6 of a step, or a finding at the dice (Ch14 4.0, 5.0).
pub(super) fn one_die(
    played: &mut Played,
    action: &Action,
    roll: Option<&Roll>,
    what: &str,
    rule: &str,
) -> Option<u8> {
    let dice = roll.map(|r| r.dice.value.as_slice()).unwrap_or_default();
    if let Some(bad) = dice.iter().find(|d| !(1..=6).contains(&d.value)) {
        played.findings.push(error(bad.span, format!("a d6 shows 1 to 6, not {}", bad.value), rule));
        return None;
    }
    match dice {
        [die] => Some(die.value as u8),
        _ => {
            let at = roll.map_or(action.span, |r| r.span);
            played.findings.push(error(
                at,
                format!(
                    "{what} is one d6, but {} {} rolled",
                    dice.len(),
                    if dice.len() == 1 { "was" } else { "were" }
                ),
                rule,
            ));
            None
        }
    }
}

const PROMOTION_RULE: &str = "Ch14 4.0, dotc D38";

/// A `promotion` or `officer` line of an `after` block as read (Ch14 4.0): the line, the
/// brigadier it names, its dice and its claim.
#[derive(Clone, Copy)]
pub(super) struct LeaderStep<'a> {
    pub action: &'a Action,
    pub leader: &'a Name,
    pub roll: Option<&'a Roll>,
    pub claim: Option<&'a Claim>,
}

/// A brigadier's promotion roll (Ch14 4.0): due only when [`BattleStaff::promotion_due`] says
/// so; from the table's roll his rating climbs one tier.
pub(super) fn play_promotion(
    played: &mut Played,
    number: usize,
    step: LeaderStep<'_>,
    battle_staff: &BattleStaff,
    rules: &StaffRules,
) {
    let LeaderStep { action, leader, roll, claim } = step;
    let Some(record) = played.state.leaders.iter().find(|l| l.name == leader.value) else { return };
    let rating = record.rating.clone();
    if let Err(why) =
        battle_staff.promotion_due(&leader.value, rating.as_deref(), &rules.staff, rules.objective)
    {
        played.findings.push(error(
            action.span,
            format!("no promotion roll is due for \"{}\": {why}", leader.value),
            PROMOTION_RULE,
        ));
        return;
    }
    let Some(die) = one_die(played, action, roll, "a promotion roll", "Ch14 4.0") else { return };
    let up = rules.staff.promotes(die);
    let rating = rating.unwrap_or_default();
    let above = rules.staff.above(&rating).unwrap_or_default().to_string();
    if let Some(claim) = claim
        && let Ok(said) = promotion_claim(claim)
    {
        let gives = if up { PromotionClaim::Promoted } else { PromotionClaim::NotPromoted };
        if said != gives {
            let words = |c: PromotionClaim| match c {
                PromotionClaim::Promoted => "promoted",
                PromotionClaim::NotPromoted => "not promoted",
            };
            let how = if up {
                format!("{die} on {}+: {rating} -> {above}", rules.staff.promotion)
            } else {
                format!("{die} is below {}+", rules.staff.promotion)
            };
            played.findings.push(error(
                claim.span,
                format!("the die gives {} ({how}), not {}", words(gives), words(said)),
                "Ch14 4.0",
            ));
        }
    }
    if up && let Some(record) = played.state.leaders.iter_mut().find(|l| l.name == leader.value) {
        record.rating = Some(above);
        record.promoted_after.push(number);
    }
}

const OFFICER_RULE: &str = "Ch14 4.0, dotc D39";

/// An officer casualty's roll (Ch14 4.0, dotc D39): a severely wounded brigadier misses 1D3
/// campaign battles under a Timid senior colonel; a killed one's command goes for good to a new
/// brigadier whose rating the d6 gives.
pub(super) fn play_officer(
    played: &mut Played,
    number: usize,
    step: LeaderStep<'_>,
    battle_staff: &BattleStaff,
    rules: &StaffRules,
) {
    let LeaderStep { action, leader, roll, claim } = step;
    let name = leader.value.as_str();
    if !played.state.leaders.iter().any(|l| l.name == name) {
        return;
    }
    let casualty = battle_staff.casualty(name).filter(|c| *c != Casualty::Light);
    let Some(casualty) = casualty else {
        let saw = match battle_staff.casualty(name) {
            Some(Casualty::Light) => {
                "lightly wounded: he is back for the next battle at full rating, with nothing to roll"
            }
            _ if battle_staff.absent.iter().any(|a| a == name) => "out of action for this battle",
            _ => "unhurt",
        };
        played.findings.push(error(
            action.span,
            format!("no officer roll is due for \"{name}\": the replay of the battle saw him {saw}"),
            OFFICER_RULE,
        ));
        return;
    };
    let Some(die) = one_die(played, action, roll, "an officer's roll", "Ch14 4.0") else { return };
    let colonel = battle_staff.brigadiers.iter().find(|b| b.name == name).map(|b| b.colonel.clone());
    let (gives, how) = match casualty {
        Casualty::Severe => {
            let Some(out) = rules.staff.battles_out(die) else { return };
            (
                OfficerClaim::Out(out),
                format!(
                    "severely wounded: 1D{} read off the d6, {die} is {out}; he misses battles {} to {} and is back for battle {}",
                    rules.staff.out,
                    number + 1,
                    number + out as usize,
                    number + out as usize + 1
                ),
            )
        }
        _ => {
            let Some(rating) = rules.staff.successor(die) else { return };
            (
                OfficerClaim::Replaced(rating.to_string()),
                format!("killed: a new brigadier, {die} gives {rating}"),
            )
        }
    };
    if let Some(claim) = claim
        && let Ok(said) = officer_claim(claim)
        && said != gives
    {
        let text = |c: &OfficerClaim| match c {
            OfficerClaim::Out(n) => format!("out {n}"),
            OfficerClaim::Replaced(r) => format!("replaced {r}"),
        };
        played.findings.push(error(
            claim.span,
            format!("the die gives {} ({how}), not {}", text(&gives), text(&said)),
            OFFICER_RULE,
        ));
    }
    let Some(record) = played.state.leaders.iter_mut().find(|l| l.name == name) else { return };
    record.awaiting_officer = None;
    match gives {
        OfficerClaim::Out(out) => {
            record.back_for = Some(number + out as usize + 1);
            record.commanded_by = Some(StandIn {
                name: colonel.unwrap_or_else(|| dotc_lang::names::replacing(name)),
                rating: rules.staff.stand_in.clone(),
            });
        }
        OfficerClaim::Replaced(rating) => {
            record.rating = Some(rating);
            record.killed_in = Some(number);
            record.commanded_by = None;
            record.back_for = None;
        }
    }
}

/// The promotion and officer lines an `after` block lacks (Ch14 4.0): one at the block for each
/// brigadier due a promotion roll and each severe wound or death with no roll.
pub(super) fn missing_lines(
    played: &mut Played,
    after: &dotc_lang::ast::After,
    battle_staff: &BattleStaff,
    rules: &StaffRules,
    promoted: &[String],
    officers: &[String],
) {
    let span: Span = after.span;
    for b in &battle_staff.brigadiers {
        let Some(record) = played.state.leaders.iter().find(|l| l.name == b.name) else { continue };
        let rating = record.rating.clone();
        if !promoted.contains(&b.name)
            && battle_staff.promotion_due(&b.name, rating.as_deref(), &rules.staff, rules.objective).is_ok()
        {
            played.findings.push(error(
                span,
                format!(
                    "no promotion roll for \"{}\", whose side won the battle and who came through it in command: add `promotion \"{}\" roll [_] => ...`",
                    b.name, b.name
                ),
                PROMOTION_RULE,
            ));
        }
        if !officers.contains(&b.name)
            && let Some(c @ (Casualty::Severe | Casualty::Killed)) = battle_staff.casualty(&b.name)
        {
            played.findings.push(error(
                span,
                format!(
                    "no officer roll for \"{}\", {} in the battle: add `officer \"{}\" roll [_] => ...`",
                    b.name,
                    c.words(),
                    b.name
                ),
                OFFICER_RULE,
            ));
        }
    }
}

//! Reinforcements and replacements (Ch14 5.0): a draft gives each army 1D3 replacement stands
//! for its depleted regiments, and a Veteran or Elite regiment that takes 2 or more in one draft
//! fights its next battle one grade lower. The numbers come from the rule data (`draft
//! replacements`, stdlib/campaign.dotc); when a draft happens is dotc D40 (the campaign ruling
//! `replacements`), who may take its stands dotc D41.

use dotc_lang::library::RuleData;

use super::UnitRecord;
use crate::dice::read_off_d6;

/// The draft as the rule data states it (`draft replacements`, Ch14 5.0).
#[derive(Clone, Debug, PartialEq)]
pub struct DraftTable {
    /// The die of stands an army receives (3: a d3 read off the d6).
    pub stands: u32,
    /// A diluted grade's regiment took this many stands or more in one draft.
    pub dilution: u32,
    /// The grades a draft dilutes (quality ids).
    pub dilutes: Vec<String>,
    /// The grades, lowest first.
    pub grades: Vec<String>,
}

impl DraftTable {
    /// The table from the rule data; an error names the entry or key that is missing.
    pub fn from_rule_data(data: &RuleData) -> Result<DraftTable, String> {
        let entry =
            data.draft("replacements").ok_or("the rule data has no `draft replacements` (Ch14 5.0)")?;
        let need = |key: &str| format!("`draft replacements` has no `{key}` (Ch14 5.0)");
        Ok(DraftTable {
            stands: entry.stands.ok_or_else(|| need("stands"))?,
            dilution: entry.dilution.ok_or_else(|| need("dilution"))?,
            dilutes: entry.dilutes.clone(),
            grades: entry.grades.clone(),
        })
    }

    /// The stands a d6 of `die` gives an army (Ch14 5.0: 1D3, read off the d6 as RULINGS G2
    /// reads every D3: 1-2 one, 3-4 two, 5-6 three).
    pub fn stands_for(&self, die: u8) -> Option<u32> {
        read_off_d6(self.stands, die)
    }

    /// The grade a regiment of `grade` that took `stands` in one draft fights its next battle
    /// at, when the draft dilutes it (Ch14 5.0): one tier lower.
    pub fn diluted(&self, grade: Option<&str>, stands: u32) -> Option<String> {
        let grade = grade?;
        if stands < self.dilution || !self.dilutes.iter().any(|g| g == grade) {
            return None;
        }
        let at = self.grades.iter().position(|g| g == grade)?;
        at.checked_sub(1).and_then(|i| self.grades.get(i)).cloned()
    }
}

/// When the draft happens ("between major campaign operational turns", Ch14 5.0): the campaign
/// ruling `replacements`, dotc D40.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DraftWhen {
    /// After the battles whose post-battle sequence writes a `replacements` line (both armies
    /// then). The default.
    #[default]
    Written,
    /// After every played battle, both armies.
    EveryBattle,
}

impl DraftWhen {
    pub fn from_word(word: &str) -> Option<DraftWhen> {
        match word {
            "written" => Some(DraftWhen::Written),
            "every_battle" => Some(DraftWhen::EveryBattle),
            _ => None,
        }
    }
}

/// Whether a unit may take replacement stands at all (dotc D41): a regiment or cavalry
/// regiment, of any grade; a battery's stands are guns, which no draft of recruits replaces.
pub fn takes_recruits(unit: &UnitRecord) -> bool {
    unit.kind == "regiment" || unit.kind == "cavalry"
}

/// The stands a unit may take before it is back at its starting strength (dotc D41): the
/// strength it joined the campaign with, less its stands on the roster, in hospital (they hold
/// their places) and awaiting the Surgeon. 0: not depleted.
pub fn room(unit: &UnitRecord) -> u32 {
    if !takes_recruits(unit) {
        return 0;
    }
    let hospital: u32 = unit.hospital.iter().map(|h| h.stands).sum();
    unit.strength.saturating_sub(unit.on_roster + hospital + unit.awaiting_surgeon)
}

/// A regiment takes `stands` replacement stands in the draft after battle `number` (Ch14 5.0):
/// on the roster at once; diluted for battle `number + 1` when the table says so.
pub fn take(unit: &mut UnitRecord, stands: u32, number: usize, table: &DraftTable) {
    unit.on_roster += stands;
    unit.replacements += stands;
    if let Some(grade) = table.diluted(unit.grade.as_deref(), stands) {
        unit.diluted_for = Some(number + 1);
        unit.diluted_grade = Some(grade);
    }
}

// ------------------------------------------------------------------ the step played

use dotc_lang::ast::{Action, Claim, Ident, Roll};
use dotc_lang::campaign::{draft_allocations, draft_claim};

use super::{Played, StaffRules, error};

const DRAFT_RULE: &str = "Ch14 5.0, dotc D41";

/// A side's draft (Ch14 5.0): its d6 gives the stands (1D3); each share goes to a depleted
/// regiment of that side, never past its starting strength (dotc D41); the stands go where the
/// line says, as far as they may; the whole die must be taken while a regiment has room.
pub(super) fn play_draft(
    played: &mut Played,
    number: usize,
    action: &Action,
    side: &Ident,
    roll: Option<&Roll>,
    claim: Option<&Claim>,
    rules: &StaffRules,
) {
    let Some(die) = super::staff::one_die(played, action, roll, "a draft's roll", "Ch14 5.0") else { return };
    let Some(stands) = rules.draft.stands_for(die) else { return };
    if let Some(claim) = claim
        && let Ok(said) = draft_claim(claim)
        && said != stands
    {
        played.findings.push(error(
            claim.span,
            format!(
                "the die gives {stands} stand{} (1D{} read off the d6: {die} is {stands}), not {said}",
                if stands == 1 { "" } else { "s" },
                rules.draft.stands
            ),
            "Ch14 5.0",
        ));
    }
    let Ok(allocations) = draft_allocations(action) else { return };
    let total: u32 = allocations.iter().map(|a| a.stands).sum();
    if total > stands {
        played.findings.push(error(
            action.span,
            format!(
                "the draft gives {} {stands} stand{}, but the line hands out {total}",
                side.value,
                if stands == 1 { "" } else { "s" }
            ),
            "Ch14 5.0",
        ));
    }
    let mut left = stands;
    for allocation in &allocations {
        let name = allocation.unit.value.as_str();
        let Some(unit) = played.state.units.iter().find(|u| u.name == name) else { continue };
        let problem = if unit.side != side.value {
            Some(format!("\"{name}\" is a regiment of {}, not of {}", unit.side, side.value))
        } else if !takes_recruits(unit) {
            Some(format!("\"{name}\" is a {}: a draft of recruits goes to regiments only", unit.kind))
        } else if room(unit) == 0 {
            Some(format!(
                "\"{name}\" is not depleted: {} on the roster and {} in hospital of the {} it started with",
                unit.on_roster,
                unit.hospital.iter().map(|h| h.stands).sum::<u32>(),
                unit.strength
            ))
        } else if allocation.stands > room(unit) {
            Some(format!(
                "\"{name}\" has room for {} stand{} only: a regiment never exceeds the {} it started with",
                room(unit),
                if room(unit) == 1 { "" } else { "s" },
                unit.strength
            ))
        } else {
            None
        };
        if let Some(problem) = problem {
            played.findings.push(error(allocation.span, problem, DRAFT_RULE));
            continue;
        }
        let given = allocation.stands.min(left);
        left -= given;
        if let Some(unit) = played.state.units.iter_mut().find(|u| u.name == name) {
            take(unit, given, number, &rules.draft);
        }
    }
    if total < stands {
        let open: Vec<String> = played
            .state
            .units
            .iter()
            .filter(|u| u.side == side.value && room(u) > 0)
            .map(|u| format!("\"{}\" {}", u.name, room(u)))
            .collect();
        if !open.is_empty() {
            played.findings.push(error(
                action.span,
                format!(
                    "{} of the {stands} stand{} drafted {} not handed out while depleted regiments have room ({})",
                    stands - total,
                    if stands == 1 { "" } else { "s" },
                    if stands - total == 1 { "is" } else { "are" },
                    open.join(", ")
                ),
                DRAFT_RULE,
            ));
        }
    }
}

/// The drafts an `after` block lacks (Ch14 5.0, dotc D40): under `replacements = every_battle`
/// every side's; under `written`, once one side's draft is written, the other sides' too (each
/// army receives its stands).
pub(super) fn missing_drafts(
    played: &mut Played,
    after: &dotc_lang::ast::After,
    when: DraftWhen,
    sides: &[&str],
    drafts: &[String],
) {
    if when == DraftWhen::Written && drafts.is_empty() {
        return;
    }
    for side in sides {
        if !drafts.iter().any(|d| d == side) {
            played.findings.push(error(
                after.span,
                format!("no draft for {side}: each army receives its replacements: add `replacements {side} roll [_] => ...`"),
                "Ch14 5.0, dotc D40",
            ));
        }
    }
}

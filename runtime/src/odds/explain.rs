//! A planned volley and its exact odds in words: what `dotc odds --at` prints and the language
//! server's hover shows on a fire line, from one function so the two always say the same.

use crate::engine::events::Modifier;
use crate::engine::fire::{FireKind, VolleyPlan};

use super::{FireOdds, mean};

/// `gunsmoke -1, enfilade +1` (as the table prints them: +1 is a bonus).
fn modifier_list(modifiers: &[Modifier]) -> String {
    modifiers.iter().map(|m| format!("{} {:+}", m.name, m.value)).collect::<Vec<_>>().join(", ")
}

/// `0: 12.5%  1: 37.5%  ...`, leaving out the chances below 0.05%.
pub fn distribution(dist: &[f64]) -> String {
    let shown: Vec<String> = dist
        .iter()
        .enumerate()
        .filter(|(_, p)| **p >= 0.0005)
        .map(|(k, p)| format!("{k}: {:.1}%", p * 100.0))
        .collect();
    shown.join("  ")
}

/// The chance of exactly `k` in a distribution (0 past its end).
pub fn chance(dist: &[f64], k: u32) -> f64 {
    dist.get(k as usize).copied().unwrap_or(0.0)
}

/// The plan and the odds of a volley, a line each: the shot, the dice, the to-hit number with
/// every modifier, the save, Shock, and the distributions of hits, unsaved hits and stands lost.
pub fn volley_lines(plan: &VolleyPlan, odds: &FireOdds) -> Vec<String> {
    let kind = match plan.kind {
        FireKind::Phase3 => "Phase 3 fire",
        FireKind::Opportunity => "Opportunity Fire",
        FireKind::Closing => "a closing volley",
    };
    let mut lines = vec![format!(
        "{} at {}, {:.1}\" ({} range), {kind}",
        plan.firer_name,
        plan.target_name,
        plan.range,
        plan.band.word()
    )];
    let stands = if plan.stands == 1 { "1 stand".to_string() } else { format!("{} stands", plan.stands) };
    let mut dice = format!("dice         {}D6 from {stands}", plan.dice);
    if plan.rerolls > 0 {
        dice.push_str(&format!(", {} missed die rolled again", plan.rerolls));
    }
    lines.push(dice);
    let mut to_hit = format!("to hit       {}+ ({:.1}% a die)", plan.to_hit, odds.p_hit * 100.0);
    if !plan.modifiers.is_empty() {
        to_hit.push_str(&format!(": base {}+, {}", plan.base, modifier_list(&plan.modifiers)));
    }
    lines.push(to_hit);
    let save = match (plan.save.base, plan.save.save) {
        (None, _) => format!("save         none ({})", plan.save.none_because),
        (Some(_), Some(s)) if s > 6 => {
            format!("save         none (pushed past 6+: {})", modifier_list(&plan.save.modifiers))
        }
        (Some(base), Some(s)) if plan.save.modifiers.is_empty() => {
            format!("save         {s}+ (base {base}+)")
        }
        (Some(base), Some(s)) => {
            format!("save         {s}+: base {base}+, {}", modifier_list(&plan.save.modifiers))
        }
        (Some(_), None) => "save         none".to_string(),
    };
    lines.push(if plan.save.steady { format!("{save}; a failed save rolled again (Steady)") } else { save });
    let shock = if plan.shock.canister {
        format!(
            "shock        any hit disorders (canister), {:.1}%; trigger {:.1}%",
            odds.p_shock_disorder * 100.0,
            odds.p_shock * 100.0
        )
    } else if plan.shock.sixes_needed == 0 {
        "shock        no trigger at this range".to_string()
    } else {
        let sixes = if plan.shock.sixes_needed == 1 {
            "a natural 6".to_string()
        } else {
            format!("{} natural 6s", plan.shock.sixes_needed)
        };
        let mut text = format!("shock        {sixes}: {:.1}%", odds.p_shock * 100.0);
        match (&plan.shock.ignored_by, &plan.shock.save) {
            (Some(by), _) => text.push_str(&format!(", ignored ({by})")),
            (None, Some(save)) if save.modifiers.is_empty() => {
                text.push_str(&format!(", Discipline save {}+", save.needed));
            }
            (None, Some(save)) => text.push_str(&format!(
                ", Discipline save {}+ (base {}+, {})",
                save.needed,
                save.base,
                modifier_list(&save.modifiers)
            )),
            (None, None) => text.push_str(", no save"),
        }
        // Ch13 17.0: a charger under Desperate Valor saves with Advantage.
        if plan.shock.ignored_by.is_none() && plan.shock.save.as_ref().is_some_and(|s| s.advantage) {
            text.push_str(" with Advantage (2D6, the higher kept)");
        }
        text.push_str(&format!("; disorders {:.1}%", odds.p_shock_disorder * 100.0));
        text
    };
    lines.push(shock);
    lines.push(format!("hits         {:.2} expected   {}", mean(&odds.hits), distribution(&odds.hits)));
    lines.push(format!("unsaved      {:.2} expected   {}", mean(&odds.unsaved), distribution(&odds.unsaved)));
    lines.push(format!(
        "stands lost  {:.2} expected   {}",
        mean(&odds.stands_lost),
        distribution(&odds.stands_lost)
    ));
    lines
}

/// What the log's dice gave, with the chance of each: `the log's dice: 2 hits (37.5%), ...`.
pub fn outcome_line(odds: &FireOdds, outcome: (u32, u32, u32)) -> String {
    let (hits, unsaved, lost) = outcome;
    format!(
        "the log's dice: {hits} {} ({:.1}%), {unsaved} unsaved ({:.1}%), {lost} {} lost ({:.1}%)",
        if hits == 1 { "hit" } else { "hits" },
        chance(&odds.hits, hits) * 100.0,
        chance(&odds.unsaved, unsaved) * 100.0,
        if lost == 1 { "stand" } else { "stands" },
        chance(&odds.stands_lost, lost) * 100.0
    )
}

/// A percentage as the odds print it.
fn pct(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

/// The exact odds of a whole assault, a line each: how it can end, the pre-contact check, the
/// charger's Disorder at contact and the stands the closing volley takes; then the closing
/// volley's own lines, when there is one.
pub fn assault_lines(
    charger: &str,
    target: &str,
    odds: &super::assault_plan::PlannedAssaultOdds,
    volley: Option<(&VolleyPlan, &FireOdds)>,
) -> Vec<String> {
    let mut lines = vec![format!("{charger} charges {target}")];
    lines.push(format!(
        "melee        {} fought: the charger wins {}, Bloody Draw {}, the defender wins {}",
        pct(odds.p_melee),
        pct(odds.p_attacker_wins),
        pct(odds.p_draw),
        pct(odds.p_defender_wins)
    ));
    let mut before = Vec::new();
    for (what, p) in [
        ("destroyed by the volley", odds.p_destroyed),
        ("stalls 2\" short", odds.p_stalled),
        ("the defender routs (Broken)", odds.p_routed),
        ("the defender is overrun", odds.p_overrun),
    ] {
        if p > 0.0 {
            before.push(format!("{what} {}", pct(p)));
        }
    }
    if !before.is_empty() {
        lines.push(format!("no melee     {}", before.join(", ")));
    }
    match odds.p_check_passes {
        Some(pass) => lines.push(format!(
            "check        the pre-contact check is called for {}, and passes {} of the time",
            pct(odds.p_pre_contact_check),
            pct(pass)
        )),
        None => lines.push("check        no pre-contact check is called for".to_string()),
    }
    if odds.p_contact_disordered > 0.0 {
        lines.push(format!("disordered   the charger goes in Disordered {}", pct(odds.p_contact_disordered)));
    }
    if odds.closing_volley.is_some() {
        lines.push(format!(
            "volley takes {:.2} stands expected   {}",
            odds.expected_stands_lost_to_volley,
            distribution(&odds.stands_lost_to_volley)
        ));
    }
    if let Some((plan, fire)) = volley {
        lines.extend(volley_lines(plan, fire).into_iter().map(|l| format!("  {l}")));
    }
    lines
}

/// How the log's dice ended an assault, with the chance of that ending.
pub fn assault_outcome_line(
    odds: &super::assault_plan::PlannedAssaultOdds,
    result: crate::engine::assault::AssaultResult,
) -> String {
    use crate::engine::assault::AssaultResult;
    use crate::engine::events::MeleeOutcome;
    let (what, p) = match result {
        AssaultResult::Destroyed => ("the charger destroyed", odds.p_destroyed),
        AssaultResult::Stalled => ("the charge stalled", odds.p_stalled),
        AssaultResult::Routed => ("the defender routed", odds.p_routed),
        AssaultResult::Overrun => ("the defender overrun", odds.p_overrun),
        AssaultResult::Melee(MeleeOutcome::AttackerWins) => {
            ("the charger won the melee", odds.p_attacker_wins)
        }
        AssaultResult::Melee(MeleeOutcome::BloodyDraw) => ("a Bloody Draw", odds.p_draw),
        AssaultResult::Melee(MeleeOutcome::DefenderWins) => {
            ("the defender won the melee", odds.p_defender_wins)
        }
    };
    format!("the log's dice: {what} ({})", pct(p))
}

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

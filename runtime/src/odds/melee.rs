//! Exact odds of the opposed melee roll (Ch16 7.3, Ch6 4.0).
//!
//! Each side's Shock Score is 1D6 + its engaged stands + its tactical modifiers; the higher
//! score wins and equal scores are a Bloody Draw (Ch16 7.4). Modifiers come in as one number per
//! side, already summed by the caller (fresh, column, momentum, cover, disorder...), so this module
//! holds no table values of its own.

use serde::Serialize;

use crate::dice::D6Stream;

/// One side of a melee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeleeSide {
    /// Stands in edge contact with the enemy (RULINGS G3).
    pub engaged_stands: u32,
    /// The sum of its tactical modifiers (Ch16 7.3), e.g. +1 fresh, +1 column, -2 disordered.
    pub modifier: i32,
}

/// The exact distribution of a melee's result. The field names are a fixed interface.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeleeOdds {
    pub attacker_wins: f64,
    pub draw: f64,
    pub defender_wins: f64,
    /// P(attacker wins by 4 or more): with a Fresh attacker this is the chance of a Breakthrough
    /// (Ch16 7.4).
    pub attacker_wins_by_4_or_more: f64,
    /// P(attacker's score - defender's score = m), from `margin_min` upwards.
    pub margin: Vec<f64>,
    pub margin_min: i64,
}

/// The melee needs at least one engaged stand a side: without contact there is no melee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoContact;

impl std::fmt::Display for NoContact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a melee needs at least 1 engaged stand on each side (RULINGS G3)")
    }
}

impl std::error::Error for NoContact {}

fn base(side: MeleeSide) -> i64 {
    i64::from(side.engaged_stands) + i64::from(side.modifier)
}

/// The exact odds: all 36 pairs of dice, each with probability 1/36.
pub fn melee_odds(attacker: MeleeSide, defender: MeleeSide) -> Result<MeleeOdds, NoContact> {
    if attacker.engaged_stands == 0 || defender.engaged_stands == 0 {
        return Err(NoContact);
    }
    let offset = base(attacker) - base(defender);
    // Margins run from offset - 5 (attacker rolls 1, defender 6) to offset + 5.
    let margin_min = offset - 5;
    let mut margin = vec![0.0; 11];
    for a in 1..=6i64 {
        for d in 1..=6i64 {
            margin[(a - d + 5) as usize] += 1.0 / 36.0;
        }
    }
    let sum_where = |keep: &dyn Fn(i64) -> bool| -> f64 {
        margin.iter().enumerate().filter(|(i, _)| keep(margin_min + *i as i64)).map(|(_, p)| p).sum()
    };
    Ok(MeleeOdds {
        attacker_wins: sum_where(&|m| m > 0),
        draw: sum_where(&|m| m == 0),
        defender_wins: sum_where(&|m| m < 0),
        attacker_wins_by_4_or_more: sum_where(&|m| m >= 4),
        margin,
        margin_min,
    })
}

/// A simulated estimate with standard errors.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeleeEstimate {
    pub trials: u64,
    pub attacker_wins: f64,
    pub attacker_wins_se: f64,
    pub draw: f64,
    pub draw_se: f64,
    pub defender_wins: f64,
    pub defender_wins_se: f64,
}

/// Roll `trials` melees with seeded dice (never ambient randomness).
pub fn melee_monte_carlo(
    attacker: MeleeSide,
    defender: MeleeSide,
    trials: u64,
    seed: u64,
) -> Result<MeleeEstimate, NoContact> {
    if attacker.engaged_stands == 0 || defender.engaged_stands == 0 {
        return Err(NoContact);
    }
    let mut dice = D6Stream::new(seed);
    let (mut wins, mut draws, mut losses) = (0u64, 0u64, 0u64);
    for _ in 0..trials {
        let score_a = base(attacker) + i64::from(dice.next_d6());
        let score_d = base(defender) + i64::from(dice.next_d6());
        match score_a.cmp(&score_d) {
            std::cmp::Ordering::Greater => wins += 1,
            std::cmp::Ordering::Equal => draws += 1,
            std::cmp::Ordering::Less => losses += 1,
        }
    }
    let n = (wins + draws + losses).max(1) as f64;
    let estimate = |k: u64| {
        let p = k as f64 / n;
        (p, (p * (1.0 - p) / n).sqrt())
    };
    let (aw, aw_se) = estimate(wins);
    let (dr, dr_se) = estimate(draws);
    let (dw, dw_se) = estimate(losses);
    Ok(MeleeEstimate {
        trials: wins + draws + losses,
        attacker_wins: aw,
        attacker_wins_se: aw_se,
        draw: dr,
        draw_se: dr_se,
        defender_wins: dw,
        defender_wins_se: dw_se,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(engaged_stands: u32, modifier: i32) -> MeleeSide {
        MeleeSide { engaged_stands, modifier }
    }

    #[test]
    fn even_melee_ch16_7_3_draws_one_time_in_six() {
        let odds = melee_odds(side(2, 0), side(2, 0)).expect("contact");
        assert!((odds.draw - 6.0 / 36.0).abs() < 1e-12);
        assert!((odds.attacker_wins - 15.0 / 36.0).abs() < 1e-12);
        assert!((odds.defender_wins - 15.0 / 36.0).abs() < 1e-12);
    }

    #[test]
    fn one_point_of_advantage_wins_on_a_tie_of_the_dice() {
        // Attacker column +1 (Ch16 7.3): wins whenever its die is not below the defender's.
        let odds = melee_odds(side(2, 1), side(2, 0)).expect("contact");
        assert!((odds.attacker_wins - 21.0 / 36.0).abs() < 1e-12);
        assert!((odds.draw - 5.0 / 36.0).abs() < 1e-12);
        assert!((odds.defender_wins - 10.0 / 36.0).abs() < 1e-12);
    }

    #[test]
    fn stands_count_like_modifiers_and_a_six_point_edge_always_wins() {
        // 5 engaged stands against 2, plus +3: the attacker's worst (1 + 8) beats the
        // defender's best (6 + 2).
        let odds = melee_odds(side(5, 3), side(2, 0)).expect("contact");
        assert!((odds.attacker_wins - 1.0).abs() < 1e-12);
        assert_eq!(odds.draw, 0.0);
        // Breakthrough needs a margin of 4+ (Ch16 7.4): the margin is 6 + a - d, so it falls
        // short only when the defender's die beats the attacker's by 3 or more (6 of 36).
        assert!((odds.attacker_wins_by_4_or_more - 30.0 / 36.0).abs() < 1e-12);
    }

    #[test]
    fn the_distribution_sums_to_one_and_matches_its_totals() {
        for a in 1..=5 {
            for d in 1..=5 {
                for m in -3..=3 {
                    let odds = melee_odds(side(a, m), side(d, 0)).expect("contact");
                    let total: f64 = odds.margin.iter().sum();
                    assert!((total - 1.0).abs() < 1e-12);
                    assert!((odds.attacker_wins + odds.draw + odds.defender_wins - 1.0).abs() < 1e-12);
                }
            }
        }
    }

    #[test]
    fn no_contact_is_an_error() {
        assert_eq!(melee_odds(side(0, 0), side(2, 0)), Err(NoContact));
        assert_eq!(melee_monte_carlo(side(2, 0), side(0, 0), 10, 1), Err(NoContact));
    }

    #[test]
    fn the_simulation_agrees_with_the_exact_odds_within_four_standard_errors() {
        let (a, d) = (side(3, 1), side(2, -2));
        let exact = melee_odds(a, d).expect("contact");
        let est = melee_monte_carlo(a, d, 100_000, 7).expect("contact");
        assert_eq!(est.trials, 100_000);
        assert!((est.attacker_wins - exact.attacker_wins).abs() <= 4.0 * est.attacker_wins_se.max(1e-9));
        assert!((est.draw - exact.draw).abs() <= 4.0 * est.draw_se.max(1e-9));
        assert!((est.defender_wins - exact.defender_wins).abs() <= 4.0 * est.defender_wins_se.max(1e-9));
    }
}

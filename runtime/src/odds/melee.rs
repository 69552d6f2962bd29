//! Exact odds of the opposed melee roll (Ch16 7.3, Ch6 4.0).
//!
//! Each side's Shock Score is 1D6 + its engaged stands + its tactical modifiers; the higher
//! score wins and equal scores are a Bloody Draw (Ch16 7.4). Modifiers come in as one number per
//! side, already summed by the caller (fresh, column, momentum, cover, disorder...), so the odds
//! hold no table values of their own. [`named_modifier`] reads one named condition's value from
//! the rule data (formation `assault_column`, marker `disorder`, obstacle `stone_wall`, trait
//! `rebel_yell`, health `fresh`, modifier `momentum`...) for a caller that wants to sum names.

use dotc_lang::library::{CheckCause, EntryKind, MeleeModifier, MeleeSide as Side, RuleData};
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

/// The side of a melee a named condition belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Attacker,
    Defender,
}

impl Role {
    fn word(self) -> &'static str {
        match self {
            Role::Attacker => "attacker",
            Role::Defender => "defender",
        }
    }
}

/// What one named condition of a side does, read from the rule data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NamedModifier {
    /// The id as named.
    pub name: String,
    /// The kind of rule data entry it was found as (`formation`, `marker`, `modifier`...).
    pub kind: &'static str,
    /// Shock modifier to the side that has it (Ch16 7.3).
    pub own: i32,
    /// Shock modifier to the other side: an abatis the defender stands behind gives the attacker
    /// -2 (Ch16 4.2, RULINGS G17); cavalry shock gives the infantry -2 (Ch16 10.1).
    pub opponent: i32,
    /// The engaged stands the side counts as, whatever its frontage (a battery: 1, RULINGS G3).
    pub engaged: Option<u32>,
    /// Modifier to the side's Discipline checks forced by a Closing Volley (the pre-contact
    /// check, Ch16 7.2): Steady +1 (Ch16 9.0), an attached brigadier +1 (Ch16 2.4).
    pub closing_volley_discipline: i32,
    /// Modifier to the side's Discipline save against Shock (Ch16 5.5): an attached brigadier +1.
    pub shock_discipline: i32,
}

/// Why a name gives no modifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    /// No rule data entry of a kind that can change a melee has this id.
    Unknown { name: String, suggestion: Option<String> },
    /// The entry's melee modifiers are all for the other side (an assault column named for the
    /// defender, a stone wall named for the attacker).
    WrongSide { name: String, role: Role, modifiers: String },
}

impl std::fmt::Display for NameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NameError::Unknown { name, suggestion } => {
                write!(f, "unknown melee modifier `{name}`")?;
                match suggestion {
                    Some(s) => write!(f, "; did you mean `{s}`?"),
                    None => write!(
                        f,
                        "; use the id of a formation, marker, trait, health state, modifier, weapon, \
                         obstacle, terrain kind or structure of the rule data"
                    ),
                }
            }
            NameError::WrongSide { name, role, modifiers } => write!(
                f,
                "`{name}` gives nothing to the {} ({modifiers}, Ch16 7.3); name it for the other side",
                role.word()
            ),
        }
    }
}

impl std::error::Error for NameError {}

/// The kinds searched, in this order, for a name. A position (obstacle, terrain kind, structure)
/// belongs to the side that stands in or behind it.
const NAMED_KINDS: [EntryKind; 9] = [
    EntryKind::Modifier,
    EntryKind::Health,
    EntryKind::Formation,
    EntryKind::Marker,
    EntryKind::Trait,
    EntryKind::Weapon,
    EntryKind::Obstacle,
    EntryKind::Terrain,
    EntryKind::Structure,
];

/// Every name [`named_modifier`] knows, for completions and "did you mean".
pub fn modifier_names(data: &RuleData) -> Vec<&str> {
    NAMED_KINDS.iter().flat_map(|&kind| data.ids(kind)).collect()
}

/// What the named condition of `role` does to a melee, from the rule data.
///
/// A modifier's side word (Ch16 7.3) decides where it goes: `either` to the side that has it,
/// `attacker` / `charging` only if that side is the attacker, `defender` only if it is the
/// defender. A position (obstacle, terrain kind, structure) is named for the side in or behind
/// it, the defender: its `attacker` modifiers go to the attacker (an abatis -2). A name whose
/// modifiers all belong to the other side is an error; a known name with no melee modifier
/// (a hedge, RULINGS C29; `worn`) gives 0.
pub fn named_modifier(data: &RuleData, name: &str, role: Role) -> Result<NamedModifier, NameError> {
    let Some(kind) = NAMED_KINDS.iter().copied().find(|&k| data.contains(k, name)) else {
        let names = modifier_names(data);
        // A typo, or one word of an id (`fence` for `rail_fence`, `column` for `assault_column`).
        let suggestion = dotc_lang::names::suggest(name, names.iter().copied())
            .or_else(|| names.iter().copied().find(|n| n.split('_').any(|part| part == name)))
            .map(str::to_string);
        return Err(NameError::Unknown { name: name.to_string(), suggestion });
    };
    let mut named = NamedModifier {
        name: name.to_string(),
        kind: kind.word(),
        own: 0,
        opponent: 0,
        engaged: None,
        closing_volley_discipline: 0,
        shock_discipline: 0,
    };
    let mut melee: Vec<MeleeModifier> = Vec::new();
    let mut position = false;
    match kind {
        EntryKind::Modifier => {
            if let Some(m) = data.modifier(name) {
                melee.extend(m.melee);
                named.opponent += m.opponent_melee;
                named.engaged = m.engaged;
                // Ch16 2.4: every Discipline check.
                named.closing_volley_discipline += m.discipline;
                named.shock_discipline += m.discipline;
            }
        }
        EntryKind::Health => melee.extend(data.health(name).and_then(|h| h.melee)),
        EntryKind::Formation => {
            melee.extend(data.formation(name).map(|f| f.melee.clone()).unwrap_or_default())
        }
        EntryKind::Marker => melee.extend(data.marker(name).and_then(|m| m.melee)),
        EntryKind::Trait => {
            if let Some(t) = data.army_trait(name) {
                melee.extend(t.melee.iter().copied());
                for d in &t.discipline {
                    match d.cause {
                        CheckCause::ClosingVolley => named.closing_volley_discipline += d.value,
                        CheckCause::Shock => named.shock_discipline += d.value,
                        CheckCause::Any => {
                            named.closing_volley_discipline += d.value;
                            named.shock_discipline += d.value;
                        }
                        CheckCause::PassageOfLines => {}
                    }
                }
            }
        }
        EntryKind::Weapon => melee.extend(data.weapon(name).and_then(|w| w.melee)),
        EntryKind::Obstacle => {
            position = true;
            melee.extend(data.obstacle(name).and_then(|o| o.melee));
        }
        EntryKind::Terrain => {
            position = true;
            melee.extend(data.terrain(name).and_then(|t| t.melee));
        }
        EntryKind::Structure => {
            position = true;
            melee.extend(data.structure(name).and_then(|s| s.melee));
        }
        _ => {}
    }
    let mut applied = false;
    for m in &melee {
        let to_own = match (m.side, role) {
            (Side::Either, _) => Some(true),
            (Side::Attacker | Side::Charging, Role::Attacker) => Some(true),
            (Side::Defender, Role::Defender) => Some(true),
            // The defender's abatis: the attacker crossing it pays (Ch16 4.2, RULINGS G17).
            (Side::Attacker, Role::Defender) if position => Some(false),
            _ => None,
        };
        match to_own {
            Some(true) => named.own += m.value,
            Some(false) => named.opponent += m.value,
            None => continue,
        }
        applied = true;
    }
    if !melee.is_empty() && !applied {
        let modifiers =
            melee.iter().map(|m| format!("{:+} {}", m.value, m.side.word())).collect::<Vec<_>>().join(", ");
        return Err(NameError::WrongSide { name: name.to_string(), role, modifiers });
    }
    Ok(named)
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

    fn named(name: &str, role: Role) -> Result<NamedModifier, NameError> {
        named_modifier(dotc_lang::stdlib(), name, role)
    }

    /// Ch16 7.3 values, read from the rule data by name.
    #[test]
    fn named_modifiers_come_from_the_rule_data_ch16_7_3() {
        let own = |name: &str, role: Role| named(name, role).map(|n| n.own);
        assert_eq!(own("assault_column", Role::Attacker), Ok(1), "formation, attacker only");
        assert_eq!(own("disorder", Role::Attacker), Ok(-2), "marker, either side");
        assert_eq!(own("disorder", Role::Defender), Ok(-2));
        assert_eq!(own("stone_wall", Role::Defender), Ok(2), "obstacle, defender");
        assert_eq!(own("rebel_yell", Role::Attacker), Ok(1), "trait, charging");
        assert_eq!(own("hedge", Role::Defender), Ok(0), "RULINGS C29: no melee bonus");
        // A defender's abatis costs the attacker 2 (RULINGS G17).
        let abatis = named("abatis", Role::Defender).expect("known");
        assert_eq!((abatis.own, abatis.opponent), (0, -2));
        // Steady: +1 on checks forced by a closing volley only (Ch16 9.0).
        let steady = named("steady", Role::Attacker).expect("known");
        assert_eq!((steady.own, steady.closing_volley_discipline, steady.shock_discipline), (0, 1, 0));
    }

    #[test]
    fn health_and_situational_modifiers_by_name() {
        let data = dotc_lang::stdlib();
        if data.health("fresh").is_none() || data.modifier("momentum").is_none() {
            // The stdlib has no health or modifier entries yet.
            return;
        }
        assert_eq!(named("fresh", Role::Attacker).map(|n| n.own), Ok(1));
        assert_eq!(named("spent", Role::Defender).map(|n| n.own), Ok(-1));
        assert_eq!(named("worn", Role::Defender).map(|n| n.own), Ok(0));
        assert_eq!(named("momentum", Role::Attacker).map(|n| n.own), Ok(1));
        let brigadier = named("brigadier_attached", Role::Defender).expect("known");
        assert_eq!(
            (brigadier.own, brigadier.closing_volley_discipline, brigadier.shock_discipline),
            (1, 1, 1)
        );
        let cavalry = named("cavalry_shock", Role::Attacker).expect("known");
        assert_eq!((cavalry.own, cavalry.opponent), (1, -2));
        assert_eq!(named("battery_in_melee", Role::Defender).map(|n| n.engaged), Ok(Some(1)));
        assert!(matches!(named("momentum", Role::Defender), Err(NameError::WrongSide { .. })));
    }

    #[test]
    fn unknown_names_and_the_wrong_side_are_errors() {
        let e = named("stone_wal", Role::Defender).unwrap_err();
        assert_eq!(e, NameError::Unknown { name: "stone_wal".into(), suggestion: Some("stone_wall".into()) });
        assert!(e.to_string().contains("did you mean `stone_wall`?"), "{e}");
        assert!(matches!(named("zzz", Role::Defender), Err(NameError::Unknown { suggestion: None, .. })));
        let fence = named("fence", Role::Defender).unwrap_err();
        assert!(fence.to_string().contains("did you mean `rail_fence`?"), "{fence}");
        let column = named("column", Role::Attacker).unwrap_err();
        assert!(column.to_string().contains("did you mean `assault_column`?"), "{column}");
        let e = named("assault_column", Role::Defender).unwrap_err();
        assert!(matches!(e, NameError::WrongSide { role: Role::Defender, .. }));
        assert!(e.to_string().contains("+1 attacker"), "{e}");
        assert!(matches!(named("stone_wall", Role::Attacker), Err(NameError::WrongSide { .. })));
        assert!(matches!(named("rebel_yell", Role::Defender), Err(NameError::WrongSide { .. })));
    }
}

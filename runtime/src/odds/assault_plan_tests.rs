//! The odds of a whole assault and the engine agree: over random charges (the charger's
//! stands, losses, micro-hit, quality, traits and brigadier; the defender's weapon, stands,
//! traits, formation and brigade; cover, momentum, flank, the defender's ground, a counter-charge,
//! the closing volley or none; every ruling switch and module drawn), the engine rolling the
//! whole assault over every dice outcome, face by face, gives exactly the distribution
//! [`assault_plan_odds`] computes from the same plan (Ch16 7.1-7.4, RULE-07-1.x, RULINGS C7, G10).

use proptest::prelude::*;
use proptest::strategy::ValueTree;

use dotc_lang::library::CoverClass;

use super::*;
use crate::engine::assault::{AssaultInput, Payment, plan_assault};
use crate::engine::events::BrigadeStatus;
use crate::engine::fire::{CoverInput, FireInput, FireKind};
use crate::engine::melee::MeleeInput;
use crate::engine::state::{Arm, LeaderRank, Unit};
use crate::engine::testkit::rules_with;
use crate::rulings::Rulings;

const QUALITIES: &[&str] = &["green", "regular", "veteran", "elite"];
const CHARGER_TRAITS: &[&str] = &["steady", "rebel_yell", "seen_the_elephant", "iron_discipline"];
const DEFENDER_TRAITS: &[&str] = &["steady", "sharpshooters", "buck_and_ball"];
const DEFENDER_WEAPONS: &[&str] = &["rifled_musket", "smoothbore_musket", "napoleon", "ordnance_rifle"];
const GROUND: &[Option<&str>] = &[None, Some("stone_wall"), Some("abatis"), Some("rail_fence")];
const MODULES: &[&str] = &["july_sun", "uncontrollable_pursuit", "open_order", "low_ammo"];

#[derive(Clone, Debug)]
struct Charge {
    rulings: Vec<usize>,
    modules: Vec<&'static str>,
    charger_quality: usize,
    charger_stands: u32,
    charger_lost: u32,
    charger_micro: bool,
    charger_column: bool,
    charger_traits: Vec<&'static str>,
    brigadier: bool,
    defender_weapon: usize,
    defender_stands: u32,
    defender_quality: usize,
    defender_traits: Vec<&'static str>,
    defender_status: usize,
    volley: bool,
    cover: bool,
    distance: f64,
    melee: [bool; 3],
    ground: usize,
}

fn charge() -> impl Strategy<Value = Charge> {
    let rules = (
        prop::collection::vec(0usize..4, dotc_lang::rulings::RULINGS.len()),
        prop::sample::subsequence(MODULES.to_vec(), 0..=2),
    );
    let charger = (
        0..QUALITIES.len(),
        2u32..=4,
        0u32..=3,
        any::<bool>(),
        any::<bool>(),
        prop::sample::subsequence(CHARGER_TRAITS.to_vec(), 0..=2),
        prop::bool::weighted(0.5),
    );
    let defender = (
        0..DEFENDER_WEAPONS.len(),
        1u32..=2,
        0..QUALITIES.len(),
        prop::sample::subsequence(DEFENDER_TRAITS.to_vec(), 0..=1),
        prop::sample::select(vec![0usize, 0, 0, 1, 2]),
    );
    let contact =
        (prop::bool::weighted(0.8), any::<bool>(), 2.0f64..=8.0, any::<[bool; 3]>(), 0..GROUND.len());
    (rules, charger, defender, contact).prop_map(
        |(
            (rulings, modules),
            (
                charger_quality,
                charger_stands,
                charger_lost,
                charger_micro,
                charger_column,
                charger_traits,
                brigadier,
            ),
            (defender_weapon, defender_stands, defender_quality, defender_traits, defender_status),
            (volley, cover, distance, melee, ground),
        )| Charge {
            rulings,
            modules,
            charger_quality,
            charger_stands,
            charger_lost,
            charger_micro,
            charger_column,
            charger_traits,
            brigadier,
            defender_weapon,
            defender_stands,
            defender_quality,
            defender_traits,
            defender_status,
            volley,
            cover,
            distance,
            melee,
            ground,
        },
    )
}

/// The rules, the table after the declaration and the plan a charge describes; None when the
/// declaration is refused (the property is about charges that happen).
fn set_up(c: &Charge) -> Option<(Rules, GameState, AssaultPlan)> {
    let mut rulings = Rulings::default();
    for (spec, &pick) in dotc_lang::rulings::RULINGS.iter().zip(&c.rulings) {
        rulings.set(spec.name, spec.values[pick % spec.values.len()]).expect("a value of the register");
    }
    let rules = rules_with(rulings, &c.modules);
    let mut state = GameState { turn: 1, ..GameState::default() };
    let (blue, red) = (state.add_side("Blue"), state.add_side("Red"));
    let blue_brigade = state.add_brigade("Blue Brigade", blue);
    let red_brigade = state.add_brigade("Red Brigade", red);
    state.brigades[blue_brigade.0].pips = 4;
    state.brigades[red_brigade.0].status =
        [BrigadeStatus::Fresh, BrigadeStatus::Hesitant, BrigadeStatus::Broken][c.defender_status];
    let formation = if c.charger_column { "assault_column" } else { "line" };
    let mut charger = Unit::new(
        "Charger",
        blue,
        Arm::Infantry,
        c.charger_stands,
        QUALITIES[c.charger_quality],
        "rifled_musket",
        formation,
    );
    charger.starting_stands = c.charger_stands + c.charger_lost;
    charger.micro_hit = u8::from(c.charger_micro);
    charger.traits = c.charger_traits.iter().map(|t| t.to_string()).collect();
    let weapon = DEFENDER_WEAPONS[c.defender_weapon];
    let artillery =
        rules.data.weapon(weapon).is_some_and(|w| w.class == dotc_lang::library::WeaponClass::Artillery);
    let mut defender = if artillery {
        Unit::new("Defender", red, Arm::Battery { limbered: false }, 1, "regular", weapon, "line")
    } else {
        Unit::new(
            "Defender",
            red,
            Arm::Infantry,
            c.defender_stands,
            QUALITIES[c.defender_quality],
            weapon,
            "line",
        )
    };
    defender.traits = c.defender_traits.iter().map(|t| t.to_string()).collect();
    let charger = state.add_unit(charger, Some(blue_brigade));
    let defender = state.add_unit(defender, Some(red_brigade));
    if c.brigadier {
        let b = state.add_leader("Brigadier", blue, LeaderRank::Brigadier, "reliable", Some(blue_brigade));
        state.leaders[b.0].attached = Some(charger);
    }
    let closing_volley = c.volley.then(|| {
        let mut input = FireInput::at(4.0, FireKind::Closing);
        if c.cover {
            input.cover = CoverInput { class: CoverClass::Light, from: None, frontal_obstacle: false };
        }
        input
    });
    let [momentum, flank, counter_charge] = c.melee;
    let input = AssaultInput {
        distance: c.distance,
        brigadier_distance: None,
        coordinated: false,
        closing_volley,
        melee: MeleeInput {
            momentum,
            flank,
            counter_charge,
            defender_terrain: GROUND[c.ground].map(str::to_string),
            ..MeleeInput::default()
        },
    };
    let plan = plan_assault(&rules, &mut state, charger, defender, &input, Payment::Pay).ok()?;
    Some((rules, state, plan))
}

fn assert_same(exact: &PlannedAssaultOdds, engine: &PlannedAssaultOdds, c: &Charge) {
    let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
    let pairs = [
        ("p_destroyed", exact.p_destroyed, engine.p_destroyed),
        ("p_stalled", exact.p_stalled, engine.p_stalled),
        ("p_routed", exact.p_routed, engine.p_routed),
        ("p_overrun", exact.p_overrun, engine.p_overrun),
        ("p_attacker_wins", exact.p_attacker_wins, engine.p_attacker_wins),
        ("p_draw", exact.p_draw, engine.p_draw),
        ("p_defender_wins", exact.p_defender_wins, engine.p_defender_wins),
        ("p_pre_contact_check", exact.p_pre_contact_check, engine.p_pre_contact_check),
        ("p_contact_disordered", exact.p_contact_disordered, engine.p_contact_disordered),
        (
            "expected_stands_lost_to_volley",
            exact.expected_stands_lost_to_volley,
            engine.expected_stands_lost_to_volley,
        ),
    ];
    for (name, a, b) in pairs {
        assert!(close(a, b), "{name}: odds {a} vs engine {b} in {c:#?}");
    }
    let total = exact.p_destroyed + exact.p_stalled + exact.p_routed + exact.p_overrun + exact.p_melee;
    assert!(close(total, 1.0), "the endings sum to {total} in {c:#?}");
    let n = exact.stands_lost_to_volley.len().max(engine.stands_lost_to_volley.len());
    for k in 0..n {
        let a = exact.stands_lost_to_volley.get(k).copied().unwrap_or(0.0);
        let b = engine.stands_lost_to_volley.get(k).copied().unwrap_or(0.0);
        assert!(close(a, b), "P({k} stands lost to the volley): odds {a} vs engine {b} in {c:#?}");
    }
}

/// The engine's runs allowed for one exhaustive walk of the dice.
const BUDGET: u64 = 25_000;

#[test]
fn the_odds_of_a_whole_assault_are_the_engines_over_every_dice_outcome() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = charge();
    let (mut compared, mut drawn) = (0, 0);
    let mut seen_endings = [false; 4];
    while compared < 40 && drawn < 2_000 {
        drawn += 1;
        let c = strategy.new_tree(&mut runner).expect("a charge").current();
        let Some((rules, declared, plan)) = set_up(&c) else { continue };
        let Some(engine) =
            exhaustive_assault(&rules, &declared, &plan, BUDGET).expect("the engine resolves it")
        else {
            continue;
        };
        let exact = assault_plan_odds(&rules, &declared, &plan).expect("the odds price it");
        assert_same(&exact, &engine, &c);
        compared += 1;
        seen_endings[0] |= exact.p_destroyed > 0.0;
        seen_endings[1] |= exact.p_stalled > 0.0;
        seen_endings[2] |= exact.p_melee > 0.0;
        seen_endings[3] |= exact.p_pre_contact_check > 0.0;
    }
    assert_eq!(compared, 40, "40 charges compared ({drawn} drawn)");
    assert_eq!(seen_endings, [true; 4], "the charges reach every ending: destroyed, stalled, melee, a check");
}

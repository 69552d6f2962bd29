//! Properties every resolution keeps, whatever the dice (proptest).
//!
//! Random regiments, batteries and cavalry fight random volleys, melees and assaults on seeded
//! dice. After every resolution: no unit has more stands than before (stands never grow), the
//! micro-hit is 0 or 1 (RULE-05-3.3), a removed unit has no stands, every brigade's tally equals
//! the clock stands its units have lost (RULE-07-2.2, RULINGS G5) and never falls, and a brigade's
//! state never goes back (Fresh -> Hesitant -> Broken, RULE-07-2.3, 2.4). A resolution that fails
//! (an illegal order) leaves the state exactly as it was.

use proptest::prelude::*;

use dotc_lang::library::CoverClass;

use super::assault::{AssaultInput, resolve_assault};
use super::events::BrigadeStatus;
use super::fire::{CoverInput, FireInput, FireKind, resolve_volley};
use super::melee::{MeleeInput, resolve_melee};
use super::state::{Arm, GameState, Unit, UnitId};
use super::testkit::{Table, rules_with};
use super::{EngineError, Rules};
use crate::dice::SeededDice;
use crate::rulings::Rulings;

const WEAPONS: &[&str] = &["smoothbore_musket", "rifled_musket", "repeating_rifle", "breechloading_carbine"];
const QUALITIES: &[&str] = &["green", "regular", "veteran", "elite"];
const FORMATIONS: &[&str] = &["line", "assault_column", "road_column", "skirmish"];
const GUNS: &[&str] = &["napoleon", "ordnance_rifle", "parrott_rifle", "field_howitzer"];

#[derive(Clone, Debug)]
struct UnitSpec {
    side_blue: bool,
    stands: u32,
    lost: u32,
    quality: usize,
    weapon: usize,
    formation: usize,
    battery: bool,
    disordered: bool,
    micro: bool,
    traits: Vec<&'static str>,
}

fn unit_spec() -> impl Strategy<Value = UnitSpec> {
    (
        any::<bool>(),
        2u32..=8,
        0u32..=3,
        0..QUALITIES.len(),
        0..WEAPONS.len(),
        0..FORMATIONS.len(),
        prop::bool::weighted(0.2),
        any::<bool>(),
        any::<bool>(),
        prop::sample::subsequence(
            vec!["rebel_yell", "iron_discipline", "steady", "sharpshooters", "buck_and_ball"],
            0..=2,
        ),
    )
        .prop_map(
            |(side_blue, stands, lost, quality, weapon, formation, battery, disordered, micro, traits)| {
                UnitSpec {
                    side_blue,
                    stands,
                    lost: lost.min(stands.saturating_sub(2)),
                    quality,
                    weapon,
                    formation,
                    battery,
                    disordered,
                    micro,
                    traits,
                }
            },
        )
}

#[derive(Clone, Debug)]
enum Action {
    Volley { firer: usize, target: usize, range: f64, cover: u8, enfilade: bool, smoke: bool, kind: u8 },
    Melee { attacker: usize, defender: usize, momentum: bool, flank: bool },
    Assault { charger: usize, target: usize, distance: f64, volley: bool },
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        (0usize..8, 0usize..8, 0.5f64..36.0, 0u8..3, any::<bool>(), any::<bool>(), 0u8..3).prop_map(
            |(firer, target, range, cover, enfilade, smoke, kind)| Action::Volley {
                firer,
                target,
                range,
                cover,
                enfilade,
                smoke,
                kind
            }
        ),
        (0usize..8, 0usize..8, any::<bool>(), any::<bool>()).prop_map(
            |(attacker, defender, momentum, flank)| Action::Melee { attacker, defender, momentum, flank }
        ),
        (0usize..8, 0usize..8, 1.0f64..12.0, any::<bool>()).prop_map(
            |(charger, target, distance, volley)| Action::Assault { charger, target, distance, volley }
        ),
    ]
}

fn build(specs: &[UnitSpec]) -> (Table, Vec<UnitId>) {
    let mut t = Table::new();
    let mut ids = Vec::new();
    for (i, s) in specs.iter().enumerate() {
        let side = if s.side_blue { t.blue } else { t.red };
        let name = format!("Unit {i}");
        let id = if s.battery {
            t.battery(&name, side, s.stands.min(3), GUNS[s.weapon % GUNS.len()])
        } else {
            t.infantry(
                &name,
                side,
                s.stands,
                QUALITIES[s.quality],
                WEAPONS[s.weapon],
                FORMATIONS[s.formation],
            )
        };
        let u = t.unit_mut(id);
        u.stands -= s.lost.min(u.stands.saturating_sub(1));
        u.markers.disorder = s.disordered;
        u.micro_hit = u8::from(s.micro);
        if !s.battery {
            u.traits.extend(s.traits.iter().map(|t| t.to_string()));
        }
        ids.push(id);
    }
    // The stands already lost at setup are not on the tally: start the clock from here.
    let starting: Vec<u32> = t.state.brigades.iter().map(|_| 0).collect();
    for (b, _) in starting.iter().enumerate() {
        let clock: u32 =
            t.state.units.iter().filter(|u| u.brigade.map(|x| x.0) == Some(b)).map(Unit::clock_stands).sum();
        t.state.brigades[b].starting_stands = clock.max(1);
    }
    for b in &mut t.state.brigades {
        b.pips = 3;
    }
    (t, ids)
}

fn clock_left(state: &GameState, brigade: usize) -> u32 {
    state.units.iter().filter(|u| u.brigade.map(|b| b.0) == Some(brigade)).map(Unit::clock_stands).sum()
}

fn rank(s: BrigadeStatus) -> u8 {
    match s {
        BrigadeStatus::Fresh => 0,
        BrigadeStatus::Hesitant => 1,
        BrigadeStatus::Broken => 2,
    }
}

fn run(
    rules: &Rules,
    state: &mut GameState,
    ids: &[UnitId],
    action: &Action,
    dice: &mut SeededDice,
) -> Result<(), EngineError> {
    let pick = |i: usize| ids[i % ids.len()];
    match *action {
        Action::Volley { firer, target, range, cover, enfilade, smoke, kind } => {
            let kind = [FireKind::Phase3, FireKind::Opportunity, FireKind::Closing][usize::from(kind) % 3];
            let mut input = FireInput::at(range, kind);
            let class = [CoverClass::None, CoverClass::Light, CoverClass::Heavy][usize::from(cover) % 3];
            input.cover = CoverInput { class, from: None, frontal_obstacle: class == CoverClass::Light };
            input.enfilade = enfilade;
            input.smoke = smoke;
            resolve_volley(rules, state, pick(firer), pick(target), &input, dice).map(|_| ())
        }
        Action::Melee { attacker, defender, momentum, flank } => {
            let (a, d) = (pick(attacker), pick(defender));
            let (ae, de) = super::melee::default_engaged(rules, state, a, d);
            let input = MeleeInput {
                attacker_engaged: ae,
                defender_engaged: de,
                momentum,
                flank,
                ..MeleeInput::default()
            };
            resolve_melee(rules, state, a, d, &input, dice).map(|_| ())
        }
        Action::Assault { charger, target, distance, volley } => {
            let (c, t) = (pick(charger), pick(target));
            let (ae, de) = super::melee::default_engaged(rules, state, c, t);
            let input = AssaultInput {
                distance,
                brigadier_distance: None,
                coordinated: false,
                closing_volley: volley.then(|| FireInput::at(4.0, FireKind::Closing)),
                melee: MeleeInput { attacker_engaged: ae, defender_engaged: de, ..MeleeInput::default() },
            };
            resolve_assault(rules, state, c, t, &input, dice).map(|_| ())
        }
    }
}

fn rulings() -> impl Strategy<Value = Rulings> {
    (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(printed, routed, unclamped)| {
        let mut r = if printed { Rulings::as_printed() } else { Rulings::default() };
        if routed {
            r.disordered_melee_loss = crate::rulings::DisorderedMeleeLoss::Routed;
        }
        if unclamped {
            r.to_hit_limits = crate::rulings::ToHitLimits::Unclamped;
        }
        r
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn resolutions_keep_the_invariants(
        specs in prop::collection::vec(unit_spec(), 2..8),
        actions in prop::collection::vec(action(), 1..12),
        seed in any::<u64>(),
        rulings in rulings(),
    ) {
        let rules = rules_with(rulings, &["low_ammo", "clean_barrels"]);
        let (mut t, ids) = build(&specs);
        let initial: Vec<u32> = (0..t.state.brigades.len()).map(|b| clock_left(&t.state, b)).collect();
        let mut dice = SeededDice::new(seed);
        for action in &actions {
            let before = t.state.clone();
            let result = run(&rules, &mut t.state, &ids, action, &mut dice);
            if result.is_err() {
                // Illegal orders change nothing.
                prop_assert_eq!(&t.state, &before);
                continue;
            }
            for (u, b) in t.state.units.iter().zip(&before.units) {
                prop_assert!(u.stands <= b.stands, "{} grew from {} to {}", u.name, b.stands, u.stands);
                prop_assert!(u.micro_hit <= 1, "{} micro-hit {}", u.name, u.micro_hit);
                prop_assert!(!u.removed || u.stands == 0, "{} removed with {} stands", u.name, u.stands);
                if matches!(u.arm, Arm::Infantry) && !u.removed {
                    prop_assert!(u.stands >= 2, "{} should have shattered at {} stands", u.name, u.stands);
                }
            }
            for (i, (b, was)) in t.state.brigades.iter().zip(&before.brigades).enumerate() {
                prop_assert!(b.losses >= was.losses);
                prop_assert!(rank(b.status) >= rank(was.status));
                prop_assert_eq!(b.losses, initial[i] - clock_left(&t.state, i), "{} tally", b.name);
            }
        }
    }
}

//! The odds and the engine agree: over random volleys (weapons, stands, ranges, cover, formations,
//! markers, traits, screens, modules and rulings on and off), the engine resolving a volley's plan
//! on every dice outcome gives exactly the distribution [`plan_odds`] computes from the same plan:
//! the hits, the unsaved hits, the stands the fire removes, the chance of a Shock trigger and of
//! Shock disordering the target (Ch16 5.0-5.7, RULE-05-2.x, 3.x, 4.x, RULINGS C3, G1, G9, G12).
//!
//! The engine is run once per outcome of the dice that decide those numbers: the to-hit dice and
//! their re-rolls, the Shock save and the cover saves with a Steady re-roll. The dice after the
//! casualties (Seen the Elephant, a Spent target's test, the leader's roll) cannot change them
//! and are fixed. Small pools are enumerated face by face. Larger pools are enumerated by the
//! classes of faces the rules tell apart (a 1, a miss, a hit, a 6 for a to-hit die; a pass or a
//! fail for a save or a test), each class weighted by its faces: the engine only compares faces
//! with those numbers, and the small pools check that face by face.

use proptest::prelude::*;
use proptest::strategy::ValueTree;

use dotc_lang::library::CoverClass;

use super::plan_odds;
use crate::dice::{DiceError, DiceSource, Purpose, Roll};
use crate::engine::Rules;
use crate::engine::events::BrigadeStatus;
use crate::engine::fire::{
    CoverInput, FireInput, FireKind, VolleyPlan, casualty_table, plan_volley, resolve_plan,
};
use crate::engine::state::{Arm, GameState, LeaderRank, Screen, Unit, UnitId};
use crate::engine::testkit::rules_with;
use crate::rulings::Rulings;

const WEAPONS: &[&str] = &[
    "smoothbore_musket",
    "rifled_musket",
    "repeating_rifle",
    "breechloading_carbine",
    "shotgun_revolvers",
    "napoleon",
    "ordnance_rifle",
    "field_howitzer",
];
const QUALITIES: &[&str] = &["green", "regular", "veteran", "elite"];
const TARGET_FORMATIONS: &[&str] = &["line", "assault_column", "road_column", "skirmish", "open_order"];
const FIRER_TRAITS: &[&str] = &["sharpshooters", "buck_and_ball", "steady"];
const TARGET_TRAITS: &[&str] =
    &["steady", "iron_discipline", "seen_the_elephant", "rebel_yell", "elite_sharpshooters"];
const MODULES: &[&str] = &["clean_barrels", "low_ammo", "open_order", "plunging_fire", "elite_sharpshooters"];

/// One random volley: the table, the rules and the shot.
#[derive(Clone, Debug)]
struct Situation {
    rulings: Vec<usize>,
    modules: Vec<&'static str>,
    weapon: usize,
    firer_stands: u32,
    firer_markers: [bool; 4],
    firer_traits: Vec<&'static str>,
    hesitant: bool,
    target_quality: usize,
    target_formation: usize,
    target_stands: u32,
    target_lost: u32,
    target_micro: bool,
    target_disordered: bool,
    target_screen: Option<u32>,
    target_traits: Vec<&'static str>,
    target_leader: bool,
    crossfire: bool,
    range_share: f64,
    kind: usize,
    cover: usize,
    shot_flags: [bool; 6],
}

fn situation() -> impl Strategy<Value = Situation> {
    let rulings = prop::collection::vec(0usize..4, dotc_lang::rulings::RULINGS.len());
    let table = (
        rulings,
        prop::sample::subsequence(MODULES.to_vec(), 0..=MODULES.len()),
        0..WEAPONS.len(),
        1u32..=3,
        any::<[bool; 4]>(),
        prop::sample::subsequence(FIRER_TRAITS.to_vec(), 0..=2),
        prop::bool::weighted(0.2),
    );
    let target = (
        0..QUALITIES.len(),
        0..TARGET_FORMATIONS.len(),
        2u32..=8,
        0u32..=4,
        any::<bool>(),
        any::<bool>(),
        prop::option::weighted(0.3, 0u32..=1),
        prop::sample::subsequence(TARGET_TRAITS.to_vec(), 0..=2),
        prop::bool::weighted(0.3),
        prop::bool::weighted(0.3),
    );
    let shot = (0.0f64..=1.0, 0usize..3, 0usize..4, any::<[bool; 6]>());
    (table, target, shot).prop_map(
        |(
            (rulings, modules, weapon, firer_stands, firer_markers, firer_traits, hesitant),
            (
                target_quality,
                target_formation,
                target_stands,
                target_lost,
                target_micro,
                target_disordered,
                target_screen,
                target_traits,
                target_leader,
                crossfire,
            ),
            (range_share, kind, cover, shot_flags),
        )| Situation {
            rulings,
            modules,
            weapon,
            firer_stands,
            firer_markers,
            firer_traits,
            hesitant,
            target_quality,
            target_formation,
            target_stands,
            target_lost,
            target_micro,
            target_disordered,
            target_screen,
            target_traits,
            target_leader,
            crossfire,
            range_share,
            kind,
            cover,
            shot_flags,
        },
    )
}

/// The rules, the table and the shot a situation describes.
fn set_up(s: &Situation) -> (Rules, GameState, UnitId, UnitId, FireInput) {
    let mut rulings = Rulings::default();
    for (spec, &pick) in dotc_lang::rulings::RULINGS.iter().zip(&s.rulings) {
        let value = spec.values[pick % spec.values.len()];
        rulings.set(spec.name, value).expect("a value of the register");
    }
    let rules = rules_with(rulings, &s.modules);
    let mut state = GameState { turn: 1, ..GameState::default() };
    let (blue, red) = (state.add_side("Blue"), state.add_side("Red"));
    let blue_brigade = state.add_brigade("Blue Brigade", blue);
    let red_brigade = state.add_brigade("Red Brigade", red);
    if s.hesitant {
        state.brigades[blue_brigade.0].status = BrigadeStatus::Hesitant;
    }
    let weapon = WEAPONS[s.weapon];
    let data = &rules.data;
    let class = data.weapon(weapon).map(|w| w.class);
    let arm = match class {
        Some(dotc_lang::library::WeaponClass::Artillery) => Arm::Battery { limbered: false },
        Some(dotc_lang::library::WeaponClass::Carbine | dotc_lang::library::WeaponClass::Shotgun) => {
            Arm::Cavalry { mounted: false, horse_holders: 0, can_remount: true }
        }
        _ => Arm::Infantry,
    };
    let battery = matches!(arm, Arm::Battery { .. });
    let stands = if battery { s.firer_stands.min(2) } else { s.firer_stands };
    let mut firer = Unit::new("Firer", blue, arm.clone(), stands, "regular", weapon, "line");
    let [disorder, gunsmoke, low_ammo, clean_barrels] = s.firer_markers;
    firer.markers.disorder = disorder;
    firer.markers.gunsmoke = gunsmoke;
    firer.markers.low_ammo = low_ammo;
    firer.markers.clean_barrels = clean_barrels;
    firer.traits = s.firer_traits.iter().map(|t| t.to_string()).collect();
    let mut target = Unit::new(
        "Target",
        red,
        Arm::Infantry,
        s.target_stands,
        QUALITIES[s.target_quality],
        "rifled_musket",
        TARGET_FORMATIONS[s.target_formation],
    );
    target.starting_stands = s.target_stands + s.target_lost;
    target.micro_hit = u8::from(s.target_micro);
    target.markers.disorder = s.target_disordered;
    target.screen = s.target_screen.map(|hits| Screen { hits });
    target.traits = s.target_traits.iter().map(|t| t.to_string()).collect();
    let firer = state.add_unit(firer, Some(blue_brigade));
    let target = state.add_unit(target, Some(red_brigade));
    if s.crossfire {
        let other = Unit::new("Other", blue, Arm::Infantry, 4, "regular", "rifled_musket", "line");
        let other = state.add_unit(other, Some(blue_brigade));
        state.units[target.0].turn.fired_on_by.push(other);
    }
    if s.target_leader {
        let leader = state.add_leader("Colonel", red, LeaderRank::Brigadier, "reliable", Some(red_brigade));
        state.leaders[leader.0].attached = Some(target);
    }
    let max = data.weapon(weapon).map_or(1.0, |w| w.max_range(crate::engine::fire::plan::weapon_arm(&arm)));
    let kind = [FireKind::Phase3, FireKind::Opportunity, FireKind::Closing][s.kind];
    let mut input = FireInput::at((max * s.range_share * 4.0).round() / 4.0, kind);
    input.cover = match s.cover {
        0 => CoverInput::open(),
        1 => CoverInput { class: CoverClass::Light, from: None, frontal_obstacle: true },
        2 => CoverInput { class: CoverClass::Light, from: None, frontal_obstacle: false },
        _ => CoverInput { class: CoverClass::Heavy, from: None, frontal_obstacle: false },
    };
    let [smoke, through_screen, enfilade, pivoted, squall, concentrated] = s.shot_flags;
    input.smoke = smoke;
    input.through_screen = through_screen;
    input.enfilade = enfilade;
    input.pivoted = pivoted;
    input.squall = squall;
    input.concentrated = concentrated && battery && kind == FireKind::Phase3;
    (rules, state, firer, target, input)
}

/// How the enumeration splits a die.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Split {
    /// Every face apart.
    Faces,
    /// The classes of faces the rules tell apart.
    Classes,
}

/// A die of the enumeration: the faces it may show, each with its chance.
fn options(split: Split, cuts: &[i32]) -> Vec<(u8, f64)> {
    if split == Split::Faces {
        return (1..=6).map(|f| (f, 1.0 / 6.0)).collect();
    }
    // A class starts at 1 and at each cut inside 2..=6; its first face stands for it.
    let mut out: Vec<(u8, f64)> = Vec::new();
    for f in 1..=6u8 {
        if f == 1 || cuts.contains(&i32::from(f)) {
            out.push((f, 1.0 / 6.0));
        } else if let Some(last) = out.last_mut() {
            last.1 += 1.0 / 6.0;
        }
    }
    out
}

/// A dice source that walks the tree of outcomes: at each branching die it shows the option
/// the current path picks (the first one past the path), and it records the options met.
struct Walk<'a> {
    plan: &'a VolleyPlan,
    split: Split,
    path: &'a [usize],
    /// The number of options at each branching die of this run, and the chance of the one taken.
    met: Vec<(usize, f64)>,
    saves_asked: bool,
    discipline_asked: bool,
    consumed: Vec<Roll>,
}

impl Walk<'_> {
    /// The options of the next die for `purpose`, or None for a die fixed at 4 (one that cannot
    /// change what is compared).
    fn branch(&mut self, purpose: Purpose) -> Option<Vec<(u8, f64)>> {
        match purpose {
            Purpose::ToHit => Some(options(self.split, &[2, self.plan.to_hit, 6])),
            Purpose::Save => {
                self.saves_asked = true;
                Some(options(self.split, &[self.plan.save.save.unwrap_or(7)]))
            }
            // The Shock save comes before any cover save; a test after them is a follow-up.
            Purpose::Discipline if !self.saves_asked && !self.discipline_asked => {
                self.discipline_asked = true;
                let needed = self.plan.shock.save.as_ref().map_or(4, |s| s.needed);
                Some(options(self.split, &[needed]))
            }
            _ => None,
        }
    }
}

impl DiceSource for Walk<'_> {
    fn roll(&mut self, purpose: Purpose, count: usize) -> Result<Vec<u8>, DiceError> {
        let mut faces = Vec::with_capacity(count);
        for _ in 0..count {
            let face = match self.branch(purpose) {
                Some(opts) => {
                    let at = self.met.len();
                    let pick = self.path.get(at).copied().unwrap_or(0);
                    let (face, p) = opts[pick];
                    self.met.push((opts.len(), p));
                    face
                }
                None => 4,
            };
            faces.push(face);
        }
        self.consumed.push(Roll { purpose, faces: faces.clone() });
        Ok(faces)
    }

    fn consumed(&self) -> &[Roll] {
        &self.consumed
    }
}

/// The engine's distributions over every outcome: hits, unsaved hits, stands lost to the fire,
/// and the chances of a Shock trigger and of Shock disordering the target.
struct Enumerated {
    hits: Vec<f64>,
    unsaved: Vec<f64>,
    stands_lost: Vec<f64>,
    p_shock: f64,
    p_shock_disorder: f64,
    runs: usize,
}

fn add(dist: &mut Vec<f64>, k: u32, w: f64) {
    let k = k as usize;
    if dist.len() <= k {
        dist.resize(k + 1, 0.0);
    }
    dist[k] += w;
}

fn enumerate(rules: &Rules, state: &GameState, plan: &VolleyPlan, split: Split) -> Enumerated {
    let mut out = Enumerated {
        hits: Vec::new(),
        unsaved: Vec::new(),
        stands_lost: Vec::new(),
        p_shock: 0.0,
        p_shock_disorder: 0.0,
        runs: 0,
    };
    let mut path: Vec<usize> = Vec::new();
    loop {
        let mut table = state.clone();
        let mut walk = Walk {
            plan,
            split,
            path: &path,
            met: Vec::new(),
            saves_asked: false,
            discipline_asked: false,
            consumed: Vec::new(),
        };
        let report = resolve_plan(rules, &mut table, plan, &mut walk).expect("a planned volley resolves");
        let w: f64 = walk.met.iter().map(|(_, p)| p).product();
        let met: Vec<usize> = walk.met.iter().map(|(n, _)| *n).collect();
        out.runs += 1;
        add(&mut out.hits, report.hits, w);
        add(&mut out.unsaved, report.unsaved, w);
        add(&mut out.stands_lost, report.stands_lost_to_fire, w);
        if report.shock_trigger {
            out.p_shock += w;
        }
        if report.shock_disordered {
            out.p_shock_disorder += w;
        }
        // The next path: the last branching die with an option left moves on, the rest restart.
        let mut next: Vec<usize> = (0..met.len()).map(|i| path.get(i).copied().unwrap_or(0)).collect();
        loop {
            match next.last().copied() {
                None => return out,
                Some(last) if last + 1 < met[next.len() - 1] => {
                    let i = next.len() - 1;
                    next[i] += 1;
                    break;
                }
                Some(_) => {
                    next.pop();
                }
            }
        }
        path = next;
    }
}

fn assert_same(what: &str, engine: &[f64], odds: &[f64]) -> Result<(), TestCaseError> {
    let n = engine.len().max(odds.len());
    for k in 0..n {
        let (e, o) = (engine.get(k).copied().unwrap_or(0.0), odds.get(k).copied().unwrap_or(0.0));
        prop_assert!((e - o).abs() < 1e-9, "{what}[{k}]: the engine gives {e}, the odds {o}");
    }
    Ok(())
}

/// Resolve every outcome and compare with the odds. Returns the engine runs made.
fn check(s: &Situation, max_dice: u32, split: Split) -> Result<usize, TestCaseError> {
    let (rules, state, firer, target, input) = set_up(s);
    let Ok(plan) = plan_volley(&rules, &state, firer, target, &input) else { return Ok(0) };
    if plan.dice > max_dice {
        return Ok(0);
    }
    let casualties = casualty_table(&rules, &state, &plan).expect("a casualty table");
    let odds = plan_odds(&plan, &casualties);
    let engine = enumerate(&rules, &state, &plan, split);
    let total: f64 = engine.hits.iter().sum();
    prop_assert!((total - 1.0).abs() < 1e-9, "the outcomes' chances add up to {total}");
    assert_same("hits", &engine.hits, &odds.hits)?;
    assert_same("unsaved", &engine.unsaved, &odds.unsaved)?;
    assert_same("stands lost", &engine.stands_lost, &odds.stands_lost)?;
    prop_assert!(
        (engine.p_shock - odds.p_shock).abs() < 1e-9,
        "p_shock {} vs {}",
        engine.p_shock,
        odds.p_shock
    );
    prop_assert!(
        (engine.p_shock_disorder - odds.p_shock_disorder).abs() < 1e-9,
        "p_shock_disorder {} vs {}",
        engine.p_shock_disorder,
        odds.p_shock_disorder
    );
    Ok(engine.runs)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Pools of up to two dice, every face of every die.
    #[test]
    fn the_engine_on_every_face_gives_the_odds(s in situation()) {
        check(&s, 2, Split::Faces)?;
    }

    /// Pools of up to five dice, every class of face.
    #[test]
    fn the_engine_on_every_class_of_face_gives_the_odds(s in situation()) {
        check(&s, 5, Split::Classes)?;
    }
}

/// The two enumerations agree where both apply, so the classes lose nothing.
#[test]
fn classes_of_faces_give_what_every_face_gives() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut checked = 0;
    for _ in 0..200 {
        let s = situation().new_tree(&mut runner).expect("a situation").current();
        let (rules, state, firer, target, input) = set_up(&s);
        let Ok(plan) = plan_volley(&rules, &state, firer, target, &input) else { continue };
        if plan.dice > 2 {
            continue;
        }
        let faces = enumerate(&rules, &state, &plan, Split::Faces);
        let classes = enumerate(&rules, &state, &plan, Split::Classes);
        for (what, a, b) in [
            ("hits", &faces.hits, &classes.hits),
            ("unsaved", &faces.unsaved, &classes.unsaved),
            ("stands lost", &faces.stands_lost, &classes.stands_lost),
        ] {
            for k in 0..a.len().max(b.len()) {
                let (x, y) = (a.get(k).copied().unwrap_or(0.0), b.get(k).copied().unwrap_or(0.0));
                assert!((x - y).abs() < 1e-9, "{what}[{k}]: {x} face by face, {y} by classes ({s:?})");
            }
        }
        assert!((faces.p_shock - classes.p_shock).abs() < 1e-9);
        assert!((faces.p_shock_disorder - classes.p_shock_disorder).abs() < 1e-9);
        checked += 1;
    }
    assert!(checked >= 50, "only {checked} legal small volleys were drawn");
}

/// A volley worked by hand: two rifled-musket stands at 10" (4+ to hit) at a line in the open
/// (no save); past 6" a Shock trigger takes two natural 6s (RULE-05-2.2, Ch16 5.5, RULINGS C3).
#[test]
fn rule_05_2_2_two_rifled_muskets_at_ten_inches() {
    let s = Situation {
        rulings: vec![0; dotc_lang::rulings::RULINGS.len()],
        modules: Vec::new(),
        weapon: 1,
        firer_stands: 2,
        firer_markers: [false; 4],
        firer_traits: Vec::new(),
        hesitant: false,
        target_quality: 1,
        target_formation: 0,
        target_stands: 6,
        target_lost: 0,
        target_micro: false,
        target_disordered: false,
        target_screen: None,
        target_traits: Vec::new(),
        target_leader: false,
        crossfire: false,
        range_share: 0.0,
        kind: 0,
        cover: 0,
        shot_flags: [false; 6],
    };
    let (rules, state, firer, target, mut input) = set_up(&s);
    input.range = 10.0;
    let plan = plan_volley(&rules, &state, firer, target, &input).expect("a legal volley");
    assert_eq!((plan.dice, plan.to_hit, plan.save.save), (2, 4, None));
    let odds = plan_odds(&plan, &casualty_table(&rules, &state, &plan).expect("a casualty table"));
    // Each die hits on 4, 5 or 6: 1/4, 1/2, 1/4 for 0, 1, 2 hits; all hits go unsaved; two
    // unsaved hits remove a stand; two sixes (1/36) make the trigger beyond 6".
    assert_eq!(odds.hits, vec![0.25, 0.5, 0.25]);
    assert_eq!(odds.unsaved, vec![0.25, 0.5, 0.25]);
    assert_eq!(odds.stands_lost, vec![0.75, 0.25]);
    assert!((odds.p_shock - 1.0 / 36.0).abs() < 1e-12);
    let engine = enumerate(&rules, &state, &plan, Split::Faces);
    // 35 rolls without two sixes, and the (6, 6) roll once for each face of its Shock save.
    assert_eq!(engine.runs, 35 + 6);
}

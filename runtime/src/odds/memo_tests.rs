//! What the odds keep between queries gives the answers of a fresh computation: the kept
//! stand-in table ([`with_query_table`]), the remembered casualty table
//! ([`remembered_casualty_table`], RULE-05-3.3, 3.4, RULE-07-2.x), the last volley's
//! distributions kept with the numbers they came from ([`Scratch`]) and the save rows worked out
//! once per volley ([`SaveRows`], RULE-05-3.1, Ch16 9.0 Steady).

use super::*;
use crate::engine::events::BrigadeStatus;
use crate::engine::fire::casualty_table;

fn data() -> &'static RuleData {
    dotc_lang::stdlib()
}

/// Queries that differ in everything the stand-in table takes from a query, in an order where
/// each undoes some of what the one before it set (traits, a screen, Hesitant, Disorder...).
fn queries() -> Vec<FireQuery> {
    let mut out = Vec::new();
    let mut q = FireQuery::new("rifled_musket", 5, 10.0);
    q.cover = Cover::Heavy;
    out.push(q.clone());
    q.traits = vec!["sharpshooters".into()];
    q.target_traits = vec!["steady".into(), "iron_discipline".into()];
    q.target = TargetFormation::Column;
    q.target_screened = true;
    q.hesitant = true;
    q.disordered = true;
    q.low_ammo = true;
    out.push(q);
    out.push(FireQuery::new("napoleon", 2, 3.0));
    let mut q = FireQuery::new("breechloading_carbine", 4, 8.0);
    q.target = TargetFormation::Skirmish;
    q.target_traits = vec!["seen_the_elephant".into()];
    out.push(q);
    let mut q = FireQuery::new("field_howitzer", 3, 12.0);
    q.cover = Cover::Light;
    q.concentrated = true;
    q.target_screened = true;
    out.push(q);
    out.push(FireQuery::new("rifled_musket", 5, 10.0));
    let mut q = FireQuery::new("smoothbore_musket", 9, 2.0);
    q.traits = vec!["buck_and_ball".into()];
    q.target = TargetFormation::Road;
    q.kind = FireKind::Closing;
    out.push(q);
    // The traits named count only with their module on (Ch13 5.0, dotc D8).
    for q in &mut out {
        q.modules.push("army_traits".into());
    }
    out
}

/// The table a query describes, set up the way any table is (sides, brigades, then units,
/// RULE-07-2.2 counting the brigades' starting stands), with none of the odds' own helpers.
fn set_up_plainly(q: &FireQuery, checked: &Checked) -> GameState {
    let mut state = GameState { turn: 1, ..GameState::default() };
    let (blue, red) = (state.add_side("Blue"), state.add_side("Red"));
    let (blue_brigade, red_brigade) =
        (state.add_brigade("Firer's brigade", blue), state.add_brigade("Target's brigade", red));
    if q.hesitant {
        state.brigades[blue_brigade.0].status = BrigadeStatus::Hesitant;
    }
    let mut firer = Unit::new("Firer", blue, checked.arm.clone(), q.stands, "regular", &q.weapon, "line");
    firer.markers.disorder = q.disordered;
    firer.markers.low_ammo = q.low_ammo;
    firer.traits = q.traits.clone();
    let mut target = Unit::new(
        "Target",
        red,
        Arm::Infantry,
        checked.target_stands,
        "regular",
        "rifled_musket",
        q.target.formation_id(),
    );
    target.traits = q.target_traits.clone();
    if q.target_screened {
        target.screen = Some(Screen::default());
    }
    state.add_unit(firer, Some(blue_brigade));
    state.add_unit(target, Some(red_brigade));
    state
}

#[test]
fn the_kept_stand_in_table_is_the_table_set_up_afresh() {
    let rulings = Rulings::default();
    // Twice round, so every query finds the table another query left.
    for q in queries().iter().chain(queries().iter().rev()) {
        let checked = check_query(q, data(), &rulings).expect("the query is legal");
        let plain = set_up_plainly(q, &checked);
        let (_, fresh, firer, target, input) = query_table(q, data(), &rulings).expect("a table");
        assert_eq!(fresh, plain, "{q:?}");
        let kept = with_query_table(q, data(), &rulings, |_, state, f, t, i| {
            assert_eq!((f, t), (firer, target));
            assert_eq!(*i, input);
            Ok(state.clone())
        })
        .expect("a table");
        assert_eq!(kept, plain, "{q:?}");
    }
}

#[test]
fn fire_odds_with_the_kept_tables_is_the_fresh_computation() {
    for rulings in [Rulings::default(), Rulings::as_printed()] {
        for q in queries().iter().chain(queries().iter()) {
            let (rules, state, firer, target, input) = query_table(q, data(), &rulings).expect("a table");
            let plan = plan_volley(&rules, &state, firer, target, &input).expect("a plan");
            let casualties = casualty_table(&rules, &state, &plan).expect("a casualty table");
            // Nothing kept: new buffers, nothing remembered.
            let fresh = plan_odds_in(&plan, &casualties, &mut Scratch::default());
            let odds = fire_odds(q, data(), &rulings).expect("the odds");
            assert_eq!(odds, fresh, "{q:?}");
            // Bit for bit, not only equal as numbers.
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&odds.stands_lost), bits(&fresh.stands_lost));
            assert_eq!(bits(&odds.unsaved), bits(&fresh.unsaved));
            assert_eq!(odds.p_shock_disorder.to_bits(), fresh.p_shock_disorder.to_bits());
        }
    }
}

#[test]
fn a_remembered_casualty_table_is_the_fresh_one_and_follows_the_target_side() {
    let rulings = Rulings::default();
    for q in queries() {
        let (rules, mut state, firer, target, input) = query_table(&q, data(), &rulings).expect("a table");
        let plan = plan_volley(&rules, &state, firer, target, &input).expect("a plan");
        let fresh = casualty_table(&rules, &state, &plan).expect("a casualty table");
        // The first call works it out, the second reads it back: both are the fresh table.
        for _ in 0..2 {
            assert_eq!(*remembered_casualty_table(&rules, &state, &plan).expect("a table"), fresh, "{q:?}");
        }
        // The firer is not on the target's side of the table: changing it keeps the table.
        state.units[firer.0].markers.gunsmoke = !state.units[firer.0].markers.gunsmoke;
        assert_eq!(*remembered_casualty_table(&rules, &state, &plan).expect("a table"), fresh);
        // What the casualty steps read is: a micro-hit carried (RULE-05-3.3), a Disorder already
        // there (RULE-07-3.4), the brigade's losses so far (RULE-07-2.3, 2.4), other rulings.
        let changes: [&dyn Fn(&mut GameState); 3] =
            [&|s| s.units[target.0].micro_hit = 1, &|s| s.units[target.0].markers.disorder = true, &|s| {
                let b = s.units[target.0].brigade.expect("a brigade").0;
                s.brigades[b].losses = s.brigades[b].starting_stands / 2;
            }];
        for change in changes {
            let mut changed = state.clone();
            change(&mut changed);
            let plan = plan_volley(&rules, &changed, firer, target, &input).expect("a plan");
            let fresh = casualty_table(&rules, &changed, &plan).expect("a casualty table");
            assert_eq!(*remembered_casualty_table(&rules, &changed, &plan).expect("a table"), fresh, "{q:?}");
        }
        let printed = Rules::over_stdlib(Rulings::as_printed(), q.modules.iter().cloned()).expect("rules");
        let plan = plan_volley(&printed, &state, firer, target, &input).expect("a plan");
        let fresh = casualty_table(&printed, &state, &plan).expect("a casualty table");
        assert_eq!(*remembered_casualty_table(&printed, &state, &plan).expect("a table"), fresh, "{q:?}");
    }
}

#[test]
fn the_save_rows_are_unsaved_after_saves_for_every_count() {
    for (most, has_save, p_save, steady) in [
        (5, true, 0.5, false),
        (9, true, 1.0 / 3.0, true),
        (4, false, 0.0, false),
        (0, true, 0.5, true),
        (12, true, 5.0 / 6.0, true),
    ] {
        let rows = SaveRows::new(most, has_save, p_save, steady);
        for hits in 0..=most {
            assert_eq!(rows.row(hits), unsaved_after_saves(hits, has_save, p_save, steady).as_slice());
        }
    }
}

#[test]
fn the_kept_distributions_are_those_of_the_plan_priced() {
    let rulings = Rulings::default();
    let priced: Vec<(VolleyPlan, CasualtyTable)> = queries()
        .iter()
        .map(|q| {
            let (rules, state, firer, target, input) = query_table(q, data(), &rulings).expect("a table");
            let plan = plan_volley(&rules, &state, firer, target, &input).expect("a plan");
            let casualties = casualty_table(&rules, &state, &plan).expect("a casualty table");
            (plan, casualties)
        })
        .collect();
    // One buffer for all, each plan priced after a different one and then again after itself.
    let mut kept = Scratch::default();
    for (plan, casualties) in priced.iter().chain(priced.iter().rev()) {
        let fresh = plan_odds_in(plan, casualties, &mut Scratch::default());
        assert_eq!(plan_odds_in(plan, casualties, &mut kept), fresh);
        assert_eq!(plan_odds_in(plan, casualties, &mut kept), fresh);
        assert_eq!(plan_odds(plan, casualties), fresh);
    }
    // Forgotten, the thread's buffers work it out again, to the same answer.
    forget_remembered();
    let (plan, casualties) = &priced[0];
    assert_eq!(plan_odds(plan, casualties), plan_odds_in(plan, casualties, &mut Scratch::default()));
}

//! The order-of-battle sheet on a small scenario worked by hand.

use super::*;

/// Blue: brigade "A" (a 340-man regiment at 75 a stand, a 6-stand regiment that lost 2 before
/// the battle, a battery) and dismounted cavalry under the side; Red: brigade "B", due at 10:30.
fn scenario(rulings: &str) -> ast::Scenario {
    let source = format!(
        r#"scenario "T" {{
    date 1863-07-01
    start 10:00
    turn_length 15 min
    turns 8
    first_side blue
    table 48 x 36
    men_per_stand 75
    rules {{ {rulings} }}
    side blue "Blue Army" {{
        edge west
        commander "Gen. C" corps at (2, 2)
        brigade "A" {{
            brigadier "Col. A" aggressive attached "1st" wounded 1 replacement "Maj. D"
            regiment "1st" {{ men 340 veteran rifled_musket line at (2, 10) facing east traits steady }}
            regiment "2nd" {{ stands 4 lost 2 green smoothbore_musket line at (2, 16) facing east markers disorder }}
            battery "Bty" {{ sections 3 regular napoleon unlimbered at (2, 20) facing east }}
        }}
        cavalry "3rd Horse" {{ stands 5 veteran breechloading_carbine dismounted skirmish at (3, 30) facing east }}
    }}
    side red {{
        edge east
        brigade "B" {{
            brigadier "Col. B" timid
            regiment "4th" {{ stands 5 regular rifled_musket line }}
        }}
    }}
    reinforcements {{
        at 10:30 red brigade "B" enters at (46, 30) road_column
    }}
}}
"#
    );
    let parsed = dotc_lang::parse(&source);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    parsed.document.scenario.expect("a scenario")
}

fn sheet(rulings: &str) -> Sheet {
    Sheet::of(&scenario(rulings), dotc_lang::stdlib()).expect("a sheet")
}

fn unit<'s>(sheet: &'s Sheet, name: &str) -> &'s UnitRow {
    sheet.units().find(|u| u.name == name).unwrap_or_else(|| panic!("no unit {name}"))
}

fn bands(u: &UnitRow) -> Vec<(&str, u32, u32)> {
    u.health.iter().map(|b| (b.health.as_str(), b.most, b.least)).collect()
}

#[test]
fn stands_come_from_men_and_losses_before_the_battle() {
    let s = sheet("");
    // 340 / 75 = 4.53: 5 stands (the nearest whole stand, never fewer than one).
    let first = unit(&s, "1st");
    assert_eq!((first.men, first.stands, first.starting_stands), (Some(340), 5, 5));
    // `stands 4 lost 2`: it fields 4 of the 6 it brought (Ch16 8.1, RULE-07-2.2).
    let second = unit(&s, "2nd");
    assert_eq!((second.men, second.stands, second.starting_stands), (None, 4, 6));
    let bty = unit(&s, "Bty");
    assert_eq!((bty.kind.as_str(), bty.stands, bty.state.as_deref()), ("battery", 3, Some("unlimbered")));
    assert_eq!((bty.weapon.dice, bty.weapon.per.as_str()), (2, "section"));
}

#[test]
fn the_brigade_clock_counts_infantry_with_earlier_losses_and_rounds_by_g6() {
    let s = sheet("");
    let a = &s.sides[0].brigades[0];
    // 5 + 6 infantry stands (the battery is not on the clock, RULINGS G5), 2 already lost.
    assert_eq!((a.clock_stands, a.losses), (11, 2));
    // 30% of 11 = 3.3, to the nearest: 3; 50% of 11 = 5.5, rounded up: 6 (RULINGS G6).
    assert_eq!((a.hesitant_at, a.broken_at), (3, 6));
    assert_eq!(a.status, "Fresh");
    let b = &s.sides[1].brigades[0];
    assert_eq!((b.clock_stands, b.hesitant_at, b.broken_at), (5, 2, 3));
}

#[test]
fn health_bands_follow_the_health_states_ruling() {
    // RULINGS C4's default combines the two readings: over 75% Fresh; two stands or under 35%
    // Spent; one Shattered.
    let s = sheet("");
    assert_eq!(
        bands(unit(&s, "1st")),
        vec![("Fresh", 5, 4), ("Worn", 3, 3), ("Spent", 2, 2), ("Shattered", 1, 0)]
    );
    // Six brought: 5 (83%) Fresh; 4 (67%) and 3 Worn; 2 Spent (and 33%).
    assert_eq!(
        bands(unit(&s, "2nd")),
        vec![("Fresh", 6, 5), ("Worn", 4, 3), ("Spent", 2, 2), ("Shattered", 1, 0)]
    );
    // By percentages alone two of five (40%) is not under 35%: Worn.
    let p = sheet("ruling health_states = percentages");
    assert_eq!(bands(unit(&p, "1st")), vec![("Fresh", 5, 4), ("Worn", 3, 2), ("Shattered", 1, 0)]);
    // A battery's sections have no health states (RULINGS G19).
    assert!(unit(&s, "Bty").health.is_empty());
}

#[test]
fn leaders_carry_rating_attachment_wounds_and_successor() {
    let s = sheet("");
    let blue = &s.sides[0];
    assert_eq!(blue.name, "Blue Army");
    assert_eq!(
        (
            blue.commanders[0].name.as_str(),
            blue.commanders[0].rank.as_str(),
            blue.commanders[0].rating.as_str()
        ),
        ("Gen. C", "corps", "reliable")
    );
    let a = &blue.brigades[0].leaders[0];
    assert_eq!((a.rank.as_str(), a.rating.as_str()), ("brigadier", "aggressive"));
    // A commander written without a rating gets the one the engine plays him with, and its name.
    assert_eq!(blue.commanders[0].rating_name, "Reliable / Standard");
    assert_eq!((a.attached.as_deref(), a.wounded), (Some("1st"), 1));
    assert_eq!(a.successor.as_deref(), Some("Maj. D"));
    // One the scenario does not name is not invented on the sheet.
    assert_eq!(s.sides[1].brigades[0].leaders[0].successor, None);
}

#[test]
fn starts_on_the_table_or_by_the_replays_arrival_turn() {
    let s = sheet("");
    assert_eq!(unit(&s, "1st").start, Start::Table { at: (2.0, 10.0), facing: Some(90.0), garrison: None });
    // 10:30 with 15-minute turns from 10:00: turn 3 (RULINGS G7), in road column.
    let b = &s.sides[1].brigades[0];
    let due = ArrivalRow {
        when: "10:30".into(),
        turn: Some(3),
        at: (46.0, 30.0),
        formation: Some("road_column".into()),
    };
    assert_eq!(b.arrives.as_ref(), Some(&due));
    assert_eq!(unit(&s, "4th").start, Start::Arrives(due));
}

#[test]
fn traits_markers_and_the_arms_state() {
    // Steady counts only with the army traits module on (Ch13 5.0, dotc D8): the sheet lists
    // the traits the engine plays.
    let s = sheet("");
    assert!(!unit(&s, "1st").traits.iter().any(|t| t.id == "steady"));
    let with = sheet("module army_traits");
    assert!(unit(&with, "1st").traits.iter().any(|t| t.id == "steady"));
    // Green troops have Seen the Elephant from their quality (RULINGS C28).
    let second = unit(&s, "2nd");
    assert!(second.traits.iter().any(|t| t.id == "seen_the_elephant"), "{:?}", second.traits);
    assert_eq!(second.markers.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(), vec!["disorder"]);
    // Dismounted: one stand in four holds the horses, rounded up (Ch16 10.2, RULINGS G15).
    let horse = unit(&s, "3rd Horse");
    assert_eq!((horse.state.as_deref(), horse.horse_holders), (Some("dismounted"), 2));
    // Breechloaders add a die for every two stands firing (RULINGS G16).
    assert_eq!(horse.weapon.bonus_dice, Some(BonusDice::PerStands { dice: 1, stands: 2 }));
    // The side's totals: 5 + 4 + 3 + 5 stands; not every unit gives men.
    assert_eq!((s.sides[0].stands, s.sides[0].men), (17, None));
    assert_eq!(s.date.as_deref(), Some("1 July 1863"));
}

//! The story's sentences from events as the engine makes them.

use super::*;
use crate::engine::events::{BrigadeStatus, Health, Modifier};

fn ev(what: What) -> Event {
    Event::new(what, "RULE")
}

fn told(events: &[Event], verb: &str) -> Vec<String> {
    let refs: Vec<&Event> = events.iter().collect();
    tell(&refs, verb)
}

fn volley() -> Vec<Event> {
    vec![
        ev(What::Volley {
            firer: "6th Louisiana".into(),
            target: "12th New Jersey".into(),
            band: "medium".into(),
            range: 10.5,
            dice: 5,
            base: 4,
            to_hit: 3,
            modifiers: vec![Modifier::new("clean barrels", 1, "Ch13 2.0")],
        }),
        ev(What::Rolled { purpose: Purpose::ToHit, faces: vec![3, 5, 2, 6, 4] }),
        ev(What::Hits {
            firer: "6th Louisiana".into(),
            faces: vec![3, 5, 2, 6, 4],
            to_hit: 3,
            hits: 4,
            sixes: 1,
        }),
        ev(What::MarkerRemoved { unit: "6th Louisiana".into(), marker: "Clean Barrels".into() }),
        ev(What::MarkerPlaced { unit: "6th Louisiana".into(), marker: "Gunsmoke".into() }),
        ev(What::Rolled { purpose: Purpose::Save, faces: vec![5, 2, 3, 6] }),
        ev(What::Saves {
            unit: "12th New Jersey".into(),
            save: 5,
            modifiers: Vec::new(),
            faces: vec![5, 2, 3, 6],
            saved: 2,
            unsaved: 2,
        }),
        ev(What::UnsavedHits { unit: "12th New Jersey".into(), hits: 2, carried: 0 }),
        ev(What::StandsLost { unit: "12th New Jersey".into(), lost: 1, remaining: 4, by: None }),
        ev(What::Tally { brigade: "Hollister".into(), lost: 1, starting: 10 }),
    ]
}

#[test]
fn a_volley_is_told_with_its_dice_hits_saves_and_losses_and_no_bookkeeping() {
    assert_eq!(
        told(&volley(), "fire"),
        vec![
            "6th Louisiana fires 5 dice at 12th New Jersey, 10.5\u{2033} away (medium range, 3+ to hit, with clean barrels +1): [3, 5, 2, 6, 4], 4 hits.",
            "12th New Jersey saves 2 of 4 on 5+: [5, 2, 3, 6].",
            "12th New Jersey loses a stand, 4 left.",
        ]
    );
}

#[test]
fn the_low_ammo_count_short_of_the_rule_is_left_to_the_trace_and_a_real_marker_is_told() {
    let short = Event::new(
        What::Note { text: "A: 1 natural 1 of the 2 that give Low Ammo".into() },
        crate::engine::fire::LOW_AMMO_NOT_YET,
    );
    assert!(told(&[short], "fire").is_empty());
    let placed = ev(What::MarkerPlaced { unit: "A".into(), marker: "Low Ammo".into() });
    assert_eq!(told(&[placed], "fire"), vec!["A runs low on ammunition."]);
    // Any other note is told as it is, as a sentence.
    let note = ev(What::Note { text: "the melee is fought again next turn".into() });
    assert_eq!(told(&[note], "melee"), vec!["The melee is fought again next turn."]);
}

#[test]
fn a_melee_gives_both_scores_and_the_winner() {
    let events = vec![
        ev(What::Contact {
            attacker: "9th Louisiana".into(),
            defender: "19th Maine".into(),
            defender_health: None,
            defender_formed: true,
        }),
        ev(What::ShockScore {
            unit: "9th Louisiana".into(),
            rolled: 4,
            engaged: 2,
            modifiers: Vec::new(),
            score: 9,
        }),
        ev(What::ShockScore {
            unit: "19th Maine".into(),
            rolled: 3,
            engaged: 2,
            modifiers: Vec::new(),
            score: 7,
        }),
        ev(What::Melee {
            attacker: "9th Louisiana".into(),
            defender: "19th Maine".into(),
            outcome: MeleeOutcome::AttackerWins,
            margin: 2,
        }),
        ev(What::Retreat { unit: "19th Maine".into(), inches: 6.0 }),
    ];
    assert_eq!(
        told(&events, "assault"),
        vec![
            "9th Louisiana charges home into 19th Maine.",
            "Melee: 9th Louisiana 9 (rolled 4) against 19th Maine 7 (rolled 3); 9th Louisiana wins by 2.",
            "19th Maine retreats 6\u{2033}.",
        ]
    );
    let draw = ev(What::Melee {
        attacker: "A".into(),
        defender: "D".into(),
        outcome: MeleeOutcome::BloodyDraw,
        margin: 0,
    });
    assert_eq!(told(&[draw], "assault"), vec!["Melee; a Bloody Draw."]);
}

#[test]
fn pips_say_what_they_were_rolled_banked_or_spent_for() {
    let rolled = vec![
        ev(What::Rolled { purpose: Purpose::StaffPips, faces: vec![5] }),
        ev(What::Pips { brigade: "Laforêt".into(), change: 4, pips: 4, banked: 0 }),
    ];
    assert_eq!(told(&rolled, "pips"), vec!["Laforêt has 4 pips to spend (rolled 5)."]);
    let banked = ev(What::Pips { brigade: "Hollister".into(), change: -1, pips: 1, banked: 1 });
    assert_eq!(
        told(std::slice::from_ref(&banked), "reserve"),
        vec!["Hollister banks a pip (1 banked, 1 to spend)."]
    );
    assert_eq!(told(&[banked], "assault"), vec!["Hollister spends 1 pip, 1 left."]);
}

#[test]
fn tests_rallies_and_changes_of_state() {
    let rally = vec![
        ev(What::Test {
            unit: "50th Georgia".into(),
            test: TestKind::NaturalRally,
            base: 4,
            modifiers: Vec::new(),
            needed: 4,
            rolled: 4,
            discarded: None,
            passed: true,
        }),
        // The Disorder a rally takes away is the rally itself.
        ev(What::MarkerRemoved { unit: "50th Georgia".into(), marker: "Disorder".into() }),
    ];
    assert_eq!(told(&rally, "rally"), vec!["50th Georgia rallies (rolled 4, needed 4+)."]);
    let shaken = vec![
        ev(What::ShockTrigger { target: "A".into(), sixes: 2, needed: 2 }),
        ev(What::Test {
            unit: "A".into(),
            test: TestKind::ShockSave,
            base: 4,
            modifiers: Vec::new(),
            needed: 3,
            rolled: 2,
            discarded: None,
            passed: false,
        }),
        ev(What::MarkerPlaced { unit: "A".into(), marker: "Disorder".into() }),
        ev(What::HealthChanged { unit: "A".into(), from: Health::Fresh, to: Health::Worn }),
        ev(What::BrigadeChanged {
            brigade: "B".into(),
            from: BrigadeStatus::Fresh,
            to: BrigadeStatus::Hesitant,
            lost: 3,
            threshold: 3,
        }),
        ev(What::Shattered { unit: "C".into() }),
        ev(What::Removed { unit: "C".into(), because: "shattered".into() }),
    ];
    assert_eq!(
        told(&shaken, "fire"),
        vec![
            "A is shaken by 2 natural 6s.",
            "A fails the Shock save (rolled 2, needed 3+).",
            "A is disordered.",
            "A is now Worn.",
            "B is now Hesitant, 3 stands lost.",
            "C shatters and leaves the table.",
        ]
    );
}

#[test]
fn a_move_says_the_kind_the_log_wrote() {
    let moved = ev(What::Moved { unit: "19th Maine".into(), how: "moves".into(), used: 6.0, allowance: 6.0 });
    assert_eq!(told(std::slice::from_ref(&moved), "retreat"), vec!["19th Maine retreats 6\u{2033}."]);
    assert_eq!(told(std::slice::from_ref(&moved), "move"), vec!["19th Maine moves 6\u{2033}."]);
    let ride = ev(What::Moved { unit: "Col. X".into(), how: "rides".into(), used: 10.25, allowance: 12.0 });
    assert_eq!(told(&[ride], "leader"), vec!["Col. X rides 10.25\u{2033}."]);
}

#[test]
fn every_event_is_told_or_left_out_on_purpose() {
    // A leader's fall, a refusal and a move: said, never dropped.
    let events = vec![
        ev(What::Moved { unit: "A".into(), how: "moves".into(), used: 5.0, allowance: 6.0 }),
        ev(What::Refused { unit: "A".into(), why: "it is disordered".into() }),
        ev(What::LeaderCasualty { leader: "Col. X".into(), rolled: 6, result: "killed".into() }),
        ev(What::LeaderReplaced {
            leader: "Col. X".into(),
            by: "Maj. Y".into(),
            rating: "reliable".into(),
            permanent: true,
        }),
    ];
    assert_eq!(
        told(&events, "move"),
        vec![
            "A moves 5\u{2033}.",
            "A may not: it is disordered.",
            "Col. X is under fire: rolled 6, killed.",
            "Maj. Y takes command from Col. X for good.",
        ]
    );
}

#[test]
fn a_notes_rule_references_are_left_to_the_trace() {
    assert_eq!(
        without_citations(
            "A passes through B: a passage of lines, both take a Discipline check, Ch16 3.3, RULE-07-1.4, RULINGS C8"
        ),
        "A passes through B: a passage of lines, both take a Discipline check"
    );
    assert_eq!(
        without_citations("A: may not fire in Phase 3 this turn, Ch16 3.1, Ch8 2.0, dotc D12, C31"),
        "A: may not fire in Phase 3 this turn"
    );
    assert_eq!(
        without_citations(
            "A: 1 of its stands has no clear line (stand 1: B, a friend, stands in the way (RULE-05-6.1))"
        ),
        "A: 1 of its stands has no clear line (stand 1: B, a friend, stands in the way)"
    );
    assert_eq!(without_citations("A halts (Ch13 10.0)"), "A halts");
    assert_eq!(
        without_citations(
            "enfilade fire denies every light cover save (Ch16 5.6, RULINGS C15 majority_behind)"
        ),
        "enfilade fire denies every light cover save"
    );
    // Words that are not references stay, commas, brackets and all.
    assert_eq!(without_citations("A (the 2nd) moves, (B) waits"), "A (the 2nd) moves, (B) waits");
    assert_eq!(without_citations("A holds, B falls back, C rallies"), "A holds, B falls back, C rallies");
    // A limbering "moves" nothing: only the limbering is told.
    let still = ev(What::Moved { unit: "Bty".into(), how: "moves".into(), used: 0.0, allowance: 12.0 });
    assert!(told(&[still], "limber").is_empty());
}

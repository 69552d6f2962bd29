//! The claim words of issue 14 ("a player must be able to fix the log from a finding alone"),
//! each a small scenario and log replayed through the audit, worked by hand from the rulebook.
//! Each test names the rule it holds the claim to; the arithmetic is in its comments.
//!
//! The field: blue on the west, red on the east, 10" apart (medium range for rifled muskets,
//! 4+ to hit, Ch16 5.2); in the open there is no cover save, and 2 unsaved hits take a stand
//! (RULE-05-3.3).

use crate::replay::tests::{line_holding, play, problems};
use crate::replay::{Finding, Level, Replay};

/// A scenario on the field with `rules` (a `rules { ... }` body) and the lines of each brigade.
/// The army traits module is on, so a trait given to a regiment counts (Ch13 5.0, dotc D8).
fn field(rules: &str, blue: &str, red: &str) -> String {
    format!(
        r#"scenario "The Field" {{
    start 10:00
    turn_length 15 min
    turns 8
    first_side blue
    table 48 x 36
    rules {{
        module army_traits
{rules}
    }}
    side blue "Blue" {{
        edge west
        brigade "Blue Brigade" {{
            brigadier "Col. Blue" reliable at (2, 2)
            regiment "1st Blue" {{ stands 5 regular rifled_musket line at (10, 18) facing east{blue} }}
        }}
    }}
    side red "Red" {{
        edge east
        brigade "Red Brigade" {{
            brigadier "Col. Red" reliable {red}
            regiment "1st Red" {{ stands 5 regular rifled_musket line at (20, 18) facing west }}
        }}
    }}
}}
"#
    )
}

/// Col. Red away from his regiment, or riding with it.
const RED_AWAY: &str = "at (46, 34)";
const RED_WITH_HIS_REGIMENT: &str = "attached \"1st Red\"";

/// Blue's turn 1 with one fire line.
fn blue_fires(line: &str) -> String {
    format!("turn 1 blue {{\n    fire {{\n        {line}\n    }}\n}}\n")
}

/// The findings on the fire line.
fn at_the_volley(replay: &Replay, game: &str) -> Vec<Finding> {
    let line = line_holding(game, "fire \"1st Blue\"", 0);
    crate::replay::tests::findings_on_line(game, replay, line)
}

/// Replay one volley of the 1st Blue at the 1st Red.
fn volley(rules: &str, blue: &str, red: &str, line: &str) -> (Replay, String) {
    play(&field(rules, blue, red), &blue_fires(line))
}

fn errors(found: &[Finding]) -> Vec<&Finding> {
    found.iter().filter(|f| f.level == Level::Error).collect()
}

#[test]
fn ch16_2_4_a_volleys_leader_casualty_result_is_claimed_and_checked() {
    // Ch16 2.4, RULINGS C9 (`fire_or_melee`): Col. Red rides with the 1st Red. The 1st Blue rolls
    // 4, 4, 1, 2, 3 at 4+: 2 hits, no save in the open, 2 unsaved hits = 1 stand lost, which
    // calls for his casualty roll. A 4 on the table is Lightly Wounded.
    let wounded =
        "fire \"1st Blue\" at \"1st Red\" roll [4, 4, 1, 2, 3] leader_casualty [4] => hits 2, lost 1";
    let (replay, _) = volley("", "", RED_WITH_HIS_REGIMENT, &format!("{wounded}, leader wounded"));
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    let (replay, _) = volley("", "", RED_WITH_HIS_REGIMENT, &format!("{wounded}, leader lightly_wounded"));
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    // Claimed killed: the finding says what the table gives for the die, at the item.
    let (replay, game) = volley("", "", RED_WITH_HIS_REGIMENT, &format!("{wounded}, leader killed"));
    let found = at_the_volley(&replay, &game);
    let wrong = errors(&found);
    assert_eq!(wrong.len(), 1, "{found:#?}");
    assert!(wrong[0].message.starts_with("leader casualty: the rules give lightly_wounded"), "{wrong:#?}");
    assert!(wrong[0].message.contains("Col. Red rolled 4") && wrong[0].message.ends_with("leader killed"));
    assert_eq!(wrong[0].rule, "Ch16 2.4, RULINGS C9");
    let item = &game[wrong[0].span.start..wrong[0].span.end];
    assert_eq!(item, "leader killed");
    // Left out, a wound is a finding (it costs a pip every later turn), saying what to add.
    let (replay, game) = volley("", "", RED_WITH_HIS_REGIMENT, wounded);
    let found = at_the_volley(&replay, &game);
    let left_out = errors(&found);
    assert_eq!(left_out.len(), 1, "{found:#?}");
    assert!(
        left_out[0].message.contains("the log claims none; add `leader lightly_wounded`"),
        "{left_out:#?}"
    );
    assert_eq!(left_out[0].rule, "Ch16 2.4, RULINGS C9");
}

#[test]
fn ch16_2_4_a_close_call_may_be_left_out_or_claimed_as_unhurt() {
    // A 2 on the Leader Casualty Table (1-3) is Unhurt: nothing happens, so a claim may leave
    // it out; claimed as killed it is wrong.
    let unhurt =
        "fire \"1st Blue\" at \"1st Red\" roll [4, 4, 1, 2, 3] leader_casualty [2] => hits 2, lost 1";
    for line in [unhurt.to_string(), format!("{unhurt}, leader unhurt")] {
        let (replay, _) = volley("", "", RED_WITH_HIS_REGIMENT, &line);
        assert!(problems(&replay).is_empty(), "{line}: {:#?}", replay.findings);
    }
    let (replay, game) = volley("", "", RED_WITH_HIS_REGIMENT, &format!("{unhurt}, leader dead"));
    let found = at_the_volley(&replay, &game);
    assert!(errors(&found).iter().any(|f| f.message.starts_with("leader casualty: the rules give unhurt")));
    // No leader with the regiment: no roll, and a claimed result is wrong.
    let (replay, game) = volley(
        "",
        "",
        RED_AWAY,
        "fire \"1st Blue\" at \"1st Red\" roll [4, 4, 1, 2, 3] => hits 2, lost 1, leader unhurt",
    );
    let found = at_the_volley(&replay, &game);
    let wrong = errors(&found);
    assert_eq!(wrong.len(), 1, "{found:#?}");
    assert!(
        wrong[0].message.starts_with("leader casualty: the rules give no leader casualty roll"),
        "{wrong:#?}"
    );
}

#[test]
fn rule_05_2_5b_two_natural_ones_give_low_ammo_and_the_claim_says_so() {
    // RULE-05-2.5b, RULINGS C14 (module low_ammo): 1, 1, 4, 5, 3 at 4+ is 2 hits, 1 stand lost,
    // and two natural 1s put the Low Ammunition marker on the firer.
    let low_ammo = "        module low_ammo";
    let two_ones = "fire \"1st Blue\" at \"1st Red\" roll [1, 1, 4, 5, 3] => hits 2, lost 1";
    let (replay, _) = volley(low_ammo, "", RED_AWAY, &format!("{two_ones}, low_ammo"));
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    // Left out: a finding naming the word to add.
    let (replay, game) = volley(low_ammo, "", RED_AWAY, two_ones);
    let found = at_the_volley(&replay, &game);
    let left_out = errors(&found);
    assert_eq!(left_out.len(), 1, "{found:#?}");
    assert!(left_out[0].message.contains("1st Blue the Low Ammunition marker"), "{left_out:#?}");
    assert!(left_out[0].message.contains("add `low_ammo`"), "{left_out:#?}");
    assert_eq!(left_out[0].rule, "RULE-05-2.5b, Ch16 11.0, RULINGS C14");
    // One natural 1 is not enough (RULINGS E2): claimed, it is wrong.
    let one = "fire \"1st Blue\" at \"1st Red\" roll [1, 4, 5, 3, 2] => hits 2, lost 1, low_ammo";
    let (replay, game) = volley(low_ammo, "", RED_AWAY, one);
    let found = at_the_volley(&replay, &game);
    let wrong = errors(&found);
    assert_eq!(wrong.len(), 1, "{found:#?}");
    assert_eq!(
        wrong[0].message,
        "Low Ammunition: the rules give no Low Ammunition marker for 1st Blue, the log claims low_ammo"
    );
}

/// 6, 6, 1, 1, 1 at 4+: 2 hits, two natural 6s at medium range, a Shock Trigger (Ch16 5.5); the
/// 1st Red (regular 4+, Fresh +1: 3+) fails its Discipline Save on a 1: Disordered. No save in
/// the open: 2 hits take 1 stand.
const SHOCKED: &str =
    "fire \"1st Blue\" at \"1st Red\" roll [6, 6, 1, 1, 1] discipline [1] => hits 2, lost 1, disordered";

#[test]
fn rulings_c5_a_failed_shock_save_falls_back_and_the_claim_says_so() {
    // RULINGS C5 `fall_back` (RULE-07-1.5): the failed save also falls back 3", which the log
    // records on the next line (the 1st Red faces west at (20, 18): back to (23, 18)).
    let fall_back = "        ruling failed_discipline = fall_back";
    let moved = "\n        fall_back \"1st Red\" to (23, 18)";
    let (replay, _) = volley(fall_back, "", RED_AWAY, &format!("{SHOCKED}, fell_back{moved}"));
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    let (replay, game) = volley(fall_back, "", RED_AWAY, &format!("{SHOCKED}{moved}"));
    let found = at_the_volley(&replay, &game);
    let left_out = errors(&found);
    assert_eq!(left_out.len(), 1, "{found:#?}");
    assert!(
        left_out[0].message.contains("1st Red a fall back")
            && left_out[0].message.contains("add `fell_back`")
    );
    assert_eq!(left_out[0].rule, "RULE-07-1.5, RULINGS C5");
    // RULINGS C5 `specific` (the default): the Shock save's failure is the Disorder alone.
    let (replay, _) = volley("", "", RED_AWAY, SHOCKED);
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    let (replay, game) = volley("", "", RED_AWAY, &format!("{SHOCKED}, falls_back"));
    let found = at_the_volley(&replay, &game);
    let wrong = errors(&found);
    assert_eq!(wrong.len(), 1, "{found:#?}");
    assert!(wrong[0].message.starts_with("fall back: the rules give no fall back for 1st Red"), "{wrong:#?}");
}

/// The plan of the volley on the fire line, as the replay (and the odds) saw it.
fn plan_of<'a>(replay: &'a Replay, game: &str) -> &'a crate::engine::fire::VolleyPlan {
    let line = line_holding(game, "fire \"1st Blue\"", 0);
    let probe = replay.probes.iter().find(|p| p.line == line);
    &probe.unwrap_or_else(|| panic!("no volley planned at line {line}: {:#?}", replay.findings)).plan
}

/// The 1st Blue are Sharpshooters: one missed die a volley rolled again at medium range (Ch16
/// 9.0). 4, 1, 2, 3, 3 at 4+ is 1 hit; the lowest miss, the 1, may be rolled again.
const SHARPSHOOTERS: &str = " traits sharpshooters";

#[test]
fn ch16_9_0_sharpshooters_reroll_is_taken_from_the_reroll_list() {
    // Taken: the 1 rolled again is a 5: 2 hits, 1 stand in the open (RULE-05-3.3).
    let line = "fire \"1st Blue\" at \"1st Red\" roll [4, 1, 2, 3, 3] reroll [5] => hits 2, lost 1";
    let (replay, game) = volley("", SHARPSHOOTERS, RED_AWAY, line);
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    assert_eq!(plan_of(&replay, &game).rerolls, 1);
    assert!(
        replay
            .events
            .iter()
            .any(|e| matches!(e.event.what, crate::engine::What::Reroll { from: 1, to: 5, .. }))
    );
}

#[test]
fn ch16_9_0_sharpshooters_reroll_may_be_declined() {
    // Declined with `no_reroll`: the 1 stands, 1 hit, a micro-hit, and no die is read for the
    // re-roll; the plan (and so the odds) has no re-roll.
    let line = "fire \"1st Blue\" at \"1st Red\" roll [4, 1, 2, 3, 3] no_reroll => hits 1, micro 1";
    let (replay, game) = volley("", SHARPSHOOTERS, RED_AWAY, line);
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    assert_eq!(plan_of(&replay, &game).rerolls, 0);
    assert!(!replay.events.iter().any(|e| matches!(e.event.what, crate::engine::What::Reroll { .. })));
    assert!(replay.events.iter().any(|e| e.event.rule == "Ch16 9.0"
        && matches!(&e.event.what, crate::engine::What::Note { text } if text.contains("declines"))));
    // The odds price the volley without the re-roll: fewer expected hits than with it.
    let taken = "fire \"1st Blue\" at \"1st Red\" roll [4, 1, 2, 3, 3] reroll [5] => hits 2, lost 1";
    let (with, with_game) = volley("", SHARPSHOOTERS, RED_AWAY, taken);
    let odds = |replay: &Replay, game: &str| {
        let line = line_holding(game, "fire \"1st Blue\"", 0);
        replay.probes.iter().find(|p| p.line == line).map(|p| p.odds.expected_hits).unwrap_or_default()
    };
    assert!(odds(&replay, &game) < odds(&with, &with_game));
    // A die recorded for the declined re-roll is one the rules never asked for.
    let extra =
        "fire \"1st Blue\" at \"1st Red\" roll [4, 1, 2, 3, 3] reroll [5] no_reroll => hits 1, micro 1";
    let (replay, game) = volley("", SHARPSHOOTERS, RED_AWAY, extra);
    let found = at_the_volley(&replay, &game);
    let wrong = errors(&found);
    assert_eq!(wrong.len(), 1, "{found:#?}");
    assert!(wrong[0].message.starts_with("the rules give 5 to-hit dice for this volley, the log rolls 6"));
    assert!(wrong[0].message.contains("`no_reroll`"), "{wrong:#?}");
    // A firer without Sharpshooters has no re-roll to decline: no note says it declined one.
    let (replay, _) = volley("", "", RED_AWAY, line);
    assert!(!replay.events.iter().any(|e| matches!(&e.event.what,
        crate::engine::What::Note { text } if text.contains("declines"))));
}

/// The 1st Red behind a rail fence 0.5" in front of it: light cover, 5+ (RULE-05-3.2, Ch16 4.2),
/// and Steady: one failed cover save a turn rolled again (Ch16 9.0, RULINGS C27). 4, 4, 1, 1, 2
/// at 4+ is 2 hits; saves 5, 1: the 1 fails and may be rolled again.
fn steady_behind_a_fence(line: &str) -> (Replay, String) {
    let scenario = field("", "", RED_AWAY).replace("facing west }", "facing west traits steady }").replace(
        "    side blue",
        "    terrain {\n        rail_fence \"Red Fence\" line (19.5, 2) (19.5, 34)\n    }\n    side blue",
    );
    play(&scenario, &blue_fires(line))
}

#[test]
fn ch16_9_0_steady_save_reroll_is_taken_or_declined() {
    // Taken: the 1 rolled again is a 6: both hits saved.
    let taken = "fire \"1st Blue\" at \"1st Red\" roll [4, 4, 1, 1, 2] saves [5, 1, 6] => hits 2, saved 2";
    let (replay, game) = steady_behind_a_fence(taken);
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    assert!(plan_of(&replay, &game).save.steady);
    // Declined with `no_save_reroll`: 1 saved, 1 unsaved hit, a micro-hit; no die for it.
    let declined = "fire \"1st Blue\" at \"1st Red\" roll [4, 4, 1, 1, 2] saves [5, 1] no_save_reroll => hits 2, saved 1, micro 1";
    let (replay, game) = steady_behind_a_fence(declined);
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    assert!(!plan_of(&replay, &game).save.steady);
    assert!(!replay.events.iter().any(|e| matches!(e.event.what, crate::engine::What::Reroll { .. })));
    // Declined, a third save die is left over.
    let extra = "fire \"1st Blue\" at \"1st Red\" roll [4, 4, 1, 1, 2] saves [5, 1, 6] no_save_reroll => hits 2, saved 1, micro 1";
    let (replay, game) = steady_behind_a_fence(extra);
    let found = at_the_volley(&replay, &game);
    assert!(
        found.iter().any(|f| f.level == Level::Warning && f.message.contains("1 left over")),
        "{found:#?}"
    );
}

/// The one error of a replay.
fn the_error(replay: &Replay) -> Finding {
    let errors: Vec<&Finding> = replay.findings.iter().filter(|f| f.level == Level::Error).collect();
    assert_eq!(errors.len(), 1, "{:#?}", replay.findings);
    errors[0].clone()
}

#[test]
fn rule_05_3_1_missing_cover_saves_are_named_and_the_finding_shows_the_saves_to_add() {
    // 4, 4, 1, 1, 2 at 4+ is 2 hits on the 1st Red behind its fence: 2 cover saves at 5+ (RULE-05-3.1,
    // 3.2, Ch16 5.4), one die per hit, and the log records none.
    let (replay, _) =
        steady_behind_a_fence("fire \"1st Blue\" at \"1st Red\" roll [4, 4, 1, 1, 2] => hits 2");
    let found = the_error(&replay);
    assert_eq!(
        found.message,
        "the cover saves (RULE-05-3.1, Ch16 5.4) needs 2 save dice, but the log records 0: add the cover \
         saves: `saves [d, d]` (2 dice, one per hit); the action is not applied"
    );
    assert_eq!(found.rule, "RULE-05-3.1, Ch16 5.4");
    // One save recorded of the two: the rest goes at the end of the list.
    let (replay, _) =
        steady_behind_a_fence("fire \"1st Blue\" at \"1st Red\" roll [4, 4, 1, 1, 2] saves [5] => hits 2");
    assert!(the_error(&replay).message.contains("add 1 die at the end of `saves [...]` (2 in all)"));
}

#[test]
fn ch16_9_0_a_missing_reroll_die_names_the_trait_and_offers_to_decline() {
    // Steady (Ch16 9.0, RULINGS C27): the failed save 1 may be rolled again; the log neither
    // records the die nor declines it.
    let (replay, _) = steady_behind_a_fence(
        "fire \"1st Blue\" at \"1st Red\" roll [4, 4, 1, 1, 2] saves [5, 1] => hits 2, saved 1",
    );
    let found = the_error(&replay);
    assert!(
        found.message.starts_with(
            "the Steady re-roll of a failed cover save (Ch16 9.0, RULINGS C27) needs 1 save die"
        )
    );
    assert!(found.message.contains("add the re-rolled die at the end of `saves [...]` (1 die), or decline the re-roll with `no_save_reroll`"));
    assert_eq!(found.rule, "Ch16 9.0, RULINGS C27");
    // Sharpshooters (Ch16 9.0): the 1 missed may be rolled again.
    let line = "fire \"1st Blue\" at \"1st Red\" roll [4, 1, 2, 3, 3] => hits 1, micro 1";
    let (replay, _) = volley("", SHARPSHOOTERS, RED_AWAY, line);
    let found = the_error(&replay);
    assert!(
        found.message.starts_with("the Sharpshooters re-roll of a missed die (Ch16 9.0) needs 1 to_hit die")
    );
    assert!(found.message.contains("`reroll [d]` (1 die), or decline the re-roll with `no_reroll`"));
    assert_eq!(found.rule, "Ch16 9.0");
}

#[test]
fn rule_05_4_2_a_missing_shock_save_die_names_the_shock_save_and_its_label() {
    // 6, 6, 1, 1, 1 at 4+: two natural 6s at medium range, a Shock Trigger (RULE-05-4.1, Ch16
    // 5.5): the 1st Red takes a Discipline Save, and the log records no die for it.
    let line = "fire \"1st Blue\" at \"1st Red\" roll [6, 6, 1, 1, 1] => hits 2, lost 1";
    let (replay, _) = volley("", "", RED_AWAY, line);
    let found = the_error(&replay);
    assert!(found.message.starts_with("the Shock save ("), "{found:#?}");
    assert!(
        found.message.contains("needs 1 discipline die, but the log records 0: add `discipline [d]` (1 die)")
    );
    assert!(found.rule.contains("RULE-05-4.2"), "{found:#?}");
}

#[test]
fn ch16_7_2_a_missing_pre_contact_die_names_the_check_and_the_step_to_add() {
    // The 1st Blue charges the 1st Red 6" away (Ch16 7.1). At the 4" line the 1st Red's closing
    // volley (Ch16 7.2): short range, 4+: 4, 4, 4, 1, 2 is 3 hits, no save in the open: 1 stand
    // and a micro-hit (RULE-05-3.3). A stand lost calls for the pre-contact check (RULINGS C7,
    // `loss_or_disorder`), and the log records no `discipline` step for it.
    let scenario = crate::replay::fire::situations::range(
        "",
        "            regiment \"1st Blue\" { stands 5 regular rifled_musket line at (12, 18) facing east }",
        "            regiment \"1st Red\" { stands 5 regular rifled_musket line at (18, 18) facing west }",
    );
    let log = "turn 1 blue {\n    command {\n        pips \"Col. Blue\" roll [6] => 3\n    }\n    maneuver {\n        \
               assault \"1st Blue\" -> \"1st Red\" pip \"Col. Blue\" {\n            closing_volley roll [4, 4, 4, 1, 2] => hits 3\n            \
               melee roll [4] vs [3] => attacker wins\n        }\n    }\n}\n";
    let (replay, _) = play(&scenario, log);
    let found = the_error(&replay);
    assert!(
        found
            .message
            .starts_with("the pre-contact check (Ch16 7.2, RULE-07-1.4, RULINGS C7), after `1st Blue loses 1 stand, 4 left`, needs"),
        "{found:#?}"
    );
    assert!(found.message.contains(
        "needs 1 discipline die, but the log records 0: add the step `discipline roll [d]` (1 die)"
    ));
    assert_eq!(found.rule, "Ch16 7.2, RULE-07-1.4, RULINGS C7");
}

/// The events of the action on the line holding `text`.
fn events_at<'r>(replay: &'r Replay, game: &str, text: &str) -> Vec<&'r crate::engine::Event> {
    let line = line_holding(game, text, 0);
    replay.events.iter().filter(|e| e.line == line).map(|e| &e.event).collect()
}

#[test]
fn issue_20_the_claim_written_for_a_natural_rally_is_the_one_the_audit_accepts() {
    // RULE-07-3.3: a disordered regiment rolls a die in Phase 5 to rally. A 1 never rallies,
    // a 6 always does (a Regular needs 4+). `written_claim` reads the word off the replay's test;
    // written back on the line it audits clean, and the other word is an error.
    let scenario = field("", " markers disorder", "at (46, 34)");
    for (die, word, other) in [(1, "failed", "rallied"), (6, "rallied", "failed")] {
        let log = |claim: &str| {
            format!(
                "turn 1 blue {{\n    status {{\n        rally \"1st Blue\" roll [{die}]{claim}\n    }}\n}}\n"
            )
        };
        let (replay, game) = play(&scenario, &log(""));
        let claim = super::written_claim("rally", events_at(&replay, &game, "rally").into_iter());
        assert_eq!(claim.as_deref(), Some(word), "die {die}");
        let (replay, _) = play(&scenario, &log(&format!(" => {word}")));
        assert!(problems(&replay).is_empty(), "die {die}: {:#?}", problems(&replay));
        let (replay, _) = play(&scenario, &log(&format!(" => {other}")));
        assert!(problems(&replay).iter().any(|f| f.level == Level::Error), "die {die}: `{other}` passed");
    }
}

#[test]
fn issue_20_the_claims_written_for_an_assault_s_steps_are_the_ones_the_audit_accepts() {
    // Ch16 7.2, 7.3: the 1st Red stands 6" from the 1st Blue (moved up from the field's 10"),
    // and the Blue charges it. The Red's closing volley rolls its five dice; whatever it hits,
    // the melee of 1 against 6 goes to the defender (the Blue's best is 1 + 5 + 1 Fresh + 1
    // momentum = 8, the Red's at least 6 + 4 + 1 Fresh = 11). `written_step_claims` gives the
    // volley's `hits N` as the replay counted them and `defender wins` for the melee; written
    // back they audit clean, and `attacker wins` is an error.
    let scenario = field("", "", "at (46, 34)").replace("at (20, 18) facing west", "at (16, 18) facing west");
    let log = |volley: &str, melee: &str| {
        format!(
            "turn 1 blue {{\n    command {{\n        pips \"Col. Blue\" roll [6] => 3\n    }}\n    maneuver {{\n        \
             assault \"1st Blue\" -> \"1st Red\" pip \"Col. Blue\" {{\n            closing_volley roll [5, 4, 1, 2, 3]{volley}\n            \
             discipline roll [6]\n            melee roll [1] vs [6]{melee}\n        }}\n    }}\n}}\n"
        )
    };
    let (replay, game) = play(&scenario, &log("", ""));
    let parsed = dotc_lang::parse(&game);
    let action = parsed
        .document
        .turns
        .iter()
        .flat_map(|t| t.phases().into_owned())
        .flat_map(|p| p.actions)
        .find(|a| a.verb.value == "assault")
        .expect("the assault");
    let claims = super::written_step_claims(&action, events_at(&replay, &game, "assault").into_iter());
    let volley = claims[0].clone().unwrap_or_else(|| {
        panic!(
            "no hits: {claims:?} {:?} {game}",
            replay.events.iter().map(|e| (e.line, e.event.what.to_string())).collect::<Vec<_>>()
        )
    });
    assert!(volley.starts_with("hits "), "{volley}");
    assert_eq!(claims[2].as_deref(), Some("defender wins"));
    let (replay, _) = play(&scenario, &log(&format!(" => {volley}"), " => defender wins"));
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
    let (replay, _) = play(&scenario, &log(&format!(" => {volley}"), " => attacker wins"));
    assert!(problems(&replay).iter().any(|f| f.level == Level::Error), "`attacker wins` passed");
}

//! The rulebook's five worked examples (RULE-05 firing examples 1-3, the RULE-07 Potts and Garnett
//! examples; RULINGS E1-E5) as game logs in `tests/fixtures/examples/`, each replayed in-process
//! under both presets: `defaults` (the RULINGS.md rulings) and `as_printed` (the values that
//! reproduce the printed texts). Each replay is a reviewed snapshot (the narrative, then the
//! findings one per line); the tests below it assert what the two presets must make of the
//! printed dice, so that each fails if the rule it names were played wrong.

use std::path::{Path, PathBuf};

use dotc_runtime::replay::{Level, Replay, ReplayOptions, replay};

const PRESETS: [&str; 2] = ["defaults", "as_printed"];

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/examples")
}

/// Serves the files of `tests/fixtures/examples/`, with every line holding `drop` left out.
struct Without<'a> {
    drop: Option<&'a str>,
}

impl dotc_lang::Loader for Without<'_> {
    fn load(&self, path: &Path) -> Result<String, String> {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        Ok(match self.drop {
            Some(drop) => text.lines().filter(|l| !l.contains(drop)).collect::<Vec<_>>().join("\n"),
            None => text,
        })
    }
}

/// One replayed example: the log's text, the replay, and the snapshot text.
struct Played {
    source: String,
    replay: Replay,
}

impl Played {
    /// The 1-based line of the log holding `text`.
    fn line_of(&self, text: &str) -> usize {
        self.source.lines().position(|l| l.contains(text)).map(|i| i + 1).unwrap_or_else(|| {
            panic!("no line holds `{text}`");
        })
    }

    fn line(&self, finding: &dotc_runtime::replay::Finding) -> usize {
        dotc_lang::diagnostic::line_col(&self.source, finding.span.start).0
    }

    /// The findings, one per line: `line: level: message [rule]`.
    fn findings(&self) -> Vec<String> {
        self.replay
            .findings
            .iter()
            .map(|f| {
                let level = serde_json::to_value(f.level).ok().and_then(|v| v.as_str().map(String::from));
                let rule = if f.rule.is_empty() { String::new() } else { format!(" [{}]", f.rule) };
                format!("{}: {}: {}{rule}", self.line(f), level.unwrap_or_default(), f.message)
            })
            .collect()
    }

    fn shown(&self) -> String {
        format!("{}---- findings ----\n{}\n", self.replay.narrative(), self.findings().join("\n"))
    }

    /// The errors (the log and the rules disagree, or a rule is broken), as their lines.
    fn errors(&self) -> Vec<String> {
        let errors = self.replay.findings.iter().filter(|f| f.level == Level::Error);
        errors.map(|f| format!("{}: {} [{}]", self.line(f), f.message, f.rule)).collect()
    }

    /// The event texts of the log line holding `text`, in order.
    fn events_at(&self, text: &str) -> Vec<String> {
        let line = self.line_of(text);
        self.replay.events.iter().filter(|e| e.line == line).map(|e| e.event.to_string()).collect()
    }

    fn has_event(&self, text: &str, wanted: &str) -> bool {
        self.events_at(text).iter().any(|e| e.contains(wanted))
    }
}

/// Replay `file` under `preset`, its scenario read through `loader`.
fn play_with(file: &str, preset: &str, loader: &dyn dotc_lang::Loader) -> Played {
    let path = examples().join(file);
    let source = std::fs::read_to_string(&path).expect("the example log is readable");
    let analysis = dotc_lang::analyze(&path, &source, loader);
    assert!(
        !analysis.diagnostics.iter().any(|d| d.severity == dotc_lang::diagnostic::Severity::Error),
        "{file} does not check clean"
    );
    let what_if = dotc_runtime::rulings::WhatIf::parse(Some(preset), &[]).expect("a preset");
    let options = ReplayOptions { source: Some(&source), what_if: Some(&what_if), ..Default::default() };
    let replay = replay(&analysis, &options);
    Played { source, replay }
}

fn play(file: &str, preset: &str) -> Played {
    play_with(file, preset, &dotc_lang::FsLoader)
}

/// Both presets' replays of one example, each checked against its reviewed snapshot.
fn snapshots(file: &str, name: &str) -> [Played; 2] {
    PRESETS.map(|preset| {
        let played = play(file, preset);
        insta::assert_snapshot!(format!("{name}_{preset}"), played.shown());
        played
    })
}

const E1: &str = "fire \"5th Virginia\" at \"19th Indiana\"";

/// RULINGS E1, C3: one natural 6 at Short range is a Shock Trigger; by RULE-05-4.2 it calls for
/// a Discipline Save (regular 4+, Fresh +1: 3+), which the 4 passes, so the printed Disorder is a
/// finding; as printed (Ch15 3.0) the 6 disorders outright and the claim holds.
#[test]
fn e1_the_six_at_short_range_calls_for_a_save_not_a_disorder() {
    let [defaults, printed] = snapshots("e1-buck-and-ball.dotc", "e1");
    for played in [&defaults, &printed] {
        // RULE-05-3.3, Ch16 8.1: 4 hits in the open, 2 stands, Fresh to Worn (right in print).
        assert!(played.has_event(E1, "needing 3+: 4 hits, 1 natural 6"), "{}", played.shown());
        assert!(played.has_event(E1, "19th Indiana loses 2 stands, 3 left"), "{}", played.shown());
        assert!(played.has_event(E1, "19th Indiana: Fresh -> Worn"), "{}", played.shown());
        assert!(played.has_event(E1, "5th Virginia gets Gunsmoke"), "{}", played.shown());
    }
    // Defaults: a save, passed, and no Disorder; the claim `disordered` is the one error.
    assert!(defaults.has_event(E1, "Shock trigger on 19th Indiana: 1 natural 6 (1 needed)"));
    assert!(defaults.has_event(E1, "19th Indiana Shock save: 4+ (fresh +1) becomes 3+, rolled 4: passed"));
    assert!(!defaults.has_event(E1, "19th Indiana gets Disorder"), "{}", defaults.shown());
    let line = defaults.line_of(E1);
    assert_eq!(
        defaults.errors(),
        [format!(
            "{line}: Disorder: the rules give no Disorder, the log claims disordered [RULE-05-4.2, Ch16 5.5]"
        )]
    );
    // As printed: Disorder without a save; the claim holds and the save die is left over.
    assert!(printed.has_event(E1, "19th Indiana gets Disorder  [Ch15 3.0, RULINGS C3]"));
    assert!(!printed.has_event(E1, "Shock save"), "{}", printed.shown());
    assert!(printed.errors().is_empty(), "{:#?}", printed.errors());
    assert!(
        printed
            .replay
            .findings
            .iter()
            .any(|f| f.level == Level::Warning && f.message.contains("1 left over")),
        "{}",
        printed.shown()
    );
}

const E2: &str = "fire \"2nd Wisconsin\" at \"4th Virginia\"";

/// RULINGS E2, C3: beyond 6" a Shock Trigger takes two natural 6s (RULE-05-4.1), so the one 6 at
/// 10" does nothing under the defaults; the printed Disorder holds only as printed. Smoke (-1
/// beyond 6"), the 4+ wall saves and the micro-hit are right under both, and one natural 1 gives
/// no Low Ammo.
#[test]
fn e2_one_six_at_medium_range_is_no_trigger() {
    let [defaults, printed] = snapshots("e2-stone-wall.dotc", "e2");
    for played in [&defaults, &printed] {
        assert!(played.has_event(E2, "(10\", medium): 4+ becomes 5+ (gunsmoke -1)"), "{}", played.shown());
        assert!(played.has_event(E2, "needing 5+: 2 hits, 1 natural 6"), "{}", played.shown());
        assert!(played.has_event(E2, "4th Virginia saves on 4+: [4, 2] saves 1, 1 unsaved"));
        assert!(played.has_event(E2, "4th Virginia micro-hit now 1"), "{}", played.shown());
        assert!(played.has_event(E2, "1 natural 1 of the 2 that give Low Ammo"), "{}", played.shown());
        assert!(!played.has_event(E2, "gets Low Ammo"), "{}", played.shown());
    }
    assert!(!defaults.has_event(E2, "Shock trigger"), "{}", defaults.shown());
    assert!(!defaults.has_event(E2, "4th Virginia gets Disorder"), "{}", defaults.shown());
    let line = defaults.line_of(E2);
    assert_eq!(
        defaults.errors(),
        [format!(
            "{line}: Disorder: the rules give no Disorder, the log claims disordered [RULE-05-4.2, Ch16 5.5]"
        )]
    );
    assert!(printed.has_event(E2, "Shock trigger on 4th Virginia: 1 natural 6 (1 needed)"));
    assert!(printed.has_event(E2, "4th Virginia gets Disorder  [Ch15 3.0, RULINGS C3]"));
    assert!(printed.errors().is_empty(), "{:#?}", printed.errors());
}

const E3: &str = "fire \"Battery B, 4th U.S.\" at \"28th North Carolina\"";

/// RULE-05-6.3, Ch16 4.4, RULINGS C2, E3, C3: the battery on the ridge fires over the friendly
/// line (on lower ground, at least 6" from the muzzles and 4" from the target, so the line does
/// not block it): 24" is Long range (4+), 3 hits in the open are 1 stand and a micro-hit. One 6
/// beyond 6" is no Shock Trigger under the defaults, and disorders as printed.
#[test]
fn e3_the_battery_fires_over_its_friends_and_one_six_at_long_range_is_no_trigger() {
    let [defaults, printed] = snapshots("e3-overhead-battery.dotc", "e3");
    for played in [&defaults, &printed] {
        assert!(
            played.has_event(E3, "fires 4D6 at 28th North Carolina (24\", long): hits on 4+"),
            "{}",
            played.shown()
        );
        assert!(played.has_event(E3, "needing 4+: 3 hits, 1 natural 6"), "{}", played.shown());
        assert!(played.has_event(E3, "28th North Carolina loses 1 stand, 4 left"), "{}", played.shown());
        assert!(played.has_event(E3, "28th North Carolina micro-hit now 1"), "{}", played.shown());
        assert!(played.has_event(E3, "Battery B, 4th U.S. gets Gunsmoke"), "{}", played.shown());
    }
    assert!(!defaults.has_event(E3, "Shock trigger"), "{}", defaults.shown());
    assert!(!defaults.has_event(E3, "28th North Carolina gets Disorder"), "{}", defaults.shown());
    let line = defaults.line_of(E3);
    assert_eq!(
        defaults.errors(),
        [format!(
            "{line}: Disorder: the rules give no Disorder, the log claims disordered [RULE-05-4.2, Ch16 5.5]"
        )]
    );
    assert!(printed.has_event(E3, "Shock trigger on 28th North Carolina: 1 natural 6 (1 needed)"));
    assert!(printed.has_event(E3, "28th North Carolina gets Disorder  [Ch15 3.0, RULINGS C3]"));
    assert!(printed.errors().is_empty(), "{:#?}", printed.errors());
}

/// RULE-05-6.3, Ch16 4.4: only a battery on higher ground fires over friends. Played with the
/// ridge taken off the table, the friendly line blocks every stand and the volley is refused.
#[test]
fn e3_without_the_ridge_the_friendly_line_blocks_the_guns() {
    let loader = Without { drop: Some("hill ") };
    let flat = play_with("e3-overhead-battery.dotc", "defaults", &loader);
    let line = flat.line_of(E3);
    assert!(
        flat.errors()
            .iter()
            .any(|e| e.starts_with(&format!("{line}: Battery B, 4th U.S. has no clear line of sight"))),
        "{}",
        flat.shown()
    );
    assert!(flat.events_at(E3).is_empty(), "{}", flat.shown());
}

const SIXTH_STAND: &str = "fire \"2nd Mississippi\" at \"121st Pennsylvania\"";
const CHARGE: &str = "assault \"150th Pennsylvania\"";
const HESITANT_VOLLEY: &str = "fire \"143rd Pennsylvania\" at \"Brown’s Battery\"";

/// RULINGS E4, C12, RULE-07-2.3: 2 + 2 + 1 + 1 = 6 of 20 stands lost makes Potts' brigade
/// Hesitant the moment the sixth stand goes; the 150th Pennsylvania's assault is then refused
/// (no pip spent), and its Phase 3 fire is at -1. The same under both presets.
#[test]
fn e4_six_of_twenty_lost_make_the_brigade_hesitant() {
    let [defaults, printed] = snapshots("e4-potts-brigade.dotc", "e4");
    for played in [&defaults, &printed] {
        let tallies: Vec<String> = played
            .replay
            .events
            .iter()
            .map(|e| e.event.to_string())
            .filter(|e| e.starts_with("2nd Brigade tally"))
            .collect();
        let lost: Vec<&str> =
            tallies.iter().filter_map(|t| t.split(": ").nth(1)?.split(" of").next()).collect();
        assert_eq!(lost, ["2", "4", "5", "6"], "{tallies:?}");
        // Hesitant at the sixth stand, in the fire phase of turn 3, not in a later Phase 1.
        assert!(
            played.has_event(SIXTH_STAND, "2nd Brigade: Fresh -> Hesitant (6 lost, threshold 6)"),
            "{}",
            played.shown()
        );
        let brigade = &played.replay.summary.brigades[0];
        assert_eq!(
            (brigade.name.as_str(), brigade.losses, brigade.starting_stands, brigade.state.as_str()),
            ("2nd Brigade", 6, 20, "Hesitant")
        );
        // The assault is refused citing RULE-07-2.3, and its pip stays unspent.
        let line = played.line_of(CHARGE);
        let errors = played.errors();
        assert_eq!(errors.len(), 1, "{errors:#?}");
        assert!(
            errors[0]
                .starts_with(&format!("{line}: 150th Pennsylvania may not assault: its brigade is Hesitant"))
        );
        assert!(errors[0].contains("[RULE-07-2.3"), "{errors:#?}");
        assert!(played.events_at(CHARGE).is_empty(), "{}", played.shown());
        assert_eq!(brigade.pips, 2);
        // RULE-07-2.3, RULINGS C13: -1 in Phase 3: 4+ becomes 5+, and the [5, 4, 3] hit once.
        assert!(played.has_event(HESITANT_VOLLEY, "4+ becomes 5+ (hesitant brigade -1)"));
        assert!(played.has_event(HESITANT_VOLLEY, "needing 5+: 1 hit,"), "{}", played.shown());
    }
}

const GARNETT: &str = "assault \"33rd Virginia\"";

/// RULINGS E5: the canister's 2 hits take a stand, the 33rd Virginia is down to its Color Stand
/// and shatters at once (RULE-05-3.4), both stands on the tally (G5), and only then does Garnett
/// roll: a 5, Severely Wounded, a Timid colonel in his place (Ch16 2.4). A Napoleon's canister
/// disorders without a save. The same under both presets.
#[test]
fn e5_the_regiment_shatters_before_garnett_rolls() {
    let [defaults, printed] = snapshots("e5-garnett.dotc", "e5");
    for played in [&defaults, &printed] {
        let events = played.events_at(GARNETT);
        let at = |wanted: &str| {
            events.iter().position(|e| e.contains(wanted)).unwrap_or_else(|| {
                panic!("no `{wanted}` in\n{}", played.shown());
            })
        };
        let disorder = at("33rd Virginia gets Disorder  [Ch16 5.3, RULINGS G9]");
        let stand = at("33rd Virginia loses 1 stand, 1 left");
        let shatter = at("33rd Virginia shatters");
        let tally = at("Garnett’s Brigade tally: 2 of 22 stands lost");
        let roll = at("Brig. Gen. Richard Garnett leader casualty roll 5: Severely Wounded");
        let replaced = at("takes command as timid");
        assert!(disorder < stand && stand < shatter && shatter < tally, "{events:#?}");
        assert!(tally < roll && roll < replaced, "{events:#?}");
        assert!(at("no Shock save, the canister disorders it already") < disorder);
        assert!(!events.iter().any(|e| e.contains("33rd Virginia Shock save")), "{events:#?}");
        let the_33rd = played.replay.summary.units.iter().find(|u| u.name == "33rd Virginia").unwrap();
        assert!(!the_33rd.on_table);
        let brigade = &played.replay.summary.brigades[0];
        assert_eq!((brigade.losses, brigade.state.as_str(), brigade.pips), (2, "Fresh", 1));
        assert!(played.errors().is_empty(), "{:#?}", played.errors());
    }
}

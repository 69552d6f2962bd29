//! `dotc odds fire`, `odds melee` and `odds assault` as a user runs them (Ch16 5.0-5.7, 7.2-7.4,
//! RULINGS D).

use std::process::{Command, Output};

fn dotc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dotc")).args(args).output().expect("dotc runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// RULE-05-2.2 rifled musket 4+ at 10", 5D6 in the open: 2.5 hits, 1.25 stands (RULE-05-3.3).
#[test]
fn odds_fire_json_gives_the_chapter_15_numbers() {
    let out = dotc(&[
        "odds",
        "fire",
        "--weapon",
        "rifled_musket",
        "--stands",
        "5",
        "--range",
        "10",
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!((v["expected_hits"].as_f64().unwrap() - 2.5).abs() < 1e-12);
    assert!((v["expected_stands_lost"].as_f64().unwrap() - 1.25).abs() < 1e-12);
    assert_eq!(v["dice"], 5);
    assert_eq!(v["band"], "medium");
    assert_eq!(v["to_hit"], 4);
    assert!(v["save"].is_null());
    for key in ["p_hit", "expected_unsaved", "p_shock"] {
        assert!(v[key].is_f64(), "{key}");
    }
    for key in ["hits", "unsaved", "stands_lost"] {
        let sum: f64 = v[key].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).sum();
        assert!((sum - 1.0).abs() < 1e-12, "{key}");
    }
}

#[test]
fn odds_fire_table_and_monte_carlo() {
    let out = dotc(&[
        "odds",
        "fire",
        "--weapon",
        "napoleon",
        "--stands",
        "2",
        "--range",
        "5",
        "--cover",
        "heavy",
        "--target",
        "column",
        "--monte-carlo",
        "20000",
        "--seed",
        "7",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for want in ["4D6", "2+", "save         5+", "simulated (20000 volleys, seed 7)", "stands lost"] {
        assert!(stdout.contains(want), "missing {want:?} in\n{stdout}");
    }
    let out = dotc(&[
        "odds",
        "fire",
        "--weapon",
        "rifled_musket",
        "--stands",
        "5",
        "--range",
        "10",
        "--format",
        "json",
        "--monte-carlo",
        "1000",
        "--seed",
        "3",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["monte_carlo"]["volleys"], 1000);
    assert!(v["monte_carlo"]["expected_hits"]["mean"].is_f64());
}

#[test]
fn odds_fire_unknown_weapon_and_out_of_range_exit_2() {
    let out = dotc(&["odds", "fire", "--weapon", "nope", "--stands", "5", "--range", "10"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown weapon `nope`"), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    let out = dotc(&[
        "odds",
        "fire",
        "--weapon",
        "rifled_musket",
        "--stands",
        "5",
        "--range",
        "40",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("out of range"), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
}

/// Ch16 7.3: 1D6 + engaged stands + modifiers a side; one point of edge wins 21 of 36.
#[test]
fn odds_melee_json_gives_win_draw_and_loss() {
    let out = dotc(&[
        "odds",
        "melee",
        "--attacker-stands",
        "2",
        "--attacker-mod",
        "1",
        "--defender-stands",
        "2",
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!((v["attacker_wins"].as_f64().unwrap() - 21.0 / 36.0).abs() < 1e-12);
    assert!((v["draw"].as_f64().unwrap() - 5.0 / 36.0).abs() < 1e-12);
    assert!((v["defender_wins"].as_f64().unwrap() - 10.0 / 36.0).abs() < 1e-12);
    // Negative modifiers are accepted as values, and a melee without contact is refused.
    let minus =
        dotc(&["odds", "melee", "--attacker-stands", "2", "--attacker-mod", "-2", "--defender-stands", "2"]);
    assert!(minus.status.success(), "{}", text(&minus.stderr));
    assert!(text(&minus.stdout).contains("defender wins"));
    let none = dotc(&["odds", "melee", "--attacker-stands", "0", "--defender-stands", "2"]);
    assert_eq!(none.status.code(), Some(2));
}

/// Named modifiers read their values from the rule data (Ch16 7.3): an assault column +1 and
/// the Rebel Yell +1 against a stone wall +2 and Disorder -2 are the same melee as +2 against 0.
#[test]
fn odds_melee_named_modifiers_match_the_numbers() {
    let named = dotc(&[
        "odds",
        "melee",
        "--attacker-stands",
        "2",
        "--attacker-has",
        "assault_column,rebel_yell",
        "--defender-stands",
        "3",
        "--defender-has",
        "stone_wall",
        "--defender-has",
        "disorder",
        "--format",
        "json",
    ]);
    assert!(named.status.success(), "{}", text(&named.stderr));
    let numbers = dotc(&[
        "odds",
        "melee",
        "--attacker-stands",
        "2",
        "--attacker-mod",
        "2",
        "--defender-stands",
        "3",
        "--defender-mod",
        "0",
        "--format",
        "json",
    ]);
    assert!(numbers.status.success(), "{}", text(&numbers.stderr));
    let (a, b): (serde_json::Value, serde_json::Value) =
        (serde_json::from_slice(&named.stdout).unwrap(), serde_json::from_slice(&numbers.stdout).unwrap());
    assert_eq!(a, b);
    assert_eq!(a["attacker_modifier"], 2);
    // A defender's abatis costs the attacker 2 (RULINGS G17); numbers and names add up.
    let abatis = dotc(&[
        "odds",
        "melee",
        "--attacker-stands",
        "2",
        "--attacker-mod",
        "1",
        "--defender-stands",
        "2",
        "--defender-has",
        "abatis",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&abatis.stdout).expect("JSON");
    assert_eq!(v["attacker_modifier"], -1);
    // The table names them.
    let table = dotc(&[
        "odds",
        "melee",
        "--attacker-stands",
        "2",
        "--attacker-has",
        "assault_column",
        "--defender-stands",
        "2",
    ]);
    assert!(text(&table.stdout).contains("assault_column +1"), "{}", text(&table.stdout));
}

/// Health states and situational modifiers, once the rule data has them (Ch16 2.4, 7.3, 8.1).
#[test]
fn odds_melee_health_and_situational_names() {
    let named = dotc(&[
        "odds",
        "melee",
        "--attacker-stands",
        "2",
        "--attacker-has",
        "fresh,momentum,brigadier_attached",
        "--defender-stands",
        "2",
        "--defender-has",
        "spent",
        "--format",
        "json",
    ]);
    if !named.status.success() && text(&named.stderr).contains("unknown melee modifier") {
        return; // the stdlib has no health or modifier entries yet
    }
    assert!(named.status.success(), "{}", text(&named.stderr));
    let v: serde_json::Value = serde_json::from_slice(&named.stdout).expect("JSON");
    assert_eq!(v["attacker_modifier"], 3);
    assert_eq!(v["defender_modifier"], -1);
}

#[test]
fn odds_melee_unknown_or_misplaced_names_exit_2() {
    let out = dotc(&[
        "odds",
        "melee",
        "--attacker-stands",
        "2",
        "--defender-stands",
        "2",
        "--defender-has",
        "stone_wal",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("unknown melee modifier `stone_wal`; did you mean `stone_wall`?"), "{err}");
    assert!(out.stdout.is_empty());
    let out = dotc(&[
        "odds",
        "melee",
        "--attacker-stands",
        "2",
        "--defender-stands",
        "2",
        "--defender-has",
        "assault_column",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("gives nothing to the defender"), "{}", text(&out.stderr));
}

const ASSAULT: &[&str] =
    &["odds", "assault", "--weapon", "rifled_musket", "--stands", "5", "--charger-stands", "6"];

fn assault(extra: &[&str]) -> Output {
    dotc(&[ASSAULT, extra].concat())
}

/// Ch16 7.2-7.4: every assault ends destroyed, stalled, routed, overrun or in one of the three
/// melee results; the closing volley at the 4" line is short range, 5D6 at 4+ (Ch16 5.2).
#[test]
fn odds_assault_json_sums_to_one() {
    let out = assault(&["--format", "json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let p = |key: &str| v[key].as_f64().unwrap_or_else(|| panic!("{key} missing"));
    let total = p("p_destroyed")
        + p("p_stalled")
        + p("p_routed")
        + p("p_overrun")
        + p("p_attacker_wins")
        + p("p_draw")
        + p("p_defender_wins");
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    assert!((p("p_melee") - (p("p_attacker_wins") + p("p_draw") + p("p_defender_wins"))).abs() < 1e-12);
    for key in ["p_pre_contact_check", "expected_stands_lost_to_volley", "p_contact_disordered"] {
        assert!(v[key].is_f64(), "{key}");
    }
    assert_eq!(v["closing_volley"]["band"], "short");
    assert_eq!(v["closing_volley"]["dice"], 5);
    assert_eq!(v["closing_volley"]["to_hit"], 4);
    // A 6-stand charger cannot be shattered by 5 dice.
    assert_eq!(p("p_destroyed"), 0.0);

    // C3 as printed: more Disorder, more stalls.
    let printed = assault(&["--format", "json", "--preset", "as_printed"]);
    let w: serde_json::Value = serde_json::from_slice(&printed.stdout).expect("JSON");
    assert!(w["p_stalled"].as_f64().unwrap() > p("p_stalled"));

    // With a simulation beside it.
    let out = assault(&["--format", "json", "--monte-carlo", "2000", "--seed", "5"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["monte_carlo"]["trials"], 2000);
    assert!(v["monte_carlo"]["p_stalled"]["mean"].is_f64());
}

/// One section of canister at Garnett's 2 Spent stands (of 8), his brigadier attached as
/// RULE-07-4.2 asks (RULINGS E5).
const GARNETT: &[&str] = &[
    "odds",
    "assault",
    "--weapon",
    "field_howitzer",
    "--stands",
    "1",
    "--charger-stands",
    "2",
    "--charger-starting",
    "8",
    "--brigadier",
];

/// RULINGS E5: 2D6 at 2+ in the open shatter Garnett's 2 stands whenever both dice hit, 25/36:
/// the volley's fire takes both stands (the second by the shatter, Ch16 5.4) 25/36 of the time.
#[test]
fn odds_assault_garnett_table() {
    let out = dotc(&[GARNETT, &["--format", "json"]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let lost: Vec<f64> = serde_json::from_value(v["stands_lost_to_volley"].clone()).expect("a distribution");
    assert!((lost[2] - 25.0 / 36.0).abs() < 1e-12, "{lost:?}");
    assert!(v["p_destroyed"].as_f64().unwrap() >= 25.0 / 36.0);
    let out = dotc(&[GARNETT, &["--monte-carlo", "1000"]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for want in [
        "2D6 from 1 stand",
        "to hit       2+",
        "destroyed by the volley",
        "spent -1",
        "brigadier attached +1",
        "simulated (1000 assaults, seed 1)",
    ] {
        assert!(stdout.contains(want), "missing {want:?} in\n{stdout}");
    }
    // Without the brigadier the Spent regiment may not charge (RULE-07-4.2).
    let out = dotc(&GARNETT[..GARNETT.len() - 1]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("RULE-07-4.2"), "{}", text(&out.stderr));
}

#[test]
fn odds_assault_errors_exit_2() {
    for (extra, want) in [
        (&["--weapon", "nope"][..], "unknown weapon `nope`"),
        (&["--range", "30"][..], "out of range"),
        (&["--charger-stands", "0"][..], "at least 1 stand"),
        (&["--stands", "0"][..], "at least 1 stand"),
        (&["--charger-quality", "veteren"][..], "did you mean `veteran`?"),
        (&["--charger-trait", "stedy"][..], "unknown trait `stedy`"),
        (&["--ground", "stone_wal"][..], "unknown ground `stone_wal`"),
        (&["--distance", "12"][..], "charge reaches"),
        (&["--charger-disordered", "--format", "json"][..], "disordered"),
        (&["--ruling", "suppression=sometimes"][..], "has no value `sometimes`"),
        (&["--monte-carlo", "0"][..], "at least 1 assault"),
    ] {
        // Later flags win over the defaults of `assault`, so the bad value is the one used.
        let mut args = ASSAULT.to_vec();
        let mut rest = extra;
        while let Some((flag, tail)) = rest.split_first() {
            let takes_value = tail.first().is_some_and(|v| !v.starts_with("--"));
            match args.iter().position(|a| a == flag) {
                Some(i) if takes_value => args[i + 1] = tail[0],
                _ if takes_value => args.extend_from_slice(&[*flag, tail[0]]),
                _ => args.push(*flag),
            }
            rest = if takes_value { &tail[1..] } else { tail };
        }
        let out = dotc(&args);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains(want), "{extra:?}: {}", text(&out.stderr));
        assert!(out.stdout.is_empty(), "{extra:?}");
    }
}

fn fire_json(args: &[&str]) -> serde_json::Value {
    let out = dotc(&[&["odds", "fire", "--format", "json"], args].concat());
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn num(v: &serde_json::Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} in {v}"))
}

/// Ch15 3.0's probability matrix (checked in RULINGS D), every row and every column, as
/// `dotc odds fire` prints it: hit chance, expected hits, expected unsaved hits behind light
/// (5+) and heavy (4+) cover, and expected stands lost in the open (RULE-05-3.3).
#[test]
fn dotc_odds_reproduces_the_chapter_15_matrix() {
    // weapon, stands, range, hit %, hits, vs light, vs heavy, stands lost
    type Row = (&'static str, &'static str, &'static str, f64, f64, f64, f64, f64);
    let rows: &[Row] = &[
        ("smoothbore_musket", "5", "4", 66.7, 3.33, 2.22, 1.67, 1.67),
        ("smoothbore_musket", "5", "10", 33.3, 1.67, 1.11, 0.83, 0.83),
        ("rifled_musket", "5", "4", 50.0, 2.50, 1.67, 1.25, 1.25),
        ("rifled_musket", "5", "10", 50.0, 2.50, 1.67, 1.25, 1.25),
        ("rifled_musket", "5", "16", 33.3, 1.67, 1.11, 0.83, 0.83),
        ("repeating_rifle", "5", "4", 66.7, 4.67, 3.11, 2.33, 2.33),
        ("napoleon", "2", "4", 83.3, 3.33, 2.22, 1.67, 1.67),
    ];
    let round = |x: f64, places: i32| (x * 10f64.powi(places)).round() / 10f64.powi(places);
    for &(weapon, stands, range, hit, hits, light, heavy, lost) in rows {
        let base = ["--weapon", weapon, "--stands", stands, "--range", range];
        let open = fire_json(&base);
        let row = format!("{weapon} {stands} at {range}\"");
        assert_eq!(round(100.0 * num(&open, "p_hit"), 1), hit, "{row}: hit %");
        assert_eq!(round(num(&open, "expected_hits"), 2), hits, "{row}: hits");
        assert_eq!(round(num(&open, "expected_unsaved"), 2), hits, "{row}: open ground has no save");
        assert_eq!(round(num(&open, "expected_stands_lost"), 2), lost, "{row}: stands");
        let l = fire_json(&[&base[..], &["--cover", "light"]].concat());
        assert_eq!(round(num(&l, "expected_unsaved"), 2), light, "{row}: vs light");
        let h = fire_json(&[&base[..], &["--cover", "heavy"]].concat());
        assert_eq!(round(num(&h, "expected_unsaved"), 2), heavy, "{row}: vs heavy");
    }
}

/// Ch15 3.0's suppression table (RULINGS D): the chance of at least one natural 6 for 3-7 dice
/// at short range, and, beyond 6", of the two 6s RULE-05-4.1 asks for.
#[test]
fn dotc_odds_reproduces_the_suppression_table() {
    let pools: &[(&str, &str, f64, f64)] = &[
        ("rifled_musket", "3", 42.1, 7.4),
        ("rifled_musket", "4", 51.8, 13.2),
        ("rifled_musket", "5", 59.8, 19.6),
        ("rifled_musket", "6", 66.5, 26.3),
        // The table's "7 stands" row is a 5-stand repeater regiment rolling 7D6 (RULINGS D).
        ("repeating_rifle", "5", 72.1, 33.0),
    ];
    for &(weapon, stands, short, beyond) in pools {
        let at = |range: &str| {
            let v = fire_json(&["--weapon", weapon, "--stands", stands, "--range", range]);
            (100.0 * num(&v, "p_shock") * 10.0).round() / 10.0
        };
        assert_eq!(at("4"), short, "{weapon} x{stands} at 4\"");
        assert_eq!(at("10"), beyond, "{weapon} x{stands} at 10\"");
    }
}

/// Ch13 9.0: with the Elite Sharpshooters module on, fire at an elite sharpshooter regiment is
/// at -1 to hit (4+ becomes 5+ at 10"); without the module the trait is refused, naming the
/// module to switch on (it would do nothing in a game, dotc D8); a misspelt trait or module is
/// an error that lists the right names.
#[test]
fn ch13_9_0_odds_fire_at_elite_sharpshooters() {
    let base =
        ["odds", "fire", "--weapon", "rifled_musket", "--stands", "5", "--range", "10", "--format", "json"];
    let to_hit = |extra: &[&str]| {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let out = dotc(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        json["to_hit"].as_i64().expect("to_hit")
    };
    assert_eq!(to_hit(&[]), 4);
    assert_eq!(to_hit(&["--target-trait", "elite_sharpshooters", "--module", "elite_sharpshooters"]), 5);
    let args: Vec<&str> = base.iter().chain(&["--target-trait", "elite_sharpshooters"]).copied().collect();
    let out = dotc(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("add `--module elite_sharpshooters` (Ch13 9.0, dotc D8)"),
        "{}",
        text(&out.stderr)
    );
    let args: Vec<&str> = base.iter().chain(&["--target-trait", "elite_sharpshooter"]).copied().collect();
    let out = dotc(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown trait `elite_sharpshooter`"), "{}", text(&out.stderr));
    let args: Vec<&str> = base.iter().chain(&["--module", "elite_sharpshooter"]).copied().collect();
    assert!(text(&dotc(&args).stderr).contains("unknown module `elite_sharpshooter`"));
}

/// RULINGS G15: mounted cavalry's -2 against Disordered infantry is not doubled: the defender
/// is at its Disorder's -2 only. 1D6 + 4 + 1 against 1D6 + 4 - 2: the cavalry leads by its die
/// minus the infantry's, plus 3. The infantry draws when its die is 3 higher, (1,4) (2,5) (3,6),
/// and wins when 4 or more higher, (1,5) (1,6) (2,6): draws 3/36, cavalry wins 30/36.
#[test]
fn rulings_g15_cavalry_shock_is_not_doubled_on_disordered_infantry() {
    let out = dotc(&[
        "odds",
        "melee",
        "--attacker-stands",
        "4",
        "--defender-stands",
        "4",
        "--attacker-has",
        "cavalry_shock",
        "--defender-has",
        "disorder",
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["defender_modifier"], -2, "{v}");
    assert_eq!(v["attacker_modifier"], 1);
    assert!((v["attacker_wins"].as_f64().unwrap() - 30.0 / 36.0).abs() < 1e-12, "{v}");
    assert!((v["draw"].as_f64().unwrap() - 3.0 / 36.0).abs() < 1e-12);
}

/// Ch16 4.2, RULINGS G17: an abatis gives the attacker -2 and cancels its momentum: named
/// momentum counts nothing behind one. 3 stands +1 (Fresh) +1 (momentum, cancelled) -2 (abatis)
/// against 3 stands +1: -1 against +1.
#[test]
fn rulings_g17_an_abatis_cancels_momentum_in_odds_melee() {
    let out = dotc(&[
        "odds",
        "melee",
        "--attacker-stands",
        "3",
        "--defender-stands",
        "3",
        "--attacker-has",
        "fresh,momentum",
        "--defender-has",
        "fresh,abatis",
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["attacker_modifier"], -1, "{v}");
    assert_eq!(v["defender_modifier"], 1, "{v}");
}

/// Ch13 17.0 Desperate Valor (`--valor`): one stand of rifled muskets at the 4" line, 1 die at
/// 4+, at a regular charger carrying a micro-hit: any hit completes a stand and calls for the
/// pre-contact check (1/2; RULINGS C7). The regular 4+ check passes 1/2 of the time on one die,
/// 3/4 with Advantage (fails only if both dice miss, (1/2)^2): the charge stalls 1/2 x 1/2 =
/// 1/4 of the time, 1/2 x 1/4 = 1/8 with valor.
#[test]
fn odds_assault_valor_and_a_second_line_help_a_4_plus_check() {
    let base = [
        "odds",
        "assault",
        "--weapon",
        "rifled_musket",
        "--stands",
        "1",
        "--charger-stands",
        "6",
        "--charger-micro-hit",
        "--format",
        "json",
    ];
    let read = |extra: &[&str]| {
        let out = dotc(&[&base[..], extra].concat());
        assert!(out.status.success(), "{}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        (v["p_check_passes"].as_f64().expect("a check"), v["p_stalled"].as_f64().expect("stalled"))
    };
    let (passes, stalled) = read(&[]);
    assert!((passes - 0.5).abs() < 1e-12 && (stalled - 0.25).abs() < 1e-12, "{passes} {stalled}");
    let (passes, stalled) = read(&["--valor"]);
    assert!((passes - 0.75).abs() < 1e-12 && (stalled - 0.125).abs() < 1e-12, "{passes} {stalled}");
    // Ch13 19.0 Second Line (`--charger-supported`, dotc D11): +1 to the check, 3+: passed 2/3,
    // so the charge stalls 1/2 x 1/3 = 1/6.
    let (passes, stalled) = read(&["--charger-supported"]);
    assert!((passes - 2.0 / 3.0).abs() < 1e-12 && (stalled - 1.0 / 6.0).abs() < 1e-12, "{passes} {stalled}");
    // Ch13 3.0 Heroic Momentum (`--heroic-momentum`): the check to close is passed
    // without a die: passed always, so the charge never stalls.
    let (passes, stalled) = read(&["--heroic-momentum"]);
    assert!((passes - 1.0).abs() < 1e-12 && stalled.abs() < 1e-12, "{passes} {stalled}");
}

/// Ch13 16.0 (`--battle-cry`, dotc D15): a line of 5 charges a regular assault column of 5 with
/// no closing volley and no momentum, under caught_flat_footed (Ch13 18.0). The column's 4+
/// check is at -1, 5+ (1/3): passed, the charger wins 21/36; failed, Disordered too, 30/36. In
/// all 1/3 x 21/36 + 2/3 x 30/36 = 81/108 = 3/4 (51/72 without the cry).
#[test]
fn odds_assault_battle_cry_takes_one_off_the_defenders_check() {
    let base = [
        "odds",
        "assault",
        "--weapon",
        "rifled_musket",
        "--stands",
        "5",
        "--charger-stands",
        "5",
        "--no-volley",
        "--defender-formation",
        "column",
        "--module",
        "caught_flat_footed",
        "--format",
        "json",
    ];
    let wins = |extra: &[&str]| {
        let out = dotc(&[&base[..], extra].concat());
        assert!(out.status.success(), "{}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        v["p_attacker_wins"].as_f64().expect("wins")
    };
    let plain = wins(&[]);
    assert!((plain - 51.0 / 72.0).abs() < 1e-12, "{plain}");
    let cry = wins(&["--battle-cry"]);
    assert!((cry - 0.75).abs() < 1e-12, "{cry}");
}

/// Ch13 19.0 (`--target-supported`, dotc D11): one rifled-musket stand at 6" rolls one die; its 6
/// (1/6) triggers the target's Shock save, 4+ with +1 for Fresh, failed on 1-2 (1/3): disordered
/// 1/18. With a friend in second line behind the target, +1 more: failed on a 1 (1/6), 1/36.
#[test]
fn odds_fire_target_supported_steadies_the_shock_save() {
    let read = |extra: &[&str]| {
        let base = [
            "odds",
            "fire",
            "--weapon",
            "rifled_musket",
            "--stands",
            "1",
            "--range",
            "6",
            "--format",
            "json",
        ];
        let out = dotc(&[&base[..], extra].concat());
        assert!(out.status.success(), "{}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        v["p_shock_disorder"].as_f64().expect("p_shock_disorder")
    };
    let plain = read(&[]);
    assert!((plain - 1.0 / 18.0).abs() < 1e-12, "{plain}");
    let supported = read(&["--target-supported"]);
    assert!((supported - 1.0 / 36.0).abs() < 1e-12, "{supported}");
}

/// Ch13 3.0 Sudden Squall: 5 stands of rifled musket at 10" (medium, 4+ to hit) roll 5 dice;
/// halved and rounded down, 2. Two dice at 4+: P(0 hits) = 1/4, P(1) = 1/2, P(2) = 1/4, so 1
/// hit expected; only two hits make a whole stand (P 1/4), and the expected stands, counted as
/// Ch15's matrix counts them (hits / 2, a micro-hit half a stand), 0.5 (5 dice: 1.25).
#[test]
fn ch13_3_0_odds_fire_in_a_sudden_squall_halves_the_pool() {
    let v = fire_json(&["--weapon", "rifled_musket", "--stands", "5", "--range", "10", "--squall"]);
    assert_eq!(v["dice"], 2);
    let hits: Vec<f64> = v["hits"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect();
    assert_eq!(hits.len(), 3, "{hits:?}");
    for (p, want) in hits.iter().zip([0.25, 0.5, 0.25]) {
        assert!((p - want).abs() < 1e-12, "{hits:?}");
    }
    assert!((num(&v, "expected_hits") - 1.0).abs() < 1e-12);
    assert!((num(&v, "expected_stands_lost") - 0.5).abs() < 1e-12);
    let lost: Vec<f64> = v["stands_lost"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect();
    assert_eq!(lost.len(), 2, "{lost:?}");
    assert!((lost[0] - 0.75).abs() < 1e-12 && (lost[1] - 0.25).abs() < 1e-12, "{lost:?}");
}

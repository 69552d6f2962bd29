//! The hand-worked rules suite (issue 14): `tests/rules/<area>/*.dotc`, small scenarios and game
//! logs whose claims were worked by hand from the rulebook and RULINGS.md, never from the code.
//! Each file says which rules it covers on `// covers: ...` lines; each situation of a log starts
//! with a `// situation: ...` line and carries its arithmetic in comments.
//!
//! The tests here: every scenario of the suite checks clean; every log audits clean (no error,
//! no warning, no note of something the replay did not judge), where an action the rules forbid
//! is written with `@allow(dotc::replay-disagrees, "forbidden: RULE; why")` and the finding it
//! allows must cite that rule (the text before the `;`); every RULE-05 and RULE-07 id has a situation or is listed in
//! [`NOT_YET_COVERED`] (which may only shrink); every value of every ruling switch of the
//! register is played by a log that says so on a `// switches: NAME=VALUE` line or is listed in
//! [`NOT_YET_SWITCHED`] (which may only shrink); the suite holds at least [`SITUATIONS_AT_LEAST`]
//! situations. `tests/rules/DISAGREEMENTS.md` keeps the situations where dotc and the hand-worked
//! result differ and that are not in the suite yet.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use dotc_lang::ast::FileKind;
use dotc_runtime::audit::{AuditOptions, audit};
use dotc_runtime::replay::{Level, ReplayOptions, replay};

/// The RULE ids the suite must cover: every RULE id of the two numbered sections
/// ([`common::RULE_IDS`]), with RULE-05-2.5 (printed twice, RULINGS G21) covered as its two
/// parts 2.5a (artillery against deep formations) and 2.5b (Low Ammunition), and without
/// RULE-05-7.0 (the modifiers summary, which prints no RULE id of its own).
fn rule_ids() -> Vec<&'static str> {
    common::RULE_IDS.iter().copied().filter(|id| !["RULE-05-2.5", "RULE-05-7.0"].contains(id)).collect()
}

/// The RULE ids with no situation yet, separated by spaces. This list may only shrink, so
/// [`every_rule_id_has_a_situation_or_is_listed_as_not_yet_covered`] fails both when an id is
/// neither covered nor listed and when a listed id has become covered. Every id is covered now.
const NOT_YET_COVERED: &str = "";

/// The ruling switches, `NAME=VALUE`, that no log of the suite plays yet, separated by spaces.
/// Every switch of the register ([`dotc_lang::rulings::RULINGS`]) must be played at each of its
/// values, the default too, by a log that says so on a `// switches: NAME=VALUE, ...` line (and,
/// for a value other than the default, sets it in its header: `ruling NAME = VALUE`). This list
/// may only shrink: [`every_ruling_switch_is_played_both_ways_or_is_listed_as_not_yet_switched`]
/// fails both when a value is neither played nor listed and when a listed value has been played.
/// Every value is played now.
const NOT_YET_SWITCHED: &str = "";

/// The rows of the Ch16 quick-reference tables of sections 2, 3, 4, 5, 7 and 8 that a situation
/// must exercise, one short id per data row of each table (`Ch16 4.2 Stone Wall`), and for a
/// section without a table, or with rules printed beside its table, one per bulleted or numbered
/// rule (`Ch16 3.3 Passage of Lines`, `Ch16 2.1 Pip Hoarding`). A log names the rows a situation
/// exercises on a `// rows: ...` line (comma-separated, each id as written here), best placed
/// under its `// situation:` line. This is the one list of the row ids.
const CH16_ROWS: &[&str] = &[
    // 2.1 Brigadier staff pip generation, and the two rules under the table.
    "Ch16 2.1 Aggressive",
    "Ch16 2.1 Reliable",
    "Ch16 2.1 Timid",
    "Ch16 2.1 Pip Hoarding",
    "Ch16 2.1 Division Commander",
    // 2.2 Command radius tiers.
    "Ch16 2.2 Tier 1",
    "Ch16 2.2 Tier 2",
    "Ch16 2.2 Tier 3",
    "Ch16 2.2 Tier 4",
    // 2.3 Special orders, and the free standard maneuvers.
    "Ch16 2.3 Regimental Assault",
    "Ch16 2.3 Dress on the Colors",
    "Ch16 2.3 Double-Time",
    "Ch16 2.3 Command Rally",
    "Ch16 2.3 Concentrated Battery Fire",
    "Ch16 2.3 Reserve for Reaction",
    "Ch16 2.3 Free Maneuvers",
    // 2.4 Attached brigadier and the leader casualty table.
    "Ch16 2.4 Attachment",
    "Ch16 2.4 Unhurt",
    "Ch16 2.4 Lightly Wounded",
    "Ch16 2.4 Severely Wounded",
    "Ch16 2.4 Killed",
    // 3.1 Master movement rates, and the minimum move.
    "Ch16 3.1 Infantry Line",
    "Ch16 3.1 Infantry Assault Column",
    "Ch16 3.1 Infantry Road Column",
    "Ch16 3.1 Cavalry Line",
    "Ch16 3.1 Cavalry Column",
    "Ch16 3.1 Artillery Limbered",
    "Ch16 3.1 Artillery Prolonge",
    "Ch16 3.1 Horse Artillery",
    "Ch16 3.1 Brigadier",
    "Ch16 3.1 Dismounted Cavalry",
    "Ch16 3.1 Minimum Move",
    // 3.2 Formations matrix, and the formation changes.
    "Ch16 3.2 Line of Battle",
    "Ch16 3.2 Assault Column",
    "Ch16 3.2 Road Column",
    "Ch16 3.2 Line to Column",
    "Ch16 3.2 Road Column to Line",
    // 3.3 Special movement (no table).
    "Ch16 3.3 Passage of Lines",
    "Ch16 3.3 Fall Back",
    "Ch16 3.3 About Face",
    "Ch16 3.3 Lateral Intervals",
    // 3.4 Skirmish screens (no table).
    "Ch16 3.4 Detachment",
    "Ch16 3.4 Obscuration",
    "Ch16 3.4 Casualty Buffer",
    "Ch16 3.4 Recall",
    // 4.1 Master terrain matrix.
    "Ch16 4.1 Open Ground",
    "Ch16 4.1 Cornfield",
    "Ch16 4.1 Ploughed Field",
    "Ch16 4.1 Light Woods",
    "Ch16 4.1 Dense Woods",
    "Ch16 4.1 Minor Stream",
    "Ch16 4.1 Major River",
    "Ch16 4.1 Sunken Road",
    // 4.2 Linear obstacles.
    "Ch16 4.2 Rail Fence",
    "Ch16 4.2 Stone Wall",
    "Ch16 4.2 Hedge",
    "Ch16 4.2 Abatis",
    "Ch16 4.2 Breastworks",
    // 4.3 Structures and buildings (no table).
    "Ch16 4.3 Capacity",
    "Ch16 4.3 Protection",
    "Ch16 4.3 Firing Arc",
    "Ch16 4.3 Demolition",
    // 4.4 Elevation and dead ground (no table).
    "Ch16 4.4 Dead Ground",
    "Ch16 4.4 Crest Advantage",
    "Ch16 4.4 Uphill Penalty",
    "Ch16 4.4 Overhead Fire",
    // 4.5 Line of sight and firing arcs (no table).
    "Ch16 4.5 Firing Arc",
    "Ch16 4.5 Friendly Formations",
    "Ch16 4.5 Target Priority",
    "Ch16 4.5 Enfilade",
    // 5.1 Firing eligibility, its five conditions (no table).
    "Ch16 5.1 Did Not Move",
    "Ch16 5.1 No Assault",
    "Ch16 5.1 Not Engaged",
    "Ch16 5.1 Not Road Column",
    "Ch16 5.1 Line of Sight",
    // 5.2 Small arms weapon profiles.
    "Ch16 5.2 Smoothbore",
    "Ch16 5.2 Rifled Musket",
    "Ch16 5.2 Repeating Rifle",
    "Ch16 5.2 Breechloader",
    // 5.3 Artillery weapon profiles.
    "Ch16 5.3 Napoleon",
    "Ch16 5.3 Ordnance Rifle",
    "Ch16 5.3 Parrott",
    "Ch16 5.3 Howitzer",
    // 5.4 Cover saves, and the casualty rules under the table.
    "Ch16 5.4 Open Ground",
    "Ch16 5.4 Light Cover",
    "Ch16 5.4 Heavy Cover",
    "Ch16 5.4 Casualty Rate",
    "Ch16 5.4 Micro-Damage",
    "Ch16 5.4 Shatter",
    // 5.5 Suppression: the trigger table, the save by quality and its modifiers.
    "Ch16 5.5 Short Range",
    "Ch16 5.5 Medium Long Range",
    "Ch16 5.5 Veteran",
    "Ch16 5.5 Regular",
    "Ch16 5.5 Green",
    "Ch16 5.5 Fresh",
    "Ch16 5.5 Spent",
    "Ch16 5.5 Cover",
    "Ch16 5.5 Crossfire",
    // 5.6 Shooting modifiers summary.
    "Ch16 5.6 Disordered firer",
    "Ch16 5.6 Enfilade",
    "Ch16 5.6 Firing through smoke",
    "Ch16 5.6 Skirmish Screen",
    "Ch16 5.6 Road Column target",
    "Ch16 5.6 Skirmish Order target",
    "Ch16 5.6 Concentrated Battery",
    // 5.7 Gunsmoke rules (no table).
    "Ch16 5.7 Placement",
    "Ch16 5.7 Obscuration",
    "Ch16 5.7 Smoke Wall",
    "Ch16 5.7 Removal by advance",
    "Ch16 5.7 Removal by holding fire",
    "Ch16 5.7 Brisk Wind",
    // 7.1 Assault declaration requirements (no table).
    "Ch16 7.1 Pip Cost",
    "Ch16 7.1 Formation",
    "Ch16 7.1 Health",
    "Ch16 7.1 Arc and Distance",
    // 7.2 The 4" interruption line (no table).
    "Ch16 7.2 Closing Volley",
    "Ch16 7.2 Pass",
    "Ch16 7.2 Fail",
    // 7.3 Opposed melee shock matrix.
    "Ch16 7.3 Fresh",
    "Ch16 7.3 Spent",
    "Ch16 7.3 Momentum",
    "Ch16 7.3 Assault Column",
    "Ch16 7.3 Rebel Yell",
    "Ch16 7.3 Cavalry Shock",
    "Ch16 7.3 Heavy Defence",
    "Ch16 7.3 Light Defence",
    "Ch16 7.3 Crestline",
    "Ch16 7.3 Flank attack",
    "Ch16 7.3 Disordered",
    "Ch16 7.3 Brigadier",
    // 7.4 Melee outcomes (no table).
    "Ch16 7.4 Bloody Draw",
    "Ch16 7.4 Defeated",
    "Ch16 7.4 Victor",
    "Ch16 7.4 Breakthrough",
    // 8.1 Regimental health states, and the stand count reference table.
    "Ch16 8.1 Fresh",
    "Ch16 8.1 Worn",
    "Ch16 8.1 Spent",
    "Ch16 8.1 Shattered",
    "Ch16 8.1 8 Stands",
    "Ch16 8.1 6 Stands",
    "Ch16 8.1 5 Stands",
    "Ch16 8.1 4 Stands",
    "Ch16 8.1 3 Stands",
    // 8.2 Brigade faltering clock, and its reference table.
    "Ch16 8.2 Fresh Brigade",
    "Ch16 8.2 Hesitant",
    "Ch16 8.2 Broken",
    "Ch16 8.2 16 Stands",
    "Ch16 8.2 20 Stands",
    "Ch16 8.2 24 Stands",
    "Ch16 8.2 28 Stands",
    "Ch16 8.2 32 Stands",
    // 8.3 Rallying (no table).
    "Ch16 8.3 Rally within 12",
    "Ch16 8.3 Rally beyond 12",
    "Ch16 8.3 Natural rally",
    "Ch16 8.3 Double Disorder",
];

/// The rows of [`CH16_ROWS`] no situation exercises yet, one a line. This list may only shrink,
/// so [`every_ch16_row_has_a_situation_or_is_listed_as_not_yet_rowed`] fails both when a row is
/// neither exercised nor listed and when a listed row has been exercised. Every row is exercised
/// now.
const NOT_YET_ROWS: &str = "
";

/// The number of situations the suite has reached; it may only grow (issue 14 asks for 150).
const SITUATIONS_AT_LEAST: usize = 288;

/// The modules of Ch13 with no logged game under `tests/rules/modules/` yet (`NAME-game.dotc`,
/// issue 17), separated by spaces. This list may only shrink:
/// [`every_module_has_a_logged_game_or_is_listed_as_not_yet_logged`] fails both when a module has
/// neither and when a listed module has one.
const NOT_YET_LOGGED: &str = "";

/// Every `.dotc` file under `tests/rules/`, sorted.
fn suite_files() -> Vec<PathBuf> {
    common::dotc_files_under(vec![common::root().join("tests/rules")])
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn is_log(source: &str) -> bool {
    dotc_lang::parse(source).document.kind == Some(FileKind::Game)
}

fn shown(path: &Path) -> String {
    path.strip_prefix(common::root()).unwrap_or(path).display().to_string()
}

/// The items of a file's comment lines that start with `tag` (`// covers:`), split at commas,
/// each as written.
fn comment_list(source: &str, tag: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|line| line.trim().strip_prefix(tag))
        .flat_map(|list| list.split(','))
        .map(|item| item.trim().to_string())
        .filter(|item| !item.is_empty())
        .collect()
}

/// The ids a file's `// covers:` lines name, each as written (`RULE-05-2.1`, `Ch16 5.2`, `C3`).
fn covers(source: &str) -> Vec<String> {
    comment_list(source, "// covers:")
}

/// The `NAME=VALUE` pairs a file's `// switches:` lines name, each as written.
fn switches(source: &str) -> Vec<String> {
    comment_list(source, "// switches:")
}

/// The value a log's header sets for a switch (`ruling NAME = VALUE`), if it sets one.
fn ruling_set(source: &str, name: &str) -> Option<String> {
    source.lines().find_map(|line| {
        let rest = line.trim().strip_prefix("ruling ")?;
        let (key, value) = rest.split_once('=')?;
        (key.trim() == name).then(|| value.trim().to_string())
    })
}

/// The situations of a log: its `// situation:` lines.
fn situations(source: &str) -> usize {
    source.lines().filter(|line| line.trim().starts_with("// situation:")).count()
}

/// The rules a finding cites, each written in full: "RULE-05-2.2, 2.3, Ch16 5.3" cites
/// RULE-05-2.2, RULE-05-2.3 and Ch16 5.3 (a bare section number takes the prefix before it).
fn citations(rule: &str) -> Vec<String> {
    let mut prefix = String::new();
    let mut out = Vec::new();
    for part in rule.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if part.starts_with(|c: char| c.is_ascii_digit()) {
            out.push(format!("{prefix}{part}"));
            continue;
        }
        // The prefix is everything up to the section number: "RULE-05-", "Ch16 ", "RULINGS ".
        let cut = part.rfind(['-', ' ']).map_or(0, |i| i + 1);
        prefix = part[..cut].to_string();
        out.push(part.to_string());
    }
    out
}

/// What is wrong with one log of the suite, one line per finding (`file:line: message [rule]`).
fn audit_problems(path: &Path, source: &str) -> Vec<String> {
    let analysis = dotc_lang::analyze(path, source, &dotc_lang::FsLoader);
    let line = |start: usize| dotc_lang::diagnostic::line_col(source, start).0;
    let mut problems: Vec<String> = analysis
        .diagnostics
        .iter()
        .map(|d| format!("{}:{}: check: {}", shown(path), line(d.primary.span.start), d.message))
        .collect();
    let played = replay(&analysis, &ReplayOptions { source: Some(source), ..Default::default() });
    let audited = audit(&analysis.document, &played.findings, AuditOptions { notes: true });
    for d in &audited.diagnostics {
        let rule = d.rule.clone().unwrap_or_default();
        problems.push(format!(
            "{}:{}: {}: {} [{rule}]",
            shown(path),
            line(d.primary.span.start),
            d.code,
            d.message
        ));
    }
    // An allowed finding is a situation the rules forbid: its reason names the rule that
    // forbids it, and the finding must cite that rule.
    for allowed in &audited.suppressed {
        let cited = played
            .findings
            .iter()
            .find(|f| f.span == allowed.span && f.message == allowed.message && f.level == Level::Error)
            .map(|f| f.rule.clone());
        let wanted = allowed.reason.strip_prefix("forbidden: ").and_then(|r| r.split(';').next());
        let fits = match (&cited, wanted) {
            (Some(rule), Some(wanted)) => citations(rule).iter().any(|c| c == wanted.trim()),
            _ => false,
        };
        if !fits {
            problems.push(format!(
                "{}:{}: allowed `{}` ({}), citing {:?}: the reason must be `forbidden: RULE; why` with the rule the \
                 finding cites",
                shown(path),
                line(allowed.span.start),
                allowed.message,
                allowed.reason,
                cited.unwrap_or_default()
            ));
        }
    }
    problems
}

#[test]
fn a_finding_cites_each_rule_in_full() {
    assert_eq!(
        citations("RULE-05-2.2, 2.3, Ch16 5.2, 5.3, 10.3, RULINGS G4"),
        ["RULE-05-2.2", "RULE-05-2.3", "Ch16 5.2", "Ch16 5.3", "Ch16 10.3", "RULINGS G4"]
    );
}

#[test]
fn every_scenario_of_the_suite_checks_clean_and_says_what_it_covers() {
    let files = suite_files();
    assert!(!files.is_empty(), "tests/rules/ holds no .dotc file");
    let mut problems = Vec::new();
    for path in &files {
        let source = read(path);
        if covers(&source).is_empty() {
            problems.push(format!("{}: no `// covers:` line", shown(path)));
        }
        if is_log(&source) {
            continue;
        }
        let (source, diagnostics) = common::check_file(path);
        if !diagnostics.is_empty() {
            problems.push(common::render(&diagnostics, &shown(path), &source));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_log_of_the_suite_audits_clean() {
    let mut problems = Vec::new();
    let mut logs = 0;
    for path in suite_files() {
        let source = read(&path);
        if !is_log(&source) {
            continue;
        }
        logs += 1;
        if situations(&source) == 0 {
            problems.push(format!("{}: no `// situation:` line", shown(&path)));
        }
        problems.extend(audit_problems(&path, &source));
    }
    assert!(logs > 0, "tests/rules/ holds no game log");
    assert!(problems.is_empty(), "the hand-worked suite and dotc disagree:\n{}", problems.join("\n"));
}

#[test]
fn every_rule_id_has_a_situation_or_is_listed_as_not_yet_covered() {
    let mut covered = BTreeSet::new();
    for path in suite_files() {
        let source = read(&path);
        if is_log(&source) {
            covered.extend(covers(&source));
        }
    }
    let rule_ids = rule_ids();
    let not_yet: Vec<&str> = NOT_YET_COVERED.split_whitespace().collect();
    for id in covered.iter().filter(|id| id.starts_with("RULE-")) {
        assert!(rule_ids.contains(&id.as_str()), "`// covers: {id}` names no RULE id of the rulebook");
    }
    let missing: Vec<&str> =
        rule_ids.iter().copied().filter(|id| !covered.contains(*id) && !not_yet.contains(id)).collect();
    let now_covered: Vec<&str> = not_yet.iter().copied().filter(|id| covered.contains(*id)).collect();
    assert!(
        missing.is_empty(),
        "RULE ids with no situation (add one, or list them in NOT_YET_COVERED): {missing:?}"
    );
    assert!(now_covered.is_empty(), "now covered: take these out of NOT_YET_COVERED: {now_covered:?}");
    for id in &not_yet {
        assert!(rule_ids.contains(id), "NOT_YET_COVERED lists {id}, which is no RULE id");
    }
}

#[test]
fn the_suite_has_not_lost_situations() {
    let count: usize =
        suite_files().iter().map(|p| read(p)).filter(|s| is_log(s)).map(|s| situations(&s)).sum();
    assert!(
        count >= SITUATIONS_AT_LEAST,
        "the suite has {count} situations, fewer than {SITUATIONS_AT_LEAST}"
    );
}

#[test]
fn every_ruling_switch_is_played_both_ways_or_is_listed_as_not_yet_switched() {
    use dotc_lang::rulings::RULINGS;
    let mut played = BTreeSet::new();
    let mut problems = Vec::new();
    for path in suite_files() {
        let source = read(&path);
        let listed = switches(&source);
        if listed.is_empty() {
            continue;
        }
        if !is_log(&source) {
            problems.push(format!("{}: a `// switches:` line belongs on a game log", shown(&path)));
            continue;
        }
        for pair in listed {
            let Some((name, value)) = pair.split_once('=') else {
                problems.push(format!("{}: `{pair}` is not NAME=VALUE", shown(&path)));
                continue;
            };
            let (name, value) = (name.trim(), value.trim());
            let Some(spec) = RULINGS.iter().find(|r| r.name == name) else {
                problems.push(format!("{}: `{name}` is no ruling switch", shown(&path)));
                continue;
            };
            if !spec.values.contains(&value) {
                problems.push(format!(
                    "{}: `{value}` is no value of `{name}` ({:?})",
                    shown(&path),
                    spec.values
                ));
                continue;
            }
            let set = ruling_set(&source, name);
            let plays = match &set {
                Some(set) => set == value,
                None => value == spec.default_value(),
            };
            if !plays {
                problems.push(format!(
                    "{}: says it plays {name}={value} but its header sets {}",
                    shown(&path),
                    set.as_deref()
                        .map_or_else(|| format!("the default {}", spec.default_value()), str::to_string)
                ));
                continue;
            }
            played.insert(format!("{name}={value}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let all: Vec<String> =
        RULINGS.iter().flat_map(|r| r.values.iter().map(move |v| format!("{}={v}", r.name))).collect();
    let not_yet: Vec<&str> = NOT_YET_SWITCHED.split_whitespace().collect();
    for pair in &not_yet {
        assert!(all.iter().any(|a| a == pair), "NOT_YET_SWITCHED lists {pair}, which is no switch value");
    }
    let missing: Vec<&String> =
        all.iter().filter(|a| !played.contains(*a) && !not_yet.contains(&a.as_str())).collect();
    let now_played: Vec<&str> = not_yet.iter().copied().filter(|p| played.contains(*p)).collect();
    assert!(
        missing.is_empty(),
        "switch values no log plays (add a log with `// switches:`, or list them in NOT_YET_SWITCHED): {missing:?}"
    );
    assert!(now_played.is_empty(), "now played: take these out of NOT_YET_SWITCHED: {now_played:?}");
}

#[test]
fn every_ch16_row_has_a_situation_or_is_listed_as_not_yet_rowed() {
    let mut problems = Vec::new();
    let mut exercised = BTreeSet::new();
    for path in suite_files() {
        let source = read(&path);
        // The Ch16 row ids of the file's `// rows:` lines, each as written.
        let named = comment_list(&source, "// rows:");
        if named.is_empty() {
            continue;
        }
        if !is_log(&source) {
            problems.push(format!("{}: a `// rows:` line belongs on a game log", shown(&path)));
            continue;
        }
        for row in named {
            if CH16_ROWS.contains(&row.as_str()) {
                exercised.insert(row);
            } else {
                problems.push(format!("{}: `// rows: {row}` names no row of CH16_ROWS", shown(&path)));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let not_yet: Vec<&str> = NOT_YET_ROWS.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    for row in &not_yet {
        assert!(CH16_ROWS.contains(row), "NOT_YET_ROWS lists `{row}`, which is no row of CH16_ROWS");
    }
    let missing: Vec<&str> =
        CH16_ROWS.iter().copied().filter(|r| !exercised.contains(*r) && !not_yet.contains(r)).collect();
    let now_exercised: Vec<&str> = not_yet.iter().copied().filter(|r| exercised.contains(*r)).collect();
    assert!(
        missing.is_empty(),
        "Ch16 rows no situation exercises (add one, or list them in NOT_YET_ROWS): {missing:?}"
    );
    assert!(now_exercised.is_empty(), "now exercised: take these out of NOT_YET_ROWS: {now_exercised:?}");
}

/// The modules a file switches on: the names on its `module` lines.
fn modules_switched(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|line| line.trim().strip_prefix("module "))
        .flat_map(|list| list.split(','))
        .map(|m| m.trim().to_string())
        .filter(|m| !m.is_empty())
        .collect()
}

#[test]
fn every_module_has_a_logged_game_or_is_listed_as_not_yet_logged() {
    use dotc_lang::rulings::Module;
    let dir = common::root().join("tests/rules/modules");
    let listed: Vec<&str> = NOT_YET_LOGGED.split_whitespace().collect();
    let mut problems = Vec::new();
    for name in &listed {
        if Module::from_name(name).is_none() {
            problems.push(format!("NOT_YET_LOGGED lists `{name}`, which is no module"));
        }
    }
    for module in Module::ALL {
        let name = module.name();
        let logged = dir.join(format!("{name}-game.dotc")).exists();
        match (logged, listed.contains(&name)) {
            (false, false) => problems.push(format!(
                "module {name} ({}) has no tests/rules/modules/{name}-game.dotc: add one, or list it in NOT_YET_LOGGED",
                module.section()
            )),
            (true, true) => problems.push(format!("module {name} is logged now: take it out of NOT_YET_LOGGED")),
            _ => {}
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_module_log_shows_its_module_at_work() {
    // A module's logged game (tests/rules/modules/NAME-game.dotc) switches NAME on in its header
    // and audits clean with it (every_log_of_the_suite_audits_clean); replayed with the module
    // switched off (`dotc audit --no-module NAME`), the same log must give at least one error
    // finding: its claims and its legal actions are those of the module, not the core rules.
    // Other logs of the folder (`weather-soft-ground-game.dotc`) are more situations of a
    // module, held to the suite's rules only.
    let dir = common::root().join("tests/rules/modules");
    let logs: Vec<PathBuf> = suite_files().into_iter().filter(|p| p.starts_with(&dir)).collect();
    let mut problems = Vec::new();
    for path in logs {
        let source = read(&path);
        if !is_log(&source) {
            continue;
        }
        let switched = modules_switched(&source);
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        let Some(named) =
            stem.strip_suffix("-game").filter(|n| dotc_lang::rulings::Module::from_name(n).is_some())
        else {
            continue;
        };
        if !switched.iter().any(|m| m == named) {
            problems.push(format!("{}: its header does not switch on `module {named}`", shown(&path)));
            continue;
        }
        let analysis = dotc_lang::analyze(&path, &source, &dotc_lang::FsLoader);
        let off = dotc_runtime::rulings::WhatIf::default()
            .with_modules(&[], &[named.to_string()])
            .unwrap_or_else(|e| panic!("{}: {e}", shown(&path)));
        let options = ReplayOptions { source: Some(&source), what_if: Some(&off), ..Default::default() };
        let played = replay(&analysis, &options);
        // Through the audit, so that a finding the log allows (a forbidden action written to show
        // the module forbids it) does not count: with the module on it is there too.
        let audited = audit(&analysis.document, &played.findings, AuditOptions { notes: false });
        let errors = audited
            .diagnostics
            .iter()
            .filter(|d| d.severity == dotc_lang::diagnostic::Severity::Error)
            .count();
        if errors == 0 {
            problems.push(format!(
                "{}: with `{named}` off the log still replays without an error: it does not show the module at work",
                shown(&path)
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

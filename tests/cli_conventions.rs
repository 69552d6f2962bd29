//! The CLI's conventions (issue 21, "Conventions"): one spelling of output formats with the old
//! ones kept as hidden aliases, every JSON output valid against its published, versioned JSON
//! Schema (docs/schemas/) and its YAML the same document, `-` for standard input, `--quiet`,
//! `--color` and `NO_COLOR`.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::{dotc, root, text};
use serde_json::Value;

/// `dotc ARGS` in `dir` with `input` on standard input and `env` set.
fn dotc_with(args: &[&str], dir: &Path, input: &[u8], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dotc"));
    command.args(args).current_dir(dir).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    command.env_remove("NO_COLOR");
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().expect("dotc runs");
    let mut stdin = child.stdin.take().expect("a pipe");
    // dotc may stop reading early (an error before it reads): a closed pipe is not a failure.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().expect("dotc ends")
}

/// The published schema `docs/schemas/NAME.schema.json`, compiled.
fn validator(name: &str) -> jsonschema::Validator {
    let path = root().join("docs/schemas").join(format!("{name}.schema.json"));
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("the schema is there"))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    jsonschema::draft202012::new(&schema).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every `.dotc` file of `scenarios/*/`.
fn shipped() -> Vec<PathBuf> {
    common::dotc_files_under(vec![root().join("scenarios")])
}

/// The shipped game logs (files whose first statement is `game`).
fn shipped_logs() -> Vec<PathBuf> {
    shipped().into_iter().filter(|p| is_kind(p, "game")).collect()
}

fn is_kind(path: &Path, word: &str) -> bool {
    let source = std::fs::read_to_string(path).expect("readable");
    source
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("//"))
        .is_some_and(|l| l.split_whitespace().next() == Some(word))
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).display().to_string()
}

/// Run `dotc ARGS --format json` and `--format yaml`: the JSON must validate against `schema`,
/// carry the schema's name and version (all but the bare list of `dotc check`), and the YAML
/// must be the same document. Returns the JSON.
fn validated(schema: &str, args: &[&str]) -> Value {
    let json_run = dotc(&[args, &["--format", "json"]].concat(), &root());
    let json: Value = serde_json::from_slice(&json_run.stdout).unwrap_or_else(|e| {
        panic!("{args:?}: not JSON ({e}): {}\n{}", text(&json_run.stdout), text(&json_run.stderr))
    });
    let errors: Vec<String> = validator(schema)
        .iter_errors(&json)
        .take(5)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{args:?} does not match docs/schemas/{schema}.schema.json:\n{}",
        errors.join("\n")
    );
    if schema != "check" {
        assert_eq!(json["schema"], format!("dotc.{schema}/1"), "{args:?}");
    }
    let yaml_run = dotc(&[args, &["--format", "yaml"]].concat(), &root());
    let yaml: Value = serde_norway::from_slice(&yaml_run.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: not YAML ({e}): {}", text(&yaml_run.stderr)));
    assert_eq!(yaml, json, "{args:?}: the YAML is not the JSON's document");
    assert_eq!(yaml_run.status.code(), json_run.status.code(), "{args:?}");
    json
}

#[test]
fn every_schema_is_a_real_draft_2020_12_schema_named_as_its_documents() {
    let dir = root().join("docs/schemas");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("docs/schemas") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).expect("a name").to_string();
        let name =
            name.strip_suffix(".schema.json").unwrap_or_else(|| panic!("{name}: not NAME.schema.json"));
        let schema: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("readable")).expect("JSON");
        assert!(jsonschema::meta::is_valid(&schema), "{name}: not a valid JSON Schema");
        assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema", "{name}");
        assert_eq!(schema["title"], format!("dotc.{name}/1"), "{name}");
        // Not `{}`: every document's top level has its required fields, and a versioned one
        // requires its name.
        let tops: Vec<&Value> = match schema["oneOf"].as_array() {
            Some(branches) => branches.iter().collect(),
            None => vec![&schema],
        };
        for top in tops {
            if name == "check" {
                assert_eq!(top["type"], "array");
                assert!(!top["items"]["required"].as_array().expect("required").is_empty());
            } else {
                let required = top["required"].as_array().expect("required fields");
                assert_eq!(required.first(), Some(&Value::from("schema")), "{name}");
                assert!(required.len() > 1, "{name}: requires only its name");
                assert_eq!(top["properties"]["schema"]["const"], format!("dotc.{name}/1"));
            }
        }
        names.push(name.to_string());
    }
    names.sort();
    let expected = [
        "analyze",
        "audit",
        "campaign-history",
        "campaign-status",
        "check",
        "export",
        "luck",
        "odds-assault",
        "odds-at",
        "odds-fire",
        "odds-melee",
        "playtest",
        "replay",
        "roster",
    ];
    assert_eq!(names, expected);
}

#[test]
fn check_json_matches_its_schema_on_every_shipped_file_and_an_error_case() {
    let mut files: Vec<String> = shipped().iter().map(|p| relative(p)).collect();
    files.push("tests/fixtures/broken/game-bad-actions.dotc".to_string());
    files.push("tests/fixtures/broken/duplicate-unit-name.dotc".to_string());
    let mut errors = 0;
    for file in &files {
        let json = validated("check", &["check", file]);
        errors += json.as_array().expect("a list").iter().filter(|d| d["severity"] == "error").count();
    }
    assert!(errors > 0, "the error cases gave no error");
}

#[test]
fn export_json_matches_its_schema_on_every_shipped_file() {
    let mut kinds = std::collections::BTreeSet::new();
    for file in shipped() {
        let json = validated("export", &["export", &relative(&file)]);
        kinds.insert(json["kind"].as_str().expect("a kind").to_string());
    }
    kinds.insert(validated("export", &["export", "stdlib/combat.dotc"])["kind"].to_string());
    assert!(kinds.contains("scenario") && kinds.contains("game") && kinds.contains("campaign"), "{kinds:?}");
}

#[test]
fn replay_audit_and_luck_json_match_their_schemas_on_every_shipped_log() {
    for log in shipped_logs() {
        let log = relative(&log);
        let replay = validated("replay", &["replay", &log]);
        assert!(!replay["events"].as_array().expect("events").is_empty(), "{log}");
        validated("audit", &["audit", &log]);
        validated("luck", &["luck", &log]);
    }
    // A log with problems: findings of every kind, and the umpire's suppressions.
    let audit = validated("audit", &["audit", "tests/fixtures/audit/careless-evening.dotc", "--notes"]);
    assert!(audit["files"][0]["errors"].as_u64() > Some(0));
    let allowed = validated("audit", &["audit", "tests/fixtures/audit/umpire-allowed.dotc"]);
    assert!(!allowed["files"][0]["suppressed"].as_array().expect("a list").is_empty());
    validated("replay", &["replay", "tests/fixtures/audit/careless-evening.dotc", "--until", "turn 2"]);
    // A whole season, one of them broken.
    validated("audit", &["audit", "tests/fixtures/audit", "scenarios/tutorial"]);
}

#[test]
fn playtest_json_matches_its_schema_on_a_scenario_log_and_a_campaign_battle() {
    let tutorial =
        validated("playtest", &["playtest", "scenarios/tutorial/fence-line-game.dotc", "--seeds", "3"]);
    assert_eq!(tutorial["games"].as_array().expect("games").len(), 3);
    assert_eq!(tutorial["logged"].get("seed"), None, "the logged game has no seed");
    // A campaign battle's log is fought with the campaign's roster, as `dotc audit` fights it.
    let battle =
        validated("playtest", &["playtest", "scenarios/campaign/barlows-knoll-game.dotc", "--seeds", "4..5"]);
    assert_eq!(battle["games"][1]["seed"], 5);
}

#[test]
fn analyze_and_campaign_json_match_their_schemas() {
    for file in shipped().iter().filter(|p| is_kind(p, "scenario")) {
        validated("analyze", &["analyze", &relative(file)]);
    }
    for campaign in shipped().iter().filter(|p| is_kind(p, "campaign")) {
        let campaign = relative(campaign);
        validated("campaign-status", &["campaign", "status", &campaign]);
        validated("campaign-status", &["campaign", "status", &campaign, "--after", "1"]);
        validated("campaign-history", &["campaign", "status", &campaign, "--history"]);
    }
}

#[test]
fn roster_json_matches_its_schema_on_every_shipped_scenario_and_log() {
    for file in shipped().iter().filter(|p| is_kind(p, "scenario") || is_kind(p, "game")) {
        let json = validated("roster", &["roster", &relative(file)]);
        assert!(!json["sides"].as_array().expect("sides").is_empty(), "{}", file.display());
    }
    // One side only.
    let union = validated("roster", &["roster", "scenarios/tutorial/fence-line.dotc", "--side", "union"]);
    assert_eq!(union["sides"].as_array().map(Vec::len), Some(1));
}

#[test]
fn odds_json_matches_its_schemas() {
    let fire = ["odds", "fire", "--weapon", "rifled_musket", "--stands", "5", "--range", "10"];
    validated("odds-fire", &fire);
    validated(
        "odds-fire",
        &[&fire[..], &["--monte-carlo", "100", "--cover", "heavy", "--target", "column"]].concat(),
    );
    let melee = ["odds", "melee", "--attacker-stands", "4", "--defender-stands", "3"];
    validated("odds-melee", &melee);
    validated("odds-melee", &[&melee[..], &["--monte-carlo", "100"]].concat());
    let assault = ["odds", "assault", "--weapon", "rifled_musket", "--stands", "5", "--charger-stands", "6"];
    validated("odds-assault", &assault);
    validated("odds-assault", &[&assault[..], &["--monte-carlo", "100"]].concat());
    // `--at`: every volley and assault line of the tutorial's log, both kinds of document.
    let log = "scenarios/tutorial/fence-line-game.dotc";
    let source = std::fs::read_to_string(root().join(log)).expect("the tutorial log");
    let mut kinds = std::collections::BTreeSet::new();
    for (i, line) in source.lines().enumerate() {
        let word = line.split_whitespace().next().unwrap_or("");
        let volley = word == "fire" && line.contains(" at ");
        if volley || (["assault", "closing_volley"].contains(&word) && line.contains('"')) {
            let json = validated("odds-at", &["odds", "--at", &format!("{log}:{}", i + 1)]);
            kinds.insert(json["kind"].as_str().expect("a kind").to_string());
        }
    }
    assert!(kinds.contains("volley") && kinds.contains("assault"), "{kinds:?}");
}

/// Every key path of a document, arrays as `[]`: `$.summary.guns[].fate`.
fn key_paths(value: &Value, at: &str, out: &mut std::collections::BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let path = format!("{at}.{k}");
                out.insert(path.clone());
                key_paths(v, &path, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| key_paths(v, &format!("{at}[]"), out)),
        _ => {}
    }
}

/// `validated`, and the document holds each of `paths` (see [`key_paths`]) with a value other
/// than null somewhere: the optional fields the schema describes were really checked.
fn validated_with(schema: &str, args: &[&str], paths: &[&str]) -> Value {
    let json = validated(schema, args);
    let mut seen = std::collections::BTreeSet::new();
    key_paths(&strip_nulls(json.clone()), "$", &mut seen);
    for path in paths {
        assert!(seen.contains(*path), "{args:?} has no {path}; it has:\n{seen:#?}");
    }
    json
}

/// The document without its null values (an `Option` serde wrote as null is not a value).
fn strip_nulls(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| (k, strip_nulls(v))).collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(strip_nulls).collect()),
        other => other,
    }
}

/// The optional fields, the rarer events and the closed sets of words the shipped scenarios
/// and logs do not produce, each from a test fixture that does, validated against its schema
/// (issue 21: every schema true to the types it describes). The schemas close their objects
/// (`additionalProperties: false`), so a field added without its schema fails here too.
#[test]
fn optional_fields_the_shipped_files_miss_match_their_schemas() {
    // Replay: a script's failure placed in the scenario; spiked guns; leader casualties; an
    // advantaged test's discarded die; the dice a seed filled in; the rarer events.
    validated_with(
        "replay",
        &["replay", "tests/fixtures/scripts/chatty-game.dotc"],
        &["$.findings[].in_scenario.start"],
    );
    validated_with(
        "replay",
        &["replay", "tests/rules/modules/spiking_the_guns-game.dotc"],
        &["$.summary.guns[].fate"],
    );
    validated_with(
        "replay",
        &["replay", "tests/campaign/staff-ride-game.dotc"],
        &["$.summary.leader_casualties[].result", "$.summary.victory_points", "$.summary.result.by"],
    );
    validated_with(
        "replay",
        &["replay", "tests/rules/modules/desperate_valor-game.dotc"],
        &["$.events[].event.discarded"],
    );
    validated_with("replay", &["replay", "tests/fixtures/scripts/hooks-seeded.dotc"], &["$.filled[].rolls"]);
    validated_with(
        "replay",
        &["replay", "tests/fixtures/audit/careless-evening.dotc"],
        &["$.summary.result.unfinished.last_turn"],
    );
    for (log, event) in [
        ("tests/rules/modules/uncontrollable_pursuit-game.dotc", "pursuit"),
        ("tests/rules/fire/screen_target-game.dotc", "screen_hit"),
        ("scenarios/gettysburg-day1/gettysburg-day1-mcpherson-game.dotc", "shock_ignored"),
    ] {
        let json = validated("replay", &["replay", log]);
        let events = json["events"].as_array().expect("events");
        assert!(events.iter().any(|e| e["event"]["event"] == event), "{log}: no {event} event");
    }
    // A side's view, stopped early: `seen_by`, `stopped`, the blinds as that side knows them
    // (a brigade, a dummy, an enemy blind unknown).
    let hidden = "tests/rules/modules/hidden_deployment-game.dotc";
    let view = validated_with(
        "replay",
        &["replay", hidden, "--as", "confederate", "--until", "turn 1"],
        &["$.seen_by", "$.stopped.turn", "$.summary.blinds[].hides.brigade"],
    );
    let hides: Vec<&Value> =
        view["summary"]["blinds"].as_array().expect("blinds").iter().map(|b| &b["hides"]).collect();
    assert!(hides.contains(&&Value::from("dummy")) && hides.contains(&&Value::from("unknown")), "{hides:?}");
    validated_with("replay", &["replay", hidden, "--until", "turn 2 fire"], &["$.stopped.phase"]);

    // Export: blinds, a trigger's option, a scenario's own rule data, a campaign's battles and
    // their labelled rolls.
    validated_with(
        "export",
        &["export", "tests/rules/modules/hidden_deployment.dotc"],
        &["$.sides[].blinds[].position"],
    );
    validated_with(
        "export",
        &["export", "tests/fixtures/scripts/hooks.dotc"],
        &["$.triggers[].option.default_on"],
    );
    validated_with("export", &["export", "tests/campaign/fence-line-won.dotc"], &["$.library.terrain[].id"]);
    validated_with(
        "export",
        &["export", "tests/campaign/staff.dotc"],
        &["$.battles[].after[].rolls[].label", "$.battles[].scenario"],
    );
    validated_with(
        "export",
        &["export", "tests/fixtures/examples/e5-garnett.dotc"],
        &["$.turns[].phases[].actions[].steps[].verb"],
    );

    // Analyze a game log: its reinforcements' arrivals and the first contact.
    validated_with(
        "analyze",
        &["analyze", "scenarios/campaign/barlows-knoll-game.dotc"],
        &["$.forces[].arrival.due", "$.first_contact.turn", "$.forces[].line"],
    );

    // A campaign's officer casualties and stand-ins, and its hospital and diluted grades.
    let staff = "tests/campaign/staff.dotc";
    let officers = [
        "$.leaders[].commanded_by.rating",
        "$.leaders[].killed_in",
        "$.leaders[].back_for",
        "$.leaders[].casualties[].casualty",
    ];
    validated_with("campaign-status", &["campaign", "status", staff], &officers);
    validated_with(
        "campaign-status",
        &["campaign", "status", staff, "--after", "1"],
        &["$.battles[].result"],
    );
    validated_with(
        "campaign-history",
        &["campaign", "status", staff, "--history"],
        &["$.battles[].leaders[].commanded_by.name", "$.battles[].result"],
    );
    let road = "tests/campaign/road.dotc";
    validated_with(
        "campaign-status",
        &["campaign", "status", road],
        &["$.units[].hospital[].stands", "$.units[].diluted_for"],
    );
    validated_with(
        "campaign-history",
        &["campaign", "status", road, "--history"],
        &["$.battles[].units[].diluted_grade"],
    );

    // Luck of a log with leader casualty rolls (no number needed) and the campaign's roster.
    validated_with("luck", &["luck", "tests/campaign/staff-ride-game.dotc"], &["$.rolls[].faces"]);

    // Odds with options: an assault without a closing volley, against a flank, and --at's
    // assault with its result.
    let assault = ["odds", "assault", "--weapon", "rifled_musket", "--stands", "5", "--charger-stands", "6"];
    let plain = validated("odds-assault", &[&assault[..], &["--no-volley", "--flank"]].concat());
    assert!(plain["closing_volley"].is_null(), "{plain}");
    validated_with("odds-assault", &assault, &["$.closing_volley.band", "$.p_check_passes"]);
    let melee = ["odds", "melee", "--attacker-stands", "4", "--defender-stands", "3", "--attacker-mod", "-2"];
    let melee = validated("odds-melee", &melee);
    assert!(melee["attacker_modifier"].as_i64() < Some(0), "{melee}");
}

/// The old spellings keep working, give the same output, and are not shown in help.
#[test]
fn old_spellings_are_hidden_aliases() {
    let file = "scenarios/tutorial/fence-line.dotc";
    let same = |old: &[&str], new: &[&str]| {
        let (a, b) = (dotc(old, &root()), dotc(new, &root()));
        assert!(a.status.success(), "{old:?}: {}", text(&a.stderr));
        assert_eq!(text(&a.stdout), text(&b.stdout), "{old:?} and {new:?}");
        assert_eq!(a.status.code(), b.status.code());
    };
    same(&["check", "--format", "human", file], &["check", "--format", "text", file]);
    same(&["check", "--json", file], &["check", "--format", "json", file]);
    same(&["export", file, "--to", "yaml"], &["export", file, "--format", "yaml"]);
    same(&["export", file, "--to", "json"], &["export", file]);
    let fire = ["odds", "fire", "--weapon", "rifled_musket", "--stands", "5", "--range", "10"];
    same(&[&fire[..], &["--json"]].concat(), &[&fire[..], &["--format", "json"]].concat());
    let at = ["odds", "--at", "scenarios/tutorial/fence-line-game.dotc:50"];
    same(&[&at[..], &["--json"]].concat(), &[&at[..], &["--format", "json"]].concat());
    same(
        &["luck", "scenarios/tutorial/fence-line-game.dotc", "--json"],
        &["luck", "scenarios/tutorial/fence-line-game.dotc", "--format", "json"],
    );
    for (args, hidden) in [
        (&["check", "--help"][..], "human"),
        (&["check", "--help"], "--json"),
        (&["export", "--help"], "--to"),
        (&["odds", "fire", "--help"], "--json"),
        (&["odds", "--help"], "--json"),
        (&["audit", "--help"], "--json"),
    ] {
        let help = text(&dotc(args, &root()).stdout);
        assert!(help.contains("--format"), "{args:?}:\n{help}");
        assert!(!help.contains(hidden), "{args:?} shows {hidden}:\n{help}");
    }
    let man = text(&dotc(&["man"], &root()).stdout);
    assert!(!man.contains("human"));
}

/// `-` reads standard input, named `<stdin>`; a log's relative scenario path is found from the
/// current directory.
#[test]
fn a_dash_reads_standard_input() {
    let broken = b"scenario \"Broken\" {\n    turns four\n}\n";
    let out = dotc_with(&["check", "--format", "json", "-"], &root(), broken, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(!json.as_array().expect("a list").is_empty());
    assert!(json.as_array().unwrap().iter().all(|d| d["file"] == "<stdin>"), "{json}");
    let out = dotc_with(&["check", "-"], &root(), broken, &[]);
    assert!(text(&out.stderr).contains("<stdin>"), "{}", text(&out.stderr));

    // The tutorial's log names its scenario `fence-line.dotc`: found beside it only when run
    // from its folder.
    let log = std::fs::read(root().join("scenarios/tutorial/fence-line-game.dotc")).expect("the log");
    let from_file =
        dotc(&["replay", "fence-line-game.dotc", "--format", "json"], &root().join("scenarios/tutorial"));
    let from_stdin =
        dotc_with(&["replay", "-", "--format", "json"], &root().join("scenarios/tutorial"), &log, &[]);
    assert_eq!(text(&from_stdin.stdout), text(&from_file.stdout));
    assert_eq!(from_stdin.status.code(), from_file.status.code());
    let elsewhere = dotc_with(&["replay", "-"], &root(), &log, &[]);
    assert_eq!(elsewhere.status.code(), Some(1));
    let said = text(&elsewhere.stderr);
    assert!(said.contains("<stdin>") && said.contains("scenario-not-found"), "{said}");

    // Every command that reads a file.
    let dir = root().join("scenarios/tutorial");
    let scenario = std::fs::read(dir.join("fence-line.dotc")).expect("the scenario");
    let log_name = "fence-line-game.dotc";
    for args in [
        &["audit", "-", "--format", "json"][..],
        &["luck", "-", "--format", "json"],
        &["odds", "--at", "-:50", "--format", "json"],
    ] {
        let out = dotc_with(args, &dir, &log, &[]);
        let named: Vec<String> =
            args.iter()
                .map(|a| {
                    if a.starts_with("-:") || *a == "-" {
                        a.replacen('-', log_name, 1)
                    } else {
                        a.to_string()
                    }
                })
                .collect();
        let named: Vec<&str> = named.iter().map(String::as_str).collect();
        let file = dotc(&named, &dir);
        let shown = text(&out.stdout).replace("<stdin>", log_name);
        assert_eq!(shown, text(&file.stdout), "{args:?}: {}", text(&out.stderr));
    }
    for args in
        [&["export", "-"][..], &["analyze", "-", "--format", "json"], &["fmt", "-"], &["fmt", "--check", "-"]]
    {
        let out = dotc_with(args, &dir, &scenario, &[]);
        let named: Vec<&str> = args.iter().map(|a| if *a == "-" { "fence-line.dotc" } else { a }).collect();
        let file = dotc(&named, &dir);
        assert_eq!(text(&out.stdout), text(&file.stdout), "{args:?}: {}", text(&out.stderr));
        assert_eq!(out.status.code(), file.status.code(), "{args:?}");
    }
    let map = tempfile::tempdir().expect("a folder");
    let svg = map.path().join("map.svg");
    let out = dotc_with(&["render", "-", "-o", svg.to_str().unwrap()], &dir, &scenario, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(std::fs::read_to_string(&svg).expect("written").contains("<svg"));

    // Not rewritten, not read twice.
    let out = dotc_with(&["fmt", "--write", "-"], &dir, &scenario, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("standard input (`-`) is no file"), "{}", text(&out.stderr));
    let out = dotc_with(&["check", "-", "-"], &dir, &scenario, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read standard input twice"), "{}", text(&out.stderr));
}

/// `--quiet`: no notes, the same results, errors and exit statuses.
#[test]
fn quiet_leaves_out_notes_only() {
    let dir = tempfile::tempdir().expect("a folder");
    let svg = dir.path().join("map.svg");
    let svg = svg.to_str().unwrap();
    let loud = dotc(&["render", "scenarios/tutorial/fence-line.dotc", "-o", svg, "--force"], &root());
    assert!(text(&loud.stderr).contains("wrote"), "{}", text(&loud.stderr));
    let quiet = dotc(&["--quiet", "render", "scenarios/tutorial/fence-line.dotc", "-o", svg], &root());
    assert!(quiet.status.success());
    assert_eq!(text(&quiet.stderr), "");

    let until = ["replay", "scenarios/tutorial/fence-line-game.dotc", "--until", "turn 99"];
    let loud = dotc(&until, &root());
    let quiet = dotc(&[&until[..], &["-q"]].concat(), &root());
    assert!(text(&loud.stderr).contains("note: the log ends before turn 99"));
    assert!(!text(&quiet.stderr).contains("note:"), "{}", text(&quiet.stderr));
    assert_eq!(text(&loud.stdout), text(&quiet.stdout));
    assert_eq!(loud.status.code(), quiet.status.code());

    // Errors and their diagnostics are still printed.
    let broken = "tests/fixtures/broken/duplicate-unit-name.dotc";
    let (loud, quiet) = (dotc(&["check", broken], &root()), dotc(&["check", "--quiet", broken], &root()));
    assert_eq!(quiet.status.code(), Some(1));
    assert_eq!(text(&quiet.stderr), text(&loud.stderr));
    let missing = dotc(&["-q", "check", "no-such-file.dotc"], &root());
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("cannot read no-such-file.dotc"));
}

/// `--color` and `NO_COLOR` (no-color.org): the diagnostics are coloured only when allowed.
#[test]
fn colour_follows_color_and_no_color() {
    let broken = "tests/fixtures/broken/duplicate-unit-name.dotc";
    let escape = |args: &[&str], env: &[(&str, &str)]| {
        let out = dotc_with(args, &root(), b"", env);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        text(&out.stderr).contains("\u{1b}[")
    };
    assert!(escape(&["check", "--color", "always", broken], &[]));
    assert!(escape(&["check", "--color", "always", broken], &[("NO_COLOR", "1")]), "always beats NO_COLOR");
    assert!(!escape(&["check", "--color", "never", broken], &[]));
    // Into a pipe, `auto` does not colour, NO_COLOR or not.
    assert!(!escape(&["check", broken], &[]));
    assert!(!escape(&["check", "--color", "auto", broken], &[("NO_COLOR", "")]));
    // The same diagnostics, coloured or not.
    let strip = |s: String| {
        let mut out = String::new();
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            if c == '\u{1b}' {
                for c in chars.by_ref() {
                    if c == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    };
    let coloured = strip(text(&dotc(&["check", "--color", "always", broken], &root()).stderr));
    assert!(coloured.contains("duplicate"), "{coloured}");
}

//! A game log fought with its campaign's roster replays the same everywhere (issue 19): a log
//! whose header names its campaign battle (`campaign "FILE" battle "NAME"`, Ch14 1.0) is
//! replayed by `dotc replay` with the roster as the battle began (dotc D42, D44, D49), as
//! `dotc audit` fights it, so the replay reports no finding the audit does not.

mod common;

use std::path::PathBuf;

/// The shipped game logs that name their campaign battle in their header.
fn campaign_logs() -> Vec<PathBuf> {
    common::shipped_files()
        .into_iter()
        .filter(|p| {
            std::fs::read_to_string(p).is_ok_and(|s| {
                s.lines().any(|l| l.trim_start().starts_with("game "))
                    && s.lines().any(|l| l.trim_start().starts_with("campaign \""))
            })
        })
        .collect()
}

/// The 1-based line of a byte offset.
fn line_of(source: &str, offset: usize) -> usize {
    source[..offset.min(source.len())].matches('\n').count() + 1
}

#[test]
fn the_replay_of_every_campaign_log_finds_what_the_audit_finds() {
    let logs = campaign_logs();
    let names: Vec<String> =
        logs.iter().map(|p| p.file_name().unwrap_or_default().to_string_lossy().into_owned()).collect();
    for shipped in [
        "gettysburg-day1-campaign-mcpherson-game.dotc",
        "gettysburg-day1-campaign-brickyard-game.dotc",
        "gettysburg-day1-campaign-seminary-game.dotc",
        "gettysburg-day1-campaign-afternoon-game.dotc",
        "barlows-knoll-game.dotc",
    ] {
        assert!(names.iter().any(|n| n == shipped), "{shipped} is among the campaign logs: {names:?}");
    }
    for path in &logs {
        let name = path.strip_prefix(common::root()).unwrap_or(path).display().to_string();
        let source = std::fs::read_to_string(path).expect("readable");
        let out = common::dotc(&["replay", "--format", "json", &name], &common::root());
        assert!(out.status.success(), "{name}: {}", common::text(&out.stderr));
        let replayed: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let out = common::dotc(&["audit", "--format", "json", &name], &common::root());
        let audit: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let audit = &audit["files"][0];
        assert_eq!(audit["replayed"], true, "{name}");
        // Every error and warning of the replay, at its line, is the audit's (found or allowed).
        let audited: Vec<(u64, String)> = ["findings", "suppressed"]
            .iter()
            .flat_map(|k| audit[*k].as_array().cloned().unwrap_or_default())
            .map(|f| (f["line"].as_u64().unwrap_or(0), f["message"].as_str().unwrap_or("").to_string()))
            .collect();
        let findings = replayed["findings"].as_array().expect("findings");
        for f in findings.iter().filter(|f| f["level"] != "note") {
            let start = f["span"]["start"].as_u64().expect("span") as usize;
            let at = (line_of(&source, start) as u64, f["message"].as_str().unwrap_or("").to_string());
            assert!(
                audited.contains(&at),
                "{name}: the replay finds {at:?}, the audit does not: {audited:?}"
            );
        }
        // The shipped logs audit clean, so their replay is clean too.
        assert_eq!(audit["errors"], 0, "{name}: {audit}");
        let errors = findings.iter().filter(|f| f["level"] == "error").count();
        assert_eq!(errors, 0, "{name}: {findings:?}");
    }
}

#[test]
fn a_log_naming_a_campaign_it_cannot_read_is_told_so_by_the_replay_as_by_the_audit() {
    let dir = std::env::temp_dir().join(format!("dotc-campaign-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let shipped = common::root().join("scenarios/campaign/barlows-knoll-game.dotc");
    let source = std::fs::read_to_string(&shipped).expect("readable");
    let header = source.lines().find(|l| l.trim_start().starts_with("campaign \"")).expect("a campaign line");
    let (line, _) = source.lines().enumerate().find(|(_, l)| *l == header).expect("its line");
    // The same log beside its scenario, naming a campaign that is not there.
    let scenario_dir = shipped.parent().expect("folder");
    let text = source.replacen(header, "    campaign \"no-such-campaign.dotc\" battle \"Barlow's Knoll\"", 1);
    let text = rebase_scenario(&text, scenario_dir);
    let log = dir.join("lost-campaign-game.dotc");
    std::fs::write(&log, &text).expect("written");
    let log_name = log.display().to_string();
    let expected = "the campaign \"no-such-campaign.dotc\" could not be read";
    let replayed = common::dotc(&["replay", &log_name], &common::root());
    let stderr = common::text(&replayed.stderr);
    assert!(stderr.contains(expected), "{stderr}");
    let audit = common::dotc(&["audit", "--format", "json", &log_name], &common::root());
    let audit: serde_json::Value = serde_json::from_slice(&audit.stdout).expect("JSON");
    let first = &audit["files"][0]["findings"][0];
    assert_eq!(first["message"], expected, "{audit}");
    assert_eq!(first["line"], (line + 1) as u64, "{audit}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The log's `scenario "FILE"` line made absolute, so the log can be read from another folder.
fn rebase_scenario(text: &str, dir: &std::path::Path) -> String {
    text.lines()
        .map(|l| match l.trim_start().strip_prefix("scenario \"") {
            Some(rest) => {
                let file = rest.split('"').next().unwrap_or("");
                l.replacen(file, &dir.join(file).display().to_string(), 1)
            }
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

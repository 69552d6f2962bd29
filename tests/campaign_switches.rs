//! The campaign's ruling switches (`dotc_lang::campaign::CAMPAIGN_RULINGS`, dotc D32, D35, D36,
//! D38, D40) are each played at every value by a whole campaign file under tests/campaign that
//! says so on a `// switches: NAME=VALUE, ...` line, sets it in its `rules` block (or leaves the
//! default), and audits clean (the deliberately wrong ones of tests/campaign/bad aside): the
//! campaign counterpart of tests/rules.rs's switch test. Where a file's claims depend on a
//! switch, setting it the other way is a located finding.

mod common;

use std::collections::BTreeSet;

use common::{dotc, dotc_files_under, root, text};
use dotc_lang::campaign::CAMPAIGN_RULINGS;

/// The `NAME=VALUE` pairs of a file's `// switches:` lines.
fn switches(source: &str) -> Vec<(String, String)> {
    source
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("// switches:"))
        .flat_map(|l| l.split(','))
        .filter_map(|p| p.split_once('='))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect()
}

/// The value a campaign's `rules` block sets for `name` (the last setting counts).
fn set_in(source: &str, name: &str) -> Option<String> {
    let prefix = format!("ruling {name} = ");
    source.lines().filter_map(|l| l.trim().strip_prefix(&prefix)).map(|v| v.trim().to_string()).next_back()
}

fn audit(path: &std::path::Path) -> (Option<i32>, String) {
    let out = dotc(&["audit", path.to_str().unwrap()], &root());
    (out.status.code(), format!("{}{}", text(&out.stdout), text(&out.stderr)))
}

#[test]
fn every_campaign_switch_value_is_played_by_a_campaign_that_audits_clean() {
    let mut played = BTreeSet::new();
    let mut problems = Vec::new();
    // tests/campaign/bad holds campaigns made wrong on purpose (tests/campaign.rs).
    let files = dotc_files_under(vec![root().join("tests/campaign")]);
    for path in files.into_iter().filter(|p| !p.starts_with(root().join("tests/campaign/bad"))) {
        let source = std::fs::read_to_string(&path).unwrap();
        let listed = switches(&source);
        if listed.is_empty() {
            continue;
        }
        let shown = path.strip_prefix(root()).unwrap_or(&path).display().to_string();
        if !source.lines().any(|l| l.trim_start().starts_with("campaign ")) {
            problems.push(format!("{shown}: a campaign `// switches:` line belongs on a campaign file"));
            continue;
        }
        for (name, value) in listed {
            let Some(spec) = CAMPAIGN_RULINGS.iter().find(|r| r.name == name) else {
                continue; // a game ruling: tests/rules.rs's
            };
            let set = set_in(&source, &name);
            let plays = match &set {
                Some(set) => *set == value,
                None => value == spec.values[0],
            };
            if !spec.values.contains(&value.as_str()) || !plays {
                problems.push(format!("{shown}: says it plays {name}={value}, but sets {set:?}"));
                continue;
            }
            played.insert(format!("{name}={value}"));
        }
        let (code, said) = audit(&path);
        if code != Some(0) || !said.contains("clean: 0 error(s), 0 warning(s)") {
            problems.push(format!("{shown} does not audit clean:\n{said}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let missing: Vec<String> = CAMPAIGN_RULINGS
        .iter()
        .flat_map(|r| r.values.iter().map(move |v| format!("{}={v}", r.name)))
        .filter(|p| !played.contains(p))
        .collect();
    assert!(missing.is_empty(), "campaign switch values no campaign file plays: {missing:?}");
}

/// `file` (under tests/campaign/switches) audited with `from` replaced by `to`, in a scratch
/// folder, its paths pointed back into the repository.
fn flipped(file: &str, from: &str, to: &str) -> String {
    let source = std::fs::read_to_string(root().join("tests/campaign/switches").join(file)).unwrap();
    assert!(source.contains(from), "{from}");
    let dir = root().join("tests/campaign");
    let source = source
        .replacen(from, to, 1)
        .replace("\"../fence-line-won", &format!("\"{}/fence-line-won", dir.display()))
        .replace("\"fence-line-won-game", &format!("\"{}/switches/fence-line-won-game", dir.display()));
    let scratch = tempfile::tempdir().unwrap();
    let path = scratch.path().join(file);
    std::fs::write(&path, source).unwrap();
    let (code, said) = audit(&path);
    assert_eq!(code, Some(1), "{said}");
    said
}

/// dotc D32: all.dotc's 9th Louisiana rolls a 3 with the Union holding the field. Under `all`
/// that survivor is captured; under `returners` a 3 is hospital, so the claim is wrong.
#[test]
fn dotc_d32_all_captures_what_returners_sends_to_hospital() {
    let said = flipped("all.dotc", "ruling surgeon_prisoners = all", "ruling surgeon_prisoners = returners");
    assert!(said.contains("the dice give hospital 1"), "{said}");
    assert!(said.contains("Ch14 2.0"), "{said}");
}

/// dotc D32: none.dotc's 9th Louisiana rolls a 5. Under `none` it returns; under `returners`
/// the stand that would return is captured.
#[test]
fn dotc_d32_none_returns_what_returners_captures() {
    let said =
        flipped("none.dotc", "ruling surgeon_prisoners = none", "ruling surgeon_prisoners = returners");
    assert!(said.contains("the dice give captured 1"), "{said}");
}

/// dotc D35: the 9th Louisiana's charge beat the 19th Maine without driving it off. Under
/// `removed` that is no feat (all.dotc has no experience line); under `beaten` it is one, and the
/// missing line is a finding citing Ch14 3.0.
#[test]
fn dotc_d35_a_charge_that_beat_but_did_not_remove_is_a_feat_only_under_beaten() {
    let said = flipped("all.dotc", "ruling xp_charge_breaks = removed", "ruling xp_charge_breaks = beaten");
    assert!(said.contains("no experience line for \"9th Louisiana\""), "{said}");
    assert!(said.contains("Ch14 3.0"), "{said}");
}

//! `dotc explain` for every rule reference the tool cites: RULE ids, chapter sections and
//! RULINGS ids (`dotc_lang::references`), as a user runs it and as the sources cite them.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{RULE_IDS, dotc, root, text};
use dotc_lang::references;

/// Every section of Ch16, the quick reference, including the headings of each part.
const CH16_SECTIONS: &[&str] = &[
    "1.0", "2.0", "2.1", "2.2", "2.3", "2.4", "3.0", "3.1", "3.2", "3.3", "3.4", "4.0", "4.1", "4.2", "4.3",
    "4.4", "4.5", "5.0", "5.1", "5.2", "5.3", "5.4", "5.5", "5.6", "5.7", "6.0", "7.0", "7.1", "7.2", "7.3",
    "7.4", "8.0", "8.1", "8.2", "8.3", "9.0", "10.0", "10.1", "10.2", "10.3", "10.4", "11.0",
];

#[test]
fn every_rule_id_of_the_rule_files_is_explained() {
    for id in RULE_IDS {
        let reference = references::lookup(id);
        assert_eq!(reference.map(|r| r.id), Some(*id), "{id} has no explanation");
    }
    let registered = references::ids_of(references::ReferenceKind::Rule).count();
    assert_eq!(registered, RULE_IDS.len(), "a RULE id is registered that the rule files lack");
}

#[test]
fn every_quick_reference_section_and_ruling_is_explained() {
    for section in CH16_SECTIONS {
        assert!(references::lookup(&format!("Ch16 {section}")).is_some(), "Ch16 {section}");
    }
    for (letter, last) in [('C', 33), ('G', 21), ('E', 6)] {
        for n in 1..=last {
            assert!(references::lookup(&format!("RULINGS {letter}{n}")).is_some(), "RULINGS {letter}{n}");
        }
    }
    for n in 1..=23 {
        assert!(references::lookup(&format!("Ch13 {n}.0")).is_some(), "Ch13 {n}.0");
    }
}

#[test]
fn every_cited_reference_has_an_explanation() {
    let root = root();
    let mut files = Vec::new();
    for dir in ["lang/src", "runtime/src", "src"] {
        collect(&root.join(dir), "rs", &mut files);
    }
    collect(&root.join("stdlib"), "dotc", &mut files);
    assert!(files.len() > 20, "the scan found only {} files", files.len());

    // Each citation with the first file that makes it.
    let mut cited: BTreeMap<String, PathBuf> = BTreeMap::new();
    for file in &files {
        let Ok(source) = std::fs::read_to_string(file) else {
            continue;
        };
        // The register's own tests spell unknown ids on purpose.
        let source = if file.ends_with("lang/src/references.rs") {
            source.split("#[cfg(test)]").next().unwrap_or_default().to_string()
        } else {
            source
        };
        for id in citations(&source) {
            cited.entry(id).or_insert_with(|| file.clone());
        }
    }
    assert!(cited.len() > 150, "the scan found only {} distinct citations", cited.len());
    let missing: Vec<String> = cited
        .iter()
        .filter(|(id, _)| references::lookup(id).is_none_or(|r| r.id != id.as_str()))
        .map(|(id, file)| format!("{id} (cited in {})", file.strip_prefix(&root).unwrap_or(file).display()))
        .collect();
    assert!(
        missing.is_empty(),
        "cited without an explanation in lang/src/references.rs:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_citation_scanner_reads_lists_and_ranges() {
    let found = citations(
        "RULE-05-4.1/4.2 and RULE-07-2.3, 2.4; (RULE-05-2.5a) RULE-05-6.x Ch16 2.1, 2.3 and 7.4; \
         Ch16 3.1-3.3, Ch13 22.0. RULINGS C3, G9 and E1-E3; RULINGS.md; Which 16 5.0",
    );
    let expected = [
        "RULE-05-4.1",
        "RULE-05-4.2",
        "RULE-07-2.3",
        "RULE-07-2.4",
        "RULE-05-2.5a",
        "Ch16 2.1",
        "Ch16 2.3",
        "Ch16 7.4",
        "Ch16 3.1",
        "Ch16 3.2",
        "Ch16 3.3",
        "Ch13 22.0",
        "RULINGS C3",
        "RULINGS G9",
        "RULINGS E1",
        "RULINGS E2",
        "RULINGS E3",
    ];
    assert_eq!(found, expected);
}

#[test]
fn explain_a_rule_id() {
    let out = dotc(&["explain", "RULE-05-3.3"], &root());
    assert!(out.status.success(), "{}", text(&out.stderr));
    insta::assert_snapshot!("explain_rule_05_3_3", text(&out.stdout));
}

#[test]
fn explain_a_quick_reference_section() {
    let out = dotc(&["explain", "Ch16 7.3"], &root());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    insta::assert_snapshot!("explain_ch16_7_3", stdout);
    for spelling in ["16.7.3", "ch16-7.3", "Ch16 §7.3", "chapter 16 7.3"] {
        let again = dotc(&["explain", spelling], &root());
        assert_eq!(text(&again.stdout), stdout, "{spelling}");
    }
}

#[test]
fn explain_rulings_gaps_modules_and_switch_names() {
    // A switchable ruling keeps its switch line.
    let out = text(&dotc(&["explain", "C3"], &root()).stdout);
    assert!(out.starts_with("RULINGS C3: "), "{out}");
    assert!(out.contains("ruling suppression = numbered"), "{out}");
    // A gap without a switch has its summary.
    let out = dotc(&["explain", "g9"], &root());
    assert!(out.status.success());
    assert!(text(&out.stdout).starts_with("RULINGS G9: "));
    assert!(text(&out.stdout).contains("See also: "));
    // A worked-example error.
    assert!(text(&dotc(&["explain", "E5"], &root()).stdout).starts_with("RULINGS E5: "));
    // A module section names the module that switches it on, and the module's name finds it.
    let out = text(&dotc(&["explain", "Ch13 22.0"], &root()).stdout);
    assert!(out.contains("module open_order"), "{out}");
    // The module's name is a formation's id too (issue 21): the section, then the entry.
    let named = text(&dotc(&["explain", "open_order"], &root()).stdout);
    assert!(named.starts_with(&out), "{named}");
    assert!(named.ends_with("(Ch13 22.0)\n") && named.contains("(formation `open_order`)"), "{named}");
    // A ruling switch's name finds its ruling.
    assert!(text(&dotc(&["explain", "suppression"], &root()).stdout).starts_with("RULINGS C3: "));
}

/// Issue 18: every step of a campaign's post-battle sequence explains itself (how it is
/// written, what it does) and the Ch14 section it plays; a campaign's ruling switch explains
/// its dotc ruling and says a campaign's `rules` block sets it.
#[test]
fn explain_campaign_steps_and_campaign_switches() {
    for step in dotc_lang::campaign::STEPS {
        let out = dotc(&["explain", step.word], &root());
        assert!(out.status.success(), "{}", step.word);
        let said = text(&out.stdout);
        assert!(
            said.starts_with(&format!(
                "{}: a step of a campaign's post-battle sequence ({})",
                step.word, step.rule
            )),
            "{said}"
        );
        assert!(said.contains("Written: "), "{said}");
        // The section's own explanation follows.
        assert!(said.contains(&format!("\n{}: ", step.rule)), "{said}");
    }
    for switch in dotc_lang::campaign::CAMPAIGN_RULINGS {
        // `replacements` is also a step's word: its switch is found by its ruling's id.
        let id = if switch.name == "replacements" { switch.id } else { switch.name };
        let said = text(&dotc(&["explain", id], &root()).stdout);
        assert!(said.starts_with(&format!("dotc {}: ", switch.id)), "{id}: {said}");
        // Compared with the lines joined: the text is wrapped at 80 columns.
        let said = said.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            said.contains(&format!(
                "a campaign's `rules` block sets it; ruling {} = {}",
                switch.name, switch.values[0]
            )),
            "{said}"
        );
    }
    let out = dotc(&["explain", "surgon"], &root());
    assert!(text(&out.stderr).contains("did you mean `surgeon`?"), "{}", text(&out.stderr));
}

#[test]
fn unknown_ids_exit_2_with_the_nearest_known_id() {
    for (id, near) in [
        ("RULE-05-3.9", "RULE-05-3.4"),
        ("Ch16 5.9", "Ch16 5.7"),
        ("C40", "RULINGS C33"),
        ("dotc::unknown-weapn", "dotc::unknown-weapon"),
        ("supression", "suppression"),
    ] {
        let out = dotc(&["explain", id], &root());
        assert_eq!(out.status.code(), Some(2), "{id}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(&format!("did you mean `{near}`?")), "{id}: {stderr}");
    }
    let out = dotc(&["explain", "nonsense"], &root());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no explanation for `nonsense`"));
}

// ------------------------------------------------------------------ the citation scanner

fn collect(dir: &Path, extension: &str, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, extension, files);
        } else if path.extension().is_some_and(|e| e == extension) {
            files.push(path);
        }
    }
}

/// Every reference cited in a text, in order: `RULE-05-x.y` (with lists such as
/// `RULE-05-4.1/4.2`), `ChN x.y` (with lists and ranges such as `Ch16 2.1, 2.3` and
/// `Ch16 3.1-3.3`) and `RULINGS Xn` (with lists such as `RULINGS C3, G9` and ranges `E1-E3`).
/// Wildcards such as `RULE-05-6.x` are not citations of one rule.
fn citations(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (start, _) in text.char_indices() {
        let rest = &text[start..];
        let after_word = text[..start].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
        if !after_word {
            continue;
        }
        if let Some(after) = rest.strip_prefix("RULE-") {
            rule_citations(after, &mut found);
        } else if let Some(after) = rest.strip_prefix("RULINGS ") {
            ruling_citations(after, &mut found);
        } else if let Some(after) = rest.strip_prefix("Ch") {
            chapter_citations(after, &mut found);
        }
    }
    found
}

/// Separators inside a list of ids, longest first; `-` and the en dash make a range.
const SEPARATORS: &[&str] = &[", and ", ", or ", " and ", " or ", ", ", ",", "/", "-", "\u{2013}"];

/// The separator at the start of `s` and whether it makes a range.
fn separator(s: &str) -> Option<(&str, bool)> {
    SEPARATORS
        .iter()
        .find_map(|sep| s.strip_prefix(sep).map(|rest| (rest, *sep == "-" || *sep == "\u{2013}")))
}

/// Leading digits as a number, and the rest.
fn digits(s: &str) -> Option<(u32, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    if end == 0 {
        return None;
    }
    Some((s[..end].parse().ok()?, &s[end..]))
}

/// `x.y` at the start of `s`, with an optional `a`/`b` suffix when `letters`.
fn section(s: &str, letters: bool) -> Option<((u32, u32, &str), &str)> {
    let (major, rest) = digits(s)?;
    let (minor, rest) = digits(rest.strip_prefix('.')?)?;
    let next_is_word = |r: &str| r.chars().nth(1).is_some_and(|c| c.is_alphanumeric());
    for suffix in ["a", "b"] {
        if letters && rest.starts_with(suffix) && !next_is_word(rest) {
            return Some(((major, minor, suffix), &rest[1..]));
        }
    }
    if rest.chars().next().is_some_and(|c| c.is_alphanumeric()) {
        return None;
    }
    Some(((major, minor, ""), rest))
}

/// A list of sections after a prefix, ranges expanded within one major number.
fn section_list(mut s: &str, letters: bool) -> Vec<(u32, u32, String)> {
    let Some((first, rest)) = section(s, letters) else {
        return Vec::new();
    };
    let mut items = vec![(first.0, first.1, first.2.to_string())];
    s = rest;
    while let Some((after, range)) = separator(s) {
        let Some(((major, minor, suffix), rest)) = section(after, letters) else {
            break;
        };
        if let Some(&(from_major, from_minor, _)) = items.last().filter(|_| range)
            && from_major == major
        {
            items.extend((from_minor + 1..minor).map(|m| (major, m, String::new())));
        }
        items.push((major, minor, suffix.to_string()));
        s = rest;
    }
    items
}

fn rule_citations(s: &str, found: &mut Vec<String>) {
    let Some((file, rest)) = digits(s) else {
        return;
    };
    let Some(rest) = rest.strip_prefix('-') else {
        return;
    };
    for (major, minor, suffix) in section_list(rest, true) {
        found.push(format!("RULE-{file:02}-{major}.{minor}{suffix}"));
    }
}

fn chapter_citations(s: &str, found: &mut Vec<String>) {
    let Some((chapter, rest)) = digits(s) else {
        return;
    };
    let Some(rest) = rest.strip_prefix(' ') else {
        return;
    };
    for (major, minor, _) in section_list(rest, false) {
        found.push(format!("Ch{chapter} {major}.{minor}"));
    }
}

/// `C3` at the start of `s`, and the rest.
fn ruling(s: &str) -> Option<((char, u32), &str)> {
    let letter = s.chars().next().filter(|c| matches!(c, 'C' | 'G' | 'E' | 'D'))?;
    let (n, rest) = digits(&s[1..])?;
    if rest.chars().next().is_some_and(|c| c.is_alphanumeric()) {
        return None;
    }
    Some(((letter, n), rest))
}

fn ruling_citations(mut s: &str, found: &mut Vec<String>) {
    let Some((first, rest)) = ruling(s) else {
        return;
    };
    let mut items = vec![first];
    s = rest;
    while let Some((after, range)) = separator(s) {
        let Some(((letter, n), rest)) = ruling(after) else {
            break;
        };
        if let Some(&(from_letter, from)) = items.last().filter(|_| range)
            && from_letter == letter
        {
            items.extend((from + 1..n).map(|m| (letter, m)));
        }
        items.push((letter, n));
        s = rest;
    }
    found.extend(items.into_iter().map(|(letter, n)| format!("RULINGS {letter}{n}")));
}

/// Issue 21: `dotc explain` knows every rule-data id of the standard library, as the editor's
/// hover does, with the entry's numbers (a weapon's bands, Ch16 5.2); `dotc list KIND` lists
/// every id of a kind, the modules and the ruling switches, and each listed id is explained.
#[test]
fn issue_21_explain_knows_every_rule_data_id_and_list_gives_them() {
    let dir = root();
    let out = dotc(&["explain", "rifled_musket"], &dir);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(shown.starts_with("Rifled Musket (Springfield / Enfield) (weapon `rifled_musket`)"), "{shown}");
    assert!(shown.contains("short 0-6\" 4+"), "{shown}");
    assert!(shown.contains("long 14-20\" 5+"), "{shown}");
    // A module's name that is a marker too: both.
    let shown = text(&dotc(&["explain", "low_ammo"], &dir).stdout);
    assert!(shown.contains("`module low_ammo`") && shown.contains("(marker `low_ammo`)"), "{shown}");

    let data = dotc_lang::stdlib();
    for (kind, word) in [
        (dotc_lang::library::EntryKind::Weapon, "weapons"),
        (dotc_lang::library::EntryKind::Terrain, "terrain"),
        (dotc_lang::library::EntryKind::Trait, "traits"),
        (dotc_lang::library::EntryKind::Formation, "formations"),
        (dotc_lang::library::EntryKind::Health, "health"),
    ] {
        let out = dotc(&["list", word], &dir);
        assert!(out.status.success(), "{word}: {}", text(&out.stderr));
        let listed: Vec<String> = text(&out.stdout)
            .lines()
            .filter_map(|l| l.split_whitespace().next().map(str::to_string))
            .collect();
        assert_eq!(listed, data.ids(kind), "dotc list {word}");
        for id in &listed {
            let out = dotc(&["explain", id], &dir);
            assert!(out.status.success(), "explain {id}: {}", text(&out.stderr));
            assert!(text(&out.stdout).contains(&format!("`{id}`")), "explain {id}");
        }
    }
    let modules = text(&dotc(&["list", "modules"], &dir).stdout);
    assert_eq!(modules.lines().count(), dotc_lang::rulings::Module::ALL.len());
    assert!(modules.lines().any(|l| l.starts_with("open_order ") && l.ends_with("Ch13 22.0")), "{modules}");
    let rulings = text(&dotc(&["list", "rulings"], &dir).stdout);
    assert!(
        rulings
            .lines()
            .any(|l| l.starts_with("melee_timing ") && l.contains("dotc D51: phase_four | at_contact")),
        "{rulings}"
    );
    let out = dotc(&["list", "bogus"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("it lists weapons, terrain"), "{}", text(&out.stderr));
}

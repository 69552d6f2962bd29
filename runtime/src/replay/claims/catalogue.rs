//! The claim words the audit matches and the catalogue the editor reads
//! (`dotc_lang::claims::CLAIM_WORDS`) are the same words: every word the claim checkers match on
//! is in the catalogue, and every word of the catalogue is matched somewhere.

use std::collections::BTreeSet;

use dotc_lang::claims::{CLAIM_WORDS, ClaimWord};
use dotc_lang::verbs::verb_spec;

/// The sources of the claim checkers, tests left out.
const CHECKERS: &[(&str, &str)] = &[
    ("replay/claims.rs", include_str!("../claims.rs")),
    ("replay/fire/demolition.rs", include_str!("../fire/demolition.rs")),
];

/// The string literals of `line`, escapes kept as written.
fn literals(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'"' {
            let start = i + 1;
            let mut j = start;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            out.push((i, line.get(start..j.min(bytes.len())).unwrap_or("")));
            i = j + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// Where `=>` first stands outside a string literal on `line`.
fn arrow(line: &str) -> Option<usize> {
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '=' if !in_string && line[i..].starts_with("=>") => return Some(i),
            _ => {}
        }
    }
    None
}

/// The string literals the checkers match on: those of a match arm's pattern (before its `=>`)
/// and of a `matches!`.
fn matched() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (_, source) in CHECKERS {
        let code = source.split("#[cfg(test)]").next().unwrap_or(source);
        for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
            let from = line.find("matches!(");
            let to = arrow(line);
            for (at, literal) in literals(line) {
                if from.is_some_and(|f| at > f) || to.is_some_and(|t| at < t) {
                    out.insert(literal.to_string());
                }
            }
        }
    }
    out
}

/// How a catalogue spelling reaches the checkers: as written, or (a leader casualty row) as the
/// words after `leader` joined with `_`, as `leader_row_id` reads them.
fn as_matched(word: &ClaimWord, spelling: &str) -> String {
    let leader_row = word.on.contains(&"leader") || word.word.starts_with("leader ");
    match spelling.strip_prefix("leader ") {
        Some(row) if leader_row => row.replace(' ', "_"),
        _ if leader_row => spelling.replace(' ', "_"),
        _ => spelling.to_string(),
    }
}

fn spellings(word: &ClaimWord) -> impl Iterator<Item = &'static str> {
    std::iter::once(word.word).chain(word.also.iter().copied())
}

#[test]
fn every_word_the_audit_matches_is_in_the_catalogue() {
    let matched = matched();
    // The scan reads the checkers: it must find their words.
    for known in ["hits", "stands lost", "attacker wins", "fell_back", "low ammunition", "collapsed", "dead"]
    {
        assert!(matched.contains(known), "the scan missed `{known}`: {matched:?}");
    }
    let catalogued: BTreeSet<String> =
        CLAIM_WORDS.iter().flat_map(|w| spellings(w).map(move |s| as_matched(w, s))).collect();
    let missing: Vec<&String> =
        matched.iter().filter(|m| !catalogued.contains(*m) && verb_spec(m).is_none()).collect();
    assert!(
        missing.is_empty(),
        "the audit matches {missing:?}, which dotc_lang::claims::CLAIM_WORDS lacks: add them, so the \
         editor completes and explains them"
    );
}

#[test]
fn every_word_of_the_catalogue_is_matched_by_the_audit() {
    let matched = matched();
    let unmatched: Vec<String> = CLAIM_WORDS
        .iter()
        .flat_map(|w| spellings(w).map(move |s| as_matched(w, s)))
        .filter(|s| !matched.contains(s))
        .collect();
    assert!(
        unmatched.is_empty(),
        "dotc_lang::claims::CLAIM_WORDS has {unmatched:?}, which no claim checker matches: check them \
         in runtime/src/replay/claims.rs or take them out of the catalogue"
    );
}

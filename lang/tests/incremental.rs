//! The incremental re-analysis of a game log (lang/src/incremental.rs, `reanalyze`) must give
//! exactly what a whole analysis of the new text gives. These tests make thousands of random
//! edits (typing, deleting, pasting braces, quotes, comments and whole turns) to the shipped
//! game logs, in long chains, and compare the two after every edit.
//!
//! The same holds for a long file read in stretches of whole turns
//! (`incremental::parse_in_stretches`, issue 16: only one stretch's tokens are alive at a time):
//! whenever it gives a result, that result must be exactly the whole-file parse's, the same
//! syntax tree, diagnostics and top-level items. The tests at the end cut the shipped files, the
//! stdlib and hundreds of randomly damaged game logs at stretch sizes from a single byte up.

use std::path::{Path, PathBuf};

use dotc_lang::analysis::reanalyze;
use dotc_lang::incremental::{Edit, parse_in_stretches, read_in_stretches};
use dotc_lang::{Analysis, FsLoader, Parsed, analyze, parse, parse_whole};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A small deterministic generator (Knuth's MMIX constants).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Text a player might type or paste, including the troublesome kinds.
const SNIPPETS: &[&str] = &[
    "x",
    " ",
    "\n",
    "}",
    "{",
    "\"",
    ";",
    "/*",
    "*/",
    "// a note\n",
    "```",
    "7",
    "turn",
    "turn 4 union {\n}\n",
    "turn 9 confederate {\n    fire {\n",
    "    fire \"6th Louisiana\" at \"12th New Jersey\" roll [3, 5] => hits 1\n",
    "move \"9th Louisiana\" to (28.5, 14) facing west\n",
    "=> hits 2",
    "@allow(dotc::replay-disagrees, \"umpire\")\n",
    "[6, 6]",
    "é",
    "’",
];

/// A random edit at a character boundary: insert a snippet, delete a stretch, or replace one.
fn random_edit(rng: &mut Lcg, text: &str) -> String {
    let boundary = |mut at: usize| {
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    let at = boundary(rng.below(text.len() + 1));
    let len = match rng.below(3) {
        0 => 0,
        1 => rng.below(4),
        _ => rng.below(120),
    };
    let end = boundary((at + len).min(text.len())).max(at);
    let insert = if rng.below(3) == 0 { "" } else { SNIPPETS[rng.below(SNIPPETS.len())] };
    format!("{}{}{}", &text[..at], insert, &text[end..])
}

/// Everything the analysis says about the document, in comparable form.
fn observed(a: &Analysis) -> (String, Vec<String>, Vec<String>, Vec<String>, String) {
    let mut names = a.document.broken_names.clone();
    let mut words = a.document.broken_words.clone();
    let mut idents = a.document.broken_idents.clone();
    names.sort();
    words.sort();
    idents.sort();
    let document = serde_json::to_string(&a.document).expect("the tree serializes");
    let diagnostics = format!("{:#?}\n{:?}", a.diagnostics, a.items);
    (document, names, words, idents, diagnostics)
}

/// Run chains of random edits on a log; after each, compare the incremental analysis with a
/// whole one. Returns how many edits took the incremental path.
fn chains(log: &str, seed: u64, chains: usize, length: usize) -> usize {
    let path = repo().join(log);
    let original = std::fs::read_to_string(&path).expect("the shipped log");
    let mut rng = Lcg(seed);
    let mut incremental = 0;
    for chain in 0..chains {
        let mut text = original.clone();
        let mut analysis = analyze(&path, &text, &FsLoader);
        for step in 0..length {
            let new = random_edit(&mut rng, &text);
            let edit = Edit::between(&text, &new);
            let whole = analyze(&path, &new, &FsLoader);
            if reanalyze(&mut analysis, &text, &new, edit).is_some() {
                incremental += 1;
                let (got, want) = (observed(&analysis), observed(&whole));
                if got != want {
                    let diff_at = |a: &str, b: &str| a.bytes().zip(b.bytes()).position(|(x, y)| x != y);
                    panic!(
                        "chain {chain}, step {step}: the incremental analysis differs from the whole one\n\
                         edit {edit:?}\ndocument differs at {:?}\ndiagnostics differ at {:?}\n\
                         --- incremental diagnostics\n{}\n--- whole\n{}",
                        diff_at(&got.0, &want.0),
                        diff_at(&got.4, &want.4),
                        got.4,
                        want.4
                    );
                }
                assert_eq!(got, want, "chain {chain}, step {step}");
            } else {
                analysis = whole;
            }
            text = new;
        }
    }
    incremental
}

/// A diagnostic on a later turn can point back at an earlier one ("turn 99 comes where turn 3
/// should", labelled at the turn before it). An edit in the first turn moves that earlier turn,
/// and the label must move with it though its turn is not re-read.
#[test]
fn an_edit_before_a_misnumbered_turn_moves_the_label_on_the_turn_before_it() {
    let path = repo().join("scenarios/tutorial/fence-line-game.dotc");
    let original = std::fs::read_to_string(&path).expect("the shipped log");
    let headers: Vec<usize> = original.match_indices("\nturn ").map(|(i, _)| i + 1).collect();
    assert!(headers.len() >= 3, "the tutorial log has three turns");
    let third = headers[2] + "turn ".len();
    let digits = original[third..].find(' ').expect("a turn number");
    let text = format!("{}99{}", &original[..third], &original[third + digits..]);
    let mut analysis = analyze(&path, &text, &FsLoader);
    assert!(analysis.diagnostics.iter().any(|d| d.message.contains("comes where turn")));
    let inside_first = text[headers[0]..].find('\n').expect("a header line") + headers[0] + 1;
    let new = format!("{}’{}", &text[..inside_first], &text[inside_first..]);
    let edit = Edit::between(&text, &new);
    assert!(reanalyze(&mut analysis, &text, &new, edit).is_some(), "an edit inside a turn is incremental");
    assert_eq!(observed(&analysis), observed(&analyze(&path, &new, &FsLoader)));
}

#[test]
fn random_edits_to_the_tutorial_log_reanalyse_like_a_whole_analysis() {
    let taken = chains("scenarios/tutorial/fence-line-game.dotc", 7, 40, 30);
    // Most edits land inside a turn: the incremental path must be the usual one, or this test
    // would prove nothing.
    assert!(taken > 430, "only {taken} of 1200 edits were re-analysed incrementally");
}

#[test]
fn random_edits_to_the_gettysburg_log_reanalyse_like_a_whole_analysis() {
    let taken = chains("scenarios/gettysburg-day1/gettysburg-day1-game.dotc", 11, 20, 30);
    assert!(taken > 300, "only {taken} of 600 edits were re-analysed incrementally");
}

#[test]
fn edits_map_offsets_both_ways() {
    let edit = Edit::between("turn 1 union {}", "turn 12 union {}");
    assert_eq!(edit, Edit { start: 6, old_end: 6, new_end: 7 });
    assert_eq!(edit.map(3), Some(3));
    assert_eq!(edit.map(10), Some(11));
    assert_eq!(edit.unmap(11), Some(10));
    // Inside a replaced stretch an offset has no counterpart.
    let edit = Edit::between("abcdef", "abXYZf");
    assert_eq!(edit, Edit { start: 2, old_end: 5, new_end: 5 });
    assert_eq!(edit.map(3), None);
    // A shared prefix never splits a character: é and è share their first byte.
    let edit = Edit::between("Laforé", "Laforè");
    assert_eq!(edit.start, 5);
}

/// An edit that replaces `old[start..old_end]` with `new[start..new_end]` turns `old` into `new`.
fn covers(edit: Edit, old: &str, new: &str) -> bool {
    edit.start <= edit.old_end
        && edit.start <= edit.new_end
        && old.get(..edit.start) == new.get(..edit.start)
        && old.get(edit.old_end..) == new.get(edit.new_end..)
}

#[test]
fn issue_16_edits_one_after_another_are_covered_by_their_composition() {
    let mut rng = Lcg(16);
    for _ in 0..300 {
        let mut text = String::from("turn 1 union {\n    fire {\n    }\n}\n// a remark\n");
        let first = text.clone();
        let mut composed: Option<Edit> = None;
        for _ in 0..1 + rng.below(6) {
            let next = random_edit(&mut rng, &text);
            let edit = Edit::between(&text, &next);
            composed = Some(composed.map_or(edit, |c| c.then(edit)));
            text = next;
        }
        let edit = composed.expect("at least one edit");
        assert!(covers(edit, &first, &text), "{edit:?} from {first:?} to {text:?}");
    }
}

#[test]
fn typing_in_a_turn_reparses_only_that_turn() {
    let path = repo().join("scenarios/tutorial/fence-line-game.dotc");
    let text = std::fs::read_to_string(&path).expect("the shipped log");
    let mut analysis = analyze(&path, &text, &FsLoader);
    let at = text.find("pips \"Col. Thomas Carrow\"").expect("a pips line");
    let new = format!("{}// typed\n        {}", &text[..at], &text[at..]);
    let reparsed = reanalyze(&mut analysis, &text, &new, Edit::between(&text, &new)).expect("incremental");
    assert_eq!((reparsed.first_turn, reparsed.old_turns, reparsed.new_turns), (0, 1, 1));
    assert!(reparsed.new_range.len() < new.len() / 2, "{reparsed:?}");
    // An edit in the game header needs the whole analysis (the scenario may have changed).
    let at = text.find("played 2026").expect("the header");
    let new = format!("{}x{}", &text[..at], &text[at..]);
    let mut analysis = analyze(&path, &text, &FsLoader);
    assert!(reanalyze(&mut analysis, &text, &new, Edit::between(&text, &new)).is_none());
}

/// Issue 16: a keystroke moves the turns after it in O(1) each, their headers at once and
/// their phases when they are read (`Turn::phases`); what they then give is what a whole parse
/// of the new text gives, keystroke after keystroke.
#[test]
fn issue_16_a_keystroke_leaves_the_later_turns_phases_to_be_moved_when_read() {
    let path = repo().join("scenarios/gettysburg-day1/gettysburg-day1-game.dotc");
    let mut text = std::fs::read_to_string(&path).expect("the shipped log");
    let mut analysis = analyze(&path, &text, &FsLoader);
    let at = text.find("pips \"Brig. Gen. James J. Archer\"").expect("a pips line");
    for typed in ["//", " a", " remark\n        "] {
        let new = format!("{}{typed}{}", &text[..at], &text[at..]);
        let reparsed =
            reanalyze(&mut analysis, &text, &new, Edit::between(&text, &new)).expect("incremental");
        assert_eq!(reparsed.first_turn, 0);
        text = new;
    }
    let whole = analyze(&path, &text, &FsLoader);
    let turns = &analysis.document.turns;
    assert!(turns.len() > 3);
    // The turn re-read and the one after it (checked again with it) are settled; the rest lag.
    assert!(turns[0].is_settled() && turns[1].is_settled());
    assert!(turns[2..].iter().all(|t| !t.is_settled()), "the later turns' phases were moved at once");
    for (got, want) in turns.iter().zip(&whole.document.turns) {
        assert_eq!(got.span, want.span);
        assert_eq!(got.number.span, want.number.span);
        let spans = |t: &dotc_lang::ast::Turn| -> Vec<_> {
            t.phases().iter().flat_map(|p| p.actions.iter().map(|a| a.span)).collect()
        };
        assert_eq!(spans(got), spans(want));
    }
    // Settling a turn moves its stored phases for good.
    let mut turn = turns[3].clone();
    let read = format!("{:?}", turn.phases());
    turn.settle();
    assert!(turn.is_settled());
    assert_eq!(format!("{:?}", turn.stored_phases().0), read);
}

/// Type `typed` one character at a time at `at`, comparing after every keystroke; every
/// keystroke must take the incremental path.
fn type_slowly(log: &str, at: impl Fn(&str) -> usize, typed: &str) {
    let path = repo().join(log);
    let mut text = std::fs::read_to_string(&path).expect("the shipped log");
    let mut analysis = analyze(&path, &text, &FsLoader);
    let mut cursor = at(&text);
    for c in typed.chars() {
        let new = format!("{}{}{}", &text[..cursor], c, &text[cursor..]);
        let edit = Edit::between(&text, &new);
        assert!(
            reanalyze(&mut analysis, &text, &new, edit).is_some(),
            "typing {c:?} at {cursor} took the whole analysis"
        );
        let whole = analyze(&path, &new, &FsLoader);
        assert_eq!(observed(&analysis), observed(&whole), "after typing {c:?} at {cursor}");
        cursor += c.len_utf8();
        text = new;
    }
}

#[test]
fn typing_a_new_action_inside_a_turn_is_incremental_at_every_keystroke() {
    let line = "        fire \"51st Georgia\" at \"150th Pennsylvania\" roll [6, 3] => hits 1\n";
    type_slowly(
        "scenarios/tutorial/fence-line-game.dotc",
        |text| text.find("        // The 7th Virginia Cavalry holds").expect("a comment in turn 1"),
        line,
    );
}

#[test]
fn typing_a_new_turn_at_the_end_of_the_log_is_incremental_at_every_keystroke() {
    let turn =
        "\nturn 4 union {\n    command {\n        pips \"Col. Asa Hollister\" roll [4] => 2\n    }\n}\n";
    type_slowly("scenarios/tutorial/fence-line-game.dotc", str::len, turn);
}

// ------------------------------------------------------------ reading in stretches

/// Everything a parse gives, written out.
fn observed_parse(p: &Parsed) -> String {
    format!("{:#?}\n{:#?}\n{:#?}", p.document, p.diagnostics, p.items)
}

/// The stretched parse, where it gives one, equals the whole parse. Returns whether it gave one.
fn same_as_whole(source: &str, stretch: usize) -> bool {
    let whole = parse_whole(source);
    match parse_in_stretches(source, stretch) {
        Some(stretched) => {
            let (a, b) = (observed_parse(&stretched), observed_parse(&whole));
            if a != b {
                let at = a.lines().zip(b.lines()).position(|(x, y)| x != y).unwrap_or(0);
                let context =
                    |t: &str| t.lines().skip(at.saturating_sub(12)).take(16).collect::<Vec<_>>().join("\n");
                panic!(
                    "stretch {stretch}: the stretched parse differs at line {at}\n--- stretched:\n{}\n--- whole:\n{}\n--- source:\n{source}",
                    context(&a),
                    context(&b)
                );
            }
            true
        }
        None => false,
    }
}

fn shipped() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for dir in ["scenarios/tutorial", "scenarios/gettysburg-day1", "stdlib"] {
        let mut entries: Vec<_> =
            std::fs::read_dir(repo().join(dir)).unwrap().flatten().map(|e| e.path()).collect();
        entries.sort();
        for path in entries.into_iter().filter(|p| p.extension().is_some_and(|e| e == "dotc")) {
            let text = std::fs::read_to_string(&path).unwrap();
            files.push((path.display().to_string(), text));
        }
    }
    files
}

#[test]
fn shipped_game_logs_read_in_stretches_as_a_whole() {
    let logs: Vec<_> = shipped().into_iter().filter(|(name, _)| name.ends_with("-game.dotc")).collect();
    assert!(logs.len() >= 3, "the shipped game logs moved");
    for (name, text) in &logs {
        let mut stretched = 0;
        for stretch in [1, 2, 50, 300, 1000, 4000] {
            stretched += usize::from(same_as_whole(text, stretch));
        }
        // A clean log with several turns is cut at every size below its length.
        assert!(stretched >= 5, "{name} was read whole at {} of 6 stretch sizes", 6 - stretched);
    }
}

#[test]
fn scenarios_and_libraries_are_read_whole_or_the_same() {
    for (_, text) in shipped() {
        for stretch in [1, 64, 4096] {
            same_as_whole(&text, stretch);
        }
    }
}

/// Every test fixture, the broken ones included (turns with no header, a scenario followed by
/// turns, unreadable text): read in stretches only where that gives the whole parse.
#[test]
fn test_fixtures_are_read_whole_or_the_same() {
    let mut stack = vec![repo().join("tests/fixtures")];
    let mut files = 0;
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(std::fs::read_dir(&path).unwrap().flatten().map(|e| e.path()));
        } else if path.extension().is_some_and(|e| e == "dotc")
            && let Ok(text) = std::fs::read_to_string(&path)
        {
            files += 1;
            for stretch in [1, 64, 1024] {
                same_as_whole(&text, stretch);
            }
        }
    }
    assert!(files > 50, "the fixtures moved: {files} files");
}

#[test]
fn a_short_file_is_read_whole() {
    let text = std::fs::read_to_string(repo().join("scenarios/tutorial/fence-line-game.dotc")).unwrap();
    assert!(parse_in_stretches(&text, text.len()).is_none());
    assert!(parse_in_stretches("", 1).is_none());
    // `parse` gives the whole parse's answer either way.
    assert_eq!(observed_parse(&parse(&text)), observed_parse(&parse_whole(&text)));
}

/// What may break a stretch from the file around it: comments, strings and script fences left
/// open, braces, stray `turn` lines, a header in the middle, unreadable text.
const DAMAGE: &[&str] = &[
    "/*",
    "*/",
    "\"",
    "\"\"\"",
    "```",
    "```rhai\n",
    "{",
    "}",
    "}\n",
    "\nturn ",
    "\nturn 3 union {\n",
    "turn 99 confederate {\n}\n",
    "game \"x\" {\n}\n",
    "library \"l\" {\n}\n",
    "@allow(dotc::replay-disagrees, \"umpire\")\n",
    "// note\n",
    "%%%\n",
    "\r",
    "\r\n",
    "é",
    " ",
];

#[test]
fn damaged_logs_read_in_stretches_as_a_whole() {
    let mut rng = Lcg(0x5eed_2026_1204);
    let logs: Vec<_> = shipped().into_iter().filter(|(name, _)| name.ends_with("-game.dotc")).collect();
    let (mut stretched, mut tried) = (0, 0);
    for round in 0..600 {
        let (_, log) = &logs[round % logs.len()];
        let mut text = log.clone();
        for _ in 0..1 + rng.below(3) {
            let mut at = rng.below(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text.insert_str(at, DAMAGE[rng.below(DAMAGE.len())]);
        }
        let stretch = [1, 40, 400, 2000][rng.below(4)];
        tried += 1;
        stretched += usize::from(same_as_whole(&text, stretch));
    }
    // Damage after the first cut is read with the rest of the file as one stretch; only damage
    // in the head (the header and first turns), or a header or scenario pasted later, makes the
    // whole file be read at once. So most damaged logs are still read in stretches.
    eprintln!("{stretched} of {tried} damaged logs were read in stretches");
    assert!(stretched * 2 > tried, "only {stretched} of {tried} damaged logs were read in stretches");
}

/// A typo mid-log is read within its own stretch, and a brace left open with the stretches up
/// to the one that closes it: the stretches after go on one at a time, so a long broken log is
/// never held whole (issue 16: a broken 1M-line log's `check` peaked at 1.1 GB when the rest of
/// the file after a typo was read as one stretch). Each way, the parse is the whole parse.
#[test]
fn damage_mid_log_is_read_without_the_rest_of_the_file() {
    let (_, log) = shipped()
        .into_iter()
        .find(|(name, _)| name.ends_with("gettysburg-day1-game.dotc"))
        .expect("a shipped log");
    let turns: Vec<usize> = log.match_indices("\nturn ").map(|(i, _)| i + 1).collect();
    assert!(turns.len() >= 6, "a shipped log with six turns");
    let inside = |turn: usize| log[turns[turn]..].find('\n').unwrap() + turns[turn] + 1;
    let typo = format!("{}        fire %%% oops\n{}", &log[..inside(2)], &log[inside(2)..]);
    // A `{` in unreadable text may be closed further on: read with the next stretches, here
    // closed by the `}` written on the line after it.
    let brace = format!("{}        oops {{\n        }}\n{}", &log[..inside(2)], &log[inside(2)..]);
    for (what, text) in [("a typo", &typo), ("a brace", &brace)] {
        let (_, stretches) = read_in_stretches(text, 1).expect("the head reads alone");
        let parts: Vec<_> = stretches.collect();
        assert!(parts.iter().all(Option::is_some), "{what}: every stretch stands alone");
        // One stretch a turn after the head's, less those read together.
        assert!(
            parts.len() + 2 >= turns.len() - 1,
            "{what}: {} stretches for {} turns",
            parts.len(),
            turns.len()
        );
        assert!(same_as_whole(text, 1), "{what}: the stretched parse is the whole parse");
    }
}

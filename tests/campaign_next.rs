//! `dotc campaign next` (Ch14 1.0, issue 18): the post-battle sequence due after the first played
//! battle whose `after` block is missing or begun by hand, its missing dice from a seed, each
//! claim the result the rules give. Run
//! on copies of tests/campaign/road.dotc and staff.dotc in scratch folders (their paths pointed
//! back into the repository), with `after` blocks taken out.

mod common;

use common::{dotc, root, text};

/// `file` (under tests/campaign) copied into a scratch folder with its relative paths made
/// absolute, `edit` applied.
fn scratch(file: &str, edit: impl Fn(String) -> String) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let base = root().join("tests/campaign");
    let source = std::fs::read_to_string(base.join(file)).expect("the campaign");
    let source = source
        .replace("\"../../scenarios", &format!("\"{}/scenarios", root().display()))
        .replace("\"fence-line-won", &format!("\"{}/fence-line-won", base.display()))
        .replace("\"staff-ride", &format!("\"{}/staff-ride", base.display()));
    let path = dir.path().join("campaign.dotc");
    std::fs::write(&path, edit(source)).expect("written");
    (dir, path)
}

/// The `after { ... }` block (8 spaces in) that follows `starts` in `source`, taken out.
fn without_after(source: String, starts: &str) -> String {
    let from = source.find(starts).expect("the block");
    let to = from + source[from..].find("\n        }\n").expect("its end") + "\n        }\n".len();
    format!("{}{}", &source[..from], &source[to..])
}

/// road.dotc with battle 2's `after` block taken out.
fn road_without_battle_2() -> (tempfile::TempDir, std::path::PathBuf) {
    scratch("road.dotc", |s| without_after(s, "        after {\n            field union"))
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = dotc(args, &root());
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

fn audit_clean(path: &str) {
    let (code, _, err) = run(&["audit", path]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("clean: 0 error(s), 0 warning(s)"), "{err}");
}

/// Ch14 1.0: battle 2's sequence written from seed 7 audits clean, and the same seed gives the
/// same file, byte for byte, on two copies.
#[test]
fn next_writes_a_sequence_that_audits_clean_and_the_same_seed_gives_the_same_file() {
    let (_a, first) = road_without_battle_2();
    let (_b, second) = road_without_battle_2();
    for path in [&first, &second] {
        let (code, out, err) = run(&["campaign", "next", path.to_str().unwrap(), "--seed", "7", "--write"]);
        assert_eq!(code, Some(0), "{err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains("the post-battle sequence of battle 2 \"The Fence Line again\""), "{err}");
    }
    let one = std::fs::read(&first).unwrap();
    assert_eq!(one, std::fs::read(&second).unwrap());
    audit_clean(first.to_str().unwrap());
    // Every comment of the file is kept.
    let written = String::from_utf8(one).unwrap();
    let original = std::fs::read_to_string(root().join("tests/campaign/road.dotc")).unwrap();
    for comment in original.lines().filter(|l| l.trim_start().starts_with("//")) {
        if !in_battle_2_after(&original, comment) {
            assert!(written.contains(comment), "lost: {comment}");
        }
    }
    // Written, nothing more is due.
    let (code, out, _) = run(&["campaign", "next", first.to_str().unwrap()]);
    assert_eq!(code, Some(0));
    assert!(out.contains("nothing is due"), "{out}");
}

/// Whether `line` is one of the lines of battle 2's `after` block in road.dotc (taken out).
fn in_battle_2_after(source: &str, line: &str) -> bool {
    let from = source.find("        after {\n            field union").unwrap();
    let to = from + source[from..].find("\n        }\n").unwrap();
    source[from..to].contains(line)
}

/// The block printed for seed 7, reviewed line by line against the rules (Ch14 2.0's table:
/// 5+ returns, 2+ hospital, below it lost; +1 to the holder's dice; the other side's would-be
/// returners captured under `surgeon_prisoners = returners`, dotc D32):
/// - field union: the Union won battle 2 ("otherwise => union minor"), Ch14 1.0, dotc D31;
/// - 12th New Jersey (Union) 6 + 1 = 7: returns; 19th Maine (Union) 5 + 1 = 6: returns;
/// - 9th Louisiana (Confederate, no bonus) 2: 2-4, hospital; 50th Georgia 3: hospital;
/// - experience: the 9th Louisiana's charge broke the 19th Maine again, +1 on its 2 XP from
///   battle 1: 3, Veteran (Ch14 3.0, no dice; it chose its trait after battle 1, so no
///   `choose` line);
/// - promotions (Ch14 4.0, 5+): Hollister 3, Ostrander 4: neither promoted;
/// - no draft: the road's `replacements` ruling is `written` (dotc D40).
#[test]
fn the_printed_block_for_seed_7() {
    let (_dir, path) = road_without_battle_2();
    let (code, out, err) = run(&["campaign", "next", path.to_str().unwrap(), "--seed", "7"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("battle 2 \"The Fence Line again\", dice from seed 7"), "{err}");
    insta::assert_snapshot!("road_next_seed_7", out);
    // Printing writes nothing.
    let (_, again, _) = run(&["campaign", "next", path.to_str().unwrap(), "--seed", "7"]);
    assert_eq!(out, again);
}

/// A campaign whose every played battle has its sequence: nothing is due, exit 0.
#[test]
fn nothing_due_says_so() {
    let (code, out, err) = run(&["campaign", "next", "tests/campaign/road.dotc"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        "tests/campaign/road.dotc: nothing is due: every played battle has its post-battle sequence\n"
    );
}

/// road.dotc with battle 2's block begun by hand: the 12th New Jersey's Surgeon's line and the
/// 9th Louisiana's experience line not written, the 50th Georgia's roll written without its
/// claim, and Ostrander's promotion without its die.
fn road_with_battle_2_begun() -> (tempfile::TempDir, std::path::PathBuf) {
    scratch("road.dotc", |s| {
        s.replacen("            surgeon \"12th New Jersey\" roll [4] => returns 1\n", "", 1)
            .replacen("            experience \"9th Louisiana\" charged => xp 3, veteran\n", "", 1)
            .replacen(
                "surgeon \"50th Georgia\" roll [3] => hospital 1",
                "surgeon \"50th Georgia\" roll [3]",
                1,
            )
            .replacen(
                "promotion \"Col. Jacob Ostrander\" roll [4] => not promoted",
                "promotion \"Col. Jacob Ostrander\"",
                1,
            )
    })
}

/// The one die of the step line of `word` naming `subject` in `text`, and its claim.
fn die_and_claim(text: &str, step: &str) -> (u8, String) {
    let line = text.lines().find(|l| l.trim_start().starts_with(step)).unwrap_or_else(|| panic!("{step}"));
    let die = line.split('[').nth(1).and_then(|r| r.split(']').next()).expect("a die");
    let claim = line.split("=> ").nth(1).expect("a claim");
    (die.parse().expect("one die"), claim.to_string())
}

/// Ch14 1.0: `next` completes a block begun by hand. What is written whole is kept; the 50th
/// Georgia's written 3 gets its claim (Ch14 2.0: the Union holds the field, so a Confederate
/// stand has no +1, and 3 is hospital); the 12th New Jersey's missing roll is rolled (Union,
/// holding the field: +1, so 4+ returns and anything else is hospital, RULINGS G20); the 9th
/// Louisiana's charge gives +1 XP, 2 -> 3, still Veteran (Ch14 3.0); Ostrander's die promotes
/// on 5+ (Ch14 4.0). The file audits clean, keeps every other line, and the same seed gives the
/// same bytes.
#[test]
fn a_block_begun_by_hand_is_completed_keeping_what_is_written() {
    let (_a, first) = road_with_battle_2_begun();
    let (_b, second) = road_with_battle_2_begun();
    let begun = std::fs::read_to_string(&first).unwrap();
    for path in [&first, &second] {
        let (code, out, err) = run(&["campaign", "next", path.to_str().unwrap(), "--seed", "7", "--write"]);
        assert_eq!(code, Some(0), "{err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains("battle 2 \"The Fence Line again\" (4 step(s) written"), "{err}");
    }
    let written = std::fs::read_to_string(&first).unwrap();
    assert_eq!(written, std::fs::read_to_string(&second).unwrap());
    audit_clean(first.to_str().unwrap());
    // Every line begun by hand is still there, but the two completed in place.
    for line in begun.lines().filter(|l| !l.ends_with("roll [3]") && !l.ends_with("Ostrander\"")) {
        assert!(written.contains(line), "lost: {line}");
    }
    assert!(written.contains("            surgeon \"50th Georgia\" roll [3] => hospital 1\n"), "{written}");
    assert!(
        written.contains("            experience \"9th Louisiana\" charged => xp 3, veteran\n"),
        "{written}"
    );
    let (die, claim) = die_and_claim(&written, "surgeon \"12th New Jersey\"");
    assert_eq!(claim, if die >= 4 { "returns 1" } else { "hospital 1" }, "{die}");
    let (die, claim) = die_and_claim(&written, "promotion \"Col. Jacob Ostrander\"");
    assert_eq!(claim, if die >= 5 { "promoted" } else { "not promoted" }, "{die}");
    // In Ch14 1.0's order: the added Surgeon's line comes before the 19th Maine's (whose
    // comment stays with it), the experience line after the Surgeon's lines.
    let at = |needle: &str| written.find(needle).unwrap_or_else(|| panic!("{needle}"));
    assert!(at("surgeon \"12th New Jersey\"") < at("// 1 + 1 = 2: hospital (RULINGS G20)"));
    assert!(at("surgeon \"50th Georgia\"") < at("experience \"9th Louisiana\""));
    assert!(at("experience \"9th Louisiana\"") < at("promotion \"Col. Asa Hollister\""));
    // Complete, nothing more is due.
    let (code, out, _) = run(&["campaign", "next", first.to_str().unwrap()]);
    assert_eq!(code, Some(0));
    assert!(out.contains("nothing is due"), "{out}");
}

/// Without `--write`, the block as it would be completed is printed, and nothing is written.
#[test]
fn a_block_begun_by_hand_is_printed_completed() {
    let (_dir, path) = road_with_battle_2_begun();
    let before = std::fs::read(&path).unwrap();
    let (code, out, err) = run(&["campaign", "next", path.to_str().unwrap(), "--seed", "7"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("battle 2 \"The Fence Line again\", its written block completed, dice from seed 7"),
        "{err}"
    );
    assert!(out.starts_with("        after {\n            field union\n"), "{out}");
    assert!(out.ends_with("            replacements union roll [2] => 1 stand\n        }\n"), "{out}");
    assert!(out.contains("surgeon \"50th Georgia\" roll [3] => hospital 1"), "{out}");
    assert_eq!(before, std::fs::read(&path).unwrap());
}

/// A block begun by hand with a claim the rules do not give is not completed: the players fix
/// what they wrote first (Ch14 2.0), and the file is left as it was.
#[test]
fn a_begun_block_with_a_wrong_claim_is_refused() {
    let (_dir, path) = scratch("road.dotc", |s| {
        s.replacen("            experience \"9th Louisiana\" charged => xp 3, veteran\n", "", 1).replacen(
            "surgeon \"50th Georgia\" roll [3] => hospital 1",
            "surgeon \"50th Georgia\" roll [3] => returns 1",
            1,
        )
    });
    let before = std::fs::read(&path).unwrap();
    let (code, out, err) = run(&["campaign", "next", path.to_str().unwrap(), "--write"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("does not audit clean"), "{err}");
    assert!(err.contains("the dice give hospital 1"), "{err}");
    assert!(err.contains("(Ch14 2.0); nothing written"), "{err}");
    assert_eq!(before, std::fs::read(&path).unwrap());
}

/// A battle whose log cannot be read is a located error of the campaign, not skipped.
#[test]
fn a_log_with_errors_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("broken-game.dotc");
    let good = std::fs::read_to_string(root().join("tests/campaign/fence-line-won-game.dotc")).unwrap();
    let scenario = root().join("tests/campaign/fence-line-won.dotc");
    let good = good.replace("\"fence-line-won.dotc\"", &format!("\"{}\"", scenario.display()));
    std::fs::write(&log, format!("{good}\n}} }} ???\n")).unwrap();
    let (_keep, path) = scratch("road.dotc", |s| {
        let s = without_after(s, "        after {\n            field union");
        s.replace(
            &format!("\"{}/tests/campaign/fence-line-won-game.dotc\"", root().display()),
            &format!("\"{}\"", log.display()),
        )
    });
    let (code, _, err) = run(&["campaign", "next", path.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("campaign.dotc:41:13"), "{err}");
    assert!(err.contains("broken-game.dotc\" is not a game log"), "{err}");
    assert!(err.contains("has errors; run `dotc check"), "{err}");
}

/// Ch14 4.0 and 5.0 under `replacements = every_battle` (dotc D40): staff.dotc's battle 1 has a
/// severely wounded and a killed brigadier; the written block has both officer rolls, a
/// promotion roll and a draft per side, and audits clean for several seeds.
#[test]
fn officer_rolls_and_drafts_are_written_and_audit_clean() {
    for seed in ["0", "1", "2", "3"] {
        let (_dir, path) = scratch("staff.dotc", |s| {
            without_after(
                s.replace("replacements = written", "replacements = every_battle"),
                "        after {",
            )
        });
        let (code, _, err) = run(&["campaign", "next", path.to_str().unwrap(), "--seed", seed, "--write"]);
        assert_eq!(code, Some(0), "{err}");
        let written = std::fs::read_to_string(&path).unwrap();
        for line in [
            "officer \"Col. Yates\" roll [",
            "officer \"Col. Kane\" roll [",
            "promotion \"Brig. Ames\" roll [",
            "replacements union roll [",
            "replacements confederate roll [",
        ] {
            assert!(written.contains(line), "seed {seed}: no {line}\n{written}");
        }
        assert!(!written.contains("officer \"Col. Vale\""), "a light wound rolls nothing (Ch14 4.0)");
        audit_clean(path.to_str().unwrap());
    }
}

/// Ch14 3.0, dotc D37: a unit that reaches Veteran may choose its Army Trait; `next` leaves the
/// choice to the player in a `// choose:` comment.
#[test]
fn a_new_veteran_gets_a_choose_comment() {
    let (_dir, path) = scratch("road.dotc", |s| {
        let s = without_after(s, "        after {\n            field union");
        without_after(s, "        after {\n            field none")
    });
    let (code, out, err) = run(&["campaign", "next", path.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("experience \"9th Louisiana\" charged => xp 2, veteran\n"), "{out}");
    assert!(out.contains("// choose: \"9th Louisiana\" may choose its one Army Trait (dotc D37): add `trait \"9th Louisiana\" <"), "{out}");
}

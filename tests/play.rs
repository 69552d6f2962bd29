//! Issue 20: `dotc play`, the table-side assistant, driven by scripted input through its
//! prompt: the log it writes audits clean, repeats the tutorial's own game, takes up where it
//! stopped, and takes a line back with `undo`.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::{dotc, root, text};

/// A fresh folder of this test's own with the tutorial scenario and a new game of it.
fn new_game(name: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("dotc-play-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    std::fs::copy(root().join("scenarios/tutorial/fence-line.dotc"), dir.join("fence-line.dotc"))
        .expect("copied");
    let made = dotc(&["new", "game", "fence-line.dotc", "--output", "game.dotc"], &dir);
    assert!(made.status.success(), "{}", text(&made.stderr));
    (dir.clone(), dir.join("game.dotc"))
}

/// `dotc play LOG` with `script` typed at its prompt.
fn play(dir: &Path, script: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dotc"))
        .args(["play", "game.dotc"])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dotc runs");
    child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("typed");
    let out = child.wait_with_output().expect("dotc ends");
    assert!(out.status.success(), "{}", text(&out.stderr));
    out
}

fn script(name: &str) -> String {
    std::fs::read_to_string(root().join("tests/play").join(name)).expect("a script")
}

fn audit_is_clean(dir: &Path) {
    let audit = dotc(&["audit", "game.dotc"], dir);
    assert!(audit.status.success(), "{}{}", text(&audit.stdout), text(&audit.stderr));
}

/// Three turns of the tutorial typed at the prompt in two sittings (the second takes up the
/// log where the first stopped): pips, a formation change, a move given as a distance, volleys
/// with their saves and a Discipline save, an assault through a closing volley, a retreat and a
/// natural rally. The log audits clean, and every volley and every step of the assault is the
/// tutorial's own line with the same dice, each volley with the result the rules give written
/// as its claim (Ch16 5.0, 7.1-7.4, RULE-07-3.3).
#[test]
fn issue_20_three_turns_of_the_tutorial_played_at_the_prompt_audit_clean() {
    let (dir, log) = new_game("tutorial");
    let first = text(&play(&dir, &script("turns-1-2.txt")).stdout);
    // The first `next` is refused: the skeleton's pips are still to be rolled (Ch16 2.1).
    assert!(first.contains("the rules still call for this in turn 1"), "{first}");
    // Hart's battery is due at 10:30, turn 3 (scenario reinforcements): not listed before.
    assert!(!first.contains("enter \"Hart"), "{first}");
    let second = text(&play(&dir, &script("turn-3.txt")).stdout);
    // What it writes keeps the file in `dotc fmt`'s layout.
    let tidy = dotc(&["fmt", "--check", "game.dotc"], &dir);
    assert!(tidy.status.success(), "{}", text(&tidy.stdout));
    assert!(second.contains("8  enter \"Hart’s Georgia Battery\" to (47, 20) facing west"), "{second}");
    // Who may move, with the allowance the movement rules give (Ch16 3.1).
    assert!(second.contains("move \"7th Virginia Cavalry\": up to 5.0\""), "{second}");
    audit_is_clean(&dir);
    let written = std::fs::read_to_string(&log).expect("written");
    let shipped = std::fs::read_to_string(root().join("scenarios/tutorial/fence-line-game.dotc"))
        .expect("the tutorial");
    let shipped_lines: Vec<&str> =
        shipped.lines().map(|l| l.split(" =>").next().unwrap_or(l).trim()).collect();
    let fights: Vec<&str> = written
        .lines()
        .map(|l| l.split(" =>").next().unwrap_or(l).trim())
        .filter(|l| !l.ends_with('{'))
        .filter(|l| {
            ["fire ", "closing_volley ", "melee ", "retreat ", "formation ", "move "]
                .iter()
                .any(|v| l.starts_with(v))
        })
        .collect();
    // 5 in turn 1, 4 in turn 2, 7 in turn 3.
    assert_eq!(fights.len(), 16, "{written}");
    for line in fights {
        // The move written from `move u7 forward 1.5` is the tutorial's `to (28.5, 14)`.
        assert!(shipped_lines.contains(&line), "`{line}` is not the tutorial's\n{written}");
    }
    // The assault's steps carry theirs (Ch16 7.2, 7.3), the tutorial's own.
    let steps = "closing_volley roll [6, 2, 3, 1, 2] => hits 1\n            discipline roll [5] => pass\n            \
                 melee roll [4] vs [3] => attacker wins\n";
    assert!(written.contains(steps), "{written}");
    for step in steps.lines() {
        assert!(shipped.contains(&format!("{}\n", step.trim())), "`{step}` is not the tutorial's");
    }
    // The pips and the rally carry theirs too (Ch16 2.1, RULE-07-3.3): the tutorial's.
    assert!(written.contains("pips \"Brig. Gen. Émile Laforêt\" roll [5] => 4\n"), "{written}");
    assert!(written.contains("rally \"50th Georgia\" roll [4] => rallied\n"), "{written}");
    // Each volley carries the claim the rules give (RULE-05-2.2, 3.1-3.3): the tutorial's own.
    assert!(written.contains("saves [5, 2, 3, 6] => hits 4, saved 2, lost 1\n"), "{written}");
    assert!(written.contains("discipline [2] => hits 3, lost 1, micro 1, disordered\n"), "{written}");
    assert!(second.contains("50th Georgia natural rally: needs 4+, rolled 4: passed"), "{second}");
    assert!(second.contains("9th Louisiana charges home into 19th Maine"), "{second}");
    insta::assert_snapshot!("tutorial_played", written);
}

/// The odds shown before the first volley's dice are the rules core's plan of that volley,
/// the same lines `dotc odds --at` prints for the tutorial's own line 50.
#[test]
fn issue_20_the_odds_before_rolling_are_the_rules_cores_plan() {
    let (dir, _) = new_game("odds");
    let shown = text(&play(&dir, &script("turns-1-2.txt")).stdout);
    let at = dotc(&["odds", "--at", "scenarios/tutorial/fence-line-game.dotc:50"], &root());
    assert!(at.status.success(), "{}", text(&at.stderr));
    let priced = text(&at.stdout);
    // Every line of the plan; not the last, where the log's own dice fell.
    let lines: Vec<&str> =
        priced.lines().skip(1).map(str::trim).filter(|l| !l.starts_with("the log's dice")).collect();
    assert!(lines.iter().any(|l| l.starts_with("to hit       3+")), "{priced}");
    for line in lines {
        assert!(shown.contains(line), "`{line}` is not shown before rolling\n{shown}");
    }
}

/// `undo` takes back the line just written, leaving the log byte for byte as it was; an
/// illegal move is refused with the rule's reason and writes nothing (Ch16 3.1). A log taken
/// up again starts at its last phase with an action (here the command phase).
#[test]
fn issue_20_undo_restores_the_log_and_an_illegal_move_writes_nothing() {
    let (dir, log) = new_game("undo");
    play(&dir, "1\n4\n1\n3\n1\n5\n1\n2\nnext\nquit\n");
    let before = std::fs::read_to_string(&log).expect("written");
    let out = text(
        &play(&dir, "next\nmove u7 forward 20\nformation \"9th Louisiana\" assault_column\nundo\nquit\n")
            .stdout,
    );
    assert!(out.contains("! not written: 9th Louisiana: moved 22.0\" (20.0\" ground covered"), "{out}");
    assert!(out.contains("taken back: formation \"9th Louisiana\" assault_column"), "{out}");
    assert_eq!(std::fs::read_to_string(&log).expect("written"), before);
    audit_is_clean(&dir);
}

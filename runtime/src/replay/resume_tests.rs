//! A resumed replay is the replay of the new text: edit after edit, on every shipped game log,
//! its events, findings, summary and narrative are those of a whole replay of the edited log,
//! and so are its checkpoints.

use std::path::{Path, PathBuf};

use dotc_lang::incremental::Edit;

use super::*;

/// The shipped and fixture logs, each with its scenario beside it.
const LOGS: &[&str] = &[
    "scenarios/tutorial/fence-line-game.dotc",
    "scenarios/gettysburg-day1/gettysburg-day1-game.dotc",
    "scenarios/gettysburg-day1/gettysburg-day1-afternoon-game.dotc",
    "tests/fixtures/audit/careless-evening.dotc",
    "tests/fixtures/scripts/hooks-game.dotc",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn analyse(path: &Path, text: &str) -> Analysis {
    dotc_lang::analyze(path, text, &dotc_lang::FsLoader)
}

/// Can the language server replay this text at all (it replays only a log that checks clean)?
fn replayable(analysis: &Analysis) -> bool {
    !analysis.has_errors() && analysis.scenario.is_some()
}

/// Edits of one line of a log: a comment put before it, the line taken out, the line twice, and
/// its first digit one higher (a die, a position, a claim).
fn edits_of_line(text: &str, line_start: usize, line_end: usize) -> Vec<(Edit, String)> {
    let line = &text[line_start..line_end];
    let mut out = Vec::new();
    let mut make = |start: usize, old_end: usize, insert: &str| {
        let mut new = String::with_capacity(text.len() + insert.len());
        new.push_str(&text[..start]);
        new.push_str(insert);
        new.push_str(&text[old_end..]);
        out.push((Edit { start, old_end, new_end: start + insert.len() }, new));
    };
    make(line_start, line_start, "// a remark\n");
    make(line_start, line_end, "");
    make(line_start, line_start, line);
    if let Some(d) = line.find(|c: char| c.is_ascii_digit()) {
        let digit = line.as_bytes()[d] - b'0';
        let next = ((digit % 6) + 1).to_string();
        make(line_start + d, line_start + d + 1, &next);
    }
    out
}

/// Every line's start and end (its newline included).
fn lines(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if c == '\n' {
            out.push((start, i + 1));
            start = i + 1;
        }
    }
    if start < text.len() {
        out.push((start, text.len()));
    }
    out
}

fn same_checkpoints(a: &Resumable, b: &Resumable) -> bool {
    a.checkpoints == b.checkpoints && a.findings == b.findings
}

/// Resume after each edit of every `step`th line and compare with a whole replay of the edited
/// log.
fn check_every_edit(log: &str, every: usize, step: usize) -> usize {
    let path = root().join(log);
    let text = std::fs::read_to_string(&path).expect("the log is shipped");
    let old = analyse(&path, &text);
    assert!(replayable(&old), "{log} replays");
    let mut tried = 0;
    assert_eq!(replay_resumable_every(&old, None, every).0, replay(&old, &ReplayOptions::default()), "{log}");
    for (start, end) in lines(&text).into_iter().step_by(step) {
        for (edit, new_text) in edits_of_line(&text, start, end) {
            let new = analyse(&path, &new_text);
            if !replayable(&new) {
                continue;
            }
            let (mut replayed, resumable) = replay_resumable_every(&old, None, every);
            let mut resumable = resumable.expect("a clean log is resumable");
            // A remark changes nothing: where a checkpoint after it depends on its text, the old
            // replay is taken up there.
            let later_checkpoint = resumable.checkpoints.iter().any(|c| c.after > edit.start);
            let outcome = resume(&new, edit, &mut replayed, &mut resumable, usize::MAX);
            let (whole, fresh) = replay_resumable_every(&new, None, every);
            let fresh = fresh.expect("resumable");
            let at = format!("{log}, every {every}, edit {edit:?}: {:?}", &text[start..end]);
            match outcome {
                Ok(done) => {
                    tried += 1;
                    let remark =
                        edit.old_end == edit.start && new_text[edit.start..edit.new_end].starts_with("//");
                    if remark && later_checkpoint {
                        // Within `every` turns of the checkpoint after the edit.
                        assert!(done.kept_the_rest, "{at}: a remark replayed the log to its end");
                        assert!(done.turns <= 2 * every + 1, "{at}: a remark replayed {} turns", done.turns);
                    }
                    assert!(replayed == whole, "{at}: the resumed replay differs from a whole one");
                    if every == 1 {
                        assert!(same_checkpoints(&resumable, &fresh), "{at}: the checkpoints differ");
                    }
                    // A second edit on top of the first (a remark a third of the way down): the
                    // checkpoints the first resume made and moved still hold.
                    let (s2, _) = lines(&new_text)[lines(&new_text).len() / 3];
                    let remark = "// another remark\n";
                    let text2 = format!("{}{remark}{}", &new_text[..s2], &new_text[s2..]);
                    let edit2 = Edit { start: s2, old_end: s2, new_end: s2 + remark.len() };
                    let third = analyse(&path, &text2);
                    if replayable(&third)
                        && resume(&third, edit2, &mut replayed, &mut resumable, usize::MAX).is_ok()
                    {
                        assert!(
                            replayed == replay(&third, &ReplayOptions::default()),
                            "{at}, then a remark at {s2}: the second resume differs from a whole replay"
                        );
                    }
                }
                Err(why) => {
                    // Only a header edit or a whole-log fact is refused with no budget.
                    assert!(matches!(why, NotResumed::NoCheckpoint | NotResumed::WholeLog), "{at}: {why:?}");
                    assert!(
                        why != NotResumed::NoCheckpoint || edit.start < old.document.turns[0].span.start,
                        "{at}: no checkpoint for an edit in the turns"
                    );
                }
            }
        }
    }
    tried
}

#[test]
fn issue_16_a_resumed_replay_is_the_whole_replay_of_the_edited_log() {
    // Every line of the tutorial's log, a sample of the others' (a test build replays slowly,
    // and each edit replays the whole log three times: the Gettysburg logs are 21 and 18 turns,
    // 670 and 950 lines, so every twelfth and every twentieth line, still dozens of edits).
    for (log, every, step) in [(LOGS[0], 1, 1), (LOGS[0], 3, 1), (LOGS[1], 2, 12), (LOGS[2], 1, 20)]
        .into_iter()
        .chain(LOGS[3..].iter().map(|log| (*log, 2, 2)))
    {
        let tried = check_every_edit(log, every, step);
        assert!(tried > 15, "{log}: only {tried} edits could be resumed");
    }
}

/// The Gettysburg morning's log: its path, text and analysis.
fn morning() -> (PathBuf, String, Analysis) {
    let path = root().join("scenarios/gettysburg-day1/gettysburg-day1-game.dotc");
    let text = std::fs::read_to_string(&path).expect("shipped");
    let old = analyse(&path, &text);
    (path, text, old)
}

#[test]
fn issue_16_a_remark_mid_log_replays_only_the_turns_around_it() {
    let (path, text, old) = morning();
    let turns: Vec<usize> = old.document.turns.iter().map(|t| t.span.start).collect();
    assert!(turns.len() >= 8, "the log has {} turns", turns.len());
    // A remark just inside turn 5 (index 4).
    let at = text[turns[4]..].find('\n').map(|n| turns[4] + n + 1).expect("a line");
    let remark = "        // the colonel curses the smoke\n";
    let new_text = format!("{}{remark}{}", &text[..at], &text[at..]);
    let new = analyse(&path, &new_text);
    let edit = Edit { start: at, old_end: at, new_end: at + remark.len() };
    let (mut replayed, resumable) = replay_resumable_every(&old, None, 2);
    let mut resumable = resumable.expect("resumable");
    let done = resume(&new, edit, &mut replayed, &mut resumable, usize::MAX).expect("resumed");
    // From the checkpoint at turn index 4, to the one at index 6.
    assert_eq!(done.from_turn, 4);
    assert_eq!(done.turns, 2);
    assert!(done.kept_the_rest);
    assert_eq!(replayed, replay(&new, &ReplayOptions::default()));
}

/// The morning's log with a die of the first turn's first roll changed: the text, its analysis,
/// the edit, and the old log's replay with a checkpoint every 2 turns.
struct ChangedDie {
    path: PathBuf,
    text: String,
    new: Analysis,
    edit: Edit,
    replayed: Replay,
    resumable: Resumable,
}

fn changed_first_die() -> ChangedDie {
    let (path, text, old) = morning();
    let first = old.document.turns[0].span.start;
    let d = first + text[first..].find("roll [").expect("a roll") + "roll [".len();
    let digit = text.as_bytes()[d] - b'0';
    let text = format!("{}{}{}", &text[..d], (digit % 6) + 1, &text[d + 1..]);
    let new = analyse(&path, &text);
    let edit = Edit { start: d, old_end: d + 1, new_end: d + 1 };
    let (replayed, resumable) = replay_resumable_every(&old, None, 2);
    ChangedDie { path, text, new, edit, replayed, resumable: resumable.expect("resumable") }
}

#[test]
fn issue_16_over_its_budget_a_resume_leaves_the_replay_as_it_was() {
    // The game differs from the changed die on.
    let ChangedDie { new, edit, mut replayed, mut resumable, .. } = changed_first_die();
    let before = replayed.clone();
    assert_eq!(resume(&new, edit, &mut replayed, &mut resumable, 0), Err(NotResumed::OverBudget));
    assert_eq!(replayed, before);
    // And the replay can still be taken up with a budget.
    resume(&new, edit, &mut replayed, &mut resumable, usize::MAX).expect("resumed");
    assert_eq!(replayed, replay(&new, &ReplayOptions::default()));
}

/// Issue 16: a resume stopped by its caller between turns (the language server stops one an
/// edit must wait for) leaves the replay and its checkpoints as they were, and the replay can be
/// taken up again, with the edits since composed, to the whole replay of the newest text.
#[test]
fn issue_16_a_resume_stopped_between_turns_leaves_the_replay_as_it_was() {
    let ChangedDie { path, text: new_text, new, edit, mut replayed, mut resumable } = changed_first_die();
    let before = replayed.clone();
    // Run whole, the resume replays two turns (the game is the old one again after them):
    // stopped before its second.
    let mut turns = 0;
    let mut stop_at_two = || {
        turns += 1;
        turns < 2
    };
    let stopped = resume_pausing(&new, edit, &mut replayed, &mut resumable, usize::MAX, &mut stop_at_two);
    assert_eq!(stopped, Err(NotResumed::Stopped));
    assert_eq!(turns, 2, "asked before each turn, and not again once stopped");
    assert_eq!(replayed, before);
    // Another edit meanwhile, a remark after the changed die: taken up with both edits composed.
    let at = new_text[edit.start..].find('\n').map(|n| edit.start + n + 1).expect("a line");
    let remark = "        // a remark\n";
    let newer_text = format!("{}{remark}{}", &new_text[..at], &new_text[at..]);
    let newer = analyse(&path, &newer_text);
    let both = edit.then(Edit { start: at, old_end: at, new_end: at + remark.len() });
    resume(&newer, both, &mut replayed, &mut resumable, usize::MAX).expect("resumed");
    assert_eq!(replayed, replay(&newer, &ReplayOptions::default()));
}

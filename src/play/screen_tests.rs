//! Issue 20: the terminal screen driven by keystrokes through ratatui's test backend. The
//! same three turns of the tutorial as the line prompt's test (`tests/play.rs`), typed key by
//! key in two sittings, write the same log, byte for byte: the snapshot reviewed there.

use std::path::{Path, PathBuf};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::Screen;
use crate::play::Assistant;
use crate::play::session::Session;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch folder with the tutorial scenario and a new game of it.
fn new_game(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dotc-screen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    std::fs::copy(root().join("scenarios/tutorial/fence-line.dotc"), dir.join("fence-line.dotc"))
        .expect("copied");
    let log = dir.join("game.dotc");
    crate::new_cmd::new_game(&dir.join("fence-line.dotc"), None, Some(log.clone())).expect("a new game");
    log
}

fn open(log: &Path) -> (Screen, Terminal<TestBackend>) {
    let session = Session::open(log, 1).expect("the log opens");
    let (assistant, opening) = Assistant::new(session);
    (Screen::new(assistant, opening), Terminal::new(TestBackend::new(120, 30)).expect("a test terminal"))
}

fn press(screen: &mut Screen, code: KeyCode) -> bool {
    screen.key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// Type `script` key by key, drawing after each line; stop after `stop_after` lines if given.
fn type_script(
    screen: &mut Screen,
    terminal: &mut Terminal<TestBackend>,
    script: &str,
    stop_after: Option<usize>,
) {
    for (n, line) in script.lines().enumerate() {
        if stop_after.is_some_and(|stop| n >= stop) {
            return;
        }
        for c in line.chars() {
            press(screen, KeyCode::Char(c));
        }
        let going = press(screen, KeyCode::Enter);
        terminal.draw(|frame| screen.draw(frame)).expect("drawn");
        if !going {
            return;
        }
    }
}

fn shown(terminal: &Terminal<TestBackend>) -> String {
    let buffer = terminal.backend().buffer();
    let width = usize::from(buffer.area.width);
    let cells: Vec<&str> = buffer.content.iter().map(|c| c.symbol()).collect();
    cells.chunks(width).map(|row| row.concat().trim_end().to_string()).collect::<Vec<_>>().join("\n")
}

fn script(name: &str) -> String {
    std::fs::read_to_string(root().join("tests/play").join(name)).expect("a script")
}

#[test]
fn issue_20_three_turns_typed_on_the_screen_write_the_reviewed_log() {
    let log = new_game("turns");
    let (mut screen, mut terminal) = open(&log);
    type_script(&mut screen, &mut terminal, &script("turns-1-2.txt"), None);
    // A second sitting takes the log up where the first stopped.
    let (mut screen, mut terminal) = open(&log);
    type_script(&mut screen, &mut terminal, &script("turn-3.txt"), None);
    let written = std::fs::read_to_string(&log).expect("written");
    let reviewed =
        std::fs::read_to_string(root().join("tests/snapshots/play__tutorial_played.snap")).expect("snap");
    let reviewed = reviewed.splitn(3, "---\n").nth(2).expect("a snapshot body");
    // The snapshot's body ends without the file's last line break.
    assert_eq!(written.trim_end(), reviewed.trim_end());
}

/// The screen at the first volley of the game, before its dice: the list of volleys the rules
/// allow, the rules core's odds, and the prompt for the 5 to-hit dice (a reviewed screenshot).
/// Down and Enter take the second action of the list.
#[test]
fn issue_20_the_screen_before_the_first_volley_shows_the_odds_and_asks_for_the_dice() {
    let log = new_game("odds");
    let (mut screen, mut terminal) = open(&log);
    // Up to the fire phase of turn 1 (the script's first 14 lines), then the second volley.
    type_script(&mut screen, &mut terminal, &script("turns-1-2.txt"), Some(14));
    press(&mut screen, KeyCode::Down);
    press(&mut screen, KeyCode::Enter);
    terminal.draw(|frame| screen.draw(frame)).expect("drawn");
    let text = shown(&terminal);
    assert!(text.contains("to_hit: 5 dice"), "{text}");
    assert!(text.contains("50th Georgia at 20th Connecticut"), "{text}");
    insta::assert_snapshot!("screen_before_the_first_volley", text);
    // The screenshot in the README and in docs/cli.md is this screen, never a stale one.
    for doc in ["README.md", "docs/cli.md"] {
        let written = std::fs::read_to_string(root().join(doc)).expect("the doc");
        assert!(written.contains(&text), "{doc} shows an old screen; paste in:\n{text}");
    }
    // Esc gives the line up: nothing is written.
    let before = std::fs::read_to_string(&log).expect("written");
    press(&mut screen, KeyCode::Esc);
    assert_eq!(std::fs::read_to_string(&log).expect("written"), before);
    assert_eq!(screen.assistant.asking(), "> ");
}

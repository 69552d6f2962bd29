//! Issue 16: a long log analysed and replayed at once (`replay::streamed`) gives the analysis
//! and the replay of `analyze` then `replay`, to the byte: on every shipped game log cut into
//! stretches of several sizes, on long generated logs (one rules-legal, one full of findings),
//! on a log with an error, and with a replay that stops early.

use std::path::{Path, PathBuf};

use dotc_lang::Loader;
use dotc_lang::incremental::read_in_stretches;
use dotc_runtime::replay::streamed::analyze_and_replay_in;
use dotc_runtime::replay::{ReplayOptions, Until, replay};

#[allow(dead_code)] // the benchmarks' generator: only its legal log is used here
#[path = "../../tools/legal_log.rs"]
mod legal_log;
#[allow(dead_code)] // its line count is for the benchmarks
#[path = "../../lang/benches/support/log.rs"]
mod log;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Analysed and replayed both ways, the two must agree; true when the log was read in
/// stretches (so the streamed path, not its fallback, was held to the whole one).
fn same(path: &Path, text: &str, loader: &dyn Loader, options: &ReplayOptions<'_>, stretch: usize) -> bool {
    let whole = dotc_lang::analyze(path, text, loader);
    let replayable = !whole.has_errors() && whole.document.game.is_some();
    let expected = replayable.then(|| replay(&whole, options));
    let (analysis, replayed) = analyze_and_replay_in(path, text, loader, options, stretch);
    let at = format!("{} in stretches of {stretch} bytes", path.display());
    assert_eq!(analysis.diagnostics, whole.diagnostics, "{at}: diagnostics");
    let tree = |d: &dotc_lang::Document| serde_json::to_string(d).expect("a tree serializes");
    assert_eq!(tree(&analysis.document), tree(&whole.document), "{at}: syntax tree");
    assert_eq!(analysis.items, whole.items, "{at}: items");
    assert_eq!(replayed, expected, "{at}: replay");
    read_in_stretches(text, stretch).is_some()
}

/// Every game log of the repository (a `.dotc` file with a `game` header), found under `dir`.
fn game_logs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            game_logs(&path, out);
        } else if path.extension().is_some_and(|e| e == "dotc")
            && std::fs::read_to_string(&path).is_ok_and(|t| t.lines().any(|l| l.starts_with("game \"")))
        {
            out.push(path);
        }
    }
}

#[test]
fn every_game_log_of_the_repository_is_analysed_and_replayed_the_same_streamed() {
    let mut logs = Vec::new();
    for dir in ["scenarios", "tests", "examples", "docs"] {
        game_logs(&root().join(dir), &mut logs);
    }
    assert!(logs.len() >= 5, "only {} game logs found", logs.len());
    let mut streamed = 0;
    for path in &logs {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        let options = ReplayOptions { source: Some(&text), ..ReplayOptions::default() };
        for stretch in [64, 512, 4096] {
            streamed += usize::from(same(path, &text, &dotc_lang::FsLoader, &options, stretch));
        }
    }
    // Many are read in stretches (156 of 333 when this was written): not a log shorter than the
    // stretch, nor one whose head does not stand alone (many fixtures are a few lines long).
    assert!(streamed >= logs.len(), "only {streamed} of {} were streamed", logs.len() * 3);
}

/// A log of `lines` lines from a generator, its scenario served from memory.
fn generated(text_and_turns: (String, u32)) -> (String, log::MemoryLoader) {
    let (text, turns) = text_and_turns;
    (text, log::MemoryLoader { scenario: log::scenario_with_turns(turns) })
}

#[test]
fn a_long_legal_log_and_a_log_full_of_findings_are_the_same_streamed() {
    let path = Path::new("scenarios/tutorial/legal-game.dotc");
    for (text, loader) in
        [generated(legal_log::generate_legal_log(3_000)), generated(log::generate_log(3_000))]
    {
        let options = ReplayOptions { source: Some(&text), ..ReplayOptions::default() };
        for stretch in [64, 2048, 16 * 1024] {
            assert!(same(path, &text, &loader, &options, stretch), "not streamed at {stretch}");
        }
        // Stopped part way: the turns after `until` are read but not played.
        let until = Until { turn: 20, phase: None };
        let options = ReplayOptions { until: Some(until), ..options };
        assert!(same(path, &text, &loader, &options, 2048));
        let (_, replayed) = analyze_and_replay_in(path, &text, &loader, &options, 2048);
        assert!(replayed.is_some_and(|r| r.stopped.is_some()), "the replay should stop at turn 20");
    }
}

#[test]
fn a_log_with_an_error_late_is_not_replayed_streamed() {
    let path = Path::new("scenarios/tutorial/legal-game.dotc");
    let (text, loader) = generated(legal_log::generate_legal_log(3_000));
    // An unknown regiment in the last turn: a check error, found after most turns were played.
    let at = text.rfind("fire \"").expect("a volley");
    let broken = format!(
        "{}fire \"No Such Regiment\"{}",
        &text[..at],
        &text[at + "fire \"".len()..].split_once('"').map_or("", |(_, rest)| rest)
    );
    let options = ReplayOptions { source: Some(&broken), ..ReplayOptions::default() };
    assert!(same(path, &broken, &loader, &options, 2048));
    let (analysis, replayed) = analyze_and_replay_in(path, &broken, &loader, &options, 2048);
    assert!(analysis.has_errors());
    assert!(replayed.is_none());
    // A stretch that does not read on its own (a brace left open) sends the log to the whole
    // parse, with the same result.
    let at = text.len() / 2 + text[text.len() / 2..].find("\n    fire {").expect("a fire phase");
    let open = format!("{}\n    fire {{ {{{}", &text[..at], &text[at + "\n    fire {".len()..]);
    let options = ReplayOptions { source: Some(&open), ..ReplayOptions::default() };
    same(path, &open, &loader, &options, 2048);
}

/// `dotc replay --option` replays while it parses too: a scenario's option switched either way
/// gives the whole replay's result, and the two settings differ (the option does something).
#[test]
fn a_log_replayed_with_an_option_switched_is_the_same_streamed() {
    let path = root().join("scenarios/gettysburg-day1/gettysburg-day1-afternoon-game.dotc");
    let text = std::fs::read_to_string(&path).expect("the shipped afternoon log");
    let mut replays = Vec::new();
    for on in [true, false] {
        let switches = [("iverson_stays_back".to_string(), on)];
        let options = ReplayOptions { source: Some(&text), options: &switches, ..ReplayOptions::default() };
        // The log's three turns are cut apart only by short stretches.
        for stretch in [64, 512] {
            assert!(same(&path, &text, &dotc_lang::FsLoader, &options, stretch), "not streamed at {stretch}");
        }
        let (_, replayed) = analyze_and_replay_in(&path, &text, &dotc_lang::FsLoader, &options, 512);
        replays.push(replayed.expect("the log is replayed"));
    }
    assert_ne!(replays[0].events, replays[1].events, "iverson_stays_back changes the game");
}

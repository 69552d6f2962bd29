//! A replay that narrates as it goes ([`ReplayOptions::narrate`], issue 16) tells every shipped
//! and test game log exactly as the whole replay does, findings at their actions included, and
//! keeps no events.

use std::path::{Path, PathBuf};

use super::*;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.dotc` file under `dir`, in a stable order.
fn dotc_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            dotc_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "dotc") {
            out.push(path);
        }
    }
}

#[test]
fn issue_16_a_replay_narrated_as_it_goes_tells_what_the_whole_replay_tells() {
    let mut files = Vec::new();
    for dir in ["scenarios", "tests"] {
        dotc_files(&root().join(dir), &mut files);
    }
    let (mut logs, mut findings_told) = (0, 0);
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let analysis = dotc_lang::analyze(&path, &text, &dotc_lang::FsLoader);
        if analysis.document.game.is_none() || analysis.has_errors() || analysis.scenario.is_none() {
            continue;
        }
        let options = ReplayOptions { source: Some(&text), ..ReplayOptions::default() };
        let whole = replay(&analysis, &options);
        let narrated = replay(&analysis, &ReplayOptions { narrate: true, ..options });
        let name = path.display();
        assert_eq!(narrated.narrative(), whole.narrative(), "{name}");
        assert_eq!(narrated.findings, whole.findings, "{name}");
        assert_eq!(narrated.summary, whole.summary, "{name}");
        assert!(narrated.events.is_empty() && narrated.steps.is_empty(), "{name}");
        // The story (issue 21) too: told as the game is played, it is the story of the whole.
        let story = ReplayOptions { telling: Telling::Story, ..options };
        let whole_story = replay(&analysis, &story);
        let narrated_story = replay(&analysis, &ReplayOptions { narrate: true, ..story });
        assert_eq!(narrated_story.narrative(), whole_story.narrative(), "{name}");
        // The story says every finding the trace says, each at its line.
        let marks = |text: &str| text.lines().filter(|l| l.trim_start().starts_with("! ")).count();
        assert_eq!(marks(&whole_story.narrative()), marks(&whole.narrative()), "{name}");
        // Every event is told: none is held up behind one told late.
        let told = whole
            .narrative()
            .lines()
            .filter(|l| l.starts_with("      ") && !l.starts_with("      ! "))
            .count();
        assert_eq!(told, whole.events.len(), "{name}");
        logs += 1;
        findings_told += whole.narrative().lines().filter(|l| l.trim_start().starts_with("! ")).count();
    }
    // The corpus is the suite's: well over a hundred logs, many with findings told at actions.
    assert!(logs > 100, "{logs} logs");
    assert!(findings_told > 100, "{findings_told} findings told");
}

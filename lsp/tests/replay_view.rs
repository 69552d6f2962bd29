//! The view hovers and inlay hints read of a long log's replay, kept up by the audit taken up
//! at each keystroke (issue 16): after every edit whose audit is taken up again, the view the
//! resume made from the view before (keeping the events it did not replay) lists the same
//! events as a view made afresh of the replay.

use dotc_lsp::ls_types::{Position, Range, TextDocumentContentChangeEvent, Uri};
use dotc_lsp::replay_view::ReplayView;
use dotc_lsp::workspace::Workspace;

#[allow(dead_code)]
#[path = "../../lang/benches/support/log.rs"]
mod log;

fn uri(path: &str) -> Uri {
    format!("file://{path}").parse().expect("a file URI")
}

/// A change at a byte span of a text.
fn change(text: &str, start: usize, end: usize, new: &str) -> TextDocumentContentChangeEvent {
    let position = |offset: usize| {
        let before = &text[..offset];
        let line = before.matches('\n').count() as u32;
        let column = before.rsplit('\n').next().map_or(0, |l| l.encode_utf16().count()) as u32;
        Position { line, character: column }
    };
    TextDocumentContentChangeEvent {
        range: Some(Range { start: position(start), end: position(end) }),
        range_length: None,
        text: new.to_string(),
    }
}

#[test]
fn issue_16_a_view_taken_up_with_the_audit_is_the_view_of_its_replay() {
    let (text, turns) = log::generate_log(3_000);
    let mut ws = Workspace::new();
    ws.deferred_audit_bytes = 0;
    ws.open(uri("/view-test/fence-line.dotc"), 1, log::scenario_with_turns(turns + 1));
    let log_uri = uri("/view-test/bench-game.dotc");
    ws.open(log_uri.clone(), 1, text);
    let job = ws.audit_job(&log_uri, 1).expect("the audit of a long log is due");
    let analyzed = job.run().expect("not cancelled");
    ws.finish_audit(&log_uri, &job, analyzed).expect("taken");

    let mut seed: u64 = 0x1616_2026_1206;
    let mut next = |n: usize| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize % n.max(1)
    };
    let (mut compared, mut taken_up) = (0, 0);
    for version in 2..122 {
        let text = ws.get(&log_uri).expect("open").text.to_string();
        let first_turn = text.find("\nturn ").expect("a turn") + 1;
        let lines: Vec<usize> = text[first_turn..]
            .match_indices('\n')
            .map(|(i, _)| first_turn + i + 1)
            .filter(|&i| i < text.len())
            .collect();
        let edit = match next(3) {
            // A remark on a line of its own, somewhere in the turns.
            0 => {
                let at = lines[next(lines.len())];
                change(&text, at, at, "        // a remark\n")
            }
            // A remark taken out again.
            1 => match text.match_indices("        // a remark\n").next() {
                Some((at, r)) => change(&text, at, at + r.len(), ""),
                None => continue,
            },
            // A die changed: the game may go another way from there.
            _ => {
                let rolls: Vec<usize> =
                    text[first_turn..].match_indices("roll [").map(|(i, _)| first_turn + i + 6).collect();
                let at = rolls[next(rolls.len())];
                let die = (b'1' + next(6) as u8) as char;
                change(&text, at, at + 1, &die.to_string())
            }
        };
        ws.change(&log_uri, version, vec![edit]).expect("a newer version");
        let resumed = ws.resume(&log_uri, version);
        let analyzed = &ws.get(&log_uri).expect("open").analyzed;
        if let (Some(replay), Some(view)) = (&analyzed.replay, &analyzed.view)
            && analyzed.replay_edits.is_empty()
        {
            let fresh = ReplayView::of(replay);
            assert_eq!(view.listing(), fresh.listing(), "after edit {version}");
            assert_eq!(view.units, fresh.units);
            // Each unit's events, as a hover reads them, are those of the whole list about it.
            for unit in &view.units {
                let Some(name) = view.find_name(&unit.name) else { continue };
                let listed: Vec<_> = view.events_of(name).collect();
                let all: Vec<_> = view.events().iter().filter(|e| e.shown.unit() == Some(name)).collect();
                assert_eq!(listed, all, "{} after edit {version}", unit.name);
            }
            compared += 1;
            taken_up += usize::from(!resumed.is_empty());
        }
        // The moment a hover finds (the last event ending by an offset, by a binary search)
        // is the one a walk back over every event finds, edits since the replay or not.
        if let Some(view) = &ws.get(&log_uri).expect("open").analyzed.view {
            let len = ws.get(&log_uri).expect("open").text.len();
            for offset in (0..40).map(|_| next(len + 2)).chain([0, len, usize::MAX]) {
                let walked = view.events().iter().rev().find(|e| e.span().is_some_and(|s| s.end <= offset));
                assert_eq!(view.last_ending_by(offset), walked, "offset {offset} after edit {version}");
            }
        }
        // An audit the resume could not take up is replayed whole, as the server does after a pause.
        if let Some(job) = ws.audit_job(&log_uri, version)
            && let Some(analyzed) = job.run()
        {
            ws.finish_audit(&log_uri, &job, analyzed);
        }
    }
    eprintln!("compared after {compared} edits, {taken_up} of them taken up");
    assert!(taken_up >= 60, "{taken_up} of {compared}");
}

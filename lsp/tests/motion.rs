//! A scenario's time-and-motion warnings in the editor (issue 19): `dotc check` gives them, but
//! the search over the table takes a few hundred milliseconds on a Gettysburg scenario, so the
//! language server never makes them at a keystroke. They come after a pause, from the same job
//! that audits a long log, and until then the last ones move with the text.

use std::path::Path;

use dotc_lsp::ls_types::{Position, Range, TextDocumentContentChangeEvent, Uri};
use dotc_lsp::workspace::Workspace;

fn codes(ws: &Workspace, uri: &Uri) -> Vec<(&'static str, usize)> {
    let doc = ws.get(uri).expect("open");
    doc.analyzed
        .diagnostics()
        .iter()
        .map(|d| (d.code, doc.text[..d.primary.span.start].matches('\n').count()))
        .collect()
}

#[test]
fn issue_19_time_and_motion_warnings_come_after_a_pause_and_move_with_the_text() {
    // Today's morning scenario, kept as a fixture: Seminary Ridge out of the Confederates'
    // reach and the Iron Brigade too late (tests/analyze.rs has the numbers).
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/analyze/gettysburg-morning-2026-12.dotc");
    let text = std::fs::read_to_string(&path).expect("the fixture");
    let uri = Uri::from_file_path(&path).expect("a file URI");
    let mut ws = Workspace::new();
    ws.open(uri.clone(), 1, text.clone());
    let doc = ws.get(&uri).expect("open");
    assert!(doc.analyzed.audit_due, "never searched at a keystroke");
    assert!(codes(&ws, &uri).is_empty(), "{:?}", codes(&ws, &uri));
    let job = ws.audit_job(&uri, 1).expect("due");
    let analyzed = job.run().expect("not cancelled");
    ws.finish_audit(&uri, &job, analyzed).expect("taken");
    let found = codes(&ws, &uri);
    let mut kinds: Vec<&str> = found.iter().map(|(c, _)| *c).collect();
    kinds.sort();
    assert_eq!(kinds, ["dotc::reinforcement-too-late", "dotc::unreachable-victory"], "{found:?}");
    // A line typed at the top: the warnings move down a line at once, and are due again.
    let start = Position { line: 0, character: 0 };
    let change = vec![TextDocumentContentChangeEvent {
        range: Some(Range { start, end: start }),
        range_length: None,
        text: "// a note\n".to_string(),
    }];
    ws.change(&uri, 2, change).expect("a newer version");
    assert!(ws.get(&uri).expect("open").analyzed.audit_due);
    let moved: Vec<usize> = codes(&ws, &uri).iter().map(|(_, line)| *line).collect();
    assert_eq!(moved, found.iter().map(|(_, line)| line + 1).collect::<Vec<_>>());
}

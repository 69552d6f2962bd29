//! Campaign files (Ch14) in the language server (issue 18): diagnostics (the campaign's own
//! findings, played off the editing path), hover, completion, definition and rename, on a copy
//! of the road campaign (tests/campaign/road.dotc) in a temporary folder.

use std::path::{Path, PathBuf};

use dotc_lsp::ls_types::{
    CompletionTextEdit, Position, Range, TextDocumentContentChangeEvent, Uri, WorkspaceEdit,
};
use dotc_lsp::workspace::Workspace;
use dotc_lsp::{campaign, completion, hover, navigate};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The road campaign, its scenarios and logs copied into one folder, the campaign's paths made
/// to point at the copies. Returns the folder.
fn road(dir: &Path) -> PathBuf {
    let copy = |from: &str, to: &str| {
        let text = std::fs::read_to_string(repo().join(from)).expect("a file of the repository");
        std::fs::write(dir.join(to), text).expect("written");
    };
    copy("scenarios/tutorial/fence-line.dotc", "fence-line.dotc");
    copy("scenarios/tutorial/fence-line-game.dotc", "fence-line-game.dotc");
    copy("tests/campaign/fence-line-won.dotc", "fence-line-won.dotc");
    copy("tests/campaign/fence-line-won-game.dotc", "fence-line-won-game.dotc");
    let text = std::fs::read_to_string(repo().join("tests/campaign/road.dotc")).expect("road");
    let text = text.replace("../../scenarios/tutorial/", "");
    std::fs::write(dir.join("road.dotc"), text).expect("written");
    dir.to_path_buf()
}

fn uri(path: &Path) -> Uri {
    Uri::from_file_path(path).expect("a file URI")
}

/// Open a file of the folder, at version 1.
fn open(ws: &mut Workspace, dir: &Path, name: &str) -> Uri {
    let path = dir.join(name);
    let uri = uri(&path);
    ws.open(uri.clone(), 1, std::fs::read_to_string(&path).expect("readable"));
    uri
}

/// Open the campaign and play it as the server does after a pause (its audit job).
fn open_played(ws: &mut Workspace, dir: &Path, name: &str) -> Uri {
    let uri = open(ws, dir, name);
    assert!(ws.get(&uri).expect("open").analyzed.audit_due, "a campaign is never played at a keystroke");
    let job = ws.audit_job(&uri, 1).expect("the campaign's play is due");
    let analyzed = job.run().expect("not cancelled");
    ws.finish_audit(&uri, &job, analyzed).expect("taken");
    uri
}

/// The byte offset of the `nth` occurrence of `needle`, `shift` bytes into it.
fn at(text: &str, needle: &str, nth: usize, shift: usize) -> usize {
    text.match_indices(needle).nth(nth).map(|(i, _)| i).expect("needle in text") + shift
}

fn hover_at(ws: &Workspace, uri: &Uri, needle: &str, nth: usize, shift: usize) -> Option<String> {
    let doc = ws.get(uri).expect("open");
    hover::hover(doc, at(&doc.text, needle, nth, shift)).map(|(text, _)| text)
}

/// What a hover says before the summaries of the sections it cites, and the ids it cites.
fn split_hover(text: &str) -> (String, Vec<String>) {
    let (own, cited) = text.split_once("\n\n`").map_or((text, ""), |(a, b)| (a, b));
    let ids = format!("`{cited}")
        .split("\n\n`")
        .filter_map(|part| part.trim_start_matches('`').split_once('`').map(|(id, _)| id.to_string()))
        .collect();
    (own.to_string(), ids)
}

#[test]
fn ch14_a_campaign_is_played_off_the_editing_path_and_its_findings_are_diagnostics() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dir = road(dir.path());
    // The 9th Louisiana's 1 after battle 1 is lost for good (Ch14 2.0): claim it returned.
    let text = std::fs::read_to_string(dir.join("road.dotc")).expect("road");
    let wrong = text.replace("roll [1] => lost 1", "roll [1] => returns 1");
    assert_ne!(wrong, text);
    std::fs::write(dir.join("wrong.dotc"), &wrong).expect("written");

    let mut ws = Workspace::new();
    // The road as written: clean, played only by its audit job.
    let road = open(&mut ws, &dir, "road.dotc");
    let doc = ws.get(&road).expect("open");
    assert!(doc.analyzed.audit_due && doc.analyzed.campaign.is_none(), "never played at a keystroke");
    assert!(doc.analyzed.diagnostics().is_empty(), "{:?}", doc.analyzed.diagnostics());
    let job = ws.audit_job(&road, 1).expect("due");
    let analyzed = job.run().expect("not cancelled");
    ws.finish_audit(&road, &job, analyzed).expect("taken");
    let doc = ws.get(&road).expect("open");
    assert!(doc.analyzed.campaign.is_some() && !doc.analyzed.audit_due);
    assert!(doc.analyzed.diagnostics().is_empty(), "{:?}", doc.analyzed.diagnostics());

    // The wrong claim: one error on its line, citing Ch14 2.0.
    let wrong_uri = open_played(&mut ws, &dir, "wrong.dotc");
    let doc = ws.get(&wrong_uri).expect("open");
    let found: Vec<(String, u32, Option<String>)> = dotc_lsp::convert::diagnostics(doc, usize::MAX)
        .into_iter()
        .map(|d| (format!("{:?}", d.severity), d.range.start.line, d.code.map(|c| format!("{c:?}"))))
        .collect();
    let line = doc.text[..at(&doc.text, "roll [1] => returns 1", 0, 0)].matches('\n').count() as u32;
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].1, line);
    assert_eq!(found[0].0, "Some(Error)");
    let rule = doc.analyzed.audit[0].rule.clone().unwrap_or_default();
    assert!(rule.contains("Ch14 2.0"), "{rule}");

    // A comment typed above it: the finding moves down a line at once, the play due again.
    let start = Position { line: 0, character: 0 };
    let comment = |text: &str| {
        vec![TextDocumentContentChangeEvent {
            range: Some(Range { start, end: start }),
            range_length: None,
            text: text.to_string(),
        }]
    };
    let job = ws.audit_job(&wrong_uri, 1);
    assert!(job.is_none(), "played already");
    ws.change(&wrong_uri, 2, comment("// a note\n")).expect("a newer version");
    let doc = ws.get(&wrong_uri).expect("open");
    assert!(doc.analyzed.audit_due);
    let lines: Vec<u32> =
        dotc_lsp::convert::diagnostics(doc, usize::MAX).iter().map(|d| d.range.start.line).collect();
    assert_eq!(lines, [line + 1]);

    // An edit while its play runs: stopped, its result refused.
    let job = ws.audit_job(&wrong_uri, 2).expect("due");
    ws.change(&wrong_uri, 3, comment("// b\n")).expect("a newer version");
    assert!(job.cancelled());
    assert!(job.run().is_none());

    // A scenario of the campaign edited: the campaign is analysed again, its play due.
    let scenario = open(&mut ws, &dir, "fence-line-won.dotc");
    let job = ws.audit_job(&wrong_uri, 3).expect("due");
    let analyzed = job.run().expect("not cancelled");
    ws.finish_audit(&wrong_uri, &job, analyzed).expect("taken");
    let published = ws.change(&scenario, 2, comment("// c\n")).expect("a newer version");
    let uris: Vec<&Uri> = published.iter().map(|p| &p.uri).collect();
    assert!(uris.contains(&&wrong_uri) && uris.contains(&&road), "{uris:?}");
    assert!(ws.get(&wrong_uri).expect("open").analyzed.audit_due);
}

//! `dotc roster` as a user runs it: the printable sheet written as PDF and HTML, for a scenario
//! and for a campaign battle's log, and the mistakes it refuses. What the sheet says is tested
//! in the runtime (runtime/src/roster_tests.rs) and its forms in src/roster_cmd/tests.rs.

mod common;

use common::{dotc, root, text};

fn page_count(pdf: &[u8]) -> usize {
    let body = String::from_utf8_lossy(pdf);
    body.matches("/Type /Page").count() - body.matches("/Type /Pages").count()
}

#[test]
fn the_sheet_as_pdf_has_a_page_a_side_and_the_same_bytes_each_time() {
    let dir = tempfile::tempdir().expect("temp dir");
    let scenario = root().join("scenarios/tutorial/fence-line.dotc");
    let write = |name: &str, extra: &[&str]| {
        let args = [&["roster", scenario.to_str().expect("utf-8"), "-o", name][..], extra].concat();
        let out = dotc(&args, dir.path());
        assert!(out.status.success(), "{}", text(&out.stderr));
        // With -o, standard output stays empty; what was written is said on standard error.
        assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
        assert!(text(&out.stderr).contains(&format!("wrote {name}")), "{}", text(&out.stderr));
        std::fs::read(dir.path().join(name)).expect("written")
    };
    let pdf = write("sheet.pdf", &[]);
    assert!(pdf.starts_with(b"%PDF-"));
    // The tutorial's two sides, each on a page of its own.
    assert_eq!(page_count(&pdf), 2);
    assert!(write("again.pdf", &[]) == pdf, "the same sheet gave other bytes");
    let body = String::from_utf8_lossy(&pdf);
    assert!(body.contains("/MediaBox [0 0 792 612]"), "not US Letter, landscape");
    let a4 = write("a4.pdf", &["--paper", "a4"]);
    assert!(String::from_utf8_lossy(&a4).contains("/MediaBox [0 0 841.89 595.28]"), "not A4");
    let one = write("union.pdf", &["--side", "union"]);
    assert_eq!(page_count(&one), 1);
}

#[test]
fn the_sheet_as_html_is_one_page_for_the_browser() {
    let dir = tempfile::tempdir().expect("temp dir");
    let scenario = root().join("scenarios/gettysburg-day1/gettysburg-day1-morning.dotc");
    let out = dotc(&["roster", scenario.to_str().expect("utf-8"), "-o", "sheet.html"], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = std::fs::read_to_string(dir.path().join("sheet.html")).expect("written");
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("<title>Gettysburg, July 1"), "no title");
    assert!(page.contains("Meredith"), "the Iron Brigade's brigadier is missing");
    assert_eq!(page.matches("<section class=\"side\">").count(), 2);
}

#[test]
fn a_campaign_battles_log_gives_the_campaigns_roster() {
    // The campaign's afternoon is fought with what the morning left (Ch14 1.0): the sheet of its
    // log differs from the scenario's own.
    let scenario = dotc(
        &["roster", "scenarios/gettysburg-day1/gettysburg-day1-afternoon.dotc", "--format", "json"],
        &root(),
    );
    let logged = dotc(
        &[
            "roster",
            "scenarios/gettysburg-day1/gettysburg-day1-campaign-afternoon-game.dotc",
            "--format",
            "json",
        ],
        &root(),
    );
    assert!(scenario.status.success() && logged.status.success(), "{}", text(&logged.stderr));
    let read = |bytes: &[u8]| serde_json::from_slice::<serde_json::Value>(bytes).expect("JSON");
    let (plain, fought) = (read(&scenario.stdout), read(&logged.stdout));
    assert_eq!(plain["scenario"], fought["scenario"]);
    assert_ne!(plain["sides"], fought["sides"], "the campaign's roster changed nothing");
    assert!(text(&logged.stderr).contains("campaign"), "{}", text(&logged.stderr));
}

#[test]
fn mistakes_are_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let scenario = root().join("scenarios/tutorial/fence-line.dotc");
    let path = scenario.to_str().expect("utf-8");
    let out = dotc(&["roster", path, "-o", "sheet.txt"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("give -o a file name ending in .html or .pdf"),
        "{}",
        text(&out.stderr)
    );
    let out = dotc(&["roster", path, "--side", "rebels"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("its sides are union, confederate"), "{}", text(&out.stderr));
    let out = dotc(&["roster", "stdlib/combat.dotc"], &root());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("has no order of battle"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 0);
}

//! Broken fixtures: each file under `tests/fixtures/broken/` states the diagnostic codes it
//! must produce (`// expect: dotc::code`, in order of position) and its rendered diagnostics
//! are an insta snapshot.

mod common;

use std::path::Path;

#[test]
fn broken_fixtures_give_their_expected_diagnostics() {
    // A fixture whose codes differ from its `// expect:` lines is collected here rather than
    // stopping the run, so one run reports every such fixture; its snapshot is not taken.
    let mut wrong_codes: Vec<String> = Vec::new();
    // `glob!` panics at its end if a snapshot failed; catch that so the wrong codes are reported
    // too, then go on panicking.
    let snapshots = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        insta::glob!("fixtures/broken/*.dotc", |path| {
            let (source, diagnostics) = common::check_file(relative(path));
            let expected = common::expected_codes(&source);
            assert!(!expected.is_empty(), "{} has no `// expect:` lines", path.display());
            let got: Vec<String> = diagnostics.iter().map(|d| d.code.to_string()).collect();
            let name = Path::new("tests/fixtures/broken").join(path.file_name().unwrap_or_default());
            if got != expected {
                wrong_codes.push(code_mismatch(&name, &expected, &got));
                return;
            }
            let rendered = common::render(&diagnostics, &name.display().to_string(), &source);
            insta::assert_snapshot!(rendered);
        });
    }));
    assert!(
        wrong_codes.is_empty(),
        "{} fixture(s) gave other codes than they expect:\n{}",
        wrong_codes.len(),
        wrong_codes.join("\n")
    );
    if let Err(panic) = snapshots {
        std::panic::resume_unwind(panic);
    }
}

/// One fixture's expected and actual codes, for the failure message.
fn code_mismatch(name: &Path, expected: &[String], got: &[String]) -> String {
    format!("  {}\n    expected: {}\n    got:      {}", name.display(), expected.join(", "), got.join(", "))
}

/// A fixture's path relative to the package root, where cargo runs the tests, so that paths a
/// diagnostic prints (a game log's scenario, say) are the same on every machine.
fn relative(path: &Path) -> &Path {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(path)
}

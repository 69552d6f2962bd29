//! Broken fixtures: each file under `tests/fixtures/broken/` states the diagnostic codes it
//! must produce (`// expect: dotc::code`, in order of position) and its rendered diagnostics
//! are an insta snapshot.

mod common;

use std::path::Path;

#[test]
fn broken_fixtures_give_their_expected_diagnostics() {
    insta::glob!("fixtures/broken/*.dotc", |path| {
        let (source, diagnostics) = common::check_file(path);
        let expected = common::expected_codes(&source);
        assert!(!expected.is_empty(), "{} has no `// expect:` lines", path.display());
        let got: Vec<String> = diagnostics.iter().map(|d| d.code.to_string()).collect();
        assert_eq!(got, expected, "codes of {}", path.display());
        let name = Path::new("tests/fixtures/broken").join(path.file_name().unwrap_or_default());
        let rendered = common::render(&diagnostics, &name.display().to_string(), &source);
        insta::assert_snapshot!(rendered);
    });
}

//! `dotc docs` (issue 21): the documents travel with the binary, each the repository's file byte
//! for byte, a section found by the words of its heading, an unknown topic a clear error.

mod common;

use common::{dotc, root, text};

#[test]
fn issue_21_the_documents_travel_with_the_binary() {
    let dir = root();
    for (topic, file) in [
        ("tour", "README.md"),
        ("language", "docs/language.md"),
        ("cli", "docs/cli.md"),
        ("rulings", "docs/rulings.md"),
        ("modules", "docs/modules.md"),
        ("scripting", "docs/scripting.md"),
    ] {
        let out = dotc(&["docs", topic], &dir);
        assert!(out.status.success(), "{topic}: {}", text(&out.stderr));
        let want = std::fs::read_to_string(dir.join(file)).unwrap();
        assert!(text(&out.stdout) == want, "dotc docs {topic} is not {file}");
    }
    let listed = text(&dotc(&["docs"], &dir).stdout);
    assert!(listed.lines().any(|l| l.starts_with("language ")), "{listed}");

    // The rulings register's D51 section, from its heading's words, to the next section.
    let out = dotc(&["docs", "rulings", "D51"], &dir);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(shown.starts_with("## D51: when a melee written in Phase 2 takes effect\n"), "{shown}");
    assert!(shown.contains("**Default, `phase_four`**") && !shown.contains("## D50"), "{shown}");

    let out = dotc(&["docs", "langage"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("did you mean `language`?"), "{}", text(&out.stderr));
    let out = dotc(&["docs", "cli", "no-such-heading"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("its sections are: Conventions;"), "{}", text(&out.stderr));
}

//! `dotc fmt`: canonical layout, every comment kept, idempotent, meaning unchanged.

use dotc_lang::format::{comments, format};

fn fmt(source: &str) -> String {
    format(source).unwrap_or_else(|d| panic!("syntax errors: {d:?}"))
}

#[test]
fn indents_blocks_and_spaces_tokens() {
    let source = "library \"x\"{\nmarker   m \"M\"{summary \"a\" ;module low_ammo}\n}";
    assert_eq!(fmt(source), "library \"x\" {\n    marker m \"M\" { summary \"a\"; module low_ammo }\n}\n");
}

#[test]
fn positions_and_dice_get_one_space_after_commas() {
    let source = "turn 1 union {\n  fire {\n fire \"A\" at \"B\" roll [3,5 , 2]   => hits 2,lost 1\n move \"A\" to (1,2)\n }\n}\n";
    assert_eq!(
        fmt(source),
        "turn 1 union {\n    fire {\n        fire \"A\" at \"B\" roll [3, 5, 2] => hits 2, lost 1\n        move \"A\" to (1, 2)\n    }\n}\n"
    );
}

#[test]
fn keeps_every_comment_wherever_it_stands() {
    let source = "// head\n/* block\n   over lines */\nlibrary \"x\" { // after brace\n    marker m \"M\" { /* inside */ summary \"a\" } // trailing\n    // before close\n} // at the end";
    let once = fmt(source);
    assert_eq!(comments(source), comments(&once));
    assert_eq!(comments(&once).len(), 7);
    assert_eq!(fmt(&once), once);
}

#[test]
fn collapses_blank_lines_and_normalises_line_ends() {
    let source = "\n\n\nlibrary \"x\" {\r\n\r\n\r\n\r\n    marker m \"M\" { summary \"a\" }\r\n}\r\n\r\n";
    assert_eq!(fmt(source), "library \"x\" {\n\n    marker m \"M\" { summary \"a\" }\n}\n");
}

#[test]
fn scripts_and_text_blocks_are_kept_byte_for_byte() {
    let source = "scenario \"s\" {\n  script ```rhai\n   fn  odd_spacing( x ){ x }\n```\n  notes \"\"\"\n  keep   this\n\"\"\"\n}\n";
    let once = fmt(source);
    assert!(once.contains("```rhai\n   fn  odd_spacing( x ){ x }\n```"));
    assert!(once.contains("\"\"\"\n  keep   this\n\"\"\""));
    assert_eq!(fmt(&once), once);
}

#[test]
fn a_file_with_syntax_errors_is_not_formatted() {
    let errors = format("scenario \"s\" {\n    turns eight\n}\n").expect_err("syntax error");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].code, "dotc::syntax");
}

#[test]
fn continuation_lines_of_point_lists_are_indented_one_level_deeper() {
    let source =
        "scenario \"s\" {\nterrain {\nhill \"H\" level 1 polygon (0, 0) (4, 0)\n(4, 4) (0, 4)\n}\n}\n";
    assert_eq!(
        fmt(source),
        "scenario \"s\" {\n    terrain {\n        hill \"H\" level 1 polygon (0, 0) (4, 0)\n            (4, 4) (0, 4)\n    }\n}\n"
    );
}

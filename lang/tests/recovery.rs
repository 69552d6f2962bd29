//! Parsing never panics and never gives up at the first error: a typo on any line of a real
//! file costs exactly one diagnostic, and the rest of the file is still read and checked.

use std::path::Path;

use dotc_lang::{Loader, analyze, parse};
use proptest::prelude::*;

const SCENARIO: &str = include_str!("../../scenarios/tutorial/fence-line.dotc");
const GAME: &str = include_str!("../../scenarios/tutorial/fence-line-game.dotc");

struct Tutorial;

impl Loader for Tutorial {
    fn load(&self, _path: &Path) -> Result<String, String> {
        Ok(SCENARIO.to_string())
    }
}

/// Lines that hold code (not blank, not only a comment, not only a brace).
fn code_lines(source: &str) -> Vec<usize> {
    let mut in_script = false;
    source
        .lines()
        .enumerate()
        .filter(|(_, line)| {
            let t = line.trim();
            // Script code is rhai, checked by the script stage, and notes are free text; skip
            // the fences and what is between them.
            if t.matches("```").count() % 2 == 1 || t.matches("\"\"\"").count() % 2 == 1 {
                in_script = !in_script;
                return false;
            }
            if in_script || t.contains("```") || t.contains("\"\"\"") {
                return false;
            }
            !(t.is_empty()
                || t.starts_with("//")
                || t.starts_with("/*")
                || t.starts_with('*')
                || t.starts_with('"')
                || t.starts_with('(')
                || t == "}"
                || t == "{")
        })
        .map(|(i, _)| i)
        .collect()
}

fn corrupt(source: &str, line: usize) -> String {
    source
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == line {
                let indent = l.len() - l.trim_start().len();
                format!("{}@@ {}", &l[..indent], &l[indent..])
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn check_one_typo_one_diagnostic(source: &str, path: &str) {
    check_typos(source, path, 20);
}

/// [`check_one_typo_one_diagnostic`] for a file of more than `at_least` code lines (the stdlib's
/// campaign.dotc holds one entry so far, Ch14 2.0).
fn check_typos(source: &str, path: &str, at_least: usize) {
    let lines = code_lines(source);
    assert!(lines.len() > at_least, "{path} has code lines");
    for line in lines {
        let broken = corrupt(source, line);
        let analysis = analyze(Path::new(path), &broken, &Tutorial);
        let codes: Vec<&str> = analysis.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(
            codes,
            ["dotc::syntax"],
            "a typo on line {} of {path} ({:?}) gave {:?}",
            line + 1,
            source.lines().nth(line),
            analysis.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()
        );
        let (l, _) = dotc_lang::diagnostic::line_col(&broken, analysis.diagnostics[0].primary.span.start);
        assert!(l > line, "the diagnostic points at line {l}, before the typo on line {}", line + 1);
    }
}

#[test]
fn a_typo_on_any_line_of_the_tutorial_scenario_costs_one_diagnostic() {
    check_one_typo_one_diagnostic(SCENARIO, "scenarios/tutorial/fence-line.dotc");
}

#[test]
fn a_typo_on_any_line_of_the_tutorial_log_costs_one_diagnostic() {
    check_one_typo_one_diagnostic(GAME, "scenarios/tutorial/fence-line-game.dotc");
}

#[test]
fn deep_nesting_is_a_diagnostic_not_a_stack_overflow() {
    for open in ["{", "[", "("] {
        let source = format!("scenario \"deep\" {}", open.repeat(100_000));
        let parsed = parse(&source);
        assert_eq!(parsed.diagnostics.len(), 1);
        assert_eq!(parsed.diagnostics[0].code, "dotc::nesting-too-deep");
    }
    // Nested steps inside actions recurse in the grammar too.
    let mut log = String::from("turn 1 union { maneuver {\n");
    for _ in 0..200 {
        log.push_str("assault \"A\" -> \"B\" {\n");
    }
    let parsed = parse(&log);
    assert_eq!(parsed.diagnostics[0].code, "dotc::nesting-too-deep");
}

#[test]
fn a_huge_flat_input_parses_without_trouble() {
    let mut source = String::from("library \"big\" {\n");
    for i in 0..20_000 {
        source.push_str(&format!("    marker m{i} \"M{i}\" {{ summary \"x\" }}\n"));
    }
    source.push_str("}\n");
    let parsed = parse(&source);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics.first());
    assert_eq!(parsed.document.libraries[0].entries.len(), 20_000);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(source in "\\PC{0,400}") {
        let analysis = analyze(Path::new("x.dotc"), &source, &Tutorial);
        // Every diagnostic points inside the text.
        for d in &analysis.diagnostics {
            prop_assert!(d.primary.span.end <= source.len());
        }
        let _ = dotc_lang::format::format(&source);
    }

    #[test]
    fn cutting_a_real_file_anywhere_never_panics(cut in 0usize..SCENARIO.len()) {
        let cut = (0..=cut).rev().find(|&c| SCENARIO.is_char_boundary(c)).unwrap_or(0);
        let analysis = analyze(Path::new("x.dotc"), &SCENARIO[..cut], &Tutorial);
        for d in &analysis.diagnostics {
            prop_assert!(d.primary.span.end <= cut);
        }
    }

    #[test]
    fn splicing_junk_into_the_log_never_panics(at in 0usize..GAME.len(), junk in "[{}()\\[\\]\"`=>,;a-z0-9 \n]{0,12}") {
        let at = (0..=at).rev().find(|&c| GAME.is_char_boundary(c)).unwrap_or(0);
        let source = format!("{}{}{}", &GAME[..at], junk, &GAME[at..]);
        let _ = analyze(Path::new("scenarios/tutorial/x.dotc"), &source, &Tutorial);
        // What formats, formats for good and keeps its comments (`;` and braces in the junk make
        // one-line blocks and joined statements, issue 21).
        if let Ok(formatted) = dotc_lang::format::format(&source) {
            prop_assert_eq!(dotc_lang::format::format(&formatted).ok(), Some(formatted.clone()));
            prop_assert_eq!(dotc_lang::format::comments(&source), dotc_lang::format::comments(&formatted));
        }
    }
}

#[test]
fn a_typo_on_any_line_of_a_stdlib_file_costs_one_diagnostic() {
    for (name, source) in dotc_lang::library::STDLIB_FILES {
        check_typos(source, name, if *name == "campaign.dotc" { 5 } else { 20 });
    }
}

#[test]
fn unclosed_braces_are_a_syntax_error_not_a_runaway_parse() {
    // Found by fuzzing: each unclosed `{` in a lost line used to double the parser's work, until
    // the call limit gave up with `dotc::parse-limit` (fuzz/regressions/README.md).
    let mut log = String::from("turn 1 confederate {\n    fire {\n");
    for _ in 0..40 {
        log.push_str("        x {\n");
    }
    let parsed = parse(&log);
    let codes: Vec<&str> = parsed.diagnostics.iter().map(|d| d.code).collect();
    assert!(!codes.is_empty() && codes.iter().all(|c| *c == "dotc::syntax"), "{codes:?}");
}

/// A claim's span ends with its last item: a comment after it on the line is not the claim's, on
/// an action or an assault's step (the parser's span of the rule ran on over it).
#[test]
fn a_claim_ends_before_the_comment_after_it() {
    let src = "game \"G\" {\n    scenario \"s.dotc\"\n}\n\nturn 1 union {\n    maneuver {\n        assault \"A\" -> \"B\" pip \"Brig\" {\n            closing_volley roll [5, 2] => hits 1 // one hit\n            melee roll [6] vs [2] => attacker wins\n        }\n        fire \"A\" at \"B\" roll [3, 4] => hits 1, lost 1   // two\n    }\n}\n";
    let parsed = dotc_lang::parse(src);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let actions = parsed.document.turns[0].phases()[0].actions.clone();
    let claims: Vec<&str> = actions
        .iter()
        .flat_map(|a| std::iter::once(a).chain(a.steps.iter()))
        .filter_map(|a| a.claim.as_ref())
        .map(|c| &src[c.span.start..c.span.end])
        .collect();
    assert_eq!(claims, ["=> hits 1", "=> attacker wins", "=> hits 1, lost 1"]);
}

//! `dotc fmt`: canonical layout (one statement a line, nested blocks indented, issue 21), every
//! comment kept, idempotent, meaning unchanged.

use std::path::{Path, PathBuf};

use dotc_lang::format::{block_braces, comments, format};
use dotc_lang::parser::{Rule, parse_rule};
use proptest::prelude::*;

fn fmt(source: &str) -> String {
    format(source).unwrap_or_else(|d| panic!("syntax errors: {d:?}\n{source}"))
}

/// Format, and hold the result to everything the formatter promises: formatting it again
/// changes nothing, every comment is kept in order, the file means the same, and the braces it
/// took for statement blocks are the grammar's.
fn fmt_checked(source: &str) -> String {
    let once = fmt(source);
    assert_eq!(fmt(&once), once, "formatting twice changes it:\n{source}\n---\n{once}");
    assert_eq!(comments(source), comments(&once), "the comments changed:\n{source}\n---\n{once}");
    // Every line end becomes `\n`, in scripts and text blocks too: that is no change of meaning.
    let source_lf = source.replace("\r\n", "\n");
    assert_eq!(meaning(&source_lf), meaning(&once), "the meaning changed:\n{source:?}\n---\n{once:?}");
    assert_eq!(block_braces(source), grammar_blocks(source), "block braces of:\n{source}");
    assert_eq!(block_braces(&once), grammar_blocks(&once), "block braces of:\n{once}");
    once
}

/// The syntax tree of a source as JSON, every span left out: what the file means.
fn meaning(source: &str) -> serde_json::Value {
    let parsed = dotc_lang::parse(source);
    let mut value = serde_json::to_value(&parsed.document).expect("serialisable");
    strip_spans(&mut value);
    value
}

fn strip_spans(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            let is_span = map.len() == 2 && map.contains_key("start") && map.contains_key("end");
            if is_span {
                *value = serde_json::Value::Null;
            } else {
                map.values_mut().for_each(strip_spans);
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(strip_spans),
        _ => {}
    }
}

/// The grammar's rules whose body is a block of statements (`item ~ end`), each ending at its `}`.
const BLOCK_RULES: &[Rule] = &[
    Rule::scenario,
    Rule::rules_block,
    Rule::terrain_block,
    Rule::side,
    Rule::brigade,
    Rule::reinforcements,
    Rule::victory,
    Rule::library,
    Rule::entry,
    Rule::game,
    Rule::bids_block,
    Rule::turn,
    Rule::phase,
    Rule::steps,
    Rule::campaign,
    Rule::battle,
    Rule::after_block,
];

/// The offsets of the `}` closing every statement block of the parse tree, in order.
fn grammar_blocks(source: &str) -> Vec<usize> {
    let pairs = parse_rule(Rule::file, source).unwrap_or_else(|d| panic!("parses: {d:?}"));
    let mut ends: Vec<usize> = pairs
        .flatten()
        .filter(|p| BLOCK_RULES.contains(&p.as_rule()))
        .map(|p| p.as_span().end() - 1)
        .collect();
    ends.sort_unstable();
    ends
}

#[test]
fn one_statement_a_line_and_nested_blocks_indented() {
    // The issue's example: a brigade written on one line.
    let source =
        "scenario \"s\" { side union { brigade \"X\" { brigadier \"Y\"; regiment \"A\" { stands 4 } } } }\n";
    assert_eq!(
        fmt_checked(source),
        "scenario \"s\" {\n    side union {\n        brigade \"X\" {\n            brigadier \"Y\"\n            \
         regiment \"A\" { stands 4 }\n        }\n    }\n}\n"
    );
}

#[test]
fn indents_blocks_and_spaces_tokens() {
    let source = "library \"x\"{\nmarker   m \"M\"{summary \"a\" ;module low_ammo}\n}";
    assert_eq!(
        fmt_checked(source),
        "library \"x\" {\n    marker m \"M\" {\n        summary \"a\"\n        module low_ammo\n    }\n}\n"
    );
}

#[test]
fn semicolons_become_line_breaks_and_trailing_ones_go() {
    let source = "scenario \"s\" {\n    date 1863-07-09;\n    start 10:00; turn_length 15 min;; turns 8 ;\n\n    \
                  table 48 x 36;}\n";
    assert_eq!(
        fmt_checked(source),
        "scenario \"s\" {\n    date 1863-07-09\n    start 10:00\n    turn_length 15 min\n    turns 8\n\n    \
         table 48 x 36\n}\n"
    );
    // Top-level items joined by `;` are split too.
    assert_eq!(
        fmt_checked("library \"a\" { marker m \"M\" { summary \"x\" } }; library \"b\" { }\n"),
        "library \"a\" {\n    marker m \"M\" {\n        summary \"x\"\n    }\n}\nlibrary \"b\" {\n}\n"
    );
}

#[test]
fn a_game_log_on_a_few_lines_is_laid_out_in_full() {
    let source = "game \"g\" { scenario \"s.dotc\"; seed 3; rules { module low_ammo; ruling melee_timing = at_contact } }\n\
                  turn 1 union { command { rally \"A\" roll [4] }; maneuver { move \"A\" to (1,2); \
                  assault \"A\" -> \"B\" pip \"C\" { fire \"B\" roll [3] => hits 1; melee roll [2, 5] } } }\n";
    assert_eq!(
        fmt_checked(source),
        "game \"g\" {\n    scenario \"s.dotc\"\n    seed 3\n    rules {\n        module low_ammo\n        \
         ruling melee_timing = at_contact\n    }\n}\nturn 1 union {\n    command {\n        \
         rally \"A\" roll [4]\n    }\n    maneuver {\n        move \"A\" to (1, 2)\n        \
         assault \"A\" -> \"B\" pip \"C\" {\n            fire \"B\" roll [3] => hits 1\n            \
         melee roll [2, 5]\n        }\n    }\n}\n"
    );
    // An `@allow(...)` before an assault on its line: the steps are still a block.
    let allowed = "turn 1 union { maneuver { @allow(dotc::replay-disagrees, \"a; {b}\") assault \"A\" -> \"B\" { melee roll [2] } } }\n";
    assert_eq!(
        fmt_checked(allowed),
        "turn 1 union {\n    maneuver {\n        @allow(dotc::replay-disagrees, \"a; {b}\") assault \"A\" -> \"B\" {\n            \
         melee roll [2]\n        }\n    }\n}\n"
    );
}

#[test]
fn a_units_attribute_list_is_no_block_of_statements() {
    // Its attributes may share the line or take one each, as written; its braces stay put.
    let source = "scenario \"s\" {\n    side union {\n        regiment \"A\" { stands 4 at (1, 2) facing east }\n        \
                  battery \"B\" {\n            sections 2\n            at (3, 4)\n        }\n        \
                  brigade \"C\" { cavalry \"D\" { stands 2 mounted } }\n    }\n}\n";
    assert_eq!(
        fmt_checked(source),
        "scenario \"s\" {\n    side union {\n        regiment \"A\" { stands 4 at (1, 2) facing east }\n        \
         battery \"B\" {\n            sections 2\n            at (3, 4)\n        }\n        brigade \"C\" {\n            \
         cavalry \"D\" { stands 2 mounted }\n        }\n    }\n}\n"
    );
}

#[test]
fn an_empty_block_opens_and_closes_on_two_lines() {
    let expected = "turn 2 union {\n    command {\n    }\n}\n";
    for source in
        ["turn 2 union { command { } }", "turn 2 union { command {} }", "turn 2 union {\ncommand {\n}}"]
    {
        assert_eq!(fmt_checked(source), expected, "{source:?}");
    }
}

#[test]
fn semicolons_and_braces_inside_strings_scripts_and_text_are_kept() {
    let source = "scenario \"s; {x}\" { notes \"a; b { c }\"; script ```rhai\nfn f() { let a = 1; a }\n```\n\
                  notes \"\"\"\n  one; two { three }\n\"\"\"; trigger \"T; {}\" when `game.turn == 3 && \"}\" != \";\"`\n\
                  ```rhai\ngame.log(\"x\"); { }\n```\nvictory { when `game.turn > 1; {}` => union major; otherwise => draw } }\n";
    let once = fmt_checked(source);
    assert_eq!(
        once,
        "scenario \"s; {x}\" {\n    notes \"a; b { c }\"\n    script ```rhai\nfn f() { let a = 1; a }\n```\n    \
         notes \"\"\"\n  one; two { three }\n\"\"\"\n    trigger \"T; {}\" when `game.turn == 3 && \"}\" != \";\"`\n    \
         ```rhai\ngame.log(\"x\"); { }\n```\n    victory {\n        when `game.turn > 1; {}` => union major\n        \
         otherwise => draw\n    }\n}\n"
    );
}

#[test]
fn a_trailing_comment_stays_on_the_line_of_the_statement_it_followed() {
    let source = "scenario \"s\" { // the scenario\n    date 1863-07-01; // the day\n    start 10:00 /* morning */; turns 8 // eight\n    \
                  rules { module low_ammo /* ammunition */ } // rules\n}";
    assert_eq!(
        fmt_checked(source),
        "scenario \"s\" { // the scenario\n    date 1863-07-01 // the day\n    start 10:00 /* morning */\n    \
         turns 8 // eight\n    rules {\n        module low_ammo /* ammunition */\n    } // rules\n}\n"
    );
}

#[test]
fn a_block_comment_between_two_statements_starts_the_second_ones_line() {
    let source = "scenario \"s\" { date 1863-07-01; /* then */ start 10:00; /* a\n  long one */ turns 8 }\n";
    assert_eq!(
        fmt_checked(source),
        "scenario \"s\" {\n    date 1863-07-01\n    /* then */ start 10:00\n    /* a\n  long one */ turns 8\n}\n"
    );
    // After a `{` too, and before a `}` it stays at the end of the last statement's line.
    assert_eq!(
        fmt_checked("scenario \"s\" { /* first */ date 1863-07-01 /* last */ }"),
        "scenario \"s\" {\n    /* first */ date 1863-07-01 /* last */\n}\n"
    );
    // A block with only a comment inside.
    assert_eq!(fmt_checked("library \"x\" { /* none yet */ }"), "library \"x\" {\n    /* none yet */\n}\n");
}

#[test]
fn keeps_every_comment_wherever_it_stands() {
    let source = "// head\n/* block\n   over lines */\nlibrary \"x\" { // after brace\n    marker m \"M\" { /* inside */ summary \"a\" } // trailing\n    // before close\n} // at the end";
    let once = fmt_checked(source);
    assert_eq!(comments(&once).len(), 7);
    assert_eq!(
        once,
        "// head\n/* block\n   over lines */\nlibrary \"x\" { // after brace\n    marker m \"M\" {\n        \
         /* inside */ summary \"a\"\n    } // trailing\n    // before close\n} // at the end\n"
    );
}

#[test]
fn collapses_blank_lines_and_normalises_line_ends() {
    let source = "\n\n\nlibrary \"x\" {\r\n\r\n\r\n\r\n    marker m \"M\" { summary \"a\" }\r\n}\r\n\r\n";
    assert_eq!(
        fmt_checked(source),
        "library \"x\" {\n\n    marker m \"M\" {\n        summary \"a\"\n    }\n}\n"
    );
}

#[test]
fn crlf_and_lone_cr_input_with_one_line_blocks() {
    let expected = "scenario \"s\" {\n    date 1863-07-01\n    rules {\n        module low_ammo\n    } // r\n    \
                    turns 8\n}\n";
    for end in ["\r\n", "\r"] {
        let source = format!(
            "scenario \"s\" {{ date 1863-07-01;{end}rules {{ module low_ammo }} // r{end}turns 8 }}{end}"
        );
        assert_eq!(fmt_checked(&source), expected, "{end:?}");
    }
}

#[test]
fn scripts_and_text_blocks_are_kept_byte_for_byte() {
    let source = "scenario \"s\" {\n  script ```rhai\n   fn  odd_spacing( x ){ x }\n```\n  notes \"\"\"\n  keep   this\n\"\"\"\n}\n";
    let once = fmt_checked(source);
    assert!(once.contains("```rhai\n   fn  odd_spacing( x ){ x }\n```"));
    assert!(once.contains("\"\"\"\n  keep   this\n\"\"\""));
}

#[test]
fn a_file_with_syntax_errors_is_not_formatted() {
    let errors = format("scenario \"s\" {\n    turns eight\n}\n").expect_err("syntax error");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].code, "dotc::syntax");
    // A lost line with braces in it is refused too, never split.
    let errors = format("scenario \"s\" { bogus { a; b } }\n").expect_err("syntax error");
    assert_eq!(errors[0].code, "dotc::syntax");
}

#[test]
fn continuation_lines_of_point_lists_are_indented_one_level_deeper() {
    let source =
        "scenario \"s\" {\nterrain {\nhill \"H\" level 1 polygon (0, 0) (4, 0)\n(4, 4) (0, 4)\n}\n}\n";
    assert_eq!(
        fmt_checked(source),
        "scenario \"s\" {\n    terrain {\n        hill \"H\" level 1 polygon (0, 0) (4, 0)\n            (4, 4) (0, 4)\n    }\n}\n"
    );
}

#[test]
fn a_campaign_and_bids_are_laid_out_one_statement_a_line() {
    let source = "campaign \"c\" { rules { ruling x = y }; battle \"one\" { scenario \"a.dotc\"; log \"a-game.dotc\"; \
                  after { field union; surgeon \"A\" roll [5, 3] => returns 1 } } }\n";
    assert_eq!(
        fmt_checked(source),
        "campaign \"c\" {\n    rules {\n        ruling x = y\n    }\n    battle \"one\" {\n        scenario \"a.dotc\"\n        \
         log \"a-game.dotc\"\n        after {\n            field union\n            surgeon \"A\" roll [5, 3] => returns 1\n        \
         }\n    }\n}\n"
    );
    let bids =
        "game \"g\" { scenario \"s.dotc\"; bids { bid union scouting 5 march 3; logistics union \"A\" } }\n";
    assert_eq!(
        fmt_checked(bids),
        "game \"g\" {\n    scenario \"s.dotc\"\n    bids {\n        bid union scouting 5 march 3\n        \
         logistics union \"A\"\n    }\n}\n"
    );
}

/// Every `.dotc` file in the repository that formats (scenarios, the stdlib, the test fixtures,
/// the editor's grammar samples).
fn repository_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut stack: Vec<PathBuf> =
        ["scenarios", "stdlib", "tests", "lsp/editors/vscode/test"].iter().map(|d| root.join(d)).collect();
    let mut files = Vec::new();
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(std::fs::read_dir(&path).into_iter().flatten().flatten().map(|e| e.path()));
        } else if path.extension().is_some_and(|e| e == "dotc") {
            files.push(path);
        }
    }
    files.sort();
    files
}

#[test]
fn the_braces_taken_for_blocks_are_the_grammars_in_every_file_of_the_repository() {
    let mut formatted = 0;
    for path in repository_files() {
        let Ok(source) = std::fs::read_to_string(&path) else { continue };
        let Ok(once) = format(&source) else { continue };
        formatted += 1;
        assert_eq!(block_braces(&source), grammar_blocks(&source), "{}", path.display());
        assert_eq!(block_braces(&once), grammar_blocks(&once), "{} formatted", path.display());
        assert_eq!(format(&once).ok().as_ref(), Some(&once), "{} twice", path.display());
        assert_eq!(comments(&source), comments(&once), "{}", path.display());
        assert_eq!(meaning(&source), meaning(&once), "{}", path.display());
    }
    assert!(formatted > 200, "{formatted} files formatted");
}

/// A random `.dotc` file built from a tape of choices: blocks on one line or many, statements
/// joined by `;` or line breaks, comments between them, `;` and braces inside strings, scripts
/// and text blocks.
struct Writer<'t> {
    tape: &'t [u8],
    at: usize,
    out: String,
}

impl Writer<'_> {
    fn pick(&mut self, n: usize) -> usize {
        let byte = self.tape.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        usize::from(byte) % n
    }

    fn one<'s>(&mut self, choices: &[&'s str]) -> &'s str {
        choices[self.pick(choices.len())]
    }

    fn put(&mut self, choices: &[&str]) {
        let choice = self.one(choices);
        self.out.push_str(choice);
    }

    /// What goes between two statements of a block: at least one `;` or line break.
    fn separator(&mut self) {
        self.put(&[
            ";",
            "; ",
            "\n",
            ";\n",
            " ;\n\n",
            "; /* c; { */ ",
            ";; ",
            "; // c ; }\n",
            " /* d */\n",
            "\n;",
        ]);
    }

    /// What may follow a `{`.
    fn after_open(&mut self) {
        self.put(&[" ", "", "\n", " // open {\n", " /* o */ ", "\n\n"]);
    }

    /// What may come before a `}` (a `;` only after a statement).
    fn before_close(&mut self, empty: bool) {
        let choices = [" ", "", "\n", " /* e } */ ", " // e\n", ";", "; ", ";\n"];
        self.put(&choices[..if empty { 5 } else { choices.len() }]);
    }

    fn block(&mut self, head: &str, body: impl Fn(&mut Self), max: usize) {
        self.out.push_str(head);
        self.out.push_str(" {");
        self.after_open();
        let n = self.pick(max + 1);
        for i in 0..n {
            if i > 0 {
                self.separator();
            }
            body(self);
        }
        self.before_close(n == 0);
        self.out.push('}');
    }

    fn unit(&mut self) {
        self.put(&["regiment \"R; {1}\"", "battery \"B\"", "cavalry \"C\""]);
        self.put(&[
            " { stands 4 at (1, 2) }",
            " {\n stands 4\n at (1,2) facing east\n}",
            " {}",
            " { /* u; } */ stands 3 veteran }",
            " { stands 2 // s\n}",
        ]);
    }

    fn scenario(&mut self) {
        self.block(
            "scenario \"S; {x}\"",
            |w| match w.pick(9) {
                0 => w.out.push_str("date 1863-07-01"),
                1 => w.out.push_str("notes \"a; b { c }\""),
                2 => w.out.push_str("notes \"\"\"\none; { two }\n\"\"\""),
                3 => w.block("rules", |w| w.put(&["module low_ammo", "ruling a = b"]), 3),
                4 => w.block(
                    "terrain",
                    |w| {
                        w.put(&["woods \"W\" polygon (0, 0) (1, 0)\n (1, 1)", "hill \"H\" level 1 at (2, 2)"])
                    },
                    3,
                ),
                5 => w.block(
                    "side union \"U\"",
                    |w| match w.pick(4) {
                        0 => w.out.push_str("edge west"),
                        1 => w.unit(),
                        2 => w.block(
                            "brigade \"B\"",
                            |w| {
                                if w.pick(2) == 0 {
                                    w.out.push_str("brigadier \"X\" reliable")
                                } else {
                                    w.unit()
                                }
                            },
                            3,
                        ),
                        _ => w.out.push_str("commander \"C\" corps at (1, 1)"),
                    },
                    4,
                ),
                6 => w
                    .out
                    .push_str("trigger \"T; {\" when `game.turn == 3; {}`\n```rhai\nlet a = 1; { a }\n```"),
                7 => w.block("victory", |w| w.put(&["otherwise => draw", "when `x; }` => union major"]), 3),
                _ => w.library(),
            },
            6,
        );
    }

    fn library(&mut self) {
        self.block(
            "library \"L\"",
            |w| {
                if w.pick(4) == 0 {
                    w.out.push_str("script ```rhai\nfn f() { 1; }\n```");
                } else {
                    let head = w.one(&["weapon w \"W; {}\"", "marker m", "terrain t \"T\""]);
                    w.block(head, |w| w.put(&["short to 6 hits 3+", "summary \"a; }\"", "cost 1,\n 2"]), 3);
                }
            },
            3,
        );
    }

    fn log(&mut self) {
        self.block(
            "game \"G\"",
            |w| match w.pick(3) {
                0 => w.out.push_str("scenario \"s.dotc\""),
                1 => w.out.push_str("seed 3"),
                _ => w.block("rules", |w| w.out.push_str("module low_ammo"), 2),
            },
            3,
        );
        let turns = 1 + self.pick(3);
        for t in 0..turns {
            self.separator();
            self.block(
                &format!("turn {} union", t + 1),
                |w| {
                    let phase = w.one(&["command", "maneuver", "fire", "melee", "status"]);
                    w.block(
                        phase,
                        |w| match w.pick(4) {
                            0 => w.out.push_str("fire \"A; {\" at \"B\" roll [3, 5] => hits 1"),
                            1 => w.out.push_str("move \"A\" to (1, 2)"),
                            2 => {
                                let head = w.one(&[
                                    "assault \"A\" -> \"B\"",
                                    "@allow(dotc::replay-disagrees, \"r; }\") assault \"A\" -> \"B\"",
                                ]);
                                w.block(head, |w| w.out.push_str("melee roll [2]"), 2);
                            }
                            _ => {
                                w.out.push_str("@allow(dotc::replay-disagrees, \"r\")\nrally \"A\" roll [4]")
                            }
                        },
                        3,
                    );
                },
                3,
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Files with one-line blocks and `;`-joined statements: formatted once for good, with every
    /// comment and the meaning kept, one statement a line.
    #[test]
    fn one_line_blocks_and_joined_statements_format_for_good(
        tape in prop::collection::vec(any::<u8>(), 16..400),
        kind in 0usize..3,
        line_end in prop::sample::select(vec!["\n", "\r\n", "\r"]),
    ) {
        let mut writer = Writer { tape: &tape, at: 0, out: String::new() };
        match kind {
            0 => writer.scenario(),
            1 => writer.library(),
            _ => writer.log(),
        }
        let source = writer.out.replace('\n', line_end);
        let once = fmt_checked(&source);
        // One statement a line: no `;` left, and every block's `}` opens its line.
        let tokens = dotc_lang::format::tokens(&once).expect("tokens");
        prop_assert!(tokens.iter().all(|t| t.text != ";"), "{once}");
        for close in block_braces(&once) {
            let line_start = once[..close].rfind('\n').map_or(0, |i| i + 1);
            prop_assert!(once[line_start..close].trim().is_empty(), "{once}");
        }
    }
}

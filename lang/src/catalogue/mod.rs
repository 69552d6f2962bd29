//! Every diagnostic the language layer emits, with its wording, in one place.
//!
//! Voice: the message says what is wrong in plain words; the primary label points at the exact
//! text; the help line says what to do. Each code is listed in [`CODES`] with a summary that
//! `dotc explain` and the language server show.

pub mod campaign;
pub mod library;

use crate::ast::{FileKind, Span};
use crate::diagnostic::Diagnostic;

/// Every code of the language layer with a one-paragraph explanation.
pub const CODES: &[(&str, &str)] = &[
    (
        "dotc::syntax",
        "The text does not follow the grammar of a .dotc file. The label shows the first token that could not be read and what was expected there; the rest of the file is still checked.",
    ),
    (
        "dotc::file-too-large",
        "The file is larger than dotc will read (64 MiB). Split a long log into several files.",
    ),
    (
        "dotc::nesting-too-deep",
        "Brackets are nested deeper than any real file needs (64 levels); usually a run of unclosed `{`, `(` or `[`.",
    ),
    ("dotc::parse-limit", "The parser gave up after too much work on a pathological input."),
    (
        "dotc::misplaced-statement",
        "A statement that is valid elsewhere appears in a block where it has no meaning, e.g. a `brigade` inside `terrain`.",
    ),
    (
        "dotc::mixed-file",
        "A file is a scenario, a game log or a library: its first item decides, and the others may not follow it.",
    ),
    (
        "dotc::repeated-statement",
        "A setting that takes one value (`turns`, `table`, a unit's `stands`) is given twice; the first one counts.",
    ),
    (
        "dotc::missing-statement",
        "A scenario or game log lacks a statement it needs, such as `table` or `turns`.",
    ),
    ("dotc::unknown-name", "A quoted name (a unit, leader, brigade, objective) is used but never declared."),
    ("dotc::unknown-unit", "A game log names a unit that its scenario does not declare."),
    ("dotc::unknown-side", "A side id is used that no `side` declares."),
    (
        "dotc::unknown-weapon",
        "A regiment, cavalry regiment or battery names a weapon or piece that is neither in the stdlib (Ch16 5.2, 5.3, 10.3) nor in the file's own library.",
    ),
    ("dotc::unknown-quality", "A quality that is not green, regular, veteran, elite or a library entry."),
    (
        "dotc::unknown-formation",
        "A formation that is not line, assault_column, road_column, skirmish, open_order or a library entry (Ch16 3.2).",
    ),
    ("dotc::unknown-trait", "A trait that is not in Ch16 9.0 or the file's library."),
    (
        "dotc::module-off",
        "A unit is given a trait that belongs to an optional module (Ch13) the scenario does not switch on: the six historical traits are the Army Traits module (Ch13 5.0, dotc D8), the Elite Sharpshooter regiment its own (Ch13 9.0). The trait does nothing in a game until the module is on: add `module NAME` to the scenario's `rules` block (or to each game log's), or remove the trait. A trait a quality gives (Seen the Elephant for green troops, RULINGS C28) always counts.",
    ),
    (
        "dotc::blinds",
        "A scenario's blinds (Ch13 4.0, module hidden_deployment, dotc D27) do not match its army: blinds need the module switched on; with it on, each side deploys exactly two dummy blinds and one blind for every brigade that starts on the table, naming a brigade of its own side, whose units and brigadier are given no position (they come on when the blind is revealed).",
    ),
    ("dotc::unknown-rating", "A brigadier rating that is not aggressive, reliable or timid (Ch16 2.1)."),
    (
        "dotc::unknown-terrain",
        "A terrain feature whose kind is not a terrain kind, obstacle or structure of the stdlib (Ch16 4.1-4.3), nor hill, objective or a library entry.",
    ),
    (
        "dotc::unknown-marker",
        "A marker that is not disorder, gunsmoke, low_ammo, clean_barrels or micro_hit.",
    ),
    (
        "dotc::unknown-word",
        "A bare word in a unit, feature or reinforcement that is not a quality, weapon, formation or flag the context knows.",
    ),
    ("dotc::unknown-module", "A `module` that is not one of the optional modules of Chapter 13."),
    (
        "dotc::unknown-ruling",
        "A `ruling` name or value that the rulings register (RULINGS.md) does not define.",
    ),
    (
        "dotc::unknown-option",
        "An `option` in a `rules` block (or `dotc replay --option`) that names no optional trigger of the scenario, a switch value other than `on` or `off`, or two optional triggers sharing one option name.",
    ),
    ("dotc::unknown-action", "A game log action verb that dotc does not know."),
    ("dotc::unknown-facing", "A facing word that is not a compass point."),
    ("dotc::duplicate-name", "Two declarations share a name, so references to it would be ambiguous."),
    ("dotc::impossible-die", "A die face outside 1-6: every roll in dotc is a d6."),
    (
        "dotc::impossible-value",
        "A value the rules cannot mean: 0 stands, half a turn, a facing of 400 degrees, a negative distance, the 31st of February. For a number, the message names its allowed range.",
    ),
    (
        "dotc::number-range",
        "A number larger than its statement allows: a table beyond 2400 inches a side, more than 60 stands, a turn length over 240 minutes, a seed beyond what 64 bits hold, a number too long to read at all. The message names the allowed range; docs/language.md lists every statement's.",
    ),
    (
        "dotc::script-limit",
        "A `script_limits` setting that names no limit of scripts, or gives a value outside 1 to the limit's default: a scenario may lower its scripts' limits, never raise them (docs/scripting.md).",
    ),
    ("dotc::off-table", "A position lies outside the table declared by `table W x D`."),
    ("dotc::stacked-units", "Two units' footprints overlap on the table; stands may not sit on each other."),
    (
        "dotc::no-brigadier",
        "A brigade has no brigadier; every brigade needs one to generate staff pips (Ch16 2.1).",
    ),
    (
        "dotc::missing-attribute",
        "A unit lacks something the rules need: its strength, quality, weapon, position or facing.",
    ),
    (
        "dotc::wrong-kind",
        "A word of the right family but the wrong kind, e.g. an artillery piece given to a regiment.",
    ),
    ("dotc::no-position", "A unit has no position and no reinforcement brings it on."),
    (
        "dotc::late-reinforcement",
        "A reinforcement arrives after the last turn of the scenario, so it can never enter.",
    ),
    (
        "dotc::unreachable-victory",
        "A victory condition the side it favours cannot meet before the last turn: by the rules' movement rates (Ch16 3.1), terrain and roads, no unit of that side can get to the objective, the contact or the points it needs in time, even with no enemy in the way (`dotc analyze` shows the numbers). A warning: move the start or entry points, add turns, or shorten them.",
    ),
    (
        "dotc::reinforcement-too-late",
        "A reinforcement that, entering when its line says, cannot reach base contact with any enemy force before the game ends, even with no enemy in the way and both sides moving toward each other (`dotc analyze` shows the numbers). A warning: bring it on earlier or nearer the fight, or add turns.",
    ),
    ("dotc::scenario-not-found", "A game log's `scenario` path does not lead to a readable scenario file."),
    (
        "dotc::turn-order",
        "Turns in a log must be numbered 1, 2, 3... in order, alternating sides from the scenario's first side.",
    ),
    (
        "dotc::phase-order",
        "Phases in a turn must come in the order of Ch16 1.0: command, maneuver, fire, melee, status; each at most once.",
    ),
    ("dotc::bad-action", "An action lacks an argument its verb needs, or has one it cannot take."),
    ("dotc::not-a-scenario", "A game log's scenario path leads to a file that is not a scenario."),
    (
        "dotc::replay-disagrees",
        "Replaying the log, the rules and its dice give a different result from the one the log claims (hits, saves, stands lost, a test passed, a melee won), or the action breaks a rule. The message says what the rules give beside what the log claims, and cites the rule.",
    ),
    (
        "dotc::replay-doubtful",
        "Replaying the log found something that is probably a mistake but changes no result: a second pip banked, dice left over after an action, a line of sight the map does not show.",
    ),
    (
        "dotc::replay-not-replayed",
        "An action whose verb the replay does not resolve yet; it is skipped and the state goes on without it.",
    ),
    (
        "dotc::replay-follows-log",
        "Where the log states a result the rules do not give (stands lost, a micro-hit, a Disorder, a rally, pips), the replay reports the disagreement once and then goes on from the log's result, the table as the players left it, so later lines are judged against the game actually played and one mistake is not reported again at every line after it.",
    ),
    (
        "dotc::campaign-roster",
        "A note on a battle of a campaign (Ch14 1.0): the battle is fought with the roster as it began, not with the scenario's order of battle, and the note lists what the roster changes: a unit's stands (those in hospital, lost or captured are absent, replacements present), its grade (diluted after a draft), the traits the campaign gave it, a brigadier's campaign rating or who commands his brigade while he is out. It is advice: it never fails `dotc check`.",
    ),
    (
        "dotc::script-error",
        "A scenario script (a `script` block, a trigger's condition or body, or a victory `when` expression) does not compile, or stopped with an error while a game was replayed: a syntax error, a disabled feature (`import`, `eval`), an unknown name or call, or a sandbox limit (too much work, too long, a string, array or map too large). The label points at the place in the scenario file; the message names the hook or trigger.",
    ),
];

// ------------------------------------------------------------------ replay and audit

/// The codes of a replay's findings, by what the finding is (see `dotc_runtime::audit`).
pub const REPLAY_DISAGREES: &str = "dotc::replay-disagrees";
pub const REPLAY_DOUBTFUL: &str = "dotc::replay-doubtful";
pub const REPLAY_NOT_REPLAYED: &str = "dotc::replay-not-replayed";
pub const REPLAY_FOLLOWS_LOG: &str = "dotc::replay-follows-log";
/// A campaign's battle fought with the roster (Ch14 1.0): what it changes in the scenario.
pub const CAMPAIGN_ROSTER: &str = "dotc::campaign-roster";

/// An `@allow(CODE, "reason")` that suppresses no finding of its line or assault step.
pub fn unmatched_suppression(span: Span, code: &str) -> Diagnostic {
    Diagnostic::warning(
        REPLAY_DOUBTFUL,
        format!("this suppression of {code} matches nothing on its line"),
        span,
        "suppresses nothing",
    )
}

/// The explanation of a code, for `dotc explain`.
pub fn explain(code: &str) -> Option<&'static str> {
    let code = if code.starts_with("dotc::") { code.to_string() } else { format!("dotc::{code}") };
    CODES
        .iter()
        .chain(library::CODES.iter())
        .chain(campaign::CODES.iter())
        .find(|(c, _)| *c == code)
        .map(|(_, text)| *text)
}

// ------------------------------------------------------------------ syntax

pub fn syntax_error(span: Span, expected: &[String], found: &str, suggestion: Option<&str>) -> Diagnostic {
    let expected_text = match expected {
        [] => String::from("something else"),
        [one] => one.clone(),
        [init @ .., last] if init.len() < 6 => format!("{} or {}", init.join(", "), last),
        many => format!("{}, or one of {} more", many[..5].join(", "), many.len() - 5),
    };
    let (message, label) = if found.is_empty() {
        (format!("expected {expected_text}, found the end of the file"), String::from("the file ends here"))
    } else if found == "\n" || found == "\r" {
        (format!("expected {expected_text}, found the end of the line"), String::from("the line ends here"))
    } else {
        (format!("expected {expected_text}, found `{found}`"), String::from("not expected here"))
    };
    let d = Diagnostic::error("dotc::syntax", message, span, label);
    if found == "\n" && expected.iter().any(|e| e == "`{`") {
        return d.with_help("a block's `{` goes at the end of its first line, after the name");
    }
    match suggestion {
        Some(word) => d.with_help(format!("did you mean `{word}`?")).with_fix(span, word.to_string()),
        None => {
            d.with_help("the language reference (docs/language.md) shows every statement with an example")
        }
    }
}

pub fn file_too_large(len: usize, max: usize) -> Diagnostic {
    Diagnostic::error(
        "dotc::file-too-large",
        format!("the file is {len} bytes, more than the {max} dotc reads"),
        Span::new(0, 0),
        "file starts here",
    )
    .with_help("split the log into several files")
}

pub fn nesting_too_deep(span: Span, max: usize) -> Diagnostic {
    Diagnostic::error(
        "dotc::nesting-too-deep",
        format!("brackets are nested more than {max} deep"),
        span,
        "this bracket is one too many",
    )
    .with_help("look for unclosed `{`, `(` or `[` before this point")
}

pub fn parse_limit(span: Span, detail: &str) -> Diagnostic {
    Diagnostic::error("dotc::parse-limit", "the parser gave up on this input", span, detail.to_string())
        .with_help("this input is pathological; simplify the text near this point")
}

pub fn misplaced_statement(span: Span, word: &str, home: Option<&str>) -> Diagnostic {
    let d = Diagnostic::error(
        "dotc::misplaced-statement",
        format!("`{word}` cannot appear here"),
        span,
        "not a statement of this block",
    );
    match home {
        Some(home) => d.with_help(format!("`{word}` belongs in {home}")),
        None => {
            d.with_help("move it to the block it belongs in (docs/language.md lists each block's statements)")
        }
    }
}

/// Something opened and never closed.
pub fn unclosed(span: Span, what: crate::parser::Unclosed) -> Diagnostic {
    use crate::parser::Unclosed;
    let (message, help) = match what {
        Unclosed::Brace => ("this `{` is never closed", "add the matching `}` where the block ends"),
        Unclosed::Script => {
            ("this script block is never closed", "end the script with ``` on a line of its own")
        }
        Unclosed::Text => ("this text block is never closed", "end the text with \"\"\""),
        Unclosed::Comment => ("this comment is never closed", "end the comment with */"),
    };
    Diagnostic::error("dotc::syntax", message, span, "opened here").with_help(help)
}

pub fn second_scenario(span: Span) -> Diagnostic {
    Diagnostic::error("dotc::mixed-file", "a file holds one scenario", span, "a second scenario")
        .with_help("put each scenario in its own file")
}

pub fn second_game_header(span: Span) -> Diagnostic {
    Diagnostic::error("dotc::mixed-file", "a game log has one `game` header", span, "a second header")
        .with_help("put each game in its own file")
}

pub fn second_campaign(span: Span) -> Diagnostic {
    Diagnostic::error(
        "dotc::mixed-file",
        "a campaign file has one `campaign` block",
        span,
        "a second campaign",
    )
    .with_help("put each campaign in its own file")
}

pub fn mixed_file_kinds(span: Span, first: FileKind, this: FileKind) -> Diagnostic {
    let word = |k: FileKind| match k {
        FileKind::Scenario => "a scenario",
        FileKind::Game => "a game log",
        FileKind::Library => "a library",
        FileKind::Campaign => "a campaign",
    };
    Diagnostic::error(
        "dotc::mixed-file",
        format!("this file is {}, so it cannot also hold {}", word(first), word(this)),
        span,
        "does not belong in this file",
    )
    .with_help("a scenario may carry its own `library { }` block inside it; logs and libraries go in their own files")
}

pub fn repeated_statement(first: Span, again: Span) -> Diagnostic {
    Diagnostic::error("dotc::repeated-statement", "this setting is given twice", again, "given again here")
        .with_label(first, "first given here")
        .with_help("remove one of them; the first is the one that counts")
}

/// The message of [`missing_statement`], so analysis can drop one that a syntax error on the
/// same statement already explains.
pub fn missing_message(what: &str) -> String {
    format!("missing `{what}`")
}

pub fn missing_statement(span: Span, what: &str, example: &str) -> Diagnostic {
    Diagnostic::error("dotc::missing-statement", missing_message(what), span, format!("needs `{what}`"))
        .with_help(format!("add a line such as `{example}`"))
}

// ------------------------------------------------------------------ names

/// A name or id that was never declared. `what` is "unit", "weapon", ... and `known` is what
/// the reader may have meant.
pub fn unknown(
    code: &'static str,
    what: &str,
    name: &str,
    span: Span,
    suggestion: Option<&str>,
) -> Diagnostic {
    let shown = if name.is_empty() { "(empty)" } else { name };
    let mut d =
        Diagnostic::error(code, format!("unknown {what} `{shown}`"), span, format!("no {what} of this name"));
    d = match suggestion {
        Some(s) => d.with_help(format!("did you mean `{s}`?")).with_fix(span, s.to_string()),
        None => d.with_help(format!("declare it, or check the spelling against the {what}s in scope")),
    };
    d.subject = Some(name.to_string());
    d
}

/// Like [`unknown`], for quoted names: the fix keeps the quotes.
pub fn unknown_quoted(
    code: &'static str,
    what: &str,
    name: &str,
    span: Span,
    suggestion: Option<&str>,
) -> Diagnostic {
    let mut d = Diagnostic::error(
        code,
        format!("unknown {what} \"{name}\""),
        span,
        format!("no {what} of this name"),
    );
    d = match suggestion {
        Some(s) => d.with_help(format!("did you mean \"{s}\"?")).with_fix(span, format!("\"{s}\"")),
        None => d.with_help(format!("declare the {what}, or check the spelling")),
    };
    d.subject = Some(name.to_string());
    d
}

pub fn duplicate_name(what: &str, name: &str, span: Span, first: Span) -> Diagnostic {
    Diagnostic::error(
        "dotc::duplicate-name",
        format!("{what} \"{name}\" is declared twice"),
        span,
        "declared again here",
    )
    .with_label(first, "first declared here")
    .with_help(match what {
        "regiment" | "battery" | "cavalry" => {
            "give each its own name, e.g. \"1st Minnesota\" and \"1st Minnesota (2nd bn)\""
        }
        _ => "give each its own name; every reference must point at one declaration",
    })
}

pub fn empty_file() -> Diagnostic {
    Diagnostic::error("dotc::missing-statement", "this file is empty", Span::new(0, 0), "nothing here")
        .with_help(
            "a .dotc file starts with `scenario \"Name\" {`, `game \"Name\" {` or `library \"Name\" {`",
        )
}

/// A word or name of the right family but the wrong kind; each caller words it for its case.
/// A unit's trait that belongs to an optional module the scenario leaves off (Ch13 5.0, dotc D8).
pub fn module_off(span: Span, trait_id: &str, module: &str, section: &str) -> Diagnostic {
    Diagnostic::warning(
        "dotc::module-off",
        format!("the trait `{trait_id}` does nothing here: the `{module}` module is off"),
        span,
        format!("needs `module {module}`"),
    )
    .with_help(format!(
        "switch the module on in the scenario's `rules` block (`module {module}`), or in each game log's; \
         or remove the trait"
    ))
    .with_rule(format!("{section}, dotc D8"))
}

/// A scenario's blinds do not match its army or its modules (Ch13 4.0, dotc D27).
pub fn blinds(span: Span, message: String, label: &str, help: &str) -> Diagnostic {
    Diagnostic::error("dotc::blinds", message, span, label.to_string())
        .with_help(help.to_string())
        .with_rule("Ch13 4.0, dotc D27")
}

pub fn wrong_kind(span: Span, message: String, label: String, help: String) -> Diagnostic {
    Diagnostic::error("dotc::wrong-kind", message, span, label).with_help(help)
}

// ------------------------------------------------------------------ values

pub fn impossible_die(span: Span, face: i64) -> Diagnostic {
    Diagnostic::error("dotc::impossible-die", format!("a d6 cannot show {face}"), span, "not a face of a d6")
        .with_help("every die in Dress on the Colors is a d6: record faces 1 to 6")
}

pub fn impossible_value(
    span: Span,
    message: impl Into<String>,
    label: impl Into<String>,
    help: impl Into<String>,
) -> Diagnostic {
    Diagnostic::error("dotc::impossible-value", message, span, label).with_help(help)
}

pub fn off_table(span: Span, what: &str, x: f64, y: f64, width: f64, depth: f64, table: Span) -> Diagnostic {
    Diagnostic::error(
        "dotc::off-table",
        format!("{what} at ({x}, {y}) is off the {width}\" x {depth}\" table"),
        span,
        "outside the table",
    )
    .with_label(table, "the table is declared here")
    .with_help(format!("positions run from (0, 0) at the south-west corner to ({width}, {depth})"))
}

pub fn no_brigadier(span: Span, brigade: &str) -> Diagnostic {
    Diagnostic::error(
        "dotc::no-brigadier",
        format!("brigade \"{brigade}\" has no brigadier"),
        span,
        "no `brigadier` line",
    )
    .with_help("add `brigadier \"Name\" reliable at (x, y)`; staff pips come from him")
    .with_rule("Ch16 2.1")
    .with_subject("brigadier")
}

pub fn missing_attribute(span: Span, unit: &str, what: &str, example: &str) -> Diagnostic {
    Diagnostic::error(
        "dotc::missing-attribute",
        format!("\"{unit}\" has no {what}"),
        span,
        format!("needs its {what}"),
    )
    .with_help(format!("add `{example}` to its attributes"))
}

pub fn no_position(span: Span, unit: &str) -> Diagnostic {
    Diagnostic::error(
        "dotc::no-position",
        format!("\"{unit}\" has no position and no reinforcement brings it on"),
        span,
        "never reaches the table",
    )
    .with_help("give it `at (x, y)`, or add a line to `reinforcements { }` for it or its brigade")
    .with_subject(unit)
}

pub fn late_reinforcement(span: Span, arrives: u32, last: u32, turns: Span) -> Diagnostic {
    Diagnostic::error(
        "dotc::late-reinforcement",
        format!("this reinforcement arrives on turn {arrives}, after the last turn ({last})"),
        span,
        "can never enter",
    )
    .with_label(turns, "the scenario ends here")
    .with_help("bring it on earlier, or add turns")
}

/// A victory condition the side it favours cannot meet before the last turn (`dotc analyze`).
pub fn unreachable_victory(span: Span, condition: &str, outcome: &str, needs: &str) -> Diagnostic {
    Diagnostic::warning(
        "dotc::unreachable-victory",
        format!("`{condition} => {outcome}` cannot be met before the last turn: it needs {needs}"),
        span,
        "out of reach by the movement rules (Ch16 3.1)",
    )
    .with_help("move the starting or entry positions nearer, add turns or shorten them; `dotc analyze` shows every force's reach")
}

/// A reinforcement that cannot reach contact with any enemy before the end (`dotc analyze`).
pub fn reinforcement_too_late(span: Span, name: &str, what: &str) -> Diagnostic {
    Diagnostic::warning(
        "dotc::reinforcement-too-late",
        format!("\"{name}\" cannot reach the fight before the game ends: {what}"),
        span,
        "no contact with any enemy before the last turn",
    )
    .with_help(
        "bring it on earlier or nearer the fight, or add turns; `dotc analyze` shows every force's reach",
    )
}

pub fn scenario_not_found(span: Span, path: &str, reason: &str) -> Diagnostic {
    Diagnostic::error(
        "dotc::scenario-not-found",
        format!("cannot read scenario \"{path}\": {reason}"),
        span,
        "this path",
    )
    .with_help("the path is relative to the game log's own folder")
}

pub fn not_a_scenario(span: Span, path: &str) -> Diagnostic {
    Diagnostic::error("dotc::not-a-scenario", format!("\"{path}\" is not a scenario"), span, "this path")
        .with_help("point `scenario` at a file that starts with `scenario \"...\" {`")
}

pub fn turn_order(span: Span, message: String, label: String, help: String) -> Diagnostic {
    Diagnostic::error("dotc::turn-order", message, span, label)
        .with_help(help)
        .with_rule("Ch16 1.0, RULINGS G7")
}

pub fn phase_order(span: Span, phase: &str, after: &str, previous: Span) -> Diagnostic {
    Diagnostic::error(
        "dotc::phase-order",
        format!("the {phase} phase cannot come after the {after} phase"),
        span,
        "out of order",
    )
    .with_label(previous, format!("{after} phase here"))
    .with_help("phases run command, maneuver, fire, melee, status, each at most once a turn")
    .with_rule("Ch16 1.0")
}

pub fn bad_action(
    span: Span,
    message: impl Into<String>,
    label: impl Into<String>,
    help: impl Into<String>,
) -> Diagnostic {
    Diagnostic::error("dotc::bad-action", message, span, label).with_help(help)
}

pub fn stacked_units(span: Span, unit: &str, other: &str, other_span: Span, area: f64) -> Diagnostic {
    Diagnostic::error(
        "dotc::stacked-units",
        format!("\"{unit}\" overlaps \"{other}\" on the table"),
        span,
        format!("its stands overlap by {area:.2} square inches"),
    )
    .with_label(other_span, format!("\"{other}\" is here"))
    .with_help("move one of them; stands are 1\" wide and a position is the centre of the Color Stand's front edge (RULE-05-1.4)")
}

// ------------------------------------------------------------------ scripts

/// A scenario script that does not compile or stopped with an error; `what` names the hook or
/// trigger (`hook on_turn_start`, `trigger "Reynolds falls"`).
/// An `option NAME = ...` naming no optional trigger of the scenario.
pub fn unknown_option(span: Span, name: &str, suggestion: Option<&str>, known: &[&str]) -> Diagnostic {
    let d = unknown("dotc::unknown-option", "option", name, span, suggestion);
    if suggestion.is_some() {
        return d;
    }
    let help = if known.is_empty() {
        "this scenario has no optional triggers (`trigger \"NAME\" option NAME default on when ...`)"
            .to_string()
    } else {
        format!("the scenario's options are: {}", known.join(", "))
    };
    d.with_help(help)
}

/// An option switch that is neither `on` nor `off`.
pub fn bad_switch(span: Span, word: &str) -> Diagnostic {
    let mut d = Diagnostic::error(
        "dotc::unknown-option",
        format!("`{word}` is not a switch: an option is `on` or `off`"),
        span,
        "not on or off",
    )
    .with_help("write `on` or `off`");
    if let Some(fix) = crate::names::suggest(word, ["on", "off"]) {
        d = d.with_fix(span, fix.to_string());
    }
    d
}

/// Two optional triggers share an option name.
pub fn duplicate_option(span: Span, name: &str, first: Span) -> Diagnostic {
    Diagnostic::error(
        "dotc::unknown-option",
        format!("option `{name}` is declared by two triggers"),
        span,
        "declared again here",
    )
    .with_label(first, "first declared here")
    .with_help("give each optional trigger its own option name")
}

pub fn script_error(span: Span, what: &str, message: &str) -> Diagnostic {
    Diagnostic::error("dotc::script-error", format!("{what}: {message}"), span, "here").with_help(
        "see \"script\", \"trigger\" and \"victory\" in docs/language.md for what a script may use",
    )
}

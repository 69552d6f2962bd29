//! Diagnostics of campaign files (Ch14; see `crate::campaign`).
//!
//! Voice: the message says what is wrong in plain words, the label points at the text, the help
//! line says what to write; each cites the Ch14 section it enforces.

use crate::ast::Span;
use crate::diagnostic::Diagnostic;

pub const CAMPAIGN_FILE: &str = "dotc::campaign-file";
pub const CAMPAIGN_STEP: &str = "dotc::campaign-step";

/// Codes of campaign files with their explanations.
pub const CODES: &[(&str, &str)] = &[
    (
        CAMPAIGN_FILE,
        "A battle of a campaign names a scenario or a game log that cannot be read, is not of that kind, does not check clean, or (for a log) is played on another scenario than the battle's. Paths are relative to the campaign file's folder.",
    ),
    (
        CAMPAIGN_STEP,
        "A step of a battle's post-battle sequence (Ch14 1.0) cannot be read: an unknown step word, a side or unit the battle's scenario does not have, a step out of order or given twice, a malformed claim (`returns N, hospital N, lost N, captured N`), or a sequence recorded for a battle that has no game log yet.",
    ),
];

fn step(message: impl Into<String>, span: Span, label: impl Into<String>, rule: &str) -> Diagnostic {
    Diagnostic::error(CAMPAIGN_STEP, message, span, label).with_rule(rule)
}

pub fn file_unreadable(span: Span, what: &str, path: &str, reason: &str) -> Diagnostic {
    Diagnostic::error(
        CAMPAIGN_FILE,
        format!("cannot read the {what} \"{path}\": {reason}"),
        span,
        "this path",
    )
    .with_help("paths are relative to the campaign file's own folder")
    .with_rule("Ch14 1.0")
}

pub fn file_not_kind(span: Span, what: &str, path: &str) -> Diagnostic {
    Diagnostic::error(CAMPAIGN_FILE, format!("\"{path}\" is not a {what}"), span, "this path")
        .with_help(format!(
            "point `{}` at a {what} file",
            if what == "scenario" { "scenario" } else { "log" }
        ))
        .with_rule("Ch14 1.0")
}

pub fn file_has_errors(span: Span, what: &str, path: &str, errors: usize, shown: &str) -> Diagnostic {
    Diagnostic::error(
        CAMPAIGN_FILE,
        format!("the {what} \"{path}\" has {errors} error{}", if errors == 1 { "" } else { "s" }),
        span,
        format!("this {what} does not check clean"),
    )
    .with_help(format!("run `dotc check {shown}` and fix it first"))
    .with_rule("Ch14 1.0")
}

pub fn log_of_other_scenario(span: Span, log: &str, scenario: &str) -> Diagnostic {
    Diagnostic::error(
        CAMPAIGN_FILE,
        format!("the log \"{log}\" is not played on this battle's scenario \"{scenario}\""),
        span,
        "played on another scenario",
    )
    .with_help("a battle's log must name the battle's own scenario on its `scenario` line")
    .with_rule("Ch14 1.0")
}

pub fn missing_scenario(span: Span) -> Diagnostic {
    Diagnostic::error(CAMPAIGN_FILE, "missing `scenario`", span, "this battle names no scenario")
        .with_help("add a line such as `scenario \"battle.dotc\"` (relative to the campaign file)")
        .with_rule("Ch14 1.0")
}

pub fn after_without_log(span: Span) -> Diagnostic {
    step("a post-battle sequence for a battle that has no game log", span, "not played yet", "Ch14 1.0")
        .with_help("add the battle's `log \"...\"` line, or remove the `after` block until it is played")
}

pub fn unknown_step(span: Span, word: &str, suggestion: Option<&str>, known: &str) -> Diagnostic {
    let d =
        step(format!("`{word}` is no step of the post-battle sequence"), span, "unknown step", "Ch14 1.0");
    match suggestion {
        Some(s) => d.with_help(format!("did you mean `{s}`?")),
        None => d.with_help(format!("the steps are: {known}")),
    }
}

pub fn malformed_step(span: Span, message: String, example: &str, rule: &str) -> Diagnostic {
    step(message, span, "cannot be read", rule).with_help(format!("write it as `{example}`"))
}

pub fn field_first(span: Span, first: Span) -> Diagnostic {
    step(
        "objective verification (`field`) is step 1 of the post-battle sequence",
        span,
        "before `field`",
        "Ch14 1.0",
    )
    .with_label(first, "the sequence starts here")
    .with_help("put the `field SIDE` line (or `field none`) first in the `after` block")
}

pub fn missing_field(span: Span) -> Diagnostic {
    step("the post-battle sequence has no `field` step", span, "needs `field`", "Ch14 1.0")
        .with_help("add `field SIDE` (the side holding the field) or `field none` as its first line")
}

pub fn repeated_step(again: Span, first: Span, what: &str) -> Diagnostic {
    step(format!("{what} is given twice"), again, "given again here", "Ch14 1.0")
        .with_label(first, "first given here")
        .with_help("remove one of them")
}

pub fn unknown_field_side(span: Span, side: &str, sides: &str) -> Diagnostic {
    step(format!("the battle's scenario has no side `{side}`"), span, "unknown side", "Ch14 1.0")
        .with_help(format!("write one of: {sides}, or `none`"))
}

/// A step names a unit the battle's scenario does not have; `rule` is the step's section (the
/// Surgeon's roll 2.0, experience 3.0, a draft 5.0).
pub fn unknown_battle_unit(
    span: Span,
    unit: &str,
    battle: &str,
    suggestion: Option<&str>,
    rule: &str,
) -> Diagnostic {
    let d = step(
        format!("\"{unit}\" is no regiment or battery of the battle \"{battle}\""),
        span,
        "not in this battle's scenario",
        rule,
    );
    match suggestion {
        Some(s) => d.with_help(format!("did you mean \"{s}\"?")),
        None => d.with_help("name a regiment, cavalry regiment or battery of the battle's scenario"),
    }
}

pub fn unknown_claim_word(span: Span, word: &str) -> Diagnostic {
    step(format!("`{word}` is no result of the Surgeon's roll"), span, "unknown result", "Ch14 2.0")
        .with_help("claim `returns N, hospital N, lost N, captured N` (a result of 0 may be left out)")
}

pub fn rules_not_in_campaign(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(
        "dotc::misplaced-statement",
        format!("a campaign's `rules` block takes only campaign rulings, not {what}"),
        span,
        "not a campaign ruling",
    )
    .with_help("set modules, weather and game rulings in each battle's scenario or game log")
}

pub fn unknown_campaign_ruling(span: Span, name: &str, known: &str) -> Diagnostic {
    Diagnostic::error(
        "dotc::unknown-ruling",
        format!("`{name}` is no campaign ruling"),
        span,
        "unknown ruling",
    )
    .with_help(format!("the campaign rulings are: {known}"))
}

pub fn bad_campaign_ruling_value(span: Span, name: &str, value: &str, values: &str) -> Diagnostic {
    Diagnostic::error(
        "dotc::unknown-ruling",
        format!("`{value}` is no value of the campaign ruling `{name}`"),
        span,
        "unknown value",
    )
    .with_help(format!("its values are: {values}"))
}

pub fn unknown_feat(span: Span, word: &str, suggestion: Option<&str>) -> Diagnostic {
    let d = step(format!("`{word}` is no feat of Ch14 3.0"), span, "unknown feat", "Ch14 3.0, dotc D35");
    match suggestion {
        Some(s) => d.with_help(format!("did you mean `{s}`?")),
        None => d.with_help("the feats are: charged, held, inflicted"),
    }
}

/// A `promotion` or `officer` step names someone who is no brigadier of the battle's scenario
/// (Ch14 4.0).
pub fn unknown_battle_brigadier(
    span: Span,
    leader: &str,
    battle: &str,
    suggestion: Option<&str>,
) -> Diagnostic {
    let d = step(
        format!("\"{leader}\" is no brigadier of the battle \"{battle}\""),
        span,
        "not a brigadier of this battle's scenario",
        "Ch14 4.0",
    );
    match suggestion {
        Some(s) => d.with_help(format!("did you mean \"{s}\"?")),
        None => d.with_help("name a brigadier of one of the battle's brigades"),
    }
}

/// A `replacements` step names a side the battle's scenario does not have (Ch14 5.0).
pub fn unknown_draft_side(span: Span, side: &str, sides: &str) -> Diagnostic {
    step(format!("the battle's scenario has no side `{side}`"), span, "unknown side", "Ch14 5.0")
        .with_help(format!("write one of: {sides}"))
}

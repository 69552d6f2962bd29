//! Diagnostics of rule-data libraries (owned by the library model; see `crate::library`).
//!
//! Voice: the message names the problem in a few lower-case words, the label says what is wrong
//! at the span, and the help line shows how to write it.

use crate::ast::Span;
use crate::diagnostic::Diagnostic;

pub const UNKNOWN_ENTRY_KIND: &str = "dotc::unknown-entry-kind";
pub const UNKNOWN_PROPERTY: &str = "dotc::unknown-property";
pub const BAD_PROPERTY: &str = "dotc::bad-property";
pub const MISSING_PROPERTY: &str = "dotc::missing-property";
pub const DUPLICATE_ENTRY: &str = "dotc::duplicate-entry";
pub const UNKNOWN_REFERENCE: &str = "dotc::unknown-reference";

/// Codes of the library layer with their explanations.
pub const CODES: &[(&str, &str)] = &[
    (
        UNKNOWN_ENTRY_KIND,
        "A library entry starts with a word that is not a kind of rule data. The kinds are weapon, terrain, \
         obstacle, structure, movement, formation, rating, tier, order, quality, trait, marker, health, \
         brigade_state, leader_result, melee_result and modifier.",
    ),
    (
        UNKNOWN_PROPERTY,
        "An entry has a property line its kind does not take. Each kind has a fixed set of properties; \
         `dotc explain` on the kind's documentation lists them.",
    ),
    (
        BAD_PROPERTY,
        "A property line is known but its values are not in the shape it needs (for example \
         `short to 6 hits 4+`), a number is out of range, or it is given twice.",
    ),
    (
        MISSING_PROPERTY,
        "An entry lacks a property its kind needs, such as a weapon's `dice` or a terrain kind's `cover`.",
    ),
    (DUPLICATE_ENTRY, "Two entries of the same kind share an id; the first one is kept."),
    (
        UNKNOWN_REFERENCE,
        "A property names another entry (a formation, a trait, a quality, a structure, a marker or a \
         rating) that no library defines.",
    ),
];

/// `weapn rifled_musket { ... }`
pub fn unknown_entry_kind(span: Span, word: &str, suggestion: Option<&str>, kinds: &[&str]) -> Diagnostic {
    let d = Diagnostic::error(
        UNKNOWN_ENTRY_KIND,
        format!("unknown kind of rule data `{word}`"),
        span,
        "not a kind of library entry",
    );
    match suggestion {
        Some(s) => d.with_help(format!("did you mean `{s}`?")).with_fix(span, s),
        None => d.with_help(format!("a library entry starts with one of: {}", kinds.join(", "))),
    }
}

/// A key the entry's kind does not take.
pub fn unknown_property(
    span: Span,
    kind: &str,
    key: &str,
    suggestion: Option<&str>,
    keys: &[&str],
) -> Diagnostic {
    let d = Diagnostic::error(
        UNKNOWN_PROPERTY,
        format!("unknown property `{key}` for a {kind}"),
        span,
        format!("a {kind} has no `{key}`"),
    );
    match suggestion {
        Some(s) => d.with_help(format!("did you mean `{s}`?")).with_fix(span, s),
        None => d.with_help(format!("a {kind} takes: {}", keys.join(", "))),
    }
}

/// A known key whose values do not fit: `problem` is the label, `usage` the shape it needs.
pub fn bad_property(span: Span, kind: &str, key: &str, problem: &str, usage: &str) -> Diagnostic {
    Diagnostic::error(BAD_PROPERTY, format!("invalid `{key}` in a {kind}"), span, problem)
        .with_help(format!("write it as `{usage}`"))
}

/// A value that reads fine but contradicts another value of the entry.
pub fn inconsistent_property(span: Span, kind: &str, key: &str, problem: &str, help: &str) -> Diagnostic {
    Diagnostic::error(BAD_PROPERTY, format!("invalid `{key}` in a {kind}"), span, problem).with_help(help)
}

/// A key given twice where only one is allowed.
pub fn repeated_property(span: Span, first: Span, kind: &str, key: &str) -> Diagnostic {
    Diagnostic::error(BAD_PROPERTY, format!("`{key}` given twice in a {kind}"), span, "given again here")
        .with_label(first, "first given here")
        .with_help(format!("a {kind} has one `{key}`; remove one of the two lines"))
}

/// A flag property written with values: `conceals yes`.
pub fn flag_with_values(span: Span, kind: &str, key: &str) -> Diagnostic {
    Diagnostic::error(BAD_PROPERTY, format!("`{key}` in a {kind} takes no values"), span, "unexpected values")
        .with_help(format!("`{key}` is a flag: write the word alone on its line, or leave the line out"))
}

/// An entry without a property its kind needs; the span is the entry's id.
pub fn missing_property(span: Span, kind: &str, id: &str, key: &str, usage: &str) -> Diagnostic {
    Diagnostic::error(
        MISSING_PROPERTY,
        format!("{kind} `{id}` has no `{key}`"),
        span,
        format!("this {kind} needs a `{key}` line"),
    )
    .with_help(format!("add a line `{usage}`"))
    .with_subject(key)
}

/// A second entry of the same kind and id.
pub fn duplicate_entry(span: Span, first: Span, kind: &str, id: &str) -> Diagnostic {
    Diagnostic::error(DUPLICATE_ENTRY, format!("{kind} `{id}` is defined twice"), span, "defined again here")
        .with_label(first, "first defined here")
        .with_help(format!("rename one of the two, or remove the repeat; the first `{id}` is the one used"))
}

/// A property naming an entry of another kind that does not exist.
pub fn unknown_reference(span: Span, kind: &str, id: &str, suggestion: Option<&str>) -> Diagnostic {
    let d = Diagnostic::error(
        UNKNOWN_REFERENCE,
        format!("unknown {kind} `{id}`"),
        span,
        format!("no {kind} has this id"),
    );
    match suggestion {
        Some(s) => d.with_help(format!("did you mean `{s}`?")).with_fix(span, s),
        None => d.with_help(format!("define a {kind} `{id}` in a library, or use one the stdlib defines")),
    }
}

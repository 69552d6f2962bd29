//! The keywords of the language: the statements each block takes, and the other words with a
//! fixed meaning inside statements. One list for the tools that need them (completion offers a
//! block's statements, semantic tokens colour every keyword); the test below fails when the
//! grammar gains a word this list lacks. The action verbs of a game log are in
//! [`crate::verbs`].

/// The statements each block takes, by the keyword that opens the block (`""`: the top level of
/// a file). Blocks whose statements are not fixed words (terrain features, units, library
/// entries, phases) are not here.
pub const STATEMENTS: &[(&str, &[&str])] = &[
    ("", &["scenario", "library", "game", "turn", "campaign"]),
    (
        "scenario",
        &[
            "date",
            "start",
            "turn_length",
            "turns",
            "first_side",
            "table",
            "men_per_stand",
            "rules",
            "terrain",
            "side",
            "reinforcements",
            "victory",
            "library",
            "script_limits",
            "script",
            "trigger",
            "notes",
        ],
    ),
    ("rules", &["module", "ruling", "preset", "weather", "option"]),
    ("side", &["edge", "commander", "brigade", "regiment", "battery", "cavalry", "blind", "dummy"]),
    ("brigade", &["brigadier", "regiment", "battery", "cavalry", "losses"]),
    ("reinforcements", &["at", "turn"]),
    ("victory", &["objective", "broken", "vp", "when", "otherwise"]),
    ("game", &["scenario", "players", "played", "seed", "rules", "notes", "bids", "campaign"]),
    ("bids", &["bid", "scouting", "logistics"]),
    ("turn", &["command", "maneuver", "fire", "melee", "status"]),
    // A campaign file (Ch14): its battles, each with its post-battle sequence (`after`, whose
    // step words are `crate::campaign::STEPS`, as a log's verbs are `crate::verbs::VERBS`).
    ("campaign", &["rules", "battle", "notes"]),
    ("battle", &["scenario", "log", "after"]),
];

/// The labels of [`DICE_LABELS`] whose dice serve the action's own roll.
pub const OWN_ROLL_LABELS: &[&str] = &["roll", "vs", "reroll"];

/// The words that may label a list of dice in a log action (`roll [..] saves [..]`). `roll`,
/// `vs` (the defender's die of a melee) and `reroll` (a re-rolled die, after the to-hit dice)
/// serve the action's own roll; `saves` and `save` the cover saves; the rest name the roll they
/// serve, as the runtime's dice purposes do (`dotc_runtime::dice::Purpose`, whose test holds the
/// two lists together). A label outside this list is a typo the checker reports: read as the
/// action's own roll it would give its dice to the wrong roll.
pub const DICE_LABELS: &[&str] = &[
    "roll",
    "vs",
    "reroll",
    "saves",
    "save",
    "to_hit",
    "discipline",
    "melee",
    "rally",
    "staff_pips",
    "leader_casualty",
    "friction",
    "weather",
    "surgeon",
    "promotion",
    "replacement",
    "structure",
];

/// Words with a fixed meaning inside statements: unit attributes, terrain attributes, victory
/// conditions, trigger options, the commanders' ranks, the parts of a log action.
pub const WORDS: &[&str] = &[
    "stands",
    "men",
    "sections",
    "at",
    "facing",
    "traits",
    "markers",
    "enters",
    "holders",
    "screen",
    "in",
    "lost",
    "wounded",
    "polygon",
    "line",
    "size",
    "level",
    "crest",
    "ford",
    "bridge",
    "capacity",
    "vp",
    "objective",
    "hill",
    "held_by",
    "at_end",
    "for",
    "broken",
    "when",
    "otherwise",
    "option",
    "default",
    "to",
    "via",
    "pip",
    "roll",
    "x",
    "attached",
    "replacement",
    "army",
    "corps",
    "division",
    "within",
    "by",
    "remove",
];

/// The statements a block takes (empty for a block not in [`STATEMENTS`]).
pub fn statements(block: &str) -> &'static [&'static str] {
    STATEMENTS.iter().find(|(b, _)| *b == block).map_or(&[], |(_, words)| words)
}

/// Whether a word is a keyword anywhere in the language.
pub fn is_keyword(word: &str) -> bool {
    WORDS.contains(&word) || STATEMENTS.iter().any(|(_, words)| words.contains(&word))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verbs::VERBS;

    /// Units of time in durations: read as part of the number, not coloured as keywords.
    const TIME_UNITS: &[&str] = &["h", "hour", "hours", "min", "mins", "minute", "minutes"];

    #[test]
    fn every_word_of_the_grammar_is_a_keyword_a_verb_or_a_unit_of_time() {
        let grammar = include_str!("grammar.pest");
        let mut missing = Vec::new();
        for literal in grammar.split('"').skip(1).step_by(2) {
            let is_word = !literal.is_empty() && literal.chars().all(|c| c.is_ascii_lowercase() || c == '_');
            if !is_word || literal == "_" {
                continue;
            }
            let known = is_keyword(literal)
                || VERBS.iter().any(|v| v.verb == literal)
                || TIME_UNITS.contains(&literal);
            if !known && !missing.contains(&literal) {
                missing.push(literal);
            }
        }
        assert!(missing.is_empty(), "grammar words missing from keywords.rs: {missing:?}");
    }

    #[test]
    fn every_keyword_is_a_word_of_the_grammar() {
        let grammar = include_str!("grammar.pest");
        let quoted = |w: &str| grammar.contains(&format!("\"{w}\""));
        // `roll` labels dice lists in a log action and `hill` is a built-in terrain kind: the
        // grammar reads both as plain words.
        let unused: Vec<&str> = STATEMENTS
            .iter()
            .flat_map(|(_, words)| words.iter())
            .chain(WORDS)
            .copied()
            .filter(|w| !quoted(w) && *w != "roll" && !crate::check::BUILTIN_FEATURES.contains(w))
            .collect();
        assert!(unused.is_empty(), "keywords the grammar does not have: {unused:?}");
    }

    #[test]
    fn a_blocks_statements_are_found_by_its_keyword() {
        assert!(statements("rules").contains(&"option"));
        assert_eq!(statements("turn"), ["command", "maneuver", "fire", "melee", "status"]);
        assert!(statements("terrain").is_empty());
        assert!(is_keyword("held_by") && is_keyword("victory") && !is_keyword("rifled_musket"));
    }
}

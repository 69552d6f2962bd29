//! The words a claim may use: the part of a log line after `=>` (`=> hits 2, saved 1, lost 1,
//! disordered`).
//!
//! This is the catalogue of what the audit checks (`runtime/src/replay/claims.rs` and the fire
//! replay's demolition step): each word or phrase, whether it takes a number, the verbs and
//! assault steps it belongs to, what it means and the rule it cites. The editor completes and
//! explains claims from it; a runtime test keeps it and the audit's matching in step (every word
//! the audit matches is here, and every word here is matched).
//!
//! Besides these words, `pips`, `bonus`, `order` and `friction` take a bare number
//! ([`NUMBER_ON`]).

/// One word or phrase of a claim.
#[derive(Clone, Copy, Debug)]
pub struct ClaimWord {
    /// The word or phrase as the docs write it (`hits`, `attacker wins`, `leader wounded`).
    pub word: &'static str,
    /// Other spellings the audit reads the same way (`hit`, `stands lost`).
    pub also: &'static [&'static str],
    /// It takes a number after it (`hits 2`).
    pub number: bool,
    /// The verbs and assault steps whose claim may say it.
    pub on: &'static [&'static str],
    /// What it says, in a line.
    pub meaning: &'static str,
    /// The rules it is checked against, as the audit cites them.
    pub rule: &'static str,
}

impl ClaimWord {
    /// How it is written: the word, with ` N` when it takes a number.
    pub fn usage(&self) -> String {
        if self.number { format!("{} N", self.word) } else { self.word.to_string() }
    }

    /// Whether `phrase` (words separated by single spaces) is this word or one of its spellings,
    /// ignoring case.
    pub fn spelled(&self, phrase: &str) -> bool {
        std::iter::once(self.word).chain(self.also.iter().copied()).any(|w| w.eq_ignore_ascii_case(phrase))
    }

    /// Whether a claim of `verb` (a verb or an assault step) may say it.
    pub fn on(&self, verb: &str) -> bool {
        self.on.contains(&verb)
    }
}

/// The verbs whose claim is a bare number (`pips "Hays" roll [5] => 3`): the pips rolled or
/// given, an order's price, the Friction of War roll (Ch16 2.1, 2.3, Ch13 3.0).
pub const NUMBER_ON: &[&str] = &["pips", "bonus", "order", "friction"];

/// The verbs and steps of a volley: a `fire`, `concentrate` or reaction line.
const VOLLEY: &[&str] = &["fire", "concentrate", "react"];
/// A volley's verbs and an assault's closing volley.
const VOLLEY_AND_CLOSING: &[&str] = &["fire", "concentrate", "react", "closing_volley"];
/// Where a Disorder marker may be claimed: a volley's target, a closing volley's charger, and the
/// regiment of a Friction of War Panic in the Ranks (Ch13 3.0).
const DISORDERED_ON: &[&str] = &["fire", "concentrate", "react", "closing_volley", "friction"];
/// Where a leader casualty roll may be claimed: a volley, an assault's volley and melee.
const LEADER_ON: &[&str] =
    &["fire", "concentrate", "react", "closing_volley", "discipline", "melee", "breakthrough"];
/// Where a fall back may be claimed: a volley and any step of an assault.
const FALL_BACK_ON: &[&str] = &[
    "fire",
    "concentrate",
    "react",
    "closing_volley",
    "discipline",
    "contact",
    "stall",
    "rebel_yell",
    "premature_fire",
    "flat_footed",
    "melee",
    "breakthrough",
];
const MELEE: &[&str] = &["melee", "breakthrough"];
const TESTS: &[&str] = &["discipline", "rebel_yell", "premature_fire", "flat_footed"];
const SOLITARY: &[&str] = &["fire", "leader"];

const HEALTH_RULE: &str = "Ch16 8.1, RULINGS C4";
const LEADER_RULE: &str = "Ch16 2.4, RULINGS C9";
const SCREEN_RULE: &str = "Ch16 3.4, RULINGS G12";
const DEMOLITION_RULE: &str = "Ch16 4.3, 5.3, dotc D6";
const SOLITARY_RULE: &str = "Ch16 2.4, RULE-07-4.5, dotc D3";

const fn claim(
    word: &'static str,
    also: &'static [&'static str],
    number: bool,
    on: &'static [&'static str],
    meaning: &'static str,
    rule: &'static str,
) -> ClaimWord {
    ClaimWord { word, also, number, on, meaning, rule }
}

/// Every claim word the audit checks, in the order the docs' claims table gives them.
pub const CLAIM_WORDS: &[ClaimWord] = &[
    claim(
        "hits",
        &["hit"],
        true,
        VOLLEY_AND_CLOSING,
        "How many dice of the volley hit.",
        "RULE-05-2.2, Ch16 5.2, 7.2",
    ),
    claim(
        "saved",
        &["saves"],
        true,
        VOLLEY,
        "How many hits the target's cover saves stopped.",
        "RULE-05-3.2, Ch16 5.4",
    ),
    claim(
        "lost",
        &["stands lost"],
        true,
        VOLLEY_AND_CLOSING,
        "Whole stands the volley removed, a completed micro-hit and a shattered regiment's last stand included.",
        "RULE-05-3.3, 3.4",
    ),
    claim(
        "micro",
        &["micro_hit"],
        true,
        VOLLEY,
        "The micro-hit the target is left with after the volley (0 or 1).",
        "RULE-05-3.3",
    ),
    claim(
        "disordered",
        &["disorder"],
        false,
        DISORDERED_ON,
        "The target (for a closing volley, the charger; for a friction roll, the panicking regiment) took a Disorder marker.",
        "RULE-05-4.2, Ch16 5.5",
    ),
    claim(
        "fresh",
        &[],
        false,
        VOLLEY_AND_CLOSING,
        "The unit's health after the volley is Fresh.",
        HEALTH_RULE,
    ),
    claim("worn", &[], false, VOLLEY_AND_CLOSING, "The volley left the unit Worn.", HEALTH_RULE),
    claim("spent", &[], false, VOLLEY_AND_CLOSING, "The volley left the unit Spent.", HEALTH_RULE),
    claim(
        "shattered",
        &[],
        false,
        VOLLEY_AND_CLOSING,
        "The volley shattered the unit.",
        "Ch16 8.1, RULE-05-3.4",
    ),
    claim(
        "removed",
        &[],
        false,
        VOLLEY_AND_CLOSING,
        "The volley took the unit off the table.",
        "Ch16 8.1, RULE-05-3.4",
    ),
    claim(
        "pass",
        &["passed"],
        false,
        TESTS,
        "The charger (or, against a Rebel Yell, the defender) passed this Discipline roll.",
        "Ch16 7.2, 9.0, RULINGS C7",
    ),
    claim("fail", &["failed"], false, TESTS, "The Discipline roll failed.", "Ch16 7.2, 9.0, RULINGS C7"),
    claim("refused", &[], false, &["refuse"], "The check passed: the wing wheeled back.", "Ch13 13.0"),
    claim(
        "held",
        &["hesitated"],
        false,
        &["refuse"],
        "The check failed on a 2 or 3: the wing stays where it was, the pip spent.",
        "Ch13 13.0",
    ),
    claim(
        "panicked",
        &["panic"],
        false,
        &["refuse"],
        "The check failed on a 1: the regiment keeps its facing and is disordered.",
        "Ch13 13.0",
    ),
    claim("attacker wins", &[], false, MELEE, "The charger won the melee.", "Ch16 7.3, 7.4"),
    claim("defender wins", &[], false, MELEE, "The defender won the melee.", "Ch16 7.3, 7.4"),
    claim(
        "bloody draw",
        &["draw"],
        false,
        MELEE,
        "The melee was drawn: both sides suffer and it goes on.",
        "Ch16 7.3, 7.4",
    ),
    claim(
        "rallied",
        &["pass", "passed"],
        false,
        &["rally"],
        "The rally worked: the Disorder marker came off.",
        "RULE-07-3.3, Ch16 8.3",
    ),
    claim(
        "failed",
        &["fail", "not rallied"],
        false,
        &["rally"],
        "The rally failed: the Disorder marker stays.",
        "RULE-07-3.3, Ch16 8.3",
    ),
    claim(
        "screen hits",
        &[],
        true,
        VOLLEY,
        "The hits the target's skirmish screen has after the volley (it soaks up a screened regiment's first unsaved hit).",
        SCREEN_RULE,
    ),
    claim(
        "screen removed",
        &[],
        false,
        VOLLEY,
        "The skirmish screen went at its second hit: a stand of its parent.",
        SCREEN_RULE,
    ),
    claim(
        "structure",
        &[],
        true,
        &["fire"],
        "The structural hits the garrisoned building has after the volley's solid shot.",
        DEMOLITION_RULE,
    ),
    claim(
        "collapsed",
        &[],
        false,
        &["fire"],
        "The building came down: a stand lost, the garrison Disordered in the rubble.",
        DEMOLITION_RULE,
    ),
    claim(
        "leader unhurt",
        &["leader close_call", "leader close call"],
        false,
        LEADER_ON,
        "The leader casualty roll was a close call: nothing changes.",
        LEADER_RULE,
    ),
    claim(
        "leader wounded",
        &["leader lightly_wounded", "leader lightly wounded", "leader light_wound"],
        false,
        LEADER_ON,
        "The leader casualty roll lightly wounded the leader.",
        LEADER_RULE,
    ),
    claim(
        "leader severely_wounded",
        &["leader severely wounded", "leader captured", "leader severe_wound"],
        false,
        LEADER_ON,
        "The leader casualty roll severely wounded (or captured) the leader: he leaves the table.",
        LEADER_RULE,
    ),
    claim(
        "leader killed",
        &["leader dead", "leader killed_in_action", "leader killed in action"],
        false,
        LEADER_ON,
        "The leader casualty roll killed the leader.",
        LEADER_RULE,
    ),
    claim(
        "unhurt",
        &["close call", "close_call"],
        false,
        SOLITARY,
        "The leader casualty row his roll gave (a `leader` line, or a volley at a solitary brigadier): a close call.",
        SOLITARY_RULE,
    ),
    claim(
        "lightly_wounded",
        &["lightly wounded", "wounded"],
        false,
        SOLITARY,
        "The leader casualty row his roll gave (a `leader` line, or a volley at a solitary brigadier): lightly wounded.",
        SOLITARY_RULE,
    ),
    claim(
        "severely_wounded",
        &["severely wounded", "captured"],
        false,
        SOLITARY,
        "The leader casualty row his roll gave (a `leader` line, or a volley at a solitary brigadier): severely wounded or captured.",
        SOLITARY_RULE,
    ),
    claim(
        "killed",
        &["killed in action", "killed_in_action"],
        false,
        SOLITARY,
        "The leader casualty row his roll gave (a `leader` line, or a volley at a solitary brigadier): killed.",
        SOLITARY_RULE,
    ),
    claim(
        "low_ammo",
        &["low ammo", "low_ammunition", "low ammunition"],
        false,
        VOLLEY_AND_CLOSING,
        "The firer took the Low Ammunition marker: two natural 1s in one volley.",
        "RULE-05-2.5b, Ch16 11.0, RULINGS C14",
    ),
    claim(
        "fell_back",
        &["falls_back", "fall_back", "fell back", "falls back", "fall back"],
        false,
        FALL_BACK_ON,
        "The target (in an assault, the charger or the target) fell back: after a failed check, or overrun in open order.",
        "RULE-07-1.5, Ch16 3.3, RULINGS C5, G14",
    ),
    claim(
        "evaded",
        &["evades"],
        false,
        &["assault", "evade"],
        "The solitary brigadier the charge caught got away.",
        "RULE-07-4.5",
    ),
    claim(
        "captured",
        &[],
        false,
        &["assault", "evade"],
        "The solitary brigadier, or the horse holders, the charge caught was taken.",
        "RULE-07-4.5, Ch16 10.2",
    ),
];

/// The claim words a claim of `verb` (a verb or an assault step) may say, in catalogue order.
pub fn claim_words_for(verb: &str) -> impl Iterator<Item = &'static ClaimWord> + '_ {
    CLAIM_WORDS.iter().filter(move |c| c.on(verb))
}

/// The claim word `phrase` spells (words separated by single spaces, any case): the one of
/// `verb`'s claim if there is one, else any.
pub fn claim_word(verb: Option<&str>, phrase: &str) -> Option<&'static ClaimWord> {
    let mut spelled = CLAIM_WORDS.iter().filter(|c| c.spelled(phrase));
    let first = spelled.clone().next()?;
    Some(verb.and_then(|v| spelled.find(|c| c.on(v))).unwrap_or(first))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verbs::verb_spec;

    #[test]
    fn every_claim_word_belongs_to_known_verbs_and_says_what_it_means() {
        for c in CLAIM_WORDS {
            assert!(!c.on.is_empty(), "`{}` belongs to no verb", c.word);
            for verb in c.on {
                assert!(verb_spec(verb).is_some(), "`{}` names `{verb}`, which is no verb or step", c.word);
            }
            assert!(!c.meaning.is_empty() && !c.rule.is_empty(), "`{}` needs a meaning and a rule", c.word);
        }
        for verb in NUMBER_ON {
            assert!(verb_spec(verb).is_some(), "`{verb}` is no verb");
        }
    }

    #[test]
    fn no_spelling_means_two_things_on_one_verb() {
        for (i, a) in CLAIM_WORDS.iter().enumerate() {
            for b in &CLAIM_WORDS[i + 1..] {
                let shared: Vec<&str> = a.on.iter().copied().filter(|v| b.on(v)).collect();
                for spelling in std::iter::once(a.word).chain(a.also.iter().copied()) {
                    assert!(
                        shared.is_empty() || !b.spelled(spelling),
                        "`{spelling}` is both `{}` and `{}` on {shared:?}",
                        a.word,
                        b.word
                    );
                }
            }
        }
    }

    #[test]
    fn a_phrase_is_read_as_the_verbs_own_word() {
        assert_eq!(claim_word(Some("rally"), "pass").map(|c| c.word), Some("rallied"));
        assert_eq!(claim_word(Some("discipline"), "pass").map(|c| c.word), Some("pass"));
        assert_eq!(claim_word(None, "Attacker Wins").map(|c| c.word), Some("attacker wins"));
        assert_eq!(
            claim_word(Some("fire"), "leader captured").map(|c| c.word),
            Some("leader severely_wounded")
        );
        assert!(claim_word(Some("fire"), "charge").is_none());
        assert!(claim_word(None, "").is_none());
        let fire: Vec<String> = claim_words_for("fire").map(ClaimWord::usage).collect();
        assert!(fire.iter().any(|w| w == "hits N") && fire.iter().any(|w| w == "disordered"), "{fire:?}");
        assert_eq!(claim_words_for("move").count(), 0);
    }
}

//! The action verbs a game log may use, the phases they belong to and the arguments they need.
//!
//! This is the language-level contract of a log line. Whether an action is *legal* (range, arc,
//! eligibility, dice counts) is the runtime's audit; here we only check that the line is
//! well-formed: a known verb in a phase where it can happen, naming the units it must name.

use crate::ast::PhaseKind::{self, *};

/// What a verb needs on its line.
#[derive(Clone, Copy, Debug)]
pub struct VerbSpec {
    pub verb: &'static str,
    pub phases: &'static [PhaseKind],
    /// It names the acting unit or leader first (`move "2nd Wisconsin" ...`).
    pub subject: bool,
    /// It names an enemy after `at` or `->`.
    pub target: bool,
    /// It is a step of an assault (`closing_volley`, `discipline`, `melee` inside `{ }`).
    pub step: bool,
    /// The rule section that defines it.
    pub rule: &'static str,
    pub summary: &'static str,
}

const fn verb(
    verb: &'static str,
    phases: &'static [PhaseKind],
    subject: bool,
    target: bool,
    rule: &'static str,
    summary: &'static str,
) -> VerbSpec {
    VerbSpec { verb, phases, subject, target, step: false, rule, summary }
}

const fn step(verb: &'static str, rule: &'static str, summary: &'static str) -> VerbSpec {
    VerbSpec { verb, phases: &[Maneuver, Melee], subject: false, target: false, step: true, rule, summary }
}

const ANY: &[PhaseKind] = &[Command, Maneuver, Fire, Melee, Status];

pub const VERBS: &[VerbSpec] = &[
    verb("pips", &[Command], true, false, "Ch16 2.1", "A brigadier rolls his staff pips."),
    verb(
        "bonus",
        &[Command],
        true,
        false,
        "Ch16 2.1",
        "A division or corps commander gives one brigadier within 18\" a bonus pip.",
    ),
    verb(
        "reserve",
        &[Command],
        true,
        false,
        "Ch16 2.3, RULINGS G8",
        "A brigadier banks a pip for a reaction in the enemy turn.",
    ),
    verb(
        "order",
        &[Command, Maneuver, Fire],
        true,
        false,
        "Ch16 2.3",
        "A special order bought with staff pips.",
    ),
    verb(
        "attach",
        &[Command, Maneuver],
        true,
        false,
        "Ch16 2.4",
        "A brigadier joins a regiment's Color Stand.",
    ),
    verb(
        "detach",
        &[Command, Maneuver],
        true,
        false,
        "Ch16 2.4",
        "A brigadier leaves the regiment he was attached to.",
    ),
    verb(
        "rally",
        &[Command, Status],
        true,
        false,
        "Ch16 8.3",
        "A rally, by pips (command) or by a natural roll (status).",
    ),
    verb("friction", &[Command], false, false, "Ch13 3.0", "A Friction of War event roll."),
    verb("move", &[Maneuver, Status], true, false, "Ch16 3.1", "A move to a new position and facing."),
    verb("wheel", &[Maneuver], true, false, "Ch16 2.3", "A wheel of up to 45 degrees."),
    verb("about_face", &[Maneuver], true, false, "Ch16 3.3", "Reverse facing for 1\" of movement."),
    verb("formation", &[Maneuver], true, false, "Ch16 3.2", "A change of formation."),
    verb("fall_back", &[Maneuver], true, false, "Ch16 3.3", "Fall back up to 3\" keeping the front."),
    verb("double_time", &[Maneuver], true, false, "Ch16 2.3", "A double-time advance, +3\" for 1 pip."),
    verb("limber", &[Maneuver], true, false, "Ch16 2.3", "A battery limbers up."),
    verb("unlimber", &[Maneuver], true, false, "Ch16 2.3", "A battery unlimbers."),
    verb("dismount", &[Maneuver], true, false, "Ch16 10.2", "Cavalry dismounts, leaving horse holders."),
    verb(
        "remount",
        &[Maneuver],
        true,
        false,
        "Ch16 10.2",
        "Cavalry returns to its horse holders and mounts.",
    ),
    verb("screen", &[Maneuver], true, false, "Ch16 3.4", "A regiment detaches a skirmish stand forward."),
    verb("recall", &[Maneuver], true, false, "Ch16 3.4", "A regiment takes its skirmish stand back."),
    verb("enter", &[Maneuver], true, false, "scenario reinforcements", "A reinforcement enters the table."),
    verb("exit", &[Maneuver, Status], true, false, "RULINGS G5", "A unit leaves the table."),
    verb("hold", &[Maneuver], true, false, "Ch16 2.3", "A unit holds its position (and may fire)."),
    verb(
        "assault",
        &[Maneuver],
        true,
        true,
        "Ch16 7.1",
        "An assault declared on an enemy unit, with its steps in braces.",
    ),
    verb("react", &[Maneuver], true, false, "Ch16 6.0", "A defensive reaction by the non-active side."),
    verb("fire", &[Maneuver, Fire], true, true, "RULE-05-1.1, Ch16 5.0", "A volley at an enemy unit."),
    verb("concentrate", &[Fire], true, true, "RULE-05-2.4, Ch16 2.3", "Concentrated battery fire."),
    verb("melee", &[Maneuver, Melee], true, true, "Ch16 7.3", "An opposed melee roll."),
    verb(
        "retreat",
        &[Melee, Status],
        true,
        false,
        "Ch16 7.4, 8.2",
        "A retreat after a lost melee or a Broken brigade.",
    ),
    verb("consolidate", &[Melee], true, false, "Ch16 7.4", "The victor's free 2\" move."),
    verb("breakthrough", &[Melee], true, true, "Ch16 7.4", "A sweeping advance into a second target."),
    verb("leader", &[Maneuver, Fire, Melee, Status], true, false, "Ch16 2.4", "A leader casualty roll."),
    verb("clear_smoke", &[Status], true, false, "RULE-05-5.4", "A Gunsmoke marker is removed."),
    verb("reform", &[Status], true, false, "Ch12 5.0", "A worn line reforms."),
    verb("note", ANY, false, false, "", "A remark recorded in the log."),
    verb(
        "scripted",
        ANY,
        false,
        false,
        "scenario script",
        "Dice a scenario script rolled: `scripted \"HOOK OR TRIGGER\" roll [..]` feeds the hook or trigger of that name that runs in this phase.",
    ),
    step("closing_volley", "Ch16 7.2", "The defender's closing volley at the 4\" line."),
    step("discipline", "Ch16 7.2", "The charger's pre-contact discipline check."),
    step("contact", "Ch16 7.2", "The charger closes into contact."),
    step("stall", "Ch16 7.2", "The charger stalls 2\" short, Disordered."),
    step("rebel_yell", "Ch16 9.0", "The defender's test against a Rebel Yell charge."),
    step("melee", "Ch16 7.3", "The opposed melee roll: attacker's die vs defender's."),
];

pub fn verb_spec(word: &str) -> Option<&'static VerbSpec> {
    VERBS.iter().find(|v| v.verb == word)
}

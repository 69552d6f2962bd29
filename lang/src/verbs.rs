//! The action verbs a game log may use, the phases they belong to and the arguments they need.
//!
//! This is the language-level contract of a log line. Whether an action is *legal* (range, arc,
//! eligibility, dice counts) is the runtime's audit; here we only check that the line is
//! well-formed: a known verb in a phase where it can happen, naming the units it must name.
//!
//! [`Verb`] is the typed register the replay dispatches on: each verb of [`VERBS`] is a variant
//! of the part of play that resolves it ([`PhaseOfPlay`]: command, maneuver, fire, assault,
//! status, or a remark), so a verb added here fails to compile until the replay plays it.
//! [`AssaultStep`] does the same for the steps of an assault.

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
        "A rally: bought with pips (`pip`, Phase 1 or 5) or a natural roll (Phase 5).",
    ),
    verb("friction", &[Command], false, false, "Ch13 3.0", "A Friction of War event roll."),
    verb(
        "fog",
        &[Command],
        false,
        false,
        "Ch13 21.0",
        "The roll that may thin dense fog to light fog (`fog roll [d]`, once a turn from turn 3; 5+ thins it).",
    ),
    verb(
        "dig_in",
        &[Command],
        true,
        false,
        "Ch13 14.0",
        "An infantry regiment digs in for a pip (`dig_in \"Brigadier\" \"Regiment\"`): it may not move, fire or assault this turn, and hasty works go along its front at the turn's end.",
    ),
    verb(
        "spike",
        &[Command],
        true,
        false,
        "Ch13 15.0",
        "A regiment standing among the guns it took spikes them for a pip (`spike \"Brigadier\" \"Regiment\"`): they are out of the game.",
    ),
    verb(
        "token",
        &[Command],
        true,
        false,
        "Ch13 8.0",
        "A written order token for a unit (`token \"Unit\" move`, `hold`, `formation`, or `assault -> \"Target\"`): in Phase 2 it does that and nothing else.",
    ),
    verb(
        "haul",
        &[Command],
        true,
        false,
        "Ch13 15.0",
        "A regiment standing among the guns it took drags them away (`haul \"Brigadier\" \"Regiment\"`): half speed and no fire until it takes them off the table.",
    ),
    verb(
        "valor",
        &[Command],
        true,
        false,
        "Ch13 17.0",
        "A brigadier declares Desperate Valor on a regiment of his brigade that will charge this turn, for 2 pips (`valor \"Brigadier\" \"Regiment\" => 2`): in the assault its Discipline checks roll 2D6 and keep the higher.",
    ),
    verb(
        "wave",
        &[Command],
        true,
        false,
        "Ch13 23.0",
        "A brigadier authorises a Wave Attack for 2 pips (`wave \"Brigadier\" \"Lead\" \"Support\" => 2`): two or more regiments of his brigade in one formation, each within 1\" straight behind the one ahead. None of them fires this turn; the one behind completes a charge that stalls, and takes a stray hit for each hit of solid shot or shell on the one ahead.",
    ),
    verb(
        "battle_cry",
        &[Maneuver],
        true,
        false,
        "Ch13 16.0",
        "Once a game per army, a brigadier raises the Rebel Yell or Union Huzzah across his brigade for 2 pips, before its first charge of the turn (`battle_cry \"Brigadier\" => 2`): every enemy its regiments charge tests Discipline at -1 for the phase, and every regiment that charged is Disordered at the turn's end.",
    ),
    verb("move", &[Maneuver, Status], true, false, "Ch16 3.1", "A move to a new position and facing."),
    verb("wheel", &[Maneuver], true, false, "Ch16 2.3", "A wheel of up to 45 degrees."),
    verb("about_face", &[Maneuver], true, false, "Ch16 3.3", "Reverse facing for 1\" of movement."),
    verb(
        "refuse",
        &[Maneuver],
        true,
        false,
        "Ch13 13.0",
        "A regiment bends a wing back under the enemy's eyes for a pip and a check: `refuse \"Regiment\" left 45 pip \"Brigadier\" roll [d]`.",
    ),
    verb("formation", &[Maneuver], true, false, "Ch16 3.2", "A change of formation."),
    verb(
        "fall_back",
        &[Maneuver, Fire, Melee],
        true,
        false,
        "Ch16 3.3, RULE-07-1.5",
        "Fall back up to 3\" keeping the front (Phase 2), or the fall back a failed check or an overrun imposes, on the line after it.",
    ),
    verb(
        "pursue",
        &[Maneuver, Melee],
        true,
        false,
        "Ch13 12.0",
        "A frenzied melee victor's forced 4\" move straight at the nearest enemy unit or objective, on the line after its melee (`pursue \"Unit\" to (x, y)`); it is Disordered at the end (module uncontrollable_pursuit).",
    ),
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
    verb(
        "lead_horses",
        &[Maneuver],
        true,
        false,
        "Ch16 10.2, Ch13 6.0",
        "Dismounted cavalry's horse holders lead the horses to a new spot: 4\" (8\" by road with the module).",
    ),
    verb("screen", &[Maneuver], true, false, "Ch16 3.4", "A regiment detaches a skirmish stand forward."),
    verb("recall", &[Maneuver], true, false, "Ch16 3.4", "A regiment takes its skirmish stand back."),
    verb(
        "garrison",
        &[Maneuver],
        true,
        false,
        "Ch16 4.3",
        "Infantry or dismounted cavalry moves into a building and holds it: `garrison \"Unit\" in \"Building\"`.",
    ),
    verb("enter", &[Maneuver], true, false, "scenario reinforcements", "A reinforcement enters the table."),
    verb("exit", &[Maneuver, Status], true, false, "RULINGS G5", "A unit leaves the table."),
    verb(
        "reveal",
        &[Maneuver],
        true,
        false,
        "Ch13 4.0",
        "A blind is unmasked (`reveal \"B1\"`, module hidden_deployment): at once when an enemy unit or blind comes within 12\", or by its owner to shoot or charge. A dummy is removed; a real blind's brigade comes on with `enter \"Unit\" to (x, y) facing F`, each unit's colours within 6\" of the blind (dotc D28). A blind itself moves with `move \"B1\" to (x, y)`, a flat 9\" over any passable ground.",
    ),
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
        &[Maneuver, Melee, Status],
        true,
        false,
        "Ch16 7.4, 8.2, RULE-07-2.4",
        "A retreat after a lost melee, or a Broken brigade's 6\" retrograde move in its movement phase.",
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
    step(
        "premature_fire",
        "Ch13 10.0",
        "A Green defender tests at the 4\" line or fires its closing volley too early (module premature_fire).",
    ),
    step(
        "flat_footed",
        "Ch13 18.0",
        "A column charged with no reserved pip tests 4+ or is Disordered (module caught_flat_footed).",
    ),
    step("melee", "Ch16 7.3", "The opposed melee roll: attacker's die vs defender's."),
    step(
        "evade",
        "RULE-07-4.5",
        "A solitary brigadier caught by the charge slips away (`evade to (x, y)`); without it he is captured.",
    ),
];

pub fn verb_spec(word: &str) -> Option<&'static VerbSpec> {
    VERBS.iter().find(|v| v.verb == word)
}

/// The part of play that resolves a verb: one file of the replay each (`runtime/src/replay/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PhaseOfPlay {
    /// Pips, bonus, reserve, orders, attach/detach, friction (Ch16 2.0).
    Command,
    /// Moves, formations, wheels, reinforcements, exits (Ch16 3.0).
    Maneuver,
    /// Volleys, concentrated fire, reactions (Ch16 5.0, 6.0).
    Fire,
    /// Assaults, melee, consolidation, breakthrough, leader rolls (Ch16 7.0, 2.4).
    Assault,
    /// Rallies, smoke, reforming (Ch16 8.0).
    Status,
    /// Nothing to resolve: a remark (`note`), or dice a scenario script reads when it runs
    /// (`scripted`).
    Remark,
}

/// Declares one enum of verb words: its variants, `ALL` in order, and `word`.
macro_rules! words {
    ($(#[$meta:meta])* $name:ident { $( $(#[$vmeta:meta])* $variant:ident = $word:literal, )+ }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every variant, in the order of the register.
            pub const ALL: &'static [$name] = &[$( $name::$variant, )+];

            /// The word a log writes.
            pub const fn word(self) -> &'static str {
                match self {
                    $( $name::$variant => $word, )+
                }
            }

            /// The variant a log's word stands for.
            pub fn from_word(word: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|v| v.word() == word)
            }
        }
    };
}

words! {
    /// The verbs of the command phase (Ch16 2.0), played by `replay/command.rs`.
    CommandVerb {
        Pips = "pips",
        Bonus = "bonus",
        Reserve = "reserve",
        Order = "order",
        Attach = "attach",
        Detach = "detach",
        Friction = "friction",
        /// Ch13 21.0 (module weather): dense fog's thinning roll.
        Fog = "fog",
        /// Ch13 14.0 (module digging_in): a regiment digs in for a pip.
        DigIn = "dig_in",
        /// Ch13 15.0 (module spiking_the_guns): captured guns spiked.
        Spike = "spike",
        /// Ch13 15.0 (module spiking_the_guns): captured guns hauled off.
        Haul = "haul",
        /// Ch13 8.0 (module written_orders): a unit's order token for the turn.
        Token = "token",
        /// Ch13 17.0 (module desperate_valor): Desperate Valor on a regiment that will charge.
        Valor = "valor",
        /// Ch13 16.0 (module psychological_shock): the Rebel Yell / Union Huzzah of a brigade.
        BattleCry = "battle_cry",
        /// Ch13 23.0 (module wave_attack): a brigadier authorises a Wave Attack.
        Wave = "wave",
    }
}

words! {
    /// The verbs of movement (Ch16 3.0), played by `replay/maneuver.rs`.
    ManeuverVerb {
        Move = "move",
        Wheel = "wheel",
        AboutFace = "about_face",
        Formation = "formation",
        FallBack = "fall_back",
        DoubleTime = "double_time",
        Limber = "limber",
        Unlimber = "unlimber",
        Dismount = "dismount",
        Remount = "remount",
        /// Ch16 10.2, Ch13 6.0: the horse holders of dismounted cavalry move.
        LeadHorses = "lead_horses",
        Screen = "screen",
        Recall = "recall",
        /// Ch16 4.3: a unit moves into a building and garrisons it.
        Garrison = "garrison",
        Enter = "enter",
        Exit = "exit",
        Hold = "hold",
        /// A retreat after a lost melee or of a Broken brigade: a move, checked as one.
        Retreat = "retreat",
        /// Ch13 13.0 (module refusing_the_flank): a wing wheeled back for a pip and a check.
        Refuse = "refuse",
        /// Ch13 12.0 (module uncontrollable_pursuit): a frenzied victor's forced move.
        Pursue = "pursue",
        /// Ch13 4.0 (module hidden_deployment): a blind is unmasked.
        Reveal = "reveal",
    }
}

words! {
    /// The verbs of fire (Ch16 5.0, 6.0), played by `replay/fire.rs`.
    FireVerb {
        Fire = "fire",
        Concentrate = "concentrate",
        React = "react",
    }
}

words! {
    /// The verbs of assault and melee (Ch16 7.0) and leader casualties (Ch16 2.4), played by
    /// `replay/assault.rs`.
    AssaultVerb {
        Assault = "assault",
        Melee = "melee",
        Consolidate = "consolidate",
        Breakthrough = "breakthrough",
        Leader = "leader",
    }
}

words! {
    /// The verbs of the status phase (Ch16 8.0), played by `replay/status.rs`.
    StatusVerb {
        Rally = "rally",
        ClearSmoke = "clear_smoke",
        Reform = "reform",
    }
}

words! {
    /// The steps of an assault, inside its `{ }` (Ch16 7.2-7.3, 9.0).
    AssaultStep {
        ClosingVolley = "closing_volley",
        Discipline = "discipline",
        Contact = "contact",
        Stall = "stall",
        RebelYell = "rebel_yell",
        /// Ch13 10.0: a Green defender's check at the 4" line, before its closing volley.
        PrematureFire = "premature_fire",
        /// Ch13 18.0: the defender caught flat-footed in column tests before contact.
        FlatFooted = "flat_footed",
        Melee = "melee",
        /// RULE-07-4.5: the evasion move of a solitary brigadier the charge catches.
        Evade = "evade",
    }
}

/// A verb of a game log, by the part of play that resolves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verb {
    Command(CommandVerb),
    Maneuver(ManeuverVerb),
    Fire(FireVerb),
    Assault(AssaultVerb),
    Status(StatusVerb),
    /// `note`: a remark recorded in the log.
    Note,
    /// `scripted`: dice a scenario script rolled, read when the script runs.
    Scripted,
}

impl Verb {
    /// Every verb, part of play by part of play.
    pub fn all() -> impl Iterator<Item = Verb> {
        let command = CommandVerb::ALL.iter().map(|&v| Verb::Command(v));
        let maneuver = ManeuverVerb::ALL.iter().map(|&v| Verb::Maneuver(v));
        let fire = FireVerb::ALL.iter().map(|&v| Verb::Fire(v));
        let assault = AssaultVerb::ALL.iter().map(|&v| Verb::Assault(v));
        let status = StatusVerb::ALL.iter().map(|&v| Verb::Status(v));
        command.chain(maneuver).chain(fire).chain(assault).chain(status).chain([Verb::Note, Verb::Scripted])
    }

    /// The word a log writes.
    pub const fn word(self) -> &'static str {
        match self {
            Verb::Command(v) => v.word(),
            Verb::Maneuver(v) => v.word(),
            Verb::Fire(v) => v.word(),
            Verb::Assault(v) => v.word(),
            Verb::Status(v) => v.word(),
            Verb::Note => "note",
            Verb::Scripted => "scripted",
        }
    }

    /// The verb a log's word stands for (not an assault step: see [`AssaultStep`]).
    pub fn from_word(word: &str) -> Option<Verb> {
        Verb::all().find(|v| v.word() == word)
    }

    /// The part of play that resolves it.
    pub const fn phase_of_play(self) -> PhaseOfPlay {
        match self {
            Verb::Command(_) => PhaseOfPlay::Command,
            Verb::Maneuver(_) => PhaseOfPlay::Maneuver,
            Verb::Fire(_) => PhaseOfPlay::Fire,
            Verb::Assault(_) => PhaseOfPlay::Assault,
            Verb::Status(_) => PhaseOfPlay::Status,
            Verb::Note | Verb::Scripted => PhaseOfPlay::Remark,
        }
    }

    /// Its line in [`VERBS`]: the phases of a turn it may appear in, its arguments, its rule.
    pub fn spec(self) -> Option<&'static VerbSpec> {
        VERBS.iter().find(|v| v.verb == self.word() && !v.step)
    }

    /// The rule section that defines it ("" if none).
    pub fn rule(self) -> &'static str {
        self.spec().map_or("", |s| s.rule)
    }
}

impl AssaultStep {
    /// Its line in [`VERBS`].
    pub fn spec(self) -> Option<&'static VerbSpec> {
        VERBS.iter().find(|v| v.verb == self.word() && v.step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_verb_of_the_register_has_a_variant_and_a_phase() {
        for spec in VERBS {
            if spec.step {
                let step = AssaultStep::from_word(spec.verb);
                assert!(step.is_some_and(|s| s.spec().is_some()), "step `{}` has no variant", spec.verb);
            } else {
                let verb = Verb::from_word(spec.verb);
                assert!(verb.is_some(), "verb `{}` has no variant", spec.verb);
                assert!(!spec.phases.is_empty(), "verb `{}` belongs to no phase of a turn", spec.verb);
            }
        }
    }

    #[test]
    fn every_variant_has_its_line_in_the_register() {
        for verb in Verb::all() {
            assert!(verb.spec().is_some(), "{verb:?} (`{}`) has no line in VERBS", verb.word());
        }
        for step in AssaultStep::ALL {
            assert!(step.spec().is_some(), "{step:?} has no line in VERBS");
        }
        let words: Vec<&str> = Verb::all().map(Verb::word).collect();
        let mut unique = words.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(words.len(), unique.len(), "a word stands for two verbs");
        assert_eq!(words.len(), VERBS.iter().filter(|v| !v.step).count());
    }

    #[test]
    fn every_verb_word_of_the_grammar_and_keywords_has_a_variant() {
        // The grammar reads a verb as a plain word, but for `assault` (its own rule, with steps):
        // every verb word it or the keyword list names is a variant with a part of play.
        let grammar = include_str!("grammar.pest");
        let keywords = crate::keywords::WORDS.iter().copied();
        for word in grammar.split('"').skip(1).step_by(2).chain(keywords) {
            if let Some(spec) = verb_spec(word).filter(|s| !s.step) {
                let verb = Verb::from_word(spec.verb).expect("a variant");
                let _ = verb.phase_of_play();
            }
        }
        assert_eq!(Verb::from_word("assault").map(Verb::phase_of_play), Some(PhaseOfPlay::Assault));
        assert_eq!(Verb::from_word("note").map(Verb::phase_of_play), Some(PhaseOfPlay::Remark));
        assert_eq!(Verb::from_word("charge_the_guns"), None);
        assert_eq!(AssaultStep::from_word("melee"), Some(AssaultStep::Melee));
    }
}

//! The register of named rulings, optional modules, presets and weather a file may set.
//!
//! Each ruling is a judgement call recorded in `RULINGS.md` (ids C1.., G1..), or in dotc's own
//! register `docs/rulings.md` (ids D1..) for a question RULINGS.md leaves open. A scenario or a
//! game log picks a value with `ruling NAME = VALUE`; the first value listed is the default
//! (RULINGS.md's, or dotc's own for a D id). The preset `as_printed` selects the values that reproduce the
//! rulebook's worked examples as printed (E1-E5).

/// One switchable ruling.
#[derive(Clone, Copy, Debug)]
pub struct RulingSpec {
    /// The name written in files: `ruling suppression = numbered`.
    pub name: &'static str,
    /// The id of the question it settles: a RULINGS.md id (C.., G.., E..), or one of dotc's
    /// own register (D.., `docs/rulings.md`) for a question RULINGS.md leaves open.
    pub id: &'static str,
    /// Allowed values; the first is the default.
    pub values: &'static [&'static str],
    /// The value under the `as_printed` preset.
    pub as_printed: &'static str,
    /// One line in our own words.
    pub summary: &'static str,
}

impl RulingSpec {
    pub fn default_value(&self) -> &'static str {
        self.values[0]
    }

    /// How the code and the messages cite it: `RULINGS C7`, or `dotc D1` for dotc's own
    /// register.
    pub fn citation(&self) -> String {
        citation(self.id)
    }
}

/// The citation of a ruling id: `RULINGS C7`, or `dotc D1` for an id of dotc's own register
/// (`docs/rulings.md`).
pub fn citation(id: &str) -> String {
    if id.starts_with('D') { format!("dotc {id}") } else { format!("RULINGS {id}") }
}

/// Every ruling a file may switch.
pub const RULINGS: &[RulingSpec] = &[
    RulingSpec {
        name: "disordered_melee_loss",
        id: "C1",
        values: &["micro_hit", "routed"],
        as_printed: "micro_hit",
        summary: "A Disordered unit that loses a melee takes the usual loss and a micro-hit (default), or is routed and removed.",
    },
    RulingSpec {
        name: "overhead_clearance",
        id: "C2",
        values: &["six_and_four", "three_and_three"],
        as_printed: "six_and_four",
        summary: "Overhead artillery fire needs friends 6\" from the muzzle and 4\" from the target (default), or 3\"/3\" as in the Ch13 module.",
    },
    RulingSpec {
        name: "suppression",
        id: "C3",
        values: &["numbered", "any_six_disorders"],
        as_printed: "any_six_disorders",
        summary: "A natural-6 trigger forces a discipline save, Disorder only on a failure (default, RULE-05-4.1/4.2), or any single 6 disorders outright as the worked examples print.",
    },
    RulingSpec {
        name: "health_states",
        id: "C4",
        values: &["combined", "percentages", "stand_counts"],
        as_printed: "combined",
        summary: "How stands left map to Fresh/Worn/Spent/Shattered: 1 stand Shattered, 2 or <35% Spent, >75% Fresh (default); or percentages only; or the stand-count table only.",
    },
    RulingSpec {
        name: "failed_discipline",
        id: "C5",
        values: &["specific", "fall_back"],
        as_printed: "specific",
        summary: "A failed discipline check applies the consequence its rule states, falling back 3\" only where none is stated (default), or always falls back as RULE-07-1.5 reads.",
    },
    RulingSpec {
        name: "disordered_movement",
        id: "C6",
        values: &["slowed", "halted"],
        as_printed: "slowed",
        summary: "A Disordered unit moves at -2\" without double-time or assault (default, RULE-05-4.4), or may not advance at all (RULE-07-3.1).",
    },
    RulingSpec {
        name: "pre_contact_trigger",
        id: "C7",
        values: &["loss_or_disorder", "hit_or_six", "loss_or_six"],
        as_printed: "loss_or_disorder",
        summary: "What makes a charger test at the 4\" line: a stand loss or a Disorder marker from the closing volley (default, Ch16 7.2).",
    },
    RulingSpec {
        name: "passage_of_lines",
        id: "C8",
        values: &["by_grade", "four_up"],
        as_printed: "by_grade",
        summary: "Passage of lines tests discipline by troop grade (default) or on a flat 4+.",
    },
    RulingSpec {
        name: "leader_casualty",
        id: "C9",
        values: &["fire_or_melee", "melee_only"],
        as_printed: "fire_or_melee",
        summary: "The leader casualty roll is made on a fire or melee stand loss or an enemy natural 6 (default, Ch16 2.4), or only on melee losses (Ch7).",
    },
    RulingSpec {
        name: "faltering_timing",
        id: "C12",
        values: &["immediate", "phase_five"],
        as_printed: "immediate",
        summary: "A brigade becomes Hesitant or Broken the moment its losses reach the threshold (default), or only when checked in Phase 5.",
    },
    RulingSpec {
        name: "hesitant_fire",
        id: "C13",
        values: &["phase_three_only", "all_fire"],
        as_printed: "phase_three_only",
        summary: "A Hesitant brigade's -1 to-hit applies in Phase 3 only (default, RULE-07-2.3), or to all its shooting including reactions.",
    },
    RulingSpec {
        name: "low_ammo_scope",
        id: "C14",
        values: &["all_units", "repeaters_only"],
        as_printed: "all_units",
        summary: "With the low_ammo module, any unit rolling two or more 1s takes Low Ammo (default), or only repeating weapons do.",
    },
    RulingSpec {
        name: "enfilade",
        id: "C15",
        values: &["entirely_behind", "majority_behind"],
        as_printed: "entirely_behind",
        summary: "Enfilade needs the firer entirely behind the target's 90-degree line and denies only frontal-obstacle Light saves (default), or more than half its stands and all Light saves.",
    },
    RulingSpec {
        name: "smoke_clearing",
        id: "C17",
        values: &["by_rule", "phase_five_all"],
        as_printed: "by_rule",
        summary: "Gunsmoke clears only by a forward move, by holding fire, or in a brisk wind (default, RULE-05-5.4), or all unengaged smoke clears in Phase 5.",
    },
    RulingSpec {
        name: "road_column_charged",
        id: "C23",
        values: &["overrun", "melee_minus_one"],
        as_printed: "overrun",
        summary: "A road column contacted by a charge is overrun and removed (default), or fights the melee at -1 (Ch13 18.0).",
    },
    RulingSpec {
        name: "woods_speed",
        id: "C24",
        values: &["lower", "formation_rate"],
        as_printed: "lower",
        summary: "Movement in woods uses the lower of the formation's woods rate and the terrain cap (default).",
    },
    RulingSpec {
        name: "obstacle_cost",
        id: "C25",
        values: &["higher", "formation_rate"],
        as_printed: "higher",
        summary: "Crossing an obstacle costs the higher of the formation's and the obstacle's cost (default).",
    },
    RulingSpec {
        name: "to_hit_limits",
        id: "G1",
        values: &["clamp", "unclamped"],
        as_printed: "clamp",
        summary: "Modified to-hit numbers are clamped to 2..6, so a natural 6 always hits and a 1 always misses (default); unclamped lets a 7+ never hit.",
    },
    RulingSpec {
        name: "brigade_thresholds",
        id: "G6",
        values: &["nearest", "ceiling", "table"],
        as_printed: "nearest",
        summary: "Hesitant at round-half-up(30%) and Broken at ceil(50%) of starting stands, which fits every row of the Ch16 8.2 table (default); or strict ceilings; or the table's rows only.",
    },
    RulingSpec {
        name: "broken_during_charge",
        id: "D1",
        values: &["halts", "goes_in"],
        as_printed: "halts",
        summary: "A charger whose brigade breaks under the closing volley stops 2\" short and fights no melee, since a Broken unit starts none (default); or it goes in, the charge having begun before the break.",
    },
    RulingSpec {
        name: "own_screen",
        id: "D2",
        values: &["screen_out", "in_the_line"],
        as_printed: "screen_out",
        summary: "A regiment with its skirmish screen out fires through it, at -1, with every volley (default), or only when a line of its fire crosses the screen's stand (RULE-05-6.2 gives no geometry).",
    },
    RulingSpec {
        name: "solitary_brigadier_hit",
        id: "D3",
        values: &["any_hit", "natural_six"],
        as_printed: "any_hit",
        summary: "A volley that may fire at a solitary brigadier (RULE-07-4.5) sends him to the leader casualty table when it scores any hit (default), or only when it rolls a natural 6.",
    },
    RulingSpec {
        name: "smoke_wall_blocks",
        id: "D5",
        values: &["lines_across", "any_line"],
        as_printed: "lines_across",
        summary: "A Smoke Wall (RULE-05-5.5) blocks sight beyond 8\" only for a line that crosses it from one side to the other, so its own regiments fire and are fired at through their smoke at -1 (default); or any line beyond 8\" that meets it, theirs included.",
    },
    RulingSpec {
        name: "parrott_damage",
        id: "D6",
        values: &["extra_point", "to_the_roll"],
        as_printed: "extra_point",
        summary: "A Parrott's +1 damage against stone structures (Ch16 5.3) adds a structural hit to each of its solid-shot hits that damages a building (default), or +1 to the 4+ damage roll.",
    },
    RulingSpec {
        name: "brigadier_base",
        id: "D7",
        values: &["round_1in", "point"],
        as_printed: "round_1in",
        summary: "Command range (Ch16 2.2) runs from the edge of a 1\" round brigadier's base, 0.5\" out from his position (default), or from his position itself; either way to the centre of the regiment's Color Stand's front edge.",
    },
    RulingSpec {
        name: "road_column_change",
        id: "D47",
        values: &["whole_move", "half_move", "unpriced"],
        as_printed: "whole_move",
        summary: "Forming road column from line or assault column, which Ch16 3.2 does not price, takes the whole move, the mirror of road column into line (default); or half the move, as line and assault column change; or it is not allowed.",
    },
    RulingSpec {
        name: "blocked_retreat",
        id: "D48",
        values: &["pass_through", "sidestep", "stop_short"],
        as_printed: "pass_through",
        summary: "A melee loser whose 6\" retreat straight back (Ch16 7.4) would end on a friendly unit goes on straight back through it to the first clear spot, a passage of lines that both test (Ch16 3.3, RULINGS C8) (default); or ends its 6\" shifted sideways the least that clears; or stops in contact with the first friend in its way.",
    },
    RulingSpec {
        name: "flank_attack",
        id: "D50",
        values: &["flank_zone", "behind_line"],
        as_printed: "flank_zone",
        summary: "A charge earns the melee's +2 flank or rear attack (Ch16 7.3) when the charger's Color Stand starts outside the target's 45-degree front arc (default, Ch16 6.0's flank zone); or only when the whole charger starts on or behind the target's 90-degree line (Ch15 4.0).",
    },
    RulingSpec {
        name: "melee_timing",
        id: "D51",
        values: &["phase_four", "at_contact"],
        as_printed: "phase_four",
        summary: "A melee the log writes inside its Phase 2 assault counts on the brigade clock as Ch16 1.0 fights it, in Phase 4: later charges, orders and volleys of Phases 2 and 3 see the brigade as it was before that phase's melees (its state, the Disorder of its break, the pips the break forfeited) (default); or each melee is in force from its own line, as if every charge were fought to its end before the next was declared.",
    },
    RulingSpec {
        name: "dead_ground_sight",
        id: "D53",
        values: &["both_ways", "from_below"],
        as_printed: "both_ways",
        summary: "A unit more than 1\" behind a crest is out of sight of the units at the foot of the hill (Ch16 4.4), and they are out of its sight too: the crest blocks the line both ways, the reverse slope being \"blind to base until crest is crossed\" (default); or the crest hides only the unit behind it, which may still see and fire down at the foot.",
    },
];

/// A preset: a name for a set of ruling values.
pub const PRESETS: &[(&str, &str)] = &[
    ("defaults", "Every ruling at its RULINGS.md default."),
    ("as_printed", "The values that reproduce the rulebook's worked examples E1-E5 as printed."),
];

/// How far the replay plays an optional module that is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replayed {
    /// Played whole: what it changes is checked.
    Played,
    /// Played in part: the replay `missing` (the words after "the replay").
    InPart { missing: &'static str },
    /// Not played yet: a log that uses it is checked as if it were off.
    NotPlayed,
}

/// A part of the game an optional module acts in: before the first turn (the scenario, the
/// deployment, what is agreed or placed before play), or a phase of a turn (Ch16 1.0). A charge
/// is declared in Phase 2 and fought out in Phase 4: both are `Assault`, as in the replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ModulePhase {
    /// Before the first turn: scenario design, deployment, markers placed at setup.
    Setup,
    /// Phase 1, Staff & Command.
    Command,
    /// Phase 2, the active side's maneuvers.
    Maneuver,
    /// Phase 3, ranged combat.
    Fire,
    /// Charges (Phase 2), their closing volleys, and melee (Phase 4).
    Assault,
    /// Phase 5, status, smoke and morale.
    Status,
}

impl ModulePhase {
    /// Every part of the game, in the order of play.
    pub const ALL: &'static [ModulePhase] = &[
        ModulePhase::Setup,
        ModulePhase::Command,
        ModulePhase::Maneuver,
        ModulePhase::Fire,
        ModulePhase::Assault,
        ModulePhase::Status,
    ];

    /// Its word: "setup", "command", "maneuver", "fire", "assault", "status".
    pub const fn word(self) -> &'static str {
        match self {
            ModulePhase::Setup => "setup",
            ModulePhase::Command => "command",
            ModulePhase::Maneuver => "maneuver",
            ModulePhase::Fire => "fire",
            ModulePhase::Assault => "assault",
            ModulePhase::Status => "status",
        }
    }
}

/// Declares the modules: the enum, `ALL`, and each one's name, section, the parts of the game it
/// acts in (read from its section) and how far the replay plays it.
macro_rules! modules {
    ( $( $(#[$meta:meta])* $variant:ident = $name:literal, $section:literal, [$($phase:ident),+], $replayed:expr; )+ ) => {
        /// The optional modules of Chapter 13 (and Low Ammunition, RULE-05-2.5b), by the name a
        /// file uses in `module ...`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Module {
            $( $(#[$meta])* $variant, )+
        }

        impl Module {
            /// Every module, in the order of Chapter 13.
            pub const ALL: &'static [Module] = &[$( Module::$variant, )+];

            /// The name a file writes: `module july_sun`.
            pub const fn name(self) -> &'static str {
                match self {
                    $( Module::$variant => $name, )+
                }
            }

            /// The section it comes from.
            pub const fn section(self) -> &'static str {
                match self {
                    $( Module::$variant => $section, )+
                }
            }

            /// The parts of the game it acts in, in the order of play, as its section says.
            pub const fn phases(self) -> &'static [ModulePhase] {
                match self {
                    $( Module::$variant => &[$( ModulePhase::$phase, )+], )+
                }
            }

            /// How far the replay plays it.
            pub const fn replayed(self) -> Replayed {
                use Replayed::*;
                match self {
                    $( Module::$variant => $replayed, )+
                }
            }
        }
    };
}

modules! {
    // Ch13 1.0: the bids are made and won before deployment.
    CommandBidding = "command_bidding", "Ch13 1.0", [Setup], Played;
    // Ch13 2.0: the marker is placed at setup; the bonus is on a regiment's first volley.
    CleanBarrels = "clean_barrels", "Ch13 2.0", [Setup, Fire], Played;
    // Ch13 3.0: rolled at the start of Phase 1, before any order.
    FrictionOfWar = "friction_of_war", "Ch13 3.0", [Command], Played;
    // Ch13 4.0: blinds deployed at setup, moved in Phase 2, unmasked to shoot or charge.
    HiddenDeployment = "hidden_deployment", "Ch13 4.0", [Setup, Maneuver, Fire, Assault], Played;
    // Ch13 5.0: assigned in scenario design; they act on fire (Sharpshooters, Buck & Ball,
    // Seen the Elephant), on charges and melee (Rebel Yell, Steady) and on Phase 5 rallies
    // (Iron Discipline).
    ArmyTraits = "army_traits", "Ch13 5.0", [Setup, Fire, Assault, Status], Played;
    // Ch13 6.0: dismounting in Phase 2; the horse holders under fire and when charged.
    HorseHolders = "horse_holders", "Ch13 6.0", [Maneuver, Fire, Assault], Played;
    // Ch13 7.0: overhead, counter-battery and enfilading artillery fire.
    AdvancedArtillery = "advanced_artillery", "Ch13 7.0", [Fire], Played;
    // Ch13 8.0: tokens placed in Phase 1, carried out in Phase 2.
    WrittenOrders = "written_orders", "Ch13 8.0", [Command, Maneuver], Played;
    // Ch13 9.0: deployed in skirmish order; its movement, the fire aimed at it, its melee.
    EliteSharpshooters = "elite_sharpshooters", "Ch13 9.0", [Setup, Maneuver, Fire, Assault], Played;
    // Ch13 10.0: a check at the charge's 4" line, the closing volley and the melee after it.
    PrematureFire = "premature_fire", "Ch13 10.0 (RULINGS C28)", [Assault], Played;
    // Ch13 11.0: double-quick moves and charges on two turns running.
    JulySun = "july_sun", "Ch13 11.0", [Maneuver, Assault], Played;
    // Ch13 12.0: a check after a melee won outright.
    UncontrollablePursuit = "uncontrollable_pursuit", "Ch13 12.0", [Assault], Played;
    // Ch13 13.0: a wing wheeled back, for a pip and a check.
    RefusingTheFlank = "refusing_the_flank", "Ch13 13.0", [Maneuver], Played;
    // Ch13 14.0: declared in Phase 1, the works placed at the end of the turn.
    DiggingIn = "digging_in", "Ch13 14.0", [Command, Status], Played;
    // Ch13 15.0: guns taken in melee, spiked or hauled off from the next command phase (hauling
    // halves the move and forbids fire).
    SpikingTheGuns = "spiking_the_guns", "Ch13 15.0", [Command, Maneuver, Fire, Assault], Played;
    // Ch13 16.0: declared at the start of Phase 4; the recoil Disorder at the end of the turn.
    PsychologicalShock = "psychological_shock", "Ch13 16.0", [Assault, Status], Played;
    // Ch13 17.0: declared in Phase 1 for that turn's charge.
    DesperateValor = "desperate_valor", "Ch13 17.0", [Command, Assault], Played;
    // Ch13 18.0: a column charged without a reserved pip.
    CaughtFlatFooted = "caught_flat_footed", "Ch13 18.0", [Assault], Played;
    // Ch13 19.0: any Discipline Check: under fire, in a charge, in a rally.
    SecondLine = "second_line", "Ch13 19.0", [Fire, Assault, Status], Played;
    // Ch13 20.0: the closing volley of rifled muskets.
    PlungingFire = "plunging_fire", "Ch13 20.0", [Assault], Played;
    // Ch13 21.0: agreed before the game; dense fog may thin at the start of a turn; the ground
    // slows moves and limbering; rain and fog limit sight and foul fire; fog limits charges.
    // Its ground, sky and heat are in force only with the module on; the wind is the core
    // rules' (RULE-05-5.4, dotc D18).
    Weather = "weather", "Ch13 21.0", [Setup, Command, Maneuver, Fire, Assault], Played;
    // Ch13 22.0: bought in Phase 1; moves, fire, saves and charges.
    OpenOrder = "open_order", "Ch13 22.0", [Command, Maneuver, Fire, Assault], Played;
    // Ch13 23.0: bought with pips; no fire in Phase 3; the charge and its stray hits.
    WaveAttack = "wave_attack", "Ch13 23.0", [Command, Maneuver, Fire, Assault], Played;
    // RULE-05-2.5b: the marker comes from a volley; it goes with a turn spent resupplying.
    LowAmmo = "low_ammo", "RULE-05-2.5b, Ch16 11.0", [Fire, Status], Played;
}

impl Module {
    /// The module a file's word names.
    pub fn from_name(name: &str) -> Option<Module> {
        Module::ALL.iter().copied().find(|m| m.name() == name)
    }

    /// What a replay says, once at the game header, of this module when it is on and not
    /// played whole (cited to [`Module::section`]); None when it is played.
    pub fn replay_notice(self) -> Option<String> {
        self.notice_of(self.replayed())
    }

    /// The notice [`Module::replay_notice`] gives of this module when the replay plays it as
    /// `replayed` says: a word of its own, so the wording is tested whatever the register holds.
    pub fn notice_of(self, replayed: Replayed) -> Option<String> {
        let what = match replayed {
            Replayed::Played => return None,
            Replayed::InPart { missing } => format!("the replay {missing}"),
            Replayed::NotPlayed => {
                format!(
                    "the replay does not play it yet: what it changes in {} is not checked",
                    self.acts_in()
                )
            }
        };
        Some(format!("module {} is on, but {what}", self.name()))
    }

    /// Where it acts, in words: "setup and the fire phase", "the command and status phases".
    pub fn acts_in(self) -> String {
        let phases = self.phases();
        let turn: Vec<&str> = phases.iter().filter(|p| **p != ModulePhase::Setup).map(|p| p.word()).collect();
        let turn = match turn.as_slice() {
            [] => String::new(),
            [one] => format!("the {one} phase"),
            [rest @ .., last] => format!("the {} and {last} phases", rest.join(", ")),
        };
        match (phases.contains(&ModulePhase::Setup), turn.is_empty()) {
            (true, true) => "setup".to_string(),
            (true, false) => format!("setup and {turn}"),
            (false, _) => turn,
        }
    }

    /// One line on it for an editor: its section, where it acts, how far the replay plays it.
    pub fn detail(self) -> String {
        let played = match self.replayed() {
            Replayed::Played => "played",
            Replayed::InPart { .. } => "played in part",
            Replayed::NotPlayed => "not played yet",
        };
        format!("{}; acts in {}; {played}", self.section(), self.acts_in())
    }
}

/// Weather aspects and their conditions (Ch13 21.0, and Brisk Wind of RULE-05-5.4).
pub const WEATHER: &[(&str, &[&str])] = &[
    ("ground", &["firm", "soft", "mud"]),
    ("sky", &["clear", "drizzle", "downpour", "light_fog", "dense_fog"]),
    ("wind", &["calm", "brisk"]),
    ("heat", &["normal", "severe"]),
];

pub fn ruling(name: &str) -> Option<&'static RulingSpec> {
    RULINGS.iter().find(|r| r.name == name)
}

/// The section of the module a file's word names.
pub fn module(name: &str) -> Option<&'static str> {
    Module::from_name(name).map(Module::section)
}

#[cfg(test)]
mod tests {
    use super::ModulePhase::*;
    use super::*;

    #[test]
    fn every_module_acts_somewhere_each_part_named_once_in_the_order_of_play() {
        for module in Module::ALL {
            let phases = module.phases();
            assert!(!phases.is_empty(), "{module:?} acts nowhere");
            assert!(phases.windows(2).all(|w| w[0] < w[1]), "{module:?}: {phases:?} out of order or twice");
        }
        // Every part of the game has a module acting in it.
        for phase in ModulePhase::ALL {
            assert!(Module::ALL.iter().any(|m| m.phases().contains(phase)), "no module acts in {phase:?}");
        }
    }

    #[test]
    fn ch13_sections_place_each_module_in_its_phases() {
        // Ch13 1.0: bidding happens before deployment and nowhere else.
        assert_eq!(Module::CommandBidding.phases(), [Setup]);
        // Ch13 3.0: the friction roll is made at the start of Phase 1.
        assert_eq!(Module::FrictionOfWar.phases(), [Command]);
        // Ch13 14.0: dug in from Phase 1, the works placed at the end of the turn.
        assert_eq!(Module::DiggingIn.phases(), [Command, Status]);
        // Ch13 20.0: only the closing volley of a charge.
        assert_eq!(Module::PlungingFire.phases(), [Assault]);
        // Ch13 21.0: agreed before play; fog thins at a turn's start; ground, sight, powder, charges.
        assert_eq!(Module::Weather.phases(), [Setup, Command, Maneuver, Fire, Assault]);
        // RULE-05-2.5b: the marker from a volley, resupply an unengaged turn later.
        assert_eq!(Module::LowAmmo.phases(), [Fire, Status]);
    }

    #[test]
    fn where_a_module_acts_is_said_in_its_notice_and_its_detail() {
        assert_eq!(Module::CommandBidding.acts_in(), "setup");
        assert_eq!(Module::AdvancedArtillery.acts_in(), "the fire phase");
        assert_eq!(Module::DiggingIn.acts_in(), "the command and status phases");
        assert_eq!(Module::CleanBarrels.acts_in(), "setup and the fire phase");
        // Issue 17: every module is played now; the notice a module not played (or played in
        // part) would give is worded from the register all the same.
        assert_eq!(Module::HiddenDeployment.replay_notice(), None);
        assert_eq!(
            Module::HiddenDeployment.notice_of(Replayed::NotPlayed).as_deref(),
            Some(
                "module hidden_deployment is on, but the replay does not play it yet: what it changes in setup and the maneuver, fire and assault phases is not checked"
            )
        );
        assert_eq!(
            Module::Weather.notice_of(Replayed::InPart { missing: "does not play the mud" }).as_deref(),
            Some("module weather is on, but the replay does not play the mud")
        );
        assert_eq!(Module::DiggingIn.replay_notice(), None);
        assert_eq!(Module::JulySun.detail(), "Ch13 11.0; acts in the maneuver and assault phases; played");
        assert_eq!(Module::CaughtFlatFooted.detail(), "Ch13 18.0; acts in the assault phase; played");
    }
}

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

/// Declares the modules: the enum, `ALL`, and each one's name, section and how far the replay
/// plays it.
macro_rules! modules {
    ( $( $(#[$meta:meta])* $variant:ident = $name:literal, $section:literal, $replayed:expr; )+ ) => {
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
    CommandBidding = "command_bidding", "Ch13 1.0", NotPlayed;
    CleanBarrels = "clean_barrels", "Ch13 2.0", Played;
    FrictionOfWar = "friction_of_war", "Ch13 3.0",
        InPart { missing: "records its friction rolls without applying their effects" };
    HiddenDeployment = "hidden_deployment", "Ch13 4.0", NotPlayed;
    ArmyTraits = "army_traits", "Ch13 5.0", Played;
    HorseHolders = "horse_holders", "Ch13 6.0", Played;
    AdvancedArtillery = "advanced_artillery", "Ch13 7.0", NotPlayed;
    WrittenOrders = "written_orders", "Ch13 8.0", NotPlayed;
    EliteSharpshooters = "elite_sharpshooters", "Ch13 9.0",
        InPart { missing: "plays only its -1 to hit fire aimed at the regiment: not its movement, the sight through it, nor its melee penalty" };
    PrematureFire = "premature_fire", "Ch13 10.0 (RULINGS C28)", NotPlayed;
    JulySun = "july_sun", "Ch13 11.0", Played;
    UncontrollablePursuit = "uncontrollable_pursuit", "Ch13 12.0", Played;
    RefusingTheFlank = "refusing_the_flank", "Ch13 13.0", NotPlayed;
    DiggingIn = "digging_in", "Ch13 14.0", NotPlayed;
    SpikingTheGuns = "spiking_the_guns", "Ch13 15.0", NotPlayed;
    PsychologicalShock = "psychological_shock", "Ch13 16.0", NotPlayed;
    DesperateValor = "desperate_valor", "Ch13 17.0", NotPlayed;
    CaughtFlatFooted = "caught_flat_footed", "Ch13 18.0", NotPlayed;
    SecondLine = "second_line", "Ch13 19.0", NotPlayed;
    PlungingFire = "plunging_fire", "Ch13 20.0", Played;
    Weather = "weather", "Ch13 21.0", Played;
    OpenOrder = "open_order", "Ch13 22.0", Played;
    WaveAttack = "wave_attack", "Ch13 23.0", NotPlayed;
    LowAmmo = "low_ammo", "RULE-05-2.5b, Ch16 11.0", Played;
}

impl Module {
    /// The module a file's word names.
    pub fn from_name(name: &str) -> Option<Module> {
        Module::ALL.iter().copied().find(|m| m.name() == name)
    }

    /// What a replay says, once at the game header, of this module when it is on and not
    /// played whole (cited to [`Module::section`]); None when it is played.
    pub fn replay_notice(self) -> Option<String> {
        let what = match self.replayed() {
            Replayed::Played => return None,
            Replayed::InPart { missing } => format!("the replay {missing}"),
            Replayed::NotPlayed => {
                "the replay does not play it yet: what it changes is not checked".to_string()
            }
        };
        Some(format!("module {} is on, but {what}", self.name()))
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

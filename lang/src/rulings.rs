//! The register of named rulings, optional modules, presets and weather a file may set.
//!
//! Each ruling is a judgement call recorded in `RULINGS.md` (ids C1.., G1..). A scenario or a
//! game log picks a value with `ruling NAME = VALUE`; the first value listed is the default
//! that RULINGS.md gives. The preset `as_printed` selects the values that reproduce the
//! rulebook's worked examples as printed (E1-E5).

/// One switchable ruling.
#[derive(Clone, Copy, Debug)]
pub struct RulingSpec {
    /// The name written in files: `ruling suppression = numbered`.
    pub name: &'static str,
    /// The RULINGS.md id it settles.
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
];

/// A preset: a name for a set of ruling values.
pub const PRESETS: &[(&str, &str)] = &[
    ("defaults", "Every ruling at its RULINGS.md default."),
    ("as_printed", "The values that reproduce the rulebook's worked examples E1-E5 as printed."),
];

/// The optional modules of Chapter 13 (and Low Ammunition, RULE-05-2.5b), by the name a file
/// uses in `module ...`, with the section they come from.
pub const MODULES: &[(&str, &str)] = &[
    ("command_bidding", "Ch13 1.0"),
    ("clean_barrels", "Ch13 2.0"),
    ("friction_of_war", "Ch13 3.0"),
    ("hidden_deployment", "Ch13 4.0"),
    ("army_traits", "Ch13 5.0"),
    ("horse_holders", "Ch13 6.0"),
    ("advanced_artillery", "Ch13 7.0"),
    ("written_orders", "Ch13 8.0"),
    ("elite_sharpshooters", "Ch13 9.0"),
    ("premature_fire", "Ch13 10.0 (RULINGS C28)"),
    ("july_sun", "Ch13 11.0"),
    ("uncontrollable_pursuit", "Ch13 12.0"),
    ("refusing_the_flank", "Ch13 13.0"),
    ("digging_in", "Ch13 14.0"),
    ("spiking_the_guns", "Ch13 15.0"),
    ("psychological_shock", "Ch13 16.0"),
    ("desperate_valor", "Ch13 17.0"),
    ("caught_flat_footed", "Ch13 18.0"),
    ("second_line", "Ch13 19.0"),
    ("plunging_fire", "Ch13 20.0"),
    ("weather", "Ch13 21.0"),
    ("open_order", "Ch13 22.0"),
    ("wave_attack", "Ch13 23.0"),
    ("low_ammo", "RULE-05-2.5b, Ch16 11.0"),
];

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

pub fn module(name: &str) -> Option<&'static str> {
    MODULES.iter().find(|(m, _)| *m == name).map(|(_, section)| *section)
}

//! The rulings in force for a game: one typed switch per judgement call of RULINGS.md, and of
//! dotc's own rulings (D ids) where RULINGS.md does not settle a question.
//!
//! The register of switches a file may name is `dotc_lang::rulings::RULINGS` (name, RULINGS id,
//! values with the default first, the `as_printed` value). [`Rulings`] is the same register as
//! Rust types, so rule code matches on an enum instead of comparing strings. It is built from the
//! map that `dotc_lang::model::effective_rulings` gives for a scenario's or a log's `rules` blocks
//! ([`Rulings::from_settings`]), so `ruling NAME = VALUE` and `preset as_printed` reach the engine.
//!
//! The two lists cannot drift apart: the tests walk the language's register and set every value of
//! every switch here, and compare both presets value by value.

use std::collections::BTreeMap;
use std::fmt::Debug;

/// One switchable ruling as a Rust enum: its name in files, its RULINGS id and its values.
pub trait RulingSwitch: Copy + Eq + Debug + Default + 'static {
    /// The name a file writes: `ruling suppression = numbered`.
    const NAME: &'static str;
    /// The RULINGS.md id it settles, or dotc's own (D..).
    const ID: &'static str;
    /// Every value, the RULINGS.md default first.
    const ALL: &'static [Self];

    /// The value as a file writes it.
    fn value(self) -> &'static str;

    /// The value a file wrote, if it is one of ours.
    fn parse(value: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.value() == value)
    }
}

/// Declares one switch: the enum, its [`RulingSwitch`] impl and its `Default` (the first value).
macro_rules! switch {
    (
        $(#[$meta:meta])*
        $name:ident = $ruling:literal, $id:literal {
            $(#[$first_meta:meta])* $first:ident = $first_value:literal,
            $( $(#[$variant_meta:meta])* $variant:ident = $value:literal, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $(#[$first_meta])* $first,
            $( $(#[$variant_meta])* $variant, )*
        }

        impl RulingSwitch for $name {
            const NAME: &'static str = $ruling;
            const ID: &'static str = $id;
            const ALL: &'static [Self] = &[$name::$first, $($name::$variant),*];

            fn value(self) -> &'static str {
                match self {
                    $name::$first => $first_value,
                    $( $name::$variant => $value, )*
                }
            }
        }

        impl Default for $name {
            fn default() -> Self {
                $name::$first
            }
        }
    };
}

switch! {
    /// RULINGS C1: what happens to a Disordered unit that loses a melee.
    DisorderedMeleeLoss = "disordered_melee_loss", "C1" {
        /// It suffers the ordinary loss (a stand, a 6" retreat) and one micro-hit on top, as
        /// RULE-05-4.4, RULE-07-3.4 and Ch16 8.3 agree.
        MicroHit = "micro_hit",
        /// It is routed and taken off the table (Ch7 3.0 and 6.0).
        Routed = "routed",
    }
}

switch! {
    /// RULINGS C2: how far friends must be for artillery to fire over their heads.
    OverheadClearance = "overhead_clearance", "C2" {
        /// At least 6" from the muzzle and 4" from the target (Ch8 5.0, RULE-05-6.3, Ch16 4.4).
        SixAndFour = "six_and_four",
        /// At least 3" from each, as the advanced artillery module (Ch13 7.0) allows.
        ThreeAndThree = "three_and_three",
    }
}

switch! {
    /// RULINGS C3: what a natural 6 on the to-hit dice does to the target.
    Suppression = "suppression", "C3" {
        /// The numbered rule: one 6 at 6" or less, or two 6s beyond, make the target take a
        /// Discipline Save, and only a failed save disorders it (RULE-05-4.1/4.2, Ch16 5.5).
        Numbered = "numbered",
        /// Any single 6 at any range disorders the target with no save, as the worked examples
        /// E1-E3 and E5 print it (Ch15 3.0).
        AnySixDisorders = "any_six_disorders",
    }
}

switch! {
    /// RULINGS C4: how many stands a unit has left decides its health state.
    HealthStates = "health_states", "C4" {
        /// One stand left is Shattered; two, or under 35%, is Spent; over 75% is Fresh; the rest
        /// Worn. This agrees with every row of the Ch16 8.1 table and extends past it.
        Combined = "combined",
        /// Percentages of the starting stands alone: over 75% Fresh, 35-75% Worn, under 35% Spent.
        Percentages = "percentages",
        /// The stand-count table of Ch1 4.0 and Ch16 8.1 alone (2 stands Spent, 1 Shattered).
        StandCounts = "stand_counts",
    }
}

switch! {
    /// RULINGS C5: what a failed Discipline check does.
    FailedDiscipline = "failed_discipline", "C5" {
        /// Whatever the rule that called for the check says; the 3" fall back of RULE-07-1.5 only
        /// when it says nothing (e.g. the Spent-under-fire test).
        Specific = "specific",
        /// Always fall back 3" and take Disorder, as RULE-07-1.5 reads on its own.
        FallBack = "fall_back",
    }
}

switch! {
    /// RULINGS C6: how a Disordered unit may move.
    DisorderedMovement = "disordered_movement", "C6" {
        /// It moves 2" slower and may not Double-Time or Assault (RULE-05-4.4).
        Slowed = "slowed",
        /// It may not advance at all (RULE-07-3.1).
        Halted = "halted",
    }
}

switch! {
    /// RULINGS C7: what makes a charger take its pre-contact Discipline check at the 4" line.
    PreContactTrigger = "pre_contact_trigger", "C7" {
        /// The closing volley cost it a stand (counting one completed from an old micro-hit) or
        /// gave it a Disorder marker (Ch16 7.2).
        LossOrDisorder = "loss_or_disorder",
        /// The closing volley scored at least one hit or rolled a natural 6 (Ch16 6.0).
        HitOrSix = "hit_or_six",
        /// The closing volley cost it a stand or rolled a natural 6 (Ch6 3.0).
        LossOrSix = "loss_or_six",
    }
}

switch! {
    /// RULINGS C8: the Discipline check for a passage of lines.
    PassageOfLines = "passage_of_lines", "C8" {
        /// The unit's own grade sets the target number (RULE-07-1.4).
        ByGrade = "by_grade",
        /// Every unit passes on 4+ (Ch16 3.3).
        FourUp = "four_up",
    }
}

switch! {
    /// RULINGS C9: when an attached leader rolls for his life.
    LeaderCasualtyTrigger = "leader_casualty", "C9" {
        /// After a stand lost to fire or melee, or an enemy natural 6 (Ch16 2.4, RULE-07-4.3).
        FireOrMelee = "fire_or_melee",
        /// After a stand lost in melee only (Ch7 4.0).
        MeleeOnly = "melee_only",
    }
}

switch! {
    /// RULINGS C12: when a brigade's losses make it Hesitant or Broken.
    FalteringTiming = "faltering_timing", "C12" {
        /// The moment the tally reaches the threshold (RULE-07-2.3/2.4).
        Immediate = "immediate",
        /// Only when the brigade is checked in Phase 5 (Ch16 1.0).
        PhaseFive = "phase_five",
    }
}

switch! {
    /// RULINGS C13: which shooting of a Hesitant brigade takes its -1 to hit.
    HesitantFire = "hesitant_fire", "C13" {
        /// Only its Phase 3 fire; reactions and closing volleys shoot as usual (RULE-07-2.3).
        PhaseThreeOnly = "phase_three_only",
        /// Every shot it fires, reactions included (Ch11 3.0, Ch16 8.2).
        AllFire = "all_fire",
    }
}

switch! {
    /// RULINGS C14: who runs low on ammunition when the `low_ammo` module is on.
    LowAmmoScope = "low_ammo_scope", "C14" {
        /// Any unit whose volley shows two or more natural 1s (RULE-05-2.5b, Ch16 11.0).
        AllUnits = "all_units",
        /// Only units with repeating weapons (Ch9 4.0, Ch12 4.0).
        RepeatersOnly = "repeaters_only",
    }
}

switch! {
    /// RULINGS C15: when fire counts as enfilade, and which saves it takes away.
    Enfilade = "enfilade", "C15" {
        /// The whole firing unit is behind the target's 90-degree line, and only Light saves from
        /// an obstacle on the target's front are lost (RULE-05-1.5, Ch15 4.0).
        EntirelyBehind = "entirely_behind",
        /// More than half the firing stands are behind the line, and every Light save is lost
        /// (Ch16 4.5, 5.6).
        MajorityBehind = "majority_behind",
    }
}

switch! {
    /// RULINGS C17: when gunsmoke lifts.
    SmokeClearing = "smoke_clearing", "C17" {
        /// Only when the unit moves forward out of it, holds its fire, or a brisk wind blows
        /// (RULE-05-5.4, Ch16 5.7).
        ByRule = "by_rule",
        /// All smoke of units not engaged lifts in Phase 5 (Ch16 1.0).
        PhaseFiveAll = "phase_five_all",
    }
}

switch! {
    /// RULINGS C23: what a charge does to a unit caught in Road Column.
    RoadColumnCharged = "road_column_charged", "C23" {
        /// The column is overrun and removed without a melee (Ch6 2.0, Ch9 5.0).
        Overrun = "overrun",
        /// The melee is fought, with the column at -1 (Ch13 18.0).
        MeleeMinusOne = "melee_minus_one",
    }
}

switch! {
    /// RULINGS C24: a formation's speed in woods.
    WoodsSpeed = "woods_speed", "C24" {
        /// The lower of the formation's Woods/Rough rate (Ch16 3.1) and the woods' cap (Ch16 4.1).
        Lower = "lower",
        /// The formation's Woods/Rough rate alone.
        FormationRate = "formation_rate",
    }
}

switch! {
    /// RULINGS C25: what crossing an obstacle costs.
    ObstacleCost = "obstacle_cost", "C25" {
        /// The higher of the formation's cost (Ch16 3.1) and the obstacle's (Ch16 4.2).
        Higher = "higher",
        /// The formation's cost alone.
        FormationRate = "formation_rate",
    }
}

switch! {
    /// RULINGS G1: what happens when modifiers push a to-hit number off the die.
    ToHitLimits = "to_hit_limits", "G1" {
        /// The number is held between 2 and 6: a natural 6 always hits and a natural 1 always
        /// misses (RULE-05-4.3).
        Clamp = "clamp",
        /// The number stands as modified, so a 7+ can never hit and a 1+ always does.
        Unclamped = "unclamped",
    }
}

switch! {
    /// RULINGS G6 (and C11): how many stands a brigade may lose before it is Hesitant or Broken.
    BrigadeThresholds = "brigade_thresholds", "G6" {
        /// Hesitant at 30% of the starting stands rounded half up, Broken at 50% rounded up; the
        /// one reading that fits every row of the Ch16 8.2 table.
        Nearest = "nearest",
        /// Both thresholds rounded up, as "reach or exceed 30%" reads literally (RULE-07-2.3).
        Ceiling = "ceiling",
        /// The Ch16 8.2 table's rows only.
        Table = "table",
    }
}

switch! {
    /// dotc D1 (`docs/rulings.md`): a charger whose own brigade breaks under the closing volley
    /// (RULE-07-2.4: a Broken unit starts no melee; the rulebook does not say what happens to a
    /// charge already under way).
    BrokenDuringCharge = "broken_during_charge", "D1" {
        /// The charge halts 2" short (as a stall, Ch16 7.2) with the collapse's Disorder, and
        /// no melee is fought.
        Halts = "halts",
        /// The charge was begun before the break: it goes on to the pre-contact check and the
        /// melee.
        GoesIn = "goes_in",
    }
}

switch! {
    /// dotc D47 (`docs/rulings.md`): what forming road column from a deployed formation (line,
    /// assault column) costs. Ch16 3.2 prices only road column into line (the whole move).
    RoadColumnChange = "road_column_change", "D47" {
        /// The rule data's price, which the stdlib sets at the whole move: the mirror of road
        /// column into line.
        WholeMove = "whole_move",
        /// Half the move, as between line and assault column (Ch16 3.2; Ch16 2.3 lists "full
        /// formation transformation" among the free manoeuvres without telling them apart).
        HalfMove = "half_move",
        /// As printed: no price, so no change into road column from a deployed formation.
        Unpriced = "unpriced",
    }
}

switch! {
    /// dotc D48 (`docs/rulings.md`): where a melee loser's retreat (Ch16 7.4, 6" straight back)
    /// ends when that spot, or the way to it, is taken by a friendly unit. Neither the rulebook
    /// nor RULINGS.md says.
    BlockedRetreat = "blocked_retreat", "D48" {
        /// Straight back through the friend, a passage of lines that both units test (Ch16 3.3,
        /// RULINGS C8), to the first spot at or beyond the 6" clear of every friend.
        PassThrough = "pass_through",
        /// The full 6" straight back, then shifted sideways, facing kept, by the least distance
        /// that clears every friend.
        Sidestep = "sidestep",
        /// It stops in contact with the first friend in its way, short of the 6"; the rules give
        /// no further consequence.
        StopShort = "stop_short",
    }
}

switch! {
    /// dotc D50 (`docs/rulings.md`): what makes a charge a flank or rear attack, the melee's +2
    /// (Ch16 7.3 "Enfilade / Flank or Rear Attack"). Ch16 6.0 names a flank zone between the
    /// 45-degree front arc and the 90-degree line (RULINGS G13); Ch15 4.0 has the attacker start
    /// entirely behind the 90-degree line drawn out from the target's front edge. Either way the
    /// charger is measured where its charge starts, and a refused flank (Ch16 6.0 Reaction 4)
    /// cancels the bonus.
    FlankAttack = "flank_attack", "D50" {
        /// The charger's Color Stand lies outside the target's 45-degree front arc: in a flank
        /// zone or behind the 90-degree line.
        FlankZone = "flank_zone",
        /// Every stand of the charger lies wholly on or behind the target's 90-degree line (its
        /// front edge drawn out to both sides).
        BehindLine = "behind_line",
    }
}

switch! {
    /// dotc D51 (`docs/rulings.md`): when a melee the log writes inside its assault, in Phase 2,
    /// takes effect on the brigade clock. Ch16 1.0 fights every melee in Phase 4, after every
    /// Phase 2 declaration and the Phase 3 volleys; a log resolves each assault's melee where the
    /// assault is written.
    MeleeTiming = "melee_timing", "D51" {
        /// As Ch16 1.0 orders the phases: until Phase 4, what a Phase 2 melee did to a brigade's
        /// state (Hesitant, Broken, the break's Disorder, its forfeited pips) does not reach the
        /// declarations, orders and volleys of Phases 2 and 3.
        PhaseFour = "phase_four",
        /// Each charge fought to its end before the next is declared: a melee's effects are in
        /// force from the line that fought it.
        AtContact = "at_contact",
    }
}

switch! {
    /// dotc D53 (`docs/rulings.md`): which way a crest's dead ground blocks sight. Ch16 4.4 says
    /// a unit more than 1" behind a crest cannot be seen, targeted or charged by the units at the
    /// foot of the hill; it does not say whether that unit sees them.
    DeadGroundSight = "dead_ground_sight", "D53" {
        /// The crest blocks the line both ways: the unit behind it and the units at the foot do
        /// not see each other until one of them reaches the hill's level (the reverse slope is
        /// "blind to base until crest is crossed").
        BothWays = "both_ways",
        /// Only the unit behind the crest is hidden; it sees, and may fire at, the foot.
        FromBelow = "from_below",
    }
}

switch! {
    /// dotc's own ruling D2 (RULINGS.md does not settle it): when a regiment's volley passes
    /// through its own detached skirmish screen and takes the -1 of RULE-05-6.2 and Ch16 5.6. The
    /// rule gives no geometry; the screen is one stand standing for a company spread across the
    /// regiment's front (Ch16 3.4).
    OwnScreen = "own_screen", "D2" {
        /// Every volley of the regiment while its screen is out: the screen stands 2-3" straight
        /// ahead of its front, and the engine reads the target's screen the same way (Ch16 3.4).
        ScreenOut = "screen_out",
        /// Only a volley with a line of fire (its range line or a firing stand's) that crosses the
        /// screen's stand.
        InTheLine = "in_the_line",
    }
}

switch! {
    /// dotc's own ruling D3 (RULINGS.md does not settle it): what a hit does to a solitary
    /// brigadier, whom RULE-07-4.5 lets the nearest shooter within 6" fire at. Either way the
    /// volley calls one roll on the leader casualty table (Ch16 2.4, RULINGS G18).
    SolitaryBrigadierHit = "solitary_brigadier_hit", "D3" {
        /// Any hit calls the roll.
        AnyHit = "any_hit",
        /// Only a natural 6 among the dice calls it (the trigger of RULE-07-4.3 for an attached
        /// leader whose regiment loses no stand).
        NaturalSix = "natural_six",
    }
}

switch! {
    /// dotc's own ruling D5 (RULINGS.md does not settle it): which lines of fire a Smoke Wall
    /// blocks beyond its 8" (RULE-05-5.5, Ch16 5.7, RULINGS C32). Either way it blocks nothing
    /// at 8" or nearer, and beyond 6" a line through it costs the -1 of smoke (RULE-05-5.2, 5.3).
    SmokeWallBlocks = "smoke_wall_blocks", "D5" {
        /// Only a line that crosses the wall from one side to the other: fire from behind the
        /// wall over it, or at a unit behind it. A line that starts or ends at one of the wall's
        /// own regiments (it fires out of its smoke, or is fired at in it) is not blocked: it goes
        /// into or out of the smoke, which is the -1 of RULE-05-5.2.
        LinesAcross = "lines_across",
        /// Any line beyond 8" that meets the wall, the wall's own regiments' volleys and the
        /// volleys at them included: the wall is the markers merged, and their smoke blinds
        /// in every direction.
        AnyLine = "any_line",
    }
}

switch! {
    /// dotc's own ruling D6 (RULINGS.md does not settle it): what the "+1 damage vs. stone
    /// structures and forts" of a Parrott rifle (Ch16 5.3) does to the artillery demolition of a
    /// building (Ch16 4.3), where each solid-shot hit rolls 4+ for a structural hit.
    ParrottDamage = "parrott_damage", "D6" {
        /// Each hit that damages the building does one structural hit more (two for a Parrott).
        ExtraPoint = "extra_point",
        /// The damage roll takes +1: a Parrott's hit damages on 3+, for one structural hit.
        ToTheRoll = "to_the_roll",
    }
}

switch! {
    /// dotc's own ruling D7 (RULINGS.md does not settle it): the brigadier's base, from whose
    /// edge Ch16 2.2 measures command range to the regiment's Color Stand. The rulebook sizes
    /// only a commander's base (RULE-07-4.1).
    BrigadierBase = "brigadier_base", "D7" {
        /// A 1" round base, as the map draws him: ranges run from 0.5" out from his position.
        RoundInch = "round_1in",
        /// No base: ranges run from his position itself.
        Point = "point",
    }
}

/// Declares [`Rulings`] with one field per switch, and the by-name access the settings map needs.
/// Each field is named exactly as its switch (checked when compiling).
macro_rules! rulings {
    ( $( $(#[$meta:meta])* $field:ident: $ty:ident, )+ ) => {
        /// The value of every switchable ruling for one game. `Default` is every RULINGS.md
        /// default; [`Rulings::as_printed`] reproduces the worked examples as printed.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct Rulings {
            $( $(#[$meta])* pub $field: $ty, )+
        }

        $( const _: () = assert!(same_str(stringify!($field), <$ty as RulingSwitch>::NAME)); )+

        impl Rulings {
            /// The names of every switch, in field order.
            pub const NAMES: &'static [&'static str] = &[$( <$ty as RulingSwitch>::NAME ),+];

            /// Set one switch by the name and value a file writes.
            pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
                $(
                    if name == <$ty as RulingSwitch>::NAME {
                        self.$field = parse_value::<$ty>(value)?;
                        return Ok(());
                    }
                )+
                Err(format!("unknown ruling `{name}`"))
            }

            /// The value of one switch as a file writes it, by its name.
            pub fn get(&self, name: &str) -> Option<&'static str> {
                $(
                    if name == <$ty as RulingSwitch>::NAME {
                        return Some(self.$field.value());
                    }
                )+
                None
            }

            /// The RULINGS.md id a switch settles, by its name.
            pub fn id(name: &str) -> Option<&'static str> {
                $(
                    if name == <$ty as RulingSwitch>::NAME {
                        return Some(<$ty as RulingSwitch>::ID);
                    }
                )+
                None
            }
        }
    };
}

rulings! {
    /// C1.
    disordered_melee_loss: DisorderedMeleeLoss,
    /// C2.
    overhead_clearance: OverheadClearance,
    /// C3.
    suppression: Suppression,
    /// C4.
    health_states: HealthStates,
    /// C5.
    failed_discipline: FailedDiscipline,
    /// C6.
    disordered_movement: DisorderedMovement,
    /// C7.
    pre_contact_trigger: PreContactTrigger,
    /// C8.
    passage_of_lines: PassageOfLines,
    /// C9.
    leader_casualty: LeaderCasualtyTrigger,
    /// C12.
    faltering_timing: FalteringTiming,
    /// C13.
    hesitant_fire: HesitantFire,
    /// C14.
    low_ammo_scope: LowAmmoScope,
    /// C15.
    enfilade: Enfilade,
    /// C17.
    smoke_clearing: SmokeClearing,
    /// C23.
    road_column_charged: RoadColumnCharged,
    /// C24.
    woods_speed: WoodsSpeed,
    /// C25.
    obstacle_cost: ObstacleCost,
    /// G1.
    to_hit_limits: ToHitLimits,
    /// G6.
    brigade_thresholds: BrigadeThresholds,
    /// dotc D1.
    broken_during_charge: BrokenDuringCharge,
    /// dotc D2.
    own_screen: OwnScreen,
    /// dotc D3.
    solitary_brigadier_hit: SolitaryBrigadierHit,
    /// dotc D5.
    smoke_wall_blocks: SmokeWallBlocks,
    /// dotc D6.
    parrott_damage: ParrottDamage,
    /// dotc D7.
    brigadier_base: BrigadierBase,
    /// dotc D47.
    road_column_change: RoadColumnChange,
    /// dotc D48.
    blocked_retreat: BlockedRetreat,
    /// dotc D50.
    flank_attack: FlankAttack,
    /// dotc D51.
    melee_timing: MeleeTiming,
    /// dotc D53.
    dead_ground_sight: DeadGroundSight,
}

impl Rulings {
    /// The values that reproduce the rulebook's worked examples E1-E5 as printed (`preset
    /// as_printed`). They differ from the defaults only where the examples break a numbered rule:
    /// a single natural 6 disorders outright (C3; E1, E2, E3, E5).
    pub fn as_printed() -> Rulings {
        Rulings { suppression: Suppression::AnySixDisorders, ..Rulings::default() }
    }

    /// A preset by the name a file writes (`preset defaults`, `preset as_printed`).
    pub fn preset(name: &str) -> Option<Rulings> {
        match name {
            "defaults" => Some(Rulings::default()),
            "as_printed" => Some(Rulings::as_printed()),
            _ => None,
        }
    }

    /// The rulings a settings map sets, starting from the defaults: the map is what
    /// `dotc_lang::model::effective_rulings` returns (presets and `ruling` lines already applied).
    /// A name missing from the map keeps its default. Every unknown name or value is reported,
    /// joined by "; ", and none is guessed.
    pub fn from_settings(values: &BTreeMap<String, String>) -> Result<Rulings, String> {
        let mut rulings = Rulings::default();
        let errors: Vec<String> =
            values.iter().filter_map(|(name, value)| rulings.set(name, value).err()).collect();
        if errors.is_empty() { Ok(rulings) } else { Err(errors.join("; ")) }
    }

    /// Every switch with its value, the same shape as [`Rulings::from_settings`] reads.
    pub fn settings(&self) -> BTreeMap<String, String> {
        Rulings::NAMES
            .iter()
            .filter_map(|name| self.get(name).map(|value| (name.to_string(), value.to_string())))
            .collect()
    }
}

/// The rulings a what-if plays by: a preset (or, without one, what the scenario and log set),
/// then single switches over it. `dotc replay`, `dotc audit` and `dotc odds assault` parse their
/// `--preset` and `--ruling` into this ([`WhatIf::parse`]), and the replay applies it
/// ([`WhatIf::apply`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WhatIf {
    /// The preset's name and rulings, in place of the files' own.
    pub preset: Option<(&'static str, Rulings)>,
    /// Switches set over the preset or the files' rulings, as (name, value), in order.
    pub switches: Vec<(&'static str, &'static str)>,
    /// Optional modules (Ch13) switched on over the files' (`--module NAME`).
    pub modules_on: Vec<&'static str>,
    /// Optional modules switched off, whatever the files say (`--no-module NAME`).
    pub modules_off: Vec<&'static str>,
}

impl WhatIf {
    /// Read a preset name and `NAME=VALUE` switches (a name may be the RULINGS id: `C3=numbered`).
    /// Every error says what was expected, with a "did you mean" for a misspelt name.
    pub fn parse(preset: Option<&str>, switches: &[String]) -> Result<WhatIf, String> {
        let preset = match preset {
            None => None,
            Some(name) => {
                let (known, _) =
                    dotc_lang::rulings::PRESETS.iter().find(|(p, _)| *p == name).ok_or_else(|| {
                        let names: Vec<&str> = dotc_lang::rulings::PRESETS.iter().map(|(p, _)| *p).collect();
                        format!("unknown preset `{name}`; the presets are {}", names.join(", "))
                    })?;
                let rulings = Rulings::preset(known).ok_or_else(|| format!("unknown preset `{name}`"))?;
                Some((*known, rulings))
            }
        };
        let switches = switches.iter().map(|s| parse_switch(s)).collect::<Result<_, _>>()?;
        Ok(WhatIf { preset, switches, ..WhatIf::default() })
    }

    /// The same, with optional modules switched on (`--module`) and off (`--no-module`) over the
    /// files' own, each checked against the register (with a "did you mean"). A module both
    /// switched on and off is an error.
    pub fn with_modules(mut self, on: &[String], off: &[String]) -> Result<WhatIf, String> {
        self.modules_on = on.iter().map(|m| parse_module(m)).collect::<Result<_, _>>()?;
        self.modules_off = off.iter().map(|m| parse_module(m)).collect::<Result<_, _>>()?;
        if let Some(both) = self.modules_on.iter().find(|m| self.modules_off.contains(m)) {
            return Err(format!("the module `{both}` is given to both --module and --no-module"));
        }
        Ok(self)
    }

    /// The modules to play with, given those the scenario and log switch on.
    pub fn apply_modules(&self, files: impl IntoIterator<Item = String>) -> Vec<String> {
        let mut modules: Vec<String> = files.into_iter().collect();
        modules.extend(self.modules_on.iter().map(|m| m.to_string()));
        modules.retain(|m| !self.modules_off.contains(&m.as_str()));
        modules
    }

    /// The rulings to play by, given those the scenario and log set.
    pub fn apply(&self, files: Rulings) -> Rulings {
        let mut rulings = self.preset.map_or(files, |(_, preset)| preset);
        for (name, value) in &self.switches {
            // Checked by `parse_switch`: a known name and one of its values.
            let _ = rulings.set(name, value);
        }
        rulings
    }

    /// Nothing to change.
    pub fn is_empty(&self) -> bool {
        self.preset.is_none()
            && self.switches.is_empty()
            && self.modules_on.is_empty()
            && self.modules_off.is_empty()
    }
}

/// One module name as a command line writes it (`--module low_ammo`), checked against the
/// register of Ch13's modules.
pub fn parse_module(name: &str) -> Result<&'static str, String> {
    let name = name.trim();
    match dotc_lang::rulings::Module::from_name(name) {
        Some(m) => Ok(m.name()),
        None => {
            let names = dotc_lang::rulings::Module::ALL.iter().map(|m| m.name());
            let hint = dotc_lang::names::suggest(name, names.clone())
                .map_or(String::new(), |s| format!("; did you mean `{s}`?"));
            Err(format!(
                "unknown module `{name}`{hint} (the modules are {})",
                names.collect::<Vec<_>>().join(", ")
            ))
        }
    }
}

/// One `NAME=VALUE` as a command line writes it: the switch's name (or its RULINGS id) and one of
/// its values.
pub fn parse_switch(setting: &str) -> Result<(&'static str, &'static str), String> {
    let (name, value) = setting
        .split_once('=')
        .ok_or_else(|| format!("--ruling takes NAME=VALUE (e.g. suppression=numbered), not `{setting}`"))?;
    let (name, value) = (name.trim(), value.trim());
    let register = dotc_lang::rulings::RULINGS;
    let Some(spec) = register.iter().find(|r| r.name == name || r.id.eq_ignore_ascii_case(name)) else {
        let hint = dotc_lang::names::suggest(name, Rulings::NAMES.iter().copied())
            .map_or(String::new(), |s| format!("; did you mean `{s}`?"));
        return Err(format!("unknown ruling `{name}`{hint}"));
    };
    Rulings::default().set(spec.name, value)?;
    let value = spec.values.iter().copied().find(|v| *v == value).unwrap_or(spec.default_value());
    Ok((spec.name, value))
}

fn parse_value<T: RulingSwitch>(value: &str) -> Result<T, String> {
    T::parse(value).ok_or_else(|| {
        let allowed: Vec<&str> = T::ALL.iter().map(|v| v.value()).collect();
        format!("ruling `{}` ({}) has no value `{value}`; it takes {}", T::NAME, T::ID, allowed.join(", "))
    })
}

const fn same_str(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use dotc_lang::rulings::{PRESETS, RULINGS};

    #[test]
    fn a_what_if_is_parsed_once_and_applied_over_a_preset() {
        let what_if = WhatIf::parse(Some("as_printed"), &["C3=numbered".to_string()]).unwrap();
        assert_eq!(what_if.switches, [("suppression", "numbered")]);
        let rulings = what_if.apply(Rulings::default());
        assert_eq!(rulings, Rulings { suppression: Suppression::Numbered, ..Rulings::as_printed() });
        assert_eq!(WhatIf::default().apply(Rulings::as_printed()), Rulings::as_printed());
        let err = WhatIf::parse(None, &["supression=numbered".to_string()]).unwrap_err();
        assert!(err.contains("did you mean `suppression`?"), "{err}");
        let err = WhatIf::parse(None, &["suppression=sometimes".to_string()]).unwrap_err();
        assert!(err.contains("has no value `sometimes`"), "{err}");
        assert!(WhatIf::parse(None, &["suppression".to_string()]).unwrap_err().contains("NAME=VALUE"));
        assert!(WhatIf::parse(Some("printed"), &[]).unwrap_err().contains("unknown preset"));
    }

    fn defaults_map() -> BTreeMap<String, String> {
        RULINGS.iter().map(|r| (r.name.to_string(), r.default_value().to_string())).collect()
    }

    /// Every switch of the language's register has a field here, and every value it allows reaches
    /// that field; no field exists that the register lacks.
    #[test]
    fn every_registered_value_reaches_its_field() {
        for spec in RULINGS {
            assert_eq!(Rulings::id(spec.name), Some(spec.id), "{}", spec.name);
            for value in spec.values {
                let mut settings = defaults_map();
                settings.insert(spec.name.to_string(), value.to_string());
                let rulings = Rulings::from_settings(&settings)
                    .unwrap_or_else(|e| panic!("{} = {value}: {e}", spec.name));
                assert_eq!(rulings.get(spec.name), Some(*value), "{}", spec.name);
                let changed = *value != spec.default_value();
                assert_eq!(rulings != Rulings::default(), changed, "{} = {value}", spec.name);
                // Nothing else moved.
                for other in RULINGS.iter().filter(|o| o.name != spec.name) {
                    assert_eq!(rulings.get(other.name), Some(other.default_value()), "{}", other.name);
                }
            }
        }
        let registered: Vec<&str> = RULINGS.iter().map(|r| r.name).collect();
        assert_eq!(Rulings::NAMES, registered.as_slice());
    }

    /// Each enum offers exactly the values of the register, default first.
    #[test]
    fn every_switch_has_exactly_the_registered_values() {
        fn check<T: RulingSwitch>() {
            let spec = dotc_lang::rulings::ruling(T::NAME).expect("registered");
            assert_eq!(T::ID, spec.id);
            let ours: Vec<&str> = T::ALL.iter().map(|v| v.value()).collect();
            assert_eq!(ours, spec.values, "{}", T::NAME);
            assert_eq!(T::default().value(), spec.default_value());
            for v in T::ALL {
                assert_eq!(T::parse(v.value()), Some(*v));
            }
            assert_eq!(T::parse("nonsense"), None);
        }
        check::<DisorderedMeleeLoss>();
        check::<OverheadClearance>();
        check::<Suppression>();
        check::<HealthStates>();
        check::<FailedDiscipline>();
        check::<DisorderedMovement>();
        check::<PreContactTrigger>();
        check::<PassageOfLines>();
        check::<LeaderCasualtyTrigger>();
        check::<FalteringTiming>();
        check::<HesitantFire>();
        check::<LowAmmoScope>();
        check::<Enfilade>();
        check::<SmokeClearing>();
        check::<RoadColumnCharged>();
        check::<WoodsSpeed>();
        check::<ObstacleCost>();
        check::<ToHitLimits>();
        check::<BrigadeThresholds>();
        check::<BrokenDuringCharge>();
        check::<OwnScreen>();
        check::<SolitaryBrigadierHit>();
        check::<SmokeWallBlocks>();
        check::<ParrottDamage>();
        check::<BrigadierBase>();
        check::<RoadColumnChange>();
        check::<BlockedRetreat>();
        check::<FlankAttack>();
        check::<MeleeTiming>();
    }

    #[test]
    fn presets_match_the_register() {
        let defaults = Rulings::default();
        let printed = Rulings::as_printed();
        for spec in RULINGS {
            assert_eq!(defaults.get(spec.name), Some(spec.default_value()), "{}", spec.name);
            assert_eq!(printed.get(spec.name), Some(spec.as_printed), "{}", spec.name);
        }
        for (name, _) in PRESETS {
            assert!(Rulings::preset(name).is_some(), "{name}");
        }
        assert_eq!(Rulings::preset("defaults"), Some(defaults));
        assert_eq!(Rulings::preset("as_printed"), Some(printed));
        assert_eq!(Rulings::preset("house"), None);
    }

    /// RULINGS C3 and E1: the one switch the worked examples need changed.
    #[test]
    fn as_printed_disorders_on_any_six() {
        assert_eq!(Rulings::default().suppression, Suppression::Numbered);
        assert_eq!(Rulings::as_printed().suppression, Suppression::AnySixDisorders);
    }

    #[test]
    fn the_issue_three_minimum_defaults() {
        let r = Rulings::default();
        assert_eq!(r.disordered_melee_loss, DisorderedMeleeLoss::MicroHit); // C1
        assert_eq!(r.health_states, HealthStates::Combined); // C4
        assert_eq!(r.disordered_movement, DisorderedMovement::Slowed); // C6
        assert_eq!(r.pre_contact_trigger, PreContactTrigger::LossOrDisorder); // C7
        assert_eq!(r.hesitant_fire, HesitantFire::PhaseThreeOnly); // C13
        assert_eq!(r.low_ammo_scope, LowAmmoScope::AllUnits); // C14
        assert_eq!(r.enfilade, Enfilade::EntirelyBehind); // C15
        assert_eq!(r.road_column_charged, RoadColumnCharged::Overrun); // C23
        assert_eq!(r.to_hit_limits, ToHitLimits::Clamp); // G1
        assert_eq!(r.brigade_thresholds, BrigadeThresholds::Nearest); // G6
    }

    #[test]
    fn settings_round_trip() {
        let mut r = Rulings::as_printed();
        r.brigade_thresholds = BrigadeThresholds::Table;
        assert_eq!(Rulings::from_settings(&r.settings()), Ok(r));
        assert_eq!(Rulings::default().settings(), defaults_map());
    }

    #[test]
    fn missing_names_keep_their_defaults() {
        let mut settings = BTreeMap::new();
        settings.insert("enfilade".to_string(), "majority_behind".to_string());
        let r = Rulings::from_settings(&settings).unwrap();
        assert_eq!(r, Rulings { enfilade: Enfilade::MajorityBehind, ..Rulings::default() });
        assert_eq!(Rulings::from_settings(&BTreeMap::new()), Ok(Rulings::default()));
    }

    #[test]
    fn unknown_names_and_values_are_errors_not_guesses() {
        let mut settings = defaults_map();
        settings.insert("suppresion".to_string(), "numbered".to_string());
        settings.insert("suppression".to_string(), "sometimes".to_string());
        settings.insert("enfilade".to_string(), String::new());
        assert_eq!(
            Rulings::from_settings(&settings),
            Err("ruling `enfilade` (C15) has no value ``; it takes entirely_behind, majority_behind; \
                 unknown ruling `suppresion`; \
                 ruling `suppression` (C3) has no value `sometimes`; it takes numbered, any_six_disorders"
                .to_string())
        );
        let mut r = Rulings::default();
        assert_eq!(r.set("Suppression", "numbered"), Err("unknown ruling `Suppression`".to_string()));
        assert!(r.set("suppression", "NUMBERED").is_err());
        assert_eq!(r, Rulings::default());
        assert_eq!(r.get("nope"), None);
        assert_eq!(Rulings::id("nope"), None);
    }

    /// A scenario's `rules` block reaches the runtime through `effective_rulings`: the preset
    /// first, then `ruling` lines over it.
    #[test]
    fn a_rules_block_reaches_the_runtime() {
        let source = "scenario \"Rulings\" {\n    rules {\n        ruling enfilade = majority_behind\n        preset as_printed\n    }\n}\n";
        let parsed = dotc_lang::parse(source);
        let scenario = parsed.document.scenario.expect("a scenario");
        let settings = dotc_lang::model::effective_rulings(&scenario.rules);
        let r = Rulings::from_settings(&settings).unwrap();
        assert_eq!(r, Rulings { enfilade: Enfilade::MajorityBehind, ..Rulings::as_printed() });
    }

    #[test]
    fn same_str_compares_bytes() {
        assert!(same_str("enfilade", "enfilade"));
        assert!(!same_str("enfilade", "enfilad"));
        assert!(!same_str("enfilade", "enfiladE"));
    }
}

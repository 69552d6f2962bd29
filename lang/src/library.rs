//! Rule data: the rulebook's tables, read from `library` files into typed entries.
//!
//! The stdlib (`stdlib/*.dotc`, embedded as [`STDLIB_FILES`]) writes every table of Ch16 as
//! library entries. The runtime reads its numbers from here, never from Rust constants (house
//! style 10). A scenario may define entries of its own (a Whitworth rifle, a swamp), and
//! [`RuleData::extend`] lays them over the stdlib.
//!
//! Each kind of entry has a fixed schema ([`EntryKind::schema`]): the keys it takes, which of
//! them are required, and the shape of their values. Reading never fails. An unknown kind, an
//! unknown key, a malformed or missing value and a duplicate id each become a diagnostic; the
//! entry is still recorded (with neutral values where a property could not be read) so that
//! later checks do not pile "unknown weapon" errors on top of the real one.
//!
//! Entries may name other entries (a quality's automatic traits, a movement row's formation).
//! Those names are resolved once every library is in: call [`RuleData::check_references`] after
//! the last [`RuleData::extend`].

use serde::Serialize;

use crate::ast::{Entry, Library, Prop, Span, Spanned, Value};
use crate::catalogue::library as msg;
use crate::diagnostic::Diagnostic;

/// The stdlib files: (file name, contents).
pub const STDLIB_FILES: &[(&str, &str)] = &[
    ("small_arms.dotc", include_str!("../../stdlib/small_arms.dotc")),
    ("artillery.dotc", include_str!("../../stdlib/artillery.dotc")),
    ("terrain.dotc", include_str!("../../stdlib/terrain.dotc")),
    ("movement.dotc", include_str!("../../stdlib/movement.dotc")),
    ("command.dotc", include_str!("../../stdlib/command.dotc")),
    ("morale.dotc", include_str!("../../stdlib/morale.dotc")),
    ("combat.dotc", include_str!("../../stdlib/combat.dotc")),
];

/// The stdlib's script libraries: (file name, contents). Each holds a `library` whose `script`
/// blocks define rhai functions that every scenario's scripts may call (the runtime compiles
/// them with the scenario's own; docs/scripting.md). They carry no rule data, so they are kept
/// apart from [`STDLIB_FILES`].
pub const STDLIB_SCRIPTS: &[(&str, &str)] = &[("scripts.dotc", include_str!("../../stdlib/scripts.dotc"))];

// ------------------------------------------------------------------ fixed vocabularies

/// A closed set of words a property value may take.
pub trait Words: Sized + Copy + 'static {
    const WORDS: &'static [&'static str];
    fn from_word(word: &str) -> Option<Self>;
    fn word(self) -> &'static str;
}

macro_rules! word_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident { $($(#[$vmeta:meta])* $variant:ident = $word:literal,)+ }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $word)] $variant,)+
        }

        impl $name {
            /// Every word of this vocabulary, in declaration order.
            pub const WORDS: &'static [&'static str] = &[$($word),+];

            /// The word used in `.dotc` files.
            pub fn word(self) -> &'static str {
                match self {
                    $($name::$variant => $word,)+
                }
            }

            pub fn from_word(word: &str) -> Option<$name> {
                match word {
                    $($word => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        impl Words for $name {
            const WORDS: &'static [&'static str] = &[$($word),+];

            fn from_word(word: &str) -> Option<$name> {
                $name::from_word(word)
            }

            fn word(self) -> &'static str {
                $name::word(self)
            }
        }
    };
}

word_enum! {
    /// The kinds of rule-data entry; the word starts an entry in a `library` block.
    pub enum EntryKind {
        /// A small arm or artillery piece (Ch16 5.2, 5.3, 10.3).
        Weapon = "weapon",
        /// An area or line terrain kind (Ch16 4.1).
        Terrain = "terrain",
        /// A linear obstacle (Ch16 4.2).
        Obstacle = "obstacle",
        /// A building (Ch16 4.3).
        Structure = "structure",
        /// A row of the movement table (Ch16 3.1).
        Movement = "movement",
        /// A formation (Ch16 3.2).
        Formation = "formation",
        /// A brigadier's rating (Ch16 2.1).
        Rating = "rating",
        /// A command radius tier (Ch16 2.2).
        Tier = "tier",
        /// A special order or free maneuver (Ch16 2.3).
        Order = "order",
        /// A troop quality (Ch16 5.5, 8.3).
        Quality = "quality",
        /// A historical army trait (Ch16 9.0).
        Trait = "trait",
        /// A marker a unit can carry (Ch16 5.4-5.7, 8.3, 11.0).
        Marker = "marker",
        /// A regimental health state (Ch16 8.1, RULE-07-1.2, RULINGS C4).
        Health = "health",
        /// A state of the brigade faltering clock (Ch16 8.2, RULE-07-2.3, 2.4).
        BrigadeState = "brigade_state",
        /// A row of the leader casualty table (Ch16 2.4, RULINGS C9).
        LeaderResult = "leader_result",
        /// A melee outcome (Ch16 7.4, 10.1).
        MeleeResult = "melee_result",
        /// A situational modifier of no formation, terrain, marker or trait (Ch16 2.4, 5.6, 7.3,
        /// 10.1).
        Modifier = "modifier",
    }
}

impl EntryKind {
    pub const ALL: [EntryKind; 17] = [
        EntryKind::Weapon,
        EntryKind::Terrain,
        EntryKind::Obstacle,
        EntryKind::Structure,
        EntryKind::Movement,
        EntryKind::Formation,
        EntryKind::Rating,
        EntryKind::Tier,
        EntryKind::Order,
        EntryKind::Quality,
        EntryKind::Trait,
        EntryKind::Marker,
        EntryKind::Health,
        EntryKind::BrigadeState,
        EntryKind::LeaderResult,
        EntryKind::MeleeResult,
        EntryKind::Modifier,
    ];

    /// The properties this kind takes, besides the [`COMMON_PROPS`] every kind takes.
    pub fn schema(self) -> &'static [PropSpec] {
        match self {
            EntryKind::Weapon => WEAPON_PROPS,
            EntryKind::Terrain => TERRAIN_PROPS,
            EntryKind::Obstacle => OBSTACLE_PROPS,
            EntryKind::Structure => STRUCTURE_PROPS,
            EntryKind::Movement => MOVEMENT_PROPS,
            EntryKind::Formation => FORMATION_PROPS,
            EntryKind::Rating => RATING_PROPS,
            EntryKind::Tier => TIER_PROPS,
            EntryKind::Order => ORDER_PROPS,
            EntryKind::Quality => QUALITY_PROPS,
            EntryKind::Trait => TRAIT_PROPS,
            EntryKind::Marker => MARKER_PROPS,
            EntryKind::Health => HEALTH_PROPS,
            EntryKind::BrigadeState => BRIGADE_STATE_PROPS,
            EntryKind::LeaderResult => LEADER_RESULT_PROPS,
            EntryKind::MeleeResult => MELEE_RESULT_PROPS,
            EntryKind::Modifier => MODIFIER_PROPS,
        }
    }

    /// The specification of one key of this kind, common keys included.
    pub fn prop(self, key: &str) -> Option<&'static PropSpec> {
        self.schema().iter().chain(COMMON_PROPS).find(|p| p.key == key)
    }

    /// Every key this kind takes, common keys last.
    pub fn keys(self) -> Vec<&'static str> {
        self.schema().iter().chain(COMMON_PROPS).map(|p| p.key).collect()
    }
}

word_enum! {
    /// What sort of weapon (decides who may carry it: a battery takes only artillery).
    pub enum WeaponClass {
        SmallArm = "small_arm",
        Carbine = "carbine",
        Shotgun = "shotgun",
        Artillery = "artillery",
    }
}

word_enum! {
    /// What one block of dice is rolled for: each stand (RULE-05-2.1) or each gun section.
    pub enum DicePer {
        Stand = "stand",
        Section = "section",
    }
}

word_enum! {
    /// A range band (Ch16 5.2, 5.3). `canister` is artillery's first band; canister is never
    /// fired overhead (RULE-05-6.3).
    pub enum BandName {
        Canister = "canister",
        Short = "short",
        Medium = "medium",
        Long = "long",
    }
}

impl BandName {
    /// Nearest first; canister and short are both the first band.
    fn rank(self) -> u8 {
        match self {
            BandName::Canister | BandName::Short => 0,
            BandName::Medium => 1,
            BandName::Long => 2,
        }
    }
}

word_enum! {
    /// The arm a unit belongs to, as movement rows and weapon bands tell them apart.
    pub enum Arm {
        Infantry = "infantry",
        /// Mounted or dismounted cavalry (RULINGS C21 gives it the Ch16 10.3 bands).
        Cavalry = "cavalry",
        Artillery = "artillery",
        HorseArtillery = "horse_artillery",
        /// Brigadiers and other command stands.
        Leader = "leader",
    }
}

word_enum! {
    /// Which side of a melee a shock modifier helps or hurts (Ch16 7.3).
    pub enum MeleeSide {
        Attacker = "attacker",
        Defender = "defender",
        Either = "either",
        /// The unit when it charges or counter-charges (Reaction 5).
        Charging = "charging",
    }
}

word_enum! {
    /// The geometry a terrain kind is drawn with in a scenario.
    pub enum Shape {
        /// `polygon (x, y) ...`
        Area = "area",
        /// `line (x, y) ...`
        Line = "line",
        /// `at (x, y) size W x D`
        Building = "building",
    }
}

word_enum! {
    /// A column of the movement table (Ch16 3.1).
    pub enum MoveColumn {
        Open = "open",
        /// "Woods / Rough".
        Rough = "rough",
        /// "Road March".
        Road = "road",
    }
}

word_enum! {
    /// The cover classes of Ch16 5.4.
    pub enum CoverClass {
        None = "none",
        Light = "light",
        Heavy = "heavy",
    }
}

word_enum! {
    /// Who may garrison a structure (Ch16 4.3).
    pub enum Garrison {
        Infantry = "infantry",
        DismountedCavalry = "dismounted_cavalry",
        Cavalry = "cavalry",
        Artillery = "artillery",
    }
}

word_enum! {
    /// The state of a cavalry unit, battery or leader a movement row is for.
    pub enum MoveState {
        Mounted = "mounted",
        Dismounted = "dismounted",
        Limbered = "limbered",
        /// Unlimbered guns moved by hand.
        Prolonge = "prolonge",
    }
}

word_enum! {
    /// A unit of the pip price of formations and orders.
    pub enum PipUnit {
        Regiment = "regiment",
        Brigade = "brigade",
    }
}

word_enum! {
    /// Rounding of a halved pip roll (RULINGS G2: Timid rounds up).
    pub enum Rounding {
        Up = "up",
        Down = "down",
    }
}

word_enum! {
    /// What an order costs at a command tier (Ch16 2.2, RULINGS G8).
    pub enum OrderCost {
        Standard = "standard",
        Double = "double",
        /// The regiment cannot receive pips at all.
        Prohibited = "prohibited",
    }
}

impl OrderCost {
    /// The factor on an order's pip price, or None where no order can be given.
    pub fn factor(self) -> Option<u32> {
        match self {
            OrderCost::Standard => Some(1),
            OrderCost::Double => Some(2),
            OrderCost::Prohibited => None,
        }
    }
}

word_enum! {
    /// The Defensive Reactions of Ch16 6.0 that orders and traits refer to.
    pub enum Reaction {
        ClosingVolley = "closing_volley",
        OpportunityFire = "opportunity_fire",
        SkirmishEvade = "skirmish_evade",
        RefuseFlank = "refuse_flank",
        CounterCharge = "counter_charge",
    }
}

word_enum! {
    /// The category column of Ch16 9.0.
    pub enum TraitCategory {
        Shock = "shock",
        Morale = "morale",
        Elite = "elite",
        Firepower = "firepower",
    }
}

word_enum! {
    /// What forced a Discipline check, for modifiers that apply to some checks only.
    pub enum CheckCause {
        ClosingVolley = "closing_volley",
        Shock = "shock",
        PassageOfLines = "passage_of_lines",
        Any = "any",
    }
}

word_enum! {
    /// What a trait lets a unit roll again.
    pub enum RerollWhat {
        MissedDie = "missed_die",
        CoverSave = "cover_save",
    }
}

word_enum! {
    /// How often a once-only effect renews.
    pub enum Per {
        Turn = "turn",
        Volley = "volley",
    }
}

word_enum! {
    /// Conditions that modify the Discipline save against Shock (Ch16 5.5).
    pub enum SaveCondition {
        /// More than 75% of the starting stands.
        Fresh = "fresh",
        /// Less than 35% of the starting stands.
        Spent = "spent",
        /// In light or heavy cover.
        Cover = "cover",
        /// Fired on by a second unit this phase (RULINGS G9).
        Crossfire = "crossfire",
    }
}

word_enum! {
    /// What removes a smoke marker (RULE-05-5.4, RULINGS C17).
    pub enum SmokeClearing {
        ForwardMove = "forward_move",
        HoldFire = "hold_fire",
        BriskWind = "brisk_wind",
    }
}

// ------------------------------------------------------------------ schema

/// One key an entry kind takes.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct PropSpec {
    pub key: &'static str,
    /// The shape of the line, shown in help: `short to <inches> hits <target>`.
    pub usage: &'static str,
    /// One sentence for completions and hovers.
    pub doc: &'static str,
    pub required: bool,
    pub repeatable: bool,
}

const fn req(key: &'static str, usage: &'static str, doc: &'static str) -> PropSpec {
    PropSpec { key, usage, doc, required: true, repeatable: false }
}

const fn opt(key: &'static str, usage: &'static str, doc: &'static str) -> PropSpec {
    PropSpec { key, usage, doc, required: false, repeatable: false }
}

const fn many(key: &'static str, usage: &'static str, doc: &'static str) -> PropSpec {
    PropSpec { key, usage, doc, required: false, repeatable: true }
}

/// A property with no values: present means yes.
const fn flag(key: &'static str, doc: &'static str) -> PropSpec {
    PropSpec { key, usage: key, doc, required: false, repeatable: false }
}

/// Keys every kind takes.
pub const COMMON_PROPS: &[PropSpec] = &[
    opt(
        "source",
        "source \"Ch16 5.2\"",
        "Where the rulebook states this entry: section, RULE id or RULINGS id.",
    ),
    opt("note", "note \"<text>\"", "A short note in your own words, shown in hovers."),
];

const MELEE_USAGE: &str = "melee <+n|-n> attacker|defender|either|charging";
const COVER_USAGE: &str = "cover none | cover light|heavy <target>";

pub const WEAPON_PROPS: &[PropSpec] = &[
    req(
        "class",
        "class small_arm|carbine|shotgun|artillery",
        "What sort of weapon; a battery takes only artillery.",
    ),
    req(
        "dice",
        "dice <count> per stand|section",
        "Dice rolled per firing stand or gun section (RULE-05-2.1).",
    ),
    opt(
        "bonus_dice",
        "bonus_dice <+n> [per <count> stands]",
        "Extra dice per volley; `per 2 stands` adds one per two firing stands, rounded down (RULINGS G16).",
    ),
    opt("canister", "canister to <inches> hits <target>", "Artillery's first band (Ch16 5.3)."),
    opt("short", "short to <inches> hits <target>", "The first small-arms band (Ch16 5.2)."),
    opt("medium", "medium to <inches> hits <target>", "The middle band."),
    opt(
        "long",
        "long to <inches> hits <target>",
        "The farthest band; leave it out if the weapon cannot reach it.",
    ),
    many(
        "cavalry",
        "cavalry <band> to <inches> hits <target>",
        "Replaces a band when cavalry fire the weapon (RULINGS C21: Ch16 10.3 for cavalry).",
    ),
    opt("melee", MELEE_USAGE, "A melee shock modifier for units carrying it (Ch16 10.3 shotguns)."),
    opt(
        "structure_damage",
        "structure_damage <+n>",
        "Extra damage against stone structures and forts (Ch16 5.3 Parrott).",
    ),
    flag("canister_disorder", "Canister hits disorder the target with no save (Ch16 5.3 Napoleon)."),
    flag(
        "ignores_obstacle_light_cover",
        "Light cover from fences, hedges and crests gives no save (Ch16 5.3 howitzer).",
    ),
];

pub const TERRAIN_PROPS: &[PropSpec] = &[
    req(
        "shape",
        "shape area|line|building [, ...]",
        "The geometry scenarios give it; the first is the usual one.",
    ),
    req(
        "move",
        "move open|rough|road [<-n>] [max <inches>] | move impassable",
        "The movement column used inside it, a penalty in inches and a cap (Ch16 4.1, RULINGS C24).",
    ),
    req("cover", COVER_USAGE, "The cover save inside or behind it (Ch16 5.4)."),
    req("los", "los unlimited | los <inches>", "How far sight reaches into or through it (Ch16 4.1)."),
    opt(
        "melee",
        "melee none | melee <+n|-n> <side>",
        "Shock modifier for a unit fighting from it (Ch16 7.3, RULINGS C29).",
    ),
    opt("charge", "charge <-n>", "Change to the charge distance of a charge across it, in inches."),
    opt("structure", "structure <structure id>", "The building rules its garrisons follow."),
    flag("exit_full_turn", "Leaving it takes the unit's whole move (Ch16 4.1 sunken road)."),
    flag("conceals", "Hides formed units inside it."),
    flag("halts_charges", "A charge stops at its edge with no melee (RULINGS G10)."),
    flag("formed_disorder", "Formed units are disordered on entering (RULINGS G17)."),
    flag("skirmishers_free", "Skirmishers move through it without penalty."),
    flag("line_moves_freely", "A line of battle moves through it without disorder."),
    flag("crossings_only", "Crossable only at fords and bridges the scenario places."),
    flag("no_hasty_works", "Hasty works cannot be dug in it (Ch13 14.0)."),
];

pub const OBSTACLE_PROPS: &[PropSpec] = &[
    req(
        "cross",
        "cross <inches> [check <target>] | cross unlisted",
        "Inches lost crossing it and any Discipline check (Ch16 4.2, RULINGS C25).",
    ),
    req("cover", COVER_USAGE, "The cover save behind it (Ch16 5.4)."),
    opt(
        "melee",
        "melee none | melee <+n|-n> <side>",
        "Shock modifier it gives (Ch16 4.2, RULINGS C29, G17).",
    ),
    opt("dismantle_phases", "dismantle_phases <count>", "Phases a unit spends to pull a stretch down."),
    flag("conceals", "Gives visual concealment."),
    flag("cancels_momentum", "An attacker crossing it gets no charging momentum bonus."),
    flag("anchored_flank_immune", "A securely anchored line behind it cannot be shocked in the flank."),
    flag("formed_disorder", "Formed units are disordered crossing it."),
];

pub const STRUCTURE_PROPS: &[PropSpec] = &[
    req("capacity", "capacity <count>", "Stands that may garrison it (Ch16 4.3)."),
    opt("garrison", "garrison infantry|dismounted_cavalry|cavalry|artillery [, ...]", "Who may garrison it."),
    req("cover", COVER_USAGE, "The garrison's cover save."),
    opt("melee", "melee none | melee <+n|-n> <side>", "Shock modifier for the garrison."),
    opt("arc", "arc <degrees>", "The garrison's firing arc."),
    opt("dice", "dice <count> per stand", "Dice the garrison rolls per stand."),
    opt("damage", "damage <target>", "What a solid-shot hit rolls to damage it."),
    opt("collapse_at", "collapse_at <count>", "Damage at which it collapses."),
    opt("collapse_loss", "collapse_loss <count>", "Stands the garrison loses when it collapses."),
    opt("rubble", "rubble none | rubble light|heavy <target>", "The cover of its rubble once collapsed."),
    flag("flank_immune", "The garrison takes no flank melee penalties."),
    flag("no_hasty_works", "Hasty works cannot be built in it (Ch13 14.0)."),
];

pub const MOVEMENT_PROPS: &[PropSpec] = &[
    req("arm", "arm infantry|cavalry|artillery|horse_artillery|leader", "The arm the row is for."),
    opt("formation", "formation <formation id>", "The formation the row is for."),
    opt("state", "state mounted|dismounted|limbered|prolonge", "The state the row is for."),
    req("open", "open <inches>", "Rate in open ground (Ch16 3.1)."),
    req("rough", "rough <inches>", "Rate in woods or rough ground (Ch16 3.1, RULINGS C24)."),
    req("road", "road <inches>", "Rate along a road in march order (Ch16 3.1)."),
    req(
        "obstacle",
        "obstacle <-n> | obstacle free|impassable|unlisted",
        "Inches lost crossing a linear obstacle (Ch16 3.1, RULINGS C25).",
    ),
    req("charge", "charge <inches> | charge prohibited|none", "Charge distance (Ch16 3.1, 7.1)."),
    opt("minimum", "minimum <inches>", "The least an in-command unit may always move (Ch16 3.1)."),
    opt("limber", "limber half|all|<inches>", "Movement spent to limber or unlimber (Ch8 2.0, Ch16 10.4)."),
    flag("unlimber_and_fire", "May unlimber and fire in the same turn (Ch16 10.4, RULINGS C31)."),
];

pub const FORMATION_PROPS: &[PropSpec] = &[
    opt("module", "module <module name>", "The optional module (Ch13) that provides it."),
    opt("speed", "speed <inches> [to <inches>]", "Movement rate in the open, or a spread (Ch16 3.2)."),
    opt("rough_speed", "rough_speed <inches>", "Movement rate in woods or rough ground, where it differs."),
    req("fire", "fire all|none | fire front <count>", "Which stands may fire (Ch16 3.2)."),
    req("frontage", "frontage all|<count>", "Stands in the front rank; each stand is 1\" wide (Ch16 3.2)."),
    opt("stand_gap", "stand_gap <inches>", "Gap between stands in the rank."),
    many("melee", MELEE_USAGE, "Shock modifier for units in this formation (Ch16 7.3)."),
    many("save", "save <+n|-n> [vs artillery]", "Modifier to its cover saves (Ch16 3.2, 5.6, RULINGS C30)."),
    opt("cover", COVER_USAGE, "Cover it counts as having in the open (Ch16 5.6)."),
    opt("cover_bonus", "cover_bonus <+n>", "Improvement to every cover save (Ch13 22.0)."),
    opt("to_hit", "to_hit <+n|-n>", "Modifier to its own shooting."),
    opt(
        "charged",
        "charged melee|removed | charged overrun <count> fall_back <inches>",
        "What happens when a formed enemy charges it (RULINGS C23, G14).",
    ),
    many(
        "change",
        "change <formation id> half|all|<inches>",
        "Movement spent changing to another formation (Ch16 3.2).",
    ),
    many("pips", "pips <count> [per regiment|brigade]", "Pips to adopt it (Ch13 22.0)."),
    opt(
        "screen_ahead",
        "screen_ahead <inches> to <inches>",
        "How far ahead a skirmish screen stands (Ch16 3.4).",
    ),
    opt("screen_cost", "screen_cost half|all|<inches>", "Parent's movement spent detaching a screen."),
    opt("screen_to_hit", "screen_to_hit <+n|-n>", "Modifier to fire at the parent through its screen."),
    opt("screen_hits", "screen_hits <count>", "Hits that remove a screen."),
    opt(
        "screen_min_stands",
        "screen_min_stands <count>",
        "Least stands a regiment needs to detach a screen (Ch10 1.0).",
    ),
    flag("screen_recall_free", "Recalling the screen is free if the parent stood still."),
    flag("no_assault", "Cannot declare an assault."),
    flag("ignores_terrain_slowdown", "Terrain does not slow it beyond its own rates."),
    flag("ignores_terrain_disorder", "Never disordered by entering terrain."),
    flag("free_pivot", "Stands pivot in place at no cost."),
];

pub const RATING_PROPS: &[PropSpec] = &[
    req("pips", "pips d<sides> [<+n>] [halve up|down]", "The staff pip formula (Ch16 2.1, RULINGS G2)."),
    opt("range", "range <count> to <count>", "The pip spread the table prints; checked against the formula."),
    opt("bank", "bank <count>", "Unspent pips that carry over to the next turn (Ch16 2.1)."),
];

pub const TIER_PROPS: &[PropSpec] = &[
    req("level", "level <count>", "The tier number (Ch16 2.2)."),
    opt("within", "within <inches>", "Upper limit of the tier's distance band."),
    opt("beyond", "beyond <inches>", "For the last tier: everything past this distance."),
    req("order_cost", "order_cost standard|double|prohibited", "What special orders cost here (RULINGS G8)."),
    opt("discipline", "discipline <+n|-n>", "Modifier to Discipline checks at this distance."),
    flag("restricted_moves", "Free moves limited to an inertia advance or falling back."),
];

pub const ORDER_PROPS: &[PropSpec] = &[
    req("phase", "phase <n> [, <n>]", "The phase(s) the order is given in (Ch16 1.0, 2.3)."),
    opt("resolved_in", "resolved_in <n>", "The phase it takes effect in, if later (RULINGS C18)."),
    PropSpec {
        key: "pips",
        usage: "pips <count> [within <inches> | beyond <inches> | per regiment|brigade]",
        doc: "Its price in staff pips, by distance where it varies (Ch16 2.3).",
        required: true,
        repeatable: true,
    },
    opt("min_regiments", "min_regiments <count>", "Least regiments it must involve."),
    opt("max_regiments", "max_regiments <count>", "Most regiments it may involve."),
    opt("max_sections", "max_sections <count>", "Most artillery sections it may combine."),
    opt("adjacent_within", "adjacent_within <inches>", "Greatest lateral gap between the regiments."),
    opt("charge", "charge <inches>", "Charge distance."),
    opt("move_bonus", "move_bonus <inches>", "Extra movement it grants."),
    opt("target_save", "target_save <+n|-n>", "Modifier to the target's cover saves."),
    opt("removes_disorder", "removes_disorder <count>", "Disorder markers it removes with no roll."),
    opt("banks", "banks <count> [for <reaction>, ...]", "Pips reserved for reactions in the enemy turn."),
    opt("formations", "formations <formation id>, ...", "Formations it may be given to."),
    opt("max_wheel", "max_wheel <degrees>", "Largest wheel it allows."),
    opt(
        "interruption",
        "interruption <inches>",
        "Distance from the target at which the charge pauses for the Closing Volley (Ch16 7.2).",
    ),
    opt(
        "stall",
        "stall <inches>",
        "Distance from the target at which a charger that fails its check stops (Ch16 7.2, RULINGS G10).",
    ),
];

pub const QUALITY_PROPS: &[PropSpec] = &[
    req("discipline", "discipline <target>", "The Discipline check (Ch16 5.5, RULE-07-1.4)."),
    req("rally", "rally <target>", "The Natural Rally roll (Ch16 8.3, RULE-07-3.3)."),
    opt("traits", "traits <trait id>, ...", "Traits every unit of this quality has (RULINGS C28)."),
];

pub const TRAIT_PROPS: &[PropSpec] = &[
    req("category", "category shock|morale|elite|firepower", "The category column of Ch16 9.0."),
    many("melee", MELEE_USAGE, "Shock modifier (Ch16 7.3, 9.0)."),
    many(
        "discipline",
        "discipline <+n|-n> vs closing_volley|shock|passage_of_lines|any",
        "Modifier to some Discipline checks.",
    ),
    opt(
        "defender_check",
        "defender_check <target> for <quality id>, ... [unless <cover class>]",
        "A Discipline check the unit it charges must pass before melee or be disordered.",
    ),
    opt("first_fire_check", "first_fire_check <target>", "A Discipline check the first time fire hurts it."),
    flag("halts_on_fail", "Failing that check also halts the unit for the turn."),
    opt(
        "ignore_suppression",
        "ignore_suppression <count> per turn|volley",
        "Natural-6 Shock results it ignores.",
    ),
    opt("rally", "rally <target>", "Its Natural Rally roll, replacing the quality's."),
    many(
        "reroll",
        "reroll <count> missed_die|cover_save [at <band>] [per turn|volley]",
        "Dice it may roll again (RULINGS C27).",
    ),
    many("hits", "hits <band> <target>", "Its to-hit number in a band, replacing the weapon's."),
    opt("bonus_dice", "bonus_dice <+n> within <inches>", "Extra dice at close range."),
    opt("max_range", "max_range <inches>", "It cannot fire beyond this."),
    flag("free_screen", "Detaches a skirmish screen without spending movement."),
];

pub const MARKER_PROPS: &[PropSpec] = &[
    opt("module", "module <module name>", "The optional module that uses it (Ch16 11.0)."),
    opt("applies_to", "applies_to <arm>, ...", "The arms that receive it."),
    opt("max", "max <count>", "Most of these a unit may carry."),
    opt("excess", "excess <marker id>", "What one more beyond the maximum becomes (RULE-07-3.4)."),
    many(
        "to_hit",
        "to_hit <+n|-n> [beyond <inches>]",
        "Modifier to shooting, optionally only beyond a range.",
    ),
    opt("move", "move <+n|-n>", "Change to movement, in inches."),
    opt("melee", MELEE_USAGE, "Shock modifier."),
    many(
        "shock_trigger",
        "shock_trigger <count> within|beyond <inches>",
        "Natural 6s that force a Shock save (Ch16 5.5).",
    ),
    many(
        "discipline_mod",
        "discipline_mod fresh|spent|cover|crossfire <+n|-n>",
        "Modifier to the Discipline save against Shock (Ch16 5.5).",
    ),
    opt(
        "smoke_wall",
        "smoke_wall <count> beyond <inches>",
        "Regiments whose smoke merges into a wall, and its sight limit.",
    ),
    opt("removed_by", "removed_by forward_move|hold_fire|brisk_wind, ...", "What clears it (RULINGS C17)."),
    opt("trigger_ones", "trigger_ones <count>", "Natural 1s in one volley that give it (RULINGS C14)."),
    opt("hits_per_stand", "hits_per_stand <count>", "Unsaved hits that make one lost stand (Ch16 5.4)."),
    flag("no_assault", "The unit cannot declare an assault."),
    flag("no_double_time", "The unit cannot double-time."),
    flag("first_volley_only", "It applies to the unit's first volley only, then goes."),
];

pub const HEALTH_PROPS: &[PropSpec] = &[
    opt(
        "above",
        "above <percent>",
        "The state holds while more than this percentage of the starting stands is left (Ch16 8.1).",
    ),
    opt(
        "below",
        "below <percent>",
        "The state holds once less than this percentage of the starting stands is left (Ch16 8.1).",
    ),
    opt(
        "at_most",
        "at_most <count>",
        "The state holds once this many stands or fewer are left (Ch16 8.1 table, RULINGS C4).",
    ),
    opt("melee", MELEE_USAGE, "Shock modifier for a unit in this state (Ch16 7.3, 8.1); none if left out."),
    flag(
        "assault_needs_brigadier",
        "The unit may declare an assault only with its brigadier attached (Ch16 7.1, RULE-07-4.2).",
    ),
    flag(
        "tests_under_fire",
        "The unit takes a Discipline check whenever it is fired on (RULE-07-1.4, RULINGS G9).",
    ),
    flag("removed", "The unit is taken off the table at once (Ch16 5.4, 8.1)."),
];

pub const BRIGADE_STATE_PROPS: &[PropSpec] = &[
    req(
        "losses",
        "losses <percent>",
        "Share of the brigade's starting stands lost that brings this state (Ch16 8.2, RULE-07-2.3, 2.4).",
    ),
    many(
        "table",
        "table <starting stands> <stands lost>",
        "A row of the Ch16 8.2 reference table: a brigade of that size is in this state at that loss (RULINGS G6).",
    ),
    opt("to_hit", "to_hit <+n|-n>", "Modifier to its units' Phase 3 shooting (RULE-07-2.3, RULINGS C13)."),
    opt("discipline", "discipline <+n|-n>", "Modifier to every Discipline check of its units."),
    flag("no_assault", "Its units cannot declare an assault."),
    flag("no_double_time", "Its units cannot double-time."),
    flag("disorders_all", "Every unit of the brigade takes a Disorder marker on entering the state."),
    flag("forfeits_pips", "The brigadier loses every unspent pip on entering the state (RULE-07-2.4)."),
    opt(
        "retreat",
        "retreat <inches>",
        "Inches every unit must fall back toward its own table edge each turn (RULINGS G14).",
    ),
    flag("no_fire", "Its units cannot shoot."),
    flag("no_rally", "Its units cannot rally."),
    flag("routs_when_charged", "A unit of it that is charged routs and is removed (RULINGS G14)."),
];

pub const LEADER_RESULT_PROPS: &[PropSpec] = &[
    req(
        "roll",
        "roll <1-6> [to <1-6>]",
        "The d6 roll, or the run of rolls, that gives this result (Ch16 2.4).",
    ),
    opt(
        "pips",
        "pips <+n|-n>",
        "Change to the brigadier's pips on every later turn; light wounds add up (RULINGS G18).",
    ),
    flag("removed", "The leader's stand is taken off the table."),
    opt(
        "replacement",
        "replacement <rating id>",
        "The rating of the colonel who takes over the brigade (RULINGS C9, G18).",
    ),
    flag("permanent", "The loss is for good: the replacement keeps that rating to the end."),
    flag("disorders_unit", "The regiment the leader was with takes a Disorder marker."),
    flag("loses_unspent_pips", "The brigade loses its unspent pips this turn."),
];

pub const MELEE_RESULT_PROPS: &[PropSpec] = &[
    flag("cavalry", "The outcome of a melee between two cavalry units (Ch16 10.1)."),
    opt("margin", "margin <count>", "The least winning margin the outcome needs (Ch16 7.4)."),
    flag("fresh_only", "Only a Fresh unit gets it (Ch16 7.4, 8.1)."),
    flag("enemy_removed", "Only once the beaten enemy is routed or destroyed (RULINGS G14)."),
    opt("stands", "stands <count>", "Stands the unit loses."),
    opt("micro_hits", "micro_hits <count>", "Micro-hits the unit takes (RULE-05-3.3)."),
    flag("disorder", "The unit takes a Disorder marker; a second becomes a micro-hit (RULINGS C1)."),
    opt("retreat", "retreat <inches>", "Inches the unit falls back, straight to its rear."),
    flag("locked", "Both units stay in contact."),
    opt(
        "consolidate",
        "consolidate <inches>",
        "A free move of up to this many inches: advance, pivot up to 45 degrees or dress ranks.",
    ),
    opt("pips", "pips <count>", "Extra staff pips it costs."),
    opt("sweep", "sweep <inches>", "A sweeping advance of this many inches against another enemy unit."),
];

pub const MODIFIER_PROPS: &[PropSpec] = &[
    opt("to_hit", "to_hit <+n|-n>", "Modifier to the shooting it applies to (Ch16 5.6)."),
    opt("melee", MELEE_USAGE, "Shock modifier for the side the word names (Ch16 7.3)."),
    opt(
        "opponent_melee",
        "opponent_melee <+n|-n>",
        "Shock modifier for the other side of the same melee (Ch16 10.1).",
    ),
    opt("discipline", "discipline <+n|-n>", "Modifier to Discipline checks (Ch16 2.4)."),
    opt(
        "run",
        "run <inches>",
        "Open ground the charge must cross at its end for the modifier to apply (RULINGS G10).",
    ),
    opt(
        "engaged",
        "engaged <count>",
        "The engaged stands the unit counts as in melee, whatever its size (RULINGS G3).",
    ),
];

// ------------------------------------------------------------------ typed entries

/// What every entry has besides its kind's own values.
#[derive(Clone, Debug, Serialize)]
pub struct EntryMeta {
    pub kind: EntryKind,
    pub id: String,
    /// The display name: `"Rifled Musket (Springfield / Enfield)"`.
    pub name: Option<String>,
    /// The whole entry.
    pub span: Span,
    /// The entry's id, where "go to definition" lands.
    pub id_span: Span,
    /// Where the rulebook states it: `Ch16 5.2`.
    pub source: Option<String>,
    pub note: Option<String>,
    /// One paragraph for hovers: name, the numbers, the note and the source.
    pub summary: String,
}

impl EntryMeta {
    /// The display name, or the id when there is none.
    pub fn title(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.id)
    }
}

/// A melee shock modifier and the side it applies to (Ch16 7.3).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MeleeModifier {
    pub value: i32,
    pub side: MeleeSide,
}

/// A cover class and its save (Ch16 5.4: light 5+, heavy 4+).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Cover {
    pub class: CoverClass,
    /// The die target of the save; None for no cover.
    pub save: Option<u32>,
}

impl Cover {
    pub const NONE: Cover = Cover { class: CoverClass::None, save: None };
}

/// Movement spent on something: half the unit's move, all of it, or a fixed distance.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cost {
    Half,
    All,
    Inches(f64),
}

/// `dice 2 per section`
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct DicePool {
    pub dice: u32,
    pub per: DicePer,
}

/// Extra dice added to a volley.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BonusDice {
    /// `bonus_dice +2`: repeaters (Ch16 5.2, 10.3).
    Flat { dice: u32 },
    /// `bonus_dice +1 per 2 stands`: breechloaders, rounded down (RULINGS G16).
    PerStands { dice: u32, stands: u32 },
}

/// One range band: hits on `hits`+ at ranges above `from` up to and including `to`
/// (RULINGS G4; the first band also covers 0).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Band {
    pub name: BandName,
    pub from: f64,
    pub to: f64,
    pub hits: u32,
}

impl Band {
    pub fn covers(&self, distance: f64) -> bool {
        (distance > self.from || (self.from == 0.0 && distance >= 0.0)) && distance <= self.to
    }
}

/// A small arm or artillery piece: Ch16 5.2 (infantry), 5.3 (artillery), 10.3 (cavalry).
#[derive(Clone, Debug, Serialize)]
pub struct Weapon {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub class: WeaponClass,
    /// 1D6 per stand (Ch16 5.2) or 2D6 per section (Ch16 5.3).
    pub dice: DicePool,
    /// Repeaters and breechloaders (Ch16 5.2, 10.3, RULINGS G16).
    pub bonus_dice: Option<BonusDice>,
    /// The bands nearest first; no band past the last `to` ("out of range").
    pub bands: Vec<Band>,
    /// Bands that replace the same-named band when cavalry fire it (RULINGS C21).
    pub cavalry_bands: Vec<Band>,
    /// Shotguns and revolvers: +1 melee shock (Ch16 10.3).
    pub melee: Option<MeleeModifier>,
    /// Extra structure damage per hit (Ch16 5.3 Parrott: +1 vs stone).
    pub structure_damage: i32,
    /// Canister hits disorder the target with no save (Ch16 5.3 Napoleon; RULINGS G9: Iron
    /// Discipline does not stop it).
    pub canister_disorder: bool,
    /// Light cover from fences, hedges and crests gives no save (Ch16 5.3 howitzer).
    pub ignores_obstacle_light_cover: bool,
}

impl Weapon {
    /// The bands a unit of this arm uses: the cavalry lines replace bands for cavalry
    /// (RULINGS C21), every other arm uses the base bands.
    pub fn bands_for(&self, arm: Arm) -> Vec<Band> {
        if arm != Arm::Cavalry || self.cavalry_bands.is_empty() {
            return self.bands.clone();
        }
        let merged = self
            .bands
            .iter()
            .map(|b| *self.cavalry_bands.iter().find(|c| c.name == b.name).unwrap_or(b))
            .collect();
        with_lower_bounds(merged)
    }

    /// The band a target at `distance` inches falls in, or None if out of range.
    pub fn band_at(&self, arm: Arm, distance: f64) -> Option<Band> {
        self.bands_for(arm).into_iter().find(|b| b.covers(distance))
    }

    /// The farthest range it can fire at.
    pub fn max_range(&self, arm: Arm) -> f64 {
        self.bands_for(arm).last().map_or(0.0, |b| b.to)
    }

    /// Dice in a volley by `firing` stands or sections, bonus dice included (RULINGS G16:
    /// a breechloader's bonus is floor(stands / 2)).
    pub fn pool(&self, firing: u32) -> u32 {
        let base = self.dice.dice * firing;
        let bonus = match self.bonus_dice {
            None => 0,
            Some(BonusDice::Flat { dice }) => dice,
            Some(BonusDice::PerStands { dice, stands }) => dice * (firing / stands.max(1)),
        };
        base + bonus
    }
}

/// Movement inside a terrain kind (Ch16 4.1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TerrainMove {
    /// Move at the unit's `column` rate, plus `penalty` (0 or negative), at most `cap`.
    Passable {
        column: MoveColumn,
        penalty: f64,
        cap: Option<f64>,
    },
    Impassable,
}

/// How far sight reaches into or through a terrain kind (Ch16 4.1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SightLimit {
    Unlimited,
    /// Blocked beyond this many inches into it.
    Inches(f64),
}

/// An area or line terrain kind: Ch16 4.1, plus the road, marsh and town kinds scenarios draw.
#[derive(Clone, Debug, Serialize)]
pub struct TerrainKind {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub shapes: Vec<Shape>,
    /// The "Movement Impact" column; RULINGS C24 takes the slower of rate and cap.
    pub movement: TerrainMove,
    /// Sunken road: "Full Turn to Exit".
    pub exit_full_turn: bool,
    /// The "Cover Save" column (Ch16 5.4; RULINGS G17: cover does not stack).
    pub cover: Cover,
    /// The "LOS Distance Limit" column.
    pub los: SightLimit,
    /// Sunken road +2 defender (Ch16 4.1, 7.3; RULINGS C29: only where the table gives one).
    pub melee: Option<MeleeModifier>,
    /// Ploughed field: -1" to charge distance.
    pub charge_penalty: f64,
    /// The structure rules a garrison of this kind follows (town blocks).
    pub structure: Option<String>,
    pub conceals: bool,
    /// Minor stream: the charge stops at the bank with no melee (RULINGS G10).
    pub halts_charges: bool,
    /// Dense woods: every formed formation is disordered entering (RULINGS G17).
    pub formed_disorder: bool,
    pub skirmishers_free: bool,
    pub line_moves_freely: bool,
    /// Major river: fords and bridges only.
    pub crossings_only: bool,
    /// Ch13 14.0: no hasty works in watercourses or buildings.
    pub no_hasty_works: bool,
}

impl TerrainKind {
    /// How far a unit moving by `row` gets inside this terrain, or None if it cannot enter.
    /// The penalty comes off the column's rate and the cap applies last (RULINGS C24). The
    /// Minimum Guaranteed Move (`row.minimum`) is the caller's to apply: it depends on command.
    pub fn move_rate(&self, row: &MovementRate) -> Option<f64> {
        match self.movement {
            TerrainMove::Impassable => None,
            TerrainMove::Passable { column, penalty, cap } => {
                let rate = (row.rate(column) + penalty).max(0.0);
                Some(cap.map_or(rate, |cap| rate.min(cap)))
            }
        }
    }
}

/// Crossing a linear obstacle (Ch16 4.2).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Crossing {
    /// `cross 2 check 4+`: inches lost, and a Discipline check that disorders on failure.
    Inches { cost: f64, check: Option<u32> },
    /// The table gives no figure ("—"): only the formation's own cost applies.
    Unlisted,
}

/// A linear obstacle (Ch16 4.2).
#[derive(Clone, Debug, Serialize)]
pub struct Obstacle {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub crossing: Crossing,
    pub cover: Cover,
    /// RULINGS C29 (hedge: none), G17 (abatis -2 to the attacker).
    pub melee: Option<MeleeModifier>,
    pub dismantle_phases: Option<u32>,
    pub conceals: bool,
    pub cancels_momentum: bool,
    pub anchored_flank_immune: bool,
    pub formed_disorder: bool,
}

impl Obstacle {
    /// Inches a unit moving by `row` loses crossing it, or None if it cannot cross. RULINGS
    /// C25: the higher of the row's figure and the obstacle's own; a row marked `free` crosses
    /// at no cost; where one side is unlisted, the other decides.
    pub fn crossing_cost(&self, row: &MovementRate) -> Option<f64> {
        let own = match self.crossing {
            Crossing::Inches { cost, .. } => Some(cost),
            Crossing::Unlisted => None,
        };
        match row.obstacle {
            ObstacleCost::Impassable => None,
            ObstacleCost::Free => Some(0.0),
            ObstacleCost::Unlisted => Some(own.unwrap_or(0.0)),
            ObstacleCost::Penalty(p) => Some(own.map_or(p.abs(), |own| own.max(p.abs()))),
        }
    }
}

/// A building (Ch16 4.3).
#[derive(Clone, Debug, Serialize)]
pub struct Structure {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// Stands it holds.
    pub capacity: u32,
    pub garrison: Vec<Garrison>,
    pub cover: Cover,
    pub melee: Option<MeleeModifier>,
    pub flank_immune: bool,
    /// Firing arc in degrees (360: all round).
    pub arc: Option<u32>,
    pub dice: Option<DicePool>,
    /// A solid-shot hit damages it on this roll.
    pub damage: Option<u32>,
    pub collapse_at: Option<u32>,
    pub collapse_loss: Option<u32>,
    /// The cover its rubble gives once collapsed.
    pub rubble: Option<Cover>,
    pub no_hasty_works: bool,
}

/// The "Obstacle Crossing" column of Ch16 3.1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ObstacleCost {
    /// Inches lost, written negative: -2.
    Penalty(f64),
    Free,
    Impassable,
    /// A dash in the table: the obstacle's own cost applies alone.
    Unlisted,
}

/// The "Charge Speed" column of Ch16 3.1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Charge {
    Inches(f64),
    Prohibited,
    /// A dash in the table: the row has no charge at all (leaders).
    NotApplicable,
}

/// One row of Ch16 3.1 (and Ch16 10.4 for horse artillery by hand).
#[derive(Clone, Debug, Serialize)]
pub struct MovementRate {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub arm: Arm,
    pub formation: Option<String>,
    pub state: Option<MoveState>,
    pub open: f64,
    pub rough: f64,
    pub road: f64,
    pub obstacle: ObstacleCost,
    pub charge: Charge,
    /// Minimum Guaranteed Move for formed units in command (Ch16 3.1).
    pub minimum: Option<f64>,
    /// Movement spent to limber or unlimber (Ch8 2.0: all; Ch16 10.4: 4").
    pub limber: Option<Cost>,
    /// Horse artillery may unlimber and fire in one turn (Ch16 10.4, RULINGS C31).
    pub unlimber_and_fire: bool,
}

impl MovementRate {
    pub fn rate(&self, column: MoveColumn) -> f64 {
        match column {
            MoveColumn::Open => self.open,
            MoveColumn::Rough => self.rough,
            MoveColumn::Road => self.road,
        }
    }
}

/// Which stands of a formation fire (Ch16 3.2 "Firepower Capacity").
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Firepower {
    All,
    Front(u32),
    None,
}

/// Stands in the front rank (Ch16 3.2 "Tabletop Frontage"; each stand 1" wide).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Frontage {
    All,
    Stands(u32),
}

/// A cover-save modifier of a formation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SaveModifier {
    pub value: i32,
    /// Only against artillery (Ch16 3.2 assault column; RULINGS C30: all artillery).
    pub artillery_only: bool,
}

/// What happens when a formed enemy charges the formation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WhenCharged {
    /// An ordinary melee.
    Melee,
    /// Destroyed outright (road column, RULINGS C23).
    Removed,
    /// No melee: loses stands, is disordered and falls back (open order, RULINGS G14).
    Overrun { stands: u32, fall_back: f64 },
}

/// `change line half`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FormationChange {
    pub to: String,
    pub cost: Cost,
}

/// When a pip price applies.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PipCondition {
    Always,
    /// The target is within this many inches of the brigadier.
    Within(f64),
    Beyond(f64),
    Per(PipUnit),
}

/// `pips 2 beyond 12`
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PipCost {
    pub pips: u32,
    pub condition: PipCondition,
}

/// A skirmish screen (Ch16 3.4).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Screen {
    /// Placed this far ahead of the parent, least and most.
    pub ahead: (f64, f64),
    pub cost: Option<Cost>,
    /// Modifier to fire at the parent through the screen.
    pub to_hit: Option<i32>,
    /// Hits that remove it.
    pub hits: Option<u32>,
    pub min_stands: Option<u32>,
    pub recall_free: bool,
}

/// A formation (Ch16 3.2; open order Ch13 22.0).
#[derive(Clone, Debug, Serialize)]
pub struct Formation {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub module: Option<String>,
    /// Ch16 3.2 "Speed"; None where the rulebook gives none (skirmish order).
    pub speed: Option<f64>,
    /// The upper end of a spread ("10-12"" for road column).
    pub speed_max: Option<f64>,
    pub rough_speed: Option<f64>,
    pub fire: Firepower,
    pub frontage: Frontage,
    /// Gap between stands in inches (open order 1").
    pub stand_gap: f64,
    pub melee: Vec<MeleeModifier>,
    pub saves: Vec<SaveModifier>,
    /// Cover it counts as having in the open (skirmish order, Ch16 5.6).
    pub cover: Option<Cover>,
    /// Open order +1 (Ch13 22.0; RULINGS G17: the only improvement).
    pub cover_bonus: i32,
    pub to_hit: i32,
    pub charged: WhenCharged,
    pub changes: Vec<FormationChange>,
    pub pips: Vec<PipCost>,
    pub screen: Option<Screen>,
    pub no_assault: bool,
    pub ignores_terrain_slowdown: bool,
    pub ignores_terrain_disorder: bool,
    pub free_pivot: bool,
}

impl Formation {
    /// Stands across the front rank: None for all of them.
    pub fn frontage_stands(&self) -> Option<u32> {
        match self.frontage {
            Frontage::All => None,
            Frontage::Stands(n) => Some(n),
        }
    }

    /// Gap between stands in a rank, inches.
    pub fn gap_inches(&self) -> f64 {
        self.stand_gap
    }

    /// Stands that fire out of `stands`.
    pub fn firing_stands(&self, stands: u32) -> u32 {
        match self.fire {
            Firepower::All => stands,
            Firepower::Front(n) => n.min(stands),
            Firepower::None => 0,
        }
    }

    /// The movement cost of changing to formation `to`, if the rules price it.
    pub fn change_cost(&self, to: &str) -> Option<Cost> {
        self.changes.iter().find(|c| c.to == to).map(|c| c.cost)
    }
}

/// A brigadier rating (Ch16 2.1).
#[derive(Clone, Debug, Serialize)]
pub struct Rating {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// The die rolled: 3 for a d3 (RULINGS G2 reads it off a d6).
    pub die: u32,
    pub bonus: i32,
    /// Timid halves, rounding up (Ch16 2.1, RULINGS G2).
    pub halve: Option<Rounding>,
    /// The spread the table prints.
    pub range: Option<(u32, u32)>,
    /// Unspent pips carried to the next turn (Ch16 2.1 Pip Hoarding).
    pub bank: Option<u32>,
}

impl Rating {
    /// Pips for a roll of the rating's die; never below 0 (RULINGS G2).
    pub fn pips(&self, roll: u32) -> u32 {
        let value = (roll as i64 + self.bonus as i64).max(0);
        let value = match self.halve {
            None => value,
            Some(Rounding::Up) => (value + 1) / 2,
            Some(Rounding::Down) => value / 2,
        };
        value as u32
    }

    /// The least and most pips the formula gives.
    pub fn pip_range(&self) -> (u32, u32) {
        (self.pips(1), self.pips(self.die.max(1)))
    }
}

/// The distance band of a command tier.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reach {
    /// Up to and including this many inches (above the previous tier's limit).
    Within(f64),
    /// Everything past this many inches.
    Beyond(f64),
}

/// A command radius tier (Ch16 2.2).
#[derive(Clone, Debug, Serialize)]
pub struct Tier {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub level: u32,
    pub reach: Reach,
    /// RULINGS G8: tier 3 doubles every order; RULINGS C10: tier 4 takes no pips.
    pub order_cost: OrderCost,
    pub discipline: i32,
    /// Free moves limited to an inertia advance or falling back (RULINGS G8).
    pub restricted_moves: bool,
}

/// `banks 1 for refuse_flank, counter_charge`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Banks {
    pub pips: u32,
    pub reactions: Vec<Reaction>,
}

/// A special order or free maneuver (Ch16 2.3).
#[derive(Clone, Debug, Serialize)]
pub struct Order {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub phases: Vec<u32>,
    /// RULINGS C18: concentrated battery fire is paid in Phase 1, resolved in Phase 3.
    pub resolved_in: Option<u32>,
    pub pips: Vec<PipCost>,
    pub min_regiments: Option<u32>,
    pub max_regiments: Option<u32>,
    pub max_sections: Option<u32>,
    pub adjacent_within: Option<f64>,
    pub charge: Option<f64>,
    pub move_bonus: Option<f64>,
    pub target_save: i32,
    pub removes_disorder: u32,
    pub banks: Option<Banks>,
    pub formations: Vec<String>,
    pub max_wheel: Option<u32>,
    /// Ch16 7.2: the charge pauses this far from the target for the Closing Volley.
    pub interruption: Option<f64>,
    /// Ch16 7.2, RULINGS G10: a charger failing its check is placed this far from the target.
    pub stall: Option<f64>,
}

impl Order {
    /// Its pip price at tiers 1-2 for a unit `distance` inches from the brigadier (the first
    /// matching line; a line with no condition always matches).
    pub fn pip_cost(&self, distance: f64) -> Option<u32> {
        self.pips
            .iter()
            .find(|p| match p.condition {
                PipCondition::Always | PipCondition::Per(_) => true,
                PipCondition::Within(d) => distance <= d,
                PipCondition::Beyond(d) => distance > d,
            })
            .map(|p| p.pips)
    }
}

/// A troop quality (Ch16 5.5, 8.3).
#[derive(Clone, Debug, Serialize)]
pub struct Quality {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// Discipline check target (Ch16 5.5, RULE-07-1.4; RULINGS C8: also Passage of Lines).
    pub discipline: u32,
    /// Natural Rally target (Ch16 8.3, RULE-07-3.3).
    pub rally: u32,
    /// Traits every unit of the quality has (RULINGS C28: Green has Seen the Elephant).
    pub traits: Vec<String>,
}

/// `discipline +1 vs closing_volley`
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct DisciplineModifier {
    pub value: i32,
    pub cause: CheckCause,
}

/// Rebel Yell's test of the defender (Ch16 9.0).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DefenderCheck {
    pub target: u32,
    /// Qualities that must test.
    pub qualities: Vec<String>,
    /// Defenders in cover of this class are exempt.
    pub unless: Option<CoverClass>,
}

/// `reroll 1 missed_die at medium per volley`
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Reroll {
    pub count: u32,
    pub what: RerollWhat,
    pub band: Option<BandName>,
    pub per: Option<Per>,
}

/// `hits short 3+`
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BandHits {
    pub band: BandName,
    pub hits: u32,
}

/// `bonus_dice +1 within 3`
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CloseBonusDice {
    pub dice: u32,
    pub within: f64,
}

/// `ignore_suppression 1 per turn`
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Allowance {
    pub count: u32,
    pub per: Per,
}

/// A historical army trait (Ch16 9.0).
#[derive(Clone, Debug, Serialize)]
pub struct Trait {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub category: TraitCategory,
    pub melee: Vec<MeleeModifier>,
    pub discipline: Vec<DisciplineModifier>,
    pub defender_check: Option<DefenderCheck>,
    /// Seen the Elephant (RULINGS G9: a separate roll from any Shock save).
    pub first_fire_check: Option<u32>,
    pub halts_on_fail: bool,
    /// Iron Discipline (RULINGS G9: does not stop canister disorder).
    pub ignore_suppression: Option<Allowance>,
    pub rally: Option<u32>,
    /// Steady: cover saves only (RULINGS C27).
    pub rerolls: Vec<Reroll>,
    pub hits: Vec<BandHits>,
    pub bonus_dice: Option<CloseBonusDice>,
    pub max_range: Option<f64>,
    pub free_screen: bool,
}

/// `to_hit -1 beyond 6`
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ToHitModifier {
    pub value: i32,
    /// Applies only to fire at longer range than this (gunsmoke: 6").
    pub beyond: Option<f64>,
}

/// `shock_trigger 2 beyond 6`: natural 6s needed in one volley (Ch16 5.5, RULINGS C3).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ShockTrigger {
    pub sixes: u32,
    pub reach: Reach,
}

/// `discipline_mod fresh +1`
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SaveConditionModifier {
    pub condition: SaveCondition,
    pub value: i32,
}

/// `smoke_wall 3 beyond 8` (RULE-05-5.5, RULINGS C32).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SmokeWall {
    pub regiments: u32,
    pub beyond: f64,
}

/// A marker a unit can carry.
#[derive(Clone, Debug, Serialize)]
pub struct Marker {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub module: Option<String>,
    pub applies_to: Vec<Arm>,
    pub max: Option<u32>,
    /// A second Disorder becomes a micro-hit (RULE-07-3.4).
    pub excess: Option<String>,
    pub to_hit: Vec<ToHitModifier>,
    /// Inches added to movement (Disorder -2, RULE-05-4.4, RULINGS C6).
    pub move_penalty: f64,
    pub melee: Option<MeleeModifier>,
    pub no_assault: bool,
    pub no_double_time: bool,
    pub shock_triggers: Vec<ShockTrigger>,
    pub discipline_mods: Vec<SaveConditionModifier>,
    pub smoke_wall: Option<SmokeWall>,
    pub removed_by: Vec<SmokeClearing>,
    /// Low Ammo: natural 1s in one volley (RULINGS C14).
    pub trigger_ones: Option<u32>,
    pub hits_per_stand: Option<u32>,
    pub first_volley_only: bool,
}

impl Marker {
    /// Natural 6s that trigger Shock at `distance` (Ch16 5.5, RULINGS C3).
    pub fn sixes_for_shock(&self, distance: f64) -> Option<u32> {
        self.shock_triggers
            .iter()
            .find(|t| match t.reach {
                Reach::Within(d) => distance <= d,
                Reach::Beyond(d) => distance > d,
            })
            .map(|t| t.sixes)
    }
}

/// A regimental health state (Ch16 8.1, RULE-07-1.2). The bounds are read as RULINGS C4 says
/// (the `health_states` switch): the stand counts first, then the percentages; a state with no
/// bound of its own (Worn) is the one left over. Bounds overlap: Spent's `at_most 2` also holds
/// at 1 stand, where Shattered's `at_most 1` is the tighter and wins.
#[derive(Clone, Debug, Serialize)]
pub struct Health {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// Holds while the stands left are strictly more than this % of the starting stands.
    pub above_percent: Option<u32>,
    /// Holds while the stands left are strictly less than this % of the starting stands.
    pub below_percent: Option<u32>,
    /// Holds with this many stands left or fewer (the Ch16 8.1 stand count table).
    pub at_most_stands: Option<u32>,
    /// Fresh +1, Spent -1 (Ch16 7.3, 8.1); None for no modifier.
    pub melee: Option<MeleeModifier>,
    /// Spent: assaults only with the brigadier attached (Ch16 7.1, RULE-07-4.2).
    pub assault_needs_brigadier: bool,
    /// Spent: a Discipline check each time it is fired on (RULE-07-1.4, RULINGS G9).
    pub tests_under_fire: bool,
    /// Shattered: removed at once (Ch16 5.4, 8.1).
    pub removed: bool,
}

impl Health {
    /// Whether `left` stands out of `starting` meet this state's percentage bounds. Exact (no
    /// rounding): 3 of 4 stands is 75%, not above 75%. False for a state with no percentage.
    pub fn by_percentage(&self, left: u32, starting: u32) -> bool {
        if self.above_percent.is_none() && self.below_percent.is_none() {
            return false;
        }
        let share = u64::from(left) * 100;
        let of = |percent: u32| u64::from(percent) * u64::from(starting);
        self.above_percent.is_none_or(|p| share > of(p)) && self.below_percent.is_none_or(|p| share < of(p))
    }

    /// Whether `left` stands meet this state's stand count (`at_most`). False for a state
    /// without one.
    pub fn by_stand_count(&self, left: u32) -> bool {
        self.at_most_stands.is_some_and(|n| left <= n)
    }
}

/// A state of the brigade faltering clock (Ch16 8.2, RULE-07-2.3, 2.4). When the clock moves is
/// RULINGS C12's `faltering_timing`; how the percentage is rounded, or whether the table rows
/// decide, is RULINGS G6's `brigade_thresholds`.
#[derive(Clone, Debug, Serialize)]
pub struct BrigadeState {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// Losses, as a % of the brigade's starting stands, that bring the state.
    pub losses_percent: u32,
    /// Rows of the Ch16 8.2 reference table: (starting stands, stands lost), in file order.
    pub table: Vec<(u32, u32)>,
    /// Hesitant -1 to hit, Phase 3 shooting only (RULE-07-2.3, RULINGS C13).
    pub to_hit: i32,
    pub discipline: i32,
    pub no_assault: bool,
    pub no_double_time: bool,
    /// Broken: every unit takes a Disorder marker on entering it (RULE-07-2.4).
    pub disorders_all: bool,
    /// Broken: the brigadier's unspent pips are lost (RULE-07-2.4).
    pub forfeits_pips: bool,
    pub no_fire: bool,
    pub no_rally: bool,
    /// Broken: a charged unit routs and is removed (RULINGS G14).
    pub routs_when_charged: bool,
    /// Broken: inches of retreat toward the friendly edge each turn (RULINGS G14: a flat 6").
    pub retreat: Option<f64>,
}

impl BrigadeState {
    /// The stands lost at which a brigade of `starting` stands enters this state, by the Ch16 8.2
    /// table; None for a size the table does not list.
    pub fn table_losses(&self, starting: u32) -> Option<u32> {
        self.table.iter().find(|(stands, _)| *stands == starting).map(|(_, lost)| *lost)
    }
}

/// A row of the leader casualty table (Ch16 2.4; RULINGS C9 takes it over Ch7 4.0).
#[derive(Clone, Debug, Serialize)]
pub struct LeaderResult {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// The d6 rolls that give it, least and most (both included); (0, 0) if unreadable.
    pub rolls: (u32, u32),
    /// Change to the brigadier's pips on every later turn (RULINGS G18: wounds add up).
    pub pips: i32,
    pub removed: bool,
    pub disorders_unit: bool,
    pub loses_unspent_pips: bool,
    /// The replacement keeps its rating for good.
    pub permanent: bool,
    /// The rating id of the colonel who takes over (RULINGS G18: next Phase 1).
    pub replacement: Option<String>,
}

impl LeaderResult {
    /// Whether a d6 roll of `roll` gives this result.
    pub fn covers(&self, roll: u32) -> bool {
        (self.rolls.0..=self.rolls.1).contains(&roll) && roll > 0
    }
}

/// A melee outcome (Ch16 7.4; cavalry against cavalry Ch16 10.1).
#[derive(Clone, Debug, Serialize)]
pub struct MeleeResult {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// Only between two cavalry units (Ch16 10.1).
    pub cavalry: bool,
    /// The least winning margin it needs (Breakthrough: 4).
    pub margin: Option<u32>,
    /// Only for a Fresh unit.
    pub fresh_only: bool,
    /// Only once the beaten enemy is routed or destroyed (RULINGS G14).
    pub enemy_removed: bool,
    /// Stands lost.
    pub stands: u32,
    pub micro_hits: u32,
    /// A Disorder marker (a Disordered loser takes a micro-hit instead, RULINGS C1).
    pub disorder: bool,
    /// Inches fallen back, straight to the rear.
    pub retreat: Option<f64>,
    /// Both units stay in contact (Bloody Draw).
    pub locked: bool,
    /// A free move of up to this many inches.
    pub consolidate: Option<f64>,
    /// Extra staff pips it costs.
    pub pips: u32,
    /// A sweeping advance of this many inches.
    pub sweep: Option<f64>,
}

/// A situational modifier that belongs to no formation, terrain, marker or trait (Ch16 2.4,
/// 5.6, 7.3, 10.1).
#[derive(Clone, Debug, Serialize)]
pub struct Modifier {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub to_hit: i32,
    pub melee: Option<MeleeModifier>,
    /// Shock modifier for the other side of the melee (Ch16 10.1: -2 to the infantry).
    pub opponent_melee: i32,
    pub discipline: i32,
    /// Open ground the end of the charge must cross (RULINGS G10: the last 3").
    pub run: Option<f64>,
    /// Engaged stands the unit counts as (RULINGS G3: a battery counts 1).
    pub engaged: Option<u32>,
}

// ------------------------------------------------------------------ the collection

/// Access to the common part of every typed entry.
pub trait RuleEntry {
    fn meta(&self) -> &EntryMeta;
    fn meta_mut(&mut self) -> &mut EntryMeta;
    /// The numbers of the entry in one line, for the summary.
    fn describe(&self) -> String;
}

/// A name one entry gives to another, checked once all libraries are in.
#[derive(Clone, Debug)]
struct Reference {
    kind: EntryKind,
    id: String,
    span: Span,
}

/// All rule data: the stdlib, and a scenario's own entries laid over it.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RuleData {
    weapons: Vec<Weapon>,
    terrain: Vec<TerrainKind>,
    obstacles: Vec<Obstacle>,
    structures: Vec<Structure>,
    movement: Vec<MovementRate>,
    formations: Vec<Formation>,
    ratings: Vec<Rating>,
    tiers: Vec<Tier>,
    orders: Vec<Order>,
    qualities: Vec<Quality>,
    traits: Vec<Trait>,
    markers: Vec<Marker>,
    health_states: Vec<Health>,
    brigade_states: Vec<BrigadeState>,
    leader_results: Vec<LeaderResult>,
    melee_results: Vec<MeleeResult>,
    modifiers: Vec<Modifier>,
    /// Names of other entries not yet found.
    #[serde(skip)]
    unresolved: Vec<Reference>,
}

fn find<'d, T: RuleEntry>(list: &'d [T], id: &str) -> Option<&'d T> {
    list.iter().find(|e| e.meta().id == id)
}

fn metas<T: RuleEntry>(list: &[T]) -> Vec<&EntryMeta> {
    list.iter().map(RuleEntry::meta).collect()
}

fn lay_over<T: RuleEntry>(base: &mut Vec<T>, over: Vec<T>) {
    for entry in over {
        match base.iter_mut().find(|e| e.meta().id == entry.meta().id) {
            Some(slot) => *slot = entry,
            None => base.push(entry),
        }
    }
}

impl RuleData {
    /// Read the entries of `libs`. Every problem is a diagnostic; see the module docs.
    pub fn from_libraries<'a>(
        libs: impl IntoIterator<Item = &'a Library>,
        diags: &mut Vec<Diagnostic>,
    ) -> RuleData {
        let mut data = RuleData::default();
        for library in libs {
            for entry in &library.entries {
                data.read_entry(entry, diags);
            }
        }
        data.drop_resolved();
        data
    }

    /// Lay `other` over these entries: an entry with a new id is added, one with an existing id
    /// replaces it (a scenario may redefine a stdlib entry).
    pub fn extend(&mut self, other: RuleData) {
        lay_over(&mut self.weapons, other.weapons);
        lay_over(&mut self.terrain, other.terrain);
        lay_over(&mut self.obstacles, other.obstacles);
        lay_over(&mut self.structures, other.structures);
        lay_over(&mut self.movement, other.movement);
        lay_over(&mut self.formations, other.formations);
        lay_over(&mut self.ratings, other.ratings);
        lay_over(&mut self.tiers, other.tiers);
        lay_over(&mut self.orders, other.orders);
        lay_over(&mut self.qualities, other.qualities);
        lay_over(&mut self.traits, other.traits);
        lay_over(&mut self.markers, other.markers);
        lay_over(&mut self.health_states, other.health_states);
        lay_over(&mut self.brigade_states, other.brigade_states);
        lay_over(&mut self.leader_results, other.leader_results);
        lay_over(&mut self.melee_results, other.melee_results);
        lay_over(&mut self.modifiers, other.modifiers);
        self.unresolved.extend(other.unresolved);
        self.drop_resolved();
    }

    /// Report names of entries that no library defines (`quality green { traits steddy }`).
    /// Call it once every library is in, after the last [`RuleData::extend`].
    pub fn check_references(&self, diags: &mut Vec<Diagnostic>) {
        for r in &self.unresolved {
            if self.contains(r.kind, &r.id) {
                continue;
            }
            let ids = self.ids(r.kind);
            diags.push(msg::unknown_reference(
                r.span,
                r.kind.word(),
                &r.id,
                closest(&r.id, ids.iter().copied()),
            ));
        }
    }

    /// The ids of every entry of a kind, in definition order.
    pub fn ids(&self, kind: EntryKind) -> Vec<&str> {
        self.metas(kind).into_iter().map(|m| m.id.as_str()).collect()
    }

    pub fn contains(&self, kind: EntryKind, id: &str) -> bool {
        self.meta(kind, id).is_some()
    }

    /// The common part of every entry of a kind, in definition order.
    pub fn metas(&self, kind: EntryKind) -> Vec<&EntryMeta> {
        match kind {
            EntryKind::Weapon => metas(&self.weapons),
            EntryKind::Terrain => metas(&self.terrain),
            EntryKind::Obstacle => metas(&self.obstacles),
            EntryKind::Structure => metas(&self.structures),
            EntryKind::Movement => metas(&self.movement),
            EntryKind::Formation => metas(&self.formations),
            EntryKind::Rating => metas(&self.ratings),
            EntryKind::Tier => metas(&self.tiers),
            EntryKind::Order => metas(&self.orders),
            EntryKind::Quality => metas(&self.qualities),
            EntryKind::Trait => metas(&self.traits),
            EntryKind::Marker => metas(&self.markers),
            EntryKind::Health => metas(&self.health_states),
            EntryKind::BrigadeState => metas(&self.brigade_states),
            EntryKind::LeaderResult => metas(&self.leader_results),
            EntryKind::MeleeResult => metas(&self.melee_results),
            EntryKind::Modifier => metas(&self.modifiers),
        }
    }

    pub fn meta(&self, kind: EntryKind, id: &str) -> Option<&EntryMeta> {
        self.metas(kind).into_iter().find(|m| m.id == id)
    }

    /// Where an entry is defined (the whole entry).
    pub fn span(&self, kind: EntryKind, id: &str) -> Option<Span> {
        self.meta(kind, id).map(|m| m.span)
    }

    /// The hover text of an entry.
    pub fn summary(&self, kind: EntryKind, id: &str) -> Option<&str> {
        self.meta(kind, id).map(|m| m.summary.as_str())
    }

    pub fn weapon(&self, id: &str) -> Option<&Weapon> {
        find(&self.weapons, id)
    }

    pub fn terrain(&self, id: &str) -> Option<&TerrainKind> {
        find(&self.terrain, id)
    }

    pub fn obstacle(&self, id: &str) -> Option<&Obstacle> {
        find(&self.obstacles, id)
    }

    pub fn structure(&self, id: &str) -> Option<&Structure> {
        find(&self.structures, id)
    }

    pub fn movement(&self, id: &str) -> Option<&MovementRate> {
        find(&self.movement, id)
    }

    pub fn formation(&self, id: &str) -> Option<&Formation> {
        find(&self.formations, id)
    }

    pub fn rating(&self, id: &str) -> Option<&Rating> {
        find(&self.ratings, id)
    }

    pub fn tier(&self, id: &str) -> Option<&Tier> {
        find(&self.tiers, id)
    }

    pub fn order(&self, id: &str) -> Option<&Order> {
        find(&self.orders, id)
    }

    pub fn quality(&self, id: &str) -> Option<&Quality> {
        find(&self.qualities, id)
    }

    /// A historical army trait (`trait` is a Rust keyword).
    pub fn army_trait(&self, id: &str) -> Option<&Trait> {
        find(&self.traits, id)
    }

    pub fn marker(&self, id: &str) -> Option<&Marker> {
        find(&self.markers, id)
    }

    pub fn health(&self, id: &str) -> Option<&Health> {
        find(&self.health_states, id)
    }

    pub fn brigade_state(&self, id: &str) -> Option<&BrigadeState> {
        find(&self.brigade_states, id)
    }

    pub fn leader_result(&self, id: &str) -> Option<&LeaderResult> {
        find(&self.leader_results, id)
    }

    pub fn melee_result(&self, id: &str) -> Option<&MeleeResult> {
        find(&self.melee_results, id)
    }

    pub fn modifier(&self, id: &str) -> Option<&Modifier> {
        find(&self.modifiers, id)
    }

    pub fn weapons(&self) -> &[Weapon] {
        &self.weapons
    }

    pub fn terrain_kinds(&self) -> &[TerrainKind] {
        &self.terrain
    }

    pub fn obstacles(&self) -> &[Obstacle] {
        &self.obstacles
    }

    pub fn structures(&self) -> &[Structure] {
        &self.structures
    }

    pub fn movement_rates(&self) -> &[MovementRate] {
        &self.movement
    }

    pub fn formations(&self) -> &[Formation] {
        &self.formations
    }

    pub fn ratings(&self) -> &[Rating] {
        &self.ratings
    }

    pub fn tiers(&self) -> &[Tier] {
        &self.tiers
    }

    pub fn orders(&self) -> &[Order] {
        &self.orders
    }

    pub fn qualities(&self) -> &[Quality] {
        &self.qualities
    }

    pub fn traits(&self) -> &[Trait] {
        &self.traits
    }

    pub fn markers(&self) -> &[Marker] {
        &self.markers
    }

    pub fn health_states(&self) -> &[Health] {
        &self.health_states
    }

    pub fn brigade_states(&self) -> &[BrigadeState] {
        &self.brigade_states
    }

    pub fn leader_results(&self) -> &[LeaderResult] {
        &self.leader_results
    }

    pub fn melee_results(&self) -> &[MeleeResult] {
        &self.melee_results
    }

    pub fn modifiers(&self) -> &[Modifier] {
        &self.modifiers
    }

    /// The leader casualty result for a d6 roll of `roll` (Ch16 2.4): the first entry, in
    /// definition order, whose rolls hold it. The stdlib's rows cover 1 to 6 once each.
    pub fn leader_result_for(&self, roll: u32) -> Option<&LeaderResult> {
        self.leader_results.iter().find(|r| r.covers(roll))
    }

    /// The movement row for a unit of `arm` in `formation` and `state`: an exact match first,
    /// then a row that leaves the formation or state open.
    pub fn movement_for(
        &self,
        arm: Arm,
        formation: Option<&str>,
        state: Option<MoveState>,
    ) -> Option<&MovementRate> {
        let fits = |row: &&MovementRate, strict: bool| {
            row.arm == arm
                && (row.formation.as_deref() == formation || (!strict && row.formation.is_none()))
                && (row.state == state || (!strict && row.state.is_none()))
        };
        self.movement.iter().find(|r| fits(r, true)).or_else(|| self.movement.iter().find(|r| fits(r, false)))
    }

    /// The command tier of a unit `distance` inches from its brigadier (Ch16 2.2): the lowest
    /// level whose band holds the distance.
    pub fn tier_at(&self, distance: f64) -> Option<&Tier> {
        let mut tiers: Vec<&Tier> = self.tiers.iter().collect();
        tiers.sort_by_key(|t| t.level);
        tiers.into_iter().find(|t| match t.reach {
            Reach::Within(d) => distance <= d,
            Reach::Beyond(d) => distance > d,
        })
    }

    // -------------------------------------------------------------- reading

    fn read_entry(&mut self, entry: &Entry, diags: &mut Vec<Diagnostic>) {
        let Some(kind) = EntryKind::from_word(&entry.kind.value) else {
            let word = &entry.kind.value;
            diags.push(msg::unknown_entry_kind(
                entry.kind.span,
                word,
                closest(word, EntryKind::WORDS.iter().copied()),
                EntryKind::WORDS,
            ));
            return;
        };
        check_keys(kind, entry, diags);
        let first = self.meta(kind, &entry.id.value).map(|m| m.id_span);
        if let Some(first) = first {
            diags.push(msg::duplicate_entry(entry.id.span, first, kind.word(), &entry.id.value));
        }
        let mut refs = Vec::new();
        let mut reader = Reader { entry, kind, diags, refs: &mut refs };
        let meta = reader.meta();
        let typed = match kind {
            EntryKind::Weapon => Typed::Weapon(read_weapon(&mut reader, meta)),
            EntryKind::Terrain => Typed::Terrain(read_terrain(&mut reader, meta)),
            EntryKind::Obstacle => Typed::Obstacle(read_obstacle(&mut reader, meta)),
            EntryKind::Structure => Typed::Structure(read_structure(&mut reader, meta)),
            EntryKind::Movement => Typed::Movement(read_movement(&mut reader, meta)),
            EntryKind::Formation => Typed::Formation(read_formation(&mut reader, meta)),
            EntryKind::Rating => Typed::Rating(read_rating(&mut reader, meta)),
            EntryKind::Tier => Typed::Tier(read_tier(&mut reader, meta)),
            EntryKind::Order => Typed::Order(read_order(&mut reader, meta)),
            EntryKind::Quality => Typed::Quality(read_quality(&mut reader, meta)),
            EntryKind::Trait => Typed::Trait(read_trait(&mut reader, meta)),
            EntryKind::Marker => Typed::Marker(read_marker(&mut reader, meta)),
            EntryKind::Health => Typed::Health(read_health(&mut reader, meta)),
            EntryKind::BrigadeState => Typed::BrigadeState(read_brigade_state(&mut reader, meta)),
            EntryKind::LeaderResult => Typed::LeaderResult(read_leader_result(&mut reader, meta)),
            EntryKind::MeleeResult => Typed::MeleeResult(read_melee_result(&mut reader, meta)),
            EntryKind::Modifier => Typed::Modifier(read_modifier(&mut reader, meta)),
        };
        // The first definition wins; the repeat was read only for its own diagnostics.
        if first.is_none() {
            self.unresolved.extend(refs);
            self.push(typed);
        }
    }

    fn push(&mut self, typed: Typed) {
        fn add<T: RuleEntry>(list: &mut Vec<T>, mut entry: T) {
            entry.meta_mut().summary = summary_of(&entry);
            list.push(entry);
        }
        match typed {
            Typed::Weapon(e) => add(&mut self.weapons, e),
            Typed::Terrain(e) => add(&mut self.terrain, e),
            Typed::Obstacle(e) => add(&mut self.obstacles, e),
            Typed::Structure(e) => add(&mut self.structures, e),
            Typed::Movement(e) => add(&mut self.movement, e),
            Typed::Formation(e) => add(&mut self.formations, e),
            Typed::Rating(e) => add(&mut self.ratings, e),
            Typed::Tier(e) => add(&mut self.tiers, e),
            Typed::Order(e) => add(&mut self.orders, e),
            Typed::Quality(e) => add(&mut self.qualities, e),
            Typed::Trait(e) => add(&mut self.traits, e),
            Typed::Marker(e) => add(&mut self.markers, e),
            Typed::Health(e) => add(&mut self.health_states, e),
            Typed::BrigadeState(e) => add(&mut self.brigade_states, e),
            Typed::LeaderResult(e) => add(&mut self.leader_results, e),
            Typed::MeleeResult(e) => add(&mut self.melee_results, e),
            Typed::Modifier(e) => add(&mut self.modifiers, e),
        }
    }

    fn drop_resolved(&mut self) {
        let unresolved = std::mem::take(&mut self.unresolved);
        self.unresolved = unresolved.into_iter().filter(|r| !self.contains(r.kind, &r.id)).collect();
    }
}

enum Typed {
    Weapon(Weapon),
    Terrain(TerrainKind),
    Obstacle(Obstacle),
    Structure(Structure),
    Movement(MovementRate),
    Formation(Formation),
    Rating(Rating),
    Tier(Tier),
    Order(Order),
    Quality(Quality),
    Trait(Trait),
    Marker(Marker),
    Health(Health),
    BrigadeState(BrigadeState),
    LeaderResult(LeaderResult),
    MeleeResult(MeleeResult),
    Modifier(Modifier),
}

/// The closest of `candidates` to a misspelt `word`, if any is close enough.
fn closest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let limit = 1 + word.chars().count() / 3;
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(word, c), c))
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, c)| c)
}

/// Unknown keys, and keys given twice where the schema allows one.
fn check_keys(kind: EntryKind, entry: &Entry, diags: &mut Vec<Diagnostic>) {
    let mut seen: Vec<(&str, Span)> = Vec::new();
    for prop in &entry.props {
        let key = prop.key.value.as_str();
        match kind.prop(key) {
            None => {
                let keys = kind.keys();
                diags.push(msg::unknown_property(
                    prop.key.span,
                    kind.word(),
                    key,
                    closest(key, keys.iter().copied()),
                    &keys,
                ));
            }
            Some(spec) if !spec.repeatable => match seen.iter().find(|(k, _)| *k == key) {
                Some((_, first)) => {
                    diags.push(msg::repeated_property(prop.key.span, *first, kind.word(), key))
                }
                None => seen.push((key, prop.key.span)),
            },
            Some(_) => {}
        }
    }
}

// ------------------------------------------------------------------ property reading

/// Why a property's values could not be read: a label and where it goes.
struct Problem {
    span: Span,
    text: String,
}

impl Problem {
    fn new(span: Span, text: impl Into<String>) -> Problem {
        Problem { span, text: text.into() }
    }

    fn found(value: &Spanned<Value>, expected: &str) -> Problem {
        Problem::new(value.span, format!("expected {expected}, found {}", describe_value(&value.value)))
    }
}

fn describe_value(value: &Value) -> String {
    match value {
        Value::Number(n) => format!("the number {}", fmt_num(*n)),
        Value::Signed(n) => format!("the modifier `{}`", fmt_signed(*n)),
        Value::Target(t) => format!("the target `{t}+`"),
        Value::Word(w) => format!("`{w}`"),
        Value::Text(_) => String::from("a quoted string"),
        Value::Point(_) => String::from("a position"),
        Value::Dice(_) => String::from("a dice list"),
    }
}

/// Reads the values of one property line from left to right.
struct Cursor<'a> {
    prop: &'a Prop,
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn new(prop: &'a Prop) -> Cursor<'a> {
        Cursor { prop, pos: 0 }
    }

    fn peek(&self) -> Option<&'a Spanned<Value>> {
        self.prop.values.get(self.pos)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.prop.values.len()
    }

    /// The next value, or a problem pointing after the last value read.
    fn take(&mut self, expected: &str) -> Result<&'a Spanned<Value>, Problem> {
        match self.peek() {
            Some(value) => {
                self.pos += 1;
                Ok(value)
            }
            None => {
                let span = self.prop.values.last().map_or(self.prop.key.span, |v| v.span);
                Err(Problem::new(span, format!("expected {expected} after this")))
            }
        }
    }

    fn inches(&mut self) -> Result<f64, Problem> {
        const WHAT: &str = "a distance in inches";
        let value = self.take(WHAT)?;
        match value.value {
            Value::Number(n) => Ok(n),
            Value::Signed(_) => Err(Problem::new(value.span, "a distance is written without a sign")),
            _ => Err(Problem::found(value, WHAT)),
        }
    }

    /// A signed distance such as a penalty: `-2`. An unsigned number reads as positive.
    fn signed_inches(&mut self) -> Result<f64, Problem> {
        const WHAT: &str = "a signed distance such as `-2`";
        let value = self.take(WHAT)?;
        match value.value {
            Value::Number(n) | Value::Signed(n) => Ok(n),
            _ => Err(Problem::found(value, WHAT)),
        }
    }

    fn count(&mut self, what: &str) -> Result<u32, Problem> {
        let value = self.take(what)?;
        match value.value {
            Value::Number(n) if n.fract() == 0.0 && (0.0..=1_000_000.0).contains(&n) => Ok(n as u32),
            Value::Number(_) => Err(Problem::new(value.span, format!("expected {what}, a whole number"))),
            _ => Err(Problem::found(value, what)),
        }
    }

    /// A percentage from 0 to 100, written as a plain number: `75`.
    fn percent(&mut self) -> Result<u32, Problem> {
        const WHAT: &str = "a percentage such as `75`";
        let value = self.take(WHAT)?;
        match value.value {
            Value::Number(n) if n.fract() == 0.0 && (0.0..=100.0).contains(&n) => Ok(n as u32),
            Value::Number(_) => Err(Problem::new(value.span, "a percentage is a whole number from 0 to 100")),
            _ => Err(Problem::found(value, WHAT)),
        }
    }

    /// One face of a d6: 1 to 6.
    fn face(&mut self) -> Result<u32, Problem> {
        const WHAT: &str = "a d6 roll from 1 to 6";
        let value = self.take(WHAT)?;
        match value.value {
            Value::Number(n) if n.fract() == 0.0 && (1.0..=6.0).contains(&n) => Ok(n as u32),
            Value::Number(_) => Err(Problem::new(value.span, "a d6 roll runs from 1 to 6")),
            _ => Err(Problem::found(value, WHAT)),
        }
    }

    /// A whole-number modifier: `+1`, `-2` (an unsigned number reads as positive).
    fn modifier(&mut self) -> Result<i32, Problem> {
        const WHAT: &str = "a modifier such as `+1` or `-2`";
        let value = self.take(WHAT)?;
        match value.value {
            Value::Number(n) | Value::Signed(n) if n.fract() == 0.0 && n.abs() <= 100.0 => Ok(n as i32),
            Value::Number(_) | Value::Signed(_) => {
                Err(Problem::new(value.span, "a modifier is a whole number"))
            }
            _ => Err(Problem::found(value, WHAT)),
        }
    }

    /// A die target from 2+ to 6+.
    fn target(&mut self) -> Result<u32, Problem> {
        const WHAT: &str = "a die target such as `4+`";
        let value = self.take(WHAT)?;
        match value.value {
            Value::Target(t) if (2..=6).contains(&t) => Ok(t),
            Value::Target(_) => Err(Problem::new(value.span, "a die target runs from 2+ to 6+")),
            _ => Err(Problem::found(value, WHAT)),
        }
    }

    fn word(&mut self, expected: &str) -> Result<Spanned<String>, Problem> {
        let value = self.take(expected)?;
        match &value.value {
            Value::Word(w) => Ok(Spanned::new(w.clone(), value.span)),
            _ => Err(Problem::found(value, expected)),
        }
    }

    fn choice<E: Words>(&mut self) -> Result<E, Problem> {
        let expected = one_of(E::WORDS);
        let value = self.take(&expected)?;
        let Value::Word(w) = &value.value else {
            return Err(Problem::found(value, &expected));
        };
        E::from_word(w).ok_or_else(|| {
            let hint = match closest(w, E::WORDS.iter().copied()) {
                Some(s) => format!("; did you mean `{s}`?"),
                None => String::new(),
            };
            Problem::new(value.span, format!("expected {expected}, found `{w}`{hint}"))
        })
    }

    /// One or more words of a vocabulary, to the end of the line.
    fn choices<E: Words>(&mut self) -> Result<Vec<E>, Problem> {
        let mut out = vec![self.choice::<E>()?];
        while !self.at_end() {
            out.push(self.choice::<E>()?);
        }
        Ok(out)
    }

    /// One or more ids up to the end of the line or the word `stop`.
    fn ids(&mut self, expected: &str, stop: Option<&str>) -> Result<Vec<Spanned<String>>, Problem> {
        let mut out = vec![self.word(expected)?];
        while !self.at_end() && !stop.is_some_and(|s| self.next_is(s)) {
            out.push(self.word(expected)?);
        }
        Ok(out)
    }

    fn keyword(&mut self, keyword: &str) -> Result<(), Problem> {
        let expected = format!("`{keyword}`");
        let value = self.take(&expected)?;
        match &value.value {
            Value::Word(w) if w == keyword => Ok(()),
            _ => Err(Problem::found(value, &expected)),
        }
    }

    fn next_is(&self, keyword: &str) -> bool {
        matches!(self.peek(), Some(Spanned { value: Value::Word(w), .. }) if w == keyword)
    }

    /// Consume `keyword` if it comes next.
    fn eat(&mut self, keyword: &str) -> bool {
        let found = self.next_is(keyword);
        if found {
            self.pos += 1;
        }
        found
    }

    fn next_is_signed(&self) -> bool {
        matches!(self.peek(), Some(Spanned { value: Value::Signed(_), .. }))
    }

    fn next_is_number(&self) -> bool {
        matches!(self.peek(), Some(Spanned { value: Value::Number(_), .. }))
    }

    fn text(&mut self) -> Result<String, Problem> {
        const WHAT: &str = "a quoted string";
        let value = self.take(WHAT)?;
        match &value.value {
            Value::Text(t) => Ok(t.clone()),
            _ => Err(Problem::found(value, WHAT)),
        }
    }

    fn finish(&self) -> Result<(), Problem> {
        match self.peek() {
            Some(extra) => {
                Err(Problem::new(extra.span, format!("unexpected {}", describe_value(&extra.value))))
            }
            None => Ok(()),
        }
    }
}

fn one_of(words: &[&str]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
    match quoted.as_slice() {
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
        [] => String::from("a word"),
    }
}

/// Reads the properties of one entry against its kind's schema.
struct Reader<'a, 'd> {
    entry: &'a Entry,
    kind: EntryKind,
    diags: &'d mut Vec<Diagnostic>,
    refs: &'d mut Vec<Reference>,
}

impl<'a> Reader<'a, '_> {
    fn first(&self, key: &str) -> Option<&'a Prop> {
        self.entry.props.iter().find(|p| p.key.value == key)
    }

    fn spec(&self, key: &str) -> Option<&'static PropSpec> {
        self.kind.prop(key)
    }

    fn usage(&self, key: &str) -> &'static str {
        self.spec(key).map_or("", |s| s.usage)
    }

    /// The first line of `key`, read by `f`; a problem or a missing required key is reported.
    fn read<T>(&mut self, key: &str, f: impl FnOnce(&mut Cursor<'a>) -> Result<T, Problem>) -> Option<T> {
        match self.first(key) {
            Some(prop) => self.parse(prop, f),
            None => {
                if self.spec(key).is_some_and(|s| s.required) {
                    self.missing(key);
                }
                None
            }
        }
    }

    /// Every line of `key`, in order.
    fn read_all<T>(&mut self, key: &str, mut f: impl FnMut(&mut Cursor<'a>) -> Result<T, Problem>) -> Vec<T> {
        let props: Vec<&'a Prop> = self.entry.props.iter().filter(|p| p.key.value == key).collect();
        if props.is_empty() && self.spec(key).is_some_and(|s| s.required) {
            self.missing(key);
        }
        props.into_iter().filter_map(|prop| self.parse(prop, &mut f)).collect()
    }

    fn parse<T>(
        &mut self,
        prop: &'a Prop,
        f: impl FnOnce(&mut Cursor<'a>) -> Result<T, Problem>,
    ) -> Option<T> {
        let mut cursor = Cursor::new(prop);
        match f(&mut cursor).and_then(|value| cursor.finish().map(|()| value)) {
            Ok(value) => Some(value),
            Err(problem) => {
                let key = prop.key.value.as_str();
                self.diags.push(msg::bad_property(
                    problem.span,
                    self.kind.word(),
                    key,
                    &problem.text,
                    self.usage(key),
                ));
                None
            }
        }
    }

    /// A flag: present means true. Values after it are reported.
    fn flag(&mut self, key: &str) -> bool {
        let Some(prop) = self.first(key) else {
            return false;
        };
        if let (Some(first), Some(last)) = (prop.values.first(), prop.values.last()) {
            self.diags.push(msg::flag_with_values(first.span.join(last.span), self.kind.word(), key));
        }
        true
    }

    fn missing(&mut self, key: &str) {
        let entry = self.entry;
        // The missing line may be the one that did not parse, or one whose key is misspelt
        // (reported as an unknown property with this key as its suggestion).
        let misspelt = entry.props.iter().any(|p| {
            p.key.value != key
                && EntryKind::from_word(&p.key.value).is_none()
                && self.kind.prop(&p.key.value).is_none()
                && crate::names::suggest(&p.key.value, [key]).is_some()
        });
        if entry.broken || misspelt {
            return;
        }
        self.diags.push(msg::missing_property(
            entry.id.span,
            self.kind.word(),
            &entry.id.value,
            key,
            self.usage(key),
        ));
    }

    /// A value that reads but contradicts the rest of the entry.
    /// A value that contradicts another. Not reported for an entry with a line that did not
    /// parse: the other value may be on that line, and its syntax error comes first.
    fn inconsistent(&mut self, span: Span, key: &str, problem: &str, help: &str) {
        if !self.entry.broken {
            self.diags.push(msg::inconsistent_property(span, self.kind.word(), key, problem, help));
        }
    }

    /// Note a name of another entry, checked once all libraries are in.
    fn refer(&mut self, kind: EntryKind, id: &Spanned<String>) {
        self.refs.push(Reference { kind, id: id.value.clone(), span: id.span });
    }

    fn meta(&mut self) -> EntryMeta {
        let entry = self.entry;
        EntryMeta {
            kind: self.kind,
            id: entry.id.value.clone(),
            name: entry.name.as_ref().map(|n| n.value.clone()),
            span: entry.span,
            id_span: entry.id.span,
            source: self.read("source", |c| c.text()),
            note: self.read("note", |c| c.text()),
            summary: String::new(),
        }
    }
}

// Shared value shapes.

fn read_melee(c: &mut Cursor<'_>) -> Result<MeleeModifier, Problem> {
    let value = c.modifier()?;
    let side = c.choice::<MeleeSide>()?;
    Ok(MeleeModifier { value, side })
}

/// `melee none` or a modifier.
fn read_optional_melee(c: &mut Cursor<'_>) -> Result<Option<MeleeModifier>, Problem> {
    if c.eat("none") { Ok(None) } else { read_melee(c).map(Some) }
}

fn read_cover(c: &mut Cursor<'_>) -> Result<Cover, Problem> {
    let class = c.choice::<CoverClass>()?;
    let save = match class {
        CoverClass::None => None,
        CoverClass::Light | CoverClass::Heavy => Some(c.target()?),
    };
    Ok(Cover { class, save })
}

fn read_cost(c: &mut Cursor<'_>) -> Result<Cost, Problem> {
    if c.eat("half") {
        Ok(Cost::Half)
    } else if c.eat("all") {
        Ok(Cost::All)
    } else if c.next_is_number() {
        Ok(Cost::Inches(c.inches()?))
    } else {
        let value = c.take("`half`, `all` or a distance in inches")?;
        Err(Problem::found(value, "`half`, `all` or a distance in inches"))
    }
}

/// `to 14 hits 4+` after a band name.
fn read_band(c: &mut Cursor<'_>, name: BandName) -> Result<Band, Problem> {
    c.keyword("to")?;
    let to = c.inches()?;
    c.keyword("hits")?;
    let hits = c.target()?;
    Ok(Band { name, from: 0.0, to, hits })
}

fn read_reach(c: &mut Cursor<'_>) -> Result<Reach, Problem> {
    if c.eat("within") {
        Ok(Reach::Within(c.inches()?))
    } else if c.eat("beyond") {
        Ok(Reach::Beyond(c.inches()?))
    } else {
        let value = c.take("`within` or `beyond`")?;
        Err(Problem::found(value, "`within` or `beyond`"))
    }
}

fn read_pip_cost(c: &mut Cursor<'_>) -> Result<PipCost, Problem> {
    let pips = c.count("a number of pips")?;
    let condition = if c.eat("within") {
        PipCondition::Within(c.inches()?)
    } else if c.eat("beyond") {
        PipCondition::Beyond(c.inches()?)
    } else if c.eat("per") {
        PipCondition::Per(c.choice::<PipUnit>()?)
    } else {
        PipCondition::Always
    };
    Ok(PipCost { pips, condition })
}

/// Each band's lower bound is the previous band's upper bound.
fn with_lower_bounds(mut bands: Vec<Band>) -> Vec<Band> {
    let mut from = 0.0;
    for band in &mut bands {
        band.from = from;
        from = band.to;
    }
    bands
}

// Per-kind readers.

fn read_weapon(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Weapon {
    let class = r.read("class", |c| c.choice::<WeaponClass>()).unwrap_or(WeaponClass::SmallArm);
    let dice = r
        .read("dice", |c| {
            let dice = c.count("a number of dice")?;
            c.keyword("per")?;
            Ok(DicePool { dice, per: c.choice::<DicePer>()? })
        })
        .unwrap_or(DicePool { dice: 1, per: DicePer::Stand });
    let bonus_dice = r.read("bonus_dice", |c| {
        let at = c.peek().map(|v| v.span);
        let dice = c.modifier()?;
        let dice = u32::try_from(dice)
            .map_err(|_| Problem::new(at.unwrap_or_default(), "bonus dice cannot be negative"))?;
        if c.eat("per") {
            let stands = c.count("a number of stands")?;
            if stands == 0 {
                return Err(Problem::new(at.unwrap_or_default(), "`per 0 stands` would divide by zero"));
            }
            if !c.eat("stands") {
                c.keyword("stand")?;
            }
            Ok(BonusDice::PerStands { dice, stands })
        } else {
            Ok(BonusDice::Flat { dice })
        }
    });

    // Bands in the order written, checked nearest to farthest.
    let entry = r.entry;
    let mut bands: Vec<(Band, Span)> = Vec::new();
    for prop in &entry.props {
        let Some(name) = BandName::from_word(&prop.key.value) else {
            continue;
        };
        if bands.iter().any(|(b, _)| b.name == name) {
            continue; // reported as a repeated key
        }
        if let Some(band) = r.parse(prop, |c| read_band(c, name)) {
            bands.push((band, prop.span));
        }
    }
    let mut kept: Vec<Band> = Vec::new();
    for (band, span) in bands {
        if let Some(previous) = kept.last() {
            if band.name.rank() <= previous.name.rank() || band.to <= previous.to {
                let problem = format!(
                    "`{}` must come after `{}` and reach farther than {}\"",
                    band.name.word(),
                    previous.name.word(),
                    fmt_num(previous.to)
                );
                r.inconsistent(
                    span,
                    band.name.word(),
                    &problem,
                    "list the bands nearest first: canister or short, then medium, then long",
                );
                continue;
            }
        }
        kept.push(band);
    }
    if kept.is_empty() && !entry.props.iter().any(|p| BandName::from_word(&p.key.value).is_some()) {
        r.missing("short");
    }
    let bands = with_lower_bounds(kept);

    let mut cavalry_bands = Vec::new();
    for prop in entry.props.iter().filter(|p| p.key.value == "cavalry") {
        let Some(band) = r.parse(prop, |c| {
            let name = c.choice::<BandName>()?;
            read_band(c, name)
        }) else {
            continue;
        };
        match bands.iter().position(|b| b.name == band.name) {
            None => r.inconsistent(
                prop.span,
                "cavalry",
                &format!("this weapon has no `{}` band to replace", band.name.word()),
                "a cavalry line replaces a band the weapon already has; add the band first",
            ),
            Some(i) => {
                let from = if i == 0 { 0.0 } else { bands[i - 1].to };
                let next = bands.get(i + 1).map(|b| b.to);
                if band.to <= from || next.is_some_and(|n| band.to >= n) {
                    r.inconsistent(
                        prop.span,
                        "cavalry",
                        &format!(
                            "the replaced `{}` band must end between the bands around it",
                            band.name.word()
                        ),
                        "keep the bands in order, nearest first",
                    );
                } else {
                    cavalry_bands.push(Band { from, ..band });
                }
            }
        }
    }

    Weapon {
        meta,
        class,
        dice,
        bonus_dice,
        bands,
        cavalry_bands,
        melee: r.read("melee", read_melee),
        structure_damage: r.read("structure_damage", |c| c.modifier()).unwrap_or(0),
        canister_disorder: r.flag("canister_disorder"),
        ignores_obstacle_light_cover: r.flag("ignores_obstacle_light_cover"),
    }
}

fn read_terrain(r: &mut Reader<'_, '_>, meta: EntryMeta) -> TerrainKind {
    let shapes = r.read("shape", |c| c.choices::<Shape>()).unwrap_or_else(|| vec![Shape::Area]);
    let movement = r
        .read("move", |c| {
            if c.eat("impassable") {
                return Ok(TerrainMove::Impassable);
            }
            let column = c.choice::<MoveColumn>()?;
            let penalty = if c.next_is_signed() { c.signed_inches()? } else { 0.0 };
            let cap = if c.eat("max") { Some(c.inches()?) } else { None };
            Ok(TerrainMove::Passable { column, penalty, cap })
        })
        .unwrap_or(TerrainMove::Passable { column: MoveColumn::Open, penalty: 0.0, cap: None });
    let cover = r.read("cover", read_cover).unwrap_or(Cover::NONE);
    let los = r
        .read("los", |c| {
            if c.eat("unlimited") { Ok(SightLimit::Unlimited) } else { Ok(SightLimit::Inches(c.inches()?)) }
        })
        .unwrap_or(SightLimit::Unlimited);
    let melee = r.read("melee", read_optional_melee).flatten();
    let charge_penalty = r.read("charge", |c| c.signed_inches()).unwrap_or(0.0);
    let structure = r.read("structure", |c| c.word("a structure id"));
    if let Some(s) = &structure {
        r.refer(EntryKind::Structure, s);
    }
    TerrainKind {
        meta,
        shapes,
        movement,
        exit_full_turn: r.flag("exit_full_turn"),
        cover,
        los,
        melee,
        charge_penalty,
        structure: structure.map(|s| s.value),
        conceals: r.flag("conceals"),
        halts_charges: r.flag("halts_charges"),
        formed_disorder: r.flag("formed_disorder"),
        skirmishers_free: r.flag("skirmishers_free"),
        line_moves_freely: r.flag("line_moves_freely"),
        crossings_only: r.flag("crossings_only"),
        no_hasty_works: r.flag("no_hasty_works"),
    }
}

fn read_obstacle(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Obstacle {
    let crossing = r
        .read("cross", |c| {
            if c.eat("unlisted") {
                return Ok(Crossing::Unlisted);
            }
            let cost = c.inches()?;
            let check = if c.eat("check") { Some(c.target()?) } else { None };
            Ok(Crossing::Inches { cost, check })
        })
        .unwrap_or(Crossing::Unlisted);
    Obstacle {
        meta,
        crossing,
        cover: r.read("cover", read_cover).unwrap_or(Cover::NONE),
        melee: r.read("melee", read_optional_melee).flatten(),
        dismantle_phases: r.read("dismantle_phases", |c| c.count("a number of phases")),
        conceals: r.flag("conceals"),
        cancels_momentum: r.flag("cancels_momentum"),
        anchored_flank_immune: r.flag("anchored_flank_immune"),
        formed_disorder: r.flag("formed_disorder"),
    }
}

fn read_structure(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Structure {
    Structure {
        meta,
        capacity: r.read("capacity", |c| c.count("a number of stands")).unwrap_or(0),
        garrison: r.read("garrison", |c| c.choices::<Garrison>()).unwrap_or_default(),
        cover: r.read("cover", read_cover).unwrap_or(Cover::NONE),
        melee: r.read("melee", read_optional_melee).flatten(),
        flank_immune: r.flag("flank_immune"),
        arc: r.read("arc", |c| {
            let at = c.peek().map(|v| v.span).unwrap_or_default();
            let degrees = c.count("an arc in degrees")?;
            if degrees > 360 { Err(Problem::new(at, "an arc is at most 360 degrees")) } else { Ok(degrees) }
        }),
        dice: r.read("dice", |c| {
            let dice = c.count("a number of dice")?;
            c.keyword("per")?;
            Ok(DicePool { dice, per: c.choice::<DicePer>()? })
        }),
        damage: r.read("damage", |c| c.target()),
        collapse_at: r.read("collapse_at", |c| c.count("a number of damage points")),
        collapse_loss: r.read("collapse_loss", |c| c.count("a number of stands")),
        rubble: r.read("rubble", read_cover),
        no_hasty_works: r.flag("no_hasty_works"),
    }
}

fn read_movement(r: &mut Reader<'_, '_>, meta: EntryMeta) -> MovementRate {
    let formation = r.read("formation", |c| c.word("a formation id"));
    if let Some(f) = &formation {
        r.refer(EntryKind::Formation, f);
    }
    MovementRate {
        meta,
        arm: r.read("arm", |c| c.choice::<Arm>()).unwrap_or(Arm::Infantry),
        formation: formation.map(|f| f.value),
        state: r.read("state", |c| c.choice::<MoveState>()),
        open: r.read("open", |c| c.inches()).unwrap_or(0.0),
        rough: r.read("rough", |c| c.inches()).unwrap_or(0.0),
        road: r.read("road", |c| c.inches()).unwrap_or(0.0),
        obstacle: r
            .read("obstacle", |c| {
                if c.eat("free") {
                    Ok(ObstacleCost::Free)
                } else if c.eat("impassable") {
                    Ok(ObstacleCost::Impassable)
                } else if c.eat("unlisted") {
                    Ok(ObstacleCost::Unlisted)
                } else {
                    let at = c.peek().map(|v| v.span).unwrap_or_default();
                    let penalty = c.signed_inches()?;
                    if penalty > 0.0 {
                        Err(Problem::new(at, "an obstacle penalty is written negative, e.g. `-2`"))
                    } else {
                        Ok(ObstacleCost::Penalty(penalty))
                    }
                }
            })
            .unwrap_or(ObstacleCost::Unlisted),
        charge: r
            .read("charge", |c| {
                if c.eat("prohibited") {
                    Ok(Charge::Prohibited)
                } else if c.eat("none") {
                    Ok(Charge::NotApplicable)
                } else {
                    Ok(Charge::Inches(c.inches()?))
                }
            })
            .unwrap_or(Charge::Prohibited),
        minimum: r.read("minimum", |c| c.inches()),
        limber: r.read("limber", read_cost),
        unlimber_and_fire: r.flag("unlimber_and_fire"),
    }
}

fn read_formation(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Formation {
    let speed = r.read("speed", |c| {
        let speed = c.inches()?;
        let max = if c.eat("to") { Some(c.inches()?) } else { None };
        Ok((speed, max))
    });
    let changes: Vec<(Spanned<String>, Cost)> =
        r.read_all("change", |c| Ok((c.word("a formation id")?, read_cost(c)?)));
    for (to, _) in &changes {
        r.refer(EntryKind::Formation, to);
    }
    let screen_ahead = r.read("screen_ahead", |c| {
        let least = c.inches()?;
        c.keyword("to")?;
        Ok((least, c.inches()?))
    });
    let screen = Screen {
        ahead: screen_ahead.unwrap_or((0.0, 0.0)),
        cost: r.read("screen_cost", read_cost),
        to_hit: r.read("screen_to_hit", |c| c.modifier()),
        hits: r.read("screen_hits", |c| c.count("a number of hits")),
        min_stands: r.read("screen_min_stands", |c| c.count("a number of stands")),
        recall_free: r.flag("screen_recall_free"),
    };
    let has_screen = screen_ahead.is_some()
        || screen.cost.is_some()
        || screen.to_hit.is_some()
        || screen.hits.is_some()
        || screen.min_stands.is_some()
        || screen.recall_free;
    if has_screen && screen_ahead.is_none() {
        r.missing("screen_ahead");
    }
    Formation {
        meta,
        module: r.read("module", |c| c.word("a module name")).map(|w| w.value),
        speed: speed.map(|s| s.0),
        speed_max: speed.and_then(|s| s.1),
        rough_speed: r.read("rough_speed", |c| c.inches()),
        fire: r
            .read("fire", |c| {
                if c.eat("all") {
                    Ok(Firepower::All)
                } else if c.eat("none") {
                    Ok(Firepower::None)
                } else {
                    c.keyword("front")?;
                    Ok(Firepower::Front(c.count("a number of stands")?))
                }
            })
            .unwrap_or(Firepower::All),
        frontage: r
            .read("frontage", |c| {
                if c.eat("all") {
                    Ok(Frontage::All)
                } else {
                    Ok(Frontage::Stands(c.count("a number of stands")?))
                }
            })
            .unwrap_or(Frontage::All),
        stand_gap: r.read("stand_gap", |c| c.inches()).unwrap_or(0.0),
        melee: r.read_all("melee", read_melee),
        saves: r.read_all("save", |c| {
            let value = c.modifier()?;
            let artillery_only = if c.eat("vs") {
                c.keyword("artillery")?;
                true
            } else {
                false
            };
            Ok(SaveModifier { value, artillery_only })
        }),
        cover: r.read("cover", read_cover),
        cover_bonus: r.read("cover_bonus", |c| c.modifier()).unwrap_or(0),
        to_hit: r.read("to_hit", |c| c.modifier()).unwrap_or(0),
        charged: r
            .read("charged", |c| {
                if c.eat("melee") {
                    Ok(WhenCharged::Melee)
                } else if c.eat("removed") {
                    Ok(WhenCharged::Removed)
                } else {
                    c.keyword("overrun")?;
                    let stands = c.count("a number of stands lost")?;
                    c.keyword("fall_back")?;
                    Ok(WhenCharged::Overrun { stands, fall_back: c.inches()? })
                }
            })
            .unwrap_or(WhenCharged::Melee),
        changes: changes.into_iter().map(|(to, cost)| FormationChange { to: to.value, cost }).collect(),
        pips: r.read_all("pips", read_pip_cost),
        screen: has_screen.then_some(screen),
        no_assault: r.flag("no_assault"),
        ignores_terrain_slowdown: r.flag("ignores_terrain_slowdown"),
        ignores_terrain_disorder: r.flag("ignores_terrain_disorder"),
        free_pivot: r.flag("free_pivot"),
    }
}

fn read_rating(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Rating {
    let (die, bonus, halve) = r
        .read("pips", |c| {
            let word = c.word("a die such as `d3`")?;
            let die = word
                .value
                .strip_prefix('d')
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|n| (2..=20).contains(n))
                .ok_or_else(|| {
                    Problem::new(word.span, format!("expected a die such as `d3`, found `{}`", word.value))
                })?;
            let bonus = if c.next_is_signed() { c.modifier()? } else { 0 };
            let halve = if c.eat("halve") { Some(c.choice::<Rounding>()?) } else { None };
            Ok((die, bonus, halve))
        })
        .unwrap_or((3, 0, None));
    let range_prop = r.first("range");
    let range = r.read("range", |c| {
        let low = c.count("the fewest pips")?;
        c.keyword("to")?;
        Ok((low, c.count("the most pips")?))
    });
    let rating =
        Rating { meta, die, bonus, halve, range, bank: r.read("bank", |c| c.count("a number of pips")) };
    if let (Some((low, high)), Some(prop)) = (range, range_prop) {
        let (min, max) = rating.pip_range();
        if (low, high) != (min, max) {
            r.inconsistent(
                prop.span,
                "range",
                &format!("the formula gives {min} to {max} pips, not {low} to {high}"),
                "correct the formula or the range so they agree",
            );
        }
    }
    rating
}

fn read_tier(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Tier {
    let within = r.read("within", |c| c.inches());
    let beyond = r.read("beyond", |c| c.inches());
    let reach = match (within, beyond) {
        (Some(d), None) => Reach::Within(d),
        (None, Some(d)) => Reach::Beyond(d),
        (None, None) => {
            if r.first("within").is_none() && r.first("beyond").is_none() {
                r.missing("within");
            }
            Reach::Within(0.0)
        }
        (Some(d), Some(_)) => {
            if let Some(prop) = r.first("beyond") {
                r.inconsistent(
                    prop.span,
                    "beyond",
                    "a tier has `within` or `beyond`, not both",
                    "keep `within` for a band that ends, `beyond` for the last tier",
                );
            }
            Reach::Within(d)
        }
    };
    Tier {
        meta,
        level: r.read("level", |c| c.count("a tier number")).unwrap_or(0),
        reach,
        order_cost: r.read("order_cost", |c| c.choice::<OrderCost>()).unwrap_or(OrderCost::Standard),
        discipline: r.read("discipline", |c| c.modifier()).unwrap_or(0),
        restricted_moves: r.flag("restricted_moves"),
    }
}

fn read_order(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Order {
    let formations = r.read("formations", |c| c.ids("a formation id", None)).unwrap_or_default();
    for f in &formations {
        r.refer(EntryKind::Formation, f);
    }
    // Ch16 7.2: a stalled charger stops short of the line where the charge paused.
    let interruption = r.read("interruption", |c| c.inches());
    let stall = r.read("stall", |c| c.inches());
    if let (Some(line), Some(short), Some(prop)) = (interruption, stall, r.first("stall")) {
        if short >= line {
            r.inconsistent(
                prop.span,
                "stall",
                &format!(
                    "a charger stalls short of the {}\" interruption line, not {}\" away",
                    fmt_num(line),
                    fmt_num(short)
                ),
                "make `stall` less than `interruption`",
            );
        }
    }
    Order {
        meta,
        phases: r
            .read("phase", |c| {
                let mut phases = Vec::new();
                loop {
                    let at = c.peek().map(|v| v.span).unwrap_or_default();
                    let phase = c.count("a phase number")?;
                    if !(1..=5).contains(&phase) {
                        return Err(Problem::new(at, "phases are numbered 1 to 5 (Ch16 1.0)"));
                    }
                    phases.push(phase);
                    if c.at_end() {
                        return Ok(phases);
                    }
                }
            })
            .unwrap_or_default(),
        resolved_in: r.read("resolved_in", |c| c.count("a phase number")),
        pips: r.read_all("pips", read_pip_cost),
        min_regiments: r.read("min_regiments", |c| c.count("a number of regiments")),
        max_regiments: r.read("max_regiments", |c| c.count("a number of regiments")),
        max_sections: r.read("max_sections", |c| c.count("a number of sections")),
        adjacent_within: r.read("adjacent_within", |c| c.inches()),
        charge: r.read("charge", |c| c.inches()),
        move_bonus: r.read("move_bonus", |c| c.inches()),
        target_save: r.read("target_save", |c| c.modifier()).unwrap_or(0),
        removes_disorder: r.read("removes_disorder", |c| c.count("a number of markers")).unwrap_or(0),
        banks: r.read("banks", |c| {
            let pips = c.count("a number of pips")?;
            let reactions = if c.eat("for") { c.choices::<Reaction>()? } else { Vec::new() };
            Ok(Banks { pips, reactions })
        }),
        formations: formations.into_iter().map(|f| f.value).collect(),
        max_wheel: r.read("max_wheel", |c| c.count("an angle in degrees")),
        interruption,
        stall,
    }
}

fn read_quality(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Quality {
    let traits = r.read("traits", |c| c.ids("a trait id", None)).unwrap_or_default();
    for t in &traits {
        r.refer(EntryKind::Trait, t);
    }
    Quality {
        meta,
        discipline: r.read("discipline", |c| c.target()).unwrap_or(6),
        rally: r.read("rally", |c| c.target()).unwrap_or(6),
        traits: traits.into_iter().map(|t| t.value).collect(),
    }
}

fn read_trait(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Trait {
    let defender_check = r.read("defender_check", |c| {
        let target = c.target()?;
        c.keyword("for")?;
        let qualities = c.ids("a quality id", Some("unless"))?;
        let unless = if c.eat("unless") { Some(c.choice::<CoverClass>()?) } else { None };
        Ok((target, qualities, unless))
    });
    let defender_check = defender_check.map(|(target, qualities, unless)| {
        for q in &qualities {
            r.refer(EntryKind::Quality, q);
        }
        DefenderCheck { target, qualities: qualities.into_iter().map(|q| q.value).collect(), unless }
    });
    Trait {
        meta,
        category: r.read("category", |c| c.choice::<TraitCategory>()).unwrap_or(TraitCategory::Morale),
        melee: r.read_all("melee", read_melee),
        discipline: r.read_all("discipline", |c| {
            let value = c.modifier()?;
            c.keyword("vs")?;
            Ok(DisciplineModifier { value, cause: c.choice::<CheckCause>()? })
        }),
        defender_check,
        first_fire_check: r.read("first_fire_check", |c| c.target()),
        halts_on_fail: r.flag("halts_on_fail"),
        ignore_suppression: r.read("ignore_suppression", |c| {
            let count = c.count("a number of results")?;
            c.keyword("per")?;
            Ok(Allowance { count, per: c.choice::<Per>()? })
        }),
        rally: r.read("rally", |c| c.target()),
        rerolls: r.read_all("reroll", |c| {
            let count = c.count("a number of dice")?;
            let what = c.choice::<RerollWhat>()?;
            let band = if c.eat("at") { Some(c.choice::<BandName>()?) } else { None };
            let per = if c.eat("per") { Some(c.choice::<Per>()?) } else { None };
            Ok(Reroll { count, what, band, per })
        }),
        hits: r.read_all("hits", |c| Ok(BandHits { band: c.choice::<BandName>()?, hits: c.target()? })),
        bonus_dice: r.read("bonus_dice", |c| {
            let at = c.peek().map(|v| v.span).unwrap_or_default();
            let dice = u32::try_from(c.modifier()?)
                .map_err(|_| Problem::new(at, "bonus dice cannot be negative"))?;
            c.keyword("within")?;
            Ok(CloseBonusDice { dice, within: c.inches()? })
        }),
        max_range: r.read("max_range", |c| c.inches()),
        free_screen: r.flag("free_screen"),
    }
}

fn read_marker(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Marker {
    let excess = r.read("excess", |c| c.word("a marker id"));
    if let Some(e) = &excess {
        r.refer(EntryKind::Marker, e);
    }
    Marker {
        meta,
        module: r.read("module", |c| c.word("a module name")).map(|w| w.value),
        applies_to: r.read("applies_to", |c| c.choices::<Arm>()).unwrap_or_default(),
        max: r.read("max", |c| c.count("a number of markers")),
        excess: excess.map(|e| e.value),
        to_hit: r.read_all("to_hit", |c| {
            let value = c.modifier()?;
            let beyond = if c.eat("beyond") { Some(c.inches()?) } else { None };
            Ok(ToHitModifier { value, beyond })
        }),
        move_penalty: r.read("move", |c| c.signed_inches()).unwrap_or(0.0),
        melee: r.read("melee", read_melee),
        no_assault: r.flag("no_assault"),
        no_double_time: r.flag("no_double_time"),
        shock_triggers: r.read_all("shock_trigger", |c| {
            let sixes = c.count("a number of natural 6s")?;
            Ok(ShockTrigger { sixes, reach: read_reach(c)? })
        }),
        discipline_mods: r.read_all("discipline_mod", |c| {
            Ok(SaveConditionModifier { condition: c.choice::<SaveCondition>()?, value: c.modifier()? })
        }),
        smoke_wall: r.read("smoke_wall", |c| {
            let regiments = c.count("a number of regiments")?;
            c.keyword("beyond")?;
            Ok(SmokeWall { regiments, beyond: c.inches()? })
        }),
        removed_by: r.read("removed_by", |c| c.choices::<SmokeClearing>()).unwrap_or_default(),
        trigger_ones: r.read("trigger_ones", |c| c.count("a number of natural 1s")),
        hits_per_stand: r.read("hits_per_stand", |c| c.count("a number of hits")),
        first_volley_only: r.flag("first_volley_only"),
    }
}

fn read_health(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Health {
    let above_percent = r.read("above", |c| c.percent());
    let below_percent = r.read("below", |c| c.percent());
    if let (Some(above), Some(below), Some(prop)) = (above_percent, below_percent, r.first("below")) {
        if below <= above {
            r.inconsistent(
                prop.span,
                "below",
                &format!("no share of stands is both above {above}% and below {below}%"),
                "make `below` greater than `above`, or keep one of them",
            );
        }
    }
    Health {
        meta,
        above_percent,
        below_percent,
        at_most_stands: r.read("at_most", |c| c.count("a number of stands")),
        melee: r.read("melee", read_melee),
        assault_needs_brigadier: r.flag("assault_needs_brigadier"),
        tests_under_fire: r.flag("tests_under_fire"),
        removed: r.flag("removed"),
    }
}

fn read_brigade_state(r: &mut Reader<'_, '_>, meta: EntryMeta) -> BrigadeState {
    let entry = r.entry;
    let mut table: Vec<(u32, u32)> = Vec::new();
    for prop in entry.props.iter().filter(|p| p.key.value == "table") {
        let Some(row) = r.parse(prop, |c| {
            let at = c.peek().map(|v| v.span).unwrap_or_default();
            let stands = c.count("a number of starting stands")?;
            if stands == 0 {
                return Err(Problem::new(at, "a brigade starts with at least 1 stand"));
            }
            let at = c.peek().map(|v| v.span).unwrap_or_default();
            let lost = c.count("a number of stands lost")?;
            if lost > stands {
                return Err(Problem::new(at, format!("a brigade of {stands} stands cannot lose {lost}")));
            }
            Ok((stands, lost))
        }) else {
            continue;
        };
        if table.iter().any(|(stands, _)| *stands == row.0) {
            r.inconsistent(
                prop.span,
                "table",
                &format!("a row for {} starting stands is already given", row.0),
                "keep one row per brigade size",
            );
            continue;
        }
        table.push(row);
    }
    BrigadeState {
        meta,
        losses_percent: r.read("losses", |c| c.percent()).unwrap_or(0),
        table,
        to_hit: r.read("to_hit", |c| c.modifier()).unwrap_or(0),
        discipline: r.read("discipline", |c| c.modifier()).unwrap_or(0),
        no_assault: r.flag("no_assault"),
        no_double_time: r.flag("no_double_time"),
        disorders_all: r.flag("disorders_all"),
        forfeits_pips: r.flag("forfeits_pips"),
        no_fire: r.flag("no_fire"),
        no_rally: r.flag("no_rally"),
        routs_when_charged: r.flag("routs_when_charged"),
        retreat: r.read("retreat", |c| c.inches()),
    }
}

fn read_leader_result(r: &mut Reader<'_, '_>, meta: EntryMeta) -> LeaderResult {
    let rolls = r
        .read("roll", |c| {
            let low = c.face()?;
            if !c.eat("to") {
                return Ok((low, low));
            }
            let at = c.peek().map(|v| v.span).unwrap_or_default();
            let high = c.face()?;
            if high < low {
                return Err(Problem::new(at, format!("a run of rolls goes upward: `{high} to {low}`")));
            }
            Ok((low, high))
        })
        .unwrap_or((0, 0));
    let replacement = r.read("replacement", |c| c.word("a rating id"));
    if let Some(rating) = &replacement {
        r.refer(EntryKind::Rating, rating);
    }
    let removed = r.flag("removed");
    if let (Some(prop), false) = (r.first("replacement"), removed) {
        r.inconsistent(
            prop.span,
            "replacement",
            "a colonel takes over only from a leader who is removed",
            "add `removed`, or leave out `replacement`",
        );
    }
    LeaderResult {
        meta,
        rolls,
        pips: r.read("pips", |c| c.modifier()).unwrap_or(0),
        removed,
        disorders_unit: r.flag("disorders_unit"),
        loses_unspent_pips: r.flag("loses_unspent_pips"),
        permanent: r.flag("permanent"),
        replacement: replacement.map(|w| w.value),
    }
}

fn read_melee_result(r: &mut Reader<'_, '_>, meta: EntryMeta) -> MeleeResult {
    let result = MeleeResult {
        meta,
        cavalry: r.flag("cavalry"),
        margin: r.read("margin", |c| {
            let at = c.peek().map(|v| v.span).unwrap_or_default();
            let margin = c.count("a winning margin")?;
            if margin == 0 { Err(Problem::new(at, "a winning margin is at least 1")) } else { Ok(margin) }
        }),
        fresh_only: r.flag("fresh_only"),
        enemy_removed: r.flag("enemy_removed"),
        stands: r.read("stands", |c| c.count("a number of stands")).unwrap_or(0),
        micro_hits: r.read("micro_hits", |c| c.count("a number of micro-hits")).unwrap_or(0),
        disorder: r.flag("disorder"),
        retreat: r.read("retreat", |c| c.inches()),
        locked: r.flag("locked"),
        consolidate: r.read("consolidate", |c| c.inches()),
        pips: r.read("pips", |c| c.count("a number of pips")).unwrap_or(0),
        sweep: r.read("sweep", |c| c.inches()),
    };
    if let (Some(_), Some(prop)) = (result.retreat, r.first("locked")) {
        r.inconsistent(
            prop.span,
            "locked",
            "a unit cannot both stay in contact and retreat",
            "keep `locked` or `retreat`, not both",
        );
    }
    result
}

fn read_modifier(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Modifier {
    Modifier {
        meta,
        to_hit: r.read("to_hit", |c| c.modifier()).unwrap_or(0),
        melee: r.read("melee", read_melee),
        opponent_melee: r.read("opponent_melee", |c| c.modifier()).unwrap_or(0),
        discipline: r.read("discipline", |c| c.modifier()).unwrap_or(0),
        run: r.read("run", |c| c.inches()),
        engaged: r.read("engaged", |c| c.count("a number of stands")),
    }
}

// ------------------------------------------------------------------ summaries

fn fmt_num(n: f64) -> String {
    if n.fract() == 0.0 { format!("{}", n as i64) } else { format!("{n}") }
}

fn fmt_signed(n: f64) -> String {
    if n >= 0.0 { format!("+{}", fmt_num(n)) } else { fmt_num(n) }
}

fn fmt_mod(n: i32) -> String {
    if n >= 0 { format!("+{n}") } else { n.to_string() }
}

fn fmt_melee(m: &MeleeModifier) -> String {
    format!("melee {} {}", fmt_mod(m.value), m.side.word())
}

fn fmt_cover(c: &Cover) -> String {
    match c.save {
        Some(save) => format!("{} cover ({save}+)", c.class.word()),
        None => String::from("no cover"),
    }
}

fn fmt_cost(c: &Cost) -> String {
    match c {
        Cost::Half => String::from("half move"),
        Cost::All => String::from("whole move"),
        Cost::Inches(n) => format!("{}\"", fmt_num(*n)),
    }
}

fn fmt_bands(bands: &[Band]) -> String {
    let parts: Vec<String> = bands
        .iter()
        .map(|b| format!("{} {}-{}\" {}+", b.name.word(), fmt_num(b.from), fmt_num(b.to), b.hits))
        .collect();
    parts.join(", ")
}

fn fmt_pips(p: &PipCost) -> String {
    let pips = if p.pips == 1 { String::from("1 pip") } else { format!("{} pips", p.pips) };
    match p.condition {
        PipCondition::Always => pips,
        PipCondition::Within(d) => format!("{pips} within {}\"", fmt_num(d)),
        PipCondition::Beyond(d) => format!("{pips} beyond {}\"", fmt_num(d)),
        PipCondition::Per(unit) => format!("{pips} per {}", unit.word()),
    }
}

fn summary_of<T: RuleEntry>(entry: &T) -> String {
    let meta = entry.meta();
    let mut text = format!("{}: {}.", meta.title(), entry.describe());
    if let Some(note) = &meta.note {
        text.push(' ');
        text.push_str(note);
    }
    if let Some(source) = &meta.source {
        text.push_str(&format!(" ({source})"));
    }
    text
}

macro_rules! rule_entry {
    ($($t:ty),+) => {
        $(impl RuleEntry for $t {
            fn meta(&self) -> &EntryMeta {
                &self.meta
            }

            fn meta_mut(&mut self) -> &mut EntryMeta {
                &mut self.meta
            }

            fn describe(&self) -> String {
                describe(self)
            }
        })+
    };
}

rule_entry!(
    Weapon,
    TerrainKind,
    Obstacle,
    Structure,
    MovementRate,
    Formation,
    Rating,
    Tier,
    Order,
    Quality,
    Trait,
    Marker,
    Health,
    BrigadeState,
    LeaderResult,
    MeleeResult,
    Modifier
);

/// The numbers of an entry in one line.
trait Describe {
    fn parts(&self) -> Vec<String>;
}

fn describe<T: Describe>(entry: &T) -> String {
    entry.parts().join("; ")
}

impl Describe for Weapon {
    fn parts(&self) -> Vec<String> {
        let per = self.dice.per.word();
        let mut parts =
            vec![format!("{}, {}D6 per {per}", self.class.word().replace('_', " "), self.dice.dice)];
        match self.bonus_dice {
            Some(BonusDice::Flat { dice }) => parts.push(format!("+{dice} bonus dice")),
            Some(BonusDice::PerStands { dice, stands }) => {
                parts.push(format!("+{dice} bonus die per {stands} stands"))
            }
            None => {}
        }
        parts.push(fmt_bands(&self.bands));
        if !self.cavalry_bands.is_empty() {
            parts.push(format!("cavalry: {}", fmt_bands(&self.cavalry_bands)));
        }
        if let Some(m) = &self.melee {
            parts.push(fmt_melee(m));
        }
        if self.structure_damage != 0 {
            parts.push(format!("{} damage to structures", fmt_mod(self.structure_damage)));
        }
        if self.canister_disorder {
            parts.push(String::from("canister disorders"));
        }
        if self.ignores_obstacle_light_cover {
            parts.push(String::from("ignores light cover of obstacles"));
        }
        parts
    }
}

impl Describe for TerrainKind {
    fn parts(&self) -> Vec<String> {
        let shapes: Vec<&str> = self.shapes.iter().map(|s| s.word()).collect();
        let mut parts = vec![shapes.join("/")];
        parts.push(match self.movement {
            TerrainMove::Impassable => String::from("impassable"),
            TerrainMove::Passable { column, penalty, cap } => {
                let mut m = format!("{} rate", column.word());
                if penalty != 0.0 {
                    m.push_str(&format!(" {}\"", fmt_signed(penalty)));
                }
                if let Some(cap) = cap {
                    m.push_str(&format!(", at most {}\"", fmt_num(cap)));
                }
                m
            }
        });
        if self.exit_full_turn {
            parts.push(String::from("leaving takes a full turn"));
        }
        parts.push(fmt_cover(&self.cover));
        match self.los {
            SightLimit::Inches(0.0) => parts.push(String::from("blocks sight")),
            SightLimit::Inches(d) => parts.push(format!("sight stops {}\" in", fmt_num(d))),
            SightLimit::Unlimited => {}
        }
        if let Some(m) = &self.melee {
            parts.push(fmt_melee(m));
        }
        if self.charge_penalty != 0.0 {
            parts.push(format!("charge {}\"", fmt_signed(self.charge_penalty)));
        }
        let flags = [
            (self.conceals, "conceals"),
            (self.halts_charges, "halts charges"),
            (self.formed_disorder, "formed units disorder on entering"),
            (self.crossings_only, "fords and bridges only"),
        ];
        parts.extend(flags.iter().filter(|(on, _)| *on).map(|(_, text)| text.to_string()));
        parts
    }
}

impl Describe for Obstacle {
    fn parts(&self) -> Vec<String> {
        let mut parts = vec![match self.crossing {
            Crossing::Unlisted => String::from("crossing cost unlisted"),
            Crossing::Inches { cost, check: None } => format!("crossing {}\"", fmt_num(cost)),
            Crossing::Inches { cost, check: Some(t) } => {
                format!("crossing {}\" and a {t}+ Discipline check", fmt_num(cost))
            }
        }];
        parts.push(fmt_cover(&self.cover));
        if let Some(m) = &self.melee {
            parts.push(fmt_melee(m));
        }
        let flags = [
            (self.conceals, "conceals"),
            (self.cancels_momentum, "no charging momentum"),
            (self.formed_disorder, "formed units disorder crossing"),
            (self.anchored_flank_immune, "no flank shock when anchored"),
        ];
        parts.extend(flags.iter().filter(|(on, _)| *on).map(|(_, text)| text.to_string()));
        parts
    }
}

impl Describe for Structure {
    fn parts(&self) -> Vec<String> {
        let mut parts = vec![format!("holds {} stands", self.capacity), fmt_cover(&self.cover)];
        if let Some(m) = &self.melee {
            parts.push(fmt_melee(m));
        }
        if let Some(arc) = self.arc {
            parts.push(format!("{arc}-degree arc"));
        }
        if let (Some(damage), Some(at)) = (self.damage, self.collapse_at) {
            parts.push(format!("solid shot damages on {damage}+, collapses at {at}"));
        }
        parts
    }
}

impl Describe for MovementRate {
    fn parts(&self) -> Vec<String> {
        let mut parts = vec![format!(
            "open {}\", rough {}\", road {}\"",
            fmt_num(self.open),
            fmt_num(self.rough),
            fmt_num(self.road)
        )];
        parts.push(match self.obstacle {
            ObstacleCost::Penalty(p) => format!("obstacles {}\"", fmt_signed(p)),
            ObstacleCost::Free => String::from("obstacles free"),
            ObstacleCost::Impassable => String::from("cannot cross obstacles"),
            ObstacleCost::Unlisted => String::from("obstacle cost unlisted"),
        });
        parts.push(match self.charge {
            Charge::Inches(d) => format!("charge {}\"", fmt_num(d)),
            Charge::Prohibited => String::from("cannot charge"),
            Charge::NotApplicable => String::from("no charge"),
        });
        if let Some(limber) = &self.limber {
            parts.push(format!("limbering costs {}", fmt_cost(limber)));
        }
        if self.unlimber_and_fire {
            parts.push(String::from("may unlimber and fire in one turn"));
        }
        parts
    }
}

impl Describe for Formation {
    fn parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        match (self.speed, self.speed_max) {
            (Some(s), Some(max)) => parts.push(format!("speed {}-{}\"", fmt_num(s), fmt_num(max))),
            (Some(s), None) => parts.push(format!("speed {}\"", fmt_num(s))),
            _ => {}
        }
        parts.push(match self.fire {
            Firepower::All => String::from("every stand fires"),
            Firepower::Front(n) => format!("front {} fire", plural(n, "stand")),
            Firepower::None => String::from("cannot fire"),
        });
        if let Frontage::Stands(n) = self.frontage {
            parts.push(format!("{} wide", plural(n, "stand")));
        }
        parts.extend(self.melee.iter().map(fmt_melee));
        for s in &self.saves {
            let against = if s.artillery_only { " against artillery" } else { "" };
            parts.push(format!("saves {}{against}", fmt_mod(s.value)));
        }
        if let Some(cover) = &self.cover {
            parts.push(format!("{} in the open", fmt_cover(cover)));
        }
        if self.cover_bonus != 0 {
            parts.push(format!("cover {}", fmt_mod(self.cover_bonus)));
        }
        if self.to_hit != 0 {
            parts.push(format!("to hit {}", fmt_mod(self.to_hit)));
        }
        if self.no_assault {
            parts.push(String::from("cannot assault"));
        }
        match self.charged {
            WhenCharged::Melee => {}
            WhenCharged::Removed => parts.push(String::from("destroyed if charged")),
            WhenCharged::Overrun { stands, fall_back } => parts.push(format!(
                "overrun if charged: loses {}, falls back {}\"",
                plural(stands, "stand"),
                fmt_num(fall_back)
            )),
        }
        parts
    }
}

impl Describe for Rating {
    fn parts(&self) -> Vec<String> {
        let mut formula = format!("1D{}", self.die);
        if self.bonus != 0 {
            formula.push_str(&fmt_mod(self.bonus));
        }
        let (low, high) = self.pip_range();
        let halved = match self.halve {
            Some(Rounding::Up) => ", halved rounding up",
            Some(Rounding::Down) => ", halved rounding down",
            None => "",
        };
        vec![format!("{formula} pips{halved} ({low}-{high})")]
    }
}

impl Describe for Tier {
    fn parts(&self) -> Vec<String> {
        let mut parts = vec![match self.reach {
            Reach::Within(d) => format!("tier {} up to {}\"", self.level, fmt_num(d)),
            Reach::Beyond(d) => format!("tier {} beyond {}\"", self.level, fmt_num(d)),
        }];
        parts.push(match self.order_cost {
            OrderCost::Standard => String::from("orders at standard cost"),
            OrderCost::Double => String::from("orders cost double"),
            OrderCost::Prohibited => String::from("no orders"),
        });
        if self.discipline != 0 {
            parts.push(format!("Discipline {}", fmt_mod(self.discipline)));
        }
        parts
    }
}

impl Describe for Order {
    fn parts(&self) -> Vec<String> {
        let phases: Vec<String> = self.phases.iter().map(u32::to_string).collect();
        let mut parts = vec![format!("phase {}", phases.join(" or "))];
        if let Some(p) = self.resolved_in {
            parts.push(format!("resolved in phase {p}"));
        }
        let pips: Vec<String> = self.pips.iter().map(fmt_pips).collect();
        parts.push(pips.join(", "));
        if let Some(n) = self.min_regiments {
            parts.push(format!("at least {}", plural(n, "regiment")));
        }
        if let Some(n) = self.max_regiments {
            parts.push(format!("at most {}", plural(n, "regiment")));
        }
        if let Some(d) = self.adjacent_within {
            parts.push(format!("side by side within {}\"", fmt_num(d)));
        }
        if let Some(d) = self.charge {
            parts.push(format!("charge {}\"", fmt_num(d)));
        }
        if let Some(d) = self.move_bonus {
            parts.push(format!("+{}\" move", fmt_num(d)));
        }
        if let Some(n) = self.max_sections {
            parts.push(format!("up to {}", plural(n, "section")));
        }
        if self.target_save != 0 {
            parts.push(format!("target saves {}", fmt_mod(self.target_save)));
        }
        if self.removes_disorder > 0 {
            parts.push(format!("removes {} Disorder", self.removes_disorder));
        }
        if let Some(banks) = &self.banks {
            let reactions: Vec<String> = banks.reactions.iter().map(|r| r.word().replace('_', " ")).collect();
            parts.push(format!("banks {} for {}", plural(banks.pips, "pip"), reactions.join(" or ")));
        }
        if let Some(d) = self.max_wheel {
            parts.push(format!("wheel up to {d} degrees"));
        }
        if let Some(d) = self.interruption {
            parts.push(format!("pauses {}\" from the target for the Closing Volley", fmt_num(d)));
        }
        if let Some(d) = self.stall {
            parts.push(format!("a failed charger stops {}\" away", fmt_num(d)));
        }
        parts
    }
}

impl Describe for Quality {
    fn parts(&self) -> Vec<String> {
        let mut parts = vec![format!("Discipline {}+, rally {}+", self.discipline, self.rally)];
        if !self.traits.is_empty() {
            parts.push(format!("always has {}", self.traits.join(", ")));
        }
        parts
    }
}

impl Describe for Trait {
    fn parts(&self) -> Vec<String> {
        let mut parts = vec![self.category.word().to_string()];
        parts.extend(self.melee.iter().map(fmt_melee));
        for d in &self.discipline {
            parts.push(format!("Discipline {} vs {}", fmt_mod(d.value), d.cause.word().replace('_', " ")));
        }
        if let Some(check) = &self.defender_check {
            parts.push(format!("{} defenders test on {}+", check.qualities.join("/"), check.target));
        }
        if let Some(t) = self.first_fire_check {
            parts.push(format!("tests on {t}+ when first hurt by fire"));
        }
        if let Some(a) = &self.ignore_suppression {
            parts.push(format!("ignores {} Shock result per {}", a.count, a.per.word()));
        }
        if let Some(t) = self.rally {
            parts.push(format!("rallies on {t}+"));
        }
        for r in &self.rerolls {
            let mut text = format!("re-rolls {} {}", r.count, r.what.word().replace('_', " "));
            if let Some(band) = r.band {
                text.push_str(&format!(" at {} range", band.word()));
            }
            if let Some(per) = r.per {
                text.push_str(&format!(" per {}", per.word()));
            }
            parts.push(text);
        }
        for h in &self.hits {
            parts.push(format!("hits {}+ at {} range", h.hits, h.band.word()));
        }
        if let Some(b) = &self.bonus_dice {
            parts.push(format!("+{} within {}\"", plural(b.dice, "die"), fmt_num(b.within)));
        }
        if let Some(m) = self.max_range {
            parts.push(format!("cannot fire beyond {}\"", fmt_num(m)));
        }
        if self.free_screen {
            parts.push(String::from("free skirmish screen"));
        }
        parts
    }
}

impl Describe for Marker {
    fn parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if let Some(module) = &self.module {
            parts.push(format!("optional module {module}"));
        }
        for t in &self.shock_triggers {
            parts.push(match t.reach {
                Reach::Within(d) => format!("{} at {}\" or less", plural(t.sixes, "natural 6"), fmt_num(d)),
                Reach::Beyond(d) => {
                    format!("{} beyond {}\"", plural(t.sixes, "natural 6"), fmt_num(d))
                }
            });
        }
        if let Some(n) = self.trigger_ones {
            parts.push(format!("given by {n} or more natural 1s in a volley"));
        }
        for t in &self.to_hit {
            match t.beyond {
                Some(d) => parts.push(format!("to hit {} beyond {}\"", fmt_mod(t.value), fmt_num(d))),
                None => parts.push(format!("to hit {}", fmt_mod(t.value))),
            }
        }
        if self.first_volley_only {
            parts.push(String::from("first volley only"));
        }
        if self.move_penalty != 0.0 {
            parts.push(format!("move {}\"", fmt_signed(self.move_penalty)));
        }
        if let Some(m) = &self.melee {
            parts.push(fmt_melee(m));
        }
        if let Some(wall) = &self.smoke_wall {
            parts.push(format!(
                "{} adjacent regiments make a wall blocking sight beyond {}\"",
                wall.regiments,
                fmt_num(wall.beyond)
            ));
        }
        if let Some(n) = self.hits_per_stand {
            parts.push(format!("{n} unsaved hits make a lost stand"));
        }
        match (self.max, &self.excess) {
            (Some(max), Some(excess)) => parts.push(format!("at most {max}; one more becomes a {excess}")),
            (Some(max), None) => parts.push(format!("at most {max}")),
            _ => {}
        }
        if parts.is_empty() {
            parts.push(String::from("marker"));
        }
        parts
    }
}

impl Describe for Health {
    fn parts(&self) -> Vec<String> {
        let mut bounds = Vec::new();
        if let Some(p) = self.above_percent {
            bounds.push(format!("above {p}% of its starting stands"));
        }
        if let Some(p) = self.below_percent {
            bounds.push(format!("below {p}% of its starting stands"));
        }
        if let Some(n) = self.at_most_stands {
            bounds.push(format!("{} or fewer", plural(n, "stand")));
        }
        let mut parts =
            vec![if bounds.is_empty() { String::from("no bound of its own") } else { bounds.join(", or ") }];
        match &self.melee {
            Some(m) => parts.push(fmt_melee(m)),
            None if !self.removed => parts.push(String::from("no melee modifier")),
            None => {}
        }
        let flags = [
            (self.assault_needs_brigadier, "assaults only with the brigadier attached"),
            (self.tests_under_fire, "tests Discipline when fired on"),
            (self.removed, "removed from the table"),
        ];
        parts.extend(flags.iter().filter(|(on, _)| *on).map(|(_, text)| text.to_string()));
        parts
    }
}

impl Describe for BrigadeState {
    fn parts(&self) -> Vec<String> {
        let mut parts = vec![format!("from {}% of the brigade's stands lost", self.losses_percent)];
        if !self.table.is_empty() {
            let rows: Vec<String> =
                self.table.iter().map(|(stands, lost)| format!("{lost} of {stands}")).collect();
            parts.push(format!("table: {}", rows.join(", ")));
        }
        if self.to_hit != 0 {
            parts.push(format!("to hit {} in Phase 3", fmt_mod(self.to_hit)));
        }
        if self.discipline != 0 {
            parts.push(format!("Discipline {}", fmt_mod(self.discipline)));
        }
        if let Some(d) = self.retreat {
            parts.push(format!("retreats {}\" a turn", fmt_num(d)));
        }
        let flags = [
            (self.no_assault, "no assaults"),
            (self.no_double_time, "no double-time"),
            (self.disorders_all, "every unit disordered"),
            (self.forfeits_pips, "unspent pips lost"),
            (self.no_fire, "no shooting"),
            (self.no_rally, "no rallies"),
            (self.routs_when_charged, "routs if charged"),
        ];
        parts.extend(flags.iter().filter(|(on, _)| *on).map(|(_, text)| text.to_string()));
        parts
    }
}

impl Describe for LeaderResult {
    fn parts(&self) -> Vec<String> {
        let (low, high) = self.rolls;
        let mut parts = vec![if low == high {
            format!("on a roll of {low}")
        } else {
            format!("on a roll of {low}-{high}")
        }];
        if self.pips != 0 {
            parts.push(format!("{} every later turn", plural_signed(self.pips, "pip")));
        }
        if self.removed {
            parts.push(String::from("leader removed"));
        }
        if let Some(rating) = &self.replacement {
            let kept = if self.permanent { " for good" } else { "" };
            parts.push(format!("a {rating} colonel takes over{kept}"));
        }
        if self.disorders_unit {
            parts.push(String::from("the regiment is disordered"));
        }
        if self.loses_unspent_pips {
            parts.push(String::from("unspent pips lost"));
        }
        if parts.len() == 1 {
            parts.push(String::from("no effect"));
        }
        parts
    }
}

impl Describe for MeleeResult {
    fn parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if self.cavalry {
            parts.push(String::from("between two cavalry units"));
        }
        if let Some(m) = self.margin {
            parts.push(format!("won by {m} or more"));
        }
        if self.fresh_only {
            parts.push(String::from("Fresh units only"));
        }
        if self.enemy_removed {
            parts.push(String::from("the enemy routed or destroyed"));
        }
        if self.stands > 0 {
            parts.push(format!("loses {}", plural(self.stands, "stand")));
        }
        if self.micro_hits > 0 {
            parts.push(plural(self.micro_hits, "micro-hit"));
        }
        if let Some(d) = self.retreat {
            parts.push(format!("retreats {}\"", fmt_num(d)));
        }
        if self.disorder {
            parts.push(String::from("disordered"));
        }
        if self.locked {
            parts.push(String::from("stays in contact"));
        }
        if let Some(d) = self.consolidate {
            parts.push(format!("may consolidate {}\"", fmt_num(d)));
        }
        if self.pips > 0 {
            parts.push(format!("costs {}", plural(self.pips, "pip")));
        }
        if let Some(d) = self.sweep {
            parts.push(format!("sweeps {}\" on", fmt_num(d)));
        }
        if parts.is_empty() {
            parts.push(String::from("no effect"));
        }
        parts
    }
}

impl Describe for Modifier {
    fn parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if self.to_hit != 0 {
            parts.push(format!("to hit {}", fmt_mod(self.to_hit)));
        }
        if let Some(m) = &self.melee {
            parts.push(fmt_melee(m));
        }
        if self.opponent_melee != 0 {
            parts.push(format!("the other side {} in melee", fmt_mod(self.opponent_melee)));
        }
        if self.discipline != 0 {
            parts.push(format!("Discipline {}", fmt_mod(self.discipline)));
        }
        if let Some(d) = self.run {
            parts.push(format!("needs {}\" of open ground", fmt_num(d)));
        }
        if let Some(n) = self.engaged {
            parts.push(format!("counts as {} engaged", plural(n, "stand")));
        }
        if parts.is_empty() {
            parts.push(String::from("modifier"));
        }
        parts
    }
}

/// `-1 pip`, `+2 pips`.
fn plural_signed(n: i32, word: &str) -> String {
    if n.abs() == 1 { format!("{} {word}", fmt_mod(n)) } else { format!("{} {word}s", fmt_mod(n)) }
}

fn plural(n: u32, word: &str) -> String {
    if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Ident;

    /// Builds syntax trees by hand, giving every node its own span so labels can be checked.
    #[derive(Default)]
    struct Build {
        next: usize,
    }

    impl Build {
        fn span(&mut self, len: usize) -> Span {
            let span = Span::new(self.next, self.next + len);
            self.next += len + 1;
            span
        }

        fn ident(&mut self, word: &str) -> Ident {
            Spanned::new(word.to_string(), self.span(word.len()))
        }

        fn value(&mut self, token: &str) -> Spanned<Value> {
            let span = self.span(token.len());
            let value = if let Some(text) = token.strip_prefix('"') {
                Value::Text(text.trim_end_matches('"').to_string())
            } else if let Some(t) = token.strip_suffix('+').filter(|t| t.chars().all(|c| c.is_ascii_digit()))
            {
                Value::Target(t.parse().unwrap())
            } else if token.starts_with(['+', '-']) {
                Value::Signed(token.parse().unwrap())
            } else if let Ok(n) = token.parse::<f64>() {
                Value::Number(n)
            } else {
                Value::Word(token.to_string())
            };
            Spanned::new(value, span)
        }

        /// One property line, written as in a file: `short to 6 hits 4+`. A quoted value runs
        /// to the end of the line; commas are dropped as the grammar drops them.
        fn prop(&mut self, line: &str) -> Prop {
            let start = self.next;
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            let key = self.ident(key);
            let mut values = Vec::new();
            if rest.starts_with('"') {
                values.push(self.value(rest));
            } else {
                for token in rest.split([' ', ',']).filter(|t| !t.is_empty()) {
                    values.push(self.value(token));
                }
            }
            Prop { span: Span::new(start, self.next - 1), key, values }
        }

        fn entry(&mut self, kind: &str, id: &str, lines: &[&str]) -> Entry {
            let start = self.next;
            let kind = self.ident(kind);
            let id = self.ident(id);
            let props = lines.iter().map(|l| self.prop(l)).collect();
            Entry { span: Span::new(start, self.next), kind, id, name: None, props, broken: false }
        }
    }

    fn library(entries: Vec<Entry>) -> Library {
        Library { span: Span::default(), name: None, entries, scripts: Vec::new() }
    }

    /// Read hand-built entries; return the data and the diagnostics.
    fn read(entries: Vec<Entry>) -> (RuleData, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let data = RuleData::from_libraries([&library(entries)], &mut diags);
        (data, diags)
    }

    fn codes(diags: &[Diagnostic]) -> Vec<&'static str> {
        diags.iter().map(|d| d.code).collect()
    }

    const RIFLED: &[&str] = &[
        "class small_arm",
        "dice 1 per stand",
        "short to 6 hits 4+",
        "medium to 14 hits 4+",
        "long to 20 hits 5+",
        "source \"Ch16 5.2\"",
    ];

    #[test]
    fn weapon_bands_and_pool() {
        let mut b = Build::default();
        let (data, diags) = read(vec![b.entry("weapon", "rifled_musket", RIFLED)]);
        assert!(diags.is_empty(), "{diags:#?}");
        let w = data.weapon("rifled_musket").unwrap();
        assert_eq!(w.class, WeaponClass::SmallArm);
        assert_eq!(w.dice, DicePool { dice: 1, per: DicePer::Stand });
        assert_eq!(w.bands[1], Band { name: BandName::Medium, from: 6.0, to: 14.0, hits: 4 });
        // RULINGS G4: a limit belongs to the nearer band.
        assert_eq!(w.band_at(Arm::Infantry, 0.0).unwrap().name, BandName::Short);
        assert_eq!(w.band_at(Arm::Infantry, 6.0).unwrap().name, BandName::Short);
        assert_eq!(w.band_at(Arm::Infantry, 6.1).unwrap().name, BandName::Medium);
        assert_eq!(w.band_at(Arm::Infantry, 20.0).unwrap().hits, 5);
        assert_eq!(w.band_at(Arm::Infantry, 20.5), None);
        assert_eq!(w.pool(5), 5);
        assert_eq!(w.meta.source.as_deref(), Some("Ch16 5.2"));
        assert!(data.summary(EntryKind::Weapon, "rifled_musket").unwrap().contains("medium 6-14\" 4+"));
    }

    #[test]
    fn breechloader_bonus_is_floor_half_and_cavalry_band_differs() {
        let mut b = Build::default();
        let (data, diags) = read(vec![b.entry(
            "weapon",
            "breechloading_carbine",
            &[
                "class carbine",
                "dice 1 per stand",
                "bonus_dice +1 per 2 stands",
                "short to 6 hits 4+",
                "medium to 14 hits 4+",
                "long to 20 hits 5+",
                "cavalry long to 18 hits 5+",
            ],
        )]);
        assert!(diags.is_empty(), "{diags:#?}");
        let w = data.weapon("breechloading_carbine").unwrap();
        // RULINGS G16: floor(stands / 2) bonus dice; five stands roll 7D6.
        assert_eq!((w.pool(1), w.pool(4), w.pool(5)), (1, 6, 7));
        // RULINGS C21: Ch16 5.2 for infantry, 10.3 for cavalry.
        assert_eq!(w.max_range(Arm::Infantry), 20.0);
        assert_eq!(w.max_range(Arm::Cavalry), 18.0);
        assert_eq!(w.band_at(Arm::Cavalry, 19.0), None);
        assert_eq!(
            w.band_at(Arm::Cavalry, 15.0).unwrap(),
            Band { name: BandName::Long, from: 14.0, to: 18.0, hits: 5 }
        );
    }

    #[test]
    fn unknown_kind_suggests_the_nearest() {
        let mut b = Build::default();
        let entry = b.entry("weapn", "x", &["class small_arm"]);
        let kind_span = entry.kind.span;
        let (data, diags) = read(vec![entry]);
        assert_eq!(codes(&diags), ["dotc::unknown-entry-kind"]);
        assert_eq!(diags[0].primary.span, kind_span);
        assert_eq!(diags[0].fix.as_ref().unwrap().replacement, "weapon");
        assert!(data.ids(EntryKind::Weapon).is_empty());
    }

    #[test]
    fn unknown_property_suggests_the_nearest_key() {
        let mut b = Build::default();
        let mut lines = RIFLED.to_vec();
        lines.push("shrt to 6 hits 4+");
        let entry = b.entry("weapon", "w", &lines);
        let key_span = entry.props.last().unwrap().key.span;
        let (_, diags) = read(vec![entry]);
        assert_eq!(codes(&diags), ["dotc::unknown-property"]);
        assert_eq!(diags[0].primary.span, key_span);
        assert_eq!(diags[0].help.as_deref(), Some("did you mean `short`?"));
    }

    #[test]
    fn bad_values_point_at_the_value() {
        let mut b = Build::default();
        let entry = b.entry(
            "weapon",
            "w",
            &[
                "class musket",
                "dice 1 per stand",
                "short 6 hits 4+",
                "medium to 14 hits 7+",
                "long to 20 hits 5+ extra",
            ],
        );
        let value = |p: usize, v: usize| entry.props[p].values[v].span;
        let spans = [value(0, 0), value(2, 0), value(3, 3), value(4, 4)];
        let (data, diags) = read(vec![entry]);
        assert_eq!(codes(&diags), ["dotc::bad-property"; 4]);
        let got: Vec<Span> = diags.iter().map(|d| d.primary.span).collect();
        assert_eq!(got, spans);
        assert!(diags[0].primary.text.contains("`small_arm`"), "{}", diags[0].primary.text);
        assert_eq!(diags[1].primary.text, "expected `to`, found the number 6");
        assert_eq!(diags[1].help.as_deref(), Some("write it as `short to <inches> hits <target>`"));
        assert_eq!(diags[2].primary.text, "a die target runs from 2+ to 6+");
        assert_eq!(diags[3].primary.text, "unexpected `extra`");
        // The entry is still recorded, so later checks know the id.
        assert!(data.contains(EntryKind::Weapon, "w"));
    }

    #[test]
    fn missing_property_is_reported_at_the_id() {
        let mut b = Build::default();
        let entry = b.entry("weapon", "w", &["class small_arm", "short to 6 hits 4+"]);
        let id_span = entry.id.span;
        let (_, diags) = read(vec![entry]);
        assert_eq!(codes(&diags), ["dotc::missing-property"]);
        assert_eq!(diags[0].primary.span, id_span);
        assert_eq!(diags[0].message, "weapon `w` has no `dice`");
        assert_eq!(diags[0].help.as_deref(), Some("add a line `dice <count> per stand|section`"));
    }

    #[test]
    fn weapon_without_bands_is_missing_one() {
        let mut b = Build::default();
        let (_, diags) = read(vec![b.entry("weapon", "w", &["class small_arm", "dice 1 per stand"])]);
        assert_eq!(codes(&diags), ["dotc::missing-property"]);
        assert!(diags[0].message.contains("`short`"));
    }

    #[test]
    fn duplicate_entry_keeps_the_first() {
        let mut b = Build::default();
        let first = b.entry("weapon", "w", RIFLED);
        let mut lines = RIFLED.to_vec();
        lines[2] = "short to 6 hits 2+";
        let second = b.entry("weapon", "w", &lines);
        let (first_span, second_span) = (first.id.span, second.id.span);
        let (data, diags) = read(vec![first, second]);
        assert_eq!(codes(&diags), ["dotc::duplicate-entry"]);
        assert_eq!(diags[0].primary.span, second_span);
        assert_eq!(diags[0].secondary[0].span, first_span);
        assert_eq!(data.weapon("w").unwrap().bands[0].hits, 4);
        assert_eq!(data.ids(EntryKind::Weapon), ["w"]);
    }

    #[test]
    fn same_id_in_two_kinds_is_fine() {
        let mut b = Build::default();
        let (_, diags) = read(vec![
            b.entry("formation", "line", &["fire all", "frontage all"]),
            b.entry(
                "movement",
                "line",
                &["arm infantry", "open 6", "rough 4", "road 6", "obstacle -2", "charge 9"],
            ),
        ]);
        assert!(diags.is_empty(), "{diags:#?}");
    }

    #[test]
    fn repeated_key_is_reported_with_the_first() {
        let mut b = Build::default();
        let mut lines = RIFLED.to_vec();
        lines.push("class carbine");
        let entry = b.entry("weapon", "w", &lines);
        let (first, again) = (entry.props[0].key.span, entry.props.last().unwrap().key.span);
        let (data, diags) = read(vec![entry]);
        assert_eq!(codes(&diags), ["dotc::bad-property"]);
        assert_eq!((diags[0].primary.span, diags[0].secondary[0].span), (again, first));
        assert_eq!(data.weapon("w").unwrap().class, WeaponClass::SmallArm);
    }

    #[test]
    fn bands_must_run_nearest_first() {
        let mut b = Build::default();
        let entry = b.entry(
            "weapon",
            "w",
            &[
                "class small_arm",
                "dice 1 per stand",
                "short to 6 hits 4+",
                "long to 20 hits 5+",
                "medium to 14 hits 4+",
            ],
        );
        let medium = entry.props[4].span;
        let (data, diags) = read(vec![entry]);
        assert_eq!(codes(&diags), ["dotc::bad-property"]);
        assert_eq!(diags[0].primary.span, medium);
        assert_eq!(data.weapon("w").unwrap().bands.len(), 2);
    }

    #[test]
    fn cavalry_line_must_replace_an_existing_band() {
        let mut b = Build::default();
        let mut lines: Vec<&str> = RIFLED[..4].to_vec();
        lines.push("cavalry long to 18 hits 5+");
        let (_, diags) = read(vec![b.entry("weapon", "w", &lines)]);
        assert_eq!(codes(&diags), ["dotc::bad-property"]);
        assert!(diags[0].primary.text.contains("no `long` band"));
    }

    #[test]
    fn flags_take_no_values() {
        let mut b = Build::default();
        let mut lines = RIFLED.to_vec();
        lines.push("canister_disorder yes");
        let (data, diags) = read(vec![b.entry("weapon", "w", &lines)]);
        assert_eq!(codes(&diags), ["dotc::bad-property"]);
        assert!(data.weapon("w").unwrap().canister_disorder);
    }

    #[test]
    fn terrain_values() {
        let mut b = Build::default();
        let (data, diags) = read(vec![
            b.entry(
                "terrain",
                "dense_woods",
                &["shape area", "move rough max 3", "cover light 5+", "los 3", "formed_disorder"],
            ),
            b.entry(
                "terrain",
                "cornfield",
                &["shape area", "move open -2", "cover light 5+", "los 4", "conceals", "melee +1 defender"],
            ),
        ]);
        assert!(diags.is_empty(), "{diags:#?}");
        let woods = data.terrain("dense_woods").unwrap();
        assert_eq!(
            woods.movement,
            TerrainMove::Passable { column: MoveColumn::Rough, penalty: 0.0, cap: Some(3.0) }
        );
        assert_eq!(woods.cover, Cover { class: CoverClass::Light, save: Some(5) });
        assert_eq!(woods.los, SightLimit::Inches(3.0));
        assert!(woods.formed_disorder && !woods.conceals);
        let corn = data.terrain("cornfield").unwrap();
        assert_eq!(
            corn.movement,
            TerrainMove::Passable { column: MoveColumn::Open, penalty: -2.0, cap: None }
        );
        assert_eq!(corn.melee, Some(MeleeModifier { value: 1, side: MeleeSide::Defender }));
    }

    #[test]
    fn light_cover_needs_its_save() {
        let mut b = Build::default();
        let (_, diags) =
            read(vec![b.entry("terrain", "t", &["shape area", "move open", "cover light", "los unlimited"])]);
        assert_eq!(codes(&diags), ["dotc::bad-property"]);
        assert_eq!(diags[0].primary.text, "expected a die target such as `4+` after this");
    }

    #[test]
    fn rating_formula_and_range_check() {
        let mut b = Build::default();
        let (data, diags) = read(vec![
            b.entry("rating", "timid", &["pips d3 halve up", "range 1 to 2"]),
            b.entry("rating", "aggressive", &["pips d3 +1", "range 2 to 5"]),
        ]);
        assert_eq!(codes(&diags), ["dotc::bad-property"]);
        assert_eq!(diags[0].primary.text, "the formula gives 2 to 4 pips, not 2 to 5");
        let timid = data.rating("timid").unwrap();
        // RULINGS G2: Timid = ceil(1D3 / 2) -> 1, 1, 2.
        assert_eq!([timid.pips(1), timid.pips(2), timid.pips(3)], [1, 1, 2]);
        assert_eq!(data.rating("aggressive").unwrap().pip_range(), (2, 4));
    }

    #[test]
    fn tier_needs_a_reach() {
        let mut b = Build::default();
        let (_, diags) = read(vec![b.entry("tier", "t", &["level 1", "order_cost standard"])]);
        assert_eq!(codes(&diags), ["dotc::missing-property"]);
        assert!(diags[0].message.contains("`within`"));
    }

    #[test]
    fn references_resolve_after_extend() {
        let mut b = Build::default();
        let quality = b.entry("quality", "green", &["discipline 5+", "rally 5+", "traits seen_the_elefant"]);
        let trait_span = quality.props[2].values[0].span;
        let (mut data, diags) = read(vec![quality]);
        assert!(diags.is_empty());
        let (traits, diags) = read(vec![b.entry("trait", "seen_the_elephant", &["category morale"])]);
        assert!(diags.is_empty());
        data.extend(traits);
        let mut diags = Vec::new();
        data.check_references(&mut diags);
        assert_eq!(codes(&diags), ["dotc::unknown-reference"]);
        assert_eq!(diags[0].primary.span, trait_span);
        assert_eq!(diags[0].fix.as_ref().unwrap().replacement, "seen_the_elephant");

        // A reference to an entry defined in the data it is laid over resolves.
        let (scenario, _) =
            read(vec![b.entry("quality", "raw", &["discipline 5+", "rally 5+", "traits seen_the_elephant"])]);
        let mut base = traits_only(&mut b);
        base.extend(scenario);
        let mut diags = Vec::new();
        base.check_references(&mut diags);
        assert!(diags.is_empty(), "{diags:#?}");
    }

    fn traits_only(b: &mut Build) -> RuleData {
        read(vec![b.entry("trait", "seen_the_elephant", &["category morale"])]).0
    }

    #[test]
    fn extend_adds_and_replaces() {
        let mut b = Build::default();
        let (mut data, _) = read(vec![b.entry("weapon", "rifled_musket", RIFLED)]);
        let whitworth = [
            "class small_arm",
            "dice 1 per stand",
            "short to 6 hits 4+",
            "medium to 14 hits 3+",
            "long to 24 hits 4+",
        ];
        let mut stronger = RIFLED.to_vec();
        stronger[3] = "medium to 14 hits 3+";
        let (scenario, diags) = read(vec![
            b.entry("weapon", "whitworth_rifle", &whitworth),
            b.entry("weapon", "rifled_musket", &stronger),
        ]);
        assert!(diags.is_empty());
        data.extend(scenario);
        assert_eq!(data.ids(EntryKind::Weapon), ["rifled_musket", "whitworth_rifle"]);
        assert_eq!(data.weapon("rifled_musket").unwrap().bands[1].hits, 3);
        assert_eq!(data.weapon("whitworth_rifle").unwrap().max_range(Arm::Infantry), 24.0);
    }

    #[test]
    fn every_kind_word_round_trips_and_keys_are_unique() {
        for kind in EntryKind::ALL {
            assert_eq!(EntryKind::from_word(kind.word()), Some(kind));
            let keys = kind.keys();
            for (i, key) in keys.iter().enumerate() {
                assert!(!keys[..i].contains(key), "{} repeats `{key}`", kind.word());
            }
        }
    }

    // ---------------------------------------------------------------- the stdlib

    /// Parse every stdlib file with the real parser and read it all.
    fn stdlib() -> (RuleData, Vec<String>) {
        let mut problems = Vec::new();
        let mut documents = Vec::new();
        for (file, source) in STDLIB_FILES {
            let parsed = crate::parse(source);
            problems.extend(parsed.diagnostics.iter().map(|d| format!("{file}: {}: {}", d.code, d.message)));
            assert_eq!(parsed.document.libraries.len(), 1, "{file} holds one library");
            documents.push((file, parsed.document));
        }
        let mut data = RuleData::default();
        for (file, document) in &documents {
            let mut diags = Vec::new();
            data.extend(RuleData::from_libraries(document.libraries.iter(), &mut diags));
            problems.extend(
                diags.iter().map(|d| format!("{file}: {}: {} ({})", d.code, d.message, d.primary.text)),
            );
        }
        // Entries are unique across files, not only within one.
        let mut diags = Vec::new();
        let all: Vec<&Library> = documents.iter().flat_map(|(_, d)| d.libraries.iter()).collect();
        let together = RuleData::from_libraries(all, &mut diags);
        together.check_references(&mut diags);
        problems
            .extend(diags.iter().map(|d| format!("stdlib: {}: {} ({})", d.code, d.message, d.primary.text)));
        (data, problems)
    }

    #[test]
    fn stdlib_reads_without_diagnostics() {
        let (data, problems) = stdlib();
        assert!(problems.is_empty(), "{problems:#?}");
        for kind in EntryKind::ALL {
            assert!(!data.ids(kind).is_empty(), "no {} in the stdlib", kind.word());
            for meta in data.metas(kind) {
                assert!(meta.name.is_some(), "{} {} has no display name", kind.word(), meta.id);
                assert!(meta.source.is_some(), "{} {} has no source", kind.word(), meta.id);
            }
        }
        assert!(serde_json::to_string(&data).is_ok());
    }

    #[test]
    fn stdlib_has_the_ids_scenarios_rely_on() {
        let (data, _) = stdlib();
        let expect = |kind: EntryKind, ids: &[&str]| {
            for id in ids {
                assert!(data.contains(kind, id), "stdlib lacks {} {id}", kind.word());
            }
        };
        expect(
            EntryKind::Weapon,
            &[
                "smoothbore_musket",
                "rifled_musket",
                "repeating_rifle",
                "breechloading_carbine",
                "muzzleloading_carbine",
                "shotgun_revolvers",
                "repeating_carbine",
                "napoleon",
                "ordnance_rifle",
                "parrott_rifle",
                "field_howitzer",
            ],
        );
        expect(
            EntryKind::Terrain,
            &[
                "open",
                "cornfield",
                "ploughed_field",
                "orchard",
                "light_woods",
                "dense_woods",
                "minor_stream",
                "major_river",
                "sunken_road",
                "road",
                "marsh",
                "town",
            ],
        );
        expect(EntryKind::Obstacle, &["rail_fence", "stone_wall", "hedge", "abatis", "breastworks"]);
        expect(EntryKind::Structure, &["masonry_building"]);
        expect(EntryKind::Formation, &["line", "assault_column", "road_column", "skirmish", "open_order"]);
        expect(EntryKind::Rating, &["aggressive", "reliable", "timid"]);
        expect(EntryKind::Quality, &["green", "regular", "veteran", "elite"]);
        expect(
            EntryKind::Trait,
            &[
                "rebel_yell",
                "seen_the_elephant",
                "iron_discipline",
                "steady",
                "sharpshooters",
                "buck_and_ball",
            ],
        );
        expect(EntryKind::Marker, &["disorder", "gunsmoke", "low_ammo", "clean_barrels", "micro_hit"]);
        expect(EntryKind::Health, &["fresh", "worn", "spent", "shattered"]);
        expect(EntryKind::BrigadeState, &["hesitant", "broken"]);
        expect(EntryKind::LeaderResult, &["unhurt", "lightly_wounded", "severely_wounded", "killed"]);
        expect(
            EntryKind::MeleeResult,
            &["defeated", "bloody_draw", "victor", "breakthrough", "cavalry_defeated"],
        );
        expect(
            EntryKind::Modifier,
            &["enfilade", "momentum", "brigadier_attached", "cavalry_shock", "battery_in_melee"],
        );
        expect(EntryKind::Order, &["regimental_assault", "dress_on_the_colors"]);
        assert_eq!(
            data.movement_rates().len(),
            11,
            "ten Ch16 3.1 rows plus horse artillery by hand (Ch16 10.4)"
        );
        assert_eq!(data.tiers().len(), 4);
    }

    #[test]
    fn stdlib_spot_values() {
        let (data, _) = stdlib();
        // Ch16 5.2
        let rifled = data.weapon("rifled_musket").unwrap();
        assert_eq!(rifled.bands[1], Band { name: BandName::Medium, from: 6.0, to: 14.0, hits: 4 });
        assert_eq!(data.weapon("smoothbore_musket").unwrap().max_range(Arm::Infantry), 14.0);
        assert_eq!(data.weapon("repeating_rifle").unwrap().pool(5), 7);
        assert_eq!(data.weapon("breechloading_carbine").unwrap().pool(5), 7);
        // RULINGS C21
        let carbine = data.weapon("breechloading_carbine").unwrap();
        assert_eq!((carbine.max_range(Arm::Infantry), carbine.max_range(Arm::Cavalry)), (20.0, 18.0));
        // Ch16 5.3
        let napoleon = data.weapon("napoleon").unwrap();
        assert_eq!(napoleon.bands[0], Band { name: BandName::Canister, from: 0.0, to: 6.0, hits: 2 });
        assert!(napoleon.canister_disorder);
        assert_eq!(napoleon.pool(2), 4);
        assert_eq!(data.weapon("ordnance_rifle").unwrap().band_at(Arm::Artillery, 24.0).unwrap().hits, 4);
        // Ch16 4.1, 4.2
        assert_eq!(data.terrain("dense_woods").unwrap().los, SightLimit::Inches(3.0));
        let wall = data.obstacle("stone_wall").unwrap();
        assert_eq!(wall.cover, Cover { class: CoverClass::Heavy, save: Some(4) });
        assert_eq!(wall.melee, Some(MeleeModifier { value: 2, side: MeleeSide::Defender }));
        assert_eq!(wall.crossing, Crossing::Inches { cost: 2.0, check: Some(4) });
        // Ch16 2.1
        let aggressive = data.rating("aggressive").unwrap();
        assert_eq!((aggressive.die, aggressive.bonus, aggressive.halve), (3, 1, None));
        let timid = data.rating("timid").unwrap();
        assert_eq!((timid.die, timid.halve), (3, Some(Rounding::Up)));
        assert_eq!(timid.pips(3), 2);
        // Ch16 3.1
        let line = data.movement("infantry_line").unwrap();
        assert_eq!((line.open, line.rough, line.charge), (6.0, 4.0, Charge::Inches(9.0)));
        assert_eq!(data.movement_for(Arm::Infantry, Some("line"), None).unwrap().meta.id, "infantry_line");
        assert_eq!(
            data.movement_for(Arm::Cavalry, Some("skirmish"), Some(MoveState::Dismounted)).unwrap().meta.id,
            "dismounted_cavalry"
        );
        // Ch16 5.5, 8.3
        let green = data.quality("green").unwrap();
        assert_eq!((green.discipline, green.rally), (5, 5));
        assert_eq!(green.traits, ["seen_the_elephant"]);
        // Ch16 3.2 (the runtime's footprint helpers)
        let column = data.formation("assault_column").unwrap();
        assert_eq!((column.frontage_stands(), column.firing_stands(5)), (Some(2), 2));
        assert_eq!(data.formation("line").unwrap().frontage_stands(), None);
        assert_eq!(data.formation("open_order").unwrap().gap_inches(), 1.0);
        assert_eq!(data.formation("line").unwrap().change_cost("assault_column"), Some(Cost::Half));
    }

    #[test]
    fn stdlib_command_tiers() {
        let (data, _) = stdlib();
        let tier = |d: f64| data.tier_at(d).unwrap().meta.id.as_str();
        let tiers: Vec<&str> = [0.0, 6.0, 6.1, 12.0, 24.0, 24.1].into_iter().map(tier).collect();
        assert_eq!(
            tiers,
            ["bugle", "bugle", "courier", "courier", "distant_courier", "out_of_communication"]
        );
        assert_eq!(data.tier("distant_courier").unwrap().order_cost.factor(), Some(2));
        assert_eq!(data.tier("out_of_communication").unwrap().order_cost.factor(), None);
        let rally = data.order("command_rally").unwrap();
        assert_eq!((rally.pip_cost(12.0), rally.pip_cost(12.5)), (Some(1), Some(2)));
    }

    #[test]
    fn stdlib_terrain_movement_follows_c24_and_c25() {
        let (data, _) = stdlib();
        let row = |id: &str| data.movement(id).unwrap();
        let terrain = |id: &str| data.terrain(id).unwrap();
        // RULINGS C24: the slower of the rough rate and the terrain cap.
        assert_eq!(terrain("light_woods").move_rate(row("infantry_line")), Some(4.0));
        assert_eq!(terrain("light_woods").move_rate(row("infantry_assault_column")), Some(4.0));
        assert_eq!(terrain("dense_woods").move_rate(row("infantry_road_column")), Some(3.0));
        assert_eq!(terrain("dense_woods").move_rate(row("artillery_limbered")), Some(3.0));
        assert_eq!(terrain("cornfield").move_rate(row("infantry_line")), Some(4.0));
        assert_eq!(terrain("road").move_rate(row("infantry_road_column")), Some(12.0));
        assert_eq!(terrain("major_river").move_rate(row("infantry_line")), None);
        // RULINGS C25: the higher of the formation's and the obstacle's cost.
        let obstacle = |id: &str| data.obstacle(id).unwrap();
        assert_eq!(obstacle("abatis").crossing_cost(row("infantry_line")), Some(3.0));
        assert_eq!(obstacle("rail_fence").crossing_cost(row("infantry_road_column")), Some(2.0));
        assert_eq!(obstacle("rail_fence").crossing_cost(row("artillery_limbered")), Some(4.0));
        assert_eq!(obstacle("rail_fence").crossing_cost(row("cavalry_column")), Some(2.0));
        assert_eq!(obstacle("breastworks").crossing_cost(row("infantry_line")), Some(2.0));
        assert_eq!(obstacle("stone_wall").crossing_cost(row("brigadier")), Some(0.0));
        assert_eq!(obstacle("hedge").crossing_cost(row("artillery_prolonge")), None);
    }

    #[test]
    fn stdlib_markers() {
        let (data, _) = stdlib();
        let disorder = data.marker("disorder").unwrap();
        // Ch16 5.5, RULINGS C3: one 6 at <= 6", two beyond.
        assert_eq!((disorder.sixes_for_shock(6.0), disorder.sixes_for_shock(6.5)), (Some(1), Some(2)));
        assert_eq!(disorder.excess.as_deref(), Some("micro_hit"));
        assert_eq!(data.marker("micro_hit").unwrap().hits_per_stand, Some(2));
        assert_eq!(data.marker("gunsmoke").unwrap().to_hit, [ToHitModifier { value: -1, beyond: Some(6.0) }]);
        let ball = data.army_trait("buck_and_ball").unwrap();
        assert_eq!(ball.hits, [BandHits { band: BandName::Short, hits: 3 }]);
        assert_eq!(ball.max_range, Some(14.0));
    }
    // ---------------------------------------------------------------- combat (stdlib/combat.dotc)

    /// The health state of a regiment with `left` of `starting` stands, as RULINGS C4 combines
    /// the stand counts and the percentages: the tightest stand count first, then a percentage,
    /// then the state with no bound of its own.
    fn health_c4(data: &RuleData, left: u32, starting: u32) -> Option<&str> {
        let states = data.health_states();
        states
            .iter()
            .filter(|h| h.by_stand_count(left))
            .min_by_key(|h| h.at_most_stands)
            .or_else(|| states.iter().find(|h| h.by_percentage(left, starting)))
            .or_else(|| {
                states.iter().find(|h| {
                    h.above_percent.is_none() && h.below_percent.is_none() && h.at_most_stands.is_none()
                })
            })
            .map(|h| h.meta.id.as_str())
    }

    #[test]
    fn stdlib_health_states_follow_c4_and_the_stand_count_table() {
        let (data, _) = stdlib();
        let fresh = data.health("fresh").unwrap();
        assert_eq!(fresh.above_percent, Some(75));
        assert_eq!(fresh.melee, Some(MeleeModifier { value: 1, side: MeleeSide::Either }));
        let worn = data.health("worn").unwrap();
        assert_eq!(
            (worn.above_percent, worn.below_percent, worn.at_most_stands, worn.melee),
            (None, None, None, None)
        );
        let spent = data.health("spent").unwrap();
        assert_eq!((spent.below_percent, spent.at_most_stands), (Some(35), Some(2)));
        assert_eq!(spent.melee, Some(MeleeModifier { value: -1, side: MeleeSide::Either }));
        assert!(spent.assault_needs_brigadier && spent.tests_under_fire && !spent.removed);
        let shattered = data.health("shattered").unwrap();
        assert_eq!((shattered.at_most_stands, shattered.removed), (Some(1), true));
        // Exact shares: 3 of 4 is 75%, not above it.
        assert!(!fresh.by_percentage(3, 4) && fresh.by_percentage(7, 8));
        assert!(spent.by_percentage(2, 6) && !spent.by_percentage(3, 8));
        assert!(!worn.by_percentage(5, 8) && !worn.by_stand_count(1));
        // Ch16 8.1 stand count table, row by row: (starting, [state for 1, 2, ... starting left]).
        let table: [(u32, &[&str]); 5] = [
            (8, &["shattered", "spent", "worn", "worn", "worn", "worn", "fresh", "fresh"]),
            (6, &["shattered", "spent", "worn", "worn", "fresh", "fresh"]),
            (5, &["shattered", "spent", "worn", "fresh", "fresh"]),
            (4, &["shattered", "spent", "worn", "fresh"]),
            (3, &["shattered", "spent", "fresh"]),
        ];
        for (starting, states) in table {
            for (left, want) in (1..=starting).zip(states.iter()) {
                assert_eq!(health_c4(&data, left, starting), Some(*want), "{left} of {starting} stands");
            }
        }
        // RULINGS C4 extends to sizes the table lacks: 10 stands, 3 left is 30%.
        assert_eq!(health_c4(&data, 3, 10), Some("spent"));
    }

    #[test]
    fn stdlib_brigade_clock() {
        let (data, _) = stdlib();
        let hesitant = data.brigade_state("hesitant").unwrap();
        assert_eq!(hesitant.losses_percent, 30);
        assert_eq!(hesitant.table, [(16, 5), (20, 6), (24, 7), (28, 8), (32, 10)]);
        assert_eq!((hesitant.to_hit, hesitant.discipline), (-1, -1));
        assert!(hesitant.no_assault && hesitant.no_double_time);
        assert!(!hesitant.no_fire && !hesitant.disorders_all && hesitant.retreat.is_none());
        // RULINGS G6: round-half-up(30%) fits every Hesitant row, ceil(50%) every Broken row.
        for (stands, lost) in &hesitant.table {
            assert_eq!((stands * 30 + 50) / 100, *lost, "Hesitant row for {stands} stands");
        }
        assert_eq!((hesitant.table_losses(20), hesitant.table_losses(21)), (Some(6), None));
        let broken = data.brigade_state("broken").unwrap();
        assert_eq!(broken.losses_percent, 50);
        assert_eq!(broken.table, [(16, 8), (20, 10), (24, 12), (28, 14), (32, 16)]);
        for (stands, lost) in &broken.table {
            assert_eq!(stands.div_ceil(2), *lost, "Broken row for {stands} stands");
        }
        assert_eq!(broken.retreat, Some(6.0));
        assert!(
            broken.disorders_all
                && broken.forfeits_pips
                && broken.no_fire
                && broken.no_rally
                && broken.routs_when_charged
                && broken.no_assault
        );
        assert_eq!((broken.to_hit, broken.discipline), (0, 0));
    }

    #[test]
    fn stdlib_leader_casualty_table_covers_each_roll_once() {
        let (data, _) = stdlib();
        // Ch16 2.4: every face of the d6 gives exactly one result.
        for roll in 1..=6 {
            let results: Vec<&str> =
                data.leader_results().iter().filter(|r| r.covers(roll)).map(|r| r.meta.id.as_str()).collect();
            assert_eq!(results.len(), 1, "roll {roll} gives {results:?}");
        }
        assert!(data.leader_result_for(0).is_none() && data.leader_result_for(7).is_none());
        let id = |roll: u32| data.leader_result_for(roll).unwrap().meta.id.as_str();
        assert_eq!(
            [id(1), id(3), id(4), id(5), id(6)],
            ["unhurt", "unhurt", "lightly_wounded", "severely_wounded", "killed"]
        );
        let unhurt = data.leader_result("unhurt").unwrap();
        assert_eq!((unhurt.rolls, unhurt.pips, unhurt.removed), ((1, 3), 0, false));
        let light = data.leader_result_for(4).unwrap();
        assert_eq!((light.pips, light.removed, light.replacement.as_deref()), (-1, false, None));
        let severe = data.leader_result("severely_wounded").unwrap();
        assert!(severe.removed && !severe.permanent && !severe.disorders_unit);
        assert_eq!(severe.replacement.as_deref(), Some("timid"));
        let killed = data.leader_result("killed").unwrap();
        assert!(killed.removed && killed.permanent && killed.disorders_unit && killed.loses_unspent_pips);
        // The replacement names a rating (Ch16 2.4: the Timid formula).
        let timid = data.rating(killed.replacement.as_deref().unwrap()).unwrap();
        assert_eq!(timid.pip_range(), (1, 2));
    }

    #[test]
    fn stdlib_melee_results_and_modifiers() {
        let (data, _) = stdlib();
        // Ch16 7.4
        let defeated = data.melee_result("defeated").unwrap();
        assert_eq!((defeated.stands, defeated.retreat, defeated.disorder), (1, Some(6.0), true));
        assert!(!defeated.cavalry && !defeated.locked);
        let draw = data.melee_result("bloody_draw").unwrap();
        assert_eq!((draw.stands, draw.micro_hits, draw.disorder, draw.locked), (0, 1, true, true));
        assert_eq!(draw.retreat, None);
        let victor = data.melee_result("victor").unwrap();
        assert_eq!((victor.stands, victor.consolidate, victor.disorder), (0, Some(2.0), false));
        let sweep = data.melee_result("breakthrough").unwrap();
        assert_eq!((sweep.margin, sweep.pips, sweep.sweep), (Some(4), 1, Some(4.0)));
        assert!(sweep.fresh_only && sweep.enemy_removed);
        // Ch16 10.1
        let cavalry = data.melee_result("cavalry_defeated").unwrap();
        assert_eq!(
            (cavalry.cavalry, cavalry.stands, cavalry.retreat, cavalry.disorder),
            (true, 1, Some(9.0), true)
        );
        // Ch16 5.6, 7.3, 2.4, 10.1; Ch8 6.0
        let enfilade = data.modifier("enfilade").unwrap();
        assert_eq!(enfilade.to_hit, 1);
        assert_eq!(enfilade.melee, Some(MeleeModifier { value: 2, side: MeleeSide::Attacker }));
        let momentum = data.modifier("momentum").unwrap();
        assert_eq!((momentum.melee.unwrap().value, momentum.run), (1, Some(3.0)));
        let brigadier = data.modifier("brigadier_attached").unwrap();
        assert_eq!(brigadier.melee, Some(MeleeModifier { value: 1, side: MeleeSide::Either }));
        assert_eq!(brigadier.discipline, 1);
        let shock = data.modifier("cavalry_shock").unwrap();
        assert_eq!(shock.melee, Some(MeleeModifier { value: 1, side: MeleeSide::Attacker }));
        assert_eq!(shock.opponent_melee, -2);
        let battery = data.modifier("battery_in_melee").unwrap();
        assert_eq!((battery.engaged, battery.melee, battery.to_hit), (Some(1), None, 0));
        // Ch16 7.2: the 4" pause and the 2" stall of both assault orders.
        for id in ["regimental_assault", "dress_on_the_colors"] {
            let order = data.order(id).unwrap();
            assert_eq!((order.interruption, order.stall), (Some(4.0), Some(2.0)), "{id}");
        }
        assert_eq!(data.order("double_time").unwrap().interruption, None);
        assert!(data.summary(EntryKind::MeleeResult, "defeated").unwrap().contains("retreats 6\""));
    }

    #[test]
    fn health_values_are_checked() {
        let mut b = Build::default();
        let too_high = b.entry("health", "a", &["above 120"]);
        let crossed = b.entry("health", "b", &["above 75", "below 70", "melee +1 either"]);
        let spans = [too_high.props[0].values[0].span, crossed.props[1].span];
        let (data, diags) = read(vec![too_high, crossed]);
        assert_eq!(codes(&diags), ["dotc::bad-property"; 2]);
        assert_eq!(diags.iter().map(|d| d.primary.span).collect::<Vec<_>>(), spans);
        assert_eq!(diags[0].primary.text, "a percentage is a whole number from 0 to 100");
        assert_eq!(diags[0].help.as_deref(), Some("write it as `above <percent>`"));
        assert!(diags[1].primary.text.contains("above 75% and below 70%"), "{}", diags[1].primary.text);
        assert_eq!(data.health("a").unwrap().above_percent, None);
        assert_eq!(
            data.health("b").unwrap().melee,
            Some(MeleeModifier { value: 1, side: MeleeSide::Either })
        );
    }

    #[test]
    fn brigade_state_values_are_checked() {
        let mut b = Build::default();
        let state = b.entry("brigade_state", "s", &["losses 30", "table 16 20", "table 20 6", "table 20 7"]);
        let spans = [state.props[1].values[1].span, state.props[3].span];
        let no_losses = b.entry("brigade_state", "t", &["table 16 5"]);
        let id_span = no_losses.id.span;
        let (data, diags) = read(vec![state, no_losses]);
        assert_eq!(codes(&diags), ["dotc::bad-property", "dotc::bad-property", "dotc::missing-property"]);
        assert_eq!((diags[0].primary.span, diags[1].primary.span), (spans[0], spans[1]));
        assert_eq!(diags[0].primary.text, "a brigade of 16 stands cannot lose 20");
        assert_eq!(diags[2].primary.span, id_span);
        assert_eq!(diags[2].message, "brigade_state `t` has no `losses`");
        // The rows that read are kept.
        assert_eq!(data.brigade_state("s").unwrap().table, [(20, 6)]);
    }

    #[test]
    fn leader_result_values_and_references_are_checked() {
        let mut b = Build::default();
        let high = b.entry("leader_result", "a", &["roll 7"]);
        let backwards = b.entry("leader_result", "b", &["roll 5 to 3"]);
        let unremoved = b.entry("leader_result", "c", &["roll 6", "replacement timid"]);
        let typo = b.entry("leader_result", "d", &["roll 6", "removed", "replacement timd"]);
        let spans =
            [high.props[0].values[0].span, backwards.props[0].values[2].span, unremoved.props[1].span];
        let typo_span = typo.props[2].values[0].span;
        let (mut data, diags) = read(vec![high, backwards, unremoved, typo]);
        assert_eq!(codes(&diags), ["dotc::bad-property"; 3]);
        assert_eq!(diags.iter().map(|d| d.primary.span).collect::<Vec<_>>(), spans);
        assert_eq!(diags[0].primary.text, "a d6 roll runs from 1 to 6");
        assert_eq!(diags[1].primary.text, "a run of rolls goes upward: `3 to 5`");
        assert_eq!(data.leader_result("a").unwrap().rolls, (0, 0));
        assert!(data.leader_result_for(6).is_some() && data.leader_result_for(1).is_none());
        // The replacement is a rating, resolved once every library is in.
        let (ratings, _) = read(vec![b.entry("rating", "timid", &["pips d3 halve up"])]);
        data.extend(ratings);
        let mut diags = Vec::new();
        data.check_references(&mut diags);
        assert_eq!(codes(&diags), ["dotc::unknown-reference"]);
        assert_eq!(diags[0].primary.span, typo_span);
        assert_eq!(diags[0].fix.as_ref().unwrap().replacement, "timid");
    }

    #[test]
    fn melee_result_and_modifier_values_are_checked() {
        let mut b = Build::default();
        let result = b.entry("melee_result", "r", &["margin 0", "retreat 6", "locked"]);
        let modifier = b.entry("modifier", "m", &["melee +2 flank", "engaged two", "to_hit +1"]);
        let order = b.entry("order", "o", &["phase 2", "pips 1", "charge 9", "interruption 4", "stall 4"]);
        let spans = [
            result.props[0].values[0].span,
            result.props[2].span,
            modifier.props[0].values[1].span,
            modifier.props[1].values[0].span,
            order.props[4].span,
        ];
        let (data, diags) = read(vec![result, modifier, order]);
        assert_eq!(codes(&diags), ["dotc::bad-property"; 5]);
        assert_eq!(diags.iter().map(|d| d.primary.span).collect::<Vec<_>>(), spans);
        assert_eq!(diags[0].primary.text, "a winning margin is at least 1");
        assert_eq!(diags[2].help.as_deref(), Some(format!("write it as `{MELEE_USAGE}`").as_str()));
        assert_eq!(diags[3].primary.text, "expected a number of stands, found `two`");
        let m = data.modifier("m").unwrap();
        assert_eq!((m.melee, m.engaged, m.to_hit), (None, None, 1));
        let o = data.order("o").unwrap();
        assert_eq!((o.interruption, o.stall), (Some(4.0), Some(4.0)));
    }
}

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
//! One kind is one file of this folder (`weapon.rs`, `maneuver.rs`, ...): its keys (the
//! `*_PROPS` schema), its typed entry, its reader (`read_<kind>`) and its summary (`Describe`).
//! This file holds what every kind shares: [`EntryKind`], [`RuleData`] and the lists that name
//! each kind once (a new kind adds a line to each).
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
    ("small_arms.dotc", include_str!("../../../stdlib/small_arms.dotc")),
    ("artillery.dotc", include_str!("../../../stdlib/artillery.dotc")),
    ("terrain.dotc", include_str!("../../../stdlib/terrain.dotc")),
    ("movement.dotc", include_str!("../../../stdlib/movement.dotc")),
    ("command.dotc", include_str!("../../../stdlib/command.dotc")),
    ("morale.dotc", include_str!("../../../stdlib/morale.dotc")),
    ("combat.dotc", include_str!("../../../stdlib/combat.dotc")),
    ("campaign.dotc", include_str!("../../../stdlib/campaign.dotc")),
];

/// The stdlib's script libraries: (file name, contents). Each holds a `library` whose `script`
/// blocks define rhai functions that every scenario's scripts may call (the runtime compiles
/// them with the scenario's own; docs/scripting.md). They carry no rule data, so they are kept
/// apart from [`STDLIB_FILES`].
pub const STDLIB_SCRIPTS: &[(&str, &str)] = &[("scripts.dotc", include_str!("../../../stdlib/scripts.dotc"))];

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
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
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

// One file per entry kind (its schema, typed entry, reader and summary), and the parts they
// share. The modules are private: everything public is re-exported here, so a path is always
// `dotc_lang::library::Name`.
mod army_trait;
mod brigade_state;
pub mod cache;
mod commander;
mod describe;
mod draft;
mod elevation;
mod experience;
mod formation;
mod ground;
mod health;
mod leader_result;
mod maneuver;
mod marker;
mod melee_result;
mod modifier;
mod movement;
mod obstacle;
mod order;
mod quality;
mod rating;
mod reaction;
mod read;
mod scale;
mod schema;
mod staff;
mod structure;
mod surgeon;
mod terrain;
mod tier;
mod values;
mod weapon;
mod weather;

pub use army_trait::*;
pub use brigade_state::*;
pub use commander::*;
use describe::*;
pub use draft::*;
pub use elevation::*;
pub use experience::*;
pub use formation::*;
pub use ground::*;
pub use health::*;
pub use leader_result::*;
pub use maneuver::*;
pub use marker::*;
pub use melee_result::*;
pub use modifier::*;
pub use movement::*;
pub use obstacle::*;
pub use order::*;
pub use quality::*;
pub use rating::*;
pub use reaction::*;
use read::*;
pub use scale::*;
pub use schema::*;
pub use staff::*;
pub use structure::*;
pub use surgeon::*;
pub use terrain::*;
pub use tier::*;
pub use values::*;
pub use weapon::*;
pub use weather::*;

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
        /// A set move: Ch16 3.3 special movement, dismounting (Ch16 10.2), a fall back after a failed
        /// check (RULE-07-1.5), a frenzied pursuit (Ch13 12.0).
        Maneuver = "maneuver",
        /// A defensive reaction (Ch16 6.0).
        Reaction = "reaction",
        /// A ground condition of the weather module (Ch13 21.0).
        Ground = "ground",
        /// A commander above the brigade and his bonus pip (Ch16 2.1, RULE-07-4.1).
        Commander = "commander",
        /// A feature of the high ground: the crest and its dead ground (Ch16 4.4).
        Elevation = "elevation",
        /// A condition of the sky or the heat in the weather module (Ch13 21.0).
        Weather = "weather",
        /// The scale of the table: a stand's frontage, yards to the inch (Ch15 8.0).
        Scale = "scale",
        /// The Surgeon's roll of a campaign's post-battle sequence (Ch14 2.0).
        Surgeon = "surgeon",
        /// The experience track of a campaign: feats, tiers and unlocks (Ch14 3.0).
        Experience = "experience",
        /// Brigadier promotion and officer casualties between campaign battles (Ch14 4.0).
        Staff = "staff",
        /// Replacement stands drafted between campaign battles, and their dilution (Ch14 5.0).
        Draft = "draft",
    }
}

impl EntryKind {
    pub const ALL: [EntryKind; 28] = [
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
        EntryKind::Maneuver,
        EntryKind::Reaction,
        EntryKind::Ground,
        EntryKind::Commander,
        EntryKind::Elevation,
        EntryKind::Weather,
        EntryKind::Scale,
        EntryKind::Surgeon,
        EntryKind::Experience,
        EntryKind::Staff,
        EntryKind::Draft,
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
            EntryKind::Maneuver => MANEUVER_PROPS,
            EntryKind::Reaction => REACTION_PROPS,
            EntryKind::Ground => GROUND_PROPS,
            EntryKind::Commander => COMMANDER_PROPS,
            EntryKind::Elevation => ELEVATION_PROPS,
            EntryKind::Weather => WEATHER_PROPS,
            EntryKind::Scale => SCALE_PROPS,
            EntryKind::Surgeon => SURGEON_PROPS,
            EntryKind::Experience => EXPERIENCE_PROPS,
            EntryKind::Staff => STAFF_PROPS,
            EntryKind::Draft => DRAFT_PROPS,
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

/// What every entry has besides its kind's own values.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
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
#[derive(Clone, Debug, Default, Serialize, serde::Deserialize)]
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
    maneuvers: Vec<Maneuver>,
    reactions: Vec<ReactionRule>,
    grounds: Vec<GroundCondition>,
    commanders: Vec<Commander>,
    elevations: Vec<Elevation>,
    weathers: Vec<WeatherCondition>,
    scales: Vec<Scale>,
    #[serde(default)]
    surgeons: Vec<Surgeon>,
    #[serde(default)]
    experiences: Vec<Experience>,
    #[serde(default)]
    staffs: Vec<Staff>,
    #[serde(default)]
    drafts: Vec<Draft>,
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
        lay_over(&mut self.maneuvers, other.maneuvers);
        lay_over(&mut self.reactions, other.reactions);
        lay_over(&mut self.grounds, other.grounds);
        lay_over(&mut self.commanders, other.commanders);
        lay_over(&mut self.elevations, other.elevations);
        lay_over(&mut self.weathers, other.weathers);
        lay_over(&mut self.scales, other.scales);
        lay_over(&mut self.surgeons, other.surgeons);
        lay_over(&mut self.experiences, other.experiences);
        lay_over(&mut self.staffs, other.staffs);
        lay_over(&mut self.drafts, other.drafts);
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
            EntryKind::Maneuver => metas(&self.maneuvers),
            EntryKind::Reaction => metas(&self.reactions),
            EntryKind::Ground => metas(&self.grounds),
            EntryKind::Commander => metas(&self.commanders),
            EntryKind::Elevation => metas(&self.elevations),
            EntryKind::Weather => metas(&self.weathers),
            EntryKind::Scale => metas(&self.scales),
            EntryKind::Surgeon => metas(&self.surgeons),
            EntryKind::Experience => metas(&self.experiences),
            EntryKind::Staff => metas(&self.staffs),
            EntryKind::Draft => metas(&self.drafts),
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

    pub fn maneuver(&self, id: &str) -> Option<&Maneuver> {
        find(&self.maneuvers, id)
    }

    pub fn reaction(&self, id: &str) -> Option<&ReactionRule> {
        find(&self.reactions, id)
    }

    pub fn ground(&self, id: &str) -> Option<&GroundCondition> {
        find(&self.grounds, id)
    }

    pub fn commander(&self, id: &str) -> Option<&Commander> {
        find(&self.commanders, id)
    }

    pub fn elevation(&self, id: &str) -> Option<&Elevation> {
        find(&self.elevations, id)
    }

    pub fn weather(&self, id: &str) -> Option<&WeatherCondition> {
        find(&self.weathers, id)
    }

    pub fn scale(&self, id: &str) -> Option<&Scale> {
        find(&self.scales, id)
    }

    /// The Surgeon's roll (Ch14 2.0); the stdlib's id is `roll`.
    pub fn surgeon(&self, id: &str) -> Option<&Surgeon> {
        find(&self.surgeons, id)
    }

    /// The experience track (Ch14 3.0); the stdlib's id is `track`.
    pub fn experience(&self, id: &str) -> Option<&Experience> {
        find(&self.experiences, id)
    }

    /// Brigadier promotion and officer casualties (Ch14 4.0); the stdlib's id is `officers`.
    pub fn staff(&self, id: &str) -> Option<&Staff> {
        find(&self.staffs, id)
    }

    /// Replacements and dilution (Ch14 5.0); the stdlib's id is `replacements`.
    pub fn draft(&self, id: &str) -> Option<&Draft> {
        find(&self.drafts, id)
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

    pub fn maneuvers(&self) -> &[Maneuver] {
        &self.maneuvers
    }

    pub fn reactions(&self) -> &[ReactionRule] {
        &self.reactions
    }

    pub fn grounds(&self) -> &[GroundCondition] {
        &self.grounds
    }

    pub fn commanders(&self) -> &[Commander] {
        &self.commanders
    }

    pub fn elevations(&self) -> &[Elevation] {
        &self.elevations
    }

    pub fn weathers(&self) -> &[WeatherCondition] {
        &self.weathers
    }

    pub fn scales(&self) -> &[Scale] {
        &self.scales
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
            EntryKind::Maneuver => Typed::Maneuver(read_maneuver(&mut reader, meta)),
            EntryKind::Reaction => Typed::Reaction(read_reaction(&mut reader, meta)),
            EntryKind::Ground => Typed::Ground(read_ground(&mut reader, meta)),
            EntryKind::Commander => Typed::Commander(read_commander(&mut reader, meta)),
            EntryKind::Elevation => Typed::Elevation(read_elevation(&mut reader, meta)),
            EntryKind::Weather => Typed::Weather(read_weather(&mut reader, meta)),
            EntryKind::Scale => Typed::Scale(read_scale(&mut reader, meta)),
            EntryKind::Surgeon => Typed::Surgeon(read_surgeon(&mut reader, meta)),
            EntryKind::Experience => Typed::Experience(read_experience(&mut reader, meta)),
            EntryKind::Staff => Typed::Staff(read_staff(&mut reader, meta)),
            EntryKind::Draft => Typed::Draft(read_draft(&mut reader, meta)),
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
            Typed::Maneuver(e) => add(&mut self.maneuvers, e),
            Typed::Reaction(e) => add(&mut self.reactions, e),
            Typed::Ground(e) => add(&mut self.grounds, e),
            Typed::Commander(e) => add(&mut self.commanders, e),
            Typed::Elevation(e) => add(&mut self.elevations, e),
            Typed::Weather(e) => add(&mut self.weathers, e),
            Typed::Scale(e) => add(&mut self.scales, e),
            Typed::Surgeon(e) => add(&mut self.surgeons, e),
            Typed::Experience(e) => add(&mut self.experiences, e),
            Typed::Staff(e) => add(&mut self.staffs, e),
            Typed::Draft(e) => add(&mut self.drafts, e),
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
    Maneuver(Maneuver),
    Reaction(ReactionRule),
    Ground(GroundCondition),
    Commander(Commander),
    Elevation(Elevation),
    Weather(WeatherCondition),
    Scale(Scale),
    Surgeon(Surgeon),
    Experience(Experience),
    Staff(Staff),
    Draft(Draft),
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
    Modifier,
    Maneuver,
    ReactionRule,
    GroundCondition,
    Commander,
    Elevation,
    WeatherCondition,
    Scale,
    Surgeon,
    Experience,
    Staff,
    Draft
);

#[cfg(test)]
mod tests;

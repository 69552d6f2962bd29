//! The state of a game: sides, brigades, leaders and units, as the rules see them.
//!
//! Positions and distances are not here (the battlefield issue brings them): the engine takes
//! ranges, cover and contact as inputs. What is here is everything the combat and morale rules
//! read and change: stands, the micro-hit, markers, the brigade's loss tally and state, pips,
//! attached leaders, and the per-turn facts the rally and trait rules ask about.
//!
//! Units, brigades and leaders are kept in vectors and named by index ([`UnitId`], ...); names
//! are unique within a game, so [`GameState::unit_named`] finds one by the name a scenario or a
//! log writes.

use serde::Serialize;

use super::events::BrigadeStatus;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct UnitId(pub usize);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct BrigadeId(pub usize);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct LeaderId(pub usize);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct SideId(pub usize);

/// The whole game. Its `clone_from` reuses the copy's strings and lists ([`super::transact`]
/// copies the state before every engine call).
#[derive(Debug, Default, PartialEq, Serialize)]
pub struct GameState {
    /// The game turn (RULINGS G7: one side's active sequence).
    pub turn: u32,
    pub sides: Vec<Side>,
    pub brigades: Vec<Brigade>,
    pub leaders: Vec<Leader>,
    pub units: Vec<Unit>,
    /// The weather in force (Ch13 21.0, RULE-05-5.4).
    pub weather: super::weather::Weather,
    /// Batteries taken in melee with the Spiking the Guns module on, and what became of their
    /// guns (Ch13 15.0, [`super::guns`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub guns: Vec<CapturedGuns>,
    /// What this turn's Friction of War event left in force (Ch13 3.0, module
    /// `friction_of_war`, [`super::friction`]); cleared by [`GameState::start_turn`].
    #[serde(skip_serializing_if = "FrictionTurn::is_calm")]
    pub friction: FrictionTurn,
    /// The waves authorised with the Wave Attack module (Ch13 23.0, [`super::wave`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub waves: Vec<super::wave::Wave>,
    /// The blinds of the Hidden Deployment module (Ch13 4.0, [`super::blinds`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blinds: Vec<super::blinds::Blind>,
    /// True from the start of a Phase 2 to the start of its turn's Phase 4 (or Phase 5, or the
    /// next turn) under `ruling melee_timing = phase_four` (dotc D51, Ch16 1.0): a melee the log
    /// fights inside its Phase 2 assault then keeps, in each brigade's
    /// [`Brigade::before_melee`], what the brigade was before it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ahead_of_phase_four: bool,
}

/// What a Friction of War event leaves in force for the rest of its turn (Ch13 3.0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FrictionTurn {
    /// Sudden Squall: every shooting pool of both sides is halved this turn, rounded down.
    pub squall: bool,
    /// The General is at the Front!: the brigade whose brigadier rode forward; the first
    /// casualty it takes this turn wounds him out of the game (dotc D20).
    pub general_at_the_front: Option<BrigadeId>,
}

impl FrictionTurn {
    /// Nothing in force.
    pub fn is_calm(&self) -> bool {
        *self == FrictionTurn::default()
    }
}

/// The guns of a battery an infantry regiment took in melee (Ch13 15.0, module
/// `spiking_the_guns`): its crews are gone, the regiment stands among the guns.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CapturedGuns {
    /// The battery's name.
    pub battery: String,
    /// The side the guns belong to.
    pub owner: SideId,
    /// The regiment that took them.
    pub taken_by: String,
    /// The turn they were taken.
    pub turn: u32,
    pub fate: GunsFate,
}

/// What becomes of captured guns (Ch13 15.0, dotc D16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GunsFate {
    /// The regiment stands among the guns; its brigadier has not yet said what it does with them.
    Occupied(UnitId),
    /// The regiment drags them away at half speed, without firing.
    Hauling(UnitId),
    /// Spiked: out of the game for good.
    Spiked,
    /// Dragged off the table by the regiment that hauled them.
    HauledOff,
    /// Lost again by the regiment that held them: back with their own side, without crews.
    Recaptured,
}

impl GunsFate {
    /// The regiment that holds the guns now, if any.
    pub fn holder(self) -> Option<UnitId> {
        match self {
            GunsFate::Occupied(id) | GunsFate::Hauling(id) => Some(id),
            _ => None,
        }
    }

    /// The fate in a word or two.
    pub fn word(self) -> &'static str {
        match self {
            GunsFate::Occupied(_) => "occupied",
            GunsFate::Hauling(_) => "being hauled off",
            GunsFate::Spiked => "spiked",
            GunsFate::HauledOff => "hauled off",
            GunsFate::Recaptured => "recaptured",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Side {
    pub name: String,
}

/// A brigade and its faltering clock (RULE-07-2.x, Ch16 8.2).
#[derive(Debug, PartialEq, Serialize)]
pub struct Brigade {
    pub name: String,
    pub side: SideId,
    /// The stands its clock counts at setup: every stand of its regiments but artillery and horse
    /// holders (RULE-07-2.2, RULINGS G5).
    pub starting_stands: u32,
    /// Stands lost so far (RULINGS G5: an integer, not the d6 on the brigadier's base).
    pub losses: u32,
    pub status: BrigadeStatus,
    /// Pips to spend this turn (Ch16 2.1).
    pub pips: u32,
    /// The one pip banked for the next turn or a reaction (Ch16 2.1, 2.3, RULINGS G8).
    pub banked: u32,
    /// The brigade's commander now (a replacement Colonel after a casualty).
    pub brigadier: Option<LeaderId>,
    /// What the melees fought so far in this Phase 2 changed, while Phase 4 has not yet come
    /// (dotc D51); `None` when none has touched it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before_melee: Option<BeforeMelee>,
}

/// A brigade before the melees a log fought inside this turn's Phase 2 assaults (dotc D51,
/// Ch16 1.0): what the declarations, orders and volleys of Phases 2 and 3 still see.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BeforeMelee {
    /// Its state before the first of them.
    pub status: BrigadeStatus,
    /// The stands on its clock they took (RULE-07-2.2).
    pub losses: u32,
    /// The pips they forfeited (a break, RULE-07-2.4; a brigadier's fall, Ch16 2.4): in hand
    /// until Phase 4, spent after the brigade's own.
    pub pips: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LeaderRank {
    Brigadier,
    /// The senior Colonel who replaces a fallen brigadier (Ch16 2.4).
    Colonel,
    /// A division, corps or army commander (RULE-07-4.1).
    Commander,
}

#[derive(Debug, PartialEq, Serialize)]
pub struct Leader {
    pub name: String,
    pub side: SideId,
    pub rank: LeaderRank,
    /// A stdlib `rating` id (Ch16 2.1).
    pub rating: String,
    /// The regiment whose Color Stand he is with (Ch16 2.4).
    pub attached: Option<UnitId>,
    /// Pips lost to light wounds, every turn; they stack (Ch16 2.4, RULINGS G18).
    pub pip_penalty: u32,
    /// Off the table: severely wounded, captured or killed.
    pub removed: bool,
    /// The turn from which a replacement commands (the next Phase 1, RULINGS G18).
    pub from_turn: u32,
    /// The name of the colonel who takes over his brigade if he falls (Ch16 2.4): the
    /// scenario's `replacement`, or `dotc_lang::names::replacing` of his name.
    pub successor: String,
    /// The id of the worst leader casualty result that struck him (Ch16 2.4): a light wound,
    /// or the result that took him off the table; None while unhurt. A campaign reads it after
    /// the battle (Ch14 4.0, dotc D39).
    pub casualty: Option<String>,
}

/// What arm a unit is, and the facts only that arm has.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "arm", rename_all = "snake_case")]
pub enum Arm {
    Infantry,
    /// A battery: its stands are gun sections (Ch16 5.3).
    Battery {
        limbered: bool,
    },
    /// Cavalry, mounted or fighting dismounted with horse holders to the rear (Ch16 10.2).
    Cavalry {
        mounted: bool,
        /// Stands holding horses while dismounted (1 in 4, RULINGS G15); they neither fire nor count
        /// for the brigade clock.
        horse_holders: u32,
        /// False once the holders are lost: the unit can never remount (Ch16 10.2).
        can_remount: bool,
    },
}

/// The markers a unit can carry (Ch16 5.4-5.7, 8.3, 11.0). One of each at most.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Markers {
    pub disorder: bool,
    pub gunsmoke: bool,
    pub low_ammo: bool,
    /// Fouled powder (Ch13 21.0, module weather): -1 to hit until a pip clears it.
    pub fouled: bool,
    /// The first volley of the battle's +1 (Ch13 2.0, module `clean_barrels`).
    pub clean_barrels: bool,
}

impl Markers {
    /// The stdlib ids of the markers the unit carries, in a fixed order.
    pub fn ids(&self) -> Vec<&'static str> {
        [
            (self.disorder, "disorder"),
            (self.gunsmoke, "gunsmoke"),
            (self.low_ammo, "low_ammo"),
            (self.fouled, "fouled"),
            (self.clean_barrels, "clean_barrels"),
        ]
        .into_iter()
        .filter_map(|(on, id)| on.then_some(id))
        .collect()
    }
}

/// A detached skirmish screen (Ch16 3.4, RULINGS G12).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Screen {
    /// Unsaved hits it has soaked up.
    pub hits: u32,
}

/// What a unit did this turn, for the rally and trait rules. Cleared by [`GameState::start_turn`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TurnFacts {
    pub moved: bool,
    pub fired: bool,
    pub assaulted: bool,
    /// It lost a stand or took an unsaved hit to shooting (RULE-07-3.3).
    pub shot_casualties: bool,
    /// A pip rally took its Disorder off (RULE-07-3.3: no natural rally then).
    pub pip_rallied: bool,
    /// In base contact with an enemy unit.
    pub engaged: bool,
    /// Iron Discipline has ignored a Shock trigger this turn (Ch16 9.0).
    pub shock_ignored: bool,
    /// Steady has re-rolled a failed cover save this turn (Ch16 9.0).
    pub save_rerolled: bool,
    /// Its brigadier declared Desperate Valor on it in this turn's Phase 1 (Ch13 17.0, module
    /// `desperate_valor`): the checks of its charge roll with Advantage
    /// ([`super::morale::valor_advantage`]).
    pub valor: bool,
    /// Its brigadier raised the battle cry this turn (Ch13 16.0, module `psychological_shock`):
    /// the enemy it charges is shaken ([`TurnFacts::shaken_by_cry`]).
    pub battle_cry: bool,
    /// Charged in this phase by a regiment of a brigade that raised the battle cry (Ch13 16.0):
    /// its Discipline checks take the `battle_cry` modifier until the phase ends.
    pub shaken_by_cry: bool,
    /// The active player picked it for Heroic Momentum this turn (Ch13 3.0, module
    /// `friction_of_war`): it assaults for no pips and passes its check to close.
    pub heroic: bool,
    /// Firing units that have shot at it this phase, for crossfire (RULE-05-4.2, RULINGS G9).
    pub fired_on_by: Vec<UnitId>,
    /// Disordered by its brigade's break in a melee fought inside this turn's Phase 2, by
    /// another regiment (dotc D51): until Phase 4 its own charge is not stopped by it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub disordered_by_melee_break: bool,
}

#[derive(Debug, PartialEq, Serialize)]
pub struct Unit {
    pub name: String,
    pub side: SideId,
    pub brigade: Option<BrigadeId>,
    #[serde(flatten)]
    pub arm: Arm,
    pub starting_stands: u32,
    /// Stands on the table now (sections for a battery; a detached screen still counts, G12).
    pub stands: u32,
    /// 0 or 1: an odd unsaved hit waiting to complete the next stand (RULE-05-3.3).
    pub micro_hit: u8,
    /// A stdlib `quality` id.
    pub quality: String,
    /// A stdlib `weapon` id.
    pub weapon: String,
    /// A stdlib `formation` id.
    pub formation: String,
    /// Stdlib `trait` ids, the quality's own included (Green units have Seen the Elephant).
    pub traits: Vec<String>,
    pub markers: Markers,
    pub screen: Option<Screen>,
    /// Hits its horse holders' stand has taken from fire aimed at it (Ch13 6.0, dotc D24).
    #[serde(skip_serializing_if = "is_zero")]
    pub holder_hits: u32,
    /// Seen the Elephant has been tested (it tests once, the first time, Ch16 9.0).
    pub elephant_seen: bool,
    /// Off the table.
    pub removed: bool,
    /// On the table: false for a reinforcement that has not arrived.
    pub on_table: bool,
    pub turn: TurnFacts,
    /// Inches from its brigade's commander to its Color Stand as the table last stood (Ch16 2.2,
    /// dotc D7; 0 with him attached), which sets its command tier; None where nothing measures
    /// it (no brigadier, no positions): then it counts as in command.
    #[serde(skip)]
    pub command_range: Option<f64>,
    /// Ch13 19.0 (module second_line, dotc D11): a formed, steady friend stands in second line
    /// behind it as the table last stood, which gives its Discipline checks +1. Set by the replay
    /// with the command range.
    #[serde(skip)]
    pub supported: bool,
}

/// For `skip_serializing_if`: a count that is still 0.
fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Unit {
    /// A unit with full stands and no markers.
    pub fn new(
        name: &str,
        side: SideId,
        arm: Arm,
        stands: u32,
        quality: &str,
        weapon: &str,
        formation: &str,
    ) -> Unit {
        Unit {
            name: name.to_string(),
            side,
            brigade: None,
            arm,
            starting_stands: stands,
            stands,
            micro_hit: 0,
            quality: quality.to_string(),
            weapon: weapon.to_string(),
            formation: formation.to_string(),
            traits: Vec::new(),
            markers: Markers::default(),
            screen: None,
            holder_hits: 0,
            elephant_seen: false,
            removed: false,
            on_table: true,
            turn: TurnFacts::default(),
            command_range: None,
            supported: false,
        }
    }

    pub fn is_infantry(&self) -> bool {
        matches!(self.arm, Arm::Infantry)
    }

    pub fn is_battery(&self) -> bool {
        matches!(self.arm, Arm::Battery { .. })
    }

    pub fn is_cavalry(&self) -> bool {
        matches!(self.arm, Arm::Cavalry { .. })
    }

    pub fn has_trait(&self, id: &str) -> bool {
        self.traits.iter().any(|t| t == id)
    }

    /// Stands that count on the brigade clock: all but artillery and horse holders (RULINGS G5).
    pub fn clock_stands(&self) -> u32 {
        match self.arm {
            Arm::Infantry => self.stands,
            Arm::Battery { .. } => 0,
            Arm::Cavalry { horse_holders, .. } => self.stands.saturating_sub(horse_holders),
        }
    }
}

impl GameState {
    pub fn add_side(&mut self, name: &str) -> SideId {
        self.sides.push(Side { name: name.to_string() });
        SideId(self.sides.len() - 1)
    }

    pub fn add_brigade(&mut self, name: &str, side: SideId) -> BrigadeId {
        self.brigades.push(Brigade {
            name: name.to_string(),
            side,
            starting_stands: 0,
            losses: 0,
            status: BrigadeStatus::Fresh,
            pips: 0,
            banked: 0,
            brigadier: None,
            before_melee: None,
        });
        BrigadeId(self.brigades.len() - 1)
    }

    /// A brigadier (or commander) with a stdlib rating; a brigadier becomes his brigade's commander.
    pub fn add_leader(
        &mut self,
        name: &str,
        side: SideId,
        rank: LeaderRank,
        rating: &str,
        brigade: Option<BrigadeId>,
    ) -> LeaderId {
        self.leaders.push(Leader {
            name: name.to_string(),
            side,
            rank,
            rating: rating.to_string(),
            attached: None,
            pip_penalty: 0,
            removed: false,
            from_turn: 0,
            successor: dotc_lang::names::replacing(name),
            casualty: None,
        });
        let id = LeaderId(self.leaders.len() - 1);
        if let Some(b) = brigade.and_then(|b| self.brigades.get_mut(b.0)) {
            b.brigadier = Some(id);
        }
        id
    }

    /// Add a unit; a brigade's starting stands grow by the stands its clock counts (RULE-07-2.2).
    pub fn add_unit(&mut self, mut unit: Unit, brigade: Option<BrigadeId>) -> UnitId {
        unit.brigade = brigade;
        if let Some(b) = brigade.and_then(|b| self.brigades.get_mut(b.0)) {
            b.starting_stands += unit.clock_stands();
        }
        self.units.push(unit);
        UnitId(self.units.len() - 1)
    }

    pub fn unit(&self, id: UnitId) -> Option<&Unit> {
        self.units.get(id.0)
    }

    pub fn unit_mut(&mut self, id: UnitId) -> Option<&mut Unit> {
        self.units.get_mut(id.0)
    }

    pub fn brigade(&self, id: BrigadeId) -> Option<&Brigade> {
        self.brigades.get(id.0)
    }

    pub fn leader(&self, id: LeaderId) -> Option<&Leader> {
        self.leaders.get(id.0)
    }

    /// The stdlib ids of the markers unit `id` carries ([`Markers::ids`]), with `captured_guns`
    /// while it holds a battery's guns (Ch13 15.0).
    pub fn marker_ids(&self, id: UnitId) -> Vec<&'static str> {
        let Some(u) = self.unit(id) else { return Vec::new() };
        let mut ids = u.markers.ids();
        if self.guns.iter().any(|g| g.fate.holder() == Some(id)) {
            ids.push("captured_guns");
        }
        ids
    }

    pub fn unit_named(&self, name: &str) -> Option<UnitId> {
        self.units.iter().position(|u| u.name == name).map(UnitId)
    }

    pub fn brigade_named(&self, name: &str) -> Option<BrigadeId> {
        self.brigades.iter().position(|b| b.name == name).map(BrigadeId)
    }

    pub fn leader_named(&self, name: &str) -> Option<LeaderId> {
        self.leaders.iter().position(|l| l.name == name).map(LeaderId)
    }

    /// The leader on the table attached to this unit, if any (Ch16 2.4).
    pub fn attached_leader(&self, unit: UnitId) -> Option<LeaderId> {
        self.leaders
            .iter()
            .position(|l| !l.removed && l.attached == Some(unit) && l.from_turn <= self.turn)
            .map(LeaderId)
    }

    /// The status of the unit's brigade (Fresh for a unit without one).
    pub fn brigade_status(&self, unit: UnitId) -> BrigadeStatus {
        self.unit(unit)
            .and_then(|u| u.brigade)
            .and_then(|b| self.brigade(b))
            .map_or(BrigadeStatus::Fresh, |b| b.status)
    }

    /// Begin a new game turn: the per-turn facts of every unit are cleared.
    pub fn start_turn(&mut self, turn: u32) {
        self.turn = turn;
        self.close_phase_four_window();
        self.friction = FrictionTurn::default();
        for unit in &mut self.units {
            unit.turn = TurnFacts::default();
        }
    }

    /// Open (`true`, at the start of a Phase 2 under `melee_timing = phase_four`) or close
    /// (`false`, at its turn's Phase 4 or later) the stretch in which a melee the log has fought
    /// waits for Phase 4 (dotc D51, Ch16 1.0).
    pub fn phase_four_window(&mut self, open: bool) {
        if open {
            self.ahead_of_phase_four = true;
        } else {
            self.close_phase_four_window();
        }
    }

    /// Phase 4 has come: every melee's effects are in force for everything that follows.
    fn close_phase_four_window(&mut self) {
        self.ahead_of_phase_four = false;
        for b in &mut self.brigades {
            b.before_melee = None;
        }
    }

    /// A new phase: who has fired at whom is forgotten (crossfire counts within a phase), and a
    /// battle cry's shock is over (Ch13 16.0: "for that entire Assault phase").
    pub fn start_phase(&mut self) {
        for unit in &mut self.units {
            unit.turn.fired_on_by.clear();
            unit.turn.shaken_by_cry = false;
        }
    }
}

// ---------------------------------------------------------------------------- copies
//
// Written out, not derived, for `clone_from`: a derived one drops the copy and allocates anew.
// Each destructures its source, so a field added later and not copied does not compile.

impl Clone for GameState {
    fn clone(&self) -> Self {
        let GameState {
            turn,
            sides,
            brigades,
            leaders,
            units,
            weather,
            guns,
            friction,
            waves,
            blinds,
            ahead_of_phase_four,
        } = self;
        GameState {
            ahead_of_phase_four: *ahead_of_phase_four,
            blinds: blinds.clone(),
            friction: *friction,
            waves: waves.clone(),
            turn: *turn,
            sides: sides.clone(),
            brigades: brigades.clone(),
            leaders: leaders.clone(),
            units: units.clone(),
            weather: *weather,
            guns: guns.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        let GameState {
            turn,
            sides,
            brigades,
            leaders,
            units,
            weather,
            guns,
            friction,
            waves,
            blinds,
            ahead_of_phase_four,
        } = source;
        self.ahead_of_phase_four = *ahead_of_phase_four;
        self.turn = *turn;
        self.blinds.clone_from(blinds);
        self.waves.clone_from(waves);
        self.friction = *friction;
        self.sides.clone_from(sides);
        self.brigades.clone_from(brigades);
        self.leaders.clone_from(leaders);
        self.units.clone_from(units);
        self.weather = *weather;
        self.guns.clone_from(guns);
    }
}

impl Clone for Brigade {
    fn clone(&self) -> Self {
        let Brigade { name, side, starting_stands, losses, status, pips, banked, brigadier, before_melee } =
            self;
        Brigade {
            before_melee: *before_melee,
            name: name.clone(),
            side: *side,
            starting_stands: *starting_stands,
            losses: *losses,
            status: *status,
            pips: *pips,
            banked: *banked,
            brigadier: *brigadier,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        let Brigade { name, side, starting_stands, losses, status, pips, banked, brigadier, before_melee } =
            source;
        self.before_melee = *before_melee;
        self.name.clone_from(name);
        self.side = *side;
        self.starting_stands = *starting_stands;
        self.losses = *losses;
        self.status = *status;
        self.pips = *pips;
        self.banked = *banked;
        self.brigadier = *brigadier;
    }
}

impl Clone for Leader {
    fn clone(&self) -> Self {
        let Leader {
            name,
            side,
            rank,
            rating,
            attached,
            pip_penalty,
            removed,
            from_turn,
            successor,
            casualty,
        } = self;
        Leader {
            name: name.clone(),
            side: *side,
            rank: *rank,
            rating: rating.clone(),
            attached: *attached,
            pip_penalty: *pip_penalty,
            removed: *removed,
            from_turn: *from_turn,
            successor: successor.clone(),
            casualty: casualty.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        let Leader {
            name,
            side,
            rank,
            rating,
            attached,
            pip_penalty,
            removed,
            from_turn,
            successor,
            casualty,
        } = source;
        self.name.clone_from(name);
        self.side = *side;
        self.rank = *rank;
        self.rating.clone_from(rating);
        self.attached = *attached;
        self.pip_penalty = *pip_penalty;
        self.removed = *removed;
        self.from_turn = *from_turn;
        self.successor.clone_from(successor);
        self.casualty.clone_from(casualty);
    }
}

impl Clone for Unit {
    fn clone(&self) -> Self {
        let mut copy = Unit::new("", self.side, self.arm.clone(), 0, "", "", "");
        copy.clone_from(self);
        copy
    }

    fn clone_from(&mut self, source: &Self) {
        let Unit {
            name,
            side,
            brigade,
            arm,
            starting_stands,
            stands,
            micro_hit,
            quality,
            weapon,
            formation,
            traits,
            markers,
            screen,
            holder_hits,
            elephant_seen,
            removed,
            on_table,
            turn,
            command_range,
            supported,
        } = source;
        self.name.clone_from(name);
        self.side = *side;
        self.brigade = *brigade;
        self.arm = arm.clone();
        self.starting_stands = *starting_stands;
        self.stands = *stands;
        self.micro_hit = *micro_hit;
        self.quality.clone_from(quality);
        self.weapon.clone_from(weapon);
        self.formation.clone_from(formation);
        self.traits.clone_from(traits);
        self.markers = markers.clone();
        self.screen = screen.clone();
        self.holder_hits = *holder_hits;
        self.elephant_seen = *elephant_seen;
        self.removed = *removed;
        self.on_table = *on_table;
        self.turn.clone_from(turn);
        self.command_range = *command_range;
        self.supported = *supported;
    }
}

#[cfg(test)]
mod copies {
    use super::*;

    /// Issue 16: `clone_from` over a state that differs in every way (more units, other names,
    /// markers, traits, a screen) leaves an equal copy, as `clone` does.
    #[test]
    fn clone_from_copies_every_field() {
        let mut source = GameState::default();
        let side = source.add_side("union");
        let mut unit = Unit::new(
            "1st",
            side,
            Arm::Cavalry { mounted: false, horse_holders: 1, can_remount: true },
            4,
            "veteran",
            "carbine",
            "skirmish",
        );
        unit.traits = vec!["steady".into(), "iron_discipline".into()];
        unit.markers.disorder = true;
        unit.turn.disordered_by_melee_break = true;
        unit.screen = Some(Screen { hits: 1 });
        unit.turn.fired_on_by = vec![UnitId(3)];
        unit.command_range = Some(4.5);
        unit.micro_hit = 1;
        source.units.push(unit);
        source.brigades.push(Brigade {
            name: "Iron".into(),
            side,
            starting_stands: 12,
            losses: 3,
            status: BrigadeStatus::Hesitant,
            pips: 2,
            banked: 1,
            brigadier: Some(LeaderId(0)),
            before_melee: Some(BeforeMelee { status: BrigadeStatus::Fresh, losses: 2, pips: 1 }),
        });
        source.leaders.push(Leader {
            name: "Col. A".into(),
            side,
            rank: LeaderRank::Colonel,
            rating: "reliable".into(),
            attached: Some(UnitId(0)),
            pip_penalty: 1,
            removed: false,
            from_turn: 3,
            successor: "Col. B".into(),
            casualty: Some("lightly_wounded".into()),
        });
        source.turn = 7;
        source.ahead_of_phase_four = true;
        source.friction = FrictionTurn { squall: true, general_at_the_front: Some(BrigadeId(0)) };
        let mut copy = GameState::default();
        let other = copy.add_side("confederate");
        for name in ["a", "b", "c"] {
            copy.units.push(Unit::new(name, other, Arm::Infantry, 5, "green", "smoothbore", "line"));
        }
        copy.clone_from(&source);
        assert_eq!(copy, source);
        assert_eq!(source.clone(), source);
        // And back over a smaller one.
        let mut back = source.clone();
        back.clone_from(&GameState::default());
        assert_eq!(back, GameState::default());
    }
}

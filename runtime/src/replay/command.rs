//! Replay of the command verbs (Phase 1, Ch16 1.0, 2.x), and the [`Book`] the command and
//! maneuver replays keep between actions.
//!
//! - `pips`: a brigadier's staff pips (Ch16 2.1, RULINGS G2), once per brigade and turn.
//! - `bonus`: a division or corps commander's one extra pip a turn for a brigadier of his side
//!   within the stdlib's `commander` radius (Ch16 2.1, RULE-07-4.1).
//! - `reserve`: the one banked pip (Ch16 2.1, 2.3, RULINGS G8).
//! - `order`: a special order, priced by its rule data entry and the command tier of the regiment
//!   it is for (Ch16 2.2, 2.3, RULINGS C10, G8); the pips come from the brigadier's brigade, and an
//!   order the brigade cannot pay for is refused ("pip overspent").
//! - `attach` / `detach`: a brigadier joins or leaves a regiment's Color Stand (Ch16 2.4,
//!   RULE-07-4.2), riding there within his own move (Ch16 3.1).
//! - `friction`: a Friction of War roll (Ch13 3.0), only with the `friction_of_war` module on.
//! - `dig_in`: an infantry regiment digs in for the `dig_in` order's pips (Ch13 14.0, module
//!   `digging_in`): it may not move, fire or assault that turn ([`Game::module_limits`]), and
//!   its Hasty Works go along its front at the turn's end ([`Game::place_works`]).
//! - `spike` / `haul`: the brigadier of a regiment standing among guns it took says what it does
//!   with them (Ch13 15.0, module `spiking_the_guns`, [`crate::engine::guns`]).
//! - `battle_cry`: once a game per army a brigadier raises the battle cry across his brigade for
//!   the `battle_cry` order's pips, in Phase 2 before its first charge (Ch13 16.0, module
//!   `psychological_shock`, dotc D15): the engine shakes every enemy its regiments charge, and
//!   Disorders every regiment that charged at the turn's end
//!   ([`crate::engine::morale::battle_cry_recoil`]).
//! - `valor`: a brigadier declares Desperate Valor on a regiment of his brigade for the
//!   `desperate_valor` order's pips (Ch13 17.0, module `desperate_valor`, dotc D14): the
//!   engine rolls the checks of its charge this turn with Advantage
//!   ([`crate::engine::morale::valor_advantage`]).
//!
//! Every pip spent goes through [`morale::spend_pips`], which takes this turn's pips first and then
//! the banked one and refuses to go below zero, so a brigade's pips never go negative in any
//! phase of the turn.

use std::collections::{BTreeMap, BTreeSet};

use dotc_lang::library::{Order, OrderCost};

use super::*;
use crate::engine::state::{BrigadeId, GunsFate, LeaderId, LeaderRank, SideId};
use crate::engine::{friction, guns};

/// The module of Ch13 3.0.
pub(super) const FRICTION_MODULE: &str = friction::FRICTION_OF_WAR;

/// The module of Ch13 14.0.
pub(super) const DIGGING_IN_MODULE: &str = Module::DiggingIn.name();

/// The rule data id of the Digging In order (Ch13 14.0): its phase and its pips.
const DIG_IN_ORDER: &str = "dig_in";

/// The rule data id of the order that clears fouled powder (Ch13 21.0, dotc D18).
const CLEAR_FOULING_ORDER: &str = "clear_fouling";

/// The rule data id of the Desperate Valor order (Ch13 17.0): its phase and its pips.
const VALOR_ORDER: &str = "desperate_valor";

/// The rule data id of the battle cry's order (Ch13 16.0): its pips.
const BATTLE_CRY_ORDER: &str = "battle_cry";

/// Orders whose pips another verb's line pays: buying them with `order` would pay twice.
const PAID_ELSEWHERE: &[(&str, &str)] = &[
    (DIG_IN_ORDER, "dig_in"),
    (guns::SPIKE_ORDER, "spike"),
    (guns::HAUL_ORDER, "haul"),
    (VALOR_ORDER, "valor"),
    (BATTLE_CRY_ORDER, "battle_cry"),
    (super::wave::WAVE_ORDER, "wave"),
    ("regimental_assault", "assault"),
    ("dress_on_the_colors", "assault"),
    ("command_rally", "rally"),
    ("reserve_for_reaction", "reserve"),
];

/// The rule data id of the Double-Time Advance order (Ch16 2.3).
pub(super) const DOUBLE_TIME_ORDER: &str = "double_time";

/// When a reinforcement may come on, and where (the scenario's `reinforcements` block).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Arrival {
    /// The first turn it may enter; None when the scenario's clock cannot say.
    pub turn: Option<u32>,
    /// The arrival as the scenario writes it (`10:30`, `turn 4`).
    pub written: String,
    /// Its entry point, when it arrives alone (a brigade's regiments cannot all stand on one point).
    pub at: Option<(f64, f64)>,
    /// When it arrives with its brigade: the brigade's name and entry point.
    pub brigade: Option<(String, (f64, f64))>,
    pub facing: Option<f64>,
    /// The formation it arrives in, if the line names one.
    pub formation: Option<String>,
}

/// What one unit has done in the current turn's Phase 2.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct UnitTurn {
    /// The share of its move used so far (1.0 is the whole move, Ch16 3.1).
    pub spent: f64,
    /// It declared it holds its position (Ch16 2.3).
    pub held: bool,
    /// Its one free wheel is used (Ch16 2.3).
    pub wheeled: bool,
    /// Its Double-Time pip is paid (Ch16 2.3).
    pub double_time: bool,
    /// It has suffered the severe heat for carrying out its Double-Time order (Ch13 21.0).
    pub heat: bool,
    /// It took its screen back for free: if it moves after all, the recall costs its price.
    pub free_recall: Option<f64>,
    /// What its moves leave of its right to fire in Phase 3.
    pub motion: Motion,
    /// It has made its Broken brigade's retreat this turn (RULE-07-2.4): no second is owed.
    pub broken_retreat: bool,
    /// The log says it lost the melee of an assault line the replay refused this turn: its one
    /// `retreat` follows the log's account (dotc D54). Holds whether that melee was between
    /// mounted cavalry (Ch16 10.1), which sets the distance owed.
    pub unplayed_assault: Option<bool>,
}

/// What a unit did with its move this turn, as Phase 3 reads it (RULE-05-1.2 (1), Ch16 5.1).
/// The kinds of move are recorded as they are made, so the first turn is judged as every other.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Motion {
    /// It moved over the ground (an advance, a double time, an entry, a move after a change of
    /// formation): it may not fire.
    pub advanced: bool,
    /// It wheeled, pivoted or changed formation in place: it may fire at -1 (RULE-05-1.2 (1)'s
    /// exception, Ch16 5.1).
    pub pivoted: bool,
    /// It limbered or unlimbered where it stands: no penalty of its own (Ch16 2.3 lists it apart
    /// from a change of formation; Ch16 10.4).
    pub deployed: bool,
    /// A move that bars fire this turn by its own rule, as the move's check found it: what the
    /// unit did and the rule (an about face, Ch16 3.3; a foot battery unlimbering, RULINGS C31;
    /// guns unlimbered in deep mud, Ch13 21.0).
    pub no_fire: Option<(String, String)>,
}

/// What the command and maneuver replays remember within a turn.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct TurnRecord {
    /// Each brigade's pip roll this turn: its side and the unmodified 1D3 (RULINGS G2).
    pub pip_rolls: BTreeMap<BrigadeId, (SideId, u8)>,
    /// Commanders who gave their bonus pip (Ch16 2.1).
    pub bonuses: BTreeSet<String>,
    /// Orders bought: the order's id and the unit it is for.
    pub orders: Vec<(String, Option<UnitId>)>,
    pub units: BTreeMap<UnitId, UnitTurn>,
    /// The share of each leader's move used (Ch16 3.1).
    pub leaders: BTreeMap<String, f64>,
    /// The regiments digging in this turn (Ch13 14.0).
    pub dug_in: BTreeSet<UnitId>,
    /// The order tokens written this turn (Ch13 8.0, module `written_orders`).
    pub tokens: super::written::Tokens,
    /// Dense fog's thinning roll was made this turn (Ch13 21.0).
    pub fog_rolled: bool,
    /// The regiments whose horse holders moved this turn (Ch16 10.2).
    pub holders_led: BTreeSet<UnitId>,
}

/// What the command and maneuver replays carry from the scenario and from one action to the
/// next: reinforcement times, commander levels, where screens and horse holders stand, and this
/// turn's record.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Book {
    /// By unit name.
    pub arrivals: BTreeMap<String, Arrival>,
    /// Each commander's level word (`division`, `corps`, `army`).
    pub commander_levels: BTreeMap<String, String>,
    /// Where each dismounted cavalry unit's horse holders stand (Ch16 10.2), by unit name.
    pub holders: BTreeMap<String, (f64, f64)>,
    /// Where each detached skirmish screen stands (Ch16 3.4), by unit name.
    pub screens: BTreeMap<String, (f64, f64)>,
    /// The batteries the scenario calls `horse` artillery (Ch16 10.4), by unit name.
    pub horse_batteries: BTreeSet<String>,
    /// The building each garrison holds (Ch16 4.3), by unit name, until the unit moves out.
    pub garrisons: BTreeMap<String, String>,
    /// The bearing of each side's own table edge (its `edge` word), by side id: where a Broken
    /// brigade retreats to (RULE-07-2.4).
    pub edges: BTreeMap<String, f64>,
    /// Each army's battle cry, once a game (Ch13 16.0): by side id, the turn and the brigadier.
    pub battle_cries: BTreeMap<String, (u32, String)>,
    turn: Option<u32>,
    now: TurnRecord,
}

impl Book {
    /// The book of a scenario: its reinforcements (their turn worked out from the clock as the
    /// language check does), its commanders' levels, its screens and horse holders.
    pub(super) fn from_scenario(scenario: &ast::Scenario, data: &RuleData) -> Book {
        let mut book = Book::default();
        for side in &scenario.sides {
            if let Some(bearing) =
                side.edge.as_ref().and_then(|e| dotc_lang::names::compass_bearing(&e.value))
            {
                book.edges.insert(side.id.value.clone(), bearing);
            }
            for c in &side.commanders {
                book.commander_levels.insert(c.name.value.clone(), c.level.value.clone());
            }
            let units = side.brigades.iter().flat_map(|b| b.units.iter()).chain(side.units.iter());
            for unit in units {
                if let Some(p) = &unit.holders {
                    book.holders.insert(unit.name.value.clone(), (p.value.x, p.value.y));
                }
                if let Some(p) = &unit.screen {
                    book.screens.insert(unit.name.value.clone(), (p.value.x, p.value.y));
                }
                if let Some(building) = &unit.garrison {
                    book.garrisons.insert(unit.name.value.clone(), building.value.clone());
                }
                if unit.kind == ast::UnitKind::Battery && unit.words.iter().any(|w| w.value == "horse") {
                    book.horse_batteries.insert(unit.name.value.clone());
                }
            }
        }
        for r in &scenario.reinforcements {
            let turn = scenario.arrival_turn(r.arrival.value);
            let written = r.arrival.value.to_string();
            let brigade =
                scenario.sides.iter().flat_map(|s| s.brigades.iter()).find(|b| b.name.value == r.name.value);
            let names: Vec<String> = match brigade {
                Some(b) => b.units.iter().map(|u| u.name.value.clone()).collect(),
                None => vec![r.name.value.clone()],
            };
            let formation =
                r.words.iter().find(|w| data.formation(&w.value).is_some()).map(|w| w.value.clone());
            for name in names {
                let arrival = Arrival {
                    turn,
                    written: written.clone(),
                    at: brigade.is_none().then_some((r.position.value.x, r.position.value.y)),
                    brigade: brigade
                        .map(|b| (b.name.value.clone(), (r.position.value.x, r.position.value.y))),
                    facing: r.facing.as_ref().and_then(|f| f.value.degrees()),
                    formation: formation.clone(),
                };
                book.arrivals.insert(name, arrival);
            }
        }
        book
    }

    /// The record of `turn`, begun afresh when the turn changes.
    pub(super) fn turn(&mut self, turn: u32) -> &mut TurnRecord {
        if self.turn != Some(turn) {
            self.turn = Some(turn);
            self.now = TurnRecord::default();
        }
        &mut self.now
    }

    /// The record of `turn`, if anything has been written in it.
    pub(super) fn peek(&self, turn: u32) -> Option<&TurnRecord> {
        (self.turn == Some(turn)).then_some(&self.now)
    }

    /// A unit's Phase 2 record for `turn` (empty if it has none).
    pub(super) fn unit_turn(&self, turn: u32, id: UnitId) -> UnitTurn {
        self.peek(turn).and_then(|t| t.units.get(&id)).cloned().unwrap_or_default()
    }
}

/// The names an action gives after its subject: a second quoted name, `pip "..."`, `at "..."` or
/// `-> "..."`, in that order of preference.
pub(super) fn second_name(action: &Action) -> Option<&ast::Name> {
    let second = action.args.iter().filter_map(|a| if let Arg::Unit(n) = a { Some(n) } else { None }).nth(1);
    second
        .or_else(|| action.args.iter().find_map(|a| if let Arg::Pip(n) = a { Some(n) } else { None }))
        .or_else(|| target_arg(action))
}

/// The first bare word of an action (`double_time` in `order "..." double_time "..."`).
pub(super) fn word_arg(action: &Action) -> Option<&ast::Ident> {
    action.args.iter().find_map(|a| if let Arg::Word(w) = a { Some(w) } else { None })
}

/// What a command range is measured from (Ch16 2.2): the brigadier's place and base radius, and
/// the unit's body. The range is a pure function of it ([`RangeFrom::measure`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct RangeFrom {
    leader: (f64, f64),
    radius: f64,
    body: Body,
}

impl RangeFrom {
    fn measure(&self) -> f64 {
        let (x, y) = self.leader;
        battlefield::range::command_range(geo::Point::new(x, y), self.radius, &self.body)
    }
}

impl Game {
    pub(super) fn command_verb(&mut self, r: &mut Replayer<'_>, action: &Action, verb: CommandVerb) {
        match verb {
            CommandVerb::Pips => self.pips(r, action),
            CommandVerb::Bonus => self.bonus(r, action),
            CommandVerb::Reserve => self.reserve(r, action),
            CommandVerb::Order => self.order(r, action),
            CommandVerb::Attach => self.attach(r, action),
            CommandVerb::Detach => self.detach(r, action),
            CommandVerb::Friction => self.friction(r, action),
            CommandVerb::DigIn => self.dig_in(r, action),
            CommandVerb::Spike => self.dispose_of_guns(r, action, guns::Disposal::Spike),
            CommandVerb::Haul => self.dispose_of_guns(r, action, guns::Disposal::Haul),
            CommandVerb::Token => self.token(r, action),
            CommandVerb::Fog => self.fog(r, action),
            CommandVerb::Valor => self.valor(r, action),
            CommandVerb::BattleCry => self.battle_cry(r, action),
            CommandVerb::Wave => self.wave(r, action),
        }
    }

    /// What the optional modules forbid the unit an action names, said at the action before it
    /// is played (and played all the same, so one mistake is reported once): a regiment digging
    /// in may not move, fire or assault that turn (Ch13 14.0); one hauling off captured guns may
    /// not fire (Ch13 15.0); a unit under written orders does what its token says
    /// ([`Game::written_limits`], Ch13 8.0).
    pub(super) fn module_limits(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch13 14.0";
        self.written_limits(r, action);
        let Some(verb) = Verb::from_word(&action.verb.value) else { return };
        let what = match verb {
            Verb::Maneuver(ManeuverVerb::Hold | ManeuverVerb::Retreat) => return,
            // A fall back the rules impose (after a failed check) is no move of its own.
            Verb::Maneuver(ManeuverVerb::FallBack) if r.phase != PhaseKind::Maneuver => return,
            Verb::Maneuver(_) => "move",
            Verb::Fire(FireVerb::Fire | FireVerb::Concentrate) => "fire",
            Verb::Assault(AssaultVerb::Assault) => "assault",
            _ => return,
        };
        if what == "fire"
            && !self.state.guns.is_empty()
            && let Some(name) = unit_arg(action)
            && self.state.unit_named(&name.value).is_some_and(|id| guns::towing(&self.state, id))
        {
            let message = format!("{} is hauling off captured guns: it may not fire", name.value);
            r.here(Level::Error, message, "Ch13 15.0");
        }
        // Ch13 23.0: no regiment of a wave fires in the turn it is authorised.
        if what == "fire"
            && let Some(name) = unit_arg(action)
            && self
                .state
                .unit_named(&name.value)
                .is_some_and(|id| crate::engine::wave::may_not_fire(&self.state, id))
        {
            let message = format!("{} is in a wave this turn: it may not fire", name.value);
            r.here(Level::Error, message, "Ch13 23.0, dotc D26");
        }
        let Some(record) = self.book.peek(r.turn).filter(|t| !t.dug_in.is_empty()) else { return };
        let Some(name) = unit_arg(action) else { return };
        if self.state.unit_named(&name.value).is_some_and(|id| record.dug_in.contains(&id)) {
            let message = format!("{} is digging in this turn: it may not {what}", name.value);
            r.here(Level::Error, message, RULE);
        }
    }

    /// Command range (Ch16 2.2, dotc D7): how far a unit's Color Stand, standing as `body`, is
    /// from its brigade's commander: 0 with him attached to it (Ch16 2.4), else from the edge of
    /// his base to the centre of the stand's front edge. None without a commander or his position.
    pub(super) fn command_range(&self, unit: UnitId, body: &Body) -> Option<f64> {
        match self.command_range_from(unit, body)? {
            Ok(from) => Some(from.measure()),
            Err(attached) => Some(attached),
        }
    }

    /// [`Game::command_range`], taken from `known` when it was measured from the same place
    /// (and kept there when it was not).
    pub(super) fn command_range_known(
        &self,
        unit: UnitId,
        body: &Body,
        known: &mut BTreeMap<UnitId, (RangeFrom, f64)>,
    ) -> Option<f64> {
        let from = match self.command_range_from(unit, body)? {
            Ok(from) => from,
            Err(attached) => return Some(attached),
        };
        if let Some((was, range)) = known.get(&unit)
            && *was == from
        {
            // The dev profile measures anyway: every replay of the tests holds the memo to it.
            debug_assert_eq!(range.to_bits(), from.measure().to_bits(), "the command range of {unit:?}");
            return Some(*range);
        }
        let range = from.measure();
        known.insert(unit, (from, range));
        Some(range)
    }

    /// What a unit's command range is measured from (Ch16 2.2): its brigadier's place and base
    /// and its own body; `Err(0.0)` when he is with its Color Stand; None without a brigadier on
    /// the table.
    fn command_range_from(&self, unit: UnitId, body: &Body) -> Option<Result<RangeFrom, f64>> {
        let brigade = self.state.unit(unit)?.brigade.and_then(|b| self.state.brigade(b))?;
        let leader = brigade.brigadier.and_then(|l| self.state.leader(l))?;
        if leader.attached == Some(unit) {
            return Some(Err(0.0));
        }
        let &leader = self.leader_positions.get(&leader.name)?;
        let radius = match self.rules.rulings.brigadier_base {
            crate::rulings::BrigadierBase::RoundInch => battlefield::range::BRIGADIER_BASE / 2.0,
            crate::rulings::BrigadierBase::Point => 0.0,
        };
        Some(Ok(RangeFrom { leader, radius, body: *body }))
    }

    pub(super) fn brigade_of_leader(&self, leader: &str) -> Option<usize> {
        let l = self.state.leader_named(leader)?;
        self.state.brigades.iter().position(|b| b.brigadier == Some(l))
    }

    /// Ch16 2.4: the brigade a leader who is out commanded, and who commands it now: his
    /// successor, or the successor's successor if he fell too. None for a leader who is not out
    /// or never commanded a brigade.
    pub(super) fn commanding_after(&self, out: LeaderId) -> Option<(usize, LeaderId)> {
        let mut leader = self.state.leader(out).filter(|l| l.removed)?;
        // Each colonel is a later leader than the one he replaced: the chain ends.
        for _ in 0..self.state.leaders.len() {
            let next = self.state.leader_named(&leader.successor)?;
            if let Some(b) = self.state.brigades.iter().position(|b| b.brigadier == Some(next)) {
                return Some((b, next));
            }
            leader = self.state.leader(next)?;
        }
        None
    }

    /// The leader an action names first, reported when the game has none of that name. A
    /// replacement colonel named while the leader he would replace is still up (a what-if replay
    /// that switched off the scenario's option that takes that leader off) is read as that
    /// leader, with a warning ([`Game::standing_for`]).
    fn leader_subject(&self, r: &mut Replayer<'_>, action: &Action) -> Option<LeaderId> {
        let name = unit_arg(action)?;
        let id = self.state.leader_named(&name.value).or_else(|| self.standing_for(r, &name.value));
        if id.is_none() {
            r.find(name.span, Level::Error, format!("no leader \"{}\" in this game", name.value), "");
        }
        id
    }

    /// The leader of this name, or the one still up whom a colonel of this name would replace
    /// ([`Game::standing_for`], not reported).
    pub(super) fn leader_or_replaced(&self, name: &str) -> Option<LeaderId> {
        self.state.leader_named(name).or_else(|| {
            self.state.leaders.iter().position(|l| !l.removed && l.successor == name).map(LeaderId)
        })
    }

    /// Ch16 2.4, RULINGS G18, the mirror of a fallen brigadier's roll read as his colonel's: a
    /// log names a replacement colonel who never took command, because the leader he would have
    /// replaced is still up (a scenario's option that takes that leader off is switched off in
    /// a what-if replay). The line is read as that leader's, with a warning to write his name.
    fn standing_for(&self, r: &mut Replayer<'_>, name: &str) -> Option<LeaderId> {
        let up = self.leader_or_replaced(name)?;
        let leader = self.state.leader(up)?;
        let message = format!(
            "{name} has not taken command: {} is still up, and the line is read as his (write his name)",
            leader.name
        );
        r.here(Level::Warning, message, "Ch16 2.4, RULINGS G18");
        Some(up)
    }

    /// Ch16 2.1, RULINGS G2: a brigadier rolls 1D3 (read off a d6) through his rating's formula,
    /// less the pips his wounds cost (Ch16 2.4). Once per brigade and turn; the pips add to any
    /// bonus pip the brigade was already given this turn.
    pub(super) fn pips(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch16 2.1, RULINGS G2";
        let Some(name) = unit_arg(action) else { return };
        let Some(mut lid) =
            self.state.leader_named(&name.value).or_else(|| self.standing_for(r, &name.value))
        else {
            r.find(name.span, Level::Error, format!("no leader \"{}\" in this game", name.value), "");
            return;
        };
        let named = self.state.leader(lid).map(|l| l.name.clone()).unwrap_or_default();
        let b = match self.brigade_of_leader(&named) {
            Some(b) => b,
            None => match self.commanding_after(lid) {
                // Ch16 2.4, RULINGS G18: a brigadier who is out is followed by his colonel from
                // the next Phase 1. A log that still names him (or a what-if replay that switched
                // on a scenario's option taking him off) has the roll read as his successor's.
                Some((b, now)) => {
                    let Some(colonel) = self.state.leader(now) else { return };
                    if colonel.from_turn > r.turn {
                        let message = format!(
                            "{} is out and {} takes his brigade from turn {}: no pips for it this turn",
                            name.value, colonel.name, colonel.from_turn
                        );
                        return r.here(Level::Note, message, "Ch16 2.1, 2.4, RULINGS G18");
                    }
                    let message = format!(
                        "{} is out: the roll is read as that of {}, who commands his brigade now (write his \
                         name)",
                        name.value, colonel.name
                    );
                    r.here(Level::Warning, message, "Ch16 2.4, RULINGS G18");
                    lid = now;
                    b
                }
                None => {
                    r.here(
                        Level::Note,
                        format!("{} commands no brigade: pips not replayed", name.value),
                        RULE,
                    );
                    return;
                }
            },
        };
        if self.book.peek(r.turn).is_some_and(|t| t.pip_rolls.contains_key(&BrigadeId(b))) {
            let message = format!("{} has already rolled his pips this turn: one roll a turn", name.value);
            return r.here(Level::Error, message, RULE);
        }
        let Some(leader) = self.state.leader(lid) else { return };
        let Some(rating) = self.rules.data.rating(&leader.rating) else {
            r.here(Level::Error, format!("no rating `{}` in the rule data", leader.rating), RULE);
            return;
        };
        let (penalty, side) = (leader.pip_penalty, leader.side);
        let mut dice = LogDice::new(dice_of(action, Purpose::StaffPips), self.seeded.as_mut());
        let face = match crate::dice::DiceSource::roll(&mut dice, Purpose::StaffPips, 1) {
            Ok(f) => f.first().copied().unwrap_or(1),
            Err(e) => return r.refused(&EngineError::Dice(e), RULE),
        };
        let unmodified = d3(face).unwrap_or(1);
        let pips = rating.pips(u32::from(unmodified)).saturating_sub(penalty);
        self.book.turn(r.turn).pip_rolls.insert(BrigadeId(b), (side, unmodified));
        let Some(brigade) = self.state.brigades.get_mut(b) else { return };
        brigade.pips += pips;
        let event = Event::new(
            What::Pips {
                brigade: brigade.name.clone(),
                change: i32::try_from(pips).unwrap_or(0),
                pips: brigade.pips,
                banked: brigade.banked,
            },
            RULE,
        );
        r.emit([Event::new(What::Rolled { purpose: Purpose::StaffPips, faces: vec![face] }, RULE), event]);
        r.dice_done(&dice, RULE);
        if let Some(claim) = &action.claim {
            claims::check_number(r, claim, f64::from(pips), "pips", RULE);
        }
    }

    /// The sides whose log keeps their staff pips: those with a `pips` line for one of their
    /// brigadiers anywhere in the log (Ch16 2.1). A log that never rolls a side's pips leaves
    /// its command out altogether; any pip it spends is then overspent, and says why.
    pub(super) fn sides_keeping_pips(&self, turns: &[ast::Turn]) -> BTreeSet<SideId> {
        let mut keeping = BTreeSet::new();
        // Names only: the phases as stored, whatever their spans.
        let sides = turns
            .iter()
            .flat_map(|t| t.stored_phases().0)
            .flat_map(|p| &p.actions)
            .filter(|a| a.verb.value == "pips")
            .filter_map(unit_arg)
            .filter_map(|name| self.state.leader_named(&name.value))
            .filter_map(|l| self.state.leader(l).map(|l| l.side));
        for side in sides {
            keeping.insert(side);
            // Every side keeps them: the rest of the log cannot add one (a resumed replay asks
            // this at every edit, `resume.rs`).
            if keeping.len() == self.state.sides.len() {
                break;
            }
        }
        keeping
    }

    /// The brigades that command in a Phase 1, by index: those with a unit on the table and not
    /// Broken (RULE-07-2.4 takes a Broken brigade's pips). A brigade that enters later in the
    /// turn rolls from its next turn.
    pub(super) fn brigades_on_table(&self) -> BTreeSet<usize> {
        let broken = |b: BrigadeId| {
            self.state.brigade(b).is_none_or(|b| b.status == crate::engine::events::BrigadeStatus::Broken)
        };
        self.state
            .units
            .iter()
            .filter(|u| u.on_table && !u.removed)
            .filter_map(|u| u.brigade)
            .filter(|&b| !broken(b))
            .map(|b| b.0)
            .collect()
    }

    /// Ch16 2.1, RULINGS G8: both sides' brigadiers roll their staff pips in every Phase 1.
    /// Where the log keeps a side's pips ([`Game::sides_keeping_pips`]), a brigade of that side
    /// that commanded when the turn began ([`Game::brigades_on_table`]; its brigadier or a
    /// replacement in command) and did not roll this turn is a
    /// warning at the turn, showing the line to add.
    pub(super) fn unrolled_pips(
        &self,
        r: &mut Replayer<'_>,
        turn: &ast::Turn,
        keeping: &BTreeSet<SideId>,
        at_start: &BTreeSet<usize>,
    ) {
        const RULE: &str = "Ch16 2.1, RULINGS G8";
        let number = turn.number.value;
        // A `pips` line counts even when its dice are missing or wrong: that line has its own finding.
        let rolled: BTreeSet<usize> = turn
            .stored_phases()
            .0
            .iter()
            .flat_map(|p| &p.actions)
            .filter(|a| a.verb.value == "pips")
            .filter_map(unit_arg)
            .filter_map(|name| {
                let named = self.leader_or_replaced(&name.value)?;
                let named = self.state.leader(named)?.name.as_str();
                self.brigade_of_leader(named).or_else(|| {
                    let out = self.state.leader_named(named)?;
                    self.commanding_after(out).map(|(b, _)| b)
                })
            })
            .collect();
        let at = Span::new(turn.span.start, turn.side.span.end);
        for (i, brigade) in self.state.brigades.iter().enumerate() {
            if !keeping.contains(&brigade.side) || rolled.contains(&i) {
                continue;
            }
            let Some(leader) = brigade.brigadier.and_then(|l| self.state.leader(l)) else { continue };
            if leader.removed || leader.from_turn > number {
                continue;
            }
            if !at_start.contains(&i) {
                continue;
            }
            let message = format!(
                "{}'s staff pips were not rolled in turn {number}: add `pips \"{}\" roll [..]` to the \
                 command phase",
                brigade.name, leader.name
            );
            r.find(at, Level::Warning, message, RULE);
        }
    }

    /// Ch16 2.1, RULE-07-4.1: once a turn a division or corps commander gives one brigadier of
    /// his side within the stdlib's radius (`commander division`: `bonus_pips 1`, `within 18`) a
    /// bonus pip. `bonus "Commander" pip "Brigadier"` (or the
    /// brigadier as a second name, or after `->`).
    pub(super) fn bonus(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch16 2.1, RULE-07-4.1";
        let Some(cid) = self.leader_subject(r, action) else { return };
        let Some(commander) = self.state.leader(cid).cloned() else { return };
        let level = self.book.commander_levels.get(&commander.name).cloned();
        // The commanders of the rule data that give a bonus (`commander <level>`); a commander
        // whose level the scenario does not give is read as the first of them.
        let tables = &self.rules.tables;
        let givers: Vec<&dotc_lang::library::Commander> =
            tables.commanders.iter().filter(|c| c.bonus_pips.is_some() && c.within.is_some()).collect();
        let giver = match level.as_deref() {
            Some(l) => givers.iter().find(|c| c.meta.id == l),
            None => givers.first(),
        };
        let bonus = giver.and_then(|c| c.bonus_pips.zip(c.within));
        let Some((bonus_pips, radius)) = bonus.filter(|_| commander.rank == LeaderRank::Commander) else {
            let what = level.map_or("a brigade's commander".to_string(), |l| format!("an {l} commander"));
            let levels: Vec<&str> = givers.iter().map(|c| c.meta.id.as_str()).collect();
            let message = format!(
                "{} is {what}: only a {} commander gives a bonus pip",
                commander.name,
                levels.join(" or ")
            );
            return r.here(Level::Error, message, RULE);
        };
        if commander.removed {
            return r.here(Level::Error, format!("{} is no longer on the table", commander.name), RULE);
        }
        let Some(to) = second_name(action) else {
            return r.here(Level::Error, "a bonus pip names no brigadier to receive it", RULE);
        };
        let Some(b) = self.brigade_of_leader(&to.value) else {
            let message = format!("{} commands no brigade: there is no one to give the pip to", to.value);
            return r.find(to.span, Level::Error, message, RULE);
        };
        let brigade_side = self.state.brigades.get(b).map(|b| b.side);
        if brigade_side != Some(commander.side) {
            let message =
                format!("{} is not under {}: the bonus goes to his own side", to.value, commander.name);
            return r.find(to.span, Level::Error, message, RULE);
        }
        if self.book.peek(r.turn).is_some_and(|t| t.bonuses.contains(&commander.name)) {
            let message = format!("{} has already given his bonus pip this turn", commander.name);
            return r.here(Level::Error, message, RULE);
        }
        let from = self.leader_positions.get(&commander.name).copied();
        let at = self.leader_positions.get(&to.value).copied();
        match from.zip(at) {
            Some(((x1, y1), (x2, y2))) => {
                let distance = crate::geometry::measured((x2 - x1).hypot(y2 - y1));
                if distance > radius {
                    let message = format!(
                        "{} is {distance:.1}\" from {}: a bonus pip reaches only {radius}\"",
                        to.value, commander.name
                    );
                    return r.here(Level::Error, message, format!("{RULE}, RULINGS G4"));
                }
            }
            None => r.here(
                Level::Note,
                format!(
                    "where {} or {} stands is not known: the {radius}\" is not checked",
                    commander.name, to.value
                ),
                RULE,
            ),
        }
        self.book.turn(r.turn).bonuses.insert(commander.name.clone());
        let Some(brigade) = self.state.brigades.get_mut(b) else { return };
        brigade.pips += bonus_pips;
        let event = Event::new(
            What::Pips {
                brigade: brigade.name.clone(),
                change: i32::try_from(bonus_pips).unwrap_or(i32::MAX),
                pips: brigade.pips,
                banked: brigade.banked,
            },
            RULE,
        );
        let pips = brigade.pips;
        r.emit([event]);
        if let Some(claim) = &action.claim {
            claims::check_number(r, claim, f64::from(pips), "pips", RULE);
        }
    }

    pub(super) fn reserve(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch16 2.1, 2.3, RULINGS G8";
        let Some(name) = unit_arg(action) else { return };
        let Some(b) = self.brigade_of_leader(&name.value) else {
            r.here(Level::Error, format!("{} commands no brigade: no pip to bank", name.value), RULE);
            return;
        };
        let Some(brigade) = self.state.brigades.get(b) else { return };
        let limit = brigade
            .brigadier
            .and_then(|l| self.state.leader(l))
            .and_then(|l| self.rules.data.rating(&l.rating))
            .and_then(|r| r.bank)
            .unwrap_or(1);
        let Some(brigade) = self.state.brigades.get_mut(b) else { return };
        if brigade.banked >= limit {
            let message = format!(
                "{} already holds its banked pip (at most {limit}): the rules bank no second one",
                brigade.name
            );
            return r.here(Level::Warning, message, RULE);
        }
        if brigade.pips == 0 {
            return r.here(Level::Error, format!("{} has no pip left to bank", brigade.name), RULE);
        }
        brigade.pips -= 1;
        brigade.banked += 1;
        let event = Event::new(
            What::Pips {
                brigade: brigade.name.clone(),
                change: -1,
                pips: brigade.pips,
                banked: brigade.banked,
            },
            RULE,
        );
        r.emit([event]);
    }

    /// Pay `cost` pips from a brigade (Ch16 2.1, 2.3, RULINGS G8): this turn's pips first, then
    /// the banked one. A brigade without enough is an error, "pip overspent", and pays nothing.
    pub(super) fn pay_pips(
        &mut self,
        r: &mut Replayer<'_>,
        brigade: BrigadeId,
        cost: u32,
        what: &str,
        rule: &'static str,
    ) -> bool {
        if cost == 0 {
            return true;
        }
        let Some(b) = self.state.brigade(brigade) else { return false };
        let (name, available) = (b.name.clone(), b.pips + b.banked);
        let mut events = Vec::new();
        let paid = transact(&mut self.state, |s| {
            morale::spend_pips(s, brigade, cost, &name, what, &mut events, rule)
        });
        match paid {
            Ok(()) => {
                r.emit(events);
                true
            }
            Err(_) => {
                let mut message = format!(
                    "pip overspent: {what} costs {cost} pip{} and {name} has {available} left",
                    if cost == 1 { "" } else { "s" }
                );
                // Ch16 2.1: the likeliest cause is a pip roll the log left out.
                let rolled = self.book.peek(r.turn).is_some_and(|t| t.pip_rolls.contains_key(&brigade));
                let brigadier = self.state.brigade(brigade).and_then(|b| b.brigadier);
                if let (false, Some(leader)) = (rolled, brigadier.and_then(|l| self.state.leader(l))) {
                    message.push_str(&format!(
                        ": his pips were not rolled this turn (add `pips \"{}\" roll [..]` to the command phase)",
                        leader.name
                    ));
                }
                r.here(Level::Error, message, rule);
                false
            }
        }
    }

    /// The price of `order` for `unit`, a regiment of the ordering brigadier's brigade (Ch16 2.2,
    /// 2.3, RULINGS C10, G8): its pip line for his command range to the regiment
    /// ([`Game::command_range`]), doubled in the distant courier tier; out of communication no
    /// order reaches the regiment. Without the unit or the positions the tier cannot be told and
    /// the order costs its standard price.
    pub(super) fn order_price(
        &self,
        order: &Order,
        unit: Option<UnitId>,
    ) -> Result<u32, (String, &'static str)> {
        let distance = unit.and_then(|u| self.command_range(u, self.bodies.get(&u)?));
        let base = order.pip_cost(distance.unwrap_or(0.0)).ok_or_else(|| {
            (format!("the rule data gives {} no price at this distance", order.meta.title()), "Ch16 2.3")
        })?;
        let Some(distance) = distance else { return Ok(base) };
        let factor = match self.rules.tier_at(distance).map(|t| t.order_cost) {
            Some(OrderCost::Prohibited) => {
                return Err((
                    format!(
                        "the regiment is {distance:.1}\" from its brigadier, out of communication: no \
                         order reaches it"
                    ),
                    "Ch16 2.2, RULINGS C10",
                ));
            }
            Some(cost) => cost.factor().unwrap_or(1),
            None => 1,
        };
        Ok(base * factor)
    }

    /// Ch16 2.3, RULINGS G8, C10, C18: `order "Brigadier" ORDER ["Regiment"]` buys a special order
    /// from the rule data in the phase its entry names, priced by [`Game::order_price`] and paid
    /// from the brigadier's brigade. The regiment must be his. Orders whose own line pays (an
    /// assault, a rally, a reserve) are not paid twice.
    pub(super) fn order(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch16 2.3, RULINGS G8";
        let Some(lid) = self.leader_subject(r, action) else { return };
        let leader = self.state.leader(lid).map(|l| l.name.clone()).unwrap_or_default();
        let Some(b) = self.brigade_of_leader(&leader).map(BrigadeId) else {
            return r.here(
                Level::Error,
                format!("{leader} commands no brigade: he has no pips to order with"),
                RULE,
            );
        };
        let Some(word) = word_arg(action) else {
            return r.here(Level::Error, "an order names no order (e.g. `double_time`)", RULE);
        };
        let Some(order) = self.rules.data.order(&word.value).cloned() else {
            let known = self.rules.data.ids(dotc_lang::library::EntryKind::Order).join(", ");
            let message = format!("no order `{}` in the rule data (the orders are {known})", word.value);
            return r.find(word.span, Level::Error, message, "Ch16 2.3");
        };
        let title = order.meta.title().to_string();
        let phase = r.phase.number();
        if !order.phases.contains(&phase) {
            let phases: Vec<String> = order.phases.iter().map(u32::to_string).collect();
            let message = format!("{title} is given in phase {}, not in phase {phase}", phases.join(" or "));
            return r.here(Level::Error, message, "Ch16 2.3, RULINGS C18");
        }
        if let Some((_, verb)) = PAID_ELSEWHERE.iter().find(|(id, _)| *id == word.value) {
            let message = format!("{title} is paid on its own `{verb}` line: this order spends nothing");
            return r.here(Level::Warning, message, RULE);
        }
        let unit = match second_name(action) {
            Some(name) => match self.state.unit_named(&name.value) {
                Some(id) => Some(id),
                None => {
                    let message = format!("no unit \"{}\" in this game", name.value);
                    return r.find(name.span, Level::Error, message, "");
                }
            },
            None => None,
        };
        if let Some(u) = unit.and_then(|id| self.state.unit(id)) {
            if u.brigade != Some(b) {
                let message = format!("{} is not of {leader}'s brigade: he cannot order it", u.name);
                return r.here(Level::Error, message, "Ch16 2.2, 2.3");
            }
            if word.value == DOUBLE_TIME_ORDER
                && !(u.is_infantry() && order.formations.contains(&u.formation))
            {
                let message = format!(
                    "{} may not double-time: the order is for infantry in {}",
                    u.name,
                    order.formations.join(", ")
                );
                return r.here(Level::Error, message, "Ch16 2.3");
            }
        }
        let cost = match self.order_price(&order, unit) {
            Ok(cost) => cost,
            Err((message, rule)) => return r.here(Level::Error, message, rule),
        };
        if !self.pay_pips(r, b, cost, &title, RULE) {
            return;
        }
        let record = self.book.turn(r.turn);
        record.orders.push((word.value.clone(), unit));
        // Ch13 21.0, dotc D18: the pip that clears fouled powder.
        if word.value == CLEAR_FOULING_ORDER {
            self.clear_fouling(r, unit);
        }
        let record = self.book.turn(r.turn);
        if word.value == DOUBLE_TIME_ORDER
            && let Some(id) = unit
        {
            record.units.entry(id).or_default().double_time = true;
        }
        let whom = unit.map(|id| format!(" for {}", self.name(id))).unwrap_or_default();
        let text = format!("{leader} orders {title}{whom} ({cost} pip{})", if cost == 1 { "" } else { "s" });
        r.emit([Event::new(What::Note { text }, RULE)]);
        if let Some(claim) = &action.claim {
            claims::check_number(r, claim, f64::from(cost), "pips spent", RULE);
        }
    }

    /// Ch16 2.4, RULE-07-4.2: `attach "Brigadier" "Regiment"`: the brigadier rides to the Color
    /// Stand of an infantry or cavalry regiment of his side, within his move (Ch16 3.1), and is
    /// with it from then on.
    pub(super) fn attach(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch16 2.4, RULE-07-4.2";
        let Some(lid) = self.leader_subject(r, action) else { return };
        let Some(leader) = self.state.leader(lid).cloned() else { return };
        if leader.removed {
            return r.here(Level::Error, format!("{} is no longer on the table", leader.name), RULE);
        }
        if leader.rank == LeaderRank::Commander {
            let message =
                format!("{} is a commander: only a brigade's commander attaches to a regiment", leader.name);
            return r.here(Level::Error, message, RULE);
        }
        let Some(to) = second_name(action) else {
            return r.here(Level::Error, "an attachment names no regiment", RULE);
        };
        let Some(id) = self.unit(r, Some(to)) else { return };
        let Some(u) = self.state.unit(id) else { return };
        if u.side != leader.side {
            return r.here(Level::Error, format!("{} is an enemy regiment", u.name), RULE);
        }
        if u.is_battery() {
            let message = format!("{} is a battery: a brigadier attaches to infantry or cavalry", u.name);
            return r.here(Level::Error, message, RULE);
        }
        if leader.attached == Some(id) {
            let message = format!("{} is already with {}", leader.name, u.name);
            return r.here(Level::Warning, message, RULE);
        }
        let Some(colours) = self.bodies.get(&id).map(|b| b.position) else {
            return r.here(Level::Error, format!("{} is not on the table", u.name), RULE);
        };
        let unit_name = u.name.clone();
        if !self.move_leader(r, &leader.name, colours, &[]) {
            return;
        }
        if let Some(l) = self.state.leaders.get_mut(lid.0) {
            l.attached = Some(id);
        }
        let text = format!("{} joins the colours of {unit_name}", leader.name);
        r.emit([Event::new(What::Note { text }, RULE)]);
    }

    /// Ch16 2.4: `detach "Brigadier" [to (x, y)]`: he leaves the regiment he is with, where its
    /// colours are or riding on to the point given.
    pub(super) fn detach(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch16 2.4";
        let Some(lid) = self.leader_subject(r, action) else { return };
        let Some(leader) = self.state.leader(lid).cloned() else { return };
        let Some(unit) = leader.attached else {
            return r.here(Level::Error, format!("{} is not attached to any regiment", leader.name), RULE);
        };
        if let Some(colours) = self.bodies.get(&unit).map(|b| b.position) {
            self.leader_positions.insert(leader.name.clone(), colours);
        }
        if let Some(to) =
            action.args.iter().find_map(|a| if let Arg::To(p) = a { Some(p.value) } else { None })
            && !self.move_leader(r, &leader.name, (to.x, to.y), &[])
        {
            return;
        }
        if let Some(l) = self.state.leaders.get_mut(lid.0) {
            l.attached = None;
        }
        let text = format!("{} leaves {}", leader.name, self.name(unit));
        r.emit([Event::new(What::Note { text }, RULE)]);
    }

    /// The brigadier and the regiment of a `VERB "Brigadier" "Regiment"` line (`dig_in`, `spike`,
    /// `haul`), the regiment of the brigadier's own brigade (Ch16
    /// 2.3): his brigade and the regiment. Each missing piece is an error at the line, citing
    /// `rule`, and gives None; `doing` says what he would have the regiment do.
    fn brigadier_and_regiment(
        &self,
        r: &mut Replayer<'_>,
        action: &Action,
        doing: &str,
        rule: &str,
    ) -> Option<(BrigadeId, UnitId)> {
        let lid = self.leader_subject(r, action)?;
        let leader = self.state.leader(lid).map(|l| l.name.clone()).unwrap_or_default();
        let Some(b) = self.brigade_of_leader(&leader).map(BrigadeId) else {
            let message = format!("{leader} commands no brigade: he has no pips and no regiment of his own");
            r.here(Level::Error, message, rule);
            return None;
        };
        let verb = &action.verb.value;
        let Some(to) = second_name(action) else {
            let message = format!("`{verb}` names no regiment: write `{verb} \"Brigadier\" \"Regiment\"`");
            r.here(Level::Error, message, rule);
            return None;
        };
        let id = self.unit(r, Some(to))?;
        let u = self.state.unit(id)?;
        if u.brigade != Some(b) {
            let message = format!("{} is not of {leader}'s brigade: he cannot {doing}", u.name);
            r.here(Level::Error, message, format!("{rule}, Ch16 2.3"));
            return None;
        }
        Some((b, id))
    }

    /// Ch13 14.0 (module `digging_in`), dotc D12: `dig_in "Brigadier" "Regiment"`: in Phase 1 an
    /// infantry regiment of the active side, of the brigadier's brigade, digs in, paying the rule
    /// data's `order dig_in` priced by its command tier as any order ([`Game::order_price`]).
    /// Refused where works may not be dug ([`crate::battlefield::Battlefield::works_ground`]).
    pub(super) fn dig_in(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch13 14.0";
        if !self.rules.module(DIGGING_IN_MODULE) {
            let message =
                "the Digging In module (Ch13 14.0) is not in force in this game: no regiment digs in";
            return r.here(Level::Error, message, RULE);
        }
        let Some((b, id)) = self.brigadier_and_regiment(r, action, "have it dig in", RULE) else {
            return;
        };
        let Some(u) = self.state.unit(id) else { return };
        let name = u.name.clone();
        if !u.is_infantry() {
            let message = format!("{name} is not an infantry regiment: only infantry digs in");
            return r.here(Level::Error, message, RULE);
        }
        if self.state.sides.get(u.side.0).is_none_or(|s| *s.name != *r.side) {
            let message = format!("{name} is not of the active side: a regiment digs in in its own Phase 1");
            return r.here(Level::Error, message, RULE);
        }
        if self.book.peek(r.turn).is_some_and(|t| t.dug_in.contains(&id)) {
            return r.here(Level::Warning, format!("{name} is already digging in this turn"), RULE);
        }
        let Some(body) = self.bodies.get(&id).copied() else {
            return r.here(Level::Error, format!("{name} is not on the table"), RULE);
        };
        let garrison = self.book.garrisons.get(&name).cloned();
        if let Err(kind) = self.bf.works_ground(&body, garrison.as_deref()) {
            let message =
                format!("{name} stands in {kind}: works cannot be dug in watercourses, marshes or buildings");
            return r.here(Level::Error, message, RULE);
        }
        let Some(order) = self.rules.data.order(DIG_IN_ORDER).cloned() else {
            let message = format!("no order `{DIG_IN_ORDER}` in the rule data: digging in has no price");
            return r.here(Level::Error, message, RULE);
        };
        let cost = match self.order_price(&order, Some(id)) {
            Ok(cost) => cost,
            Err((message, rule)) => return r.here(Level::Error, message, rule),
        };
        if !self.pay_pips(r, b, cost, order.meta.title(), RULE) {
            return;
        }
        self.book.turn(r.turn).dug_in.insert(id);
        let text = format!("{name} digs in ({cost} pip{})", if cost == 1 { "" } else { "s" });
        r.emit([Event::new(What::Note { text }, RULE)]);
        if let Some(claim) = &action.claim {
            claims::check_number(r, claim, f64::from(cost), "pips spent", RULE);
        }
    }

    /// Ch13 15.0 (module `spiking_the_guns`), dotc D16: `spike "Brigadier" "Regiment"` or `haul
    /// "Brigadier" "Regiment"`: in the first Phase 1 of its side after the regiment took a
    /// battery's guns, its brigadier spikes them (the `spike_the_guns` order's pips) or has them
    /// hauled off (`haul_off_the_guns`), each priced by the command tier as any order.
    pub(super) fn dispose_of_guns(&mut self, r: &mut Replayer<'_>, action: &Action, how: guns::Disposal) {
        const RULE: &str = "Ch13 15.0";
        if !self.rules.module(guns::MODULE) {
            let message = "the Spiking the Guns module (Ch13 15.0) is not in force in this game: a battery beaten in melee is captured, and no guns are left to spike or haul";
            return r.here(Level::Error, message, RULE);
        }
        let Some((b, id)) = self.brigadier_and_regiment(r, action, "tell it what to do with guns", RULE)
        else {
            return;
        };
        let Some(u) = self.state.unit(id) else { return };
        let name = u.name.clone();
        let Some(held) = guns::held_by(&self.state, id) else {
            let message = format!(
                "{name} holds no captured guns: only a regiment that beat a battery in melee stands among its guns"
            );
            return r.here(Level::Error, message, RULE);
        };
        let (battery, taken) = (held.battery.clone(), held.turn);
        if let GunsFate::Hauling(_) = held.fate {
            let message = format!("{name} is already hauling off the guns of {battery}: the choice was made");
            return r.here(Level::Error, message, RULE);
        }
        if taken >= r.turn || self.state.sides.get(u.side.0).is_none_or(|s| *s.name != *r.side) {
            let message = format!(
                "the guns of {battery} are disposed of in the next Phase 1 of {name}'s own side after they were taken"
            );
            return r.here(Level::Error, message, RULE);
        }
        let id_of = match how {
            guns::Disposal::Spike => guns::SPIKE_ORDER,
            guns::Disposal::Haul => guns::HAUL_ORDER,
        };
        let Some(order) = self.rules.data.order(id_of).cloned() else {
            let message = format!("no order `{id_of}` in the rule data: the guns' fate has no price");
            return r.here(Level::Error, message, RULE);
        };
        let cost = match self.order_price(&order, Some(id)) {
            Ok(cost) => cost,
            Err((message, rule)) => return r.here(Level::Error, message, rule),
        };
        if cost > 0 && !self.pay_pips(r, b, cost, order.meta.title(), RULE) {
            return;
        }
        let mut events = Vec::new();
        match guns::dispose(&mut self.state, id, how, &mut events) {
            Ok(()) => r.emit(events),
            Err(e) => return r.refused(&e, RULE),
        }
        if let Some(claim) = &action.claim {
            claims::check_number(r, claim, f64::from(cost), "pips spent", RULE);
        }
    }

    /// Ch13 15.0, dotc D16: guns a regiment of the side whose turn ends still only occupies, after
    /// a Phase 1 of its own in which its brigadier should have spiked or hauled them.
    pub(super) fn undisposed_guns(&mut self, r: &mut Replayer<'_>) {
        let late: Vec<String> = self
            .state
            .guns
            .iter()
            .filter(|g| g.turn < r.turn)
            .filter_map(|g| match g.fate {
                GunsFate::Occupied(id) => self.state.unit(id).map(|u| (g, u)),
                _ => None,
            })
            .filter(|(_, u)| self.state.sides.get(u.side.0).is_some_and(|s| *s.name == *r.side))
            .map(|(g, u)| format!("{} stands among the guns of {} and its brigadier said nothing of them in Phase 1: write `spike` or `haul` there", u.name, g.battery))
            .collect();
        for message in late {
            r.here(Level::Error, message, "Ch13 15.0");
        }
    }

    /// Ch13 16.0 (module `psychological_shock`), dotc D15: `battle_cry "Brigadier"`: in Phase 2,
    /// before any regiment of his brigade has charged this turn, a brigadier of the active side
    /// raises the battle cry across his brigade, paying the rule data's `order battle_cry` (the
    /// whole brigade: no command tier). Once a game per army: a second cry of the same side is
    /// an error. The engine does the rest: the enemies its regiments charge this phase are
    /// shaken, and every regiment that charged is Disordered at the turn's end.
    pub(super) fn battle_cry(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch13 16.0";
        if !self.rules.module(Module::PsychologicalShock.name()) {
            let message = "the Psychological Shock module (Ch13 16.0) is not in force in this game: no battle cry is raised";
            return r.here(Level::Error, message, RULE);
        }
        let Some(lid) = self.leader_subject(r, action) else { return };
        let leader = self.state.leader(lid).map(|l| l.name.clone()).unwrap_or_default();
        let Some(b) = self.brigade_of_leader(&leader).map(BrigadeId) else {
            let message = format!("{leader} commands no brigade: he has none to raise the battle cry");
            return r.here(Level::Error, message, RULE);
        };
        let side =
            self.state.leader(lid).and_then(|l| self.state.sides.get(l.side.0)).map(|s| s.name.clone());
        let Some(side) = side.filter(|s| **s == *r.side) else {
            let message =
                format!("{leader} is not of the active side: a battle cry is raised in its own turn");
            return r.here(Level::Error, message, RULE);
        };
        if let Some((turn, by)) = self.book.battle_cries.get(side.as_str()) {
            let message = format!(
                "the {side} army raised its battle cry in turn {turn} ({by}): once per game per army"
            );
            return r.here(Level::Error, message, RULE);
        }
        let regiments: Vec<UnitId> = (0..self.state.units.len())
            .map(UnitId)
            .filter(|&id| self.state.unit(id).is_some_and(|u| u.brigade == Some(b) && !u.removed))
            .collect();
        if let Some(u) = regiments.iter().filter_map(|&id| self.state.unit(id)).find(|u| u.turn.assaulted) {
            let message = format!(
                "{} has already charged this turn: the battle cry is raised at the start of the assault, before \
                 the brigade's first charge",
                u.name
            );
            return r.here(Level::Error, message, "Ch13 16.0, dotc D15");
        }
        let Some(order) = self.rules.data.order(BATTLE_CRY_ORDER).cloned() else {
            let message =
                format!("no order `{BATTLE_CRY_ORDER}` in the rule data: the battle cry has no price");
            return r.here(Level::Error, message, RULE);
        };
        let cost = match self.order_price(&order, None) {
            Ok(cost) => cost,
            Err((message, rule)) => return r.here(Level::Error, message, rule),
        };
        if !self.pay_pips(r, b, cost, order.meta.title(), RULE) {
            return;
        }
        for id in regiments {
            if let Some(u) = self.state.unit_mut(id) {
                u.turn.battle_cry = true;
            }
        }
        self.book.battle_cries.insert(side.to_string(), (r.turn, leader.clone()));
        let text = format!(
            "{leader} raises the battle cry across his brigade ({cost} pip{}): the enemies it charges are shaken",
            if cost == 1 { "" } else { "s" }
        );
        r.emit([Event::new(What::Note { text }, RULE)]);
        if let Some(claim) = &action.claim {
            claims::check_number(r, claim, f64::from(cost), "pips spent", RULE);
        }
    }

    /// Ch13 17.0 (module `desperate_valor`), dotc D14: `valor "Brigadier" "Regiment"`: in Phase 1
    /// a brigadier declares Desperate Valor on a regiment of his brigade, of the active side and
    /// able to charge (no battery), paying the rule data's `order desperate_valor` priced by its
    /// command tier as any order ([`Game::order_price`]). The engine then rolls the checks of
    /// its charge this turn with Advantage; a regiment that does not charge has spent the pips
    /// for nothing.
    pub(super) fn valor(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch13 17.0";
        if !self.rules.module(Module::DesperateValor.name()) {
            let message = "the Desperate Valor module (Ch13 17.0) is not in force in this game: no regiment is given Advantage";
            return r.here(Level::Error, message, RULE);
        }
        let Some(lid) = self.leader_subject(r, action) else { return };
        let leader = self.state.leader(lid).map(|l| l.name.clone()).unwrap_or_default();
        let Some(b) = self.brigade_of_leader(&leader).map(BrigadeId) else {
            let message = format!("{leader} commands no brigade: he has no pips for Desperate Valor");
            return r.here(Level::Error, message, RULE);
        };
        let Some(to) = second_name(action) else {
            let message = "Desperate Valor names no regiment: write `valor \"Brigadier\" \"Regiment\"`";
            return r.here(Level::Error, message, RULE);
        };
        let Some(id) = self.unit(r, Some(to)) else { return };
        let Some(u) = self.state.unit(id) else { return };
        let name = u.name.clone();
        if u.brigade != Some(b) {
            let message =
                format!("{name} is not of {leader}'s brigade: he cannot declare Desperate Valor on it");
            return r.here(Level::Error, message, "Ch13 17.0, Ch16 2.3");
        }
        if u.is_battery() {
            let message =
                format!("{name} is a battery: only a regiment that can charge is given Desperate Valor");
            return r.here(Level::Error, message, RULE);
        }
        if self.state.sides.get(u.side.0).is_none_or(|s| *s.name != *r.side) {
            let message =
                format!("{name} is not of the active side: Desperate Valor is declared in its own Phase 1");
            return r.here(Level::Error, message, RULE);
        }
        if u.turn.valor {
            return r.here(Level::Warning, format!("{name} already has Desperate Valor this turn"), RULE);
        }
        let Some(order) = self.rules.data.order(VALOR_ORDER).cloned() else {
            let message = format!("no order `{VALOR_ORDER}` in the rule data: Desperate Valor has no price");
            return r.here(Level::Error, message, RULE);
        };
        let cost = match self.order_price(&order, Some(id)) {
            Ok(cost) => cost,
            Err((message, rule)) => return r.here(Level::Error, message, rule),
        };
        if !self.pay_pips(r, b, cost, order.meta.title(), RULE) {
            return;
        }
        if let Some(u) = self.state.unit_mut(id) {
            u.turn.valor = true;
        }
        let text = format!(
            "{leader} declares Desperate Valor on {name} ({cost} pip{}): its charge's checks roll with Advantage",
            if cost == 1 { "" } else { "s" }
        );
        r.emit([Event::new(What::Note { text }, RULE)]);
        if let Some(claim) = &action.claim {
            claims::check_number(r, claim, f64::from(cost), "pips spent", RULE);
        }
    }

    /// Ch13 14.0, RULINGS G17, dotc D12: at the end of the turn a Hasty Works marker goes along
    /// the front edge of each regiment that dug in and is still on the table, where it now
    /// stands: the ground's cover upgraded one class
    /// ([`crate::battlefield::works::works_for`]). There the works stay.
    pub(super) fn place_works(&mut self, r: &mut Replayer<'_>) {
        const RULE: &str = "Ch13 14.0";
        let Some(record) = self.book.peek(r.turn) else { return };
        let dug: Vec<UnitId> = record.dug_in.iter().copied().collect();
        for id in dug {
            let Some(u) = self.state.unit(id).filter(|u| u.on_table && !u.removed) else { continue };
            let Some(body) = self.bodies.get(&id).copied() else { continue };
            let name = u.name.clone();
            let garrison = self.book.garrisons.get(&name).cloned();
            let ground = match self.bf.works_ground(&body, garrison.as_deref()) {
                Ok(ground) => ground,
                Err(kind) => {
                    let message = format!("{name} ends the turn in {kind}: no works can be dug there");
                    r.here(Level::Error, message, RULE);
                    continue;
                }
            };
            let works = crate::battlefield::works::works_for(ground);
            let Some(entry) = self.rules.data.obstacle(works) else {
                let message = format!("no obstacle `{works}` in the rule data: {name}'s works give no cover");
                r.here(Level::Error, message, RULE);
                continue;
            };
            let (cover, title) = (entry.cover, entry.meta.title().to_string());
            self.bf.works.push(crate::battlefield::HastyWorks {
                unit: name.clone(),
                id: works.to_string(),
                cover,
                line: crate::battlefield::works::works_line(&body),
                turn: r.turn,
            });
            let class = match cover.class {
                dotc_lang::library::CoverClass::Heavy => "heavy",
                dotc_lang::library::CoverClass::Light => "light",
                dotc_lang::library::CoverClass::None => "no",
            };
            let save = cover.save.map(|s| format!(" ({s}+)")).unwrap_or_default();
            let text = format!("{title} dug along {name}'s front: {class} cover{save}");
            r.emit([Event::new(What::Note { text }, RULE)]);
        }
    }

    /// Ch13 3.0, RULINGS G2: a Friction of War roll. Only with the `friction_of_war` module on; it
    /// is due when the two sides' unmodified pip rolls match (a warning when none of this turn's
    /// rolls do). The event is played by the engine ([`crate::engine::friction`]) on the unit or
    /// brigadier the line names: `friction roll [1] "Unit" => 1`; Panic in the Ranks rolls its
    /// own die after the event's, `friction roll [5, 2] "Unit" => 5, disordered` (dotc D19); the
    /// General at the Front names his brigadier when his side has more than one (dotc D20); and
    /// Misinterpreted Orders records the forced march's end, `friction roll [3] "Unit" to (x, y)`.
    pub(super) fn friction(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch13 3.0";
        if !self.rules.module(FRICTION_MODULE) {
            let message = "the Friction of War module (Ch13 3.0) is not in force in this game: there is no friction roll";
            return r.here(Level::Error, message, RULE);
        }
        if let Some(record) = self.book.peek(r.turn) {
            let rolls: Vec<(SideId, u8)> = record.pip_rolls.values().copied().collect();
            let sides: BTreeSet<SideId> = rolls.iter().map(|(s, _)| *s).collect();
            let tie = rolls.iter().any(|(s1, d1)| rolls.iter().any(|(s2, d2)| s1 != s2 && d1 == d2));
            if sides.len() > 1 && !tie {
                let message = "no pip roll of one side matched one of the other this turn, which is what \
                               calls for a friction roll";
                r.here(Level::Warning, message, "Ch13 3.0, RULINGS G2");
            }
        }
        let mut dice = LogDice::new(dice_of(action, Purpose::Friction), self.seeded.as_mut());
        let face = match crate::dice::DiceSource::roll(&mut dice, Purpose::Friction, 1) {
            Ok(f) => f.first().copied().unwrap_or(1),
            Err(e) => return r.refused(&EngineError::Dice(e), RULE),
        };
        // Ch13 3.0: what the face brings, worded by the engine with the rule data's numbers.
        let described = friction::FrictionEvent::of_face(face)
            .map_or_else(|| "no event".to_string(), |e| e.summary(&self.rules.tables));
        r.emit([
            Event::new(What::Rolled { purpose: Purpose::Friction, faces: vec![face] }, RULE),
            Event::new(What::Note { text: format!("Friction of War, {face}: {described}") }, RULE),
        ]);
        let Some(event) = friction::FrictionEvent::of_face(face) else { return r.dice_done(&dice, RULE) };
        let active = self.state.sides.iter().position(|s| *s.name == *r.side).map(SideId);
        let Some(active) = active else { return r.dice_done(&dice, RULE) };
        let Some(pick) = Game::friction_pick(&self.state, r, action, event, active) else { return };
        let report =
            match friction::play_friction(&self.rules, &mut self.state, active, event, pick, &mut dice) {
                Ok(report) => report,
                Err(e) => return r.refused(&e, RULE),
            };
        r.emit(report.events.iter().cloned());
        r.dice_done(&dice, RULE);
        if let Some((id, inches)) = report.march {
            self.misread_march(r, action, id, inches);
        } else if let Some(to) = super::maneuver::to_arg(action) {
            let message = format!(
                "only Misinterpreted Orders (a 3) marches a regiment: drop `to ({}, {})`",
                to.0, to.1
            );
            r.here(Level::Error, message, RULE);
        }
        if let Some(claim) = &action.claim {
            claims::check_friction(r, claim, face, report.panicked);
        }
    }

    /// Ch13 3.0: the unit or brigade a friction event falls on, as the line names it. The outer
    /// None: the line cannot be played (said here).
    fn friction_pick(
        state: &crate::engine::state::GameState,
        r: &mut Replayer<'_>,
        action: &Action,
        event: friction::FrictionEvent,
        active: SideId,
    ) -> Option<Option<friction::Pick>> {
        const RULE: &str = "Ch13 3.0";
        let named = unit_arg(action);
        if event == friction::FrictionEvent::GeneralAtTheFront {
            // dotc D20: the active brigadier is the one the line names; one brigade may go unnamed.
            let brigades: Vec<BrigadeId> = (0..state.brigades.len())
                .map(BrigadeId)
                .filter(|b| state.brigade(*b).is_some_and(|br| br.side == active && br.brigadier.is_some()))
                .collect();
            let found = match named {
                Some(n) => brigades.iter().copied().find(|b| {
                    let leader = state.brigade(*b).and_then(|br| br.brigadier);
                    leader.and_then(|l| state.leader(l)).is_some_and(|l| l.name == n.value)
                }),
                None if brigades.len() == 1 => brigades.first().copied(),
                None => None,
            };
            if found.is_none() {
                let message = match named {
                    Some(n) => format!("{} commands no brigade of the side whose turn it is", n.value),
                    None => "the General at the Front: name the active brigadier who rides forward \
                             (`friction roll [4] \"Brigadier\" => 4`)"
                        .to_string(),
                };
                r.here(Level::Error, message, "Ch13 3.0, dotc D20");
                return None;
            }
            return Some(found.map(friction::Pick::Brigade));
        }
        match (event.pick(), named) {
            (None, Some(n)) => {
                let message = format!("{} falls on no one unit: drop \"{}\"", event.title(), n.value);
                r.find(n.span, Level::Error, message, RULE);
                Some(None)
            }
            (None, None) => Some(None),
            (Some(who), None) => {
                let message = format!(
                    "{}: {who}, and the line names it (`friction roll [..] \"Unit\"`)",
                    event.title()
                );
                r.here(Level::Error, message, RULE);
                None
            }
            (Some(_), Some(n)) => match state.unit_named(&n.value) {
                Some(id) => Some(Some(friction::Pick::Unit(id))),
                None => {
                    r.find(n.span, Level::Error, format!("no unit \"{}\" in this game", n.value), "");
                    None
                }
            },
        }
    }

    /// Ch13 3.0 Misinterpreted Orders: the regiment marches `inches` straight ahead at once,
    /// keeping its facing, whatever lies there. The line records where it ends (`to (x, y)`); a
    /// line without it, or with another place, is an error naming the place, and the replay puts
    /// the regiment where the rules do.
    fn misread_march(&mut self, r: &mut Replayer<'_>, action: &Action, id: UnitId, inches: f64) {
        const RULE: &str = "Ch13 3.0";
        let Some(from) = self.bodies.get(&id).copied() else { return };
        let end = from.frame().to_table(0.0, inches);
        let round = |v: f64| (v * 100.0).round() / 100.0 + 0.0;
        let place = format!("({}, {})", round(end.x), round(end.y));
        let name = self.name(id);
        match super::maneuver::to_arg(action) {
            None => {
                let message = format!(
                    "{name} marches {inches}\" straight ahead, but the line does not say where it ends: \
                     add `to {place}`; the replay puts it there"
                );
                r.here(Level::Error, message, RULE);
            }
            Some((x, y))
                if (x - end.x).hypot(y - end.y) > crate::battlefield::movement::POSITION_TOLERANCE =>
            {
                let message = format!(
                    "{name} marches {inches}\" straight ahead, keeping its facing, to {place}, not to ({x}, {y}); \
                     the replay puts it there"
                );
                r.here(Level::Error, message, RULE);
            }
            Some(_) => {}
        }
        self.place(id, Body { position: (end.x, end.y), ..from });
        let text = format!("{name} marches {inches}\" straight ahead to {place}");
        r.emit([Event::new(What::Note { text }, RULE)]);
    }

    /// Ch13 21.0, dotc D18: `order "Brigadier" clear_fouling "Unit"` (paid already) takes the
    /// Fouled marker off the unit; a unit with none is told so.
    fn clear_fouling(&mut self, r: &mut Replayer<'_>, unit: Option<UnitId>) {
        const RULE: &str = "Ch13 21.0, dotc D18";
        let Some(id) = unit else {
            return r.here(
                Level::Error,
                "clearing fouled powder names no unit: write `order \"Brigadier\" clear_fouling \"Unit\"`",
                RULE,
            );
        };
        let title = self.rules.tables.fouled.meta.title().to_string();
        let Some(u) = self.state.unit_mut(id) else { return };
        if !u.markers.fouled {
            let message = format!("{} carries no {title} marker: the pip clears nothing", u.name);
            return r.here(Level::Warning, message, RULE);
        }
        u.markers.fouled = false;
        let unit = u.name.clone();
        r.emit([Event::new(What::MarkerRemoved { unit, marker: title }, RULE)]);
    }

    /// Ch13 21.0 (module weather), dotc D18: `fog roll [d]`: from the sky's `thins` turn on, once
    /// a turn in Phase 1, a d6 that thins the sky (dense fog to light fog) on its target or
    /// better.
    pub(super) fn fog(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch13 21.0";
        let weather = self.state.weather;
        let Some(thinning) = weather.thinning(&self.rules.tables).cloned() else {
            let message = "the sky in force does not thin: there is no fog roll (Ch13 21.0: dense fog only)";
            return r.here(Level::Error, message, RULE);
        };
        if r.turn < thinning.from_turn {
            let message =
                format!("the fog may thin from turn {} on: no roll in turn {}", thinning.from_turn, r.turn);
            return r.here(Level::Error, message, RULE);
        }
        if std::mem::replace(&mut self.book.turn(r.turn).fog_rolled, true) {
            return r.here(Level::Error, "the fog's roll is made once a turn", RULE);
        }
        let mut dice = LogDice::new(dice_of(action, Purpose::Weather), self.seeded.as_mut());
        let face = match crate::dice::DiceSource::roll(&mut dice, Purpose::Weather, 1) {
            Ok(f) => f.first().copied().unwrap_or(1),
            Err(e) => return r.refused(&EngineError::Dice(e), RULE),
        };
        let thins = u32::from(face) >= thinning.on;
        let mut events =
            vec![Event::new(What::Rolled { purpose: Purpose::Weather, faces: vec![face] }, RULE)];
        let text = if thins {
            if let Some(sky) = crate::engine::weather::Sky::from_word(&thinning.into) {
                self.state.weather.sky = sky;
            }
            format!("the fog thins ({face}, {}+ needed): the sky is now {}", thinning.on, thinning.into)
        } else {
            format!("the fog holds ({face}, {}+ needed)", thinning.on)
        };
        events.push(Event::new(What::Note { text }, RULE));
        r.emit(events);
        r.dice_done(&dice, RULE);
        if let Some(claim) = &action.claim {
            claims::check_number(r, claim, f64::from(face), "fog roll", RULE);
        }
    }

    /// Ch13 21.0, dotc D18: a turn from the fog's `thins` turn on that ends in that fog without
    /// its roll is warned at the turn.
    pub(super) fn unrolled_fog(&mut self, r: &mut Replayer<'_>) {
        let Some(thinning) = self.state.weather.thinning(&self.rules.tables) else { return };
        if r.turn < thinning.from_turn || self.book.peek(r.turn).is_some_and(|t| t.fog_rolled) {
            return;
        }
        let message = format!(
            "the fog may thin from turn {}: add `fog roll [..]` to this turn's command phase",
            thinning.from_turn
        );
        r.here(Level::Warning, message, "Ch13 21.0");
    }
}

#[cfg(test)]
mod tests {
    use super::super::maneuver::tests::{DRILL, errors, errors_at, notes, play};
    use super::*;

    fn brigade<'a>(replay: &'a Replay, name: &str) -> &'a narrative::BrigadeSummary {
        replay.summary.brigades.iter().find(|b| b.name == name).expect("the drill field has this brigade")
    }

    /// Ch13 21.0, dotc D18: from turn 3 dense fog rolls once a turn to thin, 5+ to light fog; a
    /// roll under 5 leaves it, a roll before turn 3 or a second in a turn is refused, and a turn
    /// from 3 on without one is warned at the turn.
    #[test]
    fn ch13_21_0_dense_fog_thins_on_a_five_from_turn_three() {
        let scenario = include_str!("../../../tests/rules/modules/weather-infantry.dotc").replace(
            "    table 60 x 40\n",
            "    table 60 x 40\n    rules {\n        module weather\n        weather sky dense_fog\n    }\n",
        );
        let pips = "        pips \"Col. Rain\" roll [5]\n        pips \"Col. Mist\" roll [1]\n";
        let log = format!(
            "turn 1 union {{\n    command {{\n{pips}        fog roll [6]\n    }}\n}}\nturn 2 confederate {{\n    command {{\n{pips}    }}\n}}\nturn 3 union {{\n    command {{\n{pips}        fog roll [4] => 4\n        fog roll [5]\n    }}\n}}\nturn 4 confederate {{\n    command {{\n{pips}    }}\n}}\nturn 5 union {{\n    command {{\n{pips}        fog roll [5] => 5\n    }}\n}}\nturn 6 confederate {{\n    command {{\n{pips}    }}\n}}\n"
        );
        let (replay, game) = play(&scenario, &log);
        let early = errors_at(&replay, &game, "fog roll [6]");
        assert!(early.iter().any(|f| f.message.contains("from turn 3")), "{early:#?}");
        assert!(errors_at(&replay, &game, "fog roll [4]").is_empty(), "{:#?}", replay.findings);
        let twice = errors_at(&replay, &game, "fog roll [5]\n");
        assert!(twice.iter().any(|f| f.message.contains("once a turn")), "{twice:#?}");
        let text = notes(&replay);
        assert!(text.iter().any(|n| n == "the fog holds (4, 5+ needed)"), "{text:#?}");
        assert!(
            text.iter().any(|n| n == "the fog thins (5, 5+ needed): the sky is now light_fog"),
            "{text:#?}"
        );
        // Turn 4 rolled nothing: warned; after the fog thinned in turn 5, turn 6 needs no roll.
        let warned = |turn: &str| {
            let at = game.find(turn).expect("the log has the turn");
            replay
                .findings
                .iter()
                .any(|f| f.span.start == at && f.level == Level::Warning && f.message.contains("fog roll"))
        };
        assert!(warned("turn 4 confederate"), "{:#?}", replay.findings);
        assert!(!warned("turn 2 confederate") && !warned("turn 6 confederate"));
    }

    /// Ch13 21.0, dotc D18: `order clear_fouling` takes the Fouled marker off for its pip; on a
    /// unit with none it is warned.
    #[test]
    fn ch13_21_0_a_pip_clears_fouled_powder() {
        let scenario = include_str!("../../../tests/rules/modules/weather-infantry.dotc")
            .replace("    table 60 x 40\n", "    table 60 x 40\n    rules {\n        module weather\n    }\n")
            .replace("line at (16, 10) facing north }", "line at (16, 10) facing north markers fouled }");
        let log = "turn 1 union {\n    command {\n        pips \"Col. Rain\" roll [5] => 4\n        pips \"Col. Mist\" roll [1]\n        order \"Col. Rain\" clear_fouling \"U1\" => 1\n        order \"Col. Rain\" clear_fouling \"U2\"\n    }\n}\n";
        let (replay, game) = play(&scenario, log);
        assert!(
            errors_at(&replay, &game, "order \"Col. Rain\" clear_fouling \"U1\"").is_empty(),
            "{:#?}",
            replay.findings
        );
        assert!(replay.events.iter().any(|e| matches!(&e.event.what,
            What::MarkerRemoved { unit, marker } if unit == "U1" && marker == "Fouled Powder")));
        let at = game.find("order \"Col. Rain\" clear_fouling \"U2\"");
        assert!(replay.findings.iter().any(|f| Some(f.span.start) == at
            && f.level == Level::Warning
            && f.message.contains("clears nothing")));
        // Two pips paid, one each, of 4.
        assert_eq!(brigade(&replay, "Rain").pips, 2);
    }

    /// Ch13 15.0, dotc D16: the guns a regiment took must be spiked or hauled off in its side's
    /// next Phase 1; a turn of that side that ends with them only occupied is an error at the
    /// turn, and neither the turn they were taken nor the enemy's turn is.
    #[test]
    fn ch13_15_0_guns_left_undisposed_after_the_next_own_phase_1_are_an_error() {
        let scenario = include_str!("../../../tests/rules/modules/spiking_the_guns.dotc");
        let scenario = scenario.replace(
            "    table 80 x 40\n",
            "    table 80 x 40\n    rules {\n        module spiking_the_guns\n    }\n",
        );
        let pips = "        pips \"Col. Ames\" roll [5]\n        pips \"Col. Baker\" roll [5]\n        pips \"Col. Pegram\" roll [1]\n        pips \"Col. Bragg\" roll [1]\n";
        let log = format!(
            "turn 1 union {{\n    command {{\n{pips}    }}\n    maneuver {{\n        assault \"A1\" -> \"G1\" pip \"Col. Ames\" {{\n            melee roll [4] vs [2] => attacker wins\n        }}\n    }}\n}}\nturn 2 confederate {{\n    command {{\n{pips}    }}\n}}\nturn 3 union {{\n    command {{\n{pips}        haul \"Col. Ames\" \"A2\"\n    }}\n}}\n"
        );
        let (replay, game) = play(&scenario, &log);
        let at_turn = |turn: &str| -> Vec<String> {
            let at = game.find(turn).expect("the log has the turn");
            replay
                .findings
                .iter()
                .filter(|f| f.span.start == at && f.level == Level::Error && f.rule == "Ch13 15.0")
                .map(|f| f.message.clone())
                .collect()
        };
        assert!(at_turn("turn 1 union").is_empty(), "{:#?}", replay.findings);
        assert!(at_turn("turn 2 confederate").is_empty(), "{:#?}", replay.findings);
        let late = at_turn("turn 3 union");
        assert_eq!(late.len(), 1, "{:#?}", replay.findings);
        assert!(late[0].contains("A1 stands among the guns of G1"), "{late:?}");
        // A2 took no guns: its `haul` is refused at the line.
        let refused = errors_at(&replay, &game, "haul \"Col. Ames\" \"A2\"");
        assert!(refused.iter().any(|f| f.message.contains("holds no captured guns")), "{refused:#?}");
        assert_eq!(replay.summary.guns.len(), 1);
        assert_eq!(replay.summary.guns[0].fate, "occupied");
    }

    #[test]
    fn ch16_2_1_bonus_pip_once_a_turn_within_18_inches() {
        // Gen. Blue is 8.9" from Able and 25" from Baker.
        let log = "turn 1 blue {\n    command {\n        pips \"Col. Able\" roll [3] => 2\n        bonus \"Gen. Blue\" pip \"Col. Able\" => 3\n        bonus \"Gen. Blue\" pip \"Col. Weak\"\n        bonus \"Col. Able\" pip \"Col. Weak\"\n    }\n}\nturn 2 red {\n}\nturn 3 blue {\n    command {\n        bonus \"Gen. Blue\" pip \"Col. Baker\"\n    }\n}\n";
        let (replay, game) = play(DRILL, log);
        assert!(
            errors_at(&replay, &game, "bonus \"Gen. Blue\" pip \"Col. Able\"").is_empty(),
            "{:#?}",
            replay.findings
        );
        let twice = errors_at(&replay, &game, "bonus \"Gen. Blue\" pip \"Col. Weak\"");
        assert!(twice.iter().any(|f| f.message.contains("already given") && f.rule.contains("Ch16 2.1")));
        let brigadier = errors_at(&replay, &game, "bonus \"Col. Able\"");
        assert!(brigadier.iter().any(|f| f.message.contains("only a division or corps commander")));
        let far = errors_at(&replay, &game, "bonus \"Gen. Blue\" pip \"Col. Baker\"");
        assert!(far.iter().any(|f| f.message.contains("18\"") && f.rule.contains("Ch16 2.1")), "{far:#?}");
        // Turn 3 started afresh: Able's 3 pips (2 + 1) are gone, Baker got nothing.
        assert!(replay.events.iter().any(|e| e.turn == 1
            && matches!(&e.event.what, What::Pips { brigade, pips: 3, change: 1, .. } if brigade == "First Brigade")));
        assert_eq!(brigade(&replay, "Second Brigade").pips, 0);
    }

    #[test]
    fn ch16_2_1_one_pip_roll_a_turn_and_a_bonus_given_first_is_kept() {
        let log = "turn 1 blue {\n    command {\n        bonus \"Gen. Blue\" pip \"Col. Able\"\n        pips \"Col. Able\" roll [3] => 2\n        pips \"Col. Able\" roll [6]\n    }\n}\n";
        let (replay, game) = play(DRILL, log);
        let again = errors_at(&replay, &game, "pips \"Col. Able\" roll [6]");
        assert!(again.iter().any(|f| f.rule.contains("Ch16 2.1")), "{:#?}", replay.findings);
        assert_eq!(brigade(&replay, "First Brigade").pips, 3);
    }

    #[test]
    fn ch16_2_1_a_brigade_left_out_of_a_side_s_pip_rolls_is_said() {
        // Blue keeps its pips (Able rolls in turn 1). In turn 1 Baker and Weak did not roll; in
        // turns 2 and 3 nobody did (both sides roll every Phase 1, RULINGS G8). Red never rolls:
        // its log leaves command out, and nothing is said.
        let log = "turn 1 blue {\n    command {\n        pips \"Col. Able\" roll [3] => 2\n        pips \"Col. Weak\"\n    }\n}\nturn 2 red {\n}\nturn 3 blue {\n}\n";
        let (replay, game) = play(DRILL, log);
        let unrolled = |turn: &str| -> Vec<String> {
            let at = game.find(turn).expect("the log has the turn");
            let mut found: Vec<String> = replay
                .findings
                .iter()
                .filter(|f| {
                    f.span.start == at && f.level == Level::Warning && f.rule == "Ch16 2.1, RULINGS G8"
                })
                .map(|f| f.message.clone())
                .collect();
            found.sort();
            found
        };
        // Weak's line has no die (a finding of its own) but was written: only Baker is missing.
        assert_eq!(
            unrolled("turn 1 blue"),
            [
                "Second Brigade's staff pips were not rolled in turn 1: add `pips \"Col. Baker\" roll [..]` to the \
              command phase"
            ],
            "{:#?}",
            replay.findings
        );
        assert_eq!(unrolled("turn 2 red").len(), 3, "{:#?}", replay.findings);
        assert_eq!(unrolled("turn 3 blue").len(), 3, "{:#?}", replay.findings);
        assert!(unrolled("turn 3 blue").iter().all(|m| !m.contains("Red Brigade")));
    }

    #[test]
    fn ch16_2_1_an_overspent_pip_says_when_the_pips_were_not_rolled() {
        let log =
            "turn 1 blue {\n    maneuver {\n        order \"Col. Able\" double_time \"1st Foot\"\n    }\n}\n";
        let (replay, game) = play(DRILL, log);
        let broke = errors_at(&replay, &game, "order \"Col. Able\" double_time \"1st Foot\"");
        assert!(
            broke.iter().any(|f| f.message.starts_with("pip overspent")
                && f.message
                    .contains("his pips were not rolled this turn (add `pips \"Col. Able\" roll [..]`")),
            "{broke:#?}"
        );
    }

    #[test]
    fn ch16_2_2_dotc_d7_command_range_runs_from_the_base_edge_to_the_color_stand() {
        // The 2nd Foot faces east with its Color Stand's front centre at (26.3, 10), 12.3" east of
        // Col. Able (14, 10); its stands reach back toward him, their rear edge nearer than 12".
        // From the edge of his 1" base (dotc D7, default) the range is 11.8": Tier 2, 1 pip. From
        // his position (`point`) it is 12.3": Tier 3, doubled to 2 (Ch16 2.2, RULINGS G8). Either
        // way measured to the colours, not to the nearest stand.
        let drill = DRILL.replace(
            "regiment \"2nd Foot\" { stands 4 regular rifled_musket line at (16, 4) facing east }",
            "regiment \"2nd Foot\" { stands 4 regular rifled_musket line at (26.3, 10) facing east }",
        );
        let log = "turn 1 blue {\n    command {\n        pips \"Col. Able\" roll [5] => 3\n    }\n    maneuver {\n        order \"Col. Able\" double_time \"2nd Foot\"\n    }\n}\n";
        let spent = |scenario: &str| -> u32 {
            let (replay, _) = play(scenario, log);
            3 - brigade(&replay, "First Brigade").pips
        };
        assert_eq!(spent(&drill), 1, "11.8\" from the base's edge: Tier 2");
        let point = drill.replace(
            "    table 48 x 36\n",
            "    table 48 x 36\n    rules {\n        ruling brigadier_base = point\n    }\n",
        );
        assert_ne!(point, drill);
        assert_eq!(spent(&point), 2, "12.3\" from his position: Tier 3");
    }

    #[test]
    fn rulings_g8_c10_orders_are_priced_by_command_tier_and_never_overspent() {
        // Able has 3 pips. The 4th Foot is 17.9" away (tier 3: double, 2 pips); the 5th Foot
        // 26" (out of communication); the 1st Foot 2" (1 pip); then nothing is left for the 2nd.
        let log = "turn 1 blue {\n    command {\n        pips \"Col. Able\" roll [5] => 3\n    }\n    maneuver {\n        order \"Col. Able\" double_time \"4th Foot\" => 2\n        order \"Col. Able\" double_time \"5th Foot\"\n        order \"Col. Able\" double_time \"1st Foot\"\n        order \"Col. Able\" double_time \"2nd Foot\"\n    }\n}\n";
        let (replay, game) = play(DRILL, log);
        assert!(errors_at(&replay, &game, "order \"Col. Able\" double_time \"4th Foot\"").is_empty());
        assert!(notes(&replay).iter().any(|n| n.contains("Double-Time Advance for 4th Foot (2 pips)")));
        let cut_off = errors_at(&replay, &game, "order \"Col. Able\" double_time \"5th Foot\"");
        assert!(cut_off.iter().any(|f| f.rule == "Ch16 2.2, RULINGS C10"), "{cut_off:#?}");
        assert!(errors_at(&replay, &game, "order \"Col. Able\" double_time \"1st Foot\"").is_empty());
        let broke = errors_at(&replay, &game, "order \"Col. Able\" double_time \"2nd Foot\"");
        assert!(broke.iter().any(|f| f.message.starts_with("pip overspent") && f.rule.contains("Ch16 2.3")));
        let first = brigade(&replay, "First Brigade");
        assert_eq!((first.pips, first.banked), (0, 0));
    }

    #[test]
    fn ch16_2_3_orders_are_for_his_own_regiments_in_their_phase() {
        let log = "turn 1 blue {\n    command {\n        pips \"Col. Able\" roll [5] => 3\n        order \"Col. Able\" double_time \"1st Foot\"\n    }\n    maneuver {\n        order \"Col. Able\" double_time \"3rd Foot\"\n        order \"Col. Able\" regimental_assault \"1st Foot\"\n        order \"Col. Able\" charge_at_once \"1st Foot\"\n    }\n}\n";
        let (replay, game) = play(DRILL, log);
        let phase = errors_at(&replay, &game, "order \"Col. Able\" double_time \"1st Foot\"");
        assert!(phase.iter().any(|f| f.message.contains("phase 2")), "{:#?}", replay.findings);
        let other = errors_at(&replay, &game, "order \"Col. Able\" double_time \"3rd Foot\"");
        assert!(other.iter().any(|f| f.message.contains("not of Col. Able's brigade")));
        let start = game.find("order \"Col. Able\" regimental_assault");
        assert!(replay.findings.iter().any(|f| Some(f.span.start) == start && f.level == Level::Warning));
        assert!(replay.findings.iter().any(|f| f.message.starts_with("no order `charge_at_once`")));
        assert_eq!(brigade(&replay, "First Brigade").pips, 3, "nothing was paid");
    }

    #[test]
    fn ch16_2_4_a_brigadier_attaches_within_his_ride_and_goes_with_the_colours() {
        let log = "turn 1 blue {\n    command {\n        attach \"Col. Baker\" \"2nd Foot\"\n        attach \"Col. Able\" \"Blue Battery\"\n        attach \"Gen. Blue\" \"1st Foot\"\n        attach \"Col. Able\" \"1st Foot\"\n        detach \"Col. Weak\"\n    }\n    maneuver {\n        move \"1st Foot\" to (20, 10) facing east\n        move \"Col. Able\" to (20, 14)\n    }\n}\n";
        let (replay, game) = play(DRILL, log);
        let far = errors_at(&replay, &game, "attach \"Col. Baker\"");
        assert!(far.iter().any(|f| f.rule == "Ch16 3.1"), "{:#?}", replay.findings);
        assert!(
            errors_at(&replay, &game, "attach \"Col. Able\" \"Blue Battery\"")
                .iter()
                .any(|f| f.rule.contains("Ch16 2.4"))
        );
        assert!(
            errors_at(&replay, &game, "attach \"Gen. Blue\"").iter().any(|f| f.rule.contains("RULE-07-4.2"))
        );
        assert!(errors_at(&replay, &game, "attach \"Col. Able\" \"1st Foot\"").is_empty());
        assert!(errors_at(&replay, &game, "detach").iter().any(|f| f.message.contains("not attached")));
        // He rode with the colours to (20, 10): from there (20, 14) is 4", and he leaves them.
        let text = notes(&replay);
        assert!(text.iter().any(|n| n == "Col. Able rides 4.0\" of an allowed 12.0\""), "{text:#?}");
        assert!(text.iter().any(|n| n == "Col. Able leaves 1st Foot"));
    }

    #[test]
    fn ch13_14_0_a_regiment_digs_in_for_a_pip_and_may_not_move_or_fire_that_turn() {
        let with_module = DRILL.replace(
            "    table 48 x 36\n",
            "    table 48 x 36\n    rules {\n        module digging_in\n    }\n",
        );
        let log = "turn 1 blue {\n    command {\n        pips \"Col. Able\" roll [5] => 3\n        dig_in \"Col. Able\" \"1st Foot\" => 1\n        dig_in \"Col. Able\" \"Blue Battery\"\n        dig_in \"Col. Able\" \"3rd Foot\"\n    }\n    maneuver {\n        move \"1st Foot\" to (18, 10) facing east\n    }\n    fire {\n        fire \"1st Foot\" at \"1st Red\" roll [1, 2, 3, 4, 5]\n    }\n}\n";
        let (replay, game) = play(&with_module, log);
        assert!(
            errors_at(&replay, &game, "dig_in \"Col. Able\" \"1st Foot\"").is_empty(),
            "{:#?}",
            replay.findings
        );
        let battery = errors_at(&replay, &game, "dig_in \"Col. Able\" \"Blue Battery\"");
        assert!(battery.iter().any(|f| f.message.contains("only infantry") && f.rule == "Ch13 14.0"));
        let other = errors_at(&replay, &game, "dig_in \"Col. Able\" \"3rd Foot\"");
        assert!(other.iter().any(|f| f.message.contains("not of Col. Able's brigade")));
        let moved = errors_at(&replay, &game, "move \"1st Foot\"");
        assert!(
            moved.iter().any(|f| f.message.contains("may not move") && f.rule == "Ch13 14.0"),
            "{moved:#?}"
        );
        let fired = errors_at(&replay, &game, "fire \"1st Foot\"");
        assert!(
            fired.iter().any(|f| f.message.contains("may not fire") && f.rule == "Ch13 14.0"),
            "{fired:#?}"
        );
        // Able rolled 3 pips (reliable, [5] -> d3 3) and paid 1 (Tier 1, 2" away).
        assert_eq!(brigade(&replay, "First Brigade").pips, 2);
        // At the turn's end the works go along its front where it stands, on open ground: light.
        let text = notes(&replay);
        assert!(
            text.iter().any(|n| n == "Hasty Works dug along 1st Foot's front: light cover (5+)"),
            "{text:#?}"
        );
        // Without the module nobody digs in.
        let (replay, game) = play(DRILL, log);
        let off = errors_at(&replay, &game, "dig_in \"Col. Able\" \"1st Foot\"");
        assert!(off.iter().any(|f| f.message.contains("not in force")), "{off:#?}");
        assert!(errors_at(&replay, &game, "move \"1st Foot\"").iter().all(|f| f.rule != "Ch13 14.0"));
    }

    #[test]
    fn ch13_17_0_desperate_valor_costs_two_pips_on_a_regiment_of_the_brigadiers_own() {
        let with_module = DRILL.replace(
            "    table 48 x 36\n",
            "    table 48 x 36\n    rules {\n        module desperate_valor\n    }\n",
        );
        let log = "turn 1 blue {\n    command {\n        pips \"Col. Able\" roll [5] => 3\n        valor \"Col. Able\" \"1st Foot\" => 2\n        valor \"Col. Able\" \"1st Foot\"\n        valor \"Col. Able\" \"Blue Battery\"\n        valor \"Col. Able\" \"3rd Foot\"\n    }\n}\n";
        let (replay, game) = play(&with_module, log);
        assert!(
            errors_at(&replay, &game, "valor \"Col. Able\" \"1st Foot\" => 2").is_empty(),
            "{:#?}",
            replay.findings
        );
        // Able rolled 3 pips (reliable, [5] -> d3 3) and paid 2 (the order's 2, Tier 1).
        assert_eq!(brigade(&replay, "First Brigade").pips, 1);
        let again = replay.findings.iter().find(|f| f.message.contains("already has Desperate Valor"));
        assert!(again.is_some_and(|f| f.rule == "Ch13 17.0"), "{:#?}", replay.findings);
        let battery = errors_at(&replay, &game, "valor \"Col. Able\" \"Blue Battery\"");
        assert!(battery.iter().any(|f| f.message.contains("a battery") && f.rule == "Ch13 17.0"));
        let other = errors_at(&replay, &game, "valor \"Col. Able\" \"3rd Foot\"");
        assert!(other.iter().any(|f| f.message.contains("not of Col. Able's brigade")), "{other:#?}");
        let text = notes(&replay);
        assert!(
            text.iter().any(|t| t.contains("declares Desperate Valor on 1st Foot (2 pips)")),
            "{text:#?}"
        );
        // Without the module nobody is given Advantage, and no pip is spent.
        let (replay, game) = play(DRILL, log);
        let off = errors_at(&replay, &game, "valor \"Col. Able\" \"1st Foot\" => 2");
        assert!(off.iter().any(|f| f.message.contains("not in force") && f.rule == "Ch13 17.0"), "{off:#?}");
        assert_eq!(brigade(&replay, "First Brigade").pips, 3);
    }

    #[test]
    fn ch13_3_0_friction_is_rolled_only_with_the_module_and_on_a_tie() {
        let log = "turn 1 blue {\n    command {\n        pips \"Col. Able\" roll [3] => 2\n        pips \"Col. Baker\" roll [3] => 1\n        pips \"Col. Weak\" roll [3] => 2\n        pips \"Col. Red\" roll [4] => 2\n        friction roll [2] => 2\n    }\n}\n";
        let (replay, game) = play(DRILL, log);
        let off = errors_at(&replay, &game, "friction");
        assert!(off.iter().any(|f| f.rule == "Ch13 3.0" && f.message.contains("not in force")));
        let with_module = DRILL.replace(
            "    table 48 x 36\n",
            "    table 48 x 36\n    rules {\n        module friction_of_war\n    }\n",
        );
        let (replay, _) = play(&with_module, log);
        assert!(errors(&replay).is_empty() && !replay.has_problems(), "{:#?}", replay.findings);
        assert!(notes(&replay).iter().any(|n| n.starts_with("Friction of War, 2: a sudden squall")));
        let no_tie = log.replace("roll [4] => 2", "roll [1] => 1");
        let (replay, game) = play(&with_module, &no_tie);
        let start = game.find("friction");
        assert!(replay.findings.iter().any(|f| Some(f.span.start) == start
            && f.level == Level::Warning
            && f.rule.contains("RULINGS G2")));
    }
}

//! The rule data the engine reads, looked up once and checked complete.
//!
//! Every number the engine uses comes from the stdlib (or a scenario's own `library` entries):
//! [`Tables::from_rule_data`] finds the entries by id and refuses rule data that lacks one, so
//! the resolution code never has to ask "is it there?". It records every entry it looks up
//! ([`Tables::entries_read`]); a test holds that list to the stdlib, so an id the stdlib does not
//! define, or an entry without its `source`, fails there and not in the middle of a game.
//!
//! The numbers that are dotc's own judgement (tolerances of measurement, not rules) stay in Rust
//! and say so: `dotc tolerance` in their doc comment (runtime/tests: `no_rule_numbers_in_rust`).

use dotc_lang::library::{
    BrigadeState, Commander, Cost, GroundCondition, LeaderResult, Marker, MeleeResult, Modifier, RuleData,
    WeatherCondition,
};

use super::EngineError;
use super::events::Health;

/// The health thresholds of Ch16 8.1 (RULE-07-1.2, RULINGS C4), with each state's Shock modifier.
#[derive(Clone, Debug, PartialEq)]
pub struct HealthTable {
    /// Fresh: more than this percent of the starting stands.
    pub fresh_above: u32,
    /// Spent: less than this percent...
    pub spent_below: u32,
    /// ...or this many stands or fewer (the stand-count table).
    pub spent_at_most: u32,
    /// Shattered: this many stands or fewer (RULE-05-3.4).
    pub shattered_at_most: u32,
    pub fresh_melee: i32,
    pub worn_melee: i32,
    pub spent_melee: i32,
}

impl HealthTable {
    /// The Shock Score modifier of a health state (Ch16 7.3, 8.1).
    pub fn melee(&self, health: Health) -> i32 {
        match health {
            Health::Fresh => self.fresh_melee,
            Health::Worn => self.worn_melee,
            Health::Spent | Health::Shattered => self.spent_melee,
        }
    }
}

/// The stdlib entries the engine resolves with.
#[derive(Clone, Debug)]
pub struct Tables {
    pub health: HealthTable,
    /// Ch16 8.2.
    pub hesitant: BrigadeState,
    pub broken: BrigadeState,
    /// Ch16 2.4, by roll.
    pub leader_results: Vec<LeaderResult>,
    /// Ch16 7.4, 10.1.
    pub defeated: MeleeResult,
    pub bloody_draw: MeleeResult,
    pub victor: MeleeResult,
    pub breakthrough: MeleeResult,
    pub cavalry_defeated: MeleeResult,
    /// Ch16 5.6, 7.3: +1 to hit, +2 Shock.
    pub enfilade: Modifier,
    /// Ch16 7.3: +1 Shock after an open run.
    pub momentum: Modifier,
    /// Ch16 2.4, 7.3: +1 Shock, +1 Discipline.
    pub brigadier_attached: Modifier,
    /// Ch16 10.1, RULINGS C22.
    pub cavalry_shock: Modifier,
    /// Ch8 6.0, RULINGS G3: a battery fights with one stand.
    pub battery_in_melee: Modifier,
    /// Ch16 7.2: where the charge pauses for the closing volley, and where a failed charger stops.
    pub interruption: f64,
    pub stall: f64,
    /// RULE-05-3.3: unsaved hits per stand.
    pub hits_per_stand: u32,
    pub disorder: Marker,
    pub gunsmoke: Marker,
    pub low_ammo: Marker,
    /// Ch13 21.0 (module weather): fouled powder, -1 to hit until cleared.
    pub fouled: Marker,
    pub clean_barrels: Marker,
    /// Ch16 4.4, 7.3, RULINGS G17: a charge uphill against a crest, -1 to the attacker, +1 to
    /// the defender.
    pub uphill: Modifier,
    pub crest: Modifier,
    /// Ch16 4.4 Crest Advantage: +1 Shock to a unit assaulting downhill from a crest.
    pub crest_advantage: Modifier,
    /// Ch13 18.0 as RULINGS C23 `melee_minus_one` reads it: a road column charged fights at -1.
    pub flat_footed: Modifier,
    /// Ch16 5.1, RULE-05-1.2: -1 to hit after a pivot or a re-form.
    pub pivoted: Modifier,
    /// Ch13 10.0 (RULINGS C28), the Premature Fire module: a Green regiment charged tests at
    /// the 4" line; failing, its closing volley is at `to_hit` and its melee at `melee`.
    pub premature_fire: Modifier,
    /// Ch13 19.0, the Second Line module (dotc D11): a regiment with a formed, steady friend
    /// within `behind` inches straight behind its centre tests Discipline at `discipline`.
    pub second_line: Modifier,
    /// Ch13 16.0, the Psychological Shock module (dotc D15): an enemy unit charged by a brigade
    /// that raised the battle cry tests Discipline at `discipline` for that assault phase.
    pub battle_cry: Modifier,
    /// Ch13 3.0, the Friction of War module: the General at the Front's extra pips (`modifier
    /// general_at_the_front`, dotc D20), the Panic in the Ranks die a regiment must reach not to
    /// be Disordered (`modifier panic_in_the_ranks`, dotc D19), and the inches of the forced
    /// march of Misinterpreted Orders (`maneuver misinterpreted_orders`).
    pub front_pips: u32,
    pub panic_check: u32,
    pub misread_march: f64,
    /// Ch13 20.0, the Plunging Fire module: the Closing Volley of the `weapons` it names hits
    /// on `hits`+.
    pub plunging_fire: Modifier,
    /// Ch13 7.0, the Advanced Artillery module: the bonus dice of solid shot or spherical case
    /// bouncing down the files of a line of battle enfiladed at medium or long range.
    pub bouncing_shot: u32,
    /// Ch16 3.3: Fall Back in Good Order, at most this many inches straight back
    /// (`maneuver fall_back`).
    pub fall_back: f64,
    /// Ch16 3.3: inches of movement an About Face costs (`maneuver about_face`).
    pub about_face: f64,
    /// Ch16 10.2: what dismounting and remounting cost (`maneuver dismount`, `remount`).
    pub dismount: Cost,
    pub remount: Cost,
    /// Ch16 10.2: inches behind the dismounted line the horse holders stand, least and most
    /// (`maneuver horse_holders`).
    pub horse_holders: (f64, f64),
    /// Ch16 10.2: inches the horse holders may lead the horses in a maneuver phase
    /// (`maneuver horse_holders_move`).
    pub holders_move: f64,
    /// Ch13 6.0, the Horse Holders module: inches they may go along a road, and the most they
    /// may stand from their dismounted line at the end of a maneuver phase
    /// (`maneuver horse_holders_road`).
    pub holders_road: f64,
    pub holders_tether: f64,
    /// RULE-07-1.5, RULINGS C5: inches a stationary unit that fails a Discipline check falls
    /// back (`maneuver shaken_fall_back`).
    pub shaken_fall_back: f64,
    /// Ch13 12.0: the frenzy check's target and the forced move's inches (`maneuver pursuit`).
    pub pursuit_check: u32,
    pub pursuit_move: f64,
    /// Ch13 1.0: the staff points each side bids before the game, and how far the Scouting
    /// winner may move a terrain piece (`maneuver scouting`).
    pub staff_points: u32,
    pub scouting_move: f64,
    /// Ch13 4.0 (module hidden_deployment): a blind's flat move in Phase 2, the visual spotting
    /// range that unmasks it, and how near its centre a revealed brigade's units are placed
    /// (dotc D28) (`maneuver blind`).
    pub blind_move: f64,
    pub blind_spotting: f64,
    pub blind_reveal_within: f64,
    /// Ch16 6.0 Reaction 2: inches within which an enemy crossing the front arc draws
    /// Opportunity Fire (`reaction opportunity_fire`).
    pub opportunity_fire_within: f64,
    /// Ch16 6.0 Reaction 3: how near formed enemy lets a screen evade, and how far it falls back
    /// (least, most) (`reaction skirmish_evade`).
    pub skirmish_evade_within: f64,
    pub skirmish_evade_move: (f64, f64),
    /// Ch16 6.0 Reaction 4: the Discipline check without a reserved pip (`reaction refuse_flank`).
    pub refuse_flank_check: u32,
    /// Ch16 6.0 Reaction 5: how near a declared charge may be met, and the surge (least, most)
    /// (`reaction counter_charge`).
    pub counter_charge_within: f64,
    pub counter_charge_surge: (f64, f64),
    /// RULE-07-4.5: how near a shooter must be to fire at a solitary brigadier, and his evasion
    /// move from a charge (least, most) (`reaction solitary_brigadier`).
    pub solitary_within: f64,
    pub solitary_evasion: (f64, f64),
    /// Ch16 2.1, RULE-07-4.1: the commanders above the brigade, by level (`division`, `corps`),
    /// with their bonus pip, its radius and their base.
    pub commanders: Vec<Commander>,
    /// RULE-07-3.5: consecutive turns at rest, and the distance from every enemy, that take a
    /// micro-hit off (the `micro_hit` marker's `rest`).
    pub reform_turns: u32,
    pub reform_beyond: f64,
    /// RULE-05-5.1: the width of a smoke marker (the `gunsmoke` marker's `size`).
    pub smoke_size: f64,
    /// Ch16 4.4: inches behind a crest where dead ground begins (`elevation crest`).
    pub dead_ground: f64,
    /// Ch13 21.0: the ground conditions of the weather module.
    pub soft_ground: GroundCondition,
    pub mud: GroundCondition,
    /// Ch13 21.0: the sky and the heat of the weather module (`weather downpour`, `light_fog`,
    /// `dense_fog`: their `sight`, the downpour's `no_first_volley`; `weather severe`: its
    /// `exertion`).
    pub drizzle: WeatherCondition,
    pub downpour: WeatherCondition,
    pub light_fog: WeatherCondition,
    pub dense_fog: WeatherCondition,
    pub severe_heat: WeatherCondition,
    /// Ch15 8.0, Ch16 3.2: the frontage of one stand, inches (`scale table`).
    pub stand_width: f64,
    /// Ch15 8.0: yards of ground to an inch of table (`scale table`), for maps.
    pub yards_per_inch: f64,
    /// Every entry looked up, as `"<kind> <id>"`, in the order they were read.
    pub entries_read: Vec<&'static str>,
}

/// Finds entries by id and records each one it was asked for.
struct Lookup<'d> {
    data: &'d RuleData,
    read: Vec<&'static str>,
}

impl<'d> Lookup<'d> {
    /// The entry `what` names (`"modifier uphill"`: its kind word, a space, its id), found by
    /// `find`; missing, it refuses the rule data.
    fn need<T: Clone + 'd>(
        &mut self,
        what: &'static str,
        find: impl FnOnce(&'d RuleData, &str) -> Option<&'d T>,
    ) -> Result<T, EngineError> {
        self.read.push(what);
        let id = what.split_once(' ').map_or(what, |(_, id)| id);
        find(self.data, id).cloned().ok_or(EngineError::MissingRuleData(what))
    }
}

/// A value an entry must carry for the engine (`what` names the entry and its key).
fn has<T>(value: Option<T>, what: &'static str) -> Result<T, EngineError> {
    value.ok_or(EngineError::MissingRuleData(what))
}

impl Tables {
    pub fn from_rule_data(data: &RuleData) -> Result<Tables, EngineError> {
        let mut l = Lookup { data, read: Vec::new() };
        let fresh = l.need("health fresh", RuleData::health)?;
        let worn = l.need("health worn", RuleData::health)?;
        let spent = l.need("health spent", RuleData::health)?;
        let shattered = l.need("health shattered", RuleData::health)?;
        let health = HealthTable {
            fresh_above: has(fresh.above_percent, "health fresh: above")?,
            spent_below: has(spent.below_percent, "health spent: below")?,
            spent_at_most: has(spent.at_most_stands, "health spent: at_most")?,
            shattered_at_most: has(shattered.at_most_stands, "health shattered: at_most")?,
            fresh_melee: fresh.melee.map_or(0, |m| m.value),
            worn_melee: worn.melee.map_or(0, |m| m.value),
            spent_melee: spent.melee.map_or(0, |m| m.value),
        };
        let assault = l.need("order regimental_assault", RuleData::order)?;
        let micro = l.need("marker micro_hit", RuleData::marker)?;
        let gunsmoke = l.need("marker gunsmoke", RuleData::marker)?;
        let (reform_turns, reform_beyond) = has(micro.rest, "micro_hit: rest")?;
        let crest = l.need("elevation crest", RuleData::elevation)?;
        let mut leader_results = data.leader_results().to_vec();
        leader_results.sort_by_key(|r| r.rolls.0);
        if leader_results.is_empty() {
            return Err(EngineError::MissingRuleData("leader_result"));
        }
        let commanders = vec![
            l.need("commander division", RuleData::commander)?,
            l.need("commander corps", RuleData::commander)?,
        ];
        for c in &commanders {
            has(c.bonus_pips, "commander: bonus_pips")?;
            has(c.within, "commander: within")?;
            has(c.base, "commander: base")?;
        }
        let scale = l.need("scale table", RuleData::scale)?;
        let fall_back = l.need("maneuver fall_back", RuleData::maneuver)?;
        let about_face = l.need("maneuver about_face", RuleData::maneuver)?;
        let dismount = l.need("maneuver dismount", RuleData::maneuver)?;
        let remount = l.need("maneuver remount", RuleData::maneuver)?;
        let horse_holders = l.need("maneuver horse_holders", RuleData::maneuver)?;
        let holders_move = l.need("maneuver horse_holders_move", RuleData::maneuver)?;
        let holders_road = l.need("maneuver horse_holders_road", RuleData::maneuver)?;
        let shaken = l.need("maneuver shaken_fall_back", RuleData::maneuver)?;
        let pursuit = l.need("maneuver pursuit", RuleData::maneuver)?;
        let scouting = l.need("maneuver scouting", RuleData::maneuver)?;
        let blind = l.need("maneuver blind", RuleData::maneuver)?;
        let opportunity = l.need("reaction opportunity_fire", RuleData::reaction)?;
        let evade = l.need("reaction skirmish_evade", RuleData::reaction)?;
        let refuse = l.need("reaction refuse_flank", RuleData::reaction)?;
        let counter = l.need("reaction counter_charge", RuleData::reaction)?;
        let solitary = l.need("reaction solitary_brigadier", RuleData::reaction)?;
        Ok(Tables {
            health,
            hesitant: l.need("brigade_state hesitant", RuleData::brigade_state)?,
            broken: l.need("brigade_state broken", RuleData::brigade_state)?,
            leader_results,
            defeated: l.need("melee_result defeated", RuleData::melee_result)?,
            bloody_draw: l.need("melee_result bloody_draw", RuleData::melee_result)?,
            victor: l.need("melee_result victor", RuleData::melee_result)?,
            breakthrough: l.need("melee_result breakthrough", RuleData::melee_result)?,
            cavalry_defeated: l.need("melee_result cavalry_defeated", RuleData::melee_result)?,
            enfilade: l.need("modifier enfilade", RuleData::modifier)?,
            momentum: l.need("modifier momentum", RuleData::modifier)?,
            brigadier_attached: l.need("modifier brigadier_attached", RuleData::modifier)?,
            cavalry_shock: l.need("modifier cavalry_shock", RuleData::modifier)?,
            battery_in_melee: l.need("modifier battery_in_melee", RuleData::modifier)?,
            interruption: has(assault.interruption, "regimental_assault: interruption")?,
            stall: has(assault.stall, "regimental_assault: stall")?,
            hits_per_stand: has(micro.hits_per_stand.filter(|&n| n > 0), "micro_hit: hits_per_stand")?,
            disorder: l.need("marker disorder", RuleData::marker)?,
            smoke_size: has(gunsmoke.size, "gunsmoke: size")?,
            gunsmoke,
            low_ammo: l.need("marker low_ammo", RuleData::marker)?,
            fouled: l.need("marker fouled", RuleData::marker)?,
            clean_barrels: l.need("marker clean_barrels", RuleData::marker)?,
            uphill: l.need("modifier uphill", RuleData::modifier)?,
            crest: l.need("modifier crest", RuleData::modifier)?,
            crest_advantage: l.need("modifier crest_advantage", RuleData::modifier)?,
            flat_footed: l.need("modifier flat_footed", RuleData::modifier)?,
            pivoted: l.need("modifier pivoted", RuleData::modifier)?,
            premature_fire: l.need("modifier premature_fire", RuleData::modifier)?,
            second_line: l.need("modifier second_line", RuleData::modifier)?,
            battle_cry: l.need("modifier battle_cry", RuleData::modifier)?,
            front_pips: {
                let m = l.need("modifier general_at_the_front", RuleData::modifier)?;
                u32::try_from(m.pips)
                    .map_err(|_| EngineError::MissingRuleData("general_at_the_front: pips"))?
            },
            panic_check: has(
                l.need("modifier panic_in_the_ranks", RuleData::modifier)?.check,
                "panic_in_the_ranks: check",
            )?,
            misread_march: has(
                l.need("maneuver misinterpreted_orders", RuleData::maneuver)?.most(),
                "misinterpreted_orders: distance",
            )?,
            plunging_fire: {
                let m = l.need("modifier plunging_fire", RuleData::modifier)?;
                has(m.hits, "plunging_fire: hits")?;
                m
            },
            bouncing_shot: {
                let m = l.need("modifier bouncing_shot", RuleData::modifier)?;
                has(u32::try_from(m.dice).ok().filter(|&d| d > 0), "bouncing_shot: dice")?
            },
            fall_back: has(fall_back.most(), "fall_back: distance")?,
            about_face: match about_face.cost {
                Some(Cost::Inches(inches)) => inches,
                _ => return Err(EngineError::MissingRuleData("about_face: cost in inches")),
            },
            dismount: has(dismount.cost, "dismount: cost")?,
            remount: has(remount.cost, "remount: cost")?,
            horse_holders: has(horse_holders.distance, "horse_holders: distance")?,
            holders_move: has(holders_move.most(), "horse_holders_move: distance")?,
            holders_road: has(holders_road.most(), "horse_holders_road: distance")?,
            holders_tether: has(holders_road.within, "horse_holders_road: within")?,
            shaken_fall_back: has(shaken.most(), "shaken_fall_back: distance")?,
            pursuit_check: has(pursuit.check, "pursuit: check")?,
            pursuit_move: has(pursuit.most(), "pursuit: distance")?,
            staff_points: has(scouting.staff_points, "scouting: staff_points")?,
            scouting_move: has(scouting.most(), "scouting: distance")?,
            blind_move: has(blind.most(), "blind: distance")?,
            blind_spotting: has(blind.spotting, "blind: spotting")?,
            blind_reveal_within: has(blind.within, "blind: within")?,
            opportunity_fire_within: has(opportunity.within, "opportunity_fire: within")?,
            skirmish_evade_within: has(evade.within, "skirmish_evade: within")?,
            skirmish_evade_move: has(evade.moves, "skirmish_evade: move")?,
            refuse_flank_check: has(refuse.check, "refuse_flank: check")?,
            counter_charge_within: has(counter.within, "counter_charge: within")?,
            counter_charge_surge: has(counter.moves, "counter_charge: move")?,
            solitary_within: has(solitary.within, "solitary_brigadier: within")?,
            solitary_evasion: has(solitary.moves, "solitary_brigadier: move")?,
            commanders,
            reform_turns,
            reform_beyond,
            dead_ground: has(crest.dead_ground, "crest: dead_ground")?,
            soft_ground: l.need("ground soft", RuleData::ground)?,
            mud: l.need("ground mud", RuleData::ground)?,
            drizzle: l.need("weather drizzle", RuleData::weather)?,
            downpour: {
                let w = l.need("weather downpour", RuleData::weather)?;
                has(w.sight, "weather downpour: sight")?;
                w
            },
            light_fog: {
                let w = l.need("weather light_fog", RuleData::weather)?;
                has(w.sight, "weather light_fog: sight")?;
                w
            },
            dense_fog: {
                let w = l.need("weather dense_fog", RuleData::weather)?;
                has(w.sight, "weather dense_fog: sight")?;
                has(w.assault_within, "weather dense_fog: assault_within")?;
                w
            },
            severe_heat: {
                let w = l.need("weather severe", RuleData::weather)?;
                has(w.exertion.as_ref(), "weather severe: exertion")?;
                w
            },
            stand_width: has(scale.stand_width, "scale table: stand_width")?,
            yards_per_inch: has(scale.yards_per_inch, "scale table: yards_per_inch")?,
            entries_read: l.read,
        })
    }

    /// The commander of a level (`division`, `corps`) and his bonus pip (Ch16 2.1), if the rule
    /// data has one.
    pub fn commander(&self, level: &str) -> Option<&Commander> {
        self.commanders.iter().find(|c| c.meta.id == level)
    }

    /// The side of the square base a commander of `level` stands on (RULE-07-4.1). A level the
    /// rule data has no entry for (an army commander) is drawn on the largest base it has: a
    /// drawing choice, dotc's own, not a rule.
    pub fn commander_base(&self, level: &str) -> f64 {
        match self.commander(level).and_then(|c| c.base) {
            Some(base) => base,
            None => self.commanders.iter().filter_map(|c| c.base).fold(0.0, f64::max),
        }
    }

    /// The leader casualty row for a d6 face (Ch16 2.4).
    pub fn leader_result(&self, roll: u8) -> Option<&LeaderResult> {
        let roll = u32::from(roll);
        self.leader_results.iter().find(|r| r.rolls.0 <= roll && roll <= r.rolls.1)
    }
}

#[cfg(test)]
mod tests;

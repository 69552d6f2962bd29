//! The rule data the engine reads, looked up once and checked complete.
//!
//! Every number the engine uses comes from the stdlib (or a scenario's own `library` entries):
//! [`Tables::from_rule_data`] finds the entries by id and refuses rule data that lacks one, so
//! the resolution code never has to ask "is it there?".

use dotc_lang::library::{BrigadeState, LeaderResult, Marker, MeleeResult, Modifier, RuleData};

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
    pub clean_barrels: Marker,
}

fn need<T: Clone>(entry: Option<&T>, what: &'static str) -> Result<T, EngineError> {
    entry.cloned().ok_or(EngineError::MissingRuleData(what))
}

impl Tables {
    pub fn from_rule_data(data: &RuleData) -> Result<Tables, EngineError> {
        let fresh = need(data.health("fresh"), "health fresh")?;
        let worn = need(data.health("worn"), "health worn")?;
        let spent = need(data.health("spent"), "health spent")?;
        let shattered = need(data.health("shattered"), "health shattered")?;
        let health = HealthTable {
            fresh_above: fresh.above_percent.ok_or(EngineError::MissingRuleData("health fresh: above"))?,
            spent_below: spent.below_percent.ok_or(EngineError::MissingRuleData("health spent: below"))?,
            spent_at_most: spent
                .at_most_stands
                .ok_or(EngineError::MissingRuleData("health spent: at_most"))?,
            shattered_at_most: shattered
                .at_most_stands
                .ok_or(EngineError::MissingRuleData("health shattered: at_most"))?,
            fresh_melee: fresh.melee.map_or(0, |m| m.value),
            worn_melee: worn.melee.map_or(0, |m| m.value),
            spent_melee: spent.melee.map_or(0, |m| m.value),
        };
        let assault = need(data.order("regimental_assault"), "order regimental_assault")?;
        let micro = need(data.marker("micro_hit"), "marker micro_hit")?;
        let mut leader_results = data.leader_results().to_vec();
        leader_results.sort_by_key(|r| r.rolls.0);
        if leader_results.is_empty() {
            return Err(EngineError::MissingRuleData("leader_result"));
        }
        Ok(Tables {
            health,
            hesitant: need(data.brigade_state("hesitant"), "brigade_state hesitant")?,
            broken: need(data.brigade_state("broken"), "brigade_state broken")?,
            leader_results,
            defeated: need(data.melee_result("defeated"), "melee_result defeated")?,
            bloody_draw: need(data.melee_result("bloody_draw"), "melee_result bloody_draw")?,
            victor: need(data.melee_result("victor"), "melee_result victor")?,
            breakthrough: need(data.melee_result("breakthrough"), "melee_result breakthrough")?,
            cavalry_defeated: need(data.melee_result("cavalry_defeated"), "melee_result cavalry_defeated")?,
            enfilade: need(data.modifier("enfilade"), "modifier enfilade")?,
            momentum: need(data.modifier("momentum"), "modifier momentum")?,
            brigadier_attached: need(data.modifier("brigadier_attached"), "modifier brigadier_attached")?,
            cavalry_shock: need(data.modifier("cavalry_shock"), "modifier cavalry_shock")?,
            battery_in_melee: need(data.modifier("battery_in_melee"), "modifier battery_in_melee")?,
            interruption: assault
                .interruption
                .ok_or(EngineError::MissingRuleData("regimental_assault: interruption"))?,
            stall: assault.stall.ok_or(EngineError::MissingRuleData("regimental_assault: stall"))?,
            hits_per_stand: micro
                .hits_per_stand
                .filter(|&n| n > 0)
                .ok_or(EngineError::MissingRuleData("micro_hit: hits_per_stand"))?,
            disorder: need(data.marker("disorder"), "marker disorder")?,
            gunsmoke: need(data.marker("gunsmoke"), "marker gunsmoke")?,
            low_ammo: need(data.marker("low_ammo"), "marker low_ammo")?,
            clean_barrels: need(data.marker("clean_barrels"), "marker clean_barrels")?,
        })
    }

    /// The leader casualty row for a d6 face (Ch16 2.4).
    pub fn leader_result(&self, roll: u8) -> Option<&LeaderResult> {
        let roll = u32::from(roll);
        self.leader_results.iter().find(|r| r.rolls.0 <= roll && roll <= r.rolls.1)
    }
}

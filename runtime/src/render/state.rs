//! What a map shows of the forces: every unit with its body and markers, the leaders, and the
//! troops not on the table yet. Built from a scenario's deployment today; replay will build the
//! same from a moment of a game.

use dotc_lang::ast::{Scenario, Unit, UnitKind};
use dotc_lang::library::{Arm, RuleData, Weapon};

use super::draw::BRIGADIER_BASE;
use crate::battlefield::Body;
use crate::engine::tables::Tables;

/// The forces at one moment, as the map draws them.
#[derive(Clone, Debug, Default)]
pub struct MapState {
    /// The map's title (the scenario's name).
    pub title: String,
    /// The line under it: date, start time, turns, table.
    pub subtitle: String,
    /// What moment is shown ("Deployment at 10:00").
    pub moment: String,
    pub sides: Vec<MapSide>,
    /// Every unit, on the table or not, in the scenario's order.
    pub units: Vec<MapUnit>,
    pub leaders: Vec<MapLeader>,
    /// How each unit off the table arrives, if the scenario says.
    pub arrivals: Vec<MapArrival>,
    /// The ground scale for the scale bar: yards to the inch (the rule data's `scale table`,
    /// Ch15 8.0).
    pub yards_per_inch: f64,
    /// The hasty works dug so far (module digging_in, Ch13 14.0); none at deployment.
    pub works: Vec<crate::battlefield::HastyWorks>,
    /// The blinds of Hidden Deployment (Ch13 4.0, module hidden_deployment), in the scenario's
    /// order: a token each while it is not revealed.
    pub blinds: Vec<MapBlind>,
    /// The side whose view the map is ([`MapState::as_seen_by`], an index into `sides`): its
    /// enemy's blinds not yet revealed are drawn as plain tokens, and what they hide is left
    /// out. None: the umpire's map, every blind with its name and what it hides.
    pub seen_by: Option<usize>,
}

/// A blind token of Hidden Deployment (Ch13 4.0) as the map draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct MapBlind {
    pub name: String,
    /// Index into [`MapState::sides`].
    pub side: usize,
    /// The centre of the token.
    pub at: (f64, f64),
    /// The brigade it hides; None for a dummy.
    pub brigade: Option<String>,
    /// The brigade's brigadiers, hidden with it (dotc D27).
    pub brigadiers: Vec<String>,
    /// Revealed: no longer on the table as a token.
    pub revealed: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MapSide {
    pub id: String,
    pub name: Option<String>,
}

/// A unit as the map draws it.
#[derive(Clone, Debug)]
pub struct MapUnit {
    pub name: String,
    /// Index into [`MapState::sides`].
    pub side: usize,
    pub kind: UnitKind,
    pub brigade: Option<String>,
    /// Where its stands lie; None while it is off the table.
    pub body: Option<Body>,
    /// Marker ids it carries (`disorder`, `gunsmoke`, `low_ammo`, ...), with their titles.
    pub markers: Vec<(String, String)>,
    /// A formed unit blocks its friends' sight; skirmishers do not (RULE-05-6.1, 6.2).
    pub formed: bool,
    pub weapon: Option<Weapon>,
    pub arm: Arm,
    /// The building it garrisons.
    pub garrison: Option<String>,
    /// Its detached skirmish screen (Ch16 3.4) and its horse holders (Ch16 10.2).
    pub screen: Option<(f64, f64)>,
    pub holders: Option<(f64, f64)>,
    /// The stands it has lost so far (a game log's map, [`MapState::losses`]), drawn as a
    /// marker beside it; 0 on a deployment.
    pub stands_lost: u32,
}

/// What a unit has lost at a moment of a game ([`MapState::mark_losses`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loss<'a> {
    pub unit: &'a str,
    /// Stands lost so far.
    pub stands: u32,
    /// Whether it carries a micro-hit (RULE-05-3.3).
    pub micro_hit: bool,
}

/// A commander or a brigadier.
#[derive(Clone, Debug, PartialEq)]
pub struct MapLeader {
    pub name: String,
    pub side: usize,
    pub rank: MapRank,
    /// The size of his base, inches: the side of a commander's square (the rule data's
    /// `commander` entry, RULE-07-4.1), the diameter of a brigadier's round one.
    pub base: f64,
    /// The centre of his base; None while off the table.
    pub position: Option<(f64, f64)>,
    /// The regiment he is attached to (Ch16 2.4).
    pub attached: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapRank {
    /// A division, corps or army commander: a 1.5" square base (RULE-07-4.1).
    Commander,
    Brigadier,
}

/// A reinforcement line: who comes on, when and where.
#[derive(Clone, Debug, PartialEq)]
pub struct MapArrival {
    pub side: Option<usize>,
    /// `brigade`, `regiment`, `battery`, `cavalry`.
    pub kind: String,
    pub name: String,
    /// "10:30" or "turn 4".
    pub when: String,
    pub at: (f64, f64),
    pub facing: Option<f64>,
}

impl MapState {
    /// The forces as a scenario deploys them at the start. A unit whose body cannot be built
    /// (no position, an unreadable facing or strength) is off the table.
    pub fn deployment(scenario: &Scenario, data: &RuleData, tables: &Tables) -> MapState {
        let men_per_stand = scenario.men_per_stand.as_ref().map(|m| m.value);
        let sides: Vec<MapSide> = scenario
            .sides
            .iter()
            .map(|s| MapSide { id: s.id.value.clone(), name: s.name.as_ref().map(|n| n.value.clone()) })
            .collect();
        let mut units = Vec::new();
        let mut leaders = Vec::new();
        let mut blinds = Vec::new();
        for (index, side) in scenario.sides.iter().enumerate() {
            // Ch13 4.0: the blinds deployed instead of the miniatures.
            for blind in &side.blinds {
                let brigade = blind.brigade.as_ref().map(|b| b.value.clone());
                let brigadiers = side
                    .brigades
                    .iter()
                    .filter(|b| brigade.as_ref() == Some(&b.name.value))
                    .flat_map(|b| b.brigadiers.iter().map(|l| l.name.value.clone()))
                    .collect();
                blinds.push(MapBlind {
                    name: blind.name.value.clone(),
                    side: index,
                    at: (blind.position.value.x, blind.position.value.y),
                    brigade,
                    brigadiers,
                    revealed: false,
                });
            }
            for commander in &side.commanders {
                leaders.push(MapLeader {
                    name: commander.name.value.clone(),
                    side: index,
                    rank: MapRank::Commander,
                    base: tables.commander_base(&commander.level.value),
                    position: commander.position.as_ref().map(|p| (p.value.x, p.value.y)),
                    attached: None,
                });
            }
            for brigade in &side.brigades {
                for brigadier in &brigade.brigadiers {
                    leaders.push(MapLeader {
                        name: brigadier.name.value.clone(),
                        side: index,
                        rank: MapRank::Brigadier,
                        base: BRIGADIER_BASE,
                        position: brigadier.position.as_ref().map(|p| (p.value.x, p.value.y)),
                        attached: brigadier.attached.as_ref().map(|a| a.value.clone()),
                    });
                }
                for unit in &brigade.units {
                    units.push(map_unit(unit, index, Some(&brigade.name.value), data, tables, men_per_stand));
                }
            }
            for unit in &side.units {
                units.push(map_unit(unit, index, None, data, tables, men_per_stand));
            }
        }
        let side_of = |id: &str| sides.iter().position(|s| s.id == id);
        let arrivals = scenario
            .reinforcements
            .iter()
            .map(|r| MapArrival {
                side: r.side.as_ref().and_then(|s| side_of(&s.value)),
                kind: r.kind.value.clone(),
                name: r.name.value.clone(),
                when: r.arrival.value.to_string(),
                at: (r.position.value.x, r.position.value.y),
                facing: r.facing.as_ref().and_then(|f| f.value.degrees()),
            })
            .collect();
        let mut facts = Vec::new();
        if let Some(date) = &scenario.date {
            facts.push(date.value.long());
        }
        if let Some(start) = &scenario.start {
            facts.push(format!("from {}", start.value));
        }
        match (&scenario.turns, &scenario.turn_length) {
            (Some(t), Some(l)) => facts.push(format!("{} turns of {} min", t.value, l.value)),
            (Some(t), None) => facts.push(format!("{} turns", t.value)),
            _ => {}
        }
        // A brigade under a blind is off the table, its brigadier with it, until its reveal.
        for unit in &mut units {
            let hidden = blinds
                .iter()
                .any(|b| b.side == unit.side && b.brigade.is_some() && b.brigade == unit.brigade);
            if hidden {
                unit.body = None;
                unit.screen = None;
                unit.holders = None;
            }
        }
        for leader in &mut leaders {
            if blinds.iter().any(|b| b.brigadiers.contains(&leader.name)) {
                leader.position = None;
            }
        }
        MapState {
            title: scenario.name.value.clone(),
            subtitle: facts.join(" \u{b7} "),
            moment: match &scenario.start {
                Some(start) => format!("Deployment at {}", start.value),
                None => "Deployment".to_string(),
            },
            sides,
            units,
            leaders,
            arrivals,
            yards_per_inch: tables.yards_per_inch,
            works: Vec::new(),
            blinds,
            seen_by: None,
        }
    }

    /// The map as `side` (a side's id) saw the table (Ch13 4.0): its enemy's blinds not yet
    /// revealed are plain tokens, and the brigades under them are left out. Err, listing the
    /// sides, when there is no such side.
    pub fn as_seen_by(&mut self, side: &str) -> Result<(), String> {
        let Some(index) = self.sides.iter().position(|s| s.id == side) else {
            let ids: Vec<&str> = self.sides.iter().map(|s| s.id.as_str()).collect();
            return Err(format!("the scenario has no side `{side}`; its sides are {}", ids.join(", ")));
        };
        self.seen_by = Some(index);
        Ok(())
    }

    /// Whether the map's reader knows what `blind` hides: its owner, the umpire, or anyone once
    /// it is revealed.
    pub fn knows(&self, blind: &MapBlind) -> bool {
        blind.revealed || self.seen_by.is_none_or(|s| s == blind.side)
    }

    /// The blind not yet revealed that `unit` is hidden under, if it is.
    pub fn blind_over(&self, unit: &MapUnit) -> Option<&MapBlind> {
        let brigade = unit.brigade.as_ref()?;
        self.blinds.iter().find(|b| !b.revealed && b.side == unit.side && b.brigade.as_ref() == Some(brigade))
    }

    /// The blind not yet revealed that a brigadier is hidden under with his brigade, if he is.
    pub fn blind_over_leader(&self, leader: &MapLeader) -> Option<&MapBlind> {
        self.blinds.iter().find(|b| !b.revealed && b.brigadiers.contains(&leader.name))
    }

    /// The forces as a replay left them at one moment: every unit's stands where the table puts
    /// them (off the map once gone), its markers, and the leaders where they stand.
    pub fn at(&mut self, table: &crate::replay::Table, data: &RuleData) {
        self.moment = table.moment();
        self.works.clone_from(&table.works);
        for unit in &mut self.units {
            let Some(now) = table.units.iter().find(|u| u.name == unit.name) else { continue };
            unit.body = now.body;
            unit.markers = now
                .markers
                .iter()
                .map(|id| {
                    let title =
                        data.marker(id).map_or_else(|| id.to_string(), |m| m.meta.title().to_string());
                    (id.to_string(), title)
                })
                .collect();
            if unit.body.is_none() {
                unit.screen = None;
                unit.holders = None;
            }
        }
        for leader in &mut self.leaders {
            if let Some((_, position)) = table.leaders.iter().find(|(name, _)| *name == leader.name) {
                leader.position = *position;
            }
        }
        // Ch13 4.0: where each blind stands, and whether it has been revealed.
        for blind in &mut self.blinds {
            if let Some(now) = table.blinds.iter().find(|b| b.name == blind.name) {
                blind.at = now.at;
                blind.revealed = now.revealed;
            }
        }
    }

    /// Each unit's losses at a moment of a game, from the replay's roster then: its micro-hit
    /// as the marker behind its Color Stand (RULE-05-3.3, as the HTML replay shows it) and the
    /// stands it has lost so far (issue 21).
    pub fn losses(&mut self, roster: &crate::replay::Summary) {
        self.mark_losses(roster.units.iter().map(|u| Loss {
            unit: &u.name,
            stands: u.starting_stands.saturating_sub(u.stands),
            micro_hit: u.micro_hit > 0,
        }));
    }

    /// [`MapState::losses`] from each unit's losses.
    pub fn mark_losses<'a>(&mut self, losses: impl IntoIterator<Item = Loss<'a>>) {
        for loss in losses {
            let Some(unit) = self.units.iter_mut().find(|u| u.name == loss.unit) else { continue };
            unit.stands_lost = loss.stands;
            if loss.micro_hit && !unit.markers.iter().any(|(id, _)| id == "micro_hit") {
                unit.markers.push(("micro_hit".to_string(), "Micro-hit".to_string()));
            }
        }
    }

    /// The unit of that name.
    pub fn unit(&self, name: &str) -> Option<&MapUnit> {
        self.units.iter().find(|u| u.name == name)
    }

    /// How a unit off the table arrives: a reinforcement naming it, or its brigade.
    pub fn arrival_of(&self, unit: &MapUnit) -> Option<&MapArrival> {
        self.arrivals.iter().find(|a| a.name == unit.name).or_else(|| {
            unit.brigade
                .as_ref()
                .and_then(|b| self.arrivals.iter().find(|a| a.kind == "brigade" && &a.name == b))
        })
    }
}

fn map_unit(
    unit: &Unit,
    side: usize,
    brigade: Option<&String>,
    data: &RuleData,
    tables: &Tables,
    men_per_stand: Option<u32>,
) -> MapUnit {
    let has = |word: &str| unit.words.iter().any(|w| w.value == word);
    let formation = unit.words.iter().find_map(|w| data.formation(&w.value));
    let arm = match unit.kind {
        UnitKind::Regiment => Arm::Infantry,
        UnitKind::Cavalry => Arm::Cavalry,
        UnitKind::Battery if has("horse_artillery") => Arm::HorseArtillery,
        UnitKind::Battery => Arm::Artillery,
    };
    let point = |p: &Option<dotc_lang::ast::Spanned<dotc_lang::ast::Point>>| {
        p.as_ref().map(|p| (p.value.x, p.value.y)).filter(|(x, y)| x.is_finite() && y.is_finite())
    };
    MapUnit {
        name: unit.name.value.clone(),
        side,
        kind: unit.kind,
        brigade: brigade.cloned(),
        body: Body::from_unit(unit, data, tables, men_per_stand),
        markers: unit
            .markers
            .iter()
            .map(|m| {
                let title = data.marker(&m.value).map_or(m.value.clone(), |k| k.meta.title().to_string());
                (m.value.clone(), title)
            })
            .collect(),
        formed: formation.is_none_or(|f| f.meta.id != "skirmish"),
        weapon: unit.words.iter().find_map(|w| data.weapon(&w.value)).cloned(),
        arm,
        garrison: unit.garrison.as_ref().map(|g| g.value.clone()),
        screen: point(&unit.screen),
        holders: point(&unit.holders),
        stands_lost: 0,
    }
}

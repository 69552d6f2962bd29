//! The resolved model of a file: what `dotc export` prints for other tools.
//!
//! Where the syntax tree keeps words as written, the model says what they are: a unit's
//! quality, weapon and formation; stands converted from men; facings in degrees; clock-time
//! arrivals as turn numbers; every ruling with the value in force. Spans become 1-based lines.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::analysis::Analysis;
use crate::ast::{self, Arrival, Condition, Facing, FeatureAttr, Point, Scenario, UnitKind};
use crate::check::men_to_stands;
use crate::library::{EntryKind, RuleData};
use crate::rulings::RULINGS;

#[derive(Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Export {
    Scenario(Box<ScenarioModel>),
    Game(Box<GameModel>),
    Library(Box<LibraryModel>),
    Campaign(Box<CampaignModel>),
    Empty,
}

/// A campaign (Ch14) as written: its rulings and its battles with their post-battle steps.
#[derive(Debug, Serialize)]
pub struct CampaignModel {
    pub title: String,
    /// `(name, value)` of each campaign ruling set.
    pub rulings: Vec<(String, String)>,
    pub battles: Vec<BattleModel>,
}

#[derive(Debug, Serialize)]
pub struct BattleModel {
    pub line: usize,
    pub name: String,
    pub scenario: Option<String>,
    pub log: Option<String>,
    /// The post-battle steps (Ch14 1.0), as actions.
    pub after: Vec<ActionModel>,
}

#[derive(Debug, Serialize)]
pub struct ScenarioModel {
    pub title: String,
    pub date: Option<String>,
    pub start: Option<String>,
    pub turn_length_minutes: Option<u32>,
    pub turns: Option<u32>,
    pub first_side: Option<String>,
    pub table: Option<ast::TableSize>,
    pub men_per_stand: Option<u32>,
    pub modules: Vec<String>,
    /// Every ruling with the value in force (defaults, then presets, then explicit rulings).
    pub rulings: BTreeMap<String, String>,
    pub weather: BTreeMap<String, String>,
    pub terrain: Vec<FeatureModel>,
    pub sides: Vec<SideModel>,
    pub reinforcements: Vec<ReinforcementModel>,
    pub victory: Vec<VictoryModel>,
    pub scripts: Vec<ScriptModel>,
    pub triggers: Vec<TriggerModel>,
    pub notes: Vec<String>,
    /// Rule data the scenario adds to the stdlib.
    pub library: Option<RuleData>,
}

#[derive(Debug, Serialize)]
pub struct FeatureModel {
    pub kind: String,
    /// `terrain`, `obstacle`, `structure`, `hill` or `objective`.
    pub category: String,
    pub name: Option<String>,
    pub polygon: Vec<Point>,
    pub line: Vec<Point>,
    pub at: Option<Point>,
    pub size: Option<(f64, f64)>,
    pub level: Option<f64>,
    pub crest: Vec<Point>,
    pub fords: Vec<Point>,
    pub bridges: Vec<Point>,
    pub capacity: Option<f64>,
    pub vp: Option<f64>,
    /// How close an objective is held from (inches), if the scenario says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within: Option<f64>,
    pub flags: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct SideModel {
    pub id: String,
    pub name: Option<String>,
    pub edge: Option<String>,
    pub commanders: Vec<LeaderModel>,
    pub brigades: Vec<BrigadeModel>,
    pub units: Vec<UnitModel>,
    /// Blinds deployed instead of the miniatures (Ch13 4.0, module hidden_deployment).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blinds: Vec<BlindModel>,
}

/// A blind token (Ch13 4.0, dotc D27): a real brigade's, or a dummy.
#[derive(Debug, Serialize)]
pub struct BlindModel {
    pub name: String,
    /// The brigade hidden under it; None for a dummy.
    pub brigade: Option<String>,
    pub dummy: bool,
    /// The centre of the token.
    pub position: Point,
    pub line: usize,
}

#[derive(Debug, Serialize)]
pub struct LeaderModel {
    pub name: String,
    pub level: Option<String>,
    pub rating: Option<String>,
    pub position: Option<Point>,
}

#[derive(Debug, Serialize)]
pub struct BrigadeModel {
    pub name: String,
    pub brigadier: Option<LeaderModel>,
    /// Infantry stands at the start, for the brigade faltering clock (Ch16 8.2).
    pub starting_stands: f64,
    pub units: Vec<UnitModel>,
}

#[derive(Debug, Serialize)]
pub struct UnitModel {
    pub kind: UnitKind,
    pub name: String,
    pub stands: Option<f64>,
    pub men: Option<f64>,
    pub sections: Option<f64>,
    pub quality: Option<String>,
    pub weapon: Option<String>,
    pub formation: Option<String>,
    pub flags: Vec<String>,
    pub traits: Vec<String>,
    pub markers: Vec<String>,
    pub position: Option<Point>,
    pub facing_degrees: Option<f64>,
    pub line: usize,
}

#[derive(Debug, Serialize)]
pub struct ReinforcementModel {
    pub turn: Option<u32>,
    pub clock: Option<String>,
    pub side: Option<String>,
    pub kind: String,
    pub name: String,
    pub position: Point,
    pub facing_degrees: Option<f64>,
    pub formation: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct VictoryModel {
    pub condition: serde_json_like::Condition,
    pub winner: String,
    pub level: Option<String>,
}

/// Plain serialisable forms of conditions.
pub mod serde_json_like {
    use serde::Serialize;

    #[derive(Debug, Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum Condition {
        Held { objective: String, side: String, for_turns: Option<f64>, at_end: bool },
        VictoryPoints { side: String, compare: String, value: f64 },
        BrigadesBroken { side: String, compare: String, value: f64 },
        Script { code: String },
        Otherwise,
    }
}

#[derive(Debug, Serialize)]
pub struct ScriptModel {
    pub language: Option<String>,
    pub line: usize,
    pub code: String,
}

#[derive(Debug, Serialize)]
pub struct TriggerModel {
    pub name: String,
    /// For an optional trigger: its option's name and default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub option: Option<TriggerOptionModel>,
    pub when: String,
    pub body: ScriptModel,
}

#[derive(Debug, Serialize)]
pub struct TriggerOptionModel {
    pub name: String,
    pub default_on: bool,
}

#[derive(Debug, Serialize)]
pub struct LibraryModel {
    pub names: Vec<String>,
    pub entries: RuleData,
}

#[derive(Debug, Serialize)]
pub struct GameModel {
    pub title: String,
    pub scenario: Option<String>,
    pub players: BTreeMap<String, String>,
    pub played: Option<String>,
    pub seed: Option<u64>,
    pub rulings: BTreeMap<String, String>,
    pub modules: Vec<String>,
    pub turns: Vec<TurnModel>,
}

#[derive(Debug, Serialize)]
pub struct TurnModel {
    pub number: u32,
    pub side: String,
    pub phases: Vec<PhaseModel>,
}

#[derive(Debug, Serialize)]
pub struct PhaseModel {
    pub phase: ast::PhaseKind,
    pub number: u32,
    pub actions: Vec<ActionModel>,
}

#[derive(Debug, Serialize)]
pub struct ActionModel {
    pub line: usize,
    pub verb: String,
    pub units: Vec<String>,
    pub target: Option<String>,
    pub pip_from: Option<String>,
    pub to: Option<Point>,
    pub via: Vec<Point>,
    pub facing_degrees: Option<f64>,
    pub words: Vec<String>,
    pub numbers: Vec<f64>,
    pub rolls: Vec<RollModel>,
    pub claim: Vec<String>,
    pub allows: Vec<AllowModel>,
    pub steps: Vec<ActionModel>,
}

#[derive(Debug, Serialize)]
pub struct RollModel {
    pub label: Option<String>,
    pub dice: Vec<i64>,
}

#[derive(Debug, Serialize)]
pub struct AllowModel {
    pub code: String,
    pub reason: String,
}

/// Build the export model of an analysed file.
pub fn export(analysis: &Analysis, source: &str) -> Export {
    let doc = &analysis.document;
    let lines = LineIndex::new(source);
    match doc.kind {
        Some(ast::FileKind::Scenario) => match &doc.scenario {
            Some(s) => Export::Scenario(Box::new(scenario_model(s, &analysis.rule_data, &lines))),
            None => Export::Empty,
        },
        Some(ast::FileKind::Game) => Export::Game(Box::new(game_model(doc, &lines))),
        Some(ast::FileKind::Library) => {
            let mut diags = Vec::new();
            Export::Library(Box::new(LibraryModel {
                names: doc
                    .libraries
                    .iter()
                    .filter_map(|l| l.name.as_ref().map(|n| n.value.clone()))
                    .collect(),
                entries: RuleData::from_libraries(doc.libraries.iter(), &mut diags),
            }))
        }
        Some(ast::FileKind::Campaign) => match &doc.campaign {
            Some(c) => Export::Campaign(Box::new(CampaignModel {
                title: c.name.value.clone(),
                rulings: c
                    .rules
                    .iter()
                    .flat_map(|r| &r.rulings)
                    .map(|r| (r.name.value.clone(), r.value.value.clone()))
                    .collect(),
                battles: c
                    .battles
                    .iter()
                    .map(|b| BattleModel {
                        line: lines.line(b.span.start),
                        name: b.name.value.clone(),
                        scenario: b.scenario.as_ref().map(|n| n.value.clone()),
                        log: b.log.as_ref().map(|n| n.value.clone()),
                        after: b
                            .after
                            .iter()
                            .flat_map(|a| &a.steps)
                            .map(|a| action_model(a, &lines))
                            .collect(),
                    })
                    .collect(),
            })),
            None => Export::Empty,
        },
        None => Export::Empty,
    }
}

/// Byte offsets to 1-based line numbers: the one line index.
pub use crate::lines::LineIndex;

/// Each optional trigger's switch (by option name): its `default`, then the `option` lines of
/// `blocks` in order (a scenario's `rules`, then a game log's), so the last setting wins. Names
/// no trigger declares are left out (`dotc check` reports them).
pub fn effective_options<'a>(
    scenario: &ast::Scenario,
    blocks: impl IntoIterator<Item = &'a ast::RulesBlock>,
) -> BTreeMap<String, bool> {
    let mut values: BTreeMap<String, bool> = scenario
        .triggers
        .iter()
        .filter_map(|t| t.option.as_ref())
        .map(|o| (o.name.value.clone(), o.default_on()))
        .collect();
    for block in blocks {
        for o in &block.options {
            if let (Some(slot), Some(on)) = (values.get_mut(&o.name.value), o.on()) {
                *slot = on;
            }
        }
    }
    values
}

/// The value of every ruling after defaults, presets and explicit settings, in that order.
pub fn effective_rulings<'a>(
    blocks: impl IntoIterator<Item = &'a ast::RulesBlock>,
) -> BTreeMap<String, String> {
    let mut values: BTreeMap<String, String> =
        RULINGS.iter().map(|r| (r.name.to_string(), r.default_value().to_string())).collect();
    let blocks: Vec<&ast::RulesBlock> = blocks.into_iter().collect();
    for block in &blocks {
        for preset in &block.presets {
            if preset.value == "as_printed" {
                for r in RULINGS {
                    values.insert(r.name.to_string(), r.as_printed.to_string());
                }
            } else if preset.value == "defaults" {
                for r in RULINGS {
                    values.insert(r.name.to_string(), r.default_value().to_string());
                }
            }
        }
    }
    for block in &blocks {
        for r in &block.rulings {
            values.insert(r.name.value.clone(), r.value.value.clone());
        }
    }
    values
}

fn facing_degrees(f: &Option<ast::Spanned<Facing>>) -> Option<f64> {
    f.as_ref().and_then(|f| f.value.degrees())
}

fn scenario_model(s: &Scenario, data: &RuleData, lines: &LineIndex) -> ScenarioModel {
    let men_per_stand = s.men_per_stand.as_ref().map(|m| m.value);
    let unit = |u: &ast::Unit| -> UnitModel {
        let pick =
            |kind: EntryKind| u.words.iter().find(|w| data.contains(kind, &w.value)).map(|w| w.value.clone());
        let stands = match (&u.stands, &u.men, men_per_stand) {
            (Some(s), _, _) => Some(s.value),
            (None, Some(m), Some(per)) if per > 0 => Some(men_to_stands(m.value, per)),
            _ => None,
        };
        UnitModel {
            kind: u.kind,
            name: u.name.value.clone(),
            stands,
            men: u.men.as_ref().map(|m| m.value),
            sections: u.sections.as_ref().map(|m| m.value),
            quality: pick(EntryKind::Quality),
            weapon: pick(EntryKind::Weapon),
            formation: pick(EntryKind::Formation),
            flags: u
                .words
                .iter()
                .filter(|w| crate::check::UNIT_FLAGS.iter().any(|(f, _)| *f == w.value))
                .map(|w| w.value.clone())
                .collect(),
            traits: u.traits.iter().map(|t| t.value.clone()).collect(),
            markers: u.markers.iter().map(|t| t.value.clone()).collect(),
            position: u.position.as_ref().map(|p| p.value),
            facing_degrees: facing_degrees(&u.facing),
            line: lines.line(u.span.start),
        }
    };
    let own = {
        let mut diags = Vec::new();
        let data = RuleData::from_libraries(s.libraries.iter(), &mut diags);
        (!s.libraries.is_empty()).then_some(data)
    };
    let script = |sc: &ast::Script| ScriptModel {
        language: sc.language.clone(),
        line: lines.line(sc.code_span.start),
        code: sc.code.clone(),
    };
    ScenarioModel {
        title: s.name.value.clone(),
        date: s.date.as_ref().map(|d| format!("{:04}-{:02}-{:02}", d.value.year, d.value.month, d.value.day)),
        start: s.start.as_ref().map(|t| t.value.to_string()),
        turn_length_minutes: s.turn_length.as_ref().map(|t| t.value),
        turns: s.turns.as_ref().map(|t| t.value),
        first_side: s.first_side.as_ref().map(|f| f.value.clone()),
        table: s.table.as_ref().map(|t| t.value),
        men_per_stand,
        modules: s.rules.iter().flat_map(|r| r.modules.iter().map(|m| m.value.clone())).collect(),
        rulings: effective_rulings(&s.rules),
        weather: s
            .rules
            .iter()
            .flat_map(|r| r.weather.iter().map(|w| (w.aspect.value.clone(), w.condition.value.clone())))
            .collect(),
        terrain: s.terrain.iter().map(|f| feature_model(f, data)).collect(),
        sides: s
            .sides
            .iter()
            .map(|side| SideModel {
                id: side.id.value.clone(),
                name: side.name.as_ref().map(|n| n.value.clone()),
                edge: side.edge.as_ref().map(|e| e.value.clone()),
                commanders: side
                    .commanders
                    .iter()
                    .map(|c| LeaderModel {
                        name: c.name.value.clone(),
                        level: Some(c.level.value.clone()),
                        rating: c.rating.as_ref().map(|r| r.value.clone()),
                        position: c.position.as_ref().map(|p| p.value),
                    })
                    .collect(),
                brigades: side
                    .brigades
                    .iter()
                    .map(|b| {
                        let units: Vec<UnitModel> = b.units.iter().map(unit).collect();
                        BrigadeModel {
                            name: b.name.value.clone(),
                            brigadier: b.brigadiers.first().map(|l| LeaderModel {
                                name: l.name.value.clone(),
                                level: None,
                                rating: l.rating.as_ref().map(|r| r.value.clone()),
                                position: l.position.as_ref().map(|p| p.value),
                            }),
                            // RULINGS G5: the tally counts infantry stands only.
                            starting_stands: units
                                .iter()
                                .filter(|u| u.kind == UnitKind::Regiment)
                                .filter_map(|u| u.stands)
                                .sum(),
                            units,
                        }
                    })
                    .collect(),
                units: side.units.iter().map(unit).collect(),
                blinds: side
                    .blinds
                    .iter()
                    .map(|b| BlindModel {
                        name: b.name.value.clone(),
                        brigade: b.brigade.as_ref().map(|n| n.value.clone()),
                        dummy: b.brigade.is_none(),
                        position: b.position.value,
                        line: lines.line(b.span.start),
                    })
                    .collect(),
            })
            .collect(),
        reinforcements: s
            .reinforcements
            .iter()
            .map(|r| {
                let (turn, clock) = match r.arrival.value {
                    Arrival::Turn(n) => (Some(n), None),
                    Arrival::Clock(t) => {
                        let turn = match (&s.start, &s.turn_length) {
                            (Some(start), Some(len)) if len.value > 0 && t >= start.value => {
                                Some((t.minutes() - start.value.minutes()) / len.value + 1)
                            }
                            _ => None,
                        };
                        (turn, Some(t.to_string()))
                    }
                };
                ReinforcementModel {
                    turn,
                    clock,
                    side: r.side.as_ref().map(|s| s.value.clone()),
                    kind: r.kind.value.clone(),
                    name: r.name.value.clone(),
                    position: r.position.value,
                    facing_degrees: facing_degrees(&r.facing),
                    formation: r
                        .words
                        .iter()
                        .find(|w| data.contains(EntryKind::Formation, &w.value))
                        .map(|w| w.value.clone()),
                }
            })
            .collect(),
        victory: s
            .victory
            .iter()
            .map(|v| {
                use serde_json_like::Condition as C;
                let compare_word = |c: ast::Compare| {
                    match c {
                        ast::Compare::AtLeast => ">=",
                        ast::Compare::AtMost => "<=",
                        ast::Compare::More => ">",
                        ast::Compare::Less => "<",
                        ast::Compare::Equal => "==",
                    }
                    .to_string()
                };
                let condition = match &v.condition {
                    Condition::Held { objective, side, for_turns } => C::Held {
                        objective: objective.value.clone(),
                        side: side.value.clone(),
                        for_turns: for_turns.as_ref().map(|f| f.value),
                        at_end: for_turns.is_none(),
                    },
                    Condition::VictoryPoints { side, compare, value } => C::VictoryPoints {
                        side: side.value.clone(),
                        compare: compare_word(compare.value),
                        value: value.value,
                    },
                    Condition::BrigadesBroken { side, compare, value } => C::BrigadesBroken {
                        side: side.value.clone(),
                        compare: compare_word(compare.value),
                        value: value.value,
                    },
                    Condition::Script(sc) => C::Script { code: sc.code.clone() },
                    Condition::Otherwise => C::Otherwise,
                };
                VictoryModel {
                    condition,
                    winner: v.winner.value.clone(),
                    level: v.level.as_ref().map(|l| l.value.clone()),
                }
            })
            .collect(),
        scripts: s.scripts.iter().map(script).collect(),
        triggers: s
            .triggers
            .iter()
            .map(|t| TriggerModel {
                name: t.name.value.clone(),
                option: t
                    .option
                    .as_ref()
                    .map(|o| TriggerOptionModel { name: o.name.value.clone(), default_on: o.default_on() }),
                when: t.condition.code.clone(),
                body: script(&t.body),
            })
            .collect(),
        notes: s.notes.iter().map(|n| n.value.clone()).collect(),
        library: own,
    }
}

fn feature_model(f: &ast::Feature, data: &RuleData) -> FeatureModel {
    let kind = f.kind.value.as_str();
    let category = if kind == "hill" || kind == "objective" {
        kind
    } else if data.contains(EntryKind::Obstacle, kind) {
        "obstacle"
    } else if data.contains(EntryKind::Structure, kind) {
        "structure"
    } else {
        "terrain"
    };
    let mut m = FeatureModel {
        kind: kind.to_string(),
        category: category.to_string(),
        name: f.name.as_ref().map(|n| n.value.clone()),
        polygon: Vec::new(),
        line: Vec::new(),
        at: None,
        size: None,
        level: None,
        crest: Vec::new(),
        fords: Vec::new(),
        bridges: Vec::new(),
        capacity: None,
        vp: None,
        within: None,
        flags: Vec::new(),
    };
    for attr in &f.attrs {
        match attr {
            FeatureAttr::Polygon(p) => m.polygon = p.value.clone(),
            FeatureAttr::Line(p) => m.line = p.value.clone(),
            FeatureAttr::Crest(p) => m.crest = p.value.clone(),
            FeatureAttr::At(p) => m.at = Some(p.value),
            FeatureAttr::Size(s) => m.size = Some(s.value),
            FeatureAttr::Level(n) => m.level = Some(n.value),
            FeatureAttr::Capacity(n) => m.capacity = Some(n.value),
            FeatureAttr::Vp(n) => m.vp = Some(n.value),
            FeatureAttr::Within(n) => m.within = Some(n.value),
            FeatureAttr::Ford(p) => m.fords.push(p.value),
            FeatureAttr::Bridge(p) => m.bridges.push(p.value),
            FeatureAttr::Flag(w) => m.flags.push(w.value.clone()),
        }
    }
    m
}

fn game_model(doc: &ast::Document, lines: &LineIndex) -> GameModel {
    let game = doc.game.as_ref();
    GameModel {
        title: game.map(|g| g.name.value.clone()).unwrap_or_default(),
        scenario: game.and_then(|g| g.scenario.as_ref().map(|s| s.value.clone())),
        players: game
            .map(|g| g.players.iter().map(|p| (p.side.value.clone(), p.name.value.clone())).collect())
            .unwrap_or_default(),
        played: game
            .and_then(|g| g.played.as_ref())
            .map(|d| format!("{:04}-{:02}-{:02}", d.value.year, d.value.month, d.value.day)),
        seed: game.and_then(|g| g.seed.as_ref().map(|s| s.value)),
        rulings: effective_rulings(game.iter().flat_map(|g| g.rules.iter())),
        modules: game
            .iter()
            .flat_map(|g| g.rules.iter().flat_map(|r| r.modules.iter().map(|m| m.value.clone())))
            .collect(),
        turns: doc
            .turns
            .iter()
            .map(|t| TurnModel {
                number: t.number.value,
                side: t.side.value.clone(),
                phases: t
                    .phases()
                    .iter()
                    .map(|p| PhaseModel {
                        phase: p.kind.value,
                        number: p.kind.value.number(),
                        actions: p.actions.iter().map(|a| action_model(a, lines)).collect(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

fn action_model(a: &ast::Action, lines: &LineIndex) -> ActionModel {
    let mut m = ActionModel {
        line: lines.line(a.span.start),
        verb: a.verb.value.clone(),
        units: Vec::new(),
        target: None,
        pip_from: None,
        to: None,
        via: Vec::new(),
        facing_degrees: None,
        words: Vec::new(),
        numbers: Vec::new(),
        rolls: Vec::new(),
        claim: a
            .claim
            .iter()
            .flat_map(|c| c.items.iter())
            .map(|item| {
                let mut parts: Vec<String> = item.words.iter().map(|w| w.value.clone()).collect();
                parts.extend(item.numbers.iter().map(|n| n.value.to_string()));
                parts.join(" ")
            })
            .collect(),
        allows: a
            .allows
            .iter()
            .map(|al| AllowModel { code: al.code.value.clone(), reason: al.reason.value.clone() })
            .collect(),
        steps: a.steps.iter().map(|s| action_model(s, lines)).collect(),
    };
    for arg in &a.args {
        match arg {
            ast::Arg::Unit(n) => m.units.push(n.value.clone()),
            ast::Arg::At(n) | ast::Arg::Against(n) => m.target = Some(n.value.clone()),
            ast::Arg::Pip(n) => m.pip_from = Some(n.value.clone()),
            ast::Arg::To(p) | ast::Arg::Point(p) => m.to = Some(p.value),
            ast::Arg::Via(p) => m.via = p.value.clone(),
            ast::Arg::Facing(f) => m.facing_degrees = facing_degrees(&Some(f.clone())),
            ast::Arg::Roll(r) => m.rolls.push(RollModel {
                label: r.label.as_ref().map(|l| l.value.clone()),
                dice: r.dice.value.iter().map(|d| d.value).collect(),
            }),
            ast::Arg::Number(n) => m.numbers.push(n.value),
            ast::Arg::Word(w) => m.words.push(w.value.clone()),
        }
    }
    m
}

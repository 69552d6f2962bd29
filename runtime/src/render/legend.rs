//! The legend panel beside the table: the sides, each terrain style on the map, the unit and
//! leader symbols, the markers, the chosen unit's overlays, and the troops not on the table.

use std::collections::BTreeSet;

use dotc_lang::ast::UnitKind;

use super::RenderOptions;
use super::action::{Mark, MarkKind};
use super::draw::{self, P, d};
use super::state::{MapRank, MapState};
use super::style::{AreaStyle, LineStyle, MarkerSymbol, ObstacleStyle, SideColours};
use super::svg::{Writer, num};
use crate::battlefield::Battlefield;

const HEADING: f64 = 1.0;
const ROW: f64 = 0.8;
const LINE: f64 = 0.6;
const TEXT: f64 = 0.42;
const SWATCH: f64 = 1.6;

/// A sample drawn at the start of a row.
#[derive(Clone, Debug, PartialEq)]
enum Swatch {
    Side(usize),
    Area(AreaStyle),
    Line(LineStyle),
    Obstacle(ObstacleStyle),
    Hill(u32),
    Crest,
    Ford,
    Bridge,
    Building,
    Objective,
    Stand(UnitKind),
    Front,
    Colours,
    /// A leader's rank and the size of his base (inches).
    Leader(MapRank, f64),
    Arrival,
    /// A blind token (Ch13 4.0) of a side: with a name, or an enemy's plain "?".
    Blind {
        side: usize,
        text: String,
    },
    Marker(MarkerSymbol, String),
    /// A kind of mark of the phase drawn over the map (`dotc render --at`).
    Mark(MarkKind),
    FrontArc,
    FlankZone,
    SightClear,
    SightBlocked,
}

#[derive(Clone, Debug, PartialEq)]
enum Row {
    Heading(String),
    Swatch(Swatch, String),
    /// A line of text, indented or not, in a side's colour if given.
    Text {
        text: String,
        indent: bool,
        side: Option<usize>,
    },
}

pub struct Legend {
    rows: Vec<Row>,
}

impl Legend {
    pub fn build(field: &Battlefield, state: &MapState, options: &RenderOptions) -> Legend {
        let mut rows = Vec::new();
        rows.push(Row::Heading("Sides".into()));
        for (i, side) in state.sides.iter().enumerate() {
            let text = match &side.name {
                Some(name) => format!("{name} ({})", side.id),
                None => side.id.clone(),
            };
            rows.push(Row::Swatch(Swatch::Side(i), text));
        }

        rows.push(Row::Heading("Terrain".into()));
        let mut seen: Vec<Swatch> = Vec::new();
        let mut add = |rows: &mut Vec<Row>, swatch: Swatch, text: String| {
            if !seen.contains(&swatch) {
                seen.push(swatch.clone());
                rows.push(Row::Swatch(swatch, text));
            }
        };
        let mut levels: Vec<u32> = field.hills.iter().map(|h| h.level).collect();
        levels.sort_unstable();
        levels.dedup();
        for level in levels {
            add(&mut rows, Swatch::Hill(level), format!("Hill, level {level}"));
        }
        if field.hills.iter().any(|h| h.crest.is_some()) {
            add(&mut rows, Swatch::Crest, "Crest line (dead ground 1\u{2033} behind it)".into());
        }
        for a in &field.areas {
            add(&mut rows, Swatch::Area(AreaStyle::of(&a.terrain)), a.terrain.meta.title().to_string());
        }
        for l in &field.lines {
            add(
                &mut rows,
                Swatch::Line(LineStyle::of(&l.terrain, &l.flags)),
                l.terrain.meta.title().to_string(),
            );
        }
        if field.lines.iter().any(|l| !l.fords.is_empty()) {
            add(&mut rows, Swatch::Ford, "Ford".into());
        }
        if field.lines.iter().any(|l| !l.bridges.is_empty()) {
            add(&mut rows, Swatch::Bridge, "Bridge".into());
        }
        for o in &field.obstacles {
            add(
                &mut rows,
                Swatch::Obstacle(ObstacleStyle::of(&o.obstacle.meta.id)),
                o.obstacle.meta.title().to_string(),
            );
        }
        if !field.buildings.is_empty() {
            add(&mut rows, Swatch::Building, "Building (stands it holds)".into());
        }
        if !field.objectives.is_empty() {
            add(&mut rows, Swatch::Objective, "Objective (victory points)".into());
        }

        rows.push(Row::Heading("Units".into()));
        let kinds: BTreeSet<u8> = state
            .units
            .iter()
            .map(|u| match u.kind {
                UnitKind::Regiment => 0,
                UnitKind::Cavalry => 1,
                UnitKind::Battery => 2,
            })
            .collect();
        for kind in kinds {
            let (kind, text) = match kind {
                0 => (UnitKind::Regiment, "Infantry stand (1\u{2033} wide)"),
                1 => (UnitKind::Cavalry, "Cavalry stand"),
                _ => (UnitKind::Battery, "Gun section"),
            };
            rows.push(Row::Swatch(Swatch::Stand(kind), text.into()));
        }
        rows.push(Row::Swatch(Swatch::Front, "Front edge and facing".into()));
        rows.push(Row::Swatch(Swatch::Colours, "Color Stand (range is measured from it)".into()));
        if let Some(commander) = state.leaders.iter().find(|l| l.rank == MapRank::Commander) {
            let text = format!("Commander ({}\u{2033} base)", num(commander.base));
            rows.push(Row::Swatch(Swatch::Leader(MapRank::Commander, commander.base), text));
        }
        if let Some(brigadier) = state.leaders.iter().find(|l| l.rank == MapRank::Brigadier) {
            rows.push(Row::Swatch(Swatch::Leader(MapRank::Brigadier, brigadier.base), "Brigadier".into()));
        }
        if !state.arrivals.is_empty() {
            rows.push(Row::Swatch(Swatch::Arrival, "Reinforcements enter here".into()));
        }
        // Ch13 4.0: the blinds still on the table, known and unknown.
        let mut standing = state.blinds.iter().filter(|b| !b.revealed);
        if let Some(known) = standing.clone().find(|b| state.knows(b)) {
            let sample = Swatch::Blind { side: known.side, text: known.name.clone() };
            rows.push(Row::Swatch(
                sample,
                "Blind (Ch13 4.0): its name; under it, its brigade or dummy".into(),
            ));
        }
        if let Some(unknown) = standing.find(|b| !state.knows(b)) {
            let sample = Swatch::Blind { side: unknown.side, text: "?".into() };
            rows.push(Row::Swatch(sample, "Enemy blind, not yet revealed: real or dummy".into()));
        }

        rows.push(Row::Heading("Markers".into()));
        let mut markers: Vec<(String, String)> = vec![
            ("disorder".into(), "Disorder".into()),
            ("gunsmoke".into(), "Gunsmoke (1\u{2033} in front)".into()),
            ("low_ammo".into(), "Low Ammo".into()),
        ];
        for unit in &state.units {
            for (id, title) in &unit.markers {
                if !markers.iter().any(|(m, _)| m == id) {
                    markers.push((id.clone(), title.clone()));
                }
            }
        }
        for (id, title) in markers {
            let initial = title.chars().next().map(|c| c.to_uppercase().to_string()).unwrap_or_default();
            rows.push(Row::Swatch(Swatch::Marker(MarkerSymbol::of(&id), initial), title));
        }
        // Issue 21: a game log's map marks each unit's losses so far.
        if state.units.iter().any(|u| u.stands_lost > 0) {
            rows.push(Row::Swatch(
                Swatch::Marker(MarkerSymbol::StandsLost, "\u{2212}1".into()),
                "Stands lost so far".into(),
            ));
        }

        // Issue 21: what the last phase did, drawn over the map.
        let mut kinds: Vec<MarkKind> = Vec::new();
        for kind in options.marks.iter().filter_map(Mark::kind) {
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        if !kinds.is_empty() {
            rows.push(Row::Heading("The phase shown".into()));
            kinds.sort_by_key(|k| *k as u8);
            for kind in kinds {
                let text = match kind {
                    MarkKind::Move => "Move: from where it stood to where it ended",
                    MarkKind::Charge => "Charge: to the enemy it reached",
                    MarkKind::Fire => "Volley: the range line to its target",
                    MarkKind::Lost => "Stands lost: where they stood",
                };
                rows.push(Row::Swatch(Swatch::Mark(kind), text.into()));
            }
        }

        if let Some(focus) = &options.focus {
            let unit = state.unit(&focus.unit);
            if focus.arcs {
                rows.push(Row::Heading(format!("Arcs of {}", focus.unit)));
                rows.push(Row::Swatch(
                    Swatch::FrontArc,
                    "Front arc (45\u{b0} from the front corners)".into(),
                ));
                rows.push(Row::Swatch(Swatch::FlankZone, "Flank zone (to the front edge extended)".into()));
            }
            if focus.sight {
                rows.push(Row::Heading(format!("Sight of {}", focus.unit)));
                match unit.and_then(|u| u.weapon.as_ref().map(|w| (u, w))) {
                    Some((u, weapon)) => {
                        rows.push(Row::Swatch(
                            Swatch::SightClear,
                            "Seen: range, band, stands that see".into(),
                        ));
                        rows.push(Row::Swatch(Swatch::SightBlocked, "Blocked, and by what".into()));
                        rows.push(Row::Text {
                            text: format!(
                                "Enemies within {}\u{2033} ({}); weather not counted",
                                num(weapon.max_range(u.arm)),
                                weapon.meta.title()
                            ),
                            indent: false,
                            side: None,
                        });
                    }
                    None => rows.push(Row::Text {
                        text: "No weapon: no lines of sight".into(),
                        indent: false,
                        side: None,
                    }),
                }
                if unit.is_some_and(|u| u.body.is_none()) {
                    rows.push(Row::Text {
                        text: "Not on the table: nothing to draw".into(),
                        indent: false,
                        side: None,
                    });
                }
            }
        }

        // Ch13 4.0: what an enemy blind hides is not listed in a side's view.
        let secret = |blind: Option<&super::MapBlind>| blind.is_some_and(|b| !state.knows(b));
        let off: Vec<_> = state
            .units
            .iter()
            .filter(|u| u.body.is_none() && u.garrison.is_none() && !secret(state.blind_over(u)))
            .collect();
        let leaders_off: Vec<_> = state
            .leaders
            .iter()
            .filter(|l| {
                l.position.is_none()
                    && l.attached.as_deref().and_then(|a| state.unit(a)).is_none_or(|u| u.body.is_none())
                    && !secret(state.blind_over_leader(l))
            })
            .collect();
        if !off.is_empty() || !leaders_off.is_empty() {
            rows.push(Row::Heading("Not on the table".into()));
            for unit in off {
                let mut text = unit.name.clone();
                if let Some(brigade) = &unit.brigade {
                    text.push_str(&format!(" ({brigade})"));
                }
                rows.push(Row::Text { text, indent: false, side: Some(unit.side) });
                let mut detail = match (state.blind_over(unit), state.arrival_of(unit)) {
                    (Some(blind), _) => format!("hidden under blind {}", blind.name),
                    (None, Some(a)) => format!("arrives {} at ({}, {})", a.when, num(a.at.0), num(a.at.1)),
                    (None, None) => "not placed".to_string(),
                };
                if !unit.markers.is_empty() {
                    let titles: Vec<&str> = unit.markers.iter().map(|(_, t)| t.as_str()).collect();
                    detail.push_str(&format!("; markers: {}", titles.join(", ")));
                }
                rows.push(Row::Text { text: detail, indent: true, side: None });
            }
            for leader in leaders_off {
                rows.push(Row::Text { text: leader.name.clone(), indent: false, side: Some(leader.side) });
                let detail = match state.blind_over_leader(leader) {
                    Some(blind) => format!("hidden under blind {}", blind.name),
                    None => "not placed".to_string(),
                };
                rows.push(Row::Text { text: detail, indent: true, side: None });
            }
        }
        Legend { rows }
    }

    /// The panel's height, inches.
    pub fn height(&self) -> f64 {
        0.9 + self.rows.iter().map(row_height).sum::<f64>()
    }

    /// The area styles the samples use (their patterns must be defined).
    pub fn area_styles(&self) -> Vec<AreaStyle> {
        self.rows
            .iter()
            .filter_map(|r| match r {
                Row::Swatch(Swatch::Area(style), _) => Some(*style),
                _ => None,
            })
            .collect()
    }

    pub fn draw(&self, w: &mut Writer, (left, top): P, width: f64, colours: &[SideColours]) {
        let side = |i: usize| colours.get(i).copied().unwrap_or(colours[0]);
        w.open("g", &[("id", "legend")]);
        w.empty(
            "rect",
            &[
                ("x", &num(left)),
                ("y", &num(top)),
                ("width", &num(width)),
                ("height", &num(self.height())),
                ("fill", "#fbfaf5"),
                ("stroke", "#999999"),
                ("stroke-width", "0.04"),
            ],
        );
        let x = left + 0.4;
        let mut y = top + 0.3;
        for row in &self.rows {
            let h = row_height(row);
            match row {
                Row::Heading(text) => {
                    w.text((x, y + 0.75), &[("font-size", "0.5")], text);
                }
                Row::Swatch(swatch, text) => {
                    let centre = (x + SWATCH / 2.0, y + h / 2.0);
                    self.swatch(w, swatch, centre, &side);
                    w.text((x + SWATCH + 0.4, y + h / 2.0 + TEXT * 0.35), &[("font-size", &num(TEXT))], text);
                }
                Row::Text { text, indent, side: s } => {
                    let dx = if *indent { 0.6 } else { 0.0 };
                    let colour = s.map_or("#333333", |s| side(s).dark);
                    w.text((x + dx, y + h - 0.15), &[("font-size", &num(TEXT)), ("fill", colour)], text);
                }
            }
            y += h;
        }
        w.close("g");
    }

    fn swatch(&self, w: &mut Writer, swatch: &Swatch, c: P, side: &dyn Fn(usize) -> SideColours) {
        let (hw, hh) = (SWATCH / 2.0, 0.28);
        let rect = [(c.0 - hw, c.1 - hh), (c.0 + hw, c.1 - hh), (c.0 + hw, c.1 + hh), (c.0 - hw, c.1 + hh)];
        let line = [(c.0 - hw, c.1), (c.0 + hw, c.1)];
        let stand = |kind: UnitKind, colours: SideColours, w: &mut Writer| {
            let corners = [
                (c.0 - 0.5, c.1 - 0.375),
                (c.0 + 0.5, c.1 - 0.375),
                (c.0 + 0.5, c.1 + 0.375),
                (c.0 - 0.5, c.1 + 0.375),
            ];
            w.path(
                &d(&corners, true),
                &[("fill", colours.fill), ("stroke", colours.dark), ("stroke-width", "0.03")],
            );
            let mark = draw::stand_mark(kind, &corners);
            match kind {
                UnitKind::Battery => w.path(&mark, &[("fill", "#ffffff"), ("fill-opacity", "0.85")]),
                _ => w.path(
                    &mark,
                    &[
                        ("fill", "none"),
                        ("stroke", "#ffffff"),
                        ("stroke-opacity", "0.75"),
                        ("stroke-width", "0.04"),
                    ],
                ),
            }
        };
        let first = side(0);
        match swatch {
            Swatch::Side(i) => {
                let colours = side(*i);
                stand(UnitKind::Regiment, colours, w);
                w.path(
                    &d(&[(c.0 - 0.5, c.1 - 0.375), (c.0 + 0.5, c.1 - 0.375)], false),
                    &[("stroke", colours.dark), ("stroke-width", "0.12")],
                );
            }
            Swatch::Area(style) => draw::area(w, *style, &d(&rect, true)),
            Swatch::Line(style) => draw::terrain_line(w, *style, &line),
            Swatch::Obstacle(style) => draw::obstacle(w, *style, &line),
            Swatch::Hill(level) => draw::hill(w, *level, &d(&rect, true)),
            Swatch::Crest => draw::crest(w, &d(&line, false)),
            Swatch::Ford | Swatch::Bridge => {
                draw::terrain_line(w, LineStyle::Stream, &[(c.0, c.1 - hh - 0.1), (c.0, c.1 + hh + 0.1)]);
                if *swatch == Swatch::Ford {
                    draw::ford(w, c, (0.0, 1.0));
                } else {
                    draw::bridge(w, c, (0.0, 1.0));
                }
            }
            Swatch::Building => draw::building(
                w,
                &d(
                    &[
                        (c.0 - 0.4, c.1 - 0.3),
                        (c.0 + 0.4, c.1 - 0.3),
                        (c.0 + 0.4, c.1 + 0.3),
                        (c.0 - 0.4, c.1 + 0.3),
                    ],
                    true,
                ),
            ),
            Swatch::Objective => draw::objective(w, c),
            Swatch::Stand(kind) => stand(*kind, first, w),
            Swatch::Front => {
                // A stand facing east, a little smaller than life so the arrow fits the row.
                let corners = [
                    (c.0 + 0.1, c.1 - 0.35),
                    (c.0 + 0.1, c.1 + 0.35),
                    (c.0 - 0.45, c.1 + 0.35),
                    (c.0 - 0.45, c.1 - 0.35),
                ];
                w.path(
                    &d(&corners, true),
                    &[("fill", first.fill), ("stroke", first.dark), ("stroke-width", "0.03")],
                );
                let mark = draw::stand_mark(UnitKind::Regiment, &corners);
                w.path(
                    &mark,
                    &[
                        ("fill", "none"),
                        ("stroke", "#ffffff"),
                        ("stroke-opacity", "0.75"),
                        ("stroke-width", "0.04"),
                    ],
                );
                w.path(
                    &d(&[corners[0], corners[1]], false),
                    &[("stroke", first.dark), ("stroke-width", "0.12")],
                );
                w.path(
                    &d(&[(c.0 + 0.6, c.1), (c.0 + 0.19, c.1 - 0.22), (c.0 + 0.19, c.1 + 0.22)], true),
                    &[("fill", first.dark)],
                );
            }
            Swatch::Colours => {
                stand(UnitKind::Regiment, first, w);
                w.path(
                    &draw::circle((c.0, c.1 - 0.375), 0.11),
                    &[("fill", "#ffffff"), ("stroke", first.dark), ("stroke-width", "0.04")],
                );
            }
            Swatch::Leader(rank, base) => {
                let size = if *rank == MapRank::Commander { 0.45 } else { 0.65 };
                draw::leader(w, *rank, *base, c, first, size);
            }
            Swatch::Arrival => {
                w.path(
                    &draw::circle(c, 0.3),
                    &[
                        ("fill", first.pale),
                        ("stroke", first.dark),
                        ("stroke-width", "0.05"),
                        ("stroke-dasharray", "0.15 0.1"),
                    ],
                );
            }
            Swatch::Blind { side: s, text } => draw::blind_token(w, c, side(*s), text, 0.6),
            Swatch::Marker(symbol, initial) => draw::marker(w, *symbol, c, initial),
            Swatch::Mark(kind) => super::action::legend_sample(w, *kind, c),
            Swatch::FrontArc => {
                w.path(
                    &d(
                        &[
                            (c.0 - 0.3, c.1 + hh),
                            (c.0 + 0.3, c.1 + hh),
                            (c.0 + hw, c.1 - hh),
                            (c.0 - hw, c.1 - hh),
                        ],
                        true,
                    ),
                    &[
                        ("fill", "#2f8a57"),
                        ("fill-opacity", "0.16"),
                        ("stroke", "#1f6a3f"),
                        ("stroke-width", "0.06"),
                    ],
                );
            }
            Swatch::FlankZone => {
                w.path(
                    &d(&[(c.0 - hw, c.1 + hh), (c.0 + hw, c.1 + hh), (c.0 + hw, c.1 - hh)], true),
                    &[
                        ("fill", "#c27a1b"),
                        ("fill-opacity", "0.14"),
                        ("stroke", "#8a5210"),
                        ("stroke-width", "0.04"),
                    ],
                );
            }
            Swatch::SightClear => {
                w.path(&d(&line, false), &[("stroke", "#1d7a3a"), ("stroke-width", "0.07")])
            }
            Swatch::SightBlocked => w.path(
                &d(&line, false),
                &[("stroke", "#b3372f"), ("stroke-width", "0.05"), ("stroke-dasharray", "0.3 0.2")],
            ),
        }
    }
}

fn row_height(row: &Row) -> f64 {
    match row {
        Row::Heading(_) => HEADING,
        Row::Swatch(..) => ROW,
        Row::Text { .. } => LINE,
    }
}

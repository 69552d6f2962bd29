//! `dotc replay GAME --html OUT.html` (issue 21): the game as one self-contained page a club
//! can post, stepping through it action by action.
//!
//! Every fact on the page comes from the runtime: the replay's frames (the table, the rosters
//! and the events of each step, `dotc_runtime::replay::frames`), its events as the narrative
//! words them, its findings, the luck module's judgement of the dice (`dotc luck`'s) and the
//! runtime's map (`dotc_runtime::render`: the ground drawn once, the forces once per distinct
//! table, each step's moves, charges, fire lines and losses over them). This module only lays
//! them out.
//!
//! The page needs no network: the SVG, the style and the script are inline, and its Content
//! Security Policy forbids every fetch. Every string from the log or scenario reaches the page
//! escaped: in the SVG by the map's writer, in the data as JSON with `<`, `>` and `&` written
//! as `\u` escapes (so nothing closes the script element), and the script sets it as text,
//! never as markup. The same replay gives the same bytes.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use dotc_lang::Analysis;
use dotc_lang::ast::{PhaseKind, Span};
use dotc_runtime::audit::{AuditOptions, audit, level_of};
use dotc_runtime::engine::tables::Tables;
use dotc_runtime::luck::{self, Sides};
use dotc_runtime::render::action::marks_of;
use dotc_runtime::render::{MapState, RenderOptions, render_forces, render_layers, render_step};
use dotc_runtime::replay::frames::{Frame, FrameKind};
use dotc_runtime::replay::{Level, Replay, Table};
use serde::Serialize;

/// The page's style and script, kept beside this file.
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// Write the page of a replayed game to `out`, atomically like every file dotc writes.
pub fn write(analysis: &Analysis, replay: &Replay, out: &Path, force: bool) -> Result<(), String> {
    let page = page(analysis, replay)?;
    crate::write_atomically(out, page.as_bytes(), force)?;
    eprintln!("wrote {} ({} steps, {} bytes)", out.display(), replay.frames.len(), page.len());
    Ok(())
}

/// One step as the script shows it.
#[derive(Serialize)]
struct StepData {
    /// The URL fragment that opens it: `start`, `t3-fire-2` (the second action of turn 3's fire
    /// phase), `t3-end`.
    id: String,
    turn: u32,
    heading: String,
    /// The log's line and the action as written; 0 and "" for the start and a turn's end.
    line: usize,
    text: String,
    /// The step told as a story ([`dotc_runtime::replay::story::tell`]): what the page shows.
    story: Vec<String>,
    /// The narrative: each event's words and the rule it cites, shown with "the rules".
    events: Vec<(String, String)>,
    /// The findings at this step: level, message, rule.
    findings: Vec<FindingRow>,
    /// Indices into the page's lists of force layers, distinct action layers and rosters.
    forces: usize,
    action: usize,
    roster: usize,
}

/// One side's roster at a step.
#[derive(Serialize)]
struct SideRoster {
    side: String,
    /// Each brigade: name, state, stands lost, stands at the start.
    brigades: Vec<(String, String, u32, u32)>,
    /// Indices into the page's distinct unit rows.
    units: Vec<u32>,
}

#[derive(Serialize)]
struct UnitRow {
    name: String,
    brigade: String,
    stands: u32,
    starting: u32,
    health: String,
    micro_hit: u8,
    markers: Vec<String>,
    on_table: bool,
}

/// Everything the script reads.
#[derive(Serialize)]
struct PageData {
    steps: Vec<StepData>,
    /// Each distinct piece of SVG of the forces ([`pieces`]), once: a unit that did not change
    /// between two steps is the same piece in both, so the page holds it once.
    lines: Vec<String>,
    /// Each distinct force layer, as its pieces (indices into `lines`).
    forces: Vec<Vec<u32>>,
    actions: Vec<String>,
    rosters: Vec<Vec<SideRoster>>,
    /// Each distinct state of a unit on a roster, once.
    units: Vec<UnitRow>,
    /// The first step of each turn, by turn number (index 0: the start).
    turns: Vec<usize>,
}

/// The page of a replayed game.
pub fn page(analysis: &Analysis, replay: &Replay) -> Result<String, String> {
    let loaded = analysis.scenario.as_ref().ok_or("the game names no scenario to draw")?;
    let scenario = loaded.document.scenario.as_ref().ok_or("the game's scenario is empty")?;
    let data = &loaded.rule_data;
    let game = analysis.document.game.as_ref();
    let tables =
        Tables::from_rule_data(data).map_err(|e| format!("the rule data cannot be drawn from: {e}"))?;
    let field = dotc_runtime::engine::bidding::game_battlefield(scenario, game, data);
    let mut base = MapState::deployment(scenario, data, &tables);
    let name = game.map_or_else(|| scenario.name.value.clone(), |g| g.name.value.clone());
    if game.is_some() {
        base.subtitle = format!("{} \u{b7} {}", base.title, base.subtitle);
        base.title = name.clone();
    }
    // The moment shown changes at every step: the page says it beside the map.
    base.moment = String::new();
    let options = RenderOptions::default();
    let layers = render_layers(&field, &base, &options);

    let mut data = PageData {
        steps: Vec::new(),
        lines: Vec::new(),
        forces: Vec::new(),
        actions: Vec::new(),
        rosters: Vec::new(),
        units: Vec::new(),
        turns: vec![0],
    };
    let mut layers_seen = Distinct::default();
    let mut lines_seen = Distinct::default();
    let mut actions_seen = Distinct::default();
    let mut rosters_seen = Distinct::default();
    let mut units_seen = Distinct::default();
    let mut forces_of = |data: &mut PageData, svg: String| -> usize {
        let lines: Vec<u32> =
            pieces(&svg).iter().map(|piece| lines_seen.index(&mut data.lines, piece) as u32).collect();
        let key = lines.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        let index = layers_seen.index(&mut Vec::new(), &key);
        if index == data.forces.len() {
            data.forces.push(lines);
        }
        index
    };
    let findings = audited(analysis, replay);
    let mut placed = vec![false; findings.len()];
    let mut in_phase: (u32, Option<PhaseKind>, usize) = (0, None, 0);
    let mut before: Option<&Table> = None;
    for (index, frame) in replay.frames.iter().enumerate() {
        let events = replay.events.get(frame.events.clone()).unwrap_or(&[]);
        let id = step_id(frame, &mut in_phase);
        let heading = heading(frame, &id);
        if matches!(frame.kind, FrameKind::Start) {
            // Nothing to draw before the first step.
        } else if data.turns.len() as u32 <= frame.turn {
            data.turns.resize(frame.turn as usize + 1, index);
        }
        let mut state = base.clone();
        state.at(&frame.table, &loaded.rule_data);
        // The micro-hit marker behind the Color Stand (RULE-05-3.3), from the step's roster.
        for unit in &mut state.units {
            if frame.roster.units.iter().any(|u| u.name == unit.name && u.micro_hit > 0) {
                unit.markers.push(("micro_hit".to_string(), "Micro-hit".to_string()));
            }
        }
        // The step's marks over the forces, their badges placed clear of the labels (issue 21).
        let marks = marks_of(events, before.unwrap_or(&frame.table), &frame.table);
        let (forces, action) =
            render_step(&field, &state, &options, &layers, ("forces-layer", "action-layer"), &marks);
        let forces = forces_of(&mut data, forces);
        let action = actions_seen.index(&mut data.actions, &action);
        let roster = roster(&base, frame, &mut |row: UnitRow| {
            let key = serde_json::to_string(&row).unwrap_or_default();
            let index = units_seen.index(&mut Vec::new(), &key);
            if index == data.units.len() {
                data.units.push(row);
            }
            index as u32
        });
        let key = serde_json::to_string(&roster).map_err(|e| e.to_string())?;
        let roster_index = rosters_seen.index(&mut Vec::new(), &key);
        if roster_index == data.rosters.len() {
            data.rosters.push(roster);
        }
        let found = findings_at(&findings, frame, &mut placed);
        let (line, text) = match &frame.kind {
            FrameKind::Action { line, text, .. } | FrameKind::Scripts { line, text, .. } => {
                (*line, text.clone())
            }
            _ => (0, String::new()),
        };
        let story = dotc_runtime::replay::story::tell(
            &events.iter().map(|e| &e.event).collect::<Vec<_>>(),
            text.split_whitespace().next().unwrap_or(""),
        );
        data.steps.push(StepData {
            id,
            turn: frame.turn,
            heading,
            line,
            text,
            story,
            events: events.iter().map(|e| (e.event.what.to_string(), e.event.rule.to_string())).collect(),
            findings: found,
            forces,
            action,
            roster: roster_index,
        });
        before = Some(&frame.table);
    }
    // What no step holds (the replay could not start, or a finding after the last action): on
    // the first step, so it is shown.
    let rest: Vec<_> =
        findings.iter().zip(&placed).filter(|(_, p)| !**p).map(|((_, row), _)| row.clone()).collect();
    if let Some(first) = data.steps.first_mut() {
        first.findings.splice(0..0, rest);
    } else {
        let forces = forces_of(&mut data, render_forces(&field, &base, &options, &layers, "forces-layer"));
        let action = actions_seen.index(&mut data.actions, "");
        data.steps.push(StepData {
            id: "start".into(),
            turn: 0,
            heading: "The game could not be replayed".into(),
            line: 0,
            text: String::new(),
            story: Vec::new(),
            events: Vec::new(),
            findings: rest,
            forces,
            action,
            roster: 0,
        });
    }
    let findings_list = findings_list(&data.steps);
    let luck_chart = luck_chart(analysis, replay, data.turns.len().saturating_sub(1) as u32);
    let json = script_json(&data)?;
    let head = layers.head.trim_start_matches("<?xml version=\"1.0\" encoding=\"UTF-8\"?>").trim_start();
    let last_turn = data.turns.len().saturating_sub(1).max(1);

    let mut out = String::new();
    let e = escape_html;
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<meta name=\"generator\" content=\"dotc replay --html\">\n\
<title>{title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
<header><h1>{title}</h1><p class=\"sub\">{sub}</p></header>\n\
<nav id=\"controls\" aria-label=\"Steps\">\n\
<button id=\"first\" title=\"First step (Home)\">\u{ab} first</button>\
<button id=\"prev\" title=\"Previous step (\u{2190})\">\u{2039} back</button>\
<button id=\"next\" title=\"Next step (\u{2192})\">next \u{203a}</button>\
<button id=\"last\" title=\"Last step (End)\">last \u{bb}</button>\n\
<label class=\"turn\">Turn <input id=\"turn\" type=\"range\" min=\"0\" max=\"{last_turn}\" step=\"1\" value=\"0\"> <output id=\"turn-value\">0</output></label>\n\
<span id=\"counter\"></span>\n\
<label class=\"rules\"><input id=\"rules\" type=\"checkbox\"> the rules</label>\n\
<label class=\"wide\"><input id=\"wide\" type=\"checkbox\"> wide map</label>\n\
<a id=\"link\" href=\"#start\">link to this step</a>\n</nav>\n\
<main>\n<section id=\"map\">\n{head}<g id=\"forces\"></g>\n<g id=\"action\"></g>\n{tail}</section>\n\
<section id=\"story\">\n<h2 id=\"heading\"></h2>\n<p id=\"action-line\"></p>\n<ul id=\"told\"></ul>\n<ol id=\"narrative\"></ol>\n<ul id=\"step-findings\"></ul>\n</section>\n\
<section id=\"roster\"></section>\n\
<section id=\"luck\">\n<h2>Luck</h2>\n{luck_chart}</section>\n\
<section id=\"findings\">\n<h2>Findings</h2>\n{findings_list}</section>\n</main>\n\
<script type=\"application/json\" id=\"dotc-data\">{json}</script>\n\
<script>\n{SCRIPT}</script>\n</body>\n</html>\n",
        title = e(&name),
        sub = e(&base.subtitle),
        tail = layers.tail,
    );
    Ok(out)
}

/// Texts kept once each: the index of each in its list.
#[derive(Default)]
struct Distinct(BTreeMap<String, usize>);

impl Distinct {
    /// The index of `text` in `list`, pushed there the first time it is seen.
    fn index(&mut self, list: &mut Vec<String>, text: &str) -> usize {
        if let Some(&i) = self.0.get(text) {
            return i;
        }
        let i = self.0.len();
        self.0.insert(text.to_string(), i);
        list.push(text.to_string());
        i
    }
}

/// A force layer in the pieces the page keeps once each: each element two deep (a unit's,
/// leader's or blind's group with all it holds, or one label) and each line around them, with
/// the writer's indentation left out.
fn pieces(svg: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in svg.lines() {
        let depth = line.len() - line.trim_start().len();
        match out.last_mut() {
            Some(piece) if depth > 2 => {
                piece.push('\n');
                piece.push_str(line.trim_start());
            }
            _ => out.push(line.trim_start().to_string()),
        }
    }
    out
}

/// A step's URL fragment: `start`, `t3-fire-2`, `t3-end`. `in_phase` counts the actions of the
/// phase so far.
fn step_id(frame: &Frame, in_phase: &mut (u32, Option<PhaseKind>, usize)) -> String {
    match &frame.kind {
        FrameKind::Start => "start".to_string(),
        FrameKind::EndOfTurn { .. } => format!("t{}-end", frame.turn),
        FrameKind::Scripts { .. } => match frame.phase {
            Some(phase) => format!("t{}-{}-scripts", frame.turn, phase.word()),
            None => format!("t{}-scripts", frame.turn),
        },
        FrameKind::Action { .. } => {
            if (in_phase.0, in_phase.1) != (frame.turn, frame.phase) {
                *in_phase = (frame.turn, frame.phase, 0);
            }
            in_phase.2 += 1;
            let phase = frame.phase.map_or("action", |p| p.word());
            format!("t{}-{phase}-{}", frame.turn, in_phase.2)
        }
    }
}

/// "Turn 3 (union) · Phase 3, fire · action 2".
fn heading(frame: &Frame, id: &str) -> String {
    match &frame.kind {
        FrameKind::Start => "Before the game: the deployment".to_string(),
        FrameKind::EndOfTurn { .. } => format!("Turn {} ({}) \u{b7} end of the turn", frame.turn, frame.side),
        FrameKind::Scripts { .. } => {
            let phase =
                frame.phase.map_or(String::new(), |p| format!(" \u{b7} Phase {}, {}", p.number(), p.word()));
            format!("Turn {} ({}){phase} \u{b7} the scenario", frame.turn, frame.side)
        }
        FrameKind::Action { .. } => {
            let phase =
                frame.phase.map_or(String::new(), |p| format!(" \u{b7} Phase {}, {}", p.number(), p.word()));
            let n = id.rsplit('-').next().unwrap_or("");
            format!("Turn {} ({}){phase} \u{b7} action {n}", frame.turn, frame.side)
        }
    }
}

/// Each side's units and brigades at a frame, in the scenario's order, with their state from
/// the frame's roster.
fn roster(base: &MapState, frame: &Frame, row_index: &mut impl FnMut(UnitRow) -> u32) -> Vec<SideRoster> {
    base.sides
        .iter()
        .enumerate()
        .map(|(index, side)| {
            let units: Vec<UnitRow> = base
                .units
                .iter()
                .filter(|u| u.side == index)
                .filter_map(|u| {
                    let now = frame.roster.units.iter().find(|r| r.name == u.name)?;
                    Some(UnitRow {
                        name: now.name.clone(),
                        brigade: u.brigade.clone().unwrap_or_default(),
                        stands: now.stands,
                        starting: now.starting_stands,
                        health: now.health.clone(),
                        micro_hit: now.micro_hit,
                        markers: now.markers.clone(),
                        on_table: now.on_table,
                    })
                })
                .collect();
            let mut brigades: Vec<(String, String, u32, u32)> = Vec::new();
            for unit in &units {
                if brigades.iter().any(|(b, ..)| *b == unit.brigade) {
                    continue;
                }
                if let Some(b) = frame.roster.brigades.iter().find(|b| b.name == unit.brigade) {
                    brigades.push((b.name.clone(), b.state.clone(), b.losses, b.starting_stands));
                }
            }
            let units = units.into_iter().map(&mut *row_index).collect();
            SideRoster { side: side.name.clone().unwrap_or_else(|| side.id.clone()), brigades, units }
        })
        .collect()
}

/// A finding as the page shows it: level, message, rule.
type FindingRow = (String, String, String);

/// The replay's findings as the audit layer leaves them (`dotc audit`'s, notes kept): each
/// with its place in the log; what the umpire allowed with `@allow` said so, with his reason.
fn audited(analysis: &Analysis, replay: &Replay) -> Vec<(Span, FindingRow)> {
    let audit = audit(&analysis.document, &replay.findings, AuditOptions { notes: true });
    let mut rows: Vec<(Span, FindingRow)> = audit
        .diagnostics
        .iter()
        .map(|d| {
            let level = match level_of(d) {
                Level::Error => "finding",
                Level::Warning => "warning",
                Level::Note => "note",
                Level::Followed => "follows the log",
            };
            (d.primary.span, (level.to_string(), d.message.clone(), d.rule.clone().unwrap_or_default()))
        })
        .collect();
    rows.extend(audit.suppressed.iter().map(|s| {
        let message = format!("{} (allowed by the umpire: {})", s.message, s.reason);
        (s.span, ("allowed".to_string(), message, String::new()))
    }));
    rows.sort_by_key(|(span, _)| (span.start, span.end));
    rows
}

/// The findings within a frame's action (or its turn, at the turn's end; exactly at its
/// heading, for what the scripts did), each placed once.
fn findings_at(findings: &[(Span, FindingRow)], frame: &Frame, placed: &mut [bool]) -> Vec<FindingRow> {
    let span = match &frame.kind {
        FrameKind::Action { span, .. } | FrameKind::Scripts { span, .. } | FrameKind::EndOfTurn { span } => {
            *span
        }
        FrameKind::Start => return Vec::new(),
    };
    // A script's heading spans its whole turn or phase: only its own findings are at it.
    let exact = matches!(frame.kind, FrameKind::Scripts { .. });
    let mut out = Vec::new();
    // Sorted by place: those from the span's start on, up to its end.
    let from = findings.partition_point(|(at, _)| at.start < span.start);
    let within = findings[from..]
        .iter()
        .zip(placed[from..].iter_mut())
        .take_while(|((at, _), _)| at.start <= span.end);
    for ((at, row), done) in within {
        if !*done && at.end <= span.end && (!exact || *at == span) {
            *done = true;
            out.push(row.clone());
        }
    }
    out
}

/// Every finding, each a link to its step.
fn findings_list(steps: &[StepData]) -> String {
    let mut out = String::from("<ul>\n");
    let mut any = false;
    for step in steps {
        for (level, message, rule) in &step.findings {
            any = true;
            let rule = if rule.is_empty() {
                String::new()
            } else {
                format!(" <span class=\"rule\">[{}]</span>", escape_html(rule))
            };
            let _ = writeln!(
                out,
                "<li class=\"{}\"><a href=\"#{}\">{}</a> {}: {}{rule}</li>",
                if level == "finding" || level == "warning" { "problem" } else { "remark" },
                escape_html(&step.id),
                escape_html(&step.heading),
                escape_html(level),
                escape_html(message),
            );
        }
    }
    if !any {
        out.push_str("<li class=\"clean\">None: the log agrees with the rules.</li>\n");
    }
    out.push_str("</ul>\n");
    out
}

/// Each side's luck after each turn, as `dotc luck` judges the dice rolled up to its end: the
/// whole-game percentile (50% is exactly average), drawn as one line a side.
fn luck_chart(analysis: &Analysis, replay: &Replay, turns: u32) -> String {
    let sides = Sides::from_game(analysis);
    let mut by_side: Vec<(String, Vec<(u32, f64)>)> = Vec::new();
    for turn in 1..=turns {
        let upto = replay.events.partition_point(|e| e.turn <= turn);
        let judged = luck::luck(&replay.events[..upto], &sides);
        for side in judged.sides {
            let name = side.name.clone().unwrap_or(side.side.clone());
            let slot = match by_side.iter().position(|(s, _)| *s == name) {
                Some(i) => i,
                None => {
                    by_side.push((name, Vec::new()));
                    by_side.len() - 1
                }
            };
            if side.rolls > 0 {
                by_side[slot].1.push((turn, side.percentile));
            }
        }
    }
    let (width, height, left, top) = (600.0, 180.0, 40.0, 10.0);
    let (w, h) = (width - left - 10.0, height - top - 30.0);
    let x = |turn: u32| left + if turns <= 1 { 0.0 } else { (turn - 1) as f64 / (turns - 1) as f64 * w };
    let y = |p: f64| top + (1.0 - p) * h;
    let step = if turns <= 1 { 0.0 } else { w / (turns - 1) as f64 };
    let mut out = format!(
        "<svg id=\"luck-chart\" viewBox=\"0 0 {width} {height}\" data-x0=\"{left}\" data-dx=\"{step:.3}\" role=\"img\" aria-label=\"Each side's luck after each turn\">\n"
    );
    for (p, label) in [(0.0, "0%"), (0.5, "50%"), (1.0, "100%")] {
        let _ = writeln!(
            out,
            "<line x1=\"{left}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\" class=\"grid\"/><text x=\"{}\" y=\"{:.1}\" class=\"axis\" text-anchor=\"end\">{label}</text>",
            left + w,
            left - 4.0,
            y(p) + 4.0,
            y = y(p)
        );
    }
    for turn in 1..=turns {
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{}\" class=\"axis\" text-anchor=\"middle\">{turn}</text>",
            x(turn),
            top + h + 16.0
        );
    }
    for (i, (name, points)) in by_side.iter().enumerate() {
        let list: Vec<String> = points.iter().map(|(t, p)| format!("{:.1},{:.1}", x(*t), y(*p))).collect();
        let _ = writeln!(
            out,
            "<polyline class=\"side side-{i}\" data-side=\"{}\" points=\"{}\"/>",
            escape_html(name),
            list.join(" ")
        );
        let last = points.last().map_or(0.5, |(_, p)| *p);
        let _ = writeln!(
            out,
            "<text class=\"key side-{i}\" x=\"{}\" y=\"{}\">{} {:.0}%</text>",
            left + 8.0 + i as f64 * 200.0,
            height - 2.0,
            escape_html(name),
            last * 100.0
        );
    }
    let _ =
        writeln!(out, "<line id=\"luck-now\" x1=\"{left}\" x2=\"{left}\" y1=\"{top}\" y2=\"{}\"/>", top + h);
    out.push_str("</svg>\n<p class=\"note\">Each side's dice up to each turn's end, as <code>dotc luck</code> judges them: 50% is exactly as the odds expect; above is luckier.</p>\n");
    out
}

/// The page's data as JSON safe inside a `<script>` element ([`script_safe`]).
fn script_json(data: &PageData) -> Result<String, String> {
    serde_json::to_string(data).map(|json| script_safe(&json)).map_err(|e| e.to_string())
}

/// JSON made safe inside a `<script>` element: `<`, `>`, `&` and the two line separators
/// JavaScript once refused written as `\u` escapes, so no text in it closes the element.
fn script_safe(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// Text made safe for HTML text and attributes.
fn escape_html(text: &str) -> String {
    dotc_runtime::render::svg::escape(text)
}

#[cfg(test)]
mod tests;

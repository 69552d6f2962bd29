//! Semantic checks of a lowered file: names, rule-data ids, values and order.
//!
//! Checks never stop at the first problem: each adds diagnostics and moves on. Rules-aware
//! checks that need table geometry (units stacked on each other) live in the runtime crate.

use std::collections::HashMap;

use crate::ast::*;
use crate::catalogue as cat;
use crate::diagnostic::Diagnostic;
use crate::library::{EntryKind, RuleData, WeaponClass};
use crate::names::{COMPASS, EDGES, compass_bearing, suggest};
use crate::ranges::{self, NumberRange};
use crate::rulings::{Module, PRESETS, RULINGS, WEATHER, module, ruling};
use crate::verbs::{VERBS, verb_spec};

/// What a quoted name in a scenario refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    Unit(UnitKind),
    Brigade,
    Brigadier,
    /// The colonel who takes over a brigade when its brigadier falls (Ch16 2.4, RULINGS C9):
    /// named by the scenario's `replacement`, or "Col. replacing" and the brigadier's name.
    Replacement,
    Commander,
    /// A blind token, real or dummy (Ch13 4.0, module hidden_deployment).
    Blind,
}

impl NameKind {
    pub fn word(self) -> &'static str {
        match self {
            NameKind::Unit(kind) => kind.word(),
            NameKind::Brigade => "brigade",
            NameKind::Brigadier => "brigadier",
            NameKind::Replacement => "replacement colonel",
            NameKind::Commander => "commander",
            NameKind::Blind => "blind",
        }
    }
}

/// Every declared name of a scenario, with where it was declared and on which side.
#[derive(Clone, Debug, Default)]
pub struct NameIndex {
    pub names: HashMap<String, (NameKind, Span, String)>,
    pub order: Vec<String>,
}

impl NameIndex {
    pub fn get(&self, name: &str) -> Option<&(NameKind, Span, String)> {
        self.names.get(name)
    }

    pub fn build(scenario: &Scenario, diags: &mut Vec<Diagnostic>) -> NameIndex {
        let mut index = NameIndex::default();
        for side in &scenario.sides {
            let side_id = side.id.value.clone();
            for c in &side.commanders {
                index.insert(&c.name, NameKind::Commander, &side_id, diags);
            }
            for brigade in &side.brigades {
                index.insert(&brigade.name, NameKind::Brigade, &side_id, diags);
                for b in &brigade.brigadiers {
                    index.insert(&b.name, NameKind::Brigadier, &side_id, diags);
                }
                // Ch16 2.4: the colonel who takes over when the brigadier falls, so a log can
                // name him (his pips, his own leader casualty rolls). A default name is declared
                // where the brigadier is.
                if let Some(b) = brigade.brigadiers.first() {
                    let span = b.replacement.as_ref().map_or(b.name.span, |n| n.span);
                    let name = Name { value: b.replacement_name(), span };
                    index.insert(&name, NameKind::Replacement, &side_id, diags);
                }
                for unit in &brigade.units {
                    index.insert(&unit.name, NameKind::Unit(unit.kind), &side_id, diags);
                }
            }
            for unit in &side.units {
                index.insert(&unit.name, NameKind::Unit(unit.kind), &side_id, diags);
            }
            for blind in &side.blinds {
                index.insert(&blind.name, NameKind::Blind, &side_id, diags);
            }
        }
        index
    }

    fn insert(&mut self, name: &Name, kind: NameKind, side: &str, diags: &mut Vec<Diagnostic>) {
        match self.names.get(&name.value) {
            Some((_, first, _)) => {
                diags.push(cat::duplicate_name(kind.word(), &name.value, name.span, *first))
            }
            None => {
                self.names.insert(name.value.clone(), (kind, name.span, side.to_string()));
                self.order.push(name.value.clone());
            }
        }
    }

    fn suggest(&self, word: &str) -> Option<&str> {
        suggest(word, self.order.iter().map(String::as_str))
    }
}

/// Check a scenario against the rule data in force (stdlib plus its own library entries).
pub fn check_scenario(
    s: &Scenario,
    data: &RuleData,
    doc: &Document,
    diags: &mut Vec<Diagnostic>,
) -> NameIndex {
    let broken = doc.broken_names.as_slice();
    let missing = |what: &str| !doc.broken_words.iter().any(|w| w == what);
    for (first, again) in &s.repeated {
        diags.push(cat::repeated_statement(*first, *again));
    }
    let name_span = s.name.span;
    if s.name.value.trim().is_empty() {
        diags.push(cat::impossible_value(
            name_span,
            "the scenario has an empty title",
            "empty",
            "give it a title",
        ));
    }
    if let Some(d) = &s.date {
        check_date(d, diags);
    }
    if let Some(t) = &s.start {
        check_time(t.value, t.span, diags);
    }
    // `turns`, `turn_length`, `table` and `men_per_stand` are in their ranges when present:
    // lowering reported one that was not and left it out (crate::ranges).
    if s.turns.is_none() && missing("turns") {
        diags.push(cat::missing_statement(name_span, "turns", "turns 8"));
    }
    if s.table.is_none() && missing("table") {
        diags.push(cat::missing_statement(name_span, "table", "table 72 x 48"));
    }
    for rules in &s.rules {
        check_rules(rules, diags);
    }
    check_trigger_options(s, diags);
    for rules in &s.rules {
        check_options(rules, s, diags);
    }

    // Sides.
    let mut side_ids: HashMap<&str, Span> = HashMap::new();
    for side in &s.sides {
        if let Some(first) = side_ids.insert(&side.id.value, side.id.span) {
            diags.push(cat::duplicate_name("side", &side.id.value, side.id.span, first));
        }
        if let Some(edge) = &side.edge
            && !EDGES.contains(&edge.value.as_str())
        {
            diags.push(cat::unknown(
                "dotc::unknown-word",
                "table edge",
                &edge.value,
                edge.span,
                suggest(&edge.value, EDGES.iter().copied()),
            ));
        }
    }
    let sides: Vec<&str> = s.sides.iter().map(|side| side.id.value.as_str()).collect();
    let check_side = |id: &Ident, diags: &mut Vec<Diagnostic>| {
        if !sides.contains(&id.value.as_str()) {
            diags.push(cat::unknown(
                "dotc::unknown-side",
                "side",
                &id.value,
                id.span,
                suggest(&id.value, sides.iter().copied()),
            ));
        }
    };
    if let Some(first) = &s.first_side {
        check_side(first, diags);
    }

    let names = NameIndex::build(s, diags);
    let table = s.table.as_ref().filter(|t| t.value.width > 0.0 && t.value.depth > 0.0);
    let on_table = |p: &Spanned<Point>, what: &str, diags: &mut Vec<Diagnostic>| {
        let Point { x, y } = p.value;
        // A coordinate out of its range is reported by lowering.
        let readable = ranges::COORDINATE.admits(x) && ranges::COORDINATE.admits(y);
        if let Some(t) = table
            && readable
            && (!(0.0..=t.value.width).contains(&x) || !(0.0..=t.value.depth).contains(&y))
        {
            diags.push(cat::off_table(p.span, what, x, y, t.value.width, t.value.depth, t.span));
        }
    };

    // Which units and brigades arrive as reinforcements; a brigade under a blind comes on when
    // the blind is revealed (Ch13 4.0), so it too has no position at the start.
    let mut reinforced: Vec<&str> = s.reinforcements.iter().map(|r| r.name.value.as_str()).collect();
    check_blinds(s, doc, &reinforced, &on_table, diags);
    reinforced.extend(
        s.sides
            .iter()
            .flat_map(|side| &side.blinds)
            .filter_map(|b| b.brigade.as_ref())
            .map(|b| b.value.as_str()),
    );

    for side in &s.sides {
        for c in &side.commanders {
            if let Some(r) = &c.rating {
                check_id(data, EntryKind::Rating, "dotc::unknown-rating", "rating", r, diags);
            }
            if let Some(p) = &c.position {
                on_table(p, "commander", diags);
            }
        }
        for brigade in &side.brigades {
            let arrives = reinforced.contains(&brigade.name.value.as_str());
            match brigade.brigadiers.as_slice() {
                [] => diags.push(cat::no_brigadier(brigade.name.span, &brigade.name.value)),
                [_] => {}
                [first, second, ..] => diags.push(
                    cat::repeated_statement(first.span, second.span)
                        .with_help("a brigade has one brigadier; a replacement colonel is made by the rules when he falls (Ch16 2.4)"),
                ),
            }
            // A brigade's `losses` (RULE-07-2.2) and a brigadier's `wounded` (Ch16 2.4, RULINGS
            // G18) are judged by their ranges in lowering (ranges::LOSSES, ranges::WOUNDED).
            for b in &brigade.brigadiers {
                match &b.rating {
                    Some(r) => check_id(data, EntryKind::Rating, "dotc::unknown-rating", "rating", r, diags),
                    None => diags.push(
                        cat::missing_attribute(b.name.span, &b.name.value, "rating", "reliable")
                            .with_rule("Ch16 2.1"),
                    ),
                }
                match (&b.position, &b.attached) {
                    (Some(p), _) => on_table(p, "brigadier", diags),
                    (None, Some(_)) => {}
                    (None, None) if !arrives => diags.push(cat::no_position(b.name.span, &b.name.value)),
                    (None, None) => {}
                }
                // Ch16 2.4: a brigadier attaches to a regiment of his own brigade.
                if let Some(unit) = &b.attached
                    && !brigade.units.iter().any(|u| u.name.value == unit.value)
                {
                    let own = brigade.units.iter().map(|u| u.name.value.as_str());
                    diags.push(
                        cat::unknown_quoted(
                            "dotc::unknown-name",
                            "regiment of this brigade",
                            &unit.value,
                            unit.span,
                            suggest(&unit.value, own),
                        )
                        .with_rule("Ch16 2.4"),
                    );
                }
            }
            for unit in &brigade.units {
                let unit_arrives = arrives || reinforced.contains(&unit.name.value.as_str());
                check_unit(unit, s, data, doc, unit_arrives, diags);
                if let Some(p) = &unit.position {
                    on_table(p, unit.kind.word(), diags);
                }
            }
        }
        for unit in &side.units {
            let unit_arrives = reinforced.contains(&unit.name.value.as_str());
            check_unit(unit, s, data, doc, unit_arrives, diags);
            if let Some(p) = &unit.position {
                on_table(p, unit.kind.word(), diags);
            }
        }
    }

    check_terrain(s, data, &on_table, diags);
    check_garrisons(s, data, diags);
    for side in &s.sides {
        let units = side.brigades.iter().flat_map(|b| b.units.iter()).chain(side.units.iter());
        for unit in units {
            if let Some(p) = &unit.holders {
                on_table(p, "horse holders", diags);
            }
            if let Some(p) = &unit.screen {
                on_table(p, "skirmish screen", diags);
            }
        }
    }

    // Reinforcements.
    for r in &s.reinforcements {
        if let Some(side) = &r.side {
            check_side(side, diags);
        }
        on_table(&r.position, "entry point", diags);
        if let Some(f) = &r.facing {
            check_facing(f, diags);
        }
        // A reinforcement enters in a formation, and may say its state (limbered, mounted...).
        for word in r.words.iter().filter(|w| !UNIT_FLAGS.iter().any(|(f, _)| *f == w.value)) {
            if !data.contains(EntryKind::Formation, &word.value) {
                let mut candidates = data.ids(EntryKind::Formation);
                candidates.extend(UNIT_FLAGS.iter().map(|(f, _)| *f));
                diags.push(cat::unknown(
                    "dotc::unknown-formation",
                    "formation",
                    &word.value,
                    word.span,
                    suggest(&word.value, candidates),
                ));
            }
        }
        match names.get(&r.name.value) {
            None if broken.contains(&r.name.value) => {}
            None => diags.push(cat::unknown_quoted(
                "dotc::unknown-name",
                r.kind.value.as_str(),
                &r.name.value,
                r.name.span,
                names.suggest(&r.name.value),
            )),
            Some((kind, declared, side)) => {
                let wanted = r.kind.value.as_str();
                if kind.word() != wanted {
                    diags.push(
                        cat::wrong_kind(
                            r.name.span,
                            format!("\"{}\" is a {}, not a {wanted}", r.name.value, kind.word()),
                            format!("a {}", kind.word()),
                            format!("write `{}` before the name, as it is declared", kind.word()),
                        )
                        .with_label(*declared, "declared here"),
                    );
                }
                if let Some(given) = &r.side
                    && given.value != *side
                {
                    diags.push(
                        cat::wrong_kind(
                            given.span,
                            format!("\"{}\" belongs to side {side}, not {}", r.name.value, given.value),
                            format!("not {}'s", given.value),
                            format!("write `{side}` here, or leave the side out"),
                        )
                        .with_label(*declared, format!("declared under side {side}")),
                    );
                }
            }
        }
        let arrival_turn = match r.arrival.value {
            Arrival::Turn(n) => Some(n),
            Arrival::Clock(t) => {
                check_time(t, r.arrival.span, diags);
                match (&s.start, &s.turn_length) {
                    (Some(start), Some(len)) if len.value > 0 => {
                        let elapsed = t.minutes() as i64 - start.value.minutes() as i64;
                        if elapsed < 0 {
                            diags.push(cat::impossible_value(
                                r.arrival.span,
                                format!(
                                    "this reinforcement arrives at {t}, before the battle starts at {}",
                                    start.value
                                ),
                                "before the start",
                                "arrivals must come after `start`",
                            ));
                            None
                        } else {
                            Some((elapsed as u32) / len.value + 1)
                        }
                    }
                    _ => {
                        let (what, example) = if s.start.is_none() {
                            ("start", "start 10:00")
                        } else {
                            ("turn_length", "turn_length 15 min")
                        };
                        diags.push(cat::missing_statement(r.arrival.span, what, example).with_help(
                            "arrivals by clock time need the scenario's `start` and `turn_length`",
                        ));
                        None
                    }
                }
            }
        };
        if let (Some(arrives), Some(turns)) = (arrival_turn, &s.turns)
            && arrives > turns.value
        {
            diags.push(cat::late_reinforcement(r.arrival.span, arrives, turns.value, turns.span));
        }
    }

    // Victory conditions.
    let objectives: Vec<&str> = s
        .terrain
        .iter()
        .filter(|f| f.kind.value == "objective")
        .filter_map(|f| f.name.as_ref().map(|n| n.value.as_str()))
        .collect();
    for v in &s.victory {
        match &v.condition {
            Condition::Held { objective, side, .. } => {
                if !objectives.contains(&objective.value.as_str()) {
                    diags.push(cat::unknown_quoted(
                        "dotc::unknown-name",
                        "objective",
                        &objective.value,
                        objective.span,
                        suggest(&objective.value, objectives.iter().copied()),
                    ));
                }
                check_side(side, diags);
            }
            // The count is judged by its range in lowering (ranges::VP_TOTAL, ranges::BROKEN).
            Condition::VictoryPoints { side, .. } | Condition::BrigadesBroken { side, .. } => {
                check_side(side, diags);
            }
            Condition::Script(_) | Condition::Otherwise => {}
        }
        if v.winner.value == "draw" {
            if let Some(level) = &v.level {
                diags.push(cat::impossible_value(
                    level.span,
                    "a draw has no level",
                    "not needed",
                    "write `=> draw`",
                ));
            }
        } else {
            check_side(&v.winner, diags);
            match &v.level {
                Some(level) if !VICTORY_LEVELS.contains(&level.value.as_str()) => diags.push(cat::unknown(
                    "dotc::unknown-word",
                    "victory level",
                    &level.value,
                    level.span,
                    suggest(&level.value, VICTORY_LEVELS.iter().copied()),
                )),
                Some(_) => {}
                None => diags.push(cat::missing_attribute(
                    v.winner.span,
                    &v.winner.value,
                    "victory level",
                    "major",
                )),
            }
        }
    }
    names
}

/// "did you mean `x`? " before a longer help, or nothing.
fn did_you_mean(suggestion: Option<&str>) -> String {
    suggestion.map(|s| format!("did you mean `{s}`? ")).unwrap_or_default()
}

/// The levels of a result, from best to least.
pub const VICTORY_LEVELS: &[&str] = &["decisive", "major", "minor", "marginal"];

/// Feature kinds built into the language rather than the rule data.
pub const BUILTIN_FEATURES: &[&str] = &["hill", "objective"];

/// Reports a position that is off the table.
type OnTable<'a> = dyn Fn(&Spanned<Point>, &str, &mut Vec<Diagnostic>) + 'a;

fn check_terrain(s: &Scenario, data: &RuleData, on_table: &OnTable<'_>, diags: &mut Vec<Diagnostic>) {
    let mut names: HashMap<(bool, &str), Span> = HashMap::new();
    for f in &s.terrain {
        let kind = f.kind.value.as_str();
        let known = BUILTIN_FEATURES.contains(&kind)
            || data.contains(EntryKind::Terrain, kind)
            || data.contains(EntryKind::Obstacle, kind)
            || data.contains(EntryKind::Structure, kind);
        if !known {
            let mut candidates: Vec<&str> = BUILTIN_FEATURES.to_vec();
            candidates.extend(data.ids(EntryKind::Terrain));
            candidates.extend(data.ids(EntryKind::Obstacle));
            candidates.extend(data.ids(EntryKind::Structure));
            diags.push(cat::unknown(
                "dotc::unknown-terrain",
                "terrain kind",
                kind,
                f.kind.span,
                suggest(kind, candidates),
            ));
        }
        // Objectives have their own namespace: an objective may share its hill's name.
        let namespace = kind == "objective";
        if let Some(n) = &f.name
            && let Some(first) = names.insert((namespace, &n.value), n.span)
        {
            diags.push(cat::duplicate_name("terrain feature", &n.value, n.span, first));
        }
        let mut has_shape = false;
        for attr in &f.attrs {
            match attr {
                FeatureAttr::Polygon(points) | FeatureAttr::Line(points) | FeatureAttr::Crest(points) => {
                    has_shape |= !matches!(attr, FeatureAttr::Crest(_));
                    let min = if matches!(attr, FeatureAttr::Polygon(_)) { 3 } else { 2 };
                    if points.value.len() < min {
                        diags.push(cat::impossible_value(
                            points.span,
                            format!("this shape needs at least {min} positions"),
                            format!("{} given", points.value.len()),
                            "list the corners or the points of the line",
                        ));
                    }
                    for p in &points.value {
                        on_table(&Spanned::new(*p, points.span), "terrain", diags);
                    }
                }
                FeatureAttr::At(p) => {
                    has_shape = true;
                    on_table(p, "terrain", diags);
                }
                FeatureAttr::Ford(p) | FeatureAttr::Bridge(p) => on_table(p, "crossing", diags),
                // A size, level, capacity and vp are judged by their ranges in lowering
                // (ranges::SIZE, LEVEL, CAPACITY, VP).
                FeatureAttr::Size(_)
                | FeatureAttr::Level(_)
                | FeatureAttr::Capacity(_)
                | FeatureAttr::Vp(_) => {}
                // dotc's holding rule (runtime/src/script HOLD_RADIUS): only an objective has one;
                // its distance is judged by its range in lowering (ranges::WITHIN).
                FeatureAttr::Within(n) => {
                    if kind != "objective" {
                        diags.push(cat::impossible_value(
                            n.span,
                            "only an objective is held from a distance",
                            "not an objective",
                            "take `within` off, or make this an `objective`",
                        ));
                    }
                }
                FeatureAttr::Flag(word) => {
                    if !FEATURE_FLAGS.contains(&word.value.as_str()) {
                        diags.push(cat::unknown(
                            "dotc::unknown-word",
                            "terrain attribute",
                            &word.value,
                            word.span,
                            suggest(&word.value, FEATURE_FLAGS.iter().copied()),
                        ));
                    }
                }
            }
        }
        if !has_shape && known {
            diags.push(
                cat::missing_attribute(
                    f.kind.span,
                    f.name.as_ref().map_or(kind, |n| n.value.as_str()),
                    "shape",
                    "polygon (0, 0) (4, 0) (4, 4)",
                )
                .with_help("give a `polygon`, a `line` or `at (x, y)`"),
            );
        }
        if kind == "hill" && !f.attrs.iter().any(|a| matches!(a, FeatureAttr::Level(_))) {
            diags.push(
                cat::missing_attribute(
                    f.kind.span,
                    f.name.as_ref().map_or("hill", |n| n.value.as_str()),
                    "level",
                    "level 1",
                )
                .with_rule("Ch16 4.4"),
            );
        }
        if kind == "objective" && f.name.is_none() {
            diags.push(cat::missing_attribute(
                f.kind.span,
                "objective",
                "name",
                "objective \"Seminary\" at (6, 24) vp 3",
            ));
        }
    }
}

/// Flags a terrain feature may carry.
pub const FEATURE_FLAGS: &[&str] =
    &["masonry", "wooden", "sunken", "cut", "embankment", "unfinished", "impassable"];

/// Flags a unit may carry besides its quality, weapon and formation.
pub const UNIT_FLAGS: &[(&str, &[UnitKind])] = &[
    ("limbered", &[UnitKind::Battery]),
    ("unlimbered", &[UnitKind::Battery]),
    ("horse", &[UnitKind::Battery]),
    ("prolonge", &[UnitKind::Battery]),
    ("mounted", &[UnitKind::Cavalry]),
    ("dismounted", &[UnitKind::Cavalry]),
];

fn check_unit(
    unit: &Unit,
    s: &Scenario,
    data: &RuleData,
    doc: &Document,
    arrives: bool,
    diags: &mut Vec<Diagnostic>,
) {
    for (first, again) in &unit.repeated {
        diags.push(cat::repeated_statement(*first, *again));
    }
    let name = unit.name.value.as_str();
    let kind = unit.kind;

    // Strength.
    let strength_example = if kind == UnitKind::Battery { "sections 2" } else { "stands 5" };
    // A count outside its range (ranges::STANDS, MEN, SECTIONS) was reported by lowering.
    let count_ok = |n: &Spanned<f64>, range: &NumberRange| range.admits(n.value);
    let stands = match (kind, &unit.stands, &unit.men, &unit.sections) {
        (UnitKind::Battery, _, _, Some(_)) => None,
        (UnitKind::Battery, Some(stands), _, None) => {
            diags.push(
                cat::wrong_kind(
                    stands.span,
                    "a battery is counted in sections, not stands".to_string(),
                    "not for a battery".to_string(),
                    "write `sections N` (each section rolls 2 dice)".to_string(),
                )
                .with_rule("Ch16 5.3"),
            );
            None
        }
        (_, Some(stands), None, _) => {
            count_ok(stands, &ranges::STANDS).then_some((stands.value, stands.span))
        }
        (_, Some(_), Some(men), _) => {
            diags.push(cat::impossible_value(
                men.span,
                format!("\"{name}\" gives both stands and men"),
                "give one of them",
                "keep `stands N`, or `men N` converted by men_per_stand",
            ));
            None
        }
        (_, None, Some(men), _) => {
            if count_ok(men, &ranges::MEN) {
                match &s.men_per_stand {
                    Some(per) if per.value > 0 => {
                        let stands = men_to_stands(men.value, per.value);
                        if stands > ranges::STANDS.max {
                            // Men and men_per_stand each in range can still make too many stands.
                            diags.push(
                                ranges::STANDS
                                    .diagnostic(
                                        ranges::OUT_OF_RANGE,
                                        men.span,
                                        &format!("{} men at {} a stand make {stands}", men.value, per.value),
                                        "too many stands",
                                    )
                                    .with_label(per.span, "men_per_stand"),
                            );
                            None
                        } else {
                            Some((stands, men.span))
                        }
                    }
                    Some(_) => None,
                    None => {
                        diags.push(
                            cat::missing_statement(men.span, "men_per_stand", "men_per_stand 100").with_help(
                                "`men N` needs the scenario's `men_per_stand` to convert men into stands",
                            ),
                        );
                        None
                    }
                }
            } else {
                None
            }
        }
        (_, None, None, _) => {
            diags.push(cat::missing_attribute(unit.name.span, name, "strength", strength_example));
            None
        }
    };
    // Stands lost before the scenario begins (Ch16 8.1, RULE-07-2.2) are judged by their range
    // in lowering (ranges::LOST).
    // RULE-05-3.4 / Ch16 5.4: an infantry regiment at 1 stand is Shattered and removed, so it
    // cannot start the game that way (RULINGS C4).
    if kind == UnitKind::Regiment
        && let Some((stands, span)) = stands
        && stands < 2.0
    {
        diags.push(
            cat::impossible_value(
                span,
                format!("\"{name}\" would start with {stands} stand"),
                "Shattered at 1 stand",
                "an infantry regiment needs at least 2 stands",
            )
            .with_rule("Ch16 5.4, RULE-05-3.4, RULINGS C4"),
        );
    }

    // Words: quality, weapon or piece, formation, flags.
    let mut quality = None;
    let mut weapon = None;
    let mut formation = None;
    let mut seen_flags: Vec<&Ident> = Vec::new();
    // Families an unknown word probably belongs to: its own diagnostic covers the missing one.
    let mut guessed: Vec<&str> = Vec::new();
    let mut unplaced = false;
    for word in &unit.words {
        let w = word.value.as_str();
        let slot = if data.contains(EntryKind::Quality, w) {
            &mut quality
        } else if data.contains(EntryKind::Weapon, w) {
            let class = data.weapon(w).map(|weapon| weapon.class);
            let fits = match (kind, class) {
                (UnitKind::Battery, Some(c)) => c == WeaponClass::Artillery,
                (_, Some(c)) => c != WeaponClass::Artillery,
                (_, None) => true,
            };
            if !fits {
                let (is, wanted) = if kind == UnitKind::Battery {
                    (
                        "a small arm",
                        "an artillery piece (napoleon, ordnance_rifle, parrott_rifle, field_howitzer)",
                    )
                } else {
                    ("an artillery piece", "a small arm for a regiment or cavalry")
                };
                diags.push(
                    cat::wrong_kind(
                        word.span,
                        format!("`{w}` is {is}, not a weapon for a {}", kind.word()),
                        is.to_string(),
                        format!("give it {wanted}"),
                    )
                    .with_rule("Ch16 5.2, 5.3"),
                );
                guessed.push("weapon");
                continue;
            }
            &mut weapon
        } else if data.contains(EntryKind::Formation, w) {
            &mut formation
        } else if let Some((_, kinds)) = UNIT_FLAGS.iter().find(|(f, _)| *f == w) {
            if !kinds.contains(&kind) {
                diags.push(cat::wrong_kind(
                    word.span,
                    format!("`{w}` describes a {}, not a {}", kinds[0].word(), kind.word()),
                    format!("only for a {}", kinds[0].word()),
                    format!("remove `{w}`, or declare the unit as a {}", kinds[0].word()),
                ));
            }
            seen_flags.push(word);
            continue;
        } else {
            let mut candidates: Vec<&str> = Vec::new();
            candidates.extend(data.ids(EntryKind::Quality));
            candidates.extend(data.ids(EntryKind::Weapon));
            candidates.extend(data.ids(EntryKind::Formation));
            candidates.extend(UNIT_FLAGS.iter().map(|(f, _)| *f));
            let code = unknown_word_code(w, data);
            match suggest_word(w, data) {
                Some((family, near)) => {
                    guessed.push(family);
                    diags.push(cat::unknown(code, family, w, word.span, Some(near)));
                }
                None => {
                    unplaced = true;
                    diags.push(
                        cat::unknown(code, "word", w, word.span, suggest(w, candidates))
                            .with_help(unit_words_help(kind, None)),
                    );
                }
            }
            continue;
        };
        match slot {
            Some(first) => {
                let first: &Ident = first;
                diags.push(
                    cat::repeated_statement(first.span, word.span)
                        .with_help("a unit has one quality, one weapon and one formation"),
                );
            }
            None => *slot = Some(word.clone()),
        }
    }
    let covered = |family: &str| unplaced || guessed.contains(&family);
    if quality.is_none() && kind != UnitKind::Battery && !covered("quality") {
        diags.push(cat::missing_attribute(unit.name.span, name, "quality", "veteran").with_rule("Ch16 5.5"));
    }
    if weapon.is_none() && !covered("weapon") {
        let example = if kind == UnitKind::Battery { "napoleon" } else { "rifled_musket" };
        diags.push(cat::missing_attribute(
            unit.name.span,
            name,
            if kind == UnitKind::Battery { "piece" } else { "weapon" },
            example,
        ));
    }
    if formation.is_none() && kind == UnitKind::Regiment && !covered("formation") {
        diags.push(cat::missing_attribute(unit.name.span, name, "formation", "line").with_rule("Ch16 3.2"));
    }
    // Ch13 9.0: a formation only the bearer of a trait may take (the sharpshooters' skirmish
    // order), from the unit's own traits or its quality's.
    if let Some(f) = &formation
        && let Some(entry) = data.formation(&f.value)
        && let Some(needed) = entry.requires_trait.as_deref()
        && !unit.traits.iter().any(|t| t.value == needed)
        && !unit
            .words
            .iter()
            .filter_map(|w| data.quality(&w.value))
            .any(|q| q.traits.iter().any(|t| t == needed))
    {
        diags.push(
            cat::wrong_kind(
                f.span,
                format!("only a unit with the `{needed}` trait may be in {}", entry.meta.title()),
                format!("needs `traits {needed}`"),
                format!("give the unit `traits {needed}`, or another formation"),
            )
            .with_rule("Ch13 9.0"),
        );
    }
    for pair in [("limbered", "unlimbered"), ("mounted", "dismounted")] {
        let has = |w: &str| seen_flags.iter().find(|f| f.value == w);
        if let (Some(a), Some(b)) = (has(pair.0), has(pair.1)) {
            diags.push(
                cat::impossible_value(
                    b.span,
                    format!("\"{name}\" cannot be both {} and {}", pair.0, pair.1),
                    "contradicts",
                    "keep one",
                )
                .with_label(a.span, "here"),
            );
        }
    }

    // Ch16 10.2: only dismounted cavalry leaves horse holders; Ch16 3.4: only infantry
    // regiments detach a skirmish screen.
    if let Some(h) = &unit.holders
        && !(kind == UnitKind::Cavalry && seen_flags.iter().any(|f| f.value == "dismounted"))
    {
        diags.push(
            cat::wrong_kind(
                h.span,
                "only dismounted cavalry leaves horse holders".to_string(),
                "no horse holders here".to_string(),
                "remove `holders at`, or make the unit `cavalry` with `dismounted`".to_string(),
            )
            .with_rule("Ch16 10.2"),
        );
    }
    if let Some(screen) = &unit.screen
        && kind != UnitKind::Regiment
    {
        diags.push(
            cat::wrong_kind(
                screen.span,
                format!("only an infantry regiment detaches a skirmish screen, not a {}", kind.word()),
                "no screen here".to_string(),
                "remove `screen at`".to_string(),
            )
            .with_rule("Ch16 3.4"),
        );
    }
    for t in &unit.traits {
        check_id(data, EntryKind::Trait, "dotc::unknown-trait", "trait", t, diags);
        check_trait_module(unit, s, data, doc, t, diags);
    }
    for m in &unit.markers {
        check_id(data, EntryKind::Marker, "dotc::unknown-marker", "marker", m, diags);
    }
    if let Some(f) = &unit.facing {
        check_facing(f, diags);
    }
    if unit.position.is_none() && !arrives {
        diags.push(cat::no_position(unit.name.span, name));
    }
    if unit.position.is_some() && unit.facing.is_none() {
        diags.push(
            cat::missing_attribute(unit.name.span, name, "facing", "facing west").with_rule("RULE-05-1.4"),
        );
    }
}

/// A trait the scenario gives a unit counts only with its module on (Ch13 5.0 for the six
/// historical traits, dotc D8; Ch13 9.0 for the Elite Sharpshooter regiment); one its quality
/// gives anyway (RULINGS C28) counts whatever the modules. A statement that did not parse and
/// names the module may have switched it on: its syntax error is the one diagnostic.
fn check_trait_module(
    unit: &Unit,
    s: &Scenario,
    data: &RuleData,
    doc: &Document,
    t: &Ident,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(module_name) = data.army_trait(&t.value).and_then(|tr| tr.module.as_deref()) else { return };
    let on = s.rules.iter().flat_map(|r| &r.modules).any(|m| m.value == module_name)
        || doc.broken_idents.iter().any(|w| w == module_name);
    let given = unit.words.iter().filter_map(|w| data.quality(&w.value)).any(|q| q.traits.contains(&t.value));
    if !on && !given {
        let section = crate::rulings::module(module_name).unwrap_or("Ch13");
        diags.push(cat::module_off(t.span, &t.value, module_name, section));
    }
}

/// Ch13 4.0 (module hidden_deployment, dotc D27): blinds need the module; with it on, each side
/// deploys exactly two dummies and one blind for every brigade of its own that starts on the
/// table (not a reinforcement), whose units and brigadier have no position until the reveal.
fn check_blinds(
    s: &Scenario,
    doc: &Document,
    reinforced: &[&str],
    on_table: &OnTable<'_>,
    diags: &mut Vec<Diagnostic>,
) {
    let module = crate::rulings::Module::HiddenDeployment.name();
    let on = s.rules.iter().flat_map(|r| &r.modules).any(|m| m.value == module)
        || doc.broken_idents.iter().any(|w| w == module);
    let any = s.sides.iter().any(|side| !side.blinds.is_empty());
    if !on {
        for blind in s.sides.iter().flat_map(|side| &side.blinds) {
            diags.push(cat::blinds(
                blind.span,
                format!("the blind \"{}\" needs the `{module}` module, which is off", blind.name.value),
                "needs the module",
                "switch it on in the scenario's `rules` block (`module hidden_deployment`), or place the miniatures",
            ));
        }
        return;
    }
    for side in &s.sides {
        for blind in &side.blinds {
            on_table(&blind.position, "blind", diags);
        }
        let dummies = side.blinds.iter().filter(|b| b.brigade.is_none()).count();
        if any && dummies != 2 {
            diags.push(cat::blinds(
                side.id.span,
                format!("side {} deploys {dummies} dummy blinds: each side deploys exactly 2", side.id.value),
                "2 dummies a side",
                "add or remove `dummy \"D1\" at (x, y)` lines in the side's block",
            ));
        }
        let mut hidden: Vec<&str> = Vec::new();
        for blind in &side.blinds {
            let Some(brigade) = &blind.brigade else { continue };
            if !side.brigades.iter().any(|b| b.name.value == brigade.value) {
                diags.push(cat::blinds(
                    brigade.span,
                    format!(
                        "side {} has no brigade \"{}\" to hide under a blind",
                        side.id.value, brigade.value
                    ),
                    "not a brigade of this side",
                    "a blind hides a brigade of its own side: name it as its `brigade` line does",
                ));
            } else if hidden.contains(&brigade.value.as_str()) {
                diags.push(cat::blinds(
                    brigade.span,
                    format!("the brigade \"{}\" is under two blinds", brigade.value),
                    "one blind a brigade",
                    "each real brigade has one blind",
                ));
            }
            hidden.push(&brigade.value);
        }
        for brigade in &side.brigades {
            let name = brigade.name.value.as_str();
            if !hidden.contains(&name) {
                if !reinforced.contains(&name) {
                    diags.push(cat::blinds(
                        brigade.name.span,
                        format!("the brigade \"{name}\" starts on the table but no blind hides it"),
                        "needs a blind",
                        "with hidden deployment every brigade deploys under a blind: add `blind \"B1\" brigade \"...\" at (x, y)`",
                    ));
                }
                continue;
            }
            let placed = brigade.units.iter().filter_map(|u| u.position.as_ref().map(|p| (&u.name, p.span)));
            let leaders =
                brigade.brigadiers.iter().filter_map(|b| b.position.as_ref().map(|p| (&b.name, p.span)));
            for (who, span) in placed.chain(leaders) {
                diags.push(cat::blinds(
                    span,
                    format!(
                        "\"{}\" is hidden under a blind: it has no position until the blind is revealed",
                        who.value
                    ),
                    "hidden",
                    "remove its `at`: it is placed when its blind is revealed",
                ));
            }
        }
    }
}

/// Convert a muster of men into stands: rounded to the nearest stand, at least 1.
pub fn men_to_stands(men: f64, men_per_stand: u32) -> f64 {
    (men / men_per_stand as f64).round().max(1.0)
}

fn unit_words_help(kind: UnitKind, near: Option<(&'static str, &str)>) -> String {
    let base = match kind {
        UnitKind::Regiment => "a regiment takes a quality, a small arm and a formation",
        UnitKind::Cavalry => {
            "cavalry takes a quality, a small arm, mounted or dismounted, and optionally a formation"
        }
        UnitKind::Battery => "a battery takes a piece, limbered or unlimbered, and optionally horse",
    };
    match near {
        Some((family, word)) => format!("did you mean the {family} `{word}`? ({base})"),
        None => base.to_string(),
    }
}

/// The code for an unknown unit word: a weapon-like word gets `unknown-weapon`, and so on.
fn unknown_word_code(word: &str, data: &RuleData) -> &'static str {
    match suggest_word(word, data) {
        Some(("quality", _)) => "dotc::unknown-quality",
        Some(("weapon", _)) => "dotc::unknown-weapon",
        Some(("formation", _)) => "dotc::unknown-formation",
        _ => "dotc::unknown-word",
    }
}

fn suggest_word<'d>(word: &str, data: &'d RuleData) -> Option<(&'static str, &'d str)> {
    for (family, kind) in
        [("quality", EntryKind::Quality), ("weapon", EntryKind::Weapon), ("formation", EntryKind::Formation)]
    {
        if let Some(s) = suggest(word, data.ids(kind)) {
            return Some((family, s));
        }
    }
    None
}

fn check_id(
    data: &RuleData,
    kind: EntryKind,
    code: &'static str,
    what: &str,
    id: &Ident,
    diags: &mut Vec<Diagnostic>,
) {
    if !data.contains(kind, &id.value) {
        diags.push(cat::unknown(code, what, &id.value, id.span, suggest(&id.value, data.ids(kind))));
    }
}

fn check_facing(f: &Spanned<Facing>, diags: &mut Vec<Diagnostic>) {
    match &f.value {
        Facing::Degrees(d) if !(0.0..360.0).contains(d) => diags.push(cat::impossible_value(
            f.span,
            // A number too long for an f64 is infinite: say so without printing `inf`.
            if d.is_finite() {
                format!("a facing of {d} degrees is not a compass bearing")
            } else {
                "a facing of more degrees than any number holds is not a compass bearing".to_string()
            },
            "not within 0-359",
            "bearings run from 0 (north) through 90 (east) to 359",
        )),
        Facing::Word(w) if compass_bearing(w).is_none() => diags.push(cat::unknown(
            "dotc::unknown-facing",
            "facing",
            w,
            f.span,
            suggest(w, COMPASS.iter().map(|(c, _)| *c)),
        )),
        _ => {}
    }
}

fn check_date(d: &Spanned<Date>, diags: &mut Vec<Diagnostic>) {
    let Date { year, month, day } = d.value;
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => 0,
    };
    if days == 0 || day == 0 || day > days {
        diags.push(cat::impossible_value(
            d.span,
            format!("{year}-{month:02}-{day:02} is not a date"),
            "no such day",
            "that month has no such day",
        ));
    }
}

fn check_time(t: ClockTime, span: Span, diags: &mut Vec<Diagnostic>) {
    if t.hour > 23 || t.minute > 59 {
        diags.push(cat::impossible_value(
            span,
            format!("{}:{:02} is not a time of day", t.hour, t.minute),
            "no such time",
            "write times as HH:MM, 00:00 to 23:59",
        ));
    }
}

/// The option names of a scenario's optional triggers, in scenario order.
pub fn option_names(s: &Scenario) -> Vec<&str> {
    s.triggers.iter().filter_map(|t| t.option.as_ref()).map(|o| o.name.value.as_str()).collect()
}

/// Each optional trigger's `default` is on or off, and no two share an option name.
fn check_trigger_options(s: &Scenario, diags: &mut Vec<Diagnostic>) {
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for option in s.triggers.iter().filter_map(|t| t.option.as_ref()) {
        if let Some(d) = &option.default
            && crate::ast::switch_word(&d.value).is_none()
        {
            diags.push(cat::bad_switch(d.span, &d.value));
        }
        if let Some(first) = seen.insert(&option.name.value, option.name.span) {
            diags.push(cat::duplicate_option(option.name.span, &option.name.value, first));
        }
    }
}

/// `option NAME = on|off` in a scenario's or a game log's `rules` block: NAME is an optional
/// trigger of the scenario (with a "did you mean"), the value on or off, each set once.
fn check_options(rules: &RulesBlock, s: &Scenario, diags: &mut Vec<Diagnostic>) {
    let known = option_names(s);
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for o in &rules.options {
        if !known.contains(&o.name.value.as_str()) {
            let hint = suggest(&o.name.value, known.iter().copied());
            diags.push(cat::unknown_option(o.name.span, &o.name.value, hint, &known));
        } else if let Some(first) = seen.insert(&o.name.value, o.span) {
            diags.push(cat::repeated_statement(first, o.span));
        }
        if o.on().is_none() {
            diags.push(cat::bad_switch(o.value.span, &o.value.value));
        }
    }
}

fn check_rules(rules: &RulesBlock, diags: &mut Vec<Diagnostic>) {
    for m in &rules.modules {
        if module(&m.value).is_none() {
            diags.push(cat::unknown(
                "dotc::unknown-module",
                "module",
                &m.value,
                m.span,
                suggest(&m.value, Module::ALL.iter().map(|m| m.name())),
            ));
        }
    }
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for r in &rules.rulings {
        match ruling(&r.name.value) {
            None => diags.push(cat::unknown(
                "dotc::unknown-ruling",
                "ruling",
                &r.name.value,
                r.name.span,
                suggest(&r.name.value, RULINGS.iter().map(|r| r.name)),
            )),
            Some(spec) => {
                if !spec.values.contains(&r.value.value.as_str()) {
                    diags.push(
                        cat::unknown(
                            "dotc::unknown-ruling",
                            "value",
                            &r.value.value,
                            r.value.span,
                            suggest(&r.value.value, spec.values.iter().copied()),
                        )
                        .with_help(format!(
                            "{}`{}` ({}) takes one of: {}",
                            did_you_mean(suggest(&r.value.value, spec.values.iter().copied())),
                            spec.name,
                            spec.citation(),
                            spec.values.join(", ")
                        )),
                    );
                }
                if let Some(first) = seen.insert(spec.name, r.span) {
                    diags.push(cat::repeated_statement(first, r.span));
                }
            }
        }
    }
    for p in &rules.presets {
        if !PRESETS.iter().any(|(n, _)| *n == p.value) {
            diags.push(cat::unknown(
                "dotc::unknown-ruling",
                "preset",
                &p.value,
                p.span,
                suggest(&p.value, PRESETS.iter().map(|(n, _)| *n)),
            ));
        }
    }
    for w in &rules.weather {
        match WEATHER.iter().find(|(aspect, _)| *aspect == w.aspect.value) {
            None => diags.push(cat::unknown(
                "dotc::unknown-word",
                "weather aspect",
                &w.aspect.value,
                w.aspect.span,
                suggest(&w.aspect.value, WEATHER.iter().map(|(a, _)| *a)),
            )),
            Some((aspect, conditions)) => {
                if !conditions.contains(&w.condition.value.as_str()) {
                    diags.push(
                        cat::unknown(
                            "dotc::unknown-word",
                            "weather condition",
                            &w.condition.value,
                            w.condition.span,
                            suggest(&w.condition.value, conditions.iter().copied()),
                        )
                        .with_help(format!(
                            "{}`{aspect}` takes one of: {}",
                            did_you_mean(suggest(&w.condition.value, conditions.iter().copied())),
                            conditions.join(", ")
                        )),
                    );
                }
            }
        }
    }
}

/// A game log's scenario as the log's checks see it: the scenario, its declared names and the
/// names of units whose declaration did not parse.
pub type GameScenario<'s> = (&'s Scenario, &'s NameIndex, &'s [String]);

/// Check a game log against its scenario (when it could be loaded): its header, then its turns
/// one by one through a [`TurnChecker`].
pub fn check_game(doc: &Document, scenario: Option<GameScenario<'_>>, diags: &mut Vec<Diagnostic>) {
    let scenario = check_game_header(doc, scenario, diags);
    let mut turns = TurnChecker::new(scenario).with_bids(doc);
    for turn in &doc.turns {
        turns.check(turn);
    }
    diags.extend(turns.finish(&doc.broken_words));
}

/// Check a game log's header: its statements, its rules and options, its players' sides. A log
/// without a header is told so at its first turn, the first of `doc.turns` (a log read in
/// stretches passes its head, which holds it). Returns the scenario the turns are checked
/// against: none without a header.
pub fn check_game_header<'s>(
    doc: &Document,
    scenario: Option<GameScenario<'s>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<GameScenario<'s>> {
    let Some(game) = &doc.game else {
        if let Some(turn) = doc.turns.first() {
            diags.push(cat::missing_statement(
                Span::new(turn.span.start, turn.span.start),
                "game",
                "game \"Club night\" { scenario \"battle.dotc\" }",
            ));
        }
        return None;
    };
    if game.scenario.is_none() {
        diags.push(cat::missing_statement(game.name.span, "scenario", "scenario \"battle.dotc\""));
    }
    if let Some(d) = &game.played {
        check_date(d, diags);
    }
    for rules in &game.rules {
        check_rules(rules, diags);
    }
    if let Some((s, _, _)) = scenario {
        for rules in &game.rules {
            check_options(rules, s, diags);
        }
        check_players(game, s, diags);
    }
    scenario
}

/// Each player's side is one of the scenario's, and no side has two players.
fn check_players(game: &GameHeader, s: &Scenario, diags: &mut Vec<Diagnostic>) {
    let sides: Vec<&str> = s.sides.iter().map(|side| side.id.value.as_str()).collect();
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for p in &game.players {
        if !sides.contains(&p.side.value.as_str()) {
            diags.push(cat::unknown(
                "dotc::unknown-side",
                "side",
                &p.side.value,
                p.side.span,
                suggest(&p.side.value, sides.iter().copied()),
            ));
        }
        if let Some(first) = seen.insert(&p.side.value, p.span) {
            diags.push(cat::repeated_statement(first, p.span));
        }
    }
}

/// The checks of a game log's turns, fed one turn at a time in the log's order.
///
/// A turn's checks look at the turn and at what this keeps of the turn before it (its number and
/// side), so `dotc check` can read a long log a stretch of turns at a time and drop each
/// stretch's turns once they are checked (issue 16: the whole syntax tree of a long log was most
/// of `check`'s peak memory). [`check_game`] feeds it every turn of a whole document: one checker
/// serves both paths, so they cannot drift apart.
///
/// One rule needs the whole file: numbering and alternation are judged only when no turn header
/// anywhere failed to parse (a turn missing from the list would make its neighbours look out of
/// order). Those diagnostics are made as if every header had parsed and their places are kept;
/// [`TurnChecker::finish`], given every broken statement of the file, drops them if a turn
/// header is among them.
pub struct TurnChecker<'s> {
    scenario: Option<GameScenario<'s>>,
    sides: Vec<&'s str>,
    first_side: Option<&'s str>,
    last_turn: Option<&'s Spanned<u32>>,
    previous: Option<PreviousTurn>,
    diags: Vec<Diagnostic>,
    /// Where the numbering and alternation diagnostics are in `diags`, in increasing order.
    by_order: Vec<usize>,
}

/// Whether the order of a game log's turns can be judged, given the words of every statement of
/// the file that did not parse: not when a turn header is among them.
pub fn turn_order_known(broken_words: &[String]) -> bool {
    !broken_words.iter().any(|w| w == "turn")
}

/// What the checks of a turn need of the turn before it.
struct PreviousTurn {
    number: Spanned<u32>,
    side: String,
}

impl<'s> TurnChecker<'s> {
    /// A checker of turns against `scenario` (none: the turns' sides and last turn are not
    /// judged), before the first turn.
    pub fn new(scenario: Option<GameScenario<'s>>) -> Self {
        let sides = scenario
            .map(|(s, _, _)| s.sides.iter().map(|side| side.id.value.as_str()).collect())
            .unwrap_or_default();
        TurnChecker {
            scenario,
            sides,
            first_side: scenario.and_then(|(s, _, _)| s.first_side.as_ref()).map(|f| f.value.as_str()),
            last_turn: scenario.and_then(|(s, _, _)| s.turns.as_ref()),
            previous: None,
            diags: Vec::new(),
            by_order: Vec::new(),
        }
    }

    /// With pre-game command bidding on and bids written (Ch13 1.0), the first turn is the
    /// Initiative winner's, which the rules core computes and the replay checks: the scenario's
    /// `first_side` is then not required of turn 1 here.
    pub fn with_bids(mut self, doc: &Document) -> Self {
        let Some(game) = &doc.game else { return self };
        let module_on = self
            .scenario
            .iter()
            .flat_map(|(s, _, _)| s.rules.iter())
            .chain(game.rules.iter())
            .flat_map(|b| b.modules.iter())
            .any(|m| m.value == crate::rulings::Module::CommandBidding.name());
        if module_on && game.bids.iter().any(|b| !b.bids.is_empty()) {
            self.first_side = None;
        }
        self
    }

    /// Check the next turn of the log.
    pub fn check(&mut self, turn: &Turn) {
        let numbered_right = self.check_number(turn);
        if self.scenario.is_some() {
            self.check_side(turn, numbered_right);
            self.check_last_turn(turn);
        }
        self.check_phases(turn);
        self.previous = Some(PreviousTurn { number: turn.number.clone(), side: turn.side.value.clone() });
    }

    /// The diagnostics of every turn checked, in the order they were made, given the words of
    /// every statement of the file that did not parse (`Document::broken_words`).
    pub fn finish(self, broken_words: &[String]) -> Vec<Diagnostic> {
        let mut diags = self.diags;
        if !turn_order_known(broken_words) && !self.by_order.is_empty() {
            let mut marked = self.by_order.iter().copied().peekable();
            let mut at = 0;
            diags.retain(|_| {
                let by_order = marked.next_if_eq(&at).is_some();
                at += 1;
                !by_order
            });
        }
        diags
    }

    /// A diagnostic that holds only when the order of the turns is known.
    fn push_by_order(&mut self, d: Diagnostic) {
        self.by_order.push(self.diags.len());
        self.diags.push(d);
    }

    /// Turns are numbered 1, 2, 3...: whether this one is.
    fn check_number(&mut self, turn: &Turn) -> bool {
        let n = turn.number.value;
        let expected = self.previous.as_ref().map_or(1, |p| p.number.value.saturating_add(1));
        if n == expected {
            return true;
        }
        let mut d = cat::turn_order(
            turn.number.span,
            format!("turn {n} comes where turn {expected} should"),
            format!("expected turn {expected}"),
            "number turns 1, 2, 3... in the order they were played".to_string(),
        );
        if let Some(p) = &self.previous {
            d = d.with_label(p.number.span, "previous turn");
        }
        self.push_by_order(d);
        false
    }

    /// The turn's side is one of the scenario's, and (two sides, the turn numbered right) the
    /// sides alternate.
    fn check_side(&mut self, turn: &Turn, numbered_right: bool) {
        let side = turn.side.value.as_str();
        if !self.sides.contains(&side) {
            self.diags.push(cat::unknown(
                "dotc::unknown-side",
                "side",
                side,
                turn.side.span,
                suggest(side, self.sides.iter().copied()),
            ));
            return;
        }
        if self.sides.len() != 2 || !numbered_right {
            return;
        }
        // RULINGS G7: a game turn is one side's active sequence; sides alternate.
        let expected_side = match &self.previous {
            Some(p) => self.sides.iter().find(|s| **s != p.side).copied(),
            None => self.first_side,
        };
        if let Some(expected_side) = expected_side
            && expected_side != side
        {
            let n = turn.number.value;
            self.push_by_order(cat::turn_order(
                turn.side.span,
                format!("turn {n} should be {expected_side}'s"),
                format!("expected {expected_side}"),
                "sides alternate, starting with the scenario's `first_side`".to_string(),
            ));
        }
    }

    /// No turn after the scenario's last.
    fn check_last_turn(&mut self, turn: &Turn) {
        let n = turn.number.value;
        if let Some(last) = self.last_turn
            && n > last.value
        {
            self.diags.push(cat::turn_order(
                turn.number.span,
                format!("turn {n} is after the scenario's last turn ({})", last.value),
                "too late".to_string(),
                format!("the scenario sets `turns {}`; a log cannot go past it", last.value),
            ));
        }
    }

    /// The phases come in their order, and each action is checked.
    fn check_phases(&mut self, turn: &Turn) {
        let mut last_phase: Option<&Phase> = None;
        let phases = turn.phases();
        for phase in phases.iter() {
            if let Some(prev) = last_phase
                && phase.kind.value <= prev.kind.value
            {
                self.diags.push(cat::phase_order(
                    phase.kind.span,
                    phase.kind.value.word(),
                    prev.kind.value.word(),
                    prev.kind.span,
                ));
            }
            last_phase = Some(phase);
            for action in &phase.actions {
                check_action(action, phase.kind.value, false, self.scenario, &mut self.diags);
            }
        }
    }
}

fn check_action(
    action: &Action,
    phase: PhaseKind,
    in_steps: bool,
    scenario: Option<(&Scenario, &NameIndex, &[String])>,
    diags: &mut Vec<Diagnostic>,
) {
    for allow in &action.allows {
        if crate::catalogue::explain(&allow.code.value).is_none() {
            // A warning, not an error: a suppression of a code we do not know changes nothing.
            let mut d = cat::unknown(
                "dotc::unknown-name",
                "diagnostic code",
                &allow.code.value,
                allow.code.span,
                // Compare without the common `dotc::` prefix, which makes every code look alike.
                suggest(
                    allow.code.value.trim_start_matches("dotc::"),
                    cat::CODES.iter().map(|(c, _)| c.trim_start_matches("dotc::")),
                )
                .and_then(|short| cat::CODES.iter().map(|(c, _)| *c).find(|c| c.ends_with(short))),
            );
            d.severity = crate::diagnostic::Severity::Warning;
            diags.push(d);
        }
        if allow.reason.value.trim().is_empty() {
            diags.push(cat::impossible_value(
                allow.reason.span,
                "a suppression needs its reason",
                "empty reason",
                "say why the umpire allowed it",
            ));
        }
    }
    let verb = action.verb.value.as_str();
    let spec = if in_steps {
        VERBS.iter().find(|v| v.verb == verb && v.step).or_else(|| verb_spec(verb))
    } else {
        verb_spec(verb).filter(|v| !v.step)
    };
    let Some(spec) = spec else {
        let candidates = VERBS.iter().filter(|v| v.step == in_steps).map(|v| v.verb);
        diags.push(cat::unknown(
            "dotc::unknown-action",
            "action",
            verb,
            action.verb.span,
            suggest(verb, candidates),
        ));
        return;
    };
    if !in_steps && !spec.phases.contains(&phase) {
        let phases: Vec<&str> = spec.phases.iter().map(|p| p.word()).collect();
        diags.push(
            cat::bad_action(
                action.verb.span,
                format!("`{verb}` cannot happen in the {} phase", phase.word()),
                "wrong phase",
                format!("`{verb}` belongs in: {}", phases.join(", ")),
            )
            .with_rule(spec.rule),
        );
    }
    let subject = action.args.iter().find_map(|a| if let Arg::Unit(n) = a { Some(n) } else { None });
    if spec.subject && subject.is_none() {
        diags.push(cat::bad_action(
            action.verb.span,
            format!("`{verb}` needs the name of the unit or leader that acts"),
            "who?",
            format!("write `{verb} \"Name\" ...`"),
        ));
    }
    if spec.target && !action.args.iter().any(|a| matches!(a, Arg::At(_) | Arg::Against(_))) {
        diags.push(cat::bad_action(
            action.verb.span,
            format!("`{verb}` needs a target"),
            "at whom?",
            format!("write `{verb} \"Unit\" at \"Enemy\"` or `-> \"Enemy\"`"),
        ));
    }
    for (i, arg) in action.args.iter().enumerate() {
        // Ch16 4.3: `garrison "Unit" in "Building"` names a building after `in`, which the
        // replay looks up among the scenario's buildings.
        let names_a_building =
            verb == "garrison" && i > 0 && matches!(&action.args[i - 1], Arg::Word(w) if w.value == "in");
        match arg {
            Arg::Unit(n) | Arg::At(n) | Arg::Against(n) | Arg::Pip(n)
                if verb != "note" && verb != "scripted" && !names_a_building =>
            {
                if let Some((_, names, broken)) = scenario
                    && names.get(&n.value).is_none()
                    && !broken.contains(&n.value)
                {
                    diags.push(
                        cat::unknown_quoted(
                            "dotc::unknown-unit",
                            "unit or leader",
                            &n.value,
                            n.span,
                            names.suggest(&n.value),
                        )
                        .with_note_if_no_help("the scenario does not declare it; names must match exactly"),
                    );
                }
            }
            // Dice faces are judged by their range (ranges::DIE) in lowering; a list's label
            // must be one the replay knows, or its dice would serve the wrong roll.
            Arg::Roll(roll) => {
                if let Some(label) = &roll.label
                    && !crate::keywords::DICE_LABELS.contains(&label.value.as_str())
                {
                    diags.push(
                        cat::unknown(
                            "dotc::unknown-name",
                            "dice label",
                            &label.value,
                            label.span,
                            suggest(&label.value, crate::keywords::DICE_LABELS.iter().copied()),
                        )
                        .with_note_if_no_help(format!(
                            "label a list of dice with one of: {}",
                            crate::keywords::DICE_LABELS.join(", ")
                        )),
                    );
                }
            }
            Arg::Facing(f) => check_facing(f, diags),
            _ => {}
        }
    }
    for step in &action.steps {
        check_action(step, phase, true, scenario, diags);
    }
}

/// The stands a unit starts with, from `stands`, `sections` or `men` / `men_per_stand`.
pub fn starting_stands(unit: &Unit, men_per_stand: Option<u32>) -> Option<f64> {
    match (&unit.stands, &unit.sections, &unit.men, men_per_stand) {
        (Some(s), _, _, _) => Some(s.value),
        (None, Some(s), _, _) => Some(s.value),
        (None, None, Some(m), Some(per)) if per > 0 => Some(men_to_stands(m.value, per)),
        _ => None,
    }
}

/// Ch16 4.3: a garrison names a building of the scenario, and a building holds at most its
/// `capacity` stands (2 for masonry by the rules).
fn check_garrisons(s: &Scenario, data: &RuleData, diags: &mut Vec<Diagnostic>) {
    let buildings: Vec<&Feature> =
        s.terrain.iter().filter(|f| data.contains(EntryKind::Structure, &f.kind.value)).collect();
    let per = s.men_per_stand.as_ref().map(|m| m.value);
    let mut inside: Vec<(&Feature, f64, Vec<&Unit>)> = Vec::new();
    let units = s
        .sides
        .iter()
        .flat_map(|side| side.brigades.iter().flat_map(|b| b.units.iter()).chain(side.units.iter()));
    for unit in units {
        let Some(garrison) = &unit.garrison else { continue };
        let Some(building) =
            buildings.iter().find(|b| b.name.as_ref().is_some_and(|n| n.value == garrison.value))
        else {
            let names = buildings.iter().filter_map(|b| b.name.as_ref().map(|n| n.value.as_str()));
            diags.push(cat::unknown_quoted(
                "dotc::unknown-name",
                "building",
                &garrison.value,
                garrison.span,
                suggest(&garrison.value, names),
            ));
            continue;
        };
        if unit.kind == UnitKind::Battery {
            diags.push(
                cat::wrong_kind(
                    garrison.span,
                    "a battery cannot garrison a building".to_string(),
                    "infantry or dismounted cavalry only".to_string(),
                    "place the battery outside with `at (x, y)`".to_string(),
                )
                .with_rule("Ch16 4.3"),
            );
        }
        let stands = starting_stands(unit, per).unwrap_or(0.0);
        match inside.iter_mut().find(|(b, _, _)| std::ptr::eq(*b, *building)) {
            Some((_, total, units)) => {
                *total += stands;
                units.push(unit);
            }
            None => inside.push((building, stands, vec![unit])),
        }
    }
    for (building, total, units) in inside {
        let capacity = building.attrs.iter().find_map(|a| match a {
            FeatureAttr::Capacity(c) if ranges::CAPACITY.admits(c.value) => Some(c.value),
            _ => None,
        });
        let capacity =
            capacity.or_else(|| data.structure(&building.kind.value).map(|s| f64::from(s.capacity)));
        if let Some(capacity) = capacity
            && total > capacity
            && let Some(last) = units.last()
            && let Some(garrison) = &last.garrison
        {
            let name = building.name.as_ref().map_or("the building", |n| n.value.as_str());
            diags.push(
                cat::impossible_value(
                    garrison.span,
                    format!("{total} stands garrison \"{name}\", which holds {capacity}"),
                    "over capacity",
                    "move a unit out, or split the garrison between buildings",
                )
                .with_label(building.span, format!("holds {capacity} stands"))
                .with_rule("Ch16 4.3"),
            );
        }
    }
}

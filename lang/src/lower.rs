//! Lowering: pest pairs to the typed [`crate::ast`], one function per construct.
//!
//! Lowering never fails. An `invalid` pair (a statement the lenient grammar skipped) is
//! re-parsed by [`parser::explain_invalid`] with the strict rule of its context, which gives the
//! diagnostic; the statement is then left out and lowering goes on.

use pest::iterators::{Pair, Pairs};

use crate::ast::*;
use crate::catalogue;
use crate::diagnostic::Diagnostic;
use crate::parser::{self, Rule};
use crate::ranges::{self, NumberRange, parse_decimal};

/// Lower a parsed file.
pub fn lower_file(pairs: Pairs<'_, Rule>, diags: &mut Vec<Diagnostic>) -> Document {
    let mut lower = Lower { diags, document: Document::default() };
    for file in pairs {
        for item in file.into_inner() {
            lower.top_item(item);
        }
    }
    lower.document
}

struct Lower<'d> {
    diags: &'d mut Vec<Diagnostic>,
    document: Document,
}

fn span(pair: &Pair<'_, Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

fn ident(pair: Pair<'_, Rule>) -> Ident {
    Spanned::new(pair.as_str().to_string(), span(&pair))
}

/// A quoted string with `\"`, `\\`, `\n` and `\t` escapes resolved.
fn name(pair: Pair<'_, Rule>) -> Name {
    let sp = span(&pair);
    let raw = pair.as_str();
    let inner = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')).unwrap_or(raw);
    let mut text = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => text.push('\n'),
                Some('t') => text.push('\t'),
                Some(other) => text.push(other),
                None => {}
            }
        } else {
            text.push(c);
        }
    }
    Spanned::new(text, sp)
}

/// A number as written; a facing's degrees, whose range `check` judges (`check_facing`). One
/// too long for an `f64` is infinite, which no check admits.
fn number(pair: &Pair<'_, Rule>) -> f64 {
    parse_decimal(pair.as_str()).unwrap_or(f64::INFINITY)
}

/// A number of `range`, read from its text ([`NumberRange::read`]); one outside the range is
/// reported here and kept as written (possibly infinite): the checks pass over a value their
/// range does not admit, so it is reported once.
fn ranged(pair: &Pair<'_, Rule>, range: &NumberRange, diags: &mut Vec<Diagnostic>) -> Spanned<f64> {
    let sp = span(pair);
    let value = match range.read(pair.as_str(), sp) {
        Ok(value) => value,
        Err(d) => {
            diags.push(*d);
            number(pair)
        }
    };
    Spanned::new(value, sp)
}

/// A number of `range`, or None (reported) when it is outside.
fn ranged_ok(
    pair: &Pair<'_, Rule>,
    range: &NumberRange,
    diags: &mut Vec<Diagnostic>,
) -> Option<Spanned<f64>> {
    let value = ranged(pair, range, diags);
    range.admits(value.value).then_some(value)
}

/// A whole number of `range` as a `u32` (every range of one fits), or None (reported).
fn ranged_u32(
    pair: &Pair<'_, Rule>,
    range: &NumberRange,
    diags: &mut Vec<Diagnostic>,
) -> Option<Spanned<u32>> {
    ranged_ok(pair, range, diags).map(|n| Spanned::new(n.value as u32, n.span))
}

fn point(pair: Pair<'_, Rule>, diags: &mut Vec<Diagnostic>) -> Spanned<Point> {
    let sp = span(&pair);
    let mut coords = pair.into_inner().map(|c| ranged(&c, &ranges::COORDINATE, diags).value);
    let x = coords.next().unwrap_or(0.0);
    let y = coords.next().unwrap_or(0.0);
    Spanned::new(Point { x, y }, sp)
}

fn points(pair: Pair<'_, Rule>, diags: &mut Vec<Diagnostic>) -> Spanned<Vec<Point>> {
    let sp = span(&pair);
    Spanned::new(pair.into_inner().map(|p| point(p, diags).value).collect(), sp)
}

fn facing(pair: Pair<'_, Rule>) -> Spanned<Facing> {
    let sp = span(&pair);
    let inner = pair.into_inner().next();
    let value = match inner {
        Some(p) if p.as_rule() == Rule::number => Facing::Degrees(number(&p)),
        Some(p) => Facing::Word(p.as_str().to_string()),
        None => Facing::Word(String::new()),
    };
    Spanned::new(value, sp)
}

/// Dice faces, each a d6 ([`ranges::DIE`]); a face outside 1-6 is reported here and kept
/// (saturated to an `i64`, the report says what was written).
fn dice(pair: Pair<'_, Rule>, diags: &mut Vec<Diagnostic>) -> Spanned<Vec<Spanned<i64>>> {
    let sp = span(&pair);
    let faces = pair
        .into_inner()
        .map(|d| {
            let face = ranged(&d, &ranges::DIE, diags);
            Spanned::new(face.value as i64, face.span)
        })
        .collect();
    Spanned::new(faces, sp)
}

fn date(pair: Pair<'_, Rule>) -> Spanned<Date> {
    let sp = span(&pair);
    let mut parts = pair.as_str().split('-').map(|p| p.parse().unwrap_or(0));
    let date = Date {
        year: parts.next().unwrap_or(0),
        month: parts.next().unwrap_or(0),
        day: parts.next().unwrap_or(0),
    };
    Spanned::new(date, sp)
}

fn time(pair: Pair<'_, Rule>) -> Spanned<ClockTime> {
    let sp = span(&pair);
    let (h, m) = pair.as_str().split_once(':').unwrap_or(("0", "0"));
    Spanned::new(ClockTime { hour: h.parse().unwrap_or(0), minute: m.parse().unwrap_or(0) }, sp)
}

fn script_block(pair: Pair<'_, Rule>) -> Script {
    let sp = span(&pair);
    let mut language = None;
    let mut code = String::new();
    let mut code_span = Span::new(sp.start + 3, sp.start + 3);
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::script_lang => language = Some(part.as_str().to_string()),
            Rule::script_body | Rule::script_expr_body => {
                code = part.as_str().to_string();
                code_span = span(&part);
            }
            _ => {}
        }
    }
    Script { span: sp, language, code, code_span }
}

fn text(pair: Pair<'_, Rule>) -> Spanned<String> {
    let sp = span(&pair);
    let value = match pair.as_rule() {
        Rule::text_block => {
            let raw = pair.as_str();
            raw.get(3..raw.len().saturating_sub(3)).unwrap_or("").to_string()
        }
        _ => name(pair).value,
    };
    Spanned::new(value, sp)
}

/// Remember a value, or report that it was already given.
fn set_once<T>(slot: &mut Option<Spanned<T>>, value: Spanned<T>, repeated: &mut Vec<(Span, Span)>) {
    match slot {
        Some(first) => repeated.push((first.span, value.span)),
        None => *slot = Some(value),
    }
}

impl Lower<'_> {
    fn invalid(&mut self, pair: Pair<'_, Rule>, strict: Rule) {
        let sp = span(&pair);
        let text = pair.as_str();
        // Its leading words: the keyword, or the keyword after a stray prefix (`@@ start`).
        let words = text.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty());
        self.document.broken_words.extend(words.take(2).map(str::to_string));
        // Keep every name and word the lost statement mentions, so that later references to
        // what it declared (a unit, a library entry) are covered by this one diagnostic.
        let mut rest = text;
        while let Some(open) = rest.find('"') {
            let after = &rest[open + 1..];
            let Some(close) = after.find(['"', '\n']) else { break };
            self.document.broken_names.push(after[..close].to_string());
            rest = &after[(close + 1).min(after.len())..];
        }
        let idents = text.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty());
        self.document.broken_idents.extend(idents.map(str::to_string));
        let ends_file = pair.as_span().end() == pair.as_span().get_input().len();
        self.diags.push(parser::explain_invalid(strict, text, sp.start, ends_file));
    }

    /// A statement whose number was out of range (already reported) is left out like one that
    /// did not parse, so that no check calls it missing.
    fn out_of_range(&mut self, keyword: &str) {
        self.document.broken_words.push(keyword.to_string());
    }

    fn top_item(&mut self, pair: Pair<'_, Rule>) {
        let kind = match pair.as_rule() {
            Rule::scenario => {
                let scenario = self.scenario(pair);
                if self.document.scenario.is_some() {
                    self.diags.push(catalogue::second_scenario(scenario.span));
                } else {
                    self.document.scenario = Some(scenario);
                }
                FileKind::Scenario
            }
            Rule::library => {
                let library = self.library(pair);
                self.document.libraries.push(library);
                FileKind::Library
            }
            Rule::game => {
                let game = self.game(pair);
                if self.document.game.is_some() {
                    self.diags.push(catalogue::second_game_header(game.span));
                } else {
                    self.document.game = Some(game);
                }
                FileKind::Game
            }
            Rule::turn => {
                let turn = self.turn(pair);
                self.document.turns.push(turn);
                FileKind::Game
            }
            Rule::campaign => {
                let campaign = self.campaign(pair);
                if self.document.campaign.is_some() {
                    self.diags.push(catalogue::second_campaign(campaign.span));
                } else {
                    self.document.campaign = Some(campaign);
                }
                FileKind::Campaign
            }
            Rule::invalid_top => {
                self.invalid(pair, Rule::top_line);
                return;
            }
            _ => return,
        };
        match self.document.kind {
            None => self.document.kind = Some(kind),
            Some(first) if first != kind => {
                self.diags.push(catalogue::mixed_file_kinds(self.last_top_span(kind), first, kind));
            }
            Some(_) => {}
        }
    }

    fn last_top_span(&self, kind: FileKind) -> Span {
        match kind {
            FileKind::Scenario => self.document.scenario.as_ref().map(|s| s.span),
            FileKind::Library => self.document.libraries.last().map(|l| l.span),
            FileKind::Campaign => self.document.campaign.as_ref().map(|c| c.span),
            FileKind::Game => {
                self.document.turns.last().map(|t| t.span).or(self.document.game.as_ref().map(|g| g.span))
            }
        }
        .unwrap_or_default()
    }

    // ------------------------------------------------------------ scenario

    fn scenario(&mut self, pair: Pair<'_, Rule>) -> Scenario {
        let mut s = Scenario { span: span(&pair), ..Scenario::default() };
        let mut inner = pair.into_inner();
        if let Some(n) = inner.next() {
            s.name = name(n);
        }
        for item in inner {
            let item_span = span(&item);
            match item.as_rule() {
                Rule::date_stmt => {
                    if let Some(d) = item.into_inner().next() {
                        set_once(&mut s.date, date(d), &mut s.repeated);
                    }
                }
                Rule::start_stmt => {
                    if let Some(t) = item.into_inner().next() {
                        set_once(&mut s.start, time(t), &mut s.repeated);
                    }
                }
                Rule::turn_length_stmt => {
                    if let Some(d) = item.into_inner().next() {
                        match duration_minutes(d, self.diags) {
                            Some(minutes) => set_once(
                                &mut s.turn_length,
                                Spanned::new(minutes, item_span),
                                &mut s.repeated,
                            ),
                            None => self.out_of_range("turn_length"),
                        }
                    }
                }
                Rule::turns_stmt => {
                    if let Some(n) = item.into_inner().next() {
                        match ranged_u32(&n, &ranges::TURNS, self.diags) {
                            Some(turns) => set_once(&mut s.turns, turns, &mut s.repeated),
                            None => self.out_of_range("turns"),
                        }
                    }
                }
                Rule::first_side_stmt => {
                    if let Some(n) = item.into_inner().next() {
                        let id = ident(n);
                        match &s.first_side {
                            Some(first) => s.repeated.push((first.span, id.span)),
                            None => s.first_side = Some(id),
                        }
                    }
                }
                Rule::table_stmt => {
                    let mut nums = item.into_inner();
                    let width = nums.next().map(|n| ranged_ok(&n, &ranges::TABLE_WIDTH, self.diags));
                    let depth = nums.next().map(|n| ranged_ok(&n, &ranges::TABLE_DEPTH, self.diags));
                    match (width, depth) {
                        (Some(Some(width)), Some(Some(depth))) => set_once(
                            &mut s.table,
                            Spanned::new(TableSize { width: width.value, depth: depth.value }, item_span),
                            &mut s.repeated,
                        ),
                        _ => self.out_of_range("table"),
                    }
                }
                Rule::men_per_stand_stmt => {
                    if let Some(n) = item.into_inner().next() {
                        match ranged_u32(&n, &ranges::MEN_PER_STAND, self.diags) {
                            Some(per) => set_once(&mut s.men_per_stand, per, &mut s.repeated),
                            None => self.out_of_range("men_per_stand"),
                        }
                    }
                }
                Rule::notes_stmt => {
                    if let Some(t) = item.into_inner().next() {
                        s.notes.push(text(t));
                    }
                }
                Rule::rules_block => s.rules.push(self.rules_block(item)),
                Rule::terrain_block => {
                    for feature in item.into_inner() {
                        match feature.as_rule() {
                            Rule::feature => s.terrain.push(self.feature(feature)),
                            Rule::invalid => self.invalid(feature, Rule::terrain_line),
                            _ => {}
                        }
                    }
                }
                Rule::side => s.sides.push(self.side(item)),
                Rule::reinforcements => {
                    for r in item.into_inner() {
                        match r.as_rule() {
                            Rule::reinforcement => s.reinforcements.push(self.reinforcement(r)),
                            Rule::invalid => self.invalid(r, Rule::reinforcement_line),
                            _ => {}
                        }
                    }
                }
                Rule::victory => {
                    for v in item.into_inner() {
                        match v.as_rule() {
                            Rule::victory_cond => s.victory.push(self.victory_cond(v)),
                            Rule::invalid => self.invalid(v, Rule::victory_line),
                            _ => {}
                        }
                    }
                }
                Rule::library => s.libraries.push(self.library(item)),
                Rule::script_stmt => {
                    if let Some(b) = item.into_inner().next() {
                        let mut script = script_block(b);
                        script.span = item_span;
                        s.scripts.push(script);
                    }
                }
                Rule::script_limits_stmt => {
                    for pair in item.into_inner() {
                        let setting = self.script_limit(pair);
                        s.script_limits.push(setting);
                    }
                }
                Rule::trigger => {
                    let mut parts = item.into_inner();
                    let trigger_name = parts.next().map(name).unwrap_or_default();
                    let mut option = None;
                    if parts.peek().is_some_and(|p| p.as_rule() == Rule::trigger_option) {
                        option = parts.next().map(|o| {
                            let osp = span(&o);
                            let mut words = o.into_inner();
                            let name = words.next().map(ident).unwrap_or_default();
                            TriggerOption { span: osp, name, default: words.next().map(ident) }
                        });
                    }
                    let condition = parts.next().map(script_block);
                    let body = parts.next().map(script_block);
                    if let (Some(condition), Some(body)) = (condition, body) {
                        s.triggers.push(Trigger {
                            span: item_span,
                            name: trigger_name,
                            option,
                            condition,
                            body,
                        });
                    }
                }
                Rule::invalid => self.invalid(item, Rule::scenario_line),
                _ => {}
            }
        }
        s
    }

    fn rules_block(&mut self, pair: Pair<'_, Rule>) -> RulesBlock {
        let mut block = RulesBlock { span: span(&pair), ..RulesBlock::default() };
        for stmt in pair.into_inner() {
            let sp = span(&stmt);
            match stmt.as_rule() {
                Rule::module_stmt => block.modules.extend(stmt.into_inner().map(ident)),
                Rule::ruling_stmt => {
                    let mut parts = stmt.into_inner();
                    if let (Some(n), Some(v)) = (parts.next(), parts.next()) {
                        block.rulings.push(RulingSetting { span: sp, name: ident(n), value: ident(v) });
                    }
                }
                Rule::preset_stmt => block.presets.extend(stmt.into_inner().map(ident)),
                Rule::option_stmt => {
                    let mut parts = stmt.into_inner();
                    if let (Some(n), Some(v)) = (parts.next(), parts.next()) {
                        block.options.push(OptionSetting { span: sp, name: ident(n), value: ident(v) });
                    }
                }
                Rule::weather_stmt => {
                    for pair in stmt.into_inner() {
                        let psp = span(&pair);
                        let mut parts = pair.into_inner();
                        if let (Some(a), Some(c)) = (parts.next(), parts.next()) {
                            block.weather.push(WeatherSetting {
                                span: psp,
                                aspect: ident(a),
                                condition: ident(c),
                            });
                        }
                    }
                }
                Rule::invalid => self.invalid(stmt, Rule::rules_line),
                _ => {}
            }
        }
        block
    }

    /// One `NAME VALUE` of `script_limits`: the name one of the limits, the value from 1 to its
    /// default (a scenario may lower a limit, never raise it; issue 15).
    fn script_limit(&mut self, pair: Pair<'_, Rule>) -> ScriptLimitSetting {
        let sp = span(&pair);
        let mut parts = pair.into_inner();
        let name = parts.next().map(ident).unwrap_or_default();
        let value = match (crate::script_limits::find(&name.value), parts.next()) {
            (Some(limit), Some(n)) => {
                ranged_ok(&n, &limit.range(), self.diags).map(|v| Spanned::new(v.value as u64, v.span))
            }
            (None, _) => {
                let names = crate::script_limits::LIMITS.iter().map(|l| l.name);
                let mut d = Diagnostic::error(
                    crate::script_limits::CODE,
                    format!("`{}` is not a limit of scripts", name.value),
                    name.span,
                    "no such limit",
                )
                .with_help(format!(
                    "the limits a scenario may lower are {}",
                    names.clone().collect::<Vec<_>>().join(", ")
                ));
                if let Some(fix) = crate::names::suggest(&name.value, names) {
                    d = d.with_help(format!("did you mean `{fix}`?")).with_fix(name.span, fix.to_string());
                }
                self.diags.push(d);
                None
            }
            (Some(_), None) => None,
        };
        ScriptLimitSetting { span: sp, name, value }
    }

    fn feature(&mut self, pair: Pair<'_, Rule>) -> Feature {
        let sp = span(&pair);
        let mut inner = pair.into_inner();
        let kind = inner.next().map(ident).unwrap_or_default();
        let mut feature = Feature { span: sp, kind, name: None, attrs: Vec::new() };
        for attr in inner {
            let attr = match attr.as_rule() {
                Rule::string => {
                    feature.name = Some(name(attr));
                    continue;
                }
                Rule::polygon_attr => FeatureAttr::Polygon(first_points(attr, self.diags)),
                Rule::line_attr => FeatureAttr::Line(first_points(attr, self.diags)),
                Rule::crest_attr => FeatureAttr::Crest(first_points(attr, self.diags)),
                Rule::at_attr => FeatureAttr::At(first_point(attr, self.diags)),
                Rule::ford_attr => FeatureAttr::Ford(first_point(attr, self.diags)),
                Rule::bridge_attr => FeatureAttr::Bridge(first_point(attr, self.diags)),
                Rule::size_attr => {
                    let asp = span(&attr);
                    let mut nums = attr.into_inner().map(|n| ranged(&n, &ranges::SIZE, self.diags).value);
                    let w = nums.next().unwrap_or(0.0);
                    let h = nums.next().unwrap_or(0.0);
                    FeatureAttr::Size(Spanned::new((w, h), asp))
                }
                Rule::level_attr => FeatureAttr::Level(first_number(attr, &ranges::LEVEL, self.diags)),
                Rule::capacity_attr => {
                    FeatureAttr::Capacity(first_number(attr, &ranges::CAPACITY, self.diags))
                }
                Rule::vp_attr => FeatureAttr::Vp(first_number(attr, &ranges::VP, self.diags)),
                Rule::within_attr => FeatureAttr::Within(first_number(attr, &ranges::WITHIN, self.diags)),
                Rule::flag => FeatureAttr::Flag(ident(attr)),
                _ => continue,
            };
            feature.attrs.push(attr);
        }
        feature
    }

    fn side(&mut self, pair: Pair<'_, Rule>) -> Side {
        let sp = span(&pair);
        let mut inner = pair.into_inner();
        let id = inner.next().map(ident).unwrap_or_default();
        let mut side = Side {
            span: sp,
            id,
            name: None,
            edge: None,
            commanders: Vec::new(),
            brigades: Vec::new(),
            units: Vec::new(),
            blinds: Vec::new(),
        };
        for item in inner {
            match item.as_rule() {
                Rule::string => side.name = Some(name(item)),
                Rule::edge_stmt => side.edge = item.into_inner().next().map(ident),
                Rule::commander => side.commanders.push(commander(item, self.diags)),
                Rule::brigade => side.brigades.push(self.brigade(item)),
                Rule::unit => side.units.push(unit(item, self.diags)),
                Rule::blind_decl | Rule::dummy_decl => side.blinds.push(self.blind(item)),
                Rule::invalid => self.invalid(item, Rule::side_line),
                _ => {}
            }
        }
        side
    }

    /// `blind "B1" brigade "Ames" at (x, y)` or `dummy "D1" at (x, y)` (Ch13 4.0).
    fn blind(&mut self, pair: Pair<'_, Rule>) -> BlindDecl {
        let sp = span(&pair);
        let mut blind = BlindDecl {
            span: sp,
            name: Name::default(),
            brigade: None,
            position: Spanned::new(Point::default(), sp),
        };
        let mut names = 0;
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::string if names == 0 => {
                    blind.name = name(part);
                    names += 1;
                }
                Rule::string => blind.brigade = Some(name(part)),
                Rule::at_attr => blind.position = first_point(part, self.diags),
                _ => {}
            }
        }
        blind
    }

    fn brigade(&mut self, pair: Pair<'_, Rule>) -> Brigade {
        let sp = span(&pair);
        let mut inner = pair.into_inner();
        let brigade_name = inner.next().map(name).unwrap_or_default();
        let mut brigade =
            Brigade { span: sp, name: brigade_name, brigadiers: Vec::new(), units: Vec::new(), losses: None };
        for item in inner {
            match item.as_rule() {
                Rule::brigadier => {
                    let bsp = span(&item);
                    let mut parts = item.into_inner();
                    let leader = parts.next().map(name).unwrap_or_default();
                    let mut b = Brigadier {
                        span: bsp,
                        name: leader,
                        rating: None,
                        position: None,
                        attached: None,
                        wounded: None,
                        replacement: None,
                    };
                    for part in parts {
                        match part.as_rule() {
                            Rule::word => b.rating = Some(ident(part)),
                            Rule::at_attr => b.position = Some(first_point(part, self.diags)),
                            Rule::attached_attr => b.attached = Some(first_name(part)),
                            Rule::wounded_attr => {
                                b.wounded = Some(first_number(part, &ranges::WOUNDED, self.diags))
                            }
                            Rule::replacement_attr => b.replacement = Some(first_name(part)),
                            _ => {}
                        }
                    }
                    brigade.brigadiers.push(b);
                }
                Rule::unit => brigade.units.push(unit(item, self.diags)),
                Rule::losses_stmt => brigade.losses = Some(first_number(item, &ranges::LOSSES, self.diags)),
                Rule::invalid => self.invalid(item, Rule::brigade_line),
                _ => {}
            }
        }
        brigade
    }

    fn reinforcement(&mut self, pair: Pair<'_, Rule>) -> Reinforcement {
        let sp = span(&pair);
        let mut r = Reinforcement {
            span: sp,
            arrival: Spanned::new(Arrival::Turn(0), sp),
            side: None,
            kind: Ident::default(),
            name: Name::default(),
            position: Spanned::new(Point::default(), sp),
            facing: None,
            words: Vec::new(),
        };
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::arrival => {
                    let asp = span(&part);
                    if let Some(v) = part.into_inner().next() {
                        r.arrival = match v.as_rule() {
                            Rule::time => Spanned::new(Arrival::Clock(time(v).value), asp),
                            // A turn out of range is reported; 0 is never late.
                            _ => {
                                let turn = ranged_u32(&v, &ranges::TURN, self.diags);
                                Spanned::new(Arrival::Turn(turn.map_or(0, |t| t.value)), asp)
                            }
                        };
                    }
                }
                Rule::ident => r.side = Some(ident(part)),
                Rule::reinforced_kind => r.kind = ident(part),
                Rule::string => r.name = name(part),
                Rule::at_attr => r.position = first_point(part, self.diags),
                Rule::facing_attr => r.facing = part.into_inner().next().map(facing),
                Rule::unit_flag => r.words.push(ident(part)),
                _ => {}
            }
        }
        r
    }

    fn victory_cond(&mut self, pair: Pair<'_, Rule>) -> VictoryCondition {
        let sp = span(&pair);
        let mut condition = Condition::Otherwise;
        let mut winner = Ident::default();
        let mut level = None;
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::held_cond => {
                    let mut parts = part.into_inner();
                    let objective = parts.next().map(name).unwrap_or_default();
                    let side = parts.next().map(ident).unwrap_or_default();
                    let for_turns = parts
                        .next()
                        .and_then(|h| h.into_inner().next())
                        .map(|n| ranged(&n, &ranges::HOLD_TURNS, self.diags));
                    condition = Condition::Held { objective, side, for_turns };
                }
                Rule::vp_cond | Rule::broken_cond => {
                    let is_vp = part.as_rule() == Rule::vp_cond;
                    let mut parts = part.into_inner();
                    let side = parts.next().map(ident).unwrap_or_default();
                    let compare = parts.next().map(compare).unwrap_or(Spanned::new(Compare::AtLeast, sp));
                    let range = if is_vp { &ranges::VP_TOTAL } else { &ranges::BROKEN };
                    let value =
                        parts.next().map(|n| ranged(&n, range, self.diags)).unwrap_or(Spanned::new(0.0, sp));
                    condition = if is_vp {
                        Condition::VictoryPoints { side, compare, value }
                    } else {
                        Condition::BrigadesBroken { side, compare, value }
                    };
                }
                Rule::script_cond => {
                    if let Some(e) = part.into_inner().next() {
                        condition = Condition::Script(script_block(e));
                    }
                }
                Rule::otherwise_cond => condition = Condition::Otherwise,
                Rule::outcome => {
                    let mut parts = part.into_inner();
                    winner = parts.next().map(ident).unwrap_or_default();
                    level = parts.next().map(ident);
                }
                _ => {}
            }
        }
        VictoryCondition { span: sp, condition, winner, level }
    }

    // ------------------------------------------------------------ library

    fn library(&mut self, pair: Pair<'_, Rule>) -> Library {
        let mut library = Library { span: span(&pair), ..Library::default() };
        for item in pair.into_inner() {
            match item.as_rule() {
                Rule::string => library.name = Some(name(item)),
                Rule::entry => library.entries.push(self.entry(item)),
                Rule::script_stmt => {
                    let item_span = span(&item);
                    if let Some(b) = item.into_inner().next() {
                        let mut script = script_block(b);
                        script.span = item_span;
                        library.scripts.push(script);
                    }
                }
                Rule::invalid => self.invalid(item, Rule::library_line),
                _ => {}
            }
        }
        library
    }

    fn entry(&mut self, pair: Pair<'_, Rule>) -> Entry {
        let sp = span(&pair);
        let mut inner = pair.into_inner();
        let kind = inner.next().map(ident).unwrap_or_default();
        let id = inner.next().map(ident).unwrap_or_default();
        let mut entry = Entry { span: sp, kind, id, name: None, props: Vec::new(), broken: false };
        for item in inner {
            match item.as_rule() {
                Rule::string => entry.name = Some(name(item)),
                Rule::prop => {
                    let psp = span(&item);
                    let mut parts = item.into_inner();
                    let key = parts.next().map(ident).unwrap_or_default();
                    let values = parts.filter_map(|v| value(v, self.diags)).collect();
                    entry.props.push(Prop { span: psp, key, values });
                }
                Rule::invalid => {
                    entry.broken = true;
                    self.invalid(item, Rule::entry_line);
                }
                _ => {}
            }
        }
        entry
    }

    // ------------------------------------------------------------ game log

    fn game(&mut self, pair: Pair<'_, Rule>) -> GameHeader {
        let mut game = GameHeader { span: span(&pair), ..GameHeader::default() };
        let mut repeated = Vec::new();
        for item in pair.into_inner() {
            match item.as_rule() {
                Rule::string => game.name = name(item),
                Rule::scenario_ref => {
                    if let Some(path) = item.into_inner().next().map(name) {
                        match &game.scenario {
                            Some(first) => repeated.push((first.span, path.span)),
                            None => game.scenario = Some(path),
                        }
                    }
                }
                Rule::campaign_ref => {
                    let mut parts = item.into_inner();
                    if let (Some(path), Some(battle)) = (parts.next(), parts.next()) {
                        let (path, battle) = (name(path), name(battle));
                        match &game.campaign {
                            Some((first, _)) => repeated.push((first.span, path.span)),
                            None => game.campaign = Some((path, battle)),
                        }
                    }
                }
                Rule::players => {
                    for p in item.into_inner() {
                        let psp = span(&p);
                        let mut parts = p.into_inner();
                        if let (Some(side), Some(player)) = (parts.next(), parts.next()) {
                            game.players.push(Player { span: psp, side: ident(side), name: name(player) });
                        }
                    }
                }
                Rule::played => {
                    if let Some(d) = item.into_inner().next() {
                        set_once(&mut game.played, date(d), &mut repeated);
                    }
                }
                Rule::seed => {
                    if let Some(n) = item.into_inner().next() {
                        let sp = span(&n);
                        match ranges::read_seed(n.as_str(), sp) {
                            Ok(value) => set_once(&mut game.seed, Spanned::new(value, sp), &mut repeated),
                            Err(d) => {
                                self.diags.push(*d);
                                self.out_of_range("seed");
                            }
                        }
                    }
                }
                Rule::rules_block => game.rules.push(self.rules_block(item)),
                Rule::bids_block => game.bids.push(self.bids_block(item)),
                Rule::notes_stmt => {
                    if let Some(t) = item.into_inner().next() {
                        game.notes.push(text(t));
                    }
                }
                Rule::invalid => self.invalid(item, Rule::game_line),
                _ => {}
            }
        }
        for (first, again) in repeated {
            self.diags.push(catalogue::repeated_statement(first, again));
        }
        game
    }

    /// `bids { ... }` (Ch13 1.0). A bid's points are read against their range (whole, not
    /// negative: `ranges::BID_POINTS`); their sum and the winners are the rules core's.
    fn bids_block(&mut self, pair: Pair<'_, Rule>) -> BidsBlock {
        let mut block = BidsBlock { span: span(&pair), ..BidsBlock::default() };
        for stmt in pair.into_inner() {
            let sp = span(&stmt);
            match stmt.as_rule() {
                Rule::bid_stmt => {
                    let mut parts = stmt.into_inner();
                    let side = parts.next().map(ident).unwrap_or_default();
                    let points = parts
                        .filter_map(|p| {
                            let mut pp = p.into_inner();
                            let (category, n) = (pp.next()?, pp.next()?);
                            Some((ident(category), ranged(&n, &ranges::BID_POINTS, self.diags)))
                        })
                        .collect();
                    block.bids.push(Bid { span: sp, side, points });
                }
                Rule::scouting_stmt => {
                    let mut parts = stmt.into_inner();
                    let (Some(side), Some(piece)) = (parts.next(), parts.next()) else { continue };
                    let by = parts
                        .next()
                        .filter(|p| p.as_rule() == Rule::scouting_by)
                        .and_then(|p| p.into_inner().next())
                        .map(|p| point(p, self.diags));
                    block.scouting.push(ScoutingChoice {
                        span: sp,
                        side: ident(side),
                        piece: name(piece),
                        by,
                    });
                }
                Rule::logistics_stmt => {
                    let mut parts = stmt.into_inner();
                    if let (Some(side), Some(battery)) = (parts.next(), parts.next()) {
                        block.logistics.push(LogisticsChoice {
                            span: sp,
                            side: ident(side),
                            battery: name(battery),
                        });
                    }
                }
                Rule::invalid => self.invalid(stmt, Rule::bids_line),
                _ => {}
            }
        }
        block
    }

    fn turn(&mut self, pair: Pair<'_, Rule>) -> Turn {
        let sp = span(&pair);
        let mut inner = pair.into_inner();
        // A turn number out of range is reported; the order of the turns is then unknown, as
        // after a turn header that did not parse.
        let number = match inner.next() {
            Some(n) => match ranged_u32(&n, &ranges::TURN, self.diags) {
                Some(number) => number,
                None => {
                    self.out_of_range("turn");
                    Spanned::new(0, span(&n))
                }
            },
            None => Spanned::new(0, sp),
        };
        let side = inner.next().map(ident).unwrap_or_default();
        let mut phases = Vec::new();
        for item in inner {
            match item.as_rule() {
                Rule::phase => phases.push(self.phase(item)),
                Rule::invalid => self.invalid(item, Rule::turn_line),
                _ => {}
            }
        }
        Turn::new(sp, number, side, phases)
    }

    fn phase(&mut self, pair: Pair<'_, Rule>) -> Phase {
        let sp = span(&pair);
        let mut inner = pair.into_inner();
        let kind = inner
            .next()
            .map(|p| {
                let kind = match p.as_str() {
                    "command" => PhaseKind::Command,
                    "maneuver" => PhaseKind::Maneuver,
                    "fire" => PhaseKind::Fire,
                    "melee" => PhaseKind::Melee,
                    _ => PhaseKind::Status,
                };
                Spanned::new(kind, span(&p))
            })
            .unwrap_or(Spanned::new(PhaseKind::Command, sp));
        let actions = self.actions(inner, false);
        Phase { span: sp, kind, actions }
    }

    // ------------------------------------------------------------ campaign (Ch14)

    fn campaign(&mut self, pair: Pair<'_, Rule>) -> Campaign {
        let mut campaign = Campaign { span: span(&pair), ..Campaign::default() };
        let mut inner = pair.into_inner();
        if let Some(n) = inner.next() {
            campaign.name = name(n);
        }
        for item in inner {
            match item.as_rule() {
                Rule::rules_block => campaign.rules.push(self.rules_block(item)),
                Rule::battle => campaign.battles.push(self.battle(item)),
                Rule::notes_stmt => {
                    if let Some(t) = item.into_inner().next() {
                        campaign.notes.push(text(t));
                    }
                }
                Rule::invalid => self.invalid(item, Rule::campaign_line),
                _ => {}
            }
        }
        campaign
    }

    fn battle(&mut self, pair: Pair<'_, Rule>) -> Battle {
        let mut battle = Battle { span: span(&pair), ..Battle::default() };
        let mut inner = pair.into_inner();
        if let Some(n) = inner.next() {
            battle.name = name(n);
        }
        let mut repeated = Vec::new();
        for item in inner {
            let sp = span(&item);
            match item.as_rule() {
                Rule::scenario_ref => {
                    if let Some(n) = item.into_inner().next() {
                        set_once(&mut battle.scenario, name(n), &mut repeated);
                    }
                }
                Rule::log_ref => {
                    if let Some(n) = item.into_inner().next() {
                        set_once(&mut battle.log, name(n), &mut repeated);
                    }
                }
                Rule::after_block => {
                    let steps = self.actions(item.into_inner(), false);
                    match &battle.after {
                        Some(first) => repeated.push((first.span, sp)),
                        None => battle.after = Some(After { span: sp, steps }),
                    }
                }
                Rule::invalid => self.invalid(item, Rule::battle_line),
                _ => {}
            }
        }
        for (first, again) in repeated {
            self.diags.push(catalogue::repeated_statement(first, again));
        }
        battle
    }

    fn actions(&mut self, pairs: Pairs<'_, Rule>, in_steps: bool) -> Vec<Action> {
        let mut actions = Vec::new();
        for item in pairs {
            match item.as_rule() {
                Rule::action | Rule::step => actions.push(self.action(item)),
                Rule::invalid if in_steps => self.invalid(item, Rule::step_line),
                Rule::invalid => self.invalid(item, Rule::action_line),
                _ => {}
            }
        }
        actions
    }

    fn action(&mut self, pair: Pair<'_, Rule>) -> Action {
        let sp = span(&pair);
        let mut action = Action {
            span: sp,
            allows: Vec::new(),
            verb: Ident::default(),
            args: Vec::new(),
            claim: None,
            steps: Vec::new(),
        };
        for part in pair.into_inner() {
            let psp = span(&part);
            match part.as_rule() {
                Rule::allow => {
                    let mut parts = part.into_inner();
                    if let (Some(code), Some(reason)) = (parts.next(), parts.next()) {
                        action.allows.push(Allow { span: psp, code: ident(code), reason: name(reason) });
                    }
                }
                Rule::ident | Rule::assault_verb => action.verb = ident(part),
                Rule::to_arg => action.args.push(Arg::To(first_point(part, self.diags))),
                Rule::facing_arg => {
                    if let Some(f) = part.into_inner().next() {
                        action.args.push(Arg::Facing(facing(f)));
                    }
                }
                Rule::at_unit => action.args.push(Arg::At(first_name(part))),
                Rule::target_unit => action.args.push(Arg::Against(first_name(part))),
                Rule::via_arg => action.args.push(Arg::Via(first_points(part, self.diags))),
                Rule::pip_arg => action.args.push(Arg::Pip(first_name(part))),
                Rule::roll_arg => {
                    let mut label = None;
                    let mut faces = Spanned::new(Vec::new(), psp);
                    for p in part.into_inner() {
                        match p.as_rule() {
                            Rule::ident => label = Some(ident(p)),
                            Rule::dice => faces = dice(p, self.diags),
                            _ => {}
                        }
                    }
                    action.args.push(Arg::Roll(Roll { span: psp, label, dice: faces }));
                }
                Rule::string => action.args.push(Arg::Unit(name(part))),
                Rule::number | Rule::signed => {
                    action.args.push(Arg::Number(ranged(&part, &ranges::LOG_NUMBER, self.diags)))
                }
                Rule::point => action.args.push(Arg::Point(point(part, self.diags))),
                Rule::word => action.args.push(Arg::Word(ident(part))),
                Rule::claim => {
                    let items: Vec<ClaimItem> = part
                        .into_inner()
                        .map(|item| {
                            let isp = span(&item);
                            let mut claim_item =
                                ClaimItem { span: isp, words: Vec::new(), numbers: Vec::new() };
                            for t in item.into_inner() {
                                match t.as_rule() {
                                    Rule::ident => claim_item.words.push(ident(t)),
                                    _ => claim_item.numbers.push(ranged(&t, &ranges::LOG_NUMBER, self.diags)),
                                }
                            }
                            claim_item
                        })
                        .collect();
                    // The claim ends with its last item: the parser's span of the rule runs on
                    // over blanks and a comment after it on the line.
                    let end = items.last().map_or(psp.end, |item| item.span.end);
                    action.claim = Some(Claim { span: Span::new(psp.start, end.min(psp.end)), items });
                }
                Rule::steps => action.steps = self.actions(part.into_inner(), true),
                _ => {}
            }
        }
        action
    }
}

/// A duration in whole minutes ([`ranges::TURN_LENGTH`]), or None (reported) when it is out of
/// range: `1e20 h` is never saturated to some other length.
fn duration_minutes(pair: Pair<'_, Rule>, diags: &mut Vec<Diagnostic>) -> Option<u32> {
    let sp = span(&pair);
    let text = pair.as_str().to_string();
    let mut parts = pair.into_inner();
    let amount = parts.next().map(|n| number(&n)).unwrap_or(0.0);
    let per = match parts.next().map(|u| u.as_str()) {
        Some(u) if u.starts_with('h') => 60.0,
        _ => 1.0,
    };
    let mut minutes = amount * per;
    // `0.1 h` is 6 minutes, not 6.000000000000001.
    if (minutes - minutes.round()).abs() < 1e-9 {
        minutes = minutes.round();
    }
    let range = &ranges::TURN_LENGTH;
    if range.admits(minutes) {
        return Some(minutes as u32);
    }
    let d = if !minutes.is_finite() || minutes > range.max {
        range.diagnostic(ranges::OUT_OF_RANGE, sp, &format!("{text} is out of range"), "out of range")
    } else if minutes.fract() != 0.0 && minutes > range.min {
        range.diagnostic(
            ranges::IMPOSSIBLE_VALUE,
            sp,
            &format!("{text} is not a whole number of minutes"),
            "not a whole number",
        )
    } else {
        range.diagnostic(ranges::IMPOSSIBLE_VALUE, sp, &format!("{text} is too short"), "below the range")
    };
    diags.push(d);
    None
}

fn compare(pair: Pair<'_, Rule>) -> Spanned<Compare> {
    let value = match pair.as_str() {
        ">=" => Compare::AtLeast,
        "<=" => Compare::AtMost,
        ">" => Compare::More,
        "<" => Compare::Less,
        _ => Compare::Equal,
    };
    Spanned::new(value, span(&pair))
}

fn unit(pair: Pair<'_, Rule>, diags: &mut Vec<Diagnostic>) -> Unit {
    let sp = span(&pair);
    let mut inner = pair.into_inner();
    let kind = match inner.next().map(|k| k.as_str()) {
        Some("battery") => UnitKind::Battery,
        Some("cavalry") => UnitKind::Cavalry,
        _ => UnitKind::Regiment,
    };
    let unit_name = inner.next().map(name).unwrap_or_default();
    let mut unit = Unit {
        span: sp,
        kind,
        name: unit_name,
        stands: None,
        men: None,
        sections: None,
        position: None,
        facing: None,
        traits: Vec::new(),
        markers: Vec::new(),
        holders: None,
        screen: None,
        garrison: None,
        lost: None,
        words: Vec::new(),
        repeated: Vec::new(),
    };
    for attr in inner {
        match attr.as_rule() {
            Rule::stands_attr => {
                set_once(&mut unit.stands, first_number(attr, &ranges::STANDS, diags), &mut unit.repeated)
            }
            Rule::men_attr => {
                set_once(&mut unit.men, first_number(attr, &ranges::MEN, diags), &mut unit.repeated)
            }
            Rule::sections_attr => {
                set_once(&mut unit.sections, first_number(attr, &ranges::SECTIONS, diags), &mut unit.repeated)
            }
            Rule::at_attr => set_once(&mut unit.position, first_point(attr, diags), &mut unit.repeated),
            Rule::facing_attr => {
                if let Some(f) = attr.into_inner().next() {
                    set_once(&mut unit.facing, facing(f), &mut unit.repeated);
                }
            }
            Rule::traits_attr => unit.traits.extend(attr.into_inner().map(ident)),
            Rule::markers_attr => unit.markers.extend(attr.into_inner().map(ident)),
            Rule::holders_attr => set_once(&mut unit.holders, first_point(attr, diags), &mut unit.repeated),
            Rule::screen_attr => set_once(&mut unit.screen, first_point(attr, diags), &mut unit.repeated),
            Rule::lost_attr => {
                set_once(&mut unit.lost, first_number(attr, &ranges::LOST, diags), &mut unit.repeated)
            }
            Rule::in_attr => set_once(&mut unit.garrison, first_name(attr), &mut unit.repeated),
            Rule::unit_flag => unit.words.push(ident(attr)),
            _ => {}
        }
    }
    unit
}

fn commander(pair: Pair<'_, Rule>, diags: &mut Vec<Diagnostic>) -> Commander {
    let sp = span(&pair);
    let mut inner = pair.into_inner();
    let leader = inner.next().map(name).unwrap_or_default();
    let mut c = Commander { span: sp, name: leader, level: Ident::default(), rating: None, position: None };
    for part in inner {
        match part.as_rule() {
            Rule::command_level => c.level = ident(part),
            Rule::word => c.rating = Some(ident(part)),
            Rule::at_attr => c.position = Some(first_point(part, diags)),
            _ => {}
        }
    }
    c
}

fn value(pair: Pair<'_, Rule>, diags: &mut Vec<Diagnostic>) -> Option<Spanned<Value>> {
    let sp = span(&pair);
    let value = match pair.as_rule() {
        Rule::number => Value::Number(ranged(&pair, &ranges::PROPERTY, diags).value),
        Rule::signed => Value::Signed(ranged(&pair, &ranges::PROPERTY, diags).value),
        Rule::target => Value::Target(pair.as_str().trim_end_matches('+').parse().unwrap_or(u32::MAX)),
        Rule::string => Value::Text(name(pair).value),
        Rule::text_block => Value::Text(text(pair).value),
        Rule::ident => Value::Word(pair.as_str().to_string()),
        Rule::point => Value::Point(point(pair, diags).value),
        Rule::dice => Value::Dice(dice(pair, diags).value.into_iter().map(|d| d.value).collect()),
        _ => return None,
    };
    Some(Spanned::new(value, sp))
}

fn first_point(pair: Pair<'_, Rule>, diags: &mut Vec<Diagnostic>) -> Spanned<Point> {
    let sp = span(&pair);
    pair.into_inner()
        .find(|p| p.as_rule() == Rule::point)
        .map(|p| point(p, diags))
        .unwrap_or(Spanned::new(Point::default(), sp))
}

fn first_points(pair: Pair<'_, Rule>, diags: &mut Vec<Diagnostic>) -> Spanned<Vec<Point>> {
    let sp = span(&pair);
    pair.into_inner()
        .find(|p| p.as_rule() == Rule::points)
        .map(|p| points(p, diags))
        .unwrap_or(Spanned::new(Vec::new(), sp))
}

/// The number of a `keyword N` attribute, read in its range.
fn first_number(pair: Pair<'_, Rule>, range: &NumberRange, diags: &mut Vec<Diagnostic>) -> Spanned<f64> {
    let sp = span(&pair);
    pair.into_inner().next().map(|n| ranged(&n, range, diags)).unwrap_or(Spanned::new(0.0, sp))
}

fn first_name(pair: Pair<'_, Rule>) -> Name {
    let sp = span(&pair);
    pair.into_inner().next().map(name).unwrap_or(Spanned::new(String::new(), sp))
}

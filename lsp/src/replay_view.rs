//! What hovers and inlay hints read of a game log's replay, kept apart from the replay.
//!
//! After a keystroke in a long log the audit is taken up again from the replay's checkpoint on
//! a blocking thread ([`crate::workspace::ResumeJob`], issue 16), and that changes the replay in
//! place: its events cannot be read while it runs. A copy of them is too dear to make at each
//! keystroke (the legal 100,000-line log has some 170,000 events, 50 ms to clone with their
//! strings). So hovers and hints read this view instead, made from the replay each time it is
//! made or taken up again, off the request path: every event's place, turn and phase, and, for
//! the kinds a hover or hint shows, the names and numbers it shows, each name stored once. A
//! hover that comes while the audit is being taken up reads the view of the replay before, its
//! events moved with the edits since, as it would have before the resume.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use dotc_lang::Span;
use dotc_lang::ast::PhaseKind;
use dotc_lang::incremental::Edit;
use dotc_runtime::engine::What;
use dotc_runtime::engine::events::Health;
use dotc_runtime::replay::{Replay, ReplayEvent};

/// A name an event mentions (a unit, a marker, a range band), by its place in
/// [`ReplayView::name`]'s list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Name(u32);

/// What an event says, as far as a hover or an inlay hint reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shown {
    /// An event no hover or hint reads beyond its place, turn and phase.
    Other,
    /// A volley: [`ReplayView::volley`] gives its target, band, range and to-hit number.
    Volley(u32),
    /// A volley the log gave no to-hit dice for (issue 20): [`ReplayView::unrolled`] gives what
    /// the rules would roll.
    Unrolled(u32),
    StandsLost {
        unit: Name,
        remaining: u32,
    },
    MicroHit {
        unit: Name,
        micro_hit: u8,
    },
    MarkerPlaced {
        unit: Name,
        marker: Name,
    },
    MarkerRemoved {
        unit: Name,
        marker: Name,
    },
    Removed {
        unit: Name,
    },
    Shattered {
        unit: Name,
    },
    HealthChanged {
        unit: Name,
        from: Health,
        to: Health,
    },
}

impl Shown {
    /// The unit the event is about, for the kinds a hover folds into a unit's state.
    pub fn unit(self) -> Option<Name> {
        match self {
            Shown::StandsLost { unit, .. }
            | Shown::MicroHit { unit, .. }
            | Shown::MarkerPlaced { unit, .. }
            | Shown::MarkerRemoved { unit, .. }
            | Shown::Removed { unit }
            | Shown::Shattered { unit }
            | Shown::HealthChanged { unit, .. } => Some(unit),
            Shown::Other | Shown::Volley(_) | Shown::Unrolled(_) => None,
        }
    }
}

/// A volley as an inlay hint shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Volley {
    pub target: Name,
    pub band: Name,
    /// The range in inches.
    pub range: f64,
    pub to_hit: i32,
}

/// A volley planned but not rolled, as the replay's [`What::Unrolled`] event gives it: the dice
/// (RULE-05-2.1), the number each needs to hit (RULE-05-2.2, 2.3, Ch16 5.6) and the cover save
/// (RULE-05-3.1; None: no save). Kept only for lines without dice, so it costs a view little.
#[derive(Clone, Debug, PartialEq)]
pub struct Unrolled {
    pub target: Name,
    pub dice: u32,
    pub to_hit: i32,
    pub save: Option<i32>,
}

/// One event of the replay.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewEvent {
    /// Where the event's action is in the current text, as `u32`s ([`NOWHERE`] where an edit
    /// replaced it): the view is kept for every event of a long log.
    start: u32,
    end: u32,
    pub turn: u32,
    pub phase: PhaseKind,
    pub shown: Shown,
}

/// The start of an event an edit replaced (or one past what a `u32` holds, which a text the
/// server accepts never reaches).
const NOWHERE: u32 = u32::MAX;

impl ViewEvent {
    /// Where the event is in the current text; None where an edit since the replay replaced it.
    pub fn span(&self) -> Option<Span> {
        (self.start != NOWHERE).then(|| Span::new(self.start as usize, self.end as usize))
    }

    fn place(&mut self, span: Option<Span>) {
        let fits = span.and_then(|s| Some((u32::try_from(s.start).ok()?, u32::try_from(s.end).ok()?)));
        (self.start, self.end) = fits.filter(|(start, _)| *start != NOWHERE).unwrap_or((NOWHERE, NOWHERE));
    }
}

/// What hovers and inlay hints read of a replay (see the module's documentation).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReplayView {
    names: Vec<String>,
    events: Vec<ViewEvent>,
    volleys: Vec<Volley>,
    unrolled: Vec<Unrolled>,
    /// For each name, the events about that unit, in order: a hover reads a unit's events
    /// without going through every other.
    by_unit: Vec<Vec<u32>>,
    /// Each unit as the replay's summary has it at the end of the game.
    pub units: Vec<UnitAtEnd>,
    /// For each event, the least end of it and every event after it ([`NOWHERE`] for an event an
    /// edit replaced): never decreasing, so [`ReplayView::last_ending_by`] is a binary search, not
    /// a walk back over a long log's 170,000 events at every hover (issue 16). Made again at
    /// each edit, with the events' places.
    least_end_from: Vec<u32>,
}

/// [`ReplayView::least_end_from`] of these events.
fn least_ends(events: &[ViewEvent]) -> Vec<u32> {
    let mut out = vec![NOWHERE; events.len()];
    let mut least = NOWHERE;
    for (i, event) in events.iter().enumerate().rev() {
        least = least.min(event.end);
        out[i] = least;
    }
    out
}

/// What a hover reads of a unit's summary.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitAtEnd {
    pub name: String,
    pub starting_stands: u32,
    pub health: String,
}

impl ReplayView {
    /// The view of a replay, each event where its span says.
    pub fn of(replay: &Replay) -> ReplayView {
        let mut made = Making::new(Vec::new(), replay.events.len());
        for event in &replay.events {
            made.add(event);
        }
        made.done(replay)
    }

    /// The view of `replay`, the replay this view was made of (as it still was when the view
    /// was made or last taken up) taken up again after edits
    /// ([`dotc_runtime::replay::resume::resume`]), with this view moved by those edits since.
    /// The events at either end that are the same as before, and where the view has them, are
    /// kept without reading them again; only those between are made afresh. Reading every
    /// event's names is what makes a whole view costly (the names are scattered in memory:
    /// 9 ms for the legal 100,000-line log, where a resume after a keystroke replays a few
    /// hundred events; issue 16). Equal to [`ReplayView::of`] `replay` but for the order of the
    /// names and volleys it stores.
    pub fn taken_up(&self, replay: &Replay, kept: (usize, usize)) -> ReplayView {
        let (new, old) = (&replay.events, &self.events);
        // `kept`: how many events at either end the resume kept ([`dotc_runtime::replay::resume::Resumed::events_kept`]);
        // each is held to where and when the view has it too, and the kept ends stop at the
        // first that differs (read afresh from there).
        let same = |i: usize, j: usize| {
            let (event, view) = (&new[i], &old[j]);
            view.span() == Some(event.span) && view.turn == event.turn && view.phase == event.phase
        };
        let shorter = new.len().min(old.len());
        let before = (0..kept.0.min(shorter)).find(|&i| !same(i, i)).unwrap_or(kept.0.min(shorter));
        let most_after = kept.1.min(shorter - before);
        let after =
            (0..most_after).find(|&k| !same(new.len() - 1 - k, old.len() - 1 - k)).unwrap_or(most_after);
        let mut made = Making::new(self.names.clone(), new.len());
        for j in 0..before {
            made.keep(self, j);
        }
        for event in &new[before..new.len() - after] {
            made.add(event);
        }
        for j in old.len() - after..old.len() {
            made.keep(self, j);
        }
        made.done(replay)
    }

    /// The events, in the replay's order.
    pub fn events(&self) -> &[ViewEvent] {
        &self.events
    }

    /// The text of a name.
    pub fn name(&self, name: Name) -> &str {
        self.names.get(name.0 as usize).map_or("", String::as_str)
    }

    /// The name with this text, if an event mentions it.
    pub fn find_name(&self, text: &str) -> Option<Name> {
        let at = self.names.iter().position(|n| n == text)?;
        Some(Name(u32::try_from(at).ok()?))
    }

    /// The events about a unit (those whose [`Shown`] names it as its `unit`), in order.
    pub fn events_of(&self, unit: Name) -> impl Iterator<Item = &ViewEvent> {
        let indices = self.by_unit.get(unit.0 as usize).map_or(&[][..], Vec::as_slice);
        indices.iter().filter_map(|&i| self.events.get(i as usize))
    }

    /// The last event, in the replay's order, whose action ends by `offset` (None if none does):
    /// the last `i` whose least end from `i` on is by `offset` (the one after it, if any, has
    /// every event from there ending later, so event `i` itself ends by `offset`).
    pub fn last_ending_by(&self, offset: usize) -> Option<&ViewEvent> {
        let offset = u32::try_from(offset).unwrap_or(NOWHERE - 1).min(NOWHERE - 1);
        let by = self.least_end_from.partition_point(|&end| end <= offset);
        by.checked_sub(1).and_then(|i| self.events.get(i))
    }

    /// The volley of a [`Shown::Volley`].
    pub fn volley(&self, index: u32) -> Option<&Volley> {
        self.volleys.get(index as usize)
    }

    /// The volley of a [`Shown::Unrolled`].
    pub fn unrolled(&self, index: u32) -> Option<&Unrolled> {
        self.unrolled.get(index as usize)
    }

    /// Every event written out with its names, turn, phase and place (for tests: two views of
    /// one replay list the same, whatever order they store their names and volleys in).
    pub fn listing(&self) -> Vec<String> {
        self.events
            .iter()
            .map(|e| {
                let shown = match e.shown {
                    Shown::Other => "other".to_string(),
                    Shown::Volley(v) => match self.volley(v) {
                        Some(v) => {
                            let (target, band) = (self.name(v.target), self.name(v.band));
                            format!("volley at {target}, {band}, {} inches, {}+", v.range, v.to_hit)
                        }
                        None => "a volley not kept".to_string(),
                    },
                    Shown::Unrolled(v) => match self.unrolled(v) {
                        Some(v) => format!(
                            "unrolled at {}, {}D6, {}+, save {:?}",
                            self.name(v.target),
                            v.dice,
                            v.to_hit,
                            v.save
                        ),
                        None => "an unrolled volley not kept".to_string(),
                    },
                    Shown::StandsLost { unit, remaining } => {
                        format!("{} down to {remaining}", self.name(unit))
                    }
                    Shown::MicroHit { unit, micro_hit } => {
                        format!("{} micro-hit {micro_hit}", self.name(unit))
                    }
                    Shown::MarkerPlaced { unit, marker } => {
                        format!("{} gets {}", self.name(unit), self.name(marker))
                    }
                    Shown::MarkerRemoved { unit, marker } => {
                        format!("{} loses {}", self.name(unit), self.name(marker))
                    }
                    Shown::Removed { unit } => format!("{} removed", self.name(unit)),
                    Shown::Shattered { unit } => format!("{} shattered", self.name(unit)),
                    Shown::HealthChanged { unit, from, to } => {
                        format!("{} {from:?} to {to:?}", self.name(unit))
                    }
                };
                format!("{:?}, turn {} {:?}: {shown}", e.span(), e.turn, e.phase)
            })
            .collect()
    }

    /// Move every event with an edit of the text (dropping the place of those it replaced).
    pub fn move_with(&mut self, edit: Edit) {
        for event in &mut self.events {
            let span = event.span().and_then(|span| edit.map_span(span));
            event.place(span);
        }
        self.least_end_from = least_ends(&self.events);
    }
}

/// A view being made: its events in order, each name stored once, and the volleys the events
/// point to (the kept ones copied over, so a view holds only its own).
struct Making {
    names: Vec<String>,
    index: HashMap<String, Name, BuildHasherDefault<Quick>>,
    /// The last name looked up: events about one unit come in runs.
    last: Option<(usize, Name)>,
    events: Vec<ViewEvent>,
    volleys: Vec<Volley>,
    unrolled: Vec<Unrolled>,
    by_unit: Vec<Vec<u32>>,
}

impl Making {
    fn new(names: Vec<String>, events: usize) -> Making {
        let index = names.iter().enumerate().map(|(i, n)| (n.clone(), name_at(i))).collect();
        Making {
            names,
            index,
            last: None,
            events: Vec::with_capacity(events),
            volleys: Vec::new(),
            unrolled: Vec::new(),
            by_unit: Vec::new(),
        }
    }

    fn push(&mut self, event: ViewEvent) {
        if let Some(unit) = event.shown.unit() {
            let at = unit.0 as usize;
            if self.by_unit.len() <= at {
                self.by_unit.resize_with(at + 1, Vec::new);
            }
            self.by_unit[at].push(u32::try_from(self.events.len()).unwrap_or(u32::MAX));
        }
        self.events.push(event);
    }

    /// The name with this text, stored if new.
    fn name(&mut self, text: &str) -> Name {
        if let Some((last, name)) = self.last
            && self.names.get(last).is_some_and(|n| n == text)
        {
            return name;
        }
        let name = match self.index.get(text) {
            Some(&name) => name,
            None => {
                let name = name_at(self.names.len());
                self.names.push(text.to_string());
                self.index.insert(text.to_string(), name);
                name
            }
        };
        self.last = Some((name.0 as usize, name));
        name
    }

    fn volley(&mut self, volley: Volley) -> Shown {
        self.volleys.push(volley);
        Shown::Volley(u32::try_from(self.volleys.len() - 1).unwrap_or(u32::MAX))
    }

    fn unrolled(&mut self, unrolled: Unrolled) -> Shown {
        self.unrolled.push(unrolled);
        Shown::Unrolled(u32::try_from(self.unrolled.len() - 1).unwrap_or(u32::MAX))
    }

    /// A replay event, read afresh.
    fn add(&mut self, event: &ReplayEvent) {
        let shown = match &event.event.what {
            What::Volley { target, band, range, to_hit, .. } => {
                let (target, band) = (self.name(target), self.name(band));
                self.volley(Volley { target, band, range: *range, to_hit: *to_hit })
            }
            What::Unrolled { target, dice, to_hit, save, .. } => {
                let target = self.name(target);
                self.unrolled(Unrolled { target, dice: *dice, to_hit: *to_hit, save: *save })
            }
            What::StandsLost { unit, remaining, .. } => {
                Shown::StandsLost { unit: self.name(unit), remaining: *remaining }
            }
            What::MicroHit { unit, micro_hit } => {
                Shown::MicroHit { unit: self.name(unit), micro_hit: *micro_hit }
            }
            What::MarkerPlaced { unit, marker } => {
                Shown::MarkerPlaced { unit: self.name(unit), marker: self.name(marker) }
            }
            What::MarkerRemoved { unit, marker } => {
                Shown::MarkerRemoved { unit: self.name(unit), marker: self.name(marker) }
            }
            What::Removed { unit, .. } => Shown::Removed { unit: self.name(unit) },
            What::Shattered { unit } => Shown::Shattered { unit: self.name(unit) },
            What::HealthChanged { unit, from, to } => {
                Shown::HealthChanged { unit: self.name(unit), from: *from, to: *to }
            }
            _ => Shown::Other,
        };
        let mut out = ViewEvent { start: NOWHERE, end: NOWHERE, turn: event.turn, phase: event.phase, shown };
        out.place(Some(event.span));
        self.push(out);
    }

    /// An event of an older view (whose names this one starts with), as it is.
    fn keep(&mut self, view: &ReplayView, j: usize) {
        let Some(&event) = view.events.get(j) else { return };
        let shown = match event.shown {
            Shown::Volley(v) => match view.volleys.get(v as usize) {
                Some(volley) => self.volley(volley.clone()),
                None => Shown::Other,
            },
            Shown::Unrolled(v) => match view.unrolled.get(v as usize) {
                Some(unrolled) => self.unrolled(unrolled.clone()),
                None => Shown::Other,
            },
            shown => shown,
        };
        self.push(ViewEvent { shown, ..event });
    }

    fn done(self, replay: &Replay) -> ReplayView {
        let units = replay
            .summary
            .units
            .iter()
            .map(|u| UnitAtEnd {
                name: u.name.clone(),
                starting_stands: u.starting_stands,
                health: u.health.clone(),
            })
            .collect();
        ReplayView {
            least_end_from: least_ends(&self.events),
            names: self.names,
            events: self.events,
            volleys: self.volleys,
            unrolled: self.unrolled,
            by_unit: self.by_unit,
            units,
        }
    }
}

fn name_at(i: usize) -> Name {
    Name(u32::try_from(i).unwrap_or(u32::MAX))
}

/// A hash for the few short names of a replay, several times quicker than the standard one
/// (which was most of the time a view took to make): a multiply and a rotation per 8 bytes.
#[derive(Default)]
struct Quick(u64);

impl Hasher for Quick {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.add(word.iter().rev().fold(0, |n, &b| n << 8 | u64::from(b)));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            self.add(rest.iter().rev().fold(0, |n, &b| n << 8 | u64::from(b)));
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl Quick {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

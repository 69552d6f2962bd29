//! Atmospheric conditions of the weather module (Ch13 21.0): how far the sky lets anyone see,
//! whether it spoils the first volley, and what severe heat costs a unit that exerts itself.
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

pub const WEATHER_PROPS: &[PropSpec] = &[
    opt("sight", "sight <inches>", "How far anyone can see while it lasts (Ch13 21.0)."),
    flag("no_first_volley", "While it lasts, a first volley gets no Clean Barrels bonus (Ch13 2.0, 21.0)."),
    opt(
        "artillery_target",
        "artillery_target <inches>",
        "Artillery may not target a unit farther than this unless it carries gunsmoke (Ch13 21.0).",
    ),
    opt(
        "fouls_on_ones",
        "fouls_on_ones <count>",
        "A volley showing at least this many natural 1s fouls the firer's powder: a Fouled marker (Ch13 21.0).",
    ),
    opt("assault_within", "assault_within <inches>", "No assault on a target farther than this (Ch13 21.0)."),
    opt(
        "thins",
        "thins <weather> on <n>+ from <turn>",
        "From that turn on, a d6 rolled in each Phase 1 turns the sky into the named one on the target or better (Ch13 21.0).",
    ),
    opt(
        "exertion",
        "exertion <hits> <arm>, ...",
        "Unsaved hits a unit of these arms takes when it carries out a Double-Time or Assault order (Ch13 21.0).",
    ),
];

/// What severe heat costs a unit that carries out a Double-Time or Assault order.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Exertion {
    pub hits: u32,
    pub arms: Vec<Arm>,
}

/// A sky that may clear: into which sky, on what roll, from which turn (Ch13 21.0: dense fog
/// thins to light fog on a 5+ from turn 3).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Thinning {
    pub into: String,
    pub on: u32,
    pub from_turn: u32,
}

/// A condition of the sky or of the heat (Ch13 21.0); the id is the word a file's `weather sky`
/// or `weather heat` gives (`downpour`, `dense_fog`, `severe`, ...).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct WeatherCondition {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// Inches: nobody sees farther.
    pub sight: Option<f64>,
    pub no_first_volley: bool,
    /// Inches: artillery may not target a unit farther away unless it carries gunsmoke.
    pub artillery_target: Option<f64>,
    /// Natural 1s in one volley that foul the firer's powder.
    pub fouls_on_ones: Option<u32>,
    /// Inches: no assault on a target farther away.
    pub assault_within: Option<f64>,
    pub thins: Option<Thinning>,
    pub exertion: Option<Exertion>,
}

pub(super) fn read_weather(r: &mut Reader<'_, '_>, meta: EntryMeta) -> WeatherCondition {
    WeatherCondition {
        meta,
        sight: r.read("sight", |c| c.inches()),
        no_first_volley: r.flag("no_first_volley"),
        artillery_target: r.read("artillery_target", |c| c.inches()),
        fouls_on_ones: r.read("fouls_on_ones", |c| c.count("a number of natural 1s")),
        assault_within: r.read("assault_within", |c| c.inches()),
        thins: r.read("thins", |c| {
            let into = c.word("the sky it thins to")?.value;
            c.keyword("on")?;
            let on = c.target()?;
            c.keyword("from")?;
            let from_turn = c.count("a turn number")?;
            Ok(Thinning { into, on, from_turn })
        }),
        exertion: r.read("exertion", |c| {
            let hits = c.count("a number of hits")?;
            Ok(Exertion { hits, arms: c.choices::<Arm>()? })
        }),
    }
}

impl Describe for WeatherCondition {
    fn parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if let Some(d) = self.sight {
            parts.push(format!("sight {}\"", fmt_num(d)));
        }
        if self.no_first_volley {
            parts.push(String::from("no first-volley bonus"));
        }
        if let Some(d) = self.artillery_target {
            parts.push(format!("artillery targets only units within {}\" or with gunsmoke", fmt_num(d)));
        }
        if let Some(n) = self.fouls_on_ones {
            parts.push(format!("{} in a volley foul the powder", plural(n, "natural 1")));
        }
        if let Some(d) = self.assault_within {
            parts.push(format!("no assault beyond {}\"", fmt_num(d)));
        }
        if let Some(t) = &self.thins {
            parts.push(format!("thins to {} on {}+ from turn {}", t.into, t.on, t.from_turn));
        }
        if let Some(e) = &self.exertion {
            let arms: Vec<&str> = e.arms.iter().map(|a| a.word()).collect();
            parts.push(format!(
                "{} to {} on a Double-Time or Assault order",
                plural(e.hits, "hit"),
                arms.join(", ")
            ));
        }
        if parts.is_empty() {
            parts.push(String::from("no effect"));
        }
        parts
    }
}

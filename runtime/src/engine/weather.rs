//! The weather in force: the ground, the sky and the heat of the weather module (Ch13 21.0), and
//! the wind that clears gunsmoke (RULE-05-5.4). A file sets it with `weather ASPECT CONDITION`
//! (the words of `dotc_lang::rulings::WEATHER`); a scenario script may change it during play.
//! The ground, the sky and the heat are in force only with `module weather` on; the wind always
//! is (dotc D18, [`Weather::of_the_module`]).
//!
//! It is part of the [`GameState`](super::state::GameState), so every rule that depends on it
//! reads it from the state it resolves against; its numbers come from the rule data
//! ([`Tables`]: the `ground` and `weather` entries). What each condition does, and where:
//!
//! - the ground's move penalties, unlimbering and stuck guns: `battlefield::movement`;
//! - the sky's sight limit ([`Weather::sight_limit`]): the replay's line of sight;
//! - a downpour's lost first-volley bonus ([`Weather::spoils_first_volley`]), soft ground's
//!   shorter artillery ranges ([`Weather::artillery_range_cut`]) and light fog's limit on
//!   artillery targets ([`Weather::artillery_target_limit`]): the volley plan;
//! - rain's fouled powder ([`Weather::fouls_on_ones`]): the volley, after its roll; the Fouled
//!   marker's -1: the volley plan; clearing it: the replay's `order clear_fouling`;
//! - dense fog's ban on distant assaults ([`Weather::assault_limit`]): the assault's declaration;
//!   its thinning ([`Weather::thinning`]): the replay's `fog roll [d]`;
//! - severe heat's hits on a unit that exerts itself ([`exertion`]): the replay's Double-Time and
//!   the assault's declaration.

use serde::Serialize;

use super::events::{Event, What};
use super::morale::{Cause, take_hits};
use super::state::{GameState, UnitId};
use super::tables::Tables;
use super::{EngineError, Rules};

/// A ground condition of the weather module (Ch13 21.0), as a file's `weather ground` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Ground {
    /// Dry / firm: standard rates.
    Firm,
    /// Soft / slick: -1" to infantry and cavalry, 2 pips to unlimber.
    Soft,
    /// Deep mud: infantry -2" and no double-quick off roads, cavalry -4", limbered guns stuck
    /// off roads, guns cannot fire the turn they unlimber.
    Mud,
}

impl Ground {
    /// The condition a `weather ground` word names (`firm`, `soft`, `mud`).
    pub fn from_word(word: &str) -> Option<Ground> {
        match word {
            "firm" => Some(Ground::Firm),
            "soft" => Some(Ground::Soft),
            "mud" => Some(Ground::Mud),
            _ => None,
        }
    }

    /// The id of its `ground` entry in the rule data (Ch13 21.0), which holds its numbers.
    pub fn id(self) -> &'static str {
        match self {
            Ground::Firm => "firm",
            Ground::Soft => "soft",
            Ground::Mud => "mud",
        }
    }

    /// How a report names it.
    pub fn word(self) -> &'static str {
        match self {
            Ground::Firm => "firm ground",
            Ground::Soft => "soft ground",
            Ground::Mud => "deep mud",
        }
    }
}

/// The precipitation and visibility of the weather module (Ch13 21.0), as a file's `weather
/// sky` names it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum Sky {
    #[default]
    Clear,
    Drizzle,
    Downpour,
    LightFog,
    DenseFog,
}

impl Sky {
    /// The condition a `weather sky` word names.
    pub fn from_word(word: &str) -> Option<Sky> {
        match word {
            "clear" => Some(Sky::Clear),
            "drizzle" => Some(Sky::Drizzle),
            "downpour" => Some(Sky::Downpour),
            "light_fog" => Some(Sky::LightFog),
            "dense_fog" => Some(Sky::DenseFog),
            _ => None,
        }
    }
}

/// The weather in force. The default is the core game's: firm ground (no condition), a clear
/// sky, a calm wind, no heat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Weather {
    /// The ground condition, if a file or script set one.
    pub ground: Option<Ground>,
    pub sky: Sky,
    /// A brisk wind clears every gunsmoke marker at the end of the turn (RULE-05-5.4).
    pub brisk_wind: bool,
    pub severe_heat: bool,
}

impl Weather {
    /// The weather a file's `weather` settings give, in order: a later setting of an aspect
    /// (a game log's after its scenario's) replaces an earlier one.
    pub fn from_settings<'a>(settings: impl IntoIterator<Item = (&'a str, &'a str)>) -> Weather {
        let mut weather = Weather::default();
        for (aspect, condition) in settings {
            weather.set(aspect, condition);
        }
        weather
    }

    /// Whether an aspect belongs to the weather module (Ch13 21.0: the ground, the sky, the heat),
    /// in force only with `module weather` on (dotc D18); the wind is the core rules' (RULE-05-5.4).
    pub fn of_the_module(aspect: &str) -> bool {
        aspect != "wind"
    }

    /// Sets one aspect (`ground`, `sky`, `wind`, `heat`) to a condition; an unknown aspect or
    /// condition changes nothing (the language's checks report it) and returns false.
    pub fn set(&mut self, aspect: &str, condition: &str) -> bool {
        match aspect {
            "ground" => match Ground::from_word(condition) {
                Some(ground) => self.ground = Some(ground),
                None => return false,
            },
            "sky" => match Sky::from_word(condition) {
                Some(sky) => self.sky = sky,
                None => return false,
            },
            "wind" if matches!(condition, "calm" | "brisk") => self.brisk_wind = condition == "brisk",
            "heat" if matches!(condition, "normal" | "severe") => self.severe_heat = condition == "severe",
            _ => return false,
        }
        true
    }

    /// The rule data's entry for the sky in force (Ch13 21.0), if it has one.
    fn sky_entry(self, tables: &Tables) -> Option<&dotc_lang::library::WeatherCondition> {
        match self.sky {
            Sky::Clear => None,
            Sky::Drizzle => Some(&tables.drizzle),
            Sky::Downpour => Some(&tables.downpour),
            Sky::LightFog => Some(&tables.light_fog),
            Sky::DenseFog => Some(&tables.dense_fog),
        }
    }

    /// How far anyone can see (Ch13 21.0: a downpour, light or dense fog), if the sky limits it.
    pub fn sight_limit(self, tables: &Tables) -> Option<f64> {
        self.sky_entry(tables).and_then(|entry| entry.sight)
    }

    /// Inches off every gun's maximum range on this ground (Ch13 21.0: soft ground's 6"), as a
    /// positive number; 0 when the ground takes none.
    pub fn artillery_range_cut(self, tables: &Tables) -> f64 {
        let entry = match self.ground {
            Some(Ground::Soft) => &tables.soft_ground,
            Some(Ground::Mud) => &tables.mud,
            Some(Ground::Firm) | None => return 0.0,
        };
        f64::from(-entry.artillery_range.min(0))
    }

    /// How far artillery may target a unit that carries no gunsmoke under this sky (Ch13 21.0:
    /// light fog's 12"), if the sky limits it.
    pub fn artillery_target_limit(self, tables: &Tables) -> Option<f64> {
        self.sky_entry(tables).and_then(|entry| entry.artillery_target)
    }

    /// How many natural 1s in one volley foul the firer's powder under this sky (Ch13 21.0:
    /// drizzle two, a downpour one), if the sky fouls powder at all.
    pub fn fouls_on_ones(self, tables: &Tables) -> Option<u32> {
        self.sky_entry(tables).and_then(|entry| entry.fouls_on_ones)
    }

    /// How far off an assault's target may be under this sky (Ch13 21.0: dense fog's 6"), if the
    /// sky limits it.
    pub fn assault_limit(self, tables: &Tables) -> Option<f64> {
        self.sky_entry(tables).and_then(|entry| entry.assault_within)
    }

    /// The sky this one may thin into, and on what roll from which turn (Ch13 21.0: dense fog to
    /// light fog on a 5+ from turn 3).
    pub fn thinning(self, tables: &Tables) -> Option<&dotc_lang::library::Thinning> {
        self.sky_entry(tables).and_then(|entry| entry.thins.as_ref())
    }

    /// A first volley gets no Clean Barrels bonus (Ch13 2.0) under this sky (Ch13 21.0: a
    /// downpour). The volley is still the regiment's first: its marker goes all the same.
    pub fn spoils_first_volley(self, tables: &Tables) -> bool {
        self.sky_entry(tables).is_some_and(|entry| entry.no_first_volley)
    }
}

/// Ch13 21.0, severe heat: a unit of the arms the `weather severe` entry names that carries out
/// a Double-Time or Assault order takes its `exertion` hits at once, as unsaved hits (one is a
/// micro-hit, RULE-05-3.3). `order` names the order for the report. Returns the stands it cost.
pub fn exertion(
    rules: &Rules,
    state: &mut GameState,
    unit: UnitId,
    order: &str,
    events: &mut Vec<Event>,
) -> Result<u32, EngineError> {
    const RULE: &str = "Ch13 21.0";
    let Some(exertion) = rules.tables.severe_heat.exertion.as_ref().filter(|_| state.weather.severe_heat)
    else {
        return Ok(0);
    };
    let Some(u) = state.unit(unit) else { return Err(EngineError::Unknown(format!("unit #{}", unit.0))) };
    if u.removed || !exertion.arms.contains(&super::fire::plan::weapon_arm(&u.arm)) {
        return Ok(0);
    }
    let text = format!("{} suffers in the severe heat: a {order} order", u.name);
    events.push(Event::new(What::Note { text }, RULE));
    take_hits(rules, state, unit, exertion.hits, Cause::Other, events, RULE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_setting_replaces_an_earlier_one_and_unknown_words_change_nothing() {
        let weather = Weather::from_settings([
            ("sky", "downpour"),
            ("wind", "brisk"),
            ("ground", "soft"),
            ("sky", "dense_fog"),
            ("heat", "severe"),
            ("sky", "hail"),
        ]);
        assert_eq!(
            weather,
            Weather { ground: Some(Ground::Soft), sky: Sky::DenseFog, brisk_wind: true, severe_heat: true }
        );
        let mut calm = weather;
        assert!(calm.set("wind", "calm"));
        assert!(!calm.brisk_wind);
        assert!(!calm.set("tide", "high"));
    }

    /// Every condition the language accepts is one the weather knows, and no other.
    #[test]
    fn the_weather_knows_every_word_of_the_language_register() {
        for (aspect, conditions) in dotc_lang::rulings::WEATHER {
            for condition in *conditions {
                assert!(Weather::default().set(aspect, condition), "`weather {aspect} {condition}`");
            }
            assert!(!Weather::default().set(aspect, "sideways"));
        }
    }

    /// Ch13 21.0: sight 12" in a downpour, 18" in light fog, 6" in dense fog, unlimited in
    /// drizzle and a clear sky; a downpour spoils the first volley's bonus.
    #[test]
    fn ch13_21_0_sight_and_the_first_volley_by_the_sky() {
        let rules = Rules::stdlib(crate::rulings::Rulings::default()).expect("the stdlib");
        let with = |sky| Weather { sky, ..Weather::default() };
        let limits: Vec<Option<f64>> =
            [Sky::Clear, Sky::Drizzle, Sky::Downpour, Sky::LightFog, Sky::DenseFog]
                .into_iter()
                .map(|sky| with(sky).sight_limit(&rules.tables))
                .collect();
        assert_eq!(limits, [None, None, Some(12.0), Some(18.0), Some(6.0)]);
        assert!(with(Sky::Downpour).spoils_first_volley(&rules.tables));
        assert!(!with(Sky::Drizzle).spoils_first_volley(&rules.tables));
        assert!(!with(Sky::LightFog).spoils_first_volley(&rules.tables));
    }
}

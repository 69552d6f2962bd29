//! Small helpers about names: "did you mean", compass words, a replacement colonel's name.

/// The name a log gives the colonel who takes over from a fallen leader when the scenario names
/// none (Ch16 2.4, RULINGS C9): "Col. replacing" and the fallen man's name, which a player can
/// type as it reads (`pips "Col. replacing Solomon Meredith" roll [3]`). dotc's own naming, not
/// a rule.
pub fn replacing(fallen: &str) -> String {
    format!("Col. replacing {fallen}")
}

/// The closest candidate to `word`, if any is close enough to be a plausible typo.
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_lowercase();
    let mut best: Option<(f64, &str)> = None;
    for candidate in candidates {
        let score = strsim::jaro_winkler(&lower, &candidate.to_lowercase());
        if score >= 0.8 && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Compass words and their bearings in degrees (0 = north, 90 = east).
pub const COMPASS: &[(&str, f64)] = &[
    ("north", 0.0),
    ("north_north_east", 22.5),
    ("north_east", 45.0),
    ("east_north_east", 67.5),
    ("east", 90.0),
    ("east_south_east", 112.5),
    ("south_east", 135.0),
    ("south_south_east", 157.5),
    ("south", 180.0),
    ("south_south_west", 202.5),
    ("south_west", 225.0),
    ("west_south_west", 247.5),
    ("west", 270.0),
    ("west_north_west", 292.5),
    ("north_west", 315.0),
    ("north_north_west", 337.5),
];

/// The bearing of a compass word.
pub fn compass_bearing(word: &str) -> Option<f64> {
    COMPASS.iter().find(|(w, _)| *w == word).map(|(_, b)| *b)
}

/// Table edges a side may enter from.
pub const EDGES: &[&str] = &["north", "east", "south", "west"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_typos_only() {
        assert_eq!(suggest("veteren", ["green", "regular", "veteran", "elite"]), Some("veteran"));
        assert_eq!(suggest("rifled_muskit", ["rifled_musket", "smoothbore_musket"]), Some("rifled_musket"));
        assert_eq!(suggest("zzz", ["green", "regular"]), None);
    }

    #[test]
    fn compass_words_have_bearings() {
        assert_eq!(compass_bearing("west"), Some(270.0));
        assert_eq!(compass_bearing("north_east"), Some(45.0));
        assert_eq!(compass_bearing("up"), None);
    }
}

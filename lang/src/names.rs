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

/// A whole number with its thousands marked: 500000 as `500,000`, -1200 as `-1,200`.
pub fn thousands(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_marked_every_three_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(500_000), "500,000");
        assert_eq!(thousands(-1_234_567), "-1,234,567");
        assert_eq!(thousands(i64::MIN), "-9,223,372,036,854,775,808");
    }

    #[test]
    fn a_date_reads_long_and_a_bad_month_as_written() {
        let date = |month| crate::ast::Date { year: 1863, month, day: 9 };
        assert_eq!(date(7).long(), "9 July 1863");
        assert_eq!(date(13).long(), "1863-13-09");
        assert_eq!(date(0).long(), "1863-00-09");
    }

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

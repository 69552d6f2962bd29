//! How each thing on the map looks: side colours, terrain styles, marker symbols.
//!
//! Styles are chosen by rule data id (`dense_woods`, `stone_wall`), so every stdlib kind has a
//! look of its own; a kind a scenario declares itself gets the style its properties suggest (a
//! line that moves at road rate is drawn as a road, one flagged `sunken` as a sunken road) or a
//! plain one. Nothing here is a rule number: these are drawing conventions.

use dotc_lang::library::{MoveColumn, Shape, TerrainKind, TerrainMove};

/// The font every label asks for; the PNG renderer embeds exactly this one.
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// A side's colours: the stands' fill, their outline and front edge, and a pale tint for the
/// leaders' bases and the legend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideColours {
    pub fill: &'static str,
    pub dark: &'static str,
    pub pale: &'static str,
}

const BLUE: SideColours = SideColours { fill: "#3a5fad", dark: "#16294f", pale: "#d5def2" };
const RED: SideColours = SideColours { fill: "#b3372f", dark: "#4f1410", pale: "#f3d6d3" };
const OTHERS: [SideColours; 4] = [
    SideColours { fill: "#2f8a57", dark: "#0f3a22", pale: "#d3ecdd" },
    SideColours { fill: "#7a4fa3", dark: "#2f1a45", pale: "#e6dbf1" },
    SideColours { fill: "#c27a1b", dark: "#4f2f05", pale: "#f5e3c8" },
    SideColours { fill: "#4a4a4a", dark: "#111111", pale: "#dddddd" },
];

/// The colours of every side, in the scenario's order. The Union is blue and the Confederacy
/// red whatever their order (as on the period's maps); any other side takes the next colour
/// left.
pub fn side_colours(ids: &[&str]) -> Vec<SideColours> {
    let role = |id: &str| {
        let id = id.to_lowercase();
        if ["union", "federal", "federals", "usa", "us"].contains(&id.as_str()) {
            Some(BLUE)
        } else if ["confederate", "confederates", "confederacy", "csa", "rebel", "rebels"]
            .contains(&id.as_str())
        {
            Some(RED)
        } else {
            None
        }
    };
    let mut taken: Vec<SideColours> = ids.iter().filter_map(|id| role(id)).collect();
    let mut spare = [BLUE, RED].into_iter().chain(OTHERS).filter(|c| !taken.contains(c)).collect::<Vec<_>>();
    spare.reverse();
    ids.iter()
        .map(|id| {
            role(id).unwrap_or_else(|| {
                let colour = spare.pop().unwrap_or(OTHERS[3]);
                taken.push(colour);
                colour
            })
        })
        .collect()
}

/// The look of an area of terrain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AreaStyle {
    Cornfield,
    Ploughed,
    Orchard,
    LightWoods,
    DenseWoods,
    Marsh,
    Town,
    Water,
    SunkenRoad,
    Road,
    /// Open ground and kinds of the scenario's own.
    Plain,
}

impl AreaStyle {
    pub fn of(kind: &TerrainKind) -> AreaStyle {
        match kind.meta.id.as_str() {
            "cornfield" => AreaStyle::Cornfield,
            "ploughed_field" => AreaStyle::Ploughed,
            "orchard" => AreaStyle::Orchard,
            "light_woods" => AreaStyle::LightWoods,
            "dense_woods" => AreaStyle::DenseWoods,
            "marsh" => AreaStyle::Marsh,
            "town" => AreaStyle::Town,
            "minor_stream" | "major_river" => AreaStyle::Water,
            "sunken_road" => AreaStyle::SunkenRoad,
            "road" => AreaStyle::Road,
            _ => AreaStyle::Plain,
        }
    }

    /// The id of its `<pattern>` (or None for a flat fill).
    pub fn pattern(self) -> Option<&'static str> {
        match self {
            AreaStyle::Cornfield => Some("cornfield"),
            AreaStyle::Ploughed => Some("ploughed"),
            AreaStyle::Orchard => Some("orchard"),
            AreaStyle::LightWoods => Some("light-woods"),
            AreaStyle::DenseWoods => Some("dense-woods"),
            AreaStyle::Marsh => Some("marsh"),
            AreaStyle::Town => Some("town"),
            AreaStyle::Water | AreaStyle::SunkenRoad | AreaStyle::Road | AreaStyle::Plain => None,
        }
    }

    /// The `fill` and `stroke` of its outline.
    pub fn paint(self) -> (String, &'static str) {
        let flat = match self {
            AreaStyle::Water => "#9cc3e6",
            AreaStyle::SunkenRoad => "#c9a77a",
            AreaStyle::Road => "#efe0b9",
            AreaStyle::Plain => "#efe9d6",
            _ => "",
        };
        let fill = match self.pattern() {
            Some(id) => format!("url(#{id})"),
            None => flat.to_string(),
        };
        let stroke = match self {
            AreaStyle::Cornfield => "#a68a2e",
            AreaStyle::Ploughed => "#8a6a43",
            AreaStyle::Orchard => "#6d9a4c",
            AreaStyle::LightWoods => "#5d8f45",
            AreaStyle::DenseWoods => "#2f5e24",
            AreaStyle::Marsh => "#5f8f86",
            AreaStyle::Town => "#6b6157",
            AreaStyle::Water => "#3f7fbf",
            AreaStyle::SunkenRoad => "#5a3d1e",
            AreaStyle::Road => "#9b8463",
            AreaStyle::Plain => "#a89f86",
        };
        (fill, stroke)
    }
}

/// The look of terrain drawn as a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LineStyle {
    Road,
    SunkenRoad,
    Stream,
    River,
    /// A line kind of the scenario's own: a track.
    Track,
}

impl LineStyle {
    /// By id; a kind of the scenario's own by its flags and movement.
    pub fn of(kind: &TerrainKind, flags: &[String]) -> LineStyle {
        match kind.meta.id.as_str() {
            "road" => LineStyle::Road,
            "sunken_road" => LineStyle::SunkenRoad,
            "minor_stream" => LineStyle::Stream,
            "major_river" => LineStyle::River,
            _ if flags.iter().any(|f| f == "sunken") => LineStyle::SunkenRoad,
            _ if matches!(kind.movement, TerrainMove::Passable { column: MoveColumn::Road, .. }) => {
                LineStyle::Road
            }
            _ if matches!(kind.movement, TerrainMove::Impassable) && kind.shapes.contains(&Shape::Line) => {
                LineStyle::River
            }
            _ => LineStyle::Track,
        }
    }

    /// Strokes drawn one over the other: (colour, width in inches, dash pattern).
    pub fn strokes(self) -> &'static [(&'static str, f64, Option<&'static str>)] {
        match self {
            LineStyle::Road => &[("#8c7657", 0.5, None), ("#f3e6c2", 0.34, None)],
            LineStyle::SunkenRoad => {
                &[("#4e3418", 0.56, None), ("#c9a77a", 0.36, None), ("#8c6a43", 0.04, Some("0.3 0.2"))]
            }
            LineStyle::Stream => &[("#3f7fbf", 0.3, None), ("#8fbbe6", 0.16, None)],
            LineStyle::River => &[("#2f6aa8", 1.0, None), ("#7fb0e0", 0.8, None)],
            LineStyle::Track => &[("#8c6a43", 0.22, Some("0.5 0.25"))],
        }
    }
}

/// The look of a linear obstacle (Ch16 4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObstacleStyle {
    /// A zigzag of rails.
    RailFence,
    /// A thick grey double line.
    StoneWall,
    /// A row of green bushes.
    Hedge,
    /// A line with felled trees across it.
    Abatis,
    /// An earth bank with hachures on the enemy side.
    Breastworks,
    /// Hasty works (Ch13 14.0): a thin bank of logs and earth, with hachures on the enemy side.
    HastyWorks,
    /// An obstacle of the scenario's own.
    Other,
}

impl ObstacleStyle {
    pub fn of(id: &str) -> ObstacleStyle {
        match id {
            "rail_fence" => ObstacleStyle::RailFence,
            "stone_wall" => ObstacleStyle::StoneWall,
            "hedge" => ObstacleStyle::Hedge,
            "abatis" => ObstacleStyle::Abatis,
            "breastworks" => ObstacleStyle::Breastworks,
            crate::battlefield::works::HASTY_WORKS | crate::battlefield::works::HASTY_WORKS_HEAVY => {
                ObstacleStyle::HastyWorks
            }
            _ => ObstacleStyle::Other,
        }
    }
}

/// The fill of a hill of `level` contours: each contour a shade darker.
pub fn hill_fill(level: u32) -> &'static str {
    const SHADES: [&str; 5] = ["#f1e6c9", "#e6d4a8", "#d9c08a", "#caa96c", "#b8925a"];
    SHADES[(level.max(1) as usize - 1).min(SHADES.len() - 1)]
}

pub const HILL_STROKE: &str = "#9a7444";
pub const CREST_STROKE: &str = "#5c3f1c";
pub const BUILDING_FILL: &str = "#9b6d4e";
pub const BUILDING_STROKE: &str = "#3a2416";
pub const OBJECTIVE_FILL: &str = "#f2c14e";
pub const OBJECTIVE_STROKE: &str = "#6b4e00";

/// The symbol of a marker a unit carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MarkerSymbol {
    /// A red disc with a white D (Disorder, Ch16 8.3).
    Disorder,
    /// A grey cloud on the 1" square in front of the unit (RULE-05-5.1).
    Gunsmoke,
    /// A yellow square with an A (Low Ammo, RULE-05-2.5b).
    LowAmmo,
    /// A black disc with a white 1.
    MicroHit,
    /// A white disc ringed in red with the stands the unit has lost ("\u{2212}2"): not a marker
    /// of the rules, the map's own note of its losses (issue 21).
    StandsLost,
    /// A grey disc with the marker's initial.
    Other,
}

impl MarkerSymbol {
    pub fn of(id: &str) -> MarkerSymbol {
        match id {
            "disorder" => MarkerSymbol::Disorder,
            "gunsmoke" => MarkerSymbol::Gunsmoke,
            "low_ammo" => MarkerSymbol::LowAmmo,
            "micro_hit" => MarkerSymbol::MicroHit,
            _ => MarkerSymbol::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_union_is_blue_and_the_confederacy_red_in_any_order() {
        assert_eq!(side_colours(&["confederate", "union"]), vec![RED, BLUE]);
        assert_eq!(side_colours(&["union", "confederate"]), vec![BLUE, RED]);
        // Other sides take the colours left, never one already taken.
        let three = side_colours(&["union", "french", "british"]);
        assert_eq!(three[0], BLUE);
        assert_eq!(three[1], RED);
        assert_eq!(three[2], OTHERS[0]);
    }

    #[test]
    fn every_stdlib_kind_has_a_style_of_its_own() {
        let data = dotc_lang::stdlib();
        let areas: Vec<AreaStyle> =
            data.terrain_kinds().iter().filter(|k| k.meta.id != "open").map(AreaStyle::of).collect();
        assert!(!areas.contains(&AreaStyle::Plain), "{areas:?}");
        for obstacle in data.obstacles() {
            assert_ne!(ObstacleStyle::of(&obstacle.meta.id), ObstacleStyle::Other, "{}", obstacle.meta.id);
        }
        for marker in ["disorder", "gunsmoke", "low_ammo"] {
            assert!(data.marker(marker).is_some());
            assert_ne!(MarkerSymbol::of(marker), MarkerSymbol::Other);
        }
    }

    #[test]
    fn higher_hills_are_darker() {
        assert_ne!(hill_fill(1), hill_fill(2));
        assert_eq!(hill_fill(0), hill_fill(1));
        assert_eq!(hill_fill(99), hill_fill(5));
    }
}

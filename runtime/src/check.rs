//! Scenario checks that need the table's geometry.

use dotc_lang::ast::{Facing, Scenario, Unit, UnitKind};
use dotc_lang::catalogue;
use dotc_lang::check::{NameIndex, men_to_stands};
use dotc_lang::diagnostic::Diagnostic;
use dotc_lang::library::RuleData;
use dotc_lang::names::compass_bearing;
use geo::Polygon;

use crate::geometry::{Layout, OVERLAP_TOLERANCE, footprint, overlap_area};

/// Units whose footprints overlap at the start of the scenario (`dotc::stacked-units`).
///
/// Units without a position (reinforcements) or with an unreadable facing are skipped: the
/// language checks already report those.
pub fn check_scenario(scenario: &Scenario, _names: &NameIndex, data: &RuleData) -> Vec<Diagnostic> {
    let men_per_stand = scenario.men_per_stand.as_ref().map(|m| m.value);
    let mut placed: Vec<(&Unit, Polygon<f64>)> = Vec::new();
    for side in &scenario.sides {
        let units = side.brigades.iter().flat_map(|b| b.units.iter()).chain(side.units.iter());
        for unit in units {
            if let Some(shape) = unit_footprint(unit, data, men_per_stand) {
                placed.push((unit, shape));
            }
        }
    }
    let mut diagnostics = Vec::new();
    for (i, (unit, shape)) in placed.iter().enumerate() {
        for (other, other_shape) in &placed[..i] {
            let area = overlap_area(shape, other_shape);
            if area > OVERLAP_TOLERANCE {
                let at = unit.position.as_ref().map_or(unit.name.span, |p| p.span);
                let other_at = other.position.as_ref().map_or(other.name.span, |p| p.span);
                diagnostics.push(catalogue::stacked_units(
                    at,
                    &unit.name.value,
                    &other.name.value,
                    other_at,
                    area,
                ));
            }
        }
    }
    diagnostics
}

/// The footprint of a unit as declared, if it has a position, a facing and a strength.
pub fn unit_footprint(unit: &Unit, data: &RuleData, men_per_stand: Option<u32>) -> Option<Polygon<f64>> {
    let position = unit.position.as_ref()?.value;
    let facing = match &unit.facing.as_ref()?.value {
        Facing::Degrees(d) => *d,
        Facing::Word(w) => compass_bearing(w)?,
    };
    let stands = match (unit.kind, &unit.sections, &unit.stands, &unit.men, men_per_stand) {
        (UnitKind::Battery, Some(s), _, _, _) => s.value,
        (_, _, Some(s), _, _) => s.value,
        (_, _, None, Some(m), Some(per)) if per > 0 => men_to_stands(m.value, per),
        _ => return None,
    };
    if !(1.0..=1000.0).contains(&stands) {
        return None;
    }
    let formation = unit.words.iter().find_map(|w| data.formation(&w.value));
    let (frontage, gap) = match formation {
        Some(f) => (f.frontage_stands(), f.gap_inches()),
        None => (None, 0.0),
    };
    Some(footprint((position.x, position.y), facing, Layout::new(stands as u32, frontage, gap)))
}

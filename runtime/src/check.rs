//! Scenario checks that need the table's geometry.

use dotc_lang::ast::{Scenario, Unit};
use dotc_lang::catalogue;
use dotc_lang::check::NameIndex;
use dotc_lang::diagnostic::Diagnostic;
use dotc_lang::library::RuleData;
use geo::Polygon;

use crate::battlefield::Body;
use crate::geometry::{OVERLAP_TOLERANCE, overlap_area};

/// Units whose footprints overlap at the start of the scenario (`dotc::stacked-units`), and
/// scenario scripts that do not compile (`dotc::script-error`, see [`crate::script::check`]).
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
    // Scenario scripts: every script, trigger and victory `when` compiles (`dotc::script-error`).
    let mut diagnostics = crate::script::check(scenario);
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

/// The footprint of a unit as declared, if it has a position, a facing and a strength (see
/// [`Body::from_unit`]).
pub fn unit_footprint(unit: &Unit, data: &RuleData, men_per_stand: Option<u32>) -> Option<Polygon<f64>> {
    Body::from_unit(unit, data, men_per_stand).map(|body| body.footprint())
}

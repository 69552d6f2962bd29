//! Hasty works (module `digging_in`, Ch13 14.0, dotc D12): what the ground under a dug-in
//! regiment allows, where its works go, and whom they cover.
//!
//! - **Where they may be dug.** Not in a watercourse, a marsh or masonry: a regiment with any
//!   stand in (more than half of the stand inside) an area, or on a line, whose terrain kind says
//!   `no_hasty_works`, or inside a building whose structure says so, or garrisoning one, digs
//!   nothing ([`Battlefield::works_ground`]).
//! - **What they give.** The cover the regiment already has where it stands, from the ground
//!   alone (the area or line most of its stands are in, a linear obstacle running through the
//!   1" strip ahead of its front, as [`super::cover`] reads them), upgraded one class: open
//!   ground to the stdlib's `obstacle hasty_works` (light, 5+), light cover to
//!   `hasty_works_heavy` (heavy, 4+); heavy cover stays heavy (RULINGS G17), so it is
//!   `hasty_works_heavy` too ([`works_for`]).
//! - **Where they stand.** Along the regiment's front edge as it stands at the end of the turn,
//!   and there they stay: a unit that moves off them leaves them behind, and any unit that later
//!   stands behind them has their cover (dotc D12).
//! - **Whom they cover.** A unit whose 1" strip ahead of its front edge the works run through,
//!   against fire from a firer with a stand in its front arc (Ch13 14.0 "protects against fire
//!   crossing the front arc", Ch16 4.5, RULINGS G13). Like any obstacle lined along a front
//!   their light save is a frontal obstacle's ([`super::cover`]): enfilade and lobbed shells
//!   take it away.

use dotc_lang::library::{Cover, CoverClass};
use geo::{Intersects, LineString, Polygon};

use super::Battlefield;
use super::arcs::in_front_arc;
use super::body::Body;
use super::cover::{front_strip, obstacles_lined, rank, stand_in_area};
use super::sight::inside_length;

/// The rule data id of the works dug on open ground (Ch13 14.0: light cover, 5+).
pub const HASTY_WORKS: &str = "hasty_works";
/// The rule data id of the works dug along light (or heavy) cover (Ch13 14.0, RULINGS G17:
/// heavy cover, 4+).
pub const HASTY_WORKS_HEAVY: &str = "hasty_works_heavy";

/// A Hasty Works marker on the table (Ch13 14.0).
#[derive(Clone, Debug, PartialEq)]
pub struct HastyWorks {
    /// The regiment that dug them.
    pub unit: String,
    /// Their rule data entry (`hasty_works` or `hasty_works_heavy`), whose save the cover
    /// save uses.
    pub id: String,
    /// Their cover and save, from that entry.
    pub cover: Cover,
    /// Where they run: the regiment's front edge at the end of the turn it dug in.
    pub line: LineString<f64>,
    /// The turn they were dug in.
    pub turn: u32,
}

/// The works the ground gives (Ch13 14.0, RULINGS G17): open ground becomes light cover, light
/// cover heavy, and heavy cover stays heavy.
pub fn works_for(ground: CoverClass) -> &'static str {
    match ground {
        CoverClass::None => HASTY_WORKS,
        CoverClass::Light | CoverClass::Heavy => HASTY_WORKS_HEAVY,
    }
}

/// The cover class a unit has behind works dug on ground of class `ground` (the odds' `--works`).
pub fn upgraded(ground: CoverClass) -> CoverClass {
    match ground {
        CoverClass::None => CoverClass::Light,
        CoverClass::Light | CoverClass::Heavy => CoverClass::Heavy,
    }
}

impl Battlefield {
    /// The cover class of the ground `body` stands on, for its works (Ch13 14.0): the best of
    /// the area or line most of its stands are in and the obstacles it lines; or why works may
    /// not be dug there: the id of a terrain kind or structure that forbids them.
    pub fn works_ground(&self, body: &Body, garrison: Option<&str>) -> Result<CoverClass, String> {
        if let Some(building) = garrison.and_then(|name| self.building(name)) {
            return Err(building.structure.meta.id.clone());
        }
        let stands = body.stands();
        let most = |inside: usize| 2 * inside > stands.len();
        let mut best = CoverClass::None;
        let mut better = |class: CoverClass| {
            if rank(class) > rank(best) {
                best = class;
            }
        };
        for area in &self.areas {
            let inside = stands.iter().filter(|s| stand_in_area(s, &area.outline)).count();
            if inside > 0 && area.terrain.no_hasty_works {
                return Err(area.terrain.meta.id.clone());
            }
            if most(inside) {
                better(area.terrain.cover.class);
            }
        }
        for lane in &self.lines {
            let on = |s: &&Polygon<f64>| lane.line.lines().any(|segment| inside_length(s, &segment) > 0.0);
            let count = stands.iter().filter(on).count();
            if count > 0 && lane.terrain.no_hasty_works {
                return Err(lane.terrain.meta.id.clone());
            }
            if most(count) {
                better(lane.terrain.cover.class);
            }
        }
        for building in &self.buildings {
            let Some(walls) = &building.footprint else { continue };
            if building.structure.no_hasty_works && stands.iter().any(|s| stand_in_area(s, walls)) {
                return Err(building.structure.meta.id.clone());
            }
        }
        let front = front_strip(body);
        for obstacle in obstacles_lined(&self.obstacles, &front) {
            better(obstacle.obstacle.cover.class);
        }
        for works in self.works.iter().filter(|w| w.line.intersects(&front)) {
            better(works.cover.class);
        }
        Ok(best)
    }

    /// The works `target` stands behind that cover it against fire from `firer`: those running
    /// through the strip ahead of its front (`front`), when a stand of the firer is in its front
    /// arc (Ch13 14.0).
    pub(super) fn works_lined<'a>(
        &'a self,
        firer: &Body,
        target: &Body,
        front: &'a Polygon<f64>,
    ) -> impl Iterator<Item = &'a HastyWorks> {
        let frontal = !self.works.is_empty() && in_front_arc(target, firer);
        self.works.iter().filter(move |w| frontal && w.line.intersects(front))
    }
}

/// The line of a regiment's front edge, where its works go (Ch13 14.0).
pub fn works_line(body: &Body) -> LineString<f64> {
    let edge = body.front_edge();
    LineString::from(vec![edge.start, edge.end])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battlefield::tests::{field, line};
    use crate::engine::fire::CoverInput;

    fn dig(f: &mut Battlefield, body: &Body) {
        let ground = f.works_ground(body, None).expect("works may be dug here");
        let data = dotc_lang::stdlib();
        let id = works_for(ground);
        let cover = data.obstacle(id).expect("the stdlib has the works").cover;
        f.works.push(HastyWorks {
            unit: "Diggers".into(),
            id: id.into(),
            cover,
            line: works_line(body),
            turn: 1,
        });
    }

    #[test]
    fn ch13_14_0_works_on_open_ground_give_light_cover_against_fire_from_the_front() {
        // A 5-stand line facing north at (10, 10), stands x = 7.5..12.5, y = 9.25..10; its
        // works run along y = 10. A firer due north at (10, 20) facing south is in its front
        // arc: light cover, 5+, from the works (a frontal obstacle).
        let mut f = field("");
        let diggers = line((10.0, 10.0), 0.0, 5);
        let north = line((10.0, 20.0), 180.0, 5);
        assert_eq!(f.cover(&north, &diggers, None), CoverInput::open());
        dig(&mut f, &diggers);
        assert_eq!(f.cover(&north, &diggers, None), CoverInput::of(CoverClass::Light, HASTY_WORKS, true));
        // A firer due east at (25, 9.6) facing west is outside the 45-degree front arc (its
        // stands span y = 9.6..10.35 at x >= 24.25; the arc's ray from (12.5, 10) reaches
        // y = 21.75 there): no cover.
        let east = line((25.0, 9.6), 270.0, 5);
        assert_eq!(f.cover(&east, &diggers, None), CoverInput::open());
    }

    #[test]
    fn ch13_14_0_works_on_light_cover_are_heavy_and_they_stay_where_they_were_dug() {
        // A rail fence 0.5" ahead of the line: light cover (5+); the works dug there are heavy.
        let mut f = field("rail_fence \"Fence\" line (0, 10.5) (20, 10.5)");
        let diggers = line((10.0, 10.0), 0.0, 5);
        assert_eq!(f.works_ground(&diggers, None), Ok(CoverClass::Light));
        dig(&mut f, &diggers);
        let north = line((10.0, 20.0), 180.0, 5);
        assert_eq!(
            f.cover(&north, &diggers, None),
            CoverInput::of(CoverClass::Heavy, HASTY_WORKS_HEAVY, true)
        );
        // The regiment falls back 3" (front edge y = 7): the works stay at y = 10, 3" ahead of
        // it, beyond its 1" strip, and the fence too: no cover.
        let moved = line((10.0, 7.0), 0.0, 5);
        assert_eq!(f.cover(&north, &moved, None), CoverInput::open());
    }

    #[test]
    fn ch13_14_0_no_works_in_streams_marshes_or_masonry() {
        let f = field("marsh \"Bog\" polygon (0, 0) (20, 0) (20, 9.6) (0, 9.6)");
        // Stands y = 9.25..10: 0.35 of each 0.75" deep stand in the marsh, less than half.
        assert_eq!(f.works_ground(&line((10.0, 10.0), 0.0, 5), None), Ok(CoverClass::None));
        // At y = 9.9 (stands 9.15..9.9): 0.45 of 0.75 inside, more than half: prohibited.
        assert_eq!(f.works_ground(&line((10.0, 9.9), 0.0, 5), None), Err("marsh".into()));
        let f = field("minor_stream \"Run\" line (0, 9.5) (20, 9.5)");
        assert_eq!(f.works_ground(&line((10.0, 10.0), 0.0, 5), None), Err("minor_stream".into()));
        let f = field("masonry_building \"House\" at (10, 9.6) size 2 x 2");
        assert_eq!(f.works_ground(&line((10.0, 10.0), 0.0, 5), None), Err("masonry_building".into()));
        assert_eq!(
            f.works_ground(&line((30.0, 30.0), 0.0, 2), Some("House")),
            Err("masonry_building".into())
        );
    }

    #[test]
    fn ch13_14_0_rulings_g17_works_upgrade_one_class_and_heavy_stays_heavy() {
        assert_eq!(works_for(CoverClass::None), HASTY_WORKS);
        assert_eq!(works_for(CoverClass::Light), HASTY_WORKS_HEAVY);
        assert_eq!(works_for(CoverClass::Heavy), HASTY_WORKS_HEAVY);
        assert_eq!(upgraded(CoverClass::None), CoverClass::Light);
        assert_eq!(upgraded(CoverClass::Light), CoverClass::Heavy);
        assert_eq!(upgraded(CoverClass::Heavy), CoverClass::Heavy);
    }
}

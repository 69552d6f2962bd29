//! Elevation: Ch16 4.4, RULE-05-6.3, RULINGS C2 and G17.
//!
//! - **Level**: the level of the highest hill whose outline holds the point; the outline itself
//!   counts as on the hill; elsewhere 0. A unit's level is the level at its colours.
//! - **Crest**: a unit holds a hill's crest when it stands at the hill's level and some stand
//!   lies within the dead ground depth (the stdlib's `elevation crest`, `dead_ground 1`) of the crest line (inclusive): exactly the ground from
//!   which it can still be seen from below.
//! - **Dead ground** (Ch16 4.4): a target is hidden from a viewer at a lower level than a hill
//!   when the line of sight (colours to nearest target point) meets the hill's crest and every
//!   stand of the target is more than that depth (1.0") beyond it: 1.0" behind is
//!   visible, 1.1" is not. A hill without a `crest` hides nothing. Under dotc D53's default
//!   (`dead_ground_sight = both_ways`) the crest blocks the same line the other way too: the
//!   unit behind it does not see the lower unit either.
//! - **Slope** (Ch16 4.4, 7.3, RULINGS G17): a crest-holder firing or assaulting a lower unit
//!   gets the crest advantage; a lower attacker charging a crest-holder is going uphill (-1 to
//!   him, and Ch16 7.3's +1 to the crest defender: G17 applies both).
//! - **Overhead fire** (RULE-05-6.3, Ch16 4.4, RULINGS C2): a battery at level 1 or more may fire
//!   over a friendly unit on lower ground if the friend is at least 6" from the muzzles (the
//!   battery's front edge) and 4" from the target (`overhead_clearance = six_and_four`), or 3"
//!   and 3" (`three_and_three`, the Ch13 7.0 module). "At least" is inclusive. Canister is never
//!   fired overhead.

use dotc_lang::library::BandName;
use geo::{BoundingRect, Distance, Euclidean, Intersects, LineString, Point, Polygon};

use super::body::Body;
use super::range::range_line;
use super::{Battlefield, Hill};
use crate::geometry::measured;
use crate::rulings::{DeadGroundSight, OverheadClearance};

/// The clearances of RULINGS C2 (inches from the muzzles, inches from the target).
pub fn overhead_clearances(ruling: OverheadClearance) -> (f64, f64) {
    match ruling {
        OverheadClearance::SixAndFour => (6.0, 4.0),
        OverheadClearance::ThreeAndThree => (3.0, 3.0),
    }
}

/// A target hidden in dead ground, or a viewer that cannot see out of it.
#[derive(Clone, Debug, PartialEq)]
pub struct DeadGround {
    /// The index of the hill in [`Battlefield::hills`].
    pub hill: usize,
    /// How far the hidden unit's nearest stand lies beyond the crest, inches.
    pub behind: f64,
    /// The hidden unit is the viewer, not the target: it stands in dead ground behind the crest
    /// and cannot see the foot of the hill (dotc D53 `both_ways`).
    pub viewer_hidden: bool,
}

/// The slope between an attacker and a defender (Ch16 4.4, 7.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slope {
    pub attacker_level: u32,
    pub defender_level: u32,
    /// The attacker holds a crest and fires or assaults downhill: +1 melee shock (Ch16 4.4).
    pub downhill_from_crest: bool,
    /// The attacker charges uphill against a crest-holder: -1 to him (Ch16 4.4) and +1 to the
    /// defender (Ch16 7.3); RULINGS G17 applies both.
    pub uphill_against_crest: bool,
}

/// What a battery fires overhead with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverheadFire {
    /// The band of the volley: canister is never fired overhead.
    pub band: BandName,
    pub clearance: OverheadClearance,
}

/// Why a battery may not fire over a friendly unit (RULE-05-6.3, RULINGS C2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OverheadBar {
    /// Canister is never fired overhead.
    Canister,
    /// The battery is not on level 1 or higher.
    NotElevated { level: u32 },
    /// The friend is not on lower ground than the battery.
    FriendNotLower { battery: u32, friend: u32 },
    /// The friend is nearer the muzzles than the clearance.
    NearMuzzle { inches: f64, needed: f64 },
    /// The friend is nearer the target than the clearance.
    NearTarget { inches: f64, needed: f64 },
}

impl Battlefield {
    /// The hill a point stands on: the highest whose outline holds it (the outline included).
    pub fn hill_at(&self, point: (f64, f64)) -> Option<(usize, &Hill)> {
        let p = Point::new(point.0, point.1);
        self.hills.iter().enumerate().filter(|(_, h)| h.outline.intersects(&p)).max_by_key(|(_, h)| h.level)
    }

    /// The level at a point (Ch16 4.4): 0 off every hill.
    pub fn level_at(&self, point: (f64, f64)) -> u32 {
        self.hill_at(point).map_or(0, |(_, h)| h.level)
    }

    /// A unit's level: the level at its colours.
    pub fn level_of(&self, body: &Body) -> u32 {
        self.level_at(body.position)
    }

    /// The hill whose crest the unit holds, if any: it stands at the hill's level and a stand
    /// lies within the dead ground depth ([`Battlefield::dead_ground_depth`]) of the crest line.
    pub fn crest_held_by(&self, body: &Body) -> Option<(usize, &Hill)> {
        let level = self.level_of(body);
        self.hills.iter().enumerate().find(|(_, hill)| {
            hill.level == level
                && level > 0
                && hill.crest.as_ref().is_some_and(|crest| {
                    self.dead_ground_depth.is_some_and(|depth| beyond_by_more(crest, body, depth).is_none())
                })
        })
    }

    /// Whether `target` is hidden from `viewer` in dead ground behind a crest (Ch16 4.4).
    pub fn dead_ground(&self, viewer: &Body, target: &Body) -> Option<DeadGround> {
        let sight = range_line(viewer, target);
        // The viewer's level is looked up only once a crest lies across the line (issue 16).
        let mut viewer_level = None;
        self.hills.iter().enumerate().find_map(|(index, hill)| {
            let crest = hill.crest.as_ref()?;
            // A crest whose box misses the line's is not crossed (issue 16).
            if crate::geometry::rects_apart(Some(sight.bounding_rect()), crest.bounding_rect())
                || !sight.intersects(crest)
                || hill.level <= *viewer_level.get_or_insert_with(|| self.level_of(viewer))
            {
                return None;
            }
            let depth = self.dead_ground_depth?;
            beyond_by_more(crest, target, depth).map(|behind| DeadGround {
                hill: index,
                behind,
                viewer_hidden: false,
            })
        })
    }

    /// Whether dead ground stands between `viewer` and `target` under the battlefield's dotc D53
    /// ruling: the target hidden behind a crest from a lower viewer (Ch16 4.4), and under
    /// `both_ways` also a viewer behind a crest that cannot see a lower target at the foot.
    pub fn dead_ground_between(&self, viewer: &Body, target: &Body) -> Option<DeadGround> {
        self.dead_ground(viewer, target).or_else(|| match self.dead_ground_sight {
            DeadGroundSight::BothWays => {
                self.dead_ground(target, viewer).map(|hidden| DeadGround { viewer_hidden: true, ..hidden })
            }
            DeadGroundSight::FromBelow => None,
        })
    }

    /// The slope between an attacker and the unit it fires at or assaults (Ch16 4.4, 7.3).
    pub fn slope(&self, attacker: &Body, defender: &Body) -> Slope {
        let attacker_level = self.level_of(attacker);
        let defender_level = self.level_of(defender);
        Slope {
            attacker_level,
            defender_level,
            downhill_from_crest: attacker_level > defender_level && self.crest_held_by(attacker).is_some(),
            uphill_against_crest: attacker_level < defender_level && self.crest_held_by(defender).is_some(),
        }
    }

    /// Whether a battery may fire over `friend` at `target` (RULE-05-6.3, Ch16 4.4, RULINGS C2).
    pub fn overhead_clear(
        &self,
        battery: &Body,
        target: &Body,
        friend: &Body,
        fire: OverheadFire,
    ) -> Result<(), OverheadBar> {
        if fire.band == BandName::Canister {
            return Err(OverheadBar::Canister);
        }
        let level = self.level_of(battery);
        if level == 0 {
            return Err(OverheadBar::NotElevated { level });
        }
        let friend_level = self.level_of(friend);
        if friend_level >= level {
            return Err(OverheadBar::FriendNotLower { battery: level, friend: friend_level });
        }
        let (from_muzzle, from_target) = overhead_clearances(fire.clearance);
        let muzzles = battery.front_edge();
        let friend_stands = friend.stands();
        let near_muzzle = measured(min_over(&friend_stands, |s| Euclidean.distance(&muzzles, s)));
        if near_muzzle < from_muzzle {
            return Err(OverheadBar::NearMuzzle { inches: near_muzzle, needed: from_muzzle });
        }
        let target_stands = target.stands();
        let near_target =
            measured(min_over(&friend_stands, |s| min_over(&target_stands, |t| Euclidean.distance(s, t))));
        if near_target < from_target {
            return Err(OverheadBar::NearTarget { inches: near_target, needed: from_target });
        }
        Ok(())
    }
}

/// The least distance from a crest line to a unit's stands when it is more than `depth`; None
/// as soon as one stand lies within `depth` (issue 16: the rest need not be measured).
fn beyond_by_more(crest: &LineString<f64>, body: &Body, depth: f64) -> Option<f64> {
    let mut least = f64::INFINITY;
    for stand in body.stands() {
        let gap = measured(Euclidean.distance(crest, &stand));
        if gap <= depth {
            return None;
        }
        least = least.min(gap);
    }
    Some(least)
}

fn min_over(stands: &[Polygon<f64>], f: impl Fn(&Polygon<f64>) -> f64) -> f64 {
    stands.iter().map(f).fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battlefield::tests::{field, line};

    /// A level-1 hill from x = 0 to 20 (y = 0..40) with its crest at x = 15; a level-2 knoll on
    /// it at x = 2..6, y = 2..6.
    fn hills() -> Battlefield {
        field(
            "hill \"Ridge\" level 1 polygon (0, 0) (20, 0) (20, 40) (0, 40) crest (15, 0) (15, 40)\n\
             hill \"Knoll\" level 2 polygon (2, 2) (6, 2) (6, 6) (2, 6)",
        )
    }

    #[test]
    fn the_level_is_the_highest_hill_under_the_point() {
        let f = hills();
        assert_eq!(f.level_at((30.0, 10.0)), 0);
        assert_eq!(f.level_at((10.0, 10.0)), 1);
        assert_eq!(f.level_at((20.0, 10.0)), 1); // on the outline
        assert_eq!(f.level_at((4.0, 4.0)), 2);
    }

    #[test]
    fn one_inch_behind_the_crest_is_visible_and_one_point_one_is_not() {
        // Viewer: 5-stand line at (30, 20) facing west, level 0. Target: 5-stand line facing
        // east on the hill's reverse slope; its front edge is its nearest part to the crest
        // x = 15. Front at x = 14: 1.0" behind: visible. At x = 13.9: 1.1": dead ground.
        let f = hills();
        let viewer = line((30.0, 20.0), 270.0, 5);
        assert_eq!(f.dead_ground(&viewer, &line((14.0, 20.0), 90.0, 5)), None);
        let hidden = f.dead_ground(&viewer, &line((13.9, 20.0), 90.0, 5)).unwrap();
        assert_eq!(hidden.hill, 0);
        assert!((hidden.behind - 1.1).abs() < 1e-9);
        // A viewer on the crest (level 1) sees it.
        assert_eq!(f.dead_ground(&line((16.0, 20.0), 270.0, 5), &line((13.9, 20.0), 90.0, 5)), None);
        // A target on the viewer's side of the crest is never in dead ground.
        assert_eq!(f.dead_ground(&viewer, &line((17.0, 20.0), 90.0, 5)), None);
    }

    #[test]
    fn crest_advantage_and_the_uphill_charge() {
        // Defender on the crest: 5-stand line at (15.5, 20) facing east (front 0.5" ahead of the
        // crest, level 1). Attacker at the foot: (24, 20) facing west, level 0.
        let f = hills();
        let crest = line((15.5, 20.0), 90.0, 5);
        let below = line((24.0, 20.0), 270.0, 5);
        let up = f.slope(&below, &crest);
        assert_eq!((up.attacker_level, up.defender_level), (0, 1));
        assert!(up.uphill_against_crest && !up.downhill_from_crest);
        let down = f.slope(&crest, &below);
        assert!(down.downhill_from_crest && !down.uphill_against_crest);
        // 2" behind the crest the defender no longer holds it: no uphill penalty.
        let back = line((12.0, 20.0), 90.0, 5);
        assert!(!f.slope(&below, &back).uphill_against_crest);
    }

    #[test]
    fn overhead_fire_needs_clearances_and_no_canister() {
        // Battery: 2 sections at (16, 20) facing east, level 1: muzzles along x = 16.
        // Friend: 5-stand line at level 0 facing east; its stands run from x - 0.75 to x.
        // Target: facing west with its front at x = 34.
        let f = hills();
        let battery = line((16.0, 20.0), 90.0, 2);
        let target = line((34.0, 20.0), 270.0, 5);
        let fire = OverheadFire { band: BandName::Medium, clearance: OverheadClearance::SixAndFour };
        // Friend at x = 22.75..23.5: 6.75" from the muzzles, 10.5" from the target: clear.
        assert_eq!(f.overhead_clear(&battery, &target, &line((23.5, 20.0), 90.0, 5), fire), Ok(()));
        // Friend at x = 22..22.75: exactly 6.0" from the muzzles: still clear (>=).
        assert_eq!(f.overhead_clear(&battery, &target, &line((22.75, 20.0), 90.0, 5), fire), Ok(()));
        // x = 21.9..22.65: 5.9": too near the guns.
        assert_eq!(
            f.overhead_clear(&battery, &target, &line((22.65, 20.0), 90.0, 5), fire),
            Err(OverheadBar::NearMuzzle { inches: 5.9, needed: 6.0 })
        );
        // x = 29.25..30: 4.0" from the target: clear; x = 29.35..30.1: 3.9": too near it.
        assert_eq!(f.overhead_clear(&battery, &target, &line((30.0, 20.0), 90.0, 5), fire), Ok(()));
        assert_eq!(
            f.overhead_clear(&battery, &target, &line((30.1, 20.0), 90.0, 5), fire),
            Err(OverheadBar::NearTarget { inches: 3.9, needed: 4.0 })
        );
        // With the Ch13 7.0 module's 3"/3" the near friend is clear.
        let module = OverheadFire { clearance: OverheadClearance::ThreeAndThree, ..fire };
        assert_eq!(f.overhead_clear(&battery, &target, &line((30.1, 20.0), 90.0, 5), module), Ok(()));
        // Canister never.
        let canister = OverheadFire { band: BandName::Canister, ..fire };
        assert_eq!(
            f.overhead_clear(&battery, &target, &line((23.5, 20.0), 90.0, 5), canister),
            Err(OverheadBar::Canister)
        );
        // A battery at level 0 cannot fire overhead; nor over a friend as high as itself.
        assert_eq!(
            f.overhead_clear(&line((40.0, 20.0), 270.0, 2), &target, &line((36.0, 20.0), 270.0, 5), fire),
            Err(OverheadBar::NotElevated { level: 0 })
        );
        assert_eq!(
            f.overhead_clear(&battery, &target, &line((19.5, 20.0), 90.0, 5), fire),
            Err(OverheadBar::FriendNotLower { battery: 1, friend: 1 })
        );
    }
}

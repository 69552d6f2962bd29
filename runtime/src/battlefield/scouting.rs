//! Scouting, the first category of pre-game command bidding (Ch13 1.0): before deployment the
//! winner moves one non-river terrain piece up to the rule data's distance (`maneuver scouting`,
//! 6"), or removes it. Under dotc D22 a move is a translation (the piece keeps its shape and
//! orientation; every point of it moves by the same amount, which is what is measured); a
//! removal is allowed at any distance; a watercourse (a terrain kind flagged `river`) is not a
//! piece, nor a line of terrain (a road) that touches one, since its ford or bridge stays on the
//! river; an objective is a victory marker, not terrain.

use geo::{Intersects, Translate};

use super::Battlefield;
use crate::geometry::MEASURE_PRECISION;

/// What the Scouting winner does with the piece it picks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scout {
    /// Moved `dx` inches east and `dy` north.
    Move {
        dx: f64,
        dy: f64,
    },
    Remove,
}

impl Battlefield {
    /// Move or remove the terrain piece named `piece` (Ch13 1.0, dotc D22), a move at most
    /// `most` inches; or say why it may not be, leaving the battlefield as it was.
    pub fn scout(&mut self, piece: &str, how: Scout, most: f64) -> Result<(), String> {
        let (dx, dy) = match how {
            Scout::Move { dx, dy } => (dx, dy),
            Scout::Remove => (0.0, 0.0),
        };
        let distance = dx.hypot(dy);
        if !distance.is_finite() || distance > most + MEASURE_PRECISION {
            return Err(format!(
                "\"{piece}\" would move {distance:.2}\"; Scouting moves a piece at most {most}\""
            ));
        }
        let named = |name: &Option<String>| name.as_deref() == Some(piece);
        let remove = how == Scout::Remove;
        if let Some(i) = self.areas.iter().position(|a| named(&a.name)) {
            if self.areas[i].terrain.river {
                return Err(river(piece));
            }
            if remove {
                self.areas.remove(i);
            } else {
                self.areas[i].outline.translate_mut(dx, dy);
            }
            return Ok(());
        }
        if let Some(i) = self.lines.iter().position(|l| named(&l.name)) {
            let line = &self.lines[i];
            if line.terrain.river {
                return Err(river(piece));
            }
            let crosses = self.lines.iter().any(|r| r.terrain.river && r.line.intersects(&line.line))
                || self.areas.iter().any(|a| a.terrain.river && a.outline.intersects(&line.line));
            if crosses {
                return Err(format!(
                    "\"{piece}\" meets a river: its crossing stays where the scenario put it, so it is not a piece Scouting may move or remove (dotc D22)"
                ));
            }
            if remove {
                self.lines.remove(i);
            } else {
                let line = &mut self.lines[i];
                line.line.translate_mut(dx, dy);
                for p in line.fords.iter_mut().chain(line.bridges.iter_mut()) {
                    *p = (p.0 + dx, p.1 + dy);
                }
            }
            return Ok(());
        }
        if let Some(i) = self.obstacles.iter().position(|o| named(&o.name)) {
            if remove {
                self.obstacles.remove(i);
            } else {
                self.obstacles[i].line.translate_mut(dx, dy);
            }
            return Ok(());
        }
        if let Some(i) = self.buildings.iter().position(|b| named(&b.name)) {
            if remove {
                self.buildings.remove(i);
            } else {
                let b = &mut self.buildings[i];
                b.at = (b.at.0 + dx, b.at.1 + dy);
                if let Some(f) = &mut b.footprint {
                    f.translate_mut(dx, dy);
                }
            }
            return Ok(());
        }
        if let Some(i) = self.hills.iter().position(|h| named(&h.name)) {
            if remove {
                self.hills.remove(i);
            } else {
                let h = &mut self.hills[i];
                h.outline.translate_mut(dx, dy);
                if let Some(c) = &mut h.crest {
                    c.translate_mut(dx, dy);
                }
            }
            return Ok(());
        }
        if self.objective(piece).is_some() {
            return Err(format!("\"{piece}\" is an objective, not a terrain piece (dotc D22)"));
        }
        Err(format!("the battlefield has no terrain piece \"{piece}\""))
    }
}

fn river(piece: &str) -> String {
    format!("\"{piece}\" is a river: Scouting moves or removes a non-river terrain piece only")
}

#[cfg(test)]
mod tests {
    use super::*;
    use dotc_lang::ast::FileKind;

    fn field(terrain: &str) -> Battlefield {
        let source = format!(
            "scenario \"S\" {{\n    turns 4\n    first_side union\n    table 48 x 36\n    terrain {{\n{terrain}\n    }}\n    side union {{\n        edge south\n    }}\n    side confederate {{\n        edge north\n    }}\n}}\n"
        );
        let parsed = dotc_lang::parse(&source);
        assert_eq!(parsed.document.kind, Some(FileKind::Scenario));
        let scenario = parsed.document.scenario.expect("a scenario");
        Battlefield::from_scenario(&scenario, dotc_lang::stdlib())
    }

    const TERRAIN: &str = "        light_woods \"Herbst Woods\" polygon (10, 10) (20, 10) (20, 20) (10, 20)\n        \
        minor_stream \"Willoughby Run\" line (30, 0) (30, 36)\n        \
        road \"Pike\" line (0, 5) (48, 5)\n        \
        road \"Lane\" line (0, 30) (20, 30)\n        \
        stone_wall \"Wall\" line (5, 25) (15, 25)\n        \
        objective \"Seminary\" at (40, 30)\n";

    /// Ch13 1.0: a move of 3" east and 4" north is 5", within 6": every corner of the woods
    /// moves by (3, 4), so its south-west corner goes from (10, 10) to (13, 14).
    #[test]
    fn ch13_1_0_scouting_moves_a_piece_up_to_six_inches() {
        let mut f = field(TERRAIN);
        assert_eq!(f.scout("Herbst Woods", Scout::Move { dx: 3.0, dy: 4.0 }, 6.0), Ok(()));
        let first = f.area("Herbst Woods").expect("woods").outline.exterior().0[0];
        assert_eq!((first.x, first.y), (13.0, 14.0));
        // 5" and 4" is sqrt(41) = 6.40": too far.
        let mut f = field(TERRAIN);
        assert!(f.scout("Herbst Woods", Scout::Move { dx: 5.0, dy: 4.0 }, 6.0).is_err());
        // Exactly 6" is allowed.
        assert_eq!(f.scout("Wall", Scout::Move { dx: 0.0, dy: -6.0 }, 6.0), Ok(()));
        assert_eq!(f.obstacle("Wall").expect("wall").line.0[0].y, 19.0);
    }

    /// Ch13 1.0, dotc D22: a removal is allowed whatever the distance; a river, a road that
    /// crosses one, and an objective are not pieces Scouting may touch.
    #[test]
    fn ch13_1_0_scouting_removes_a_piece_but_not_a_river() {
        let mut f = field(TERRAIN);
        assert_eq!(f.scout("Lane", Scout::Remove, 6.0), Ok(()));
        assert!(f.line("Lane").is_none());
        assert!(f.scout("Willoughby Run", Scout::Remove, 6.0).is_err());
        assert!(f.scout("Pike", Scout::Move { dx: 0.0, dy: 1.0 }, 6.0).is_err());
        assert!(f.scout("Seminary", Scout::Remove, 6.0).is_err());
        assert!(f.scout("Nowhere", Scout::Remove, 6.0).is_err());
        assert!(f.line("Willoughby Run").is_some() && f.line("Pike").is_some());
    }
}

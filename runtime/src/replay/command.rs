//! Replay of the command verbs.

use super::*;

impl Game {
    pub(super) fn command_verb(&mut self, r: &mut Replayer<'_>, action: &Action) {
        match action.verb.value.as_str() {
            "pips" => self.pips(r, action),
            "reserve" => self.reserve(r, action),
            _ => r.not_replayed(action),
        }
    }

    pub(super) fn brigade_of_leader(&self, leader: &str) -> Option<usize> {
        let l = self.state.leader_named(leader)?;
        self.state.brigades.iter().position(|b| b.brigadier == Some(l))
    }

    pub(super) fn pips(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch16 2.1, RULINGS G2";
        let Some(name) = unit_arg(action) else { return };
        let Some(lid) = self.state.leader_named(&name.value) else {
            r.find(name.span, Level::Error, format!("no leader \"{}\" in this game", name.value), "");
            return;
        };
        let Some(b) = self.brigade_of_leader(&name.value) else {
            r.here(Level::Note, format!("{} commands no brigade: pips not replayed", name.value), RULE);
            return;
        };
        let leader = &self.state.leaders[lid.0];
        let Some(rating) = self.rules.data.rating(&leader.rating) else {
            r.here(Level::Error, format!("no rating `{}` in the rule data", leader.rating), RULE);
            return;
        };
        let mut dice = LogDice::new(dice_of(action, Purpose::StaffPips), self.seeded.as_mut());
        let face = match crate::dice::DiceSource::roll(&mut dice, Purpose::StaffPips, 1) {
            Ok(f) => f[0],
            Err(e) => return r.refused(&EngineError::Dice(e), RULE),
        };
        let rolled = u32::from(d3(face).unwrap_or(1));
        let pips = rating.pips(rolled).saturating_sub(leader.pip_penalty);
        let brigade = &mut self.state.brigades[b];
        brigade.pips = pips;
        let event = Event::new(
            What::Pips {
                brigade: brigade.name.clone(),
                change: i32::try_from(pips).unwrap_or(0),
                pips,
                banked: brigade.banked,
            },
            RULE,
        );
        r.emit([Event::new(What::Rolled { purpose: Purpose::StaffPips, faces: vec![face] }, RULE), event]);
        r.dice_done(&dice, RULE);
        if let Some(claim) = &action.claim {
            claims::check_number(r, claim, f64::from(pips), "pips", RULE);
        }
    }

    pub(super) fn reserve(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch16 2.1, 2.3, RULINGS G8";
        let Some(name) = unit_arg(action) else { return };
        let Some(b) = self.brigade_of_leader(&name.value) else {
            r.here(Level::Error, format!("{} commands no brigade: no pip to bank", name.value), RULE);
            return;
        };
        let limit = self.state.brigades[b]
            .brigadier
            .and_then(|l| self.state.leader(l))
            .and_then(|l| self.rules.data.rating(&l.rating))
            .and_then(|r| r.bank)
            .unwrap_or(1);
        let brigade = &mut self.state.brigades[b];
        if brigade.banked >= limit {
            let message = format!(
                "{} already holds its banked pip (at most {limit}): the rules bank no second one",
                brigade.name
            );
            return r.here(Level::Warning, message, RULE);
        }
        if brigade.pips == 0 {
            return r.here(Level::Error, format!("{} has no pip left to bank", brigade.name), RULE);
        }
        brigade.pips -= 1;
        brigade.banked += 1;
        let event = Event::new(
            What::Pips {
                brigade: brigade.name.clone(),
                change: -1,
                pips: brigade.pips,
                banked: brigade.banked,
            },
            RULE,
        );
        r.emit([event]);
    }
}

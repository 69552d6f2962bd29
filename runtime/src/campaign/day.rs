//! Battles of one day (dotc D49). Ch14 1.0 has the post-battle sequence follow "the conclusion
//! of any tabletop scenario", but its steps are written for battles weeks apart: the Surgeon's
//! stragglers "return to camp that evening", the draft comes "between major campaign
//! operational turns". Under the campaign ruling `same_day = field` two battles whose
//! scenarios give the same `date` are linked by step 1 alone (`field`): the stands each unit
//! lost stay off the roster for the next battle of the day, a brigadier severely wounded or
//! killed is out for the rest of the day (his senior colonel commands, Timid), and the rest of
//! the sequence (the Surgeon, experience, the officers, the draft) is played once, after the
//! day's last battle, for everything the day cost: one Surgeon's die for every stand lost that
//! day, with the field as the day's last battle leaves it; the day's feats counted as one
//! battle's. Under `same_day = full` (the default, the text as printed) every battle has the
//! whole sequence.

use std::collections::BTreeMap;

use dotc_lang::analysis::Analysis;
use dotc_lang::ast::{After, Campaign, Date};
use dotc_lang::campaign::Step;

use super::experience::Seen;
use super::staff::{BattleStaff, Casualty};
use super::{LeaderRecord, Played, StandIn, error};

/// The rule this module plays, as its findings cite it.
pub const RULE: &str = "Ch14 1.0, dotc D49";

/// Where each battle stands in its day, under the campaign's `same_day` ruling.
#[derive(Clone, Debug, Default)]
pub struct Days {
    /// For each battle (0-based): the battle (1-based) that ends its day, when a later battle
    /// of the same day follows it under `same_day = field`; None: it ends its day (or the
    /// ruling is `full`).
    day_ends_at: Vec<Option<usize>>,
    /// The date of each battle's scenario, as written.
    dates: Vec<Option<Date>>,
}

impl Days {
    /// The days of `campaign`'s battles ([`dotc_lang::campaign::day_starts`]: their scenarios'
    /// dates, under the campaign's `same_day` ruling).
    pub fn of(campaign: &Campaign, analysis: &Analysis) -> Days {
        let starts = dotc_lang::campaign::day_starts(campaign, &analysis.battles);
        let day_ends_at = (0..starts.len())
            .map(|i| {
                let last = (i..starts.len()).take_while(|&j| starts[j] == starts[i]).last().unwrap_or(i);
                (last > i).then_some(last + 1)
            })
            .collect();
        let dates = (0..starts.len())
            .map(|i| {
                let loaded = analysis.battles.get(i)?.scenario.as_deref()?;
                loaded.document.scenario.as_ref()?.date.as_ref().map(|d| d.value)
            })
            .collect();
        Days { day_ends_at, dates }
    }

    /// The battle (1-based) that ends the day of battle `number` (1-based) when a later battle
    /// of that day follows it; None when battle `number` ends its day.
    pub fn mid_day(&self, number: usize) -> Option<usize> {
        self.day_ends_at.get(number.wrapping_sub(1)).copied().flatten()
    }

    fn date_text(&self, number: usize) -> String {
        match self.dates.get(number.wrapping_sub(1)).copied().flatten() {
            Some(d) => format!("{:04}-{:02}-{:02}", d.year, d.month, d.day),
            None => "the same date".to_string(),
        }
    }
}

/// What the battles of a day so far cost, carried to the day's last battle (dotc D49).
#[derive(Clone, Debug, Default)]
pub struct Day {
    /// The stands each unit lost in the day's earlier battles.
    pub losses: Vec<(String, u32)>,
    /// The feats the replays of its earlier battles saw.
    pub seen: BTreeMap<String, Seen>,
    /// Step 4's facts of its earlier battles: their brigadiers and casualties.
    pub staff: BattleStaff,
    /// How many battles it holds: a feat's turn numbers are kept apart battle by battle.
    battles: u32,
}

/// Turn numbers of the feats held while Worn or Spent, moved this far per battle of the day, so
/// that turn 3 of the morning and turn 3 of the afternoon stay two turns (dotc D35, D49).
const TURNS_APART: u32 = 100_000;

impl Day {
    /// The stands `unit` lost in the day's earlier battles.
    pub fn carried(&self, unit: &str) -> u32 {
        self.losses.iter().find(|(n, _)| n == unit).map_or(0, |(_, l)| *l)
    }

    /// Add a battle that does not end the day.
    pub fn add(&mut self, losses: &[(String, u32)], seen: &BTreeMap<String, Seen>, staff: &BattleStaff) {
        for (name, lost) in losses {
            match self.losses.iter_mut().find(|(n, _)| n == name) {
                Some((_, l)) => *l += lost,
                None => self.losses.push((name.clone(), *lost)),
            }
        }
        let shift = self.battles * TURNS_APART;
        for (name, saw) in seen {
            let into = self.seen.entry(name.clone()).or_default();
            into.charges_that_broke += saw.charges_that_broke;
            into.stands_of_guns_or_elite += saw.stands_of_guns_or_elite;
            into.held_turns.extend(saw.held_turns.iter().map(|t| t + shift));
        }
        for b in &staff.brigadiers {
            if !self.staff.brigadiers.iter().any(|x| x.name == b.name) {
                self.staff.brigadiers.push(b.clone());
            }
        }
        self.staff.casualties.extend(staff.casualties.iter().cloned());
        self.staff.broken.extend(staff.broken.iter().cloned());
        self.staff.absent.extend(staff.absent.iter().cloned());
        self.battles += 1;
    }

    /// The day's last battle joined to what the day carried: the whole day's losses, feats
    /// and step 4's facts, with the field as the last battle leaves it; the day is emptied.
    pub fn end(
        &mut self,
        losses: Vec<(String, u32)>,
        seen: BTreeMap<String, Seen>,
        staff: BattleStaff,
    ) -> (Vec<(String, u32)>, BTreeMap<String, Seen>, BattleStaff) {
        if self.battles == 0 {
            return (losses, seen, staff);
        }
        let holder = staff.holder.clone();
        self.add(&losses, &seen, &staff);
        let day = std::mem::take(self);
        let mut staff = day.staff;
        staff.holder = holder;
        (day.losses, day.seen, staff)
    }
}

/// Out for the rest of the day (dotc D49): each brigadier the battle struck severely or killed
/// gives his brigade to his senior colonel, Timid (Ch14 4.0), until battle `back_for` (the first
/// of the next day); the officer roll after the day's last battle says for how long after it.
pub fn out_for_the_day(leaders: &mut [LeaderRecord], staff: &BattleStaff, back_for: usize, stand_in: &str) {
    for (name, casualty) in &staff.casualties {
        if !matches!(casualty, Casualty::Severe | Casualty::Killed) {
            continue;
        }
        let Some(leader) = leaders.iter_mut().find(|l| &l.name == name) else { continue };
        let colonel = staff
            .brigadiers
            .iter()
            .find(|b| &b.name == name)
            .map_or_else(|| dotc_lang::names::replacing(name), |b| b.colonel.clone());
        leader.back_for = Some(back_for);
        leader.commanded_by = Some(StandIn { name: colonel, rating: stand_in.to_string() });
    }
}

/// The `after` block of a battle that does not end its day (dotc D49): its `field` step is
/// checked as any battle's (Ch14 1.0); every other step is refused, since it comes after the
/// day's last battle, `day_end`.
pub fn play_mid_day(
    played: &mut Played,
    number: usize,
    day_end: usize,
    after: &After,
    holder: Option<&str>,
    days: &Days,
) {
    for action in &after.steps {
        let Ok(step) = Step::read(action) else { continue };
        if let Step::Field { side } = step {
            super::check_field(played, side, holder);
            continue;
        }
        played.findings.push(error(
            action.verb.span,
            format!(
                "battles {number} and {} are fought on one day ({}): under `same_day = field` only `field` is written between them; `{}` comes after the day's last battle, battle {day_end}, for the whole day",
                number + 1,
                days.date_text(number),
                action.verb.value
            ),
            RULE,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::staff::BattleBrigadier;

    fn brigadier(name: &str, colonel: &str) -> BattleBrigadier {
        BattleBrigadier {
            name: name.into(),
            side: "union".into(),
            brigade: format!("{name}'s Brigade"),
            colonel: colonel.into(),
        }
    }

    /// dotc D49: the day's last battle is joined to what the day carried: each unit's losses
    /// summed over the day's battles (a unit of one battle only keeps its own), the feats added
    /// with the held charges' turns kept apart battle by battle, every brigadier and casualty of
    /// the day, and the field as the last battle leaves it.
    #[test]
    fn dotc_d49_the_day_end_holds_the_whole_days_losses_feats_and_casualties() {
        let mut day = Day::default();
        let morning_seen =
            BTreeMap::from([("2nd Wisconsin".to_string(), Seen { held_turns: vec![3], ..Seen::default() })]);
        let morning_staff = BattleStaff {
            brigadiers: vec![brigadier("Meredith", "Col. Robinson")],
            casualties: vec![("Meredith".into(), Casualty::Severe)],
            holder: Some("union".into()),
            ..BattleStaff::default()
        };
        day.add(&[("2nd Wisconsin".into(), 2), ("Calef".into(), 1)], &morning_seen, &morning_staff);
        assert_eq!(day.carried("2nd Wisconsin"), 2);
        assert_eq!(day.carried("19th Indiana"), 0);
        let afternoon_seen =
            BTreeMap::from([("2nd Wisconsin".to_string(), Seen { held_turns: vec![3], ..Seen::default() })]);
        let afternoon_staff = BattleStaff {
            brigadiers: vec![brigadier("Meredith", "Col. Robinson"), brigadier("Stone", "Col. Wister")],
            holder: Some("confederate".into()),
            ..BattleStaff::default()
        };
        let (losses, seen, staff) = day.end(
            vec![("2nd Wisconsin".into(), 1), ("150th Pennsylvania".into(), 3)],
            afternoon_seen,
            afternoon_staff,
        );
        assert_eq!(
            losses,
            [
                ("2nd Wisconsin".to_string(), 3),
                ("Calef".to_string(), 1),
                ("150th Pennsylvania".to_string(), 3)
            ]
        );
        // Turn 3 of the morning and turn 3 of the afternoon are two turns (dotc D35).
        assert_eq!(seen["2nd Wisconsin"].held_turns, [3, 3 + TURNS_APART]);
        let names: Vec<&str> = staff.brigadiers.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["Meredith", "Stone"]);
        assert_eq!(staff.casualty("Meredith"), Some(Casualty::Severe));
        assert_eq!(
            staff.holder.as_deref(),
            Some("confederate"),
            "the field as the day's last battle leaves it"
        );
        // The day is over: the next day starts empty.
        assert_eq!(day.carried("2nd Wisconsin"), 0);
        let (losses, _, _) = day.end(vec![("Calef".into(), 1)], BTreeMap::new(), BattleStaff::default());
        assert_eq!(losses, [("Calef".to_string(), 1)]);
    }

    /// dotc D49, Ch14 4.0: a brigadier severely wounded or killed in a battle another of its day
    /// follows is out for the rest of the day, his senior colonel commanding as Timid until the
    /// next day's first battle; a light wound costs nothing.
    #[test]
    fn dotc_d49_a_brigadier_struck_down_is_out_for_the_rest_of_the_day() {
        let record = |name: &str| crate::campaign::staff_tests::leader(name, "reliable");
        let mut leaders = vec![record("Meredith"), record("Cutler"), record("Stone")];
        let staff = BattleStaff {
            brigadiers: vec![brigadier("Meredith", "Col. Robinson"), brigadier("Cutler", "Col. Fowler")],
            casualties: vec![
                ("Meredith".into(), Casualty::Severe),
                ("Cutler".into(), Casualty::Light),
                ("Stone".into(), Casualty::Killed),
            ],
            ..BattleStaff::default()
        };
        out_for_the_day(&mut leaders, &staff, 6, "timid");
        assert_eq!(leaders[0].back_for, Some(6));
        assert_eq!(
            leaders[0].commanded_by,
            Some(StandIn { name: "Col. Robinson".into(), rating: "timid".into() })
        );
        assert_eq!((leaders[1].back_for, &leaders[1].commanded_by), (None, &None), "a light wound");
        // A brigadier the battle's scenario does not list gets the default senior colonel's name.
        assert_eq!(leaders[2].back_for, Some(6));
        assert_eq!(leaders[2].commanded_by.as_ref().map(|s| s.rating.as_str()), Some("timid"));
    }
}

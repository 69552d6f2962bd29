//! The Surgeon's roll (Ch14 2.0): one d6 for every stand a regiment or battery lost in the
//! battle; the numbers from the rule data (`surgeon roll`, stdlib/campaign.dotc), the prisoners
//! by the campaign ruling `surgeon_prisoners` (dotc D32).

use dotc_lang::library::RuleData;
use serde::Serialize;

/// The Surgeon's roll as the rule data states it (`surgeon roll`, Ch14 2.0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurgeonTable {
    /// From this roll the stand returns to the roster.
    pub returns: u32,
    /// From this roll (below `returns`) it is hospitalised; below it, lost for good.
    pub hospital: u32,
    /// Added to each roll of the side holding the field (RULINGS G20: a 1 is lifted too).
    pub field_bonus: i32,
    /// Battles a hospitalised stand misses before it returns.
    pub misses: u32,
}

impl SurgeonTable {
    /// The table from the rule data; an error names the entry or key that is missing.
    pub fn from_rule_data(data: &RuleData) -> Result<SurgeonTable, String> {
        let entry = data.surgeon("roll").ok_or("the rule data has no `surgeon roll` (Ch14 2.0)")?;
        let need = |v: Option<u32>, key: &str| v.ok_or(format!("`surgeon roll` has no `{key}` (Ch14 2.0)"));
        Ok(SurgeonTable {
            returns: need(entry.returns, "returns")?,
            hospital: need(entry.hospital, "hospital")?,
            field_bonus: entry.field_bonus.ok_or("`surgeon roll` has no `field_bonus` (Ch14 2.0)")?,
            misses: need(entry.misses, "misses")?,
        })
    }
}

/// What the side holding the field does to the other side's casualties ("captures surviving
/// enemy casualties as prisoners of war", Ch14 2.0): the campaign ruling `surgeon_prisoners`,
/// dotc D32.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Prisoners {
    /// The stands the loser's roll would return (the stragglers and lightly wounded left on
    /// the field) are captured: lost for good. The default.
    #[default]
    Returners,
    /// Every surviving casualty is captured: those that would return and those that would go
    /// to hospital; only the dead (the 1s) are counted as lost.
    All,
    /// No prisoners: the note is colour, the loser rolls as usual.
    None,
}

impl Prisoners {
    pub fn from_word(word: &str) -> Option<Prisoners> {
        match word {
            "returners" => Some(Prisoners::Returners),
            "all" => Some(Prisoners::All),
            "none" => Some(Prisoners::None),
            _ => None,
        }
    }
}

/// Who holds the field, from one unit's side: the unit's own side, the enemy, or nobody
/// (Ch14 1.0, dotc D31).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Ours,
    Theirs,
    Nobody,
}

/// What became of one lost stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Returns,
    Hospital,
    Lost,
    Captured,
}

/// The results of a unit's Surgeon's roll, counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub returns: u32,
    pub hospital: u32,
    pub lost: u32,
    pub captured: u32,
}

impl Tally {
    pub fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Returns => self.returns += 1,
            Outcome::Hospital => self.hospital += 1,
            Outcome::Lost => self.lost += 1,
            Outcome::Captured => self.captured += 1,
        }
    }

    /// As a claim is written: `returns 1, hospital 2, lost 1` (zeros left out; `none` if all are).
    pub fn claim_text(&self) -> String {
        let parts: Vec<String> = [
            ("returns", self.returns),
            ("hospital", self.hospital),
            ("lost", self.lost),
            ("captured", self.captured),
        ]
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(w, n)| format!("{w} {n}"))
        .collect();
        if parts.is_empty() { "nothing".to_string() } else { parts.join(", ") }
    }
}

/// One stand's Surgeon's roll (Ch14 2.0): the die, with the field's bonus for the side holding
/// it (RULINGS G20: the bonus applies to the roll, so a holder's 1 goes to hospital); the other
/// side's survivors captured as [`Prisoners`] says (dotc D32).
pub fn outcome(table: &SurgeonTable, die: u8, field: Field, prisoners: Prisoners) -> Outcome {
    let bonus = if field == Field::Ours { table.field_bonus } else { 0 };
    let roll = i64::from(die) + i64::from(bonus);
    let rolled = if roll >= i64::from(table.returns) {
        Outcome::Returns
    } else if roll >= i64::from(table.hospital) {
        Outcome::Hospital
    } else {
        Outcome::Lost
    };
    match (field, prisoners, rolled) {
        (Field::Theirs, Prisoners::Returners, Outcome::Returns) => Outcome::Captured,
        (Field::Theirs, Prisoners::All, Outcome::Returns | Outcome::Hospital) => Outcome::Captured,
        _ => rolled,
    }
}

/// A unit's Surgeon's roll: one die a stand lost (Ch14 2.0).
pub fn roll(table: &SurgeonTable, dice: &[u8], field: Field, prisoners: Prisoners) -> Tally {
    let mut tally = Tally::default();
    for &die in dice {
        tally.add(outcome(table, die, field, prisoners));
    }
    tally
}

//! States of the brigade faltering clock (Ch16 8.2, RULE-07-2.3, 2.4).
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

pub const BRIGADE_STATE_PROPS: &[PropSpec] = &[
    req(
        "losses",
        "losses <percent>",
        "Share of the brigade's starting stands lost that brings this state (Ch16 8.2, RULE-07-2.3, 2.4).",
    ),
    many(
        "table",
        "table <starting stands> <stands lost>",
        "A row of the Ch16 8.2 reference table: a brigade of that size is in this state at that loss (RULINGS G6).",
    ),
    opt("to_hit", "to_hit <+n|-n>", "Modifier to its units' Phase 3 shooting (RULE-07-2.3, RULINGS C13)."),
    opt("discipline", "discipline <+n|-n>", "Modifier to every Discipline check of its units."),
    flag("no_assault", "Its units cannot declare an assault."),
    flag("no_double_time", "Its units cannot double-time."),
    flag("disorders_all", "Every unit of the brigade takes a Disorder marker on entering the state."),
    flag("forfeits_pips", "The brigadier loses every unspent pip on entering the state (RULE-07-2.4)."),
    opt(
        "retreat",
        "retreat <inches>",
        "Inches every unit must fall back toward its own table edge each turn (RULINGS G14).",
    ),
    flag("no_fire", "Its units cannot shoot."),
    flag("no_rally", "Its units cannot rally."),
    flag("routs_when_charged", "A unit of it that is charged routs and is removed (RULINGS G14)."),
];

/// A state of the brigade faltering clock (Ch16 8.2, RULE-07-2.3, 2.4). When the clock moves is
/// RULINGS C12's `faltering_timing`; how the percentage is rounded, or whether the table rows
/// decide, is RULINGS G6's `brigade_thresholds`.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct BrigadeState {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// Losses, as a % of the brigade's starting stands, that bring the state.
    pub losses_percent: u32,
    /// Rows of the Ch16 8.2 reference table: (starting stands, stands lost), in file order.
    pub table: Vec<(u32, u32)>,
    /// Hesitant -1 to hit, Phase 3 shooting only (RULE-07-2.3, RULINGS C13).
    pub to_hit: i32,
    pub discipline: i32,
    pub no_assault: bool,
    pub no_double_time: bool,
    /// Broken: every unit takes a Disorder marker on entering it (RULE-07-2.4).
    pub disorders_all: bool,
    /// Broken: the brigadier's unspent pips are lost (RULE-07-2.4).
    pub forfeits_pips: bool,
    pub no_fire: bool,
    pub no_rally: bool,
    /// Broken: a charged unit routs and is removed (RULINGS G14).
    pub routs_when_charged: bool,
    /// Broken: inches of retreat toward the friendly edge each turn (RULINGS G14: a flat 6").
    pub retreat: Option<f64>,
}

impl BrigadeState {
    /// The stands lost at which a brigade of `starting` stands enters this state, by the Ch16 8.2
    /// table; None for a size the table does not list.
    pub fn table_losses(&self, starting: u32) -> Option<u32> {
        self.table.iter().find(|(stands, _)| *stands == starting).map(|(_, lost)| *lost)
    }
}

pub(super) fn read_brigade_state(r: &mut Reader<'_, '_>, meta: EntryMeta) -> BrigadeState {
    let entry = r.entry;
    let mut table: Vec<(u32, u32)> = Vec::new();
    for prop in entry.props.iter().filter(|p| p.key.value == "table") {
        let Some(row) = r.parse(prop, |c| {
            let at = c.peek().map(|v| v.span).unwrap_or_default();
            let stands = c.count("a number of starting stands")?;
            if stands == 0 {
                return Err(Problem::new(at, "a brigade starts with at least 1 stand"));
            }
            let at = c.peek().map(|v| v.span).unwrap_or_default();
            let lost = c.count("a number of stands lost")?;
            if lost > stands {
                return Err(Problem::new(at, format!("a brigade of {stands} stands cannot lose {lost}")));
            }
            Ok((stands, lost))
        }) else {
            continue;
        };
        if table.iter().any(|(stands, _)| *stands == row.0) {
            r.inconsistent(
                prop.span,
                "table",
                &format!("a row for {} starting stands is already given", row.0),
                "keep one row per brigade size",
            );
            continue;
        }
        table.push(row);
    }
    BrigadeState {
        meta,
        losses_percent: r.read("losses", |c| c.percent()).unwrap_or(0),
        table,
        to_hit: r.read("to_hit", |c| c.modifier()).unwrap_or(0),
        discipline: r.read("discipline", |c| c.modifier()).unwrap_or(0),
        no_assault: r.flag("no_assault"),
        no_double_time: r.flag("no_double_time"),
        disorders_all: r.flag("disorders_all"),
        forfeits_pips: r.flag("forfeits_pips"),
        no_fire: r.flag("no_fire"),
        no_rally: r.flag("no_rally"),
        routs_when_charged: r.flag("routs_when_charged"),
        retreat: r.read("retreat", |c| c.inches()),
    }
}

impl Describe for BrigadeState {
    fn parts(&self) -> Vec<String> {
        let mut parts = vec![format!("from {}% of the brigade's stands lost", self.losses_percent)];
        if !self.table.is_empty() {
            let rows: Vec<String> =
                self.table.iter().map(|(stands, lost)| format!("{lost} of {stands}")).collect();
            parts.push(format!("table: {}", rows.join(", ")));
        }
        if self.to_hit != 0 {
            parts.push(format!("to hit {} in Phase 3", fmt_mod(self.to_hit)));
        }
        if self.discipline != 0 {
            parts.push(format!("Discipline {}", fmt_mod(self.discipline)));
        }
        if let Some(d) = self.retreat {
            parts.push(format!("retreats {}\" a turn", fmt_num(d)));
        }
        let flags = [
            (self.no_assault, "no assaults"),
            (self.no_double_time, "no double-time"),
            (self.disorders_all, "every unit disordered"),
            (self.forfeits_pips, "unspent pips lost"),
            (self.no_fire, "no shooting"),
            (self.no_rally, "no rallies"),
            (self.routs_when_charged, "routs if charged"),
        ];
        parts.extend(flags.iter().filter(|(on, _)| *on).map(|(_, text)| text.to_string()));
        parts
    }
}

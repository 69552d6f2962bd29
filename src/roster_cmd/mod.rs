//! `dotc roster SCENARIO`: the printable order of battle (issue 21). Every fact comes from the
//! runtime's [`Sheet`] (the engine's own setup of the scenario); this module only says it: as
//! text or a JSON/YAML document on standard output, and with `-o` as a printable sheet, one
//! self-contained HTML page ([`html`]) or a paginated PDF ([`pages`], through [`crate::pdf`]).
//!
//! The sheet is for the table: each unit's stands as boxes to strike (those lost before the
//! battle already struck), a box for the micro-hit (RULE-05-3.3), its quality's Discipline and
//! rally numbers, its weapon's bands, its health at each count of stands (Ch16 8.1), and each
//! brigade's clock with its Hesitant and Broken marks (Ch16 8.2).

mod html;
mod pages;

use std::path::PathBuf;
use std::process::ExitCode;

use dotc_lang::ast::FileKind;
use dotc_runtime::campaign::logged::LoggedBattle;
use dotc_runtime::roster::{BrigadeSheet, LeaderRow, Sheet, SideSheet, Start, UnitRow};

use crate::files;
use crate::output::{Format, FormatArgs, print_document, schema};

#[derive(clap::Args, Debug)]
pub struct RosterArgs {
    /// A scenario, or a game log (the order of battle it is fought with: its scenario's, or
    /// its campaign battle's roster); `-` is standard input.
    pub file: PathBuf,
    /// Text: the sheet on standard output; JSON or YAML: the sheet as a document (its schema is
    /// docs/schemas/roster.schema.json).
    #[command(flatten)]
    pub format: FormatArgs,
    /// Write the printable sheet to OUT; its extension picks the format: .html (one page with
    /// everything inline, to print from a browser) or .pdf (landscape pages, a side from a new
    /// page).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Only this side (its id, such as `union`, or its name).
    #[arg(long, value_name = "SIDE")]
    pub side: Option<String>,
    /// The paper the PDF's pages and the HTML's print layout are set for, landscape.
    #[arg(long, value_enum, value_name = "PAPER", default_value_t = Paper::Letter)]
    pub paper: Paper,
    /// Replace OUT even if it is read-only.
    #[arg(long)]
    pub force: bool,
}

/// A sheet of paper, landscape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Paper {
    /// US Letter, 11 x 8.5 inches.
    Letter,
    /// A4, 297 x 210 mm.
    A4,
}

impl Paper {
    /// Width and height in points (1/72 inch), landscape.
    fn points(self) -> (f64, f64) {
        match self {
            Paper::Letter => (792.0, 612.0),
            Paper::A4 => (841.89, 595.28),
        }
    }

    /// As CSS's `@page size` names it.
    fn css(self) -> &'static str {
        match self {
            Paper::Letter => "letter landscape",
            Paper::A4 => "A4 landscape",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SheetFormat {
    Html,
    Pdf,
}

pub fn roster(args: &RosterArgs) -> Result<ExitCode, String> {
    let out_format = match &args.output {
        None => None,
        Some(out) => match out.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
            Some("html" | "htm") => Some(SheetFormat::Html),
            Some("pdf") => Some(SheetFormat::Pdf),
            _ => {
                return Err(format!(
                    "cannot tell the sheet's format from `{}`: give -o a file name ending in .html or .pdf",
                    out.display()
                ));
            }
        },
    };
    let super::Analysed { analysis, name, .. } = match super::analysed(&args.file, "no roster made")? {
        Ok(analysed) => analysed,
        Err(code) => return Ok(code),
    };
    let path = files::named(&args.file);
    let mut sheet = match analysis.document.kind {
        Some(FileKind::Scenario) => {
            let s = analysis.document.scenario.as_ref().ok_or(format!("{name} has no scenario"))?;
            Sheet::of(s, &analysis.rule_data)
        }
        Some(FileKind::Game) => {
            let loaded = analysis.scenario.as_ref().ok_or(format!("{name} names no scenario"))?;
            let s = loaded.document.scenario.as_ref().ok_or(format!("{name}'s scenario is empty"))?;
            // Ch14 1.0: a campaign battle's log is fought with the campaign's roster.
            match LoggedBattle::of(path, &analysis, &files::InputLoader, None) {
                LoggedBattle::Roster(order) => {
                    crate::term::note!(
                        "note: {name} is a campaign battle: the sheet is the campaign's roster as it began (Ch14 1.0)"
                    );
                    Sheet::of(&order.apply(s, &loaded.rule_data), &loaded.rule_data)
                }
                LoggedBattle::Unknown(finding) => return Err(format!("{name}: {}", finding.message)),
                LoggedBattle::Scenario => Sheet::of(s, &loaded.rule_data),
            }
        }
        _ => return Err(format!("{name} is not a scenario or a game log: it has no order of battle")),
    }
    .map_err(|e| format!("{name}: the order of battle cannot be set up: {e}"))?;
    if let Some(wanted) = &args.side {
        let matches = |s: &SideSheet| s.id == *wanted || s.name.eq_ignore_ascii_case(wanted);
        if !sheet.sides.iter().any(matches) {
            let names: Vec<&str> = sheet.sides.iter().map(|s| s.id.as_str()).collect();
            return Err(format!(
                "no side \"{wanted}\" in \"{}\"; its sides are {}",
                sheet.scenario,
                names.join(", ")
            ));
        }
        sheet.sides.retain(matches);
    }
    for skipped in &sheet.skipped {
        crate::term::note!("note: \"{}\" is left off the sheet: {}", skipped.unit, skipped.reason);
    }
    match (args.format.get(), &args.output) {
        (Format::Text, Some(_)) => {}
        (Format::Text, None) => print!("{}", text(&sheet)),
        (format, _) => print_document(format, schema::ROSTER, &sheet)?,
    }
    if let (Some(out), Some(format)) = (&args.output, out_format) {
        let bytes = match format {
            SheetFormat::Html => html::page(&sheet, args.paper).into_bytes(),
            SheetFormat::Pdf => {
                let title = format!("{}: order of battle", sheet.scenario);
                crate::pdf::document(&title, &pages::pages(&sheet, args.paper))?
            }
        };
        super::write_atomically(out, bytes, args.force)?;
        crate::term::note!("wrote {}", out.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The sheet as text: a block per side, a paragraph per brigade, two lines per unit.
fn text(sheet: &Sheet) -> String {
    let mut out = String::new();
    for side in &sheet.sides {
        out.push_str(&format!("{}\n{}\n", heading(sheet, side), facts(sheet)));
        for c in &side.commanders {
            out.push_str(&format!("  {}\n", leader(c)));
        }
        for b in &side.brigades {
            out.push_str(&format!("\n  {}\n", b.name));
            for l in &b.leaders {
                out.push_str(&format!("    {}\n", leader(l)));
            }
            out.push_str(&format!("    {}\n", clock(b)));
            for u in &b.units {
                unit_text(&mut out, u);
            }
        }
        if !side.units.is_empty() {
            out.push_str("\n  Under the side's own command\n");
            for u in &side.units {
                unit_text(&mut out, u);
            }
        }
        out.push('\n');
    }
    out
}

fn unit_text(out: &mut String, u: &UnitRow) {
    out.push_str(&format!("    {} ({}): {}; {}; {}\n", u.name, u.kind, strength(u), quality(u), start(u)));
    out.push_str(&format!("      {}\n", weapon(u)));
    let health = health(u);
    let extras = extras(u);
    match (health.is_empty(), extras.is_empty()) {
        (false, false) => out.push_str(&format!("      {health}; {extras}\n")),
        (false, true) => out.push_str(&format!("      {health}\n")),
        (true, false) => out.push_str(&format!("      {extras}\n")),
        (true, true) => {}
    }
}

/// `Army of the Potomac (union): 42 stands, 5,210 men`.
fn heading(sheet: &Sheet, side: &SideSheet) -> String {
    format!("{}: {}", sheet.scenario, side_line(side))
}

/// `Army of the Potomac (union), 42 stands, 5,210 men`.
fn side_line(side: &SideSheet) -> String {
    let men = side.men.map_or(String::new(), |m| format!(", {} men", thousands(m)));
    format!("{} ({}), {} stands{men}", side.name, side.id, side.stands)
}

/// `1 July 1863 · from 10:00 · 8 turns of 15 min · 75 men a stand`.
fn facts(sheet: &Sheet) -> String {
    let mut parts: Vec<String> = Vec::new();
    parts.extend(sheet.date.clone());
    parts.extend(sheet.start.as_ref().map(|s| format!("from {s}")));
    match (sheet.turns, sheet.turn_length) {
        (Some(n), Some(l)) => parts.push(format!("{n} turns of {l} min")),
        (Some(n), None) => parts.push(format!("{n} turns")),
        _ => {}
    }
    parts.extend(sheet.first_side.as_ref().map(|s| format!("{s} moves first")));
    parts.extend(sheet.men_per_stand.map(|m| format!("{m} men a stand")));
    parts.join(" \u{b7} ")
}

/// `Brig. Gen. Solomon Meredith, brigadier, Reliable; attached to the 19th Indiana; 1 wound;
/// if he falls: Col. William W. Robinson`.
fn leader(l: &LeaderRow) -> String {
    let mut text = format!("{}, {}, {}", l.name, l.rank, l.rating_name);
    if let Some(a) = &l.attached {
        text.push_str(&format!("; attached to {a}"));
    }
    if l.wounded > 0 {
        text.push_str(&format!("; {} light wound{} (a pip less each)", l.wounded, plural(l.wounded)));
    }
    if let Some(s) = &l.successor {
        text.push_str(&format!("; if he falls: {s}"));
    }
    text
}

/// `Clock: 10 stands; Hesitant at 3 lost, Broken at 5 (Ch16 8.2); 2 lost before the battle`.
fn clock(b: &BrigadeSheet) -> String {
    let mut text = format!(
        "Clock: {} stands; Hesitant at {} lost, Broken at {} (Ch16 8.2)",
        b.clock_stands, b.hesitant_at, b.broken_at
    );
    if b.losses > 0 {
        text.push_str(&format!("; {} lost before the battle", b.losses));
    }
    if b.status != "Fresh" {
        text.push_str(&format!("; begins {}", b.status));
    }
    if let Some(a) = &b.arrives {
        text.push_str(&format!("; {}", arrival(a)));
    }
    text
}

/// `5 stands (340 men)`, `4 of 6 stands`, `3 sections`.
fn strength(u: &UnitRow) -> String {
    let word = if u.kind == "battery" { "section" } else { "stand" };
    let mut text = if u.stands < u.starting_stands {
        format!("{} of {} {word}s", u.stands, u.starting_stands)
    } else {
        format!("{} {word}{}", u.stands, plural(u.stands))
    };
    if let Some(m) = u.men {
        text.push_str(&format!(" ({} men)", thousands(m)));
    }
    text
}

/// `Veteran, Discipline 3+, rally 3+, line`.
fn quality(u: &UnitRow) -> String {
    // A battery's sections have no formation: limbered or unlimbered is its state.
    let formation = if u.kind == "battery" { String::new() } else { format!(", {}", u.formation_name) };
    let state = u.state.as_ref().map_or(String::new(), |s| format!(", {s}"));
    let holders = match u.horse_holders {
        0 => String::new(),
        n => format!(" ({n} stand{} holding horses)", plural(n)),
    };
    format!(
        "{}, Discipline {}+, rally {}+{formation}{state}{holders}",
        u.quality.name, u.quality.discipline, u.quality.rally
    )
}

/// `Rifled Musket: 1D6 a stand; short to 6" 3+, medium to 12" 4+, long to 18" 5+`.
fn weapon(u: &UnitRow) -> String {
    use dotc_lang::library::BonusDice;
    let bands: Vec<String> = u
        .weapon
        .bands
        .iter()
        .map(|b| format!("{} to {}\u{2033} {}+", b.band, inches(b.to), b.hits))
        .collect();
    let bonus = match u.weapon.bonus_dice {
        Some(BonusDice::Flat { dice }) => format!(" +{dice}"),
        Some(BonusDice::PerStands { dice, stands }) => format!(" +{dice} per {stands} stands"),
        None => String::new(),
    };
    format!("{}: {}D6 a {}{bonus}; {}", u.weapon.name, u.weapon.dice, u.weapon.per, bands.join(", "))
}

/// `Fresh 5-4, Worn 3, Spent 2, Shattered 1-0` (Ch16 8.1), empty for a battery.
fn health(u: &UnitRow) -> String {
    u.health
        .iter()
        .map(|h| {
            if h.most == h.least {
                format!("{} {}", h.health, h.most)
            } else {
                format!("{} {}\u{2013}{}", h.health, h.most, h.least)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Traits and markers: `Iron Discipline; starts with Disorder`.
fn extras(u: &UnitRow) -> String {
    let mut parts: Vec<String> = Vec::new();
    if !u.traits.is_empty() {
        parts.push(u.traits.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", "));
    }
    if !u.markers.is_empty() {
        let markers: Vec<&str> = u.markers.iter().map(|m| m.name.as_str()).collect();
        parts.push(format!("starts with {}", markers.join(", ")));
    }
    parts.join("; ")
}

/// `at (19.5, 13) facing 90°`, `arrives 10:30 (turn 3) at (47, 20) in road_column`.
fn start(u: &UnitRow) -> String {
    match &u.start {
        Start::Table { at, facing, garrison } => {
            let mut text = format!("at ({}, {})", inches(at.0), inches(at.1));
            if let Some(f) = facing {
                text.push_str(&format!(" facing {}\u{b0}", inches(*f)));
            }
            if let Some(g) = garrison {
                text.push_str(&format!(", garrisoning {g}"));
            }
            text
        }
        Start::Arrives(a) => arrival(a),
        Start::Unplaced => "not placed".to_string(),
    }
}

fn arrival(a: &dotc_runtime::roster::ArrivalRow) -> String {
    let turn = a.turn.map_or(String::new(), |t| {
        if a.when.starts_with("turn") { String::new() } else { format!(" (turn {t})") }
    });
    let formation = a.formation.as_ref().map_or(String::new(), |f| format!(" in {}", f.replace('_', " ")));
    format!("arrives {}{turn} at ({}, {}){formation}", a.when, inches(a.at.0), inches(a.at.1))
}

/// A distance without trailing zeros: `6`, `19.5`.
fn inches(value: f64) -> String {
    dotc_runtime::render::svg::num(value)
}

fn thousands(n: u32) -> String {
    dotc_lang::names::thousands(i64::from(n))
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests;

//! `dotc campaign ...`: campaign files (Ch14). `status` prints the rosters after the last
//! recorded step of the post-battle sequence, as the rules core plays the campaign
//! (`dotc_runtime::campaign::play`).

use std::path::PathBuf;
use std::process::ExitCode;

use dotc_lang::analysis::analyze;
use dotc_lang::ast::FileKind;
use dotc_lang::diagnostic::Diagnostic;
use dotc_runtime::campaign::{CampaignState, LeaderRecord, UnitRecord, play};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StatusFormat {
    /// A table per side.
    Text,
    /// The campaign's state as JSON.
    Json,
}

#[derive(clap::Subcommand, Debug)]
pub enum CampaignKind {
    /// The rosters after the last recorded step: per side, each unit's stands on the roster, in
    /// hospital (and the battle they return for) and lost for good, its XP, grade and the traits
    /// the campaign gave it (Ch14 3.0).
    Status {
        /// The campaign file.
        file: PathBuf,
        #[arg(long, value_enum, default_value_t = StatusFormat::Text)]
        format: StatusFormat,
    },
}

pub fn campaign(
    what: &CampaignKind,
    render: impl Fn(&[Diagnostic], &str, &str) -> String,
) -> Result<ExitCode, String> {
    let CampaignKind::Status { file, format } = what;
    let source = crate::read(file)?;
    let name = file.display().to_string();
    let analysis = analyze(file, &source, &crate::files::InputLoader);
    if analysis.document.kind != Some(FileKind::Campaign) {
        return Err(format!("{name} is not a campaign (it does not start with `campaign \"...\" {{`)"));
    }
    if analysis.has_errors() {
        eprint!("{}", render(&analysis.diagnostics, &name, &source));
        return Err(format!("{name} has errors; run `dotc check {name}`"));
    }
    let played = play(&analysis);
    let errors = played.findings.iter().filter(|f| f.level == dotc_runtime::replay::Level::Error).count();
    match format {
        StatusFormat::Json => {
            println!("{}", serde_json::to_string_pretty(&played.state).map_err(|e| e.to_string())?)
        }
        StatusFormat::Text => print!("{}", status_text(&played.state)),
    }
    if errors > 0 {
        eprintln!(
            "{name}: {errors} step(s) disagree with the rules; the roster follows the rules (see `dotc audit {name}`)"
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The rosters as a readable table, one per side in the order the sides first appear.
pub fn status_text(state: &CampaignState) -> String {
    let mut out = String::new();
    let played = state.battles.iter().filter(|b| b.played).count();
    out.push_str(&format!("{}: {} battle(s), {played} played\n", state.name, state.battles.len()));
    for b in &state.battles {
        let field = match (&b.played, &b.field) {
            (false, _) => "not played".to_string(),
            (true, Some(side)) => format!("{side} held the field"),
            (true, None) => "nobody held the field".to_string(),
        };
        let result = b.result.as_deref().map(|r| format!(" ({r})")).unwrap_or_default();
        let sequence =
            if b.played && !b.sequence_recorded { "; post-battle sequence not recorded" } else { "" };
        out.push_str(&format!("  battle {} \"{}\": {field}{result}{sequence}\n", b.number, b.name));
    }
    let mut sides: Vec<&str> = Vec::new();
    for u in &state.units {
        if !sides.contains(&u.side.as_str()) {
            sides.push(&u.side);
        }
    }
    let width = state.units.iter().map(|u| u.name.chars().count()).max().unwrap_or(4).max(4);
    for side in sides {
        out.push_str(&format!("\n{side}\n"));
        out.push_str(&format!(
            "  {:<width$}  {:<8}  {:>6}  {:<20}  {:>4}  {:>8}  {:>2}  {:<8}  {}\n",
            "unit", "kind", "roster", "hospital", "lost", "captured", "XP", "grade", "traits"
        ));
        for u in state.units.iter().filter(|u| u.side == side) {
            out.push_str(&format!(
                "  {:<width$}  {:<8}  {:>6}  {:<20}  {:>4}  {:>8}  {:>2}  {:<8}  {}\n",
                u.name,
                u.kind,
                roster(u),
                hospital(u),
                u.lost,
                u.captured,
                xp(u),
                grade(u),
                if u.traits.is_empty() { "-".to_string() } else { u.traits.join(", ") }
            ));
        }
        leaders_text(&mut out, state, side);
    }
    out
}

/// A unit's XP; a battery keeps no experience track (Ch14 3.0): `-`.
fn xp(u: &UnitRecord) -> String {
    if u.kind == "battery" { "-".to_string() } else { u.xp.to_string() }
}

/// A unit's grade, and the one it fights its next battle at when a draft diluted it (Ch14 5.0).
fn grade(u: &UnitRecord) -> String {
    let grade = u.grade.as_deref().unwrap_or("-");
    let mut text = match (&u.diluted_grade, u.diluted_for) {
        (Some(to), Some(battle)) => format!("{grade} ({to} for battle {battle}, diluted)"),
        _ => grade.to_string(),
    };
    if u.replacements > 0 {
        text.push_str(&format!(
            "; {} replacement stand{}",
            u.replacements,
            if u.replacements == 1 { "" } else { "s" }
        ));
    }
    text
}

/// A side's brigadiers (Ch14 4.0): rating, and whether he is out, who commands meanwhile, his
/// promotions and wounds.
fn leaders_text(out: &mut String, state: &CampaignState, side: &str) {
    let leaders: Vec<&LeaderRecord> = state.leaders.iter().filter(|l| l.side == side).collect();
    if leaders.is_empty() {
        return;
    }
    let width = leaders.iter().map(|l| l.name.chars().count()).max().unwrap_or(9).max(9);
    out.push_str(&format!("  {:<width$}  {:<10}  {}\n", "brigadier", "rating", "status"));
    for l in leaders {
        out.push_str(&format!(
            "  {:<width$}  {:<10}  {}\n",
            l.name,
            l.rating.as_deref().unwrap_or("-"),
            leader_status(l)
        ));
    }
}

fn leader_status(l: &LeaderRecord) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(battle) = l.killed_in {
        parts.push(format!("killed in battle {battle}: a new brigadier commands"));
    }
    if let Some(back) = l.back_for {
        let by = l
            .commanded_by
            .as_ref()
            .map(|c| format!(", {} commands ({})", c.name, c.rating))
            .unwrap_or_default();
        parts.push(format!("out until battle {back}{by}"));
    }
    if let Some(c) = l.awaiting_officer {
        parts.push(format!("{}: awaiting the officer roll", c.words()));
    }
    for b in &l.promoted_after {
        parts.push(format!("promoted after battle {b}"));
    }
    for c in l.casualties.iter().filter(|c| c.casualty == dotc_runtime::campaign::staff::Casualty::Light) {
        parts.push(format!("lightly wounded in battle {}", c.battle));
    }
    if parts.is_empty() { "-".to_string() } else { parts.join("; ") }
}

fn roster(u: &UnitRecord) -> String {
    if u.awaiting_surgeon > 0 {
        format!("{} (+{} awaiting the surgeon)", u.on_roster, u.awaiting_surgeon)
    } else {
        u.on_roster.to_string()
    }
}

fn hospital(u: &UnitRecord) -> String {
    if u.hospital.is_empty() {
        return "-".to_string();
    }
    u.hospital
        .iter()
        .map(|h| format!("{} (battle {})", h.stands, h.returns_for))
        .collect::<Vec<_>>()
        .join(", ")
}

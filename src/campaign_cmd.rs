//! `dotc campaign ...`: campaign files (Ch14). `status` prints the rosters after the last
//! recorded step of the post-battle sequence, as the rules core plays the campaign
//! (`dotc_runtime::campaign::play`), or after a given battle (`--after`), or battle by battle
//! (`--history`, issue 19; `Played::after`); `next` works out the post-battle sequence due after the
//! first played battle whose sequence is missing or incomplete
//! (`dotc_runtime::campaign::next::next_steps`), and adds it or completes the written block.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use dotc_lang::analysis::analyze;
use dotc_lang::ast::FileKind;
use dotc_lang::diagnostic::Diagnostic;
use dotc_lang::lines::line_col;
use dotc_runtime::campaign::next::{DueBattle, NextError, Written, next_steps};
use dotc_runtime::campaign::{BattleRecord, CampaignState, LeaderRecord, Played, UnitRecord, play};

use crate::output::{Format, FormatArgs, print_document, schema};

#[derive(clap::Subcommand, Debug)]
pub enum CampaignKind {
    /// The rosters after the last recorded step: per side, each unit's stands on the roster, in
    /// hospital (and the battle they return for) and lost for good, its XP, grade and the traits
    /// the campaign gave it (Ch14 3.0); with --after, as they stood after one battle; with
    /// --history, battle by battle.
    Status {
        /// The campaign file; `-` is standard input (its battles' files are then found from the
        /// current directory).
        file: PathBuf,
        /// Text: a table per side; JSON or YAML: the campaign's state
        /// (docs/schemas/campaign-status.schema.json, with --history campaign-history).
        #[command(flatten)]
        format: FormatArgs,
        /// The rosters as they stood after this battle (its name or its number), its post-battle
        /// sequence played as far as the file records it.
        #[arg(long, value_name = "BATTLE", conflicts_with = "history")]
        after: Option<String>,
        /// The campaign battle by battle: each unit's stands on the roster after each battle and
        /// what befell each brigadier in each.
        #[arg(long)]
        history: bool,
    },
    /// The post-battle sequence due after the first played battle whose `after` block is
    /// missing or incomplete (Ch14 1.0): the dice not written rolled from the seed, each claim
    /// the result the rules give. Prints the `after { ... }` block; `--write` adds it to the
    /// battle in the file. A block begun by hand is completed: its whole steps are kept (what
    /// follows is worked from their dice), a step without dice or claim is completed, a missing
    /// step is added.
    Next {
        /// The campaign file; `-` is standard input (the block is printed, not written).
        file: PathBuf,
        /// The seed of the dice (the same seed gives the same block).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Add the block (or complete it) in the file, written atomically, every comment kept.
        #[arg(long)]
        write: bool,
        /// Write even if the file is read-only.
        #[arg(long)]
        force: bool,
    },
}

pub fn campaign(
    what: &CampaignKind,
    render: impl Fn(&[Diagnostic], &str, &str) -> String,
) -> Result<ExitCode, String> {
    let (file, format, after, history) = match what {
        CampaignKind::Status { file, format, after, history } => (file, format.get(), after, *history),
        CampaignKind::Next { file, seed, write, force } => return next(file, *seed, *write, *force, render),
    };
    let (name, _, analysis) = load(file, &render)?;
    let played = play(&analysis);
    let errors = played.findings.iter().filter(|f| f.level == dotc_runtime::replay::Level::Error).count();
    match (format, after) {
        (_, Some(battle)) => {
            let number = battle_number(&played.state, battle)?;
            let Some(state) = played.after.get(number - 1) else {
                return Err(format!("{name}: battle {number} could not be played"));
            };
            match format {
                Format::Text => print!("{}", after_text(state, number, played.state.battles.len())),
                format => print_document(format, schema::CAMPAIGN_STATUS, state)?,
            }
        }
        (Format::Text, None) if history => print!("{}", history_text(&played)),
        (format, None) if history => print_document(format, schema::CAMPAIGN_HISTORY, &History::of(&played))?,
        (Format::Text, None) => print!("{}", status_text(&played.state)),
        (format, None) => print_document(format, schema::CAMPAIGN_STATUS, &played.state)?,
    }
    if errors > 0 {
        eprintln!(
            "{name}: {errors} step(s) disagree with the rules; the roster follows the rules (see `dotc audit {name}`)"
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The battle `--after` names: its name as the campaign writes it, or its number (1-based); an
/// error listing the battles otherwise.
fn battle_number(state: &CampaignState, named: &str) -> Result<usize, String> {
    let battles = &state.battles;
    if let Some(b) = battles.iter().find(|b| b.name == named) {
        return Ok(b.number);
    }
    if let Ok(number) = named.trim().parse::<usize>()
        && (1..=battles.len()).contains(&number)
    {
        return Ok(number);
    }
    let hint = match dotc_lang::names::suggest(named, battles.iter().map(|b| b.name.as_str())) {
        Some(s) => format!("; did you mean \"{s}\"?"),
        None => String::new(),
    };
    let list: Vec<String> = battles.iter().map(|b| format!("{} \"{}\"", b.number, b.name)).collect();
    Err(format!(
        "the campaign \"{}\" has no battle \"{named}\"{hint} (its battles, by name or number: {})",
        state.name,
        list.join(", ")
    ))
}

/// Read and analyse a campaign file: an error when it is not one, or when it has errors (they
/// are printed first).
fn load(
    file: &Path,
    render: &impl Fn(&[Diagnostic], &str, &str) -> String,
) -> Result<(String, String, dotc_lang::analysis::Analysis), String> {
    let source = crate::read(file)?;
    let file = crate::files::named(file);
    let name = file.display().to_string();
    let analysis = analyze(file, &source, &crate::files::InputLoader);
    if analysis.document.kind != Some(FileKind::Campaign) {
        return Err(format!("{name} is not a campaign (it does not start with `campaign \"...\" {{`)"));
    }
    if analysis.has_errors() {
        eprint!("{}", render(&analysis.diagnostics, &name, &source));
        return Err(format!("{name} has errors; run `dotc check {name}`"));
    }
    Ok((name, source, analysis))
}

/// `dotc campaign next`: the due `after` block, printed or written into the battle.
fn next(
    file: &Path,
    seed: u64,
    write: bool,
    force: bool,
    render: impl Fn(&[Diagnostic], &str, &str) -> String,
) -> Result<ExitCode, String> {
    if write && crate::files::is_stdin(file) {
        return Err(
            "`campaign next --write` adds the block to the campaign's file, and standard input (`-`) \
                    is no file: leave out --write to print the block"
                .to_string(),
        );
    }
    let (name, source, analysis) = load(file, &render)?;
    let file = crate::files::named(file);
    let Some(campaign) = &analysis.document.campaign else { return Err(format!("{name} has no campaign")) };
    // A battle whose log has errors is not played: say so rather than skip it.
    for (i, battle) in campaign.battles.iter().enumerate() {
        let bad = analysis.battles.get(i).and_then(|b| b.log.as_deref()).is_some_and(|l| l.has_errors());
        if bad && let Some(log) = &battle.log {
            let (line, col) = line_col(&source, log.span.start);
            return Err(format!(
                "{name}:{line}:{col}: battle {} \"{}\": its log \"{}\" has errors; run `dotc check` on it",
                i + 1,
                battle.name.value,
                log.value
            ));
        }
    }
    let due = match next_steps(&analysis, seed) {
        Ok(Some(due)) => due,
        Ok(None) => {
            println!("{name}: nothing is due: every played battle has its post-battle sequence");
            return Ok(ExitCode::SUCCESS);
        }
        Err(NextError::RuleData(message)) => return Err(message),
        Err(NextError::Findings(findings)) => {
            for f in &findings {
                let (line, col) = line_col(&source, f.span.start);
                eprintln!("{name}:{line}:{col}: error: {} ({})", f.message, f.rule);
            }
            return Err(format!(
                "{name}: the recorded post-battle steps have {} error(s) (see `dotc audit {name}`); `campaign next` writes a missing `after` block only: complete or fix the written ones by hand",
                findings.len()
            ));
        }
    };
    let battle = &campaign.battles[due.number - 1];
    let text = match &battle.after {
        Some(after) => completed(&source, after, &due),
        None => {
            // The block goes before the line of the battle's closing brace, one level in.
            let close = source[..battle.span.end].rfind('}').unwrap_or(battle.span.end);
            let line_start = source[..close].rfind('\n').map_or(0, |i| i + 1);
            let indent = indent_of(&source, battle.span.start);
            let block = due.block(&format!("{indent}    "));
            if !write {
                crate::term::note!("{name}: battle {} \"{}\", dice from seed {seed}:", due.number, due.name);
                print!("{block}");
                return Ok(ExitCode::SUCCESS);
            }
            if source[line_start..close].trim().is_empty() {
                format!("{}{block}{}", &source[..line_start], &source[line_start..])
            } else {
                // `battle "X" { scenario "..." log "..." }` on one line: the brace on a line of
                // its own.
                format!("{}\n{block}{indent}{}", source[..close].trim_end(), &source[close..])
            }
        }
    };
    // The written file must audit clean: play it again before writing.
    let check = analyze(file, &text, &crate::files::InputLoader);
    let played = play(&check);
    let errors: Vec<_> =
        played.findings.iter().filter(|f| f.level == dotc_runtime::replay::Level::Error).collect();
    if check.has_errors() || !errors.is_empty() {
        let first = match errors.first() {
            Some(f) => {
                let (line, _) = line_col(&text, f.span.start);
                format!("at line {line} of the completed file, {} ({})", f.message, f.rule)
            }
            None => "the file does not parse".to_string(),
        };
        return Err(format!(
            "{name}: the block worked out for battle {} does not audit clean: {first}; nothing written",
            due.number
        ));
    }
    if !write {
        // A block begun by hand: the whole block as it would be completed.
        let after =
            check.document.campaign.as_ref().and_then(|c| c.battles.get(due.number - 1)?.after.as_ref());
        if let Some(after) = after {
            let from = text[..after.span.start].rfind('\n').map_or(0, |i| i + 1);
            let to = text[after.span.end..].find('\n').map_or(text.len(), |i| after.span.end + i + 1);
            crate::term::note!(
                "{name}: battle {} \"{}\", its written block completed, dice from seed {seed}:",
                due.number,
                due.name
            );
            print!("{}", &text[from..to]);
        }
        return Ok(ExitCode::SUCCESS);
    }
    crate::files::write(file, text.as_bytes(), crate::files::WriteOptions { force, in_place: true })?;
    crate::term::note!(
        "wrote {name}: the post-battle sequence of battle {} \"{}\" ({} step(s) written, dice from seed {seed})",
        due.number,
        due.name,
        due.steps.iter().filter(|s| s.line.is_some() && !matches!(s.written, Written::Kept(_))).count()
    );
    Ok(ExitCode::SUCCESS)
}

/// The spaces and tabs that begin the line holding `at`.
fn indent_of(source: &str, at: usize) -> String {
    let line = source[..at].rfind('\n').map_or(0, |i| i + 1);
    source[line..].chars().take_while(|c| *c == ' ' || *c == '\t').collect()
}

/// `source` with the written `after` block completed by `due`: a step written without its dice
/// or claim is replaced by its whole line; a missing step is added, with its comments, before
/// the first written step that comes after it in Ch14 1.0's order (above that step's own
/// comments), or at the block's end.
fn completed(source: &str, after: &dotc_lang::ast::After, due: &DueBattle) -> String {
    let indent = match after.steps.first() {
        Some(step) => indent_of(source, step.span.start),
        None => format!("{}    ", indent_of(source, after.span.start)),
    };
    // Where the block's closing brace is, and whether it has a line of its own.
    let close = source[..after.span.end].rfind('}').unwrap_or(after.span.end);
    let close_line = source[..close].rfind('\n').map_or(0, |i| i + 1);
    let at_end = if source[close_line..close].trim().is_empty() { close_line } else { close };
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for (i, step) in due.steps.iter().enumerate() {
        match step.written {
            Written::Kept(_) => {}
            Written::Complete(span) => {
                if let Some(line) = &step.line {
                    edits.push((span.start, span.end, line.clone()));
                }
            }
            Written::New => {
                let next_written = due.steps[i + 1..].iter().find_map(|s| match s.written {
                    Written::Kept(span) | Written::Complete(span) => Some(span),
                    Written::New => None,
                });
                let at = match next_written {
                    Some(span) => above_comments(source, span.start),
                    None => at_end,
                };
                let mut text: String =
                    DueBattle::lines(step).iter().map(|l| format!("{indent}{l}\n")).collect();
                if at == close {
                    text = format!("\n{text}{}", indent.get(4..).unwrap_or(""));
                }
                edits.push((at, at, text));
            }
        }
    }
    // Applied from the end so each edit's offsets hold; insertions at one place keep their order.
    let mut out = source.to_string();
    let mut order: Vec<usize> = (0..edits.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(edits[i].0), std::cmp::Reverse(i)));
    for i in order {
        let (from, to, text) = &edits[i];
        out.replace_range(*from..*to, text);
    }
    out
}

/// The start of the line holding `at`, moved up over the comment lines right above it (they
/// belong to that step).
fn above_comments(source: &str, at: usize) -> usize {
    let mut line = source[..at].rfind('\n').map_or(0, |i| i + 1);
    while line > 0 {
        let prev = source[..line - 1].rfind('\n').map_or(0, |i| i + 1);
        if source[prev..line].trim_start().starts_with("//") {
            line = prev;
        } else {
            break;
        }
    }
    line
}

/// The rosters as a readable table, one per side in the order the sides first appear.
pub fn status_text(state: &CampaignState) -> String {
    let played = state.battles.iter().filter(|b| b.played).count();
    let mut out = format!("{}: {} battle(s), {played} played\n", state.name, state.battles.len());
    battles_text(&mut out, state);
    rosters_text(&mut out, state);
    out
}

/// The rosters after battle `number` of `of` (`--after`): the battles up to it, then the
/// rosters as [`status_text`] gives them.
fn after_text(state: &CampaignState, number: usize, of: usize) -> String {
    let name = state.battles.get(number - 1).map_or("", |b| b.name.as_str());
    let mut out = format!("{}: the rosters after battle {number} \"{name}\" (of {of})\n", state.name);
    battles_text(&mut out, state);
    rosters_text(&mut out, state);
    out
}

/// One line per battle: who held the field, the result, whether its sequence is recorded.
fn battles_text(out: &mut String, state: &CampaignState) {
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
}

/// The sides in the order their first unit joined.
fn sides_of(units: &[UnitRecord]) -> Vec<&str> {
    let mut sides: Vec<&str> = Vec::new();
    for u in units {
        if !sides.contains(&u.side.as_str()) {
            sides.push(&u.side);
        }
    }
    sides
}

/// Each side's units and brigadiers as they stand in `state`.
fn rosters_text(out: &mut String, state: &CampaignState) {
    let sides = sides_of(&state.units);
    let width = state.units.iter().map(|u| u.name.chars().count()).max().unwrap_or(4).max(4);
    for side in sides {
        out.push_str(&format!("\n{side}\n"));
        let row = |cells: [&str; 10]| {
            let [unit, kind, on, hospital, lost, captured, xp, grade, traits, draft] = cells;
            let line = format!(
                "  {unit:<width$}  {kind:<8}  {on:>6}  {hospital:<20}  {lost:>4}  {captured:>8}  {xp:>2}  {grade:<8}  {traits:<15}  {draft}"
            );
            format!("{}\n", line.trim_end())
        };
        out.push_str(&row([
            "unit", "kind", "roster", "hospital", "lost", "captured", "XP", "grade", "traits", "draft",
        ]));
        for u in state.units.iter().filter(|u| u.side == side) {
            let traits = if u.traits.is_empty() { "-".to_string() } else { u.traits.join(", ") };
            out.push_str(&row([
                &u.name,
                &u.kind,
                &roster(u),
                &hospital(u),
                &u.lost.to_string(),
                &u.captured.to_string(),
                &xp(u),
                u.grade.as_deref().unwrap_or("-"),
                &traits,
                &draft(u),
            ]));
        }
        leaders_text(out, state, side);
    }
}

/// A unit's XP; a battery keeps no experience track (Ch14 3.0): `-`.
fn xp(u: &UnitRecord) -> String {
    if u.kind == "battery" { "-".to_string() } else { u.xp.to_string() }
}

/// The replacement stands a unit took and, when a draft diluted it, the grade it fights its next
/// battle at (Ch14 5.0).
fn draft(u: &UnitRecord) -> String {
    let mut parts = Vec::new();
    if u.replacements > 0 {
        let s = if u.replacements == 1 { "" } else { "s" };
        parts.push(format!("{} replacement stand{s}", u.replacements));
    }
    if let (Some(to), Some(battle)) = (&u.diluted_grade, u.diluted_for) {
        parts.push(format!("diluted: {to} for battle {battle}"));
    }
    parts.join("; ")
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

/// `campaign status --history --format json`: the campaign's state after each battle.
#[derive(serde::Serialize)]
struct History<'a> {
    name: &'a str,
    battles: Vec<AfterBattle<'a>>,
}

/// A battle and the rosters after it (its replay and its post-battle sequence as recorded).
#[derive(serde::Serialize)]
struct AfterBattle<'a> {
    #[serde(flatten)]
    battle: &'a BattleRecord,
    units: &'a [UnitRecord],
    leaders: &'a [LeaderRecord],
}

impl<'a> History<'a> {
    fn of(played: &'a Played) -> History<'a> {
        let battles = played
            .after
            .iter()
            .filter_map(|state| {
                let battle = state.battles.last()?;
                Some(AfterBattle { battle, units: &state.units, leaders: &state.leaders })
            })
            .collect();
        History { name: &played.state.name, battles }
    }
}

/// The campaign battle by battle (`--history`): per side, each unit's stands on the roster after
/// each battle, and what befell each brigadier in each.
fn history_text(played: &Played) -> String {
    let state = &played.state;
    let after = &played.after;
    let mut out = format!("{}: the campaign battle by battle\n", state.name);
    battles_text(&mut out, state);
    out.push_str(
        "\nStands on the roster after each battle and its post-battle sequence as recorded: +N in\n\
         hospital or awaiting the Surgeon, - not yet in the campaign; lost: for good, prisoners too;\n\
         drafted: replacement stands taken (Ch14 5.0).\n",
    );
    let width = state.units.iter().map(|u| u.name.chars().count()).max().unwrap_or(4).max(4);
    for side in sides_of(&state.units) {
        out.push_str(&format!("\n{side}\n"));
        let mut header = format!("  {:<width$}  joined  start", "unit");
        for n in 1..=after.len() {
            header.push_str(&format!("  {:>6}", format!("{n}")));
        }
        out.push_str(&format!("{header}    lost  drafted\n"));
        for u in state.units.iter().filter(|u| u.side == side) {
            let mut line = format!("  {:<width$}  {:>6}  {:>5}", u.name, u.joined, u.strength);
            for state in after {
                let cell = state.units.iter().find(|r| r.name == u.name).map_or("-".to_string(), stands_cell);
                line.push_str(&format!("  {cell:>6}"));
            }
            out.push_str(&format!("{line}  {:>6}  {:>7}\n", u.lost + u.captured, u.replacements));
        }
        let leaders: Vec<&LeaderRecord> = state.leaders.iter().filter(|l| l.side == side).collect();
        if leaders.is_empty() {
            continue;
        }
        let lw = leaders.iter().map(|l| l.name.chars().count()).max().unwrap_or(9).max(9);
        out.push_str(&format!("  {:<lw$}  {:<10}  battle by battle\n", "brigadier", "rating"));
        for l in leaders {
            let fates: Vec<String> = after
                .iter()
                .enumerate()
                .filter_map(|(i, state)| {
                    let then = state.leaders.iter().find(|r| r.name == l.name)?;
                    let parts = leader_in_battle(then, i + 1);
                    (!parts.is_empty()).then(|| format!("{}: {}", i + 1, parts.join(", ")))
                })
                .collect();
            let fates = if fates.is_empty() { "-".to_string() } else { fates.join("; ") };
            out.push_str(&format!(
                "  {:<lw$}  {:<10}  {fates}\n",
                l.name,
                l.rating.as_deref().unwrap_or("-")
            ));
        }
    }
    out
}

/// A unit's stands after a battle: on the roster, and `+N` in hospital or awaiting the Surgeon.
fn stands_cell(u: &UnitRecord) -> String {
    let back: u32 = u.hospital.iter().map(|h| h.stands).sum::<u32>() + u.awaiting_surgeon;
    if back > 0 { format!("{}+{back}", u.on_roster) } else { u.on_roster.to_string() }
}

/// What befell a brigadier in battle `number`, from his record after it (Ch14 4.0): his wound,
/// the officer roll's outcome, his promotion, his time out of command.
fn leader_in_battle(l: &LeaderRecord, number: usize) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    for c in l.casualties.iter().filter(|c| c.battle == number) {
        parts.push(c.casualty.words().to_string());
    }
    if l.killed_in == Some(number) {
        parts.push(format!("a new brigadier commands ({})", l.rating.as_deref().unwrap_or("-")));
    }
    if l.awaiting_officer.is_some() {
        parts.push("awaiting the officer roll".to_string());
    }
    if l.promoted_after.contains(&number) {
        parts.push(format!("promoted ({})", l.rating.as_deref().unwrap_or("-")));
    }
    if let Some(back) = l.back_for {
        let by = l.commanded_by.as_ref().map(|c| format!(", {} commands ({})", c.name, c.rating));
        parts.push(format!("out until battle {back}{}", by.unwrap_or_default()));
    }
    parts
}

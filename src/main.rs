//! `dotc`: the command line of the Dress on the Colors toolkit.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};
use dotc_lang::diagnostic::{Diagnostic, render_plain, render_with};
use miette::{GraphicalReportHandler, GraphicalTheme};

mod analyze_cmd;
mod audit_cmd;
mod campaign_cmd;
mod check_cmd;
mod completion;
mod docs_cmd;
mod explain_cmd;
mod export_cmd;
mod files;
mod fmt_cmd;
#[cfg(test)]
mod linear_tests;
mod luck_cmd;
mod man_cmd;
mod map;
mod new_cmd;
mod odds_at;
mod odds_cmd;
mod output;
mod pdf;
mod play;
mod playtest_cmd;
mod replay_cmd;
mod replay_html;
mod roster_cmd;
mod term;

/// The Dress on the Colors toolkit: check, format and export scenarios, game logs and rule data.
#[derive(Parser, Debug)]
#[command(name = "dotc", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// No progress bars and no informational notes on standard error; results, warnings, errors
    /// and exit statuses are unchanged.
    #[arg(long, short = 'q', global = true)]
    quiet: bool,
    /// When to colour the diagnostics: auto (standard error is a terminal and NO_COLOR is not
    /// set to a non-empty value), always, never.
    #[arg(long, value_enum, value_name = "WHEN", global = true, default_value_t = term::ColorChoice::Auto)]
    color: term::ColorChoice,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check files and print every diagnostic; exit 1 if any has an error.
    Check(check_cmd::CheckArgs),
    /// Print files in canonical layout, or check or rewrite them in place.
    Fmt(fmt_cmd::FmtArgs),
    /// Print the typed model of a file for other tools.
    Export(export_cmd::ExportArgs),
    /// Write a new file from a commented skeleton.
    New {
        #[command(subcommand)]
        what: new_cmd::NewKind,
    },
    /// Explain a diagnostic code (dotc::unknown-weapon), a rule reference (RULE-05-3.3, "Ch16
    /// 5.4", C3, D51), a ruling switch or module (suppression, open_order), or a rule-data id
    /// (rifled_musket, stone_wall, rebel_yell, assault_column).
    Explain {
        #[arg(add = completion::explain_ids())]
        id: String,
    },
    /// List the ids a file may write: `weapons`, `terrain`, `traits`, `formations`, `qualities`,
    /// `markers`, `orders` (any kind of the rule data), `modules` or `rulings`; each with its title
    /// and source. `dotc explain ID` tells one.
    List { what: String },
    /// Compute the odds of a game action exactly (and check them by simulation), or with
    /// `--at FILE:LINE` the odds of a logged volley as the replay saw it.
    Odds {
        #[command(subcommand)]
        what: Option<odds_cmd::OddsKind>,
        #[command(flatten)]
        at: odds_at::OddsAtArgs,
    },
    /// Draw a map of a scenario or a game log's scenario: the table to scale, its terrain, every
    /// unit as its stands, a legend; -o map.svg, map.png or map.pdf.
    Render(map::RenderArgs),
    /// A scenario's order of battle as a sheet for the table: each side's leaders, brigades with
    /// their clocks, and units with stand boxes to strike, quality, weapon bands and health;
    /// as text, --format json, or -o sheet.html or sheet.pdf to print.
    Roster(roster_cmd::RosterArgs),
    /// A scenario's time and motion, for its designer: the clock; per brigade and reinforcement
    /// the earliest turn it can reach each objective, contact and effective range with each enemy
    /// brigade; the earliest first contact; whether and when each victory condition can be met.
    /// Text, --format json, or --svg OUT --brigade NAME for a map of one force's reach.
    Analyze(analyze_cmd::AnalyzeArgs),
    /// Replay a game log through the rules: a narrative turn by turn, and every place where the
    /// log's dice, claims or moves disagree with the rules; exit 1 if there is any.
    Replay(replay_cmd::ReplayArgs),
    /// Audit game logs: every illegal action and every claimed result the dice do not give, at
    /// its line with its rule; what the umpire allowed (`@allow`) listed apart; exit 1 if any.
    Audit(audit_cmd::AuditArgs),
    /// Campaigns (Ch14): battles linked by the post-battle sequence.
    Campaign {
        #[command(subcommand)]
        what: campaign_cmd::CampaignKind,
    },
    /// How each side's dice compared with the odds in a logged game: each volley's percentile of
    /// hits, each test's chance, and a whole-game score.
    Luck(luck_cmd::LuckArgs),
    /// At the table: play on from a game log. It shows whose turn and phase it is and what the
    /// rules allow, the odds before you roll, asks for the dice the rules need (or rolls them
    /// from a seed) and writes each finished line to the log; `undo` takes one back.
    Play(play::PlayArgs),
    /// For a scenario's designer: play a logged game's orders again with other dice, once per
    /// seed (every die and claim of the log left out and rolled afresh), and tally the results,
    /// each brigade's losses and the orders the other dice made illegal.
    Playtest(playtest_cmd::PlaytestArgs),
    /// Run the language server on standard input and output, for editors.
    Lsp,
    /// Print the shell's completion script (bash, zsh, fish, elvish, powershell): sourced, it
    /// asks dotc at each Tab, so `dotc explain` completes every id it knows and `--unit` and
    /// `--brigade` the names of the file on the line.
    Completions { shell: clap_complete::Shell },
    /// The documents, built in: `tour` (the README), `language`, `cli`, `rulings`, `modules`,
    /// `scripting`; `dotc docs language actions` prints the sections whose heading holds the
    /// words. Without a topic, the list.
    Docs { topic: Option<String>, section: Vec<String> },
    /// Print a manual page (roff): dotc(1), or a subcommand's (`dotc man check`); `--out DIR`
    /// writes them all.
    Man(man_cmd::ManArgs),
}

fn main() -> ExitCode {
    // A shell asking for completions at Tab (`COMPLETE=bash dotc -- ...`) is answered here.
    completion::answer_if_asked();
    let cli = Cli::parse();
    term::init(cli.color, cli.quiet);
    // A closed standard output ends every command quietly, killed by SIGPIPE like other Unix
    // tools; not the language server, which reports a lost client itself.
    files::install_signal_handlers(!matches!(cli.command, Command::Lsp));
    match run(cli) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, String> {
    match cli.command {
        Command::Check(args) => check_cmd::check(&args),
        Command::Fmt(args) => fmt_cmd::fmt(&args),
        Command::Export(args) => export_cmd::export(&args),
        Command::New { what: new_cmd::NewKind::Scenario { name, output } } => {
            new_cmd::new_scenario(&name, output)
        }
        Command::New { what: new_cmd::NewKind::Game { scenario, name, output } } => {
            new_cmd::new_game(&scenario, name.as_deref(), output)
        }
        Command::Explain { id } => explain_cmd::explain(&id),
        Command::List { what } => explain_cmd::list(&what),
        Command::Play(args) => play::play(&args),
        Command::Odds { what: Some(_), at } if at.at.is_some() => {
            Err("--at prices a logged volley; give it without `fire`, `melee` or `assault`".to_string())
        }
        Command::Odds { what: Some(_), at } if at.format.get() != output::Format::Text => {
            Err("give --format after `fire`, `melee` or `assault`".to_string())
        }
        Command::Odds { what: Some(what), .. } => odds_cmd::odds(&what),
        Command::Odds { what: None, at } => odds_at::odds_at(&at, render),
        Command::Render(args) => map::render_map(&args),
        Command::Analyze(args) => analyze_cmd::analyze_file(&args),
        Command::Roster(args) => roster_cmd::roster(&args),
        Command::Replay(args) => replay_cmd::replay_file(&args, render),
        Command::Audit(args) => audit_cmd::audit(&args, render),
        Command::Luck(args) => luck_cmd::luck(&args, render),
        Command::Playtest(args) => playtest_cmd::playtest(&args, render),
        Command::Campaign { what } => campaign_cmd::campaign(&what, render),
        Command::Lsp => dotc_lsp::run_stdio(),
        Command::Completions { shell } => {
            completion::write_registration(shell, &mut std::io::stdout()).map_err(|e| e.to_string())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Man(args) => man_cmd::man(&args, Cli::command()),
        Command::Docs { topic, section } => docs_cmd::docs(topic.as_deref(), &section),
    }
}

/// Read a file as text (see `files`; `-` is standard input). Text that is not UTF-8 is reported
/// as a located diagnostic on standard error, and the command stops.
fn read(path: &Path) -> Result<String, String> {
    match files::read(path) {
        Ok(text) => Ok(text),
        Err(files::ReadFailure::Message(message)) => Err(message),
        Err(files::ReadFailure::NotUtf8 { diagnostic, lossy }) => {
            let name = files::named(path).display().to_string();
            eprint!("{}", render(std::slice::from_ref(&*diagnostic), &name, &lossy));
            Err(format!("{name} is not UTF-8 text; not read"))
        }
    }
}

/// A file read and analysed for a command that works only on a file without errors.
struct Analysed {
    analysis: dotc_lang::Analysis,
    /// The file as diagnostics name it (`<stdin>` for `-`).
    name: String,
    source: String,
}

/// Read and analyse `file`; a file with errors has its diagnostics printed on standard error
/// and `error: NAME has errors; NOT_DONE`, and gives exit status 1 (`Ok(Err(..))`).
fn analysed(file: &Path, not_done: &str) -> Result<Result<Analysed, ExitCode>, String> {
    let source = read(file)?;
    let path = files::named(file);
    let name = path.display().to_string();
    let analysis = dotc_lang::analyze(path, &source, &files::InputLoader);
    let errors: Vec<Diagnostic> = analysis.diagnostics.iter().filter(|d| d.is_error()).cloned().collect();
    if !errors.is_empty() {
        eprint!("{}", render(&errors, &name, &source));
        eprintln!("error: {name} has errors; {not_done}");
        return Ok(Err(ExitCode::from(1)));
    }
    Ok(Ok(Analysed { analysis, name, source }))
}

/// Diagnostics as standard error shows them: drawn with Unicode for a terminal (in colour when
/// `term` allows it, also into a pipe with `--color always`), plain otherwise.
fn render(diagnostics: &[Diagnostic], name: &str, source: &str) -> String {
    let colour = term::colour_stderr();
    if colour || std::io::stderr().is_terminal() {
        let theme = if colour { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
        let handler =
            dotc_lang::diagnostic::keep_ids_whole(GraphicalReportHandler::new_themed(theme).with_width(100));
        render_with(&handler, diagnostics, name, source)
    } else {
        render_plain(diagnostics, name, source)
    }
}

/// Write a file dotc makes (see `files::write`): atomically, through a symlink, keeping the
/// permissions, never over this command's input; `force` replaces a read-only file.
fn write_atomically(path: &Path, text: impl AsRef<[u8]>, force: bool) -> Result<(), String> {
    files::write(path, text.as_ref(), files::WriteOptions { force, in_place: false })
}

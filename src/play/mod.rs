//! `dotc play GAME.dotc`: the table-side assistant (issue 20). It replays the log so far, shows
//! whose turn and phase it is and the actions the rules allow, prices a chosen volley or
//! assault before a die is rolled, asks for exactly the dice the rules need (or lets a seeded
//! roll decide), and writes each finished line to the log, which therefore always audits clean.
//! `undo` takes the last line back; running `dotc play` on the log again takes up where it
//! stopped. The rules are all in [`session`]'s replays; this module is the prompt.

pub mod session;

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use dotc_runtime::geometry::bearing_vector;
use session::{Candidate, Pending, Session};

/// `dotc play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// The game log to play on (start one with `dotc new game SCENARIO`). Each line is written
    /// to it as soon as it is finished.
    pub game: PathBuf,
    /// The seed of the rolls left to the machine (Enter at a dice prompt).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

const HELP: &str = "\
Type one of:
  N                 take action N of the list (its odds, then its dice)
  odds N            the odds of action N, rolling nothing
  move UNIT forward D [facing F]        move straight ahead D inches
  move UNIT D bearing B [facing F]      move D inches toward compass bearing B (0 north, 90 east)
  any log line      e.g. `formation \"9th Louisiana\" assault_column`,
                    `move \"9th Louisiana\" to (28.5, 14) facing west`: checked, then written
  next              on to the next phase (after status: the next turn); refused while
                    the rules still call for something this turn (`next!` moves on anyway)
  units             every unit on the table: strength, formation, markers, place
  undo              take back the log's last line
  map [FILE]        draw the table as it stands now (SVG; default GAME-now.svg)
  help, quit
At a dice prompt type the dice as they fell (`3 5 2` or `[3, 5, 2]`), or press Enter to let
the seeded dice fall. UNIT is a name in quotes or a unit's number from `units`.
";

pub fn play(args: &PlayArgs) -> Result<ExitCode, String> {
    let mut session = Session::open(&args.game, args.seed)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout();
    prompt(&mut session, &mut input, &mut out).map_err(|e| e.to_string())?;
    Ok(ExitCode::SUCCESS)
}

/// The prompt: read commands from `input` until it ends or `quit`.
pub fn prompt(session: &mut Session, input: &mut dyn BufRead, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "dotc play: {} (type `help`)", session.path.display())?;
    let problems = session.problems();
    if !problems.is_empty() {
        writeln!(out, "the log as written has {} finding(s); `dotc audit` shows them", problems.len())?;
    }
    let mut candidates = show(session, out)?;
    loop {
        write!(out, "> ")?;
        out.flush()?;
        let Some(line) = read_line(input)? else { break };
        let line = line.trim();
        let (word, rest) = line.split_once(' ').map_or((line, ""), |(w, r)| (w, r.trim()));
        match word {
            "" => continue,
            "quit" | "exit" => break,
            "help" | "?" => write!(out, "{HELP}")?,
            "next" | "next!" => match session.next_phase(word == "next!") {
                Ok(()) => candidates = show(session, out)?,
                Err(e) => writeln!(out, "! {e}")?,
            },
            "undo" => match session.undo() {
                Ok(removed) => {
                    writeln!(out, "taken back: {removed}")?;
                    candidates = show(session, out)?;
                }
                Err(e) => writeln!(out, "! {e}")?,
            },
            "units" => units(session, out)?,
            "map" => map(session, rest, out)?,
            "odds" => match pick(&candidates, rest) {
                Some(c) => match begin(session, c) {
                    Ok(pending) => odds(session, &pending, out)?,
                    Err(e) => writeln!(out, "! {e}")?,
                },
                None => writeln!(out, "! `odds N` wants the number of an action in the list")?,
            },
            _ if line.chars().all(|c| c.is_ascii_digit()) => match pick(&candidates, line) {
                Some(c) => {
                    match begin(session, c) {
                        Ok(pending) => {
                            odds(session, &pending, out)?;
                            if !roll_and_write(session, pending, input, out)? {
                                break;
                            }
                        }
                        Err(e) => writeln!(out, "! {e}")?,
                    }
                    candidates = show(session, out)?;
                }
                None => writeln!(out, "! there is no action {line} in the list")?,
            },
            _ => {
                let written = match move_line(session, line) {
                    Some(Ok(written)) => written,
                    Some(Err(e)) => {
                        writeln!(out, "! {e}")?;
                        continue;
                    }
                    None => line.to_string(),
                };
                match session.begin(&written) {
                    Ok(pending) => {
                        odds(session, &pending, out)?;
                        if !roll_and_write(session, pending, input, out)? {
                            break;
                        }
                        candidates = show(session, out)?;
                    }
                    Err(e) => writeln!(out, "! not written: {e}")?,
                }
            }
        }
    }
    Ok(())
}

fn read_line(input: &mut dyn BufRead) -> std::io::Result<Option<String>> {
    let mut line = String::new();
    Ok((input.read_line(&mut line)? > 0).then_some(line))
}

fn pick<'c>(candidates: &'c [Candidate], number: &str) -> Option<&'c Candidate> {
    let n: usize = number.trim().parse().ok()?;
    candidates.get(n.checked_sub(1)?)
}

fn begin(session: &Session, c: &Candidate) -> Result<Pending, String> {
    match c.existing {
        Some(at) => session.begin_existing(at),
        None => session.begin(&c.line),
    }
}

/// Where the game stands and what may be done: the list the numbers pick from.
fn show(session: &Session, out: &mut dyn Write) -> std::io::Result<Vec<Candidate>> {
    let cursor = &session.cursor;
    if cursor.turn == 0 {
        writeln!(out, "the log has no turn yet: `next` begins turn 1")?;
        return Ok(Vec::new());
    }
    let number = session::PHASES.iter().position(|p| *p == cursor.phase).map_or(0, |i| i + 1);
    writeln!(
        out,
        "\nTurn {}, {} to play; Phase {number}, {}",
        cursor.turn,
        cursor.side,
        cursor.phase.word()
    )?;
    let candidates = session.candidates();
    if candidates.is_empty() {
        writeln!(out, "  nothing the rules call for here; type a log line, or `next`")?;
    }
    for (i, c) in candidates.iter().enumerate() {
        let shown = match c.line.split_once(" {") {
            Some((head, block)) if block.contains("closing_volley") => {
                format!("{head}, through a closing volley")
            }
            Some((head, _)) => format!("{head}, the defender holding its fire"),
            None => c.line.clone(),
        };
        let note = if c.kind == "dice" { "  (its dice are still to be typed)" } else { "" };
        writeln!(out, "  {:>2}  {shown}{note}", i + 1)?;
    }
    Ok(candidates)
}

fn odds(session: &Session, pending: &Pending, out: &mut dyn Write) -> std::io::Result<()> {
    for line in session.odds(pending) {
        writeln!(out, "  {line}")?;
    }
    Ok(())
}

/// Ask for each roll the rules want, then write the line. False when the input ended first.
fn roll_and_write(
    session: &mut Session,
    mut pending: Pending,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> std::io::Result<bool> {
    while let Some((label, count)) = pending.next.clone() {
        let dice = if count == 1 { "die" } else { "dice" };
        write!(out, "{label}: {count} {dice} (Enter: let them fall) ")?;
        out.flush()?;
        let Some(typed) = read_line(input)? else { return Ok(false) };
        let typed = typed.trim();
        if typed == "cancel" {
            writeln!(out, "nothing written")?;
            return Ok(true);
        }
        let faces = if typed.is_empty() {
            None
        } else {
            match parse_dice(typed) {
                Some(faces) => Some(faces),
                None => {
                    writeln!(
                        out,
                        "! type {count} {dice} from 1 to 6, e.g. `{}`, or `cancel`",
                        example(count)
                    )?;
                    continue;
                }
            }
        };
        match session.roll(&pending, faces) {
            Ok(next) => pending = next,
            Err(e) => writeln!(out, "! {e}")?,
        }
    }
    match session.commit(&pending) {
        Ok(narrative) => {
            for line in narrative.lines() {
                writeln!(out, "  {line}")?;
            }
        }
        Err(e) => writeln!(out, "! {e}")?,
    }
    Ok(true)
}

fn example(count: usize) -> String {
    (0..count).map(|i| ((i * 3) % 6 + 1).to_string()).collect::<Vec<_>>().join(" ")
}

/// `3 5 2`, `3,5,2` or `[3, 5, 2]`.
fn parse_dice(text: &str) -> Option<Vec<u8>> {
    let inner = text.trim().trim_start_matches('[').trim_end_matches(']');
    inner
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<u8>().ok().filter(|d| (1..=6).contains(d)))
        .collect()
}

/// `move UNIT forward D [facing F]` and `move UNIT D bearing B [facing F]` as the log's
/// `move "Unit" to (x, y) facing F`, from where the unit stands now. None: not one of these.
fn move_line(session: &Session, line: &str) -> Option<Result<String, String>> {
    let rest = line.strip_prefix("move ")?.trim();
    let (name, rest) = unit_word(session, rest)?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let (distance, bearing, tail) = match words.as_slice() {
        ["forward", d, tail @ ..] => (d.parse::<f64>().ok()?, None, tail),
        [d, "bearing", b, tail @ ..] => (d.parse::<f64>().ok()?, Some(b.parse::<f64>().ok()?), tail),
        _ => return None,
    };
    let Some(moment) = &session.now.moment else { return Some(Err("the game could not be set up".into())) };
    let Some(body) = moment.table.units.iter().find(|u| u.name == name).and_then(|u| u.body) else {
        return Some(Err(format!("{name} is not on the table")));
    };
    let (east, north) = bearing_vector(bearing.unwrap_or(body.facing));
    let to = (round(body.position.0 + distance * east), round(body.position.1 + distance * north));
    let facing = match tail {
        ["facing", f] => f.to_string(),
        [] => number(body.facing),
        _ => return Some(Err("after the distance, only `facing F` may follow".into())),
    };
    Some(Ok(format!(
        "move {} to ({}, {}) facing {facing}",
        session::quote(&name),
        number(to.0),
        number(to.1)
    )))
}

/// A unit named at the start of `text` (in quotes, or by its number in `units`), and the rest.
fn unit_word<'t>(session: &Session, text: &'t str) -> Option<(String, &'t str)> {
    if let Some(quoted) = text.strip_prefix('"') {
        let end = quoted.find('"')?;
        return Some((quoted[..end].to_string(), &quoted[end + 1..]));
    }
    let (word, rest) = text.split_once(' ')?;
    let n: usize = word.trim_start_matches('u').parse().ok()?;
    let moment = session.now.moment.as_ref()?;
    let unit = moment.units.iter().filter(|u| u.present).nth(n.checked_sub(1)?)?;
    Some((unit.name.clone(), rest))
}

fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn number(x: f64) -> String {
    let r = round(x);
    if r.fract() == 0.0 { format!("{r:.0}") } else { format!("{r}") }
}

/// Every unit on the table, numbered as `move` takes them.
fn units(session: &Session, out: &mut dyn Write) -> std::io::Result<()> {
    let Some(moment) = &session.now.moment else { return Ok(()) };
    let present: Vec<_> = moment.units.iter().filter(|u| u.present).collect();
    for (i, u) in present.iter().enumerate() {
        let table = moment.table.units.iter().find(|t| t.name == u.name);
        let place = table.and_then(|t| t.body).map_or(String::new(), |b| {
            format!("at ({}, {}) facing {}", number(b.position.0), number(b.position.1), number(b.facing))
        });
        let markers = table.map(|t| t.markers.join(", ")).unwrap_or_default();
        let micro = if u.micro_hit > 0 { " + micro-hit" } else { "" };
        writeln!(
            out,
            "  u{:<2} {:<28} {:<12} {}/{} stands{micro}  {}  {place}{}",
            i + 1,
            u.name,
            u.side,
            u.stands,
            u.starting_stands,
            u.formation,
            if markers.is_empty() { String::new() } else { format!("  [{markers}]") }
        )?;
    }
    Ok(())
}

/// `map [FILE]`: the table now, as `dotc render` draws it.
fn map(session: &Session, file: &str, out: &mut dyn Write) -> std::io::Result<()> {
    let output = if file.is_empty() {
        let stem = session.path.file_stem().and_then(|s| s.to_str()).unwrap_or("game");
        session.path.with_file_name(format!("{stem}-now.svg"))
    } else {
        PathBuf::from(file)
    };
    let args = crate::map::RenderArgs {
        file: session.path.clone(),
        output: output.clone(),
        force: true,
        at: None,
        scale: dotc_runtime::render::DEFAULT_SCALE,
        unit: None,
        arcs: false,
        sight: false,
        seen_by: None,
    };
    match crate::map::render_map(&args) {
        Ok(_) => writeln!(out, "drew {}", output.display()),
        Err(e) => writeln!(out, "! {e}"),
    }
}

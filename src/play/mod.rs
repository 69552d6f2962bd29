//! `dotc play GAME.dotc`: the table-side assistant (issue 20). It replays the log so far, shows
//! whose turn and phase it is and the actions the rules allow, prices a chosen volley or
//! assault before a die is rolled, asks for exactly the dice the rules need (or lets a seeded
//! roll decide), and writes each finished line to the log, which therefore always audits clean.
//! `undo` takes the last line back; running `dotc play` on the log again takes up where it
//! stopped. The rules are all in [`session`]'s replays; this module is the prompt.

mod screen;
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
    /// Use the line prompt even on a terminal (it is used anyway where none is attached).
    #[arg(long)]
    pub prompt: bool,
}

const HELP: &str = "\
Type one of:
  N                 take action N of the list (its odds, then its dice)
  odds N            the odds of action N, rolling nothing
  move UNIT forward D [facing F]        move straight ahead D inches
  move UNIT D bearing B [facing F]      move D inches toward compass bearing B (0 north, 90 east)
  any log line      e.g. `formation \"9th Louisiana\" assault_column`,
                    `move \"9th Louisiana\" to (28.5, 14) facing west` (a target point),
                    `wheel \"9th Louisiana\" right 30`: checked by the rules, then written
  next              on to the next phase (after status: the next turn); refused while
                    the rules still call for something this turn (`next!` moves on anyway)
  units             every unit on the table: strength, formation, markers, place
  undo              take back the log's last line
  map [FILE]        draw the table as it stands now (SVG; default GAME-now.svg; F2 on the screen)
  help, quit
At a dice prompt type the dice as they fell (`3 5 2` or `[3, 5, 2]`), or press Enter to let
the seeded dice fall. UNIT is a name in quotes or a unit's number from `units`.
";

pub fn play(args: &PlayArgs) -> Result<ExitCode, String> {
    let session = Session::open(&args.game, args.seed)?;
    let (assistant, opening) = Assistant::new(session);
    use std::io::IsTerminal;
    if !args.prompt && std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        screen::run_terminal(assistant, opening).map_err(|e| e.to_string())?;
    } else {
        let stdin = std::io::stdin();
        prompt(assistant, opening, &mut stdin.lock(), &mut std::io::stdout()).map_err(|e| e.to_string())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The line prompt (where no terminal is attached, or with `--prompt`): read commands from
/// `input` until it ends or `quit`.
pub fn prompt(
    mut assistant: Assistant,
    opening: Vec<String>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    for line in opening {
        writeln!(out, "{line}")?;
    }
    while !assistant.done {
        write!(out, "{}", assistant.asking())?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            break;
        }
        for shown in assistant.feed(&line) {
            writeln!(out, "{shown}")?;
        }
    }
    Ok(())
}

/// The assistant between two inputs: the game, the list the numbers pick from, and a line
/// waiting for its dice. Both the line prompt and the terminal screen feed it one line at a
/// time and show what it says.
pub struct Assistant {
    pub session: Session,
    pub candidates: Vec<Candidate>,
    pending: Option<Pending>,
    /// `quit` was typed.
    pub done: bool,
}

impl Assistant {
    /// The assistant on an opened game, and what it says first.
    pub fn new(session: Session) -> (Assistant, Vec<String>) {
        let mut out = vec![format!("dotc play: {} (type `help`)", session.path.display())];
        let problems = session.problems();
        if !problems.is_empty() {
            out.push(format!(
                "the log as written has {} finding(s); `dotc audit` shows them",
                problems.len()
            ));
        }
        let mut assistant = Assistant { session, candidates: Vec::new(), pending: None, done: false };
        assistant.show(&mut out);
        (assistant, out)
    }

    /// What the assistant waits for: a command, or the dice of a roll.
    pub fn asking(&self) -> String {
        match self.pending.as_ref().and_then(|p| p.next.as_ref()) {
            Some((label, count)) => {
                let dice = if *count == 1 { "die" } else { "dice" };
                format!("{label}: {count} {dice} (Enter: let them fall) ")
            }
            None => "> ".to_string(),
        }
    }

    /// Where the game stands, as a heading.
    pub fn heading(&self) -> String {
        let cursor = &self.session.cursor;
        if cursor.turn == 0 {
            return "no turn yet".to_string();
        }
        let number = session::PHASES.iter().position(|p| *p == cursor.phase).map_or(0, |i| i + 1);
        format!("Turn {}, {} to play; Phase {number}, {}", cursor.turn, cursor.side, cursor.phase.word())
    }

    /// Take one line of input; what to show for it.
    pub fn feed(&mut self, line: &str) -> Vec<String> {
        let mut out = Vec::new();
        let line = line.trim();
        if self.pending.is_some() {
            self.dice(line, &mut out);
            return out;
        }
        let (word, rest) = line.split_once(' ').map_or((line, ""), |(w, r)| (w, r.trim()));
        match word {
            "" => {}
            "quit" | "exit" => self.done = true,
            "help" | "?" => out.extend(HELP.lines().map(str::to_string)),
            "next" | "next!" => match self.session.next_phase(word == "next!") {
                Ok(()) => self.show(&mut out),
                Err(e) => out.push(format!("! {e}")),
            },
            "undo" => match self.session.undo() {
                Ok(removed) => {
                    out.push(format!("taken back: {removed}"));
                    self.show(&mut out);
                }
                Err(e) => out.push(format!("! {e}")),
            },
            "units" => units(&self.session, &mut out),
            "map" => map(&self.session, rest, &mut out),
            "odds" => match pick(&self.candidates, rest) {
                Some(c) => match begin(&self.session, c) {
                    Ok(pending) => {
                        out.extend(self.session.odds(&pending).into_iter().map(|l| format!("  {l}")))
                    }
                    Err(e) => out.push(format!("! {e}")),
                },
                None => out.push("! `odds N` wants the number of an action in the list".to_string()),
            },
            _ if line.chars().all(|c| c.is_ascii_digit()) => match pick(&self.candidates, line).cloned() {
                // A move wants its end: the ways to give it.
                Some(c) if c.kind == "move" => {
                    let n = self.unit_number(&c.line).map_or("UNIT".to_string(), |n| format!("u{n}"));
                    out.push(format!(
                        "  {}: type `move {n} forward D`, `move {n} D bearing B` or `move {n} to (x, y) facing F`",
                        c.line
                    ));
                }
                Some(c) => match begin(&self.session, &c) {
                    Ok(pending) => self.start(pending, &mut out),
                    Err(e) => {
                        out.push(format!("! {e}"));
                        self.show(&mut out);
                    }
                },
                None => out.push(format!("! there is no action {line} in the list")),
            },
            _ => {
                let written = match move_line(&self.session, line) {
                    Some(Ok(written)) => written,
                    Some(Err(e)) => {
                        out.push(format!("! {e}"));
                        return out;
                    }
                    None => line.to_string(),
                };
                match self.session.begin(&written) {
                    Ok(pending) => self.start(pending, &mut out),
                    Err(e) => out.push(format!("! not written: {e}")),
                }
            }
        }
        out
    }

    /// The number `units` gives the unit a candidate line names.
    fn unit_number(&self, line: &str) -> Option<usize> {
        let name = line.split('"').nth(1)?;
        let moment = self.session.now.moment.as_ref()?;
        moment.units.iter().filter(|u| u.present).position(|u| u.name == name).map(|i| i + 1)
    }

    /// A line the rules accept: its odds, then its dice (or, needing none, it is written).
    fn start(&mut self, pending: Pending, out: &mut Vec<String>) {
        out.extend(self.session.odds(&pending).into_iter().map(|l| format!("  {l}")));
        self.pending = Some(pending);
        self.finish_if_rolled(out);
    }

    /// The dice typed for the pending line's next roll.
    fn dice(&mut self, typed: &str, out: &mut Vec<String>) {
        let Some(pending) = self.pending.clone() else { return };
        let Some((_, count)) = pending.next.clone() else { return };
        if typed == "cancel" {
            self.pending = None;
            out.push("nothing written".to_string());
            self.show(out);
            return;
        }
        let faces = if typed.is_empty() {
            None
        } else {
            match parse_dice(typed) {
                Some(faces) => Some(faces),
                None => {
                    let dice = if count == 1 { "die" } else { "dice" };
                    out.push(format!(
                        "! type {count} {dice} from 1 to 6, e.g. `{}`, or `cancel`",
                        example(count)
                    ));
                    return;
                }
            }
        };
        match self.session.roll(&pending, faces) {
            Ok(next) => {
                self.pending = Some(next);
                self.finish_if_rolled(out);
            }
            Err(e) => out.push(format!("! {e}")),
        }
    }

    /// Write the pending line once no roll is left to type, and show what it did.
    fn finish_if_rolled(&mut self, out: &mut Vec<String>) {
        let Some(pending) = self.pending.take_if(|p| p.next.is_none()) else { return };
        match self.session.commit(&pending) {
            Ok(narrative) => out.extend(narrative.lines().map(|l| format!("  {l}"))),
            Err(e) => out.push(format!("! {e}")),
        }
        self.show(out);
    }

    /// Where the game stands and what may be done: the list the numbers pick from.
    fn show(&mut self, out: &mut Vec<String>) {
        if self.session.cursor.turn == 0 {
            out.push("the log has no turn yet: `next` begins turn 1".to_string());
            self.candidates.clear();
            return;
        }
        out.push(String::new());
        out.push(self.heading());
        self.candidates = self.session.candidates();
        if self.candidates.is_empty() {
            out.push("  nothing the rules call for here; type a log line, or `next`".to_string());
        }
        for (i, c) in self.candidates.iter().enumerate() {
            out.push(format!("  {:>2}  {}", i + 1, shown(c)));
        }
    }
}

/// A candidate as the list shows it.
pub fn shown(c: &Candidate) -> String {
    let line = match c.line.split_once(" {") {
        Some((head, block)) if block.contains("closing_volley") => {
            format!("{head}, through a closing volley")
        }
        Some((head, _)) => format!("{head}, the defender holding its fire"),
        None => c.line.clone(),
    };
    if c.kind == "dice" { format!("{line}  (its dice are still to be typed)") } else { line }
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

pub fn number(x: f64) -> String {
    let r = round(x);
    if r.fract() == 0.0 { format!("{r:.0}") } else { format!("{r}") }
}

/// Every unit on the table, numbered as `move` takes them.
fn units(session: &Session, out: &mut Vec<String>) {
    let Some(moment) = &session.now.moment else { return };
    let present: Vec<_> = moment.units.iter().filter(|u| u.present).collect();
    for (i, u) in present.iter().enumerate() {
        let table = moment.table.units.iter().find(|t| t.name == u.name);
        let place = table.and_then(|t| t.body).map_or(String::new(), |b| {
            format!("at ({}, {}) facing {}", number(b.position.0), number(b.position.1), number(b.facing))
        });
        let markers = table.map(|t| t.markers.join(", ")).unwrap_or_default();
        let micro = if u.micro_hit > 0 { " + micro-hit" } else { "" };
        out.push(format!(
            "  u{:<2} {:<28} {:<12} {}/{} stands{micro}  {}  {place}{}",
            i + 1,
            u.name,
            u.side,
            u.stands,
            u.starting_stands,
            u.formation,
            if markers.is_empty() { String::new() } else { format!("  [{markers}]") }
        ));
    }
}

/// `map [FILE]`: the table now, as `dotc render` draws it.
fn map(session: &Session, file: &str, out: &mut Vec<String>) {
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
        no_actions: false,
        scale: dotc_runtime::render::DEFAULT_SCALE,
        unit: None,
        arcs: false,
        sight: false,
        seen_by: None,
    };
    out.push(match crate::map::render_map(&args) {
        Ok(_) => format!("drew {}", output.display()),
        Err(e) => format!("! {e}"),
    });
}

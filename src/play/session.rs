//! The table-side assistant's game: the log on disk, replayed after every line it writes, and
//! the phase the players are in (issue 20).
//!
//! Nothing here judges a rule. Every question is put to the rules core by writing the line the
//! players would write into a copy of the log and replaying it:
//! - which actions are open: each candidate line is written without dice and replayed once
//!   with all the others; a volley or assault the replay plans (its probe) is legal, a roll the
//!   replay would have to fill in (with a seed) is one the rules call for;
//! - the odds before rolling: the replay's own plan of that line ([`Replay::probes`]);
//! - which dice to type next: the first roll a seeded replay fills in for the line
//!   ([`Replay::filled`]), so the prompt asks for exactly what the rules need, in their order;
//! - whether a line may be written: the replay finds nothing wrong at it.
//!
//! The log is the game's only state: a line is written (atomically) once the replay accepts it,
//! and `dotc play` on the same file later takes up where it stopped.

use std::path::{Path, PathBuf};

use dotc_lang::Analysis;
use dotc_lang::ast::{Action, Arg, PhaseKind, Turn};
use dotc_runtime::campaign::logged::replay_logged;
use dotc_runtime::engine::What;
use dotc_runtime::replay::{Filled, Finding, Level, Moment, Replay, ReplayOptions, completed_log};

/// The phases of a turn in order (Ch16 1.0).
pub const PHASES: [PhaseKind; 5] =
    [PhaseKind::Command, PhaseKind::Maneuver, PhaseKind::Fire, PhaseKind::Melee, PhaseKind::Status];

/// Where the players are: the log's last turn and the phase of it being logged.
#[derive(Clone, Debug, PartialEq)]
pub struct Cursor {
    /// The turn (0: the log has no turn yet) and its side.
    pub turn: u32,
    pub side: String,
    pub phase: PhaseKind,
}

/// The log replayed as it stands.
pub struct Now {
    pub analysis: Analysis,
    pub replay: Replay,
    pub moment: Option<Moment>,
}

/// An action the rules allow now, as the line that records it (without dice).
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The line, e.g. `fire "6th Louisiana" at "12th New Jersey"`.
    pub line: String,
    /// What it is, for a menu: `fire`, `assault`, `rally`, `pips`, or `dice` (a line already
    /// in the log whose dice are still to be typed).
    pub kind: &'static str,
    /// For `dice`: the offset in the log of the action whose dice are missing.
    pub existing: Option<usize>,
}

/// A line being written: its text so far and the roll the rules want next, if any.
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    /// The log with the line in it (not yet written).
    pub text: String,
    /// The offset of the line's action in `text`.
    pub at: usize,
    /// The next roll the rules call for: its purpose (`to_hit`, `save`, ...) and how many dice.
    pub next: Option<(String, usize)>,
    /// What the seed would roll for it ("let the dice fall").
    pub seeded: Vec<u8>,
}

pub struct Session {
    pub path: PathBuf,
    /// The log as it is on disk.
    pub text: String,
    pub cursor: Cursor,
    pub now: Now,
    /// The seed of rolls left to the machine; each line's rolls use the seed and the line's
    /// place, so a session is reproducible.
    seed: u64,
}

impl Session {
    /// Open a game log (one `dotc new game` wrote, or one already under way).
    pub fn open(path: &Path, seed: u64) -> Result<Session, String> {
        let text = match crate::files::read(path) {
            Ok(text) => text,
            Err(crate::files::ReadFailure::Message(m)) => return Err(m),
            Err(crate::files::ReadFailure::NotUtf8 { .. }) => {
                return Err(format!("{} is not UTF-8 text", path.display()));
            }
        };
        let now = replay_text(path, &text, &[], None, true);
        if now.analysis.document.game.is_none() {
            return Err(format!(
                "{} is not a game log (it has no `game` header); start one with `dotc new game SCENARIO`",
                path.display()
            ));
        }
        if now.analysis.has_errors() {
            return Err(format!("{} has errors; `dotc check {}` shows them", path.display(), path.display()));
        }
        let cursor = resume_cursor(&now.analysis);
        Ok(Session { path: path.to_path_buf(), text, cursor, now, seed })
    }

    /// The sides in the scenario's order.
    pub fn sides(&self) -> Vec<String> {
        self.now.moment.as_ref().map(|m| m.sides.clone()).unwrap_or_default()
    }

    /// The side of the turn after this one (RULINGS G7: sides alternate).
    fn next_side(&self) -> String {
        let sides = self.sides();
        if self.cursor.turn == 0 {
            return first_side(&self.now.analysis).or_else(|| sides.first().cloned()).unwrap_or_default();
        }
        let at = sides.iter().position(|s| *s == self.cursor.side).unwrap_or(0);
        sides.get((at + 1) % sides.len().max(1)).cloned().unwrap_or_default()
    }

    /// The errors and warnings the replay finds in the log as written.
    pub fn problems(&self) -> Vec<&Finding> {
        self.now.replay.findings.iter().filter(|f| matches!(f.level, Level::Error | Level::Warning)).collect()
    }

    /// Move on to the next phase, or to the next turn after the status phase. The phase's
    /// block is written if the log lacks it. Refused while the rules still call for something
    /// in the turn under way (a brigadier's pips, a die still to type: the replay's errors and
    /// warnings in this turn), or when moving on makes the replay find something before it (a
    /// retreat the log owes, Ch16 7.4); `force` moves on all the same.
    pub fn next_phase(&mut self, force: bool) -> Result<(), String> {
        let turn_span = last_turn(&self.now.analysis, &self.cursor).map(|t| t.span);
        let owed: Vec<String> = self
            .problems()
            .into_iter()
            .filter(|f| turn_span.is_some_and(|t| f.span.start >= t.start && f.span.start < t.end))
            .map(|f| format!("{} ({})", f.message, f.rule))
            .collect();
        if !owed.is_empty() && !force {
            return Err(format!(
                "the rules still call for this in turn {}:
{}",
                self.cursor.turn,
                owed.join("\n")
            ));
        }
        let before: Vec<String> = self.problems().into_iter().map(|f| f.message.clone()).collect();
        let mut cursor = self.cursor.clone();
        let after = PHASES.iter().position(|p| *p == cursor.phase).map(|i| i + 1);
        let text = match after.and_then(|i| PHASES.get(i)) {
            Some(&phase) if cursor.turn > 0 => {
                cursor.phase = phase;
                ensure_phase(&self.text, &self.now.analysis, &cursor)
            }
            _ => {
                let side = self.next_side();
                cursor = Cursor { turn: cursor.turn + 1, side, phase: PhaseKind::Command };
                Some(new_turn(&self.text, &cursor))
            }
        };
        if let Some(text) = text {
            // What the replay finds before the new block that it did not find before.
            let unchanged = common_prefix(&self.text, &text);
            let now = replay_text(&self.path, &text, &[], None, false);
            let new: Vec<String> = now
                .replay
                .findings
                .iter()
                .filter(|f| matches!(f.level, Level::Error | Level::Warning) && f.span.start < unchanged)
                .filter(|f| !before.contains(&f.message))
                .map(|f| format!("{} ({})", f.message, f.rule))
                .collect();
            if !new.is_empty() && !force {
                return Err(format!("moving on, the rules find:\n{}", new.join("\n")));
            }
            self.write(text)?;
        }
        self.cursor = cursor;
        Ok(())
    }

    /// The actions the rules allow now, in the phase being logged.
    pub fn candidates(&self) -> Vec<Candidate> {
        let Some(moment) = &self.now.moment else { return Vec::new() };
        let mut out = self.missing_dice();
        let side = self.cursor.side.as_str();
        let mine: Vec<_> = moment.units.iter().filter(|u| u.present && u.side == side).collect();
        let theirs: Vec<_> = moment.units.iter().filter(|u| u.present && u.side != side).collect();
        let brigadier_of = |unit: &dotc_runtime::replay::MomentUnit| {
            let brigade = moment.brigades.iter().find(|b| Some(&b.name) == unit.brigade.as_ref())?;
            brigade.brigadier.clone()
        };
        // Lines written without dice and judged in one replay: a volley or assault is open when
        // the replay plans it (it passed every check before the dice).
        let mut probed: Vec<Candidate> = Vec::new();
        // Lines judged by a seeded replay: open when the replay rolls for them.
        let mut rolled: Vec<Candidate> = Vec::new();
        // Lines with no dice (a reinforcement's entry): open when the replay finds no fault.
        let mut placed: Vec<Candidate> = Vec::new();
        // Units that may move: their move in place is judged like `placed`, and the list shows
        // the move allowance the replay gives (its narrative of that line).
        let mut movers: Vec<Candidate> = Vec::new();
        match self.cursor.phase {
            PhaseKind::Command => {
                let rolled_pips = self.pips_rolled();
                for brigade in &moment.brigades {
                    let Some(brigadier) = &brigade.brigadier else { continue };
                    let present =
                        moment.units.iter().any(|u| u.present && u.brigade.as_ref() == Some(&brigade.name));
                    if present
                        && !rolled_pips.contains(brigadier)
                        && !out.iter().any(|c| c.line.contains(&quote(brigadier)))
                    {
                        rolled.push(candidate(format!("pips {}", quote(brigadier)), "pips"));
                    }
                }
            }
            PhaseKind::Maneuver => {
                placed = self.reinforcements_due(moment);
                // Who may move: a move to where it stands, judged by the replay (Ch16 3.1).
                for unit in mine.iter().filter(|u| !u.moved && !u.assaulted) {
                    let Some(body) =
                        moment.table.units.iter().find(|t| t.name == unit.name).and_then(|t| t.body)
                    else {
                        continue;
                    };
                    let line = format!(
                        "move {} to ({}, {}) facing {}",
                        quote(&unit.name),
                        crate::play::number(body.position.0),
                        crate::play::number(body.position.1),
                        crate::play::number(body.facing)
                    );
                    movers.push(candidate(line, "move"));
                }
                for unit in &mine {
                    let Some(brigadier) = brigadier_of(unit) else { continue };
                    if unit.arm == "battery" || unit.assaulted {
                        continue;
                    }
                    for target in &theirs {
                        let head = format!(
                            "assault {} -> {} pip {}",
                            quote(&unit.name),
                            quote(&target.name),
                            quote(&brigadier)
                        );
                        // The defender chooses whether to give a closing volley (Ch16 7.2,
                        // Reaction 1): the step is in the log or not, and each is its own plan.
                        probed.push(candidate(format!("{head} {{\n    closing_volley\n}}"), "assault"));
                        probed.push(candidate(format!("{head} {{\n}}"), "assault"));
                    }
                }
            }
            PhaseKind::Fire => {
                for unit in &mine {
                    for target in &theirs {
                        probed.push(candidate(
                            format!("fire {} at {}", quote(&unit.name), quote(&target.name)),
                            "fire",
                        ));
                    }
                }
            }
            PhaseKind::Status => {
                let disordered: Vec<&str> = moment
                    .table
                    .units
                    .iter()
                    .filter(|u| u.markers.contains(&"disorder"))
                    .map(|u| u.name.as_str())
                    .collect();
                for unit in mine.iter().filter(|u| disordered.contains(&u.name.as_str())) {
                    rolled.push(candidate(format!("rally {}", quote(&unit.name)), "rally"));
                }
            }
            PhaseKind::Melee => {}
        }
        if !probed.is_empty() {
            let (text, lines) = self.with_lines(&probed);
            let now = replay_text(&self.path, &text, &lines, None, false);
            for (c, line) in probed.into_iter().zip(&lines) {
                let open = now.replay.probes.iter().any(|p| p.line == *line)
                    || now.replay.assault_probes.iter().any(|p| p.line == *line && p.odds.is_ok());
                if open {
                    out.push(c);
                }
            }
        }
        if !movers.is_empty() {
            let (text, lines) = self.with_lines(&movers);
            let now = replay_text(&self.path, &text, &[], None, false);
            let index = dotc_lang::lines::LineIndex::new(&text);
            for (mut c, line) in movers.into_iter().zip(&lines) {
                let faulted = now.replay.findings.iter().any(|f| {
                    matches!(f.level, Level::Error | Level::Warning) && index.line(f.span.start) == *line
                });
                if faulted || now.analysis.has_errors() {
                    continue;
                }
                // The replay's own measure of the move in place: its allowance (Ch16 3.1).
                let allowance = now.replay.events.iter().find_map(|e| match &e.event.what {
                    What::Moved { allowance, .. } if e.line == *line => Some(*allowance),
                    _ => None,
                });
                let name = c.line.split('"').nth(1).unwrap_or_default().to_string();
                c.line = match allowance {
                    Some(inches) => format!("move {}: up to {inches:.1}\"", quote(&name)),
                    None => format!("move {}", quote(&name)),
                };
                out.push(c);
            }
        }
        if !placed.is_empty() {
            let (text, lines) = self.with_lines(&placed);
            let now = replay_text(&self.path, &text, &[], None, false);
            let index = dotc_lang::lines::LineIndex::new(&text);
            for (c, line) in placed.into_iter().zip(&lines) {
                let faulted = now.replay.findings.iter().any(|f| {
                    matches!(f.level, Level::Error | Level::Warning) && index.line(f.span.start) == *line
                });
                if !faulted && !now.analysis.has_errors() {
                    out.push(c);
                }
            }
        }
        if !rolled.is_empty() {
            let (text, lines) = self.with_lines(&rolled);
            let now = replay_text(&self.path, &text, &[], Some(self.seed), false);
            let starts = action_starts(&text, &now.analysis);
            for (c, line) in rolled.into_iter().zip(&lines) {
                let at = starts.iter().find(|(l, _)| l == line).map(|(_, at)| *at);
                if at.is_some_and(|at| now.replay.filled.iter().any(|f| f.span.start == at)) {
                    out.push(c);
                }
            }
        }
        out
    }

    /// The scenario's reinforcements of the side to play that are not on the table yet, each as
    /// its `enter` line at the scenario's entry point and facing (the replay judges whether it is
    /// due: scenario `reinforcements`).
    fn reinforcements_due(&self, moment: &Moment) -> Vec<Candidate> {
        let Some(scenario) = self.now.analysis.scenario.as_ref().and_then(|s| s.document.scenario.as_ref())
        else {
            return Vec::new();
        };
        scenario
            .reinforcements
            .iter()
            .filter(|r| r.kind.value != "brigade" && r.kind.value != "commander")
            .filter_map(|r| {
                let unit = moment.units.iter().find(|u| u.name == r.name.value)?;
                if unit.side != self.cursor.side || unit.present || unit.stands == 0 {
                    return None;
                }
                let facing = r.facing.as_ref().and_then(|f| f.value.degrees()).map_or(String::new(), |d| {
                    let word = match d {
                        0.0 => "north".to_string(),
                        90.0 => "east".to_string(),
                        180.0 => "south".to_string(),
                        270.0 => "west".to_string(),
                        d => crate::play::number(d),
                    };
                    format!(" facing {word}")
                });
                let (x, y) = (r.position.value.x, r.position.value.y);
                let line = format!(
                    "enter {} to ({}, {}){facing}",
                    quote(&unit.name),
                    crate::play::number(x),
                    crate::play::number(y)
                );
                Some(candidate(line, "enter"))
            })
            .collect()
    }

    /// Lines of the phase being logged whose dice are still to be typed (a skeleton's `pips`).
    fn missing_dice(&self) -> Vec<Candidate> {
        let Some(phase) = self.phase_actions() else { return Vec::new() };
        let now = replay_text(&self.path, &self.text, &[], Some(self.seed), false);
        phase
            .iter()
            .filter(|a| now.replay.filled.iter().any(|f| f.span.start == a.span.start))
            .map(|a| Candidate {
                line: self.text[a.span.start..a.span.end].to_string(),
                kind: "dice",
                existing: Some(a.span.start),
            })
            .collect()
    }

    /// The brigadiers whose pips this turn's command phase already records.
    fn pips_rolled(&self) -> Vec<String> {
        let Some(actions) = self.phase_actions() else { return Vec::new() };
        actions
            .iter()
            .filter(|a| a.verb.value == "pips")
            .filter_map(|a| {
                a.args
                    .iter()
                    .find_map(|arg| if let Arg::Unit(n) = arg { Some(n.value.clone()) } else { None })
            })
            .collect()
    }

    /// The actions the log records in the phase being logged.
    fn phase_actions(&self) -> Option<Vec<Action>> {
        let turn =
            self.now.analysis.document.turns.iter().rev().find(|t| t.number.value == self.cursor.turn)?;
        let phases = turn.phases();
        let phase = phases.iter().find(|p| p.kind.value == self.cursor.phase)?;
        Some(phase.actions.clone())
    }

    /// The log with `candidates` added at the end of the phase, and the 1-based line each
    /// starts on.
    fn with_lines(&self, candidates: &[Candidate]) -> (String, Vec<usize>) {
        let (mut text, at, indent) = self.insertion();
        let mut lines = Vec::new();
        let mut line = text[..at].matches('\n').count() + 1;
        let mut block = String::new();
        for c in candidates {
            lines.push(line);
            for l in c.line.lines() {
                block.push_str(&format!("{indent}{l}\n"));
                line += 1;
            }
        }
        text.insert_str(at, &block);
        (text, lines)
    }

    /// The log with the phase's block in it, the offset where its next line goes and that
    /// line's indent.
    fn insertion(&self) -> (String, usize, String) {
        let text =
            ensure_phase(&self.text, &self.now.analysis, &self.cursor).unwrap_or_else(|| self.text.clone());
        let analysis = analyze(&self.path, &text);
        let (at, indent) =
            phase_end(&text, &analysis, &self.cursor).unwrap_or((text.len(), "        ".into()));
        (text, at, indent)
    }

    /// Start writing `line` (without dice): the rules' first roll for it, or a refusal with the
    /// replay's reasons.
    pub fn begin(&self, line: &str) -> Result<Pending, String> {
        let (mut text, at, indent) = self.insertion();
        let block: String = line.lines().map(|l| format!("{indent}{l}\n")).collect();
        text.insert_str(at, &block);
        self.judge(text, at + indent.len())
    }

    /// Take up a line already in the log whose dice are missing.
    pub fn begin_existing(&self, at: usize) -> Result<Pending, String> {
        self.judge(self.text.clone(), at)
    }

    /// Type the dice of `pending`'s next roll (or, with None, let the seeded dice fall).
    pub fn roll(&self, pending: &Pending, faces: Option<Vec<u8>>) -> Result<Pending, String> {
        let Some((label, count)) = &pending.next else { return Ok(pending.clone()) };
        let faces = faces.unwrap_or_else(|| pending.seeded.clone());
        if faces.len() != *count || faces.iter().any(|f| !(1..=6).contains(f)) {
            return Err(format!(
                "the {label} roll is {count} {} from 1 to 6",
                if *count == 1 { "die" } else { "dice" }
            ));
        }
        let analysis = analyze(&self.path, &pending.text);
        let span = action_at(&analysis, pending.at).map(|a| a.span).ok_or("the line is gone")?;
        let fill = Filled { span, rolls: vec![(label.clone(), faces)] };
        let text = completed_log(&pending.text, &analysis.document, &[fill]);
        self.judge(text, pending.at)
    }

    /// Replay `text` with its line at `at` and say what it needs next or why it is refused.
    fn judge(&self, text: String, at: usize) -> Result<Pending, String> {
        let now = replay_text(&self.path, &text, &[], Some(self.seed ^ at as u64), false);
        if now.analysis.has_errors() {
            let messages: Vec<String> =
                now.analysis.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.message.clone()).collect();
            return Err(messages.join("\n"));
        }
        let action = action_at(&now.analysis, at).ok_or("the line did not parse as an action")?;
        let span = action.span;
        let next = now
            .replay
            .filled
            .iter()
            .find(|f| f.span.start == span.start)
            .and_then(|f| f.rolls.first())
            .cloned();
        if next.is_none() {
            let refused: Vec<String> = now
                .replay
                .findings
                .iter()
                .filter(|f| {
                    f.level == Level::Error
                        && f.span.start >= span.start
                        && f.span.start < span.end.max(span.start + 1)
                })
                .map(|f| format!("{} ({})", f.message, f.rule))
                .collect();
            if !refused.is_empty() {
                return Err(refused.join("\n"));
            }
        }
        Ok(Pending {
            text,
            at,
            next: next.as_ref().map(|(label, faces)| (label.clone(), faces.len())),
            seeded: next.map(|(_, faces)| faces).unwrap_or_default(),
        })
    }

    /// The odds of `pending`'s line as the replay plans it, before any die: the volley's, or
    /// the whole assault's.
    pub fn odds(&self, pending: &Pending) -> Vec<String> {
        let line = pending.text[..pending.at].matches('\n').count() + 1;
        let now = replay_text(&self.path, &pending.text, &[line], None, false);
        if let Some(p) = now.replay.probes.iter().find(|p| p.line == line) {
            return dotc_runtime::odds::explain::volley_lines(&p.plan, &p.odds);
        }
        if let Some(p) = now.replay.assault_probes.iter().find(|p| p.line == line)
            && let Ok(odds) = &p.odds
        {
            let volley = p.volley.as_ref().zip(odds.closing_volley.as_ref());
            return dotc_runtime::odds::explain::assault_lines(&p.charger, &p.target, odds, volley);
        }
        Vec::new()
    }

    /// Write a finished line (no roll left to type) to the log, and say what it did: the
    /// replay's narrative of it.
    pub fn commit(&mut self, pending: &Pending) -> Result<String, String> {
        if let Some((label, count)) = &pending.next {
            return Err(format!("the {label} roll ({count} dice) is still to be typed"));
        }
        let line = pending.text[..pending.at].matches('\n').count() + 1;
        let text = with_claim(&self.path, &pending.text, pending.at, line);
        self.write(text)?;
        Ok(narrative_of(&self.now.replay, line))
    }

    /// Take back the last action of the log, and any empty phase or turn after it.
    pub fn undo(&mut self) -> Result<String, String> {
        let Some((start, end)) = last_action_lines(&self.text, &self.now.analysis) else {
            return Err("the log records no action to take back".to_string());
        };
        let removed = self.text[start..end].trim().to_string();
        let mut text = self.text.clone();
        text.replace_range(start..end, "");
        let text = drop_empty_tail(&self.path, text);
        self.write(text)?;
        self.cursor = resume_cursor(&self.now.analysis);
        Ok(removed)
    }

    /// Write `text` over the log, atomically, and replay it.
    fn write(&mut self, text: String) -> Result<(), String> {
        crate::files::write(
            &self.path,
            text.as_bytes(),
            crate::files::WriteOptions { force: false, in_place: true },
        )?;
        self.now = replay_text(&self.path, &text, &[], None, true);
        self.text = text;
        Ok(())
    }
}

fn candidate(line: String, kind: &'static str) -> Candidate {
    Candidate { line, kind, existing: None }
}

/// The log with the claim the rules give written after a line's dice, as the players would agree
/// it at the table: a volley's `=> hits 4, saved 2, lost 1` (`VolleyProbe::claim`), a pips
/// roll's `=> 3` and a rally's `=> rallied` (`replay::written_claim`), each the replay's own
/// result of the line; an assault's on each of its steps (`replay::written_step_claims`). A line
/// or step that already has a claim is left as it is.
fn with_claim(path: &Path, text: &str, at: usize, line: usize) -> String {
    let now = replay_text(path, text, &[line], None, false);
    let Some(action) = action_at(&now.analysis, at) else { return text.to_string() };
    if !action.steps.is_empty() {
        // An assault: each step's claim at the end of its own line, written from the last.
        let events = now.replay.events.iter().filter(|e| e.line == line).map(|e| &e.event);
        let claims = dotc_runtime::replay::written_step_claims(&action, events);
        let mut out = text.to_string();
        for (step, claim) in action.steps.iter().zip(claims).rev() {
            if let Some(claim) = claim.filter(|_| step.claim.is_none()) {
                out.insert_str(step.span.end, &format!(" => {claim}"));
            }
        }
        return out;
    }
    let claim =
        now.replay.probes.iter().find(|p| p.line == line).and_then(|p| p.claim.clone()).or_else(|| {
            let events = now.replay.events.iter().filter(|e| e.line == line).map(|e| &e.event);
            dotc_runtime::replay::written_claim(&action.verb.value, events)
        });
    let Some(claim) = claim else { return text.to_string() };
    if action.claim.is_some() || !action.steps.is_empty() || claim.is_empty() {
        return text.to_string();
    }
    let mut out = text.to_string();
    out.insert_str(action.span.end, &format!(" => {claim}"));
    out
}

/// How many bytes at the start of `a` and `b` are the same.
fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

/// A name as the log writes it.
pub fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
}

fn analyze(path: &Path, text: &str) -> Analysis {
    dotc_lang::analyze(path, text, &crate::files::InputLoader)
}

/// Analyse and replay a log's text as it would be at `path`.
fn replay_text(path: &Path, text: &str, probe: &[usize], seed: Option<u64>, moment: bool) -> Now {
    let analysis = analyze(path, text);
    let options = ReplayOptions { source: Some(text), probe, seed, moment, ..ReplayOptions::default() };
    let mut replay = replay_logged(path, &analysis, &crate::files::InputLoader, &options, None);
    let moment = replay.moment.take().map(|m| *m);
    Now { analysis, replay, moment }
}

/// The scenario's first side.
fn first_side(analysis: &Analysis) -> Option<String> {
    let scenario = analysis.scenario.as_ref()?.document.scenario.as_ref()?;
    scenario
        .first_side
        .as_ref()
        .map(|s| s.value.clone())
        .or_else(|| scenario.sides.first().map(|s| s.id.value.clone()))
}

/// Where a log left off: its last turn, at the last phase with an action (the first phase it
/// has when none has one yet).
fn resume_cursor(analysis: &Analysis) -> Cursor {
    let Some(turn) = analysis.document.turns.last() else {
        return Cursor { turn: 0, side: String::new(), phase: PhaseKind::Status };
    };
    let phases = turn.phases();
    let phase = phases
        .iter()
        .rev()
        .find(|p| !p.actions.is_empty())
        .or_else(|| phases.first())
        .map_or(PhaseKind::Command, |p| p.kind.value);
    Cursor { turn: turn.number.value, side: turn.side.value.clone(), phase }
}

fn last_turn<'a>(analysis: &'a Analysis, cursor: &Cursor) -> Option<&'a Turn> {
    analysis.document.turns.iter().rev().find(|t| t.number.value == cursor.turn)
}

/// The log with the cursor's phase block in its turn, if it lacks one (None: it has it).
fn ensure_phase(text: &str, analysis: &Analysis, cursor: &Cursor) -> Option<String> {
    let turn = last_turn(analysis, cursor)?;
    let phases = turn.phases();
    if phases.iter().any(|p| p.kind.value == cursor.phase) {
        return None;
    }
    let order = |k: PhaseKind| PHASES.iter().position(|p| *p == k).unwrap_or(0);
    // After the last block that comes before it, or at the top of the turn.
    let at = match phases.iter().rfind(|p| order(p.kind.value) < order(cursor.phase)) {
        Some(before) => line_end(text, before.span.end),
        None => line_end(text, turn.span.start),
    };
    let block = format!("    {} {{\n    }}\n", cursor.phase.word());
    let mut out = text.to_string();
    out.insert_str(at, &block);
    Some(out)
}

/// A new turn at the end of the log, with its command block.
fn new_turn(text: &str, cursor: &Cursor) -> String {
    let mut out = text.trim_end().to_string();
    out.push_str(&format!("\n\nturn {} {} {{\n    command {{\n    }}\n}}\n", cursor.turn, cursor.side));
    out
}

/// The offset just past the line break after `at`.
fn line_end(text: &str, at: usize) -> usize {
    text[at.min(text.len())..].find('\n').map_or(text.len(), |i| at + i + 1)
}

/// Where the cursor's phase block closes: the start of its closing brace's line, and the
/// indent of a line inside it.
fn phase_end(text: &str, analysis: &Analysis, cursor: &Cursor) -> Option<(usize, String)> {
    let turn = last_turn(analysis, cursor)?;
    let phases = turn.phases();
    let phase = phases.iter().find(|p| p.kind.value == cursor.phase)?;
    let brace = phase.span.end.checked_sub(1)?;
    let line_start = text[..brace].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..brace];
    let head_start = text[..phase.span.start].rfind('\n').map_or(0, |i| i + 1);
    let indent: String =
        text[head_start..phase.span.start].chars().take_while(|c| c.is_whitespace()).collect();
    if before.trim().is_empty() {
        Some((line_start, format!("{indent}    ")))
    } else {
        // `fire { ... }` closed on the line of its last action: the new line goes before the
        // brace, on a line of its own.
        None
    }
}

/// Each action's 1-based line and start offset, every turn and phase.
fn action_starts(text: &str, analysis: &Analysis) -> Vec<(usize, usize)> {
    let index = dotc_lang::lines::LineIndex::new(text);
    let mut out = Vec::new();
    for turn in &analysis.document.turns {
        for phase in turn.phases().iter() {
            for action in &phase.actions {
                out.push((index.line(action.span.start), action.span.start));
            }
        }
    }
    out
}

/// The action that starts at `at`.
fn action_at(analysis: &Analysis, at: usize) -> Option<Action> {
    analysis
        .document
        .turns
        .iter()
        .flat_map(|t| t.phases().into_owned())
        .flat_map(|p| p.actions)
        .find(|a| a.span.start == at)
}

/// The lines of the log's last action: from the start of its first line to past its last.
fn last_action_lines(text: &str, analysis: &Analysis) -> Option<(usize, usize)> {
    let action = analysis
        .document
        .turns
        .iter()
        .flat_map(|t| t.phases().into_owned())
        .flat_map(|p| p.actions)
        .last()?;
    let start = text[..action.span.start].rfind('\n').map_or(0, |i| i + 1);
    Some((start, line_end(text, action.span.end.saturating_sub(1))))
}

/// Drop the phase blocks and turns with nothing in them at the end of the log (what `next`
/// wrote after the action taken back).
fn drop_empty_tail(path: &Path, mut text: String) -> String {
    loop {
        let analysis = analyze(path, &text);
        let Some(turn) = analysis.document.turns.last() else { return text };
        let phases = turn.phases();
        let empty_turn = phases.iter().all(|p| p.actions.is_empty());
        // Keep a turn's first block when it is the log's only turn: the game has begun.
        let cut = match phases.last() {
            Some(last) if last.actions.is_empty() && phases.len() > 1 => Some((
                text[..last.span.start].rfind('\n').map_or(0, |i| i + 1),
                line_end(&text, last.span.end - 1),
            )),
            _ if empty_turn && analysis.document.turns.len() > 1 => {
                let start = text[..turn.span.start].trim_end().len();
                Some((start, text.len()))
            }
            _ => None,
        };
        let Some((start, end)) = cut else { return text };
        let has_comment =
            text[start..end].lines().any(|l| l.trim_start().starts_with("//") && !l.contains("===="));
        if has_comment {
            return text;
        }
        text.replace_range(start..end, "");
        if !text.ends_with('\n') {
            text.push('\n');
        }
    }
}

/// The replay's narrative of the action on `line`: its heading and what followed.
fn narrative_of(replay: &Replay, line: usize) -> String {
    let text = replay.narrative();
    let head = format!("line {line}:");
    let mut out = String::new();
    let mut inside = false;
    for l in text.lines() {
        let trimmed = l.trim_start();
        if trimmed.starts_with(&head) {
            inside = true;
        } else if inside && (trimmed.starts_with("line ") || !l.starts_with("      ")) {
            break;
        }
        if inside {
            out.push_str(trimmed);
            out.push('\n');
        }
    }
    out
}

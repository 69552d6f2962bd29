//! A long game log analysed and replayed at once (issue 16: "replay at the speed of parsing").
//!
//! A log long enough to be read in stretches of whole turns
//! ([`dotc_lang::incremental::read_in_stretches`]) is parsed on a second thread, one stretch at
//! a time, while this thread adds each stretch to the analysis and replays its turns. When the
//! last stretch is in, the log is checked whole and its diagnostics composed, as
//! [`dotc_lang::analyze`] does; a log with an error is not replayed (the replay made on the way
//! is dropped), as `dotc audit` does with a whole analysis. So the result is the analysis and the
//! replay of [`dotc_lang::analyze`] then [`replay`], to the byte (`streamed_tests.rs`), in about
//! the time the slower of the two takes rather than their sum.
//!
//! The replay begins once the log's start holds enough to begin it: [`Run::start`] asks which
//! sides keep their pips (a fact of the whole log, [`Game::sides_keeping_pips`]), which the first
//! turns settle as soon as each side has a `pips` line there. When they do not, the replay waits
//! for the whole log.

use std::path::Path;
use std::sync::mpsc;

use dotc_lang::incremental::{STRETCH_BYTES, read_in_stretches};
use dotc_lang::{Analysis, Loader, Parsed};

use super::{Flow, Replay, ReplayOptions, Run, replay};

/// The analysis of a file and, for a game log without errors, its replay: what
/// [`dotc_lang::analyze`] and then [`replay`] give, the two made side by side for a long log.
pub fn analyze_and_replay(
    path: &Path,
    source: &str,
    loader: &dyn Loader,
    options: &ReplayOptions<'_>,
) -> (Analysis, Option<Replay>) {
    analyze_and_replay_in(path, source, loader, options, STRETCH_BYTES)
}

/// [`analyze_and_replay`] with stretches of at least `stretch` bytes (the tests cut short logs).
pub fn analyze_and_replay_in(
    path: &Path,
    source: &str,
    loader: &dyn Loader,
    options: &ReplayOptions<'_>,
    stretch: usize,
) -> (Analysis, Option<Replay>) {
    let whole = || {
        let analysis = dotc_lang::analyze(path, source, loader);
        let replayed = replayable(&analysis).then(|| replay(&analysis, options));
        (analysis, replayed)
    };
    let Some((head, stretches)) = read_in_stretches(source, stretch) else { return whole() };
    let mut analysis = dotc_lang::analysis::set_up(path, head, loader);
    let mut replaying = Replaying::Waiting;
    // Two stretches parsed ahead at most: the parser never runs far ahead of the replay.
    let (sender, receiver) = mpsc::sync_channel::<Option<Parsed>>(2);
    let cut_whole = std::thread::scope(|scope| {
        let parser = move || {
            for part in stretches {
                let last = part.is_none();
                // The receiver is gone only once it has given up on the stretches.
                if sender.send(part).is_err() || last {
                    break;
                }
            }
        };
        // The parser's stack as deep as the main thread's would be, and more: what a stretch
        // nests is the untrusted text's to choose.
        let spawned = std::thread::Builder::new().stack_size(PARSER_STACK).spawn_scoped(scope, parser);
        if spawned.is_err() {
            return false; // no thread to be had: read the file whole
        }
        replaying.advance(&analysis, options);
        for part in receiver {
            // A stretch that does not stand alone: the stretches are not the file's parse.
            let Some(part) = part else { return false };
            analysis.absorb(part);
            replaying.advance(&analysis, options);
        }
        true
    });
    if !cut_whole {
        return whole();
    }
    analysis.check();
    if !replayable(&analysis) {
        return (analysis, None);
    }
    let replayed = replaying.finish(&analysis, options);
    (analysis, Some(replayed))
}

/// The stack of the thread that parses the stretches.
const PARSER_STACK: usize = 32 << 20;

/// Whether `dotc audit` replays an analysed file: a game log, with no error.
fn replayable(analysis: &Analysis) -> bool {
    !analysis.has_errors() && analysis.document.game.is_some()
}

/// How far the replay alongside the parse has come.
enum Replaying<'a> {
    /// Not begun: the turns read so far do not settle which sides keep their pips.
    Waiting,
    /// Not begun, and it will not be before the whole log is in (the first try fell short).
    Deferred,
    /// Playing: the turns before `played` are played.
    Playing { run: Box<Run<'a>>, played: usize },
    /// Over before the log ends: its end (`until`, a script ended the game) or its start (no
    /// scenario) came first, or it was cancelled.
    Done(Box<Replay>),
    /// Played up to a turn that ends the game: the rest of the log is not played.
    Stopped { run: Box<Run<'a>> },
}

impl<'a> Replaying<'a> {
    /// Begin the replay if the turns read so far allow it, and play every turn read since.
    fn advance(&mut self, analysis: &Analysis, options: &ReplayOptions<'a>) {
        if let Replaying::Waiting = self {
            *self = match Run::start(analysis, options) {
                Ok(run) if run.keeps_every_side() => Replaying::Playing { run: Box::new(run), played: 0 },
                Ok(_) => Replaying::Deferred,
                Err(done) => Replaying::Done(done),
            };
        }
        self.play(analysis, options);
    }

    /// Play the turns read and not yet played.
    fn play(&mut self, analysis: &Analysis, options: &ReplayOptions<'a>) {
        let Replaying::Playing { run, played } = self else { return };
        let turns = analysis.document.turns.get(*played..).unwrap_or(&[]);
        for turn in turns {
            *played += 1;
            match run.play_turn(turn, options) {
                Flow::Next => {}
                Flow::Stop => {
                    let Replaying::Playing { run, .. } = std::mem::replace(self, Replaying::Deferred) else {
                        return;
                    };
                    *self = Replaying::Stopped { run };
                    return;
                }
                Flow::Cancelled => {
                    *self = Replaying::Done(Box::new(run.cancelled()));
                    return;
                }
            }
        }
    }

    /// The replay of the whole log, now that every turn is read.
    fn finish(mut self, analysis: &Analysis, options: &ReplayOptions<'a>) -> Replay {
        self.play(analysis, options);
        match self {
            Replaying::Waiting | Replaying::Deferred => replay(analysis, options),
            Replaying::Playing { mut run, .. } | Replaying::Stopped { mut run } => run.end(),
            Replaying::Done(done) => *done,
        }
    }
}

//! The campaign battle a game log names (Ch14 1.0): a log whose header says
//! `campaign "FILE" battle "NAME"` is fought with the campaign's roster as that battle began
//! (stands lost in earlier battles, dotc D42, D44; the same day's rules, dotc D49), not with
//! its scenario's strengths. [`LoggedBattle::of`] is the one lookup every replay of a log
//! makes (`dotc audit`, `dotc replay`, `dotc odds --at`, the maps, the language server's audit,
//! issue 19): the campaign is read through the caller's [`Loader`] (the language server's open
//! buffers, or the disk), played up to that battle's order of battle, and handed to the replay
//! ([`crate::replay::ReplayOptions::order_of_battle`]). `dotc audit` and `dotc replay` decide
//! it from the log's header before they replay it ([`analyze_and_replay_logged`]), so a
//! campaign battle's log is replayed once, with the roster, and any other log streamed as
//! before (issue 19).

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use dotc_lang::ast::Name;
use dotc_lang::{Analysis, Loader};

use super::order::OrderOfBattle;
use super::{Stop, play_until};
use crate::replay::streamed::analyze_and_replay;
use crate::replay::{Finding, Level, Replay, ReplayOptions, replay};

/// What a game log's header makes of its order of battle (Ch14 1.0).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum LoggedBattle {
    /// The log names no campaign battle: it is fought with its scenario's strengths.
    #[default]
    Scenario,
    /// The campaign's roster as the named battle began.
    Roster(Box<OrderOfBattle>),
    /// The log names a campaign battle that cannot be had (the campaign cannot be read, has no
    /// such battle, or the battle's scenario cannot be read): an error at the header's
    /// `campaign` line; the log is then fought with its scenario's strengths.
    Unknown(Finding),
}

impl LoggedBattle {
    /// The order of battle of the campaign battle the log at `path` names in its header, the
    /// campaign's path taken relative to the log's and read through `loader`. The campaign is
    /// played only up to that battle ([`Stop::OrderOf`]); when `cancel` is set meanwhile, the
    /// result is of no use (the caller, which set it, drops it).
    pub fn of(
        path: &Path,
        analysis: &Analysis,
        loader: &dyn Loader,
        cancel: Option<&AtomicBool>,
    ) -> LoggedBattle {
        LoggedBattle::look_up(path, analysis, loader, cancel).0
    }

    /// [`LoggedBattle::of`], and the files its order of battle is read from: the campaign, and
    /// the scenarios and logs of its battles up to the named one (as the campaign names them,
    /// taken relative to its folder). A change to one of them may change the order.
    pub fn look_up(
        path: &Path,
        analysis: &Analysis,
        loader: &dyn Loader,
        cancel: Option<&AtomicBool>,
    ) -> (LoggedBattle, Vec<PathBuf>) {
        match analysis.document.game.as_ref().and_then(|g| g.campaign.as_ref()) {
            Some((file, battle)) => LoggedBattle::named(path, file, battle, loader, cancel),
            None => (LoggedBattle::Scenario, Vec::new()),
        }
    }

    /// [`LoggedBattle::look_up`] of the battle `battle` of the campaign `file` (as a log's header
    /// names them).
    fn named(
        path: &Path,
        file: &Name,
        battle: &Name,
        loader: &dyn Loader,
        cancel: Option<&AtomicBool>,
    ) -> (LoggedBattle, Vec<PathBuf>) {
        let campaign_path = campaign_path_of(path, &file.value);
        let mut files = vec![campaign_path.clone()];
        let fail = |message: String, files: Vec<PathBuf>| {
            let finding = Finding {
                span: file.span,
                level: Level::Error,
                message,
                rule: "Ch14 1.0".to_string(),
                in_scenario: None,
            };
            (LoggedBattle::Unknown(finding), files)
        };
        let Ok(text) = loader.load(&campaign_path) else {
            return fail(format!("the campaign \"{}\" could not be read", file.value), files);
        };
        let campaign = dotc_lang::analyze(&campaign_path, &text, loader);
        let battles = campaign.document.campaign.as_ref().map_or(&[][..], |c| c.battles.as_slice());
        let Some(index) = battles.iter().position(|b| b.name.value == battle.value) else {
            let message = format!("the campaign \"{}\" has no battle \"{}\"", file.value, battle.value);
            return fail(message, files);
        };
        let folder = campaign_path.parent().unwrap_or(Path::new(""));
        let named = battles.iter().take(index + 1).flat_map(|b| b.scenario.iter().chain(b.log.iter()));
        files.extend(named.map(|n| folder.join(&n.value)));
        let played = play_until(&campaign, Stop::OrderOf(index + 1), cancel).0;
        match played.orders.into_iter().nth(index).flatten() {
            Some(order) => (LoggedBattle::Roster(Box::new(order)), files),
            None => {
                let message =
                    format!("the scenario of battle \"{}\" of the campaign could not be read", battle.value);
                fail(message, files)
            }
        }
    }

    /// The order of battle to hand the replay (None: the scenario's own).
    pub fn order(&self) -> Option<&OrderOfBattle> {
        match self {
            LoggedBattle::Roster(order) => Some(order),
            _ => None,
        }
    }

    /// The error at the header's `campaign` line, when the battle cannot be had.
    pub fn finding(&self) -> Option<&Finding> {
        match self {
            LoggedBattle::Unknown(finding) => Some(finding),
            _ => None,
        }
    }

    /// Replay the log with this order of battle: `options` with [`LoggedBattle::order`], and
    /// the header's error, if any, as the first finding. `made` is a replay of the log already
    /// made with `options` alone (`crate::replay::streamed`): kept for a log of no campaign,
    /// made again for a campaign's, and counted either way ([`replays_made`]): a command that
    /// knows the log's battle before it replays it goes through [`analyze_and_replay_logged`].
    pub fn replay(&self, analysis: &Analysis, options: &ReplayOptions<'_>, made: Option<Replay>) -> Replay {
        if made.is_some() {
            count_replay();
        }
        if let (LoggedBattle::Scenario, Some(made)) = (self, made) {
            return made;
        }
        let options = ReplayOptions { order_of_battle: self.order(), ..*options };
        count_replay();
        let mut replayed = replay(analysis, &options);
        if let Some(finding) = self.finding() {
            replayed.findings.insert(0, finding.clone());
        }
        replayed
    }
}

/// The campaign file a game log names in its header (`campaign "FILE"`, Ch14 1.0), taken
/// relative to the log's folder; None when it names none. The language server watches it (and
/// the campaign's files) to audit the log again when one of them changes.
pub fn campaign_file(path: &Path, analysis: &Analysis) -> Option<PathBuf> {
    let (file, _) = analysis.document.game.as_ref()?.campaign.as_ref()?;
    Some(campaign_path_of(path, &file.value))
}

/// A campaign's path, named in the header of the log at `log`.
fn campaign_path_of(log: &Path, named: &str) -> PathBuf {
    log.parent().unwrap_or(Path::new("")).join(named)
}

/// A game log of a campaign battle replayed with its campaign's roster ([`LoggedBattle`]): what
/// every command that replays a log does. `made` as for [`LoggedBattle::replay`].
pub fn replay_logged(
    path: &Path,
    analysis: &Analysis,
    loader: &dyn Loader,
    options: &ReplayOptions<'_>,
    made: Option<Replay>,
) -> Replay {
    LoggedBattle::of(path, analysis, loader, options.cancel).replay(analysis, options, made)
}

/// A game log analysed and replayed once, with the order of battle its header gives it
/// (issue 19): what `dotc audit` and `dotc replay` do with a log. Whether the log is a campaign
/// battle is decided before the replay, from its header alone ([`header_battle`]), so a
/// campaign battle's log is replayed once, with the roster ([`LoggedBattle`]), and any other log
/// as [`analyze_and_replay`] replays it, while it is parsed (issue 16). The replay is made only
/// for a game log without errors, as [`analyze_and_replay`] makes it; the header's error, if any,
/// is its first finding, as [`LoggedBattle::replay`] gives it.
pub fn analyze_and_replay_logged(
    path: &Path,
    source: &str,
    loader: &dyn Loader,
    options: &ReplayOptions<'_>,
) -> (Analysis, Option<Replay>) {
    let named = header_battle(source);
    let battle = match &named {
        Some((file, battle)) => LoggedBattle::named(path, file, battle, loader, options.cancel).0,
        None => LoggedBattle::Scenario,
    };
    let fought = ReplayOptions { order_of_battle: battle.order(), ..*options };
    let (analysis, replayed) = analyze_and_replay(path, source, loader, &fought);
    let Some(mut replayed) = replayed else { return (analysis, None) };
    count_replay();
    // The header read alone is the header analysed but for a text in it that holds a line
    // starting `turn` (a `"""` note): then the log is fought as its analysis says, replayed again.
    let analysed = analysis.document.game.as_ref().and_then(|g| g.campaign.clone());
    if analysed != named {
        let replayed = replay_logged(path, &analysis, loader, options, None);
        return (analysis, Some(replayed));
    }
    if let Some(finding) = battle.finding() {
        replayed.findings.insert(0, finding.clone());
    }
    (analysis, Some(replayed))
}

/// The campaign battle a game log's header names (`campaign "FILE" battle "NAME"`, Ch14 1.0),
/// read from the text before its first `turn` line, and parsed only when that text has the word
/// `campaign`: a plain log's header costs one search of its first lines (issue 19).
fn header_battle(source: &str) -> Option<(Name, Name)> {
    let end = if source.starts_with("turn ") {
        0
    } else {
        source.find("\nturn ").map_or(source.len(), |at| at + 1)
    };
    let header = &source[..end];
    if !header.contains("campaign") {
        return None;
    }
    dotc_lang::parse(header).document.game?.campaign
}

thread_local! {
    /// The game logs this thread replayed through this module ([`replays_made`]).
    static REPLAYS: Cell<usize> = const { Cell::new(0) };
}

/// How many game logs this thread has replayed through [`analyze_and_replay_logged`] and
/// [`replay_logged`]: the count a test reads to hold a campaign battle's log to one replay per
/// command (issue 19).
pub fn replays_made() -> usize {
    REPLAYS.with(Cell::get)
}

fn count_replay() {
    REPLAYS.with(|r| r.set(r.get() + 1));
}

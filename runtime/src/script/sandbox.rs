//! The sandboxed rhai engine every scenario script runs in.
//!
//! Built from [`Engine::new_raw`], which has no functions, no module resolver and no printing, with
//! only the packages a scenario script needs: arithmetic, logic, strings, arrays, maps, iterators
//! (`for i in 0..3`) and basic maths. Left out on purpose: the language-core package (its `sleep`
//! would stall the replay, its `exit` would end it), time, blobs, function pointers and debugging.
//! `eval` and `import` are disabled symbols, so a script holding either does not compile; with no
//! module resolver nothing can be read from disk either way.
//!
//! `print` and `debug` never reach stdout (the language server speaks JSON-RPC there): the engine
//! hands their text to the game, which turns it into events.
//!
//! Every call runs under [`Limits`], and only counted work stops it, so a script stops at the same
//! operation on every machine at any load and a game replays to the same bytes: rhai's count of
//! operations (per call, and a budget for the whole game), call depth, expression depth, string,
//! array and map sizes, and the output it writes (`print`, `debug`, `game.log`: lines and bytes,
//! per call and per game). A wall-clock guard stays as a safety net only, far above what the
//! operation budget takes; if it ever stops a call, the replay says its result cannot be trusted
//! (see [`Limits::wall_clock`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rhai::packages::{
    ArithmeticPackage, BasicArrayPackage, BasicIteratorPackage, BasicMapPackage, BasicMathPackage,
    BasicStringPackage, LogicPackage, MoreStringPackage, Package,
};
use rhai::{Dynamic, Engine};

/// What scripts may use: per call, and for the whole game. [`Limits::default`] is what a game
/// gets. A limit of 0 operations means none (for tests of the other limits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Operations (rhai's unit of work: roughly one expression step) per call.
    pub operations: u64,
    /// Operations of all the calls of one game together: a hook that runs at every phase of a
    /// long game cannot take unbounded work. The call that reaches it is stopped, and no script
    /// runs for the rest of the game.
    pub game_operations: u64,
    /// Nested function calls.
    pub call_levels: usize,
    /// Nesting of expressions at the top level and inside functions.
    pub expr_depth: usize,
    pub function_expr_depth: usize,
    /// Bytes of one string.
    pub string_size: usize,
    /// Items of one array, entries of one map.
    pub array_size: usize,
    pub map_size: usize,
    /// What one call may write with `print`, `debug` and `game.log`: messages (each one line of
    /// the replay) and bytes.
    pub output_lines: usize,
    pub output_bytes: usize,
    /// What all the calls of one game may write together. The call that reaches it is stopped,
    /// and no script runs for the rest of the game.
    pub game_output_lines: usize,
    pub game_output_bytes: usize,
    /// The safety net: wall-clock time per call. Never the limit that stops a script in normal
    /// operation (a call's operations take a few milliseconds; this is seconds); a call it stops
    /// has its effects dropped and the replay reports that its result is not reproducible.
    pub wall_clock: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            operations: 500_000,
            game_operations: 50_000_000,
            call_levels: 32,
            expr_depth: 64,
            function_expr_depth: 32,
            string_size: 10_000,
            array_size: 10_000,
            map_size: 1_000,
            output_lines: 100,
            output_bytes: 10_000,
            game_output_lines: 5_000,
            game_output_bytes: 500_000,
            wall_clock: Duration::from_secs(10),
        }
    }
}

/// The value `on_progress` ends a call with once it wrote past an output limit.
pub(crate) const OUTPUT_LIMIT: &str = "output limit";
/// The value `on_progress` ends a call with once the wall-clock safety net has passed.
pub(crate) const WALL_CLOCK: &str = "wall clock";

/// How often (in operations) the safety net reads the clock: reading it at every operation would
/// cost more than most hooks. It is first read at the first check, not when the call begins, so a
/// short call (most hooks) never reads it.
const CLOCK_EVERY: u64 = 1024;

/// What the progress callback and the calling code share about the call now running.
#[derive(Debug, Default)]
pub(crate) struct Meter {
    /// The call's operations so far, as rhai last reported them.
    pub operations: AtomicU64,
    /// Set when the call wrote past an output limit: its next operation stops it.
    pub output_over: AtomicBool,
    /// The safety net of the call: armed by the caller, started at the first check.
    pub clock: Mutex<Clock>,
}

impl Meter {
    /// A call begins: nothing counted, the safety net armed.
    pub fn begin(&self) {
        self.operations.store(0, Ordering::Relaxed);
        self.output_over.store(false, Ordering::Relaxed);
        *lock(&self.clock) = Clock { armed: true, at: None };
    }

    /// A call is over: the safety net disarmed; the call's operations.
    pub fn end(&self) -> u64 {
        *lock(&self.clock) = Clock::default();
        self.operations.load(Ordering::Relaxed)
    }

    pub fn output_over(&self) -> bool {
        self.output_over.load(Ordering::Relaxed)
    }
}

/// The safety net's clock for the call now running.
#[derive(Debug, Default)]
pub(crate) struct Clock {
    pub armed: bool,
    pub at: Option<Instant>,
}

/// What the calls of one game have written, against the per-call and per-game output limits.
#[derive(Debug, Default)]
pub(crate) struct Output {
    pub call_lines: usize,
    pub call_bytes: usize,
    pub game_lines: usize,
    pub game_bytes: usize,
    /// Set by the message that went past a limit.
    pub over: Option<OutputOver>,
}

/// The output limit a message went past.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct OutputOver {
    /// The game's limit, not the call's.
    pub game: bool,
    /// Lines, not bytes.
    pub lines: bool,
}

impl Output {
    /// Count a message; false (and `over` set) when it would pass a limit: it is not written.
    pub fn write(&mut self, text: &str, limits: &Limits) -> bool {
        if self.over.is_some() {
            return false;
        }
        let (lines, bytes) = (self.call_lines + 1, self.call_bytes + text.len());
        let (game_lines, game_bytes) = (self.game_lines + 1, self.game_bytes + text.len());
        if game_lines > limits.game_output_lines || game_bytes > limits.game_output_bytes {
            self.over = Some(OutputOver { game: true, lines: game_lines > limits.game_output_lines });
        } else if lines > limits.output_lines || bytes > limits.output_bytes {
            self.over = Some(OutputOver { game: false, lines: lines > limits.output_lines });
        } else {
            (self.call_lines, self.call_bytes, self.game_lines, self.game_bytes) =
                (lines, bytes, game_lines, game_bytes);
        }
        self.over.is_none()
    }

    /// A call begins: its own tally starts again.
    pub fn begin(&mut self) {
        (self.call_lines, self.call_bytes, self.over) = (0, 0, None);
    }
}

/// Lock a mutex, recovering the data if a panicking thread poisoned it (no script can panic the
/// engine, but the data stays usable whatever happens).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The engine with its packages and limits. The caller sets each call's operation budget
/// ([`Engine::set_max_operations`]: the call's limit, or what is left of the game's) and
/// begins and ends `meter` around it; the progress callback records the operations, stops a call
/// that wrote past an output limit and keeps the safety net. `sink` receives what `print` and
/// `debug` write.
pub(crate) fn engine(
    limits: &Limits,
    meter: Arc<Meter>,
    sink: impl Fn(String) + Send + Sync + Clone + 'static,
) -> Engine {
    let mut engine = Engine::new_raw();
    for package in [
        ArithmeticPackage::new().as_shared_module(),
        LogicPackage::new().as_shared_module(),
        BasicStringPackage::new().as_shared_module(),
        MoreStringPackage::new().as_shared_module(),
        BasicArrayPackage::new().as_shared_module(),
        BasicMapPackage::new().as_shared_module(),
        BasicIteratorPackage::new().as_shared_module(),
        BasicMathPackage::new().as_shared_module(),
    ] {
        engine.register_global_module(package);
    }
    engine.disable_symbol("eval");
    engine.disable_symbol("import");
    engine.disable_symbol("export");
    engine.set_max_operations(limits.operations);
    engine.set_max_call_levels(limits.call_levels);
    engine.set_max_expr_depths(limits.expr_depth, limits.function_expr_depth);
    engine.set_max_string_size(limits.string_size);
    engine.set_max_array_size(limits.array_size);
    engine.set_max_map_size(limits.map_size);
    engine.set_max_modules(0);
    let print_sink = sink.clone();
    engine.on_print(move |text| print_sink(text.to_string()));
    engine.on_debug(move |text, _, _| sink(text.to_string()));
    let allowed = limits.wall_clock;
    engine.on_progress(move |ops| {
        meter.operations.store(ops, Ordering::Relaxed);
        if meter.output_over() {
            return Some(Dynamic::from(OUTPUT_LIMIT));
        }
        if ops % CLOCK_EVERY != 0 {
            return None;
        }
        let mut clock = lock(&meter.clock);
        if !clock.armed {
            return None;
        }
        let now = Instant::now();
        match clock.at {
            None => {
                clock.at = Some(now + allowed);
                None
            }
            Some(at) if now >= at => Some(Dynamic::from(WALL_CLOCK)),
            Some(_) => None,
        }
    });
    engine
}

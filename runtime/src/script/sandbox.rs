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
use rhai::{
    Array, Dynamic, Engine, EvalAltResult, INT, ImmutableString, NativeCallContext, OptimizationLevel,
    Position,
};

/// Words a script may not use: `eval`, `import` and `export` would reach past the sandbox; `Fn`,
/// `call` and `curry` make and call function pointers, which the sandbox leaves out with closures
/// (`|x| ...`, refused when a script is compiled: see `super::anonymous_function`).
pub(crate) const DISABLED_SYMBOLS: &[&str] = &["eval", "import", "export", "Fn", "call", "curry"];

/// The sizes of a value as rhai's limits count them: array items, map entries and string bytes,
/// those of the values inside it included.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Sizes {
    pub items: usize,
    pub entries: usize,
    pub bytes: usize,
}

impl Sizes {
    pub fn of(value: &Dynamic) -> Sizes {
        let mut sizes = Sizes::default();
        sizes.add(value);
        sizes
    }

    fn add(&mut self, value: &Dynamic) {
        // The type tests first: they are cheap, and most items are numbers (this runs at every
        // read of a variable).
        if value.is_array() {
            if let Some(array) = value.read_lock::<Array>() {
                self.items += array.len();
                for v in array.iter().filter(|v| Sizes::holds(v)) {
                    self.add(v);
                }
            }
        } else if value.is_map() {
            if let Some(map) = value.read_lock::<rhai::Map>() {
                self.entries += map.len();
                for v in map.values().filter(|v| Sizes::holds(v)) {
                    self.add(v);
                }
            }
        } else if value.is_string()
            && let Some(text) = value.read_lock::<ImmutableString>()
        {
            self.bytes += text.len();
        }
    }

    /// Does the value hold items, entries or bytes?
    fn holds(value: &Dynamic) -> bool {
        value.is_array() || value.is_map() || value.is_string()
    }

    /// What reading the value costs, in operations: one, plus [`ITEM_OPERATIONS`] for each of
    /// its items and entries, plus one for every [`STRING_BYTES_PER_OPERATION`] of its bytes.
    pub fn operations(&self) -> u64 {
        let items = (self.items as u64).saturating_add(self.entries as u64);
        items
            .saturating_mul(ITEM_OPERATIONS)
            .saturating_add((self.bytes / STRING_BYTES_PER_OPERATION) as u64)
            .saturating_add(1)
    }

    /// The limit it passes, as the token of its stop.
    fn over(&self, limits: &Limits) -> Option<&'static str> {
        if self.bytes > limits.string_size {
            Some(STRING_SIZE)
        } else if self.items > limits.array_size {
            Some(ARRAY_SIZE)
        } else if self.entries > limits.map_size {
            Some(MAP_SIZE)
        } else {
            None
        }
    }
}

/// What marks the value of an error the sandbox stopped a call with: a runtime error (not one
/// of rhai's system errors), so it keeps the place where it was raised through the script's
/// function calls, and the finding points at the statement (issue 15).
pub(crate) const STOP: &str = "dotc sandbox stop: ";
pub(crate) const STRING_SIZE: &str = "string size";
pub(crate) const ARRAY_SIZE: &str = "array size";
pub(crate) const MAP_SIZE: &str = "map size";
pub(crate) const CALL_DEPTH: &str = "call depth";

/// The error that stops a call for the limit `token`; rhai gives it the place of the variable or
/// the call that raised it.
pub(crate) fn stop(token: &str) -> Box<EvalAltResult> {
    EvalAltResult::ErrorRuntime(Dynamic::from(format!("{STOP}{token}")), Position::NONE).into()
}

/// How many operations past its budget a call may go before rhai's progress callback stops it
/// where it is (without a place): room for its next variable read, which stops it at its place.
pub(crate) const GRACE: u64 = 64;

/// rhai's own size and depth limits are set this many times the sandbox's (plus a few levels):
/// the sandbox stops a value past its limit when it is next read, at its place; rhai's limits are
/// the backstop for a value never read again.
const BACKSTOP: usize = 2;

/// What scripts may use: per call, and for the whole game. [`Limits::default`] is what a game
/// gets. A limit of 0 operations means none (for tests of the other limits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Operations (rhai's unit of work: roughly one expression step) per call, with the work
    /// charged for the values the call reads ([`ITEM_OPERATIONS`], [`STRING_BYTES_PER_OPERATION`]).
    ///
    /// The default, 150,000, keeps the costliest call we could write under 50 ms of CPU time on
    /// the 2-core build machine. Measured in-process (thread CPU time, best of 3, load average
    /// 5-6) in the `dev` profile, which is slower than a release build (dependencies at
    /// opt-level 1, the runtime at 0), a call that loops until the budget stops it takes:
    /// building a 1,000-entry map literal 39 ms, `.to_upper()` of a 1,000-byte literal 28 ms,
    /// calls of a 30-deep recursive function 24 ms, reading 100 units' names 17 ms,
    /// `[5,000 items].contains(x)` 17 ms, a plain `n += 1` 16 ms, splitting strings 6-13 ms,
    /// `a.contains(x)` on 10,000 items 7 ms; copies, sorts, `==` and map walks 1-5 ms. Before
    /// issue 15 (500,000 operations, an item read for 1, a string byte for 1/64, literals folded
    /// into free constants), `s.split(",")` took 2.9 s, `to_chars` of a literal 4 s and a map
    /// literal's `keys()` 3.3 s.
    pub operations: u64,
    /// Operations of all the calls of one game together: a hook that runs at every phase of a
    /// long game cannot take unbounded work. The call that reaches it is stopped, and no script
    /// runs for the rest of the game. The default, 15,000,000, is a hundred calls at their limit:
    /// at most about 4 s of CPU time for a whole replay by the figures above.
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
    /// The most any script gets ([`dotc_lang::script_limits`] holds the numbers, so that the
    /// language's check of `script_limits` and the sandbox agree on them).
    fn default() -> Limits {
        use dotc_lang::script_limits as max;
        let size = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        Limits {
            operations: max::OPERATIONS,
            game_operations: max::GAME_OPERATIONS,
            call_levels: size(max::CALL_LEVELS),
            expr_depth: size(max::EXPR_DEPTH),
            function_expr_depth: size(max::FUNCTION_EXPR_DEPTH),
            string_size: size(max::STRING_SIZE),
            array_size: size(max::ARRAY_SIZE),
            map_size: size(max::MAP_SIZE),
            output_lines: size(max::OUTPUT_LINES),
            output_bytes: size(max::OUTPUT_BYTES),
            game_output_lines: size(max::GAME_OUTPUT_LINES),
            game_output_bytes: size(max::GAME_OUTPUT_BYTES),
            wall_clock: Duration::from_secs(10),
        }
    }
}

impl Limits {
    /// The limits a scenario's scripts run under: the defaults, each lowered by the scenario's
    /// `script_limits` (the lowest setting of a limit wins; a setting above the default, which
    /// `dotc check` reports, raises nothing).
    pub fn for_scenario(scenario: &dotc_lang::ast::Scenario) -> Limits {
        let mut limits = Limits::default();
        for setting in &scenario.script_limits {
            let Some(value) = setting.value.as_ref().map(|v| v.value.max(1)) else { continue };
            let size = usize::try_from(value).unwrap_or(usize::MAX);
            let lower_u64 = |limit: &mut u64| *limit = (*limit).min(value);
            let lower = |limit: &mut usize| *limit = (*limit).min(size);
            match setting.name.value.as_str() {
                "operations" => lower_u64(&mut limits.operations),
                "game_operations" => lower_u64(&mut limits.game_operations),
                "output_lines" => lower(&mut limits.output_lines),
                "output_bytes" => lower(&mut limits.output_bytes),
                "game_output_lines" => lower(&mut limits.game_output_lines),
                "game_output_bytes" => lower(&mut limits.game_output_bytes),
                "call_levels" => lower(&mut limits.call_levels),
                "expr_depth" => lower(&mut limits.expr_depth),
                "function_expr_depth" => lower(&mut limits.function_expr_depth),
                "string_size" => lower(&mut limits.string_size),
                "array_size" => lower(&mut limits.array_size),
                "map_size" => lower(&mut limits.map_size),
                _ => {}
            }
        }
        limits
    }
}

/// The value `on_progress` ends a call with once it wrote past an output limit.
pub(crate) const OUTPUT_LIMIT: &str = "output limit";
/// The value `on_progress` ends a call with once the wall-clock safety net has passed.
pub(crate) const WALL_CLOCK: &str = "wall clock";
/// The stop of a call whose operations and the work charged for the values it read passed its
/// budget (rhai's own count alone stops it with `ErrorTooManyOperations`).
pub(crate) const OPERATIONS: &str = "operations";

/// What each item of an array and entry of a map costs when a script reads it, in operations
/// (and what the natives that compare items charge for each, [`register_comparisons`]): the
/// slowest (`contains`, `index_of`, `==`) take 0.5-0.7 µs an item in the dev profile, about four
/// of rhai's operations (0.1-0.15 µs each).
pub(crate) const ITEM_OPERATIONS: u64 = 4;

/// Bytes of a string that cost one operation when a script reads it: `split` makes a string of
/// every piece, about 0.09 µs a byte of what it splits.
pub(crate) const STRING_BYTES_PER_OPERATION: usize = 2;

/// How often (in operations) the safety net reads the clock: reading it at every operation would
/// cost more than most hooks. It is first read at the first check, not when the call begins, so a
/// short call (most hooks) never reads it.
const CLOCK_EVERY: u64 = 1024;

/// What the progress callback and the calling code share about the call now running.
#[derive(Debug, Default)]
pub(crate) struct Meter {
    /// The call's operations so far, as rhai last reported them.
    pub operations: AtomicU64,
    /// The work charged on top of rhai's count (issue 15): reading a variable costs its size, so
    /// a native that walks a whole array or string for one operation (`a.contains(x)`,
    /// `a == b`, `let b = a`, `s.index_of(t)`) is paid for by the size it touches.
    pub charged: AtomicU64,
    /// The call's budget of operations and charged work together; 0 for none.
    pub budget: AtomicU64,
    /// Set when the call wrote past an output limit: its next operation stops it.
    pub output_over: AtomicBool,
    /// The safety net of the call: armed by the caller, started at the first check.
    pub clock: Mutex<Clock>,
}

impl Meter {
    /// A call begins: nothing counted, the safety net armed.
    pub fn begin(&self) {
        self.operations.store(0, Ordering::Relaxed);
        self.charged.store(0, Ordering::Relaxed);
        self.output_over.store(false, Ordering::Relaxed);
        *lock(&self.clock) = Clock { armed: true, at: None };
    }

    /// A call is over: the safety net disarmed; the call's work (operations and charged work).
    pub fn end(&self) -> u64 {
        *lock(&self.clock) = Clock::default();
        self.work()
    }

    /// The call's work so far: rhai's operations and the work charged for the values read.
    pub fn work(&self) -> u64 {
        self.operations.load(Ordering::Relaxed).saturating_add(self.charged.load(Ordering::Relaxed))
    }

    /// Charge `units` of work; false when that passes the call's budget.
    pub fn charge(&self, units: u64) -> bool {
        self.charged.fetch_add(units, Ordering::Relaxed);
        let budget = self.budget.load(Ordering::Relaxed);
        budget == 0 || self.work() <= budget
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
#[derive(Clone, Debug, Default, PartialEq)]
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
    /// Count a message of `bytes`; false (and `over` set) when it would pass a limit: it is not
    /// written.
    pub fn write(&mut self, bytes: usize, limits: &Limits) -> bool {
        if !self.fits(bytes, limits) {
            return false;
        }
        self.call_lines += 1;
        self.call_bytes += bytes;
        self.game_lines += 1;
        self.game_bytes += bytes;
        true
    }

    /// Would a message of `bytes` fit within every limit? Nothing is counted; when it would not,
    /// `over` says which limit it passes.
    pub fn fits(&mut self, bytes: usize, limits: &Limits) -> bool {
        if self.over.is_some() {
            return false;
        }
        let (lines, bytes_now) = (self.call_lines + 1, self.call_bytes + bytes);
        let (game_lines, game_bytes) = (self.game_lines + 1, self.game_bytes + bytes);
        if game_lines > limits.game_output_lines || game_bytes > limits.game_output_bytes {
            self.over = Some(OutputOver { game: true, lines: game_lines > limits.game_output_lines });
        } else if lines > limits.output_lines || bytes_now > limits.output_bytes {
            self.over = Some(OutputOver { game: false, lines: lines > limits.output_lines });
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
    let (max_array, max_string) = (limits.array_size, limits.string_size);
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
    for symbol in DISABLED_SYMBOLS {
        engine.disable_symbol(*symbol);
    }
    // No constant folding: a literal array, map or string is then built each time it is
    // evaluated, one operation an item, so a literal in a loop pays for its size as a variable
    // read does (folded, it is a constant copied for free: 3 s a call for a 1,000-entry map).
    engine.set_optimization_level(OptimizationLevel::None);
    engine.set_max_operations(limits.operations);
    engine.set_max_call_levels(limits.call_levels.saturating_add(4));
    engine.set_max_expr_depths(limits.expr_depth, limits.function_expr_depth);
    engine.set_max_string_size(limits.string_size.saturating_mul(BACKSTOP));
    engine.set_max_array_size(limits.array_size.saturating_mul(BACKSTOP));
    engine.set_max_map_size(limits.map_size.saturating_mul(BACKSTOP));
    engine.set_max_modules(0);
    let print_sink = sink.clone();
    engine.on_print(move |text| print_sink(text.to_string()));
    engine.on_debug(move |text, _, _| sink(text.to_string()));
    // Reading a variable costs its size (issue 15): one operation of rhai's count may walk a whole
    // array (`contains`, `==`, a copy) or string, and only counted work may stop a script.
    let charged = meter.clone();
    // rhai marks `on_var` volatile (its signature may change), not deprecated.
    let checked = *limits;
    #[allow(deprecated)]
    engine.on_var(move |name, _, context| {
        if charged.output_over() {
            return Err(stop(OUTPUT_LIMIT));
        }
        if checked.call_levels > 0 && context.call_level() > checked.call_levels {
            return Err(stop(CALL_DEPTH));
        }
        let sizes = context.scope().get(name).map(Sizes::of).unwrap_or_default();
        if let Some(token) = sizes.over(&checked) {
            return Err(stop(token));
        }
        if charged.charge(sizes.operations()) { Ok(None) } else { Err(stop(OPERATIONS)) }
    });
    // An array grows in place by `push`, `insert` and `append` with no read of its variable to
    // stop it (rhai checks only its own, larger limit there): these stop it at the call that
    // would take it past its limit.
    engine.register_fn("push", move |array: &mut Array, item: Dynamic| -> Result<(), Box<EvalAltResult>> {
        if array.len() >= max_array {
            return Err(stop(ARRAY_SIZE));
        }
        array.push(item);
        Ok(())
    });
    engine.register_fn(
        "insert",
        move |array: &mut Array, at: INT, item: Dynamic| -> Result<(), Box<EvalAltResult>> {
            if array.len() >= max_array {
                return Err(stop(ARRAY_SIZE));
            }
            let len = array.len() as INT;
            let at = if at < 0 { (len + at).max(0) } else { at.min(len) };
            array.insert(usize::try_from(at).unwrap_or(0), item);
            Ok(())
        },
    );
    engine.register_fn("append", move |array: &mut Array, more: Array| -> Result<(), Box<EvalAltResult>> {
        if array.len().saturating_add(more.len()) > max_array {
            return Err(stop(ARRAY_SIZE));
        }
        array.extend(more);
        Ok(())
    });
    register_splits(&mut engine, &meter, max_array);
    register_comparisons(&mut engine, &meter);
    let padded = meter.clone();
    engine.register_fn(
        "pad",
        move |array: &mut Array, len: INT, item: Dynamic| -> Result<(), Box<EvalAltResult>> {
            let len = usize::try_from(len).unwrap_or(0);
            if len > max_array || !padded.charge((len as u64).saturating_mul(ITEM_OPERATIONS)) {
                return Err(stop(if len > max_array { ARRAY_SIZE } else { OPERATIONS }));
            }
            if len > array.len() {
                array.resize(len, item);
            }
            Ok(())
        },
    );
    for with_text in [false, true] {
        let padded = meter.clone();
        let pad = move |text: &mut ImmutableString, len: INT, with: &str| -> Result<(), Box<EvalAltResult>> {
            let len = usize::try_from(len).unwrap_or(0);
            let chars = text.chars().count();
            if len <= chars || with.is_empty() {
                return Ok(());
            }
            let bytes = text.len() + (len - chars) * with.len().div_ceil(with.chars().count().max(1));
            if bytes > max_string || !padded.charge((bytes / STRING_BYTES_PER_OPERATION) as u64) {
                return Err(stop(if bytes > max_string { STRING_SIZE } else { OPERATIONS }));
            }
            let mut out = text.to_string();
            let mut n = chars;
            'fill: loop {
                for c in with.chars() {
                    if n >= len {
                        break 'fill;
                    }
                    out.push(c);
                    n += 1;
                }
            }
            *text = out.into();
            Ok(())
        };
        if with_text {
            engine.register_fn("pad", pad);
        } else {
            engine.register_fn("pad", move |text: &mut ImmutableString, len: INT, c: char| {
                pad(text, len, c.encode_utf8(&mut [0; 4]))
            });
        }
    }
    let allowed = limits.wall_clock;
    engine.on_progress(move |ops| {
        meter.operations.store(ops, Ordering::Relaxed);
        if meter.output_over() {
            return Some(Dynamic::from(OUTPUT_LIMIT));
        }
        let budget = meter.budget.load(Ordering::Relaxed);
        if budget > 0 && meter.work() > budget.saturating_add(GRACE) {
            return Some(Dynamic::from(OPERATIONS));
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

/// `to_chars`, `split` and `split_rev` in all their forms, charged for the pieces they make: they
/// may be called on a string literal, which no read pays for, and making 10,000 small strings
/// takes far longer than reading one (issue 15). Past the array limit they stop at the call.
/// Otherwise they give what rhai's own give.
fn register_splits(engine: &mut Engine, meter: &Arc<Meter>, max_array: usize) {
    type Split = Result<Array, Box<EvalAltResult>>;
    /// Charge the bytes a split scans, as a read of them would cost.
    fn scan(meter: &Meter, text: &str) -> Result<(), Box<EvalAltResult>> {
        if meter.charge((text.len() / STRING_BYTES_PER_OPERATION) as u64) {
            Ok(())
        } else {
            Err(stop(OPERATIONS))
        }
    }
    fn pieces<'a>(meter: &Meter, max_array: usize, parts: impl Iterator<Item = &'a str>) -> Split {
        let mut out = Array::new();
        for part in parts {
            if out.len() >= max_array {
                return Err(stop(ARRAY_SIZE));
            }
            out.push(Dynamic::from(ImmutableString::from(part)));
        }
        if meter.charge((out.len() as u64).saturating_mul(ITEM_OPERATIONS)) {
            Ok(out)
        } else {
            Err(stop(OPERATIONS))
        }
    }
    fn whole(text: &ImmutableString) -> Split {
        Ok(vec![Dynamic::from(text.clone())])
    }
    fn segments(n: INT) -> usize {
        usize::try_from(n).unwrap_or(usize::MAX)
    }
    let m = meter.clone();
    engine.register_fn("to_chars", move |text: &str| -> Split {
        scan(&m, text)?;
        let mut out = Array::new();
        for c in text.chars() {
            if out.len() >= max_array {
                return Err(stop(ARRAY_SIZE));
            }
            out.push(Dynamic::from(c));
        }
        if m.charge((out.len() as u64).saturating_mul(ITEM_OPERATIONS)) {
            Ok(out)
        } else {
            Err(stop(OPERATIONS))
        }
    });
    let m = meter.clone();
    engine.register_fn("split", move |text: &mut ImmutableString| -> Split {
        scan(&m, text)?;
        if text.is_empty() { whole(text) } else { pieces(&m, max_array, text.split_whitespace()) }
    });
    for reverse in [false, true] {
        let name = if reverse { "split_rev" } else { "split" };
        let m = meter.clone();
        engine.register_fn(name, move |text: &mut ImmutableString, by: &str| -> Split {
            scan(&m, text)?;
            if text.is_empty() || (!by.is_empty() && !text.contains(by)) {
                whole(text)
            } else if reverse {
                pieces(&m, max_array, text.rsplit(by))
            } else {
                pieces(&m, max_array, text.split(by))
            }
        });
        let m = meter.clone();
        engine.register_fn(name, move |text: &mut ImmutableString, by: &str, n: INT| -> Split {
            scan(&m, text)?;
            if n <= 1 || text.is_empty() || (!by.is_empty() && !text.contains(by)) {
                whole(text)
            } else if reverse {
                pieces(&m, max_array, text.rsplitn(segments(n), by))
            } else {
                pieces(&m, max_array, text.splitn(segments(n), by))
            }
        });
        let m = meter.clone();
        engine.register_fn(name, move |text: &mut ImmutableString, by: char| -> Split {
            scan(&m, text)?;
            if text.is_empty() || !text.contains(by) {
                whole(text)
            } else if reverse {
                pieces(&m, max_array, text.rsplit(by))
            } else {
                pieces(&m, max_array, text.split(by))
            }
        });
        let m = meter.clone();
        engine.register_fn(name, move |text: &mut ImmutableString, by: char, n: INT| -> Split {
            scan(&m, text)?;
            if n <= 1 || text.is_empty() || !text.contains(by) {
                whole(text)
            } else if reverse {
                pieces(&m, max_array, text.rsplitn(segments(n), by))
            } else {
                pieces(&m, max_array, text.splitn(segments(n), by))
            }
        });
    }
}

/// `contains`, `index_of`, `dedup` and `==`, `!=` of arrays and maps, charged for the items they
/// compare: each comparison calls back into the engine (0.5 µs or more an item), and the array may
/// be a literal, which no read pays for (issue 15). Otherwise they give what rhai's own give.
fn register_comparisons(engine: &mut Engine, meter: &Arc<Meter>) {
    type Fallible<T> = Result<T, Box<EvalAltResult>>;
    /// rhai's `==` of two values, as its packages use it: values of different types with no `==`
    /// between them are not equal.
    fn equal(call: &NativeCallContext, a: &mut Dynamic, b: &mut Dynamic) -> Fallible<bool> {
        match call.call_native_fn_raw("==", true, &mut [a, b]) {
            Ok(value) => Ok(value.as_bool().unwrap_or(false)),
            Err(e)
                if matches!(&*e, EvalAltResult::ErrorFunctionNotFound(f, _) if f.starts_with("=="))
                    && a.type_id() != b.type_id() =>
            {
                Ok(false)
            }
            Err(e) => Err(e),
        }
    }
    fn charge(meter: &Meter, items: usize) -> Fallible<()> {
        if meter.charge((items as u64).saturating_mul(ITEM_OPERATIONS)) {
            Ok(())
        } else {
            Err(stop(OPERATIONS))
        }
    }
    fn index_of(
        call: &NativeCallContext,
        meter: &Meter,
        array: &mut Array,
        value: &Dynamic,
        start: INT,
    ) -> Fallible<INT> {
        let len = array.len();
        let start = if start < 0 {
            len.saturating_sub(usize::try_from(start.unsigned_abs()).unwrap_or(usize::MAX))
        } else {
            usize::try_from(start).unwrap_or(usize::MAX)
        };
        charge(meter, len.saturating_sub(start))?;
        for (i, item) in array.iter_mut().enumerate().skip(start) {
            if equal(call, item, &mut value.clone())? {
                return Ok(INT::try_from(i).unwrap_or(INT::MAX));
            }
        }
        Ok(-1)
    }
    let m = meter.clone();
    engine.register_fn(
        "contains",
        move |call: NativeCallContext, array: &mut Array, value: Dynamic| -> Fallible<bool> {
            Ok(index_of(&call, &m, array, &value, 0)? >= 0)
        },
    );
    let m = meter.clone();
    engine.register_fn(
        "index_of",
        move |call: NativeCallContext, array: &mut Array, value: Dynamic| -> Fallible<INT> {
            index_of(&call, &m, array, &value, 0)
        },
    );
    let m = meter.clone();
    engine.register_fn(
        "index_of",
        move |call: NativeCallContext, array: &mut Array, value: Dynamic, start: INT| -> Fallible<INT> {
            index_of(&call, &m, array, &value, start)
        },
    );
    let m = meter.clone();
    engine.register_fn("dedup", move |call: NativeCallContext, array: &mut Array| -> Fallible<()> {
        charge(&m, array.len())?;
        let mut kept: Array = Vec::with_capacity(array.len());
        for mut item in std::mem::take(array) {
            let same = match kept.last_mut() {
                Some(last) => equal(&call, last, &mut item)?,
                None => false,
            };
            if !same {
                kept.push(item);
            }
        }
        *array = kept;
        Ok(())
    });
    for negated in [false, true] {
        let op = if negated { "!=" } else { "==" };
        let m = meter.clone();
        engine.register_fn(
            op,
            move |call: NativeCallContext, a: &mut Array, mut b: Array| -> Fallible<bool> {
                let mut same = a.len() == b.len();
                if same {
                    charge(&m, a.len())?;
                    for (x, y) in a.iter_mut().zip(b.iter_mut()) {
                        if !equal(&call, x, y)? {
                            same = false;
                            break;
                        }
                    }
                }
                Ok(same != negated)
            },
        );
        let m = meter.clone();
        engine.register_fn(
            op,
            move |call: NativeCallContext, a: &mut rhai::Map, mut b: rhai::Map| -> Fallible<bool> {
                let mut same = a.len() == b.len();
                if same {
                    charge(&m, a.len())?;
                    for (key, x) in a.iter_mut() {
                        let equal = match b.get_mut(key) {
                            Some(y) => {
                                call.call_native_fn_raw("==", true, &mut [x, y])?.as_bool().unwrap_or(false)
                            }
                            None => false,
                        };
                        if !equal {
                            same = false;
                            break;
                        }
                    }
                }
                Ok(same != negated)
            },
        );
    }
}

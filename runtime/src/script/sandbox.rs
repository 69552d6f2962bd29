//! The sandboxed rhai engine every scenario script runs in.
//!
//! Built from [`Engine::new_raw`], which has no functions, no module resolver and no printing, with
//! only the packages a scenario script needs: arithmetic, logic, strings, arrays, maps, iterators
//! (`for i in 0..3`) and basic maths. Left out on purpose: the language-core package (its `sleep`
//! would stall the replay past any deadline, its `exit` would end it), time, blobs, function
//! pointers and debugging. `eval` and `import` are disabled symbols, so a script holding either
//! does not compile; with no module resolver nothing can be read from disk either way.
//!
//! `print` and `debug` never reach stdout (the language server speaks JSON-RPC there): the engine
//! hands their text to the game, which turns it into events. Every call runs under [`Limits`]: a
//! count of operations, call depth, expression depth, string, array and map sizes, and a
//! wall-clock deadline checked through `on_progress`.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rhai::packages::{
    ArithmeticPackage, BasicArrayPackage, BasicIteratorPackage, BasicMapPackage, BasicMathPackage,
    BasicStringPackage, LogicPackage, MoreStringPackage, Package,
};
use rhai::{Dynamic, Engine};

/// What one script call may use. [`Limits::default`] is what a game gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Operations (rhai's unit of work: roughly one expression step) per call.
    pub operations: u64,
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
    /// Wall-clock time per call.
    pub deadline: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            operations: 500_000,
            call_levels: 32,
            expr_depth: 64,
            function_expr_depth: 32,
            string_size: 10_000,
            array_size: 10_000,
            map_size: 1_000,
            deadline: Duration::from_millis(50),
        }
    }
}

/// The value `on_progress` ends a call with once the deadline has passed.
pub(crate) const DEADLINE_PASSED: &str = "deadline";

/// How often (in operations) the clock is read: reading it at every operation would cost more
/// than most hooks. The clock is first read at the first check, not when the call begins, so a
/// short call (most hooks) never reads it: its deadline starts at most this many operations late.
const CLOCK_EVERY: u64 = 1024;

/// The deadline of the call now running: armed by the caller, started at the first check.
#[derive(Debug, Default)]
pub(crate) struct Deadline {
    pub armed: bool,
    pub at: Option<Instant>,
}

/// Lock a mutex, recovering the data if a panicking thread poisoned it (no script can panic the
/// engine, but the data stays usable whatever happens).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The engine with its packages and limits. `deadline` is read by the progress callback: the
/// caller arms it before each call and disarms it after. `sink` receives what `print` and `debug`
/// write.
pub(crate) fn engine(
    limits: &Limits,
    deadline: Arc<Mutex<Deadline>>,
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
    let allowed = limits.deadline;
    engine.on_progress(move |ops| {
        if ops % CLOCK_EVERY != 0 {
            return None;
        }
        let mut d = lock(&deadline);
        if !d.armed {
            return None;
        }
        let now = Instant::now();
        match d.at {
            None => {
                d.at = Some(now + allowed);
                None
            }
            Some(at) if now >= at => Some(Dynamic::from(DEADLINE_PASSED)),
            Some(_) => None,
        }
    });
    engine
}

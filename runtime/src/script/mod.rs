//! Scenario scripts: the sandboxed rhai engine, the compiled scripts of one game, and how they are
//! called.
//!
//! A scenario may carry a `script` block of hook functions, `trigger`s (a one-line condition and
//! a body that runs the first time it holds) and `when` victory conditions. [`Scripts::compile`]
//! builds the engine ([`sandbox`]) and compiles all of them once per game; a replay then calls
//! [`Scripts::call_hook`], [`Scripts::run_trigger`] and [`Scripts::condition`] with a fresh
//! [`Snapshot`] of the game. A call returns the [`Effect`]s the script asked for (the replay applies
//! them through the rules engine) or the [`ScriptError`] that stopped it, located in the scenario
//! file. Only counted work stops a call ([`Limits`]: operations per call and per game, depths,
//! sizes, output per call and per game), so a game's scripts stop at the same operation on every
//! machine; the wall-clock safety net is the one exception, and its stop is an
//! [`ErrorKind::WallClock`] error that makes the replay untrusted.
//!
//! [`check`] is what `dotc check` runs: every script block, trigger condition and body and
//! victory `when` expression compiled, each syntax error at its real line and column
//! (`dotc::script-error`).

mod api;
mod sandbox;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

use dotc_lang::ast::{Condition, Document, Scenario, Script, Span};
use dotc_lang::catalogue;
use dotc_lang::diagnostic::Diagnostic;
use rhai::{AST, CallFnOptions, Dynamic, Engine, EvalAltResult, ImmutableString, Position, Scope};

pub(crate) use api::part;
pub use api::{
    BrigadeView, Effect, GameHandle, LeaderView, MAX_SCRIPT_DICE, ObjectiveView, RESULT_LEVELS,
    SCRIPT_MARKERS, Snapshot, UnitView,
};
pub use sandbox::Limits;

use crate::dice::SeededDice;
use api::Ctx;
use sandbox::{Meter, lock};

/// The hook functions a `script` block may define, with their number of parameters (the first is
/// always `game`). A function of another name is the script's own helper.
pub const HOOKS: &[(&str, usize)] = &[
    ("on_turn_start", 1),
    ("on_phase", 2),
    ("on_unit_destroyed", 2),
    ("on_unit_routed", 2),
    ("on_brigade_state", 3),
    ("on_leader_hit", 3),
    ("on_objective_taken", 3),
    ("on_game_end", 1),
];

/// How close a side holds an objective from, unless the objective says (`within`).
pub use crate::battlefield::HOLD_RADIUS;

/// A script that could not compile or stopped with an error, located in the scenario file.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptError {
    /// The span in the scenario file (or in `file`): the exact place rhai reports, or the whole
    /// script.
    pub span: Span,
    /// The stdlib file the error is in (`scripts.dotc`), when it is not in the scenario file.
    pub file: Option<&'static str>,
    /// The hook or trigger, e.g. `hook on_turn_start`, `trigger "Reynolds falls"`.
    pub what: String,
    pub message: String,
    pub kind: ErrorKind,
}

/// What a [`ScriptError`] means for the replay.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ErrorKind {
    /// The script's own mistake, or a counted limit it went past: the same error at the same
    /// operation on every machine, at any load.
    #[default]
    Script,
    /// The wall-clock safety net stopped the call ([`Limits::wall_clock`]). Whether and where it
    /// does depends on the machine and its load, so the replay's result cannot be trusted; the
    /// call's effects are dropped and no script runs for the rest of the game.
    WallClock,
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.what, self.message)
    }
}

/// What one call of a script did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// What it asked the game to do, in order (messages and rolls included).
    pub effects: Vec<Effect>,
    /// Set when the script stopped with an error: its effects up to that point are kept.
    pub error: Option<ScriptError>,
    /// The faces the game's seed gave it (the log recorded none), in the order rolled: what a
    /// completed log writes as `scripted "NAME" roll [..]`.
    pub seeded: Vec<u8>,
}

/// One compiled trigger.
struct CompiledTrigger {
    name: String,
    /// Its option's name, for an optional trigger.
    option: Option<String>,
    condition: Option<AST>,
    condition_script: Script,
    body: Option<AST>,
    body_script: Script,
    /// It ran (its body runs once), or its condition failed with an error (reported once).
    done: bool,
    /// What its condition read the last time it was false without acting ([`ConditionMemo`]).
    memo: Option<ConditionMemo>,
}

/// A trigger condition that was false, read only the snapshot's parts `reads`, and did nothing
/// else: no effect, no output, no die (issue 16: the tutorial's condition is asked four times a
/// turn). A script is deterministic and sees the game only through the snapshot, so while those
/// parts are the same it is false again, after the same work; it need not run. The memo is a pure
/// function of the condition and the parts, so it stays right whatever the game's history (a
/// resumed replay included).
#[derive(Clone, Debug, PartialEq)]
struct ConditionMemo {
    reads: u16,
    /// The parts read, as they were ([`Snapshot::parts`]).
    seen: Snapshot,
    /// The work the condition took ([`Meter::work`]), charged again to the game's budget.
    work: u64,
}

/// What a game's script calls change as it is played: the work used and whether the budget is
/// spent, which triggers are done, the seeded dice (their stream and what it gave) and the output
/// written. With it a replay can take the game up again from a turn (`replay::resume`); the
/// compiled scripts and their engine stay as they are.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ScriptsState {
    used: u64,
    spent: bool,
    done: Vec<bool>,
    condition_dice: Vec<(String, Vec<u8>)>,
    seeded: Option<SeededDice>,
    output: sandbox::Output,
}

/// The compiled scripts of one game and the engine they run in, built once per game.
pub struct Scripts {
    engine: Engine,
    ctx: Arc<Mutex<Ctx>>,
    meter: Arc<Meter>,
    limits: Limits,
    /// The operations the game's calls have done so far ([`Limits::game_operations`]).
    used: u64,
    /// A game budget ran out or the safety net fired: no script runs again this game.
    spent: bool,
    /// The `script` blocks (a scenario usually has one) with the hooks each defines.
    blocks: Vec<(AST, Script, BTreeSet<&'static str>)>,
    triggers: Vec<CompiledTrigger>,
    /// The victory conditions' `when` expressions, by their index in the `victory` block.
    victory: Vec<(usize, Option<AST>, Script)>,
    /// The functions of the library scripts (the stdlib's and the scenario's `library` blocks),
    /// merged into every script, trigger and victory expression above.
    library: AST,
    /// The names of the library functions, for the docs and tests.
    library_functions: Vec<String>,
    /// One scope reused by every call (emptied after each).
    scope: Scope<'static>,
    /// Seeded faces of trigger conditions that did not hold (see [`Scripts::take_condition_dice`]).
    condition_dice: Vec<(String, Vec<u8>)>,
    /// What did not compile.
    pub errors: Vec<ScriptError>,
    /// Whether a condition's memo is checked by running the condition anyway and comparing
    /// ([`ConditionMemo`]): on in the dev profile, so every replay of the tests holds each memo to
    /// what the script gives; off in release, where the memo stands in for the run.
    check_memo: bool,
}

/// The stdlib's script libraries, parsed once per process: (file name, script).
fn stdlib_scripts() -> &'static [(&'static str, Script)] {
    static SCRIPTS: OnceLock<Vec<(&'static str, Script)>> = OnceLock::new();
    SCRIPTS.get_or_init(|| {
        dotc_lang::library::STDLIB_SCRIPTS
            .iter()
            .flat_map(|(file, source)| {
                let document = dotc_lang::parse(source).document;
                let scripts: Vec<Script> =
                    document.libraries.into_iter().flat_map(|l| l.scripts.into_iter()).collect();
                scripts.into_iter().map(move |s| (*file, s))
            })
            .collect()
    })
}

impl Scripts {
    /// Build the engine and compile every script of the scenario. Never fails: what does not
    /// compile is in [`Scripts::errors`] and is never called.
    pub fn compile(scenario: &Scenario, limits: Limits) -> Scripts {
        let meter = Arc::new(Meter::default());
        let ctx = Arc::new(Mutex::new(Ctx { limits, meter: meter.clone(), ..Ctx::default() }));
        let sink = {
            let ctx = ctx.clone();
            move |text: String| lock(&ctx).write(text)
        };
        let mut engine = sandbox::engine(&limits, meter.clone(), sink);
        api::register(&mut engine, &ctx);
        let mut scripts = Scripts {
            engine,
            ctx,
            meter,
            limits,
            used: 0,
            spent: false,
            blocks: Vec::new(),
            triggers: Vec::new(),
            victory: Vec::new(),
            library: AST::empty(),
            library_functions: Vec::new(),
            scope: Scope::new(),
            condition_dice: Vec::new(),
            errors: Vec::new(),
            check_memo: cfg!(debug_assertions),
        };
        // The library scripts first: the stdlib's, then the scenario's own `library` blocks. A
        // later definition of the same name and arity replaces an earlier one.
        let own = scenario.libraries.iter().flat_map(|l| l.scripts.iter()).map(|s| (None, s));
        let stdlib = stdlib_scripts().iter().map(|(file, s)| (Some(*file), s));
        for (file, script) in stdlib.chain(own) {
            if let Some(ast) = scripts.compile_library(script, file) {
                scripts.library = scripts.library.merge(&ast);
            }
        }
        scripts.library_functions = scripts.library.iter_functions().map(|f| f.name.to_string()).collect();
        for script in &scenario.scripts {
            if let Some(ast) = scripts.compile_one(script, "script", false) {
                let hooks = HOOKS
                    .iter()
                    .filter(|(name, params)| {
                        ast.iter_functions().any(|f| f.name == *name && f.params.len() == *params)
                    })
                    .map(|(name, _)| *name)
                    .collect();
                scripts.blocks.push((ast, script.clone(), hooks));
            }
        }
        for trigger in &scenario.triggers {
            let what = format!("trigger \"{}\"", trigger.name.value);
            let condition = scripts.compile_one(&trigger.condition, &format!("{what} condition"), true);
            let body = scripts.compile_one(&trigger.body, &what, false);
            scripts.triggers.push(CompiledTrigger {
                name: trigger.name.value.clone(),
                option: trigger.option.as_ref().map(|o| o.name.value.clone()),
                done: condition.is_none()
                    || body.is_none()
                    || trigger.option.as_ref().is_some_and(|o| !o.default_on()),
                condition,
                condition_script: trigger.condition.clone(),
                body,
                body_script: trigger.body.clone(),
                memo: None,
            });
        }
        for (i, v) in scenario.victory.iter().enumerate() {
            if let Condition::Script(script) = &v.condition {
                let ast = scripts.compile_one(script, "victory condition", true);
                scripts.victory.push((i, ast, script.clone()));
            }
        }
        scripts
    }

    /// Compile a library script: only its functions are kept, and none may be named as a hook
    /// (hooks are the scenario's own).
    fn compile_library(&mut self, script: &Script, file: Option<&'static str>) -> Option<AST> {
        let what = match file {
            Some(file) => format!("library script ({file})"),
            None => "library script".to_string(),
        };
        match self.engine.compile(&script.code) {
            Ok(ast) => {
                if let Some((span, message)) = refused(script, &ast) {
                    self.errors.push(ScriptError { span, file, what, message, kind: ErrorKind::Script });
                    return None;
                }
                if let Some(hook) = ast.iter_functions().find(|f| HOOKS.iter().any(|(h, _)| *h == f.name)) {
                    let at = script.code.find(&format!("fn {}", hook.name)).map_or(script.code_span, |at| {
                        let start = script.code_span.start + at + 3;
                        Span::new(start, start + hook.name.len())
                    });
                    let message = format!(
                        "a library cannot define the hook `{}`: hooks belong to a scenario's `script` block",
                        hook.name
                    );
                    self.errors.push(ScriptError { span: at, file, what, message, kind: ErrorKind::Script });
                    return None;
                }
                Some(ast.clone_functions_only())
            }
            Err(e) => {
                let (span, message) = compile_error(script, &e);
                self.errors.push(ScriptError { span, file, what, message, kind: ErrorKind::Script });
                None
            }
        }
    }

    /// The functions the library scripts define, by name (the stdlib's and the scenario's).
    pub fn library_functions(&self) -> &[String] {
        &self.library_functions
    }

    /// Switch optional triggers on or off by option name (`rules { option NAME = off }`, `dotc
    /// replay --option`). A trigger switched off never runs; one switched on runs as any other,
    /// once. Call it before the game starts; names of no trigger are ignored.
    pub fn set_options(&mut self, options: &BTreeMap<String, bool>) {
        for t in &mut self.triggers {
            let Some(name) = &t.option else { continue };
            if let Some(on) = options.get(name) {
                let compiled = t.condition.is_some() && t.body.is_some();
                t.done = !(*on && compiled);
            }
        }
    }

    fn compile_one(&mut self, script: &Script, what: &str, expression: bool) -> Option<AST> {
        let compiled = if expression {
            self.engine.compile_expression(&script.code)
        } else {
            self.engine.compile(&script.code)
        };
        match compiled {
            Ok(ast) => {
                if let Some((span, message)) = refused(script, &ast) {
                    let what = what.to_string();
                    self.errors.push(ScriptError {
                        span,
                        file: None,
                        what,
                        message,
                        kind: ErrorKind::Script,
                    });
                    return None;
                }
                // The library's functions are callable from every script (its own of the same
                // name and arity win).
                Some(self.library.merge(&ast))
            }
            Err(e) => {
                let (span, message) = compile_error(script, &e);
                self.errors.push(ScriptError {
                    span,
                    file: None,
                    what: what.to_string(),
                    message,
                    kind: ErrorKind::Script,
                });
                None
            }
        }
    }

    /// What the game's calls have changed so far ([`ScriptsState`]).
    pub(crate) fn state(&self) -> ScriptsState {
        let c = lock(&self.ctx);
        ScriptsState {
            used: self.used,
            spent: self.spent,
            done: self.triggers.iter().map(|t| t.done).collect(),
            condition_dice: self.condition_dice.clone(),
            seeded: c.dice.seeded.clone(),
            output: c.output.clone(),
        }
    }

    /// Put the scripts back as they were when `state` was taken (from these same scripts).
    pub(crate) fn restore(&mut self, state: &ScriptsState) {
        self.used = state.used;
        self.spent = state.spent;
        for (trigger, done) in self.triggers.iter_mut().zip(&state.done) {
            trigger.done = *done;
        }
        self.condition_dice.clone_from(&state.condition_dice);
        let mut c = lock(&self.ctx);
        c.dice.seeded.clone_from(&state.seeded);
        c.output.clone_from(&state.output);
    }

    /// Use this seeded stream for the dice scripts roll when the log records none for them.
    pub fn seed(&mut self, seed: Option<u64>) {
        lock(&self.ctx).dice.seeded = seed.map(SeededDice::new);
    }

    /// The leader casualty table's result id for each face (Ch16 2.4), so `casualty_check()` can
    /// tell the script what it rolled.
    pub fn set_leader_results(&mut self, results: Vec<(u8, String)>) {
        lock(&self.ctx).leader_results = results;
    }

    /// Is this hook defined by the scenario's script (and may scripts still run)?
    pub fn has_hook(&self, hook: &str) -> bool {
        !self.spent && self.blocks.iter().any(|(_, _, hooks)| hooks.contains(hook))
    }

    /// Let go of the snapshot the last call saw, so that its owner may refill it in place.
    pub fn release_snapshot(&self) {
        static EMPTY: OnceLock<Arc<Snapshot>> = OnceLock::new();
        lock(&self.ctx).snapshot = Arc::clone(EMPTY.get_or_init(Arc::default));
    }

    /// Does the scenario have any trigger still waiting to fire?
    pub fn has_pending_triggers(&self) -> bool {
        !self.spent && self.triggers.iter().any(|t| !t.done)
    }

    /// The parts of the snapshot ([`part`] bits) that settle every trigger still waiting, when
    /// each has a memo ([`ConditionMemo`]): the union of what their conditions read. None when
    /// one has none, so it must run on the whole snapshot.
    pub(crate) fn remembered_parts(&self) -> Option<u16> {
        self.triggers.iter().filter(|t| !t.done).try_fold(0, |parts, t| Some(parts | t.memo.as_ref()?.reads))
    }

    /// Whether [`Scripts::run_triggers`] on `snapshot` would stand every trigger still waiting in
    /// by its memo, without running one (issue 16): each memo's parts are the same in
    /// `snapshot`, and the budget left after the work charged for those before it allows its
    /// own, as `run_trigger` decides. Only the parts of [`Scripts::remembered_parts`] of
    /// `snapshot` are read, so the caller need copy no more of the game. False in the dev
    /// profile, where every memo is checked by running its condition.
    pub(crate) fn all_remembered(&self, snapshot: &Snapshot) -> bool {
        if self.check_memo || self.spent {
            return false;
        }
        let mut used = self.used;
        for trigger in self.triggers.iter().filter(|t| !t.done) {
            let Some(memo) = &trigger.memo else { return false };
            if trigger.condition.is_none()
                || trigger.body.is_none()
                || !memo.seen.same_parts(snapshot, memo.reads)
                || !may_skip(&self.limits, used, memo.work)
            {
                return false;
            }
            used = used.saturating_add(memo.work);
        }
        true
    }

    /// The names of the triggers still waiting, in scenario order.
    pub fn pending_triggers(&self) -> Vec<String> {
        self.triggers.iter().filter(|t| !t.done).map(|t| t.name.clone()).collect()
    }

    /// Call a hook in every script block that defines it, with `game` and `args`. `dice` are the
    /// faces the log recorded for it in this phase; what it does not use is left there.
    pub fn call_hook(
        &mut self,
        hook: &str,
        args: &[&str],
        snapshot: &Arc<Snapshot>,
        dice: &mut VecDeque<u8>,
    ) -> Outcome {
        let mut outcome = Outcome::default();
        let (mut runner, parts) = self.runner();
        for (ast, script, hooks) in parts.blocks.iter() {
            if !hooks.contains(hook) || runner.spent() {
                continue;
            }
            let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
            let call =
                runner.call(hook, snapshot, dice, script, &|| format!("hook {hook}"), |engine, scope| {
                    match args {
                        [] => {
                            engine.call_fn_with_options::<Dynamic>(options, scope, ast, hook, (GameHandle,))
                        }
                        [a] => engine.call_fn_with_options::<Dynamic>(
                            options,
                            scope,
                            ast,
                            hook,
                            (GameHandle, ImmutableString::from(*a)),
                        ),
                        [a, b, ..] => engine.call_fn_with_options::<Dynamic>(
                            options,
                            scope,
                            ast,
                            hook,
                            (GameHandle, ImmutableString::from(*a), ImmutableString::from(*b)),
                        ),
                    }
                });
            outcome.effects.extend(call.effects);
            outcome.seeded.extend(call.seeded);
            if let Err(error) = call.value {
                outcome.error = Some(error);
                break;
            }
        }
        outcome
    }

    /// Evaluate each waiting trigger's condition; run the body of each that holds (once, ever).
    /// `dice` are the faces the log recorded in this phase, by trigger name; what a trigger does
    /// not use is left there. Returns each trigger that ran or failed, by name, with what it did.
    pub fn run_triggers(
        &mut self,
        snapshot: &Arc<Snapshot>,
        dice: &mut BTreeMap<String, VecDeque<u8>>,
    ) -> Vec<(String, Outcome)> {
        let mut ran = Vec::new();
        for i in 0..self.triggers.len() {
            if self.triggers[i].done || self.spent {
                continue;
            }
            let name = self.triggers[i].name.clone();
            let mut faces = dice.remove(&name).unwrap_or_default();
            let outcome = self.run_trigger(i, snapshot, &mut faces);
            if !faces.is_empty() {
                dice.insert(name.clone(), faces);
            }
            if let Some(outcome) = outcome {
                ran.push((name, outcome));
            }
        }
        ran
    }

    /// The faces the seed gave trigger conditions that did not hold (a condition may roll), by
    /// trigger name, since the last call: for a completed log.
    pub fn take_condition_dice(&mut self) -> Vec<(String, Vec<u8>)> {
        std::mem::take(&mut self.condition_dice)
    }

    /// One trigger: None when its condition does not hold.
    fn run_trigger(
        &mut self,
        i: usize,
        snapshot: &Arc<Snapshot>,
        dice: &mut VecDeque<u8>,
    ) -> Option<Outcome> {
        let (mut runner, parts) = self.runner();
        let trigger = parts.triggers.get_mut(i)?;
        let (Some(condition), Some(body)) = (&trigger.condition, &trigger.body) else { return None };
        let name = trigger.name.as_str();
        // A memo of the same parts: the condition is false again, after the same work.
        // (Not when the budget left would stop it: then it runs, and stops.)
        let remembered = trigger
            .memo
            .as_ref()
            .filter(|m| m.seen.same_parts(snapshot, m.reads) && runner.may_skip(m.work))
            .map(|m| (m.reads, m.work));
        if let Some((_, work)) = remembered
            && !parts.check_memo
        {
            runner.skip(name, snapshot, dice, work);
            return None;
        }
        let dice_before = dice.len();
        let mut outcome = Outcome::default();
        let asked = runner.call(
            name,
            snapshot,
            dice,
            &trigger.condition_script,
            &|| format!("trigger \"{name}\" condition"),
            |engine, scope| {
                game_scope(scope);
                engine.eval_ast_with_scope::<Dynamic>(scope, condition)
            },
        );
        // Only a condition that was false and did nothing is remembered, by what it read.
        let quiet = asked.effects.is_empty() && asked.seeded.is_empty() && dice.len() == dice_before;
        let memo = match &asked.value {
            Ok(value) if quiet && value.as_bool() == Ok(false) => Some(ConditionMemo {
                reads: asked.reads,
                seen: snapshot.parts(asked.reads),
                work: asked.work,
            }),
            _ => None,
        };
        // (Unless the safety net stopped it: where a clock stops a call is not the script's.)
        let clocked = matches!(&asked.value, Err(e) if e.kind == ErrorKind::WallClock);
        if let Some(said) = remembered
            && !clocked
        {
            assert_eq!(
                memo.as_ref().map(|m| (m.reads, m.work)),
                Some(said),
                "trigger \"{name}\": its memo (parts read, work) said it is false again"
            );
        }
        trigger.memo = memo;
        // A condition may not act: anything it asked for is dropped (its dice stay used).
        outcome.seeded = asked.seeded;
        let holds = match asked.value {
            Ok(value) => match value.as_bool() {
                Ok(b) => b,
                Err(kind) => {
                    let message = format!("its condition gives a {kind}, not true or false");
                    let error = ScriptError {
                        span: trigger.condition_script.code_span,
                        file: None,
                        what: format!("trigger \"{name}\" condition"),
                        message,
                        kind: ErrorKind::Script,
                    };
                    outcome.error = Some(error);
                    trigger.done = true;
                    return Some(outcome);
                }
            },
            Err(error) => {
                outcome.error = Some(error);
                trigger.done = true;
                return Some(outcome);
            }
        };
        if !holds {
            if !outcome.seeded.is_empty() {
                parts.condition_dice.push((trigger.name.clone(), outcome.seeded));
            }
            return None;
        }
        trigger.done = true;
        let ran = runner.call(
            name,
            snapshot,
            dice,
            &trigger.body_script,
            &|| format!("trigger \"{name}\""),
            |engine, scope| {
                game_scope(scope);
                engine.eval_ast_with_scope::<Dynamic>(scope, body)
            },
        );
        outcome.effects = ran.effects;
        outcome.seeded.extend(ran.seeded);
        outcome.error = ran.value.err();
        Some(outcome)
    }

    /// Evaluate the `when` expression of the victory condition at `index` of the `victory` block.
    /// None when there is no compiled expression there (or the game's scripts were stopped for
    /// good, [`Limits::game_operations`]); an error is the script's.
    pub fn condition(&mut self, index: usize, snapshot: &Arc<Snapshot>) -> Option<Result<bool, ScriptError>> {
        let (mut runner, parts) = self.runner();
        if runner.spent() {
            return None;
        }
        let (_, ast, script) = parts.victory.iter().find(|(i, _, _)| *i == index)?;
        let ast = ast.as_ref()?;
        let mut dice = VecDeque::new();
        let call = runner.call(
            "victory",
            snapshot,
            &mut dice,
            script,
            &|| "victory condition".into(),
            |engine, scope| {
                game_scope(scope);
                engine.eval_ast_with_scope::<Dynamic>(scope, ast)
            },
        );
        Some(call.value.and_then(|value| {
            value.as_bool().map_err(|kind| ScriptError {
                span: script.code_span,
                file: None,
                what: "victory condition".into(),
                message: format!("it gives a {kind}, not true or false"),
                kind: ErrorKind::Script,
            })
        }))
    }

    /// Whether the game's scripts were stopped for good: a game budget ran out, or the safety net
    /// fired. No hook, trigger or victory expression runs after that.
    pub fn stopped_for_good(&self) -> bool {
        self.spent
    }

    /// The engine and what every call shares, borrowed apart from the compiled scripts.
    fn runner(&mut self) -> (Runner<'_>, Parts<'_>) {
        let Scripts {
            engine,
            ctx,
            meter,
            limits,
            used,
            spent,
            scope,
            blocks,
            triggers,
            victory,
            condition_dice,
            check_memo,
            ..
        } = self;
        let runner = Runner { engine, ctx, meter, limits, used, spent, scope };
        (runner, Parts { blocks, triggers, victory, condition_dice, check_memo: *check_memo })
    }
}

/// The compiled scripts, borrowed beside a [`Runner`].
struct Parts<'a> {
    blocks: &'a [(AST, Script, BTreeSet<&'static str>)],
    triggers: &'a mut [CompiledTrigger],
    victory: &'a [(usize, Option<AST>, Script)],
    condition_dice: &'a mut Vec<(String, Vec<u8>)>,
    check_memo: bool,
}

/// What one call of a script did.
struct Call {
    /// Its value, or the error that stopped it, located in the scenario file.
    value: Result<Dynamic, ScriptError>,
    /// What it asked for, in order, up to where it stopped (none when the safety net stopped it).
    effects: Vec<Effect>,
    /// The faces the seed gave it.
    seeded: Vec<u8>,
    /// The parts of the snapshot it read ([`api::part`]).
    reads: u16,
    /// The work it took ([`Meter::work`]).
    work: u64,
}

/// Runs one call after another under the [`Limits`], counting what each takes from the game's
/// budgets.
struct Runner<'a> {
    engine: &'a mut Engine,
    ctx: &'a Mutex<Ctx>,
    meter: &'a Meter,
    limits: &'a Limits,
    used: &'a mut u64,
    spent: &'a mut bool,
    scope: &'a mut Scope<'static>,
}

impl Runner<'_> {
    fn spent(&self) -> bool {
        *self.spent
    }

    /// One call: `firing` is the hook or trigger's name (for its dice), `what` names it in an
    /// error, `run` is the rhai call itself. Only counted work stops it (operations, sizes,
    /// output), so it ends at the same operation on every machine; the safety net's stop is the
    /// one exception, and says so ([`ErrorKind::WallClock`]).
    fn call(
        &mut self,
        firing: &str,
        snapshot: &Arc<Snapshot>,
        dice: &mut VecDeque<u8>,
        script: &Script,
        what: &dyn Fn() -> String,
        run: impl FnOnce(&Engine, &mut Scope<'static>) -> Result<Dynamic, Box<EvalAltResult>>,
    ) -> Call {
        let limits = *self.limits;
        // This call's budget: its own, or what is left of the game's when that is less.
        let (game_bound, left, budget) = self.budget();
        if game_bound && left == 0 {
            *self.spent = true;
            let message = game_operations_message(&limits);
            let error = ScriptError {
                span: hook_span(script, &what()),
                file: None,
                what: what(),
                message,
                kind: ErrorKind::Script,
            };
            return Call { value: Err(error), effects: Vec::new(), seeded: Vec::new(), reads: 0, work: 0 };
        }
        // rhai's own count is the backstop: the sandbox stops the call first, at its place.
        self.engine.set_max_operations(if budget == 0 {
            0
        } else {
            budget.saturating_add(sandbox::GRACE + 1)
        });
        self.meter.budget.store(budget, std::sync::atomic::Ordering::Relaxed);
        let logged = dice.clone();
        begin(self.ctx, firing, snapshot, dice);
        self.meter.begin();
        let result = run(self.engine, self.scope);
        let operations = self.meter.end();
        *self.used = self.used.saturating_add(operations);
        let (mut effects, mut seeded, output, reads) = {
            let mut c = lock(self.ctx);
            *dice = std::mem::take(&mut c.dice.logged);
            let output = c.output.over;
            (std::mem::take(&mut c.effects), std::mem::take(&mut c.dice.filled), output, c.reads)
        };
        let stop = |message: String, kind: ErrorKind, position: Position| {
            let mut span = locate(script, position);
            if span == script.code_span {
                span = hook_span(script, &what());
            }
            ScriptError { span, file: None, what: what(), message, kind }
        };
        let value = match (result, output) {
            (Err(e), _) if stopped_by(&e, sandbox::WALL_CLOCK) => {
                // Where the clock stops a call depends on the machine: nothing it did is kept.
                *self.spent = true;
                effects.clear();
                seeded.clear();
                *dice = logged;
                Err(stop(
                    wall_clock_message(&limits, operations),
                    ErrorKind::WallClock,
                    innermost(&e).position(),
                ))
            }
            (result, Some(over)) => {
                // Stopped at the operation after the message that went past (or it had ended).
                *self.spent |= over.game;
                let position = result.err().map_or(Position::NONE, |e| innermost(&e).position());
                Err(stop(output_message(&limits, over), ErrorKind::Script, position))
            }
            (Err(e), None)
                if matches!(innermost(&e), EvalAltResult::ErrorTooManyOperations(_))
                    || stopped_by(&e, sandbox::OPERATIONS) =>
            {
                let message = if game_bound {
                    *self.spent = true;
                    game_operations_message(&limits)
                } else {
                    format!(
                        "the script did more than {} operations, the most one call may do, and was stopped \
                         there (an endless loop?)",
                        thousands(limits.operations)
                    )
                };
                Err(stop(message, ErrorKind::Script, innermost(&e).position()))
            }
            (Err(e), None) => Err(runtime_error(script, &what(), &e, &limits)),
            (Ok(value), None) => Ok(value),
        };
        Call { value, effects, seeded, reads, work: operations }
    }

    /// Whether a call of `work` would run to its end within its budget (the game's left
    /// included): only counted work stops a call, so such a call is not stopped.
    fn may_skip(&self, work: u64) -> bool {
        may_skip(self.limits, *self.used, work)
    }

    /// Stand in for a call known to end without acting after `work` ([`ConditionMemo`],
    /// [`Runner::may_skip`]): the work is charged to the game and the shared state left as that
    /// call would leave it.
    fn skip(&mut self, firing: &str, snapshot: &Arc<Snapshot>, dice: &mut VecDeque<u8>, work: u64) {
        *self.used = self.used.saturating_add(work);
        begin(self.ctx, firing, snapshot, dice);
        *dice = std::mem::take(&mut lock(self.ctx).dice.logged);
    }

    /// This call's budget of work: its own, or what is left of the game's when that is less; as
    /// (bound by the game's, the game's left, the budget), 0 for none.
    fn budget(&self) -> (bool, u64, u64) {
        budget(self.limits, *self.used)
    }
}

/// A call's budget of work after the game has used `used`: its own, or what is left of the
/// game's when that is less; as (bound by the game's, the game's left, the budget), 0 for none.
fn budget(limits: &Limits, used: u64) -> (bool, u64, u64) {
    let left = limits.game_operations.saturating_sub(used);
    let game_bound = limits.game_operations > 0 && (limits.operations == 0 || left <= limits.operations);
    (game_bound, left, if game_bound { left } else { limits.operations })
}

/// Whether a call known to take `work` may be stood in for after the game has used `used`
/// ([`Runner::may_skip`]).
fn may_skip(limits: &Limits, used: u64, work: u64) -> bool {
    let (game_bound, left, budget) = budget(limits, used);
    !(game_bound && left == 0) && (budget == 0 || work <= budget)
}

/// The reused scope, emptied, with `game` in it (for trigger conditions, bodies and victory
/// expressions, which are evaluated rather than called).
fn game_scope(scope: &mut Scope<'static>) {
    scope.clear();
    scope.push("game", GameHandle);
}

/// Set up one call: the snapshot, the name firing, its dice and its output tally.
fn begin(ctx: &Mutex<Ctx>, firing: &str, snapshot: &Arc<Snapshot>, dice: &mut VecDeque<u8>) {
    let mut c = lock(ctx);
    if !Arc::ptr_eq(&c.snapshot, snapshot) {
        c.snapshot = snapshot.clone();
    }
    c.effects.clear();
    c.reads = 0;
    c.dice.filled.clear();
    if c.firing != firing {
        c.firing.clear();
        c.firing.push_str(firing);
    }
    c.dice.logged = std::mem::take(dice);
    c.output.begin();
}

/// What a script that rhai compiles may still not hold: an anonymous function, or a string
/// literal longer than [`MAX_LITERAL_BYTES`]; where, and why.
fn refused(script: &Script, ast: &AST) -> Option<(Span, String)> {
    if let Some(span) = anonymous_function(script, ast) {
        return Some((span, ANONYMOUS_FUNCTION.to_string()));
    }
    long_literal(script).map(|span| {
        let message = format!(
            "a string written in a script may hold at most {} bytes: a longer one costs nothing to \
             read and so escapes the budget of work: join shorter ones with `+`",
            thousands(MAX_LITERAL_BYTES as u64)
        );
        (span, message)
    })
}

/// The most bytes a string literal of a script may hold. Reading a variable costs its size, a
/// literal nothing: at 1,000 bytes, the costliest call on a literal (`"...".to_upper()` in a
/// loop) takes about 6 ms; at 10,000 it took 60 ms.
pub const MAX_LITERAL_BYTES: usize = 1_000;

/// The place of the first string literal longer than [`MAX_LITERAL_BYTES`], if any (its opening
/// quote).
fn long_literal(script: &Script) -> Option<Span> {
    let code = script.code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        match code[i] {
            b'/' if code.get(i + 1) == Some(&b'/') => {
                while i < code.len() && code[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if code.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < code.len() && !(code[i] == b'*' && code[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
            }
            quote @ (b'"' | b'`' | b'\'') => {
                let start = i;
                i += 1;
                while i < code.len() && code[i] != quote {
                    i += if code[i] == b'\\' { 2 } else { 1 };
                }
                if quote != b'\'' && i.saturating_sub(start + 1) > MAX_LITERAL_BYTES {
                    let at = script.code_span.start + start;
                    return Some(Span::new(at, at + 1));
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    None
}

/// Why a script with an anonymous function does not compile.
const ANONYMOUS_FUNCTION: &str = "anonymous functions and closures (`|x| ...`) are left out of the sandbox: \
     write a named function (`fn name(x) { ... }`) and call it by its name";

/// The place of the first anonymous function (`|x| ...`, `|| ...`) of a compiled script, if it has
/// one. rhai compiles each into a function named `anon$...`; the sandbox leaves them out with
/// function pointers (`Fn`, `call`, `curry` are disabled symbols), so a script can only call
/// functions by name. rhai keeps no position for them: the `|` that opens one is the first `|`
/// (outside strings and comments) where an operand may begin, not after one.
fn anonymous_function(script: &Script, ast: &AST) -> Option<Span> {
    if !ast.iter_functions().any(|f| f.name.starts_with("anon$")) {
        return None;
    }
    let code = script.code.as_bytes();
    let mut i = 0;
    // The last character that is not blank, and the word it ends, if any.
    let (mut last, mut word) = (None::<u8>, String::new());
    while i < code.len() {
        let c = code[i];
        match c {
            b'/' if code.get(i + 1) == Some(&b'/') => {
                while i < code.len() && code[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if code.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < code.len() && !(code[i] == b'*' && code[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
                continue;
            }
            b'"' | b'\'' | b'`' => {
                i += 1;
                while i < code.len() && code[i] != c {
                    i += if code[i] == b'\\' { 2 } else { 1 };
                }
                (last, word) = (Some(c), String::new());
            }
            b'|' => {
                let after_operand = match last {
                    Some(b) if b.is_ascii_alphanumeric() || b == b'_' => {
                        !matches!(word.as_str(), "return" | "in" | "throw" | "else" | "do")
                    }
                    Some(b')' | b']' | b'"' | b'\'' | b'`' | b'}') => true,
                    _ => false,
                };
                if !after_operand {
                    let start = script.code_span.start + i;
                    let width = if code.get(i + 1) == Some(&b'|') { 2 } else { 1 };
                    return Some(Span::new(start, start + width));
                }
                if code.get(i + 1) == Some(&b'|') {
                    i += 1;
                }
                (last, word) = (Some(b'|'), String::new());
            }
            c if c.is_ascii_whitespace() => {}
            c => {
                if c.is_ascii_alphanumeric() || c == b'_' {
                    if !last.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
                        word.clear();
                    }
                    word.push(char::from(c));
                } else {
                    word.clear();
                }
                last = Some(c);
            }
        }
        i += 1;
    }
    Some(script.code_span)
}

/// A script that does not compile: where, and why. A word the sandbox leaves out
/// ([`sandbox::DISABLED_SYMBOLS`]) is named with the reason, at the word, rather than with rhai's
/// parse error (`on_turn_start.call(game)` is "Expecting name of a property" to rhai).
fn compile_error(script: &Script, error: &rhai::ParseError) -> (Span, String) {
    let span = locate(script, error.position());
    let message = error.err_type().to_string();
    if span == script.code_span {
        return (span, message);
    }
    // The word at the place, or the one just before it.
    let code = script.code.as_bytes();
    let word_char = |i: usize| code.get(i).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_');
    let at = span.start - script.code_span.start;
    let mut end = at;
    while word_char(end) {
        end += 1;
    }
    if end == at {
        // Not in a word: the word that ends right before it, if any.
        end = (0..=at).rev().find(|&i| i > 0 && word_char(i - 1)).unwrap_or(at);
        if at.saturating_sub(end) > 1 {
            return (span, message);
        }
    }
    let mut start = end;
    while start > 0 && word_char(start - 1) {
        start -= 1;
    }
    let word = &script.code[start..end];
    let why = match word {
        "Fn" | "call" | "curry" => format!(
            "`{word}` is left out of the sandbox: scripts have no function pointers or closures; call a \
             function by its name (`name(x)`)"
        ),
        "eval" => {
            "`eval` is left out of the sandbox: a script cannot run code made from a string".to_string()
        }
        "import" | "export" => format!(
            "`{word}` is left out of the sandbox: a script cannot load or make modules (the library \
             scripts' functions are in scope without it)"
        ),
        _ => return (span, message),
    };
    let start = script.code_span.start + start;
    (Span::new(start, script.code_span.start + end), why)
}

/// The error inside the calls of script functions that wrap it.
fn innermost(error: &EvalAltResult) -> &EvalAltResult {
    match error {
        EvalAltResult::ErrorInFunctionCall(_, _, inner, _) => innermost(inner),
        other => other,
    }
}

/// Did the sandbox stop the call with this token ([`sandbox::WALL_CLOCK`], [`sandbox::stop`])?
fn stopped_by(error: &EvalAltResult, token: &str) -> bool {
    match innermost(error) {
        EvalAltResult::ErrorTerminated(value, _) => value.to_string() == token,
        EvalAltResult::ErrorRuntime(value, _) => {
            value.read_lock::<ImmutableString>().is_some_and(|v| v.strip_prefix(sandbox::STOP) == Some(token))
        }
        _ => false,
    }
}

/// Where a limit with no place of its own is reported: the hook's name, else the whole script.
fn hook_span(script: &Script, what: &str) -> Span {
    if let Some(hook) = what.strip_prefix("hook ")
        && let Some(at) = script.code.find(&format!("fn {hook}"))
    {
        let start = script.code_span.start + at + 3;
        return Span::new(start, start + hook.len());
    }
    script.code_span
}

fn game_operations_message(limits: &Limits) -> String {
    format!(
        "the game's scripts have done {} operations, the most one game may do: this call was stopped \
         there and no script runs for the rest of the game",
        thousands(limits.game_operations)
    )
}

fn output_message(limits: &Limits, over: sandbox::OutputOver) -> String {
    let (count, unit) = match (over.game, over.lines) {
        (false, true) => (limits.output_lines, "lines"),
        (false, false) => (limits.output_bytes, "bytes"),
        (true, true) => (limits.game_output_lines, "lines"),
        (true, false) => (limits.game_output_bytes, "bytes"),
    };
    let count = thousands(count as u64);
    if over.game {
        format!(
            "the game's scripts wrote more than {count} {unit} to the replay (print, debug, game.log and \
             every action: points, reinforcements, rolls, markers, leaders), the most one game may write: \
             this call was stopped there and no script runs for the rest of the game"
        )
    } else {
        format!(
            "the script wrote more than {count} {unit} to the replay (print, debug, game.log and every \
             action: points, reinforcements, rolls, markers, leaders), the most one call may write, and \
             was stopped there (a loop?)"
        )
    }
}

fn wall_clock_message(limits: &Limits, operations: u64) -> String {
    format!(
        "the script ran for more than {} s by the clock ({} operations) and the safety net stopped it: \
         where the clock stops a script depends on the machine and its load, so this replay is not \
         reproducible and its result cannot be trusted. What the call did is dropped and no script runs \
         for the rest of the game; make the script do less work",
        limits.wall_clock.as_secs_f64(),
        thousands(operations)
    )
}

/// 500000 as `500,000`.
fn thousands(n: u64) -> String {
    dotc_lang::names::thousands(i64::try_from(n).unwrap_or(i64::MAX))
}

/// The message of a size or depth limit a script went past, naming the limit; None for any other
/// error.
fn limit_message(error: &EvalAltResult, limits: &Limits) -> Option<String> {
    let token = |token| stopped_by(error, token);
    let message = match error {
        _ if token(sandbox::STRING_SIZE) => format!(
            "a string would be longer than {} bytes, the most one string may hold, and the script was \
             stopped there",
            thousands(limits.string_size as u64)
        ),
        _ if token(sandbox::ARRAY_SIZE) => format!(
            "an array would hold more than {} items (the items of the arrays and maps inside it \
             counted), the most one array may hold, and the script was stopped there",
            thousands(limits.array_size as u64)
        ),
        _ if token(sandbox::MAP_SIZE) => format!(
            "a map would hold more than {} entries (the entries of the maps inside it counted), the \
             most one map may hold, and the script was stopped there",
            thousands(limits.map_size as u64)
        ),
        _ if token(sandbox::CALL_DEPTH) => format!(
            "the script's functions called each other more than {} deep, the most one call may nest, \
             and it was stopped there (endless recursion?)",
            limits.call_levels
        ),
        EvalAltResult::ErrorDataTooLarge(what, _) if what.starts_with("Length of string") => format!(
            "a string would be longer than {} bytes, the most one string may hold, and the script was \
             stopped there",
            thousands(limits.string_size as u64)
        ),
        EvalAltResult::ErrorDataTooLarge(what, _) if what.starts_with("Size of array") => format!(
            "an array would hold more than {} items (the items of the arrays and maps inside it \
             counted), the most one array may hold, and the script was stopped there",
            thousands(limits.array_size as u64)
        ),
        EvalAltResult::ErrorDataTooLarge(..) => format!(
            "a map would hold more than {} entries (the entries of the maps inside it counted), the \
             most one map may hold, and the script was stopped there",
            thousands(limits.map_size as u64)
        ),
        EvalAltResult::ErrorStackOverflow(_) => format!(
            "the script's functions called each other more than {} deep, the most one call may nest, \
             and it was stopped there (endless recursion?)",
            limits.call_levels
        ),
        _ => return None,
    };
    Some(message)
}

/// A runtime error as a [`ScriptError`], at the place rhai reports in the script.
fn runtime_error(script: &Script, what: &str, error: &EvalAltResult, limits: &Limits) -> ScriptError {
    // A limit is reported where it was reached (issue 15), however deep in the script's own
    // functions: the statement that made the value too large or the call too deep.
    if let Some(message) = limit_message(innermost(error), limits) {
        let mut span = locate(script, innermost(error).position());
        if span == script.code_span {
            span = hook_span(script, what);
        }
        return ScriptError { span, file: None, what: what.to_string(), message, kind: ErrorKind::Script };
    }
    let message = match error {
        EvalAltResult::ErrorRuntime(value, _) => value.to_string(),
        other => {
            // rhai appends ` (line L, position C)` to its messages: the span already says where.
            let text = other.to_string();
            match text.rfind(" (line ") {
                Some(at) if text.ends_with(')') => text[..at].to_string(),
                _ => text,
            }
        }
    };
    let mut span = locate(script, error.position());
    if span == script.code_span {
        // rhai gives no position for some errors: point at the hook that ran.
        span = hook_span(script, what);
    }
    ScriptError { span, file: None, what: what.to_string(), message, kind: ErrorKind::Script }
}

/// The span in the file of a position rhai gives inside a script's code (lines and columns count
/// from 1, columns in characters); the whole code when rhai gives none.
pub fn locate(script: &Script, position: Position) -> Span {
    let (Some(line), Some(column)) = (position.line(), position.position()) else {
        return script.code_span;
    };
    let mut offset = 0;
    for (i, text) in script.code.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let within: usize = text.chars().take(column.saturating_sub(1)).map(char::len_utf8).sum();
            let start = script.code_span.start + offset + within;
            let width = text[within.min(text.len())..]
                .chars()
                .next()
                .filter(|c| *c != '\n')
                .map_or(0, char::len_utf8);
            return Span::new(start, start + width);
        }
        offset += text.len();
    }
    script.code_span
}

/// Compile every script of a scenario, as `dotc check` does: each syntax error at its real line
/// and column (`dotc::script-error`), including the scripts of its own `library` blocks.
pub fn check(scenario: &Scenario) -> Vec<Diagnostic> {
    if scenario.scripts.is_empty()
        && scenario.triggers.is_empty()
        && !scenario.libraries.iter().any(|l| !l.scripts.is_empty())
        && !scenario.victory.iter().any(|v| matches!(v.condition, Condition::Script(_)))
    {
        return Vec::new();
    }
    let scripts = Scripts::compile(scenario, Limits::for_scenario(scenario));
    // The stdlib's own scripts are checked by their tests (and by `check_library` on the file).
    let errors = scripts.errors.iter().filter(|e| e.file.is_none());
    errors.map(|e| catalogue::script_error(e.span, &e.what, &e.message)).collect()
}

/// Compile the `script` blocks of a library file (`dotc check stdlib/scripts.dotc`): each error at
/// its line and column in that file (`dotc::script-error`).
pub fn check_library(document: &Document) -> Vec<Diagnostic> {
    if !document.libraries.iter().any(|l| !l.scripts.is_empty()) {
        return Vec::new();
    }
    let scenario = Scenario { libraries: document.libraries.clone(), ..Scenario::default() };
    check(&scenario)
}

//! The limits a scenario's scripts run under, and how a scenario may lower them.
//!
//! The defaults are the most any script gets: `runtime::script::sandbox::Limits::default` reads
//! them from here, and `script_limits` in a scenario may set any of them lower, never higher
//! (issue 15), so a scenario file from a stranger cannot buy its scripts more work, output or
//! memory than any other, while a designer can hold a scenario's scripts to less. Why each
//! default is what it is: `docs/scripting.md` and the figures beside `Limits` in the runtime.

use crate::ranges::NumberRange;

/// Operations (rhai's steps, with reads charged by size) of one call.
pub const OPERATIONS: u64 = 150_000;
/// Operations of all the calls of one game together.
pub const GAME_OPERATIONS: u64 = 15_000_000;
/// Messages and actions one call may make (each one line of the replay).
pub const OUTPUT_LINES: u64 = 100;
/// Bytes of those lines, for one call.
pub const OUTPUT_BYTES: u64 = 10_000;
/// Lines all the calls of one game may make together.
pub const GAME_OUTPUT_LINES: u64 = 5_000;
/// Bytes all the calls of one game may write together.
pub const GAME_OUTPUT_BYTES: u64 = 500_000;
/// Nested calls of a script's own functions.
pub const CALL_LEVELS: u64 = 32;
/// Nesting of expressions at the top level of a script.
pub const EXPR_DEPTH: u64 = 64;
/// Nesting of expressions inside a function.
pub const FUNCTION_EXPR_DEPTH: u64 = 32;
/// Bytes of one string.
pub const STRING_SIZE: u64 = 10_000;
/// Items of one array (those of arrays and maps inside it counted).
pub const ARRAY_SIZE: u64 = 10_000;
/// Entries of one map (those of maps inside it counted).
pub const MAP_SIZE: u64 = 1_000;

/// One limit a scenario may lower: its name in `script_limits`, its default (the most it may
/// be) and what it counts, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScriptLimit {
    pub name: &'static str,
    pub default: u64,
    pub what: &'static str,
}

/// Every limit `script_limits` may set, in the order `docs/scripting.md` gives them.
pub const LIMITS: &[ScriptLimit] = &[
    ScriptLimit { name: "operations", default: OPERATIONS, what: "the operations of one call" },
    ScriptLimit { name: "game_operations", default: GAME_OPERATIONS, what: "the operations of a whole game" },
    ScriptLimit { name: "output_lines", default: OUTPUT_LINES, what: "the output lines of one call" },
    ScriptLimit { name: "output_bytes", default: OUTPUT_BYTES, what: "the output bytes of one call" },
    ScriptLimit {
        name: "game_output_lines",
        default: GAME_OUTPUT_LINES,
        what: "the output lines of a whole game",
    },
    ScriptLimit {
        name: "game_output_bytes",
        default: GAME_OUTPUT_BYTES,
        what: "the output bytes of a whole game",
    },
    ScriptLimit { name: "call_levels", default: CALL_LEVELS, what: "the nesting of function calls" },
    ScriptLimit { name: "expr_depth", default: EXPR_DEPTH, what: "the nesting of expressions" },
    ScriptLimit {
        name: "function_expr_depth",
        default: FUNCTION_EXPR_DEPTH,
        what: "the nesting of expressions in a function",
    },
    ScriptLimit { name: "string_size", default: STRING_SIZE, what: "the bytes of one string" },
    ScriptLimit { name: "array_size", default: ARRAY_SIZE, what: "the items of one array" },
    ScriptLimit { name: "map_size", default: MAP_SIZE, what: "the entries of one map" },
];

/// The code of a `script_limits` setting that names no limit or is outside 1 to its default.
pub const CODE: &str = "dotc::script-limit";

/// The limit of this name.
pub fn find(name: &str) -> Option<&'static ScriptLimit> {
    LIMITS.iter().find(|l| l.name == name)
}

impl ScriptLimit {
    /// The values a scenario may give it: 1 up to its default. (0 would mean "no limit" to the
    /// sandbox, so it is refused like any value above the default.)
    pub fn range(&'static self) -> NumberRange {
        NumberRange {
            what: self.what,
            min: 1.0,
            above_min: false,
            max: self.default as f64,
            whole: true,
            unit: "",
            example: "script_limits operations 50000",
            code: Some(CODE),
            help: Some("a scenario may lower its scripts' limits, never raise them: the default is the most"),
            rule: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_defaults_positive() {
        for (i, limit) in LIMITS.iter().enumerate() {
            assert!(limit.default > 0, "{}", limit.name);
            assert!(LIMITS[i + 1..].iter().all(|l| l.name != limit.name), "{}", limit.name);
            assert_eq!(find(limit.name), Some(limit));
        }
    }

    #[test]
    fn a_limit_may_be_lowered_to_one_but_not_raised_or_zeroed() {
        let operations = find("operations").map(ScriptLimit::range);
        let read =
            |text: &str| operations.map(|r| r.read(text, crate::Span::default()).map_err(|d| d.message));
        assert_eq!(read("50000"), Some(Ok(50_000.0)));
        assert_eq!(read("1"), Some(Ok(1.0)));
        assert_eq!(read("150000"), Some(Ok(150_000.0)));
        assert_eq!(
            read("150001"),
            Some(Err(
                "the operations of one call must be a whole number from 1 to 150000; 150001 is out of range"
                    .to_string()
            ))
        );
        assert!(matches!(read("0"), Some(Err(m)) if m.ends_with("0 is too small")));
    }
}

//! A what-if replay's completed log: the game log's own text with the rolls a seed filled in
//! written where the players would have written them (`dotc replay --seed N --write-completed`).
//!
//! Every byte of the log is kept (comments, layout, claims); the only change is the dice lists
//! inserted: on the action's line before its claim (or its comment), or, for an assault, on the
//! line of the step the roll belongs to, with a new step line when the log has none. The dice a
//! seed gave a scenario script (a hook or trigger) become a `scripted "NAME" roll [..]` line at
//! the top of the phase whose `scripted` lines that script reads, one line per name and phase,
//! so the completed log replays to the same result with no seed at all.

use dotc_lang::ast::{Action, Arg, Document, Phase};

use super::Filled;
use super::scripted::SCRIPTED_LABEL;
use crate::dice::Purpose;

/// The log text with the filled rolls inserted.
pub fn completed_log(source: &str, document: &Document, filled: &[Filled]) -> String {
    let settled: Vec<_> = document.turns.iter().map(|t| t.phases()).collect();
    let phases: Vec<&Phase> = settled.iter().flat_map(|p| p.iter()).collect();
    let actions: Vec<&Action> = phases.iter().flat_map(|p| p.actions.iter()).collect();
    // (offset, text) insertions, applied from the end so earlier offsets stay true.
    let mut inserts: Vec<(usize, String)> = Vec::new();
    // Scripts' dice: by phase and name, in the order rolled.
    let mut scripted: Vec<(&Phase, &str, Vec<u8>)> = Vec::new();
    for fill in filled {
        for (label, faces) in &fill.rolls {
            let Some(name) = label.strip_prefix(SCRIPTED_LABEL) else { continue };
            let Some(phase) = phases.iter().find(|p| p.span == fill.span) else { continue };
            match scripted.iter_mut().find(|(p, n, _)| p.span == phase.span && *n == name) {
                Some((_, _, all)) => all.extend_from_slice(faces),
                None => scripted.push((phase, name, faces.clone())),
            }
        }
    }
    for (phase, name, faces) in &scripted {
        if let Some((at, indent)) = phase_top(source, phase) {
            let quoted = name.replace('\\', "\\\\").replace('"', "\\\"");
            inserts.push((at, format!("{indent}scripted \"{quoted}\" roll [{}]\n", join(faces))));
        }
    }
    for fill in filled {
        if fill.rolls.iter().all(|(label, _)| label.starts_with(SCRIPTED_LABEL)) {
            continue;
        }
        let Some(action) = actions.iter().find(|a| a.span == fill.span) else { continue };
        // An assault's rolls go on its steps even when its block is still empty.
        let stepped = !action.steps.is_empty() || has_block(source, action);
        // Steps this fill adds, in order, with their lists: one line each.
        let mut new_steps: Vec<(&str, Vec<String>)> = Vec::new();
        // Lists written on each step so far (the log's and this fill's), by step name.
        let mut on_step: Vec<(&str, usize)> = Vec::new();
        for (label, faces) in &fill.rolls {
            if !stepped {
                let own =
                    own_purpose(&action.verb.value).is_some_and(|p| Purpose::from_label(label) == Some(p));
                let list = format!("{} [{}]", if own { "roll" } else { written_label(label) }, join(faces));
                inserts.push((insertion_point(source, action.verb.span.start), format!(" {list}")));
                continue;
            }
            let name = step_name(label);
            let step = step_for(action, label);
            let written = match on_step.iter_mut().find(|(n, _)| *n == name) {
                Some((_, count)) => count,
                None => {
                    let already =
                        step.map_or(0, |s| s.args.iter().filter(|a| matches!(a, Arg::Roll(_))).count());
                    on_step.push((name, already));
                    &mut on_step.last_mut().expect("just pushed").1
                }
            };
            let list = format!("{} [{}]", step_label(name, label, *written), join(faces));
            *written += 1;
            if let Some(step) = step {
                inserts.push((insertion_point(source, step.verb.span.start), format!(" {list}")));
            } else {
                match new_steps.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, lists)) => lists.push(list),
                    None => new_steps.push((name, vec![list])),
                }
            }
        }
        // One insertion for all the new steps, so they stay in the order they were rolled.
        if let Some((at, indent)) = new_step_point(source, action).filter(|_| !new_steps.is_empty()) {
            let lines: String = new_steps
                .iter()
                .map(|(name, lists)| format!("{indent}{name} {}\n", lists.join(" ")))
                .collect();
            inserts.push((at, lines));
        }
    }
    // Applied from the end of the text; two at one offset (a move's Discipline test and a
    // passed-through friend's, both on the move's line) go in the order they were rolled, so
    // the later is inserted first and the earlier lands before it.
    let mut inserts: Vec<(usize, usize, String)> =
        inserts.into_iter().enumerate().map(|(order, (at, text))| (at, order, text)).collect();
    inserts.sort_by_key(|&(at, order, _)| std::cmp::Reverse((at, order)));
    let mut out = source.to_string();
    for (at, _, text) in inserts {
        if out.is_char_boundary(at) {
            out.insert_str(at, &text);
        }
    }
    out
}

/// The log with every die and every claimed result taken out, its orders, comments and layout
/// kept: what a `--reroll` replay plays again with each die rolled afresh from its seed (the same
/// orders, other dice; issue 19's balance playtests). Each dice list and claim goes with the
/// spaces before it, so a line keeps its comment; a `scripted "NAME" roll [..]` line, which is
/// only a script's dice, goes whole. Lines stay where they were, so a finding's line number is
/// the log's own.
pub fn without_dice(source: &str, document: &Document) -> String {
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    for turn in &document.turns {
        for phase in turn.phases().iter() {
            for action in &phase.actions {
                if action.verb.value == super::scripted::SCRIPTED_VERB {
                    cuts.push(whole_lines(source, action.span.start, action.span.end));
                } else {
                    dice_and_claims(source, action, &mut cuts);
                }
            }
        }
    }
    cuts.sort_unstable();
    let mut out = String::with_capacity(source.len());
    let mut at = 0;
    for (start, end) in cuts {
        if start < at || !source.is_char_boundary(start) || !source.is_char_boundary(end) {
            continue;
        }
        out.push_str(&source[at..start]);
        at = end;
    }
    out.push_str(&source[at..]);
    out
}

/// The byte ranges of an action's (and its steps') dice lists and claim, each with the blanks
/// before it.
fn dice_and_claims(source: &str, action: &Action, cuts: &mut Vec<(usize, usize)>) {
    let with_blanks = |start: usize, end: usize| {
        let blanks =
            source.get(..start).map_or(0, |before| before.len() - before.trim_end_matches([' ', '\t']).len());
        (start - blanks, end)
    };
    for arg in &action.args {
        if let Arg::Roll(roll) = arg {
            cuts.push(with_blanks(roll.span.start, roll.span.end));
        }
    }
    if let Some(claim) = &action.claim {
        cuts.push(with_blanks(claim.span.start, claim.span.end));
    }
    for step in &action.steps {
        dice_and_claims(source, step, cuts);
    }
}

/// From the start of the line `start` is on to the end of the line `end` is on, its newline too.
fn whole_lines(source: &str, start: usize, end: usize) -> (usize, usize) {
    let first = source.get(..start).and_then(|s| s.rfind('\n')).map_or(0, |i| i + 1);
    let last = source.get(end..).and_then(|s| s.find('\n')).map_or(source.len(), |i| end + i + 1);
    (first, last)
}

fn join(faces: &[u8]) -> String {
    faces.iter().map(u8::to_string).collect::<Vec<_>>().join(", ")
}

/// The label a player writes before a list: `roll` for shooting dice, `saves` for cover saves,
/// otherwise the purpose's own label (`discipline`, `staff_pips`, ...), which reads back the same.
fn written_label(label: &str) -> &str {
    match Purpose::from_label(label) {
        Some(Purpose::ToHit) => "roll",
        Some(Purpose::Save) => "saves",
        _ => label,
    }
}

/// The roll a verb makes itself, which the log writes as `roll [..]` (`pips "A" roll [5]`,
/// `rally "B" roll [4]`): the replay reads an unlabelled list as that roll.
fn own_purpose(verb: &str) -> Option<Purpose> {
    match verb {
        "pips" => Some(Purpose::StaffPips),
        "rally" => Some(Purpose::Rally),
        "leader" => Some(Purpose::LeaderCasualty),
        "friction" => Some(Purpose::Friction),
        "fog" => Some(Purpose::Weather),
        _ => None,
    }
}

/// The label of a list written on an assault step: `roll` for the step's own first roll
/// (`melee roll [4]`, `discipline roll [5]`), `vs` for the defender's melee die after it (Ch16
/// 7.3: `melee roll [4] vs [3]`), else as [`written_label`].
fn step_label<'l>(step: &str, label: &'l str, written: usize) -> &'l str {
    match Purpose::from_label(label) {
        Some(Purpose::Melee) if written == 0 => "roll",
        Some(Purpose::Melee) => "vs",
        Some(Purpose::Discipline) if step == "discipline" && written == 0 => "roll",
        _ => written_label(label),
    }
}

/// The action has a braced block of steps (an assault), even an empty one.
fn has_block(source: &str, action: &Action) -> bool {
    source.get(action.span.start..action.span.end).is_some_and(|t| t.trim_end().ends_with('}'))
}

/// The assault step a roll of this purpose belongs to.
fn step_name(label: &str) -> &'static str {
    match Purpose::from_label(label) {
        Some(Purpose::Discipline) => "discipline",
        Some(Purpose::Melee) => "melee",
        _ => "closing_volley",
    }
}

fn step_for<'a>(action: &'a Action, label: &str) -> Option<&'a Action> {
    let name = step_name(label);
    action.steps.iter().find(|s| {
        s.verb.value == name
            || (name == "discipline" && s.verb.value == "rebel_yell" && label == "discipline")
    })
}

/// Where on the line starting at `start` a dice list goes: before the claim `=>`, a `{`, or a
/// `//` comment, whichever comes first outside a quoted name; else at the line's end. Trailing
/// spaces before that point are stepped over, so the list follows the last argument.
fn insertion_point(source: &str, start: usize) -> usize {
    let Some(rest) = source.get(start..) else { return source.len() };
    let bytes = rest.as_bytes();
    let mut in_string = false;
    let mut i = 0;
    let mut end = rest.find('\n').unwrap_or(rest.len());
    while i < end {
        match bytes[i] {
            b'\\' if in_string => i += 1,
            b'"' => in_string = !in_string,
            b'=' if !in_string && bytes.get(i + 1) == Some(&b'>') => end = i,
            b'{' if !in_string => end = i,
            b'/' if !in_string && bytes.get(i + 1) == Some(&b'/') => end = i,
            _ => {}
        }
        i += 1;
    }
    let trimmed = rest[..end].trim_end().len();
    start + trimmed
}

/// The start of the line after a phase's `{`, and the indent of its lines (its first action's, or
/// the phase's own plus four spaces). None for a phase written on one line (`fire { }`).
fn phase_top(source: &str, phase: &Phase) -> Option<(usize, String)> {
    let text = source.get(phase.span.start..phase.span.end)?;
    let open = text.find('{')?;
    let newline = text[open..].find('\n')? + open;
    let at = phase.span.start + newline + 1;
    let indent_of = |offset: usize| -> String {
        let line_start = source[..offset].rfind('\n').map_or(0, |i| i + 1);
        source[line_start..].chars().take_while(|c| *c == ' ' || *c == '\t').collect()
    };
    let indent = match phase.actions.first() {
        Some(action) => indent_of(action.span.start),
        None => format!("{}    ", indent_of(phase.span.start)),
    };
    Some((at, indent))
}

/// Where a new step line goes in an assault's braces (before the closing `}`), and its indent.
fn new_step_point(source: &str, action: &Action) -> Option<(usize, String)> {
    let text = source.get(action.span.start..action.span.end)?;
    let close = text.rfind('}')?;
    let line_start = text[..close].rfind('\n').map_or(0, |i| i + 1);
    // Only whitespace between the line start and the brace: insert a whole line before it.
    let before = &text[line_start..close];
    let outer: String = before.chars().take_while(|c| c.is_whitespace()).collect();
    if before.trim().is_empty() {
        Some((action.span.start + line_start, format!("{outer}    ")))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_goes_before_the_claim_and_the_comment() {
        let src = "    fire \"A\" at \"B\" roll [3, 4] => hits 1 // ok\n";
        assert_eq!(&src[..insertion_point(src, 4)], "    fire \"A\" at \"B\" roll [3, 4]");
        let src = "    rally \"A\"   // by pips\n";
        assert_eq!(&src[..insertion_point(src, 4)], "    rally \"A\"");
        let src = "    rally \"=> not a claim\"\n";
        assert_eq!(&src[..insertion_point(src, 4)], "    rally \"=> not a claim\"");
    }

    #[test]
    fn a_scripts_seeded_dice_become_a_scripted_line_at_the_top_of_its_phase() {
        let source = "game \"G\" {\n    scenario \"s.dotc\"\n}\n\nturn 2 confederate {\n    fire {\n        note \"x\"\n    }\n}\n";
        let document = dotc_lang::parse(source).document;
        let phases = document.turns[0].phases();
        let phase = &phases[0];
        let fill = |faces: Vec<u8>| Filled {
            span: phase.span,
            rolls: vec![(format!("{SCRIPTED_LABEL}The \"colonel\""), faces)],
        };
        let out = completed_log(source, &document, &[fill(vec![6]), fill(vec![5])]);
        assert!(
            out.contains(
                "    fire {\n        scripted \"The \\\"colonel\\\"\" roll [6, 5]\n        note \"x\"\n"
            ),
            "{out}"
        );
        // It reads back as one `scripted` action of that phase, with both dice.
        let again = dotc_lang::parse(&out);
        assert!(again.diagnostics.is_empty(), "{:?}", again.diagnostics);
        let action = &again.document.turns[0].phases()[0].actions[0];
        assert_eq!(action.verb.value, "scripted");
    }

    #[test]
    fn without_dice_keeps_the_orders_and_comments_and_drops_every_die_and_claim() {
        let source = "game \"G\" {\n    scenario \"s.dotc\"\n}\n\nturn 1 union {\n    command {\n        scripted \"Reynolds falls\" roll [4]\n        pips \"Brig\" roll [5] => 3\n    }\n    maneuver {\n        // The charge.\n        assault \"A\" -> \"B\" pip \"Brig\" {\n            closing_volley roll [5, 2]\t=> hits 1 // one hit\n            melee roll [6] vs [2] => attacker wins\n        }\n        move \"C\" to (3, 4) facing east discipline [4, 5]\n    }\n    fire {\n        fire \"A\" at \"B\" roll [3, 4] saves [5] => hits 1, lost 1 // \"=> kept\" [1]\n    }\n}\n";
        let document = dotc_lang::parse(source).document;
        let out = without_dice(source, &document);
        let expected = "game \"G\" {\n    scenario \"s.dotc\"\n}\n\nturn 1 union {\n    command {\n        pips \"Brig\"\n    }\n    maneuver {\n        // The charge.\n        assault \"A\" -> \"B\" pip \"Brig\" {\n            closing_volley // one hit\n            melee\n        }\n        move \"C\" to (3, 4) facing east\n    }\n    fire {\n        fire \"A\" at \"B\" // \"=> kept\" [1]\n    }\n}\n";
        assert_eq!(out, expected);
        // It reads back with the same actions and steps, none with dice or a claim.
        let again = dotc_lang::parse(&out);
        assert!(again.diagnostics.is_empty(), "{:?}", again.diagnostics);
        let actions: Vec<Action> =
            again.document.turns[0].phases().iter().flat_map(|p| p.actions.clone()).collect();
        let verbs: Vec<&str> = actions.iter().map(|a| a.verb.value.as_str()).collect();
        assert_eq!(verbs, ["pips", "assault", "move", "fire"]);
        assert_eq!(actions[1].steps.len(), 2);
        let bare = |a: &Action| a.claim.is_none() && !a.args.iter().any(|arg| matches!(arg, Arg::Roll(_)));
        assert!(actions.iter().chain(&actions[1].steps).all(bare));
    }

    #[test]
    fn two_lists_on_one_line_are_written_in_the_order_they_were_rolled() {
        // A move through a friend: the mover's Discipline test (6) is rolled before the friend's
        // (1). Read back in the order written, the mover passes and the friend fails; the other
        // way round the two results change places.
        let source = "game \"G\" {\n    scenario \"s.dotc\"\n}\n\nturn 1 union {\n    maneuver {\n        move \"A\" to (1, 2) // through B\n    }\n}\n";
        let document = dotc_lang::parse(source).document;
        let action = document.turns[0].phases()[0].actions[0].clone();
        let fill = Filled {
            span: action.span,
            rolls: vec![("discipline".to_string(), vec![6]), ("discipline".to_string(), vec![1])],
        };
        let out = completed_log(source, &document, &[fill]);
        assert!(
            out.contains("        move \"A\" to (1, 2) discipline [6] discipline [1] // through B\n"),
            "{out}"
        );
    }

    #[test]
    fn labels_read_back_as_the_purposes_they_were_filled_for() {
        assert_eq!(written_label("to_hit"), "roll");
        assert_eq!(written_label("save"), "saves");
        assert_eq!(written_label("rally"), "rally");
        assert_eq!(Purpose::from_label(written_label("rally")), Some(Purpose::Rally));
    }
}

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
    inserts.sort_by_key(|insert| std::cmp::Reverse(insert.0));
    let mut out = source.to_string();
    for (at, text) in inserts {
        if out.is_char_boundary(at) {
            out.insert_str(at, &text);
        }
    }
    out
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
    fn labels_read_back_as_the_purposes_they_were_filled_for() {
        assert_eq!(written_label("to_hit"), "roll");
        assert_eq!(written_label("save"), "saves");
        assert_eq!(written_label("rally"), "rally");
        assert_eq!(Purpose::from_label(written_label("rally")), Some(Purpose::Rally));
    }
}

//! Written orders (module `written_orders`, Ch13 8.0, dotc D17): in its own Phase 1 a side writes
//! an order token for every regiment and battery it has on the table, and in Phase 2 each unit
//! carries out its token and nothing else.
//!
//! `token "Unit" move | hold | formation | assault -> "Target"` writes one. What each allows and
//! asks in the maneuver phase of that turn:
//!
//! - `move`: an advance at the standard rate or a standard wheel (`move`, `wheel`, `about_face`):
//!   no double time, no change of formation, no assault; it must move;
//! - `hold`: no move and no pivot of any kind, no assault (it fires as usual in Phase 3);
//! - `formation`: the phase goes to a change of formation (`formation`; for a battery `limber` or
//!   `unlimber`; for cavalry `dismount` or `remount`): no other move before it, no assault; it
//!   must change;
//! - `assault`: it charges the target written on the token and no other, and makes no other move;
//!   the token's pip is the assault's own, paid on its `assault` line. If the target has left the
//!   table before the charge, the regiment must still `move` toward where it stood.
//!
//! A unit that breaks its token is an error at the action that breaks it (and only there); a
//! token not carried out (a `move` that did not move, a `formation` that did not change, an
//! `assault` that did not go in) or a unit with no token is an error at the turn, when the turn
//! ends. Moves the rules
//! impose (a retreat, a fall back after a failed check) and reactions in the enemy's turn are no
//! part of any token.

use std::collections::BTreeMap;

use super::command::word_arg;
use super::*;

/// The module of Ch13 8.0.
pub(super) const MODULE: &str = Module::WrittenOrders.name();

const RULE: &str = "Ch13 8.0";

/// The four tokens of Ch13 8.0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TokenKind {
    Move,
    Hold,
    Formation,
    Assault,
}

impl TokenKind {
    fn from_word(word: &str) -> Option<TokenKind> {
        Some(match word {
            "move" => TokenKind::Move,
            "hold" => TokenKind::Hold,
            "formation" => TokenKind::Formation,
            "assault" => TokenKind::Assault,
            _ => return None,
        })
    }

    fn word(self) -> &'static str {
        match self {
            TokenKind::Move => "move",
            TokenKind::Hold => "hold",
            TokenKind::Formation => "formation",
            TokenKind::Assault => "assault",
        }
    }
}

/// A unit's token for the turn, and whether it has been carried out.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Token {
    pub kind: TokenKind,
    /// The target of an assault token, and where it stood when the token was written.
    pub target: Option<(UnitId, (f64, f64))>,
    /// The token's order was carried out (it moved, changed formation, charged).
    pub done: bool,
}

/// The tokens written this turn, by unit.
pub(super) type Tokens = BTreeMap<UnitId, Token>;

impl Game {
    /// Ch13 8.0: `token "Unit" KIND [-> "Target"]` in the active side's Phase 1.
    pub(super) fn token(&mut self, r: &mut Replayer<'_>, action: &Action) {
        if !self.rules.module(MODULE) {
            let message = "the Written Orders module (Ch13 8.0) is not in force in this game: units act without order tokens";
            return r.here(Level::Error, message, RULE);
        }
        let Some(id) = self.unit(r, unit_arg(action)) else { return };
        let Some(u) = self.state.unit(id) else { return };
        let name = u.name.clone();
        if self.state.sides.get(u.side.0).is_none_or(|s| *s.name != *r.side) {
            let message =
                format!("{name} is not of the active side: a side writes its tokens in its own Phase 1");
            return r.here(Level::Error, message, RULE);
        }
        if !u.on_table || u.removed {
            return r.here(Level::Error, format!("{name} is not on the table: it gets no token"), RULE);
        }
        let Some(kind) = word_arg(action).and_then(|w| TokenKind::from_word(&w.value)) else {
            let message = format!(
                "{name}'s token says no order: write `move`, `hold`, `formation` or `assault -> \"Target\"`"
            );
            return r.here(Level::Error, message, RULE);
        };
        let target = match (kind, target_arg(action)) {
            (TokenKind::Assault, None) => {
                let message = format!("{name}'s assault token names no target: write `-> \"Target\"`");
                return r.here(Level::Error, message, RULE);
            }
            (TokenKind::Assault, Some(t)) => {
                let Some(tid) = self.unit(r, Some(t)) else { return };
                let at = self.bodies.get(&tid).map(|b| b.position);
                let Some(at) = at.filter(|_| self.state.unit(tid).is_some_and(|t| t.on_table && !t.removed))
                else {
                    let message =
                        format!("{} is not on the table: {name} cannot be ordered to charge it", t.value);
                    return r.here(Level::Error, message, RULE);
                };
                Some((tid, at))
            }
            (_, Some(_)) => {
                let message = format!("only an assault token names a target: {name}'s is `{}`", kind.word());
                return r.here(Level::Error, message, RULE);
            }
            (_, None) => None,
        };
        let tokens = &mut self.book.turn(r.turn).tokens;
        if tokens.contains_key(&id) {
            return r.here(Level::Error, format!("{name} already has a token this turn"), RULE);
        }
        tokens.insert(id, Token { kind, target, done: false });
        let text = format!("{name} is given a face-down {} token", kind.word());
        r.emit([Event::new(What::Note { text }, RULE)]);
    }

    /// Ch13 8.0: what the unit's token allows of an action of the active side's Phase 2, said at
    /// the action before it is played (and played all the same, so one mistake is said once).
    pub(super) fn written_limits(&mut self, r: &mut Replayer<'_>, action: &Action) {
        if r.phase != PhaseKind::Maneuver || !self.rules.module(MODULE) {
            return;
        }
        let Some(verb) = Verb::from_word(&action.verb.value) else { return };
        let (Verb::Maneuver(_) | Verb::Assault(AssaultVerb::Assault)) = verb else { return };
        let Some(id) = unit_arg(action).and_then(|n| self.state.unit_named(&n.value)) else { return };
        let Some(u) = self.state.unit(id) else { return };
        if self.state.sides.get(u.side.0).is_none_or(|s| *s.name != *r.side) {
            return; // a reaction in the enemy's turn
        }
        let name = u.name.clone();
        let is_battery = u.is_battery();
        let is_cavalry = matches!(u.arm, Arm::Cavalry { .. });
        let target = target_arg(action).and_then(|t| self.state.unit_named(&t.value));
        let Some(token) = self.book.turn(r.turn).tokens.get_mut(&id) else {
            // Units with no token are said at the turn's end; one entering this turn has none.
            return;
        };
        let word = token.kind.word();
        let broken = match (token.kind, verb) {
            // Moves the rules impose are no part of a token.
            // Nor is the horse holders' move: they are not the regiment's line (Ch16 10.2).
            (
                _,
                Verb::Maneuver(
                    ManeuverVerb::Retreat
                    | ManeuverVerb::FallBack
                    | ManeuverVerb::Hold
                    | ManeuverVerb::LeadHorses,
                ),
            ) => None,
            (
                TokenKind::Move,
                Verb::Maneuver(ManeuverVerb::Move | ManeuverVerb::Wheel | ManeuverVerb::AboutFace),
            ) => {
                token.done = true;
                None
            }
            (TokenKind::Move, Verb::Maneuver(ManeuverVerb::DoubleTime)) => {
                Some("a move token is an advance at the standard rate: no double time".to_string())
            }
            (TokenKind::Formation, Verb::Maneuver(ManeuverVerb::Formation)) if !is_battery => {
                token.done = true;
                None
            }
            (TokenKind::Formation, Verb::Maneuver(ManeuverVerb::Limber | ManeuverVerb::Unlimber))
                if is_battery =>
            {
                token.done = true;
                None
            }
            (TokenKind::Formation, Verb::Maneuver(ManeuverVerb::Dismount | ManeuverVerb::Remount))
                if is_cavalry =>
            {
                token.done = true;
                None
            }
            (TokenKind::Assault, Verb::Assault(_)) => {
                let ordered = token.target.map(|(t, _)| t);
                if target.is_some() && target == ordered {
                    token.done = true;
                    None
                } else {
                    let ordered =
                        ordered.and_then(|t| self.state.unit(t)).map(|t| t.name.clone()).unwrap_or_default();
                    Some(format!("its assault token names {ordered}: it may charge no other"))
                }
            }
            (TokenKind::Assault, Verb::Maneuver(ManeuverVerb::Move)) => {
                // Ch13 8.0: a target gone before the charge: the regiment still charges toward
                // where it stood.
                let gone = token
                    .target
                    .filter(|(t, _)| self.state.unit(*t).is_none_or(|t| t.removed || !t.on_table))
                    .map(|(_, at)| at);
                let start = self.bodies.get(&id).map(|b| b.position);
                let to = super::maneuver::to_arg(action);
                match (gone, start, to) {
                    (Some(at), Some(from), Some(to)) if closer(to, from, at) => {
                        token.done = true;
                        None
                    }
                    (Some(_), _, _) => Some(
                        "its target has gone: it must still charge straight toward where it stood"
                            .to_string(),
                    ),
                    _ => Some("an assault token is carried out by charging its target".to_string()),
                }
            }
            (_, Verb::Assault(_)) => Some(format!("its token is `{word}`: only an assault token charges")),
            (TokenKind::Hold, _) => Some("a hold token allows no move or pivot".to_string()),
            (TokenKind::Formation, _) => {
                Some("a formation token gives the phase to a change of formation".to_string())
            }
            (TokenKind::Move, _) => {
                Some("a move token allows an advance or a wheel, nothing else".to_string())
            }
            (TokenKind::Assault, _) => Some("an assault token allows only the charge".to_string()),
        };
        if let Some(why) = broken {
            // One mistake is said once: a token broken at an action is not said again, as not
            // carried out, at the turn's end.
            token.done = true;
            r.here(Level::Error, format!("{name} breaks its written order: {why}"), RULE);
        }
    }

    /// Ch13 8.0: at the end of a turn with the module on, each unit of the active side on the
    /// table with no token, and each token not carried out, is an error at the turn.
    pub(super) fn written_orders_due(&mut self, r: &mut Replayer<'_>) {
        if !self.rules.module(MODULE) {
            return;
        }
        let tokens = self.book.peek(r.turn).map(|t| t.tokens.clone()).unwrap_or_default();
        let mut said = Vec::new();
        for (i, u) in self.state.units.iter().enumerate() {
            let id = UnitId(i);
            let own = self.state.sides.get(u.side.0).is_some_and(|s| *s.name == *r.side);
            if !own {
                continue;
            }
            match tokens.get(&id) {
                None => {
                    // A unit that entered this turn, or left the table, had no token to carry.
                    if u.on_table && !u.removed && self.placed_at_start(id) {
                        said.push(format!(
                            "{} has no order token this turn: write `token \"{}\" ...` in Phase 1",
                            u.name, u.name
                        ));
                    }
                }
                Some(token) if !token.done && u.on_table && !u.removed => {
                    let what = match token.kind {
                        TokenKind::Move => "its move token was not carried out: it must advance or wheel",
                        TokenKind::Formation => {
                            "its formation token was not carried out: it must change formation"
                        }
                        TokenKind::Assault => {
                            "its assault token was not carried out: it must charge its target"
                        }
                        TokenKind::Hold => continue,
                    };
                    said.push(format!("{}: {what}", u.name));
                }
                Some(_) => {}
            }
        }
        for message in said {
            r.here(Level::Error, message, RULE);
        }
    }

    /// Ch13 8.0: whether the unit's assault token names a target that has left the table, so that
    /// its `move` is the charge toward where the target stood (judged at the charge distance).
    pub(super) fn charge_at_nothing(&self, turn: u32, id: UnitId) -> bool {
        self.rules.module(MODULE)
            && self
                .book
                .peek(turn)
                .and_then(|t| t.tokens.get(&id))
                .and_then(|t| if t.kind == TokenKind::Assault { t.target } else { None })
                .is_some_and(|(t, _)| self.state.unit(t).is_none_or(|t| t.removed || !t.on_table))
    }

    /// Whether the unit stood on the table when the turn began (a reinforcement that comes on
    /// this turn did not, and writes no token for it).
    fn placed_at_start(&self, id: UnitId) -> bool {
        self.ledger.last_turn.as_ref().is_none_or(|(bodies, _)| bodies.contains_key(&id))
    }
}

/// Whether `to` is nearer `at` than `from` is: a move from `from` to `to` closes on `at`.
fn closer(to: (f64, f64), from: (f64, f64), at: (f64, f64)) -> bool {
    let d = |a: (f64, f64)| (a.0 - at.0).hypot(a.1 - at.1);
    d(to) < d(from)
}

#[cfg(test)]
mod tests {
    use super::super::maneuver::tests::{errors_at, play};
    use super::*;

    fn scenario() -> String {
        include_str!("../../../tests/rules/modules/written_orders.dotc").replace(
            "    table 80 x 50\n",
            "    table 80 x 50\n    rules {\n        module written_orders\n    }\n",
        )
    }

    const PIPS: &str = "        pips \"Col. Ames\" roll [5]\n        pips \"Col. Baker\" roll [5]\n        pips \"Col. Bragg\" roll [1]\n";

    /// The error findings at the turn that starts with `turn`, citing Ch13 8.0.
    fn at_turn(replay: &Replay, game: &str, turn: &str) -> Vec<String> {
        let at = game.find(turn).expect("the log has the turn");
        replay
            .findings
            .iter()
            .filter(|f| f.span.start == at && f.level == Level::Error && f.rule == RULE)
            .map(|f| f.message.clone())
            .collect()
    }

    /// Ch13 8.0: every unit of the active side gets a token in its own Phase 1; one without is an
    /// error at the turn's end, as is a token not carried out. The other side writes none in the
    /// enemy's turn.
    #[test]
    fn ch13_8_0_a_unit_without_a_token_and_a_token_not_carried_out_are_errors_at_the_turn() {
        let log = format!(
            "turn 1 union {{\n    command {{\n{PIPS}        token \"R1\" move\n        token \"R2\" formation\n        token \"R3\" hold\n    }}\n}}\nturn 2 confederate {{\n    command {{\n{PIPS}        token \"C1\" hold\n        token \"C2\" hold\n        token \"R4\" hold\n    }}\n}}\n"
        );
        let (replay, game) = play(&scenario(), &log);
        let mut first = at_turn(&replay, &game, "turn 1 union");
        first.sort();
        assert_eq!(
            first,
            [
                "R1: its move token was not carried out: it must advance or wheel",
                "R2: its formation token was not carried out: it must change formation",
                "R4 has no order token this turn: write `token \"R4\" ...` in Phase 1",
            ],
            "{:#?}",
            replay.findings
        );
        // Every confederate unit has its token; the union one written in their turn is refused.
        assert!(at_turn(&replay, &game, "turn 2 confederate").is_empty(), "{:#?}", replay.findings);
        let refused = errors_at(&replay, &game, "token \"R4\" hold");
        assert!(refused.iter().any(|f| f.message.contains("not of the active side")), "{refused:#?}");
    }

    /// Ch13 8.0: an assault token charges its own target and no other; a token that names no
    /// target, or a target on another token, is refused where it is written.
    #[test]
    fn ch13_8_0_an_assault_token_charges_its_target_only() {
        let log = format!(
            "turn 1 union {{\n    command {{\n{PIPS}        token \"R1\" hold\n        token \"R2\" assault\n        token \"R3\" move -> \"C1\"\n        token \"R4\" assault -> \"C2\"\n        token \"R4\" hold\n    }}\n    maneuver {{\n        assault \"R4\" -> \"C1\" pip \"Col. Baker\" {{\n            closing_volley roll [1, 2, 3, 1, 2] => hits 0\n            melee roll [4] vs [2] => attacker wins\n        }}\n    }}\n}}\n"
        );
        let (replay, game) = play(&scenario(), &log);
        let untargeted = errors_at(&replay, &game, "token \"R2\" assault");
        assert!(untargeted.iter().any(|f| f.message.contains("names no target")), "{untargeted:#?}");
        let targeted = errors_at(&replay, &game, "token \"R3\" move");
        assert!(targeted.iter().any(|f| f.message.contains("only an assault token names a target")));
        let twice = errors_at(&replay, &game, "token \"R4\" hold");
        assert!(twice.iter().any(|f| f.message.contains("already has a token")), "{twice:#?}");
        let other = errors_at(&replay, &game, "assault \"R4\" -> \"C1\"");
        assert!(
            other.iter().any(|f| f.message
                == "R4 breaks its written order: its assault token names C2: it may charge no other"
                && f.rule == RULE),
            "{other:#?}"
        );
        // Broken at the action, it is not said again at the turn's end; R2 and R3 have no token.
        let mut end = at_turn(&replay, &game, "turn 1 union");
        end.sort();
        assert_eq!(
            end,
            [
                "R2 has no order token this turn: write `token \"R2\" ...` in Phase 1",
                "R3 has no order token this turn: write `token \"R3\" ...` in Phase 1",
            ]
        );
    }

    /// Ch13 8.0: an assault token whose target has left the table before the charge is carried
    /// out by a charge toward where the target stood, judged at the charge distance; a move the
    /// other way breaks it.
    #[test]
    fn ch13_8_0_a_vanished_target_is_still_charged_toward() {
        // C1, 2 stands, stands before R3; beaten, it loses a stand and shatters (RULE-05-3.4).
        let scenario = scenario().replace(
            "regiment \"C1\" { stands 5 regular rifled_musket line at (58, 16)",
            "regiment \"C1\" { stands 2 regular rifled_musket line at (42, 16)",
        );
        let charge = |to: &str| {
            format!(
                "turn 1 union {{\n    command {{\n{PIPS}        token \"R1\" hold\n        token \"R2\" hold\n        token \"R3\" assault -> \"C1\"\n        token \"R4\" assault -> \"C1\"\n    }}\n    maneuver {{\n        assault \"R3\" -> \"C1\" pip \"Col. Baker\" {{\n            closing_volley roll [1, 2] => hits 0\n            melee roll [6] vs [1] => attacker wins\n        }}\n        move \"R4\" to {to} facing north\n    }}\n}}\n"
            )
        };
        // Toward (42, 16) from (58, 10), 8" of a line's 9" charge (a 6" advance would be short).
        let (replay, game) = play(&scenario, &charge("(50.5, 13)"));
        assert!(
            replay.events.iter().any(|e| matches!(&e.event.what, What::Removed { unit, .. } if unit == "C1"))
        );
        let toward = errors_at(&replay, &game, "move \"R4\"");
        assert!(toward.is_empty(), "{toward:#?}");
        assert!(at_turn(&replay, &game, "turn 1 union").is_empty(), "{:#?}", replay.findings);
        // Away from it: the token is broken.
        let (replay, game) = play(&scenario, &charge("(62, 14)"));
        let away = errors_at(&replay, &game, "move \"R4\"");
        assert!(
            away.iter().any(|f| f.message.contains("straight toward where it stood") && f.rule == RULE),
            "{away:#?}"
        );
    }

    /// Ch13 8.0: without the module nobody writes tokens.
    #[test]
    fn ch13_8_0_tokens_need_the_module() {
        let log = format!("turn 1 union {{\n    command {{\n{PIPS}        token \"R1\" hold\n    }}\n}}\n");
        let plain = include_str!("../../../tests/rules/modules/written_orders.dotc");
        let (replay, game) = play(plain, &log);
        let off = errors_at(&replay, &game, "token \"R1\" hold");
        assert!(off.iter().any(|f| f.message.contains("not in force")), "{off:#?}");
        assert!(at_turn(&replay, &game, "turn 1 union").is_empty());
    }
}

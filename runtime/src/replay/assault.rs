//! Replay of the assault verbs: `assault` with its steps (Ch16 7.1-7.4), `melee` on its own line
//! (Ch16 7.3), `consolidate` and `breakthrough` (Ch16 7.4, RULINGS G14) and `leader`, a leader
//! casualty roll (Ch16 2.4, RULE-07-4.3, RULINGS C9, G18).
//!
//! The engine ([`crate::engine::assault`], [`crate::engine::melee`]) refuses an illegal
//! declaration: a Hesitant or Broken brigade (RULE-07-2.3, 2.4), a Disordered charger (RULE-05-4.4,
//! RULINGS C6), a road column, a Spent regiment without its brigadier, a target beyond the charge
//! distance, pips the brigade lacks. Each refusal is an error citing the engine's rule and Ch16
//! 7.1. The replay adds what needs the table: the target in the charger's 45-degree front arc
//! (Ch16 7.1, RULINGS G13), a flank or rear charge (Ch16 7.3; where the charger must start is
//! `ruling flank_attack`, dotc D50) unless the flank was refused (Ch16 6.0), a counter-charge
//! declared against this charge (Ch16 6.0 Reaction 5), one reaction per charge (RULINGS C33),
//! and a Dress on the Colors push paid once for all its regiments, each within 1" of another
//! (Ch16 2.3).

use super::status::{Push, Trigger};
use super::*;
use crate::battlefield::arcs;
use crate::battlefield::contact::{engaged_stands, in_contact};
use crate::engine::assault::{AssaultReport, Payment, plan_assault, resolve_assault_paid};
use crate::engine::events::BrigadeStatus;
use crate::engine::melee::{MeleeReport, NoMelee, cavalry_melee, melee_in_place, not_broken, resolve_melee};
use crate::odds::assault_plan::assault_plan_odds;
use crate::rulings::{FlankAttack, LeaderCasualtyTrigger, MeleeTiming};

/// The words that mark an assault as part of a coordinated Dress on the Colors push (Ch16 2.3).
const PUSH_WORDS: &[&str] = &["dress_on_the_colors", "coordinated"];
/// The word after an assault's target that makes it a charge at the target's horse holders
/// (Ch16 10.2).
const HOLDERS_WORD: &str = "holders";

/// The rule an assault refusal cites: the engine's, with the declaration's section (Ch16 7.1)
/// and, for the brigade clock, the faltering table (Ch16 8.2).
fn assault_rule(engine_rule: &str) -> String {
    let mut rule = engine_rule.to_string();
    if engine_rule.starts_with("RULE-07-2.") && !rule.contains("Ch16 8.2") {
        rule.push_str(", Ch16 8.2");
    }
    if !rule.contains("Ch16 7.1") && !rule.contains("7.1") {
        rule.push_str(", Ch16 7.1");
    }
    rule
}

/// What an assault's melee ended in, for the claim check of a melee logged on its own line.
fn as_assault(report: &MeleeReport) -> AssaultReport {
    let result = match report.no_melee {
        Some(NoMelee::Routed) => AssaultResult::Routed,
        Some(NoMelee::Overrun | NoMelee::OpenOrderOverrun) => AssaultResult::Overrun,
        None => AssaultResult::Melee(report.outcome),
    };
    AssaultReport { events: report.events.clone(), result, pre_contact_check: false, closing_volley: None }
}

/// A melee's events with the note of dotc D50's two readings ([`Game::flank_readings_part`])
/// put before the first Shock Score, where the +2 is counted; without a Shock Score (no melee
/// was fought) the note is left out.
fn with_flank_note(events: &[Event], note: Option<Event>) -> Vec<Event> {
    let mut events = events.to_vec();
    let at = events.iter().position(|e| matches!(e.what, What::ShockScore { .. }));
    if let (Some(at), Some(note)) = (at, note) {
        events.insert(at, note);
    }
    events
}

impl Game {
    /// dotc D51, Ch16 1.0: under `melee_timing = phase_four` a Phase 2 opens the stretch in which
    /// a melee the log fights inside its assault waits for Phase 4; Phase 4, or a later phase
    /// where a log leaves Phase 4 out, ends it ([`crate::engine::phase_four`]).
    pub(super) fn phase_four_window(&mut self, phase: PhaseKind) {
        match phase {
            PhaseKind::Maneuver => {
                let open = self.rules.rulings.melee_timing == MeleeTiming::PhaseFour;
                self.state.phase_four_window(open);
            }
            PhaseKind::Melee | PhaseKind::Status => self.state.phase_four_window(false),
            PhaseKind::Command | PhaseKind::Fire => {}
        }
    }

    /// Keep an assault's closing volley with its odds when the caller asked about its
    /// `closing_volley` step's line ([`super::ReplayOptions::probe`]).
    fn probe_closing_volley(r: &mut Replayer<'_>, action: &Action, report: &AssaultReport) {
        let Some(closing) = &report.closing_volley else { return };
        let step = action
            .steps
            .iter()
            .find(|s| AssaultStep::from_word(&s.verb.value) == Some(AssaultStep::ClosingVolley));
        let Some(span) = step.map(|s| s.span).filter(|span| r.probe.contains(&r.line_of(span.start))) else {
            return;
        };
        let odds = crate::odds::plan_odds(&closing.plan, &closing.casualties);
        r.probes.push(VolleyProbe {
            line: r.line_of(span.start),
            span,
            plan: closing.plan.clone(),
            odds,
            outcome: Some(closing.outcome),
            claim: None,
        });
    }

    /// The whole assault's odds, planned on a copy of the table before its dice, when the
    /// caller asked about the assault's own line ([`super::ReplayOptions::probe`]).
    #[allow(clippy::too_many_arguments)]
    fn probe_assault(
        &self,
        r: &Replayer<'_>,
        action: &Action,
        charger: UnitId,
        target: UnitId,
        input: &AssaultInput,
        payment: Payment,
    ) -> Option<AssaultProbe> {
        let line = r.line_of(action.span.start);
        if !r.probe.contains(&line) {
            return None;
        }
        let mut declared = self.state.clone();
        let (odds, volley) = match plan_assault(&self.rules, &mut declared, charger, target, input, payment) {
            Ok(plan) => (
                assault_plan_odds(&self.rules, &declared, &plan).map_err(|e| e.to_string()),
                plan.closing.map(|c| c.plan),
            ),
            Err(e) => (Err(e.to_string()), None),
        };
        let name = |id: UnitId| self.state.unit(id).map(|u| u.name.clone()).unwrap_or_default();
        Some(AssaultProbe {
            line,
            span: action.span,
            charger: name(charger),
            target: name(target),
            odds,
            volley,
            result: None,
        })
    }

    pub(super) fn assault_verb(&mut self, r: &mut Replayer<'_>, action: &Action, verb: AssaultVerb) {
        match verb {
            AssaultVerb::Assault => {
                let (errors, mark) = (r.errors_here(), r.events.len());
                self.assault(r, action);
                let fought = r
                    .events
                    .get(mark..)
                    .unwrap_or(&[])
                    .iter()
                    .any(|e| matches!(e.event.what, What::Melee { .. }));
                if r.errors_here() > errors && !fought {
                    self.unplayed_assault(r, action);
                }
            }
            AssaultVerb::Melee => self.melee(r, action),
            AssaultVerb::Consolidate => self.consolidate(r, action),
            AssaultVerb::Breakthrough => self.breakthrough(r, action),
            AssaultVerb::Leader => self.leader(r, action),
        }
    }

    /// An assault line the replay refused, whose `melee` step claims a winner: the loser it names is
    /// marked for the turn, so that the `retreat` the log then writes for it is not reported as
    /// owed none. The refused line is the mistake, reported once; the audit goes on from the log's
    /// account (dotc D54). Without a claim there is no account to follow (a playtest's orders have
    /// none), and no melee was fought: nothing is owed.
    fn unplayed_assault(&mut self, r: &Replayer<'_>, action: &Action) {
        let claimed = action
            .steps
            .iter()
            .filter(|s| AssaultStep::from_word(&s.verb.value) == Some(AssaultStep::Melee))
            .filter_map(|s| s.claim.as_ref())
            .flat_map(|c| c.items.iter())
            .map(claims::words)
            .find(|k| k == "attacker wins" || k == "defender wins");
        let named = |arg: Option<&ast::Name>| arg.and_then(|n| self.state.unit_named(&n.value));
        let (attacker, defender) = (named(unit_arg(action)), named(target_arg(action)));
        let (loser, winner) = match claimed.as_deref() {
            Some("attacker wins") => (defender, attacker),
            Some("defender wins") => (attacker, defender),
            _ => (None, None),
        };
        let Some(id) = loser else { return };
        // Ch16 10.1: mounted cavalry beaten by mounted cavalry owes the cavalry table's distance.
        let cavalry = match (self.state.unit(id), winner.and_then(|w| self.state.unit(w))) {
            (Some(l), Some(w)) => cavalry_melee(l, w),
            _ => false,
        };
        self.book.turn(r.turn).units.entry(id).or_default().unplayed_assault = Some(cavalry);
    }

    /// An engine refusal of a charge or melee: an error citing the engine's rule and Ch16 7.1.
    /// A charge refused because an earlier charge of this phase made its brigade Hesitant says
    /// so and how to declare the two together (dotc D52).
    pub(super) fn assault_refused(&self, r: &mut Replayer<'_>, error: &EngineError, rule: &str) {
        match error {
            EngineError::Illegal { rule: engine_rule, unit, .. } => {
                let mut message = format!("{error}: the action is not applied");
                let mut rule = assault_rule(engine_rule);
                if *engine_rule == "RULE-07-2.3"
                    && let Some(line) = self.hesitant_this_phase(r, unit)
                {
                    message.push_str(&format!(
                        "; the brigade went Hesitant at line {line}, this phase, and charges are declared one at \
                         a time: write them as a Dress on the Colors push (`dress_on_the_colors`) to declare \
                         them together"
                    ));
                    rule.push_str(", dotc D52");
                }
                r.here(Level::Error, message, rule)
            }
            other => r.refused(other, rule),
        }
    }

    /// The line at which the brigade of `unit` went Hesitant in the phase being played, if it did
    /// (dotc D52): the events are searched back to the phase's start.
    fn hesitant_this_phase(&self, r: &Replayer<'_>, unit: &str) -> Option<usize> {
        let brigade = self.state.unit_named(unit).and_then(|u| self.state.unit(u)).and_then(|u| u.brigade)?;
        let name = &self.state.brigade(brigade)?.name;
        r.events.iter().rev().take_while(|e| e.turn == r.turn && e.phase == r.phase).find_map(|e| {
            match &e.event.what {
                What::BrigadeChanged { brigade, to: BrigadeStatus::Hesitant, .. } if brigade == name => {
                    Some(e.line)
                }
                _ => None,
            }
        })
    }

    /// Remember who won a melee this turn and may consolidate, and who may sweep on (Ch16 7.4,
    /// RULINGS G14).
    fn note_melee_results(&mut self, turn: u32, events: &[Event]) {
        for e in events {
            match &e.what {
                What::Consolidate { unit, .. } => {
                    if let Some(id) = self.state.unit_named(unit) {
                        self.ledger.consolidations.insert(id, (turn, false));
                    }
                }
                What::Breakthrough { unit, inches, pips } => {
                    if let Some(id) = self.state.unit_named(unit) {
                        self.ledger.breakthroughs.insert(id, (turn, *inches, *pips, false));
                    }
                }
                _ => {}
            }
        }
    }

    /// A charge at the flank or rear (Ch16 7.3: +2 to the attacker), judged where the attacker
    /// starts (`ab`: the charger before its charge move, a sweep's victor before its sweep, the
    /// two units in contact for a continued melee) as `ruling flank_attack` says (dotc D50):
    /// under `flank_zone` its colours stand in the target's flank zone or behind its 90-degree
    /// line (RULINGS G13, Ch16 6.0); under `behind_line` every one of its stands is wholly on or
    /// behind that line (Ch15 4.0 "Geometry of the Flank Attack"). Either way not when the
    /// target refused its flank to it this turn (Ch16 6.0 Reaction 4).
    fn flank_attack(
        &self,
        r: &Replayer<'_>,
        attacker: UnitId,
        ab: &Body,
        defender: UnitId,
        db: &Body,
    ) -> bool {
        self.placed_for_flank(ab, db) && !self.refused_flank(r.turn, defender, attacker)
    }

    /// Whether the attacker starts where `ruling flank_attack` places a flank or rear attack
    /// (dotc D50): its colours out of the target's front arc (`flank_zone`), or every stand on or
    /// behind the target's 90-degree line (`behind_line`, Ch15 4.0). A refused flank aside.
    fn placed_for_flank(&self, ab: &Body, db: &Body) -> bool {
        match self.rules.rulings.flank_attack {
            FlankAttack::FlankZone => arcs::zone_of(db, ab.colours()) != battlefield::Zone::Front,
            FlankAttack::BehindLine => arcs::entirely_behind_line(db, ab),
        }
    }

    /// Why a charge may not be made as placed (Ch15 4.0): the charger is not placed for a flank
    /// attack (as `ruling flank_attack` places one, dotc D50), so it charges from the frontal
    /// zone, and moving straight ahead (as the replay closes it in, Ch16 7.2) its base would first
    /// touch the target's side or rear, clear of the front edge: it would clip the base's
    /// thickness. None when it meets the front edge, attacks a flank, or its straight run does
    /// not meet the target at all (the front arc and the reach are judged apart).
    fn side_clip(&self, cb: &Body, tb: &Body, cname: &str, tname: &str) -> Option<String> {
        if self.placed_for_flank(cb, tb) {
            return None;
        }
        let limit = battlefield::range::range(cb, tb) + cb.reach() + tb.reach();
        match battlefield::contact::first_meeting(cb, tb, limit) {
            battlefield::contact::Meeting::SideOrRear => Some(format!(
                "{cname} does not start where a flank attack on {tname} does (dotc D50), so it charges \
                 {tname}'s front, but its run straight ahead would strike the side of {tname}'s base, not \
                 its front edge: a frontal charge must meet the front edge flush; the action is not applied"
            )),
            _ => None,
        }
    }

    /// A note where the two readings of dotc D50 part: the attacker's colours start outside the
    /// defender's 45-degree front arc (`flank_zone`: a flank attack) but not every one of its
    /// stands is on or behind the defender's 90-degree line (`behind_line`: none, Ch15 4.0).
    /// Said under either value, so a player reading the Shock Score sees which reading gave or
    /// withheld the +2 (Ch16 7.3). None where they agree, or where the flank was refused.
    fn flank_readings_part(
        &self,
        r: &Replayer<'_>,
        (attacker, ab): (UnitId, &Body),
        (defender, db): (UnitId, &Body),
    ) -> Option<Event> {
        let colours_out = arcs::zone_of(db, ab.colours()) != battlefield::Zone::Front;
        if !colours_out
            || arcs::entirely_behind_line(db, ab)
            || self.refused_flank(r.turn, defender, attacker)
        {
            return None;
        }
        let (a, d) = (self.name(attacker), self.name(defender));
        let verdict = match self.rules.rulings.flank_attack {
            FlankAttack::FlankZone => {
                "a flank attack under `flank_attack = flank_zone` (not under `behind_line`)"
            }
            FlankAttack::BehindLine => {
                "no flank attack under `flank_attack = behind_line` (one under `flank_zone`)"
            }
        };
        let text = format!(
            "{a}'s colours start outside {d}'s 45-degree front arc, but not all its stands are behind {d}'s \
             90-degree line: {verdict}"
        );
        Some(Event::new(What::Note { text }, "Ch16 7.3, Ch15 4.0, dotc D50"))
    }

    pub(super) fn assault(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch16 7.1";
        // RULE-07-4.5: a leader's name after `->` is a charge at a solitary brigadier.
        let at_leader = target_arg(action)
            .filter(|n| self.state.unit_named(&n.value).is_none())
            .and_then(|n| self.state.leader_named(&n.value));
        if let Some(lid) = at_leader {
            let Some(charger) = self.unit(r, unit_arg(action)) else { return };
            return self.charge_leader(r, action, charger, lid);
        }
        let (Some(charger), Some(target)) =
            (self.unit(r, unit_arg(action)), self.unit(r, target_arg(action)))
        else {
            return;
        };
        // Ch16 10.2, Ch13 6.0: `holders` after the target is a charge at its horse holders.
        if action.args.iter().any(|a| matches!(a, Arg::Word(w) if w.value == HOLDERS_WORD)) {
            return self.charge_holders(r, action, charger, target);
        }
        if let Some(step) =
            action.steps.iter().find(|s| AssaultStep::from_word(&s.verb.value) == Some(AssaultStep::Evade))
        {
            let message = "`evade` is the step of a charge at a solitary brigadier, not at a unit";
            return r.find(step.span, Level::Error, message, "RULE-07-4.5");
        }
        let (Some(cb), Some(tb)) = (self.bodies.get(&charger).copied(), self.bodies.get(&target).copied())
        else {
            return r.here(Level::Error, "the charger or its target is not on the table", RULE);
        };
        let (cname, tname) = (self.name(charger), self.name(target));
        // Ch16 7.1, RULINGS G13: the target must lie in the charger's forward 45-degree arc.
        if !arcs::in_front_arc(&cb, &tb) {
            let message = format!("{tname} is outside {cname}'s 45-degree front arc: it may not be charged");
            return r.here(Level::Error, message, "Ch16 7.1, RULINGS G13");
        }
        // Ch16 4.4: a unit in dead ground behind a crest cannot be charged from the foot of the
        // hill until the charger reaches the crest; under dotc D53's `both_ways` the unit behind
        // the crest cannot charge down at the foot either, as it cannot see it.
        if let Some(hidden) = self.bf.dead_ground_between(&cb, &tb) {
            let hill = self
                .bf
                .hills
                .get(hidden.hill)
                .and_then(|h| h.name.clone())
                .unwrap_or_else(|| "a hill".into());
            let message = if hidden.viewer_hidden {
                format!(
                    "{cname} stands {:.1}\" behind the crest of {hill}, in dead ground, and cannot see {tname} at \
                     the foot of the hill: it may not charge it until one of them reaches the crest",
                    hidden.behind
                )
            } else {
                format!(
                    "{tname} stands {:.1}\" behind the crest of {hill}, in dead ground to {cname} at the foot of \
                     the hill: it may not be charged until {cname} reaches the crest",
                    hidden.behind
                )
            };
            let rule = if hidden.viewer_hidden { "Ch16 4.4, 7.1, dotc D53" } else { "Ch16 4.4, 7.1" };
            return r.here(Level::Error, message, rule);
        }
        // Ch16 4.1, RULINGS G10: a stream between them halts the charge at the water's edge, with
        // no melee; the charger crosses by a move first.
        if let Some((stream, rule)) = battlefield::charge_halted_short(&self.bf, &cb, &tb) {
            let message = format!(
                "{stream} lies between {cname} and {tname}: a charge halts at the water's edge with no melee, \
                 so {tname} may not be charged across it; cross with a move first"
            );
            return r.here(Level::Error, message, rule);
        }
        // Ch15 4.0: a charge from the frontal zone meets the target's front edge flush; one whose
        // straight run would strike only a side or the rear of the base is not allowed.
        if let Some(message) = self.side_clip(&cb, &tb, &cname, &tname) {
            return r.here(Level::Error, message, "Ch15 4.0, Ch16 7.2");
        }
        let step = |verb: &str| action.steps.iter().find(|s| s.verb.value == verb);
        // Ch16 6.0, RULINGS C33: a counter-charge and a closing volley both answer this charge.
        let counter = self
            .ledger
            .counter_charges
            .iter()
            .position(|&(t, u, c)| t == r.turn && u == target && c == charger);
        let answered = self.ledger.reactions.get(&(r.turn, charger, Trigger::Charge)).copied();
        if step("closing_volley").is_some()
            && let Some(first) = answered
        {
            let message = format!(
                "{cname}'s charge has already been answered by {}: one reaction per charge, so no closing \
                 volley as well",
                self.name(first)
            );
            return r.here(Level::Error, message, "Ch16 6.0, RULINGS C33");
        }
        // Ch16 2.3: a coordinated push pays its price once; each regiment joins within 1" of one
        // already in it.
        let coordinated =
            action.args.iter().any(|a| matches!(a, Arg::Word(w) if PUSH_WORDS.contains(&w.value.as_str())));
        let brigade = self.state.unit(charger).and_then(|u| u.brigade);
        let mut payment = Payment::Pay;
        // Ch13 23.0, dotc D26: `surge` completes the wave's stalled charge, free.
        let surging =
            action.args.iter().any(|a| matches!(a, Arg::Word(w) if w.value == super::wave::SURGE_WORD));
        let surge = if surging {
            let Some(surge) = self.surge(r, charger, target) else { return };
            if step("closing_volley").is_some() {
                let message =
                    "the defender fired its closing volley at the wave's lead: the surge draws none";
                return r.here(Level::Error, message, "Ch13 23.0, dotc D26");
            }
            payment = Payment::Surge;
            Some(surge)
        } else {
            None
        };
        if coordinated && let Some(b) = brigade {
            if let Some(push) = self.ledger.pushes.get(&(r.turn, b)) {
                let within = self
                    .rules
                    .data
                    .order("dress_on_the_colors")
                    .and_then(|o| o.adjacent_within)
                    .unwrap_or(1.0);
                let near = push.members.iter().any(|(_, body)| {
                    Game::stand_gap(body, &cb)
                        .is_some_and(|g| g <= within + crate::geometry::MEASURE_PRECISION)
                });
                if !near {
                    let message = format!(
                        "{cname} is not within {within}\" of a regiment of its brigade's Dress on the Colors \
                         assault: it may not join the push"
                    );
                    return r.here(Level::Error, message, "Ch16 2.3");
                }
                payment = Payment::PaidByThePush;
            }
        }
        let distance = battlefield::range::range(&cb, &tb);
        let pip = action.args.iter().find_map(|a| if let Arg::Pip(n) = a { Some(n) } else { None });
        let brigadier = brigade
            .and_then(|b| self.state.brigade(b))
            .and_then(|b| b.brigadier)
            .and_then(|l| self.state.leader(l))
            .map(|l| l.name.clone());
        if let (Some(pip), Some(brigadier)) = (pip, &brigadier)
            && pip.value != *brigadier
        {
            let message =
                format!("{} pays for this assault, but {brigadier} commands the brigade", pip.value);
            r.find(pip.span, Level::Error, message, "Ch16 2.3, 7.1");
        }
        let brigadier_distance = self.command_range(charger, &cb);
        // The charger where the closing volley meets it: at the 4" line, or where it starts if
        // it starts nearer (Ch16 7.2, RULINGS G10).
        let closing_at = step("closing_volley").map(|s| {
            let line = self.rules.tables.interruption;
            let at =
                battlefield::interruption_point(&self.bf, &cb, &tb, line).unwrap_or_else(|| Pose::of(&cb));
            (s, Body { position: at.position, facing: at.facing, ..cb })
        });
        // RULE-05-1.4, Ch16 4.5, RULINGS G13: the closing volley is a volley, fired only at a
        // charger in the defender's 45-degree front arc (all round from a building that gives
        // it, Ch16 4.3). A charge from the flank zone or the rear draws none (issue 19).
        if let Some((s, cb_at)) = &closing_at
            && !self.in_arc(target, &tb, cb_at)
        {
            let message = format!(
                "{cname} charges from outside {tname}'s 45-degree front arc: {tname} may not fire a closing \
                 volley at it; the action is not applied"
            );
            return r.find(s.span, Level::Error, message, "RULE-05-1.4, Ch16 4.5, 6.0, RULINGS G13");
        }
        let closing = closing_at.map(|(s, cb_at)| {
            let (mut input, _) = self.fire_input(target, &tb, &cb_at, FireKind::Closing);
            input.range = input.range.min(distance);
            super::fire::decline_rerolls(&s.args, &mut input); // Ch16 9.0: `no_reroll`
            input
        });
        // The ground, flank and slope from where the charge starts; the run and the
        // counter-charge are the charge's own.
        let melee = MeleeInput {
            momentum: self.momentum(&cb, &tb),
            counter_charge: counter.is_some(),
            ..self.melee_input(r, charger, &cb, target, &tb)
        };
        // A surge is the stalled charge carried on: measured as it was declared (dotc D26).
        let declared = surge.map_or(distance, |s| s.distance);
        let input = AssaultInput {
            distance: declared,
            brigadier_distance,
            coordinated,
            closing_volley: closing,
            melee,
        };
        if self.two_dice_without_valor(r, action, charger, &cname) {
            return;
        }
        // The steps' dice, each list labelled with what it serves.
        let mut dice = RecordedDice::default();
        for s in &action.steps {
            let unlabelled = match AssaultStep::from_word(&s.verb.value) {
                Some(AssaultStep::ClosingVolley) => Purpose::ToHit,
                Some(
                    AssaultStep::Discipline
                    | AssaultStep::RebelYell
                    | AssaultStep::FlatFooted
                    | AssaultStep::PrematureFire,
                ) => Purpose::Discipline,
                Some(AssaultStep::Melee) => Purpose::Melee,
                // Contact and a stall roll no dice of their own; a word that is no step is
                // reported by the language's checks.
                Some(AssaultStep::Contact | AssaultStep::Stall | AssaultStep::Evade) | None => Purpose::ToHit,
            };
            for a in &s.args {
                if let Arg::Roll(roll) = a {
                    let purpose = Purpose::of_dice(roll.label.as_ref().map(|l| l.value.as_str()), unlabelled);
                    dice.push(Some(purpose), roll.dice.value.iter().map(|d| d.value).collect());
                }
            }
        }
        let probe = self.probe_assault(r, action, charger, target, &input, payment);
        let flank_note = self.flank_readings_part(r, (charger, &cb), (target, &tb));
        let mut dice = LogDice::new(dice, self.seeded.as_mut());
        let resolved = match payment {
            Payment::Pay => resolve_assault(&self.rules, &mut self.state, charger, target, &input, &mut dice),
            paid => {
                resolve_assault_paid(&self.rules, &mut self.state, charger, target, &input, paid, &mut dice)
            }
        };
        if let Some(mut probe) = probe {
            probe.result = resolved.as_ref().ok().map(|report| report.result);
            r.assault_probes.push(probe);
        }
        match resolved {
            Ok(report) => {
                Game::probe_closing_volley(r, action, &report);
                r.emit(with_flank_note(&report.events, flank_note));
                r.dice_done(&dice, RULE);
                claims::check_assault(r, action, &report, &cname, &tname);
                self.note_melee_results(r.turn, &report.events);
                // Ch13 23.0: a wave's charge that ended short may be completed by the one behind.
                let short = matches!(report.result, AssaultResult::Stalled | AssaultResult::Destroyed);
                crate::engine::wave::after_charge(&mut self.state, charger, target, declared, short);
                if let Some(i) = counter {
                    self.ledger.counter_charges.remove(i);
                }
                if step("closing_volley").is_some() {
                    self.ledger.reactions.insert((r.turn, charger, Trigger::Charge), target);
                }
                if coordinated && let Some(b) = brigade {
                    self.ledger
                        .pushes
                        .entry((r.turn, b))
                        .or_insert_with(|| Push { span: action.span, members: Vec::new() })
                        .members
                        .push((charger, cb));
                }
                if matches!(
                    report.result,
                    AssaultResult::Melee(_) | AssaultResult::Routed | AssaultResult::Overrun
                ) {
                    self.close_in(charger, &cb, distance);
                }
            }
            Err(e) => {
                let unrolled = super::fire::lacks_to_hit_dice(&e, &dice);
                self.assault_refused(r, &e, RULE);
                if unrolled {
                    self.closing_unrolled(r, (charger, target), &input, payment);
                }
            }
        }
    }

    /// Ch13 17.0, dotc D14: a `discipline` step is one check of the charger, 1D6 (RULE-07-1.4);
    /// only a charger under Desperate Valor rolls it with Advantage, two dice. Two or more dice
    /// in such a step of any other charger are an error, and the assault is not applied (the
    /// engine reads one die a check, so the second would feed the next check). Whether it was.
    fn two_dice_without_valor(
        &self,
        r: &mut Replayer<'_>,
        action: &Action,
        charger: UnitId,
        cname: &str,
    ) -> bool {
        if crate::engine::morale::valor_advantage(&self.rules, &self.state, charger) {
            return false;
        }
        let two = action.steps.iter().find(|s| {
            AssaultStep::from_word(&s.verb.value) == Some(AssaultStep::Discipline)
                && s.args.iter().any(|a| matches!(a, Arg::Roll(roll) if roll.dice.value.len() > 1))
        });
        let Some(step) = two else { return false };
        let message = format!(
            "{cname} has no Desperate Valor this turn: a check is one die, not the 2D6 of Advantage; the \
             action is not applied"
        );
        r.find(step.span, Level::Error, message, "Ch13 17.0, RULE-07-1.4, dotc D14");
        true
    }

    /// The charger closes straight ahead into contact (Ch16 7.2).
    pub(super) fn close_in(&mut self, charger: UnitId, cb: &Body, distance: f64) {
        let rad = cb.facing.to_radians();
        let (dx, dy) = (rad.sin() * distance, rad.cos() * distance);
        let moved = Body { position: (cb.position.0 + dx, cb.position.1 + dy), ..*cb };
        self.bodies.insert(charger, moved);
    }

    /// Momentum: a run of at least 3" whose last 3" cross no terrain area (Ch16 7.3, RULINGS G10).
    pub(super) fn momentum(&self, cb: &Body, tb: &Body) -> bool {
        use geo::Intersects;
        let line = battlefield::range::range_line(cb, tb);
        let (a, b) = (line.start, line.end);
        let length = ((b.x - a.x).powi(2) + (b.y - a.y).powi(2)).sqrt();
        // Ch16 7.3: the run must be at least the momentum's 3" (the stdlib's `run`); a charge
        // from nearer has none.
        let run = self.rules.tables.momentum.run.unwrap_or(0.0);
        if crate::geometry::measured(length) < crate::geometry::measured(run) {
            return false;
        }
        if length == 0.0 {
            return true;
        }
        let t = ((length - run) / length).max(0.0);
        let from = geo::Coord { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
        let last = geo::Line::new(from, b);
        !self.bf.areas.iter().any(|area| area.outline.intersects(&last))
    }

    /// The nearest gap between two bodies' stands, inches.
    fn stand_gap(a: &Body, b: &Body) -> Option<f64> {
        use geo::Distance;
        let theirs = b.stands();
        a.stands()
            .iter()
            .flat_map(|mine| theirs.iter().map(move |t| geo::Euclidean.distance(mine, t)))
            .reduce(f64::min)
    }

    /// The melee's input from the table, gathered here for every melee the replay fights (an
    /// assault's, a `melee` line's, a breakthrough's), so the replay, `dotc odds --at` and the
    /// editor's hover, which plan an assault from the same input, all see the same ground:
    ///
    /// - the defender's ground: a stone wall's +2, an abatis's -2 and lost momentum, a fence's or
    ///   light cover's +1 (Ch16 4.1-4.3, 7.3, RULINGS G17);
    /// - a flank or rear attack (Ch16 7.3, RULINGS G13) unless the flank was refused (Ch16 6.0);
    /// - the slope between the two (`Battlefield::slope`): an attacker below a defender holding
    ///   the crest charges uphill, -1 to it (Ch16 4.4 Uphill Penalty) and +1 to the defender
    ///   (Ch16 7.3 Crestline; RULINGS G17: both apply, and the crestline does not stack with
    ///   the defender's cover); an attacker holding a crest above its enemy has the crest
    ///   advantage, +1 (Ch16 4.4 Crest Advantage).
    ///
    /// The engaged stands, the run and a counter-charge are each caller's own.
    fn melee_input(
        &self,
        r: &Replayer<'_>,
        attacker: UnitId,
        ab: &Body,
        defender: UnitId,
        db: &Body,
    ) -> MeleeInput {
        let slope = self.bf.slope(ab, db);
        MeleeInput {
            defender_terrain: self.bf.melee_ground(ab, db),
            flank: self.flank_attack(r, attacker, ab, defender, db),
            uphill: slope.uphill_against_crest,
            crest_advantage: slope.downhill_from_crest,
            ..MeleeInput::default()
        }
    }

    /// `melee "A" -> "B" roll [a] vs [d]`: an opposed melee outside an assault block (Ch16 7.3),
    /// such as one continued after a Bloody Draw left the lines locked (Ch16 7.4). The two units
    /// must be in base contact (RULINGS G3). No charge, so no momentum.
    pub(super) fn melee(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch16 7.3, 7.4";
        let (Some(attacker), Some(defender)) =
            (self.unit(r, unit_arg(action)), self.unit(r, target_arg(action)))
        else {
            return;
        };
        let (Some(ab), Some(db)) = (self.bodies.get(&attacker).copied(), self.bodies.get(&defender).copied())
        else {
            return r.here(Level::Error, "a unit of this melee is not on the table", RULE);
        };
        let (aname, dname) = (self.name(attacker), self.name(defender));
        if !in_contact(&ab, &db) {
            let message = format!("{aname} and {dname} are not in contact: no melee without a charge");
            return r.here(Level::Error, message, "Ch16 7.2, 7.3, RULINGS G3");
        }
        // The stands in edge contact (RULINGS G3; the engine's own count when none touch).
        let input = MeleeInput {
            attacker_engaged: engaged_stands(&ab, &db),
            defender_engaged: engaged_stands(&db, &ab),
            ..self.melee_input(r, attacker, &ab, defender, &db)
        };
        let flank_note = self.flank_readings_part(r, (attacker, &ab), (defender, &db));
        let mut dice = LogDice::new(dice_of(action, Purpose::Melee), self.seeded.as_mut());
        match resolve_melee(&self.rules, &mut self.state, attacker, defender, &input, &mut dice) {
            Ok(report) => {
                r.emit(with_flank_note(&report.events, flank_note));
                r.dice_done(&dice, RULE);
                self.note_melee_results(r.turn, &report.events);
                let as_step = Action { steps: vec![action.clone()], ..action.clone() };
                claims::check_assault(r, &as_step, &as_assault(&report), &aname, &dname);
            }
            Err(e) => self.assault_refused(r, &e, RULE),
        }
    }

    /// `consolidate "Unit" to (x, y)`: the free move of a melee's victor (Ch16 7.4), once, within
    /// the victor's allowance (2", a pivot of at most 45 degrees), judged by the movement rules.
    pub(super) fn consolidate(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch16 7.4";
        let Some(id) = self.unit(r, unit_arg(action)) else { return };
        let name = self.name(id);
        match self.ledger.consolidations.get(&id) {
            Some(&(turn, false)) if turn == r.turn => {}
            Some(&(turn, true)) if turn == r.turn => {
                return r.here(Level::Error, format!("{name} has already made its consolidation move"), RULE);
            }
            _ => {
                let message = format!("{name} won no melee this turn: it has no consolidation move");
                return r.here(Level::Error, message, RULE);
            }
        }
        let Some(start) = self.bodies.get(&id).copied() else {
            return r.here(Level::Error, format!("{name} is not on the table"), RULE);
        };
        let to = action.args.iter().find_map(|a| if let Arg::To(p) = a { Some(p.value) } else { None });
        let facing =
            action.args.iter().find_map(|a| if let Arg::Facing(f) = a { f.value.degrees() } else { None });
        let end = to.map_or(Pose::of(&start), |p| Pose::new((p.x, p.y), facing.unwrap_or(start.facing)));
        let end = Pose { facing: facing.unwrap_or(end.facing), ..end };
        let formation = self.state.unit(id).map(|u| u.formation.clone()).unwrap_or_default();
        self.judge_move(r, id, &formation, MoveKind::Consolidate, start, end, &[]);
        self.bodies.insert(id, Body { position: end.position, facing: end.facing, ..start });
        if let Some(entry) = self.ledger.consolidations.get_mut(&id) {
            entry.1 = true;
        }
    }

    /// `breakthrough "Unit" -> "Target" roll [a] vs [d]`: the sweeping advance of a Fresh attacker
    /// that won by 4 or more and removed its enemy (Ch16 7.4, RULINGS G14): one more pip, a
    /// target within the sweep (4") in its front arc, and a melee with it at once.
    pub(super) fn breakthrough(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch16 7.4, RULINGS G14";
        let (Some(attacker), Some(target)) =
            (self.unit(r, unit_arg(action)), self.unit(r, target_arg(action)))
        else {
            return;
        };
        let (aname, tname) = (self.name(attacker), self.name(target));
        let (inches, pips) = match self.ledger.breakthroughs.get(&attacker) {
            Some(&(turn, inches, pips, false)) if turn == r.turn => (inches, pips),
            Some(&(turn, _, _, true)) if turn == r.turn => {
                return r.here(Level::Error, format!("{aname} has already swept on this turn"), RULE);
            }
            _ => {
                let message = format!(
                    "{aname} has no breakthrough: it needs a win by the margin the rules set, Fresh, with its \
                     enemy removed"
                );
                return r.here(Level::Error, message, RULE);
            }
        };
        let (Some(ab), Some(tb)) = (self.bodies.get(&attacker).copied(), self.bodies.get(&target).copied())
        else {
            return r.here(Level::Error, format!("{aname} or {tname} is not on the table"), RULE);
        };
        if !arcs::in_front_arc(&ab, &tb) {
            let message = format!("{tname} is outside {aname}'s 45-degree front arc");
            return r.here(Level::Error, message, "Ch16 7.1, 7.4, RULINGS G13");
        }
        let distance = battlefield::range::range(&ab, &tb);
        if distance > inches + crate::geometry::MEASURE_PRECISION {
            let message = format!("{tname} is {distance:.1}\" away: the sweeping advance reaches {inches}\"");
            return r.here(Level::Error, message, RULE);
        }
        let Some(brigade) = self.state.unit(attacker).and_then(|u| u.brigade) else {
            return r.here(Level::Error, format!("{aname} has no brigade to pay the pip"), RULE);
        };
        let input = MeleeInput {
            momentum: self.momentum(&ab, &tb),
            ..self.melee_input(r, attacker, &ab, target, &tb)
        };
        let flank_note = self.flank_readings_part(r, (attacker, &ab), (target, &tb));
        let mut dice = LogDice::new(dice_of(action, Purpose::Melee), self.seeded.as_mut());
        let rules = &self.rules;
        let mut paid = Vec::new();
        let result = transact(&mut self.state, |s| {
            not_broken(s, attacker)?;
            morale::spend_pips(s, brigade, pips, &aname, "sweep on (Breakthrough)", &mut paid, RULE)?;
            melee_in_place(rules, s, attacker, target, &input, &mut dice)
        });
        match result {
            Ok(report) => {
                r.emit(paid);
                r.emit(with_flank_note(&report.events, flank_note));
                r.dice_done(&dice, RULE);
                if let Some(entry) = self.ledger.breakthroughs.get_mut(&attacker) {
                    entry.3 = true;
                }
                self.note_melee_results(r.turn, &report.events);
                let as_step = Action { steps: vec![action.clone()], ..action.clone() };
                claims::check_assault(r, &as_step, &as_assault(&report), &aname, &tname);
                self.close_in(attacker, &ab, distance);
            }
            Err(e) => self.assault_refused(r, &e, RULE),
        }
    }

    /// Whether this turn's events hold a casualty trigger for the leader attached to `regiment`
    /// that no roll has answered yet (Ch16 2.4, RULE-07-4.3, RULINGS C9, G18): a stand lost to
    /// fire or melee, or a natural 6 rolled at it by fire (fire triggers only under
    /// `fire_or_melee`). One roll answers one volley or melee.
    fn leader_trigger(&self, r: &Replayer<'_>, leader: &str, regiment: &str) -> bool {
        let fire_counts = self.rules.rulings.leader_casualty == LeaderCasualtyTrigger::FireOrMelee;
        // The turn's own events only, not a walk over the whole game's (issue 16).
        let this_turn: Vec<&ReplayEvent> = r.events.get(r.turn_events..).unwrap_or(&[]).iter().collect();
        let melee_spans: Vec<Span> = this_turn
            .iter()
            .filter(|e| matches!(e.event.what, What::Melee { .. } | What::Contact { .. }))
            .map(|e| e.span)
            .collect();
        let mut pending = false;
        let mut volley_at_regiment = false;
        for e in this_turn {
            match &e.event.what {
                What::Volley { target, .. } => volley_at_regiment = target == regiment,
                What::Hits { sixes, .. } if *sixes > 0 && volley_at_regiment && fire_counts => pending = true,
                What::StandsLost { unit, .. }
                    if unit == regiment && (fire_counts || melee_spans.contains(&e.span)) =>
                {
                    pending = true
                }
                What::LeaderCasualty { leader: l, .. } if l == leader => pending = false,
                _ => {}
            }
        }
        pending
    }

    /// `leader "Brigadier" roll [d] => result`: a leader casualty roll on its own line (Ch16 2.4,
    /// RULE-07-4.3, RULINGS C9, G18). The leader must be attached to a regiment whose loss or
    /// natural 6 this turn calls for a roll no earlier roll has answered; the result claimed must
    /// be the table's row for the die.
    pub(super) fn leader(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch16 2.4, RULE-07-4.3, RULINGS C9, G18";
        let Some(name) = unit_arg(action) else { return };
        let Some(lid) = self.state.leader_named(&name.value) else {
            return r.find(name.span, Level::Error, format!("no leader \"{}\" in this game", name.value), "");
        };
        let Some(leader) = self.state.leader(lid) else { return };
        if leader.removed {
            return r.here(Level::Error, format!("{} is no longer on the table", leader.name), RULE);
        }
        let Some(regiment) = leader.attached.map(|u| self.name(u)) else {
            let message = format!("{} is attached to no regiment: no casualty roll", leader.name);
            return r.here(Level::Error, message, RULE);
        };
        let lname = leader.name.clone();
        if !self.leader_trigger(r, &lname, &regiment) {
            let message = format!(
                "nothing this turn calls for a casualty roll for {lname}: {regiment} lost no stand and took \
                 no natural 6 that a roll has not already answered"
            );
            return r.here(Level::Error, message, RULE);
        }
        let mut dice = LogDice::new(dice_of(action, Purpose::LeaderCasualty), self.seeded.as_mut());
        let mut events = Vec::new();
        let rules = &self.rules;
        match transact(&mut self.state, |s| morale::leader_casualty(rules, s, lid, &mut dice, &mut events)) {
            Ok(()) => {
                r.dice_done(&dice, RULE);
                let rolled = events.iter().find_map(|e| match &e.what {
                    What::LeaderCasualty { rolled, .. } => Some(*rolled),
                    _ => None,
                });
                let row = rolled.and_then(|d| self.rules.tables.leader_result(d));
                if let (Some(claim), Some(row)) = (&action.claim, row) {
                    for item in &claim.items {
                        let said: Vec<String> = item.words.iter().map(|w| w.value.to_lowercase()).collect();
                        let (id, title) = (row.meta.id.as_str(), row.meta.title().to_lowercase());
                        let matches = said.join("_") == id || title.contains(&said.join(" "));
                        if !said.is_empty() && !matches {
                            let message = format!(
                                "leader casualty: the rules give {} for a {}, the log claims {}",
                                row.meta.title(),
                                rolled.unwrap_or(0),
                                said.join(" ")
                            );
                            r.find(item.span, Level::Error, message, "Ch16 2.4, RULINGS C9");
                        }
                    }
                }
                r.emit(events);
            }
            Err(e) => r.refused(&e, RULE),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    const SCENARIO: &str = include_str!("../../../scenarios/tutorial/fence-line.dotc");
    const GAME: &str = include_str!("../../../scenarios/tutorial/fence-line-game.dotc");

    struct Tutorial;

    impl dotc_lang::Loader for Tutorial {
        fn load(&self, path: &Path) -> Result<String, String> {
            if path.ends_with("fence-line.dotc") { Ok(SCENARIO.to_string()) } else { Err("not found".into()) }
        }
    }

    fn run(game: &str) -> Replay {
        let analysis = dotc_lang::analyze(Path::new("tutorial/test.dotc"), game, &Tutorial);
        replay(&analysis, &ReplayOptions { source: Some(game), ..ReplayOptions::default() })
    }

    /// A log on the tutorial's scenario: a header and the given turns.
    fn play(turns: &str) -> (String, Replay) {
        let game = format!(
            "game \"test\" {{\n    scenario \"fence-line.dotc\"\n    players union \"A\", confederate \"B\"\n}}\n{turns}"
        );
        let replay = run(&game);
        (game, replay)
    }

    fn errors_at(game: &str, replay: &Replay, text: &str) -> Vec<Finding> {
        let line = crate::replay::tests::line_holding(game, text, 0);
        let found = crate::replay::tests::findings_on_line(game, replay, line);
        found.into_iter().filter(|f| f.level == Level::Error).collect()
    }

    /// The tutorial's first two turns and the third up to the melee phase's retreat, with `melee`
    /// lines put in its place.
    fn tutorial_until_melee(melee: &str) -> String {
        let cut = GAME.find("        retreat \"19th Maine\"").unwrap_or(GAME.len());
        let rest = GAME.get(cut..).unwrap_or("");
        let after = rest.find('\n').map_or("", |i| rest.get(i + 1..).unwrap_or(""));
        format!("{}{melee}\n{after}", GAME.get(..cut).unwrap_or(""))
    }

    #[test]
    fn ch16_7_1_a_disordered_unit_may_not_assault() {
        // The 50th Georgia is disordered in turn 2 of the tutorial; in turn 3 it charges anyway.
        let game = GAME.replace(
            "        // The dismounted troopers edge closer",
            "        move \"50th Georgia\" to (28, 24) facing west\n        assault \"50th Georgia\" -> \"20th Connecticut\" pip \"Col. Thomas Carrow\" {\n            melee roll [6] vs [1]\n        }\n        // The dismounted troopers edge closer",
        );
        let replay = run(&game);
        let found = errors_at(&game, &replay, "assault \"50th Georgia\"");
        assert!(
            found.iter().any(|f| f.rule.contains("RULINGS C6") && f.rule.contains("Ch16 7.1")),
            "{found:#?}"
        );
    }

    #[test]
    fn ch16_7_1_a_hesitant_brigade_may_not_assault() {
        // Ostrander's brigade (9 stands) is Hesitant at 3 lost (RULINGS G6): the confederate fire
        // of turn 1 takes 2 stands from each of its regiments behind the stone wall.
        let (game, replay) = play(
            "turn 1 confederate {\n    fire {\n        fire \"50th Georgia\" at \"20th Connecticut\" roll [6, 6, 6, 6, 6] discipline [6] saves [1, 1, 1, 1, 1]\n        fire \"51st Georgia\" at \"150th Pennsylvania\" roll [6, 6, 6, 6] discipline [6] saves [1, 1, 1, 1]\n    }\n}\nturn 2 union {\n    command {\n        pips \"Col. Jacob Ostrander\" roll [6] => 2\n    }\n    maneuver {\n        move \"150th Pennsylvania\" to (21.5, 30) facing east\n        assault \"150th Pennsylvania\" -> \"51st Georgia\" pip \"Col. Jacob Ostrander\" {\n            melee roll [6] vs [1]\n        }\n    }\n}\n",
        );
        let found = errors_at(&game, &replay, "assault \"150th Pennsylvania\"");
        assert!(
            found.iter().any(|f| f.rule.contains("RULE-07-2.3") && f.rule.contains("Ch16 7.1")),
            "{found:#?}\n{:#?}",
            replay.summary
        );
    }

    #[test]
    fn ch16_7_4_only_a_melee_victor_consolidates() {
        // The tutorial's 9th Louisiana wins its melee; the 6th Louisiana fought none.
        let game = tutorial_until_melee(
            "        retreat \"19th Maine\" to (13.5, 13) facing east\n        consolidate \"9th Louisiana\" to (18.5, 14) facing west\n        consolidate \"6th Louisiana\" to (29, 6) facing west",
        );
        let replay = run(&game);
        let victor = errors_at(&game, &replay, "consolidate \"9th Louisiana\"");
        assert!(victor.is_empty(), "{victor:#?}");
        let found = errors_at(&game, &replay, "consolidate \"6th Louisiana\"");
        assert!(
            found.iter().any(|f| f.rule == "Ch16 7.4" && f.message.contains("won no melee")),
            "{found:#?}"
        );
    }

    #[test]
    fn ch16_7_3_a_standalone_melee_needs_contact() {
        let (game, replay) = play(
            "turn 1 confederate {\n    maneuver {\n        melee \"6th Louisiana\" -> \"12th New Jersey\" roll [6] vs [1]\n    }\n}\n",
        );
        let found = errors_at(&game, &replay, "melee \"6th Louisiana\"");
        assert!(
            found.iter().any(|f| f.rule.contains("7.3") && f.message.contains("not in contact")),
            "{found:#?}"
        );
        let nj = replay.summary.units.iter().find(|u| u.name == "12th New Jersey").map_or(0, |u| u.stands);
        assert_eq!(nj, 5);
    }

    #[test]
    fn ch16_7_3_a_continued_melee_is_resolved_and_its_claim_checked() {
        // After the tutorial's assault the 9th Louisiana stands in contact with the 19th Maine;
        // a further melee in the melee phase, 6 against 1, goes to the attacker, whatever the log
        // claims.
        let game = tutorial_until_melee(
            "        melee \"9th Louisiana\" -> \"19th Maine\" roll [6] vs [1] => defender wins",
        );
        let replay = run(&game);
        let found = errors_at(&game, &replay, "melee \"9th Louisiana\"");
        assert!(found.iter().any(|f| f.message.contains("the rules give attacker wins")), "{found:#?}");
    }

    #[test]
    fn ch16_7_4_a_breakthrough_needs_the_engines_sweep() {
        let game = tutorial_until_melee(
            "        retreat \"19th Maine\" to (13.5, 13) facing east\n        breakthrough \"9th Louisiana\" -> \"12th New Jersey\" roll [6] vs [1]",
        );
        let replay = run(&game);
        let found = errors_at(&game, &replay, "breakthrough");
        assert!(
            found.iter().any(|f| f.rule.contains("RULINGS G14") && f.message.contains("no breakthrough"))
        );
    }

    #[test]
    fn ch16_2_4_a_leader_roll_needs_an_attached_leader_and_a_trigger() {
        let (game, replay) = play(
            "turn 1 confederate {\n    fire {\n        leader \"Brig. Gen. Émile Laforêt\" roll [6] => killed\n    }\n}\n",
        );
        let found = errors_at(&game, &replay, "leader \"Brig.");
        assert!(
            found
                .iter()
                .any(|f| f.rule.contains("Ch16 2.4") && f.message.contains("attached to no regiment"))
        );
        assert!(replay.events.iter().all(|e| !matches!(e.event.what, What::LeaderCasualty { .. })));
    }

    #[test]
    fn ch16_2_3_a_dress_on_the_colors_push_pays_once() {
        // The 6th and 9th Louisiana charge together; Laforêt (4 pips) pays 2 for the push, once.
        let (game, replay) = play(
            "turn 1 confederate {\n    command {\n        pips \"Brig. Gen. Émile Laforêt\" roll [5] => 4\n    }\n    maneuver {\n        move \"6th Louisiana\" to (27, 10) facing west\n        move \"9th Louisiana\" to (27, 15) facing west\n        assault \"9th Louisiana\" -> \"19th Maine\" pip \"Brig. Gen. Émile Laforêt\" dress_on_the_colors {\n            melee roll [6] vs [1]\n        }\n        assault \"6th Louisiana\" -> \"12th New Jersey\" pip \"Brig. Gen. Émile Laforêt\" dress_on_the_colors {\n            rebel_yell roll [6]\n            melee roll [6] vs [1]\n        }\n    }\n}\n",
        );
        let paid: Vec<i32> = replay
            .events
            .iter()
            .filter_map(|e| match &e.event.what {
                What::Pips { change, .. } if *change < 0 => Some(*change),
                _ => None,
            })
            .collect();
        assert_eq!(paid, vec![-2], "{:#?}", replay.findings);
        assert!(errors_at(&game, &replay, "assault \"6th Louisiana\"").is_empty(), "{:#?}", replay.findings);
    }
}

#[cfg(test)]
#[path = "assault/situations.rs"]
mod situations;
#[path = "assault/solitary.rs"]
mod solitary;
#[cfg(test)]
#[path = "assault/solitary_situations.rs"]
mod solitary_situations;

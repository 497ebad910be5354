//! A counterexample told as a short story in plain words, built from its run's trace: the
//! faults as they struck, the grants, lease ends and losses, the writes that matter, and the
//! check that broke and why. The words are in `content/search.toml`; this module only picks
//! the events and fills the words in.

use super::describe;
use super::search::words::{self, fill};
use crate::lesson::checks::{CheckWords, ViolationWords};
use crate::model::{
    CheckId, CheckStatus, EventKind, Fault, LeaseEnd, Lifecycle, NodeId, Run, ServiceEvent,
    SimDuration, Violation, ViolationDetail, WriteRecord, WriteVerdict,
};

/// The story of the first broken check `check` of `run`, one sentence per line, in time
/// order; empty if that check did not break.
pub fn story(run: &Run, check: CheckId) -> Vec<String> {
    let CheckStatus::Broken { first, .. } = run.check(check) else {
        return Vec::new();
    };
    let writes = writes_told(run, &first);
    let mut lines: Vec<String> = run
        .events_until(first.at)
        .iter()
        .filter_map(|e| line(e.at, e.node, &e.kind, &first, &writes))
        .collect();
    lines.push(fill(
        words::STORY_BROKEN,
        &[
            ("check", check.title()),
            ("at", &first.at.to_string()),
            ("why", &first.explanation()),
        ],
    ));
    lines
}

/// The writes the story tells: for a stale write, the last one that landed with the higher
/// token before it and the stale one itself.
fn writes_told(run: &Run, v: &Violation) -> Vec<WriteRecord> {
    let ViolationDetail::StaleAccepted {
        client,
        token,
        highest,
    } = v.detail
    else {
        return Vec::new();
    };
    let log = run.storage_log_until(v.at);
    let last =
        |wanted: &dyn Fn(&WriteRecord) -> bool| log.iter().rev().find(|w| wanted(w)).copied();
    let newer = last(&|w| w.token == highest && matches!(w.verdict, WriteVerdict::Accepted));
    let stale = last(&|w| w.client == client && w.token == token);
    newer.into_iter().chain(stale).collect()
}

fn line(
    at: crate::model::SimTime,
    node: NodeId,
    kind: &EventKind,
    v: &Violation,
    writes: &[WriteRecord],
) -> Option<String> {
    let at_text = at.to_string();
    let at_pair = ("at", at_text.as_str());
    let client_of = |n: NodeId| match n {
        NodeId::Client(c) => Some(c),
        _ => None,
    };
    match *kind {
        EventKind::Paused {
            until,
            in_write_path,
        } => {
            let template = if in_write_path {
                words::STORY_PAUSE_WRITE
            } else {
                words::STORY_PAUSE
            };
            let client = client_of(node)?.to_string();
            let duration = (until - at).to_string();
            Some(fill(
                template,
                &[at_pair, ("client", &client), ("duration", &duration)],
            ))
        }
        EventKind::Fault { fault } => fault_line(at_pair, fault),
        EventKind::Service(event) => service_line(at_pair, event),
        EventKind::Lifecycle {
            to: Lifecycle::Lost(reason),
            ..
        } => {
            let client = client_of(node)?.to_string();
            Some(fill(
                words::STORY_LOST,
                &[
                    at_pair,
                    ("client", &client),
                    ("reason", describe::lost_reason(reason)),
                ],
            ))
        }
        EventKind::WriteIssued { token, .. }
            if at == v.at && matches!(v.detail, ViolationDetail::WriteAfterLost { .. }) =>
        {
            let (client, token) = (client_of(node)?.to_string(), token.to_string());
            Some(fill(
                words::STORY_ISSUED,
                &[at_pair, ("client", &client), ("token", &token)],
            ))
        }
        EventKind::Write(record) if writes.contains(&record) => {
            let template = match record.verdict {
                WriteVerdict::Accepted => words::STORY_ACCEPTED,
                _ => words::STORY_REJECTED,
            };
            let (client, token) = (record.client.to_string(), record.token.to_string());
            Some(fill(
                template,
                &[at_pair, ("client", &client), ("token", &token)],
            ))
        }
        _ => None,
    }
}

fn fault_line(at_pair: (&str, &str), fault: Fault) -> Option<String> {
    let duration = |d: SimDuration| d.to_string();
    let (template, values): (&str, Vec<(&str, String)>) = match fault {
        // A pause is told when it strikes (`Paused`), which for a write-path pause is later.
        Fault::Pause { .. } => return None,
        Fault::Partition { a, b, duration: d } => (
            words::STORY_PARTITION,
            vec![
                ("a", describe::node(a)),
                ("b", describe::node(b)),
                ("duration", duration(d)),
            ],
        ),
        Fault::DelayNextPacket { from, to, extra } => (
            words::STORY_DELAY,
            vec![
                ("a", describe::node(from)),
                ("b", describe::node(to)),
                ("duration", duration(extra)),
            ],
        ),
        Fault::ClockStep { node, by_micros } => {
            let sign = if by_micros < 0 { "-" } else { "+" };
            let amount = format!("{sign}{}", SimDuration(by_micros.unsigned_abs()));
            (
                words::STORY_STEP,
                vec![("node", describe::node(node)), ("amount", amount)],
            )
        }
        Fault::ClockDrift { node, ppm } => (
            words::STORY_DRIFT,
            vec![("node", describe::node(node)), ("ppm", format!("{ppm:+}"))],
        ),
        Fault::Crash { client } => (words::STORY_CRASH, vec![("client", client.to_string())]),
        Fault::RevokeLease => (words::STORY_REVOKE, Vec::new()),
    };
    let mut pairs: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
    pairs.push(at_pair);
    Some(fill(template, &pairs))
}

fn service_line(at_pair: (&str, &str), event: ServiceEvent) -> Option<String> {
    let (template, client, token) = match event {
        ServiceEvent::Granted { client, token, .. } => (words::STORY_GRANTED, client, token),
        ServiceEvent::Ended { client, token, how } => {
            let template = match how {
                LeaseEnd::Expired => words::STORY_EXPIRED,
                LeaseEnd::Released => words::STORY_RELEASED,
                LeaseEnd::Revoked => words::STORY_REVOKED,
            };
            (template, client, token)
        }
        _ => return None,
    };
    let (client, token) = (client.to_string(), token.to_string());
    Some(fill(
        template,
        &[at_pair, ("client", &client), ("token", &token)],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::search::{first_broken, search_block, shrink, with_plan};
    use crate::model::{Policy, Scenario, Simulation};

    #[test]
    fn a_shrunk_unfenced_pause_tells_who_paused_who_acquired_what_landed_and_what_broke() {
        let base = Scenario {
            policy: Policy {
                fencing: false,
                ..Policy::prefer()
            },
            ..Scenario::default()
        };
        let (_, found) = search_block(&base, &crate::lab::search::default_spec(1), 0, 500);
        let shrunk = shrink(&base, &found.expect("found"));
        let run = Simulation::run(&with_plan(&base, shrunk.plan.clone()));
        let (check, _) = first_broken(run.scenario()).expect("still broken");
        let lines = story(&run, check);
        let text = lines.join("\n");
        assert!(text.contains("froze for"), "{text}");
        assert!(text.contains("acquired the lease with token"), "{text}");
        assert!(text.contains("storage accepted client"), "{text}");
        assert!(
            lines.last().is_some_and(|l| l.contains(check.title())),
            "{text}"
        );
        assert!(!text.contains('{'), "every word filled in: {text}");
        assert!(lines.len() <= 12, "a short story: {text}");
    }

    #[test]
    fn a_run_that_breaks_nothing_has_no_story() {
        let run = Simulation::run(&Scenario::default());
        assert!(story(&run, CheckId::OrderedByToken).is_empty());
    }
}

//! A counterexample told as a short story in plain words, built from its run's trace: the
//! faults as they struck, the grants, lease ends and losses, the writes that matter, and the
//! check that broke and why. The words are in `content/search.toml`; this module only picks
//! the events and fills the words in.

use super::describe;
use crate::lesson::checks::{CheckWords, ViolationWords};
use crate::lesson::sentences;
use crate::model::{
    CheckId, CheckStatus, EventKind, Fault, LeaseEnd, Lifecycle, NodeId, Run, RunQuestions,
    ServiceEvent, SimDuration, Violation, ViolationDetail, WriteRecord, WriteVerdict,
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
    lines.push(
        sentences::search::story::Broken {
            check: check.title(),
            at: first.at,
            why: &first.explanation(),
        }
        .to_string(),
    );
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
    let log = run.storage_log().iter().take_while(|w| w.at <= v.at);
    let last =
        |wanted: &dyn Fn(&WriteRecord) -> bool| log.clone().filter(|w| wanted(w)).last().copied();
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
    use sentences::search::story as said;
    let client_of = |n: NodeId| match n {
        NodeId::Client(c) => Some(c),
        _ => None,
    };
    match *kind {
        EventKind::Paused {
            until,
            in_write_path,
        } => {
            let (client, duration) = (client_of(node)?, until - at);
            Some(if in_write_path {
                said::PauseWrite {
                    at,
                    client,
                    duration,
                }
                .to_string()
            } else {
                said::Pause {
                    at,
                    client,
                    duration,
                }
                .to_string()
            })
        }
        EventKind::Fault { fault } => fault_line(at, fault),
        EventKind::Service(event) => service_line(at, event),
        EventKind::Lifecycle {
            to: Lifecycle::Lost(reason),
            ..
        } => Some(
            said::Lost {
                at,
                client: client_of(node)?,
                reason: describe::lost_reason(reason),
            }
            .to_string(),
        ),
        EventKind::WriteIssued { token, .. }
            if at == v.at
                && matches!(
                    v.detail,
                    ViolationDetail::WriteAfterLost { .. }
                        | ViolationDetail::WriteAfterNotOwner { .. }
                        | ViolationDetail::WriteAfterDeadline { .. }
                        | ViolationDetail::WriteAfterRelease { .. }
                ) =>
        {
            let client = client_of(node)?;
            Some(said::Issued { at, client, token }.to_string())
        }
        EventKind::Write(record) if writes.contains(&record) => {
            let (client, token) = (record.client, record.token);
            Some(match record.verdict {
                WriteVerdict::Accepted => said::Accepted { at, client, token }.to_string(),
                _ => said::Rejected { at, client, token }.to_string(),
            })
        }
        _ => None,
    }
}

fn fault_line(at: crate::model::SimTime, fault: Fault) -> Option<String> {
    use sentences::search::story as said;
    let told = match fault {
        // A pause is told when it strikes (`Paused`), which for a write-path pause is later.
        Fault::Pause { .. } => return None,
        Fault::Partition { a, b, duration } => said::Partition {
            at,
            a: describe::node(a),
            b: describe::node(b),
            duration,
        }
        .to_string(),
        Fault::DelayNextPacket { from, to, extra } => said::Delay {
            at,
            a: describe::node(from),
            b: describe::node(to),
            duration: extra,
        }
        .to_string(),
        Fault::ClockStep { node, by_micros } => {
            let sign = if by_micros < 0 { "-" } else { "+" };
            said::Step {
                at,
                node: describe::node(node),
                amount: format!("{sign}{}", SimDuration(by_micros.unsigned_abs())),
            }
            .to_string()
        }
        Fault::ClockDrift { node, ppm } => said::Drift {
            at,
            node: describe::node(node),
            ppm: format!("{ppm:+}"),
        }
        .to_string(),
        Fault::Crash { client } => said::Crash { at, client }.to_string(),
        Fault::RevokeLease => said::Revoke { at }.to_string(),
    };
    Some(told)
}

fn service_line(at: crate::model::SimTime, event: ServiceEvent) -> Option<String> {
    use sentences::search::story as said;
    match event {
        ServiceEvent::Granted { client, token, .. } => {
            Some(said::Granted { at, client, token }.to_string())
        }
        ServiceEvent::Ended { client, token, how } => Some(match how {
            LeaseEnd::Expired => said::Expired { at, client, token }.to_string(),
            LeaseEnd::Released => said::Released { at, client, token }.to_string(),
            LeaseEnd::Revoked => said::Revoked { at, client, token }.to_string(),
        }),
        _ => None,
    }
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

// The built-in LeaseClient (Prefer) driven through a tiny scripted world (one client, a lock
// service that answers each request after 2 × latency or never, pauses, no drift), printing
// what it sends. drive.cjs and drive.py run a learner's client through the same world; run.sh
// compares them. Not a cargo test of its own: run.sh copies it into tests/ for one run.
use lease_lab::model::client::{ClientConfig, ClientEvent, LeaseClient, Lifecycle, LostReason};
use lease_lab::model::ids::{ClientId, FencingToken, RequestId};
use lease_lab::model::msg::Message;
use lease_lab::model::policy::Policy;
use lease_lab::model::time::{LocalNow, LocalTime, SimDuration};
use std::fmt::Write;

fn at(t: i64) -> LocalNow {
    LocalNow { mono: LocalTime(t), wall: LocalTime(t) }
}

fn run(line: &str) -> String {
    let v: Vec<i64> = line.split_whitespace().map(|x| x.parse().unwrap()).collect();
    let (lat, ttl, renew, retry, acq, timeout, work, margin, rel, end) =
        (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]);
    let np = v[10] as usize;
    let pauses: Vec<(i64, i64)> = (0..np).map(|i| (v[11 + 2 * i], v[12 + 2 * i])).collect();
    let nf = v[11 + 2 * np] as usize;
    let fates: Vec<i64> = v[12 + 2 * np..12 + 2 * np + nf].to_vec();
    let d = |x: i64| SimDuration(x as u64);
    let cfg = ClientConfig {
        ttl: d(ttl), renew_interval: d(renew), request_timeout: d(timeout), retry_interval: d(retry),
        acquire_retry: d(acq), work_slice: d(work), drift_margin: d(margin), start_at: LocalTime(0),
        release_after: if rel < 0 { None } else { Some(d(rel)) }, policy: Policy::prefer(),
    };
    let mut c = LeaseClient::new(ClientId::A, cfg);
    let mut out = String::new();
    // in flight: (arrive, seq, msg)
    let mut flight: Vec<(i64, u64, Message)> = vec![];
    let mut inbox: Vec<(i64, Message)> = vec![];
    let mut seq = 0u64;
    let mut paused_until: Option<i64> = None;
    let mut next_pause = 0usize;
    let mut now = 0i64;
    let drain = |c: &mut LeaseClient, now: i64, out: &mut String, flight: &mut Vec<(i64, u64, Message)>, seq: &mut u64| {
        while let Some(ev) = c.poll_event() {
            if let ClientEvent::Lifecycle { to: Lifecycle::Lost(r), .. } = ev {
                let r = if r == LostReason::NotOwner { "not_owner" } else { "deadline" };
                writeln!(out, "{now} lost {r}").unwrap();
            }
        }
        while let Some(tx) = c.poll_transmit() {
            let (what, req, kind) = match tx.msg {
                Message::Acquire { req, .. } => ("acquire", req.0, 0),
                Message::Renew { req, .. } => ("renew", req.0, 1),
                Message::Release { req, .. } => ("release", req.0, 2),
                Message::Write { seq, .. } => ("write", seq, 3),
                _ => unreachable!(),
            };
            writeln!(out, "{now} {what} {req}").unwrap();
            if kind == 3 { continue; }
            let fate = fates.get(req as usize - 1).copied().unwrap_or(0);
            if fate == 1 { continue; }
            let r = RequestId(req);
            let tok = FencingToken(33);
            let m = match (kind, fate) {
                (0, 0) => Message::Granted { req: r, token: tok },
                (0, _) => Message::Busy { req: r },
                (1, 0) => Message::RenewOk { req: r, token: tok },
                (1, _) => Message::NotOwner { req: r, token: tok },
                _ => Message::ReleaseReply { req: r, deleted: true },
            };
            *seq += 1;
            flight.push((now + 2 * lat, *seq, m));
        }
    };
    loop {
        // candidates in tie order: pause start, delivery, client (wake / inbox / timer)
        let mut best: Option<(i64, u8)> = None;
        let mut consider = |t: i64, k: u8| { if best.map_or(true, |(b, _)| t < b) { best = Some((t, k)); } };
        if next_pause < pauses.len() { consider(pauses[next_pause].0.max(now), 0); }
        if let Some(f) = flight.iter().min_by_key(|f| (f.0, f.1)) { consider(f.0.max(now), 1); }
        if let Some(w) = paused_until { consider(w.max(now), 2); } else {
            let tt = c.poll_timeout(at(now)).map(|m| m.0);
            let ib = inbox.first().map(|m| m.0);
            match (tt, ib) {
                (Some(t), Some(m)) if m <= t => consider(now, 3),
                (None, Some(_)) => consider(now, 3),
                (Some(t), _) => consider(t.max(now), 4),
                _ => {}
            }
        }
        let Some((t, k)) = best else { break };
        if t > end { break; }
        now = t;
        match k {
            0 => { let (s, e) = pauses[next_pause]; next_pause += 1; let _ = s;
                   paused_until = Some(paused_until.map_or(e, |p| p.max(e))); }
            1 => {
                let i = (0..flight.len()).min_by_key(|&i| (flight[i].0, flight[i].1)).unwrap();
                let (a, _, m) = flight.remove(i);
                if paused_until.is_some() { inbox.push((a, m)); } else {
                    c.handle_message(at(now), m);
                    drain(&mut c, now, &mut out, &mut flight, &mut seq);
                }
            }
            2 => { paused_until = None; }
            3 => { let (_, m) = inbox.remove(0); c.handle_message(at(now), m); drain(&mut c, now, &mut out, &mut flight, &mut seq); }
            _ => { c.handle_timeout(at(now)); drain(&mut c, now, &mut out, &mut flight, &mut seq); }
        }
    }
    out
}

#[test]
fn mirror() {
    let Ok(path) = std::env::var("MIRROR_IN") else { return };
    let text = std::fs::read_to_string(path).unwrap();
    let mut all = String::new();
    for line in text.lines() { all.push_str(&run(line)); all.push_str("--\n"); }
    std::fs::write(std::env::var("MIRROR_OUT").unwrap(), all).unwrap();
}

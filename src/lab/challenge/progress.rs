//! The learner's progress through the challenges, and its storage form.
//!
//! The page keeps it in `localStorage` under [`STORAGE_KEY`] as one line of `key=value`
//! parts joined by `;`, for example
//! `v=1;solved=pitfall,break-it;tried=ntp-step;required=pitfall,break-it,ntp-step;total=8`:
//! `solved` and `tried` list challenge ids, `required` the ids that count toward completing
//! the course, `total` how many challenges there are. The last two are written for readers
//! outside the laboratory (the course package's bridge) and ignored when read back. Saved
//! text is untrusted: anything malformed makes [`Progress::decode`] fail, and the page resets
//! it with a notice.

use std::collections::BTreeMap;

use super::spec::Spec;

/// The localStorage key (bump the suffix if the format ever changes).
pub const STORAGE_KEY: &str = "lease-lab.challenges.v1";
/// The window event the laboratory sends each time it saves the record, so the lesson's
/// course package reports the change (the page gets no storage event for its own writes).
pub const SAVED_EVENT: &str = "lease-lab-challenges-saved";
/// Saved text longer than this is not read.
const MAX_SAVED_LEN: usize = 4_096;

/// Where a learner stands on one challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    NotTried,
    /// Checked at least once, never solved.
    Tried,
    Solved,
}

/// Each challenge's status, by id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    status: BTreeMap<String, Status>,
}

/// The saved text could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unreadable;

/// Counts for the progress line and the course package.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Challenges solved.
    pub solved: usize,
    /// Challenges in all.
    pub total: usize,
    /// Challenges that count toward completion.
    pub required: usize,
    /// Of those, how many are solved.
    pub required_solved: usize,
}

impl Tally {
    /// Before the laboratory saved a record: none solved, of every challenge there is.
    pub fn none_solved() -> Tally {
        let (total, required) = include!(concat!(env!("OUT_DIR"), "/challenge_counts.rs"));
        Tally {
            solved: 0,
            total,
            required,
            required_solved: 0,
        }
    }

    /// The counts a saved record gives a reader outside the laboratory, which does not hold
    /// the challenges themselves (the course package's side of the lesson): `None` if the
    /// record is unreadable or empty (the laboratory never saved one).
    pub fn of_saved(saved: &str) -> Option<Tally> {
        Progress::decode(saved, &[]).ok()?;
        let field = |key: &str| {
            saved
                .split(';')
                .find_map(|part| part.strip_prefix(key)?.strip_prefix('='))
        };
        let solved = ids(field("solved")?).ok()?;
        let required = ids(field("required")?).ok()?;
        let total = field("total")?.parse::<usize>().ok()?;
        Some(Tally {
            solved: solved.len().min(total),
            total,
            required: required.len(),
            required_solved: required.iter().filter(|id| solved.contains(id)).count(),
        })
    }
}

impl Progress {
    /// The status of the challenge `id`.
    pub fn status(&self, id: &str) -> Status {
        self.status.get(id).copied().unwrap_or(Status::NotTried)
    }

    /// A copy after one graded try of `id`: solved stays solved.
    pub fn graded(&self, id: &str, solved: bool) -> Progress {
        let mut next = self.clone();
        let status = match (self.status(id), solved) {
            (Status::Solved, _) | (_, true) => Status::Solved,
            _ => Status::Tried,
        };
        next.status.insert(id.to_owned(), status);
        next
    }

    /// The counts over `specs`.
    pub fn tally(&self, specs: &[Spec]) -> Tally {
        let solved = |s: &&Spec| self.status(s.text.id) == Status::Solved;
        let required = || specs.iter().filter(|s| s.text.required);
        Tally {
            solved: specs.iter().filter(solved).count(),
            total: specs.len(),
            required: required().count(),
            required_solved: required().filter(solved).count(),
        }
    }

    /// The storage form (see the module's documentation).
    pub fn encode(&self, specs: &[Spec]) -> String {
        let ids = |wanted: Status| {
            let listed: Vec<&str> = self
                .status
                .iter()
                .filter(|(_, s)| **s == wanted)
                .map(|(id, _)| id.as_str())
                .collect();
            listed.join(",")
        };
        let required: Vec<&str> = specs
            .iter()
            .filter(|s| s.text.required)
            .map(|s| s.text.id)
            .collect();
        format!(
            "v=1;solved={};tried={};required={};total={}",
            ids(Status::Solved),
            ids(Status::Tried),
            required.join(","),
            specs.len()
        )
    }

    /// Reads the storage form, keeping the statuses of the ids in `known`. Empty text is no
    /// progress; text that is not this form fails.
    pub fn decode(saved: &str, known: &[&str]) -> Result<Progress, Unreadable> {
        let mut progress = Progress::default();
        if saved.is_empty() {
            return Ok(progress);
        }
        if saved.len() > MAX_SAVED_LEN {
            return Err(Unreadable);
        }
        let mut parts = saved.split(';').map(|part| part.split_once('='));
        if parts.next() != Some(Some(("v", "1"))) {
            return Err(Unreadable);
        }
        let mut seen: Vec<&str> = Vec::new();
        for part in parts {
            let (key, value) = part.ok_or(Unreadable)?;
            if seen.contains(&key) {
                return Err(Unreadable);
            }
            seen.push(key);
            let status = match key {
                "solved" => Status::Solved,
                "tried" => Status::Tried,
                "required" => {
                    ids(value)?;
                    continue;
                }
                "total" => {
                    value.parse::<u32>().map_err(|_| Unreadable)?;
                    continue;
                }
                _ => return Err(Unreadable),
            };
            for id in ids(value)? {
                if progress.status.insert(id.to_owned(), status).is_some() {
                    return Err(Unreadable);
                }
            }
        }
        progress.status.retain(|id, _| known.contains(&id.as_str()));
        Ok(progress)
    }
}

/// A comma-separated list of challenge ids (lowercase letters, digits and dashes).
fn ids(list: &str) -> Result<Vec<&str>, Unreadable> {
    if list.is_empty() {
        return Ok(Vec::new());
    }
    list.split(',')
        .map(|id| {
            let slug = !id.is_empty()
                && id.len() <= 64
                && id
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            if slug {
                Ok(id)
            } else {
                Err(Unreadable)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::challenge::spec::all;

    const KNOWN: [&str; 3] = ["pitfall", "break-it", "ntp-step"];

    #[test]
    fn a_record_survives_its_storage_form_and_solved_stays_solved() {
        let progress = Progress::default()
            .graded("pitfall", false)
            .graded("pitfall", true)
            .graded("pitfall", false)
            .graded("ntp-step", false);
        assert_eq!(progress.status("pitfall"), Status::Solved);
        assert_eq!(progress.status("ntp-step"), Status::Tried);
        assert_eq!(progress.status("break-it"), Status::NotTried);
        let text = progress.encode(all());
        assert!(text.starts_with("v=1;solved=pitfall;tried=ntp-step;required="));
        assert_eq!(Progress::decode(&text, &KNOWN), Ok(progress));
    }

    #[test]
    fn the_record_tells_the_course_package_what_is_required() {
        let specs = all();
        let text = Progress::default().graded("pitfall", true).encode(specs);
        let tally = Progress::decode(&text, &KNOWN).unwrap().tally(specs);
        assert_eq!(tally.solved, 1);
        assert_eq!(tally.total, specs.len());
        assert!(text.ends_with(&format!(";total={}", specs.len())));
        let required = specs.iter().filter(|s| s.text.required).count();
        assert_eq!(tally.required, required);
        assert_eq!(tally.required_solved, 1);
    }

    #[test]
    fn a_reader_without_the_challenges_counts_the_same_from_the_record() {
        let specs = all();
        let ids: Vec<&str> = specs.iter().map(|s| s.text.id).collect();
        let progress = Progress::default()
            .graded(ids[0], true)
            .graded(ids[1], false)
            .graded(ids[2], true);
        let text = progress.encode(specs);
        assert_eq!(Tally::of_saved(&text), Some(progress.tally(specs)));
        assert_eq!(Tally::of_saved(""), None);
        assert_eq!(Tally::of_saved("v=1;solved=pitfall"), None);
        assert_eq!(Tally::of_saved("v=1;solved=Pit;required=;total=8"), None);
    }

    #[test]
    fn before_any_record_every_challenge_is_counted_and_none_solved() {
        let specs = all();
        let empty = Progress::default().encode(specs);
        assert_eq!(Tally::none_solved(), Progress::default().tally(specs));
        assert_eq!(Tally::of_saved(&empty), Some(Tally::none_solved()));
    }

    #[test]
    fn malformed_records_are_refused_and_unknown_ids_dropped() {
        for bad in [
            "solved=pitfall",
            "v=2;solved=pitfall",
            "v=1;solved=pitfall;solved=break-it",
            "v=1;solved=pitfall;tried=pitfall",
            "v=1;solved=Pit fall",
            "v=1;won=pitfall",
            "v=1;solved",
            "v=1;total=many",
            "{\"v\":1}",
        ] {
            assert_eq!(Progress::decode(bad, &KNOWN), Err(Unreadable), "{bad}");
        }
        assert_eq!(Progress::decode("", &KNOWN), Ok(Progress::default()));
        let kept = Progress::decode("v=1;solved=gone,pitfall", &KNOWN).unwrap();
        assert_eq!(kept, Progress::default().graded("pitfall", true));
    }
}

//! The Q&A deck's state apart from the page: self-grades, their storage format, and shuffling.
//!
//! Saved progress is untrusted text (another version of the app, or a person, may have
//! written it), so decoding never fails: it keeps only well-formed grades for known ids.

use std::collections::BTreeMap;

/// How a learner graded themselves on one question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grade {
    Knew,
    Review,
}

/// Grades by question id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    grades: BTreeMap<String, Grade>,
}

/// Counts for the progress line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    pub known: usize,
    pub review: usize,
    pub open: usize,
    pub total: usize,
}

/// Saved progress longer than this is ignored rather than parsed.
const MAX_SAVED_LEN: usize = 4_096;

impl Progress {
    pub fn grade(&self, id: &str) -> Option<Grade> {
        self.grades.get(id).copied()
    }

    /// A copy with `id` graded.
    pub fn with(&self, id: &str, grade: Grade) -> Progress {
        let mut next = self.clone();
        next.grades.insert(id.to_owned(), grade);
        next
    }

    /// These grades, with `other`'s for the ids these leave ungraded.
    pub fn merged_over(&self, other: &Progress) -> Progress {
        let mut grades = other.grades.clone();
        grades.extend(self.grades.clone());
        Progress { grades }
    }

    /// The storage form: `id=k` or `id=r`, joined by commas, sorted by id.
    pub fn encode(&self) -> String {
        let parts: Vec<String> = self
            .grades
            .iter()
            .map(|(id, grade)| format!("{id}={}", if *grade == Grade::Knew { 'k' } else { 'r' }))
            .collect();
        parts.join(",")
    }

    /// Reads the storage form, keeping only grades for ids in `known_ids`.
    pub fn decode(saved: &str, known_ids: &[&str]) -> Progress {
        let mut grades = BTreeMap::new();
        if saved.len() <= MAX_SAVED_LEN {
            for part in saved.split(',') {
                let Some((id, mark)) = part.trim().split_once('=') else {
                    continue;
                };
                let grade = match mark {
                    "k" => Grade::Knew,
                    "r" => Grade::Review,
                    _ => continue,
                };
                if known_ids.contains(&id) {
                    grades.insert(id.to_owned(), grade);
                }
            }
        }
        Progress { grades }
    }

    pub fn tally(&self, ids: &[&str]) -> Tally {
        let count = |wanted: Grade| {
            ids.iter()
                .filter(|id| self.grade(id) == Some(wanted))
                .count()
        };
        let known = count(Grade::Knew);
        let review = count(Grade::Review);
        Tally {
            known,
            review,
            open: ids.len() - known - review,
            total: ids.len(),
        }
    }
}

/// The progress sentence, "2 known, 1 to review, 5 not graded yet, of 8".
pub fn progress_sentence(tally: Tally) -> String {
    super::sentences::lesson::qa::Progress {
        known: tally.known,
        review: tally.review,
        open: tally.open,
        total: tally.total,
    }
    .to_string()
}

/// A permutation of `0..len` from `seed` (Fisher–Yates over xorshift64*).
pub fn shuffled(len: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    let mut state = seed | 1;
    for i in (1..len).rev() {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let draw = state.wrapping_mul(0x2545_F491_4F6C_DD1D);
        let j = (draw % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDS: [&str; 3] = ["a", "b", "c"];

    #[test]
    fn grades_round_trip_through_storage() {
        let progress = Progress::default()
            .with("b", Grade::Review)
            .with("a", Grade::Knew);
        assert_eq!(progress.encode(), "a=k,b=r");
        assert_eq!(Progress::decode(&progress.encode(), &IDS), progress);
    }

    #[test]
    fn merged_grades_keep_this_browsers_and_add_the_others() {
        let local = Progress::default().with("a", Grade::Knew);
        let kept = Progress::default()
            .with("a", Grade::Review)
            .with("b", Grade::Review);
        assert_eq!(local.merged_over(&kept).encode(), "a=k,b=r");
        assert_eq!(Progress::default().merged_over(&kept), kept);
    }

    #[test]
    fn junk_and_unknown_ids_are_dropped() {
        let progress = Progress::decode("a=k,zz=k,b=x,,c,=k,c=r", &IDS);
        assert_eq!(progress.encode(), "a=k,c=r");
        assert_eq!(
            Progress::decode(&"a=k,".repeat(2_000), &IDS),
            Progress::default()
        );
    }

    #[test]
    fn the_tally_counts_every_question_once() {
        let progress = Progress::default()
            .with("a", Grade::Knew)
            .with("a", Grade::Review);
        let tally = progress.tally(&IDS);
        assert_eq!(
            tally,
            Tally {
                known: 0,
                review: 1,
                open: 2,
                total: 3
            }
        );
        assert_eq!(
            progress_sentence(tally),
            "0 known, 1 to review, 2 not graded yet, of 3"
        );
    }

    #[test]
    fn shuffling_is_a_permutation_that_depends_on_the_seed() {
        let mut a = shuffled(12, 7);
        assert_ne!(a, shuffled(12, 8));
        assert_eq!(a, shuffled(12, 7));
        a.sort_unstable();
        assert_eq!(a, (0..12).collect::<Vec<_>>());
        assert_eq!(shuffled(0, 1), Vec::<usize>::new());
    }
}

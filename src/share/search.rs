//! A counterexample search as a link writes it: `seed/kinds/max faults/plans`, e.g.
//! `search=42/pause.pause-write/3/20000`. Kinds are the fault words of [`super::faults`],
//! joined by `.`. Opening such a link sets the search up the same way, so pressing Start
//! reproduces its result exactly (the scenario is the link's own).

use super::values::{parse_whole, ValueError};
use super::{LabLink, LinkState};
use crate::lab::{Lab, LabAction};
use crate::lesson::content::REASONS;
use crate::lesson::reasons;
use crate::lesson::sentences;
use crate::model::search::{
    with_plan, Counterexample, FaultKind, SearchSpec, MAX_BUDGET, MAX_PLAN_FAULTS,
};
use crate::model::Scenario;
use crate::route::Tab;

/// The lab replaying `found` on `base`, its cursor at the moment the check broke.
pub fn counterexample_lab(base: &Scenario, found: &Counterexample) -> Lab {
    let lab = Lab::with_scenario(with_plan(base, found.plan.clone()), None);
    lab.apply(LabAction::Seek(found.at)).unwrap_or(lab)
}

/// The link to `found`, replayed on `base` at its violation, carrying the search `spec`.
pub fn counterexample_link(
    base: &Scenario,
    spec: &SearchSpec,
    found: &Counterexample,
) -> LinkState {
    LinkState {
        tab: Tab::Sandbox,
        lab: Some(LabLink::of(&counterexample_lab(base, found))),
        search: Some(spec.clone()),
        ..LinkState::default()
    }
}

/// Why a search could not be read, completing "This link's search …".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// Not four parts separated by `/`.
    Shape,
    /// The seed, the fault count or the plan count is not a whole number.
    Number(SearchPart, ValueError),
    /// A kind that is not a fault word, a repeated kind, or none at all.
    Kinds,
    /// The fault count or the plan count is out of range.
    Range(SearchPart),
}

/// A number of a search's link text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchPart {
    Seed,
    FaultCount,
    PlanCount,
}

impl SearchError {
    /// The phrase after "This link's search ", in the words of `content/reasons.toml`.
    pub fn describe(&self) -> String {
        let words = &REASONS.search;
        let part = |part: SearchPart| match part {
            SearchPart::Seed => words.seed,
            SearchPart::FaultCount => words.fault_count,
            SearchPart::PlanCount => words.plan_count,
        };
        match *self {
            SearchError::Shape => words.shape.to_owned(),
            SearchError::Number(p, e) => sentences::reasons::search::Number {
                part: part(p),
                why: reasons::value(e),
            }
            .to_string(),
            SearchError::Kinds => words.kinds.to_owned(),
            SearchError::Range(p) => {
                sentences::reasons::search::Range { part: part(p) }.to_string()
            }
        }
    }
}

/// The link text of `spec`.
pub fn print_search(spec: &SearchSpec) -> String {
    let kinds: Vec<&str> = spec.kinds.iter().map(|k| k.keyword()).collect();
    format!(
        "{}/{}/{}/{}",
        spec.seed,
        kinds.join("."),
        spec.max_faults,
        spec.budget
    )
}

/// Reads a search from link text; the result is always a valid [`SearchSpec`].
pub fn parse_search(text: &str) -> Result<SearchSpec, SearchError> {
    let parts: Vec<&str> = text.split('/').collect();
    let [seed, kinds, max_faults, budget] = parts.as_slice() else {
        return Err(SearchError::Shape);
    };
    let number =
        |part: SearchPart, text: &str| parse_whole(text).map_err(|e| SearchError::Number(part, e));
    let seed = number(SearchPart::Seed, seed)?;
    let max_faults = number(SearchPart::FaultCount, max_faults)?;
    let budget = number(SearchPart::PlanCount, budget)?;
    let mut kinds = kinds
        .split('.')
        .map(FaultKind::from_keyword)
        .collect::<Option<Vec<_>>>()
        .ok_or(SearchError::Kinds)?;
    let count = kinds.len();
    kinds.sort();
    kinds.dedup();
    if kinds.is_empty() || kinds.len() != count {
        return Err(SearchError::Kinds);
    }
    if !(1..=u64::from(MAX_PLAN_FAULTS)).contains(&max_faults) {
        return Err(SearchError::Range(SearchPart::FaultCount));
    }
    if !(1..=MAX_BUDGET).contains(&budget) {
        return Err(SearchError::Range(SearchPart::PlanCount));
    }
    Ok(SearchSpec {
        seed,
        kinds,
        max_faults: max_faults as u8,
        budget,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::RunQuestions;

    #[test]
    fn a_search_reads_back_as_written() {
        let spec = parse_search("42/pause-write.pause/3/20000").expect("readable");
        assert_eq!(spec.seed, 42);
        assert_eq!(
            spec.kinds,
            vec![FaultKind::Pause, FaultKind::PauseInWritePath]
        );
        assert_eq!((spec.max_faults, spec.budget), (3, 20_000));
        assert!(spec.is_valid());
        assert_eq!(print_search(&spec), "42/pause.pause-write/3/20000");
        assert_eq!(parse_search(&print_search(&spec)), Ok(spec));
    }

    #[test]
    fn a_counterexample_link_replays_the_violation_at_its_moment() {
        use crate::model::search::{search_block, shrink};
        use crate::model::Policy;
        let base = Scenario {
            policy: Policy {
                fencing: false,
                ..Policy::prefer()
            },
            ..Scenario::default()
        };
        let spec = crate::lab::search::default_spec(77);
        let (_, found) = search_block(&base, &spec, 0, 500);
        let shrunk = shrink(&base, &found.expect("found"));
        let link = counterexample_link(&base, &spec, &shrunk);
        let decoded = super::super::decode(&super::super::encode(&link));
        assert_eq!(decoded.problems, Vec::<String>::new());
        assert_eq!(decoded.state.search, Some(spec));
        let link = decoded.state.lab.expect("a lab");
        let lab = Lab::opened(
            link.scenario.clone(),
            link.preset_label(),
            link.compare,
            link.time,
        );
        let direct = counterexample_lab(&base, &shrunk);
        assert_eq!(lab.now(), shrunk.at);
        assert_eq!(lab.run().trace_hash(), direct.run().trace_hash());
        assert!(lab.run().check_at(shrunk.check, shrunk.at).is_broken());
    }

    #[test]
    fn a_bad_search_is_explained() {
        for (text, error) in [
            ("42/pause/3", SearchError::Shape),
            (
                "x/pause/3/10",
                SearchError::Number(SearchPart::Seed, ValueError::NotANumber),
            ),
            ("1/pause.wobble/3/10", SearchError::Kinds),
            ("1/pause.pause/3/10", SearchError::Kinds),
            ("1//3/10", SearchError::Kinds),
            ("1/pause/0/10", SearchError::Range(SearchPart::FaultCount)),
            ("1/pause/3/0", SearchError::Range(SearchPart::PlanCount)),
            (
                "1/pause/3/99999999999",
                SearchError::Range(SearchPart::PlanCount),
            ),
        ] {
            assert_eq!(parse_search(text), Err(error), "{text}");
            assert!(!error.describe().is_empty());
        }
    }
}

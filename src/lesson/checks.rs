//! The words of the four checks and of the checks panel, compiled in from
//! `content/checks.toml`, and the explanation of a violation: the content's sentence filled
//! with the violation's facts.
//! The model keeps only ids and facts; this is where they become sentences.

pub use super::content::{CheckText, CheckTexts, CountLabels, PanelText, CHECK_TEXTS};
use crate::model::{CheckId, Violation, ViolationDetail};

/// The words of one check.
pub fn text(id: CheckId) -> &'static CheckText {
    match id {
        CheckId::SingleHolder => &CHECK_TEXTS.single_holder,
        CheckId::NoStaleAccepted => &CHECK_TEXTS.no_stale_accepted,
        CheckId::NoWriteAfterLost => &CHECK_TEXTS.no_write_after_lost,
        CheckId::OrderedByToken => &CHECK_TEXTS.ordered_by_token,
    }
}

/// The words of a check, for views.
pub trait CheckWords {
    /// The check as a sentence.
    fn title(self) -> &'static str;
    /// What would have prevented a violation.
    fn prevention(self) -> &'static str;
    /// Why the check does not apply when it does not.
    fn not_applicable(self) -> &'static str;
}

impl CheckWords for CheckId {
    fn title(self) -> &'static str {
        text(self).title
    }
    fn prevention(self) -> &'static str {
        text(self).prevention
    }
    fn not_applicable(self) -> &'static str {
        text(self).not_applicable
    }
}

/// The words of a violation, for views.
pub trait ViolationWords {
    /// What went wrong, in plain English.
    fn explanation(&self) -> String;
    /// What would have prevented it.
    fn prevention(&self) -> &'static str;
}

impl ViolationWords for Violation {
    fn explanation(&self) -> String {
        use super::sentences::checks::{
            no_stale_accepted, no_write_after_lost, ordered_by_token, single_holder,
        };
        let at = self.at;
        match self.detail {
            ViolationDetail::TwoHolders {
                previous,
                previous_token,
                new,
                new_token,
                remaining,
            } => single_holder::Explanation {
                at,
                previous,
                previous_token,
                new,
                new_token,
                remaining,
            }
            .to_string(),
            ViolationDetail::StaleAccepted {
                client,
                token,
                highest,
            } if self.check == CheckId::OrderedByToken => ordered_by_token::Explanation {
                at,
                client,
                token,
                highest,
            }
            .to_string(),
            ViolationDetail::StaleAccepted {
                client,
                token,
                highest,
            } => no_stale_accepted::Explanation {
                at,
                client,
                token,
                highest,
            }
            .to_string(),
            ViolationDetail::WriteAfterLost {
                client,
                token,
                lost_at,
            } => no_write_after_lost::Explanation {
                at,
                client,
                token,
                lost_at,
            }
            .to_string(),
            ViolationDetail::WriteAfterNotOwner {
                client,
                token,
                told_at,
            } => no_write_after_lost::NotOwner {
                at,
                client,
                token,
                told_at,
            }
            .to_string(),
            ViolationDetail::WriteAfterDeadline {
                client,
                token,
                sent_at,
                ttl,
            } => no_write_after_lost::PastDeadline {
                at,
                client,
                token,
                sent_at,
                ttl,
            }
            .to_string(),
            ViolationDetail::WriteAfterRelease {
                client,
                token,
                released_at,
            } => no_write_after_lost::AfterRelease {
                at,
                client,
                token,
                released_at,
            }
            .to_string(),
        }
    }
    fn prevention(&self) -> &'static str {
        text(self.check).prevention
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ClientId, FencingToken, SimTime};

    #[test]
    fn an_explanation_names_the_facts_of_its_violation() {
        let v = Violation {
            check: CheckId::OrderedByToken,
            at: SimTime::from_secs(17),
            detail: ViolationDetail::StaleAccepted {
                client: ClientId::A,
                token: FencingToken(33),
                highest: FencingToken(34),
            },
        };
        let words = v.explanation();
        assert!(
            words.contains("token 33") && words.contains("token 34"),
            "{words}"
        );
        assert!(!words.contains('{'), "every placeholder is filled: {words}");
    }

    #[test]
    fn every_check_explains_its_own_facts_with_no_placeholder_left() {
        let (a, b, t33, t34) = (ClientId::A, ClientId::B, FencingToken(33), FencingToken(34));
        let stale = ViolationDetail::StaleAccepted {
            client: a,
            token: t33,
            highest: t34,
        };
        let details = [
            (
                CheckId::SingleHolder,
                ViolationDetail::TwoHolders {
                    previous: a,
                    previous_token: t33,
                    new: b,
                    new_token: t34,
                    remaining: crate::model::SimDuration::from_secs(7),
                },
            ),
            (CheckId::NoStaleAccepted, stale),
            (
                CheckId::NoWriteAfterLost,
                ViolationDetail::WriteAfterLost {
                    client: a,
                    token: t33,
                    lost_at: SimTime::from_secs(9),
                },
            ),
            (CheckId::OrderedByToken, stale),
        ];
        for (check, detail) in details {
            let words = Violation {
                check,
                at: SimTime::from_secs(12),
                detail,
            }
            .explanation();
            assert!(
                !words.contains('{') && words.contains("12.000 s"),
                "{check:?}: {words}"
            );
            assert!(words.contains("33"), "{check:?} names the token: {words}");
        }
    }

    #[test]
    fn every_check_has_a_title_and_advice() {
        for id in CheckId::ALL {
            assert!(!id.title().is_empty() && !id.prevention().is_empty());
        }
    }
}

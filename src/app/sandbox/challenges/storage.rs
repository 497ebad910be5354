//! The challenges' progress in localStorage ([`crate::lab::challenge::progress`] has its
//! format). Storage may be missing or refuse (a sandboxed iframe, private mode, a full
//! quota): progress then lasts for the visit and a note says so. A record that cannot be
//! read is reset, with a note, never a crash.

use crate::lab::challenge::progress::{SAVED_EVENT, STORAGE_KEY};
use crate::lab::challenge::{spec, Progress};

/// What to tell the learner about their saved progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note {
    None,
    /// The saved record could not be read and was reset.
    Reset,
    /// The browser keeps nothing.
    Unavailable,
}

/// The progress, and the note about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Kept {
    pub progress: Progress,
    pub note: Note,
}

fn storage() -> Option<web_sys::Storage> {
    gloo::utils::window().local_storage().ok().flatten()
}

/// Writes `progress` and tells the page (a course package reports it); false if storage
/// refused it.
fn write(store: &web_sys::Storage, progress: &Progress) -> bool {
    let saved = store
        .set_item(STORAGE_KEY, &progress.encode(spec::all()))
        .is_ok();
    if saved {
        if let Ok(event) = web_sys::Event::new(SAVED_EVENT) {
            let _ = gloo::utils::window().dispatch_event(&event);
        }
    }
    saved
}

fn known_ids() -> Vec<&'static str> {
    spec::all().iter().map(|s| s.text.id).collect()
}

/// The saved progress; an unreadable record is replaced by an empty one.
pub fn load() -> Kept {
    let Some(store) = storage() else {
        return Kept {
            progress: Progress::default(),
            note: Note::Unavailable,
        };
    };
    let saved = store
        .get_item(STORAGE_KEY)
        .ok()
        .flatten()
        .unwrap_or_default();
    match Progress::decode(&saved, &known_ids()) {
        Ok(progress) => Kept {
            progress,
            note: Note::None,
        },
        Err(_) => {
            let progress = Progress::default();
            let reset = write(&store, &progress);
            Kept {
                progress,
                note: if reset {
                    Note::Reset
                } else {
                    Note::Unavailable
                },
            }
        }
    }
}

/// Saves `progress`; the note says whether it will last.
pub fn save(progress: Progress) -> Kept {
    let saved = storage().is_some_and(|store| write(&store, &progress));
    Kept {
        progress,
        note: if saved { Note::None } else { Note::Unavailable },
    }
}

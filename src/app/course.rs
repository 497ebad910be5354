//! The page's side of a course package (SCORM 1.2 or 2004): it tells the course bridge
//! (`www/course/bridge.js`) the learner's progress whenever it changes, and takes back what
//! the course platform kept from the last launch. `www/shell/course-detect.js` loads the
//! bridge only in package mode and leaves a promise of its channel in
//! `window.leaseLabCourse`; anywhere else there is none, the page starts as ever, and every
//! function here does nothing.
//!
//! The channel, the one way progress crosses between the two:
//! - `restored`: the `resume` texts the last launch reported (`{ tabs, grades, lab }`), or null;
//! - `report({ tallies, resume })`: `tallies` maps a name to `[count, of]`, which the
//!   bridge's completion rule and score (`www/course/rules.json`) are written over;
//!   `resume` lists `[name, text]` pairs, the most important first (the bridge drops from
//!   the end what does not fit the platform's limit);
//! - `onTrouble(callback)`: called once, now or later, if the platform is not receiving the
//!   progress; [`CourseNotice`] then says so.
//!
//! The challenges' progress is the laboratory's record in localStorage
//! ([`crate::lab::challenge::progress`]): read here as counts whenever the laboratory says
//! it saved one, reported as two tallies, and kept as one resume part.

use std::cell::{Cell, RefCell};

use js_sys::{Array, Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::lab::challenge::progress::{Tally as ChallengeTally, SAVED_EVENT, STORAGE_KEY};
use crate::lesson::quiz::Progress;
use crate::lesson::LESSON;
use crate::route::{Route, Tab};
use crate::share::{compose, lab_fields_of};

/// What the platform is told, and what it gave back.
struct Course {
    /// The bridge's channel; none when the bridge could not be loaded.
    channel: Option<JsValue>,
    tabs_opened: Vec<Tab>,
    grades: Progress,
    /// The laboratory's fields of the address (its link, without tab and selection).
    lab: String,
    /// The grades the platform kept from the last launch.
    restored_grades: Progress,
}

thread_local! {
    static COURSE: RefCell<Option<Course>> = const { RefCell::new(None) };
    static TROUBLE: Cell<bool> = const { Cell::new(false) };
    static ON_TROUBLE: RefCell<Option<Callback<()>>> = const { RefCell::new(None) };
}

/// The promise of the bridge's channel, in package mode only.
pub fn pending() -> Option<Promise> {
    Reflect::get(&gloo::utils::window(), &JsValue::from_str("leaseLabCourse"))
        .ok()?
        .dyn_into()
        .ok()
}

/// Whether the page runs as a course package.
pub fn active() -> bool {
    COURSE.with(|course| course.borrow().is_some())
}

/// Takes the bridge's channel (null if it could not load) before the app starts: restores
/// what the platform kept, listens for trouble, and reports the progress so far.
pub fn connect(channel: JsValue) {
    let text = |key: &str| {
        Reflect::get(&channel, &JsValue::from_str("restored"))
            .and_then(|restored| Reflect::get(&restored, &JsValue::from_str(key)))
            .ok()
            .and_then(|value| value.as_string())
            .unwrap_or_default()
    };
    let mut tabs_opened = Vec::new();
    for tab in text("tabs").split(',').filter_map(Tab::from_slug) {
        if !tabs_opened.contains(&tab) {
            tabs_opened.push(tab);
        }
    }
    let restored_grades = Progress::decode(&text("grades"), &super::qa::question_ids());
    resume_challenges(&text("challenges"));
    resume_lab(&lab_fields_of(&text("lab")));
    let hash = gloo::utils::window().location().hash().unwrap_or_default();
    let reachable = channel.is_object().then_some(channel);
    COURSE.with(|course| {
        *course.borrow_mut() = Some(Course {
            channel: reachable.clone(),
            tabs_opened,
            grades: Progress::default(),
            lab: lab_fields_of(&Route::parse(&hash).query),
            restored_grades,
        })
    });
    match reachable {
        Some(channel) => {
            let on_trouble = Closure::<dyn Fn()>::new(troubled);
            call(&channel, "onTrouble", on_trouble.as_ref());
            on_trouble.forget();
        }
        None => troubled(),
    }
    gloo::events::EventListener::new(&gloo::utils::window(), SAVED_EVENT, |_| update(|_| {}))
        .forget();
    grades_changed(&super::qa::current_grades().0);
}

/// The challenges' record this browser keeps, if any.
fn saved_challenges() -> Option<String> {
    let store = gloo::utils::window().local_storage().ok().flatten()?;
    store.get_item(STORAGE_KEY).ok().flatten()
}

/// Hands the laboratory the challenges' record the platform kept, where this browser has
/// none of its own (as with the grades, this browser's own record wins).
fn resume_challenges(record: &str) {
    if record.is_empty() || ChallengeTally::of_saved(record).is_none() {
        return;
    }
    if saved_challenges().is_some_and(|own| !own.is_empty()) {
        return;
    }
    if let Some(store) = gloo::utils::window().local_storage().ok().flatten() {
        let _ = store.set_item(STORAGE_KEY, record);
    }
}

/// Puts the laboratory's last link into the address, unless the launch link names its own:
/// the shell and the laboratory then start from it as from any link.
fn resume_lab(lab: &str) {
    let window = gloo::utils::window();
    let route = Route::parse(&window.location().hash().unwrap_or_default());
    if lab.is_empty() || !lab_fields_of(&route.query).is_empty() {
        return;
    }
    let fragment = if route.query.is_empty() {
        compose(route.tab, lab, None)
    } else {
        format!("{}&{lab}", route.to_fragment())
    };
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&fragment));
    }
}

/// `local` grades completed by those the platform kept, where this browser has none.
pub fn with_restored_grades(local: Progress) -> Progress {
    COURSE.with(|course| match &*course.borrow() {
        Some(course) => local.merged_over(&course.restored_grades),
        None => local,
    })
}

/// The learner opened `tab`.
pub fn tab_opened(tab: Tab) {
    update(|course| {
        if !course.tabs_opened.contains(&tab) {
            course.tabs_opened.push(tab);
        }
    });
}

/// The learner's grades changed.
pub fn grades_changed(grades: &Progress) {
    update(|course| course.grades = grades.clone());
}

/// The laboratory's fields of the address changed.
pub fn lab_changed(fields: &str) {
    update(|course| course.lab = fields.to_owned());
}

fn update(change: impl FnOnce(&mut Course)) {
    COURSE.with(|course| {
        if let Some(course) = course.borrow_mut().as_mut() {
            change(course);
            report(course);
        }
    });
}

/// Hands the bridge the progress as it is now.
fn report(course: &Course) {
    let Some(channel) = &course.channel else {
        return;
    };
    let tally = course.grades.tally(&super::qa::question_ids());
    let challenges = saved_challenges().filter(|record| ChallengeTally::of_saved(record).is_some());
    // Until the laboratory has saved a record, none is solved: the score's maximum counts
    // every challenge from the first report, so a learner is never at full marks before.
    let solved = (challenges.as_deref())
        .and_then(ChallengeTally::of_saved)
        .unwrap_or_else(ChallengeTally::none_solved);
    let counts = [
        ("tabs-opened", course.tabs_opened.len(), Tab::ALL.len()),
        ("cards-graded", tally.known + tally.review, tally.total),
        ("cards-knew", tally.known, tally.total),
        ("challenges-solved", solved.solved, solved.total),
        (
            "challenges-required",
            solved.required_solved,
            solved.required,
        ),
    ];
    let tallies = Object::new();
    for (name, count, of) in counts {
        let pair = Array::of2(&(count as u32).into(), &(of as u32).into());
        let _ = Reflect::set(&tallies, &JsValue::from_str(name), &pair);
    }
    let tabs: Vec<&str> = course.tabs_opened.iter().map(|tab| tab.slug()).collect();
    let resume = Array::new();
    for (name, text) in [
        ("tabs", tabs.join(",")),
        ("grades", course.grades.encode()),
        ("challenges", challenges.unwrap_or_default()),
        ("lab", course.lab.clone()),
    ] {
        resume.push(&Array::of2(
            &JsValue::from_str(name),
            &JsValue::from_str(&text),
        ));
    }
    let progress = Object::new();
    let _ = Reflect::set(&progress, &JsValue::from_str("tallies"), &tallies);
    let _ = Reflect::set(&progress, &JsValue::from_str("resume"), &resume);
    call(channel, "report", &progress);
}

/// Calls the channel's method `name` with `argument`; a failure is the bridge's to report.
fn call(channel: &JsValue, name: &str, argument: &JsValue) {
    if let Ok(method) = Reflect::get(channel, &JsValue::from_str(name)) {
        if let Ok(method) = method.dyn_into::<Function>() {
            let _ = method.call1(channel, argument);
        }
    }
}

/// The platform is not receiving the progress: the notice shows (once, however often it
/// is told).
fn troubled() {
    TROUBLE.with(|trouble| trouble.set(true));
    if let Some(show) = ON_TROUBLE.with(|on| on.borrow().clone()) {
        show.emit(());
    }
}

/// In package mode, the place where the page says plainly that the course platform is not
/// receiving the learner's progress (the lesson works as ever, and keeps its grades here).
#[component]
pub fn CourseNotice() -> Html {
    let shown = use_state(|| TROUBLE.with(Cell::get));
    {
        let shown = shown.clone();
        use_effect_with((), move |_| {
            ON_TROUBLE.with(|on| *on.borrow_mut() = Some(Callback::from(move |_| shown.set(true))));
            || ON_TROUBLE.with(|on| *on.borrow_mut() = None)
        });
    }
    html! {
        <div class="course-status" role="status">
            if *shown {
                <p class="note course-notice">{LESSON.course.not_reporting}</p>
            }
        </div>
    }
}

//! Share links in the page: the laboratory's side of the address (restore its state from the
//! link, keep its fields in step with the sandbox and snippets), and the share controls
//! (Copy link, Embed, the link notice) that both wasm modules show.
//!
//! The codec is [`crate::share`]; the address bar itself is the page shell's
//! ([`super::address`]), which the laboratory's module reaches through [`connect_shell`].
//! Every browser call may fail (a sandboxed iframe has no clipboard and an opaque origin)
//! without breaking anything. Text read from a link is shown as text.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::address::{current_link, embed_address, in_frame, page_address, History};
use super::snippets::SnippetLanguage;
use crate::lab::{Lab, LabAction};
use crate::lesson::{sentences, LESSON};
use crate::share::embed::{self, EmbedOptions};
use crate::share::{decode, encode, lab_fields, LabLink, LinkState, SnippetCode};

/// Where the laboratory's module sends its fields, for the shell to write the address.
type ShellListener = Box<dyn Fn(String, History)>;
/// Where the laboratory's module sends its sentences about the link, for the shell's notice.
type ShellNotice = Box<dyn Fn(Vec<String>)>;

thread_local! {
    /// The latest state of every part a link carries; each part updates its own field.
    static LINK: RefCell<LinkState> = RefCell::new(LinkState::default());
    /// In the laboratory's module, its sentences about the link on screen, which the
    /// shell's notice says.
    static PROBLEMS: RefCell<NoticeProblems> = RefCell::new(NoticeProblems::default());
    /// Changes to the notice made while none is mounted, in order, for the next to apply.
    static PENDING_NOTICE: RefCell<Vec<NoticeChange>> = const { RefCell::new(Vec::new()) };
    /// The page shell, once the laboratory's module is connected to it.
    static SHELL: RefCell<Option<ShellListener>> = const { RefCell::new(None) };
    /// The shell's notice, once the laboratory's module is connected to it: one notice
    /// says what of a link neither module could read.
    static SHELL_NOTICE: RefCell<Option<ShellNotice>> = const { RefCell::new(None) };
    /// The client code last written in this page, in each language: the link carries it
    /// too, but it did not come with a link.
    static WRITTEN_HERE: RefCell<SnippetCode> = RefCell::new(SnippetCode::default());
    /// While a followed link is replayed into the lab: the lab it restores and when (ms).
    /// Writes wait until the lab shows it, for at most [`REPLAY_LIMIT_MS`].
    static REPLAYING: RefCell<Option<(LabLink, f64)>> = const { RefCell::new(None) };
    /// The laboratory as it last was, so coming back to the Sandbox tab does not simulate
    /// the same run again (a long one takes a while).
    static LAST_LAB: RefCell<Option<Lab>> = const { RefCell::new(None) };
    /// While a laboratory is mounted: how it replays a followed link's scenario, time and
    /// comparison, under the id of the mount that registered it.
    static REPLAY: RefCell<Option<(u64, Callback<LabLink>)>> = const { RefCell::new(None) };
    /// While a laboratory is mounted: how it is mounted afresh, to show a followed link's
    /// search, snippets or live run, which it reads only when it mounts.
    static REMOUNT: RefCell<Option<(u64, Callback<()>)>> = const { RefCell::new(None) };
    /// While a [`LinkNotice`] is mounted: how it is handed the problems of a link the page
    /// went to after it opened, under the id of the notice that registered it.
    static NOTICE: RefCell<Option<(u64, Callback<NoticeChange>)>> = const { RefCell::new(None) };
    /// Whether the mounted laboratory shows a challenge try a link carried (or why it was
    /// refused): a link followed after it mounts the laboratory afresh, without it.
    static TRY_SHOWN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The last id handed to a registration in [`REPLAY`], [`REMOUNT`] or [`NOTICE`].
    static REGISTRATIONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Reads the link the page shows into the laboratory's state, and its problems for the
/// shell's [`LinkNotice`] (through `notice`, now and for each link followed since); `shell`
/// then receives the lab's fields whenever they change.
pub fn connect_shell(link: &str, shell: ShellListener, notice: ShellNotice) {
    let decoded = decode(link);
    let misread = !decoded.problems.is_empty();
    LINK.with(|link| *link.borrow_mut() = decoded.state);
    SHELL_NOTICE.with(|n| *n.borrow_mut() = Some(notice));
    add_problems(decoded.problems);
    SHELL.with(|s| *s.borrow_mut() = Some(shell));
    // A link the lab could not read whole shows something else than it says: from now on
    // the address, Copy link and Embed carry what is on screen (the notice says why).
    if misread {
        write_address(History::Replace);
    }
}

/// Follows a link the page went to after it opened (typed into the address bar, clicked,
/// set by a script, Back or Forward): the laboratory shows the link's state, however the
/// page arrived. A mounted lab replays the scenario, time and comparison when nothing else
/// differs (Back and Forward across its own changes keep its search and snippets), and is
/// mounted afresh otherwise (a challenge's try too, which the Challenges section reads when
/// it mounts); a lab not mounted starts from the link when it mounts. What the link could
/// not be read for is said in the notice, and the address then carries what is on screen.
pub fn follow_link(link: &str) {
    let decoded = decode(link);
    // The notice speaks of the link on screen: a followed link's problems replace the
    // last one's, and one read whole clears them.
    let misread = !decoded.problems.is_empty();
    show_followed_problems(decoded.problems);
    let followed = decoded.state;
    // A challenge's try is read when the Challenges section mounts, and what it shows of
    // one is the last link's.
    let only_lab_differs = followed.challenge.is_none()
        && !TRY_SHOWN.get()
        && LINK.with(|current| {
            let current = current.borrow();
            current.search == followed.search
                && current.snippets == followed.snippets
                && current.live == followed.live
        });
    let replay = REPLAY.with(|r| r.borrow().as_ref().map(|(_, replay)| replay.clone()));
    match replay.filter(|_| only_lab_differs) {
        Some(replay) => {
            let lab = followed.lab.unwrap_or_else(|| LabLink::of(&Lab::default()));
            // A link read only in part is not what the lab will show: the address says
            // what it shows at once, as for a link the page was opened with. A lab that
            // shows the link already does not change, so nothing is waited for.
            let shown = LINK.with(|l| l.borrow_mut().lab.replace(lab.clone()));
            let arrives = !shown.is_some_and(|shown| shown.shows_same(&lab));
            let target = (!misread && arrives).then(|| (lab.clone(), now_ms()));
            REPLAYING.with(|r| *r.borrow_mut() = target);
            if misread {
                write_address(History::Replace);
            }
            replay.emit(lab);
        }
        None => {
            LINK.with(|current| {
                let mut current = current.borrow_mut();
                current.lab = followed.lab;
                current.search = followed.search;
                current.snippets = followed.snippets;
                current.live = followed.live;
                current.challenge = followed.challenge;
            });
            if misread {
                REPLAYING.with(|r| *r.borrow_mut() = None);
                write_address(History::Replace);
            }
            let remount = REMOUNT.with(|r| r.borrow().as_ref().map(|(_, remount)| remount.clone()));
            TRY_SHOWN.set(false);
            if let Some(remount) = remount {
                remount.emit(());
            }
        }
    }
}

/// Shows the problems of a link the page went to after it opened in place of those on show
/// (none clears them); with no notice mounted, the next one to mount shows them.
pub fn show_followed_problems(problems: Vec<String>) {
    change_notice(NoticeChange::Followed(problems));
}

/// Shows the laboratory's problems with the link on screen in place of its last ones, in the
/// shell's notice (the laboratory's module sends them, see [`connect_shell`]).
pub fn show_lab_problems(problems: Vec<String>) {
    change_notice(NoticeChange::Lab(problems));
}

/// Hands `change` to the notice on the page, or keeps it for the next one to mount. In the
/// laboratory's module, the sentences go to the shell's notice instead.
fn change_notice(change: NoticeChange) {
    let to_shell = SHELL_NOTICE.with(|n| n.borrow().is_some());
    if to_shell {
        let own = PROBLEMS.with(|p| {
            let mut p = p.borrow_mut();
            p.apply(change);
            p.own.clone()
        });
        SHELL_NOTICE.with(|n| n.borrow().as_ref().map(|notice| notice(own)));
        return;
    }
    let notice = NOTICE.with(|n| n.borrow().as_ref().map(|(_, notice)| notice.clone()));
    match notice {
        Some(notice) => notice.emit(change),
        None => PENDING_NOTICE.with(|p| p.borrow_mut().push(change)),
    }
}

/// What the link notice says: the sentences of the module it is in (the shell's, or the
/// embedded view's) and those the laboratory's module sent it.
#[derive(Clone, Debug, Default, PartialEq)]
struct NoticeProblems {
    own: Vec<String>,
    lab: Vec<String>,
}

/// A change to what the link notice says.
#[derive(Clone, Debug, PartialEq)]
enum NoticeChange {
    /// Sentences about the link the page was opened with, added to the module's own.
    Opened(Vec<String>),
    /// The module's sentences about a link followed since, in place of its last ones.
    Followed(Vec<String>),
    /// The laboratory's sentences about the link on screen, in place of its last ones.
    Lab(Vec<String>),
    /// Dismissed.
    Dismissed,
}

impl NoticeProblems {
    fn apply(&mut self, change: NoticeChange) {
        match change {
            NoticeChange::Opened(problems) => self.own.extend(problems),
            NoticeChange::Followed(problems) => self.own = problems,
            NoticeChange::Lab(problems) => self.lab = problems,
            NoticeChange::Dismissed => *self = NoticeProblems::default(),
        }
    }

    fn is_empty(&self) -> bool {
        self.own.is_empty() && self.lab.is_empty()
    }
}

impl Reducible for NoticeProblems {
    type Action = NoticeChange;

    fn reduce(self: Rc<Self>, change: NoticeChange) -> Rc<Self> {
        let mut next = (*self).clone();
        next.apply(change);
        Rc::new(next)
    }
}

/// Registers `callback` in `slot` for as long as the returned id's owner lives.
fn register<T>(
    slot: &'static std::thread::LocalKey<RefCell<Option<(u64, T)>>>,
    callback: T,
) -> u64 {
    let id = REGISTRATIONS.with(|last| {
        last.set(last.get() + 1);
        last.get()
    });
    slot.with(|s| *s.borrow_mut() = Some((id, callback)));
    id
}

/// Takes `id`'s registration out of `slot`, unless a newer mount has replaced it.
fn unregister<T>(slot: &'static std::thread::LocalKey<RefCell<Option<(u64, T)>>>, id: u64) {
    slot.with(|s| {
        let mut s = s.borrow_mut();
        if s.as_ref().is_some_and(|(owner, _)| *owner == id) {
            *s = None;
        }
    });
}

/// Mounts the laboratory afresh through `remount` when a followed link needs it (see
/// [`follow_link`]), for as long as the calling component lives.
#[hook]
pub fn use_remount_on_link(remount: Callback<()>) {
    use_effect_with((), move |_| {
        let id = register(&REMOUNT, remount);
        move || unregister(&REMOUNT, id)
    });
}

/// Adds sentences about the link the page was opened with, for [`LinkNotice`].
pub fn add_problems(problems: Vec<String>) {
    change_notice(NoticeChange::Opened(problems));
}

/// The lab the sandbox starts with: the link's, or the default one.
pub fn initial_lab() -> Lab {
    let link = LINK.with(|link| link.borrow().lab.clone());
    let last = LAST_LAB.with(|last| last.borrow().clone());
    if let (Some(last), Some(link)) = (last, &link) {
        if LabLink::of(&last) == *link {
            return last.apply(LabAction::Pause).unwrap_or(last);
        }
    }
    link.map(|link| {
        Lab::opened(
            link.scenario.clone(),
            link.preset_label(),
            link.compare,
            link.time,
        )
    })
    .unwrap_or_default()
}

/// The learner's client code the link carried (shown, never run unasked), and whether it
/// asks for "Your client".
pub fn initial_snippets() -> SnippetCode {
    LINK.with(|link| link.borrow().snippets.clone())
}

/// The recorded live run the link carried.
pub fn initial_live() -> Option<crate::lab::live::trace::LiveTrace> {
    LINK.with(|link| link.borrow().live.clone())
}

/// The counterexample search the link carried.
pub fn initial_search() -> Option<crate::model::search::SearchSpec> {
    LINK.with(|link| link.borrow().search.clone())
}

/// The challenge try the link carried, with the link's scenario, taken once: after that the
/// address no longer names the challenge, so the lab's later changes are not read as a try.
pub fn take_initial_challenge() -> Option<(String, Option<LabLink>)> {
    LINK.with(|link| {
        let mut link = link.borrow_mut();
        let challenge = link.challenge.take()?;
        TRY_SHOWN.set(true);
        Some((challenge, link.lab.clone()))
    })
}

/// Says in the link notice that the link's challenge try was refused (`sentence`; the
/// Challenges section tells why), and has the address show what is on screen, without it.
pub fn refuse_initial_challenge(sentence: String) {
    change_notice(NoticeChange::Opened(vec![sentence]));
    write_address(History::Replace);
}

/// Records the search the learner started, so the page's link carries it.
pub fn record_search(spec: crate::model::search::SearchSpec) {
    LINK.with(|link| link.borrow_mut().search = Some(spec));
    write_address(History::Replace);
}

/// The full address of `state` on this page.
pub fn address_of(state: &LinkState) -> String {
    format!("{}{}", page_address(), encode(state))
}

/// Sends the laboratory's fields to the page shell, unless a followed link is still
/// being replayed into the lab (then the address already says where the lab is going).
/// The write that finds the lab arrived there replaces the followed link's entry with the
/// lab's own notation of it, rather than adding an entry for the same state.
fn write_address(history: History) {
    let (fields, shown) = LINK.with(|link| {
        let link = link.borrow();
        (lab_fields(&link), link.lab.clone())
    });
    let history = match replay_progress(shown.as_ref()) {
        Replay::Waiting => return,
        Replay::Arrived => History::Replace,
        Replay::None => history,
    };
    SHELL.with(|shell| {
        if let Some(shell) = &*shell.borrow() {
            shell(fields, history);
        }
    });
}

/// Where a followed link's replay stands, for a lab now at `shown`.
enum Replay {
    None,
    Waiting,
    Arrived,
}

/// Ends the replay of a followed link once the lab shows it, or after [`REPLAY_LIMIT_MS`].
fn replay_progress(shown: Option<&LabLink>) -> Replay {
    REPLAYING.with(|r| {
        let mut replay = r.borrow_mut();
        let Some((target, since)) = replay.as_ref() else {
            return Replay::None;
        };
        let arrived = shown.is_some_and(|shown| shown.shows_same(target));
        let expired = now_ms() - since >= REPLAY_LIMIT_MS;
        if !arrived && !expired {
            return Replay::Waiting;
        }
        *replay = None;
        if arrived {
            Replay::Arrived
        } else {
            Replay::None
        }
    })
}

/// How long a replayed link may hold back address writes.
const REPLAY_LIMIT_MS: f64 = 1_000.0;

use super::clock::page_now_ms as now_ms;

/// Records edited client code (or `None` for the starter) and updates the address.
pub fn record_snippet(language: SnippetLanguage, code: Option<String>) {
    WRITTEN_HERE.with(|written| *written.borrow_mut().code_mut(language) = code.clone());
    LINK.with(|link| *link.borrow_mut().snippets.code_mut(language) = code);
    write_address(History::Replace);
}

/// Whether `code` is what the learner last wrote in this page in `language`, rather than
/// code a link brought.
pub fn written_here(language: SnippetLanguage, code: &str) -> bool {
    WRITTEN_HERE.with(|written| written.borrow().code(language) == Some(code))
}

/// Records that the laboratory shows "Your client" in `language` (or not), for the link.
pub fn record_client(language: Option<SnippetLanguage>) {
    let changed = LINK.with(|link| {
        let mut link = link.borrow_mut();
        let changed = link.snippets.client != language;
        link.snippets.client = language;
        changed
    });
    if changed {
        write_address(History::Replace);
    }
}

/// While playing, the address follows the cursor at most this often (browsers throttle
/// history calls made every frame).
const PLAYING_WRITE_GAP_MS: f64 = 1_000.0;

/// What a lab change last wrote, to tell a deliberate change from the cursor moving.
#[derive(Clone, Copy, Default, PartialEq)]
struct Written {
    run: u64,
    compare: Option<crate::lab::PolicySwitch>,
    at_ms: f64,
}

/// Keeps the address in step with the lab (push on deliberate changes, replace while the
/// cursor moves), and replays followed links (Back and Forward too) into the lab through
/// `dispatch` (see [`follow_link`]).
#[hook]
pub fn use_lab_link(lab: &Lab, dispatch: Callback<LabAction>) {
    let written = use_mut_ref(|| None::<Written>);
    let key = (
        lab.generation(),
        lab.now(),
        lab.compare().map(|c| c.switch),
        lab.playing(),
    );
    let lab = lab.clone();
    LAST_LAB.with(|last| *last.borrow_mut() = Some(lab.clone()));
    use_effect_with(key, move |&(run, _, compare, playing)| {
        let now_ms = now_ms();
        let previous = *written.borrow();
        let deliberate = previous.is_some_and(|w| w.run != run || w.compare != compare);
        let too_soon = playing && previous.is_some_and(|w| now_ms - w.at_ms < PLAYING_WRITE_GAP_MS);
        if !too_soon || deliberate {
            LINK.with(|link| link.borrow_mut().lab = Some(LabLink::of(&lab)));
            // The lab as it opened is already what the address says (or the default).
            if previous.is_some() {
                write_address(if deliberate {
                    History::Push
                } else {
                    History::Replace
                });
            }
            *written.borrow_mut() = Some(Written {
                run,
                compare,
                at_ms: now_ms,
            });
        }
    });
    use_effect_with((), move |_| {
        let replay = Callback::from(move |link: LabLink| {
            if let Some(preset) = link.preset {
                dispatch.emit(LabAction::LoadPreset(preset.to_owned()));
            }
            dispatch.emit(LabAction::SetScenario(link.scenario));
            dispatch.emit(LabAction::SetCompare(link.compare));
            dispatch.emit(LabAction::Seek(link.time));
        });
        let id = register(&REPLAY, replay);
        move || unregister(&REPLAY, id)
    });
}

/// Copies `text` to the clipboard if the page may; `false` when it cannot.
async fn copy_to_clipboard(text: String) -> bool {
    if in_frame() {
        return false;
    }
    let navigator = gloo::utils::window().navigator();
    let has_clipboard = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))
        .is_ok_and(|c| c.is_object());
    if !has_clipboard {
        return false;
    }
    JsFuture::from(navigator.clipboard().write_text(&text))
        .await
        .is_ok()
}

/// The outcome of a copy: the text, and whether it reached the clipboard.
#[derive(Clone, PartialEq)]
struct Copied {
    text: String,
    on_clipboard: bool,
}

/// Properties of [`CopyField`].
#[derive(Properties, PartialEq)]
pub struct CopyFieldProps {
    /// The button's text.
    pub label: AttrValue,
    /// The field's label.
    pub field_label: AttrValue,
    /// Computes the text when the button is pressed.
    pub text: Callback<(), String>,
}

/// A button that copies text, and then always shows it selected in a read-only field, so
/// it can be copied by hand where the clipboard is unavailable (a sandboxed iframe).
#[component]
pub fn CopyField(props: &CopyFieldProps) -> Html {
    let copied = use_state(|| None::<Copied>);
    let field = use_node_ref();
    let onclick = {
        let copied = copied.clone();
        let text = props.text.clone();
        Callback::from(move |_: MouseEvent| {
            let text = text.emit(());
            let copied = copied.clone();
            spawn_local(async move {
                let on_clipboard = copy_to_clipboard(text.clone()).await;
                copied.set(Some(Copied { text, on_clipboard }));
            });
        })
    };
    {
        let field = field.clone();
        use_effect_with((*copied).clone(), move |_| {
            if let Some(input) = field.cast::<HtmlInputElement>() {
                input.select();
            }
        });
    }
    html! {
        <div class="copy-field">
            <button type="button" class="button" {onclick}>{props.label.clone()}</button>
            if let Some(copied) = &*copied {
                <label class="copy-field-text">
                    <span>{props.field_label.clone()}</span>
                    <input ref={field} type="text" readonly=true value={copied.text.clone()} />
                </label>
                <p class="muted small" role="status">
                    { if copied.on_clipboard {
                        LESSON.share.copied
                    } else {
                        LESSON.share.no_clipboard
                    } }
                </p>
            }
        </div>
    }
}

/// "Copy link": the link to the current state of every part of the page.
#[component]
pub fn CopyLink() -> Html {
    html! {
        <CopyField label={LESSON.share.copy_link} field_label={LESSON.share.link_field}
            text={Callback::from(|()| current_link())} />
    }
}

/// What the page could not read from the link it was opened with, or from the latest one
/// it followed since, as plain text, until dismissed.
#[component]
pub fn LinkNotice() -> Html {
    let problems = use_reducer(|| {
        let mut problems = NoticeProblems::default();
        take_pending_notice()
            .into_iter()
            .for_each(|c| problems.apply(c));
        problems
    });
    {
        let changes = problems.dispatcher();
        use_effect_with((), move |_| {
            // What changed between the first render and now (a laboratory's sentences about
            // a link followed while the lesson hydrated) would otherwise wait for another.
            take_pending_notice()
                .into_iter()
                .for_each(|c| changes.dispatch(c));
            let id = register(&NOTICE, Callback::from(move |c| changes.dispatch(c)));
            move || unregister(&NOTICE, id)
        });
    }
    if problems.is_empty() {
        return Html::default();
    }
    let dismiss = {
        let changes = problems.dispatcher();
        Callback::from(move |_: MouseEvent| changes.dispatch(NoticeChange::Dismissed))
    };
    html! {
        <section class="link-notice status-warn" role="status" aria-labelledby="link-notice-title">
            <h2 id="link-notice-title">{LESSON.share.notice_heading}</h2>
            <ul>
                { for problems.own.iter().chain(&problems.lab).map(|p| html! { <li>{p.clone()}</li> }) }
            </ul>
            <button type="button" class="button" onclick={dismiss}>{LESSON.share.dismiss}</button>
        </section>
    }
}

fn take_pending_notice() -> Vec<NoticeChange> {
    PENDING_NOTICE.with(|p| std::mem::take(&mut *p.borrow_mut()))
}

/// Reads a checkbox or text field from an event.
fn input_of(event: &Event) -> Option<HtmlInputElement> {
    event.target().and_then(|t| t.dyn_into().ok())
}

/// The "Embed" button and its panel: choose the view and options, get the `<iframe>`;
/// Escape closes the panel.
#[component]
pub fn EmbedDialog() -> Html {
    let open = use_state(|| false);
    let options = use_state(|| EmbedOptions {
        embed: true,
        ..EmbedOptions::default()
    });
    let title = use_state(|| String::from(LESSON.share.default_title));
    let size = use_state(|| (DEFAULT_WIDTH.to_string(), DEFAULT_HEIGHT.to_string()));
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    // Escape anywhere in the builder closes the panel, as a dialog's does, and gives focus
    // back to the button that opened it.
    let button = use_node_ref();
    let on_key = {
        let open = open.clone();
        let button = button.clone();
        Callback::from(move |event: KeyboardEvent| {
            if *open && event.key() == "Escape" {
                event.prevent_default();
                open.set(false);
                if let Some(button) = button.cast::<web_sys::HtmlElement>() {
                    let _ = button.focus();
                }
            }
        })
    };
    let snippet = {
        let options = *options;
        let title = (*title).clone();
        let (width, height) = (
            frame_size(&size.0, DEFAULT_WIDTH).0,
            frame_size(&size.1, DEFAULT_HEIGHT).0,
        );
        Callback::from(move |()| {
            embed::iframe_snippet(&embed_address(options), &title, width, height)
        })
    };
    html! {
        <div class="embed-builder" onkeydown={on_key}>
            <button type="button" class="button" ref={button} aria-expanded={open.to_string()}
                aria-controls="embed-panel" onclick={toggle}>{LESSON.share.embed}</button>
            if *open {
                <section id="embed-panel" class="card embed-panel" role="dialog"
                    aria-labelledby="embed-panel-title">
                    <h2 id="embed-panel-title">{LESSON.share.embed_heading}</h2>
                    <p class="muted small">
                        {LESSON.share.embed_intro}
                    </p>
                    { title_field(&title) }
                    { size_fields(&size) }
                    { view_choice(&options) }
                    { theme_choice(&options) }
                    { controls_choice(&options) }
                    <CopyField label={LESSON.share.copy_iframe} field_label={LESSON.share.iframe_field} text={snippet} />
                </section>
            }
        </div>
    }
}

/// The frame's title, for the course page's screen-reader users.
fn title_field(title: &UseStateHandle<String>) -> Html {
    let on_title = {
        let title = title.clone();
        Callback::from(move |event: InputEvent| {
            if let Some(input) = event
                .target()
                .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
            {
                title.set(input.value());
            }
        })
    };
    html! {
        <label class="field">{LESSON.share.title}
            <input type="text" value={(**title).clone()} oninput={on_title} />
        </label>
    }
}

const DEFAULT_WIDTH: u32 = 720;
const DEFAULT_HEIGHT: u32 = 560;
const FRAME_SIZES: std::ops::RangeInclusive<u32> = 120..=4_000;

/// The frame size the snippet takes for `typed`: a whole number of pixels within
/// [`FRAME_SIZES`], brought within it, or `fallback` for text that is no such number; and
/// whether it was taken as typed.
fn frame_size(typed: &str, fallback: u32) -> (u32, bool) {
    match typed.trim().parse::<u32>() {
        Ok(px) => (
            px.clamp(*FRAME_SIZES.start(), *FRAME_SIZES.end()),
            FRAME_SIZES.contains(&px),
        ),
        Err(_) => (fallback, false),
    }
}

/// The frame's width and height as typed (kept as typed, so the field never changes under
/// the learner's fingers); a size the snippet cannot take as typed says what it uses.
fn size_fields(size: &UseStateHandle<(String, String)>) -> Html {
    let on_size = |height: bool| {
        let size = size.clone();
        Callback::from(move |event: InputEvent| {
            if let Some(input) = input_of(&event) {
                let (width, tall) = (*size).clone();
                size.set(if height {
                    (width, input.value())
                } else {
                    (input.value(), tall)
                });
            }
        })
    };
    html! {
        <>
            { size_field("embed-width", LESSON.share.width, &size.0, DEFAULT_WIDTH, on_size(false)) }
            { size_field("embed-height", LESSON.share.height, &size.1, DEFAULT_HEIGHT, on_size(true)) }
        </>
    }
}

fn size_field(
    id: &str,
    label: &str,
    typed: &str,
    fallback: u32,
    oninput: Callback<InputEvent>,
) -> Html {
    let (used, as_typed) = frame_size(typed, fallback);
    let problem = format!("{id}-problem");
    html! {
        <>
            <label class="field">{label}
                <input type="number" min={FRAME_SIZES.start().to_string()} max={FRAME_SIZES.end().to_string()}
                    value={typed.to_owned()} {oninput} aria-invalid={(!as_typed).to_string()}
                    aria-describedby={(!as_typed).then(|| problem.clone())} />
            </label>
            if !as_typed {
                <p id={problem} class="field-error embed-size-error">
                    { sentences::lesson::share::SizeRefused {
                        min: FRAME_SIZES.start(),
                        max: FRAME_SIZES.end(),
                        used,
                    }.to_string() }
                </p>
            }
        </>
    }
}

/// What the frame shows: the open tab, or one diagram alone.
fn view_choice(options: &UseStateHandle<EmbedOptions>) -> Html {
    let on_diagram = {
        let options = options.clone();
        Callback::from(move |event: Event| {
            let value = event
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok())
                .map(|s| s.value())
                .unwrap_or_default();
            options.set(EmbedOptions {
                diagram: embed::DiagramView::ALL
                    .into_iter()
                    .find(|d| d.slug() == value),
                ..*options
            });
        })
    };
    html! {
        <label class="field">{LESSON.share.show}
            <select onchange={on_diagram}>
                <option value="" selected={options.diagram.is_none()}>{LESSON.share.this_tab}</option>
                { for embed::DiagramView::ALL.into_iter().map(|d| html! {
                    <option value={d.slug()} selected={options.diagram == Some(d)}>
                        {only_diagram(d)}
                    </option>
                }) }
            </select>
        </label>
    }
}

/// The choice that shows one diagram alone.
fn only_diagram(diagram: embed::DiagramView) -> &'static str {
    match diagram {
        embed::DiagramView::Architecture => LESSON.share.only_architecture,
        embed::DiagramView::Lifecycle => LESSON.share.only_lifecycle,
        embed::DiagramView::Sequence => LESSON.share.only_sequence,
    }
}

/// The frame's theme: the reader's own (auto), light or dark.
fn theme_choice(options: &UseStateHandle<EmbedOptions>) -> Html {
    let on_theme = {
        let options = options.clone();
        Callback::from(move |event: Event| {
            let theme = input_of(&event).map(|i| i.value()).unwrap_or_default();
            options.set(EmbedOptions {
                theme: match theme.as_str() {
                    "light" => Some(embed::Theme::Light),
                    "dark" => Some(embed::Theme::Dark),
                    _ => None,
                },
                ..*options
            });
        })
    };
    let theme = options.theme.map_or("auto", |t| t.slug());
    html! {
        <fieldset class="field">
            <legend>{LESSON.share.theme}</legend>
            { for [
                ("auto", LESSON.share.theme_auto),
                ("light", LESSON.share.theme_light),
                ("dark", LESSON.share.theme_dark),
            ].into_iter().map(|(t, label)| html! {
                <label>
                    <input type="radio" name="embed-theme" value={t} checked={theme == t}
                        onchange={on_theme.clone()} />
                    {label}
                </label>
            }) }
        </fieldset>
    }
}

/// Whether the frame hides the playback and editing controls.
fn controls_choice(options: &UseStateHandle<EmbedOptions>) -> Html {
    let on_controls = {
        let options = options.clone();
        Callback::from(move |event: Event| {
            let hide = input_of(&event).is_some_and(|i| i.checked());
            options.set(EmbedOptions {
                hide_controls: hide,
                ..*options
            });
        })
    };
    html! {
        <label class="field inline-choice">
            <input type="checkbox" checked={options.hide_controls} onchange={on_controls} />
            {LESSON.share.hide_controls}
        </label>
    }
}

/// The share tools shown above every tab: Copy link and Embed.
#[component]
pub fn ShareBar() -> Html {
    html! {
        <div class="share-bar" role="group" aria-label={LESSON.share.group}>
            <CopyLink />
            <EmbedDialog />
        </div>
    }
}

// The shapes of the content files, declared once: `build.rs` includes this file to read and
// check the TOML, and `src/lesson/content.rs` includes it to declare the compiled statics.
// Each includer defines `ids!` and `records!` and the types `Text` and `List<T>`.
// They hold plain text only: a text with `{placeholders}` is a sentence, which `build.rs`
// takes out first and writes as a typed struct of `crate::lesson::sentences`.

ids! {
    LeaseState { Acquiring, Holding, RenewResult, Lost, Releasing }
    ArchNode { Client, LockService }
    ArchEdge { Acquire, Renew, Ok, Fail }
}

records! {
    Lesson {
        masthead: Masthead, voice: Voice, gist: Gist, lifecycle: Lifecycle, maps: Maps,
        architecture: Architecture, sequence: Sequence, lifecycle_map: LifecycleMap,
        pattern: Pattern, tables: List<Table>, blips: Blips, ttl: Ttl, unlock: Unlock, qa: Qa,
        deeper: Deeper, zoom: Zoom, tabs: Tabs, sandbox_intro: SandboxIntro, shell: Shell,
        share: Share, link_problems: LinkProblems, explain: Explain, names: DiagramNames,
        error_panel: ErrorPanel, course: CoursePackage,
    }
    /// What the page says in a course package (SCORM) when the course platform is not
    /// receiving the learner's progress.
    CoursePackage { not_reporting: Text }
    /// The accessible names of diagram parts.
    DiagramNames {
        duties_joiner: Text,
        /// The clients of `{clients}` are joined by this.
        clients_joiner: Text,
        what_happens: Text,
    }
    /// The panel shown when the page stops because of a bug.
    ErrorPanel {
        heading: Text, body: Text, report: Text,
        reload: Text,
    }
    /// The headings of a diagram part's explanation.
    Explain {
        decision: Text, why: Text, protocol: Text, direction: Text, effect: Text,
        consequence: Text,
    }
    /// What the page says about a link it cannot read in full (the sentences among these
    /// words are in `crate::lesson::sentences::lesson::link_problems`).
    LinkProblems {
        live_too_long: Text, live_unreadable: Text, live_inconsistent: Text,
        default_base: Text,
        one_more: Text,
        link_shape: Text,
        link_nodes: Text, rtt: Text, jitter: Text, loss: Text,
    }
    /// The tab strip's names, and the strip's own.
    Tabs { label: Text, gist: Text, maps: Text, qa: Text, sandbox: Text }
    /// The page's frame: the skip link and the colophon.
    Shell { skip: Text, colophon: Text }
    /// Copy link, the link notice and the Embed dialog.
    Share {
        group: Text, copy_link: Text, link_field: Text, copied: Text, no_clipboard: Text,
        notice_heading: Text, dismiss: Text, embed: Text, embed_heading: Text,
        embed_intro: Text, copy_iframe: Text, iframe_field: Text, title: Text,
        default_title: Text, width: Text, height: Text, show: Text, this_tab: Text,
        only_architecture: Text, only_lifecycle: Text, only_sequence: Text, theme: Text,
        theme_auto: Text, theme_light: Text, theme_dark: Text, hide_controls: Text,
    }
    /// The Sandbox tab's own words, around the laboratory's mount (the lab's are in
    /// sandbox.toml and arrive with its module).
    SandboxIntro { heading: Text, lead: Text, needs_script: Text, loading: Text, load_failed: Text }
    /// The words of a diagram's enlarged view.
    Zoom { enlarge: Text, close: Text, scroll_hint: Text }
    Masthead { series: Text, title: Text, summary: Text }
    /// The voice readout control's words.
    Voice {
        label: Text, play: Text, pause: Text, resume: Text, stop: Text,
        rate: Text, voice: Text, default_voice: Text, unsupported: Text, needs_script: Text,
        reading: Text, paused: Text, finished: Text, failed: Text,
    }
    Gist {
        holding_heading: Text, holding_intro: Text, prefer: Card, alternative: Card,
        heartbeat: Heartbeat, overview: Overview,
    }
    /// A "Prefer" or "Alternative" card: a tag, a title, body sentences and bullets.
    Card { tag: Text, title: Text, body: List<Text>, bullets: List<Text> }
    Heartbeat { heading: Text, lead: Text, steps: List<Step> }
    Step { title: Text, body: List<Text> }
    Overview {
        heading: Text, paragraphs: List<Text>, objectives_heading: Text,
        objectives: List<Text>,
    }
    Lifecycle {
        heading: Text, intro: Text, hint: Text, summary: Text, diagram_label: Text,
        decisions_heading: Text, end_state: Text, states: List<StateText>, transitions: List<TransitionText>,
    }
    StateText { id: LeaseState, number: Text, label: Text, decision: Text }
    TransitionText { from: LeaseState, to: LeaseState, label: Text, decision: Text }
    Maps {
        map_heading: Text, map_intro: Text, map: List<MapEntry>, export_heading: Text,
        export_intro: Text, copy: Text, download: Text, copied: Text,
        copy_failed: Text, downloaded: Text, download_failed: Text,
    }
    MapEntry { title: Text, place: Text, idea: Text }
    Architecture {
        heading: Text, intro: Text, diagram_label: Text, file: Text,
        nodes: List<NodeText>, edges: List<EdgeText>,
    }
    NodeText {
        id: ArchNode, number: Text, label: Text,
        /// Short phrases drawn inside the node's box: what it keeps track of.
        duties: List<Text>,
        why: Text,
    }
    EdgeText {
        id: ArchEdge, from: ArchNode, to: ArchNode, label: Text, protocol: Text,
        direction: Text, effect: Text, consequence: Text,
    }
    Sequence {
        heading: Text, intro: Text, diagram_label: Text, file: Text,
        messages: List<MessageText>,
    }
    MessageText { from: ArchNode, to: ArchNode, label: Text, explain: Text }
    LifecycleMap { heading: Text, intro: Text, file: Text }
    Pattern { heading: Text, lead: Text, steps: List<Text> }
    /// A table of the lesson: every row has one cell per column; the first column heads its row.
    Table {
        id: Text, heading: Text, caption: Text, columns: List<Text>,
        rows: List<List<Text>>, note: Text,
    }
    Blips { heading: Text, bullets: List<Text>, note: Text }
    Ttl {
        heading: Text, lead: Text, formula: Text, after: List<Text>,
        calculator_heading: Text, calculator_intro: Text, work_label: Text,
        rtt_label: Text, gc_label: Text, margin_label: Text, unit: Text,
        minimum_label: Text, proposed_label: Text, heartbeat_label: Text,
        calculator_invalid: Text, error_empty: Text, error_negative: Text,
        error_not_whole: Text, error_too_large: Text,
        work_default: u32, rtt_default: u32, gc_default: u32, margin_default: u32,
        exercise: Text,
    }
    Unlock { heading: Text, answer: Text }
    Qa {
        heading: Text, intro: Text, reveal: Text, hide: Text, knew: Text,
        review: Text, shuffle: Text, reset: Text,
        storage_unavailable: Text, answer_label: Text, grade_group: Text, questions: List<Question>,
    }
    Question {
        /// Stable across rewordings: saved progress is keyed by it.
        id: Text,
        question: Text, answer: Text,
    }
    Deeper { heading: Text, new_tab: Text, links: List<Link> }
    Link { label: Text, url: Text, note: Text }

    /// The sandbox's words (`content/sandbox.toml`).
    Sandbox {
        presets: List<PresetText>, fields: List<FieldText>, faults: List<FaultText>,
        systems: List<SystemText>, switches: List<SwitchText>, picker: PickerWords,
        playback: PlaybackWords, summary: SummaryWords, policies: PolicyWords,
        parameters: ParameterWords, pitfall: PitfallWords, fault_form: FaultFormWords,
        live_diagrams: LiveDiagramWords, snippets: SnippetWords, lab_problems: LabProblems,
        run_sequence: RunSequenceWords, lab: LabWords, timeline: TimelineWords,
        storage: StorageWords, event_log: EventLogWords, progress: ProgressWords,
        client_states: ClientStateWords, event_lines: EventLineWords, messages: MessageWords,
        nodes: NodeWords, fault_lines: FaultLineWords, own_client: OwnClientWords,
    }
    /// "Your client": the learner's own lease client in the laboratory.
    OwnClientWords {
        mode: Text, heading: Text, intro: Text, language: Text, run_heading: Text,
        cursor: Text, timeline: Text, link: Text, link_field: Text, printed: Text,
        compare: Text, compare_heading: Text, compare_intro: Text, yours: Text, builtin: Text,
        yours_timeline: Text, builtin_timeline: Text, checks_hold: Text, unreadable: Text,
        start: Text, top_level: Text, out_of_range: Text, search_heading: Text, search_intro: Text,
        search_forged: Text, load: Text, search_hung_next: Text, search_stop: Text, other_code: Text, settings_note: Text,
        reference: ClientReference,
    }
    /// The calls a learner's client receives and makes, as each language writes them.
    ClientReference { heading: Text, intro: Text, call: Text, meaning: Text, rows: List<ClientCall> }
    /// One call or field: its name in TypeScript and in Python, and what it does.
    ClientCall { typescript: Text, python: Text, meaning: Text }
    /// The nodes of the simulation inside a sentence.
    NodeWords {
        service: Text, storage: Text,
    }
    /// A fault in one line: the revoke, which names no node or amount.
    FaultLineWords {
        revoke: Text,
    }
    /// The laboratory's heading and the run's identity line.
    LabWords { heading: Text }
    /// The run's timeline: its name, lanes, marks and legend.
    TimelineWords {
        simulated_label: Text, faults_lane: Text, service_lane: Text,
        more_close_by: Text,
        legend_tenure: Text, legend_believed: Text, legend_paused: Text,
        legend_lost: Text, legend_write_ok: Text, legend_write_bad: Text, legend_renew: Text,
        legend_renew_ok: Text, legend_not_owner: Text, legend_renew_lost: Text,
        legend_failover: Text, legend_fault: Text,
    }
    /// The storage panel.
    StorageWords {
        heading: Text, fenced: Text, not_fenced: Text, empty: Text,
        scroll_label: Text, caption: Text, time: Text, client: Text, token: Text,
        verdict: Text, accepted: Text,
    }
    /// The event log.
    EventLogWords { label: Text }
    /// The names of the client states the lesson's lifecycle does not draw (the others are
    /// its `lifecycle.states` labels), and why a client concluded it lost the lease.
    ClientStateWords {
        idle: Text, renew_in_flight: Text, released: Text, lost_not_owner: Text,
        lost_deadline_passed: Text, lost_deadline_passed_at_write: Text,
    }
    /// The messages' short names, in the event log, the run's sequence and the live diagrams.
    MessageWords {
        acquire: Text, renew: Text, release: Text, granted: Text, busy: Text, renew_ok: Text,
        not_owner: Text, release_reply: Text, write: Text,
    }
    /// The event log's words for the events that carry no facts.
    EventLineWords {
        timer_acquire: Text, timer_request_timeout: Text, timer_renew: Text,
        timer_safe_deadline: Text, timer_work: Text, timer_release: Text,
        dropped_lost: Text, dropped_link_down: Text,
        dropped_receiver_crashed: Text,
        woke: Text, crashed: Text,
    }
    /// A long run's simulation in progress.
    ProgressWords {
        heading: Text, this_run: Text, both_runs: Text, note: Text, stop: Text,
    }
    /// The run's sequence diagram: its participants and the fates of its messages.
    RunSequenceWords {
        service: Text, storage: Text,
    }
    /// What the laboratory says when it cannot do what was asked.
    LabProblems {
    }
    /// One policy switch's words, keyed by its slug in `src/lab/switches.rs`.
    SwitchText { slug: Text, label: Text, description: Text }
    /// The preset picker's words.
    PickerWords { label: Text, edited: Text, expected: Text, try_this: Text, edited_note: Text }
    /// The playback bar's words.
    PlaybackWords {
        group: Text, play: Text, pause: Text, step_back: Text, step_forward: Text,
        jump_to_end: Text, speed: Text, time: Text, clock: Text,
        keys: Text,
    }
    /// What is true at the cursor.
    SummaryWords {
        label: Text, nobody: Text,
        lost_flag: Text, paused: Text, crashed: Text,
    }
    /// The policies panel's words.
    PolicyWords {
        legend: Text, prefer_note: Text, mistake_note: Text, back: Text, compare: Text,
        no_comparison: Text,
    }
    /// The Parameters form's words around its fields.
    ParameterWords {
        legend: Text, defaults: Text, defaults_choice: Text,
    }
    /// The pitfall exercise's words.
    PitfallWords {
        heading: Text, question: Text, work: Text, rtt: Text, gc: Text, margin: Text, unit: Text,
        your_ttl: Text, use_proposed: Text,
        lease_lost: Text, lease_kept: Text,
    }
    /// The Faults panel's words around the kinds of fault.
    FaultFormWords {
        heading: Text, hint: Text, none_planned: Text, planned: Text, form: Text, kind: Text,
        at: Text, at_placeholder: Text, add: Text,
        from: Text, on: Text, to: Text,
        remove: Text, seconds: Text,
    }
    /// The live diagrams' and the run sequence's words.
    LiveDiagramWords {
        heading: Text, intro: Text,
        no_message: Text, sequence_label: Text, sequence_hint: Text, export_title: Text,
    }
    /// The runnable snippets' words.
    SnippetWords {
        python_heading: Text, python_intro: Text, typescript_heading: Text,
        typescript_intro: Text, from_link: Text, run: Text, stop: Text,
        reset: Text, time_limit: Text, output: Text, errors: Text,
        output_empty: Text, errors_empty: Text,
        not_run: Text, rule: Text, solution: Text, reported: Text, reported_stopped: Text,
        stopped: Text, stopped_on_leaving: Text,
        crashed: Text,
        unknown_error: Text,
        /// Why a run could not go on, when the runner or the sandbox's worker says so.
        sandbox_did_not_start: Text, engine_too_slow: Text,
        /// Under the editor while it has focus: what Tab does now.
        editor_tab_moves: Text, editor_tab_indents: Text,
    }

    /// The words around one preset, keyed by the preset's id in `src/model/presets.rs`.
    PresetText {
        id: Text,
        title: Text,
        /// What sets this variant apart from the main version ("fencing off").
        variant: Option<Text>,
        /// Two or three sentences of what happens.
        narrative: Text,
        /// The expected outcome, which the native tests assert.
        expected: Text,
        /// What to try next in the sandbox.
        try_this: Text,
    }
    /// One scenario field's words, keyed by its share-link key in `src/model/fields.rs`.
    FieldText {
        key: Text,
        /// Its label in the Parameters form.
        label: Text,
        /// Its name inside a sentence ("This link's TTL (…) is not a number").
        name: Text,
    }
    /// A real system's name and how it renews, keyed by its slug in `src/model/presets.rs`.
    SystemText { slug: Text, system: Text, renew: Text }
    /// One kind of fault's words, keyed by its keyword.
    FaultText {
        keyword: Text,
        /// The Faults form's choice.
        choice: Text,
        /// Its name in a list or a log: "stop-the-world pause", "NTP step".
        label: Text,
        /// One of them, in a sentence, with its article: "an NTP step with a negative
        /// duration", "a stop-the-world pause".
        one: Text,
        /// What the amount is called, for kinds that take one.
        amount: Option<Text>,
        /// The unit the amount is typed in.
        unit: Option<Text>,
    }

    /// The checks' words (`content/checks.toml`), keyed by check id, and the checks panel's.
    CheckTexts {
        single_holder: CheckText, no_stale_accepted: CheckText,
        no_write_after_lost: CheckText, ordered_by_token: CheckText,
        panel: PanelText, counts: CountLabels,
    }
    /// One check's words (its explanation, filled with the violation's facts, is in
    /// `crate::lesson::sentences::checks`).
    CheckText {
        /// The check as a sentence.
        title: Text,
        /// What went wrong.
        /// What would have prevented it.
        prevention: Text,
        /// Why the check does not apply when it does not.
        not_applicable: Text,
    }
    /// The checks panel's words.
    PanelText {
        holding: Text, not_applicable: Text,
        prevented_by: Text,
        measure: Text, whole_run: Text, this_run: Text, no_failover: Text,
        heading: Text,
    }
    /// The label of each figure the checkers' measures count.
    CountLabels {
        renews_sent: Text, renews_ok: Text, renews_not_owner: Text, renews_timed_out: Text,
        renews_awaiting: Text, renews_lost_on_wire: Text, losses: Text, false_losses: Text, writes_accepted: Text,
        writes_rejected: Text, stale_accepted: Text, max_failover: Text,
    }

    /// Why a value, a fault, a scenario or a search was refused (`content/reasons.toml`).
    Reasons { value: ValueReasons, fault: FaultReasons, scenario: ScenarioReasons, search: SearchReasons }
    ValueReasons {
        empty: Text, negative: Text, not_a_number: Text, unknown_unit: Text, too_precise: Text, too_large: Text,
        not_a_switch: Text, not_a_fraction: Text, not_text: Text,
    }
    FaultReasons {
        no_time: Text,
    }
    ScenarioReasons {
        faults: Text, links: Text, other: Text,
        not_a_renew_fraction: Text, renews_too_often: Text,
        link_nodes: Text,
        round_trip: Text, jitter: Text, link_loss: Text,
    }
    SearchReasons {
        shape: Text, kinds: Text, seed: Text, fault_count: Text,
        plan_count: Text,
    }

    /// The Sandbox's challenges (`content/challenges.toml`): the section's words and each
    /// challenge, graded by the model (`src/lab/challenge`).
    Challenges { words: ChallengeWords, challenges: List<Challenge> }
    /// One challenge: its story, where it starts, what the learner may change, its goal, its
    /// hints and a reference answer. The README's "How to write a challenge" explains each.
    Challenge {
        /// Stable across rewordings: saved progress and links name it.
        id: Text,
        title: Text, story: Text,
        /// The lesson section it builds on, by its heading's id (`maps-ttl`, `gist-heartbeat`…).
        lesson: Text,
        /// Whether solving it counts toward completing the course.
        required: bool,
        /// Whether the laboratory's counterexample search is hidden while it is open (it
        /// would find the answer for the learner).
        hides_search: bool,
        /// The scenario it starts from, as a share link's fields (`preset=9&dur=6s`).
        start: Text,
        /// The scenario fields the learner may change, each within a range.
        fields: List<AllowedField>,
        /// The policy switches the learner may flip (their slugs), and at most how many.
        switches: List<Text>, max_flips: Option<u32>,
        /// The kinds of fault the learner may add (fault words), and at most how many.
        fault_kinds: List<Text>, max_faults: u32,
        /// The goal: every trial's conditions must hold.
        trials: List<Trial>,
        /// Revealed one at a time.
        hints: List<Text>,
        /// The reference answer, as share link fields applied to the start (`ttl=1s`).
        answer: Text,
        /// What made a solution work, shown once it is solved.
        solved: Text,
    }
    /// A scenario field the learner may change: its link key and its range, in link notation.
    AllowedField { key: Text, min: Text, max: Text }
    /// One way the model runs a try, and the conditions its checks and metrics must meet.
    Trial {
        /// `run` (the try once), `sweep` (one fault at 24 starts across a renew period) or
        /// `any` (every plan of a seeded counterexample search).
        over: Text,
        /// For `run`, faults added to the try's; for `sweep`, the one fault swept (at `@0s`).
        faults: Option<List<Text>>,
        /// For `any`: the search as a link writes it, `seed/kinds/max faults/plans`.
        search: Option<Text>,
        /// Conditions: `<check> holds`, `<check> broken` or `<metric> <= <value>`.
        goal: List<Text>,
    }
    /// The Challenges section's words.
    ChallengeWords {
        heading: Text, intro: Text,
        /// Where a challenge in the learner's own code is: Your client.
        own_client: Text,
        not_tried: Text, tried: Text, solved: Text,
        goal_heading: Text, over_run: Text,
        answer_heading: Text,
        switches_legend: Text,
        check: Text, start_again: Text, hints_heading: Text,
        verdict_solved: Text,
        measured_broken: Text, measured_held: Text, measured_no_failover: Text,
        try_link: Text, try_link_field: Text, link_loaded: Text, link_refused: Text,
        storage_reset: Text, storage_unavailable: Text,
        links_changed: Text, start_faults: Text,
    }

    /// The counterexample search's words (`content/search.toml`).
    SearchWords { search: SearchPanelWords, story: SearchStoryWords }
    /// The search panel: its form, progress, results and refusals.
    SearchPanelWords {
        heading: Text, intro: Text, caveat: Text, kinds: Text, max_faults: Text, budget: Text,
        seed: Text, start: Text, cancel: Text, progress: Text, start_anyway: Text,
        no_kind: Text, load: Text, link: Text, copy: Text, copied: Text, copy_failed: Text,
        unavailable: Text, worker_start: Text, worker_message: Text, worker_wrong: Text,
    }
    /// The counterexample told as a story.
    SearchStoryWords { heading: Text }
    /// Live mode's words (`content/live.toml`).
    LiveWords {
        mode: LiveModeWords, live: LiveRunWords, faults: LiveFaultWords, views: LiveViewWords,
        record: LiveRecordWords, compare: LiveCompareWords,
    }
    /// The switch between a simulated and a live run.
    LiveModeWords { label: Text, simulated: Text, live: Text, switch_hint: Text }
    /// A live run: starting, running and stopping it.
    LiveRunWords {
        heading: Text, intro: Text, start: Text, stop: Text, starting: Text, recorded: Text,
        no_workers: Text, worker_start: Text, worker_message: Text, left: Text,
        scenario_changed: Text,
    }
    /// The faults a learner injects into a live run.
    LiveFaultWords {
        heading: Text, freeze: Text, freeze_button: Text, freeze_write: Text,
        freeze_no_write: Text, step: Text, step_button: Text, step_hint: Text, drop: Text,
        drop_button: Text, delay: Text, delay_button: Text, revoke: Text, crash: Text,
        milliseconds: Text,
    }
    /// The panels drawn from a live run.
    LiveViewWords { cursor: Text, timeline_running: Text, timeline_recorded: Text }
    /// A recorded live run: its link and export.
    LiveRecordWords {
        heading: Text, link: Text, link_field: Text, freezes: Text, export: Text,
        simulate: Text,
    }
    /// A live run beside its simulation.
    LiveCompareWords {
        heading: Text, intro: Text, live: Text, simulated: Text, live_timeline: Text,
        simulated_timeline: Text,
    }
}

// The shapes of the content files, declared once: `build.rs` includes this file to read and
// check the TOML, and `src/lesson/content.rs` includes it to declare the compiled statics.
// Each includer defines `ids!` and `records!` and the types `Text` and `List<T>`.

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
        /// With `{title}` and `{duties}`, the node's duties joined by `duties_joiner`.
        node: Text, duties_joiner: Text,
        /// With `{label}`, `{from}` and `{to}`.
        edge: Text,
        /// With `{from}`, `{to}` and `{label}`.
        transition: Text,
        /// With `{number}` and `{label}`; `state_with` adds `{badges}` and `{clients}`.
        state: Text, state_with: Text,
        /// The clients of `{clients}` are joined by this.
        clients_joiner: Text,
        /// With `{step}`, `{from}` and `{label}`; `step_to` adds `{to}`.
        step: Text, step_to: Text,
        what_happens: Text,
    }
    /// The panel shown when the page stops because of a bug.
    ErrorPanel {
        heading: Text, body: Text, report: Text,
        /// With `{version}`, `{page}`, `{browser}` and `{report}`.
        report_text: Text,
        reload: Text,
    }
    /// The headings of a diagram part's explanation.
    Explain {
        decision: Text, why: Text, protocol: Text, direction: Text, effect: Text,
        consequence: Text,
    }
    /// What the page says about a link it cannot read in full; `{braces}` are filled from
    /// the link (quoted) and the limits of `src/share`.
    LinkProblems {
        too_long: Text, version: Text, no_tab: Text, unknown_field: Text,
        unreadable_field: Text, too_many_fields: Text, not_none: Text, repeated: Text,
        live: Text, live_too_long: Text, live_unreadable: Text, live_inconsistent: Text,
        bad_selection: Text, missing_selection: Text, search: Text, code_too_long: Text,
        code_unreadable: Text, no_preset: Text, refused: Text, preset_base: Text,
        default_base: Text, field: Text, switch: Text, too_many_links: Text, bad_link: Text,
        too_many_faults: Text, bad_fault: Text, inconsistent: Text, late_time: Text,
        bad_time: Text, no_switch: Text, one_more: Text, more: Text, left_out: Text,
        embed_repeated: Text, no_theme: Text, no_diagram: Text, link_shape: Text,
        link_nodes: Text, link_value: Text, rtt: Text, jitter: Text, loss: Text,
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
    /// The words of a diagram's enlarged view; `{diagram}` is the diagram's name.
    Zoom { enlarge: Text, enlarge_label: Text, title: Text, close: Text, scroll_hint: Text }
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
        /// With the placeholders `{known}`, `{review}`, `{open}` and `{total}`.
        progress: Text,
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
        nodes: NodeWords, fault_lines: FaultLineWords,
    }
    /// The nodes of the simulation inside a sentence.
    NodeWords {
        service: Text, storage: Text,
        /// With `{letter}`.
        client: Text,
    }
    /// A fault in one line: `line` with `{kind}` and `{detail}`, the detail being one of
    /// `pause` to `revoke`, which name the fault's nodes and amount; `at` adds its time.
    FaultLineWords {
        line: Text, pause: Text, partition: Text, delay: Text, step: Text, drift: Text,
        crash: Text, revoke: Text,
        /// With `{fault}` and `{at}`.
        at: Text,
    }
    /// The laboratory's heading and the run's identity line.
    LabWords { heading: Text, trace_id: Text }
    /// The run's timeline: its name, lanes, marks and legend.
    TimelineWords {
        simulated_label: Text, summary: Text, faults_lane: Text, service_lane: Text,
        more_close_by: Text, lost_mark: Text, write_mark: Text, lost_marks: Text,
        write_marks: Text,
        /// With `{from}`, `{to}`, `{took}` and `{more}` (`more_close_by` or nothing).
        failover_mark: Text,
        legend_tenure: Text, legend_believed: Text, legend_paused: Text,
        legend_lost: Text, legend_write_ok: Text, legend_write_bad: Text, legend_renew: Text,
        legend_renew_ok: Text, legend_not_owner: Text, legend_renew_lost: Text,
        legend_failover: Text, legend_fault: Text,
    }
    /// The storage panel.
    StorageWords {
        heading: Text, fenced: Text, not_fenced: Text, tally: Text, empty: Text,
        scroll_label: Text, caption: Text, time: Text, client: Text, token: Text,
        verdict: Text, accepted: Text, stale: Text, rejected: Text, newest: Text,
    }
    /// The event log.
    EventLogWords { summary: Text, label: Text, window: Text }
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
    /// The event log's sentences, one per kind of event (`{node}` and the event's facts).
    EventLineWords {
        line: Text, with_token: Text, lost: Text, timer_fired: Text, timer_fired_late: Text,
        timer_acquire: Text, timer_request_timeout: Text, timer_renew: Text,
        timer_safe_deadline: Text, timer_work: Text, timer_release: Text, sent: Text,
        delivered: Text, dropped: Text, dropped_lost: Text, dropped_link_down: Text,
        dropped_receiver_crashed: Text, read_buffered: Text, stale_reply: Text, fault: Text,
        paused: Text,
        paused_in_write_path: Text, woke: Text, crashed: Text, write_issued: Text,
        write_accepted: Text, write_accepted_stale: Text, write_rejected: Text, granted: Text,
        regranted: Text, renewed: Text, busy: Text, busy_lock_delay: Text, not_owner: Text,
        expired: Text, released: Text, revoked: Text, check_broken: Text,
    }
    /// A long run's simulation in progress.
    ProgressWords {
        heading: Text, this_run: Text, both_runs: Text, status: Text, note: Text, stop: Text,
    }
    /// The run's sequence diagram: its participants and the fates of its messages.
    RunSequenceWords {
        /// With `{letter}`.
        client: Text,
        service: Text, storage: Text,
        /// With `{message}`.
        dropped: Text, in_flight: Text,
    }
    /// What the laboratory says when it cannot do what was asked.
    LabProblems {
        /// With `{id}`.
        no_preset: Text,
        /// With `{label}`, `{text}` and `{why}`.
        bad_field: Text,
        /// With `{system}`.
        no_defaults: Text,
    }
    /// One policy switch's words, keyed by its slug in `src/lab/switches.rs`.
    SwitchText { slug: Text, label: Text, description: Text }
    /// The preset picker's words.
    PickerWords { label: Text, edited: Text, expected: Text, try_this: Text, edited_note: Text }
    /// The playback bar's words; `{now}` and `{end}` are times of the run.
    PlaybackWords {
        group: Text, play: Text, pause: Text, step_back: Text, step_forward: Text,
        jump_to_end: Text, speed: Text, time: Text, time_value: Text, clock: Text,
        clock_now: Text, clock_end: Text, keys: Text,
    }
    /// What is true at the cursor; `{holder}` is `holder` or `nobody`.
    SummaryWords {
        label: Text, holder_is: Text, holder: Text, nobody: Text, client: Text, token: Text,
        lost_flag: Text, paused: Text, crashed: Text,
    }
    /// The policies panel's words; `{switch}` is a switch's label.
    PolicyWords {
        legend: Text, prefer_note: Text, mistake_note: Text, back: Text, compare: Text,
        no_comparison: Text, without: Text, with: Text,
    }
    /// The Parameters form's words around its fields.
    ParameterWords {
        legend: Text, defaults: Text, defaults_choice: Text,
        /// With `{system}`, `{ttl}` and `{renew}`.
        system: Text,
        /// With `{num}` and `{den}`.
        fraction: Text,
        /// With `{interval}`.
        interval: Text,
    }
    /// The pitfall exercise's words.
    PitfallWords {
        heading: Text, question: Text, work: Text, rtt: Text, gc: Text, margin: Text, unit: Text,
        /// With `{minimum}`; `advice` follows it with `{proposed}` and `{heartbeat}`.
        minimum: Text, advice: Text,
        /// With `{field}` and `{problem}`.
        field_problem: Text,
        your_ttl: Text, use_proposed: Text,
        /// With `{min}`, `{max}` and `{used}`.
        ttl_refused: Text,
        /// With `{period}`.
        heartbeat: Text,
        /// With `{offset}`; `offset_value` adds `{period}`.
        offset: Text, offset_value: Text,
        /// With `{at}`, `{reason}`, `{after_flag}`, `{rejected}` and `{accepted}`, the last
        /// two a count of `stale_write` (one) or `stale_writes` (`{count}`, any other).
        lost: Text, stale_write: Text, stale_writes: Text,
        /// With `{ttl}` and `{pause}`.
        kept: Text,
        /// With `{starts}` and `{lost}`.
        sweep_label: Text,
        /// With `{offset}` and `{outcome}`.
        sweep_case: Text, lease_lost: Text, lease_kept: Text,
        /// With `{lost}`, `{starts}` and `{percent}`.
        sweep_caption: Text,
    }
    /// The Faults panel's words around the kinds of fault.
    FaultFormWords {
        heading: Text, hint: Text, none_planned: Text, planned: Text, form: Text, kind: Text,
        at: Text, at_placeholder: Text, add: Text,
        /// With `{fault}`.
        cannot_add: Text,
        from: Text, on: Text, to: Text,
        /// With `{fault}`.
        time_of: Text,
        /// With `{fault}` and `{at}`.
        remove_label: Text,
        remove: Text, seconds: Text,
    }
    /// The live diagrams' and the run sequence's words.
    LiveDiagramWords {
        heading: Text, intro: Text,
        /// With `{count}` and `{at}`.
        sequence_heading: Text,
        no_message: Text, sequence_label: Text, sequence_hint: Text, export_title: Text,
        /// With `{at}` and `{message}`.
        explanation: Text,
        /// The acquire arrow, with `{ttl}`: the run's own TTL.
        acquire: Text,
    }
    /// The runnable snippets' words; `{name}` is the language's name.
    SnippetWords {
        /// With `{limit}`, the output cap.
        rule: Text,
        python_heading: Text, python_intro: Text, typescript_heading: Text,
        typescript_intro: Text, from_link: Text, code_label: Text, run: Text, stop: Text,
        reset: Text, time_limit: Text, output: Text, errors: Text, loading: Text,
        not_run: Text, starting: Text,
        /// With `{name}` and `{progress}`.
        downloading: Text,
        /// With `{secs}`.
        running: Text,
        /// With `{ms}`.
        finished: Text,
        /// With `{line}`.
        failed_on_line: Text,
        failed: Text,
        /// With `{secs}`.
        timed_out: Text,
        stopped: Text,
        /// With `{limit}`.
        output_limit: Text,
        crashed: Text,
        /// With `{size}`.
        per_second: Text,
        /// With `{count}`.
        lines: Text,
        /// With `{size}`.
        megabytes: Text, kilobytes: Text, bytes: Text,
        /// With `{received}` and `{total}`.
        download_of: Text,
        /// With `{reason}`.
        could_not_start: Text,
        unknown_error: Text,
        /// Under the editor while it has focus: what Tab does now.
        editor_tab_moves: Text, editor_tab_indents: Text,
        /// With `{name}`: the code is too long for a link even compressed.
        too_long_for_link: Text,
        /// With `{name}`.
        download_code: Text,
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
        /// Its short noun in a reason: "a pause with a negative duration".
        noun: Text,
        /// Its name in a list or a log: "stop-the-world pause", "NTP step".
        label: Text,
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
    /// One check's words; `{fact}` placeholders name the violation's facts.
    CheckText {
        /// The check as a sentence.
        title: Text,
        /// What went wrong.
        explanation: Text,
        /// What would have prevented it.
        prevention: Text,
        /// Why the check does not apply when it does not.
        not_applicable: Text,
    }
    /// The checks panel's words (`{at}`, `{count}` and `{now}` are filled by the view).
    PanelText {
        holding: Text, not_applicable: Text, broken: Text, broken_times: Text,
        prevented_by: Text, go_to: Text, counts_caption: Text, compare_caption: Text,
        measure: Text, as_of: Text, whole_run: Text, this_run: Text, no_failover: Text,
        heading: Text, earlier_losses: Text, went_lost: Text, without: Text, with: Text,
        breaks_here: Text, breaks_flipped: Text, differs: Text, agree: Text, difference: Text,
    }
    /// The label of each figure the checkers' measures count.
    CountLabels {
        renews_sent: Text, renews_ok: Text, renews_not_owner: Text, renews_timed_out: Text,
        renews_lost_on_wire: Text, losses: Text, false_losses: Text, writes_accepted: Text,
        writes_rejected: Text, stale_accepted: Text, max_failover: Text,
    }

    /// Why a value, a fault, a scenario or a search was refused (`content/reasons.toml`).
    Reasons { value: ValueReasons, fault: FaultReasons, scenario: ScenarioReasons, search: SearchReasons }
    ValueReasons {
        empty: Text, negative: Text, not_a_number: Text, too_precise: Text, too_large: Text,
        not_a_switch: Text, not_a_fraction: Text, not_text: Text,
    }
    FaultReasons {
        unknown_kind: Text, no_time: Text, bad_time: Text, bad_node: Text, no_amount: Text,
        negative_length: Text, bad_amount: Text, unexpected_amount: Text,
    }
    ScenarioReasons {
        refused: Text, faults: Text, links: Text, other: Text, out_of_range: Text,
        not_a_renew_fraction: Text, renews_too_often: Text,
        margin_not_under_ttl: Text, too_many_events: Text, too_many_faults: Text,
        fault_after_end: Text, fault_out_of_range: Text, too_many_links: Text, link_nodes: Text,
        link_too_slow: Text, round_trip: Text, jitter: Text, link_loss: Text,
    }
    SearchReasons {
        shape: Text, number: Text, kinds: Text, range: Text, seed: Text, fault_count: Text,
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
        /// Why the code challenge is not here yet.
        left_out: Text,
        /// With `{solved}`, `{total}` and `{required}`.
        progress: Text,
        not_tried: Text, tried: Text, solved: Text,
        /// With `{section}`, the linked lesson section.
        builds_on: Text,
        goal_heading: Text, over_run: Text,
        /// With `{faults}`.
        over_run_with: Text,
        /// With `{fault}` and `{starts}`.
        over_sweep: Text,
        /// With `{seed}`, `{kinds}`, `{max}` and `{plans}`.
        over_any: Text,
        /// With `{check}` (its title) or `{metric}` (its label) and `{value}`.
        condition_holds: Text, condition_broken: Text, condition_at_most: Text,
        answer_heading: Text,
        /// With `{label}`, `{min}` and `{max}`.
        field_range: Text,
        switches_legend: Text,
        /// With `{count}`.
        flips_limit: Text,
        /// With `{max}`.
        faults_label: Text,
        /// With `{kinds}`.
        fault_kinds: Text,
        check: Text, start_again: Text, hints_heading: Text,
        /// With `{shown}` and `{total}`.
        hint_button: Text,
        verdict_solved: Text,
        /// With `{condition}`, `{measured}` and `{at}`.
        failed: Text,
        measured_broken: Text, measured_held: Text, measured_no_failover: Text,
        /// With `{fault}` and `{offset}`.
        case_sweep: Text,
        /// With `{index}` and `{plan}`.
        case_any: Text,
        /// With `{at}`.
        go_to: Text,
        /// With `{hash}` and `{runs}`.
        trace: Text,
        try_link: Text, try_link_field: Text, link_loaded: Text,
        storage_reset: Text, storage_unavailable: Text,
        /// With `{why}`, one of the reasons below.
        refused: Text,
        /// With `{id}`.
        unknown_challenge: Text,
        /// With `{title}`.
        changed_goal: Text,
        /// With `{what}`: a field's or switch's name, or `links_changed`.
        not_allowed: Text, links_changed: Text, start_faults: Text,
        /// With `{label}`, `{value}`, `{min}` and `{max}`.
        out_of_range: Text,
        /// With `{count}`.
        too_many_flips: Text,
        /// With `{count}` and `{max}`.
        too_many_faults: Text,
        /// With `{kind}`.
        kind_not_allowed: Text,
        /// With `{text}` and `{why}`.
        bad_fault: Text,
        /// With `{label}`, `{text}` and `{why}`.
        bad_value: Text,
        /// With `{why}`.
        inconsistent: Text,
    }
}

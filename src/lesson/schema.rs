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
        deeper: Deeper, zoom: Zoom, tabs: Tabs, sandbox_intro: SandboxIntro,
    }
    /// The tab strip's names.
    Tabs { gist: Text, maps: Text, qa: Text, sandbox: Text }
    /// The Sandbox tab's own words, around the laboratory's mount (the lab's are in
    /// sandbox.toml and arrive with its module).
    SandboxIntro { heading: Text, lead: Text, needs_script: Text, load_failed: Text }
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
        systems: List<SystemText>,
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
    /// How a real system renews, keyed by its name in `src/model/presets.rs`.
    SystemText { system: Text, renew: Text }
    /// One kind of fault's words in the Faults form, keyed by its keyword.
    FaultText {
        keyword: Text,
        /// The form's choice.
        choice: Text,
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
    }
    /// The label of each figure the observer measures.
    CountLabels {
        renews_sent: Text, renews_ok: Text, renews_not_owner: Text, renews_timed_out: Text,
        renews_lost_on_wire: Text, losses: Text, false_losses: Text, writes_accepted: Text,
        writes_rejected: Text, stale_accepted: Text, max_failover: Text,
    }
}

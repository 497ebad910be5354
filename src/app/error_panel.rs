//! The panel shown when the app panics: a plain explanation and a report to copy.
//!
//! Built with raw DOM calls because Yew cannot render after a panic. Text goes in through
//! `textContent` only, so a panic message can never inject markup.

use crate::lesson::sentences;
use crate::lesson::LESSON;
use wasm_bindgen::JsCast;

const PANEL_ID: &str = "error-panel";

/// Replaces the app with an error panel holding `report`. Safe to call more than once.
pub fn show_error_panel(report: &str) {
    web_sys::console::error_1(&report.into());
    let document = gloo::utils::document();
    if document.get_element_by_id(PANEL_ID).is_some() {
        return;
    }
    let Ok(panel) = document.create_element("section") else {
        return;
    };
    panel.set_id(PANEL_ID);
    panel.set_class_name("error-panel");
    let _ = panel.set_attribute("role", "alert");
    let _ = panel.set_attribute("aria-labelledby", "error-panel-title");

    let append = |tag: &str, text: &str| {
        let element = document.create_element(tag).ok()?;
        element.set_text_content(Some(text));
        panel.append_child(&element).ok()?;
        Some(element)
    };
    let words = &LESSON.error_panel;
    if let Some(title) = append("h2", words.heading) {
        title.set_id("error-panel-title");
    }
    append("p", words.body);
    let user_agent = gloo::utils::window()
        .navigator()
        .user_agent()
        .unwrap_or_default();
    let full_report = sentences::lesson::error_panel::ReportText {
        version: env!("CARGO_PKG_VERSION"),
        page: gloo::utils::window().location().href().unwrap_or_default(),
        browser: user_agent,
        report,
    }
    .to_string();
    if let Some(area) = append("textarea", &full_report) {
        let _ = area.set_attribute("readonly", "");
        let _ = area.set_attribute("rows", "8");
        let _ = area.set_attribute("aria-label", words.report);
        if let Some(area) = area.dyn_ref::<web_sys::HtmlTextAreaElement>() {
            area.set_value(&full_report);
        }
    }
    if let Some(link) = append("a", words.reload) {
        let _ = link.set_attribute("href", "./");
    }

    let host = document
        .get_element_by_id("app")
        .or_else(|| document.body().map(Into::into));
    if let Some(host) = host {
        host.set_text_content(None);
        let _ = host.append_child(&panel);
    }
}

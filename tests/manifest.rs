//! Cargo.toml names web-sys's features twice, since Cargo has no features per target: once
//! for the page's wasm32 build and once for the native prerenderer, which compiles the same
//! views. A feature missing from the second list breaks only `--features prerender`; this
//! keeps the two lists equal.

/// The quoted names in the `features = [ ... ]` list that follows `declaration`.
fn features_after(manifest: &str, declaration: &str) -> Vec<String> {
    let start = manifest
        .find(declaration)
        .unwrap_or_else(|| panic!("Cargo.toml has no `{declaration}`"));
    let list = &manifest[start + declaration.len()..];
    let list = &list[..list.find(']').expect("the features list ends")];
    let mut names: Vec<String> = list
        .split(',')
        .map(|name| name.trim().trim_matches('"').to_owned())
        .filter(|name| !name.is_empty())
        .collect();
    names.sort();
    names
}

#[test]
fn the_prerenderer_has_the_same_web_sys_features_as_the_page() {
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .expect("Cargo.toml reads");
    let page = features_after(&manifest, r#"web-sys = { version = "0.3", features = ["#);
    let prerenderer = features_after(
        &manifest,
        r#"web-sys = { version = "0.3", optional = true, features = ["#,
    );
    assert!(page.len() > 10, "{page:?}");
    assert_eq!(page, prerenderer);
}

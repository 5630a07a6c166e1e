//! Embed the Fluent catalogues: every `locales/LANG/*.ftl` becomes part of the binary, so
//! adding a language is adding a folder (English, the fallback, is listed first).
//!
//! Paths stay relative to the crate (`CARGO_MANIFEST_DIR` read from the environment, relative
//! `rerun-if-changed`): build outputs are shared between checkouts of the workspace (CI
//! reuses a target directory), and an absolute path would embed another checkout's files.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    // Read at run time: a build script compiled for one checkout may be reused for another.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("locales");
    println!("cargo:rerun-if-changed=locales");
    // `sqlx::migrate!` embeds the migrations: a new one must rebuild the store.
    println!("cargo:rerun-if-changed=../migrations/sqlite");
    println!("cargo:rerun-if-changed=../migrations/postgres");
    let mut langs: Vec<(String, Vec<String>)> = Vec::new();
    let dirs = std::fs::read_dir(&root).expect("core/locales exists");
    for dir in dirs.flatten() {
        if !dir.path().is_dir() {
            continue;
        }
        let lang = dir.file_name().to_string_lossy().into_owned();
        println!("cargo:rerun-if-changed=locales/{lang}");
        let mut files: Vec<String> = std::fs::read_dir(dir.path())
            .expect("a locale folder reads")
            .flatten()
            .map(|f| f.path())
            .filter(|p| p.extension().is_some_and(|e| e == "ftl"))
            .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect();
        files.sort();
        for f in &files {
            println!("cargo:rerun-if-changed=locales/{lang}/{f}");
        }
        langs.push((lang, files));
    }
    // English first: it is the fallback and the reference every other catalogue must match.
    langs.sort_by_key(|(l, _)| (l != "en", l.clone()));
    let mut out = String::from("pub(crate) const LOCALES: &[(&str, &[&str])] = &[\n");
    for (lang, files) in &langs {
        let _ = write!(out, "    ({lang:?}, &[");
        for f in files {
            let _ = write!(
                out,
                "include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/locales/{lang}/{f}\")), "
            );
        }
        out.push_str("]),\n");
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("locales.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}

//! Embed the Fluent catalogues: every `locales/LANG/*.ftl` becomes part of the binary, so
//! adding a language is adding a folder (English, the fallback, is listed first).

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("locales");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut langs: Vec<(String, Vec<String>)> = Vec::new();
    let dirs = std::fs::read_dir(&root).expect("core/locales exists");
    for dir in dirs.flatten() {
        let path = dir.path();
        if !path.is_dir() {
            continue;
        }
        println!("cargo:rerun-if-changed={}", path.display());
        let lang = dir.file_name().to_string_lossy().into_owned();
        let mut files: Vec<String> = std::fs::read_dir(&path)
            .expect("a locale folder reads")
            .flatten()
            .map(|f| f.path())
            .filter(|p| p.extension().is_some_and(|e| e == "ftl"))
            .map(|p| p.display().to_string())
            .collect();
        files.sort();
        for f in &files {
            println!("cargo:rerun-if-changed={f}");
        }
        langs.push((lang, files));
    }
    // English first: it is the fallback and the reference every other catalogue must match.
    langs.sort_by_key(|(l, _)| (l != "en", l.clone()));
    let mut out = String::from("pub(crate) const LOCALES: &[(&str, &[&str])] = &[\n");
    for (lang, files) in &langs {
        let _ = write!(out, "    ({lang:?}, &[");
        for f in files {
            let _ = write!(out, "include_str!({f:?}), ");
        }
        out.push_str("]),\n");
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("locales.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}

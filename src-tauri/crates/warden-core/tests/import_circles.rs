//! The engine's modules import in one direction: no two sibling modules reach into each other,
//! directly or around a ring. Every `crate::`, `super::` and `self::` path of the engine's
//! sources — `use` lines and inline paths alike, tests and comments left out — is an edge from
//! the module it is written in to the module it names, taken at the level where the two part
//! (`agent::turn` → `agent::session`); a ring of such edges among siblings is a circle.
//!
//! None stands today (`KNOWN` is empty since the structure issue's step 4); a new one fails the
//! suite, and so would a listed one that is gone.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Circles allowed to stand, each as its modules sorted and joined by ` <-> ` (none).
const KNOWN: &[&str] = &[];

type Module = Vec<String>;

/// Every module of the crate whose sources are under `src`, and its file.
fn modules(src: &Path) -> BTreeMap<Module, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let Ok(relative) = path.strip_prefix(src) else { continue };
            let mut module: Module =
                relative.with_extension("").iter().map(|p| p.to_string_lossy().into_owned()).collect();
            if matches!(module.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                module.pop();
            }
            out.insert(module, path);
        }
    }
    out
}

/// `text` without comments and without `#[cfg(test)] mod … { … }` blocks.
fn code_of(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or_default();
        out.push_str(code);
        out.push('\n');
    }
    let mut kept = String::new();
    let mut rest = out.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        kept.push_str(&rest[..at]);
        let after = &rest[at..];
        // The item it marks: up to its `;` (a `mod x;` in another file) or its closing brace.
        let (Some(brace), semi) = (after.find('{'), after.find(';')) else {
            rest = "";
            break;
        };
        if semi.is_some_and(|semi| semi < brace) {
            rest = &after[semi.unwrap_or_default() + 1..];
            continue;
        }
        let mut depth = 0usize;
        let mut end = after.len();
        for (i, c) in after[brace..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = brace + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    kept.push_str(rest);
    kept
}

/// The paths `code` names from `crate`, `super` or `self`, as the words after the first.
fn paths(code: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let bytes: Vec<char> = code.chars().collect();
    let word_at = |i: usize| -> (String, usize) {
        let mut j = i;
        let mut w = String::new();
        while j < bytes.len() && (bytes[j].is_alphanumeric() || bytes[j] == '_') {
            w.push(bytes[j]);
            j += 1;
        }
        (w, j)
    };
    let mut i = 0;
    while i < bytes.len() {
        let boundary =
            i == 0 || !(bytes[i - 1].is_alphanumeric() || bytes[i - 1] == '_' || bytes[i - 1] == ':');
        let (word, end) = word_at(i);
        if word.is_empty() {
            i += 1;
            continue;
        }
        if boundary && matches!(word.as_str(), "crate" | "super" | "self") {
            let mut parts = Vec::new();
            let mut j = end;
            while bytes.get(j) == Some(&':') && bytes.get(j + 1) == Some(&':') {
                let (next, after) = word_at(j + 2);
                if next.is_empty() {
                    break;
                }
                parts.push(next);
                j = after;
            }
            if !parts.is_empty() {
                out.push((word, parts));
            }
            i = j.max(end);
        } else {
            i = end;
        }
    }
    out
}

fn circles(src: &Path) -> Vec<String> {
    let modules = modules(src);
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, file) in &modules {
        if module.iter().any(|part| part.contains("test")) {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for (start, mut parts) in paths(&code_of(&text)) {
            let mut base: Module = match start.as_str() {
                "crate" => Vec::new(),
                "self" => module.clone(),
                _ => module[..module.len().saturating_sub(1)].to_vec(),
            };
            while parts.first().is_some_and(|p| p == "super") {
                base.pop();
                parts.remove(0);
            }
            base.extend(parts);
            let Some(target) =
                (1..=base.len()).rev().map(|k| base[..k].to_vec()).find(|m| modules.contains_key(m))
            else {
                continue;
            };
            let shared = module.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if shared >= module.len() || shared >= target.len() {
                continue; // one holds the other
            }
            edges.entry(module[..=shared].to_vec()).or_default().insert(target[..=shared].to_vec());
        }
    }
    strongly_connected(&edges)
        .into_iter()
        .filter(|ring| ring.len() > 1)
        .map(|ring| ring.iter().map(|m| m.join("::")).collect::<Vec<_>>().join(" <-> "))
        .collect()
}

/// The rings of `edges` (Tarjan), each sorted.
fn strongly_connected(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct State<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<Module, usize>,
        low: BTreeMap<Module, usize>,
        stack: Vec<Module>,
        on: BTreeSet<Module>,
        out: Vec<Vec<Module>>,
    }
    fn visit(s: &mut State<'_>, v: &Module) {
        let n = s.index.len();
        s.index.insert(v.clone(), n);
        s.low.insert(v.clone(), n);
        s.stack.push(v.clone());
        s.on.insert(v.clone());
        for w in s.edges.get(v).cloned().unwrap_or_default() {
            if !s.index.contains_key(&w) {
                visit(s, &w);
                let low = s.low[&w].min(s.low[v]);
                s.low.insert(v.clone(), low);
            } else if s.on.contains(&w) {
                let low = s.index[&w].min(s.low[v]);
                s.low.insert(v.clone(), low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut ring = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(&w);
                let done = &w == v;
                ring.push(w);
                if done {
                    break;
                }
            }
            ring.sort();
            s.out.push(ring);
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    let nodes: BTreeSet<Module> =
        edges.iter().flat_map(|(k, v)| std::iter::once(k.clone()).chain(v.iter().cloned())).collect();
    for node in &nodes {
        if !state.index.contains_key(node) {
            visit(&mut state, node);
        }
    }
    state.out.sort();
    state.out
}

#[test]
fn the_engines_modules_import_in_one_direction() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = circles(&src);
    // The check reads the tree it is meant to: a wrong folder would find no circle at all.
    assert!(modules(&src).len() > 50, "the check found almost no module under {}", src.display());
    let new: Vec<&String> = found.iter().filter(|c| !KNOWN.contains(&c.as_str())).collect();
    let gone: Vec<&&str> = KNOWN.iter().filter(|k| !found.iter().any(|c| c == *k)).collect();
    assert!(
        new.is_empty(),
        "new import circles among the engine's modules:\n{}",
        new.iter().map(|c| format!("  {c}")).collect::<Vec<_>>().join("\n")
    );
    assert!(gone.is_empty(), "these circles are open now; take them off KNOWN:\n{gone:?}");
}

/// The check sees a circle when there is one, through `use`, an inline path and `super::`.
#[test]
fn a_circle_is_seen_through_use_lines_inline_paths_and_super() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let write = |path: &str, text: &str| {
        let file = dir.path().join(path);
        std::fs::create_dir_all(file.parent().unwrap_or(dir.path())).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(file, text).unwrap_or_else(|e| panic!("{e}"));
    };
    write("lib.rs", "mod a;\nmod b;\nmod c;\n");
    write("a/mod.rs", "mod x;\nmod y;\nuse crate::b::Thing;\n");
    write("a/x.rs", "fn f() { super::y::g(); }\n");
    write("a/y.rs", "use super::x;\n// crate::c::never\n#[cfg(test)]\nmod tests { use crate::c::Z; }\n");
    write("b.rs", "fn h() { let _ = crate::a::x::f; }\n");
    write("c.rs", "pub struct Z;\n");
    assert_eq!(circles(dir.path()), ["a <-> b", "a::x <-> a::y"]);
}

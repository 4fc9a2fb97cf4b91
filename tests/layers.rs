//! The library's layers (src/lib.rs) only point downward: a module uses `crate::` paths
//! of lower layers and of itself, never of its own layer or a higher one, so there are no
//! cycles between them; inside a folder, no files (or folders) use each other round a
//! circle either. Test code (`#[cfg(test)]` modules, which may build a concrete game) and
//! comments are not counted.

use std::path::Path;

use crate::common::source::{code_lines, files};

/// The top-level modules of the library, lowest layer first, as `src/lib.rs`'s
/// documentation lists them (one bullet a layer: the `[`module`]` links before its colon),
/// so the order is written once.
fn layers() -> Vec<Vec<String>> {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    lib.lines()
        .filter_map(|l| l.strip_prefix("//! - "))
        .map(|bullet| {
            let head = bullet.split(": ").next().unwrap_or("");
            head.split("[`").skip(1).filter_map(|p| p.split("`]").next()).map(str::to_string).collect()
        })
        .collect()
}

fn layer(layers: &[Vec<String>], module: &str) -> Option<usize> {
    layers.iter().position(|l| l.iter().any(|m| m == module))
}

/// The top-level modules named by `crate::` paths in the code of `text`, with their lines.
fn uses(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (line, code) in code_lines(text) {
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            found.push((line, name));
        }
    }
    found
}

#[test]
fn every_module_uses_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    files(&src, &["rs"], &mut paths);
    let mut wrong = Vec::new();
    let mut modules_seen = 0;
    let layers = layers();
    assert!(layers.len() >= 8 && layers[0] == ["input"], "src/lib.rs lists the layers: {layers:?}");
    for file in paths {
        let rel = file.strip_prefix(&src).unwrap();
        let first = rel.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "lib" || module == "main" {
            continue;
        }
        let Some(own) = layer(&layers, &module) else {
            wrong.push(format!("src/{module}: not in the layers of src/lib.rs (add it where it belongs)"));
            continue;
        };
        modules_seen += 1;
        for (line, used) in uses(&std::fs::read_to_string(&file).unwrap()) {
            match layer(&layers, &used) {
                Some(l) if l < own || used == module => {}
                Some(_) => wrong.push(format!("{}:{line}: {module} uses {used}", rel.display())),
                // Not a module: an exported macro (`crate::weights_files!`) at the root.
                None => {}
            }
        }
    }
    assert!(modules_seen > 10, "only {modules_seen} files read");
    assert!(wrong.is_empty(), "imports against the layers:\n{}", wrong.join("\n"));
}

/// The module path of a source file under `src/` (`games/numbershogi/rules.rs` →
/// `games::numbershogi::rules`; a `mod.rs` is its folder's module).
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel.trim_end_matches(".rs").split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

fn ident(s: &[u8], i: &mut usize) -> Option<String> {
    let start = *i;
    while *i < s.len() && (s[*i].is_ascii_alphanumeric() || s[*i] == b'_') {
        *i += 1;
    }
    (*i > start).then(|| String::from_utf8_lossy(&s[start..*i]).into_owned())
}

fn skip_space(s: &[u8], i: &mut usize) {
    while *i < s.len() && s[*i].is_ascii_whitespace() {
        *i += 1;
    }
}

/// The paths of one `use` tree (or one path in code) starting at `s[*i]`: `a::b::{c, d::e}`
/// gives `a::b::c` and `a::b::d::e` (`self` in a group is the group's path).
fn tree(s: &[u8], i: &mut usize) -> Vec<Vec<String>> {
    let mut head = Vec::new();
    loop {
        skip_space(s, i);
        if s.get(*i) == Some(&b'{') {
            *i += 1;
            let mut out = Vec::new();
            loop {
                skip_space(s, i);
                match s.get(*i) {
                    Some(b'}') | None => {
                        *i += 1;
                        return out;
                    }
                    Some(b',') => *i += 1,
                    _ => {
                        let before = *i;
                        for tail in tree(s, i) {
                            let tail = tail.into_iter().filter(|t| t != "self");
                            out.push(head.iter().cloned().chain(tail).collect());
                        }
                        if *i == before {
                            *i += 1;
                        }
                    }
                }
            }
        }
        let Some(name) = ident(s, i) else { return vec![head] };
        head.push(name);
        if s[*i..].starts_with(b"::") {
            *i += 2;
        } else {
            return vec![head];
        }
    }
}

/// The import circles between the files and folders of one folder: `files` are (path
/// under `src/`, text). An edge goes from a file (or a folder holding it) to a sibling
/// file or folder its code names by a `crate::` or `super::` path; a `mod.rs` is its
/// folder, so a folder's files using their `mod.rs` (and it them) make no circle.
fn circles(files: &[(String, String)]) -> Vec<String> {
    use std::collections::{BTreeMap, BTreeSet};
    let modules: Vec<Vec<String>> = files.iter().map(|(rel, _)| module_of(rel)).collect();
    let is_node = |folder: &[String], name: &str| {
        modules.iter().any(|m| m.len() > folder.len() && m.starts_with(folder) && m[folder.len()] == name)
    };
    // folder -> from -> to -> the first line that makes the edge
    let mut edges: BTreeMap<Vec<String>, BTreeMap<String, BTreeMap<String, String>>> = BTreeMap::new();
    for ((rel, text), module) in files.iter().zip(&modules) {
        let code = code_lines(text);
        let joined: String = code.iter().map(|(_, c)| format!("{c}\n")).collect();
        let line_at = |at: usize| code[joined[..at].matches('\n').count()].0;
        let s = joined.as_bytes();
        let mut at = 0;
        while at < s.len() {
            let boundary = at == 0 || !(s[at - 1].is_ascii_alphanumeric() || s[at - 1] == b'_');
            let (mut i, mut base) = (at, None);
            if boundary && s[at..].starts_with(b"crate::") {
                i += "crate::".len();
                base = Some(Vec::new());
            } else if boundary && s[at..].starts_with(b"super::") {
                let mut up = module.clone();
                while s[i..].starts_with(b"super::") {
                    i += "super::".len();
                    up.pop();
                }
                base = Some(up);
            }
            let Some(base) = base else {
                at += 1;
                continue;
            };
            let line = line_at(at);
            for tail in tree(s, &mut i) {
                let target: Vec<String> = base.iter().cloned().chain(tail).collect();
                let k = module.iter().zip(&target).take_while(|(a, b)| a == b).count();
                let (Some(from), Some(to)) = (module.get(k), target.get(k)) else { continue };
                if is_node(&module[..k], to) {
                    let by = edges.entry(module[..k].to_vec()).or_default().entry(from.clone()).or_default();
                    by.entry(to.clone()).or_insert_with(|| format!("src/{rel}:{line}"));
                }
            }
            at = i.max(at + 1);
        }
    }
    let mut found = Vec::new();
    for (folder, graph) in &edges {
        let reach = |from: &str| {
            let (mut seen, mut todo) = (BTreeSet::new(), vec![from.to_string()]);
            while let Some(n) = todo.pop() {
                for next in graph.get(&n).into_iter().flat_map(|m| m.keys()) {
                    if seen.insert(next.clone()) {
                        todo.push(next.clone());
                    }
                }
            }
            seen
        };
        let mut reported = BTreeSet::new();
        for node in graph.keys() {
            if reported.contains(node) || !reach(node).contains(node) {
                continue;
            }
            let circle: BTreeSet<String> =
                graph.keys().filter(|m| reach(node).contains(*m) && reach(m).contains(node)).cloned().collect();
            let by: Vec<String> = circle
                .iter()
                .flat_map(|a| {
                    graph[a].iter().filter(|(b, _)| circle.contains(*b)).map(move |(b, w)| format!("{a} -> {b} ({w})"))
                })
                .collect();
            found.push(format!("src/{}: {}", folder.join("/"), by.join(", ")));
            reported.extend(circle);
        }
    }
    found
}

#[test]
fn no_import_circle_inside_a_folder() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    files(&src, &["rs"], &mut paths);
    let read: Vec<(String, String)> = paths
        .iter()
        .map(|p| {
            (p.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/"), std::fs::read_to_string(p).unwrap())
        })
        .collect();
    assert!(read.len() > 50, "only {} files read", read.len());
    let found = circles(&read);
    assert!(found.is_empty(), "import circles between the files of a folder:\n{}", found.join("\n"));
}

#[test]
fn the_circle_check_finds_a_made_up_pair_and_nothing_else() {
    let files = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect()
    };
    // Two files of one folder that use each other, by `super::` and by `crate::` paths.
    let pair = files(&[
        ("x/mod.rs", "mod a;\nmod b;\npub struct Root;\n"),
        ("x/a.rs", "use super::{b::B, Root};\npub struct A;\n"),
        ("x/b.rs", "pub struct B;\nfn f() -> crate::x::a::A {\n    crate::x::a::A\n}\n"),
    ]);
    let found = circles(&pair);
    assert_eq!(found, ["src/x: a -> b (src/x/a.rs:1), b -> a (src/x/b.rs:2)"]);
    // A folder inside the folder counts as one node; a multi-line group is read whole.
    let nested = files(&[("y/a.rs", "use super::{\n    c::{d::D, self},\n};\n"), ("y/c/d.rs", "use crate::y::a;\n")]);
    assert_eq!(circles(&nested), ["src/y: a -> c (src/y/a.rs:1), c -> a (src/y/c/d.rs:1)"]);
    // One way, a file and its folder's mod.rs both ways, comments and tests: no circle.
    let fine = files(&[
        ("x/mod.rs", "mod a;\nmod b;\nuse a::A;\npub struct Root;\n"),
        ("x/a.rs", "use super::b::B;\nuse super::Root;\n// super::b is fine\n"),
        ("x/b.rs", "// crate::x::a would not be\n#[cfg(test)]\nmod tests {\n    use super::super::a::A;\n}\n"),
    ]);
    assert_eq!(circles(&fine), Vec::<String>::new());
}

//! The library's layers (src/lib.rs) only point downward: a module uses `crate::` paths
//! of lower layers and of itself, never of its own layer or a higher one, so there are no
//! cycles. Test code (`#[cfg(test)]` modules, which may build a concrete game) and
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

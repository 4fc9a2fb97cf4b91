//! The games are named in one place, their registry (`src/games/`): the engine, the
//! protocols, the page of `koma serve` and network training find them there
//! (CONTRIBUTING.md, "Adding a game"). The page gets what it draws from `hello`.

use std::path::Path;

use koma::games;

use crate::common::source::{code_lines, files};

/// Files outside `src/games/` whose code may name a game, and why.
const ALLOWED: &[(&str, &str)] = &[
    ("src/engine/options.rs", "DEFAULT_VARIANT: the game a new engine plays"),
    ("src/train/mod.rs", "the game `koma nnue-data` makes data for by default"),
    ("src/cli/solve.rs", "`koma solve` solves Number Shogi's placements only"),
    ("src/records/", "each record format is one game's (KIF, CSA and 66 shogi's records, PGN)"),
];

/// Where the code of `file` (under the repository) names a game: its lines.
fn naming(file: &Path, rel: &str) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let lines: Vec<(usize, &str)> = if rel.ends_with(".rs") {
        code_lines(&text)
    } else {
        text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect()
    };
    let mut found = Vec::new();
    for (n, line) in lines {
        let lower = line.to_lowercase();
        let named = games::descriptors().iter().any(|d| {
            let title = d.appearance.title.to_lowercase();
            lower.contains(d.name) || lower.contains(&title)
        });
        if named {
            found.push(format!("{rel}:{n}: {}", line.trim()));
        }
    }
    found
}

#[test]
fn nothing_outside_the_registry_names_a_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    files(&root.join("src"), &["rs", "js", "html", "css"], &mut paths);
    let mut found = Vec::new();
    let mut read = 0;
    for path in paths {
        let rel = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        if rel.starts_with("src/games/") || ALLOWED.iter().any(|(a, _)| rel.starts_with(a)) {
            continue;
        }
        read += 1;
        found.extend(naming(&path, &rel));
    }
    assert!(read > 50, "only {read} files read");
    assert!(
        found.is_empty(),
        "games named outside src/games/ (add them to the registry instead):\n{}",
        found.join("\n")
    );
}

/// The test above finds what it looks for: a game's name, or its title, in code.
#[test]
fn a_game_named_in_code_is_found() {
    let dir = std::env::temp_dir().join(format!("koma-registry-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("page.js");
    std::fs::write(&page, "// drawing\nconst LOOK = { kokesu: \"#f0d9b5\" };\nconst title = \"Kani Nari Ebi\";\n")
        .unwrap();
    let rust = dir.join("code.rs");
    std::fs::write(
        &rust,
        "// kokesu in a comment\nlet v = \"numbershogi\";\n#[cfg(test)]\nmod tests { \"kanishogi\" }\n",
    )
    .unwrap();
    let page_found = naming(&page, "page.js");
    let rust_found = naming(&rust, "code.rs");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(page_found.len(), 2, "{page_found:?}");
    assert_eq!(rust_found, ["code.rs:2: let v = \"numbershogi\";"]);
}

/// The allow-list names files that exist and still name a game (no stale entry).
#[test]
fn the_allowed_files_exist_and_name_a_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (allowed, why) in ALLOWED {
        let mut paths = Vec::new();
        let at = root.join(allowed);
        if at.is_dir() {
            files(&at, &["rs"], &mut paths);
        } else {
            paths.push(at);
        }
        let named: usize = paths.iter().map(|p| naming(p, &p.to_string_lossy()).len()).sum();
        assert!(named > 0, "{allowed} ({why}) names no game: take it off the list");
    }
}

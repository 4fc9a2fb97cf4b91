//! The page's help for players, in Debian's headless Chromium (run from serve_browser.rs,
//! which starts the browser): a long error wraps inside its box and the side panel stays
//! beside the board; scores say "1 ply" and "win" where a game has no checkmate; the
//! evaluation graph draws its newest point whole; Analyse draws its move on the board; the
//! "How to play" panel shows each game's rules, switches and pieces without leaving the
//! game; the exact values of Number Shogi's moves; the
//! hidden setup. Screenshots go to target/serve-screenshots/.

use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use serde_json::{json, Value};

use crate::serve_browser::{click, game, new_game, paste, plies, screenshot, select, text_of, wait_game, WAIT};

/// Number Shogi in play, sente to move: 2d2c takes the 1 and makes 1 + 6 in hand.
const WIN_IN_ONE: &str = "position sfen bcd/e2/1a1/BAC/DEF b F 30";

pub(crate) async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.unwrap_or_else(|e| panic!("{script}: {e}"))
}

/// Runs `body` (which may `await`) in the page and returns what it returns.
pub(crate) async fn js_async(c: &Client, body: &str) -> Value {
    let script = format!("const done = arguments[arguments.length - 1]; (async () => {{ {body} }})().then(done, (e) => done('error: ' + e));");
    c.execute_async(&script, vec![]).await.unwrap_or_else(|e| panic!("{body}: {e}"))
}

/// Waits until the script `check` returns true.
async fn wait_js(c: &Client, what: &str, check: &str) {
    let deadline = Instant::now() + WAIT;
    while js(c, check).await != json!(true) {
        assert!(Instant::now() < deadline, "waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn rect(c: &Client, css: &str) -> Value {
    js(c, &format!("const r = document.querySelector('{css}').getBoundingClientRect(); return {{left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}};")).await
}

pub(crate) async fn help_players(c: Client, url: String) {
    c.goto(&url).await.expect("the page loads");
    wait_game(&c, "the first game", |g| g["legal"].is_array()).await;
    words(&c).await;
    long_error(&c).await;
    analyse_arrows(&c).await;
    graph(&c).await;
    howto(&c).await;
    explore(&c).await;
    hidden_setup(&c).await;
}

async fn words(c: &Client) {
    let said = js_async(
        c,
        "const w = await import('/words.js'); const p = ['sente', 'gote'];
         return [w.plies(1), w.plies(3), w.scoreText(9999, p, true), w.scoreText(-9997, p, false), w.scoreText(-150, p, true),
                 w.valueText({value: 'win', plies: 7}), w.valueText({value: 'loss', plies: 1}), w.valueText({value: 'draw', plies: null}),
                 w.hiddenText({side: 'w', placed: 1}, p), w.hiddenText(null, p)];",
    )
    .await;
    assert_eq!(
        said,
        json!([
            "1 ply",
            "3 plies",
            "mate in 1 ply for sente",
            "win in 3 plies for gote",
            "−1.50 (gote ahead)",
            "wins in 7 plies",
            "loses in 1 ply",
            "draw",
            "koma (gote) has placed 1 piece, hidden until both setups are done",
            ""
        ])
    );
}

/// A long unbroken error message: it wraps inside the board's column.
async fn long_error(c: &Client) {
    new_game(c, "shogi66").await;
    let (play, aside) = (rect(c, "#play").await, rect(c, "aside").await);
    // A server error as long as the server sends (a rejected paste names what it rejected).
    js(c, "window.koma.receive({type: 'error', message: 'position rejected: move 1: ' + 'x'.repeat(300)});").await;
    wait_js(c, "the error", "return document.getElementById('notice').className === 'error'").await;
    let notice = js(
        c,
        "const n = document.getElementById('notice'); return [n.scrollWidth, n.clientWidth, n.textContent.length];",
    )
    .await;
    assert!(notice[2].as_u64().unwrap() > 100, "a long error is shown: {notice}");
    assert!(notice[0].as_f64().unwrap() <= notice[1].as_f64().unwrap() + 1.0, "the error overflows its box: {notice}");
    let (play2, aside2) = (rect(c, "#play").await, rect(c, "aside").await);
    screenshot(c, "long-error").await;
    assert_eq!(play2["width"], play["width"], "the board's column widened");
    assert_eq!(aside2, aside, "the side panel moved");
    assert!(aside2["left"].as_f64() >= play2["right"].as_f64() && aside2["top"].as_f64() < play2["bottom"].as_f64());
}

/// Analyse: the move is drawn on the board, and the score says mate or win in one ply.
async fn analyse_arrows(c: &Client) {
    for (variant, position, best, said) in [
        ("shogi66", "position sfen 5k/6/5P/6/6/K5 b G 20", "G*1b", "mate in 1 ply for sente"),
        ("kanishogi", "position sfen 4b/3A1/3k1/1C2d/K3a b - 30", "4d2d", "win in 1 ply for black"),
    ] {
        new_game(c, variant).await;
        paste(c, position).await;
        click(c, "#analyse").await;
        wait_js(c, "the analysis", "return document.getElementById('info').textContent.includes(\"koma's move here\")")
            .await;
        let info = text_of(c, "info").await;
        assert!(info.contains(&format!("koma's move here: {best}")) && info.contains(said), "{variant}: {info:?}");
        let arrow = c.find_all(Locator::Css(&format!("#board .arrow[data-arrow=\"{best}\"]"))).await.unwrap();
        assert_eq!(arrow.len(), 1, "{variant}: the move {best} is drawn");
        // A drop is a ring on its square with the piece's letter; a board move an arrow.
        let (rings, lines) = (
            c.find_all(Locator::Css("#board .arrow circle")).await.unwrap().len(),
            c.find_all(Locator::Css("#board .arrow line")).await.unwrap().len(),
        );
        assert_eq!((rings, lines), if best.contains('*') { (1, 0) } else { (0, 1) }, "{variant}");
        screenshot(c, &format!("{variant}-analyse")).await;
    }
}

/// koma against koma for a dozen plies: every point of the graph inside it, the newest too.
async fn graph(c: &Client) {
    select(c, "variant", "kokesu").await;
    select(c, "seat-b", "koma").await;
    select(c, "seat-w", "koma").await;
    select(c, "limit", "level:0").await;
    let before = game(c).await["game"].clone();
    click(c, "#new").await;
    wait_game(c, "a dozen plies", |g| g["game"] != before && plies(g) >= 12).await;
    click(c, "#pause").await;
    wait_game(c, "the pause", |g| g["paused"] == true && g["thinking"] == false).await;
    let points = js(c, "return [...document.querySelectorAll('#graph circle')].map((e) => [Number(e.getAttribute('cx')), Number(e.getAttribute('r'))]);").await;
    let points = points.as_array().unwrap();
    assert!(points.len() >= 10, "{points:?}");
    for p in points {
        let (x, r) = (p[0].as_f64().unwrap(), p[1].as_f64().unwrap());
        assert!(x - r >= 0.0 && x + r <= 300.0, "a point cut off at the edge: {p}");
    }
    let last = points.last().unwrap()[0].as_f64().unwrap();
    assert!(last > 280.0, "the newest point is at the right end: {last}");
    // Browsed back, the graph marks the position shown.
    click(c, "#movelist .mv[data-ply=\"6\"]").await;
    let at =
        js(c, "const l = document.querySelector('#graph .shown-ply'); return l && Number(l.getAttribute('x1'));").await;
    // As the points are placed: ply i at 5 + i / max(plies, 10) * 290.
    let n = plies(&game(c).await).max(10) as f64;
    let six = 5.0 + 6.0 / n * 290.0;
    assert!((at.as_f64().expect("a line at the ply shown") - six).abs() < 0.5, "{at} against {six}");
    screenshot(c, "kokesu-browsed-graph").await;
    click(c, "#nav-last").await;
}

/// The "How to play" panel, for every game, over the game in progress.
async fn howto(c: &Client) {
    let help = js_async(c, "return await (await fetch('/howto.json')).json();").await;
    for g in help["games"].as_array().unwrap() {
        let variant = g["name"].as_str().unwrap();
        let id = new_game(c, variant).await["game"].clone();
        click(c, "#howto-open").await;
        wait_js(
            c,
            "the panel",
            "return !document.getElementById('howto').hidden && document.querySelectorAll('#howto-body h3').length > 0",
        )
        .await;
        let heads = js(c, "return [...document.querySelectorAll('#howto-body h3')].map((h) => h.textContent);").await;
        assert_eq!(heads[0], "How the game is won", "{variant}: {heads}");
        let win = text_of(c, "howto-body").await;
        assert!(win.contains("Winning"), "{variant}: no winning rule shown");
        // The switches in play, with their values (in words; the raw ones as tooltips).
        for r in c.execute("return window.koma.game().rules", vec![]).await.unwrap().as_object().into_iter().flatten() {
            let css = format!("#howto-body .howto-switches li[data-switch=\"{}\"]", r.0);
            let title = c.find(Locator::Css(&css)).await.expect("a switch shown").attr("title").await.unwrap();
            assert_eq!(title, Some(format!("{} = {}", r.0, r.1.as_str().unwrap())), "{variant}: switch {r:?}");
        }
        // The summary in a player's words: no engine notation.
        let summary = js(c, "return document.querySelector('.howto-win').textContent;").await;
        let summary = summary.as_str().unwrap();
        assert!(
            !summary.contains("SFEN") && !summary.contains("result") && !summary.contains('`'),
            "{variant}: {summary}"
        );
        assert!(!summary.trim_end().ends_with(':'), "{variant}: the summary stops short: {summary}");
        // A small board per piece, with the engine's targets drawn on it.
        let pieces = g["pieces"].as_array().unwrap();
        let figures = c.find_all(Locator::Css("#howto-body figure")).await.unwrap();
        assert_eq!(figures.len(), pieces.len(), "{variant}");
        for p in pieces {
            let css = format!("#howto-body figure[data-piece=\"{}\"] .target", p["piece"].as_str().unwrap());
            let drawn = c.find_all(Locator::Css(&css)).await.unwrap().len();
            assert_eq!(drawn, p["targets"].as_array().unwrap().len(), "{variant} {}", p["piece"]);
        }
        // The Markdown is rendered as text: no asterisks or backquotes left, no raw HTML.
        let full = js(c, "return document.querySelector('.howto-rules').textContent;").await;
        assert!(!full.as_str().unwrap().contains("**") && !full.as_str().unwrap().contains('`'), "{variant}");
        if variant == "kokesu" {
            screenshot(c, "howto").await;
        }
        click(c, "#howto-close").await;
        assert_eq!(js(c, "return document.getElementById('howto').hidden").await, json!(true));
        assert_eq!(game(c).await["game"], id, "{variant}: the panel left the game");
    }
}

/// Number Shogi's exact values: none during the placement; in play, every legal move.
async fn explore(c: &Client) {
    new_game(c, "numbershogi").await;
    let shown = js(c, "const b = document.getElementById('explore-go'); return [b.hidden, b.disabled];").await;
    assert_eq!(shown, json!([false, true]), "offered during the placement");
    paste(c, WIN_IN_ONE).await;
    click(c, "#explore-go").await;
    wait_js(c, "the exact values", "return document.querySelectorAll('#explore-moves li span').length > 0").await;
    let rows = js(c, "return [...document.querySelectorAll('#explore-moves li')].map((l) => [l.dataset.move, l.querySelector('span').textContent]);").await;
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), game(c).await["legal"].as_array().unwrap().len(), "every legal move is listed");
    assert_eq!(rows[0][1], "wins in 1 ply", "{rows:?}");
    assert!(rows.iter().any(|r| r[0] == "2d2c" && r[1] == "wins in 1 ply"), "{rows:?}");
    for r in rows {
        let v = r[1].as_str().unwrap();
        assert!(v.starts_with("wins in ") || v.starts_with("loses in ") || v == "draw", "{r}");
    }
    // A drop picked in the list is drawn as a ring on its square.
    let drop =
        rows.iter().find(|r| r[0].as_str().unwrap().contains('*')).expect("a drop")[0].as_str().unwrap().to_string();
    click(c, &format!("#explore-moves li[data-move=\"{drop}\"] button")).await;
    wait_js(c, "the drop drawn", "return document.querySelectorAll('#board .arrow circle').length === 1").await;
    screenshot(c, "explore").await;
    // A crab turn with its bond move: two arrows, the bond's marked.
    new_game(c, "kanishogi").await;
    paste(c, "position sfen 4b/3A1/3k1/1C2d/K3a b - 30").await;
    click(c, "#explore-go").await;
    wait_js(c, "the crab's values", "return document.querySelectorAll('#explore-moves li span').length > 0").await;
    let compound = js(c, "return [...document.querySelectorAll('#explore-moves li')].map((l) => l.dataset.move).find((m) => m.includes(','));").await;
    let compound = compound.as_str().expect("a move with a bond").to_string();
    click(c, &format!("#explore-moves li[data-move=\"{compound}\"] button")).await;
    wait_js(c, "both parts drawn", "return document.querySelectorAll('#board .arrow').length === 2 && document.querySelectorAll('#board .arrow.second').length === 1").await;
    screenshot(c, "kanishogi-explore").await;
}

/// Levels from `hello`, by name and Elo, when the server offers them; hidden otherwise.
/// Number Shogi against koma during the placement, as the server sends it when koma's
/// placements are hidden (`hidden`, `?` for its moves, no evaluation).
async fn hidden_setup(c: &Client) {
    new_game(c, "numbershogi").await;
    crate::serve_browser::play_and_see_koma_answer(c, &["D*", "2e"]).await;
    js(
        c,
        "const g = JSON.parse(JSON.stringify(window.koma.game()));
           g.moves = g.moves.map((m, i) => i % 2 ? '?' : m); g.evals = g.evals.map(() => null);
           g.hidden = {side: 'w', placed: 1}; g.positions = null; g.names = null; window.koma.receive(g);",
    )
    .await;
    let said = text_of(c, "hidden-setup").await;
    assert_eq!(said, "koma (gote) has placed 1 piece, hidden until both setups are done");
    let moves = js(c, "return [...document.querySelectorAll('#movelist .mv')].map((l) => l.textContent);").await;
    assert_eq!(moves, json!(["D*2e", "? (hidden)"]));
    let buttons = js(c, "return ['explore-go', 'copy-moves'].map((id) => document.getElementById(id).disabled);").await;
    assert_eq!(buttons, json!([true, true]), "nothing reveals or copies a hidden setup");
    screenshot(c, "numbershogi-hidden").await;
}

//! The board and the move list as a shogi or chess player expects them, in Debian's
//! headless Chromium (run from serve_browser.rs, which starts the browser): kanji pieces
//! and Latin letters a click away, Kokesu shown as chess, a game browsed move by move and
//! a branch played from a past position, the moves in each game's notation, the one
//! strength menu, the rules switches in words, the "How to play" panel beside the header. Screenshots go to
//! target/serve-screenshots/ (docs/serve/ keeps those the docs show).

use std::time::{Duration, Instant};

use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use serde_json::{json, Value};

use crate::serve_browser::{click, game, new_game, paste, plies, screenshot, select, square, wait_game, WAIT};

async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.unwrap_or_else(|e| panic!("{script}: {e}"))
}

/// Waits until the script `check` returns true.
async fn wait_js(c: &Client, what: &str, check: &str) {
    let deadline = Instant::now() + WAIT;
    while js(c, check).await != json!(true) {
        assert!(Instant::now() < deadline, "waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The texts of the elements `css` finds, in document order.
async fn texts(c: &Client, css: &str) -> Value {
    js(c, &format!("return [...document.querySelectorAll('{css}')].map((e) => e.textContent);")).await
}

async fn key(c: &Client, k: Key) {
    let body = c.find(Locator::Css("body")).await.expect("body");
    body.send_keys(&char::from(k).to_string()).await.expect("a key");
}

async fn shown_ply(c: &Client) -> u64 {
    js(c, "return window.koma.shown().ply").await.as_u64().expect("a ply")
}

pub(crate) async fn board_and_moves(c: Client, url: String) {
    c.goto(&url).await.expect("the page loads");
    wait_game(&c, "the first game", |g| g["legal"].is_array()).await;
    pieces_kanji(&c).await;
    kokesu_looks_like_chess(&c).await;
    browsing_a_game(&c).await;
    one_strength_menu(&c).await;
    rules_switches_in_words(&c).await;
    how_to_play_beside_the_header(&c).await;
}

/// 66 shogi and Number Shogi in kanji (one or two characters, promoted in red), Latin
/// letters one click away and remembered.
async fn pieces_kanji(c: &Client) {
    new_game(c, "shogi66").await;
    paste(c, "position sfen 5k/3+P2/5P/6/6/K5 b S 20").await;
    assert_eq!(js(c, "return document.getElementById('piece-style').value").await, "kanji1");
    let board = texts(c, "#board text.kanji").await;
    for k in ["王", "と", "歩", "玉"] {
        assert!(board.as_array().unwrap().contains(&json!(k)), "{k} on the board: {board}");
    }
    let fill = js(c, "return document.querySelector('[data-sq=\"3b\"] text.kanji').getAttribute('fill')").await;
    assert_eq!(fill, "#b3121f", "a promoted piece is red");
    assert_eq!(texts(c, "#hand-bottom text.kanji").await, json!(["銀"]));
    let ranks = texts(c, "#board .coord.rank").await;
    assert_eq!(ranks, json!(["一", "二", "三", "四", "五", "六"]));
    screenshot(c, "shogi66-kanji").await;
    select(c, "piece-style", "kanji2").await;
    let board = texts(c, "#board text.kanji").await;
    for k in ["王", "将", "玉", "と", "金", "歩", "兵"] {
        assert!(board.as_array().unwrap().contains(&json!(k)), "{k} on the board: {board}");
    }
    screenshot(c, "shogi66-kanji2").await;
    select(c, "piece-style", "letters").await;
    assert_eq!(texts(c, "#board text.kanji").await, json!([]));
    assert_eq!(js(c, "return localStorage.getItem('koma-pieces')").await, "letters");
    c.refresh().await.expect("reload");
    wait_game(c, "the game after a reload", |g| g["legal"].is_array()).await;
    assert_eq!(js(c, "return document.getElementById('piece-style').value").await, "letters");
    assert_eq!(texts(c, "#board .coord.rank").await, json!(["a", "b", "c", "d", "e", "f"]));
    select(c, "piece-style", "kanji1").await;
    new_game(c, "numbershogi").await;
    let hand = texts(c, "#hand-bottom text.kanji").await;
    assert_eq!(hand, json!(["一", "二", "三", "四", "五", "六"]));
    // Kokesu has no kanji: no setting to show.
    new_game(c, "kokesu").await;
    assert_eq!(js(c, "return document.getElementById('piece-style-label').hidden").await, json!(true));
}

/// White and Black, files a-h along the bottom and ranks 1-8 on the left, the queen first.
async fn kokesu_looks_like_chess(c: &Client) {
    new_game(c, "kokesu").await;
    assert_eq!(js(c, "return document.getElementById('seat-b-name').textContent").await, "White");
    assert_eq!(js(c, "return document.getElementById('seat-w-name').textContent").await, "Black");
    let files = js(
        c,
        "return [...document.querySelectorAll('#board .coord.file')]
           .sort((a, b) => a.getAttribute('x') - b.getAttribute('x')).map((e) => e.textContent).join('');",
    )
    .await;
    assert_eq!(files, "abcdefgh");
    let ranks = js(
        c,
        "return [...document.querySelectorAll('#board .coord.rank')]
           .sort((a, b) => a.getAttribute('y') - b.getAttribute('y')).map((e) => e.textContent).join('');",
    )
    .await;
    assert_eq!(ranks, "87654321");
    assert!(js(c, "return document.getElementById('status').textContent").await.as_str().unwrap().starts_with("White"));
    // The engine's squares are unchanged: chess's e2-e4 is 4g4e.
    crate::serve_browser::play_and_see_koma_answer(c, &["4g", "4e"]).await;
    assert_eq!(game(c).await["moves"][0], "4g4e");
    paste(c, "position sfen k7/6P1/K7/8/8/8/8/8 b - 40").await;
    square(c, "2b").await;
    square(c, "2a").await;
    c.wait().at_most(WAIT).for_element(Locator::Css("#choice-buttons [data-choice=\"q\"]")).await.expect("a choice");
    let order =
        js(c, "return [...document.querySelectorAll('#choice-buttons button')].map((b) => b.dataset.choice);").await;
    assert_eq!(order, json!(["q", "r", "b", "n"]), "the queen first");
    screenshot(c, "kokesu-promotion-queen-first").await;
    click(c, "#choice-cancel").await;
    square(c, "2b").await;
    square(c, "2a").await;
    click(c, "#choice-buttons [data-choice=\"q\"]").await;
    wait_game(c, "the end", |g| g["state"]["result"].is_object()).await;
    let banner = js(c, "return document.getElementById('banner').textContent").await;
    assert_eq!(banner, "Game over — White wins: checkmate");
}

/// A game browsed: move pairs for Kokesu, one numbered move a line for shogi; a move
/// clicked shows its position; the buttons and arrow keys step; nothing is deleted; a
/// branch from a past position keeps the main line, which comes back.
async fn browsing_a_game(c: &Client) {
    select(c, "variant", "kokesu").await;
    select(c, "seat-b", "human").await;
    select(c, "seat-w", "human").await;
    let before = game(c).await["game"].clone();
    click(c, "#new").await;
    wait_game(c, "a game of two people", |g| g["game"] != before && g["seats"]["w"] == "human").await;
    paste(c, "position startpos moves 4g4e 3b3d 7h6f 4b4d 6f5d").await;
    assert_eq!(shown_ply(c).await, 5, "a game opens at its end");
    let lines = texts(c, "#movelist li").await;
    assert_eq!(lines, json!(["1.e4f5", "2.Nc3e5", "3.Nd5"]), "move pairs in SAN");
    assert_eq!(js(c, "return document.getElementById('notation').value").await, "san");
    click(c, "#movelist .mv[data-ply=\"2\"]").await;
    assert_eq!(shown_ply(c).await, 2);
    let g = game(c).await;
    assert_eq!(js(c, "return window.koma.shown().sfen").await, g["positions"][2]);
    let pieces =
        js(c, "return ['7h', '6f', '4e'].map((s) => !!document.querySelector(`[data-sq=\"${s}\"] .piece`));").await;
    assert_eq!(pieces, json!([true, false, true]), "the knight home, the pawn on 4e");
    assert_eq!(js(c, "return document.querySelector('#movelist .current').dataset.move").await, "3b3d");
    assert_eq!(js(c, "return document.querySelector('#movelist .current').textContent").await, "f5");
    key(c, Key::Left).await;
    assert_eq!(shown_ply(c).await, 1);
    click(c, "#nav-first").await;
    assert_eq!(shown_ply(c).await, 0);
    key(c, Key::Right).await;
    key(c, Key::Right).await;
    key(c, Key::Right).await;
    assert_eq!(shown_ply(c).await, 3);
    // A click on the board of a past position plays nothing.
    square(c, "2g").await;
    square(c, "2f").await;
    assert_eq!(plies(&game(c).await), 5, "browsing deletes and plays nothing");
    screenshot(c, "kokesu-browsed").await;
    click(c, "#nav-last").await;
    assert_eq!(shown_ply(c).await, 5);
    click(c, "#nav-prev").await;
    click(c, "#nav-prev").await;
    assert_eq!(shown_ply(c).await, 3);
    // A branch: 3... 2b2d instead of 4b4d.
    let main = game(c).await["game"].clone();
    click(c, "#branch").await;
    wait_game(c, "the branch", |g| g["game"] != main && plies(g) == 3).await;
    assert_eq!(js(c, "return document.getElementById('mainline').hidden").await, json!(false));
    assert_eq!(texts(c, "#mainline .mv").await, json!(["e5", "Nd5"]), "the main line kept");
    square(c, "2b").await;
    square(c, "2d").await;
    wait_game(c, "the branch's move", |g| plies(g) == 4).await;
    assert_eq!(texts(c, "#mainline .mv").await, json!(["e5", "Nd5"]));
    screenshot(c, "kokesu-branch").await;
    let branch = game(c).await["game"].clone();
    click(c, "#mainline-back").await;
    let back = wait_game(c, "the main line", |g| g["game"] != branch && plies(g) == 5).await;
    assert_eq!(back["moves"][3], "4b4d");
    assert_eq!(shown_ply(c).await, 3, "back where the branch left it");
    assert_eq!(js(c, "return document.getElementById('mainline').hidden").await, json!(true));
    // 66 shogi: one numbered move a line.
    select(c, "variant", "shogi66").await;
    click(c, "#new").await;
    wait_game(c, "66 shogi", |g| g["variant"] == "shogi66").await;
    paste(c, "position startpos moves K*5f K*2a R*4f").await;
    assert_eq!(js(c, "return document.getElementById('notation').value").await, "kif");
    let kif = texts(c, "#movelist .mv").await;
    let kif: Vec<&str> = kif.as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert!(kif[0].starts_with('☗') && kif[1].starts_with('☖') && kif[2].starts_with('☗'), "{kif:?}");
    select(c, "notation", "usi").await;
    assert_eq!(texts(c, "#movelist li").await, json!(["1.K*5f", "2.K*2a", "3.R*4f"]));
    select(c, "notation", "western").await;
    let western = texts(c, "#movelist .mv").await;
    assert!(western.as_array().unwrap().iter().all(|m| m.as_str().unwrap().contains('*')), "{western}");
    // Remembered for the game.
    c.refresh().await.expect("reload");
    wait_game(c, "the game after a reload", |g| plies(g) == 3).await;
    assert_eq!(js(c, "return document.getElementById('notation').value").await, "western");
}

/// One menu: times at full strength and the weaker levels with their Elo, nothing twice.
async fn one_strength_menu(c: &Client) {
    assert_eq!(js(c, "return document.getElementById('level')").await, Value::Null, "no second menu");
    for variant in ["shogi66", "kokesu", "numbershogi", "kanishogi", "kaninariebi"] {
        select(c, "variant", variant).await;
        let options =
            js(c, "return [...document.querySelectorAll('#limit option')].map((o) => [o.value, o.textContent]);").await;
        let options = options.as_array().unwrap();
        let values: Vec<&str> = options.iter().map(|o| o[0].as_str().unwrap()).collect();
        let words: Vec<&str> = options.iter().map(|o| o[1].as_str().unwrap()).collect();
        let mut unique = words.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), words.len(), "{variant}: listed twice: {words:?}");
        assert_eq!(&values[..4], ["movetime:300", "movetime:1000", "movetime:3000", "movetime:10000"]);
        assert!(words[4..].iter().all(|w| w.contains("(Elo ")), "{variant}: {words:?}");
        assert!(words[4..].iter().all(|w| !w.to_lowercase().contains("full strength")), "{variant}: {words:?}");
        assert!(values.len() > 5, "{variant}: levels offered");
    }
    new_game(c, "kokesu").await;
    select(c, "limit", "level:2").await;
    let before = game(c).await["game"].clone();
    click(c, "#new").await;
    let g = wait_game(c, "a game at a level", |g| g["game"] != before).await;
    assert_eq!(g["limit"], json!({ "level": 2 }));
}

/// The switches in words, a help line each, the raw name as a tooltip; Number Shogi's
/// piece moves in a field per piece.
async fn rules_switches_in_words(c: &Client) {
    select(c, "variant", "kokesu").await;
    let promotion = js(
        c,
        "const l = document.querySelector('#rules [data-switch=\"KokesuPromotion\"]');
         return [l.title, l.firstChild.textContent.trim(), [...l.querySelectorAll('option')].map((o) => [o.value, o.textContent]), l.querySelector('.rule-help').textContent];",
    )
    .await;
    assert_eq!(promotion[0], "KokesuPromotion");
    assert_eq!(promotion[1], "Promotion");
    assert_eq!(
        promotion[2],
        json!([["captured", "only to a piece already captured"], ["free", "to any piece (as in chess)"]])
    );
    assert!(!promotion[3].as_str().unwrap().is_empty());
    for variant in ["shogi66", "kokesu", "numbershogi", "kanishogi", "kaninariebi"] {
        select(c, "variant", variant).await;
        let raw = js(
            c,
            "return [...document.querySelectorAll('#rules label')].filter((l) => l.firstChild.textContent.trim() === l.title || !l.querySelector('.rule-help').textContent).map((l) => l.title);",
        )
        .await;
        assert_eq!(raw, json!([]), "{variant}: switches without words");
    }
    select(c, "variant", "numbershogi").await;
    let fields = c.find_all(Locator::Css("#rules .table-editor input")).await.expect("the editor");
    assert_eq!(fields.len(), 6);
    fields[2].clear().await.expect("clear");
    fields[2].send_keys("NW,NE,S").await.expect("typed");
    let value = js(c, "return document.querySelector('#rules [data-rule=\"NumberShogiPieceMoves\"]').value").await;
    assert_eq!(value, "1:N 2:NW,NE 3:NW,NE,S 4:NW,NE,SW,SE 5:N,NW,NE,SW,SE 6:N,NW,NE,W,E,S");
    let before = game(c).await["game"].clone();
    click(c, "#new").await;
    let g = wait_game(c, "a game under the table", |g| g["game"] != before).await;
    assert_eq!(g["rules"]["NumberShogiPieceMoves"], value);
    screenshot(c, "numbershogi-switches").await;
    js(c, "localStorage.removeItem('koma-rules');").await;
    select(c, "variant", "shogi66").await;
}

/// The panel opens below the header: the game's menus stay in reach.
async fn how_to_play_beside_the_header(c: &Client) {
    click(c, "#howto-open").await;
    wait_js(c, "the panel", "return !document.getElementById('howto').hidden").await;
    let gap = js(
        c,
        "return document.getElementById('howto').getBoundingClientRect().top - document.querySelector('header').getBoundingClientRect().bottom;",
    )
    .await;
    assert!(gap.as_f64().unwrap() >= -0.5, "the panel covers the header: {gap}");
    click(c, "#new").await;
    click(c, "#howto-close").await;
}

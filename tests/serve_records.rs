//! `koma serve`'s game records (issue 47, protocol/serve.md): a finished game of koma
//! against koma saved in every format its game has (`record`) reads back with
//! `koma::records` as the same moves and result, and opens again through the server
//! (`load`); a fixture record opens as its game; a malformed record, an oversized one and
//! a record asked for in a format its game has not each get one clear error, and the
//! connection goes on.

use koma::records::{self, Format, Played};
use serde_json::{json, Value};

use crate::common::server::Server;
use crate::serve::{connect, new_game, send, until, until_error, Ws};

/// A game of koma against itself at depth 1, played to its end: the last `state`.
async fn finished_game(ws: &mut Ws, variant: &str) -> Value {
    send(ws, new_game(variant, "koma", "koma", json!({ "depth": 1 }))).await;
    loop {
        let m = until(ws, "state").await;
        if m["state"]["result"].is_object() {
            return m;
        }
    }
}

fn tokens(v: &Value) -> Vec<String> {
    v.as_array().expect("moves").iter().map(|m| m.as_str().expect("a token").to_string()).collect()
}

/// The next `report` message (an error fails the test).
async fn next_report(ws: &mut Ws) -> Value {
    loop {
        let m = crate::serve::next(ws).await;
        if m["type"] == "report" {
            return m;
        }
        assert_ne!(m["type"], "error", "{m}");
    }
}

async fn error_for(ws: &mut Ws, msg: Value) -> String {
    send(ws, msg).await;
    until_error(ws).await["message"].as_str().unwrap_or_default().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_saves_in_each_format_and_reads_back_the_same() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    for variant in koma::games::names() {
        let end = finished_game(&mut ws, variant).await;
        let moves = tokens(&end["moves"]);
        let result = &end["state"]["result"];
        let formats: Vec<Format> = Format::ALL.into_iter().filter(|f| f.supports(variant)).collect();
        assert!(!formats.is_empty(), "{variant}");
        for format in formats {
            send(&mut ws, json!({ "type": "record", "format": format })).await;
            let saved = until(&mut ws, "record").await;
            let text = saved["text"].as_str().expect("text");
            let filename = saved["filename"].as_str().expect("a file name");
            assert!(filename.ends_with(&format!(".{}", format.extension())), "{filename}");
            let read = records::read(format, text, None)
                .whole()
                .unwrap_or_else(|e| panic!("{variant} as {}: {e}\n{text}", format.name()));
            assert_eq!(read.variant, variant);
            assert_eq!(read.tokens(), moves, "{variant} as {}", format.name());
            let ending = read.result.expect("a result");
            let winner = ending.winner.map(|c| if c == koma::game::Color::Sente { "b" } else { "w" });
            assert_eq!(winner, result["winner"].as_str(), "{variant} as {}: {text}", format.name());
            assert_eq!(ending.rule.as_deref(), result["reason"].as_str(), "{variant} as {}", format.name());
            assert_eq!(saved["result"]["rule"], result["reason"]);
            // And opened again through the server, as the page opens a file.
            send(&mut ws, json!({ "type": "load", "text": text, "name": filename })).await;
            let opened = until(&mut ws, "load").await;
            assert_eq!(opened["variant"], variant);
            assert_eq!(opened["format"], json!(format));
            assert_eq!(tokens(&opened["moves"]), moves);
        }
        // Without a format: the game's natural one.
        send(&mut ws, json!({ "type": "record" })).await;
        let saved = until(&mut ws, "record").await;
        assert_eq!(saved["format"], json!(Format::natural(variant)), "{variant}");
    }
    drop(ws);
    assert_eq!(server.stop(), "");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fixture_record_opens_as_its_game() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/records/rokuroku_20261128_123456.txt");
    let text = records::read_file(&path).expect("the fixture");
    let expected = records::read(Format::Rokuroku, &text, None).whole().expect("the fixture reads");
    // A name with a path: only its last part is kept, and nothing is opened.
    send(&mut ws, json!({ "type": "load", "text": text, "name": "/etc/passwd/../game.txt" })).await;
    let opened = until(&mut ws, "load").await;
    assert_eq!(opened["name"], "game.txt");
    assert_eq!(opened["format"], "rokuroku");
    assert_eq!(opened["variant"], "shogi66");
    assert_eq!(opened["sfen"], Value::Null);
    assert_eq!(tokens(&opened["moves"]), expected.tokens());
    assert_eq!(opened["result"]["winner"], "b");
    assert_eq!(opened["result"]["rule"], "checkmate");
    // The page starts the game from it with `new`: the server's board ends where the record does.
    let msg = json!({ "type": "new", "variant": opened["variant"], "sfen": opened["sfen"], "moves": opened["moves"],
                      "seats": { "b": "human", "w": "human" } });
    send(&mut ws, msg).await;
    let state = until(&mut ws, "state").await;
    assert_eq!(tokens(&state["moves"]), expected.tokens());
    assert_eq!(state["state"]["result"]["reason"], "checkmate");
    drop(ws);
    assert_eq!(server.stop(), "");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_records_get_one_clear_error_and_the_connection_goes_on() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    let no_game = error_for(&mut ws, json!({ "type": "record", "format": "kif" })).await;
    assert!(no_game.starts_with("no game yet"), "{no_game}");
    // A move that cannot be played, on line 3.
    let bad = "# koma record\nvariant kokesu\nmove e2e5\n";
    let e = error_for(&mut ws, json!({ "type": "load", "text": bad, "name": "bad.koma" })).await;
    assert!(e.starts_with("bad.koma (koma record): line 3: move 1:"), "{e}");
    let e = error_for(&mut ws, json!({ "type": "load", "text": "# koma record\nmove 1a1b\n" })).await;
    assert!(e.starts_with("the record (koma record): no 'variant' line"), "{e}");
    // Larger than a message may be: refused as a record too large, not read.
    let big = format!("# koma record\nvariant kokesu\n{}", "comment a long remark\n".repeat(1000));
    let e = error_for(&mut ws, json!({ "type": "load", "text": big, "name": "big.koma" })).await;
    assert!(e.starts_with("record too large:") && e.contains("at most 16384"), "{e}");
    let e = error_for(&mut ws, json!({ "type": "record", "format": "docx" })).await;
    assert!(e.starts_with("bad message") && e.contains("kif"), "{e}");
    // A game its format cannot hold (a game under other rules saves: tests/records_rules.rs).
    send(&mut ws, new_game("kokesu", "human", "human", json!({ "depth": 1 }))).await;
    until(&mut ws, "state").await;
    let e = error_for(&mut ws, json!({ "type": "record", "format": "csa" })).await;
    assert_eq!(e, "a csa record cannot hold a game of kokesu: it saves as pgn, koma");
    // The connection still works: a record opens, the game saves.
    send(&mut ws, json!({ "type": "load", "text": "# koma record\nvariant kanishogi\nstart startpos\n" })).await;
    let opened = until(&mut ws, "load").await;
    assert_eq!(opened["variant"], "kanishogi");
    send(&mut ws, new_game("kokesu", "human", "human", json!({ "depth": 1 }))).await;
    let first = until(&mut ws, "state").await["legal"][0].clone();
    send(&mut ws, json!({ "type": "move", "move": first })).await;
    until(&mut ws, "state").await;
    send(&mut ws, json!({ "type": "record" })).await;
    let saved = until(&mut ws, "record").await;
    let pgn = records::read(Format::Pgn, saved["text"].as_str().unwrap(), None).whole().expect("the PGN reads");
    assert_eq!(json!(pgn.tokens()), json!([first]), "{saved}");
    assert_eq!(saved["result"], Value::Null);
    drop(ws);
    assert_eq!(server.stop(), "");
}

/// In Chromium (tests/serve_browser.rs runs it): a record opened through the file picker
/// shows its last position; "Save record" gives the record's text and downloads it; a
/// record dropped on the board opens too.
pub(crate) async fn in_the_page(c: fantoccini::Client, url: String) {
    use crate::serve_browser::{click, screenshot, select, text_of, wait_game};
    use fantoccini::Locator;
    c.goto(&url).await.expect("the page loads");
    wait_game(&c, "the first game", |g| g["legal"].is_array()).await;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/records/rokuroku_20261128_123456.txt");
    let text = records::read_file(&path).expect("the fixture");
    let expected = records::read(Format::Rokuroku, &text, None).whole().expect("the fixture reads").tokens();
    // The picker: the file chooser's input is given the path, as a person picks it.
    let input = c.find(Locator::Id("record-file")).await.expect("the file input");
    input.send_keys(&path.display().to_string()).await.expect("a file picked");
    let g = wait_game(&c, "the record's game", |g| g["variant"] == "shogi66" && tokens(&g["moves"]) == expected).await;
    assert_eq!(g["state"]["result"]["reason"], "checkmate", "{g}");
    assert_eq!(g["seats"], json!({ "b": "human", "w": "human" }));
    let banner = text_of(&c, "banner").await;
    assert!(banner.starts_with("Game over") && banner.contains("checkmate"), "{banner}");
    let notice: String = c.execute("return window.koma.notice()", vec![]).await.unwrap().as_str().unwrap().into();
    assert!(notice.starts_with("Opened rokuroku_20261128_123456.txt (RokuRokuGUI): 85 moves"), "{notice}");
    screenshot(&c, "records-opened").await;
    // Issue 56, browsing a game: the record's game report is asked at once, its marks
    // shown beside the moves and in the graph (the analysis board).
    let deadline = std::time::Instant::now() + 2 * crate::serve_browser::WAIT;
    let marked = "return [document.querySelectorAll('#movelist .mark').length, document.querySelectorAll('#graph .graph-mark').length]";
    let (in_list, in_graph) = loop {
        let n = c.execute(marked, vec![]).await.expect("script runs");
        let (a, b) = (n[0].as_u64().unwrap_or(0), n[1].as_u64().unwrap_or(0));
        if a > 0 {
            break (a, b);
        }
        assert!(std::time::Instant::now() < deadline, "no marks: {}", text_of(&c, "report-note").await);
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    };
    assert_eq!(in_list, in_graph, "each mark in the list has its dot in the graph");
    let note = text_of(&c, "report-note").await;
    assert!(note.starts_with("Game report — sente:") && note.contains("gote:"), "{note}");
    click(&c, "#movelist .mark").await;
    screenshot(&c, "records-report").await;
    // Saved as KIF: the text downloaded is the game.
    select(&c, "record-format", "kif").await;
    click(&c, "#record-save").await;
    let deadline = std::time::Instant::now() + crate::serve_browser::WAIT;
    let saved = loop {
        let s = c.execute("return window.komaRecords.saved()", vec![]).await.expect("script runs");
        if !s.is_null() {
            break s;
        }
        assert!(std::time::Instant::now() < deadline, "no record saved");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert!(saved["filename"].as_str().unwrap().ends_with(".kif"), "{saved}");
    let kif = records::read(Format::Kif, saved["text"].as_str().unwrap(), None).whole().expect("the KIF reads");
    assert_eq!(kif.tokens(), expected);
    // A Kokesu game in PGN dropped on the board.
    let mut pos = records::position("kokesu", None).unwrap();
    let mut game = records::Record::new("kokesu");
    for _ in 0..6 {
        let mv = pos.legal_moves()[0].clone();
        pos.play(&mv).unwrap();
        game.moves.push(records::RecordMove { usi: mv, comment: None });
    }
    let pgn = records::write(Format::Pgn, &game).unwrap();
    let drop = "const dt = new DataTransfer(); dt.items.add(new File([arguments[0]], 'dropped.pgn'));
                document.getElementById('board').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));";
    c.execute(drop, vec![json!(pgn)]).await.expect("a file dropped");
    wait_game(&c, "the dropped game", |g| g["variant"] == "kokesu" && tokens(&g["moves"]) == game.tokens()).await;
    screenshot(&c, "records-dropped").await;
    // A record under other rules opens under them: the page's rules switch shows them.
    let mut free = records::Record::new("kokesu");
    free.rules.set("kokesu", "KokesuPromotion", "free").unwrap();
    free.start = Some("k7/2P5/2N5/8/8/8/8/1RBQKBNR b - 1".into());
    free.moves.push(records::RecordMove { usi: "6b6aq".into(), comment: None });
    let pgn = records::write(Format::Pgn, &free).unwrap();
    c.execute(drop, vec![json!(pgn)]).await.expect("a file dropped");
    let g = wait_game(&c, "the game under other rules", |g| tokens(&g["moves"]) == ["6b6aq"]).await;
    assert_eq!(g["rules"]["KokesuPromotion"], "free", "{g}");
    assert_eq!(g["state"]["result"]["reason"], "checkmate", "{g}");
    let shown = c.find(Locator::Css("[data-rule=KokesuPromotion]")).await.expect("the switch").prop("value").await;
    assert_eq!(shown.expect("its value").as_deref(), Some("free"));
    let notice: String = c.execute("return window.koma.notice()", vec![]).await.unwrap().as_str().unwrap().into();
    assert!(notice.contains("under KokesuPromotion = free"), "{notice}");
}

/// Issue 56, browsing a game: the analysis board's report of a record's game, as the page
/// asks it after opening the record. Each move gets its entry, in order; book and forced
/// moves are never marked; the marks are the report's own (`koma analyse --game`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browsing_a_game_a_loaded_records_report_marks_its_moves_but_never_a_book_or_forced_one() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/records/rokuroku_20261128_123456.txt");
    let text = records::read_file(&path).expect("the fixture");
    let moves = records::read(Format::Rokuroku, &text, None).whole().expect("the fixture reads").tokens();
    send(&mut ws, json!({ "type": "report", "variant": "shogi66", "moves": moves })).await;
    // A page's messages are taken in order: once a request refused at once is answered,
    // the report above has started (another page's request could otherwise come first).
    let refused = error_for(&mut ws, json!({ "type": "report", "variant": "nope", "moves": [] })).await;
    assert!(refused.contains("no game 'nope'"), "{refused}");
    // One report at a time in the server: another page's request waits for the first.
    let mut other = connect(&server).await;
    let busy = error_for(&mut other, json!({ "type": "report", "variant": "shogi66", "moves": moves })).await;
    assert!(busy.contains("game report is running"), "{busy}");
    // The page that asked waits only for its last request: a new one gives the running
    // report up, and only the new one is answered.
    let opening = &moves[..14];
    send(&mut ws, json!({ "type": "report", "variant": "shogi66", "moves": opening })).await;
    let first = next_report(&mut ws).await;
    assert_eq!(tokens(&first["moves"]), opening, "the report given up is never answered");
    assert_eq!(first["report"].as_array().map(Vec::len), Some(14));
    send(&mut ws, json!({ "type": "report", "variant": "shogi66", "moves": moves })).await;
    let report = next_report(&mut ws).await;
    assert_eq!(tokens(&report["moves"]), moves);
    let entries = report["report"].as_array().expect("a report");
    assert_eq!(entries.len(), moves.len());
    for (i, e) in entries.iter().enumerate() {
        assert_eq!((e["ply"].as_u64(), e["move"].as_str()), (Some(i as u64 + 1), Some(moves[i].as_str())));
        if e["book"] == true || e["forced"] == true {
            assert!(e["mark"].is_null(), "a book or forced move marked: {e}");
        }
    }
    assert!(entries.iter().any(|e| e["book"] == true), "the placement opens from koma's book");
    assert!(entries.iter().any(|e| e["mark"].is_string()), "the shipped game has marked moves");
    assert_eq!(report["summary"]["result"], "sente wins: checkmate");
    let illegal = error_for(&mut ws, json!({ "type": "report", "variant": "shogi66", "moves": ["9z9z"] })).await;
    assert!(illegal.starts_with("game report:"), "{illegal}");
    drop((ws, other));
    assert_eq!(server.stop(), "");
}

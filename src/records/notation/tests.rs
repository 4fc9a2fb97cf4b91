//! The names of chosen moves: 同 after a recapture, pieces told apart, promotions,
//! drops, check marks, and the errors of bad text.

use super::*;
use crate::records::position;

fn at(variant: &str, sfen: &str) -> Box<dyn Live> {
    position(variant, Some(sfen)).unwrap()
}

/// The move's name in `style` and the move read back from the name.
fn named(pos: &dyn Live, usi: &str, style: Style) -> String {
    let previous = pos.moves().last().cloned();
    let text = name(pos, usi, style, previous.as_deref());
    assert_eq!(parse(pos, &text, style).as_deref(), Ok(usi), "{text}");
    text
}

#[test]
fn a_recapture_is_dou_in_kif_and_an_x_in_western() {
    let start = at("shogi66", "k5/2g3/2p3/2P3/6/5K b - 30");
    let line = ["4d4c", "4b4c"];
    assert_eq!(names_of_line(start.as_ref(), &line, Style::Kif), ["☗４三歩", "☖同　金"]);
    assert_eq!(names_of_line(start.as_ref(), &line, Style::Western), ["Px4c", "Gx4c"]);
    let mut pos = start.clone();
    pos.push("4d4c").unwrap();
    for text in ["同　金", "同金", "☖同 金", "△同　金(42)", "☖４三金", "4三金"] {
        assert_eq!(parse(pos.as_ref(), text, Style::Kif).as_deref(), Ok("4b4c"), "{text}");
    }
    for text in ["Gx4c", "G-4c", "G4c", "G4b4c", "G4bx4c"] {
        assert_eq!(parse(pos.as_ref(), text, Style::Western).as_deref(), Ok("4b4c"), "{text}");
    }
}

#[test]
fn two_golds_reaching_one_square_are_told_apart() {
    // Sente's golds on 5e and 3e both step to 4d: 左 and 右 from sente's side.
    let pos = at("shogi66", "k5/6/6/6/1G1G2/5K b - 30");
    assert_eq!(named(pos.as_ref(), "5e4d", Style::Kif), "☗４四金左");
    assert_eq!(named(pos.as_ref(), "3e4d", Style::Kif), "☗４四金右");
    assert_eq!(named(pos.as_ref(), "5e4d", Style::Western), "G5e-4d");
    assert_eq!(named(pos.as_ref(), "5e5d", Style::Western), "G-5d");
    let err = parse(pos.as_ref(), "G-4d", Style::Western).unwrap_err();
    assert_eq!(err, NotationError::Ambiguous { text: "G-4d".into(), moves: vec!["5e4d".into(), "3e4d".into()] });
    assert!(matches!(parse(pos.as_ref(), "４四金", Style::Kif), Err(NotationError::Ambiguous { .. })));
    assert_eq!(parse(pos.as_ref(), "４四金(35)", Style::Kif).as_deref(), Ok("3e4d"));
    // Gote's golds on 5b and 3b step to 4c: gote's right is the higher file.
    let pos = at("shogi66", "k5/1g1g2/6/6/6/5K w - 31");
    assert_eq!(named(pos.as_ref(), "5b4c", Style::Kif), "☖４三金右");
    assert_eq!(named(pos.as_ref(), "3b4c", Style::Kif), "☖４三金左");
    // One gold goes forward, one sideways: 上 and 寄; one straight forward among three: 直.
    let pos = at("shogi66", "k5/6/6/1G4/2G3/5K b - 30");
    assert_eq!(named(pos.as_ref(), "4e4d", Style::Kif), "☗４四金上");
    assert_eq!(named(pos.as_ref(), "5d4d", Style::Kif), "☗４四金寄");
    let pos = at("shogi66", "k5/6/6/6/1+P+P+P2/5K b - 30");
    assert_eq!(named(pos.as_ref(), "4e4d", Style::Kif), "☗４四と直");
    assert_eq!(named(pos.as_ref(), "5e4d", Style::Kif), "☗４四と左");
    assert_eq!(named(pos.as_ref(), "3e4d", Style::Kif), "☗４四と右");
    assert_eq!(named(pos.as_ref(), "3e4d", Style::Western), "+P3e-4d");
}

#[test]
fn promotions_are_named_taken_or_declined() {
    let pos = at("shogi66", "k5/6/2S3/6/6/5K b - 30");
    assert_eq!(named(pos.as_ref(), "4c4b+", Style::Kif), "☗４二銀成");
    assert_eq!(named(pos.as_ref(), "4c4b", Style::Kif), "☗４二銀不成");
    assert_eq!(named(pos.as_ref(), "4c4b+", Style::Western), "S-4b+");
    assert_eq!(named(pos.as_ref(), "4c4b", Style::Western), "S-4b=");
    assert_eq!(parse(pos.as_ref(), "４二銀生", Style::Kif).as_deref(), Ok("4c4b"));
    assert_eq!(parse(pos.as_ref(), "S4b", Style::Western).as_deref(), Ok("4c4b"));
    // A knight entering the last two ranks must promote: the bare name reads as that.
    let pos = at("shogi66", "k5/6/6/2N3/6/5K b - 30");
    assert_eq!(named(pos.as_ref(), "4d5b+", Style::Western), "N-5b+");
    assert_eq!(parse(pos.as_ref(), "N-5b", Style::Western).as_deref(), Ok("4d5b+"));
    assert_eq!(parse(pos.as_ref(), "N-5b=", Style::Western), Err(NotationError::NoMove { text: "N-5b=".into() }));
}

#[test]
fn drops_are_named_with_da_and_a_star() {
    let pos = at("shogi66", "k5/6/6/6/2P3/5K b P 30");
    assert_eq!(named(pos.as_ref(), "P*3d", Style::Kif), "☗３四歩打");
    assert_eq!(named(pos.as_ref(), "P*3d", Style::Western), "P*3d");
    assert_eq!(parse(pos.as_ref(), "３四歩", Style::Kif).as_deref(), Ok("P*3d"));
    assert_eq!(parse(pos.as_ref(), "P3d", Style::Western).as_deref(), Ok("P*3d"));
    // Number Shogi's pieces by their numbers, in placement.
    let pos = position("numbershogi", None).unwrap();
    assert_eq!(named(pos.as_ref(), "D*2e", Style::Kif), "☗２五四打");
    assert_eq!(named(pos.as_ref(), "D*2e", Style::Western), "4*2e");
    assert_eq!(parse(pos.as_ref(), "D*2e", Style::Western).as_deref(), Ok("D*2e"));
}

#[test]
fn san_marks_check_and_mate_and_reads_them_either_way() {
    let pos = at("kokesu", "k7/4P3/8/8/8/8/8/4K3 b - 1");
    assert_eq!(named(pos.as_ref(), "4b4aq", Style::San), "e8=Q+");
    let pos = at("kokesu", "k7/4P3/1K6/8/8/8/8/8 b - 1");
    assert_eq!(named(pos.as_ref(), "4b4aq", Style::San), "e8=Q#");
    for text in ["e8Q", "e8=q", "e8=Q", "e8=Q+", "Pe8=Q#", "e8/Q"] {
        assert_eq!(parse(pos.as_ref(), text, Style::San).as_deref(), Ok("4b4aq"), "{text}");
    }
    let pos = at("kokesu", "k7/8/8/8/8/8/8/1N3N1K b - 1");
    assert_eq!(named(pos.as_ref(), "7h5g", Style::San), "Nbd2");
    assert_eq!(parse(pos.as_ref(), "Nb1d2", Style::San).as_deref(), Ok("7h5g"));
    assert_eq!(parse(pos.as_ref(), "Nc3", Style::San).as_deref(), Ok("7h6f"));
    assert_eq!(parse(pos.as_ref(), "Nbc3", Style::San).as_deref(), Ok("7h6f"));
    let err = parse(pos.as_ref(), "Nd2", Style::San).unwrap_err();
    assert_eq!(err.to_string(), "'Nd2' fits more than one legal move: 7h5g, 3h5g");
}

#[test]
fn bad_text_is_an_error_that_names_it() {
    let pos = position("shogi66", None).unwrap();
    let kif = |t| parse(pos.as_ref(), t, Style::Kif).unwrap_err().to_string();
    assert_eq!(kif("同　歩"), "'同　歩' is not a legal move here (not kif: '同' with no move before it)");
    assert_eq!(kif("☗９九歩"), "'☗９九歩' is not a legal move here");
    assert!(kif("☗２六").contains("no piece name"));
    assert!(kif("１六玉打あ").contains("more text after the move"));
    let western = |t| parse(pos.as_ref(), t, Style::Western).unwrap_err().to_string();
    assert_eq!(western("P-2e"), "'P-2e' is not a legal move here");
    assert!(western("K*1f++").contains("only + or ="));
    assert!(western("").contains("no piece letter"));
    let pos = position("kokesu", None).unwrap();
    assert!(parse(pos.as_ref(), "Kf9", Style::San)
        .unwrap_err()
        .to_string()
        .starts_with("'Kf9' is not a legal move here"));
    assert_eq!(parse(pos.as_ref(), "e5", Style::San), Err(NotationError::NoMove { text: "e5".into() }));
    assert_eq!(parse(pos.as_ref(), "4g4e", Style::Usi).as_deref(), Ok("4g4e"));
    assert_eq!(
        parse(pos.as_ref(), "e4", Style::Kif).unwrap_err().to_string(),
        "kokesu has no kif notation (its styles: usi, san)"
    );
    assert_eq!(name(pos.as_ref(), "9z9z", Style::San, None), "9z9z");
}

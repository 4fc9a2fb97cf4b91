//! Properties every registered game must have, checked through the same `Board` face
//! the engine uses (`koma::engine::Board`): `d` reads back through `position sfen` with the same legal moves
//! (also inside placement phases), and no input makes a game panic.

use koma::engine::{new_board, Board};
use koma::games;

/// Seeded generators, so failures reproduce.
use fastrand::Rng;

fn sfen_of(s: &Board) -> String {
    s.state().expect("a position").sfen
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn display_reads_back_with_the_same_legal_moves_along_random_games() {
    for variant in games::names() {
        let mut rng = Rng::with_seed(0x9E37_79B9_7F4A_7C15);
        let mut checked = 0;
        for _game in 0..40 {
            let mut s = new_board(variant).unwrap();
            let mut moves: Vec<String> = Vec::new();
            for _ply in 0..120 {
                s.set_position(None, &moves).unwrap_or_else(|e| panic!("{variant}: {e} after {moves:?}"));
                let sfen = sfen_of(&s);
                let legal = s.legal_moves().unwrap();
                let mut again = new_board(variant).unwrap();
                again
                    .set_position(Some(&sfen), &[])
                    .unwrap_or_else(|e| panic!("{variant}: '{sfen}' does not read back: {e}"));
                assert_eq!(sfen_of(&again), sfen, "{variant}: sfen changes on reading back");
                assert_eq!(
                    sorted(again.legal_moves().unwrap()),
                    sorted(legal.clone()),
                    "{variant}: moves differ at {sfen}"
                );
                let mut distinct = legal.clone();
                distinct.sort();
                distinct.dedup();
                assert_eq!(distinct.len(), legal.len(), "{variant}: a token twice at {sfen}");
                checked += 1;
                if legal.is_empty() {
                    break;
                }
                moves.push(legal[rng.usize(..legal.len())].clone());
            }
        }
        assert!(checked > 200, "{variant}: only {checked} positions");
    }
}

#[test]
fn mutated_sfens_and_tokens_never_panic() {
    let alphabet: Vec<char> = "0123456789/+-*abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ ,.".chars().collect();
    for variant in games::names() {
        let mut rng = Rng::with_seed(12345);
        let mut s = new_board(variant).unwrap();
        let start = sfen_of(&s);
        let moves = s.legal_moves().unwrap();
        for _ in 0..2000 {
            let mut chars: Vec<char> = start.chars().collect();
            for _ in 0..1 + rng.usize(..4) {
                let i = rng.usize(..chars.len() + 1);
                match rng.usize(..3) {
                    0 if i < chars.len() => {
                        chars.remove(i);
                    }
                    1 if i < chars.len() => chars[i] = alphabet[rng.usize(..alphabet.len())],
                    _ => chars.insert(i.min(chars.len()), alphabet[rng.usize(..alphabet.len())]),
                }
            }
            let text: String = chars.into_iter().collect();
            match s.set_position(Some(&text), &[]) {
                // Whatever is accepted must print and read back the same.
                Ok(()) => {
                    let printed = sfen_of(&s);
                    let mut again = new_board(variant).unwrap();
                    again.set_position(Some(&printed), &[]).unwrap_or_else(|e| {
                        panic!("{variant}: accepted '{text}' but its print '{printed}' fails: {e}")
                    });
                    assert_eq!(
                        sorted(again.legal_moves().unwrap()),
                        sorted(s.legal_moves().unwrap()),
                        "{variant}: {text}"
                    );
                }
                Err(e) => assert!(!e.to_string().is_empty()),
            }
            // A mutated move token from the start position.
            if let Some(m) = moves.get(rng.usize(..moves.len().max(1))) {
                let mut t: Vec<char> = m.chars().collect();
                let i = rng.usize(..t.len());
                t[i] = alphabet[rng.usize(..alphabet.len())];
                let token: String = t.into_iter().collect();
                let _ = s.set_position(None, &[token]);
            }
        }
    }
}

/// Issue 11, class 8: the placement phase is a property of the position that survives
/// `d` -> `position sfen` at every ply of every game, also from a start SFEN whose ply
/// field is not the true ply (`... 12 moves K*1f` printed a placement SFEN that was then
/// refused). An SFEN that is accepted plays on and reads back at each ply.
#[test]
fn placement_phase_survives_display_and_position_sfen_at_every_ply() {
    for variant in games::names() {
        let mut rng = Rng::with_seed(11);
        let start = sfen_of(&new_board(variant).unwrap());
        let fields: Vec<&str> = start.split(' ').collect();
        let mut accepted = 0;
        for ply in 1..=16 {
            let root = format!("{} {} {} {ply}", fields[0], fields[1], fields[2]);
            for _game in 0..4 {
                let mut s = new_board(variant).unwrap();
                if s.set_position(Some(&root), &[]).is_err() {
                    continue;
                }
                accepted += 1;
                let mut moves: Vec<String> = Vec::new();
                for _ in 0..30 {
                    s.set_position(Some(&root), &moves).unwrap_or_else(|e| panic!("{variant}: {e}"));
                    let sfen = sfen_of(&s);
                    let legal = s.legal_moves().unwrap();
                    let mut again = new_board(variant).unwrap();
                    again.set_position(Some(&sfen), &[]).unwrap_or_else(|e| {
                        panic!(
                            "{variant}: 'position sfen {root} moves {}' prints '{sfen}', refused: {e}",
                            moves.join(" ")
                        )
                    });
                    assert_eq!(sfen_of(&again), sfen, "{variant}");
                    assert_eq!(
                        sorted(again.legal_moves().unwrap()),
                        sorted(legal.clone()),
                        "{variant}: moves differ at {sfen}"
                    );
                    if legal.is_empty() {
                        break;
                    }
                    moves.push(legal[rng.usize(..legal.len())].clone());
                }
            }
        }
        assert!(accepted > 0, "{variant}: its own start SFEN with a ply field is refused");
    }
}

/// The square a move token's first step starts from (`5d` of `5d3a+`); `None` for a drop.
fn token_from(token: &str) -> Option<&str> {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0 && token.as_bytes().get(digits).is_some_and(u8::is_ascii_lowercase)).then(|| &token[..digits + 1])
}

#[test]
fn every_capture_is_made_by_an_attacker_and_checks_have_checkers() {
    use koma::game::RuleSet;
    for variant in games::names() {
        let set: RuleSet = (games::descriptor(variant).unwrap().rule_set)();
        let mut rng = Rng::with_seed(0x51_7CC1_B727_220A);
        let mut captures = 0;
        for _game in 0..6 {
            let mut game = games::start(&set, None).unwrap();
            for _ply in 0..80 {
                let queries = games::queries(&*game).expect("a registry game");
                let side = game.side_to_move();
                assert_eq!(game.in_check(), !queries.checkers().is_empty(), "{variant}: {}", game.sfen());
                let pieces = queries.board_pieces();
                for token in game.legal_moves() {
                    let mut after = game.boxed_clone();
                    after.push_unjudged(&token).unwrap();
                    let now = games::queries(&*after).unwrap().board_pieces();
                    // Every enemy piece this move took: its square is attacked from the
                    // move's first square (the crab games: by the piece that took it).
                    for (square, piece) in &pieces {
                        let enemy = piece.trim_start_matches('+').starts_with(char::is_lowercase)
                            == (side == koma::game::Color::Sente);
                        if enemy && !now.iter().any(|(s, p)| s == square && p == piece) {
                            captures += 1;
                            let attackers = queries.attackers(side, square);
                            if let Some(from) = token_from(&token).filter(|_| !token.contains(',')) {
                                assert!(
                                    attackers.iter().any(|a| a == from),
                                    "{variant}: {token} takes on {square} but {from} is not among {attackers:?} at {}",
                                    game.sfen()
                                );
                            } else {
                                assert!(!attackers.is_empty(), "{variant}: {token} takes on {square}: no attacker");
                            }
                        }
                    }
                }
                if game.verdict().is_some() {
                    break;
                }
                let legal = game.legal_moves();
                game.push(&legal[rng.usize(..legal.len())]).unwrap();
            }
        }
        assert!(captures > 0, "{variant}: no capture seen");
    }
}

/// A live game lists a position's legal moves once and then plays a listed token from
/// that list (the Python binding's speed, issue 57): a game that lists first and one that
/// never lists must agree on every push, every error and every verdict, whatever the
/// spelling the client used.
#[test]
fn listing_the_legal_moves_first_changes_no_push_error_or_verdict() {
    use koma::game::RuleSet;
    for variant in games::names() {
        let set: RuleSet = (games::descriptor(variant).unwrap().rule_set)();
        let mut rng = Rng::with_seed(0x57_11_57);
        for _game in 0..8 {
            let mut listed = games::start(&set, None).unwrap();
            let mut plain = games::start(&set, None).unwrap();
            for _ply in 0..150 {
                let legal = listed.legal_moves();
                assert_eq!(listed.verdict(), plain.verdict(), "{variant}: {}", plain.sfen());
                // Not legal here: a token of another position, garbage, a take-back.
                for bad in ["9z9z", "", "1a1a", "P*1a", "1a2b,2b3c"] {
                    if !legal.iter().any(|t| t == bad) {
                        let a = listed.push(bad).map_err(|e| e.to_string());
                        let b = plain.push(bad).map_err(|e| e.to_string());
                        assert_eq!(a, b, "{variant}: '{bad}' at {}", plain.sfen());
                    }
                }
                if legal.is_empty() || plain.verdict().is_some() {
                    let token = legal.first().cloned().unwrap_or_default();
                    let a = listed.push(&token).map_err(|e| e.to_string());
                    assert_eq!(a, plain.push(&token).map_err(|e| e.to_string()), "{variant}: over");
                    break;
                }
                let token = &legal[rng.usize(..legal.len())];
                listed.push(token).unwrap();
                plain.push(token).unwrap();
                assert_eq!(listed.sfen(), plain.sfen(), "{variant}");
                assert_eq!(listed.moves(), plain.moves(), "{variant}");
                if rng.usize(..8) == 0 {
                    assert_eq!(listed.pop(), plain.pop(), "{variant}");
                }
            }
        }
    }
}

//! Kani Shogi (`kanishogi`, かに将棋, GameNOWA 2014; rules.md §4): a sandwich game of
//! crabs on a 5x5 board with a river.
//!
//! - Each side has a parent `K` and four children `A`..`D` carrying pips 1..4, starting
//!   on its home column (black file 5, red file 1): `A3b/D3c/K3k/C3d/B3a b - 1`.
//! - Every crab slides sideways (along its rank) over empty squares, crossing the river
//!   if it likes. A grown child `+A`..`+D` also steps one square diagonally (switch
//!   `KaniShogiGrownMove=diagonal`: only that).
//! - The river is file 3. A child stopping there (normal or bond move) is carried up or
//!   down to the farthest free river square; entering on the top or bottom rank it can
//!   only flow inward, and it must flow a way it actually moves if there is one. The
//!   parent may stay or drift any number of free river squares. Pieces in the river
//!   leave it sideways; moves always change file, so no "already carried" state exists.
//! - A child ending on the enemy home column may grow (`+`).
//! - The moved piece captures enemy runs sandwiched against a friendly piece and, on the
//!   same board, enemy groups touching the edge whose every neighbour is its side's
//!   (wall capture); all are removed together.
//! - If the moved piece then touches a friendly piece, one piece of its connected group
//!   may make a diagonal bond step, with river, growth and captures: `<normal>,<bond>`.
//! - End, after each capture step: a parent captured; three children captured; two each,
//!   decided by pip sum, then by the larger pip (the same pips play on). No normal move
//!   at the start of a turn loses.

pub mod eval;
pub(crate) mod rules;
pub(crate) mod sfen;

use crate::game::{Appearance, Color, Switch, Water};
use crate::games::crab::cell::Cells;
use crate::games::crab::game::{Crab, CrabGame, CRAB_BOARD};
pub use rules::{GrownMove, Rules};

/// A Kani Shogi position.
pub type KaniShogi = Crab<Rules>;

impl KaniShogi {
    /// The pips of the enemy children `color` has captured, in increasing order.
    pub fn captured_pips(&self, color: Color) -> Vec<u8> {
        captured_pips(self.cells(), color)
    }
}

fn captured_pips(cells: &Cells, color: Color) -> Vec<u8> {
    let lost = rules::pips_lost(cells, color.flip());
    (1..=4).filter(|p| lost & (1 << p) != 0).collect()
}

impl CrabGame for Rules {
    const NAME: &'static str = "kanishogi";
    const APPEARANCE: Appearance =
        Appearance { title: "Kani Shogi", water: Some(Water { file: 3, name: "river" }), ..CRAB_BOARD };
    const SALT: u64 = 0x4b53_4800_0000_0002;
    const SWITCHES: &'static [Switch<Rules>] = &[
        GrownMove::switch(rules::GROWN_OPTION, |r, v| {
            r.grown = GrownMove::from_word(v);
            Ok(())
        }),
        #[cfg(test)]
        throwaway::SWITCH,
    ];
    const BENCH_POSITIONS: &'static [&'static str] = &["2C2/3c1/1D1kb/2AKd/3Ba w - 14", "A4/1D2c/2b2/KC1ak/2d2 w - 20"];
    const BENCH_DEPTH: u32 = 8;

    /// Black on file 5, ranks a..e: A D K C B; red on file 1: b c k d a.
    const HOME: [[u8; 5]; 2] = [[2, 5, 1, 4, 3], [3, 4, 1, 5, 2]];

    fn status(cells: &Cells) -> String {
        format!(
            "captured pips: black {:?} red {:?}",
            captured_pips(cells, Color::Sente),
            captured_pips(cells, Color::Gote),
        )
    }
}

/// A new switch is one declaration: this one, added to the list above in test builds
/// only, is offered, set and applied with nothing else written for it.
#[cfg(test)]
mod throwaway {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::engine::{Command, Engine, Event};
    use crate::game::{Scope, SwitchKind};

    /// A check that makes a grown child step diagonally only (as `KaniShogiGrownMove
    /// diagonal` does).
    pub(super) const SWITCH: Switch<Rules> =
        Switch::new("KaniShogiThrowaway", SwitchKind::Check, "false", Scope::Rules, |r, v| {
            r.grown = if v == "true" { GrownMove::Diagonal } else { GrownMove::SidewaysDiagonal };
            Ok(())
        });

    /// The USI lines the engine answers `commands` with.
    fn usi(commands: Vec<Command>) -> Vec<String> {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let out = Arc::clone(&lines);
        let mut engine =
            Engine::new(Arc::new(move |e: Event| out.lock().unwrap().extend(crate::protocol::usi::format(&e))));
        for c in commands {
            engine.handle(c);
        }
        drop(engine);
        Arc::try_unwrap(lines).unwrap().into_inner().unwrap()
    }

    fn set(name: &str, value: &str) -> Command {
        Command::SetOption { name: name.into(), value: Some(value.into()) }
    }

    #[test]
    fn a_switch_declared_once_is_offered_set_and_applied() {
        let offered = usi(vec![Command::Hello]);
        assert!(
            offered.contains(&"option name KaniShogiThrowaway type check default false".to_string()),
            "{offered:?}"
        );
        // A grown child on 4e: sideways and diagonal steps, then only the diagonal ones.
        let sfen = "1Ak2/c2Cd/5/1K3/1+B3 b - 29";
        let moves = |switch: Option<(&str, &str)>| {
            let mut commands = vec![set("USI_Variant", "kanishogi")];
            commands.extend(switch.map(|(n, v)| set(n, v)));
            commands.extend([Command::Position { sfen: Some(sfen.into()), moves: vec![] }, Command::Moves]);
            let lines = usi(commands);
            let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
            assert!(errors.is_empty(), "{errors:?}");
            let all = lines.into_iter().find(|l| l.contains("4e")).unwrap_or_default();
            // The first parts of the turns of the grown child, without their bond moves.
            let mut first: Vec<String> = all
                .split_whitespace()
                .filter(|t| t.starts_with("4e") && !t.contains(','))
                .map(str::to_string)
                .collect();
            first.sort();
            first
        };
        let (plain, diagonal) = (moves(None), moves(Some(("KaniShogiGrownMove", "diagonal"))));
        assert_eq!(plain, ["4e1e", "4e2e", "4e3b", "4e3e", "4e5d", "4e5e"]);
        assert_eq!(diagonal, ["4e3b", "4e3e", "4e5d"]);
        assert_eq!(moves(Some(("KaniShogiThrowaway", "true"))), diagonal);
        assert_eq!(moves(Some(("kanishogithrowaway", "FALSE"))), plain);
        let refused = usi(vec![set("KaniShogiThrowaway", "maybe")]);
        assert_eq!(
            refused,
            ["info string error: option KaniShogiThrowaway: bad value 'maybe': expected true or false"]
        );
    }
}

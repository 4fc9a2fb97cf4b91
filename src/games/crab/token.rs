//! The two-part turn: a normal move and an optional bond move, as one small value and
//! one token `<from><final>[+][,<from><final>[+]]` (rules.md §4, §5).

use super::square;

/// A whole turn. Bits 0-4 from, 5-9 final square, 10 promotion, 11 has a bond move,
/// 12-16 bond from, 17-21 bond final, 22 bond promotion: these 23 bits are the token.
/// Bits 23-30 carry what the turn captures, in a form the game chooses ([`CrabMove::gain`]),
/// filled in by move generation for move ordering. Within one position a token always
/// has the same gain, so one token is still one value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CrabMove(pub u32);

/// One part of a turn: a piece from a square to its final square (after the flow).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub from: usize,
    pub to: usize,
    pub promote: bool,
}

/// The bits of [`CrabMove`] that make up the token.
pub(crate) const TOKEN_BITS: u32 = (1 << 23) - 1;

impl CrabMove {
    /// A turn with only the normal move.
    pub const fn normal(from: usize, to: usize, promote: bool) -> CrabMove {
        CrabMove(from as u32 | (to as u32) << 5 | (promote as u32) << 10)
    }

    /// This turn's normal move followed by a bond move (the gain is cleared).
    pub const fn with_bond(self, from: usize, to: usize, promote: bool) -> CrabMove {
        CrabMove((self.0 & 0x7ff) | 1 << 11 | (from as u32) << 12 | (to as u32) << 17 | (promote as u32) << 22)
    }

    /// The same turn carrying `gain` (what it captures, game-specific, 8 bits).
    pub const fn with_gain(self, gain: u8) -> CrabMove {
        CrabMove((self.0 & TOKEN_BITS) | (gain as u32) << 23)
    }

    /// What the turn captures, as the game recorded it at generation (0: nothing).
    pub const fn gain(self) -> u8 {
        (self.0 >> 23) as u8
    }

    /// The token part alone (no gain): equal for equal tokens.
    pub const fn token_bits(self) -> u32 {
        self.0 & TOKEN_BITS
    }

    pub const fn first(self) -> Part {
        Part { from: (self.0 & 31) as usize, to: ((self.0 >> 5) & 31) as usize, promote: self.0 & (1 << 10) != 0 }
    }

    pub const fn has_bond(self) -> bool {
        self.0 & (1 << 11) != 0
    }

    pub const fn bond(self) -> Option<Part> {
        if self.has_bond() {
            Some(Part {
                from: ((self.0 >> 12) & 31) as usize,
                to: ((self.0 >> 17) & 31) as usize,
                promote: self.0 & (1 << 22) != 0,
            })
        } else {
            None
        }
    }

    /// Whether either part promotes.
    pub const fn promotes(self) -> bool {
        self.0 & (1 << 10 | 1 << 22) != 0
    }

    /// The token.
    pub fn token(self) -> String {
        let mut s = String::with_capacity(11);
        self.write_token(&mut s);
        s
    }

    /// Writes the token at the end of `s`.
    pub fn write_token(self, s: &mut String) {
        push_part(s, self.first());
        if let Some(b) = self.bond() {
            s.push(',');
            push_part(s, b);
        }
    }

    /// Reads a token's syntax (not its legality).
    pub fn parse(token: &str) -> Option<CrabMove> {
        let mut parts = token.split(',');
        let first = parse_part(parts.next()?)?;
        let second = match parts.next() {
            Some(p) => Some(parse_part(p)?),
            None => None,
        };
        if parts.next().is_some() {
            return None;
        }
        let mv = CrabMove::normal(first.from, first.to, first.promote);
        Some(match second {
            Some(b) => mv.with_bond(b.from, b.to, b.promote),
            None => mv,
        })
    }
}

fn push_part(s: &mut String, p: Part) {
    square::push_name(s, p.from);
    square::push_name(s, p.to);
    if p.promote {
        s.push('+');
    }
}

fn parse_part(p: &str) -> Option<Part> {
    let b = p.as_bytes();
    let promote = match b.len() {
        4 => false,
        5 if b[4] == b'+' => true,
        _ => return None,
    };
    let from = square::parse(&b[0..2])?;
    let to = square::parse(&b[2..4])?;
    if from == to {
        return None;
    }
    Some(Part { from, to, promote })
}

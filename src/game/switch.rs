//! A game's switches (`setoption`), each declared once: its name, kind, default, what it
//! acts on ([`Scope`]) and the function that reads a value into the game's settings
//! ([`Game::Rules`](super::Game::Rules), which every position carries). The option lines
//! of every dialect, the engine, `koma serve` and the Python module all read the list a
//! game gives in [`Game::switches`](super::Game::switches).

use super::RuleError;

/// What a switch acts on, which decides what a change does to the game in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// The rules: another game; the position goes back to the start.
    Rules,
    /// How positions are scored: the position is kept.
    Evaluation,
    /// How the engine plays (its book, a solved table): the position is kept.
    Engine,
}

/// How a switch is offered in the option lists, with its range or choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwitchKind {
    /// `type check`: `true` or `false`.
    Check,
    /// `type spin`: a whole number in the range.
    Spin { min: u64, max: u64 },
    /// `type combo default D var A var B ...`: one of the words (any case).
    Combo(&'static [&'static str]),
    /// `type string`: any text, checked by the game.
    Text,
    /// A path to a file the engine reads (`type string`). Never offered to a web page:
    /// `koma serve` refuses it.
    File,
}

/// A switch as the option lists and the layers above the games see it (no game type):
/// the declaration of every option, the engine's own too (`crate::engine::options`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwitchInfo {
    pub name: &'static str,
    /// Its name in the chess protocols (UCI, CECP), where that differs (`Hash`, `Ponder`).
    pub chess_name: &'static str,
    /// Other names it answers to (`NetworkDelay` is `MoveOverhead`).
    pub names: &'static [&'static str],
    pub kind: SwitchKind,
    pub default: &'static str,
    pub scope: Scope,
    /// Other words a combo takes, each with the word it stands for (`linear` is
    /// `classic`: a name from before the games used one word).
    pub aliases: &'static [(&'static str, &'static str)],
}

/// Reads a value (checked against the kind: a combo's word as declared, `true`/`false`,
/// a number in range) into the settings `R`, or says why not.
pub(crate) type Setter<R> = fn(&mut R, &str) -> Result<(), String>;

/// One switch of a game whose settings are `R`.
#[derive(Clone, Copy, Debug)]
pub struct Switch<R> {
    pub info: SwitchInfo,
    pub set: Setter<R>,
}

impl<R: Clone> Switch<R> {
    /// A switch without aliases.
    pub const fn new(
        name: &'static str,
        kind: SwitchKind,
        default: &'static str,
        scope: Scope,
        set: Setter<R>,
    ) -> Switch<R> {
        Switch { info: SwitchInfo::new(name, kind, default, scope), set }
    }

    /// The same switch, taking `aliases` for some of its combo's words.
    pub const fn with_aliases(mut self, aliases: &'static [(&'static str, &'static str)]) -> Switch<R> {
        self.info.aliases = aliases;
        self
    }

    /// Sets the switch to `value` in `settings`; on error `settings` is as it was.
    pub fn apply(&self, settings: &mut R, value: &str) -> Result<(), RuleError> {
        let name = self.info.name;
        let err = |why: String| RuleError { name: name.to_string(), why };
        let value = self.info.checked(value).map_err(|why| err(format!("bad value '{}': {why}", value.trim())))?;
        let mut next = settings.clone();
        (self.set)(&mut next, &value).map_err(err)?;
        *settings = next;
        Ok(())
    }
}

impl SwitchInfo {
    /// An option under one name, without aliases.
    pub const fn new(name: &'static str, kind: SwitchKind, default: &'static str, scope: Scope) -> SwitchInfo {
        SwitchInfo { name, chess_name: name, names: &[], kind, default, scope, aliases: &[] }
    }

    /// The option under another name in the chess protocols.
    pub const fn in_chess(mut self, chess_name: &'static str) -> SwitchInfo {
        self.chess_name = chess_name;
        self
    }

    /// The option answering to other names too.
    pub const fn also(mut self, names: &'static [&'static str]) -> SwitchInfo {
        self.names = names;
        self
    }

    /// Whether `name` (any case) names it, in either protocol family or by another name.
    pub fn is_named(&self, name: &str) -> bool {
        let is = |n: &str| name.eq_ignore_ascii_case(n);
        is(self.name) || is(self.chess_name) || self.names.iter().any(|n| is(n))
    }

    /// `value` checked against the kind ([`check`]).
    pub fn checked(&self, value: &str) -> Result<String, String> {
        check(self.kind, self.aliases, value)
    }

    /// Whether a page may set it (`koma serve`): never a switch that names a file.
    pub fn reaches_a_file(&self) -> bool {
        matches!(self.kind, SwitchKind::File)
    }
}

/// The one range checker, of the games' switches and the engine's options alike: `value`
/// checked against `kind`, given back as the kind declares it (a combo's word, or one
/// of its `aliases`' words, matched in any case with surrounding spaces ignored; `true`
/// or `false`; a number in range), text as given; or what was expected.
pub(crate) fn check(kind: SwitchKind, aliases: &[(&str, &'static str)], value: &str) -> Result<String, String> {
    let v = value.trim();
    match kind {
        SwitchKind::Check => match v.to_ascii_lowercase().as_str() {
            b @ ("true" | "false") => Ok(b.to_string()),
            _ => Err("expected true or false".to_string()),
        },
        SwitchKind::Spin { min, max } => match v.parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n.to_string()),
            _ => Err(format!("expected a whole number from {min} to {max}")),
        },
        SwitchKind::Combo(words) => {
            let declared = words.iter().find(|w| w.eq_ignore_ascii_case(v)).copied();
            let alias = || aliases.iter().find(|(a, _)| a.eq_ignore_ascii_case(v)).map(|&(_, w)| w);
            declared.or_else(alias).map(str::to_string).ok_or_else(|| format!("expected one of {}", words.join(", ")))
        }
        SwitchKind::Text | SwitchKind::File => Ok(value.to_string()),
    }
}

/// The number of decimal digits of `n`.
pub(crate) const fn decimal_len(mut n: u64) -> usize {
    let mut len = 1;
    while n >= 10 {
        n /= 10;
        len += 1;
    }
    len
}

/// The decimal digits of `n`, `LEN` of them ([`decimal_len`]).
pub(crate) const fn decimal_digits<const LEN: usize>(mut n: u64) -> [u8; LEN] {
    let mut digits = [b'0'; LEN];
    let mut i = LEN;
    while i > 0 {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    digits
}

/// A whole number constant written in decimal, as a `&'static str` made at compile time:
/// an option's default where the number is a constant of its own.
#[macro_export]
macro_rules! decimal {
    ($n:expr) => {{
        const N: u64 = $n as u64;
        const DIGITS: [u8; $crate::game::switch::decimal_len(N)] = $crate::game::switch::decimal_digits(N);
        const TEXT: &str = match ::core::str::from_utf8(&DIGITS) {
            Ok(s) => s,
            Err(_) => panic!("digits are text"),
        };
        TEXT
    }};
}

/// The switch named `name` (without regard to case) among `switches`.
pub(crate) fn find<'a, R>(switches: &'a [Switch<R>], name: &str) -> Option<&'a Switch<R>> {
    switches.iter().find(|s| s.info.name.eq_ignore_ascii_case(name))
}

/// Declares the values of a rules switch offered as a combo: an enum whose variants stand
/// beside their words (the first the default), with `WORDS` (the combo's words, the
/// default first), `from_word` and `switch` (the combo switch itself, given its name and
/// how a value goes into the settings), so the words are written once.
#[macro_export]
macro_rules! combo_values {
    ($(#[$meta:meta])* $vis:vis enum $name:ident {
        $(#[$first_meta:meta])* $first:ident = $first_word:literal,
        $($(#[$other_meta:meta])* $other:ident = $word:literal),+ $(,)?
    }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        $vis enum $name {
            $(#[$first_meta])*
            #[default]
            $first,
            $($(#[$other_meta])* $other,)+
        }

        impl $name {
            /// The switch's words, the default first.
            pub const WORDS: &'static [&'static str] = &[$first_word, $($word),+];

            /// The value a word (one of [`Self::WORDS`], as the switch has checked) stands for.
            pub fn from_word(word: &str) -> $name {
                $(if word == $word {
                    return $name::$other;
                })+
                $name::$first
            }

            /// The rules switch `name` offering these values, `set` putting one into the settings.
            pub const fn switch<R: Clone>(
                name: &'static str,
                set: $crate::game::switch::Setter<R>,
            ) -> $crate::game::switch::Switch<R> {
                $crate::game::switch::Switch::new(
                    name,
                    $crate::game::switch::SwitchKind::Combo(Self::WORDS),
                    $first_word,
                    $crate::game::switch::Scope::Rules,
                    set,
                )
            }
        }
    };
}

//! The weights' schema and files: named integer weights, parsed from and written to text,
//! and the [`Trace`] through which an evaluation reports each weight's coefficient.

/// Which taper a weight goes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Taper {
    /// Scaled by phase / total (full with all pieces on the board).
    Mg,
    /// Scaled by (total - phase) / total.
    Eg,
    /// Not tapered (e.g. the side-to-move bonus).
    Flat,
}

/// One named group of weights.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    pub name: &'static str,
    pub len: usize,
    pub taper: Taper,
}

impl Param {
    pub const fn mg(name: &'static str, len: usize) -> Param {
        Param { name, len, taper: Taper::Mg }
    }
    pub const fn eg(name: &'static str, len: usize) -> Param {
        Param { name, len, taper: Taper::Eg }
    }
    pub const fn flat(name: &'static str, len: usize) -> Param {
        Param { name, len, taper: Taper::Flat }
    }
}

/// The number of weights of a schema.
pub const fn total_len(params: &[Param]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < params.len() {
        n += params[i].len;
        i += 1;
    }
    n
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The index of the first weight of the parameter `name` (a compile error if absent).
pub const fn offset(params: &[Param], name: &str) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < params.len() {
        if same(params[i].name, name) {
            return n;
        }
        n += params[i].len;
        i += 1;
    }
    panic!("no such parameter")
}

/// The taper of every weight, by index.
pub fn tapers(params: &[Param]) -> Vec<Taper> {
    params.iter().flat_map(|p| std::iter::repeat_n(p.taper, p.len)).collect()
}

/// The name of weight `i`, e.g. `passed_eg[5]`.
pub fn weight_name(params: &[Param], mut i: usize) -> String {
    for p in params {
        if i < p.len {
            return if p.len == 1 { p.name.to_string() } else { format!("{}[{i}]", p.name) };
        }
        i -= p.len;
    }
    format!("#{i}")
}

/// Reads a weights file against its schema.
pub fn parse_weights(text: &str, params: &[Param]) -> Result<Vec<i32>, String> {
    let mut out = vec![0i32; total_len(params)];
    let mut seen = vec![false; params.len()];
    let mut current: Option<(usize, usize, usize)> = None; // (param, offset, values read)
    let close = |cur: Option<(usize, usize, usize)>| -> Result<(), String> {
        if let Some((p, _, n)) = cur {
            if n != params[p].len {
                return Err(format!("{}: {} values, expected {}", params[p].name, n, params[p].len));
            }
        }
        Ok(())
    };
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("");
        for tok in line.split_whitespace() {
            if let Ok(v) = tok.parse::<i32>() {
                let Some((p, off, n)) = current.as_mut() else {
                    return Err(format!("value {tok} before any name"));
                };
                if *n >= params[*p].len {
                    return Err(format!("{}: more than {} values", params[*p].name, params[*p].len));
                }
                out[*off + *n] = v;
                *n += 1;
            } else {
                close(current)?;
                let Some(p) = params.iter().position(|p| p.name == tok) else {
                    return Err(format!("unknown parameter {tok}"));
                };
                if seen[p] {
                    return Err(format!("{tok} given twice"));
                }
                seen[p] = true;
                let off: usize = params[..p].iter().map(|q| q.len).sum();
                current = Some((p, off, 0));
            }
        }
    }
    close(current)?;
    if let Some(p) = seen.iter().position(|s| !s) {
        return Err(format!("{} missing", params[p].name));
    }
    Ok(out)
}

/// A game's weights schema, each name written once: `name: taper(len),` per parameter
/// (`taper` one of `mg`, `eg`, `flat`; doc comments allowed before each) gives `PARAMS`
/// (the schema in the order of `weights.txt`) and a module `at` whose constant `at::name`
/// is the index of that parameter's first weight.
#[macro_export]
macro_rules! weights_schema {
    ($($(#[$doc:meta])* $name:ident: $taper:ident($len:expr),)*) => {
        /// The weights' schema: every number of the evaluation a tuning run may change, in
        /// the order of `weights.txt`.
        pub const PARAMS: &[$crate::tune::Param] = &[$($crate::tune::Param::$taper(stringify!($name), $len),)*];

        /// The index of each parameter's first weight, by the parameter's name.
        #[allow(non_upper_case_globals, dead_code)]
        pub mod at {
            $($(#[$doc])* pub const $name: usize = $crate::tune::offset(super::PARAMS, stringify!($name));)*
        }
    };
}

/// A game's weights, declared in its `eval.rs` after its `PARAMS` schema:
/// `weights_files!("kokesu", include_str!("weights.txt"), include_str!("weights_initial.txt"));`
/// gives `N_WEIGHTS`, `Weights`, `WEIGHTS_TEXT` (the weights in use: the output of the
/// last tuning run), `INITIAL_WEIGHTS_TEXT` (the hand-set weights the tuning starts
/// from), `parse` (a weights file of this schema) and `weights()` (the weights in use,
/// parsed on first use). The files are named at the call so that `include_str!` reads
/// them beside the game's `eval.rs`.
#[macro_export]
macro_rules! weights_files {
    ($game:literal, $weights:expr, $initial:expr $(,)?) => {
        /// The number of weights.
        pub const N_WEIGHTS: usize = $crate::tune::total_len(PARAMS);
        pub type Weights = [i32; N_WEIGHTS];

        /// The weights in use: the output of the last tuning run (docs/TUNING.md).
        pub const WEIGHTS_TEXT: &str = $weights;
        /// The hand-set weights the tuning starts from.
        pub const INITIAL_WEIGHTS_TEXT: &str = $initial;

        /// Parses a weights file of this schema.
        pub fn parse(text: &str) -> Result<Box<Weights>, String> {
            let v = $crate::tune::parse_weights(text, PARAMS)?;
            v.into_boxed_slice().try_into().map_err(|_| "the schema's length changed".to_string())
        }

        static WEIGHTS: std::sync::OnceLock<Box<Weights>> = std::sync::OnceLock::new();

        /// The weights in use, parsed on first use (`weights_files_parse` tests the file).
        #[inline]
        pub fn weights() -> &'static Weights {
            WEIGHTS.get_or_init(|| parse(WEIGHTS_TEXT).unwrap_or_else(|e| panic!("{} weights.txt: {e}", $game)))
        }
    };
}

/// Writes a weights file (rows of 8 values; `header` lines become comments).
pub fn format_weights(w: &[i32], params: &[Param], header: &str) -> String {
    let mut s = String::new();
    for line in header.lines() {
        s.push_str(&format!("# {line}\n").replace("# \n", "#\n"));
    }
    let mut off = 0;
    for p in params {
        let vals = &w[off..off + p.len];
        off += p.len;
        if p.len <= 8 {
            let v: Vec<String> = vals.iter().map(|x| x.to_string()).collect();
            s.push_str(&format!("{} {}\n", p.name, v.join(" ")));
        } else {
            s.push_str(&format!("{}\n", p.name));
            for row in vals.chunks(8) {
                let v: Vec<String> = row.iter().map(|x| format!("{x:5}")).collect();
                s.push_str(&format!("  {}\n", v.join("")));
            }
        }
    }
    s
}

/// Where an evaluation reports the coefficient of each weight it used.
pub trait Trace {
    /// Weight `i` was multiplied by `v` (sente's view, before the taper).
    fn add(&mut self, i: usize, v: f32);
    /// The endgame score was multiplied by `factor` before the taper (a factor of the
    /// position, not a weight: kokesu's pawnless endings). Not called: 1.
    fn scale_eg(&mut self, _factor: f32) {}
}

/// The search's trace: nothing (compiled away).
pub struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: usize, _: f32) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHEMA: &[Param] = &[Param::mg("a_mg", 2), Param::eg("a_eg", 2), Param::flat("tempo", 1)];

    #[test]
    fn weights_round_trip_and_errors() {
        let w = vec![1, -2, 30, 400, 5];
        let text = format_weights(&w, SCHEMA, "a test\n");
        assert_eq!(parse_weights(&text, SCHEMA).unwrap(), w);
        assert_eq!(offset(SCHEMA, "a_eg"), 2);
        assert_eq!(weight_name(SCHEMA, 3), "a_eg[1]");
        assert!(parse_weights("a_mg 1 2 a_eg 3 4", SCHEMA).unwrap_err().contains("tempo missing"));
        assert!(parse_weights("a_mg 1 a_eg 3 4 tempo 1", SCHEMA).unwrap_err().contains("1 values"));
        assert!(parse_weights("a_mg 1 2 3 a_eg 3 4 tempo 1", SCHEMA).is_err());
        assert!(parse_weights("b 1", SCHEMA).unwrap_err().contains("unknown"));
    }
}

//! Training a game's network (docs/NNUE.md): `koma nnue-data` plays koma against itself
//! and writes scored positions ([`data`], in the format of [`records`]); `koma nnue-train`
//! fits a net to them and writes the net file ([`trainer`], in the format of
//! `crate::games::nnue::format`), which the game's net-file option loads (`KokesuNetFile`,
//! `Shogi66NetFile`). Both are generic over the game (`Trainable`); the registry says
//! which games have a network (`crate::games::trainable`) and gives their types
//! (`crate::games::visit_net`).

pub(crate) mod data;
pub mod records;
pub(crate) mod trainer;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::builder::TypedValueParser as _;

use crate::games::nnue::trainable::Trainable;
use crate::games::{self, NetVisitor};
use crate::input::file::{read, same_file};
use crate::input::number::float_in;
use crate::input::path as shown;

/// The games with a network, by name in alphabetical order: `--variant`'s values.
pub fn trainable_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = games::trainable().iter().map(|g| g.name).collect();
    names.sort_unstable();
    names
}

/// splitmix64: the runs' only source of chance, so a seed gives the same run.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        crate::game::zobrist::next(&mut self.0)
    }

    /// A number below `n` (> 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Options of `koma nnue-data`.
#[derive(clap::Args, Debug, Clone)]
#[command(about = "Training positions from koma's own games, scored by a deeper search (docs/NNUE.md)")]
pub struct DataArgs {
    /// The game (one with a network).
    #[arg(long, default_value = "kokesu", value_parser = clap::builder::PossibleValuesParser::new(trainable_names()))]
    pub variant: String,
    /// Games to play (1 to 1000000).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub games: u64,
    /// The seed of the random openings (the run is deterministic from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Nodes a move in the games (at least 1).
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    pub play_nodes: u64,
    /// Nodes of the search that scores each position written (at least 1).
    #[arg(long, default_value_t = 8000, value_parser = clap::value_parser!(u64).range(1..))]
    pub score_nodes: u64,
    /// Random plies at the start of each game (plus 0 to 4 more; 0 to 100).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(0..=100))]
    pub random_plies: u64,
    /// The data file to write: written to a temporary file beside it, which takes its
    /// name only when the run is done (an interrupted run leaves the old file as it was).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// Options of `koma nnue-train`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    about = "Train a game's network on data files of koma nnue-data (the files name the game) and write the net file (docs/NNUE.md)"
)]
pub struct TrainArgs {
    /// Epochs (the weights of the one with the least held-out loss are kept; 1 to 10000).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub epochs: u64,
    /// Positions a batch (one Adam step; 1 to 1048576).
    #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub batch: u64,
    /// Adam's learning rate at the start (above 0, at most 1).
    #[arg(long, default_value_t = 0.001, value_parser = float_in(0.0, 1.0, true))]
    pub lr: f32,
    /// The learning rate is multiplied by this after each epoch (above 0, at most 1).
    #[arg(long, default_value_t = 0.9, value_parser = float_in(0.0, 1.0, true))]
    pub lr_decay: f32,
    /// The weight of the game result in the target; the search score has the rest (0 to 1).
    #[arg(long, default_value_t = 0.25, value_parser = float_in(0.0, 1.0, false))]
    pub lambda: f32,
    /// The share of the positions held out to measure the loss on (the last ones; above
    /// 0, at most 0.5).
    #[arg(long, default_value_t = 0.1, value_parser = float_in(0.0, 0.5, true))]
    pub holdout: f32,
    /// The seed of the starting weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads sharing each batch (the result depends on the seed and this).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub threads: u64,
    /// AdamW's decoupled weight decay of the accumulator weights and biases: each step
    /// shrinks them by `lr * weight_decay` of themselves (0 to 100).
    #[arg(long, default_value_t = 2.0, value_parser = float_in(0.0, 100.0, false))]
    pub weight_decay: f32,
    /// Do not also train on each position's mirror image (files reversed: the same value,
    /// as neither game with a net has castling).
    #[arg(long)]
    pub no_mirror: bool,
    /// Leave the piece-square path out (all zero, not trained): the net of format
    /// version 1's shape, for comparison.
    #[arg(long)]
    pub no_psqt: bool,
    /// The K of the net's own `sigmoid(cp / K)`, when the data's scores are not in koma's
    /// centipawns (Fairy-Stockfish's, tools/fsf_relabel.py): the net then learns koma's
    /// scale while the targets use the K fitted to the data. Default: the fitted K
    /// (above 0, at most 100000).
    #[arg(long, value_parser = float_in(0.0, 100_000.0, true))]
    pub eval_k: Option<f32>,
    /// The accumulator width of the net to train (default: the game's, `WIDTH` in
    /// src/games/<game>/nnue.rs). A net of another width than the game's is written, but
    /// the engine refuses it ("the accumulator width is N in the header; this koma needs
    /// M") until the game's `WIDTH` is changed to N.
    #[arg(long, value_name = "N", value_parser = clap::builder::PossibleValuesParser::new(["128", "256", "512"]).map(|w| w.parse::<usize>().unwrap_or(0)))]
    pub width: Option<usize>,
    /// The net file to write (src/games/kokesu/nnue.bin is Kokesu's built-in one), not one
    /// of the data files; written only when training improved on the starting weights.
    #[arg(long, value_name = "NET")]
    pub out: PathBuf,
    /// Data files of `koma nnue-data`, in order (the last positions are held out).
    #[arg(required = true, value_name = "DATA")]
    pub data: Vec<PathBuf>,
}

/// The most bytes a data file may have: about 60 million positions.
pub const MAX_DATA_BYTES: u64 = 4 << 30;

/// Writes `out` through `write`: to a temporary file beside it that takes its name only
/// when `write` succeeded, so a failed or interrupted run leaves the old file whole.
fn write_whole<E: std::fmt::Display>(
    out: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<&std::fs::File>) -> Result<(), E>,
) -> Result<(), String> {
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let cannot = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", shown(out));
    let mut builder = tempfile::Builder::new();
    builder.prefix(".koma-").suffix(".part");
    // Readable as a file made by `File::create` is (the umask still applies), not 0600.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let tmp = builder.tempfile_in(dir).map_err(|e| cannot(&e))?;
    let mut w = std::io::BufWriter::new(tmp.as_file());
    write(&mut w).map_err(|e| format!("{}: {e}", shown(out)))?;
    w.flush().map_err(|e| cannot(&e))?;
    drop(w);
    tmp.as_file().sync_all().map_err(|e| cannot(&e))?;
    tmp.persist(out).map_err(|e| cannot(&e.error))?;
    Ok(())
}

/// `koma nnue-data`.
pub fn data_main(a: DataArgs) -> ExitCode {
    let plan = data::DataPlan {
        games: a.games as usize,
        seed: a.seed,
        play_nodes: a.play_nodes,
        score_nodes: a.score_nodes,
        random_plies: a.random_plies as usize,
    };
    /// Writes the data of the game visited.
    struct Generate<'a, W: Write> {
        plan: &'a data::DataPlan,
        out: W,
    }
    impl<W: Write> NetVisitor for Generate<'_, W> {
        type Output = std::io::Result<()>;
        fn visit<G: Trainable>(mut self) -> Self::Output {
            data::generate::<G>(self.plan, &mut self.out, &mut std::io::stdout()).map(drop)
        }
    }
    let net = games::trainable().iter().find(|g| g.name == a.variant);
    let Some(features) = net.map(|g| g.features) else {
        return fail(format!("nnue-data: {}: this game has no network", a.variant));
    };
    let written = write_whole(&a.out, |out| {
        let no_net = || Err(std::io::Error::other(format!("feature set {features}: no game of this koma has it")));
        games::visit_net(features, Generate { plan: &plan, out }).unwrap_or_else(no_net)
    });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(format!("nnue-data: {e}")),
    }
}

/// The records of the data files, all of one feature set, or why not.
fn read_data(paths: &[PathBuf], out: &Path) -> Result<(Vec<records::Record>, u32), String> {
    let mut all = Vec::new();
    let mut feature_set = None;
    for path in paths {
        if same_file(path, out) {
            return Err(format!("{}: the data file is also the --out file: it would be overwritten", shown(path)));
        }
        let read = read(path, MAX_DATA_BYTES, "a data file").map_err(|e| e.to_string());
        let file = read.and_then(|bytes| records::parse(&bytes).map_err(|e| e.to_string()));
        let file = file.and_then(|f| match feature_set {
            Some(expected) if expected != f.feature_set => {
                Err(records::DataError::Mixed { found: f.feature_set, expected }.to_string())
            }
            _ => Ok(f),
        });
        match file {
            Ok(f) => {
                feature_set = Some(f.feature_set);
                all.extend(f.records);
            }
            Err(e) => return Err(format!("{}: {e}", shown(path))),
        }
    }
    match feature_set {
        Some(id) => Ok((all, id)),
        None => Err("no data".to_string()),
    }
}

/// `koma nnue-train`.
pub fn train_main(a: TrainArgs) -> ExitCode {
    let (all, feature_set) = match read_data(&a.data, &a.out) {
        Ok(data) => data,
        Err(e) => return fail(format!("nnue-train: {e}")),
    };
    if all.len() < 2 {
        return fail(format!("nnue-train: {} positions: too few to train on", all.len()));
    }
    let plan = trainer::TrainPlan {
        epochs: a.epochs as usize,
        batch: a.batch as usize,
        lr: a.lr,
        lr_decay: a.lr_decay,
        lambda: a.lambda,
        holdout: a.holdout,
        seed: a.seed,
        threads: a.threads as usize,
        mirror: !a.no_mirror,
        psqt: !a.no_psqt,
        eval_k: a.eval_k,
        weight_decay: a.weight_decay,
    };
    let out = &mut std::io::stdout();
    /// Trains the network of the game visited, `width` wide (`None`: the game's width).
    struct Train<'a, W: Write> {
        plan: &'a trainer::TrainPlan,
        all: &'a [records::Record],
        width: Option<usize>,
        out: W,
    }
    impl<W: Write> NetVisitor for Train<'_, W> {
        type Output = std::io::Result<trainer::TrainSummary>;
        fn visit<G: Trainable>(mut self) -> Self::Output {
            let (plan, all, out) = (self.plan, self.all, &mut self.out);
            match self.width.unwrap_or(G::WIDTH) {
                128 => trainer::train::<G, 128>(plan, all, out),
                256 => trainer::train::<G, 256>(plan, all, out),
                512 => trainer::train::<G, 512>(plan, all, out),
                w => Err(std::io::Error::other(format!("width {w}: this koma trains 128, 256 or 512"))),
            }
        }
    }
    let trained = match games::visit_net(feature_set, Train { plan: &plan, all: &all, width: a.width, out }) {
        Some(trained) => trained,
        None => return fail(format!("nnue-train: feature set {feature_set}: no game of this koma has it")),
    };
    let summary = match trained {
        Ok(s) => s,
        Err(e) => return fail(format!("nnue-train: {e}")),
    };
    if summary.heldout_positions == 0 {
        return fail(format!(
            "nnue-train: no position held out ({} positions, --holdout {}): the loss cannot be measured; no net written",
            summary.train_positions, a.holdout
        ));
    }
    if summary.best_epoch == 0 {
        return fail(format!(
            "nnue-train: the held-out loss never fell below the starting weights' ({:.6}): no net written",
            summary.heldout_loss[0]
        ));
    }
    if let Err(e) = write_whole(&a.out, |w| w.write_all(&summary.net_file)) {
        return fail(format!("nnue-train: {e}"));
    }
    let _ = writeln!(std::io::stdout(), "wrote {}", shown(&a.out));
    ExitCode::SUCCESS
}

fn fail(msg: String) -> ExitCode {
    let _ = writeln!(std::io::stdout(), "error: {msg}");
    ExitCode::FAILURE
}

//! Training a game's network (tools/NNUE.md): `koma nnue-data` plays koma against itself
//! and writes scored positions ([`data`], in the format of [`records`]); `koma nnue-train`
//! fits a net to them and writes the net file ([`trainer`], in the format of
//! `crate::games::nnue::format`), which the game's net-file option loads (`KokesuNetFile`,
//! `Shogi66NetFile`). Both are generic over the game (`Trainable`); [`TRAINABLE`] lists
//! the games with a network.

pub mod data;
pub mod records;
pub mod trainer;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::games::kokesu::Kokesu;
use crate::games::nnue::format;
use crate::games::nnue::trainable::Trainable;
use crate::games::shogi66::Shogi66;

/// The games with a network: `--variant` names, for `koma nnue-data`.
pub const TRAINABLE: [&str; 2] = ["kokesu", "shogi66"];

/// splitmix64: the runs' only source of chance, so a seed gives the same run.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (> 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Options of `koma nnue-data`.
#[derive(clap::Args, Debug, Clone)]
#[command(about = "Training positions from koma's own games, scored by a deeper search (tools/NNUE.md)")]
pub struct DataArgs {
    /// The game: kokesu or shogi66.
    #[arg(long, default_value = "kokesu", value_parser = clap::builder::PossibleValuesParser::new(TRAINABLE))]
    pub variant: String,
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// The seed of the random openings (the run is deterministic from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Nodes a move in the games.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    pub play_nodes: u64,
    /// Nodes of the search that scores each position written.
    #[arg(long, default_value_t = 8000, value_parser = clap::value_parser!(u64).range(1..))]
    pub score_nodes: u64,
    /// Random plies at the start of each game (plus 0 to 4 more).
    #[arg(long, default_value_t = 4)]
    pub random_plies: usize,
    /// The data file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// Options of `koma nnue-train`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    about = "Train a game's network on data files of koma nnue-data (the files name the game) and write the net file (tools/NNUE.md)"
)]
pub struct TrainArgs {
    /// Epochs (the weights of the one with the least held-out loss are kept).
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    /// Positions a batch (one Adam step).
    #[arg(long, default_value_t = 4096)]
    pub batch: usize,
    /// Adam's learning rate at the start.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// The learning rate is multiplied by this after each epoch.
    #[arg(long, default_value_t = 0.9)]
    pub lr_decay: f32,
    /// The weight of the game result in the target; the search score has the rest.
    #[arg(long, default_value_t = 0.25)]
    pub lambda: f32,
    /// The share of the positions held out to measure the loss on (the last ones).
    #[arg(long, default_value_t = 0.1)]
    pub holdout: f32,
    /// The seed of the starting weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads sharing each batch (the result depends on the seed and this).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub threads: u64,
    /// AdamW's decoupled weight decay of the accumulator weights and biases: each step
    /// shrinks them by `lr * weight_decay` of themselves.
    #[arg(long, default_value_t = 2.0)]
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
    /// scale while the targets use the K fitted to the data. Default: the fitted K.
    #[arg(long)]
    pub eval_k: Option<f32>,
    /// The net file to write (src/games/kokesu/nnue.bin is Kokesu's built-in one).
    #[arg(long, value_name = "NET")]
    pub out: PathBuf,
    /// Data files of `koma nnue-data`, in order (the last positions are held out).
    #[arg(required = true, value_name = "DATA")]
    pub data: Vec<PathBuf>,
}

/// `koma nnue-data`.
pub fn data_main(a: DataArgs) -> ExitCode {
    let plan = data::DataPlan {
        games: a.games,
        seed: a.seed,
        play_nodes: a.play_nodes,
        score_nodes: a.score_nodes,
        random_plies: a.random_plies,
    };
    let file = match std::fs::File::create(&a.out) {
        Ok(f) => f,
        Err(e) => return fail(format!("nnue-data: cannot write {}: {e}", a.out.display())),
    };
    let mut out = std::io::BufWriter::new(file);
    let made = match a.variant.as_str() {
        "shogi66" => data::generate::<Shogi66>(&plan, &mut out, &mut std::io::stdout()),
        _ => data::generate::<Kokesu>(&plan, &mut out, &mut std::io::stdout()),
    };
    match made {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => fail(format!("nnue-data: {}: {e}", a.out.display())),
    }
}

/// `koma nnue-train`.
pub fn train_main(a: TrainArgs) -> ExitCode {
    let mut all = Vec::new();
    let mut feature_set = None;
    for path in &a.data {
        let read = std::fs::read(path).map_err(|e| e.to_string());
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
            Err(e) => return fail(format!("nnue-train: {}: {e}", path.display())),
        }
    }
    if all.len() < 2 {
        return fail(format!("nnue-train: {} positions: too few to train on", all.len()));
    }
    let plan = trainer::TrainPlan {
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        lr_decay: a.lr_decay,
        lambda: a.lambda,
        holdout: a.holdout.clamp(0.0, 0.5),
        seed: a.seed,
        threads: a.threads as usize,
        mirror: !a.no_mirror,
        psqt: !a.no_psqt,
        eval_k: a.eval_k,
        weight_decay: a.weight_decay,
    };
    let out = &mut std::io::stdout();
    let trained = match feature_set {
        Some(id) if id == Kokesu::FEATURES.id => trainer::train::<Kokesu>(&plan, &all, out),
        Some(id) if id == Shogi66::FEATURES.id => trainer::train::<Shogi66>(&plan, &all, out),
        Some(id) => return fail(format!("nnue-train: feature set {id}: no game of this koma has it")),
        None => return fail("nnue-train: no data".to_string()),
    };
    let summary = match trained {
        Ok(s) => s,
        Err(e) => return fail(format!("nnue-train: {e}")),
    };
    if let Err(e) = std::fs::write(&a.out, format::write(&summary.net)) {
        return fail(format!("nnue-train: cannot write {}: {e}", a.out.display()));
    }
    let _ = writeln!(std::io::stdout(), "wrote {}", a.out.display());
    ExitCode::SUCCESS
}

fn fail(msg: String) -> ExitCode {
    let _ = writeln!(std::io::stdout(), "error: {msg}");
    ExitCode::FAILURE
}

//! koma: reads USI commands on stdin, answers on stdout. Logging (stderr) only when
//! RUST_LOG asks for it. `koma replay`, `koma analyse`, `koma solve`, `koma nnue-data`
//! and `koma nnue-train` are for scripts and tests; the library does their work
//! (`koma::cli`, `koma::train`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};

/// After `--help`: the games (from the registry) and the usual commands.
static AFTER_HELP: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let games: Vec<String> = koma::games::names()
        .into_iter()
        .map(|n| if n == koma::engine::DEFAULT_VARIANT { format!("{n} (the default)") } else { n.to_string() })
        .collect();
    format!(
        "\
Without a subcommand koma speaks USI on stdin and stdout (UCI after a first line `uci`,
CECP after `xboard`). Games (setoption name USI_Variant value NAME):
{}.

  koma                                  play through a GUI, or type USI commands
  koma \"go perft 3\" quit                run commands, then exit
  koma analyse --depth 10 FILE          positions in, JSON lines out
  koma analyse --game GAME.kif          a game report: every move marked (protocol/records.md)
  koma nnue-data / koma nnue-train      a game's network: data, training (docs/NNUE.md)
  koma serve --open                     play every game in a browser

The protocol and every game's rules, move notation and options: protocol/README.md and
protocol/rules.md in the source; README.md has the rest, docs/README.md every document.",
        games.join(", ")
    )
});

/// The commit this binary was built from (`git describe`: the nearest release tag, the
/// commits since, the hash; `-modified` for uncommitted changes).
const COMMIT: &str = git_version::git_version!(
    args = ["--always", "--tags", "--match=v*", "--abbrev=12", "--dirty=-modified"],
    fallback = "commit unknown: built outside a git checkout"
);

/// `koma --version`: the release and the commit.
static VERSION: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("{} ({COMMIT})", env!("CARGO_PKG_VERSION")));

/// A USI engine for the small games of its registry (`koma::games`).
#[derive(Parser, Debug)]
#[command(version = VERSION.as_str(), about, args_conflicts_with_subcommands = true, after_help = AFTER_HELP.as_str())]
struct Args {
    /// The game to play from the start (as `setoption name USI_Variant value NAME`, which
    /// may still change it).
    #[arg(long, value_name = "NAME", value_parser = clap::builder::PossibleValuesParser::new(koma::games::names()))]
    variant: Option<String>,
    /// Write the session (every line in and out) to FILE as a transcript that
    /// `koma replay` checks, with run-to-run figures written as patterns.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Commands to run before reading stdin, e.g. `koma "go perft 3" quit` (each argument
    /// is one line). A `quit` here lets a search with its own limits finish first.
    commands: Vec<String>,
    #[command(subcommand)]
    tool: Option<Tool>,
}

#[derive(Subcommand, Debug)]
enum Tool {
    /// Replay transcripts against this binary: one line per file (ok, or the first
    /// mismatch as FILE:LINE: expected ..., got ...); exit status 1 if any fails.
    Replay {
        /// Transcript files (protocol/transcripts.md), each at most 16 MiB; a path is
        /// printed on one line, control characters escaped.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    #[command(visible_alias = "analyze")]
    Analyse(koma::cli::analyse::Args),
    Solve(koma::cli::solve::Args),
    #[cfg(feature = "train")]
    NnueData(koma::train::DataArgs),
    #[cfg(feature = "train")]
    NnueTrain(koma::train::TrainArgs),
    /// Play the games in a browser: a local web server with a board for each game, koma
    /// as either player (`koma serve --open`).
    #[cfg(feature = "serve")]
    Serve(koma::serve::Args),
}

fn main() -> ExitCode {
    let args = Args::parse();
    if std::env::var_os("RUST_LOG").is_some() {
        env_logger::Builder::from_default_env().target(env_logger::Target::Stderr).init();
    }
    match args.tool {
        Some(Tool::Replay { files }) => {
            let binary = match std::env::current_exe() {
                Ok(b) => b,
                Err(e) => {
                    println!("koma replay: cannot find this binary: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let ok = koma::cli::transcript::replay_files(&files, &binary, &mut std::io::stdout());
            if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Some(Tool::Analyse(a)) if a.game.is_some() => koma::cli::report::main(a),
        Some(Tool::Analyse(a)) => koma::cli::analyse::main(a),
        Some(Tool::Solve(a)) => koma::cli::solve::main(a),
        #[cfg(feature = "train")]
        Some(Tool::NnueData(a)) => koma::train::data_main(a),
        #[cfg(feature = "train")]
        Some(Tool::NnueTrain(a)) => koma::train::train_main(a),
        #[cfg(feature = "serve")]
        Some(Tool::Serve(a)) => koma::serve::main(a),
        None => {
            let recorder = match &args.record {
                None => None,
                Some(path) => match koma::cli::transcript::Recorder::create(path) {
                    Ok(r) => Some(Arc::new(r)),
                    Err(e) => {
                        println!("info string error: --record {}: {e}", koma::input::path(path));
                        return ExitCode::FAILURE;
                    }
                },
            };
            let tap = recorder.clone().map(|r| r as Arc<dyn koma::protocol::Tap>);
            let sink = koma::protocol::recording_stdout_sink(tap.clone());
            let stdin = std::io::stdin();
            let session =
                koma::protocol::run_script(args.variant.as_deref(), &args.commands, stdin.lock(), sink, tap.as_deref());
            // A transcript that could not be written is said (on stdout, where the session
            // was) and fails the run: a recording that silently lost lines would mislead.
            if let (Some(path), Some(e)) = (&args.record, recorder.and_then(|r| r.error())) {
                println!("info string error: --record {}: {e}", koma::input::path(path));
                return ExitCode::FAILURE;
            }
            // The error was said as a line of the session (input that could not be read,
            // a command line split into words).
            match session {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::FAILURE,
            }
        }
    }
}

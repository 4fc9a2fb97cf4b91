//! koma: reads USI commands on stdin, answers on stdout. Logging (stderr) only when
//! RUST_LOG asks for it.

use clap::Parser;

/// A USI engine for 66 shogi, Kokesu, Number Shogi, Kani Shogi and Kani Nari Ebi.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Commands to run before reading stdin, e.g. `koma "go perft 3" quit`
    /// (each argument is one line).
    commands: Vec<String>,
}

fn main() {
    let args = Args::parse();
    if std::env::var_os("RUST_LOG").is_some() {
        env_logger::Builder::from_default_env().target(env_logger::Target::Stderr).init();
    }
    let sink = koma::usi::stdout_sink();
    let stdin = std::io::stdin();
    koma::usi::run_with_script(&args.commands, stdin.lock(), sink);
}

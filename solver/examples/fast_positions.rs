//! `fast`'s search alone over a range of deals, for instruction counts (callgrind) and
//! profiles (perf) of the search without the binary's validation, rows and threads:
//!
//! ```sh
//! cargo build --release -p fcauto-solver --example fast_positions
//! valgrind --tool=callgrind target/release/examples/fast_positions 1 2000
//! ```
//!
//! Prints the positions expanded over deals A..=B (the same as `fcauto bench --range A..B
//! --mode fast`'s) and the wall time.

use fcauto_solver::{solve, Limits, Mode};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse())
        .collect::<Result<_, _>>()
        .unwrap_or_default();
    let &[a, b] = args.as_slice() else {
        eprintln!("usage: fast_positions A B (deals A..=B)");
        std::process::exit(2);
    };
    let start = std::time::Instant::now();
    let mut expanded = 0;
    for deal in a..=b {
        let Ok(board) = fcauto_deals::ms_deal(deal) else {
            eprintln!("fast_positions: {deal} is not a deal number");
            std::process::exit(2);
        };
        expanded += solve(
            &board,
            Mode::Fast,
            Limits {
                max_states: 1_000_000,
            },
        )
        .stats
        .expanded;
    }
    println!(
        "deals {a}..{b}: {expanded} positions expanded in {:?}",
        start.elapsed()
    );
}

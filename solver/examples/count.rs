use fcauto_solver::*;
fn main() {
    let a: u64 = std::env::args().nth(1).unwrap().parse().unwrap();
    let b: u64 = std::env::args().nth(2).unwrap().parse().unwrap();
    let mut exp = 0;
    let t = std::time::Instant::now();
    for d in a..=b {
        let board = fcauto_deals::ms_deal(d).unwrap();
        let r = search::solve(
            &board,
            search::Mode::Fast,
            search::Limits {
                max_states: 1_000_000,
            },
        );
        exp += r.stats.expanded;
    }
    println!("expanded {exp} time {:?}", t.elapsed());
}

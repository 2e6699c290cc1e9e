//! Solves the start for the checker counts given on the command line, printing progress to
//! stderr and one result line per count: `cargo run --release --example solve -- 2 4 6`.

use tabula_grasshopper::solver::solve_start;
use tabula_grasshopper::Checkers;

fn main() {
    for arg in std::env::args().skip(1) {
        let n: u32 = arg.parse().expect("a checker count");
        let checkers = Checkers::new(n).expect("an even count from 2 to 14");
        let r = solve_start(checkers, |p| {
            eprintln!(
                "  N={n}: {} nodes, {} positions, {:.1} s",
                p.nodes,
                p.positions,
                p.elapsed.as_secs_f64()
            )
        });
        println!(
            "N={n}: {:?} for White (winner {:?}), best first move {}, {} positions, {} nodes, {:.2} s, {:.2} M nodes/s{}",
            r.value,
            r.winner,
            r.best_move.map_or("-".to_string(), |a| a.to_string()),
            r.positions,
            r.nodes,
            r.elapsed.as_secs_f64(),
            r.nodes_per_second() / 1e6,
            if r.table_full { " (table full)" } else { "" }
        );
    }
}

//! Prints how many states the endgame table for each k holds.
fn main() {
    for k in 1..=tabula_grasshopper::endgame::MAX_K {
        let n = tabula_grasshopper::endgame::EndgameTable::states_for(k).unwrap();
        println!(
            "k = {k}: {n} states, {:.3} GiB at 2 bits",
            n as f64 / 4.0 / (1u64 << 30) as f64
        );
    }
}

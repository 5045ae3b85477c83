//! `uttt`: the terminal front end of the engine.

fn main() {
    println!("uttt {}", env!("CARGO_PKG_VERSION"));
}

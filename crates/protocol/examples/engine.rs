//! Our engine over 5DUCI on standard input and output (what `chess5d engine` runs), with the
//! same arguments: see `chess5d_protocol::ENGINE_USAGE`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = chess5d_protocol::engine_main(&args) {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

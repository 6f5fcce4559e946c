fn main() {
    println!("chess5d");
}

//! Memory of MilkShape ASCII parsing against the input's size, on the
//! inputs that pack the most items into the fewest bytes. Alone in its
//! test binary (one test), so that the process's peak resident size
//! (`VmHWM` in `/proc/self/status`, Linux only) is this parse's.

#![cfg(target_os = "linux")]

use retromodel::ms3d::ascii::AsciiModel;

/// The process's peak resident set size, in bytes.
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("VmHWM");
    let kb: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("a number of kB");
    kb * 1024
}

#[test]
fn memory_stays_a_small_multiple_of_the_input() {
    let n = 400_000;
    // The smallest mesh (13 bytes: an empty name and three zero counts),
    // the smallest vertex (14 bytes) and the smallest comment (3 bytes).
    let mut meshes = format!("Meshes: {n}\n");
    meshes.push_str(&"\"\" 0 0\n0\n0\n0\n".repeat(n));
    let mut vertices = format!("Meshes: 1\n\"m\" 0 0\n{n}\n");
    vertices.push_str(&"0 0 0 0 0 0 0\n".repeat(n));
    vertices.push_str("0\n0\n");
    let mut comments = format!("GroupComments: {n}\n");
    comments.push_str(&"0\n\n".repeat(n));
    // And counts far beyond what the lines hold, which must allocate
    // nothing for themselves.
    let mut lies = format!("Meshes: 1\n\"m\" 0 0\n{}\n", 4 * n);
    lies.push_str(&"\n".repeat(4 * n));

    let inputs = [meshes, vertices, comments, lies];
    let largest = inputs.iter().map(String::len).max().unwrap() as u64;
    let before = peak_rss();
    for (k, text) in inputs.iter().enumerate() {
        let parsed = AsciiModel::parse(text.as_bytes());
        assert_eq!(parsed.is_ok(), k < 3, "input {k}");
        drop(parsed);
    }
    let grown = peak_rss().saturating_sub(before);
    println!(
        "largest input {largest} bytes, peak resident size grew by {grown} bytes ({:.1}x)",
        grown as f64 / largest as f64
    );
    assert!(
        grown < 16 * largest,
        "parsing grew the peak resident size by {grown} bytes for inputs of at most {largest}"
    );
}

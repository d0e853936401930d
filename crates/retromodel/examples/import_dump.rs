//! Imports each glTF file named on the command line and writes, into the
//! folder given first, one text file per input with the `Debug` of the
//! scene and warnings (or the error): a before/after record for checking
//! that a change to the importer leaves its results the same.
//!
//! `cargo run --release --example import_dump -- OUT_DIR FILE...`

use retromodel::gltf::{import, ImportOptions};
use retromodel::texture::TextureResolver;

fn main() {
    let mut args = std::env::args().skip(1);
    let out = std::path::PathBuf::from(args.next().expect("OUT_DIR FILE..."));
    std::fs::create_dir_all(&out).expect("output folder");
    for file in args {
        let path = std::path::Path::new(&file);
        let bytes = std::fs::read(path).expect("readable input");
        let resolver = TextureResolver::for_model_file(path);
        let text = match import(&bytes, Some(&resolver), &ImportOptions::default()) {
            Ok(i) => format!("{:#?}\nwarnings: {:#?}\n", i.scene, i.warnings),
            Err(e) => format!("error: {e}\n{e:?}\n"),
        };
        let name = file.trim_start_matches('/').replace('/', "_");
        std::fs::write(out.join(name), text).expect("writable output");
    }
}

//! Fuzz target: texture decoding (`texture::decode` with small limits, the
//! PCX decoder directly) on arbitrary bytes and, when an image comes out,
//! its size checks and PNG encoding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel::texture::{self, DecodeLimits};

fuzz_target!(|data: &[u8]| {
    let mut limits = DecodeLimits::default();
    limits.max_bytes = 1 << 20;
    for result in [
        texture::decode_with_limits(data, &limits),
        texture::pcx::decode(data, &limits),
    ] {
        if let Ok(image) = result {
            let (w, h) = (u64::from(image.width()), u64::from(image.height()));
            assert!(w * h * 4 <= limits.max_bytes);
            assert_eq!(image.pixels().len() as u64, w * h * 4);
            let png = image.to_png().expect("a decoded image encodes");
            let back = texture::decode(&png).expect("our PNG decodes");
            assert_eq!(back, image);
        }
    }
});

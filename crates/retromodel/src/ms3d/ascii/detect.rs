//! Telling a MilkShape 3D ASCII text by its content.

use super::Section;

/// How much of the input [`looks_like`] looks at.
const HEAD_BYTES: usize = 4096;

/// Whether `bytes` look like MilkShape 3D ASCII: among the `//` lines at
/// the start one says `MilkShape 3D ASCII` (as MilkShape's, the Blender
/// add-on's and StepMania's files do), or the first other line is a
/// section, `Keyword: N` (StepMania's split files have no header: a
/// `Materials: 3` file, a `Bones: 0` file). Only the first 4 KiB are
/// read; a UTF-8 byte-order mark and blank lines are skipped.
///
/// ```
/// use retromodel::ms3d::ascii::looks_like;
///
/// assert!(looks_like(b"// MilkShape 3D ASCII\n\nFrames: 30\n"));
/// assert!(looks_like(b"Bones: 0\n"));
/// assert!(!looks_like(b"# Wavefront OBJ\nv 0 0 0\n"));
/// assert!(!looks_like(b"MS3D000000\x04\x00\x00\x00"));
/// ```
pub fn looks_like(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(HEAD_BYTES)];
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    // Bytes that are not UTF-8 (a binary file, a character cut at 4 KiB)
    // become U+FFFD: only ASCII keywords matter here.
    let text = String::from_utf8_lossy(head);
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(comment) = line.strip_prefix("//") {
            if comment.to_ascii_lowercase().contains("milkshape 3d ascii") {
                return true;
            }
            continue;
        }
        return is_section_line(line);
    }
    false
}

/// `Keyword: N` with a known keyword and a whole number.
fn is_section_line(line: &str) -> bool {
    let Some((word, value)) = line.split_once(':') else {
        return false;
    };
    Section::from_keyword(word.trim_end()).is_some() && value.trim().parse::<i64>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_and_split_files_are_recognised() {
        assert!(looks_like(b"\xef\xbb\xbf\r\n// MilkShape 3D ASCII\r\n"));
        assert!(looks_like(
            b"// exported by a tool\n// milkshape 3d ascii\nMeshes: 1\n"
        ));
        assert!(looks_like(b"\n\nMaterials: 3\n\"cells\"\n"));
        assert!(looks_like(b"Frames: 30"));
        assert!(looks_like(b"Meshes:2\n"));
    }

    #[test]
    fn other_text_is_not() {
        assert!(!looks_like(b""));
        assert!(!looks_like(b"// some other format\nv 1 2 3\n"));
        assert!(!looks_like(b"Frames: many\n"));
        assert!(!looks_like(b"Vertices: 3\n"));
        assert!(!looks_like(b"{\"asset\":{\"version\":\"2.0\"}}"));
        assert!(!looks_like(b"IDP2\x08\x00\x00\x00"));
        assert!(!looks_like(&[0xff, 0xfe, 0x00, 0x00]));
    }

    #[test]
    fn only_the_head_is_read() {
        let mut text = vec![b'\n'; HEAD_BYTES + 10];
        text.extend_from_slice(b"Frames: 30\n");
        assert!(!looks_like(&text));
        // A character cut at 4 KiB does not hide a header before it.
        let mut text = b"// MilkShape 3D ASCII\n".to_vec();
        text.resize(HEAD_BYTES - 1, b' ');
        text.extend_from_slice("é".as_bytes());
        assert!(looks_like(&text));
    }
}

//! StepMania's split models: meshes, materials and bones read from three
//! files (`Def.Model{ Meshes=…, Materials=…, Bones=… }`) put together.

use super::{AsciiModel, Encoding, Section};
use crate::error::{Error, Result};

impl AsciiModel {
    /// One model from StepMania's three pieces, as its `Model::LoadPieces`
    /// puts them together: the `Meshes:` section (and group comments)
    /// from `meshes`, the `Materials:` section (and material comments)
    /// from `materials`, the `Bones:` section (and bone comments) from
    /// `bones`. A piece that is `None` is taken from `meshes` itself
    /// (StepMania reads all three from one file then). `Frames:`, `Frame:`
    /// and the model comment come from `meshes`, else `bones`, else
    /// `materials` (StepMania itself ignores `Frames:` and takes the last
    /// key as the length).
    ///
    /// A piece without its section is an error (StepMania would draw
    /// nothing, or find no material).
    ///
    /// ```
    /// use retromodel::ms3d::ascii::AsciiModel;
    ///
    /// # fn main() -> Result<(), retromodel::Error> {
    /// let meshes = AsciiModel::parse(b"Frames: 30\nMeshes: 0\n")?;
    /// let materials = AsciiModel::parse(b"Materials: 0\n")?;
    /// let bones = AsciiModel::parse(b"Bones: 0\n")?;
    /// let model = AsciiModel::combine(meshes, Some(materials), Some(bones))?;
    /// assert!(model.meshes.is_some() && model.materials.is_some() && model.bones.is_some());
    /// assert_eq!(model.frames, Some(30));
    /// # Ok(()) }
    /// ```
    pub fn combine(
        meshes: AsciiModel,
        materials: Option<AsciiModel>,
        bones: Option<AsciiModel>,
    ) -> Result<AsciiModel> {
        let missing = |piece: &str, section: Section| Error::Ms3dAscii {
            line: None,
            message: format!("the {piece} file has no {}: section", section.keyword()),
        };
        if meshes.meshes.is_none() {
            return Err(missing("meshes", Section::Meshes));
        }
        // Pieces in different encodings: all one char per byte (a piece
        // in a code page cannot become UTF-8).
        let bytes = [Some(&meshes), materials.as_ref(), bones.as_ref()]
            .into_iter()
            .flatten()
            .any(|p| p.encoding == Encoding::Bytes);
        let enc = if bytes {
            Encoding::Bytes
        } else {
            Encoding::Utf8
        };
        let materials = materials.map(|m| m.in_encoding(enc));
        let bones = bones.map(|b| b.in_encoding(enc));
        let mut out = meshes.in_encoding(enc);
        // Timeline and model comment: meshes, else bones, else materials.
        for piece in [&bones, &materials].into_iter().flatten() {
            out.frames = out.frames.or(piece.frames);
            out.frame = out.frame.or(piece.frame);
            if out.model_comment.is_none() {
                out.model_comment.clone_from(&piece.model_comment);
            }
        }
        if let Some(m) = materials {
            let Some(list) = m.materials else {
                return Err(missing("materials", Section::Materials));
            };
            out.materials = Some(list);
            out.material_comments = m.material_comments;
        } else if out.materials.is_none() {
            return Err(missing("meshes", Section::Materials));
        }
        if let Some(b) = bones {
            let Some(list) = b.bones else {
                return Err(missing("bones", Section::Bones));
            };
            out.bones = Some(list);
            out.bone_comments = b.bone_comments;
        } else if out.bones.is_none() {
            return Err(missing("meshes", Section::Bones));
        }
        // Sections the pieces brought in go after the ones already there.
        out.order = out.sections();
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A UTF-8 meshes file and a GBK bones file: both names keep their
    /// bytes.
    #[test]
    fn pieces_in_utf8_and_a_code_page_keep_their_bytes() {
        let meshes = AsciiModel::parse("Meshes: 1\n\"é\" 0 -1\n0\n0\n0\n".as_bytes()).unwrap();
        let bones =
            AsciiModel::parse(b"Bones: 1\n\"\xb9\xc7\xcd\xb7\"\n\"\"\n0 0 0 0 0 0 0\n0\n0\n")
                .unwrap();
        let model = AsciiModel::combine(meshes, None, Some(bones));
        assert!(model.is_err(), "the meshes file has no materials");
        let meshes =
            AsciiModel::parse("Meshes: 1\n\"é\" 0 -1\n0\n0\n0\nMaterials: 0\n".as_bytes()).unwrap();
        let bones =
            AsciiModel::parse(b"Bones: 1\n\"\xb9\xc7\xcd\xb7\"\n\"\"\n0 0 0 0 0 0 0\n0\n0\n")
                .unwrap();
        let binary = AsciiModel::combine(meshes, None, Some(bones))
            .unwrap()
            .to_ms3d()
            .unwrap();
        assert_eq!(binary.groups[0].name.as_bytes(), "é".as_bytes());
        assert_eq!(binary.joints[0].name.as_bytes(), b"\xb9\xc7\xcd\xb7");
    }
}

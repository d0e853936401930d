//! A model written in its own format (or its twin: MS3D and MilkShape
//! ASCII, IQM and IQE): laid out, repaired or re-encoded as asked, with
//! nothing compiled.

use super::{Conversion, Converter, OutputFormat, Plan, Warning};
use crate::error::{Error, Result};
use crate::model::Model;

impl Converter<'_> {
    /// MD2 to MD2 (laid out and repaired as asked), MS3D and MilkShape
    /// ASCII to either.
    pub(super) fn rewrite(
        &self,
        model: Model,
        format: OutputFormat,
        output_name: &str,
    ) -> Result<Conversion> {
        use crate::ms3d::ascii::AsciiModel;
        let options = self.options;
        let text = |a: &AsciiModel| a.to_bytes();
        let mut warnings = Vec::new();
        let mut milkshape = |m: &crate::ms3d::Ms3d| {
            warnings.extend(
                m.validate_for_milkshape()
                    .into_iter()
                    .map(Warning::Milkshape),
            );
        };
        let mut mdl_repair = None;
        let (bytes, repair) = match model {
            Model::Mdl(mut m) if format == OutputFormat::Mdl => {
                mdl_repair = options.repair.then(|| m.repair());
                let layout = match options.layout {
                    crate::md2::Layout::Original => crate::mdl::Layout::Original,
                    crate::md2::Layout::Standard => crate::mdl::Layout::Standard,
                };
                (m.to_bytes_with(layout)?, None)
            }
            Model::Md3(m) if format == OutputFormat::Md3 => {
                let layout = match options.layout {
                    crate::md2::Layout::Original => crate::md3::Layout::Original,
                    crate::md2::Layout::Standard => crate::md3::Layout::Standard,
                };
                (m.to_bytes_with(layout)?, None)
            }
            Model::Iqm(m) if format == OutputFormat::Iqe => (m.to_iqe().into_bytes(), None),
            Model::Iqm(m) if format == OutputFormat::Iqm => {
                let layout = match options.layout {
                    crate::md2::Layout::Original => crate::iqm::Layout::Original,
                    crate::md2::Layout::Standard => crate::iqm::Layout::Standard,
                };
                (m.to_bytes_with(layout)?, None)
            }
            Model::Md2(mut m) if format == OutputFormat::Md2 => {
                let repair = options.repair.then(|| m.repair());
                (m.to_bytes_with(options.layout)?, repair)
            }
            Model::Ms3d(m) if format == OutputFormat::Ms3d => {
                milkshape(&m);
                (m.to_bytes()?, None)
            }
            Model::Ms3d(m) if format == OutputFormat::Ms3dAscii => {
                warnings.extend(AsciiModel::losses(&m).into_iter().map(Warning::Ms3dAscii));
                (text(&AsciiModel::from_ms3d(&m)), None)
            }
            Model::Ms3dAscii(a) if format == OutputFormat::Ms3d => {
                let m = a.to_ms3d()?;
                milkshape(&m);
                (m.to_bytes()?, None)
            }
            Model::Ms3dAscii(a) if format == OutputFormat::Ms3dAscii => (text(&a), None),
            other => {
                return Err(Error::Unconvertible {
                    from: other.format(),
                    to: format.extension(),
                })
            }
        };
        Ok(Conversion {
            plan: Plan::whole(vec![(output_name.to_string(), bytes)]),
            warnings,
            repair,
            report: None,
            ms3d_report: None,
            mdl_repair,
            #[cfg(feature = "textures")]
            mdl_report: None,
            md3_report: None,
            md3_player_report: None,
            iqm_report: None,
        })
    }
}

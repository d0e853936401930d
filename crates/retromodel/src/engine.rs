//! The engines a model is checked against, as one list: their names for
//! the command line and for messages, and which model formats each loads.
//! What each loader accepts (`md2::EngineLimits`, `mdl::MdlEngineLimits`)
//! is each format's knowledge and stays there; this list sits at the
//! bottom so that advice can name an engine without naming a format.
//!
//! ```
//! use retromodel::{Engine, EngineFormat};
//! let vk = Engine::from_name("vkquake").unwrap();
//! assert!(vk.loads(EngineFormat::Mdl));
//! assert!(!vk.loads(EngineFormat::Md2));
//! assert_eq!(vk.title(), "vkQuake");
//! ```

use std::fmt;

/// An engine whose loaders a model is checked against (and, for the
/// Quake II engines, compiled for by `md2::compile`).
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Engine {
    /// id Software's Quake II 3.21 (`ref_gl` and `ref_soft`): the
    /// strictest, and what every other engine accepts.
    #[default]
    Quake2,
    /// Yamagi Quake II (every renderer shares one MD2 loader).
    Yquake2,
    /// Q2PRO.
    Q2pro,
    /// KMQuake2 (mxd's continuation of Knightmare's engine).
    Kmquake2,
    /// UFO:AI (its renderer descends from Quake II's).
    UfoAi,
    /// id Software's software-rendered Quake 1.09 (`WinQuake/model.c`).
    Winquake,
    /// id Software's GLQuake 0.98 (`WinQuake/gl_model.c`).
    Glquake,
    /// QuakeSpasm (Sezero's).
    Quakespasm,
    /// QuakeSpasm-Spiked (Spike's fork of QuakeSpasm).
    QuakespasmSpiked,
    /// Ironwail.
    Ironwail,
    /// vkQuake.
    Vkquake,
    /// FTEQW.
    Fte,
    /// The 2021 Quake rerelease (its engine is not public: checked as the
    /// source ports that load its MD5 replacements load the pair).
    QuakeRerelease,
    /// Hexen II, as uHexen2 (Hammer of Thyrion) loads it.
    Hexen2,
    /// ioquake3 (Quake III Arena's maintained engine; both renderers share
    /// one MD3 loader).
    Ioquake3,
    /// ET: Legacy (Wolfenstein: Enemy Territory's maintained engine), its
    /// default renderer.
    Etlegacy,
    /// Return to Castle Wolfenstein's single-player game, as iortcw (its
    /// maintained engine) loads it with its default renderer (`SP/`).
    Rtcw,
    /// Return to Castle Wolfenstein's multiplayer game, as iortcw loads it
    /// with its default renderer (`MP/`): lower limits than single player.
    RtcwMp,
    /// GZDoom (and UZDoom, its fork: the same model loaders), as its
    /// loaders in `src/common/models/` read MD2, MD3, OBJ and IQM.
    Gzdoom,
    /// The Daemon engine (Unvanquished's; its renderer descends from
    /// XreaL's): MD3, MD5 and IQM (`src/engine/renderer/tr_model.cpp`,
    /// `RE_RegisterModel`).
    Daemon,
    /// DarkPlaces (Xonotic's engine): MDL, MD2, MD3, OBJ and IQM among
    /// others (`model_shared.c`, the `loader` table of `Mod_LoadModel`).
    Darkplaces,
    /// raylib (`src/rmodels.c`, `LoadModel`): OBJ and IQM among others.
    Raylib,
}

/// A model format as far as an engine is concerned: what
/// [`Engine::formats`] lists.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EngineFormat {
    /// Quake II MD2 (`IDP2`).
    Md2,
    /// Quake MDL (`IDPO` version 6).
    Mdl,
    /// Hexen II's MDL (`RAPO` version 50).
    Hexen2Mdl,
    /// id Tech 4 MD5 (`.md5mesh` and `.md5anim`), as the Quake and Quake II
    /// rereleases ship it beside their MDL and MD2 models.
    Md5,
    /// Quake III MD3 (`IDP3` version 15).
    Md3,
    /// Wavefront OBJ.
    Obj,
    /// Inter-Quake Model (`INTERQUAKEMODEL` version 2).
    Iqm,
}

impl EngineFormat {
    /// The format's name for messages (`MD2`, `MDL` ...).
    pub fn title(self) -> &'static str {
        match self {
            EngineFormat::Md2 => "MD2",
            EngineFormat::Mdl => "Quake MDL",
            EngineFormat::Hexen2Mdl => "Hexen II MDL",
            EngineFormat::Md5 => "MD5",
            EngineFormat::Md3 => "MD3",
            EngineFormat::Obj => "OBJ",
            EngineFormat::Iqm => "IQM",
        }
    }
}

impl fmt::Display for EngineFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

impl Engine {
    /// Every engine, in declaration order.
    pub const ALL: [Engine; 22] = [
        Engine::Quake2,
        Engine::Yquake2,
        Engine::Q2pro,
        Engine::Kmquake2,
        Engine::UfoAi,
        Engine::Winquake,
        Engine::Glquake,
        Engine::Quakespasm,
        Engine::QuakespasmSpiked,
        Engine::Ironwail,
        Engine::Vkquake,
        Engine::Fte,
        Engine::QuakeRerelease,
        Engine::Hexen2,
        Engine::Ioquake3,
        Engine::Etlegacy,
        Engine::Rtcw,
        Engine::RtcwMp,
        Engine::Gzdoom,
        Engine::Daemon,
        Engine::Darkplaces,
        Engine::Raylib,
    ];

    /// The engines whose MD2 loader `md2::EngineLimits` profiles (Quake
    /// II's), in declaration order: the ones an MD2 is compiled for.
    pub const MD2: [Engine; 5] = [
        Engine::Quake2,
        Engine::Yquake2,
        Engine::Q2pro,
        Engine::Kmquake2,
        Engine::UfoAi,
    ];

    /// The engines whose MDL loader `mdl::MdlEngineLimits` profiles, in
    /// declaration order.
    pub const MDL: [Engine; 9] = [
        Engine::Winquake,
        Engine::Glquake,
        Engine::Quakespasm,
        Engine::QuakespasmSpiked,
        Engine::Ironwail,
        Engine::Vkquake,
        Engine::Fte,
        Engine::QuakeRerelease,
        Engine::Hexen2,
    ];

    /// The engines whose MD3 loader `md3::Md3EngineLimits` profiles, in
    /// declaration order.
    pub const MD3: [Engine; 7] = [
        Engine::Ironwail,
        Engine::Vkquake,
        Engine::Fte,
        Engine::Ioquake3,
        Engine::Etlegacy,
        Engine::Rtcw,
        Engine::RtcwMp,
    ];

    /// The engines whose IQM loader `Iqm::validate_for` profiles
    /// (`iqm/engine.rs`), in declaration order.
    pub const IQM: [Engine; 7] = [
        Engine::QuakespasmSpiked,
        Engine::Fte,
        Engine::Ioquake3,
        Engine::Gzdoom,
        Engine::Daemon,
        Engine::Darkplaces,
        Engine::Raylib,
    ];

    /// The engine's name as the command line spells it (`quake2`,
    /// `yquake2`, `q2pro`, `kmquake2`, `ufoai`, `winquake`, `glquake`,
    /// `quakespasm`, `quakespasm-spiked`, `ironwail`, `vkquake`, `fte`,
    /// `quake-rerelease`, `hexen2`, `ioquake3`, `etlegacy`, `rtcw`,
    /// `rtcw-mp`, `gzdoom`, `daemon`, `darkplaces`, `raylib`).
    pub fn name(self) -> &'static str {
        match self {
            Engine::Quake2 => "quake2",
            Engine::Yquake2 => "yquake2",
            Engine::Q2pro => "q2pro",
            Engine::Kmquake2 => "kmquake2",
            Engine::UfoAi => "ufoai",
            Engine::Winquake => "winquake",
            Engine::Glquake => "glquake",
            Engine::Quakespasm => "quakespasm",
            Engine::QuakespasmSpiked => "quakespasm-spiked",
            Engine::Ironwail => "ironwail",
            Engine::Vkquake => "vkquake",
            Engine::Fte => "fte",
            Engine::QuakeRerelease => "quake-rerelease",
            Engine::Hexen2 => "hexen2",
            Engine::Ioquake3 => "ioquake3",
            Engine::Etlegacy => "etlegacy",
            Engine::Rtcw => "rtcw",
            Engine::RtcwMp => "rtcw-mp",
            Engine::Gzdoom => "gzdoom",
            Engine::Daemon => "daemon",
            Engine::Darkplaces => "darkplaces",
            Engine::Raylib => "raylib",
        }
    }

    /// The engine named `name` (case-insensitive; `q2` and `id` for
    /// Quake II, `ufo` for UFO:AI, `qs` for QuakeSpasm, `qss` for
    /// QuakeSpasm-Spiked, `fteqw` for FTE, `q1-rerelease` for the Quake
    /// rerelease, `uhexen2` for Hexen II, `ioq3` and `quake3` for
    /// ioquake3, `et` and `et-legacy` for ET: Legacy, `iortcw` and `wolfsp`
    /// for Return to Castle Wolfenstein, `iortcw-mp` and `wolfmp` for its
    /// multiplayer, `uzdoom` for GZDoom, `unvanquished` for the Daemon
    /// engine, `dp` and `xonotic` for DarkPlaces), or `None`.
    pub fn from_name(name: &str) -> Option<Engine> {
        let n = name.to_ascii_lowercase();
        match n.as_str() {
            "quake2" | "q2" | "id" => Some(Engine::Quake2),
            "ufo" => Some(Engine::UfoAi),
            "qs" => Some(Engine::Quakespasm),
            "qss" => Some(Engine::QuakespasmSpiked),
            "fteqw" => Some(Engine::Fte),
            "q1-rerelease" => Some(Engine::QuakeRerelease),
            "uhexen2" => Some(Engine::Hexen2),
            "ioq3" | "quake3" => Some(Engine::Ioquake3),
            "et" | "et-legacy" => Some(Engine::Etlegacy),
            "iortcw" | "wolfsp" => Some(Engine::Rtcw),
            "iortcw-mp" | "wolfmp" => Some(Engine::RtcwMp),
            "uzdoom" => Some(Engine::Gzdoom),
            "unvanquished" => Some(Engine::Daemon),
            "dp" | "xonotic" => Some(Engine::Darkplaces),
            _ => Engine::ALL.into_iter().find(|e| e.name() == n),
        }
    }

    /// The engine's name for messages (`Quake II`, `Q2PRO`, `vkQuake` ...).
    pub fn title(self) -> &'static str {
        match self {
            Engine::Quake2 => "Quake II",
            Engine::Yquake2 => "Yamagi Quake II",
            Engine::Q2pro => "Q2PRO",
            Engine::Kmquake2 => "KMQuake2",
            Engine::UfoAi => "UFO:AI",
            Engine::Winquake => "WinQuake",
            Engine::Glquake => "GLQuake",
            Engine::Quakespasm => "QuakeSpasm",
            Engine::QuakespasmSpiked => "QuakeSpasm-Spiked",
            Engine::Ironwail => "Ironwail",
            Engine::Vkquake => "vkQuake",
            Engine::Fte => "FTE",
            Engine::QuakeRerelease => "the Quake rerelease",
            Engine::Hexen2 => "Hexen II",
            Engine::Ioquake3 => "ioquake3",
            Engine::Etlegacy => "ET: Legacy",
            Engine::Rtcw => "Return to Castle Wolfenstein",
            Engine::RtcwMp => "Return to Castle Wolfenstein multiplayer",
            Engine::Gzdoom => "GZDoom",
            Engine::Daemon => "the Daemon engine (Unvanquished)",
            Engine::Darkplaces => "DarkPlaces",
            Engine::Raylib => "raylib",
        }
    }

    /// The model formats the engine loads, of those retromodel reads (its
    /// sprites, BSP models and other formats aside):
    ///
    /// - the Quake II engines load MD2; Q2PRO also the rerelease's MD5
    ///   beside it (`src/refresh/models.c`, `MOD_LoadMD5`);
    /// - every Quake engine loads MDL; Ironwail and vkQuake also load
    ///   `progs/NAME.md5mesh` in place of `progs/NAME.mdl`
    ///   (`Quake/gl_model.c`: Ironwail's `loadMd5Replacement`, vkQuake's
    ///   `Mod_LoadModel`), and so does the rerelease;
    /// - Ironwail and vkQuake also load `progs/NAME.md3` in place of
    ///   `progs/NAME.mdl` (`Quake/gl_model.c`: Ironwail's
    ///   `loadMd3Replacement`, vkQuake's `Mod_LoadModel`, each into
    ///   `Mod_LoadMD3Model`);
    /// - FTE loads MDL, Hexen II's MDL, MD2, MD5 and MD3
    ///   (`engine/common/com_mesh.c`: `Mod_LoadQ1Model` takes `IDPO` and
    ///   `RAPO`, `Mod_LoadQ2Model`, `Mod_LoadMD5MeshModel`,
    ///   `Mod_LoadQ3Model`);
    /// - ioquake3 loads MD3 (`code/renderergl1/tr_model.c`,
    ///   `R_RegisterModel`, which picks `R_RegisterIQM` for `.iqm`: also
    ///   MDR, not read here), and so does
    ///   ET: Legacy (`src/renderer/tr_model.c`, `RE_RegisterModel`: also
    ///   MDC and MDM, not read here), and so does Return to Castle
    ///   Wolfenstein (iortcw's `SP/` and `MP/code/renderer/tr_model.c`,
    ///   `R_RegisterMD3`: also MDC, MDS and MDR, not read here);
    /// - Hexen II loads both MDL variants (uHexen2's
    ///   `engine/h2shared/gl_model.c`, `Mod_LoadAliasModel` and
    ///   `Mod_LoadAliasModelNew`).
    ///
    /// - GZDoom loads MD2, MD3, OBJ and IQM (`src/common/models/model.cpp`,
    ///   `LoadModel`: a name ending `.obj`, else the magic `IDP2`, `IDP3`
    ///   or `INTERQUAKEMODEL\0`; also DMD, UE1 and voxels, not read here).
    /// - QuakeSpasm-Spiked and FTE also load IQM (QSS `Quake/gl_model.c`,
    ///   `Mod_LoadModel`, on the first four bytes `INTE`, in place of an
    ///   MDL when `r_replacemodels` lists `iqm`; FTE's
    ///   `Mod_LoadInterQuakeModel` in `engine/common/com_mesh.c`).
    /// - The Daemon engine loads MD3, MD5 and IQM
    ///   (`src/engine/renderer/tr_model.cpp`, `RE_RegisterModel`: a name
    ///   containing `.iqm` or `.md5mesh` is read as either by its magic,
    ///   else `NAME.md3` with its LODs).
    /// - DarkPlaces loads MDL, MD2, MD3, OBJ and IQM (`model_shared.c`,
    ///   the `loader` table: `obj` by extension, then `IDPO`, `IDP2`,
    ///   `IDP3`, `INTERQUAKEMODEL\0`; also sprites, BSP, ZYM, DPM and
    ///   PSK, not read here).
    /// - raylib loads OBJ and IQM (`src/rmodels.c`, `LoadModel`, by
    ///   extension; also glTF, VOX and M3D, not listed here).
    ///
    /// QuakeSpasm-Spiked's MD5 loading is not listed: the snapshot of its
    /// source read here (c4893638, 2021-07-10) predates the rerelease.
    pub fn formats(self) -> &'static [EngineFormat] {
        use EngineFormat::*;
        match self {
            Engine::Quake2 | Engine::Yquake2 | Engine::Kmquake2 | Engine::UfoAi => &[Md2],
            Engine::Q2pro => &[Md2, Md5],
            Engine::Winquake | Engine::Glquake | Engine::Quakespasm => &[Mdl],
            Engine::QuakespasmSpiked => &[Mdl, Iqm],
            // Ironwail's `loadMd3Replacement` and vkQuake's `Mod_LoadModel`
            // also load `progs/NAME.md3` in place of `progs/NAME.mdl`.
            Engine::Ironwail | Engine::Vkquake => &[Mdl, Md5, Md3],
            Engine::QuakeRerelease => &[Mdl, Md5],
            Engine::Fte => &[Mdl, Hexen2Mdl, Md2, Md5, Md3, Iqm],
            Engine::Hexen2 => &[Mdl, Hexen2Mdl],
            Engine::Ioquake3 => &[Md3, Iqm],
            Engine::Etlegacy | Engine::Rtcw | Engine::RtcwMp => &[Md3],
            Engine::Gzdoom => &[Md2, Md3, Obj, Iqm],
            Engine::Daemon => &[Md3, Md5, Iqm],
            Engine::Darkplaces => &[Mdl, Md2, Md3, Obj, Iqm],
            Engine::Raylib => &[Obj, Iqm],
        }
    }

    /// Whether the engine loads `format` ([`Engine::formats`]).
    pub fn loads(self, format: EngineFormat) -> bool {
        self.formats().contains(&format)
    }

    /// "vkQuake does not load MD2 files: it loads Quake MDL, MD5 and MD3": the
    /// sentence for a model of a format the engine does not load.
    pub fn does_not_load(self, format: EngineFormat) -> String {
        format!(
            "{} does not load {format} files: it loads {}",
            self.sentence_title(),
            self.formats_list()
        )
    }

    /// The formats the engine loads, for a sentence: "Quake MDL and MD5".
    pub fn formats_list(self) -> String {
        let names: Vec<&str> = self.formats().iter().map(|f| f.title()).collect();
        match names.as_slice() {
            [] => String::new(),
            [one] => (*one).to_string(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        }
    }

    /// [`Engine::title`] at the start of a sentence ("The Quake
    /// rerelease"; "vkQuake" keeps its spelling).
    pub fn sentence_title(self) -> String {
        match self.title().strip_prefix("the ") {
            Some(rest) => format!("The {rest}"),
            None => self.title().to_string(),
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_engine_has_a_name_that_round_trips() {
        for e in Engine::ALL {
            assert_eq!(Engine::from_name(e.name()), Some(e));
            assert_eq!(Engine::from_name(&e.name().to_uppercase()), Some(e));
        }
        assert_eq!(Engine::from_name("qss"), Some(Engine::QuakespasmSpiked));
        assert_eq!(Engine::from_name("doom"), None);
        assert_eq!(Engine::from_name("daemon"), Some(Engine::Daemon));
        assert_eq!(Engine::from_name("darkplaces"), Some(Engine::Darkplaces));
        assert_eq!(Engine::from_name("raylib"), Some(Engine::Raylib));
        assert_eq!(Engine::Daemon.title(), "the Daemon engine (Unvanquished)");
    }

    #[test]
    fn the_profiled_lists_load_their_format() {
        for e in Engine::MD2 {
            assert!(e.loads(EngineFormat::Md2), "{e}");
        }
        for e in Engine::MDL {
            assert!(e.loads(EngineFormat::Mdl), "{e}");
        }
        for e in Engine::MD3 {
            assert!(e.loads(EngineFormat::Md3), "{e}");
        }
        for e in Engine::IQM {
            assert!(e.loads(EngineFormat::Iqm), "{e}");
        }
        // Every engine that loads IQM is in the IQM list.
        for e in Engine::ALL {
            assert_eq!(e.loads(EngineFormat::Iqm), Engine::IQM.contains(&e), "{e}");
        }
        // Every engine is in the MD2 or the MDL list, FTE (which loads
        // both) only in the MDL one, or else in the MD3 one; GZDoom, whose
        // checks are its own (`md2::gzdoom_problems`,
        // `Md3::validate_for_gzdoom`, `obj::gzdoom_problems`), in none;
        // the Daemon engine, DarkPlaces and raylib are profiled for IQM
        // only.
        let iqm_only = [
            Engine::Gzdoom,
            Engine::Daemon,
            Engine::Darkplaces,
            Engine::Raylib,
        ];
        for e in Engine::ALL.into_iter().filter(|e| !iqm_only.contains(e)) {
            let md2_or_mdl = Engine::MD2.contains(&e) as u8 + Engine::MDL.contains(&e) as u8;
            assert!(
                md2_or_mdl == 1 || md2_or_mdl == 0 && Engine::MD3.contains(&e),
                "{e}"
            );
        }
    }

    #[test]
    fn the_refusal_names_the_engine_and_what_it_loads() {
        assert_eq!(
            Engine::Vkquake.does_not_load(EngineFormat::Md2),
            "vkQuake does not load MD2 files: it loads Quake MDL, MD5 and MD3"
        );
        assert_eq!(
            Engine::QuakeRerelease.does_not_load(EngineFormat::Md2),
            "The Quake rerelease does not load MD2 files: it loads Quake MDL and MD5"
        );
    }
}

//! The engines whose MD2 loaders a model is checked against, as a list:
//! their names for the command line and for messages. What each loader
//! accepts (`md2::EngineLimits`) is the MD2 reader's knowledge and stays
//! there; this list sits at the bottom so that advice can name an engine
//! without naming a format.

use std::fmt;

/// An engine whose MD2 loader a model is checked against (and compiled
/// for, by `md2::compile`).
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
}

impl Engine {
    /// Every engine, in declaration order.
    pub const ALL: [Engine; 5] = [
        Engine::Quake2,
        Engine::Yquake2,
        Engine::Q2pro,
        Engine::Kmquake2,
        Engine::UfoAi,
    ];

    /// The engine's name as the command line spells it (`quake2`,
    /// `yquake2`, `q2pro`, `kmquake2`, `ufoai`).
    pub fn name(self) -> &'static str {
        match self {
            Engine::Quake2 => "quake2",
            Engine::Yquake2 => "yquake2",
            Engine::Q2pro => "q2pro",
            Engine::Kmquake2 => "kmquake2",
            Engine::UfoAi => "ufoai",
        }
    }

    /// The engine named `name` (case-insensitive; `q2` and `id` for
    /// Quake II, `ufo` for UFO:AI), or `None`.
    pub fn from_name(name: &str) -> Option<Engine> {
        let n = name.to_ascii_lowercase();
        match n.as_str() {
            "quake2" | "q2" | "id" => Some(Engine::Quake2),
            "ufo" => Some(Engine::UfoAi),
            _ => Engine::ALL.into_iter().find(|e| e.name() == n),
        }
    }

    /// The engine's name for messages (`Quake II`, `Q2PRO` ...).
    pub fn title(self) -> &'static str {
        match self {
            Engine::Quake2 => "Quake II",
            Engine::Yquake2 => "Yamagi Quake II",
            Engine::Q2pro => "Q2PRO",
            Engine::Kmquake2 => "KMQuake2",
            Engine::UfoAi => "UFO:AI",
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

//! Which files beside an MD3 shape its scene, chosen by name from its
//! folder's listing: a player's three parts, its `animation.cfg` and
//! `.skin` files. Names are compared without case, as the game finds
//! files in a pk3.
//!
//! The library reads no files here: a front end lists the folder
//! ([`folder_file_names`], or the files dropped on a page), asks
//! [`Md3FilePlan::choose`] which files to read, then reads them through
//! [`Md3FilePlan::companions`] with its own reader, and words any
//! [`Md3FilesProblem`] in its own terms.

use super::{skin_file_names, Md3Companions, PlayerPart};

/// The three parts of a player, in the order the game joins them.
const PART_FILES: [&str; 3] = ["lower.md3", "upper.md3", "head.md3"];

/// When the model is read as a whole player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WholePlayer {
    /// Never: the model alone, with the cfg's animations for its part.
    Never,
    /// When the model is `lower.md3` (or the folder) and the other two
    /// parts are there (the command line: `upper.md3` alone is its part).
    FromLower,
    /// When the model is any of the three parts (or the folder) and all
    /// three are there.
    FromAnyPart,
}

/// What a front end asks of an MD3's folder.
#[derive(Debug, Clone, Copy)]
pub struct Md3FileRequest<'a> {
    /// The model's file name, or `None` when the input is the folder
    /// itself (a player's folder, read from its `lower.md3`).
    pub model: Option<&'a str>,
    /// The skin set asked for (`red`); `None` takes `default`'s files
    /// when they are there and is no problem when they are not.
    pub skin_set: Option<&'a str>,
    /// When to read the whole player.
    pub whole_player: WholePlayer,
}

/// Why the files asked for are not in the folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Md3FilesProblem {
    /// The input is a folder with no `lower.md3`.
    NoLowerMd3,
    /// None of the skin set's files is there.
    NoSkinFiles {
        /// The set asked for.
        set: String,
        /// The files it would be.
        wanted: Vec<String>,
    },
}

/// The files to read, by their names as listed in the folder.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Md3FilePlan {
    /// The model to read: the file given (one of the parts, for a whole
    /// player), or `lower.md3` as listed for a folder.
    pub model: String,
    /// Which part of a player the model is, by its name.
    pub part: Option<PlayerPart>,
    /// `animation.cfg`, when it is there.
    pub animation_cfg: Option<String>,
    /// `lower.md3`, `upper.md3` and `head.md3`, when read as a whole
    /// player.
    pub player: Option<[String; 3]>,
    /// The player's `.skin` files of the set, in [`skin_file_names`]'
    /// order, those that are there.
    pub player_skins: [Option<String>; 3],
    /// The model's own `.skin` file (`STEM_SET.skin`), when it is there
    /// and the model is not read as a whole player.
    pub skin: Option<String>,
    /// The skin set the `.skin` files are of.
    pub skin_set: String,
}

/// The names of the files in `folder`, the listing [`Md3FilePlan::choose`]
/// takes (none when the folder cannot be listed; names that are not
/// Unicode are read lossily and so match nothing they should not).
///
/// ```no_run
/// let names = retromodel::md3::folder_file_names(std::path::Path::new("models/players/sarge"));
/// ```
pub fn folder_file_names(folder: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .filter(|e| e.path().is_file())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// The name in `listing` equal to `name` without case.
fn listed<'a>(listing: &'a [String], name: &str) -> Option<&'a String> {
    listing.iter().find(|f| f.eq_ignore_ascii_case(name))
}

/// Whether a folder listing holds a player's three parts.
///
/// ```
/// use retromodel::md3::is_player_listing;
/// let names = ["LOWER.MD3", "upper.md3", "head.md3"].map(String::from);
/// assert!(is_player_listing(&names));
/// assert!(!is_player_listing(&names[1..]));
/// ```
pub fn is_player_listing(listing: &[String]) -> bool {
    PART_FILES.iter().all(|n| listed(listing, n).is_some())
}

impl Md3FilePlan {
    /// Chooses the files to read from `listing`, the names of the files
    /// in the model's folder.
    ///
    /// ```
    /// use retromodel::md3::{Md3FilePlan, Md3FileRequest, WholePlayer};
    /// let listing = ["lower.md3", "upper.md3", "head.md3", "Animation.cfg",
    ///     "lower_red.skin", "upper_red.skin", "head_red.skin"].map(String::from);
    /// let plan = Md3FilePlan::choose(
    ///     &listing,
    ///     Md3FileRequest { model: None, skin_set: Some("red"), whole_player: WholePlayer::FromLower },
    /// ).unwrap();
    /// assert_eq!(plan.model, "lower.md3");
    /// assert_eq!(plan.animation_cfg.as_deref(), Some("Animation.cfg"));
    /// assert!(plan.player.is_some() && plan.player_skins.iter().all(Option::is_some));
    /// ```
    pub fn choose(
        listing: &[String],
        request: Md3FileRequest,
    ) -> Result<Md3FilePlan, Md3FilesProblem> {
        let model = match request.model {
            Some(m) => m.to_string(),
            None => listed(listing, "lower.md3")
                .ok_or(Md3FilesProblem::NoLowerMd3)?
                .clone(),
        };
        let set = request.skin_set.unwrap_or("default");
        let mut plan = Md3FilePlan {
            model: model.clone(),
            part: PlayerPart::from_file_name(&model),
            animation_cfg: listed(listing, "animation.cfg").cloned(),
            skin_set: set.to_string(),
            ..Md3FilePlan::default()
        };
        // Only the three parts themselves, not a level of detail such as
        // lower_1.md3.
        let is = |name: &str| model.eq_ignore_ascii_case(name);
        let whole = match request.whole_player {
            WholePlayer::Never => false,
            WholePlayer::FromLower => request.model.is_none() || is("lower.md3"),
            WholePlayer::FromAnyPart => request.model.is_none() || PART_FILES.iter().any(|n| is(n)),
        };
        let parts = PART_FILES.map(|n| listed(listing, n).cloned());
        if let (true, [Some(lower), Some(upper), Some(head)]) = (whole, parts) {
            let wanted = skin_file_names(set);
            plan.player_skins = wanted.clone().map(|n| listed(listing, &n).cloned());
            if request.skin_set.is_some() && plan.player_skins.iter().all(Option::is_none) {
                return Err(Md3FilesProblem::NoSkinFiles {
                    set: set.to_string(),
                    wanted: wanted.to_vec(),
                });
            }
            plan.player = Some([lower, upper, head]);
            return Ok(plan);
        }
        let stem = model.rsplit_once('.').map_or(model.as_str(), |(s, _)| s);
        let skin = format!("{stem}_{set}.skin");
        plan.skin = listed(listing, &skin).cloned();
        if request.skin_set.is_some() && plan.skin.is_none() {
            return Err(Md3FilesProblem::NoSkinFiles {
                set: set.to_string(),
                wanted: vec![skin],
            });
        }
        Ok(plan)
    }

    /// The planned files' bytes, read with `read` (given each file's
    /// name as listed), for the scene. The weapon and shader scripts are
    /// the front end's to add.
    pub fn companions<E>(
        &self,
        mut read: impl FnMut(&str) -> Result<Vec<u8>, E>,
    ) -> Result<Md3Companions, E> {
        let mut read_some = |name: &Option<String>| name.as_deref().map(&mut read).transpose();
        let animation_cfg = read_some(&self.animation_cfg)?;
        let skin = read_some(&self.skin)?;
        let [a, b, c] = &self.player_skins;
        let player_skins = [read_some(a)?, read_some(b)?, read_some(c)?];
        let player = match &self.player {
            Some([l, u, h]) => Some([read(l)?, read(u)?, read(h)?]),
            None => None,
        };
        Ok(Md3Companions {
            animation_cfg,
            skin,
            part: self.part,
            player,
            player_skins,
            ..Md3Companions::default()
        })
    }

    /// The names of the skin files chosen.
    pub fn skin_files(&self) -> Vec<&str> {
        self.player_skins
            .iter()
            .chain([&self.skin])
            .flatten()
            .map(String::as_str)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    fn request<'a>(
        model: Option<&'a str>,
        set: Option<&'a str>,
        whole: WholePlayer,
    ) -> Md3FileRequest<'a> {
        Md3FileRequest {
            model,
            skin_set: set,
            whole_player: whole,
        }
    }

    const PLAYER: &[&str] = &[
        "Lower.md3",
        "UPPER.MD3",
        "head.md3",
        "lower_1.md3",
        "animation.cfg",
        "lower_default.skin",
        "upper_default.skin",
        "head_default.skin",
        "head_blue.skin",
    ];

    #[test]
    fn a_player_folder_is_read_whole_with_its_files_as_listed() {
        let plan = Md3FilePlan::choose(&names(PLAYER), request(None, None, WholePlayer::FromLower))
            .unwrap();
        assert_eq!(plan.model, "Lower.md3");
        assert_eq!(
            plan.player,
            Some(["Lower.md3", "UPPER.MD3", "head.md3"].map(String::from))
        );
        assert_eq!(plan.animation_cfg.as_deref(), Some("animation.cfg"));
        assert_eq!(
            plan.skin_files(),
            [
                "lower_default.skin",
                "upper_default.skin",
                "head_default.skin"
            ]
        );
        assert_eq!(plan.part, Some(PlayerPart::Lower));
    }

    #[test]
    fn which_part_reads_the_whole_player_depends_on_the_request() {
        let listing = names(PLAYER);
        let whole = |model, w| {
            Md3FilePlan::choose(&listing, request(Some(model), None, w))
                .unwrap()
                .player
                .is_some()
        };
        assert!(whole("lower.md3", WholePlayer::FromLower));
        assert!(!whole("upper.md3", WholePlayer::FromLower));
        assert!(whole("UPPER.MD3", WholePlayer::FromAnyPart));
        assert!(!whole("lower.md3", WholePlayer::Never));
        // A level of detail is its own model.
        assert!(!whole("lower_1.md3", WholePlayer::FromAnyPart));
        let alone = Md3FilePlan::choose(
            &listing,
            request(Some("upper.md3"), None, WholePlayer::FromLower),
        )
        .unwrap();
        assert_eq!(alone.model, "upper.md3");
        assert_eq!(alone.skin.as_deref(), Some("upper_default.skin"));
        assert_eq!(alone.part, Some(PlayerPart::Upper));
    }

    #[test]
    fn a_skin_set_asked_for_must_be_there_and_a_default_need_not_be() {
        let listing = names(PLAYER);
        // Only head_blue.skin: the player's set is there in part.
        let blue = Md3FilePlan::choose(
            &listing,
            request(None, Some("blue"), WholePlayer::FromLower),
        )
        .unwrap();
        assert_eq!(blue.skin_files(), ["head_blue.skin"]);
        assert_eq!(
            Md3FilePlan::choose(&listing, request(None, Some("red"), WholePlayer::FromLower)),
            Err(Md3FilesProblem::NoSkinFiles {
                set: "red".into(),
                wanted: skin_file_names("red").to_vec(),
            })
        );
        assert_eq!(
            Md3FilePlan::choose(
                &listing,
                request(Some("upper.md3"), Some("blue"), WholePlayer::Never)
            ),
            Err(Md3FilesProblem::NoSkinFiles {
                set: "blue".into(),
                wanted: vec!["upper_blue.skin".into()],
            })
        );
        let bare = names(&["rocketl.md3"]);
        let plan = Md3FilePlan::choose(
            &bare,
            request(Some("rocketl.md3"), None, WholePlayer::FromAnyPart),
        )
        .unwrap();
        assert_eq!(
            plan,
            Md3FilePlan {
                model: "rocketl.md3".into(),
                skin_set: "default".into(),
                ..Md3FilePlan::default()
            }
        );
        assert_eq!(
            Md3FilePlan::choose(&bare, request(None, None, WholePlayer::FromLower)),
            Err(Md3FilesProblem::NoLowerMd3)
        );
    }

    #[test]
    fn companions_read_every_planned_file_by_its_listed_name() {
        let plan = Md3FilePlan::choose(&names(PLAYER), request(None, None, WholePlayer::FromLower))
            .unwrap();
        let mut asked = Vec::new();
        let c = plan
            .companions(|name| {
                asked.push(name.to_string());
                Ok::<_, ()>(name.as_bytes().to_vec())
            })
            .unwrap();
        assert_eq!(c.animation_cfg.as_deref(), Some(&b"animation.cfg"[..]));
        assert_eq!(
            c.player.as_ref().map(|p| p[1].clone()),
            Some(b"UPPER.MD3".to_vec())
        );
        assert_eq!(
            c.player_skins[2].as_deref(),
            Some(&b"head_default.skin"[..])
        );
        assert_eq!(asked.len(), 7);
        // A read that fails stops the rest.
        let failed = plan.companions(|name| {
            if name == "UPPER.MD3" {
                Err(name.to_string())
            } else {
                Ok(vec![])
            }
        });
        assert_eq!(failed, Err("UPPER.MD3".to_string()));
    }
}

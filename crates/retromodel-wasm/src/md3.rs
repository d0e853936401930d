//! The files beside a dropped Quake III MD3, found among the dropped
//! files as the command line finds them in the model's folder
//! (`retromodel-cli`'s `md3_files.rs`; names compared without case, as
//! in a pk3): a player's other parts (`lower.md3`, `upper.md3`,
//! `head.md3`), its `animation.cfg` and the `.skin` files of a skin set,
//! chosen from the dropped folder's listing by the library's
//! [`Md3FilePlan`].

use retromodel::md3::{is_player_listing, Md3Companions, Md3FilePlan, Md3FileRequest, WholePlayer};
use retromodel::texture::MemorySource;

/// The folder of `path` with its trailing `/` (empty at the top).
fn folder_of(path: &str) -> String {
    match path.replace('\\', "/").rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/"),
        None => String::new(),
    }
}

/// The file name of `path`.
fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// The dropped files directly in `folder` (as [`folder_of`] gives it),
/// by path.
fn in_folder<'a>(files: &'a MemorySource, folder: &'a str) -> impl Iterator<Item = String> + 'a {
    files
        .paths()
        .filter(move |p| p.starts_with(folder) && !p[folder.len()..].contains('/'))
}

/// The names of `paths` (dropped files of one folder), the listing
/// [`Md3FilePlan::choose`] takes.
fn names_of(paths: &[String]) -> Vec<String> {
    paths.iter().map(|p| file_name(p).to_string()).collect()
}

/// Whether the dropped model at `path` is a player's `lower.md3` with
/// `upper.md3` and `head.md3` beside it: the whole player is shown.
///
/// ```
/// # use retromodel::texture::MemorySource;
/// let mut files = MemorySource::new();
/// for n in ["p/Lower.md3", "p/upper.md3", "p/head.md3"] {
///     files.add(n, vec![0]).unwrap();
/// }
/// assert!(retromodel_wasm::md3::is_player(&files, "p/Lower.md3"));
/// assert!(!retromodel_wasm::md3::is_player(&files, "p/upper.md3"));
/// ```
pub fn is_player(files: &MemorySource, path: &str) -> bool {
    file_name(path).eq_ignore_ascii_case("lower.md3")
        && is_player_listing(&names_of(
            &in_folder(files, &folder_of(path)).collect::<Vec<_>>(),
        ))
}

/// The skin sets beside the MD3 at `path`: for a player, the `NAME` of
/// each `lower_NAME.skin`; for one model `STEM.md3`, of each
/// `STEM_NAME.skin`. `default` first, then by name.
///
/// ```
/// # use retromodel::texture::MemorySource;
/// let mut files = MemorySource::new();
/// for n in ["lower.md3", "upper.md3", "head.md3", "lower_red.skin", "lower_default.skin", "head_blue.skin"] {
///     files.add(n, vec![0]).unwrap();
/// }
/// assert_eq!(retromodel_wasm::md3::skin_sets(&files, "lower.md3"), ["default", "red"]);
/// assert_eq!(retromodel_wasm::md3::skin_sets(&files, "head.md3"), ["blue"]);
/// ```
pub fn skin_sets(files: &MemorySource, path: &str) -> Vec<String> {
    let folder = folder_of(path);
    let name = file_name(path);
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    let prefix = format!("{}_", stem.to_ascii_lowercase());
    let mut sets: Vec<String> = in_folder(files, &folder)
        .filter_map(|p| {
            let lower = file_name(&p).to_ascii_lowercase();
            let set = lower.strip_prefix(&prefix)?.strip_suffix(".skin")?;
            (!set.is_empty()).then(|| set.to_string())
        })
        .collect();
    sets.sort_by_key(|s| (s != "default", s.clone()));
    sets.dedup();
    sets
}

/// The companions of the dropped MD3 at `path` with the `.skin` files of
/// `set` (`default` when `None` and there; a set with no files there
/// shows the default's); `None` for a file that is no `.md3`. For a
/// player's `lower.md3` ([`is_player`]) the three parts; for any other
/// MD3 its own `animation.cfg` and `STEM_SET.skin`. The files are chosen
/// as the command line chooses them in a folder ([`Md3FilePlan`]).
pub fn companions(files: &MemorySource, path: &str, set: Option<&str>) -> Option<Md3Companions> {
    let name = file_name(path);
    if !name.to_ascii_lowercase().ends_with(".md3") {
        return None;
    }
    let folder = folder_of(path);
    let paths: Vec<String> = in_folder(files, &folder).collect();
    let names = names_of(&paths);
    let request = |skin_set| Md3FileRequest {
        model: Some(name),
        skin_set,
        whole_player: WholePlayer::FromLower,
    };
    let plan = Md3FilePlan::choose(&names, request(set))
        .or_else(|_| Md3FilePlan::choose(&names, request(None)))
        .ok()?;
    plan.companions(|listed| {
        paths
            .iter()
            .find(|p| file_name(p) == listed)
            .and_then(|p| files.get(p))
            .map(<[u8]>::to_vec)
            .ok_or(())
    })
    .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use retromodel::md3::PlayerPart;

    fn dropped(names: &[&str]) -> MemorySource {
        let mut files = MemorySource::new();
        for (i, n) in names.iter().enumerate() {
            files.add(n, vec![u8::try_from(i).unwrap()]).unwrap();
        }
        files
    }

    #[test]
    fn a_players_lower_md3_takes_the_parts_cfg_and_skins_of_its_folder() {
        let files = dropped(&[
            "players/sarge/LOWER.md3",
            "players/sarge/upper.md3",
            "players/sarge/head.md3",
            "players/sarge/animation.cfg",
            "players/sarge/lower_red.skin",
            "players/sarge/upper_red.skin",
            "players/sarge/head_red.skin",
            "players/sarge/lower_default.skin",
            "players/other/head.md3",
        ]);
        let c = companions(&files, "players/sarge/LOWER.md3", Some("red")).unwrap();
        // Bytes are each file's index in the list above.
        assert_eq!(c.player, Some([vec![0], vec![1], vec![2]]));
        assert_eq!(c.animation_cfg, Some(vec![3]));
        assert_eq!(
            c.player_skins,
            [Some(vec![4]), Some(vec![5]), Some(vec![6])]
        );
        let d = companions(&files, "players/sarge/LOWER.md3", None).unwrap();
        assert_eq!(d.player_skins, [Some(vec![7]), None, None]);
        assert_eq!(
            skin_sets(&files, "players/sarge/LOWER.md3"),
            ["default", "red"]
        );
        // upper.md3 alone is its part, with the cfg and its own skin.
        let u = companions(&files, "players/sarge/upper.md3", Some("red")).unwrap();
        assert_eq!(u.player, None);
        assert_eq!(u.part, Some(PlayerPart::Upper));
        assert_eq!(u.skin, Some(vec![5]));
        assert_eq!(u.animation_cfg, Some(vec![3]));
        // A head.md3 whose folder holds no other part: no player.
        assert!(!is_player(&files, "players/other/head.md3"));
        assert_eq!(
            companions(&files, "players/other/head.md3", None)
                .unwrap()
                .animation_cfg,
            None
        );
        assert!(companions(&files, "players/sarge/animation.cfg", None).is_none());
    }
}

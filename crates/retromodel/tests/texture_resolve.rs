//! Texture lookup: hostile names and symbolic links are refused and never
//! yield bytes from outside the allowed folders; real names from the corpus
//! game trees (UFO:AI `.alientank`, Blob and Conquer's skin in another
//! folder, MilkShape's `.\jeep1.jpg`) resolve to the files that are there.

#![cfg(feature = "textures")]

use std::fs;
use std::path::{Path, PathBuf};

use retromodel::md2::Md2;
use retromodel::texture::{
    decode, Refusal, ResolveError, SkipReason, TextureResolver, TextureSource,
};
use retromodel_testkit::corpus::{corpus_dir, facts, facts_of};

const SECRET: &[u8] = b"TOP-SECRET: this must never come back from a resolver";

/// A temporary tree:
///
/// ```text
/// tmp/secret.pcx                     the secret (outside everything allowed)
/// tmp/outside/secret.pcx             the secret again
/// tmp/game/                          a search root
/// tmp/game/models/monster/           the model's folder
/// ```
struct Tree {
    tmp: tempfile::TempDir,
}

impl Tree {
    fn new() -> Tree {
        let tmp = tempfile::tempdir().unwrap();
        let t = Tree { tmp };
        t.write("secret.pcx", SECRET);
        t.write("outside/secret.pcx", SECRET);
        fs::create_dir_all(t.model_dir()).unwrap();
        t
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.tmp.path().join(rel)
    }

    fn root(&self) -> PathBuf {
        self.path("game")
    }

    fn model_dir(&self) -> PathBuf {
        self.path("game/models/monster")
    }

    fn write(&self, rel: &str, bytes: &[u8]) -> PathBuf {
        let path = self.path(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, bytes).unwrap();
        path
    }

    fn resolver(&self) -> TextureResolver {
        TextureResolver::new(self.model_dir())
    }

    fn with_root(&self) -> TextureResolver {
        self.resolver().with_root(self.root())
    }
}

/// Resolves `name` and checks that whatever comes back does not hold the
/// secret.
fn resolve(resolver: &TextureResolver, name: &str) -> Result<PathBuf, ResolveError> {
    match resolver.resolve(name) {
        Ok(found) => {
            assert!(
                !found.bytes.windows(SECRET.len()).any(|w| w == SECRET),
                "{name:?} returned the secret from {}",
                found.path.display()
            );
            assert_eq!(found.bytes, fs::read(&found.path).unwrap());
            Ok(found.path)
        }
        Err(e) => Err(e),
    }
}

fn refusal(result: Result<PathBuf, ResolveError>) -> Refusal {
    match result {
        Err(ResolveError::Refused { reason, .. }) => reason,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

fn real(path: &Path) -> PathBuf {
    fs::canonicalize(path).unwrap()
}

#[test]
fn hostile_names_are_refused_before_the_file_system_is_touched() {
    let t = Tree::new();
    // `tmp/secret.pcx` exists, so a resolver that merely joined paths would
    // find it through each of these.
    let r = t.with_root();
    let cases = [
        ("../../../../etc/passwd", Refusal::ParentComponent),
        ("../../../secret.pcx", Refusal::ParentComponent),
        ("..\\..\\..\\secret.pcx", Refusal::ParentComponent),
        ("..\\..\\secret.pcx", Refusal::ParentComponent),
        ("textures/../../../../secret.pcx", Refusal::ParentComponent),
        ("/etc/passwd", Refusal::Absolute),
        ("\\etc\\passwd", Refusal::Absolute),
        ("\\\\server\\share\\x.pcx", Refusal::Absolute),
        ("C:\\Windows\\x.pcx", Refusal::DrivePrefix),
        ("c:/Windows/x.pcx", Refusal::DrivePrefix),
        (
            "x.pcx\0/../../secret.pcx",
            Refusal::ForbiddenCharacter('\0'),
        ),
    ];
    for (name, want) in cases {
        assert_eq!(refusal(resolve(&r, name)), want, "{name:?}");
    }
    // The absolute path of a file that *is* inside the model folder is
    // refused too: names are always relative.
    let inside = t.write("game/models/monster/skin.pcx", b"skin");
    let name = inside.to_str().unwrap();
    assert_eq!(refusal(resolve(&r, name)), Refusal::Absolute);
    // And the error says so in words.
    let err = r.resolve("../../../secret.pcx").unwrap_err();
    assert_eq!(
        err.to_string(),
        "texture \"../../../secret.pcx\" refused: it has a `..` component"
    );
}

#[cfg(unix)]
#[test]
fn symlinks_out_of_the_allowed_folders_are_refused() {
    use std::os::unix::fs::symlink;
    let t = Tree::new();
    let secret = t.path("outside/secret.pcx");
    // A file link, a folder link, a link to a link, a link by relative path.
    symlink(&secret, t.model_dir().join("skin.pcx")).unwrap();
    symlink(t.path("outside"), t.model_dir().join("textures")).unwrap();
    symlink(
        t.model_dir().join("skin.pcx"),
        t.model_dir().join("chain.pcx"),
    )
    .unwrap();
    symlink("../../../secret.pcx", t.model_dir().join("relative.pcx")).unwrap();
    let r = t.resolver();
    for name in [
        "skin.pcx",
        "SKIN.PCX",
        "skin",
        "textures/secret.pcx",
        "Textures\\Secret.pcx",
        "chain.pcx",
        "relative.pcx",
        "players/monster/skin.pcx",
    ] {
        let err = resolve(&r, name).unwrap_err();
        let ResolveError::Refused {
            reason: Refusal::OutsideAllowedFolders,
            skipped,
            ..
        } = &err
        else {
            panic!("{name:?}: expected a refusal, got {err:?}");
        };
        assert!(
            skipped.iter().all(|s| matches!(
                &s.reason,
                SkipReason::OutsideAllowedFolders { real_path } if *real_path == real(&secret)
                    || *real_path == real(&t.path("secret.pcx"))
            )),
            "{name:?}: {skipped:?}"
        );
        assert!(err.to_string().contains("refused"), "{err}");
    }

    // The same links inside a search root: refused there too, also when
    // found by the search below the root.
    symlink(&secret, t.root().join("deep.pcx")).unwrap();
    fs::create_dir_all(t.root().join("textures/game")).unwrap();
    symlink(&secret, t.root().join("textures/game/hidden.pcx")).unwrap();
    let r = t.with_root();
    assert_eq!(
        refusal(resolve(&r, "deep.pcx")),
        Refusal::OutsideAllowedFolders
    );
    assert_eq!(
        refusal(resolve(&r, "hidden.pcx")),
        Refusal::OutsideAllowedFolders
    );
    assert_eq!(
        refusal(resolve(&r, "hidden")),
        Refusal::OutsideAllowedFolders
    );

    // Once the user names the outside folder as a search root, it is
    // allowed: files in it, and links into it.
    let r = t.resolver().with_root(t.path("outside"));
    assert_eq!(r.resolve("secret.pcx").unwrap().path, real(&secret));
    assert_eq!(r.resolve("skin.pcx").unwrap().path, real(&secret));
}

#[cfg(unix)]
#[test]
fn a_refused_link_does_not_hide_a_good_file_elsewhere() {
    use std::os::unix::fs::symlink;
    let t = Tree::new();
    symlink(t.path("outside/secret.pcx"), t.model_dir().join("skin.pcx")).unwrap();
    let good = t.write("game/players/monster/skin.pcx", b"the real skin");
    let found = t.with_root().resolve("players/monster/skin.pcx").unwrap();
    assert_eq!(found.path, real(&good));
    assert_eq!(found.bytes, b"the real skin");
    // The full path is tried before its suffix `skin.pcx` (which would
    // meet the link), so nothing was passed over.
    assert!(found.skipped.is_empty(), "{:?}", found.skipped);
    // With a name whose first match is the link, the link is passed over
    // (once, although the search below the root meets it again) and
    // reported.
    let found = t.with_root().resolve("skin.pcx").unwrap();
    assert_eq!(found.path, real(&good));
    assert_eq!(found.skipped.len(), 1);
    assert!(found.skipped[0]
        .to_string()
        .contains("outside the allowed folders"));
}

#[cfg(unix)]
#[test]
fn links_that_stay_inside_are_followed() {
    use std::os::unix::fs::symlink;
    let t = Tree::new();
    let target = t.write("game/models/monster/skins/base.pcx", b"base");
    symlink("skins/base.pcx", t.model_dir().join("alias.pcx")).unwrap();
    let found = t.resolver().resolve("alias.pcx").unwrap();
    assert_eq!(found.path, real(&target));
    // A model folder reached through a link.
    symlink(t.model_dir(), t.path("link_to_model")).unwrap();
    let found = TextureResolver::new(t.path("link_to_model"))
        .resolve("alias.pcx")
        .unwrap();
    assert_eq!(found.path, real(&target));
}

#[cfg(unix)]
#[test]
fn pipes_and_folders_are_not_opened() {
    let t = Tree::new();
    fs::create_dir_all(t.model_dir().join("folder.pcx")).unwrap();
    let err = resolve(&t.resolver(), "folder.pcx").unwrap_err();
    let ResolveError::NotFound { skipped, .. } = err else {
        panic!("{err:?}")
    };
    assert_eq!(skipped[0].reason, SkipReason::NotAFile);

    // A FIFO would block a reader forever.
    let fifo = t.model_dir().join("pipe.pcx");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let err = resolve(&t.resolver(), "pipe.pcx").unwrap_err();
        let ResolveError::NotFound { skipped, .. } = err else {
            panic!("{err:?}")
        };
        assert_eq!(skipped[0].reason, SkipReason::NotAFile);
    } else {
        eprintln!("note: mkfifo unavailable; FIFO case skipped");
    }
}

#[test]
fn files_over_the_size_limit_are_skipped() {
    let t = Tree::new();
    t.write("game/models/monster/big.pcx", &[7; 100]);
    let r = t.resolver().with_max_file_size(99);
    let err = resolve(&r, "big.pcx").unwrap_err();
    let ResolveError::NotFound { skipped, .. } = err else {
        panic!("{err:?}")
    };
    assert_eq!(
        skipped[0].reason,
        SkipReason::TooLarge {
            size: 100,
            limit: 99
        }
    );
    assert!(t
        .resolver()
        .with_max_file_size(100)
        .resolve("big.pcx")
        .is_ok());
}

#[test]
fn game_tree_paths_suffixes_separators_and_case() {
    let t = Tree::new();
    let grunt = t.write("game/players/male/grunt.pcx", b"grunt");
    let skin = t.write("game/models/monster/Textures/SKIN.TGA", b"skin");
    let beside = t.write("game/models/monster/Monster.PNG", b"beside");

    // Relative to the root.
    let r = t.with_root();
    assert_eq!(resolve(&r, "players/male/grunt.pcx").unwrap(), real(&grunt));
    // Windows separators and a different case.
    assert_eq!(
        resolve(&r, "Players\\MALE\\Grunt.PCX").unwrap(),
        real(&grunt)
    );
    assert_eq!(resolve(&r, "textures\\skin.tga").unwrap(), real(&skin));
    assert_eq!(resolve(&r, ".\\textures/./Skin.tga").unwrap(), real(&skin));
    // A shorter suffix: relative to the model folder, the path is
    // `textures/skin.tga` below `models/monster`.
    assert_eq!(
        resolve(&r, "models/monster/textures/skin.tga").unwrap(),
        real(&skin)
    );
    assert_eq!(
        resolve(&t.resolver(), "baseq2/models/monster/textures/skin.tga").unwrap(),
        real(&skin)
    );
    // Without the root, the game path is found by its shortest suffix only
    // if the file is beside the model: grunt.pcx is not.
    let err = resolve(&t.resolver(), "players/male/grunt.pcx").unwrap_err();
    let ResolveError::NotFound { tried, .. } = &err else {
        panic!("{err:?}")
    };
    assert!(tried.contains(&t.model_dir().join("players/male/grunt.pcx")));
    assert!(tried.contains(&t.model_dir().join("grunt.pcx")));
    // Another image extension for the same name.
    assert_eq!(resolve(&r, "textures/skin.pcx").unwrap(), real(&skin));
    // Beside the model, named like it.
    let found = r.resolve_beside_model("monster.md2").unwrap();
    assert_eq!(found.path, real(&beside));
    assert!(matches!(
        r.resolve_beside_model("other.md2"),
        Err(ResolveError::NotFound { .. })
    ));
    // Through the trait, as an exporter sees it.
    let source: &dyn TextureSource = &r;
    assert_eq!(
        source.load("players/male/grunt.pcx").unwrap().bytes,
        b"grunt"
    );
    assert_eq!(
        source.load_beside_model("monster.md2").unwrap().bytes,
        b"beside"
    );
}

#[test]
fn extension_less_names_try_the_image_extensions_in_order() {
    let t = Tree::new();
    let tga = t.write("game/models/monster/skin.tga", b"tga");
    assert_eq!(resolve(&t.resolver(), "skin").unwrap(), real(&tga));
    assert_eq!(resolve(&t.resolver(), ".skin").unwrap(), real(&tga));
    // PCX comes before TGA.
    let pcx = t.write("game/models/monster/skin.pcx", b"pcx");
    assert_eq!(resolve(&t.resolver(), "skin").unwrap(), real(&pcx));
    // A name that names no file.
    assert_eq!(refusal(resolve(&t.resolver(), ".\\")), Refusal::NoFileName);
    assert_eq!(refusal(resolve(&t.resolver(), "")), Refusal::NoFileName);
}

#[test]
fn the_root_search_prefers_matching_folders_then_the_shallowest() {
    let t = Tree::new();
    t.write("game/zz/deep/a/skin.png", b"deep");
    let shallow = t.write("game/textures/skin.png", b"shallow");
    let wanted = t.write("game/zz/deep/monster/skin.png", b"monster");
    let r = t.with_root();
    // No folder in the name: the shallowest wins.
    assert_eq!(resolve(&r, "skin.png").unwrap(), real(&shallow));
    // A folder in the name that only the deeper one has.
    assert_eq!(
        resolve(&r, "players/monster/skin.png").unwrap(),
        real(&wanted)
    );
}

// ---------------------------------------------------------------------------
// The corpus game trees.
// ---------------------------------------------------------------------------

/// The first skin name of an MD2, read with the crate's parser and checked
/// against the independent facts.json.
fn md2_skin(corpus: &Path, key: &str) -> String {
    let bytes = fs::read(corpus.join(key)).unwrap();
    let model = Md2::from_bytes(&bytes).unwrap();
    let name = model.skins[0].to_string_lossy();
    let facts = facts(corpus);
    let entry = facts_of(&facts, key);
    assert_eq!(
        entry["skin_names"][0].as_str(),
        Some(name.as_str()),
        "{key}"
    );
    name
}

#[test]
fn corpus_ufoai_dot_names_resolve_to_the_png_beside_the_model() {
    let Some(corpus) = corpus_dir() else {
        return;
    };
    for (key, png) in [
        (
            "gametrees/ufoai/models/aliens/alientank/alientank.md2",
            "alientank.png",
        ),
        (
            "gametrees/ufoai/models/objects/vegi/fern/fern.md2",
            "fern.png",
        ),
    ] {
        let name = md2_skin(&corpus, key);
        assert!(name.starts_with('.') && !name[1..].contains('.'), "{name}");
        let model_path = corpus.join(key);
        let r = TextureResolver::for_model_file(&model_path);
        let found = r.resolve(&name).unwrap_or_else(|e| panic!("{key}: {e}"));
        let want = model_path.with_file_name(png);
        assert_eq!(found.path, real(&want));
        assert_eq!(found.bytes, fs::read(&want).unwrap());
        assert!(found.skipped.is_empty());
        decode(&found.bytes).unwrap();
        // Case differences in the name do not matter.
        let upper = r.resolve(&name.to_uppercase()).unwrap();
        assert_eq!(upper.path, found.path);
    }
    // The animation list beside alientank is no image: not matched for a
    // name without extension.
    let r = TextureResolver::new(corpus.join("gametrees/ufoai/models/aliens/alientank"));
    assert!(!r
        .resolve(".alientank")
        .unwrap()
        .path
        .ends_with("alientank.anm"));
}

#[test]
fn corpus_blobandconquer_skin_is_found_only_with_the_game_root() {
    let Some(corpus) = corpus_dir() else {
        return;
    };
    let key = "gametrees/blobandconquer/gfx/md2/spiderBlob.md2";
    let name = md2_skin(&corpus, key);
    assert_eq!(name, "shotgunSpiderBlob.png");
    let model_path = corpus.join(key);

    let alone = TextureResolver::for_model_file(&model_path);
    let err = alone.resolve(&name).unwrap_err();
    assert!(matches!(err, ResolveError::NotFound { .. }), "{err:?}");

    let with_root = alone.with_root(corpus.join("gametrees/blobandconquer"));
    let found = with_root.resolve(&name).unwrap();
    let want = corpus.join("gametrees/blobandconquer/textures/game/shotgunSpiderBlob.png");
    assert_eq!(found.path, real(&want));
    assert_eq!(found.bytes, fs::read(&want).unwrap());
    let img = decode(&found.bytes).unwrap();
    assert_eq!((img.width(), img.height()), (1, 1));
}

#[test]
fn corpus_ms3d_material_textures() {
    let Some(corpus) = corpus_dir() else {
        return;
    };
    let facts = facts(&corpus);
    let texture = |key: &str, i: usize| -> String {
        let name = facts_of(&facts, key)["textures"][i]
            .as_str()
            .unwrap()
            .to_owned();
        // facts.json (an independent reader) agrees with the file's bytes:
        // the name is stored NUL-terminated in the 128-byte texture field.
        let bytes = fs::read(corpus.join(key)).unwrap();
        let mut stored = name.as_bytes().to_vec();
        stored.push(0);
        assert!(
            name.is_empty() || bytes.windows(stored.len()).any(|w| w == stored),
            "{key}: {name:?} not in the file"
        );
        name
    };

    // jeep1: `.\jeep1.jpg` (a dot, a backslash: MilkShape on Windows).
    let name = texture("ms3d/assimpdeb_jeep1.ms3d", 0);
    assert_eq!(name, ".\\jeep1.jpg");
    let r = TextureResolver::for_model_file(&corpus.join("ms3d/assimpdeb_jeep1.ms3d"));
    let found = r.resolve(&name).unwrap();
    assert_eq!(found.path, real(&corpus.join("ms3d/jeep1.jpg")));
    let img = decode(&found.bytes).unwrap();
    assert_eq!((img.width(), img.height()), (512, 512));

    // Names whose files the corpus does not have.
    let name = texture("ms3d/mm3d_from_nehe_Model.ms3d", 0);
    assert_eq!(name, ".\\data\\Wood.bmp");
    let err = r.resolve(&name).unwrap_err();
    let ResolveError::NotFound { tried, skipped, .. } = &err else {
        panic!("{err:?}")
    };
    assert!(skipped.is_empty());
    assert_eq!(
        tried,
        &[
            corpus.join("ms3d/data/Wood.bmp"),
            corpus.join("ms3d/Wood.bmp")
        ]
    );
    // `.\`: a folder, no file.
    let name = texture("ms3d/mm3d_from_nehe_Model.ms3d", 1);
    assert_eq!(refusal(resolve(&r, &name)), Refusal::NoFileName);
    let name = texture("ms3d/glscene_Chair.ms3d", 0);
    assert!(matches!(
        r.resolve(&name),
        Err(ResolveError::NotFound { .. })
    ));
}

#[test]
fn corpus_quake_style_path_without_its_tree_is_not_found() {
    let Some(corpus) = corpus_dir() else {
        return;
    };
    let key = "md2/glscene_weaponWaste.md2";
    let name = md2_skin(&corpus, key);
    assert_eq!(name, "players/waste/weapon.pcx");
    let r = TextureResolver::for_model_file(&corpus.join(key));
    let err = r.resolve(&name).unwrap_err();
    let ResolveError::NotFound { tried, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(tried.len(), 3);
    assert_eq!(tried[2], corpus.join("md2/weapon.pcx"));
}

#[test]
fn a_long_name_against_a_large_folder_ends_quickly() {
    // 300 components (the longest name accepted is 1024 bytes) in a
    // folder of 2000 files: each suffix needs a case-insensitive lookup in
    // the folder's listing, which is read once.
    let t = Tree::new();
    for i in 0..2000 {
        t.write(&format!("game/models/monster/f{i}.png"), b"");
    }
    let name = "A/".repeat(300) + "missing.png";
    let start = std::time::Instant::now();
    let err = t.with_root().resolve(&name).unwrap_err();
    let elapsed = start.elapsed();
    let ResolveError::NotFound { tried, .. } = err else {
        panic!("{err:?}")
    };
    assert_eq!(tried.len(), 301 * 2);
    // Generous, for slow CI machines; it takes milliseconds here.
    assert!(elapsed.as_secs() < 20, "{elapsed:?}");
    // Longer than 1024 bytes: refused.
    let name = "a/".repeat(600) + "x.png";
    assert_eq!(refusal(resolve(&t.resolver(), &name)), Refusal::TooLong);
}

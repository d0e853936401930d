//! Whether the tests that compare with three.js can run here.

use std::path::Path;

/// Whether node can run three.js here: `node` on the path and
/// `acceptance/node_modules/three` (installed by `npm ci`) below the
/// repository's `root`. Under `CI` both must be there: it panics
/// rather than let the comparison be skipped.
///
/// ```
/// let here = std::path::Path::new("/nonexistent");
/// if std::env::var_os("CI").is_none() {
///     assert!(!retromodel_testkit::node::node_with_three(here));
/// }
/// ```
pub fn node_with_three(root: &Path) -> bool {
    let node = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let three = root.join("acceptance/node_modules/three").is_dir();
    if !(node && three) && std::env::var_os("CI").is_some() {
        panic!("under CI, node and acceptance/node_modules (npm ci) are needed");
    }
    node && three
}

//! The camera: where it is, where it looks, and how a view angle and a
//! bounding box give one that frames the model.

use glam::{DMat4, DVec3};

use super::bounds::Bounds;
use crate::error::{Error, Result};

/// The default vertical field of view, in degrees.
pub const DEFAULT_FOV_Y: f32 = 30.0;

/// The part of the image's height (and width) the framed bounding box may
/// fill at most: the rest is margin.
pub const FILL: f64 = 0.9;

/// A perspective camera, as OpenGL, WebGL and three.js define one: the eye
/// at [`Camera::eye`] looks at [`Camera::target`], with [`Camera::up`] as
/// close to the image's up as it can be (`gluLookAt`, `Mat4::look_at_rh`,
/// three.js `camera.up.copy(up); camera.lookAt(target)`), and the
/// projection is `gluPerspective` (`Mat4::perspective_rh_gl`, three.js
/// `PerspectiveCamera(fov_y_degrees, width / height, near, far)`): clip
/// space `z` from `-w` at `near` to `w` at `far`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    /// Where the camera is, in scene space.
    pub eye: [f32; 3],
    /// The point it looks at (the centre of the image).
    pub target: [f32; 3],
    /// The scene direction that is up in the image (made perpendicular to
    /// the view direction by the look-at construction).
    pub up: [f32; 3],
    /// Vertical field of view, in degrees; the horizontal one follows from
    /// the image's aspect ratio.
    pub fov_y_degrees: f32,
    /// Distance to the near clipping plane (positive).
    pub near: f32,
    /// Distance to the far clipping plane (greater than `near`).
    pub far: f32,
}

/// A direction to look at the model from, as two angles in degrees.
///
/// The camera sits on the unit vector
/// `(sin yaw · cos pitch, sin pitch, cos yaw · cos pitch)` from the
/// target: yaw 0 is in front of the model (on +Z, which models face),
/// yaw 90 on the model's left (+X), yaw 180 behind it; pitch 90 is
/// straight above. The image's right is the horizontal direction
/// `(cos yaw, 0, −sin yaw)` and its up is perpendicular to that and to the
/// view direction, so a view from straight above has the model's front
/// (+Z) at the bottom of the image.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewAngle {
    /// Degrees about +Y, counter-clockwise seen from above, from the front.
    pub yaw: f32,
    /// Degrees above the horizontal (negative: from below).
    pub pitch: f32,
}

/// The named views of the command line's `--view`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum View {
    /// From the front (yaw 0, pitch 0): the model faces the viewer.
    Front,
    /// From behind (yaw 180, pitch 0).
    Back,
    /// From the model's left (yaw 90, pitch 0): its front is on the left
    /// of the image.
    Left,
    /// From the model's right (yaw −90, pitch 0): its front is on the right.
    Right,
    /// From straight above (pitch 90), the front at the bottom.
    Top,
    /// From the front-left and above (yaw 35, pitch 20): the default.
    ThreeQuarter,
}

impl View {
    /// Every view, in the order of the command line's list.
    pub const ALL: [View; 6] = [
        View::Front,
        View::Back,
        View::Left,
        View::Right,
        View::Top,
        View::ThreeQuarter,
    ];

    /// The view's angles.
    pub fn angle(self) -> ViewAngle {
        let (yaw, pitch) = match self {
            View::Front => (0.0, 0.0),
            View::Back => (180.0, 0.0),
            View::Left => (90.0, 0.0),
            View::Right => (-90.0, 0.0),
            View::Top => (0.0, 90.0),
            View::ThreeQuarter => (35.0, 20.0),
        };
        ViewAngle { yaw, pitch }
    }

    /// The command line's name (`three-quarter`, ...).
    pub fn name(self) -> &'static str {
        match self {
            View::Front => "front",
            View::Back => "back",
            View::Left => "left",
            View::Right => "right",
            View::Top => "top",
            View::ThreeQuarter => "three-quarter",
        }
    }

    /// The view called `name` ([`View::name`]), if any.
    pub fn from_name(name: &str) -> Option<View> {
        View::ALL.into_iter().find(|v| v.name() == name)
    }
}

impl ViewAngle {
    /// The unit vectors of the view: from the target towards the eye, the
    /// image's right, and the image's up (in `f64`).
    pub(crate) fn basis(self) -> (DVec3, DVec3, DVec3) {
        let (yaw, pitch) = (
            f64::from(self.yaw).to_radians(),
            f64::from(self.pitch).to_radians(),
        );
        let back = DVec3::new(
            yaw.sin() * pitch.cos(),
            pitch.sin(),
            yaw.cos() * pitch.cos(),
        );
        let right = DVec3::new(yaw.cos(), 0.0, -yaw.sin());
        // up = right × forward, forward = −back.
        let up = right.cross(-back);
        (back, right, up)
    }
}

impl Camera {
    /// The camera looking at `bounds` from `angle` that fits the whole box
    /// in an image of aspect ratio `aspect` (width / height), with a
    /// vertical field of view of `fov_y_degrees`.
    ///
    /// The target is the centre of the box; the eye is on the view
    /// direction at the smallest distance from which all eight corners
    /// project inside [`FILL`] of the image's half-width and half-height
    /// (so the box fills 90 % of the image in its tighter direction); near
    /// and far enclose the box with room to spare. An empty box (a single
    /// point) is treated as a box of size 1 around it.
    ///
    /// Fails when the box, the angle or the field of view is not finite,
    /// or the field of view is not between 1 and 170 degrees.
    pub fn framing(
        bounds: &Bounds,
        angle: ViewAngle,
        aspect: f32,
        fov_y_degrees: f32,
    ) -> Result<Camera> {
        let invalid = |message: String| Error::InvalidOptions { message };
        if !(fov_y_degrees.is_finite() && (1.0..=170.0).contains(&fov_y_degrees)) {
            return Err(invalid(format!(
                "field of view {fov_y_degrees}: must be between 1 and 170 degrees"
            )));
        }
        if !(angle.yaw.is_finite() && angle.pitch.is_finite()) {
            return Err(invalid("view angles must be finite numbers".to_string()));
        }
        if !(aspect.is_finite() && aspect > 0.0) {
            return Err(invalid(format!("aspect ratio {aspect}: must be positive")));
        }
        let (min, max) = (
            DVec3::from(bounds.min.map(f64::from)),
            DVec3::from(bounds.max.map(f64::from)),
        );
        let mut half = (max - min) * 0.5;
        let centre = min + half;
        if !(centre.is_finite() && half.is_finite()) {
            return Err(invalid(
                "the model's bounding box is not finite: nothing to frame".to_string(),
            ));
        }
        if half.max_element() <= 0.0 {
            half = DVec3::splat(0.5);
        }
        let (back, right, up) = angle.basis();
        let ty = (f64::from(fov_y_degrees).to_radians() * 0.5).tan() * FILL;
        let tx = ty * f64::from(aspect);
        let mut distance: f64 = 0.0;
        let mut nearest: f64 = f64::INFINITY;
        let mut farthest: f64 = 0.0;
        for k in 0..8 {
            let corner = DVec3::new(
                if k & 1 == 0 { -half.x } else { half.x },
                if k & 2 == 0 { -half.y } else { half.y },
                if k & 4 == 0 { -half.z } else { half.z },
            );
            let (x, y, z) = (corner.dot(right), corner.dot(up), corner.dot(back));
            distance = distance.max(z + x.abs() / tx).max(z + y.abs() / ty);
            nearest = nearest.min(z);
            farthest = farthest.max(-z);
        }
        let radius = half.length();
        let near = ((distance - nearest.max(-radius)) * 0.5).max(distance * 1e-3);
        let far = (distance + farthest.max(0.0)) * 2.0 + radius;
        let eye = centre + back * distance;
        let camera = Camera {
            eye: eye.as_vec3().to_array(),
            target: centre.as_vec3().to_array(),
            up: up.as_vec3().to_array(),
            fov_y_degrees,
            near: near as f32,
            far: far as f32,
        };
        if !(camera.eye.iter().all(|v| v.is_finite())
            && camera.near.is_finite()
            && camera.far.is_finite()
            && camera.near > 0.0
            && camera.far > camera.near)
        {
            return Err(invalid(
                "the model is too large to frame in single precision".to_string(),
            ));
        }
        Ok(camera)
    }

    /// The view matrix (scene space to camera space: the camera at the
    /// origin looking down −Z, +Y up), in `f64`.
    pub(crate) fn view_matrix(&self) -> DMat4 {
        let v = |a: [f32; 3]| DVec3::from(a.map(f64::from));
        DMat4::look_at_rh(v(self.eye), v(self.target), v(self.up))
    }

    /// The projection matrix for an image of aspect ratio `aspect`, in
    /// `f64`.
    pub(crate) fn projection_matrix(&self, aspect: f64) -> DMat4 {
        DMat4::perspective_rh_gl(
            f64::from(self.fov_y_degrees).to_radians(),
            aspect,
            f64::from(self.near),
            f64::from(self.far),
        )
    }

    /// The view matrix in `f32`, column-major (what a GPU renderer would
    /// upload).
    pub fn view_matrix_f32(&self) -> [f32; 16] {
        self.view_matrix().as_mat4().to_cols_array()
    }

    /// Whether the camera can be used: finite, the eye away from the
    /// target, `up` not along the view direction, `0 < near < far`, a
    /// field of view between 1 and 170 degrees.
    pub fn check(&self) -> Result<()> {
        let finite = self
            .eye
            .iter()
            .chain(&self.target)
            .chain(&self.up)
            .chain([&self.near, &self.far, &self.fov_y_degrees])
            .all(|v| v.is_finite());
        // In f64: squared lengths of far-away cameras overflow f32.
        let v = |a: [f32; 3]| DVec3::from(a.map(f64::from));
        let forward = v(self.target) - v(self.eye);
        let ok = finite
            && forward.length() > 0.0
            && forward.cross(v(self.up)).length() > 1e-6 * forward.length() * v(self.up).length()
            && self.near > 0.0
            && self.far > self.near
            && (1.0..=170.0).contains(&self.fov_y_degrees);
        if ok {
            Ok(())
        } else {
            Err(Error::InvalidOptions {
                message: format!("unusable camera: {self:?}"),
            })
        }
    }

    /// The camera as a JSON object (`eye`, `target`, `up`, `fov_y_degrees`,
    /// `near`, `far`, and `projection: "perspective"`), what the PNG text
    /// chunk and `--verbose` give so that another renderer can reproduce
    /// the image.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "projection": "perspective",
            "eye": self.eye,
            "target": self.target,
            "up": self.up,
            "fov_y_degrees": self.fov_y_degrees,
            "near": self.near,
            "far": self.far,
        })
    }
}

/// A direction given in camera space (x right, y up, z towards the
/// viewer) in scene space, for `camera`.
pub(crate) fn camera_to_scene(camera: &Camera, v: [f64; 3]) -> [f64; 3] {
    let inverse = camera.view_matrix().inverse();
    inverse
        .transform_vector3(DVec3::from(v))
        .normalize_or_zero()
        .to_array()
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn unit_box() -> Bounds {
        Bounds {
            min: [-1.0, -1.0, -1.0],
            max: [1.0, 1.0, 1.0],
        }
    }

    #[test]
    fn named_views_put_the_eye_where_their_names_say() {
        let b = unit_box();
        let eye = |v: View| {
            let c = Camera::framing(&b, v.angle(), 1.0, DEFAULT_FOV_Y).unwrap();
            Vec3::from(c.eye).normalize()
        };
        let near = |a: Vec3, b: Vec3| (a - b).length() < 1e-5;
        assert!(near(eye(View::Front), Vec3::Z));
        assert!(near(eye(View::Back), -Vec3::Z));
        assert!(near(eye(View::Left), Vec3::X));
        assert!(near(eye(View::Right), -Vec3::X));
        assert!(near(eye(View::Top), Vec3::Y));
        for v in View::ALL {
            assert_eq!(View::from_name(v.name()), Some(v));
        }
    }

    #[test]
    fn the_framed_box_fills_ninety_percent_of_the_tighter_side() {
        // A cube seen from the front: the nearest face (z = 1) is what
        // reaches the edge: half-size 1 at distance d − 1 fills FILL.
        let c = Camera::framing(&unit_box(), View::Front.angle(), 1.0, 30.0).unwrap();
        let d = f64::from(c.eye[2]);
        let t = (15f64).to_radians().tan() * FILL;
        assert!((1.0 / (d - 1.0) - t).abs() < 1e-6, "distance {d}");
        assert!(c.near > 0.0 && f64::from(c.near) < d - 1.0 && f64::from(c.far) > d + 1.0);
        assert_eq!(c.up, [0.0, 1.0, 0.0]);
    }

    #[test]
    fn bad_inputs_are_errors() {
        let b = unit_box();
        assert!(Camera::framing(&b, View::Front.angle(), 1.0, 0.0).is_err());
        assert!(Camera::framing(&b, View::Front.angle(), 1.0, f32::NAN).is_err());
        let nan = ViewAngle {
            yaw: f32::NAN,
            pitch: 0.0,
        };
        assert!(Camera::framing(&b, nan, 1.0, 30.0).is_err());
        let huge = Bounds {
            min: [-f32::MAX; 3],
            max: [f32::MAX; 3],
        };
        assert!(Camera::framing(&huge, View::Front.angle(), 1.0, 30.0).is_err());
    }
}

//! Which source joint drives which TR bone: a user's map (YAML, `source joint: TR bone`) or the
//! built-in one, which knows Mixamo's joint names (`mixamorig:Hips`, `LeftUpLeg`, ...) and the
//! common humanoid ones (VRM's `leftUpperLeg`, Blender's `thigh.L`, Unreal's `thigh_l`, ...).
//!
//! Names are matched exactly first, then loosely: the part after the last `:` (a Mixamo or FBX
//! namespace), lowercase, letters and digits only, so `mixamorig:Left_Up_Leg`, `LeftUpLeg` and
//! `leftupleg` are one name.

use std::collections::BTreeMap;
use std::path::Path;

/// The TR bones of Lara's skeleton (as the manifest names them) and the loose names of the
/// source joints that may drive each, the likeliest first.
const BUILT_IN: [(&str, &[&str]); 15] = [
    ("HIPS", &["hips", "pelvis", "hip", "bip01pelvis"]),
    (
        "LEFT_THIGH",
        &[
            "leftupleg",
            "leftupperleg",
            "leftthigh",
            "thighl",
            "upperlegl",
            "lthigh",
        ],
    ),
    (
        "LEFT_SHIN",
        &[
            "leftleg",
            "leftlowerleg",
            "leftshin",
            "leftcalf",
            "shinl",
            "calfl",
            "lowerlegl",
        ],
    ),
    ("LEFT_FOOT", &["leftfoot", "footl", "leftankle", "lfoot"]),
    (
        "RIGHT_THIGH",
        &[
            "rightupleg",
            "rightupperleg",
            "rightthigh",
            "thighr",
            "upperlegr",
            "rthigh",
        ],
    ),
    (
        "RIGHT_SHIN",
        &[
            "rightleg",
            "rightlowerleg",
            "rightshin",
            "rightcalf",
            "shinr",
            "calfr",
            "lowerlegr",
        ],
    ),
    ("RIGHT_FOOT", &["rightfoot", "footr", "rightankle", "rfoot"]),
    // The torso mesh is mostly chest: the chest's turn shows it best, the lower spine's else.
    (
        "TORSO",
        &[
            "spine2",
            "chest",
            "spine03",
            "upperchest",
            "spine1",
            "spine02",
            "spine",
            "spine01",
        ],
    ),
    (
        "RIGHT_UPPER_ARM",
        &["rightarm", "rightupperarm", "upperarmr", "rupperarm"],
    ),
    (
        "RIGHT_FOREARM",
        &[
            "rightforearm",
            "rightlowerarm",
            "forearmr",
            "lowerarmr",
            "rforearm",
        ],
    ),
    ("RIGHT_HAND", &["righthand", "handr", "rhand"]),
    (
        "LEFT_UPPER_ARM",
        &["leftarm", "leftupperarm", "upperarml", "lupperarm"],
    ),
    (
        "LEFT_FOREARM",
        &["leftforearm", "leftlowerarm", "forearml", "lowerarml", "lforearm"],
    ),
    ("LEFT_HAND", &["lefthand", "handl", "lhand"]),
    ("HEAD", &["head", "neck"]),
];

/// A map from source joints to TR bones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoneMap {
    /// The built-in names (see the module documentation).
    BuiltIn,
    /// The user's pairs (source joint, TR bone), as the file lists them.
    Given(Vec<(String, String)>),
}

impl BoneMap {
    /// The map in the YAML file at `path`: a mapping of source joint names to TR bone names.
    pub fn read(path: &Path) -> Result<BoneMap, String> {
        let text = wadforge_files::input::read_to_string(path)
            .map_err(|e| format!("cannot read the map {}: {e}", path.display()))?;
        Self::parse(path, &text)
    }

    /// The map of the YAML `text` (read from `path`, which errors name).
    pub fn parse(path: &Path, text: &str) -> Result<BoneMap, String> {
        let pairs: BTreeMap<String, String> =
            wadforge_manifests::load::parse_yaml(path, text).map_err(|e| {
                format!("{e}; a map is YAML lines `source joint: TR bone` (mixamorig:Hips: HIPS)")
            })?;
        Ok(BoneMap::Given(pairs.into_iter().collect()))
    }

    /// The source joint (an index of `joints`) driving each TR bone of `bones`, `None` for a bone
    /// left at rest; and what the user may want to know (names of the map that match nothing).
    /// An error when the map names a bone the target does not have, or two joints for one bone.
    pub fn resolve(
        &self,
        joints: &[String],
        bones: &[String],
    ) -> Result<(Vec<Option<usize>>, Vec<String>), String> {
        match self {
            BoneMap::BuiltIn => Ok((built_in(joints, bones), Vec::new())),
            BoneMap::Given(pairs) => given(pairs, joints, bones),
        }
    }
}

/// The built-in map: each bone the table knows, by its likeliest joint that the source has.
fn built_in(joints: &[String], bones: &[String]) -> Vec<Option<usize>> {
    let loose: Vec<String> = joints.iter().map(|j| loose(j)).collect();
    bones
        .iter()
        .map(|bone| {
            let (_, candidates) = BUILT_IN.iter().find(|(b, _)| b.eq_ignore_ascii_case(bone))?;
            candidates.iter().find_map(|c| loose.iter().position(|j| j == c))
        })
        .collect()
}

/// The user's map: each pair's joint found exactly or loosely, its bone by name (any case).
fn given(
    pairs: &[(String, String)],
    joints: &[String],
    bones: &[String],
) -> Result<(Vec<Option<usize>>, Vec<String>), String> {
    let mut driven: Vec<Option<usize>> = vec![None; bones.len()];
    let mut notes = Vec::new();
    for (joint, bone) in pairs {
        let b = bones.iter().position(|n| n.eq_ignore_ascii_case(bone.trim())).ok_or_else(|| {
            format!(
                "the map sends {joint} to {bone}, which is no bone of the target (its bones: {}); name one of them",
                bones.join(", ")
            )
        })?;
        let Some(j) = find_joint(joints, joint) else {
            notes.push(format!(
                "the map names {joint}, which is no joint of the source: {bone} stays at rest"
            ));
            continue;
        };
        if let Some(other) = driven[b].filter(|&o| o != j) {
            return Err(format!(
                "the map sends both {} and {joint} to {bone}; a bone follows one joint: remove one line",
                joints[other]
            ));
        }
        driven[b] = Some(j);
    }
    Ok((driven, notes))
}

/// The joint of `joints` named `name`: exactly, else loosely.
fn find_joint(joints: &[String], name: &str) -> Option<usize> {
    joints
        .iter()
        .position(|j| j == name)
        .or_else(|| joints.iter().position(|j| loose(j) == loose(name)))
}

/// A name without its namespace (up to the last `:`), lowercase, letters and digits only.
fn loose(name: &str) -> String {
    let bare = name.rsplit(':').next().unwrap_or(name);
    let bare = bare.strip_prefix("mixamorig").unwrap_or(bare);
    bare.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn lara() -> Vec<String> {
        names(&BUILT_IN.map(|(b, _)| b))
    }

    #[test]
    fn mixamo_names_drive_laras_bones_and_the_rest_stay_at_rest() {
        let joints = names(&[
            "mixamorig:Hips",
            "mixamorig:Spine",
            "mixamorig:Spine1",
            "mixamorig:LeftUpLeg",
            "mixamorig:LeftLeg",
        ]);
        let (driven, _) = BoneMap::BuiltIn.resolve(&joints, &lara()).unwrap();
        assert_eq!(driven[0], Some(0), "HIPS");
        assert_eq!(driven[1], Some(3), "LEFT_THIGH");
        assert_eq!(driven[2], Some(4), "LEFT_SHIN");
        assert_eq!(driven[7], Some(2), "TORSO takes Spine1 over Spine");
        assert_eq!(driven[3], None, "no foot in the source");
        assert_eq!(driven[14], None, "no head in the source");
    }

    #[test]
    fn blender_and_unreal_names_are_known_loosely() {
        let joints = names(&["pelvis", "thigh.L", "calf_r", "upper_arm.R"]);
        let (driven, _) = BoneMap::BuiltIn.resolve(&joints, &lara()).unwrap();
        assert_eq!(
            (driven[0], driven[1], driven[5], driven[8]),
            (Some(0), Some(1), Some(2), Some(3))
        );
    }

    #[test]
    fn a_given_map_matches_joints_loosely_and_refuses_unknown_bones_and_doubles() {
        let path = Path::new("map.yaml");
        let joints = names(&["mixamorig:Hips", "Bone.001"]);
        let map = BoneMap::parse(path, "Hips: HIPS\nBone.001: left_thigh\nGone: HEAD\n").unwrap();
        let (driven, notes) = map.resolve(&joints, &lara()).unwrap();
        assert_eq!((driven[0], driven[1], driven[14]), (Some(0), Some(1), None));
        assert!(notes[0].contains("Gone"), "{notes:?}");
        let wrong = BoneMap::parse(path, "Hips: PELVIS\n").unwrap();
        assert!(wrong
            .resolve(&joints, &lara())
            .unwrap_err()
            .contains("no bone of the target"));
        let double = BoneMap::parse(path, "Hips: HIPS\nBone.001: HIPS\n").unwrap();
        assert!(double.resolve(&joints, &lara()).unwrap_err().contains("both"));
        assert!(BoneMap::parse(path, "[1, 2]")
            .unwrap_err()
            .contains("source joint: TR bone"));
    }
}

//! A Blender action's wadforge properties: what an animation has beyond its poses (state, speeds,
//! next animation, state changes), set on the action as custom properties. Blender's glTF
//! exporter writes an action's custom properties as its animation's `extras`; build reads them
//! there, so a new action needs no manifest entry (docs/making-new-things.md).
//!
//! `wadforge_state_changes` is one line: state changes separated by `;`, each a state (its id or
//! its catalogue name), `:`, and dispatches separated by `,`, each `FROM-TO > ANIMATION` with an
//! optional `@FRAME`: `2: 0-10 > 003_RUN@4, 10-20 > 004_WALK; STOP: 0-30 > 000_STAND`. Frames
//! are this animation's (from 0, `TO` not included), `FRAME` the target's (from 0; 0 when left
//! out), as the manifest's `state_changes` count them.
//!
//! `wadforge_sounds` is the action's timeline markers as the extension writes them at export:
//! sounds separated by `;`, each a sound (its id or its catalogue name) `@` the frame it plays at,
//! from the action's first frame: `LARA_FEET@12; LARA_FEET@25`. When the action has it, those are
//! the animation's sound commands (none when it is empty); without it, the manifest's stay.

use serde_json::Value;
use wadforge_format::catalog::{sound_id, state_name, Game};
use wadforge_manifests::{AnimationName, DispatchManifest, StateChangeManifest, StateRef};

/// The properties, as the extension's panel names them.
pub(crate) const STATE: &str = "wadforge_state";
pub(crate) const FRAME_DURATION: &str = "wadforge_frame_duration";
pub(crate) const SPEED: &str = "wadforge_speed";
pub(crate) const ACCELERATION: &str = "wadforge_acceleration";
pub(crate) const LATERAL_SPEED: &str = "wadforge_lateral_speed";
pub(crate) const LATERAL_ACCELERATION: &str = "wadforge_lateral_acceleration";
pub(crate) const NEXT: &str = "wadforge_next";
pub(crate) const NEXT_FRAME: &str = "wadforge_next_frame";
pub(crate) const STATE_CHANGES: &str = "wadforge_state_changes";
pub(crate) const SOUNDS: &str = "wadforge_sounds";

/// Largest sound id a sound command holds (bits 14 and 15 of its word are the land/water flags).
const MAX_SOUND_ID: u16 = 0x3FFF;

/// State ids searched for a state given by name (the catalogues' largest is below 200).
const STATE_IDS: u16 = 1024;

/// The wadforge properties an action sets; those it leaves out are `None` (empty).
#[derive(Debug, Default, PartialEq)]
pub(crate) struct ActionProperties {
    pub state: Option<StateRef>,
    pub frame_duration: Option<u8>,
    pub speed: Option<f64>,
    pub acceleration: Option<f64>,
    pub lateral_speed: Option<f64>,
    pub lateral_acceleration: Option<f64>,
    pub next: Option<String>,
    pub next_frame: Option<i32>,
    pub state_changes: Vec<StateChangeManifest>,
    /// The sounds the action's markers play, when it has the property (`None`: the manifest's).
    pub sounds: Option<Vec<SoundMarker>>,
}

/// A sound an action's marker plays: its id, at a frame from the animation's first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SoundMarker {
    pub id: u16,
    pub frame: i32,
}

impl ActionProperties {
    /// Whether the action sets any of them.
    pub(crate) fn any(&self) -> bool {
        *self != ActionProperties::default()
    }
}

/// Which game and moveable name states by name.
#[derive(Debug, Clone, Copy)]
pub(crate) struct States {
    pub game: Game,
    pub moveable: u32,
}

impl States {
    /// A state by id (a number, or a numeral) or by its catalogue name.
    fn state(&self, text: &str) -> Result<StateRef, String> {
        let text = text.trim();
        let id = match text.parse::<u16>() {
            Ok(id) => id,
            Err(_) => (0..STATE_IDS)
                .find(|&s| state_name(self.game, self.moveable, s).is_some_and(|n| n.eq_ignore_ascii_case(text)))
                .ok_or_else(|| {
                    format!("`{text}` is neither a state id (0 to 65535) nor a state name this object's catalogue knows")
                })?,
        };
        Ok(StateRef {
            id,
            name: state_name(self.game, self.moveable, id).map(str::to_string),
        })
    }
}

/// The wadforge properties of an action's `extras`; an error names the action and the property,
/// and says what it takes.
pub(crate) fn read(
    action: &str,
    extras: &serde_json::Map<String, Value>,
    states: States,
) -> Result<ActionProperties, String> {
    let fail = |property: &str, message: String| format!("action `{action}`, property {property}: {message}");
    let number = |property: &str| -> Result<Option<f64>, String> {
        match extras.get(property) {
            None => Ok(None),
            Some(Value::Number(n)) => Ok(n.as_f64()),
            Some(other) => Err(fail(
                property,
                format!("{other} is not a number; give a number, e.g. 0 or 12.5"),
            )),
        }
    };
    let integer = |property: &str, low: i64, high: i64| -> Result<Option<i64>, String> {
        match extras.get(property) {
            None => Ok(None),
            Some(Value::Number(n)) if n.as_i64().is_some_and(|v| (low..=high).contains(&v)) => Ok(n.as_i64()),
            Some(other) => Err(fail(
                property,
                format!("{other} is not a whole number from {low} to {high}"),
            )),
        }
    };
    let text = |property: &str| -> Result<Option<&str>, String> {
        match extras.get(property) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(other) => Err(fail(property, format!("{other} is not text"))),
        }
    };
    let state = match extras.get(STATE) {
        None => None,
        Some(Value::Number(n)) => Some(states.state(&n.to_string()).map_err(|e| fail(STATE, e))?),
        Some(Value::String(s)) => Some(states.state(s).map_err(|e| fail(STATE, e))?),
        Some(other) => {
            return Err(fail(
                STATE,
                format!("{other} is neither a state id nor a state name"),
            ))
        }
    };
    let state_changes = match text(STATE_CHANGES)? {
        None => Vec::new(),
        Some(line) => parse_state_changes(line, states).map_err(|e| fail(STATE_CHANGES, e))?,
    };
    let sounds = match text(SOUNDS)? {
        None => None,
        Some(line) => Some(parse_sounds(line, states.game).map_err(|e| fail(SOUNDS, e))?),
    };
    Ok(ActionProperties {
        state,
        frame_duration: integer(FRAME_DURATION, 1, 255)?.map(|v| v as u8),
        speed: number(SPEED)?,
        acceleration: number(ACCELERATION)?,
        lateral_speed: number(LATERAL_SPEED)?,
        lateral_acceleration: number(LATERAL_ACCELERATION)?,
        next: text(NEXT)?
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_string),
        next_frame: integer(NEXT_FRAME, 0, i64::from(u16::MAX))?.map(|v| v as i32),
        state_changes,
        sounds,
    })
}

/// `wadforge_sounds`'s line: each marker `SOUND@FRAME`, in the order given.
pub(crate) fn parse_sounds(line: &str, game: Game) -> Result<Vec<SoundMarker>, String> {
    let mut markers = Vec::new();
    for part in line.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        let at = |e: String| {
            format!(
                "marker `{part}`: {e}; write markers as `SOUND@FRAME; ...`, e.g. `LARA_FEET@12; 5@25` \
                 (the extension writes them from the action's markers at export: rename or move the marker)"
            )
        };
        let (sound, frame) = part
            .rsplit_once('@')
            .ok_or_else(|| at("no `@` before the frame".into()))?;
        let frame = frame.trim().parse::<u16>().map_err(|_| {
            at(format!(
                "`{}` is not a frame (0 to 65535) from the action's first",
                frame.trim()
            ))
        })?;
        markers.push(SoundMarker {
            id: sound_of(sound.trim(), game).map_err(at)?,
            frame: i32::from(frame),
        });
    }
    Ok(markers)
}

/// A sound by id, or by catalogue name (a Blender duplicate's `.001` left off).
fn sound_of(text: &str, game: Game) -> Result<u16, String> {
    let id = match text.parse::<u32>() {
        Ok(id) => id,
        Err(_) => {
            let upper = text.to_ascii_uppercase();
            let stem = match upper.rsplit_once('.') {
                Some((stem, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => stem,
                _ => upper.as_str(),
            };
            sound_id(game, &upper).or_else(|| sound_id(game, stem)).ok_or_else(|| {
                format!(
                    "`{text}` is neither a sound id nor a sound name {}'s catalogue knows (sounds.yaml of the \
                     import lists them)",
                    game.name()
                )
            })?
        }
    };
    u16::try_from(id)
        .ok()
        .filter(|&id| id <= MAX_SOUND_ID)
        .ok_or_else(|| format!("sound {id} is past the largest id a sound command holds, {MAX_SOUND_ID}"))
}

/// The example every state-change error ends with.
const EXAMPLE: &str = "write state changes as `STATE: FROM-TO > ANIMATION@FRAME, ...; STATE: ...`, e.g. \
                       `2: 0-10 > 003_RUN@4; 5: 0-30 > 000_STAND`";

/// `wadforge_state_changes`'s line; dispatches of a state named twice go to one state change.
pub(crate) fn parse_state_changes(line: &str, states: States) -> Result<Vec<StateChangeManifest>, String> {
    let mut changes: Vec<StateChangeManifest> = Vec::new();
    for (i, part) in line.split(';').enumerate() {
        if part.trim().is_empty() {
            continue;
        }
        let at = |e: String| format!("state change {} (`{}`): {e}; {EXAMPLE}", i + 1, part.trim());
        let (state, dispatches) = part
            .split_once(':')
            .ok_or_else(|| at("no `:` after the state".into()))?;
        let state = states.state(state).map_err(at)?;
        let dispatches: Vec<DispatchManifest> = dispatches
            .split(',')
            .map(|d| dispatch(d).map_err(at))
            .collect::<Result<_, _>>()?;
        match changes.iter_mut().find(|c| c.state.id == state.id) {
            Some(change) => change.dispatches.extend(dispatches),
            None => changes.push(StateChangeManifest { state, dispatches }),
        }
    }
    Ok(changes)
}

/// One `FROM-TO > ANIMATION@FRAME`.
fn dispatch(text: &str) -> Result<DispatchManifest, String> {
    let (range, target) = text
        .split_once('>')
        .ok_or_else(|| format!("`{}` has no `>` before the animation", text.trim()))?;
    let (from, to) = range
        .split_once('-')
        .ok_or_else(|| format!("`{}` is not a frame range FROM-TO", range.trim()))?;
    let frame = |f: &str| {
        f.trim()
            .parse::<u16>()
            .map(i32::from)
            .map_err(|_| format!("`{}` is not a frame (0 to 65535)", f.trim()))
    };
    let (from, to) = (frame(from)?, frame(to)?);
    if from > to {
        return Err(format!("the range {from}-{to} ends before it starts"));
    }
    let (animation, at) = match target.split_once('@') {
        Some((animation, at)) => (animation.trim(), frame(at)?),
        None => (target.trim(), 0),
    };
    if animation.is_empty() {
        return Err("no animation after `>`".into());
    }
    Ok(DispatchManifest {
        frames: [from, to],
        animation: AnimationName::Name(animation.to_string()),
        frame: at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LARA: States = States {
        game: Game::Tr1,
        moveable: 0,
    };

    fn extras(json: &str) -> serde_json::Map<String, Value> {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn state_changes_name_states_by_id_or_catalogue_name_and_merge_a_state_named_twice() {
        let stop = state_name(Game::Tr1, 0, 2).expect("TR1 Lara's state 2 has a name");
        let line = format!("2: 0-10 > 003_RUN@4, 10-20 > 004_WALK; 7: 1-2 > A ; {stop}: 20-30>B");
        let changes = parse_state_changes(&line, LARA).unwrap();
        assert_eq!(changes.len(), 2);
        assert_eq!(changes[0].state.id, 2);
        let targets: Vec<_> = changes[0]
            .dispatches
            .iter()
            .map(|d| (d.frames, d.animation.clone(), d.frame))
            .collect();
        assert_eq!(
            targets,
            vec![
                ([0, 10], AnimationName::Name("003_RUN".into()), 4),
                ([10, 20], AnimationName::Name("004_WALK".into()), 0),
                ([20, 30], AnimationName::Name("B".into()), 0),
            ]
        );
        assert_eq!(
            (changes[1].state.id, changes[1].dispatches[0].frames),
            (7, [1, 2])
        );
    }

    #[test]
    fn a_malformed_state_change_names_the_part_and_shows_the_syntax() {
        for (line, says) in [
            ("2 0-10 > A", "no `:`"),
            ("2: 0-10 A", "no `>`"),
            ("2: 10-0 > A", "ends before it starts"),
            ("2: x-3 > A", "`x` is not a frame"),
            ("NO_SUCH_STATE: 0-1 > A", "neither a state id"),
            ("2: 0-1 > ", "no animation"),
        ] {
            let e = parse_state_changes(line, LARA).unwrap_err();
            assert!(
                e.contains(says) && e.contains("state change 1") && e.contains("e.g."),
                "{line}: {e}"
            );
        }
    }

    #[test]
    fn sound_markers_name_sounds_by_id_or_catalogue_name_at_their_frames() {
        let name = wadforge_format::catalog::sound_name(Game::Tr1, 71).expect("TR1's sound 71 has a name");
        let line = format!("{name}@12; 5@ 25 ;{}.001@3;", name.to_ascii_lowercase());
        let markers = parse_sounds(&line, Game::Tr1).unwrap();
        let got: Vec<_> = markers.iter().map(|m| (m.id, m.frame)).collect();
        assert_eq!(got, vec![(71, 12), (5, 25), (71, 3)]);
        assert_eq!(parse_sounds(" ", Game::Tr1).unwrap(), vec![]);
        let p = read("WALK", &extras(r#"{"wadforge_sounds": ""}"#), LARA).unwrap();
        assert_eq!(p.sounds, Some(vec![]), "an empty property: no sounds");
        assert_eq!(read("WALK", &extras("{}"), LARA).unwrap().sounds, None);
    }

    #[test]
    fn a_malformed_sound_marker_names_the_action_and_the_marker() {
        for (line, says) in [
            ("NO_SUCH_SOUND@3", "neither a sound id"),
            ("5", "no `@`"),
            ("5@x", "`x` is not a frame"),
            ("5@-1", "`-1` is not a frame"),
            ("20000@1", "past the largest id"),
        ] {
            let json = serde_json::json!({ SOUNDS: line }).to_string();
            let e = read("WALK", &extras(&json), LARA).unwrap_err();
            assert!(
                e.starts_with(&format!("action `WALK`, property {SOUNDS}: marker `{line}`"))
                    && e.contains(says),
                "{line}: {e}"
            );
        }
    }

    #[test]
    fn properties_are_read_with_their_types_and_errors_name_action_and_property() {
        let p = read(
            "NEW",
            &extras(
                r#"{"wadforge_state": 12, "wadforge_speed": 2.5, "wadforge_next": "001_X",
                    "wadforge_next_frame": 3, "wadforge_frame_duration": 2, "wadforge_gltf_name": "y"}"#,
            ),
            LARA,
        )
        .unwrap();
        assert_eq!(p.state.as_ref().map(|s| s.id), Some(12));
        assert_eq!(
            (p.speed, p.acceleration, p.frame_duration),
            (Some(2.5), None, Some(2))
        );
        assert_eq!((p.next.as_deref(), p.next_frame), (Some("001_X"), Some(3)));
        assert!(p.any());
        assert!(!read("NEW", &extras("{}"), LARA).unwrap().any());
        for (json, property) in [
            (r#"{"wadforge_speed": "fast"}"#, SPEED),
            (r#"{"wadforge_frame_duration": 0}"#, FRAME_DURATION),
            (r#"{"wadforge_state": [1]}"#, STATE),
            (r#"{"wadforge_state_changes": "oops"}"#, STATE_CHANGES),
        ] {
            let e = read("NEW", &extras(json), LARA).unwrap_err();
            assert!(
                e.starts_with(&format!("action `NEW`, property {property}:")),
                "{e}"
            );
        }
    }
}

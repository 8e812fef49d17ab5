//! `check` per engine: a Wad2 is judged as a file Tomb Editor compiles for the engine it names,
//! a WAD or a level as the engine reads it (docs/check-rules.md, "Per engine").

use wadforge_edit::check::{check, Container, Finding, Severity};
use wadforge_edit::references::canonical_starts;
use wadforge_format::catalog::Game;
use wadforge_format::{Shading, Wad};

/// The standard fixture's CROCODILE.
const CROCODILE: u32 = 51;

/// The severities of `rule`'s findings.
fn severities(findings: &[Finding], rule: &str) -> Vec<Severity> {
    findings
        .iter()
        .filter(|f| f.rule == rule)
        .map(|f| f.severity)
        .collect()
}

fn judged(wad: &Wad, game: Game, container: Container) -> Vec<Finding> {
    check(wad, game, &canonical_starts(&wad.moveables), container, 0)
}

/// The standard fixture with CROCODILE's first animation going on to an animation the file does
/// not have, its first dispatch (taken: its range lies within the animation) too, and every normal
/// at half TR's length.
fn broken() -> Wad {
    let mut wad = wadforge_fixtures::standard();
    let croc = wad.moveables.iter_mut().find(|m| m.id == CROCODILE).unwrap();
    let count = croc.animations.len() as i32;
    let first = &mut croc.animations[0];
    first.next_animation = count + 10_000;
    let (start, end) = (first.frame_start, first.frame_end);
    let dispatch = (first.state_changes.iter_mut())
        .flat_map(|s| &mut s.dispatches)
        .next()
        .expect("CROCODILE's first animation has a dispatch");
    (dispatch.frame_start, dispatch.frame_end) = (start, end);
    dispatch.next_animation = count + 10_000;
    for mesh in &mut wad.meshes {
        if let Shading::Normals(normals) = &mut mesh.shading {
            normals.iter_mut().for_each(|n| *n = n.map(|c| c / 2));
        }
    }
    wad
}

#[test]
fn references_tomb_editors_compiler_repairs_are_warnings_in_a_wad2_and_errors_elsewhere() {
    let wad = broken();
    for (container, severity) in [
        (Container::Level, Severity::Error),
        (Container::Wad2, Severity::Warning),
    ] {
        let findings = judged(&wad, Game::Tr4, container);
        assert_eq!(
            severities(&findings, "next-animation"),
            [severity],
            "{container:?}"
        );
        assert_eq!(
            severities(&findings, "dispatch-target"),
            [severity],
            "{container:?}"
        );
        let wad2 = matches!(container, Container::Wad2);
        let compiler = findings
            .iter()
            .filter(|f| f.rule == "next-animation" || f.rule == "dispatch-target")
            .all(|f| f.message.contains("Tomb Editor's compiler") == wad2);
        assert!(compiler, "{findings:#?}");
    }
}

#[test]
fn normals_off_length_warn_in_a_level_and_are_a_note_in_a_wad2() {
    let wad = broken();
    let level = severities(&judged(&wad, Game::Tr4, Container::Level), "normal-length");
    let wad2 = severities(&judged(&wad, Game::Tr4, Container::Wad2), "normal-length");
    assert!(!level.is_empty() && level.len() == wad2.len());
    assert!(level.iter().all(|&s| s == Severity::Warning), "{level:?}");
    assert!(wad2.iter().all(|&s| s == Severity::Note), "{wad2:?}");
}

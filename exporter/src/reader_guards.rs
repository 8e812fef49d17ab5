//! What the glTF reader (the `gltf` crate) would panic on, misread or wait on, refused before it
//! reads: its validation lets these through, and its readers unwrap or assert them, or read any
//! file a URI names. Most were found by the `glb` fuzz target; the image size checks are in
//! `image_bounds`.

use std::path::Path;

use wadforge_files::input;
use wadforge_format::Limits;
use wadforge_manifests::gltf_contract::{TR_NORMAL, TR_SHADE};

/// Refuses what the glTF reader would panic on or wait on when it reads the glTF's images and
/// buffers (it unwraps them; validation lets them through): an image in a buffer view without a
/// `mimeType`, an image with neither view nor URI; and a file URI that is not a file beside the
/// glTF (`base`): an absolute path, a scheme, `..` above it, %-escapes that are not UTF-8, or
/// something other than a regular file (a pipe would hang the reader, `/dev/zero` fill memory).
/// Embedded `data:` URIs are read as they are. (`image_bounds::check` refuses a view past its
/// buffer.)
pub(crate) fn files_fit(doc: &gltf::Document, base: &Path) -> Result<(), String> {
    for (index, image) in doc.as_json().images.iter().enumerate() {
        match (&image.buffer_view, &image.mime_type, &image.uri) {
            (Some(_), None, _) => {
                return Err(format!(
                    "image {index} is in a buffer view but has no mimeType; export it again from Blender"
                ))
            }
            (None, _, None) => {
                return Err(format!(
                    "image {index} has neither a buffer view nor a uri; export it again from Blender"
                ))
            }
            _ => {}
        }
    }
    let buffers = doc.buffers().filter_map(|b| match b.source() {
        gltf::buffer::Source::Uri(uri) => Some(("buffer", b.index(), uri)),
        gltf::buffer::Source::Bin => None,
    });
    let images = doc.images().filter_map(|i| match i.source() {
        gltf::image::Source::Uri { uri, .. } => Some(("image", i.index(), uri)),
        gltf::image::Source::View { .. } => None,
    });
    for (kind, index, uri) in buffers.chain(images) {
        if uri.starts_with("data:") {
            continue;
        }
        let refuse = |why: &str| Err(format!("{kind} {index}'s file `{uri}` {why}"));
        let Some(name) = percent_decoded(uri) else {
            return refuse("has %-escapes that are not UTF-8; name the file again");
        };
        if uri.contains(':') || input::relative_inside(Path::new(&name)).is_none() {
            return refuse(
                "is not a file beside the glTF; keep the glTF's files in its folder (Blender's \
                 glTF Separate export does)",
            );
        }
        match input::regular(&base.join(&name)) {
            Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
                return refuse(&format!("cannot be read: {e}"));
            }
            _ => {} // a missing file is reported by the glTF reader
        }
    }
    Ok(())
}

/// Refuses animation channels the glTF reader would panic on or misread (it unwraps the target
/// path and node and assumes the accessors' shapes; its validation lets all three through): times
/// must be float scalars, translations and scales float 3-vectors, rotations 4-vectors, weights
/// scalars, and the node must exist.
pub(crate) fn animations_fit(root: &gltf::json::Root) -> Result<(), String> {
    use gltf::json::accessor::{ComponentType, Type};
    use gltf::json::animation::Property as Path;
    use gltf::json::validation::Checked::Valid;
    let shape = |index: usize| accessor_shape(root, index);
    for (a, animation) in root.animations.iter().enumerate() {
        for (c, channel) in animation.channels.iter().enumerate() {
            let sampler = animation.samplers.get(channel.sampler.value());
            let times = sampler.and_then(|s| shape(s.input.value()));
            let values = sampler.and_then(|s| shape(s.output.value()));
            let fits = match (&channel.target.path, times, values) {
                (Valid(path), Some((Type::Scalar, ComponentType::F32)), Some((t, c))) => match path {
                    Path::Translation | Path::Scale => t == Type::Vec3 && c == ComponentType::F32,
                    Path::Rotation => t == Type::Vec4 && c != ComponentType::U32,
                    Path::MorphTargetWeights => t == Type::Scalar && c != ComponentType::U32,
                },
                _ => false,
            };
            if !fits {
                return Err(format!(
                    "animation {a}, channel {c}: its target path or its accessors' shapes are not \
                     ones glTF allows that path; export it again from Blender"
                ));
            }
            let node = channel.target.node.value();
            if node >= root.nodes.len() {
                return Err(format!(
                    "animation {a}, channel {c}: its target is node {node}, which does not exist \
                     ({} nodes); export it again from Blender",
                    root.nodes.len()
                ));
            }
        }
    }
    Ok(())
}

/// Refuses primitives whose POSITION names no accessor: the glTF reader's validation indexes
/// the accessors with it unchecked (and panics).
pub(crate) fn positions_exist(root: &gltf::json::Root) -> Result<(), String> {
    use gltf::json::mesh::Semantic;
    use gltf::json::validation::Checked::Valid;
    for (m, mesh) in root.meshes.iter().enumerate() {
        for p in &mesh.primitives {
            if let Some(index) = p.attributes.get(&Valid(Semantic::Positions)) {
                if index.value() >= root.accessors.len() {
                    return Err(format!(
                        "mesh {m}: POSITION names accessor {}, which does not exist; export it again from Blender",
                        index.value()
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The type and component type of accessor `index`, when it has valid ones.
fn accessor_shape(
    root: &gltf::json::Root,
    index: usize,
) -> Option<(gltf::json::accessor::Type, gltf::json::accessor::ComponentType)> {
    use gltf::json::validation::Checked::Valid;
    root.accessors
        .get(index)
        .and_then(|a| match (&a.type_, &a.component_type) {
            (Valid(t), Valid(c)) => Some((*t, c.0)),
            _ => None,
        })
}

/// Refuses mesh attributes and indices whose accessors are not of a shape glTF allows them (the
/// glTF reader asserts the shape when reading).
pub(crate) fn attributes_fit(root: &gltf::json::Root) -> Result<(), String> {
    use gltf::json::accessor::{ComponentType as C, Type as T};
    use gltf::json::mesh::Semantic as S;
    use gltf::json::validation::Checked::Valid;
    let shape = |index: usize| accessor_shape(root, index);
    let small = |c: C| matches!(c, C::F32 | C::U8 | C::U16);
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            let mut checks: Vec<(String, usize, bool)> = Vec::new();
            for (semantic, accessor) in &primitive.attributes {
                let Valid(semantic) = semantic else { continue };
                let Some((t, c)) = shape(accessor.value()) else {
                    checks.push((semantic.to_string(), accessor.value(), false));
                    continue;
                };
                let fits = match semantic {
                    S::Positions | S::Normals => t == T::Vec3 && c == C::F32,
                    S::Tangents => t == T::Vec4 && c == C::F32,
                    S::Colors(_) => matches!(t, T::Vec3 | T::Vec4) && small(c),
                    S::TexCoords(_) => t == T::Vec2 && small(c),
                    S::Joints(_) => t == T::Vec4 && matches!(c, C::U8 | C::U16),
                    S::Weights(_) => t == T::Vec4 && small(c),
                    // Read by name: TR normals are three floats, TR shades one.
                    S::Extras(name) => match name.to_ascii_uppercase().as_str() {
                        TR_NORMAL => t == T::Vec3 && c == C::F32,
                        TR_SHADE => t == T::Scalar && c == C::F32,
                        _ => true,
                    },
                };
                checks.push((semantic.to_string(), accessor.value(), fits));
            }
            if let Some(indices) = &primitive.indices {
                let fits = matches!(shape(indices.value()), Some((T::Scalar, C::U8 | C::U16 | C::U32)));
                checks.push(("indices".into(), indices.value(), fits));
            }
            if let Some((what, accessor, _)) = checks.into_iter().find(|c| !c.2) {
                return Err(format!(
                    "mesh {m}, primitive {p}: its {what} (accessor {accessor}) is not of a type glTF allows \
                     there; export it again from Blender"
                ));
            }
        }
    }
    Ok(())
}

/// Refuses skins whose inverse bind matrices are not float 4×4 matrices, one per joint (the glTF
/// reader asserts the accessor's shape when reading them; a joint without one has no bind pose).
pub(crate) fn skins_fit(root: &gltf::json::Root) -> Result<(), String> {
    use gltf::json::accessor::{ComponentType, Type};
    for (k, skin) in root.skins.iter().enumerate() {
        let Some(accessor) = &skin.inverse_bind_matrices else {
            continue;
        };
        let index = accessor.value();
        let matrices = root.accessors.get(index).map_or(0, |a| a.count.0);
        if accessor_shape(root, index) != Some((Type::Mat4, ComponentType::F32)) {
            return Err(format!(
                "skin {k}: its inverse bind matrices (accessor {index}) are not float 4×4 matrices; \
                 export it again from Blender"
            ));
        }
        if matrices < skin.joints.len() as u64 {
            return Err(format!(
                "skin {k}: {matrices} inverse bind matrices (accessor {index}) for {} joints; \
                 export it again from Blender",
                skin.joints.len()
            ));
        }
    }
    Ok(())
}

/// Refuses accessors the glTF reader would read past or misread: no elements (it subtracts one
/// from the count unchecked, for the accessor and for its sparse part), or a buffer view's stride
/// shorter than one element (it asserts).
pub(crate) fn accessors_fit(root: &gltf::json::Root) -> Result<(), String> {
    use gltf::json::validation::Checked::Valid;
    for (index, accessor) in root.accessors.iter().enumerate() {
        let refuse = |what: String| Err(format!("accessor {index}: {what}; export it again from Blender"));
        if accessor.count.0 == 0 {
            return refuse("it has no elements".into());
        }
        if accessor.sparse.as_ref().is_some_and(|sparse| sparse.count.0 == 0) {
            return refuse("its sparse part has no elements".into());
        }
        let (Valid(kind), Valid(component)) = (&accessor.type_, &accessor.component_type) else {
            continue; // validation reports these
        };
        let element = kind.multiplicity() * component.0.size();
        let stride = accessor
            .buffer_view
            .and_then(|view| root.buffer_views.get(view.value()))
            .and_then(|view| view.byte_stride);
        if let Some(stride) = stride.filter(|stride| stride.0 < element) {
            return refuse(format!(
                "its buffer view's stride of {} bytes is shorter than one element ({element} bytes)",
                stride.0
            ));
        }
    }
    Ok(())
}

/// Refuses a glTF whose meshes (once per node showing them), skins (once per node using them)
/// and animation channels would read more than [`Limits::accessor_reads`] allows for its
/// buffers' `buffer_bytes`: any number of nodes may show one mesh, primitives repeat one
/// accessor, channels share one sampler's, and an accessor without a buffer view (or a sparse
/// one) is as long as its count says.
pub(crate) fn reads_fit(root: &gltf::json::Root, buffer_bytes: u64) -> Result<(), String> {
    use gltf::json::validation::Checked::Valid;
    let bytes_of = |index: usize| -> u64 {
        root.accessors
            .get(index)
            .map_or(0, |a| match (&a.type_, &a.component_type) {
                (Valid(kind), Valid(component)) => a
                    .count
                    .0
                    .saturating_mul((kind.multiplicity() * component.0.size()) as u64),
                _ => 0,
            })
    };
    let mut reads: Vec<(String, u64)> = Vec::new();
    for (n, node) in root.nodes.iter().enumerate() {
        if let Some(mesh) = node.mesh.and_then(|m| root.meshes.get(m.value())) {
            let primitives = mesh.primitives.iter().map(|p| {
                let attributes = p.attributes.values().map(|a| bytes_of(a.value()));
                let indices = p.indices.map(|i| bytes_of(i.value()));
                attributes.chain(indices).fold(0u64, u64::saturating_add)
            });
            reads.push((
                format!("node {n}'s mesh"),
                primitives.fold(0, u64::saturating_add),
            ));
        }
        if let Some(skin) = node.skin.and_then(|s| root.skins.get(s.value())) {
            let matrices = skin.inverse_bind_matrices.map_or(0, |a| bytes_of(a.value()));
            reads.push((format!("node {n}'s skin"), matrices));
        }
    }
    for (a, animation) in root.animations.iter().enumerate() {
        let channels = animation.channels.iter().map(|c| {
            animation.samplers.get(c.sampler.value()).map_or(0, |s| {
                bytes_of(s.input.value()).saturating_add(bytes_of(s.output.value()))
            })
        });
        reads.push((format!("animation {a}"), channels.fold(0, u64::saturating_add)));
    }
    let mut total = 0u64;
    for (what, bytes) in reads {
        total = total.saturating_add(bytes);
        if let Err(too_much) = Limits::DEFAULT.accessor_reads.check(total, buffer_bytes) {
            return Err(format!("reading it up to {what} would take {too_much}"));
        }
    }
    Ok(())
}

/// `%XX` escapes of a relative URI decoded as the glTF reader decodes them (other `%`s kept);
/// `None` when the result is not UTF-8.
pub(crate) fn percent_decoded(uri: &str) -> Option<String> {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        if let (b'%', Some(byte)) = (bytes[i], escaped) {
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Refuses a glTF (`bytes`: a `.gltf`, or a GLB's JSON chunk) whose JSON holds more objects than
/// [`Limits::json_objects`] allows, counted before it is parsed. What is not JSON is left to the reader.
pub(crate) fn json_objects_fit(bytes: &[u8]) -> Result<(), String> {
    let json = match bytes.strip_prefix(b"glTF") {
        Some(_) => {
            let length = bytes
                .get(12..16)
                .map(|b| u32::from_le_bytes(b.try_into().expect("four bytes")) as usize);
            match length.and_then(|l| bytes.get(20..20usize.checked_add(l)?)) {
                Some(json) => json,
                None => return Ok(()), // the reader reports the damaged chunk
            }
        }
        None => bytes,
    };
    let (mut objects, mut in_string, mut escaped) = (0usize, false, false);
    for &b in json {
        match (in_string, b) {
            (true, _) if escaped => escaped = false,
            (true, b'\\') => escaped = true,
            (true, b'"') => in_string = false,
            (false, b'"') => in_string = true,
            (false, b'{') => objects += 1,
            _ => {}
        }
    }
    Limits::DEFAULT
        .json_objects
        .check(objects as u64, json.len() as u64)
        .map_err(|too_much| too_much.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `.gltf` of `nodes` nodes, each named `name`.
    fn gltf_of_nodes(nodes: usize, name: &str) -> Vec<u8> {
        let node = serde_json::json!({ "name": name });
        serde_json::to_vec(&serde_json::json!({ "asset": { "version": "2.0" }, "nodes": vec![node; nodes] }))
            .unwrap()
    }

    #[test]
    fn json_objects_are_counted_outside_strings_only() {
        // Names full of braces (and escaped quotes before them) are no objects.
        let braces = "\\\"{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{";
        let bytes = gltf_of_nodes(100_000, braces);
        let objects = 2 + 100_000;
        assert!(Limits::DEFAULT
            .json_objects
            .check(objects, bytes.len() as u64)
            .is_ok());
        assert_eq!(json_objects_fit(&bytes), Ok(()));
    }

    #[test]
    fn json_of_more_objects_than_its_size_allows_is_refused_in_gltf_and_glb() {
        let json = gltf_of_nodes(200_000, "");
        let error = json_objects_fit(&json).unwrap_err();
        assert!(error.starts_with("200002 objects in its JSON"), "{error}");
        let mut glb = b"glTF".to_vec();
        for word in [2, 20 + json.len() as u32, json.len() as u32, 0x4E4F_534A] {
            glb.extend_from_slice(&word.to_le_bytes());
        }
        glb.extend_from_slice(&json);
        assert!(json_objects_fit(&glb).is_err());
        // A GLB whose JSON chunk runs past the file is left to the reader.
        glb.truncate(100);
        assert_eq!(json_objects_fit(&glb), Ok(()));
    }
}

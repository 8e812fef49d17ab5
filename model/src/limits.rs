//! What wadforge may spend on an input, in one table: each bound allows a base amount plus so
//! much per unit of what the input holds (its bytes, most often), so that a small file cannot
//! make a tool take far more time or memory than its size. `docs/limits.md` lists the bounds
//! and why each is what it is; every refusal reads the same ([`TooMuch`]).

/// One bound: `base` plus `per` for every `every` units of what it is measured against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bound {
    /// What is counted, as a message names it: "vertex poses (…)".
    pub name: &'static str,
    /// What is allowed whatever the input.
    pub base: u64,
    /// What is allowed per `every` units of the measure (0: a fixed cap).
    pub per: u64,
    pub every: u64,
    /// What the bound grows with, plural: "bytes of input".
    pub unit: &'static str,
    /// How to ask for less, or what asking this much means.
    pub advice: &'static str,
}

impl Bound {
    /// What may be spent for `measure` units.
    pub const fn allowed(&self, measure: u64) -> u64 {
        (measure / self.every)
            .saturating_mul(self.per)
            .saturating_add(self.base)
    }

    /// Refuses `asked` past what `measure` units allow.
    pub fn check(&self, asked: u64, measure: u64) -> Result<(), TooMuch> {
        if asked > self.allowed(measure) {
            return Err(TooMuch {
                bound: *self,
                asked,
                measure,
            });
        }
        Ok(())
    }
}

/// Asking more than a [`Bound`] allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooMuch {
    pub bound: Bound,
    pub asked: u64,
    pub measure: u64,
}

impl std::fmt::Display for TooMuch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Bound {
            name,
            base,
            per,
            every,
            unit,
            advice,
        } = self.bound;
        let (asked, measure) = (self.asked, self.measure);
        write!(
            f,
            "{asked} {name}, more than the {} allowed",
            self.bound.allowed(measure)
        )?;
        match (per, every) {
            (0, _) => write!(f, " whatever the input")?,
            (_, 1) => write!(f, " for {measure} {unit} ({base} plus {per} times the {unit})")?,
            _ => write!(f, " for {measure} {unit} ({base} plus {per} per {every} {unit})")?,
        }
        write!(f, ": {advice}")
    }
}

impl std::error::Error for TooMuch {}

/// A bound passed at one object, counting the objects up to it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{object}: {too_much}")]
pub struct TooMuchAt {
    /// The object, as [`crate::ObjectName`] names it.
    pub object: String,
    pub too_much: TooMuch,
}

/// Pages of 256×256 texels one texture image may hold: what build reads back of an image.
const MOST_IMAGE_PAGES: u64 = 64;

/// Advice for what only a corrupt or hostile file asks.
const CORRUPT: &str = "the file is corrupt or made to cost far more work than its size";

/// What to do when the texels a build cuts or keeps exceed their bounds.
const UV_MAP_OVER_AND_OVER: &str =
    "the UV map covers its image over and over as no export does (each polygon \
                                    spanning much of it): give polygons UV islands of their own";

/// Every bound wadforge keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Heap reading an input may take (the promise the fuzz targets and the hostile-file tests
    /// check).
    pub memory: Bound,
    /// Vertex poses build and `check` compute for keyframe boxes.
    pub posing: Bound,
    /// Keyframe bones build samples from glTF animations.
    pub keyframe_bones: Bound,
    /// Texels build cuts from its images.
    pub cut_texels: Bound,
    /// Texels of distinct samples build keeps.
    pub kept_texels: Bound,
    /// glTF animation channels an import makes.
    pub animation_channels: Bound,
    /// Texels an import's texture images cut from the file's pages.
    pub texture_cuts: Bound,
    /// Pages one texture image of an import may hold.
    pub image_pages: Bound,
    /// Vertices and polygons the objects of an import or gallery draw, dressing included.
    pub dressed_draws: Bound,
    /// Objects one import or gallery makes files or pictures of.
    pub objects: Bound,
    /// Bytes of glTF files build reads, once per object naming one.
    pub gltf_reads: Bound,
    /// Bytes build reads through a glTF's accessors.
    pub accessor_reads: Bound,
    /// Objects (`{`) in a glTF's JSON.
    pub json_objects: Bound,
    /// Bytes of RGBA a glTF's images decode to, each and all together.
    pub image_bytes: Bound,
    /// Events (scalars, collection starts and ends, aliases) of a YAML text, counted before it
    /// is read.
    pub yaml_events: Bound,
    /// Values a YAML text expands to, every alias expanded.
    pub yaml_values: Bound,
    /// Frames one animation of a gallery shows.
    pub gallery_frames: Bound,
    /// Drawing work all animations of a gallery take, in polygons drawn.
    pub gallery_work: Bound,
    /// Bytes all zlib chunks of a TR4 level inflate to together.
    pub inflated_bytes: Bound,
    /// Bytes the zlib stream of a compressed Wad2 inflates to.
    pub wad2_inflated_bytes: Bound,
    /// Texels cut from a Wad2's textures past a page's size for polygons across their tiles.
    pub wad2_cut_texels: Bound,
    /// Polygons the meshes of a level hold.
    pub level_polygons: Bound,
    /// Meshes, vertices and polygons one object draws through its mesh pointers.
    pub object_mesh_draws: Bound,
    /// Meshes, vertices and polygons all objects draw through their mesh pointers.
    pub file_mesh_draws: Bound,
    /// Texels a file's samples name.
    pub sample_texels: Bound,
    /// Records of the state change, dispatch and command tables the animations decode.
    pub record_decodings: Bound,
    /// Words of keyframe data the animations decode.
    pub keyframe_decodings: Bound,
    /// Bytes of sample names a `.sfx`'s sounds hold, each name counted for every id playing it.
    pub sound_sample_names: Bound,
    /// Elements of a Tomb Editor sound catalogue (XML) its reader holds.
    pub sound_catalogue_elements: Bound,
}

impl Limits {
    /// The bounds every command keeps.
    pub const DEFAULT: Limits = Limits {
        // The reader of any format, the importer and a 445-animation Lara stay far below.
        memory: Bound {
            name: "bytes of heap",
            base: 64 << 20,
            per: 20,
            every: 1,
            unit: "bytes of input",
            advice: CORRUPT,
        },
        // A file can pair its longest animation with its largest body: 65 535 keyframes of a
        // 32 767-vertex mesh (2 MB) pose 2 billion vertices (9 s); a 1.4 MB directory of one
        // 20 000-vertex mesh and one animation of 65 535 frames took build 5 s. Lara's 445
        // animations pose some 40 million.
        posing: Bound {
            name: "vertex poses (keyframes times the vertices of the body)",
            base: 64 << 20,
            per: 64,
            every: 1,
            unit: "bytes of input",
            advice: "give the bodies fewer vertices or the animations fewer keyframes",
        },
        // Two keys an hour apart are 65 536 keyframes: a 63 kB directory of 20 such animations
        // took build 213 MB. Lara's 445 animations sample some 210 000 from files of several MB.
        keyframe_bones: Bound {
            name: "keyframe bones (a keyframe's header counting one more)",
            base: 1 << 19,
            per: 1,
            every: 1,
            unit: "bytes of manifests and glTF files",
            advice: "shorten the animation's frame range (`frames`) or raise its `frame_duration`",
        },
        // 30 000 random triangles over a 256×512 image, in a 0.4 MB GLB, took build 16.7 s and
        // 2.5 GB. Real builds cut about one texel per input byte (up to 3 in the fixtures,
        // whose samples are whole pages); a cut texel takes some 10 ns.
        cut_texels: Bound {
            name: "texels cut from images",
            base: 64 << 20,
            per: 16,
            every: 1,
            unit: "bytes of manifests and glTF files",
            advice: UV_MAP_OVER_AND_OVER,
        },
        // 3 bytes each until packed; real builds keep a few pages' worth.
        kept_texels: Bound {
            name: "texels of distinct samples",
            base: 4 << 20,
            per: 4,
            every: 1,
            unit: "bytes of manifests and glTF files",
            advice: UV_MAP_OVER_AND_OVER,
        },
        // A channel costs some 350 bytes while the file is made; a WAD names one with two bytes
        // or none. A 1.3 MB WAD of 2000 one-keyframe animations of a 240-joint moveable made a
        // 102 MB glTF. Game files make one channel per 199 bytes or more.
        animation_channels: Bound {
            name: "glTF animation channels (one per joint of each animation with keyframes, plus the root's \
                   translation)",
            base: 65_536,
            per: 1,
            every: 32,
            unit: "bytes of the file",
            advice: "game files make one per 200 bytes or more: the file is corrupt or made to cost far more \
                     than its size (leave the object out with --only)",
        },
        // A 0.3 MB WAD of overlapping page-sized samples made a 128 MB directory and took 2.2 GB.
        // Real files cut their pages about once over (1.2 in a TR1 level, 9.7 in the TR4-shaped
        // fixture, whose objects each cut the samples they share); past it, one image's most.
        texture_cuts: Bound {
            name: "texels cut from the pages by the texture images of the objects up to this one",
            base: MOST_IMAGE_PAGES * 256 * 256,
            per: 16,
            every: 1,
            unit: "texels of the file's pages",
            advice: "its samples overlap over and over as no game file's do: the file is corrupt or made to cost \
                     far more than its size (leave the object out with --only)",
        },
        image_pages: Bound {
            name: "pages of 256×256 in its texture image",
            base: MOST_IMAGE_PAGES,
            per: 0,
            every: 1,
            unit: "pages of the file",
            advice: "an image holds what build reads back (256×16384 texels); its polygons use far more of the \
                     texture pages than any game file's do: the file is corrupt or made to cost far more than \
                     its size (leave the object out with --only)",
        },
        // 65 000 moveables of Lara's id on one empty mesh, each dressed in a 64 000-polygon body
        // (a 2 MB WAD), would have an import write 4 billion polygons. Real files draw theirs
        // about once over, a dressed Lara twice over her body.
        dressed_draws: Bound {
            name: "vertices and polygons drawn by the objects up to this one, dressing included",
            base: 65_536,
            per: 3,
            every: 1,
            unit: "vertices and polygons the file's meshes hold (each mesh counting one more)",
            advice: "objects are dressed in one body far more often than in any game file: the file is corrupt \
                     or made to cost far more than its size (import the others with --only, or leave objects \
                     out with `wadforge remove`)",
        },
        // Game files hold a few hundred (TR4's catalogue has 465 moveable and 70 static slots),
        // and each object's files cost a fixed time: tens of thousands of empty objects (18
        // bytes each) would take minutes.
        objects: Bound {
            name: "objects",
            base: 4096,
            per: 0,
            every: 1,
            unit: "objects",
            advice: "each object is a glTF and a manifest, or a picture: import some with --only, or split the \
                     file with `wadforge remove`",
        },
        // Any number of manifests may name one glTF file, each object reading it: 1000 short
        // manifests naming one 5 MB GLB would have build read 5 GB. A model reused in another
        // slot is rare.
        gltf_reads: Bound {
            name: "bytes of glTF files read by the objects up to this one",
            base: 16 << 20,
            per: 4,
            every: 1,
            unit: "bytes of distinct manifests and glTF files",
            advice: "manifests name the same glTF file far more often than a model is reused: give each object \
                     its own",
        },
        // Nodes share meshes, primitives repeat accessors, channels share samplers, and an
        // accessor without a buffer view is as long as its count says: a 0.3 MB GLB repeating
        // its primitives 8000 times took 228 MB. Blender's exports read their buffers about once.
        accessor_reads: Bound {
            name: "bytes read through its accessors",
            base: 1 << 20,
            per: 4,
            every: 1,
            unit: "bytes of buffers",
            advice: "its nodes, primitives or channels name the same data far more often than an export does (or \
                     its accessors claim more than their buffers hold): export it again from Blender",
        },
        // The glTF reader makes a struct of up to some 400 bytes of each `{}` (3 bytes of text):
        // a small file of empty objects took over 100 times its size. glTF files hold one per 50
        // bytes or so (a 445-animation Lara's: one per 49).
        json_objects: Bound {
            name: "objects in its JSON",
            base: 65_536,
            per: 1,
            every: 32,
            unit: "bytes of JSON",
            advice: "glTF files hold one per 50 bytes or so: the file is damaged or made to take far more memory \
                     than its size; export it again from Blender",
        },
        // A small PNG can claim a picture of gigabytes; the reader decodes all images at once (30
        // of 2048×2048 in a 0.5 MB GLB took 990 MB). The base holds import's page atlases (64
        // pages of 256×256) at any compression.
        image_bytes: Bound {
            name: "bytes of decoded RGBA",
            base: 16 << 20,
            per: 16,
            every: 1,
            unit: "encoded bytes",
            advice: "the image is damaged or forged: save textures at the size of their pages (256 texels to a \
                     page edge), in one image",
        },
        // The YAML reader loads every event of a document before making values of them, about
        // 120 bytes an event: a text of short values (`[1, 1, 1, …]`) takes 40 times its size.
        // With `yaml_values`, its memory stays within about 18 MB plus 20 times the text; the
        // manifests import writes are far below (a 445-animation Lara's has half).
        yaml_events: Bound {
            name: "YAML values and collections",
            base: 150_000,
            per: 1,
            every: 6,
            unit: "bytes of YAML",
            advice: "a manifest import writes has far fewer; remove what was added",
        },
        // A few lines of nested aliases can stand for billions of values; text without aliases
        // never comes near this, as every value takes at least one character.
        yaml_values: Bound {
            name: "values, every alias (`*name`) expanded",
            base: 10_000,
            per: 2,
            every: 1,
            unit: "bytes of YAML",
            advice: "write the values out instead of repeating anchors",
        },
        // 20 s of the game's 30 frames a second; longer animations show evenly spaced keyframes.
        gallery_frames: Bound {
            name: "frames of one animation",
            base: 600,
            per: 0,
            every: 1,
            unit: "keyframes",
            advice: "longer animations show evenly spaced keyframes",
        },
        // Any number of animations play any number of keyframes of a few bytes: 5000 keyframes
        // in a 0.5 MB WAD took a gallery 885 MB. Lara's 445 animations take about 40 million.
        gallery_work: Bound {
            name: "polygons' worth of drawing work for the gallery's animations",
            base: 64_000_000,
            per: 0,
            every: 1,
            unit: "keyframes",
            advice: "each animation shows fewer frames, the same number for all",
        },
        // Real levels inflate to 2–5 times their size; a claim past this is refused before
        // anything is inflated. What is decoded from the level data takes up to twice its bytes
        // again, so the base leaves room for that within `memory`'s base.
        inflated_bytes: Bound {
            name: "bytes inflated from zlib chunks",
            base: 16 << 20,
            per: 8,
            every: 1,
            unit: "bytes of the file",
            advice: "real levels inflate to a few times their size",
        },
        // Tomb Editor never compresses a Wad2, but its reader accepts it; raw BGRA textures may
        // compress tens of times, so the bound is wider than a level's. Refused while inflating.
        wad2_inflated_bytes: Bound {
            name: "bytes inflated from a Wad2's zlib stream",
            base: 64 << 20,
            per: 64,
            every: 1,
            unit: "bytes of the file",
            advice: "save the Wad2 uncompressed (Tomb Editor's WadTool always does)",
        },
        // A polygon of some 30 bytes across the tiles of a large texture cuts a piece of up to a
        // page (65 536 texels, 196 kB of page): thousands of them would fill gigabytes. Real
        // Wad2 files cut few such pieces, far below their textures' texels.
        wad2_cut_texels: Bound {
            name: "texels cut from large textures for polygons across their 256×256 tiles",
            base: 4 << 20,
            per: 1,
            every: 1,
            unit: "texels of the file's textures",
            advice: CORRUPT,
        },
        // A TR4 level's meshes are inflated from zlib, which repeats a face a thousand times for a
        // few bytes; game levels hold a few polygons per kilobyte, and each read costs some 20
        // bytes. TR1–TR3 hold a polygon in 8 bytes or more: this never binds them.
        level_polygons: Bound {
            name: "polygons in the level's meshes",
            base: 262_144,
            per: 1,
            every: 8,
            unit: "bytes of the file",
            advice: "game levels hold a few per kilobyte: the file is corrupt or made to cost far more work than \
                     its size",
        },
        // The readers' record-sharing bounds, refused as `TooMuchWork` where the records run out.
        // Any number of mesh pointers may name one mesh: a 0.7 MB WAD whose moveable had 2000
        // joints on one 3900-polygon mesh took an import over 2 minutes and 2 GB. Real files
        // draw their meshes 1.02 to 1.39 times over; the bases keep small files that share much
        // (Lara's animation objects alone) far inside.
        object_mesh_draws: Bound {
            name: "meshes, vertices and polygons drawn by one object",
            base: 16_384,
            per: 1,
            every: 1,
            unit: "meshes, vertices and polygons the file's meshes hold",
            advice: CORRUPT,
        },
        file_mesh_draws: Bound {
            name: "meshes, vertices and polygons drawn by all objects",
            base: 65_536,
            per: 2,
            every: 1,
            unit: "meshes, vertices and polygons the file's meshes hold",
            advice: CORRUPT,
        },
        // Any number of 8-byte sample records may name a whole page: 3000 overlapping page-sized
        // samples in a 0.3 MB WAD had an import take 2.2 GB. Real files name each page's texels
        // 0.25 to 0.97 times.
        sample_texels: Bound {
            name: "texels named by the samples",
            base: MOST_IMAGE_PAGES * 256 * 256,
            per: 8,
            every: 1,
            unit: "texels of the file's pages",
            advice: CORRUPT,
        },
        // Animations may name one range of state changes, state changes one range of
        // dispatches: a 0.26 MB WAD took 3.6 GB to read. Real files decode each record once.
        record_decodings: Bound {
            name: "records decoded",
            base: 1024,
            per: 4,
            every: 1,
            unit: "records of the table",
            advice: CORRUPT,
        },
        // A WAD's animations read their own keyframes once and may read on into others' at most
        // 4 times over; any number of records may name one stretch of keyframes.
        keyframe_decodings: Bound {
            name: "keyframe words decoded",
            base: 65_536,
            per: 5,
            every: 1,
            unit: "words of keyframe data",
            advice: CORRUPT,
        },
        // Any number of a .sfx's ids may name one info, and an info up to 63 lines of the .sam:
        // 370 ids on one 500 kB line ask 186 MB. TRLE's files hold some 10 kB of names, each
        // played by one or two ids.
        sound_sample_names: Bound {
            name: "bytes of sample names the sounds play (each name 32 more)",
            base: 4 << 20,
            per: 8,
            every: 1,
            unit: "bytes of the .sfx and .sam",
            advice: "TRLE's sound maps play each line of their .sam about once: the .sfx or .sam is corrupt",
        },
        // The catalogue's reader holds some 80 bytes of each element (160 while a parent's list
        // grows): a 4.4 MB file of `<a><b/></a>` took over 155 MB. Tomb Editor writes an element a
        // line, 20 bytes or more, some 17 a sound.
        sound_catalogue_elements: Bound {
            name: "elements in the sound catalogue",
            base: 65_536,
            per: 1,
            every: 16,
            unit: "bytes of the catalogue",
            advice: "Tomb Editor's catalogues hold an element in 20 bytes or more: the file is corrupt",
        },
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bound_allows_its_base_plus_its_share_of_the_input() {
        let memory = Limits::DEFAULT.memory;
        assert_eq!(memory.allowed(10), (64 << 20) + 200);
        assert!(memory.check((64 << 20) + 200, 10).is_ok());
        let e = memory.check((64 << 20) + 201, 10).unwrap_err();
        assert_eq!(
            e.to_string(),
            "67109065 bytes of heap, more than the 67109064 allowed for 10 bytes of input (67108864 plus 20 \
             times the bytes of input): the file is corrupt or made to cost far more work than its size"
        );
        assert_eq!(Limits::DEFAULT.animation_channels.allowed(95), 65_538);
        assert_eq!(Limits::DEFAULT.posing.allowed(u64::MAX), u64::MAX);
    }

    #[test]
    fn a_fixed_cap_says_so() {
        let e = Limits::DEFAULT.objects.check(4097, 4097).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("4097 objects, more than the 4096 allowed whatever the input: "),
            "{e}"
        );
    }
}

//! Animated PNG (APNG) of rendered frames.
//!
//! The first frame is whole (APNG requires it); later ones are cropped to what they draw and
//! cleared after showing (dispose to background), which keeps a many-frame animation small.

use crate::raster::Canvas;

/// One frame and how long it shows, in ticks of the game's 30 per second.
pub struct Frame {
    pub canvas: Canvas,
    pub ticks: u16,
}

/// The `count` frames as a looping APNG, each encoded as it comes (only one is held at a
/// time). All frames have the first one's size; `None` without frames, or when `count` is not
/// their number.
pub fn apng(count: usize, frames: impl IntoIterator<Item = Frame>) -> Option<Vec<u8>> {
    let mut frames = frames.into_iter().peekable();
    let first = frames.peek()?;
    let (width, height) = (first.canvas.width(), first.canvas.height());
    let mut out = Vec::new();
    let written = encode(count, frames, width, height, &mut out).ok()?;
    (written == count).then_some(out)
}

fn encode(
    count: usize,
    frames: impl Iterator<Item = Frame>,
    width: u32,
    height: u32,
    out: &mut Vec<u8>,
) -> Result<usize, png::EncodingError> {
    let mut encoder = png::Encoder::new(out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    encoder.set_animated(count as u32, 0)?;
    let mut writer = encoder.write_header()?;
    let mut written = 0;
    for (k, frame) in frames.enumerate() {
        written += 1;
        writer.set_frame_delay(frame.ticks.max(1), 30)?;
        writer.set_dispose_op(png::DisposeOp::Background)?;
        let canvas = &frame.canvas;
        if k == 0 {
            writer.write_image_data(canvas.rgba())?;
            continue;
        }
        let (x, y, w, h) = canvas.drawn_bounds().unwrap_or((0, 0, 1, 1));
        writer.reset_frame_position()?;
        writer.set_frame_dimension(w, h)?;
        writer.set_frame_position(x, y)?;
        let row = canvas.width() as usize * 4;
        let cropped: Vec<u8> = (y..y + h)
            .flat_map(|r| {
                let start = r as usize * row + x as usize * 4;
                canvas.rgba()[start..start + w as usize * 4].iter().copied()
            })
            .collect();
        writer.write_image_data(&cropped)?;
    }
    writer.finish()?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raster::ScreenTriangle;

    fn frame(x: f32, ticks: u16) -> Frame {
        let mut canvas = Canvas::new(16, 16);
        canvas.draw(
            &ScreenTriangle {
                points: [[x, 2.0, 1.0], [x + 6.0, 2.0, 1.0], [x, 8.0, 1.0]],
                texels: [[0.0; 2]; 3],
                light: [1.0; 3],
                texture: None,
                additive: false,
            },
            &[],
        );
        Frame { canvas, ticks }
    }

    #[test]
    fn every_frame_decodes_back_with_its_delay() {
        let frames = [frame(1.0, 1), frame(5.0, 2), frame(9.0, 3)];
        let bytes = apng(3, [frame(1.0, 1), frame(5.0, 2), frame(9.0, 3)]).unwrap();
        let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::IDENTITY);
        let mut reader = decoder.read_info().unwrap();
        let info = reader.info();
        assert_eq!((info.width, info.height), (16, 16));
        assert_eq!(info.animation_control.map(|a| a.num_frames), Some(3));
        let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
        for expected in &frames {
            reader.next_frame(&mut buffer).unwrap();
            let fctl = *reader.info().frame_control.as_ref().unwrap();
            assert_eq!((fctl.delay_num, fctl.delay_den), (expected.ticks, 30));
            // The frame's region holds exactly the drawn pixels of the frame.
            let (x, y, w, h) = expected.canvas.drawn_bounds().unwrap();
            if fctl.sequence_number > 0 {
                assert_eq!(
                    (fctl.x_offset, fctl.y_offset, fctl.width, fctl.height),
                    (x, y, w, h)
                );
            }
            for row in 0..fctl.height {
                for col in 0..fctl.width {
                    let i = ((row * fctl.width + col) * 4) as usize;
                    let got = &buffer[i..i + 4];
                    let want = expected.canvas.pixel(fctl.x_offset + col, fctl.y_offset + row);
                    assert_eq!(got, want);
                }
            }
        }
        assert!(apng(0, []).is_none());
        assert!(
            apng(2, [frame(1.0, 1)]).is_none(),
            "a count that is not the frames' number"
        );
    }
}

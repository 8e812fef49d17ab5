//! Packages as sets of placed records plus the bytes between them ("gaps").

use super::error::WriteError;
use super::layout::{Gap, Package};
use crate::records::Coverage;

impl Coverage {
    /// The package as length plus the bytes no record covered.
    pub fn into_package(mut self, bytes: &[u8]) -> Package {
        self.ranges.sort_unstable();
        let mut gaps = Vec::new();
        let mut pos = 0;
        for (start, end) in self.ranges {
            if start > pos {
                gaps.push(Gap {
                    offset: pos,
                    bytes: bytes[pos..start].to_vec(),
                });
            }
            pos = pos.max(end);
        }
        if pos < bytes.len() {
            gaps.push(Gap {
                offset: pos,
                bytes: bytes[pos..].to_vec(),
            });
        }
        Package {
            len: bytes.len(),
            gaps,
        }
    }
}

/// Builds a package from its gaps and placed records, refusing records that fall outside it or
/// disagree with bytes already placed (a layout that no longer fits its model).
pub(crate) struct PackageWriter {
    name: &'static str,
    bytes: Vec<u8>,
    placed: Vec<bool>,
}

impl PackageWriter {
    pub fn new(name: &'static str, package: &Package) -> Result<Self, WriteError> {
        let mut w = PackageWriter {
            name,
            bytes: vec![0; package.len],
            placed: vec![false; package.len],
        };
        for gap in &package.gaps {
            w.put(gap.offset, &gap.bytes)?;
        }
        Ok(w)
    }

    pub fn put(&mut self, offset: usize, data: &[u8]) -> Result<(), WriteError> {
        let end = offset
            .checked_add(data.len())
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| {
                WriteError::LayoutMismatch(format!(
                    "{} bytes at {offset} run past the end of the {} package ({} bytes)",
                    data.len(),
                    self.name,
                    self.bytes.len()
                ))
            })?;
        for (i, &b) in (offset..end).zip(data) {
            if self.placed[i] && self.bytes[i] != b {
                return Err(WriteError::LayoutMismatch(format!(
                    "two records disagree at byte {i} of the {} package",
                    self.name
                )));
            }
            self.bytes[i] = b;
            self.placed[i] = true;
        }
        Ok(())
    }

    pub fn finish(self) -> Vec<u8> {
        self.bytes
    }
}

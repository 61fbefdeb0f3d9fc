//! The image part of a memory object: its format, its type and geometry,
//! its `cranecl_memory::image::ImageDesc` (what a kernel argument passes to
//! generated code), and the geometry checks of the image commands (an
//! origin and region in the image's coordinates turned into a byte
//! rectangle of its data store).
//!
//! Commands work in the API's coordinates (a 1D array's layer is y there,
//! and its layers lie a slice pitch apart); the descriptor generated code
//! reads keeps any array's layers along z. Pitches are the image's own (`CL_IMAGE_ROW_PITCH`,
//! `CL_IMAGE_SLICE_PITCH`): tight for an image we allocate, the user's for
//! `CL_MEM_USE_HOST_PTR`.

use super::handle::Obj;
use super::mem::Mem;
use super::transfer::RectSide;
use crate::error::{err, CLResult};
use cranecl_memory::image::ImageDesc;
use opencl_sys::*;
use std::sync::Arc;

/// Whether the device offers images (`CL_DEVICE_IMAGE_SUPPORT`).
pub const IMAGE_SUPPORT: bool = true;

/// The widest 2D image (and 1D image, 1D and 2D array), in texels
/// (`CL_DEVICE_IMAGE2D_MAX_WIDTH`/`HEIGHT`): the full profile's minimum.
pub const IMAGE2D_MAX: usize = 16384;
/// `CL_DEVICE_IMAGE3D_MAX_WIDTH`/`HEIGHT`/`DEPTH`: the full profile's minimum.
pub const IMAGE3D_MAX: usize = 2048;
/// `CL_DEVICE_IMAGE_MAX_ARRAY_SIZE`: the full profile's minimum.
pub const IMAGE_MAX_ARRAY_SIZE: usize = 2048;
/// `CL_DEVICE_IMAGE_MAX_BUFFER_SIZE` (texels of a 1D image buffer).
pub const IMAGE_MAX_BUFFER_SIZE: usize = 65536;
/// `CL_DEVICE_MAX_READ_IMAGE_ARGS` (the full profile's minimum is 128).
pub const MAX_READ_IMAGE_ARGS: u32 = 128;
/// `CL_DEVICE_MAX_WRITE_IMAGE_ARGS` (minimum 64).
pub const MAX_WRITE_IMAGE_ARGS: u32 = 64;
/// `CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS` (minimum 64 with read-write images).
pub const MAX_READ_WRITE_IMAGE_ARGS: u32 = 64;
/// `CL_DEVICE_MAX_SAMPLERS` (minimum 16).
pub const MAX_SAMPLERS: u32 = 16;

pub struct Image {
    pub format: cl_image_format,
    pub image_type: cl_mem_object_type,
    /// The layout generated code reads (its `data` is the store's base).
    pub desc: ImageDesc,
    /// `CL_IMAGE_BUFFER`: the buffer of a 1D image buffer (held alive).
    pub buffer: Option<Arc<Obj<Mem>>>,
}

impl Image {
    /// `CL_IMAGE_ELEMENT_SIZE`.
    pub fn element_size(&self) -> usize {
        self.desc.elem_size as usize
    }

    /// Width, height, depth in the API's coordinates (a 1D array's layers
    /// are its y, a 2D array's its z).
    pub fn api_extent(&self) -> [usize; 3] {
        let d = &self.desc;
        let [w, h, dd, a] = [d.width, d.height, d.depth, d.array_size].map(|v| v as usize);
        match self.image_type {
            CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE1D_BUFFER => [w, 1, 1],
            CL_MEM_OBJECT_IMAGE1D_ARRAY => [w, a, 1],
            CL_MEM_OBJECT_IMAGE2D => [w, h, 1],
            CL_MEM_OBJECT_IMAGE2D_ARRAY => [w, h, a],
            _ => [w, h, dd],
        }
    }

    /// Bytes between consecutive y and z positions of the API's coordinates.
    fn steps(&self) -> (usize, usize) {
        let (r, s) = (self.desc.row_pitch as usize, self.desc.slice_pitch as usize);
        if self.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY {
            (s, s)
        } else {
            (r, s)
        }
    }

    /// The image's `origin` and `region` (API coordinates) as a byte
    /// rectangle of its store; `CL_INVALID_VALUE` when a region element is
    /// 0, when out of bounds, or when an unused coordinate is not 0 (origin)
    /// or 1 (region), as the spec's lists for every image command say.
    pub fn rect(&self, what: &str, origin: [usize; 3], region: [usize; 3]) -> CLResult<RectSide> {
        if region.contains(&0) {
            return err(CL_INVALID_VALUE, "a region element is 0");
        }
        // Coordinates past the type's own must be origin 0, region 1.
        let used = match self.image_type {
            CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE1D_BUFFER => 1,
            CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D => 2,
            _ => 3,
        };
        for k in used..3 {
            if origin[k] != 0 || region[k] != 1 {
                return err(
                    CL_INVALID_VALUE,
                    format!(
                        "the {what} origin[{k}] must be 0 and region[{k}] 1 for this image type"
                    ),
                );
            }
        }
        let e = self.api_extent();
        for k in 0..used {
            let inside = origin[k]
                .checked_add(region[k])
                .is_some_and(|end| end <= e[k]);
            if !inside {
                return err(
                    CL_INVALID_VALUE,
                    format!("the {what} region (origin {origin:?}, region {region:?}) is out of bounds of the image"),
                );
            }
        }
        let es = self.element_size();
        let (ys, zs) = self.steps();
        let offset = origin[0] * es + origin[1] * ys + origin[2] * zs;
        Ok(RectSide {
            offset,
            row_pitch: ys,
            slice_pitch: zs,
            end: offset + (region[2] - 1) * zs + (region[1] - 1) * ys + region[0] * es,
        })
    }

    /// Bytes of one row of `region` (its x extent in bytes).
    pub fn row_bytes(&self, region: [usize; 3]) -> usize {
        region[0] * self.element_size()
    }

    /// The host side of a read or write of `region` (API coordinates, each
    /// element at least 1): the user's pitches, 0 meaning tight.
    /// `CL_INVALID_VALUE` for the pitch rules: a row pitch below the
    /// region's row; a slice pitch given for a 1D or 2D image, or below one
    /// slice (for a 1D array, one row) of the region.
    pub fn host_side(
        &self,
        region: [usize; 3],
        row_pitch: usize,
        slice_pitch: usize,
    ) -> CLResult<RectSide> {
        let bytes = self.row_bytes(region);
        if row_pitch != 0 && row_pitch < bytes {
            return err(
                CL_INVALID_VALUE,
                "the host row pitch is less than the region's row",
            );
        }
        let row = if row_pitch == 0 { bytes } else { row_pitch };
        if slice_pitch != 0
            && matches!(
                self.image_type,
                CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE1D_BUFFER | CL_MEM_OBJECT_IMAGE2D
            )
        {
            return err(
                CL_INVALID_VALUE,
                "the host slice pitch must be 0 for a 1D or 2D image",
            );
        }
        let array1d = self.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
        let overflow = || err(CL_INVALID_VALUE, "the host rectangle overflows");
        let Some(plane) = (if array1d {
            Some(row)
        } else {
            row.checked_mul(region[1])
        }) else {
            return overflow();
        };
        if slice_pitch != 0 && slice_pitch < plane {
            return err(
                CL_INVALID_VALUE,
                "the host slice pitch is less than one slice of the region",
            );
        }
        let slice = if slice_pitch == 0 { plane } else { slice_pitch };
        // A 1D array's layers (the API's y) are a slice pitch apart.
        let ys = if array1d { slice } else { row };
        let end = (region[2] - 1)
            .checked_mul(slice)
            .and_then(|z| z.checked_add((region[1] - 1).checked_mul(ys)?))
            .and_then(|e| e.checked_add(bytes));
        let Some(end) = end else {
            return overflow();
        };
        Ok(RectSide {
            offset: 0,
            row_pitch: ys,
            slice_pitch: slice,
            end,
        })
    }
}

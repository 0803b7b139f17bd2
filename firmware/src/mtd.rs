//! Real flash through Linux's MTD character devices (`/dev/mtdN`): the
//! geometry from the `MEMGETINFO` ioctl, erases with `MEMERASE`, reads and
//! writes with `pread`/`pwrite`.
//!
//! Only devices that can be programmed byte by byte and bit by bit are
//! accepted (NOR flash and RAM-backed test devices such as the kernel's
//! `mtdram`: flags `MTD_WRITEABLE | MTD_BIT_WRITEABLE`, write size 1);
//! NAND, with its page-sized writes and its refusal to program a page
//! twice, does not have the semantics the firmware core assumes. A write
//! reads the old bytes first and programs `old & new`, so a device that
//! overwrites (RAM) behaves like NOR; on NOR the hardware does the same.
//!
//! This is the only module with `unsafe`: the two ioctls.

use crate::nor_file::NorFile;
use janus_firmware_core::flash::{Flash, FlashError, Geometry};
use std::fs::OpenOptions;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

/// `struct mtd_info_user` of `<mtd/mtd-abi.h>`.
#[repr(C)]
#[derive(Default)]
struct MtdInfoUser {
    kind: u8,
    flags: u32,
    size: u32,
    erase_size: u32,
    write_size: u32,
    oob_size: u32,
    padding: u64,
}

/// `struct erase_info_user` of `<mtd/mtd-abi.h>`.
#[repr(C)]
struct EraseInfoUser {
    start: u32,
    length: u32,
}

const MEMGETINFO: libc::Ioctl = libc::_IOR::<MtdInfoUser>(b'M' as u32, 1);
const MEMERASE: libc::Ioctl = libc::_IOW::<EraseInfoUser>(b'M' as u32, 2);
const MTD_WRITEABLE: u32 = 0x400;
const MTD_BIT_WRITEABLE: u32 = 0x800;

/// Why an MTD device could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum MtdError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not an MTD character device (MEMGETINFO: {source})", path.display())]
    NotMtd {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{} is an MTD device of type {} (flags {flags:#x}, write size {write_size}); Janus needs byte- and bit-writeable flash (NOR, or RAM for tests)",
        path.display(),
        type_name(*kind)
    )]
    Unsupported {
        path: PathBuf,
        kind: u8,
        flags: u32,
        write_size: u32,
    },
    #[error("{} reports an unusable geometry: size {size}, erase size {erase_size}", path.display())]
    Geometry {
        path: PathBuf,
        size: u32,
        erase_size: u32,
    },
}

/// The names of `MTD_*` device types, for messages.
fn type_name(kind: u8) -> &'static str {
    match kind {
        0 => "absent",
        1 => "RAM",
        2 => "ROM",
        3 => "NOR flash",
        4 => "NAND flash",
        6 => "DataFlash",
        7 => "UBI volume",
        8 => "MLC NAND flash",
        _ => "unknown",
    }
}

/// An MTD character device as a [`Flash`].
#[derive(Debug)]
pub struct MtdFlash {
    nor: NorFile,
}

impl MtdFlash {
    /// Opens `/dev/mtdN` for reading and writing and reads its geometry.
    pub fn open(path: &Path) -> Result<MtdFlash, MtdError> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|source| MtdError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        let mut info = MtdInfoUser::default();
        // SAFETY: MEMGETINFO writes one `struct mtd_info_user` through the
        // pointer; `info` is a live, exclusively borrowed value of the
        // `#[repr(C)]` mirror of that struct, so the kernel writes inside
        // it. On a file that is not an MTD device the ioctl fails with
        // ENOTTY and writes nothing.
        let rc =
            unsafe { libc::ioctl(file.as_raw_fd(), MEMGETINFO, &mut info as *mut MtdInfoUser) };
        if rc != 0 {
            return Err(MtdError::NotMtd {
                path: path.to_path_buf(),
                source: std::io::Error::last_os_error(),
            });
        }
        let needed = MTD_WRITEABLE | MTD_BIT_WRITEABLE;
        if info.flags & needed != needed || info.write_size != 1 {
            return Err(MtdError::Unsupported {
                path: path.to_path_buf(),
                kind: info.kind,
                flags: info.flags,
                write_size: info.write_size,
            });
        }
        if info.erase_size == 0 || info.size == 0 || info.size % info.erase_size != 0 {
            return Err(MtdError::Geometry {
                path: path.to_path_buf(),
                size: info.size,
                erase_size: info.erase_size,
            });
        }
        let geometry = Geometry {
            sector_size: info.erase_size,
            sector_count: info.size / info.erase_size,
        };
        tracing::info!(path = %path.display(), kind = type_name(info.kind), ?geometry, "MTD device opened");
        Ok(MtdFlash {
            nor: NorFile {
                file,
                path: path.to_path_buf(),
                geometry,
                label: "MTD",
            },
        })
    }
}

impl Flash for MtdFlash {
    fn geometry(&self) -> Geometry {
        self.nor.geometry
    }

    fn read(&mut self, offset: u64, buf: &mut [u8]) -> Result<(), FlashError> {
        self.nor.read(offset, buf)
    }

    fn erase(&mut self, sector: u32) -> Result<(), FlashError> {
        let geometry = self.nor.geometry;
        if sector >= geometry.sector_count {
            return Err(FlashError::OutOfRange);
        }
        // The device size fits in u32 (MEMGETINFO reports it as one).
        let erase = EraseInfoUser {
            start: sector * geometry.sector_size,
            length: geometry.sector_size,
        };
        // SAFETY: MEMERASE reads one `struct erase_info_user` through the
        // pointer; `erase` is a live value of its `#[repr(C)]` mirror that
        // outlives the call, and the kernel does not keep the pointer.
        let rc = unsafe {
            libc::ioctl(
                self.nor.file.as_raw_fd(),
                MEMERASE,
                &erase as *const EraseInfoUser,
            )
        };
        if rc != 0 {
            return Err(self.nor.io_error("erase", std::io::Error::last_os_error()));
        }
        Ok(())
    }

    fn write(&mut self, offset: u64, data: &[u8]) -> Result<(), FlashError> {
        let cells = self.nor.programmed(offset, data)?;
        self.nor.store(offset, &cells)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ioctl numbers and struct sizes of `<mtd/mtd-abi.h>` on the
    /// common (asm-generic) encoding: checked here because this machine
    /// may have no MTD device to exercise them.
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    #[test]
    fn ioctl_numbers_match_the_kernel_headers() {
        assert_eq!(std::mem::size_of::<MtdInfoUser>(), 32);
        assert_eq!(std::mem::size_of::<EraseInfoUser>(), 8);
        assert_eq!(MEMGETINFO, 0x8020_4d01_u32 as libc::Ioctl);
        assert_eq!(MEMERASE, 0x4008_4d02_u32 as libc::Ioctl);
    }
}

//! Power cuts on demand: [`FaultyFlash`] wraps any [`Flash`] and cuts the
//! power after the k-th operation (a write or an erase; reads do not
//! count), optionally tearing that operation. From then on every call,
//! reads included, fails with [`FlashError::PowerLost`] until the power
//! comes back: [`FaultyFlash::power_on`] hands back the device, as after a
//! reboot.
//!
//! What a torn operation leaves (the trait's "unknown state", made
//! concrete and reproducible):
//!
//! - a torn **write** of `n` bytes programs a prefix of `m < n` bytes
//!   (`old & new`), the rest keep their old values;
//! - a torn **erase** leaves the first `m` bytes of the sector erased
//!   (`0xFF`, `0 <= m <= sector_size`) and every later byte somewhere
//!   between its old value and `0xFF` (`old | noise`: erasing only sets
//!   bits).
//!
//! `m` and the noise come from a generator seeded by [`FaultPlan::seed`],
//! so a run is reproducible from its plan.

use janus_firmware_core::flash::{Flash, FlashError, Geometry};

/// When and how the power is cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaultPlan {
    /// Cut the power during or right after this operation (1 = the first
    /// write or erase); `None` never cuts, which counts the operations of
    /// a run (see [`FaultyFlash::operations`]).
    pub cut_at: Option<u64>,
    /// Whether that operation completes or is torn.
    pub tear: Tear,
    /// Seeds the choice of the torn prefix and the erase noise.
    pub seed: u64,
}

/// What happens to the operation during which the power goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tear {
    /// It completes and reports success; the power goes right after.
    Complete,
    /// It is torn (see the module documentation) and reports
    /// [`FlashError::PowerLost`].
    Torn,
}

/// A flash whose power is cut as a [`FaultPlan`] says.
#[derive(Debug)]
pub struct FaultyFlash<F> {
    inner: F,
    plan: FaultPlan,
    operations: u64,
    powered: bool,
    rng: SplitMix64,
}

impl<F: Flash> FaultyFlash<F> {
    /// Wraps `inner`, powered.
    pub fn new(inner: F, plan: FaultPlan) -> Self {
        FaultyFlash {
            inner,
            plan,
            operations: 0,
            powered: true,
            rng: SplitMix64(plan.seed),
        }
    }

    /// The writes and erases started so far (each counted once, torn or
    /// not; refused out-of-range calls are not counted).
    pub fn operations(&self) -> u64 {
        self.operations
    }

    /// Whether the power has been cut.
    pub fn power_lost(&self) -> bool {
        !self.powered
    }

    /// Powers the device back on: the wrapped device, as the power cut
    /// left it.
    pub fn power_on(self) -> F {
        self.inner
    }

    /// Counts an operation; `Some(tear)` when it is the one the power
    /// goes during.
    fn start(&mut self) -> Result<Option<Tear>, FlashError> {
        if !self.powered {
            return Err(FlashError::PowerLost);
        }
        self.operations += 1;
        if self.plan.cut_at == Some(self.operations) {
            self.powered = false;
            tracing::debug!(operation = self.operations, tear = ?self.plan.tear, "power cut");
            return Ok(Some(self.plan.tear));
        }
        Ok(None)
    }

    fn sector_range(&self, sector: u32) -> Result<(u64, usize), FlashError> {
        let g: Geometry = self.inner.geometry();
        if sector >= g.sector_count {
            return Err(FlashError::OutOfRange);
        }
        Ok((
            u64::from(sector) * u64::from(g.sector_size),
            g.sector_size as usize,
        ))
    }

    /// Leaves the sector as a torn erase would.
    fn torn_erase(&mut self, sector: u32) -> Result<(), FlashError> {
        let (start, len) = self.sector_range(sector)?;
        let mut cells = vec![0; len];
        self.inner.read(start, &mut cells)?;
        let erased = self.rng.below(len as u64 + 1) as usize;
        cells[..erased].fill(0xFF);
        for cell in &mut cells[erased..] {
            *cell |= self.rng.next() as u8;
        }
        // Erase then program the torn image: every byte only gained bits
        // relative to its old value, which a write after an erase can
        // express exactly.
        self.inner.erase(sector)?;
        self.inner.write(start, &cells)
    }
}

impl<F: Flash> Flash for FaultyFlash<F> {
    fn geometry(&self) -> Geometry {
        self.inner.geometry()
    }

    fn read(&mut self, offset: u64, buf: &mut [u8]) -> Result<(), FlashError> {
        if !self.powered {
            return Err(FlashError::PowerLost);
        }
        self.inner.read(offset, buf)
    }

    fn erase(&mut self, sector: u32) -> Result<(), FlashError> {
        if self.powered {
            self.sector_range(sector)?;
        }
        match self.start()? {
            None | Some(Tear::Complete) => self.inner.erase(sector),
            Some(Tear::Torn) => {
                self.torn_erase(sector)?;
                Err(FlashError::PowerLost)
            }
        }
    }

    fn write(&mut self, offset: u64, data: &[u8]) -> Result<(), FlashError> {
        if self.powered {
            let in_range = offset
                .checked_add(data.len() as u64)
                .is_some_and(|end| end <= self.inner.geometry().size());
            if !in_range {
                return Err(FlashError::OutOfRange);
            }
        }
        match self.start()? {
            None | Some(Tear::Complete) => self.inner.write(offset, data),
            Some(Tear::Torn) => {
                let programmed = self.rng.below(data.len() as u64) as usize;
                self.inner.write(offset, &data[..programmed])?;
                Err(FlashError::PowerLost)
            }
        }
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014): a tiny, well-mixed generator;
/// reproducibility is all the fault injector needs from it.
#[derive(Debug)]
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (0 when `n` is 0); the modulo bias is irrelevant
    /// here.
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }
}

//! What running code sees: the packet state arena and the packet.

/// The execution environment of one packet in one block.
pub struct Env<'a> {
    /// The packet state: every variable of every block instance.
    pub arena: &'a mut [u8],
    /// The packet as received (parsers read it).
    pub input: &'a [u8],
    /// The parser's position in `input`, in bits.
    pub cursor: usize,
    /// Bytes a deparser emits, when deparsing.
    pub output: Option<&'a mut Vec<u8>>,
}

impl<'a> Env<'a> {
    /// An environment with no packet, for controls.
    pub fn new(arena: &'a mut [u8]) -> Env<'a> {
        Env {
            arena,
            input: &[],
            cursor: 0,
            output: None,
        }
    }

    /// An environment for parsing `input` from its start.
    pub fn parsing(arena: &'a mut [u8], input: &'a [u8]) -> Env<'a> {
        Env {
            arena,
            input,
            cursor: 0,
            output: None,
        }
    }

    /// Bits of `input` not yet consumed.
    pub fn remaining_bits(&self) -> usize {
        (self.input.len() * 8).saturating_sub(self.cursor)
    }
}

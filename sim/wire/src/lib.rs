//! What packets and files on the wire need computed, once for the whole
//! workspace: the Internet checksum ([`checksum`]) and the CRCs ([`crc`]).
//! No dependencies and no `std`, so the firmware core, the NIC model, the
//! behavioural model and the tools all share one copy.
#![no_std]

pub mod checksum;
pub mod crc;

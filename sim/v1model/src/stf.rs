//! Running STF packet tests (being written).

//! The STF packet-test format (placeholder; being written).

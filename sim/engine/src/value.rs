//! Arbitrary-width P4 values (placeholder; being written).

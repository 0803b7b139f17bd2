//! pcap and pcapng files (placeholder; being written).

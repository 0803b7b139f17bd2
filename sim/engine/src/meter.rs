//! Two-rate three-colour meters (RFC 2698, colour-blind), as simple_switch
//! runs them: rates in units (packets or bytes) per microsecond, bursts in
//! units, buckets full when the rates are set, and every packet GREEN
//! until they are.

/// The colours `execute_meter` and `direct_meter.read` write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Color {
    Green = 0,
    Yellow = 1,
    Red = 2,
}

/// One rate and its burst.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Units per microsecond.
    pub per_us: f64,
    /// Bucket size in units.
    pub burst: u64,
}

/// One meter cell.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Meter {
    /// Committed, then peak rate; `None` until the control plane sets them.
    rates: Option<[Rate; 2]>,
    /// Tokens in the committed and peak buckets.
    tokens: [f64; 2],
    /// When tokens were last added, in microseconds.
    last_us: u64,
}

impl Meter {
    /// Sets the committed and peak rates (a single rate is used for both)
    /// and fills both buckets.
    pub fn set_rates(&mut self, committed: Rate, peak: Rate, now_us: u64) {
        self.rates = Some([committed, peak]);
        self.tokens = [committed.burst as f64, peak.burst as f64];
        self.last_us = now_us;
    }

    /// The rates, if set.
    pub fn rates(&self) -> Option<[Rate; 2]> {
        self.rates
    }

    /// Meters `units` (1 for a packet meter, the length for a byte meter)
    /// at time `now_us`.
    pub fn execute(&mut self, now_us: u64, units: u64) -> Color {
        let Some(rates) = self.rates else {
            return Color::Green;
        };
        let elapsed = now_us.saturating_sub(self.last_us) as f64;
        self.last_us = self.last_us.max(now_us);
        for (tokens, rate) in self.tokens.iter_mut().zip(rates) {
            *tokens = (*tokens + elapsed * rate.per_us).min(rate.burst as f64);
        }
        let units = units as f64;
        let [committed, peak] = &mut self.tokens;
        if *peak < units {
            Color::Red
        } else if *committed < units {
            *peak -= units;
            Color::Yellow
        } else {
            *peak -= units;
            *committed -= units;
            Color::Green
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rate(per_us: f64, burst: u64) -> Rate {
        Rate { per_us, burst }
    }

    #[test]
    fn unconfigured_meters_are_green() {
        let mut m = Meter::default();
        for t in 0..10 {
            assert_eq!(m.execute(t, 1_000_000), Color::Green);
        }
    }

    #[test]
    fn bursts_then_yellow_then_red_and_refill() {
        // Committed: burst 2, peak: burst 4; no refill within the burst.
        let mut m = Meter::default();
        m.set_rates(rate(0.000_001, 2), rate(0.000_002, 4), 0);
        let colors: Vec<Color> = (0..5).map(|_| m.execute(0, 1)).collect();
        use Color::*;
        assert_eq!(colors, [Green, Green, Yellow, Yellow, Red]);
        // One second refills 1 committed and 2 peak tokens.
        assert_eq!(m.execute(1_000_000, 1), Green);
        assert_eq!(m.execute(1_000_000, 1), Yellow);
        assert_eq!(m.execute(1_000_000, 1), Red);
        // Buckets never exceed their bursts.
        assert_eq!(
            m.execute(1_000_000_000, 3),
            Yellow,
            "committed holds only 2"
        );
    }

    #[test]
    fn a_packet_larger_than_the_peak_burst_is_red() {
        let mut m = Meter::default();
        m.set_rates(rate(1.0, 100), rate(1.0, 200), 0);
        assert_eq!(m.execute(0, 201), Color::Red);
        assert_eq!(m.execute(0, 150), Color::Yellow);
    }
}

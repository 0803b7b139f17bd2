//! The printed scenarios: each with its expected and observed fate and
//! whether they agree, as `janus demo` prints its frames; the count of
//! mismatches decides the exit code.

/// What a scenario expects of its traffic.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// The traffic gets through.
    Succeeds,
    /// The NIC (or the network) stops it.
    Fails,
}

impl Expect {
    fn text(self) -> &'static str {
        match self {
            Expect::Succeeds => "succeeds",
            Expect::Fails => "fails",
        }
    }
}

/// What happened.
pub struct Fate {
    /// Whether the traffic got through.
    pub succeeded: bool,
    /// What was seen (replies, throughput, an error).
    pub text: String,
}

/// The scenarios run so far.
#[derive(Default)]
pub struct Report {
    run: usize,
    wrong: Vec<usize>,
    skipped: usize,
}

/// `label` padded, then `text`.
fn line(label: &str, text: &str) {
    println!("      {label:<10} {text}");
}

impl Report {
    /// Prints scenario `title` with its fate and the NIC's drops during it
    /// (None: not read).
    pub fn record(&mut self, title: &str, expect: Expect, fate: &Fate, drops: Option<&str>) {
        self.run += 1;
        let n = self.run;
        println!("  {n:>2}. {title}");
        line("expected", expect.text());
        line(
            "observed",
            &format!(
                "{}: {}",
                if fate.succeeded {
                    "succeeded"
                } else {
                    "failed"
                },
                fate.text
            ),
        );
        if let Some(d) = drops {
            line("NIC drops", d);
        }
        if fate.succeeded == (expect == Expect::Succeeds) {
            line("check", "as expected");
        } else {
            line(
                "check",
                &format!("NOT AS EXPECTED: expected it {}", expect.text()),
            );
            self.wrong.push(n);
        }
    }

    /// Prints a scenario that could not run here, and why.
    pub fn skip(&mut self, title: &str, why: &str) {
        self.skipped += 1;
        println!("   -. {title}");
        line("skipped", why);
    }

    /// Prints the verdict; true when every scenario's fate matched.
    pub fn finish(&self) -> bool {
        println!();
        let skipped = match self.skipped {
            0 => String::new(),
            n => format!(" ({n} skipped)"),
        };
        if self.wrong.is_empty() {
            println!(
                "All {} scenarios behaved as expected{skipped}, over real namespaces, TAP devices and processes.",
                self.run
            );
            return true;
        }
        let list: Vec<String> = self.wrong.iter().map(usize::to_string).collect();
        println!(
            "{} of {} scenarios did NOT behave as expected{skipped}: {}",
            self.wrong.len(),
            self.run,
            list.join(", ")
        );
        false
    }
}

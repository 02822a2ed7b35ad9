//! How much work the blocklist may do on one command. Each step of the judge is linear in what it
//! reads, but what it reads can multiply: `eval` joins expanded words into a new script, brace
//! expansion turns one word into 256, `find` judges its `-exec` command once per starting point,
//! and a nest of functions has each body scanned once per function around it. A command built to
//! multiply would hold the planner — which runs inline, before anything can be cancelled — for
//! hours. The budget grows with the command's length, so no honest command comes near it; one
//! that spends it is refused as too intricate to judge.

/// Steps any command may take, however short.
const BASE_STEPS: u64 = 4_000_000;
/// Steps each character of the command adds.
const STEPS_PER_CHAR: u64 = 64;

/// The steps left for judging one command.
#[derive(Debug)]
pub(crate) struct Budget {
    left: u64,
    limit: u64,
}

/// The budget is spent: the command is too intricate to judge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Spent {
    pub limit: u64,
}

impl Budget {
    pub fn for_command(command: &str) -> Self {
        let limit = BASE_STEPS.saturating_add(STEPS_PER_CHAR.saturating_mul(command.len() as u64));
        Self { left: limit, limit }
    }

    /// Take `steps`; `Err` once the budget is gone (and from then on).
    pub fn spend(&mut self, steps: usize) -> Result<(), Spent> {
        match self.left.checked_sub(steps as u64) {
            Some(left) => {
                self.left = left;
                Ok(())
            }
            None => {
                self.left = 0;
                Err(Spent { limit: self.limit })
            }
        }
    }

    pub fn is_spent(&self) -> bool {
        self.left == 0
    }

    /// Steps taken so far.
    #[cfg(test)]
    pub fn used(&self) -> u64 {
        self.limit - self.left
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_grows_with_the_command_and_stays_spent() {
        let mut budget = Budget::for_command("ls");
        assert_eq!(budget.spend(10), Ok(()));
        assert_eq!(budget.used(), 10);
        let limit = BASE_STEPS + 2 * STEPS_PER_CHAR;
        assert_eq!(budget.spend(usize::MAX), Err(Spent { limit }));
        assert_eq!(budget.spend(0), Ok(()), "nothing more to take is not over");
        assert_eq!(budget.spend(1), Err(Spent { limit }));
    }
}

//! Asking the user about a host no rule names (a project whose network is `rules`): the proxy
//! holds the connection while its [`Asker`] (the session's window, see
//! `crate::agent::network_ask`) asks "allow once, always for this project, or deny", and
//! remembers the answer for the session: once until the call ends ([`Memory::forget_once`]),
//! always for good (the asker also saves the rule), a denial until the session ends — so one
//! `npm install` asks once per registry, not once per connection. One question at a time: the
//! connections that wait behind it see its answer.

use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, RwLock};

use super::address::Reach;
use super::rules::{HostRule, Refusal, Rules};

/// What the proxy asks about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    pub host: String,
    pub port: u16,
    /// Where the host resolves to (a question about this machine or a private network says so).
    pub reach: Reach,
}

/// The user's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// This host and port until the running call ends.
    Once,
    /// This host and port from now on (the asker has saved the rule).
    Always,
    Deny,
    /// Nobody answered (the time ran out, the turn was cancelled, there is no window): why.
    Unanswered(String),
}

/// Who asks the user; called on the proxy's connection thread, which waits for the answer.
pub trait Asker: Send + Sync {
    fn ask(&self, question: &Question) -> Answer;
}

/// Why an asker cannot wait on this thread, if it cannot: the proxy asks from its own threads,
/// which may block; a thread of the engine's runtime must never.
pub fn cannot_wait_here() -> Option<Answer> {
    tokio::runtime::Handle::try_current()
        .is_ok()
        .then(|| Answer::Unanswered("asked from the engine's own runtime, where it cannot wait".to_owned()))
}

/// `question` run on `runtime` and waited for here (a proxy thread); `None` when the runtime shut
/// down first (Warden closing with a question open): this thread hears that instead of panicking
/// in a timer it could no longer drive.
pub fn wait_on<T: Send + 'static>(
    runtime: &tokio::runtime::Handle,
    question: impl std::future::Future<Output = T> + Send + 'static,
) -> Option<T> {
    let (answered, answer) = std::sync::mpsc::sync_channel(1);
    runtime.spawn(async move {
        let _ = answered.send(question.await);
    });
    answer.recv().ok()
}

/// The answers given in this session, and who asks.
#[derive(Default)]
pub(super) struct Memory {
    asker: RwLock<Option<Arc<dyn Asker>>>,
    answers: Mutex<Answers>,
    /// Held while a question is open: one at a time.
    asking: Mutex<()>,
}

#[derive(Default)]
struct Answers {
    once: HashSet<HostRule>,
    always: HashSet<HostRule>,
    denied: HashSet<HostRule>,
}

impl Memory {
    pub(super) fn set_asker(&self, asker: Arc<dyn Asker>) {
        match self.asker.write() {
            Ok(mut slot) => *slot = Some(asker),
            Err(poisoned) => *poisoned.into_inner() = Some(asker),
        }
    }

    /// Forget the "allow once" answers: the call they were given for has ended.
    pub(super) fn forget_once(&self) {
        if let Ok(mut answers) = self.answers.lock() {
            answers.once.clear();
        }
    }

    /// Where `host:port` may be reached under `rules` and this session's answers, asking the
    /// user when neither decides.
    pub(super) fn addresses(
        &self,
        rules: &RwLock<Rules>,
        host: &str,
        port: u16,
    ) -> Result<Vec<SocketAddr>, Refusal> {
        if let Some(decided) = self.decided(rules, host, port) {
            return decided;
        }
        let Some(asker) = self.asker.read().ok().and_then(|a| a.clone()) else {
            return Err(Refusal::NotAsked { host: host.to_owned() });
        };
        let _turn = self.asking.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        // The answer to the question before this one may have decided it.
        if let Some(decided) = self.decided(rules, host, port) {
            return decided;
        }
        let (host, addresses) = match read(rules).addresses(host, port) {
            Err(Refusal::Unknown { host, addresses }) => (host, addresses),
            other => return other,
        };
        let Some(first) = addresses.first() else {
            return Err(Refusal::Unresolved { host, why: "no address".to_owned() });
        };
        let question = Question { host: host.clone(), port, reach: Reach::of(first.ip()) };
        let answer = asker.ask(&question);
        let rule = HostRule::exact(&host, port);
        let Ok(mut answers) = self.answers.lock() else {
            return Err(Refusal::NotAnswered { host, why: "the proxy's memory is poisoned".to_owned() });
        };
        match answer {
            Answer::Once => {
                answers.once.insert(rule);
                Ok(addresses)
            }
            Answer::Always => {
                answers.always.insert(rule);
                Ok(addresses)
            }
            Answer::Deny => {
                answers.denied.insert(rule);
                Err(Refusal::DeniedByUser { host })
            }
            Answer::Unanswered(why) => Err(Refusal::NotAnswered { host, why }),
        }
    }

    /// The decision the rules or an earlier answer make, or `None` when the user is to be asked.
    fn decided(
        &self,
        rules: &RwLock<Rules>,
        host: &str,
        port: u16,
    ) -> Option<Result<Vec<SocketAddr>, Refusal>> {
        match read(rules).addresses(host, port) {
            Err(Refusal::Unknown { host, addresses }) => {
                let rule = HostRule::exact(&host, port);
                let answers = self.answers.lock().ok()?;
                if answers.denied.contains(&rule) {
                    Some(Err(Refusal::DeniedByUser { host }))
                } else if answers.once.contains(&rule) || answers.always.contains(&rule) {
                    Some(Ok(addresses))
                } else {
                    None
                }
            }
            decided => Some(decided),
        }
    }
}

fn read(rules: &RwLock<Rules>) -> std::sync::RwLockReadGuard<'_, Rules> {
    rules.read().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Answers every question with `answer`, counting them.
    struct Fixed(Answer, AtomicUsize);

    impl Asker for Fixed {
        fn ask(&self, _question: &Question) -> Answer {
            self.1.fetch_add(1, Ordering::SeqCst);
            self.0.clone()
        }
    }

    fn asking_rules() -> RwLock<Rules> {
        RwLock::new(Rules {
            ask: true,
            resolve: vec![(
                "registry.test".to_owned(),
                "127.0.0.1".parse().unwrap_or_else(|e| panic!("{e}")),
            )],
            ..Rules::default()
        })
    }

    fn memory_answering(answer: Answer) -> (Memory, Arc<Fixed>) {
        let memory = Memory::default();
        let asker = Arc::new(Fixed(answer, AtomicUsize::new(0)));
        memory.set_asker(asker.clone());
        (memory, asker)
    }

    #[test]
    fn an_answer_is_asked_once_and_kept_as_long_as_it_was_given_for() {
        let rules = asking_rules();
        let (once, asked) = memory_answering(Answer::Once);
        assert!(once.addresses(&rules, "registry.test", 8080).is_ok());
        assert!(once.addresses(&rules, "registry.test", 8080).is_ok());
        assert_eq!(asked.1.load(Ordering::SeqCst), 1, "one question for the call's connections");
        assert!(once.addresses(&rules, "registry.test", 9090).is_ok(), "another port is another question");
        assert_eq!(asked.1.load(Ordering::SeqCst), 2);
        once.forget_once();
        assert!(once.addresses(&rules, "registry.test", 8080).is_ok());
        assert_eq!(asked.1.load(Ordering::SeqCst), 3, "once is for the call only");

        let (always, asked) = memory_answering(Answer::Always);
        always.addresses(&rules, "registry.test", 8080).unwrap_or_else(|e| panic!("{e}"));
        always.forget_once();
        always.addresses(&rules, "registry.test", 8080).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(asked.1.load(Ordering::SeqCst), 1, "always outlives the call");

        let (deny, asked) = memory_answering(Answer::Deny);
        for _ in 0..3 {
            assert!(matches!(
                deny.addresses(&rules, "registry.test", 8080),
                Err(Refusal::DeniedByUser { .. })
            ));
        }
        assert_eq!(asked.1.load(Ordering::SeqCst), 1, "a denial is not asked again in the session");
    }

    #[test]
    fn without_an_answer_or_anyone_to_ask_nothing_connects_and_nothing_is_kept() {
        let rules = asking_rules();
        let (unanswered, asked) = memory_answering(Answer::Unanswered("nobody answered within 60 s".into()));
        for _ in 0..2 {
            assert!(matches!(
                unanswered.addresses(&rules, "registry.test", 8080),
                Err(Refusal::NotAnswered { ref why, .. }) if why.contains("60 s")
            ));
        }
        assert_eq!(asked.1.load(Ordering::SeqCst), 2, "a question nobody answered is asked again");
        let nobody = Memory::default();
        assert!(matches!(nobody.addresses(&rules, "registry.test", 8080), Err(Refusal::NotAsked { .. })));
    }

    #[test]
    fn the_rules_decide_before_any_question() {
        let rules = asking_rules();
        if let Ok(mut r) = rules.write() {
            r.deny = vec![HostRule::parse("registry.test").unwrap_or_else(|e| panic!("{e}"))];
        }
        let (memory, asked) = memory_answering(Answer::Always);
        assert!(matches!(memory.addresses(&rules, "registry.test", 1), Err(Refusal::Denied { .. })));
        assert_eq!(asked.1.load(Ordering::SeqCst), 0);
    }
}

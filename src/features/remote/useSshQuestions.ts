// What ssh asks while it connects to a remote project (`remote:askpass`), oldest first: each is
// shown until it is answered here or withdrawn (unanswered in time, ssh takes that as "no").
import { useCallback, useState } from "react";
import { api, subscribeRemoteAskpass, type RemoteAskpassEvent } from "../../shared/ipc";
import { messageOf } from "../../shared/format";
import { useListener } from "../../shared/useListener";

export type SshQuestion = Omit<RemoteAskpassEvent, "open">;

/** The questions waiting, after `event` (a new one, or one withdrawn). */
export function withQuestion(questions: SshQuestion[], { open, ...question }: RemoteAskpassEvent): SshQuestion[] {
  const others = questions.filter((q) => q.id !== question.id);
  return open ? [...others, question] : others;
}

export function useSshQuestions() {
  const [questions, setQuestions] = useState<SshQuestion[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  useListener(() => subscribeRemoteAskpass((event) => setQuestions((q) => withQuestion(q, event))), "ssh questions");
  /** Pass `answer` (`null`: refused) to ssh; the question goes either way. */
  const answer = useCallback(async (id: string, answer: string | null) => {
    setQuestions((q) => q.filter((question) => question.id !== id));
    try {
      await api.remoteAskpassAnswer(id, answer);
      setProblem(null);
    } catch (e) {
      setProblem(messageOf(e));
    }
  }, []);
  return { question: questions[0] ?? null, problem, answer };
}

// The steps of a plan as the user edits them in its card: what makes them a plan the engine takes
// (1 to 50 steps, each one non-empty line of at most 500 characters: `propose_plan`'s own limits),
// said in words, and the edits (change, add, remove, move) as pure functions of the list.

export const MAX_STEPS = 50;
export const MAX_STEP_CHARS = 500;

/** A step in the editor: its text, and a key that stays with it as it moves. */
export interface DraftStep {
  key: number;
  text: string;
}

export const draftSteps = (steps: readonly string[]): DraftStep[] => steps.map((text, key) => ({ key, text }));

/** Characters as the engine counts them (code points, not UTF-16 units). */
const length = (text: string) => [...text].length;

/** What is wrong with step `index` (0-based) of the plan, in a sentence; null when nothing is. */
export function stepProblem(text: string, index: number): string | null {
  if (!text.trim()) return `Step ${index + 1} is empty: write what it does, or remove it.`;
  const chars = length(text.trim());
  if (chars > MAX_STEP_CHARS) {
    return `Step ${index + 1} is ${chars} characters long; a step has at most ${MAX_STEP_CHARS}.`;
  }
  return null;
}

/** Why these steps cannot be approved as they are, each in a sentence (none: they can). */
export function planProblems(texts: readonly string[]): string[] {
  if (texts.length === 0) return ["A plan needs at least one step: add one."];
  const problems = texts.flatMap((text, i) => stepProblem(text, i) ?? []);
  if (texts.length > MAX_STEPS) {
    problems.unshift(`A plan has at most ${MAX_STEPS} steps; this one has ${texts.length}: remove some.`);
  }
  return problems;
}

/** The steps sent on approval: each as one trimmed line. */
export const approvedSteps = (steps: readonly DraftStep[]): string[] => steps.map((s) => s.text.trim());

export const withText = (steps: readonly DraftStep[], key: number, text: string): DraftStep[] =>
  steps.map((s) => (s.key === key ? { ...s, text } : s));

export const without = (steps: readonly DraftStep[], key: number): DraftStep[] => steps.filter((s) => s.key !== key);

/** The list with an empty step added at the end, keyed `key`. */
export const withNew = (steps: readonly DraftStep[], key: number): DraftStep[] => [...steps, { key, text: "" }];

/** The list with the step `key` moved one place up (`-1`) or down (`1`); the same list at an end. */
export function moved(steps: readonly DraftStep[], key: number, by: -1 | 1): readonly DraftStep[] {
  const from = steps.findIndex((s) => s.key === key);
  const to = from + by;
  if (from < 0 || to < 0 || to >= steps.length) return steps;
  const next = steps.slice();
  [next[from], next[to]] = [next[to]!, next[from]!];
  return next;
}

// How many queued events one frame may fold. The cost of an event differs a lot (a tool block
// mounting with its body, a status change, a text delta) and so does the machine, so the number
// is not fixed: after a frame whose folding (reduce, render, layout) took long while events were
// waiting, the next frames take half as many; after a cheap one they take a few more (additive
// increase, multiplicative decrease). A burst of 400 tool events then spreads over more frames on
// a slow machine instead of stalling a few of them. Only the work the events cause is measured,
// not the whole frame: a page whose every frame is slow for other reasons (painting) would
// otherwise shrink the batches and only make the stream last longer.

export interface FrameBudgetOptions {
  /** Never fewer than this per frame, so a backlog always drains. */
  min: number;
  /** Never more than this per frame. */
  max: number;
  /** Where a fresh budget starts. */
  start: number;
  /** Folding that took longer than this (ms) halves the budget. */
  slowMs: number;
  /** Folding shorter than this (ms) grows the budget by `step`. */
  fastMs: number;
  step: number;
}

export const DEFAULT_FRAME_BUDGET: FrameBudgetOptions = { min: 4, max: 64, start: 16, slowMs: 16, fastMs: 8, step: 4 };

export class FrameBudget {
  private n: number;

  constructor(private readonly o: FrameBudgetOptions = DEFAULT_FRAME_BUDGET) {
    this.n = o.start;
  }

  /** Events the coming frame may fold. */
  get events(): number {
    return this.n;
  }

  /** Folding `this.events` events took `ms` (events were left waiting). */
  observe(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    if (ms > this.o.slowMs) this.n = Math.max(this.o.min, Math.floor(this.n / 2));
    else if (ms < this.o.fastMs) this.n = Math.min(this.o.max, this.n + this.o.step);
  }
}

/** Which limit a template ran into. */
export class BudgetExceeded extends Error {
  constructor(readonly limit: 'time' | 'output') {
    super(limit === 'time' ? 'time limit exceeded' : 'output budget exceeded');
    this.name = 'BudgetExceeded';
  }
}

/**
 * The limits of one evaluation. Handlebars has no loops of its own beyond
 * `each` over the data, and no recursion without partials (refused), so
 * everything that can run long passes through block bodies, insertions and
 * helpers: each of them calls `check()`, and reports the text it produced.
 */
export class RenderBudget {
  private readonly deadline: number;
  private produced = 0;

  constructor(
    readonly timeoutMs: number,
    readonly maxOutputBytes: number,
  ) {
    this.deadline = performance.now() + timeoutMs;
  }

  check(): void {
    if (performance.now() > this.deadline) throw new BudgetExceeded('time');
  }

  /** Text that went into the output (an insertion, a helper's result). */
  count(length: number): void {
    this.produced += length;
    if (this.produced > this.maxOutputBytes) throw new BudgetExceeded('output');
  }

  /** Marks the start of a block body; pass the mark to `endBody` with the body's text. */
  startBody(): number {
    this.check();
    return this.produced;
  }

  /**
   * Counts a block body's own text once: what its nested bodies and
   * insertions produced was counted already, so nested loops are not
   * counted again at every level.
   */
  endBody(mark: number, length: number): void {
    this.count(Math.max(0, length - (this.produced - mark)));
    this.check();
  }
}

/**
 * Tracks the sequence number of a snapshot feed (MARKET_DEPTH carries `depth.seq`).
 *
 * `next` — the one expected; `gap` — newer than expected (messages were missed: refetch);
 * `stale` — older or repeated (out of order: ignore). A run of stale numbers means the
 * publisher restarted its count, which is reported as `gap` too so the caller refetches.
 */
export type SequenceVerdict = 'next' | 'gap' | 'stale';

export class SequenceTracker {
  private last: number | null = null;
  private staleRun = 0;
  private readonly restartAfter: number;

  constructor(restartAfterStale = 3) {
    this.restartAfter = restartAfterStale;
  }

  get current(): number | null {
    return this.last;
  }

  /** Set the baseline (from a full snapshot such as market/deal), or forget it with null. */
  reset(seq: number | null): void {
    this.last = seq;
    this.staleRun = 0;
  }

  accept(seq: number): SequenceVerdict {
    if (this.last === null || seq === this.last + 1) {
      this.reset(seq);
      return 'next';
    }
    if (seq > this.last) {
      this.reset(seq);
      return 'gap';
    }
    this.staleRun += 1;
    if (this.staleRun >= this.restartAfter) {
      this.reset(seq);
      return 'gap';
    }
    return 'stale';
  }
}

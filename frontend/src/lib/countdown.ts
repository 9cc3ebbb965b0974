/** Seconds a send-code button stays disabled after a successful send (spec §9). */
export const CODE_RESEND_SECONDS = 60;
/** The assets pages' resend countdown (spec trading §4, §9): one second shorter. */
export const ASSETS_CODE_RESEND_SECONDS = 59;

export interface Countdown {
  /** Start (or restart) from `seconds`; `onTick` gets the seconds left, ending with 0. */
  start(seconds?: number): void;
  stop(): void;
}

/** A one-second countdown, independent of React so it can be tested with fake timers. */
export function createCountdown(onTick: (secondsLeft: number) => void): Countdown {
  let timer: ReturnType<typeof setInterval> | null = null;
  const stop = () => {
    if (timer !== null) clearInterval(timer);
    timer = null;
  };
  return {
    start(seconds = CODE_RESEND_SECONDS) {
      stop();
      let left = seconds;
      onTick(left);
      timer = setInterval(() => {
        left -= 1;
        onTick(left);
        if (left <= 0) stop();
      }, 1000);
    },
    stop,
  };
}

/** Whole seconds left until `deadline` (ms) at `now`, rounded up and never below 0 (1.2 s left shows 2). */
export function secondsUntil(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** Seconds as a clock: 27 → `0:27`, 299 → `4:59`, 3600 → `60:00`. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export interface Ticker {
  /** Start calling `onTick` every interval (idempotent). */
  start(): void;
  stop(): void;
  readonly running: boolean;
}

/**
 * A repeating one-second clock for countdowns that end at their own deadlines (many rows share one
 * ticker and each works out its seconds with `secondsUntil`), independent of React for fake timers.
 */
export function createTicker(onTick: () => void, intervalMs = 1000): Ticker {
  let timer: ReturnType<typeof setInterval> | null = null;
  return {
    start() {
      if (timer === null) timer = setInterval(onTick, intervalMs);
    },
    stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
    },
    get running() {
      return timer !== null;
    },
  };
}

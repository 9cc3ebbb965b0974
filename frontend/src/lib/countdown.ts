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

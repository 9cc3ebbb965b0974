import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { CODE_RESEND_SECONDS, createCountdown } from '@/lib/countdown';

import './form.css';

/**
 * "Send code": `onSend` resolves true when a code went out; the button then counts down `seconds`
 * (60 s, 59 s on the assets pages: spec §4), disabled, before it can send again.
 */
export function SendCodeButton({
  onSend,
  seconds = CODE_RESEND_SECONDS,
}: {
  onSend: () => Promise<boolean>;
  seconds?: number;
}) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);
  const countdown = useRef(createCountdown(setLeft));

  useEffect(() => {
    const timer = countdown.current;
    return () => timer.stop();
  }, []);

  const send = async () => {
    setSending(true);
    try {
      if (await onSend()) countdown.current.start(seconds);
    } finally {
      setSending(false);
    }
  };

  return (
    <button type="button" className="code-button" disabled={left > 0 || sending} onClick={() => void send()}
      data-testid="send-code">
      {left > 0 ? t('auth.resendIn', { seconds: left }) : t('auth.sendCode')}
    </button>
  );
}

import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { CODE_RESEND_SECONDS, createCountdown } from '@/lib/countdown';

/**
 * "Send code": `onSend` resolves true when a code went out; the button then counts down 60 s,
 * disabled, before it can send again (spec §4).
 */
export function SendCodeButton({ onSend }: { onSend: () => Promise<boolean> }) {
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
      if (await onSend()) countdown.current.start(CODE_RESEND_SECONDS);
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

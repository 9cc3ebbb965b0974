import { observer } from 'mobx-react-lite';

import { useStores } from '@/stores/root-store';

/** The messages of the request layer and the forms, stacked at the top of the page. */
export const Toaster = observer(function Toaster() {
  const { ui } = useStores();
  return (
    <div className="toaster" aria-live="polite">
      {ui.toasts.map((toast) => (
        <div
          key={toast.id}
          className={`toast toast-${toast.kind}`}
          role={toast.kind === 'error' ? 'alert' : 'status'}
          onClick={() => ui.dismissToast(toast.id)}
        >
          {toast.text}
        </div>
      ))}
    </div>
  );
});

/** The blocking overlay of calls made with `loading` (login, register, …). */
export const LoadingOverlay = observer(function LoadingOverlay() {
  const { ui } = useStores();
  if (!ui.loading) return null;
  return (
    <div className="loading-overlay" role="progressbar" aria-busy="true" data-testid="loading-overlay">
      <span className="spinner" />
    </div>
  );
});

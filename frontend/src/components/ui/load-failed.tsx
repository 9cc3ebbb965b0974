/** In place of what could not be loaded: why, and a button to try again. */
export function LoadFailed({
  message,
  retryLabel,
  onRetry,
  testId,
}: {
  message: string;
  retryLabel: string;
  onRetry: () => void;
  testId?: string;
}) {
  return (
    <div className="empty" role="alert" data-testid={testId}>
      <p>{message}</p>
      <button type="button" className="button small" onClick={onRetry}>
        {retryLabel}
      </button>
    </div>
  );
}

import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBoundary } from './ErrorBoundary';

/** What a row that failed to render says instead, by what the row shows. */
export type RowKind = 'message' | 'post' | 'comment' | 'chat' | 'result';

const KEYS: Record<RowKind, string> = {
  message: 'failures.rowFailed.message',
  post: 'failures.rowFailed.post',
  comment: 'failures.rowFailed.comment',
  chat: 'failures.rowFailed.chat',
  result: 'failures.rowFailed.result',
};

function RowFailed({ kind }: { kind: RowKind }) {
  const { t } = useTranslation();
  return (
    <p className="row-failed" role="note">
      {t(KEYS[kind])}
    </p>
  );
}

/**
 * One list row behind its own error boundary (design.md §4): if a row still fails to render, only that row
 * says so — reported like every render error — and the rest of the list keeps working. The row gets another
 * try when its data (`resetKey`) changes, after an edit for example.
 */
export function RowBoundary({ kind, resetKey, children }: { kind: RowKind; resetKey: unknown; children: ReactNode }) {
  return (
    <ErrorBoundary resetKey={resetKey} fallback={() => <RowFailed kind={kind} />}>
      {children}
    </ErrorBoundary>
  );
}

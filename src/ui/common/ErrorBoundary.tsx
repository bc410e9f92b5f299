import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reportRenderError } from '../../reporting/reporter';

/**
 * Catches a render error below it, reports it (issue 9; nothing is sent without a DSN) and shows `fallback`
 * instead. A class, because React has no hook for error boundaries; the rest of the UI stays function
 * components. When `resetKey` changes (a row's data, say), the children get another try.
 */
export class ErrorBoundary extends Component<
  { children: ReactNode; fallback: (error: Error, reset: () => void) => ReactNode; resetKey?: unknown },
  { error: Error | null }
> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    reportRenderError(error, info.componentStack);
  }

  override componentDidUpdate(previous: Readonly<{ resetKey?: unknown }>): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.reset();
  }

  private readonly reset = () => this.setState({ error: null });

  override render() {
    return this.state.error ? this.props.fallback(this.state.error, this.reset) : this.props.children;
  }
}

import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reportError } from '../../reporting/reporter';

/**
 * Catches a render error below it, reports it (issue 9; nothing is sent without a DSN) and shows `fallback`
 * instead. A class, because React has no hook for error boundaries; the rest of the UI stays function
 * components.
 */
export class ErrorBoundary extends Component<
  { children: ReactNode; fallback: (error: Error, reset: () => void) => ReactNode },
  { error: Error | null }
> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    reportError(Object.assign(error, { componentStack: info.componentStack ?? undefined }));
  }

  private readonly reset = () => this.setState({ error: null });

  override render() {
    return this.state.error ? this.props.fallback(this.state.error, this.reset) : this.props.children;
  }
}

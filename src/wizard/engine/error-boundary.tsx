import { Component, type ErrorInfo, type ReactNode } from 'react';

/** Props of {@link ErrorBoundary}. */
export interface ErrorBoundaryProps {
  /** The friendly text shown instead of a blank page. */
  fallback: string;
  /** The reload button's text. */
  reloadText: string;
  /** Reports what was caught (`WizardServices.reportError`); nothing is reported without it. */
  onError?: (error: Error, componentStack: string | undefined) => void;
  children: ReactNode;
}

/**
 * Catches render errors below it, reports them (requirements §7) and shows a friendly
 * message with a reload button instead of a blank page.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    this.props.onError?.(error, info.componentStack ?? undefined);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="error-fallback" role="alert">
        <p>{this.props.fallback}</p>
        <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
          {this.props.reloadText}
        </button>
      </div>
    );
  }
}

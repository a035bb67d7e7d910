// Says that the delivery history cannot be written (a full disk, a lost mount): meanwhile every verified delivery
// is answered 503, which the panel shows one row at a time and nothing else announced. Once per run of failures:
// the service retries, and a warning per retry would bury the window.
import * as vscode from 'vscode';

/** The warning's text for a write that failed with `err`. */
export function historyWriteFailureText(err: Error & { code?: string }): string {
  if (err.code === 'ENOSPC' || err.code === 'EDQUOT')
    return vscode.l10n.t(
      'The webhook delivery history could not be written: the disk holding it is full ({0}). Verified deliveries are answered 503, so the service sends them again, until space is freed.',
      err.message,
    );
  return vscode.l10n.t(
    'The webhook delivery history could not be written ({0}). Verified deliveries are answered 503, so the service sends them again, until it can be.',
    err.message,
  );
}

export class HistoryWriteNotice {
  private failing = false;

  constructor(private readonly show: (text: string) => void) {}

  /** A write failed: said once, until a write succeeds again. */
  failed(err: Error): void {
    if (this.failing) return;
    this.failing = true;
    this.show(historyWriteFailureText(err));
  }

  /** A record reached the file: the next failure is news again. */
  written(): void {
    this.failing = false;
  }
}

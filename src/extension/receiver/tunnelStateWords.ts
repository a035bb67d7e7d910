// The tunnel's state (core's TunnelState, a code) in the user's words, wherever it is shown.
import * as vscode from 'vscode';
import type { TunnelState } from '../../core/tunnel';

export function tunnelStateWords(state: TunnelState): string {
  switch (state) {
    case 'closed':
      return vscode.l10n.t('closed');
    case 'opening':
      return vscode.l10n.t('opening');
    case 'open':
      return vscode.l10n.t('open');
    case 'reconnecting':
      return vscode.l10n.t('reconnecting');
  }
}

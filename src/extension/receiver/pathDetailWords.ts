// What a check of the public address found (Test Public Address, the public path watch), in the user's language:
// core keeps the detail's English for the CLI and its Said beside it; a result without one shows its English.
import * as vscode from 'vscode';
import { isSaid, terminalSafe, type Said } from '../../core/presentation';
import { inUserWords } from '../coreWords';

export function pathDetailWords(r: { detail: string; detailSaid?: Said }): string {
  return isSaid(r.detailSaid) ? inUserWords(r.detailSaid) : r.detail;
}

/** The hop where a check stopped (publicAddressHops.ts), in the user's words; one this version does not know is
 * shown as it is. */
export function hopWords(hop: string | undefined): string {
  switch (hop) {
    case 'dns':
      return 'DNS';
    case 'connect':
      return vscode.l10n.t('connecting');
    case 'tls':
      return 'TLS';
    case 'reminder-page':
      return vscode.l10n.t("the tunnel's reminder page");
    case 'tunnel':
      return vscode.l10n.t('the tunnel');
    case 'timeout':
      return vscode.l10n.t('a timeout');
    case 'receiver':
      return vscode.l10n.t('the receiver');
    default:
      return terminalSafe(String(hop));
  }
}

// Core's words for people (a Said: core/presentation/said.ts) in the user's language. esbuild.mjs exports every
// message core says into the extension's l10n bundle, so vscode.l10n.t finds each one; the CLI words them in English.
import * as vscode from 'vscode';
import { errorWorded, worded, type Said, type Wording } from '../core/presentation';

export const userWording: Wording = (message, ...values) => vscode.l10n.t(message, ...values);

/** A Said of core's in the user's language. */
export function inUserWords(s: Said): string {
  return worded(s, userWording);
}

/** An error's message in the user's language when core said it (a SaidError); else its message as it is. */
export function errorInUserWords(err: unknown): string {
  return errorWorded(err, userWording);
}

// The receiver's settings that hold an address (forwardTo, publicUrl, tunnelHost), read where they are used. A value
// that is not an http(s) URL is said with the setting's name, so the error can open it, rather than a question about
// a null address or a bare "Invalid URL".
import * as vscode from 'vscode';
import { httpUrlProblem } from '../../core/http';

/** A setting that holds a value the feature cannot use; `setting` is its full id, for Open Settings. */
export class SettingError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(message);
    this.name = 'SettingError';
  }
}

export type AddressSettingKey = 'receiver.forwardTo' | 'receiver.publicUrl' | 'receiver.tunnelHost';

/** The setting's address, trimmed; undefined when it is empty. Throws SettingError when it is not an http(s) URL. */
export function addressSetting(key: AddressSettingKey): string | undefined {
  const value = (vscode.workspace.getConfiguration('wfs').get<string>(key) ?? '').trim();
  if (!value) return undefined;
  const problem = httpUrlProblem(value);
  if (problem) throw new SettingError(`wfs.${key}`, `wfs.${key} ${problem}`);
  return value;
}

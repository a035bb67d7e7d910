// The receiver's settings that hold an address (forwardTo, publicUrl, tunnelHost), read where they are used. A value
// that is not an http(s) URL is said with the setting's name, so the error can open it, rather than a question about
// a null address or a bare "Invalid URL".
import * as vscode from 'vscode';
import { httpUrlProblemSaid } from '../../core/http';
import { inUserWords } from '../coreWords';
import { SETTINGS } from '../settingKeys';
import { setting } from '../settings';

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

type AddressSetting = 'receiverForwardTo' | 'receiverPublicUrl' | 'receiverTunnelHost';

/** The setting's address, trimmed; undefined when it is empty. Throws SettingError when it is not an http(s) URL. */
export function addressSetting(name: AddressSetting): string | undefined {
  const value = setting(name);
  if (!value) return undefined;
  const problem = httpUrlProblemSaid(value);
  if (problem) throw new SettingError(SETTINGS[name], vscode.l10n.t('{0} {1}', SETTINGS[name], inUserWords(problem)));
  return value;
}

// One resolved environment: its name, the origins its service and test webhooks live at, and the issuers its
// deliveries are trusted from. Tokens, the rate gate, pollers and the workflow store key on this value, so an
// environment that now points elsewhere (a restarted sandbox, an edited setting) is simply a different value:
// nothing bound to the old origins is used for the new ones.
import { secretScope } from '../auth/secretScope';
import type { EnvironmentConfig } from './environmentConfig';

export interface Environment extends Readonly<EnvironmentConfig> {
  /** The name and the two origins (secretScope): what its secrets are stored under and what its workflows were
   * read from. Two values with the same key talk to the same service. */
  readonly key: string;
}

export function toEnvironment(config: EnvironmentConfig): Environment {
  return Object.freeze({ ...config, key: secretScope(config) });
}

/** Keeps one value per name while nothing about it changes, so values can key maps by identity. */
export class EnvironmentValues {
  private readonly byName = new Map<string, { fingerprint: string; value: Environment }>();

  intern(config: EnvironmentConfig): Environment {
    const fingerprint = JSON.stringify(config);
    const known = this.byName.get(config.name);
    if (known?.fingerprint === fingerprint) return known.value;
    const value = toEnvironment(config);
    this.byName.set(config.name, { fingerprint, value });
    return value;
  }
}

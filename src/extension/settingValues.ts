// What each wfs.* setting gives the extension: its type, package.json's default, and how a value that does not fit is
// read. VS Code hands over whatever settings.json holds (its schema only underlines a wrong value), so a string where a
// number belongs reaches the extension: it is read as the default, a number out of range as the nearest bound (a
// fraction rounded down), and the reader says so with the setting's name (settings.ts). Pure: unit-tested.
import { PUBLIC_ADDRESS_SOURCES } from './receiver/publicAddressSource';
import { SETTINGS } from './settingKeys';

export type SettingName = keyof typeof SETTINGS;
/** A setting's full key (wfs.…). */
export type SettingKey = (typeof SETTINGS)[SettingName];

/** What a setting expects, for the sentence that says a value did not fit. */
type Expected =
  | {
      kind: 'integer';
      min: number;
      max: number;
      /** Also admitted below min: 0, which turns a feature off. */ orOff?: true;
    }
  | { kind: 'boolean' }
  | { kind: 'text' }
  | { kind: 'one of'; values: readonly string[] };

/** A value that did not fit, and the one read in its place. */
export interface BadValue {
  name: SettingName;
  key: string;
  value: unknown;
  expected: Expected;
  used: unknown;
}

interface Spec<T> {
  default: T;
  expected?: Expected;
  /** The value read, or undefined when it does not fit (then `default` is read). */
  read(raw: unknown): T | undefined;
}

function integer(min: number, max: number, fallback: number): Spec<number> {
  return {
    default: fallback,
    expected: { kind: 'integer', min, max },
    read: (raw) =>
      typeof raw === 'number' && Number.isFinite(raw) ? Math.min(max, Math.max(min, Math.floor(raw))) : undefined,
  };
}

/** 0 turns the feature off; any other value is an integer from min to max (a smaller one is read as min). */
function offOrInteger(min: number, max: number, fallback: number): Spec<number> {
  const on = integer(min, max, fallback);
  return { ...on, expected: { kind: 'integer', min, max, orOff: true }, read: (raw) => (raw === 0 ? 0 : on.read(raw)) };
}

function boolean(fallback: boolean): Spec<boolean> {
  return {
    default: fallback,
    expected: { kind: 'boolean' },
    read: (raw) => (typeof raw === 'boolean' ? raw : undefined),
  };
}

/** Text, trimmed; an empty value is the default (as an unset one is). */
function text(fallback: string): Spec<string> {
  return {
    default: fallback,
    expected: { kind: 'text' },
    read: (raw) => (typeof raw === 'string' ? raw.trim() || fallback : undefined),
  };
}

function oneOf<V extends string>(values: readonly V[], fallback: V): Spec<V> {
  return {
    default: fallback,
    expected: { kind: 'one of', values },
    read: (raw) => (values.includes(raw as V) ? (raw as V) : undefined),
  };
}

/** A value its feature checks itself, with its own sentences (environments, forward rules). */
function checkedByItsFeature(): Spec<unknown> {
  return { default: undefined, read: (raw) => raw };
}

/** One entry per key of SETTINGS, with package.json's default (test/unit/extension/settings.test.ts). */
export const SETTING_SPECS = {
  environments: checkedByItsFeature(),
  confirmBilledStart: boolean(true),
  authRememberPasswordForSilentSignIn: boolean(false),
  pollingDeadlineMinutes: integer(1, 1440, 10),
  sandboxWorkflowDurationSeconds: integer(0, 3600, 8),
  sandboxProfile: text(''),
  receiverPort: integer(0, 65535, 0),
  receiverPublicAddress: oneOf(PUBLIC_ADDRESS_SOURCES, 'vscode'),
  receiverPublicUrl: text(''),
  receiverPublicPathCheckSeconds: offOrInteger(10, 86_400, 120),
  receiverTunnel: checkedByItsFeature(),
  receiverTunnelHost: text('https://localtunnel.me'),
  receiverTunnelSubdomain: text(''),
  receiverForwardTo: text(''),
  receiverForward: checkedByItsFeature(),
  receiverForwardPassThrough: boolean(false),
  receiverHistoryMemoryMiB: integer(1, 4096, 64),
  receiverHistoryDiskMiB: integer(1, 65_536, 256),
  receiverHistoryStorage: oneOf<'disk' | 'memory'>(['disk', 'memory'], 'disk'),
  fixturesFolder: text('webhooks'),
} satisfies { [N in SettingName]: Spec<unknown> };

export type SettingValue<N extends SettingName> = (typeof SETTING_SPECS)[N] extends Spec<infer T> ? T : never;

/** The value a setting gives, read from what settings.json holds (undefined: not set); `bad` says a value that did
 * not fit, or one out of range read as the nearest bound. */
export function settingValue<N extends SettingName>(name: N, raw: unknown): { value: SettingValue<N>; bad?: BadValue } {
  const spec = SETTING_SPECS[name] as Spec<SettingValue<N>>;
  if (raw === undefined || raw === null) return { value: spec.default };
  const read = spec.read(raw);
  const value = read === undefined ? spec.default : read;
  const fits = read !== undefined && (typeof raw !== 'number' || raw === read);
  if (fits || !spec.expected) return { value };
  return { value, bad: { name, key: SETTINGS[name], value: raw, expected: spec.expected, used: value } };
}

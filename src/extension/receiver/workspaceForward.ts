// Whose forward settings the receiver uses: the user's own, or what a workspace adds (its settings file, or a wfs
// task in its tasks.json). A workspace's value is someone else's word on where deliveries go, so it is used only in a
// trusted workspace, and only once the user agreed to that very value, loopback targets included. Pure: unit-tested.
import * as vscode from 'vscode';
import { createHash } from 'node:crypto';

/** Forward values as a settings layer or a task holds them, not yet checked. */
export interface ForwardValues {
  rules?: unknown;
  passThrough?: unknown;
}

/** Agreements kept (one hash each), the oldest dropped first: the record stays small however many workspaces. */
export const MAX_AGREEMENTS = 200;

/** What a workspace layer adds, or undefined when it adds nothing (an empty list of rules changes nothing). */
export function workspaceValues(layer: ForwardValues): ForwardValues | undefined {
  const rules = Array.isArray(layer.rules) && layer.rules.length === 0 ? undefined : layer.rules;
  if (rules === undefined && layer.passThrough === undefined) return undefined;
  return {
    ...(rules !== undefined ? { rules } : {}),
    ...(layer.passThrough !== undefined ? { passThrough: layer.passThrough } : {}),
  };
}

/** Names one workspace's one value: other rules, or the same rules in another workspace, are asked about again. */
export function agreementKey(workspaceId: string, source: 'settings' | 'task', values: ForwardValues): string {
  const text = JSON.stringify([workspaceId, source, values.rules ?? null, values.passThrough ?? null]);
  return createHash('sha256').update(text).digest('hex');
}

/** The agreements with `key` added as the newest, at most `max` of them. */
export function withAgreement(kept: readonly string[], key: string, max = MAX_AGREEMENTS): string[] {
  return [...kept.filter((k) => k !== key), key].slice(-max);
}

export interface ForwardChoice {
  values: ForwardValues;
  from: 'user' | 'workspace';
}

/** The values in use: the workspace's (over the user's, setting by setting) only when the workspace is trusted and
 * the user agreed to them; otherwise the user's own. */
export function chooseForward(o: {
  user: ForwardValues;
  workspace?: ForwardValues;
  trusted: boolean;
  agreed: boolean;
}): ForwardChoice {
  if (!o.workspace || !o.trusted || !o.agreed) return { values: o.user, from: 'user' };
  return {
    values: {
      rules: o.workspace.rules ?? o.user.rules,
      passThrough: o.workspace.passThrough ?? o.user.passThrough,
    },
    from: 'workspace',
  };
}

/** At most this many targets are named in the question; the rest are counted. */
const TARGETS_NAMED = 5;

/** The question asked before a workspace's forward value is first used. */
export function workspaceForwardQuestion(o: {
  /** Where the value comes from, e.g. "This workspace's settings (.vscode/settings.json)". */
  where: string;
  /** The targets its rules name (none when it sets only pass-through). */
  targets: readonly string[];
  /** Which deliveries, e.g. "every verified delivery". */
  what: string;
  passThrough: boolean;
  /** What of the user's it takes the place of, e.g. "your own wfs.receiver.forwardTo (http://…)". */
  replaces: string;
}): { message: string; detail: string } {
  const unique = [...new Set(o.targets)];
  const named = unique.slice(0, TARGETS_NAMED).join(', ');
  const sends =
    unique.length > TARGETS_NAMED
      ? vscode.l10n.t(
          '{0} would forward {1} to {2} and {3} more.',
          o.where,
          o.what,
          named,
          unique.length - TARGETS_NAMED,
        )
      : unique.length > 0
        ? vscode.l10n.t('{0} would forward {1} to {2}.', o.where, o.what, named)
        : vscode.l10n.t('{0} would turn on pass-through.', o.where);
  const sentences = [
    sends,
    ...(o.passThrough
      ? [
          vscode.l10n.t(
            "The service is then answered with your apps' status instead of 200, so it sends failed deliveries again.",
          ),
        ]
      : []),
    vscode.l10n.t(
      'While this workspace is open they take the place of {0}. A verified delivery may carry customer loan data: agree only if you trust whoever wrote these settings. You are asked again when they change. Without your agreement your own settings are used.',
      o.replaces,
    ),
  ];
  return {
    message: vscode.l10n.t("Use this workspace's forward settings?"),
    // Sentences joined by a template a translator may word without the space.
    detail: sentences.reduce((text, next) => vscode.l10n.t('{0} {1}', text, next)),
  };
}

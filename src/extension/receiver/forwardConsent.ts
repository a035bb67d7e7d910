// Where verified deliveries may be forwarded: the rules of wfs.receiver.forward (window scope: a workspace may set
// them, and is untrusted input), or else wfs.receiver.forwardTo as "everything → that URL". A target on this machine
// is used at once; one off it only once the user confirmed its origin (asked once per origin, however many targets
// it holds; remembered outside settings), since a verified delivery may carry customer data.
import * as vscode from 'vscode';
import { isLoopbackHost } from '../../core/http/loopback';
import { Forwarder } from '../../core/webhooks/forwardFanOut';
import {
  ForwardRuleError,
  forwardEverything,
  parseForwardRules,
  type ForwardRule,
} from '../../core/webhooks/forwardRules';
import type { ExtensionLog } from '../log/extensionLog';
import { addressSetting, SettingError } from './addressSetting';

/** Origins outside this machine the user agreed to forward deliveries to (kept outside settings). */
const CONFIRMED_FORWARD_KEY = 'wfs.confirmedForwardOrigins';

export class ForwardConsent {
  constructor(
    private readonly state: vscode.Memento,
    private readonly extLog: ExtensionLog,
  ) {}

  /** The receiver task's rules, while the receiver it started runs: they take the settings' place. */
  private taskForward?: { rules: unknown[]; passThrough: boolean };

  useTaskRules(forward: { rules: unknown[]; passThrough: boolean } | undefined): void {
    this.taskForward = forward;
  }

  /** The rules the settings give, checked: wfs.receiver.forward wins over wfs.receiver.forwardTo when it has any.
   * Throws SettingError naming the setting and the rule at fault. */
  configuredRules(): ForwardRule[] {
    if (this.taskForward) {
      try {
        return parseForwardRules(this.taskForward.rules, 'the wfs task\'s "forward"');
      } catch (err) {
        if (err instanceof ForwardRuleError) throw new SettingError('wfs.receiver.forward', err.message);
        throw err;
      }
    }
    const cfg = vscode.workspace.getConfiguration('wfs');
    const listed = cfg.get<unknown>('receiver.forward');
    const forwardTo = addressSetting('receiver.forwardTo');
    if (Array.isArray(listed) && listed.length > 0) {
      if (forwardTo)
        this.extLog.warn(
          `wfs.receiver.forward has rules, so wfs.receiver.forwardTo (${forwardTo}) is not used: add {"topic": "**", "url": "${forwardTo}"} to the rules to keep sending everything there.`,
        );
      try {
        return parseForwardRules(listed, 'wfs.receiver.forward');
      } catch (err) {
        if (err instanceof ForwardRuleError) throw new SettingError('wfs.receiver.forward', err.message);
        throw err;
      }
    }
    if (listed !== undefined && !Array.isArray(listed))
      throw new SettingError('wfs.receiver.forward', 'wfs.receiver.forward must be a list of rules {"topic", "url"}');
    return forwardTo ? [forwardEverything(forwardTo, 'wfs.receiver.forwardTo')] : [];
  }

  /** Whether deliveries may go to this URL without asking: on this machine, or to an origin the user confirmed. */
  allowed(target: string): boolean {
    try {
      const u = new URL(target);
      return isLoopbackHost(u.hostname) || (this.state.get<string[]>(CONFIRMED_FORWARD_KEY) ?? []).includes(u.origin);
    } catch {
      return false;
    }
  }

  /** The first forward target that may be used now (Replay to Forward Target), never one not yet confirmed. */
  get forwardTo(): string | undefined {
    let rules: ForwardRule[];
    try {
      rules = this.configuredRules();
    } catch {
      return undefined; // not usable: Start Receiver says why
    }
    return rules.find((r) => this.allowed(r.url))?.url;
  }

  /** The configured rules after asking, once per origin, about targets off this machine; the rules of an origin not
   * confirmed are left out (and logged), the others kept. */
  async confirmedRules(): Promise<ForwardRule[]> {
    const rules = this.configuredRules();
    const byOrigin = new Map<string, ForwardRule[]>();
    for (const r of rules) {
      if (this.allowed(r.url)) continue;
      const origin = new URL(r.url).origin;
      byOrigin.set(origin, [...(byOrigin.get(origin) ?? []), r]);
    }
    const declined = new Set<string>();
    for (const [origin, asking] of byOrigin) if (!(await this.ask(origin, asking))) declined.add(origin);
    return rules.filter((r) => !declined.has(new URL(r.url).origin));
  }

  /** The receiver's forwarder for the confirmed rules, or undefined when nothing is forwarded. */
  async forwarder(): Promise<Forwarder | undefined> {
    const rules = await this.confirmedRules();
    if (rules.length === 0) return undefined;
    return new Forwarder({ rules, passThrough: this.taskForward?.passThrough ?? passThroughSetting() });
  }

  private async ask(origin: string, rules: readonly ForwardRule[]): Promise<boolean> {
    const targets = [...new Set(rules.map((r) => r.url))];
    const what = rules.every((r) => r.topic === '**' && r.subTopic === undefined)
      ? 'every verified delivery'
      : `verified deliveries matching ${rules.map((r) => r.topic + (r.subTopic ? ` ${r.subTopic}` : '')).join(', ')}`;
    // A dialog that cannot be shown (it fails, or is dismissed) is a "no".
    const answer = await Promise.resolve(
      vscode.window.showWarningMessage(
        `Forward verified deliveries to ${origin}?`,
        {
          modal: true,
          detail: `Your forward settings send ${what}, which may carry customer loan data, on to ${targets.join(', ')}. That host is not on this machine: forward to it only if you run it. Your answer is remembered for ${origin}.`,
        },
        'Forward',
      ),
    ).catch(() => undefined);
    if (answer !== 'Forward') {
      this.extLog.warn(`Not forwarding deliveries to ${origin}: not confirmed.`);
      return false;
    }
    await this.state.update(CONFIRMED_FORWARD_KEY, [
      ...(this.state.get<string[]>(CONFIRMED_FORWARD_KEY) ?? []),
      origin,
    ]);
    return true;
  }
}

/** wfs.receiver.forwardPassThrough: answer the service with the apps' status. Off by default. */
export function passThroughSetting(): boolean {
  return vscode.workspace.getConfiguration('wfs').get<boolean>('receiver.forwardPassThrough') === true;
}

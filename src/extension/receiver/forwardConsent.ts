// Where verified deliveries may be forwarded. The user's own settings (wfs.receiver.forward, else
// wfs.receiver.forwardTo as "everything → that URL"; forwardPassThrough) apply as they are. What a workspace adds (its
// settings file, or a wfs task in its tasks.json) is someone else's word: never used in Restricted Mode (VS Code
// drops those settings' workspace values there too: restrictedConfigurations), and in a trusted workspace used only
// once the user agreed to that very value, loopback targets included (workspaceForward.ts). Then a target off this
// machine is used only once the user confirmed its origin (asked once per origin; remembered outside settings), since
// a verified delivery may carry customer data.
import * as vscode from 'vscode';
import { errorInUserWords } from '../coreWords';
import { type CaRemedy, isLoopbackHost, type TargetTls } from '../../core/http';
import {
  Forwarder,
  forwardEverything,
  type ForwardRule,
  ForwardRuleError,
  forwardTargetTls,
  parseForwardRules,
  withCaFiles,
} from '../../core/webhooks';
import type { ExtensionLog } from '../log/extensionLog';
import { addressSetting, SettingError } from './addressSetting';
import {
  agreementKey,
  chooseForward,
  withAgreement,
  workspaceForwardQuestion,
  workspaceValues,
  type ForwardChoice,
  type ForwardValues,
} from './workspaceForward';
import { SETTINGS } from '../settingKeys';
import { settingLayers } from '../settings';

/** Origins outside this machine the user agreed to forward deliveries to (kept outside settings). */
const CONFIRMED_FORWARD_KEY = 'wfs.confirmedForwardOrigins';
/** The workspaces' forward values the user agreed to use (hashes: workspaceForward.ts agreementKey). */
const AGREED_WORKSPACE_KEY = 'wfs.agreedWorkspaceForward';

/** The receiver task's forward values, while the receiver it started runs: they take the settings' place. */
export interface TaskForward {
  rules: unknown[];
  passThrough: boolean;
  /** Defined in the user's own tasks.json (not a workspace's): used as the user's settings are. */
  userTask?: boolean;
}

/** What a workspace adds: where it comes from (said to the user), the line that says it is used, how its rules are
 * named in errors, and the key of an agreement to it. */
interface WorkspaceLayer {
  values: ForwardValues;
  where: string;
  /** "Forwarding by this workspace's …, as you agreed.": a whole message, since `where` heads a sentence elsewhere. */
  usedLine: string;
  rulesWhere: string;
  key: string;
}

/** The values in use and the rules they give. */
interface InUse {
  choice: ForwardChoice;
  rules: ForwardRule[];
  passThrough: boolean;
}

const SETTING_RULES = SETTINGS.receiverForward;
/** How the receiver task's rules are named in errors (shown in a notification or a consent question). Worded when
 * used: vscode.l10n's bundle is read once the extension runs, not when this module loads. */
function taskRules(): string {
  return vscode.l10n.t('the wfs task\'s "forward"');
}

export class ForwardConsent {
  constructor(
    private readonly state: vscode.Memento,
    private readonly output: ExtensionLog,
  ) {}

  private taskForward?: TaskForward;

  useTaskRules(forward: TaskForward | undefined): void {
    this.taskForward = forward;
  }

  /** The user's own values (and how their rules are named), and what the workspace adds (undefined when nothing). */
  private layers(): { user: ForwardValues; userRulesWhere: string; workspace?: WorkspaceLayer } {
    const rules = settingLayers('receiverForward');
    const pass = settingLayers('receiverForwardPassThrough');
    const user = { rules: rules.user, passThrough: pass.user };
    const task = this.taskForward;
    if (task?.userTask)
      return { user: { rules: task.rules, passThrough: task.passThrough }, userRulesWhere: taskRules() };
    // A task's empty rules, or pass-through off, add nothing: the user's own settings stand.
    const fromTask = task && workspaceValues({ rules: task.rules, passThrough: task.passThrough || undefined });
    if (task && !fromTask) return { user, userRulesWhere: SETTING_RULES };
    if (fromTask) {
      const values = fromTask;
      return {
        user,
        userRulesWhere: SETTING_RULES,
        workspace: {
          values,
          where: vscode.l10n.t("This workspace's wfs task (tasks.json)"),
          usedLine: vscode.l10n.t("Forwarding by this workspace's wfs task (tasks.json), as you agreed."),
          rulesWhere: taskRules(),
          key: agreementKey(workspaceId(), 'task', values),
        },
      };
    }
    // In Restricted Mode VS Code leaves these workspace values out (restrictedConfigurations); inUse() checks again.
    const added = workspaceValues({
      rules: rules.workspace,
      passThrough: pass.workspace,
    });
    if (!added) return { user, userRulesWhere: SETTING_RULES };
    const file = vscode.workspace.workspaceFile;
    const name =
      (file && file.scheme !== 'untitled' ? file.path.split('/').pop() : undefined) ?? '.vscode/settings.json';
    return {
      user,
      userRulesWhere: SETTING_RULES,
      workspace: {
        values: added,
        where: vscode.l10n.t("This workspace's settings ({0})", name),
        usedLine: vscode.l10n.t("Forwarding by this workspace's settings ({0}), as you agreed.", name),
        rulesWhere: SETTING_RULES,
        key: agreementKey(workspaceId(), 'settings', added),
      },
    };
  }

  private agreed(key: string): boolean {
    return (this.state.get<string[]>(AGREED_WORKSPACE_KEY) ?? []).includes(key);
  }

  /** The values in use now, without asking: a workspace's only in a trusted workspace and once agreed. Throws
   * SettingError naming the setting and the rule at fault. */
  private inUseNow(): InUse {
    const { user, userRulesWhere, workspace } = this.layers();
    const agreed = !!workspace && this.agreed(workspace.key);
    const choice = chooseForward({ user, workspace: workspace?.values, trusted: vscode.workspace.isTrusted, agreed });
    return this.resolve(choice, choice.from === 'workspace' ? workspace!.rulesWhere : userRulesWhere);
  }

  /** The values in use, after asking about a workspace's value the user has not agreed to (in a trusted workspace
   * only). A "no" (or no answer) is not remembered: the question comes again at the next use. */
  private async inUse(): Promise<InUse> {
    const { user, userRulesWhere, workspace } = this.layers();
    const trusted = vscode.workspace.isTrusted;
    let agreed = !!workspace && this.agreed(workspace.key);
    if (workspace && !trusted)
      this.output.info(
        vscode.l10n.t('{0}: not used in Restricted Mode; your own forward settings apply.', workspace.where),
      );
    else if (workspace && !agreed) {
      // Checked before asking: the question names their targets, and a rule the receiver cannot use is said as such.
      const theirs = this.resolve({ values: workspace.values, from: 'workspace' }, workspace.rulesWhere);
      const mine = this.resolve({ values: user, from: 'user' }, userRulesWhere);
      agreed = await this.askWorkspace(workspace, theirs, mine);
    }
    const choice = chooseForward({ user, workspace: workspace?.values, trusted, agreed });
    const used = this.resolve(choice, choice.from === 'workspace' ? workspace!.rulesWhere : userRulesWhere);
    if (choice.from === 'workspace') this.output.info(workspace!.usedLine);
    const forwardTo = addressSetting('receiverForwardTo');
    if (forwardTo && used.rules.every((r) => r.url !== forwardTo))
      this.output.warn(
        vscode.l10n.t(
          'There are forward rules, so wfs.receiver.forwardTo ({0}) is not used: add {"topic": "**", "url": "{1}"} to the rules to keep sending everything there.',
          forwardTo,
          forwardTo,
        ),
      );
    return used;
  }

  /** The rules and pass-through the chosen values give: the rules when there are any, else forwardTo. */
  private resolve(choice: ForwardChoice, rulesWhere: string): InUse {
    const { rules: listed, passThrough } = choice.values;
    let rules: ForwardRule[];
    if (Array.isArray(listed) && listed.length > 0) {
      try {
        rules = parseForwardRules(listed, rulesWhere);
      } catch (err) {
        if (err instanceof ForwardRuleError) throw new SettingError(SETTINGS.receiverForward, errorInUserWords(err));
        throw err;
      }
    } else if (listed !== undefined && !Array.isArray(listed))
      throw new SettingError(
        SETTINGS.receiverForward,
        vscode.l10n.t('{0} must be a list of rules {"topic", "url"}', rulesWhere),
      );
    else {
      const forwardTo = addressSetting('receiverForwardTo');
      rules = forwardTo ? [forwardEverything(forwardTo, SETTINGS.receiverForwardTo)] : [];
    }
    return { choice, rules, passThrough: passThrough === true };
  }

  /** The rules in use now, without asking. Throws SettingError naming the setting and the rule at fault. */
  configuredRules(): ForwardRule[] {
    return this.inUseNow().rules;
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

  /** The first forward target that may be used now (Replay to Forward Target), never one not yet confirmed, nor a
   * workspace's not yet agreed to. */
  get forwardTo(): string | undefined {
    let rules: ForwardRule[];
    try {
      rules = this.configuredRules();
    } catch {
      return undefined; // not usable: Start Receiver says why
    }
    return rules.find((r) => this.allowed(r.url))?.url;
  }

  /** The app Send to App sends to: the user's own target, or a workspace's once the user agreed to it (asked here
   * when not yet); never an origin off this machine not yet confirmed. Throws SettingError as configuredRules. */
  async appTarget(): Promise<string | undefined> {
    return (await this.inUse()).rules.find((r) => this.allowed(r.url))?.url;
  }

  /** The TLS a send to `url` outside the receiver's forwarding takes (Send to App, Replay to Forward Target, the
   * assistant's replay): that of the rule in use for it, its `ca` read now. Only rules in use count, so a workspace's
   * `ca` path is never opened in Restricted Mode nor before the user agreed to its rules. Throws SettingError as
   * configuredRules, or when the rule's `ca` cannot be used. */
  tlsFor(url: string): { tls?: TargetTls; caRemedy: CaRemedy } {
    const rules = this.configuredRules();
    try {
      return forwardTargetTls(rules, url, vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
    } catch (err) {
      if (err instanceof ForwardRuleError) throw new SettingError(SETTINGS.receiverForward, errorInUserWords(err));
      throw err;
    }
  }

  /** Whether a workspace sets forward values that are not in use now (Restricted Mode, or not agreed to). */
  workspaceValuesUnused(): boolean {
    const { workspace } = this.layers();
    return !!workspace && !(vscode.workspace.isTrusted && this.agreed(workspace.key));
  }

  /** The rules in use (after asking about a workspace's value, as inUse), with those of an origin off this machine
   * the user did not confirm left out (and logged). */
  async confirmedRules(): Promise<ForwardRule[]> {
    return this.confirmed((await this.inUse()).rules);
  }

  private async confirmed(rules: ForwardRule[]): Promise<ForwardRule[]> {
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
    const used = await this.inUse();
    const rules = await this.confirmed(used.rules);
    if (rules.length === 0) return undefined;
    return new Forwarder({ rules: this.withCas(rules), passThrough: used.passThrough });
  }

  /** The rules with their `ca` files read: only here, once the rules are in use (a workspace's only when trusted
   * and agreed to, by inUse), so a workspace's path is never opened in Restricted Mode. A relative path is taken from
   * the first workspace folder. */
  private withCas(rules: ForwardRule[]): ForwardRule[] {
    try {
      return withCaFiles(rules, vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
    } catch (err) {
      if (err instanceof ForwardRuleError) throw new SettingError(SETTINGS.receiverForward, errorInUserWords(err));
      throw err;
    }
  }

  /** Asks once before a workspace's value is first used; true when the user agreed (remembered for this value). */
  private async askWorkspace(workspace: WorkspaceLayer, theirs: InUse, mine: InUse): Promise<boolean> {
    const replacing = Array.isArray(workspace.values.rules) && workspace.values.rules.length > 0;
    const { message, detail } = workspaceForwardQuestion({
      where: workspace.where,
      targets: replacing ? theirs.rules.map((r) => r.url) : [],
      what: deliveriesMatching(theirs.rules),
      passThrough: theirs.passThrough,
      replaces: describeOwn(mine, replacing, workspace.values.passThrough !== undefined),
    });
    // A dialog that cannot be shown (it fails, or is dismissed) is a "no".
    const answer = await Promise.resolve(
      vscode.window.showWarningMessage(message, { modal: true, detail }, vscode.l10n.t('Use Workspace Settings')),
    ).catch(() => undefined);
    if (answer !== vscode.l10n.t('Use Workspace Settings')) {
      this.output.warn(
        vscode.l10n.t('{0}: forward settings not used (not agreed); your own settings apply.', workspace.where),
      );
      return false;
    }
    await this.state.update(
      AGREED_WORKSPACE_KEY,
      withAgreement(this.state.get<string[]>(AGREED_WORKSPACE_KEY) ?? [], workspace.key),
    );
    return true;
  }

  private async ask(origin: string, rules: readonly ForwardRule[]): Promise<boolean> {
    const targets = [...new Set(rules.map((r) => r.url))];
    const what = deliveriesMatching(rules);
    // A dialog that cannot be shown (it fails, or is dismissed) is a "no".
    const answer = await Promise.resolve(
      vscode.window.showWarningMessage(
        vscode.l10n.t('Forward verified deliveries to {0}?', origin),
        {
          modal: true,
          detail: vscode.l10n.t(
            'Your forward settings send {0}, which may carry customer loan data, on to {1}. That host is not on this machine: forward to it only if you run it. Your answer is remembered for {2}.',
            what,
            targets.join(', '),
            origin,
          ),
        },
        vscode.l10n.t('Forward'),
      ),
    ).catch(() => undefined);
    if (answer !== vscode.l10n.t('Forward')) {
      this.output.warn(vscode.l10n.t('Not forwarding deliveries to {0}: not confirmed.', origin));
      return false;
    }
    await this.state.update(CONFIRMED_FORWARD_KEY, [
      ...(this.state.get<string[]>(CONFIRMED_FORWARD_KEY) ?? []),
      origin,
    ]);
    return true;
  }
}

/** "every verified delivery", or the topics the rules match. */
function deliveriesMatching(rules: readonly ForwardRule[]): string {
  return rules.every((r) => r.topic === '**' && r.subTopic === undefined)
    ? vscode.l10n.t('every verified delivery')
    : vscode.l10n.t(
        'verified deliveries matching {0}',
        rules.map((r) => r.topic + (r.subTopic ? ` ${r.subTopic}` : '')).join(', '),
      );
}

/** What of the user's own a workspace value takes the place of, named with its targets. */
function describeOwn(mine: InUse, rules: boolean, passThrough: boolean): string {
  const own = Array.isArray(mine.choice.values.rules) && mine.choice.values.rules.length > 0;
  const targets = [...new Set(mine.rules.map((r) => r.url))].join(', ');
  const what = !rules
    ? undefined
    : own
      ? vscode.l10n.t('your own forward rules (to {0})', targets)
      : mine.rules.length > 0
        ? vscode.l10n.t('your own wfs.receiver.forwardTo ({0})', targets)
        : vscode.l10n.t('your own settings, which forward nothing');
  const pass = passThrough
    ? vscode.l10n.t('your pass-through setting ({0})', mine.passThrough ? vscode.l10n.t('on') : vscode.l10n.t('off'))
    : undefined;
  return what && pass ? vscode.l10n.t('{0} and {1}', what, pass) : (what ?? pass ?? '');
}

/** One workspace: its .code-workspace file, or its folders. */
function workspaceId(): string {
  return (
    vscode.workspace.workspaceFile?.toString() ??
    (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString()).join('\n')
  );
}

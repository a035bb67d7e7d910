// The receiver's public address as the window's settings choose it (none, VS Code's port forwarding, the user's own
// tunnel or proxy, or localtunnel by consent): a PublicAddressProvider for the receiver session. The tunnel itself is
// core's (LocaltunnelAddress); this adds VS Code's forwarding, the consent, and remembers the address across starts
// (a new one must be registered with the service again).
import * as vscode from 'vscode';
import { tunnelStateWords } from './tunnelStateWords';
import { errorInUserWords, inUserWords } from '../coreWords';
import type { Said } from '../../core/presentation';
import { SANDBOX_ENVIRONMENT } from '../../core/environments';
import { isLoopbackHost } from '../../core/http';
import type { Clock } from '../../core/time';
import { tunnelNameProblemSaid, type TunnelState } from '../../core/tunnel';
import {
  LocaltunnelAddress,
  type PublicAddressContext,
  type PublicAddressOpened,
  type PublicAddressProvider,
} from '../../core/receiver';
import type { EnvironmentRegistry } from '../environments/environmentRegistry';
import type { ExtensionLog } from '../log/extensionLog';
import { addressSetting, SettingError } from './addressSetting';
import type { LocaltunnelConsent } from './localtunnelConsent';
import { publicAddressSource, type PublicAddressSource } from './publicAddressSettings';
import { SETTINGS } from '../settingKeys';
import { setting } from '../settings';

/** The public address of the last start: a new one must be registered with the service again. */
const LAST_PUBLIC_URL_KEY = 'wfs.receiver.lastPublicUrl';

/** The receiver runs, but its public address did not open; `setting` names the setting at fault, when one is. */
export class PublicAddressError extends Error {
  constructor(
    message: string,
    readonly setting?: string,
  ) {
    super(message);
  }
}

export interface PublicAddressDeps {
  state: vscode.Memento;
  environments: EnvironmentRegistry;
  consent: LocaltunnelConsent;
  clock: Clock;
  output: ExtensionLog;
}

export class PublicAddress implements PublicAddressProvider {
  private tunnel?: LocaltunnelAddress;
  private opened?: { source: PublicAddressSource; url?: string; note?: string };
  /** The public address of the previous start, when this start's differs: registered with the service, it is stale. */
  changedFrom?: string;

  constructor(private readonly deps: PublicAddressDeps) {}

  get source(): PublicAddressSource {
    return this.opened?.source ?? publicAddressSource();
  }

  /** Why there is no public address, or what to know about it. */
  get note(): string | undefined {
    return this.opened?.note;
  }

  get tunnelState(): TunnelState {
    return this.tunnel?.tunnelState ?? 'closed';
  }

  /** The public URL of the receiver's webhook path, when one is open. */
  url(): string | undefined {
    if (this.opened?.source === 'localtunnel') return this.tunnel?.url();
    return this.opened?.url;
  }

  /** Opens the address the settings choose for a receiver that runs at ctx.localUrl; on failure the receiver stays
   * up on loopback, the note says why, and a PublicAddressError names the setting at fault. */
  async open(ctx: PublicAddressContext): Promise<PublicAddressOpened> {
    const localUrl = ctx.localUrl;
    try {
      this.opened = await this.openSource(ctx);
      await this.remember(this.url());
      return { url: this.url(), note: this.opened.note };
    } catch (err) {
      this.opened = { source: publicAddressSource(), note: vscode.l10n.t('did not open: {0}', errorInUserWords(err)) };
      throw new PublicAddressError(
        vscode.l10n.t(
          'The receiver runs at {0}, but its public address ({1}) did not open: {2}',
          localUrl,
          this.opened.source,
          errorInUserWords(err),
        ),
        err instanceof SettingError ? err.setting : undefined,
      );
    }
  }

  /** The public path watch found the address not reaching the receiver: a localtunnel is reopened. */
  renew(why: Said | string): void {
    this.tunnel?.renew(why);
  }

  /** The receiver stopped: the tunnel closes, and nothing of this start is shown. */
  close(): void {
    this.tunnel?.close();
    this.tunnel = undefined;
    this.opened = undefined;
    this.changedFrom = undefined;
  }

  /** Compares this start's public address with the last one, then remembers it (outside settings). */
  private async remember(url: string | undefined): Promise<void> {
    const last = this.deps.state.get<string>(LAST_PUBLIC_URL_KEY);
    this.changedFrom = url && last && last !== url ? last : undefined;
    if (url && url !== last) await this.deps.state.update(LAST_PUBLIC_URL_KEY, url);
  }

  /** Only localtunnel reaches a third party: for the sandbox it opens none (the sandbox reaches loopback), and for a
   * real environment only with the user's consent. */
  private async openSource(
    ctx: PublicAddressContext,
  ): Promise<{ source: PublicAddressSource; url?: string; note?: string }> {
    const source = publicAddressSource();
    const env = this.deps.environments.currentName;
    switch (source) {
      case 'none':
        return { source, note: vscode.l10n.t('none (wfs.receiver.publicAddress): loopback only') };
      case 'vscode':
        return this.openForwarding(ctx);
      case 'url': {
        const url = addressSetting('receiverPublicUrl');
        if (!url)
          throw new SettingError(
            SETTINGS.receiverPublicUrl,
            vscode.l10n.t('wfs.receiver.publicUrl is not set: give the public http(s) URL your tunnel or proxy serves'),
          );
        if (!setting('receiverPort'))
          throw new Error(
            vscode.l10n.t(
              'wfs.receiver.port is 0 (a free port each time): fix it to the port your tunnel or proxy forwards to',
            ),
          );
        ctx.setPublicHosts([new URL(url).hostname]);
        return { source, url };
      }
      case 'localtunnel': {
        if (env === SANDBOX_ENVIRONMENT)
          return { source, note: vscode.l10n.t('not opened for the Sandbox, which reaches the receiver on loopback') };
        const host = addressSetting('receiverTunnelHost') ?? 'https://localtunnel.me';
        const subdomain = setting('receiverTunnelSubdomain') || undefined;
        const nameProblem =
          subdomain === undefined ? undefined : tunnelNameProblemSaid(SETTINGS.receiverTunnelSubdomain, subdomain);
        if (nameProblem) throw new SettingError(SETTINGS.receiverTunnelSubdomain, inUserWords(nameProblem));
        const answer = await this.deps.consent.answer(env, new URL(host).host);
        if (answer === 'declined')
          return {
            source,
            note: vscode.l10n.t(
              'not opened: you declined localtunnel for {0} (choose localtunnel again in "Choose Public Address Source…" to be asked again)',
              env,
            ),
          };
        if (answer === 'unanswered')
          return {
            source,
            note: vscode.l10n.t(
              'not opened: you did not answer whether to open localtunnel for {0}; you are asked again at the next start',
              env,
            ),
          };
        const tunnel = new LocaltunnelAddress({ host, subdomain, clock: this.deps.clock });
        this.tunnel = tunnel;
        try {
          await tunnel.open({
            ...ctx,
            tunnelChanged: (state, publicUrl, reconnected) => {
              this.deps.output.info(
                publicUrl
                  ? vscode.l10n.t('Tunnel {0} ({1})', tunnelStateWords(state), publicUrl)
                  : vscode.l10n.t('Tunnel {0}', tunnelStateWords(state)),
              );
              ctx.tunnelChanged(state, publicUrl, reconnected);
            },
            warning: (m) =>
              this.deps.output.warn(vscode.l10n.t('Tunnel: {0}', typeof m === 'object' ? inUserWords(m) : String(m))),
          });
        } catch (err) {
          this.tunnel = undefined;
          throw err;
        }
        return { source };
      }
    }
  }

  /** VS Code's own port forwarding: under remote development (SSH, WSL, containers, Codespaces, code-server) the
   * receiver runs on the remote machine, and this is the address that reaches it. */
  private async openForwarding(
    ctx: PublicAddressContext,
  ): Promise<{ source: PublicAddressSource; url?: string; note?: string }> {
    const external = new URL((await vscode.env.asExternalUri(vscode.Uri.parse(ctx.localUrl))).toString(true));
    const local = new URL(ctx.localUrl);
    const source = 'vscode';
    if (isLoopbackHost(external.hostname) && external.port === local.port && external.pathname === local.pathname)
      return {
        source,
        note: vscode.l10n.t(
          'VS Code forwards nothing in a local window: for an address the service can reach, choose "url" (your own tunnel) or "localtunnel" in wfs.receiver.publicAddress',
        ),
      };
    ctx.setPublicHosts([external.hostname]);
    const codespaces = vscode.env.remoteName === 'codespaces' || external.hostname.endsWith('.app.github.dev');
    const note = codespaces
      ? vscode.l10n.t(
          'Codespaces forwards port {0} privately: in the Ports view, right-click it, Port Visibility → Public, so the service can reach it',
          local.port,
        )
      : isLoopbackHost(external.hostname)
        ? vscode.l10n.t('forwarded by VS Code to {0}: your browser reaches it, the service does not', external.host)
        : undefined;
    return { source, url: external.toString(), note };
  }
}

// `--ca FILE` and `--insecure` for the one target a command sends to (`wfs send --to`, `wfs audit --target`), and
// `--forward-ca FILE` and `--forward-insecure` for `--forward-to` (`wfs listen`, `wfs mcp`): an https app with its
// own certificate, trusted for that target only. They are checked as a forward rule's `ca=FILE` and `insecure`
// (core/http targetTlsFrom), and the file read, before anything is sent or listens.
import { CaFileError, type TargetTls, targetTlsFrom, TlsOptionError } from '../core/http';
import { UsageError, type FlagSpecs, type ParsedFlags } from './flags';

/** The two flags' names, without their dashes. */
export interface TlsFlagNames {
  ca: string;
  insecure: string;
}

export const TARGET_TLS_NAMES: TlsFlagNames = { ca: 'ca', insecure: 'insecure' };
export const FORWARD_TLS_NAMES: TlsFlagNames = { ca: 'forward-ca', insecure: 'forward-insecure' };

/** The two flags' help; `target` names the flag of the URL they apply to. */
export function tlsFlagSpecs(names: TlsFlagNames, target: string): FlagSpecs {
  return {
    [names.ca]: {
      type: 'string',
      value: 'FILE',
      description: `trust this PEM root (mkcert's rootCA.pem, in mkcert -CAROOT) for the https app at ${target} only, beside the usual roots`,
    },
    [names.insecure]: {
      type: 'boolean',
      description: `do not check the certificate of the https app at ${target} (on this machine only)`,
    },
  };
}

/** The target's TLS as the flags give it, the file read (a relative path from where wfs runs); undefined when
 * neither is given. `url` is the target's (undefined when its flag is not given); `target` names its flag. */
export function targetTlsFlags(
  flags: ParsedFlags,
  url: string | undefined,
  names: TlsFlagNames,
  target: string,
): TargetTls | undefined {
  const ca = flags.values.get(names.ca);
  const insecure = flags.switches.has(names.insecure);
  if (ca === undefined && !insecure) return undefined;
  if (url === undefined)
    throw new UsageError(`--${ca !== undefined ? names.ca : names.insecure} goes with ${target}: it is that app's TLS`);
  try {
    return targetTlsFrom(
      url,
      { ca, insecure },
      { ca: `--${names.ca}`, insecure: `--${names.insecure}` },
      process.cwd(),
    );
  } catch (err) {
    if (err instanceof TlsOptionError) throw new UsageError(err.message);
    if (err instanceof CaFileError) throw new UsageError(`--${names.ca}: ${err.message}`);
    throw err;
  }
}

// Runs one command: strict flags, the proxy from the environment, and every error turned into its line and exit
// code. Loaded only when a command runs (main.ts), since what it imports brings undici in.
import {
  type BaseUrlNames,
  checkProxySettings,
  ListenError,
  PathNotServed,
  pathNotServedAdvice,
  ProxyConfigError,
  proxyDispatcher,
  proxySettingsFromEnv,
  ServiceError,
  setDefaultDispatcher,
  TransportError,
} from '../core/http';
import { TunnelError } from '../core/tunnel';
import type { CommandSpec } from './commandSpec';
import { listInWords, missingRequiredFlags, parseFlags, UsageError, type ParsedFlags } from './flags';
import { missingServiceVariables, notSetInWords } from './cliEnvironment';
import { errnoInWords, UNREACHABLE_NEXT } from './errnoWords';
import { StoppedBeforeSent, type CliIO } from './output';
import { EXIT } from './exitCodes';
import { transportErrorEvent } from './transportErrorEvent';
import { SandboxUnreachable, sandboxUnreachableEvent } from './sandboxTarget';

/** The CLI's settings are its variables. */
const CLI_NAMES: BaseUrlNames = { baseUrl: 'WFS_BASE_URL', testWebhookUrl: 'WFS_TEST_WEBHOOK_URL' };

export async function runCommand(command: CommandSpec, rest: string[], io: CliIO): Promise<number> {
  let restoreDispatcher: (() => void) | undefined;
  try {
    // A command that takes one word after its name (`wfs sandbox fault throttle`) has it first.
    const word = command.argument && rest[0] !== undefined && !rest[0].startsWith('-') ? rest[0] : undefined;
    if (command.argument && word === undefined)
      throw new UsageError(`wfs ${command.name} needs ${command.argument.value}: ${command.argument.description}`);
    const flags = parseFlags(
      word === undefined ? rest : rest.slice(1),
      command.flags,
      (command.env ?? []).flatMap(([names]) => names.split(/,\s*/)),
      command.positionals !== undefined,
    );
    if (word !== undefined) flags.argument = word;
    checkRequiredInputs(command, flags, io.env);
    const proxy = proxySettingsFromEnv(io.env);
    checkProxySettings(proxy, 'HTTPS_PROXY/HTTP_PROXY');
    const dispatcher = await proxyDispatcher(proxy);
    if (dispatcher) {
      const previous = setDefaultDispatcher(dispatcher);
      restoreDispatcher = () => {
        setDefaultDispatcher(previous);
        void dispatcher.close();
      };
    }
    return await command.run(flags, io);
  } catch (err) {
    return reportError(err, io, command);
  } finally {
    restoreDispatcher?.();
  }
}

/** Every required flag the command lacks, and (for a command that signs in) every service variable that is not set,
 * in one usage error: a user fixes them all in one go, not one per run. */
function checkRequiredInputs(command: CommandSpec, flags: ParsedFlags, env: NodeJS.ProcessEnv): void {
  // A command's arguments (`wfs send FILE|DIR…`) are required as its flags are: named with them.
  const argumentsMissing = command.positionals && flags.positionals.length === 0 ? [command.positionals[0]] : [];
  const flagsMissing = [...argumentsMissing, ...missingRequiredFlags(flags, command.flags)];
  if (missingRequiredFlags(flags, command.flags).length === 0) return;
  // A command signs in when it reads the credentials; WFS_BASE_URL alone may only name a sandbox (send, audit).
  const readsService = (command.env ?? []).some(([names]) => names === 'WFS_USERNAME, WFS_PASSWORD');
  const variables = readsService ? missingServiceVariables(env) : [];
  const flagWords = `${listInWords(flagsMissing)} ${flagsMissing.length === 1 ? 'is' : 'are'} required`;
  throw new UsageError(
    variables.length ? `${flagWords}; and ${notSetInWords(variables)}` : flagWords,
    `${argumentsMissing.length ? 'its arguments and flags' : 'its flags'}${variables.length ? ' and the environment it reads' : ''}`,
  );
}

function reportError(err: unknown, io: CliIO, command: CommandSpec): number {
  const { emit } = io;
  if (err instanceof UsageError || err instanceof ProxyConfigError) {
    const help =
      err instanceof UsageError && err.seeHelp ? ` (run \`wfs ${command.name} --help\` for ${err.seeHelp})` : '';
    emit({ event: 'error', kind: 'usage', message: err.message + help });
    return EXIT.usage;
  }
  if (err instanceof StoppedBeforeSent) {
    emit({ event: 'error', kind: 'interrupted', message: err.message });
    return EXIT.interrupted;
  }
  if (err instanceof ServiceError) {
    // Said with the variable to change: the core's words name the extension's settings.
    emit(
      err instanceof PathNotServed && err.operation
        ? { ...err.toJSON(), message: pathNotServedAdvice(err.operation, err.requestUrl, CLI_NAMES) }
        : err.toJSON(),
    );
    if (err.kind === 'local-validation') return EXIT.usage;
    if (err.kind === 'outcome-unknown') return EXIT.outcomeUnknown;
    return EXIT.failed;
  }
  if (err instanceof ListenError) {
    emit({
      event: 'error',
      kind: 'listen',
      code: err.code,
      message: `${err.message} (${err.code === 'EADDRNOTAVAIL' ? '--host' : `--port ${err.port}`})`,
    });
    return EXIT.failed;
  }
  if (err instanceof TunnelError) {
    emit({ event: 'error', kind: 'tunnel', message: err.message });
    return EXIT.failed;
  }
  if (err instanceof SandboxUnreachable) {
    emit(sandboxUnreachableEvent(err));
    return EXIT.failed;
  }
  if (err instanceof TransportError) {
    emit(transportErrorEvent(err, transportMessage(err)));
    return EXIT.failed;
  }
  emit({ event: 'error', kind: 'internal', message: (err as Error)?.message ?? String(err) });
  return EXIT.failed;
}

/** A request that got no answer, in words: the errno said plainly with its code kept, then what to do. */
function transportMessage(err: TransportError): string {
  const where = (() => {
    try {
      return new URL(err.url).origin;
    } catch {
      return err.url;
    }
  })();
  const words = err.reason === 'network' ? errnoInWords(err.code, where) : undefined;
  return words ? `${words}: ${UNREACHABLE_NEXT}` : err.message;
}

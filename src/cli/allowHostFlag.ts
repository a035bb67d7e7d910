// --allow-host NAME (repeatable), for `wfs sandbox` and `wfs listen`: the names answered besides loopback ones, each
// checked before anything listens (core/http/hostCheck.ts holds the one Host rule both servers apply).
import { allowedHostProblem } from '../core/http';
import { UsageError, type ParsedFlags } from './flags';

export function allowHostFlag(flags: ParsedFlags): string[] {
  const names = flags.lists.get('allow-host') ?? [];
  for (const name of names) {
    const problem = allowedHostProblem(name);
    if (problem) throw new UsageError(`--allow-host ${problem}`);
  }
  return names.map((n) => n.trim());
}

// `wfs sandbox --profile FILE`: the profile read and checked before the sandbox starts, a bad one refused with
// what to do.
import { loadSandboxProfile, MAX_PROFILE_BYTES, type LoadedProfile } from '../../core/sandbox';
import { readBoundedText } from '../boundedRead';
import { UsageError } from '../flags';

export function readProfileFlag(file: string | undefined): LoadedProfile | undefined {
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = readBoundedText(file, MAX_PROFILE_BYTES);
  } catch (err) {
    throw new UsageError(`--profile ${file}: cannot read it: ${(err as Error).message}`);
  }
  try {
    return loadSandboxProfile(text);
  } catch (err) {
    throw new UsageError(`--profile ${file}: ${(err as Error).message}`);
  }
}

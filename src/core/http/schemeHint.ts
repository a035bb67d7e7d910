import { isLoopbackHost } from './loopback';
import { english, said, type Said } from '../presentation/said';

/**
 * The hint for an address written without its scheme: "api.example.com" is not a URL at all, and "localhost:8080"
 * parses as the scheme "localhost:", so both would otherwise get a message that does not say what is wrong.
 * Loopback addresses are named with http (a local sandbox), every other with https.
 */
export function missingSchemeHint(value: string): string {
  const hint = schemeHintSaid(value);
  return hint ? ` ${english(hint)}` : '';
}

/** The same hint as core says it, without the space that joins it to a sentence: undefined when there is none. */
export function schemeHintSaid(value: string): Said | undefined {
  const v = value.trim();
  const address = /^(\[[0-9a-f:]+\]|[\w.-]+)(:\d{1,5})?(\/\S*)?$/i.exec(v);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v) || !address) return undefined;
  return said('(it lacks its scheme: write {0})', `${isLoopbackHost(address[1]!) ? 'http' : 'https'}://${v}`);
}
